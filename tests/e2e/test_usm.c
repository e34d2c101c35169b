/* tests/e2e/test_usm.c — kernels on cl_intel_unified_shared_memory allocations (runtime/usm.c),
 * checked against host references: one launch reading a host and a shared allocation and writing a
 * device allocation, all passed with clSetKernelArgMemPointerINTEL, with the data moved in and out
 * by clEnqueueMemFillINTEL / clEnqueueMemcpyINTEL ordered with the launch in one queue; a table of
 * pointers to allocations of every kind read and written by a kernel that only finds them through
 * the table (CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL); a kernel and the host handing a flag
 * back and forth through atomics in USM memory, by pointer and through buffers over it; a chain of stencil launches on USM
 * pointers that fusion must leave alone (it fuses the same chain on cl_mem buffers, so the test can
 * tell); and WEFT_VERIFY running a launch on USM pointers exactly once. */
#include "test_kernels_harness.h"

#include <CL/cl_ext.h>
#include <time.h>

static const char *source =
    "kernel void saxpy(global const float *x, global const float *y, global float *out, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a * x[i] + y[i];\n"
    "}\n"
    "kernel void gather(global float *global *table, uint k, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = table[i % k][i] + (float)(i % k) * 1000.0f;\n"
    "}\n"
    "kernel void scatter(global float *global *table, uint k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  for (uint r = 0; r < k; r++) table[r][i] += (float)(r + 1);\n"
    "}\n"
    /* a divergent loop that votes breadth-first: the runtime profiles a second variant */
    "kernel void bump(global int *p, global const int *q) {\n"
    "  int i = get_global_id(0);\n"
    "  int n = q[i & 63], acc = 0;\n"
    "  for (int j = 0; j < n; j++) acc += q[j];\n"
    "  p[i] += 1 + (acc == -7);\n"
    "}\n"
    "kernel void handshake(volatile global atomic_int *flag, global int *data) {\n"
    "  long spins = 0;\n"
    "  while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_all_svm_devices) != 1) {\n"
    "    if (++spins > (1L << 34)) { data[0] = -1; return; }\n"
    "  }\n"
    "  data[0] = data[1] + 41;\n"
    "  atomic_store_explicit(flag, 2, memory_order_release, memory_scope_all_svm_devices);\n"
    "}\n"
    "kernel void jacobi1d(global const float *a, global float *b, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i > 0 && i < n - 1) b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);\n"
    "  else b[i] = a[i];\n"
    "}\n";

/* The extension's functions, found through the platform as an application finds them. */
static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemFreeINTEL_fn mem_free;
static clSetKernelArgMemPointerINTEL_fn set_arg_ptr;
static clEnqueueMemFillINTEL_fn mem_fill;
static clEnqueueMemcpyINTEL_fn mem_copy;

static cl_command_queue pq;   /* in-order, with profiling (fusion is observed through it) */

