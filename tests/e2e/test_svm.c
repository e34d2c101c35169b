/* tests/e2e/test_svm.c — kernels on shared virtual memory (runtime/svm.c), checked against host
 * references: a coarse-grain allocation written and read back through clEnqueueSVMMap/Unmap
 * around a kernel; fine-grain allocations passed as pointers into their middle; a table of
 * pointers to other allocations named by CL_KERNEL_EXEC_INFO_SVM_PTRS; linked lists built in
 * plain malloc memory and walked by a kernel under fine-grain system SVM; SVM atomics between the
 * host and a running kernel (a shared counter, and a handshake in both directions); and a chain
 * of stencil launches on SVM pointers that fusion must leave alone (it fuses the same chain on
 * cl_mem buffers, so the test can tell), with results equal to the host's. */
#include "test_kernels_harness.h"

#include <time.h>

static const char *source =
    "kernel void scale(global float *p, float s) {\n"
    "  size_t i = get_global_id(0);\n"
    "  p[i] *= s;\n"
    "}\n"
    "kernel void axpy(global const float *x, global float *y, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] += a * x[i];\n"
    "}\n"
    "kernel void gather(global float *global *table, uint k, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = table[i % k][i] + (float)(i % k) * 1000.0f;\n"
    "}\n"
    "typedef struct node { global struct node *next; int value; int pad; } node;\n"
    "kernel void walk(global node *global *heads, global long *sums, global int *lengths) {\n"
    "  size_t i = get_global_id(0);\n"
    "  long s = 0;\n"
    "  int n = 0;\n"
    "  for (global node *p = heads[i]; p; p = p->next) {\n"
    "    s += p->value * (long)(n + 1);\n"
    "    n++;\n"
    "  }\n"
    "  sums[i] = s;\n"
    "  lengths[i] = n;\n"
    "}\n"
    /* the device reports __opencl_c_atomic_scope_all_devices: memory_scope_all_svm_devices is
     * what orders the kernel's atomics with the host's */
    "#ifndef __opencl_c_atomic_scope_all_devices\n"
    "#error the device reports __opencl_c_atomic_scope_all_devices but the kernel does not see it\n"
    "#endif\n"
    "kernel void count(volatile global atomic_int *c, int per_item) {\n"
    "  for (int j = 0; j < per_item; j++)\n"
    "    atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "}\n"
    "kernel void handshake(volatile global atomic_int *flag, global int *data) {\n"
    "  long spins = 0;\n"
    "  while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_all_svm_devices) != 1) {\n"
    "    if (++spins > (1L << 34)) { data[0] = -1; return; }\n"
    "  }\n"
    "  data[0] = data[1] + 41;\n"
    "  atomic_store_explicit(flag, 2, memory_order_release, memory_scope_all_svm_devices);\n"
    "}\n"
    /* a divergent loop that votes breadth-first: the runtime profiles a second variant */
    "kernel void bump(global int *p, global const int *q) {\n"
    "  int i = get_global_id(0);\n"
    "  int n = q[i & 63], acc = 0;\n"
    "  for (int j = 0; j < n; j++) acc += q[j];\n"
    "  p[i] += 1 + (acc == -7);\n"
    "}\n"
    /* the same through a pointer it loads from a cl_mem buffer: no SVM argument at all */
    "kernel void bump_indirect(global int *global *table, global const int *q) {\n"
    "  int i = get_global_id(0);\n"
    "  int n = q[i & 63], acc = 0;\n"
    "  for (int j = 0; j < n; j++) acc += q[j];\n"
    "  global int *p = table[0];\n"
    "  p[i] += 1 + (acc == -7);\n"
    "}\n"
    "kernel void jacobi1d(global const float *a, global float *b, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i > 0 && i < n - 1) b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);\n"
    "  else b[i] = a[i];\n"
    "}\n";

static cl_command_queue pq;   /* in-order, with profiling (fusion is observed through it) */

