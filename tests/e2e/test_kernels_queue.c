/* tests/e2e/test_kernels_queue.c — kernels and the command queue end to end: arguments are
 * captured at enqueue time (values, buffers and __local sizes changed between enqueues without
 * waiting), a kernel and its buffers released right after enqueue still run, hundreds of
 * dependent in-order launches of a barrier kernel, launches of one kernel with many local sizes
 * in flight at once (a variant compiled per size), an out-of-order queue ordered by events, and
 * clCloneKernel keeping the arguments, and several host threads, each with its own queue and
 * kernel object, launching one kernel at many local sizes at once (variants compiled
 * concurrently), and one-group launches, which run on the enqueueing thread once their kernel
 * is known to be short, only when nothing is queued before them. Every result is compared with
 * a host reference. */
#include "test_kernels_harness.h"

#include <pthread.h>

static const char *source =
    "kernel void scale_add(global const int *in, global int *out, int mul, int add) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * mul + add;\n"
    "}\n"
    "kernel void group_sum_add(global int *data, local int *tmp) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = data[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = 1; s < n; s *= 2) {\n"
    "    if (l % (2 * s) == 0 && l + s < n) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  int total = tmp[0];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  data[get_global_id(0)] += total % 7;\n"
    "}\n"
    "kernel void increment(global int *data) {\n"
    "  local int t[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  t[l] = data[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  data[get_global_id(0)] = t[l] + 1;\n"
    "}\n"
    "kernel void bump(global uint *d, uint by) {\n"
    "  d[0] = d[0] * 3 + by;\n"
    "}\n"
    "kernel void rotate_double(global int *d, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = d[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  d[get_global_id(0)] = t[(l + 1) % n] * 2;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

static void test_args_captured_at_enqueue(void **state)
{
    (void)state;
    enum { N = 256, R = 6 };
    int in[N], out[R][N];
    for (int i = 0; i < N; i++)
        in[i] = i - 100;
    cl_kernel k = kernel_new("scale_add");
    cl_mem bi = buf_new(sizeof in, in), bo[R];
    size_t global = N, local = 64;
    for (int r = 0; r < R; r++) {
        bo[r] = buf_poisoned(sizeof out[r]);
        int mul = r + 2, add = -r * 10;
        assert_int_equal(clSetKernelArg(k, 0, sizeof bi, &bi), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof bo[r], &bo[r]), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 2, sizeof mul, &mul), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 3, sizeof add, &add), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        /* no wait: the next iteration overwrites every argument */
    }
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    for (int r = 0; r < R; r++) {
        buf_read(bo[r], sizeof out[r], out[r]);
        for (int i = 0; i < N; i++)
            if (out[r][i] != in[i] * (r + 2) - r * 10)
                fail_msg("launch %d at %d: %d, want %d", r, i, out[r][i], in[i] * (r + 2) - r * 10);
        clReleaseMemObject(bo[r]);
    }
    clReleaseMemObject(bi);
    clReleaseKernel(k);
}

static void test_local_sizes_in_flight(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 7, 64, 100, 256, 1024};
    enum { R = ARRAY_LEN(sizes) };
    cl_kernel k = kernel_new("group_sum_add");
    cl_mem b[R];
    int *host[R];
    size_t n[R];
    for (size_t r = 0; r < R; r++) {
        n[r] = sizes[r] * 3;
        host[r] = malloc(n[r] * sizeof(int));
        for (size_t i = 0; i < n[r]; i++)
            host[r][i] = (int)(rng_next() % 1000);
        b[r] = buf_new(n[r] * sizeof(int), host[r]);
        assert_int_equal(clSetKernelArg(k, 0, sizeof b[r], &b[r]), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizes[r] * sizeof(int), NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n[r], &sizes[r], 0, NULL, NULL), CL_SUCCESS);
    }
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    for (size_t r = 0; r < R; r++) {
        int *out = malloc(n[r] * sizeof *out);
        buf_read(b[r], n[r] * sizeof *out, out);
        for (size_t g = 0; g < n[r]; g += sizes[r]) {
            int total = 0;
            for (size_t l = 0; l < sizes[r]; l++)
                total += host[r][g + l];
            for (size_t l = 0; l < sizes[r]; l++)
                if (out[g + l] != host[r][g + l] + total % 7)
                    fail_msg("local %zu at %zu: %d, want %d", sizes[r], g + l, out[g + l], host[r][g + l] + total % 7);
        }
        free(out);
        free(host[r]);
        clReleaseMemObject(b[r]);
    }
    clReleaseKernel(k);
}

