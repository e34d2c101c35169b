/* tests/e2e/test_numa_synthetic.c — kernels and buffer commands end to end on a synthetic
 * topology of 2 packages x 2 NUMA nodes x 16 cores (WEFT_HWLOC_SYNTHETIC, set before the
 * platform loads): the device has 64 compute units on this machine's few cores, in four node
 * groups, and results are still right: buffers written by the host in placed pieces
 * (CL_MEM_COPY_HOST_PTR, a write, a fill and a copy of 12 MiB each, past the size from which the
 * pool's threads write them), a 1-D kernel over them (node-grouped ranges, stealing by node)
 * launched repeatedly, and a 2-D kernel (one guided range). Checked against host references. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "weft_test.h"

#define SHAPE "pack:2 numa:2 core:16 pu:1"
#define N ((size_t)3 << 20)            /* floats: 12 MiB per buffer */

static struct weft_test_env env;

static int setup(void **state)
{
    return weft_test_env_open(&env, 0);
}

static int teardown(void **state)
{
    weft_test_env_close(&env);
    return 0;
}

static cl_kernel kernel_from(const char *src, const char *name, cl_program *prog)
{
    cl_program p = weft_test_build(&env, src, NULL);
    assert_non_null(p);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    *prog = p;
    return k;
}

static void test_device_follows_the_shape(void **state)
{
    cl_uint units = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL), CL_SUCCESS);
    assert_int_equal(units, 64);
}

static void test_placed_buffers_and_a_1d_kernel(void **state)
{
    static const char *src = "kernel void axpbc(global const float *a, global const float *b, global float *c) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  c[i] = 2.0f * a[i] + b[i] + c[i];\n"
                             "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "axpbc", &p);
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *out = malloc(N * sizeof *out);
    assert_true(a && b && out);
    for (size_t i = 0; i < N; i++) {
        a[i] = (float)(i % 1000);
        b[i] = (float)(i % 7) - 3.0f;
    }
    cl_int err;
    /* a: copied at creation; b: written into a fresh buffer; c: filled; d: a copy of c */
    cl_mem ba = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *a, a, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bb = clCreateBuffer(env.context, CL_MEM_READ_ONLY, N * sizeof *b, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bc = clCreateBuffer(env.context, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bd = clCreateBuffer(env.context, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(env.queue, bb, CL_FALSE, 0, N * sizeof *b, b, 0, NULL, NULL), CL_SUCCESS);
    const float half = 0.5f;
    assert_int_equal(clEnqueueFillBuffer(env.queue, bc, &half, sizeof half, 0, N * sizeof(float), 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(env.queue, bc, bd, 0, 0, N * sizeof(float), 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof ba, &ba), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bb, &bb), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof bd, &bd), CL_SUCCESS);
    /* the same NDRange three times: each thread gets the same range every launch */
    enum { LAUNCHES = 3 };
    size_t global = N, local = 64;
    for (int l = 0; l < LAUNCHES; l++)
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(env.queue, bd, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i < N; i++) {
        float want = 0.5f;
        for (int l = 0; l < LAUNCHES; l++)
            want = 2.0f * a[i] + b[i] + want;
        if (out[i] != want)
            fail_msg("d[%zu] = %g, want %g", i, out[i], want);
    }
    /* c kept the fill */
    assert_int_equal(clEnqueueReadBuffer(env.queue, bc, CL_TRUE, 0, N * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i < N; i++)
        if (out[i] != 0.5f)
            fail_msg("c[%zu] = %g, want the fill 0.5", i, out[i]);
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseMemObject(bd);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(a);
    free(b);
    free(out);
}

/* Launches of every size around the thread count: fewer groups than threads (only node 0's
 * threads take part), one per thread, and a few more. */
static void test_small_launches(void **state)
{
    static const char *src = "kernel void inc(global int *x) { x[get_global_id(0)] += (int)get_group_id(0) + 1; }\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "inc", &p);
    static const size_t groups[] = {1, 3, 16, 17, 63, 64, 65, 200};
    for (size_t t = 0; t < ARRAY_LEN(groups); t++) {
        size_t local = 4, global = groups[t] * local;
        int *x = calloc(global, sizeof *x);
        cl_int err;
        cl_mem bx = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, global * sizeof *x, x, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 0, sizeof bx, &bx), CL_SUCCESS);
        for (int l = 0; l < 2; l++)
            assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(env.queue, bx, CL_TRUE, 0, global * sizeof *x, x, 0, NULL, NULL),
                         CL_SUCCESS);
        for (size_t i = 0; i < global; i++)
            if (x[i] != 2 * (int)(i / local + 1))
                fail_msg("%zu groups: x[%zu] = %d, want %d", groups[t], i, x[i], 2 * (int)(i / local + 1));
        clReleaseMemObject(bx);
        free(x);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_2d_kernel(void **state)
{
    static const char *src = "kernel void idx(global uint *x, uint w) {\n"
                             "  size_t i = get_global_id(0), j = get_global_id(1);\n"
                             "  x[j * w + i] = (uint)(j * 1000 + i);\n"
                             "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "idx", &p);
    enum { W = 512, H = 300 };
    cl_uint *x = malloc(W * H * sizeof *x), w = W;
    cl_int err;
    cl_mem bx = clCreateBuffer(env.context, CL_MEM_READ_WRITE, W * H * sizeof *x, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof bx, &bx), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof w, &w), CL_SUCCESS);
    size_t global[2] = {W, H}, local[2] = {32, 4};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(env.queue, bx, CL_TRUE, 0, W * H * sizeof *x, x, 0, NULL, NULL), CL_SUCCESS);
    for (size_t j = 0; j < H; j++)
        for (size_t i = 0; i < W; i++)
            if (x[j * W + i] != j * 1000 + i)
                fail_msg("x[%zu][%zu] = %u", j, i, x[j * W + i]);
    clReleaseMemObject(bx);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(x);
}

int main(void)
{
    /* before the platform reads the topology */
    setenv("WEFT_HWLOC_SYNTHETIC", SHAPE, 1);
    unsetenv("WEFT_NUM_THREADS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_follows_the_shape),
        cmocka_unit_test(test_placed_buffers_and_a_1d_kernel),
        cmocka_unit_test(test_small_launches),
        cmocka_unit_test(test_2d_kernel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