static int setup(void **state)
{
    (void)state;
    if (harness_open(source, "-cl-std=CL3.0") != 0)
        return -1;
    cl_platform_id p = env.platform;
    host_alloc = (clHostMemAllocINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clHostMemAllocINTEL");
    device_alloc = (clDeviceMemAllocINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clDeviceMemAllocINTEL");
    shared_alloc = (clSharedMemAllocINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clSharedMemAllocINTEL");
    mem_free = (clMemFreeINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clMemFreeINTEL");
    set_arg_ptr = (clSetKernelArgMemPointerINTEL_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clSetKernelArgMemPointerINTEL");
    mem_fill = (clEnqueueMemFillINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clEnqueueMemFillINTEL");
    mem_copy = (clEnqueueMemcpyINTEL_fn)clGetExtensionFunctionAddressForPlatform(p, "clEnqueueMemcpyINTEL");
    if (!host_alloc || !device_alloc || !shared_alloc || !mem_free || !set_arg_ptr || !mem_fill || !mem_copy)
        return -1;
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    pq = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
    return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseCommandQueue(pq);
    return harness_close();
}

static void run1d(cl_command_queue q, cl_kernel k, size_t global)
{
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
}

static void *alloc_checked(cl_unified_shared_memory_type_intel type, size_t size)
{
    cl_int err = 1;
    void *p = type == CL_MEM_TYPE_HOST_INTEL     ? host_alloc(env.context, NULL, size, 0, &err)
              : type == CL_MEM_TYPE_DEVICE_INTEL ? device_alloc(env.context, env.device, NULL, size, 0, &err)
                                                 : shared_alloc(env.context, env.device, NULL, size, 0, &err);
    if (!p || err != CL_SUCCESS)
        fail_msg("allocation of type 0x%x, %zu bytes: %p, error %d", type, size, p, err);
    return p;
}

/* ---- one launch on host, shared and device allocations; fill and copy around it ---- */

static void test_kernel_on_every_kind(void **state)
{
    (void)state;
    enum { N = 10007, OFF = 16, M = N - 100 };
    float *x = alloc_checked(CL_MEM_TYPE_HOST_INTEL, N * sizeof(float));
    float *y = alloc_checked(CL_MEM_TYPE_SHARED_INTEL, N * sizeof(float));
    float *out = alloc_checked(CL_MEM_TYPE_DEVICE_INTEL, N * sizeof(float));
    float *init = malloc(N * sizeof(float)), *got = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 101) - 50.0f;   /* host and shared memory: the host writes directly */
        init[i] = (float)(i % 7);
    }
    /* in one in-order queue, none of it waited for by the host until the final copy:
     * y's first half filled with 0.5, its second half copied from init; out filled with -1 */
    const float half = 0.5f, minus_one = -1.0f;
    assert_int_equal(mem_fill(env.queue, y, &half, sizeof half, (N / 2) * sizeof(float), 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(mem_copy(env.queue, CL_FALSE, y + N / 2, init + N / 2, (N - N / 2) * sizeof(float), 0, NULL,
                              NULL), CL_SUCCESS);
    assert_int_equal(mem_fill(env.queue, out, &minus_one, sizeof minus_one, N * sizeof(float), 0, NULL, NULL),
                     CL_SUCCESS);
    cl_kernel k = kernel_new("saxpy");
    float a = 3.0f;
    assert_int_equal(set_arg_ptr(k, 0, x + OFF), CL_SUCCESS);   /* pointers into the middle */
    assert_int_equal(set_arg_ptr(k, 1, y + OFF), CL_SUCCESS);
    assert_int_equal(set_arg_ptr(k, 2, out + OFF), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof a, &a), CL_SUCCESS);
    run1d(env.queue, k, M);
    assert_int_equal(mem_copy(env.queue, CL_TRUE, got, out, N * sizeof(float), 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        float yi = i < N / 2 ? 0.5f : (float)(i % 7);
        float want = i >= OFF && i < OFF + M ? 3.0f * ((float)(i % 101) - 50.0f) + yi : -1.0f;
        if (got[i] != want)
            fail_msg("out[%d] is %g, not %g", i, got[i], want);
        if (y[i] != yi)
            fail_msg("y[%d] is %g, not %g", i, y[i], yi);
    }
    clReleaseKernel(k);
    assert_int_equal(mem_free(env.context, x), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, y), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, out), CL_SUCCESS);
    free(init), free(got);
}

/* ---- indirect access through a table of pointers ---- */

static void test_indirect_access_through_table(void **state)
{
    (void)state;
    enum { K = 6, N = 3000 };
    static const cl_unified_shared_memory_type_intel kind[3] = {CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL,
                                                               CL_MEM_TYPE_SHARED_INTEL};
    float **table = alloc_checked(CL_MEM_TYPE_SHARED_INTEL, K * sizeof(float *));
    float *out = alloc_checked(CL_MEM_TYPE_DEVICE_INTEL, N * sizeof(float));
    float *rows_init = malloc(N * sizeof(float)), *got = malloc(N * sizeof(float));
    for (int r = 0; r < K; r++) {
        table[r] = alloc_checked(kind[r % 3], N * sizeof(float));
        for (int i = 0; i < N; i++)
            rows_init[i] = (float)(i * (r + 1) % 251);
        /* device memory is written by a copy, the others directly too: both must do */
        assert_int_equal(mem_copy(env.queue, CL_TRUE, table[r], rows_init, N * sizeof(float), 0, NULL, NULL),
                         CL_SUCCESS);
    }
    static const cl_kernel_exec_info indirect[] = {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                                   CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                                   CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL};
    const cl_bool yes = CL_TRUE;
    cl_kernel g = kernel_new("gather"), s = kernel_new("scatter");
    for (size_t i = 0; i < ARRAY_LEN(indirect); i++) {
        assert_int_equal(clSetKernelExecInfo(g, indirect[i], sizeof yes, &yes), CL_SUCCESS);
        assert_int_equal(clSetKernelExecInfo(s, indirect[i], sizeof yes, &yes), CL_SUCCESS);
    }
    cl_uint k = K;
    assert_int_equal(set_arg_ptr(g, 0, table), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(g, 1, sizeof k, &k), CL_SUCCESS);
    assert_int_equal(set_arg_ptr(g, 2, out), CL_SUCCESS);
    assert_int_equal(set_arg_ptr(s, 0, table), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(s, 1, sizeof k, &k), CL_SUCCESS);
    /* scatter writes every row through the table, then gather reads them back */
    run1d(env.queue, s, N);
    run1d(env.queue, g, N);
    assert_int_equal(mem_copy(env.queue, CL_TRUE, got, out, N * sizeof(float), 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        int r = i % K;
        float want = (float)(i * (r + 1) % 251) + (float)(r + 1) + (float)r * 1000.0f;
        if (got[i] != want)
            fail_msg("out[%d] is %g, not %g (row %d, %s memory)", i, got[i], want, r,
                     kind[r % 3] == CL_MEM_TYPE_HOST_INTEL ? "host" : kind[r % 3] == CL_MEM_TYPE_DEVICE_INTEL ? "device"
                                                                                                       : "shared");
    }
    /* every element of every row was written once */
    for (int r = 0; r < K; r++) {
        assert_int_equal(mem_copy(env.queue, CL_TRUE, got, table[r], N * sizeof(float), 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < N; i++)
            if (got[i] != (float)(i * (r + 1) % 251) + (float)(r + 1))
                fail_msg("row %d element %d is %g", r, i, got[i]);
    }
    clReleaseKernel(g);
    clReleaseKernel(s);
    for (int r = 0; r < K; r++)
        assert_int_equal(mem_free(env.context, table[r]), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, table), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, out), CL_SUCCESS);
    free(rows_init), free(got);
}

/* ---- concurrent atomic access: a running kernel and the host hand a flag back and forth ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kernel waits for the host's flag, answers through memory and raises the flag again, which
 * the host waits for before the command is complete (the device reports concurrent atomic access
 * for every USM kind). The first rounds raise the flag before the launch, so the one-group runs
 * are short; a short one-group launch may run on the enqueueing thread (ndrange.c), which would
 * then wait for a flag that thread has not raised yet: a launch whose memory is USM never does.
 * (The kernel gives up after 2^34 spins, seconds, so that such a bug fails instead of hanging.) */
static void handshake_rounds(cl_kernel k, int *flag, int *data)
{
    for (int round = 0; round < 12; round++) {
        bool early = round < 8;   /* the flag is up before the launch */
        __atomic_store_n(flag, early ? 1 : 0, __ATOMIC_RELEASE);
        data[0] = 0;
        data[1] = round;
        cl_event ev;
        size_t one = 1;
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &one, &one, 0, NULL, &ev), CL_SUCCESS);
        assert_int_equal(clFlush(env.queue), CL_SUCCESS);
        if (!early)
            __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
        double t0 = now_s();
        while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2 && __atomic_load_n(&data[0], __ATOMIC_ACQUIRE) != -1 &&
               now_s() - t0 < 60.0)
            ;
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2)
            fail_msg("round %d: the kernel did not answer (data %d): it did not see the host's flag", round,
                     data[0]);
        assert_int_equal(data[0], round + 41);
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        clReleaseEvent(ev);
    }
}

