/* tests/e2e/test_kernels_private.c — large private arrays: a kernel with 512 KiB of private
 * memory per work-item runs and gives the host's results at several global and local sizes
 * (the vectorizer's lanes each take a copy, more than a thread's 8 MiB stack holds: the pool
 * runs such launches on stacks sized for them, exec/pool.h), with the array live across a
 * barrier (then privatized into the work-group's scratch), from an application thread whose
 * own stack is small (clFinish runs the launch on the calling thread), through generic
 * pointers (to_private knows the stack the work-group runs on), and next to a kernel
 * that needs 1 GiB per work-item, which gets CL_OUT_OF_RESOURCES at enqueue and leaves the
 * context usable. CL_KERNEL_PRIVATE_MEM_SIZE reports the arrays. CTest runs this file with the
 * vectorizer on, off and breadth-first (tests/CMakeLists.txt). */
#include "test_kernels_harness.h"

#include <pthread.h>

#define N_BIG 131072        /* ints: 512 KiB */
#define N_HUGE 268435456    /* ints: 1 GiB */

static const char *source =
    /* as the issue reported it: every element written, one read back */
    "kernel void big_private(global int *o) {\n"
    "  int a[131072];\n"
    "  for (int i = 0; i < 131072; i++) a[i] = i * (int)get_global_id(0);\n"
    "  o[get_global_id(0)] = a[get_global_id(0) * 7 % 131072];\n"
    "}\n"
    /* indices the compiler cannot know: the whole array must exist */
    "kernel void big_private_opaque(global int *o, global const int *in) {\n"
    "  int a[131072];\n"
    "  int g = (int)get_global_id(0);\n"
    "  for (int i = 0; i < 131072; i++) a[i] = in[i & 63] + i;\n"
    "  for (int i = 0; i < 64; i++) a[in[i] & 131071] += g;\n"
    "  o[g] = a[in[g & 63] & 131071] + a[(g * 7) & 131071];\n"
    "}\n"
    /* the array is live across the barrier: one copy per work-item of the group */
    "kernel void big_private_barrier(global int *o, local int *l) {\n"
    "  int a[131072];\n"
    "  int g = (int)get_global_id(0), li = (int)get_local_id(0);\n"
    "  for (int i = 0; i < 131072; i++) a[i] = i ^ g;\n"
    "  l[li] = g;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[g] = a[(g * 13) & 131071] + l[(int)get_local_size(0) - 1 - li];\n"
    "}\n"
    /* generic pointers into the array: to_private tells it by the stack the calls run on */
    "kernel void big_private_generic(global int *o) {\n"
    "  int a[131072];\n"
    "  int g = (int)get_global_id(0);\n"
    "  for (int i = 0; i < 131072; i++) a[i] = i + g;\n"
    "  generic int *p = &a[(g * 7) & 131071];\n"
    "  private int *q = to_private(p);\n"
    "  o[g] = (q ? *q : -1) + (to_global(p) ? 1000000 : 0) + (to_local(p) ? 2000000 : 0);\n"
    "}\n"
    "kernel void huge_private(global int *o, global const int *in) {\n"
    "  int a[268435456];\n"
    "  for (int i = 0; i < 268435456; i++) a[i] = in[i & 63] + i;\n"
    "  o[get_global_id(0)] = a[in[get_global_id(0) & 63] & 268435455];\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, "-cl-std=CL3.0");
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* OpenCL's int arithmetic wraps; the host computes it in unsigned and converts. */
static int wrap_mul(int a, int b)
{
    return (int)((unsigned)a * (unsigned)b);
}

static int opaque_input(int i)
{
    return (int)((unsigned)(i * 40503) % 200003u);
}

/* The host's big_private_opaque for work-item g (the array built the same way). */
static int opaque_ref(int *a, const int *in, int g)
{
    for (int i = 0; i < N_BIG; i++)
        a[i] = in[i & 63] + i;
    for (int i = 0; i < 64; i++)
        a[in[i] & (N_BIG - 1)] += g;
    return a[in[g & 63] & (N_BIG - 1)] + a[(g * 7) & (N_BIG - 1)];
}

struct size_case {
    size_t global, local;   /* local 0: NULL, Weft chooses */
};

static const struct size_case sizes[] = {
    {64, 16}, {200, 0}, {256, 256}, {37, 5}, {1, 1}, {96, 32},
};