static int setup(void **state)
{
    (void)state;
    if (harness_open(source, "-cl-std=CL3.0") != 0)
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

/* ---- coarse grain: map, write, unmap, kernel, map, read ---- */

static void test_coarse_grain_map_round_trip(void **state)
{
    (void)state;
    enum { N = 10007 };
    float *p = clSVMAlloc(env.context, CL_MEM_READ_WRITE, N * sizeof(float), 0);
    assert_non_null(p);
    assert_int_equal(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, p, N * sizeof(float), 0,
                                     NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        p[i] = (float)i - 500.0f;
    assert_int_equal(clEnqueueSVMUnmap(env.queue, p, 0, NULL, NULL), CL_SUCCESS);
    cl_kernel k = kernel_new("scale");
    float s = 3.0f;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, p), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof s, &s), CL_SUCCESS);
    run1d(env.queue, k, N);
    assert_int_equal(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, N * sizeof(float), 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (p[i] != ((float)i - 500.0f) * 3.0f)
            fail_msg("element %d is %g, not %g", i, p[i], ((float)i - 500.0f) * 3.0f);
    assert_int_equal(clEnqueueSVMUnmap(env.queue, p, 0, NULL, NULL), CL_SUCCESS);
    /* the same memory as a buffer: a kernel on the cl_mem, read back with clEnqueueReadBuffer */
    cl_int err;
    cl_mem b = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, N * sizeof(float), p, &err);
    assert_int_equal(err, CL_SUCCESS);
    s = 0.5f;
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof s, &s), CL_SUCCESS);
    run1d(env.queue, k, N);
    float *back = malloc(N * sizeof(float));
    assert_int_equal(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, N * sizeof(float), back, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (back[i] != ((float)i - 500.0f) * 1.5f)
            fail_msg("buffer element %d is %g", i, back[i]);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    free(back);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clSVMFree(env.context, p);
}

/* ---- fine grain: pointers into the middle, no map ---- */

static void test_fine_grain_pointer_into_middle(void **state)
{
    (void)state;
    enum { N = 4096, XOFF = 16, YOFF = 40, M = N - 64 };
    float *x = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(float), 0);
    float *y = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(float), 0);
    assert_non_null(x);
    assert_non_null(y);
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 97);
        y[i] = 1.0f;
    }
    cl_kernel k = kernel_new("axpy");
    float a = 2.0f;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, x + XOFF), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, y + YOFF), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof a, &a), CL_SUCCESS);
    run1d(env.queue, k, M);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        float want = i >= YOFF && i < YOFF + M ? 1.0f + 2.0f * (float)((i - YOFF + XOFF) % 97) : 1.0f;
        if (y[i] != want)
            fail_msg("y[%d] is %g, not %g", i, y[i], want);
    }
    /* the host writes between launches without any map: fine grain */
    for (int i = 0; i < N; i++)
        x[i] = 1.0f;
    run1d(env.queue, k, M);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    assert_true(y[YOFF] == 1.0f + 2.0f * (float)(XOFF % 97) + 2.0f);
    assert_true(y[YOFF - 1] == 1.0f);
    clReleaseKernel(k);
    clSVMFree(env.context, x);
    clSVMFree(env.context, y);
}

/* ---- a table of pointers to other allocations (CL_KERNEL_EXEC_INFO_SVM_PTRS) ---- */