/* Through USM pointers set with clSetKernelArgMemPointerINTEL, and through cl_mem buffers created
 * over a shared and a host allocation (no pointer argument at all: the buffers' storage is USM). */
static void test_atomic_handshake_with_running_kernel(void **state)
{
    (void)state;
    int *flag = alloc_checked(CL_MEM_TYPE_SHARED_INTEL, sizeof(int));
    int *data = alloc_checked(CL_MEM_TYPE_HOST_INTEL, 2 * sizeof(int));
    cl_kernel k = kernel_new("handshake");
    assert_int_equal(set_arg_ptr(k, 0, flag), CL_SUCCESS);
    assert_int_equal(set_arg_ptr(k, 1, data), CL_SUCCESS);
    handshake_rounds(k, flag, data);
    clReleaseKernel(k);

    cl_int err;
    cl_mem fb = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, sizeof(int), flag, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem db = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 2 * sizeof(int), data, &err);
    assert_int_equal(err, CL_SUCCESS);
    k = kernel_new("handshake");
    kernel_set_args(k, KARGS(KARG(fb), KARG(db)));
    handshake_rounds(k, flag, data);
    clReleaseKernel(k);
    clReleaseMemObject(fb);
    clReleaseMemObject(db);
    assert_int_equal(mem_free(env.context, flag), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, data), CL_SUCCESS);
}