static void test_big_private_array_runs(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_LEN(sizes); c++) {
        size_t n = sizes[c].global, l = sizes[c].local;
        cl_mem o = buf_poisoned(n * sizeof(int));
        assert_int_equal(launch("big_private", 1, NULL, &n, l ? &l : NULL, KARGS(KARG(o))), CL_SUCCESS);
        int *got = malloc(n * sizeof(int));
        buf_read(o, n * sizeof(int), got);
        for (size_t g = 0; g < n; g++) {
            int want = wrap_mul((int)(g * 7 % N_BIG), (int)g);
            if (got[g] != want)
                fail_msg("big_private global %zu local %zu: o[%zu] = %d, want %d", n, l, g, got[g], want);
        }
        free(got);
        clReleaseMemObject(o);
    }
}

static void test_big_private_array_opaque_indices(void **state)
{
    (void)state;
    int in[64];
    for (int i = 0; i < 64; i++)
        in[i] = opaque_input(i);
    int *a = malloc(N_BIG * sizeof(int));
    for (size_t c = 0; c < ARRAY_LEN(sizes); c++) {
        size_t n = sizes[c].global, l = sizes[c].local;
        cl_mem o = buf_poisoned(n * sizeof(int)), min = buf_new(sizeof in, in);
        assert_int_equal(launch("big_private_opaque", 1, NULL, &n, l ? &l : NULL, KARGS(KARG(o), KARG(min))),
                         CL_SUCCESS);
        int *got = malloc(n * sizeof(int));
        buf_read(o, n * sizeof(int), got);
        for (size_t g = 0; g < n; g++) {
            int want = opaque_ref(a, in, (int)g);
            if (got[g] != want)
                fail_msg("big_private_opaque global %zu local %zu: o[%zu] = %d, want %d", n, l, g, got[g], want);
        }
        free(got);
        clReleaseMemObject(o);
        clReleaseMemObject(min);
    }
    free(a);
}

static void test_big_private_array_across_barrier(void **state)
{
    (void)state;
    static const struct size_case cases[] = {{64, 16}, {128, 64}, {40, 8}, {3, 3}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        size_t n = cases[c].global, l = cases[c].local;
        cl_mem o = buf_poisoned(n * sizeof(int));
        assert_int_equal(launch("big_private_barrier", 1, NULL, &n, &l, KARGS(KARG(o), KLOCAL(l * sizeof(int)))),
                         CL_SUCCESS);
        int *got = malloc(n * sizeof(int));
        buf_read(o, n * sizeof(int), got);
        for (size_t g = 0; g < n; g++) {
            size_t li = g % l, mirror = g - li + (l - 1 - li);
            int want = (int)(((g * 13) & (N_BIG - 1)) ^ g) + (int)mirror;
            if (got[g] != want)
                fail_msg("big_private_barrier global %zu local %zu: o[%zu] = %d, want %d", n, l, g, got[g], want);
        }
        free(got);
        clReleaseMemObject(o);
    }
}

static void test_big_private_array_generic_pointers(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_LEN(sizes); c++) {
        size_t n = sizes[c].global, l = sizes[c].local;
        cl_mem o = buf_poisoned(n * sizeof(int));
        assert_int_equal(launch("big_private_generic", 1, NULL, &n, l ? &l : NULL, KARGS(KARG(o))), CL_SUCCESS);
        int *got = malloc(n * sizeof(int));
        buf_read(o, n * sizeof(int), got);
        for (size_t g = 0; g < n; g++) {
            int want = (int)(((g * 7) & (N_BIG - 1)) + g);
            if (got[g] != want)
                fail_msg("big_private_generic global %zu local %zu: o[%zu] = %d, want %d", n, l, g, got[g], want);
        }
        free(got);
        clReleaseMemObject(o);
    }
}

/* ---- a small application thread stack ------------------------------------------------------- */

struct small_stack_job {
    cl_int err;
    int *got;
    size_t n;
};

/* Enqueues and waits on this thread: clFinish runs the launch here (runtime/queue.c), on a
 * thread whose own stack could not hold the kernel's private arrays. */