static void test_pointer_table_exec_info(void **state)
{
    (void)state;
    enum { K = 5, N = 3000 };
    float **table = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, K * sizeof(float *), 0);
    float *out = clSVMAlloc(env.context, CL_MEM_READ_WRITE, N * sizeof(float), 0);
    assert_non_null(table);
    assert_non_null(out);
    void *rows[K];
    for (int r = 0; r < K; r++) {
        table[r] = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(float), 0);
        assert_non_null(table[r]);
        for (int i = 0; i < N; i++)
            table[r][i] = (float)(i * (r + 1) % 251);
        rows[r] = (char *)table[r] + 4 * r;   /* any pointer into an allocation names it */
    }
    cl_kernel k = kernel_new("gather");
    cl_uint kk = K;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, table), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof kk, &kk), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 2, out), CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof rows, rows), CL_SUCCESS);
    run1d(env.queue, k, N);
    assert_int_equal(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, out, N * sizeof(float), 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        int r = i % K;
        float want = (float)(i * (r + 1) % 251) + (float)r * 1000.0f;
        if (out[i] != want)
            fail_msg("out[%d] is %g, not %g", i, out[i], want);
    }
    assert_int_equal(clEnqueueSVMUnmap(env.queue, out, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clReleaseKernel(k);
    for (int r = 0; r < K; r++)
        clSVMFree(env.context, table[r]);
    clSVMFree(env.context, table);
    clSVMFree(env.context, out);
}

/* ---- fine-grain system SVM: linked lists in malloc memory ---- */

struct node {
    struct node *next;
    int value;
    int pad;
};

static void test_linked_lists_in_malloc_memory(void **state)
{
    (void)state;
    enum { LISTS = 37 };
    struct node **heads = malloc(LISTS * sizeof *heads);
    long *sums = malloc(LISTS * sizeof *sums), want_sum[LISTS];
    int *lengths = malloc(LISTS * sizeof *lengths), want_len[LISTS];
    struct node **all = malloc(LISTS * 300 * sizeof *all);
    size_t nall = 0;
    for (int l = 0; l < LISTS; l++) {
        int len = (int)(rng_next() % 300);   /* 0 included: an empty list */
        heads[l] = NULL;
        struct node **tail = &heads[l];
        want_sum[l] = 0;
        want_len[l] = len;
        for (int j = 0; j < len; j++) {
            struct node *n = malloc(sizeof *n);   /* each node its own allocation */
            n->next = NULL;
            n->value = (int)(rng_next() % 2001) - 1000;
            n->pad = 0;
            *tail = n;
            tail = &n->next;
            all[nall++] = n;
            want_sum[l] += (long)n->value * (j + 1);
        }
        sums[l] = -12345;
        lengths[l] = -1;
    }
    cl_kernel k = kernel_new("walk");
    cl_bool yes = CL_TRUE;
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, heads), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, sums), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 2, lengths), CL_SUCCESS);
    run1d(env.queue, k, LISTS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    for (int l = 0; l < LISTS; l++) {
        if (lengths[l] != want_len[l])
            fail_msg("list %d: the kernel walked %d nodes, not %d", l, lengths[l], want_len[l]);
        if (sums[l] != want_sum[l])
            fail_msg("list %d: weighted sum %ld, not %ld", l, sums[l], want_sum[l]);
    }
    /* the host relinks the lists (every other node dropped) and the kernel sees the new links */
    for (int l = 0; l < LISTS; l++) {
        want_sum[l] = 0;
        want_len[l] = 0;
        for (struct node *n = heads[l]; n; n = n->next) {
            want_sum[l] += (long)n->value * (want_len[l] + 1);
            want_len[l]++;
            if (n->next)
                n->next = n->next->next;
        }
    }
    run1d(env.queue, k, LISTS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    for (int l = 0; l < LISTS; l++)
        if (lengths[l] != want_len[l] || sums[l] != want_sum[l])
            fail_msg("relinked list %d: %d nodes, sum %ld; want %d, %ld", l, lengths[l], sums[l], want_len[l],
                     want_sum[l]);
    clReleaseKernel(k);
    for (size_t i = 0; i < nall; i++)
        free(all[i]);
    free(all), free(heads), free(sums), free(lengths);
}

/* ---- SVM atomics between the host and a running kernel ---- */

static void test_atomic_counter_shared_with_host(void **state)
{
    (void)state;
    int *c = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int), 0);
    assert_non_null(c);
    *c = 0;
    cl_kernel k = kernel_new("count");
    int per_item = 200;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, c), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof per_item, &per_item), CL_SUCCESS);
    enum { ITEMS = 4096, HOST = 300000 };
    run1d(env.queue, k, ITEMS);
    assert_int_equal(clFlush(env.queue), CL_SUCCESS);
    for (int i = 0; i < HOST; i++)   /* while the kernel runs, or before or after: the sum is exact */
        __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    assert_int_equal(__atomic_load_n(c, __ATOMIC_ACQUIRE), ITEMS * per_item + HOST);
    clReleaseKernel(k);
    clSVMFree(env.context, c);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kernel waits for the host's flag, answers through memory and raises the flag again, which
 * the host waits for before the command is complete: only fine-grain SVM with atomics allows it.
 * The first rounds raise the flag before the launch, so the kernel's one-group runs are short;
 * a short one-group launch may run on the enqueueing thread (ndrange.c), which here would wait
 * for a flag that thread has not raised yet: a kernel on SVM never does. (The kernel gives up
 * after 2^34 spins, seconds, so that such a bug fails instead of hanging.) */
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