static void test_release_after_enqueue(void **state)
{
    (void)state;
    enum { N = 1000 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i;
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    cl_kernel k = kernel_new("scale_add");
    int mul = 3, add = 4;
    assert_int_equal(clSetKernelArg(k, 0, sizeof bi, &bi), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bo, &bo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof mul, &mul), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof add, &add), CL_SUCCESS);
    size_t global = N, local = 100;
    cl_event done;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, &done), CL_SUCCESS);
    clReleaseKernel(k);  /* the command keeps what it needs alive */
    clReleaseMemObject(bi);
    assert_int_equal(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, sizeof out, out, 1, &done, NULL), CL_SUCCESS);
    cl_int status;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_int_equal(status, CL_COMPLETE);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], i * 3 + 4);
    clReleaseEvent(done);
    clReleaseMemObject(bo);
}

static void test_many_dependent_launches(void **state)
{
    (void)state;
    enum { N = 640, LAUNCHES = 300 };
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_mem b = buf_new(sizeof data, data);
    cl_kernel k = kernel_new("increment");
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    size_t global = N, local = 64;
    for (int r = 0; r < LAUNCHES; r++)
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    buf_read(b, sizeof data, data);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i + LAUNCHES);
    clReleaseKernel(k);
    clReleaseMemObject(b);
}

/* One-group launches of a short kernel (runtime/ndrange.c: RUN_IF_IDLE): a burst in order
 * (each result depends on the one before), the events complete and profiled; behind a launch
 * that waits for a user event, later ones wait too, in order; and a launch whose own wait list
 * is not complete does not run at enqueue. */
static void test_short_one_group_launches(void **state)
{
    (void)state;
    cl_uint zero = 0, got = 0;
    cl_int err;
    cl_mem b = buf_new(sizeof zero, &zero);
    cl_kernel k = kernel_new("bump");
    cl_command_queue q = clCreateCommandQueueWithProperties(
        env.context, env.device, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t one = 1;
    cl_uint by = 1, want = 0;
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    /* the first launch measures the kernel; the burst after it may run at enqueue */
    for (int r = 0; r < 200; r++) {
        by = (cl_uint)r % 5;
        want = want * 3 + by;
        assert_int_equal(clSetKernelArg(k, 1, sizeof by, &by), CL_SUCCESS);
        cl_event ev;
        assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, &ev), CL_SUCCESS);
        if (r == 0)
            assert_int_equal(clFinish(q), CL_SUCCESS);
        if (r == 150) {
            assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
            cl_ulong t[4];
            const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                               CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
            for (int i = 0; i < 4; i++)
                assert_int_equal(clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
            assert_true(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
        }
        assert_int_equal(clReleaseEvent(ev), CL_SUCCESS);
    }
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(got, want);

    /* a gate: the launch waiting for it, and the ones after it, stay queued */
    cl_event gate = clCreateUserEvent(env.context, &err), last;
    assert_int_equal(err, CL_SUCCESS);
    by = 2;
    assert_int_equal(clSetKernelArg(k, 1, sizeof by, &by), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 1, &gate, NULL), CL_SUCCESS);
    want = want * 3 + 2;
    for (int r = 0; r < 3; r++) {
        by = 10 + (cl_uint)r;
        assert_int_equal(clSetKernelArg(k, 1, sizeof by, &by), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, &last), CL_SUCCESS);
        want = want * 3 + by;
        cl_int st;
        assert_int_equal(clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
        assert_true(st > CL_COMPLETE);   /* not run: the gated launch is before it */
        assert_int_equal(clReleaseEvent(last), CL_SUCCESS);
    }
    assert_int_equal(clFlush(q), CL_SUCCESS);
    cl_uint mapped_before;
    buf_read(b, sizeof mapped_before, &mapped_before);   /* env.queue: does not wait for q */
    assert_true(mapped_before != want);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    /* enqueued while the command thread may still be waking for the gated ones: when it finds
     * them queued, it runs them and itself here, in order (queue.c, runs_here) */
    by = 7;
    assert_int_equal(clSetKernelArg(k, 1, sizeof by, &by), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    want = want * 3 + by;
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(got, want);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseMemObject(b);
}

static void test_out_of_order_queue_with_events(void **state)
{
    (void)state;
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { N = 512, STEPS = 20 };
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = 2 * i;
    cl_mem b = buf_new(sizeof data, data);
    cl_kernel inc = kernel_new("increment");
    cl_kernel sa = kernel_new("scale_add");
    assert_int_equal(clSetKernelArg(inc, 0, sizeof b, &b), CL_SUCCESS);
    int mul = 1, add = 5;
    /* scale_add in place (in == out): out[i] = in[i] + 5 */
    assert_int_equal(clSetKernelArg(sa, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(sa, 1, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(sa, 2, sizeof mul, &mul), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(sa, 3, sizeof add, &add), CL_SUCCESS);
    size_t global = N, local = 64;
    cl_event prev = NULL;
    for (int s = 0; s < STEPS; s++) {
        cl_event e;
        assert_int_equal(clEnqueueNDRangeKernel(q, s % 2 ? sa : inc, 1, NULL, &global, &local, prev ? 1 : 0,
                                                prev ? &prev : NULL, &e),
                         CL_SUCCESS);
        if (prev)
            clReleaseEvent(prev);
        prev = e;
    }
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof data, data, 1, &prev, NULL), CL_SUCCESS);
    clReleaseEvent(prev);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], 2 * i + STEPS / 2 * (1 + 5));
    clReleaseKernel(inc);
    clReleaseKernel(sa);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