static void *small_stack_main(void *arg)
{
    struct small_stack_job *j = arg;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "big_private", &err);
    cl_mem o = err == CL_SUCCESS ? clCreateBuffer(env.context, CL_MEM_READ_WRITE, j->n * sizeof(int), NULL, &err)
                                 : NULL;
    size_t local = j->n < 16 ? j->n : 16;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof o, &o);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &j->n, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(env.queue);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(env.queue, o, CL_TRUE, 0, j->n * sizeof(int), j->got, 0, NULL, NULL);
    if (o)
        clReleaseMemObject(o);
    if (k)
        clReleaseKernel(k);
    j->err = err;
    return NULL;
}

static void test_big_private_array_from_small_stack_thread(void **state)
{
    (void)state;
    /* one group (run by the calling thread alone), then several */
    static const size_t ns[] = {16, 64};
    for (size_t c = 0; c < ARRAY_LEN(ns); c++) {
        struct small_stack_job j = {.err = -1, .n = ns[c]};
        j.got = calloc(j.n, sizeof(int));
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        assert_int_equal(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
        pthread_t t;
        assert_int_equal(pthread_create(&t, &attr, small_stack_main, &j), 0);
        pthread_attr_destroy(&attr);
        assert_int_equal(pthread_join(t, NULL), 0);
        assert_int_equal(j.err, CL_SUCCESS);
        for (size_t g = 0; g < j.n; g++) {
            int want = wrap_mul((int)(g * 7 % N_BIG), (int)g);
            if (j.got[g] != want)
                fail_msg("big_private from a 256 KiB thread, global %zu: o[%zu] = %d, want %d", j.n, g, j.got[g],
                         want);
        }
        free(j.got);
    }
}

/* ---- what cannot run is refused ------------------------------------------------------------- */

static cl_ulong private_mem_size(const char *name)
{
    cl_kernel k = kernel_new(name);
    cl_ulong size = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof size, &size, NULL),
                     CL_SUCCESS);
    clReleaseKernel(k);
    return size;
}

static void test_private_mem_size_reported(void **state)
{
    (void)state;
    assert_true(private_mem_size("big_private_opaque") >= (cl_ulong)N_BIG * sizeof(int));
    assert_true(private_mem_size("big_private_barrier") >= (cl_ulong)N_BIG * sizeof(int));
    assert_true(private_mem_size("huge_private") >= (cl_ulong)N_HUGE * sizeof(int));
}

static void test_huge_private_array_out_of_resources(void **state)
{
    (void)state;
    int in[64] = {0};
    cl_mem o = buf_poisoned(64 * sizeof(int)), min = buf_new(sizeof in, in);
    cl_kernel k = kernel_new("huge_private");
    kernel_set_args(k, KARGS(KARG(o), KARG(min)));
    static const struct size_case cases[] = {{64, 16}, {64, 0}, {1, 1}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        size_t n = cases[c].global, l = cases[c].local;
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &n, l ? &l : NULL, 0, NULL, NULL),
                         CL_OUT_OF_RESOURCES);
    }
    assert_int_equal(clEnqueueTask(env.queue, k, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    /* nothing ran: the output still holds its poison */
    int got[64];
    buf_read(o, sizeof got, got);
    for (int i = 0; i < 64; i++)
        assert_int_equal(got[i], (int)0xA5A5A5A5);
    clReleaseKernel(k);
    clReleaseMemObject(o);
    clReleaseMemObject(min);
    /* and the context still runs kernels */
    size_t n = 32, l = 16;
    cl_mem o2 = buf_poisoned(n * sizeof(int));
    assert_int_equal(launch("big_private", 1, NULL, &n, &l, KARGS(KARG(o2))), CL_SUCCESS);
    int got2[32];
    buf_read(o2, sizeof got2, got2);
    for (size_t g = 0; g < n; g++)
        assert_int_equal(got2[g], wrap_mul((int)(g * 7 % N_BIG), (int)g));
    clReleaseMemObject(o2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_private_array_runs),
        cmocka_unit_test(test_big_private_array_opaque_indices),
        cmocka_unit_test(test_big_private_array_across_barrier),
        cmocka_unit_test(test_big_private_array_generic_pointers),
        cmocka_unit_test(test_big_private_array_from_small_stack_thread),
        cmocka_unit_test(test_private_mem_size_reported),
        cmocka_unit_test(test_huge_private_array_out_of_resources),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