static void test_atomic_handshake_with_running_kernel(void **state)
{
    (void)state;
    int *flag = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int), 0);
    int *data = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 2 * sizeof(int), 0);
    assert_non_null(flag);
    assert_non_null(data);
    cl_kernel k = kernel_new("handshake");
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, flag), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, data), CL_SUCCESS);
    handshake_rounds(k, flag, data);
    clReleaseKernel(k);
    clSVMFree(env.context, flag);
    clSVMFree(env.context, data);
}

/* The same through cl_mem buffers created over the SVM allocations (their atomics are the
 * allocation's): a launch with no SVM argument at all must not run on the host's thread either. */
static void test_atomic_handshake_through_buffers_over_svm(void **state)
{
    (void)state;
    int *flag = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(int), 0);
    int *data = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 2 * sizeof(int), 0);
    assert_non_null(flag);
    assert_non_null(data);
    cl_int err;
    cl_mem fb = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, sizeof(int), flag, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem db = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 2 * sizeof(int), data, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = kernel_new("handshake");
    kernel_set_args(k, KARGS(KARG(fb), KARG(db)));
    handshake_rounds(k, flag, data);
    clReleaseKernel(k);
    clReleaseMemObject(fb);
    clReleaseMemObject(db);
    clSVMFree(env.context, flag);
    clSVMFree(env.context, data);
}

/* ---- fusion leaves launches on SVM pointers alone ---- */

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

enum chain_kind { ON_BUFFERS, ON_SVM_POINTERS, ON_BUFFERS_OVER_SVM };

/* `steps` Jacobi sweeps over n floats from init, without a sync point between them; the result
 * goes to out; returns how many launches ran fused with their predecessor. */