static void test_clone_kernel_keeps_args(void **state)
{
    (void)state;
    enum { N = 100 };
    int in[N], out1[N], out2[N];
    for (int i = 0; i < N; i++)
        in[i] = i * i;
    cl_mem bi = buf_new(sizeof in, in), bo1 = buf_poisoned(sizeof out1), bo2 = buf_poisoned(sizeof out2);
    cl_kernel k = kernel_new("scale_add");
    int mul = -1, add = 1000;
    assert_int_equal(clSetKernelArg(k, 0, sizeof bi, &bi), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bo1, &bo1), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof mul, &mul), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof add, &add), CL_SUCCESS);
    cl_int err;
    cl_kernel c = clCloneKernel(k, &err);
    assert_int_equal(err, CL_SUCCESS);
    int add2 = 7;
    assert_int_equal(clSetKernelArg(c, 1, sizeof bo2, &bo2), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(c, 3, sizeof add2, &add2), CL_SUCCESS);
    size_t global = N;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    buf_read(bo1, sizeof out1, out1);
    buf_read(bo2, sizeof out2, out2);
    for (int i = 0; i < N; i++) {
        assert_int_equal(out1[i], 1000 - i * i);
        assert_int_equal(out2[i], 7 - i * i);
    }
    clReleaseKernel(k);
    clReleaseKernel(c);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo1);
    clReleaseMemObject(bo2);
}

/* One host thread: its own queue and kernel object, 8 launches at varying local sizes; returns
 * the number of launches that failed or gave a wrong result. */
static void *thread_launches(void *arg)
{
    static const size_t sizes[] = {1, 3, 7, 16, 64, 100, 256, 1024};
    long id = (long)arg, bad = 0;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
    if (err != CL_SUCCESS)
        return (void *)100L;
    cl_kernel k = clCreateKernel(prog, "rotate_double", &err);
    if (err != CL_SUCCESS)
        return (void *)100L;
    for (int it = 0; it < 8; it++) {
        size_t ls = sizes[(it + id) % 8], n = ls * 4;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(i * 7 + (size_t)id);
        cl_mem b = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *in, in, &err);
        err |= clSetKernelArg(k, 0, sizeof b, &b);
        err |= clSetKernelArg(k, 1, ls * sizeof(int), NULL);
        err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &ls, 0, NULL, NULL);
        err |= clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL);
        bool ok = err == CL_SUCCESS;
        for (size_t i = 0; i < n && ok; i++)
            ok = out[i] == in[i - i % ls + (i % ls + 1) % ls] * 2;
        if (!ok) {
            fprintf(stderr, "thread %ld, local %zu: wrong result or error %d\n", id, ls, err);
            bad++;
        }
        clReleaseMemObject(b);
        free(in);
        free(out);
    }
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    return (void *)bad;
}

static void test_concurrent_host_threads(void **state)
{
    (void)state;
    enum { THREADS = 6 };
    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_launches, (void *)i), 0);
    long bad = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        assert_int_equal(pthread_join(th[i], &r), 0);
        bad += (long)r;
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args_captured_at_enqueue),
        cmocka_unit_test(test_local_sizes_in_flight),
        cmocka_unit_test(test_release_after_enqueue),
        cmocka_unit_test(test_many_dependent_launches),
        cmocka_unit_test(test_short_one_group_launches),
        cmocka_unit_test(test_out_of_order_queue_with_events),
        cmocka_unit_test(test_clone_kernel_keeps_args),
        cmocka_unit_test(test_concurrent_host_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