/* ---- fusion leaves launches on USM pointers alone ---- */

/* How many launches started together with the one before them (a fused run). Releases them. */
static unsigned count_fused(cl_event *ev, unsigned n)
{
    unsigned together = 0;
    cl_ulong prev = 0;
    for (unsigned i = 0; i < n; i++) {
        cl_ulong start;
        assert_int_equal(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
                         CL_SUCCESS);
        together += i > 0 && start == prev;
        prev = start;
        clReleaseEvent(ev[i]);
    }
    return together;
}

/* `steps` Jacobi sweeps over n floats from init on cl_mem buffers or on device USM pointers,
 * without a sync point between them; the result goes to out; returns how many launches ran
 * fused with their predecessor. */
static unsigned jacobi_chain(bool usm, const float *init, int n, int steps, float *out)
{
    size_t bytes = (size_t)n * sizeof(float);
    cl_kernel k = kernel_new("jacobi1d");
    float *d[2] = {NULL, NULL};
    cl_mem m[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        if (usm) {
            d[i] = alloc_checked(CL_MEM_TYPE_DEVICE_INTEL, bytes);
            assert_int_equal(mem_copy(pq, CL_TRUE, d[i], init, bytes, 0, NULL, NULL), CL_SUCCESS);
        } else {
            m[i] = buf_new(bytes, init);
        }
    }
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    size_t global = (size_t)n;
    for (int s = 0; s < steps; s++) {
        int src = s % 2, dst = 1 - src;
        if (usm) {
            assert_int_equal(set_arg_ptr(k, 0, d[src]), CL_SUCCESS);
            assert_int_equal(set_arg_ptr(k, 1, d[dst]), CL_SUCCESS);
        } else {
            assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &m[src]), CL_SUCCESS);
            assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), &m[dst]), CL_SUCCESS);
        }
        assert_int_equal(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, &ev[s]), CL_SUCCESS);
    }
    int last = steps % 2;
    if (usm)
        assert_int_equal(mem_copy(pq, CL_TRUE, out, d[last], bytes, 0, NULL, NULL), CL_SUCCESS);
    else
        assert_int_equal(clEnqueueReadBuffer(pq, m[last], CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned fused = count_fused(ev, (unsigned)steps);
    free(ev);
    for (int i = 0; i < 2; i++) {
        if (m[i])
            clReleaseMemObject(m[i]);
        if (d[i])
            assert_int_equal(mem_free(env.context, d[i]), CL_SUCCESS);
    }
    clReleaseKernel(k);
    return fused;
}

static void test_fusion_leaves_usm_launches_alone(void **state)
{
    (void)state;
    enum { N = 10007, STEPS = 16 };
    setenv("WEFT_FUSE_DEPTH", "4", 1);   /* fuse whenever it can, whatever the measured costs */
    setenv("WEFT_FUSE_TILE", "1000", 1);
    float *init = malloc(N * sizeof(float)), *host = malloc(N * sizeof(float)), *next = malloc(N * sizeof(float));
    float *got = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        init[i] = (float)((unsigned)i * 7919u % 1000u) / 10.0f;
    memcpy(host, init, N * sizeof(float));
    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; i < N; i++)
            next[i] = i > 0 && i < N - 1 ? (host[i - 1] + host[i] + host[i + 1]) * (1.0f / 3.0f) : host[i];
        memcpy(host, next, N * sizeof(float));
    }
    for (int usm = 0; usm <= 1; usm++) {
        unsigned fused = jacobi_chain(usm, init, N, STEPS, got);
        for (int i = 0; i < N; i++)
            if (fabsf(got[i] - host[i]) > 1e-3f * (1.0f + fabsf(host[i])))
                fail_msg("%s: element %d is %g, host %g", usm ? "USM pointers" : "cl_mem buffers", i, got[i], host[i]);
        /* the buffers' chain shows that fusion was possible; the USM chain must not have fused */
        if (!usm && fused == 0)
            fail_msg("the chain on cl_mem buffers was not fused: the test cannot tell");
        if (usm && fused != 0)
            fail_msg("%u launches on USM pointers were fused", fused);
    }
    unsetenv("WEFT_FUSE_DEPTH");
    unsetenv("WEFT_FUSE_TILE");
    free(init), free(host), free(next), free(got);
}