static unsigned jacobi_chain(enum chain_kind kind, const float *init, int n, int steps, float *out)
{
    size_t bytes = (size_t)n * sizeof(float);
    cl_kernel k = kernel_new("jacobi1d");
    float *svm[2] = {clSVMAlloc(env.context, 0, bytes, 0), clSVMAlloc(env.context, 0, bytes, 0)};
    assert_non_null(svm[0]);
    assert_non_null(svm[1]);
    memcpy(svm[0], init, bytes);   /* no command touched them yet */
    memcpy(svm[1], init, bytes);
    cl_mem m[2] = {NULL, NULL};
    cl_int err;
    for (int i = 0; i < 2 && kind != ON_SVM_POINTERS; i++) {
        m[i] = kind == ON_BUFFERS ? buf_new(bytes, init)
                                  : clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, bytes, svm[i], &err);
        assert_non_null(m[i]);
    }
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    size_t global = (size_t)n;
    for (int s = 0; s < steps; s++) {
        int src = s % 2, dst = 1 - src;
        if (kind == ON_SVM_POINTERS) {
            assert_int_equal(clSetKernelArgSVMPointer(k, 0, svm[src]), CL_SUCCESS);
            assert_int_equal(clSetKernelArgSVMPointer(k, 1, svm[dst]), CL_SUCCESS);
        } else {
            assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &m[src]), CL_SUCCESS);
            assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), &m[dst]), CL_SUCCESS);
        }
        assert_int_equal(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, &ev[s]), CL_SUCCESS);
    }
    int last = steps % 2;
    if (kind == ON_SVM_POINTERS)
        assert_int_equal(clEnqueueSVMMemcpy(pq, CL_TRUE, out, svm[last], bytes, 0, NULL, NULL), CL_SUCCESS);
    else
        assert_int_equal(clEnqueueReadBuffer(pq, m[last], CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned fused = count_fused(ev, (unsigned)steps);
    free(ev);
    for (int i = 0; i < 2; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    clSVMFree(env.context, svm[0]);
    clSVMFree(env.context, svm[1]);
    clReleaseKernel(k);
    return fused;
}

static void test_fusion_leaves_svm_launches_alone(void **state)
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
    static const char *const names[] = {"cl_mem buffers", "SVM pointers", "buffers over SVM allocations"};
    for (int kind = ON_BUFFERS; kind <= ON_BUFFERS_OVER_SVM; kind++) {
        unsigned fused = jacobi_chain(kind, init, N, STEPS, got);
        for (int i = 0; i < N; i++)
            if (fabsf(got[i] - host[i]) > 1e-3f * (1.0f + fabsf(host[i])))
                fail_msg("%s: element %d is %g, host %g", names[kind], i, got[i], host[i]);
        /* the buffers' chain shows that fusion was possible; the SVM chain must not have fused */
        if (kind == ON_BUFFERS && fused == 0)
            fail_msg("the chain on cl_mem buffers was not fused: the test cannot tell");
        if (kind == ON_SVM_POINTERS && fused != 0)
            fail_msg("%u launches on SVM pointers were fused", fused);
    }
    unsetenv("WEFT_FUSE_DEPTH");
    unsetenv("WEFT_FUSE_TILE");
    free(init), free(host), free(next), free(got);
}

/* WEFT_VERIFY runs a sample of work-groups with both variants, restoring the cl_mem arguments in
 * between: a kernel that writes through an SVM pointer would see its sample run twice. Weft runs
 * such a launch once, with its first variant; every element is incremented exactly once. */
static void test_verify_runs_svm_launches_once(void **state)
{
    (void)state;
    enum { N = 1 << 14 };
    int *p = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
    int *q = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int), 0);
    assert_non_null(p);
    assert_non_null(q);
    for (int i = 0; i < 64; i++)
        q[i] = i % 13;
    memset(p, 0, N * sizeof(int));
    cl_kernel k = kernel_new("bump");
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, p), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, q), CL_SUCCESS);
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
    clSVMFree(env.context, p);
    clSVMFree(env.context, q);
}

/* The same, when the kernel's only arguments are cl_mem buffers and it writes through a pointer
 * it loads from one (fine-grain system SVM is on by default): the compiler marks the kernel
 * (weft_kernel_meta.indirect_stores) and WEFT_VERIFY leaves it alone. */
static void test_verify_skips_kernels_that_store_through_loaded_pointers(void **state)
{
    (void)state;
    enum { N = 1 << 14 };
    int *p = clSVMAlloc(env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
    assert_non_null(p);
    memset(p, 0, N * sizeof(int));
    int q[64];
    for (int i = 0; i < 64; i++)
        q[i] = i % 13;
    cl_mem table = buf_new(sizeof p, &p), qb = buf_new(sizeof q, q);
    cl_kernel k = kernel_new("bump_indirect");
    kernel_set_args(k, KARGS(KARG(table), KARG(qb)));
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
    clReleaseMemObject(table);
    clReleaseMemObject(qb);
    clSVMFree(env.context, p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coarse_grain_map_round_trip),
        cmocka_unit_test(test_fine_grain_pointer_into_middle),
        cmocka_unit_test(test_pointer_table_exec_info),
        cmocka_unit_test(test_linked_lists_in_malloc_memory),
        cmocka_unit_test(test_atomic_counter_shared_with_host),
        cmocka_unit_test(test_atomic_handshake_with_running_kernel),
        cmocka_unit_test(test_atomic_handshake_through_buffers_over_svm),
        cmocka_unit_test(test_fusion_leaves_svm_launches_alone),
        cmocka_unit_test(test_verify_runs_svm_launches_once),
        cmocka_unit_test(test_verify_skips_kernels_that_store_through_loaded_pointers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