/* WEFT_VERIFY runs a sample of work-groups with both variants, restoring the cl_mem arguments in
 * between: a kernel writing through a USM pointer would see its sample run twice. Weft runs such a
 * launch once; every element is incremented exactly once per round. */
static void test_verify_runs_usm_launches_once(void **state)
{
    (void)state;
    enum { N = 1 << 14 };
    int *p = alloc_checked(CL_MEM_TYPE_SHARED_INTEL, N * sizeof(int));
    int *q = alloc_checked(CL_MEM_TYPE_HOST_INTEL, 64 * sizeof(int));
    for (int i = 0; i < 64; i++)
        q[i] = i % 13;
    cl_kernel k = kernel_new("bump");
    assert_int_equal(set_arg_ptr(k, 0, p), CL_SUCCESS);
    assert_int_equal(set_arg_ptr(k, 1, q), CL_SUCCESS);
    setenv("WEFT_VERIFY", "1", 1);
    for (int round = 1; round <= 3; round++) {
        run1d(env.queue, k, N);
        assert_int_equal(clFinish(env.queue), CL_SUCCESS);
        for (int i = 0; i < N; i++)
            if (p[i] != round)
                fail_msg("round %d: p[%d] is %d: a work-group ran %s", round, i, p[i],
                         p[i] > round ? "more than once" : "not at all");
    }
    unsetenv("WEFT_VERIFY");
    clReleaseKernel(k);
    assert_int_equal(mem_free(env.context, p), CL_SUCCESS);
    assert_int_equal(mem_free(env.context, q), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_on_every_kind),
        cmocka_unit_test(test_indirect_access_through_table),
        cmocka_unit_test(test_atomic_handshake_with_running_kernel),
        cmocka_unit_test(test_fusion_leaves_usm_launches_alone),
        cmocka_unit_test(test_verify_runs_usm_launches_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
