/* tests/e2e/test_kernels_cl30.c — OpenCL C 3.0 kernels end to end (-cl-std=CL3.0):
 * work_group_barrier, C11-style atomics on __local and __global memory (implicit and explicit
 * order/scope), get_enqueued_local_size / get_global_linear_id / get_local_linear_id, a
 * backward goto around barriers, and -cl-fast-relaxed-math with native_ functions.
 * Every result is compared with a reference computed on the host. */
#include "test_kernels_harness.h"

static const char *source =
    "kernel void wg_barrier_reverse(global int *p) {\n"
    "  local int t[256];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = p[get_global_id(0)];\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = t[n - 1 - l];\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
    "  p[get_global_id(0)] = v;\n"
    "}\n"
    "kernel void c11_local_atomics(global const int *in, global int *out) {\n"
    "  local atomic_int sum;\n"
    "  local atomic_int maxv;\n"
    "  if (get_local_id(0) == 0) { atomic_init(&sum, 0); atomic_init(&maxv, -2147483647); }\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = in[get_global_id(0)];\n"
    "  atomic_fetch_add(&sum, v);\n"
    "  atomic_fetch_max_explicit(&maxv, v, memory_order_relaxed, memory_scope_work_group);\n"
    "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0) * 2] = atomic_load(&sum);\n"
    "  out[get_global_id(0) * 2 + 1] = atomic_load_explicit(&maxv, memory_order_acquire, memory_scope_work_group);\n"
    "}\n"
    "kernel void c11_global_atomics(global atomic_int *counter, global atomic_uint *bits, global int *slots) {\n"
    "  int slot = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);\n"
    "  slots[slot] = (int)get_global_id(0);\n"
    "  atomic_fetch_or(bits, 1u << (get_global_id(0) % 32));\n"
    "  int expected = 0;\n"
    "  atomic_compare_exchange_strong(counter + 1, &expected, (int)get_global_id(0) + 1);\n"
    "}\n"
    "kernel void linear_ids(global uint *out) {\n"
    "  size_t g = get_global_linear_id();\n"
    "  out[g * 3] = (uint)get_local_linear_id();\n"
    "  out[g * 3 + 1] = (uint)(get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1));\n"
    "  out[g * 3 + 2] = (uint)(get_global_id(1) * get_global_size(0) + get_global_id(0));\n"
    "}\n"
    "kernel void goto_barrier(global int *p) {\n"
    "  local int t[64];\n"
    "  int i = 0;\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "again:\n"
    "  t[l] = p[get_global_id(0)] + i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  p[get_global_id(0)] = t[(l + 1) % n];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (++i < 3) goto again;\n"
    "}\n";

static const char *relaxed_source =
    "kernel void relaxed(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = in[i];\n"
    "  out[i] = native_sqrt(x) + native_recip(x + 1.0f) + mad(x, 2.0f, 1.0f);\n"
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

static void test_work_group_barrier(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 7, 64, 100, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100000);
        cl_mem b = buf_new(n * sizeof *in, in);
        assert_int_equal(launch("wg_barrier_reverse", 1, NULL, &n, &ls, KARGS(KARG(b))), CL_SUCCESS);
        buf_read(b, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            int want = in[g - g % ls + ls - 1 - g % ls];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(b);
        free(in);
        free(out);
    }
}

static void test_c11_local_atomics(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 3, n = ls * groups;
        int *in = malloc(n * sizeof *in), *out = malloc(2 * n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 20001) - 10000;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(2 * n * sizeof *out);
        assert_int_equal(launch("c11_local_atomics", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, 2 * n * sizeof *out, out);
        for (size_t grp = 0; grp < groups; grp++) {
            int sum = 0, mx = -2147483647;
            for (size_t l = 0; l < ls; l++) {
                sum += in[grp * ls + l];
                mx = in[grp * ls + l] > mx ? in[grp * ls + l] : mx;
            }
            for (size_t l = 0; l < ls; l++) {
                size_t g = grp * ls + l;
                if (out[2 * g] != sum || out[2 * g + 1] != mx)
                    fail_msg("local %zu at %zu: sum %d max %d, want %d %d", ls, g, out[2 * g], out[2 * g + 1], sum, mx);
            }
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_c11_global_atomics(void **state)
{
    (void)state;
    size_t n = 2000, ls = 100;
    int counter[2] = {0, 0}, *slots = malloc(n * sizeof *slots);
    cl_uint bits = 0;
    cl_mem bc = buf_new(sizeof counter, counter), bb = buf_new(sizeof bits, &bits), bs = buf_poisoned(n * sizeof *slots);
    assert_int_equal(launch("c11_global_atomics", 1, NULL, &n, &ls, KARGS(KARG(bc), KARG(bb), KARG(bs))), CL_SUCCESS);
    buf_read(bc, sizeof counter, counter);
    buf_read(bb, sizeof bits, &bits);
    buf_read(bs, n * sizeof *slots, slots);
    assert_int_equal(counter[0], (int)n);
    assert_int_equal(bits, 0xffffffffu);
    assert_true(counter[1] >= 1 && counter[1] <= (int)n); /* exactly one compare-exchange won */
    char *seen = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        if (slots[i] < 0 || (size_t)slots[i] >= n || seen[slots[i]])
            fail_msg("slot %zu holds %d: lost or duplicated", i, slots[i]);
        seen[slots[i]] = 1;
    }
    free(seen);
    free(slots);
    clReleaseMemObject(bc);
    clReleaseMemObject(bb);
    clReleaseMemObject(bs);
}

static void test_linear_ids(void **state)
{
    (void)state;
    static const size_t shapes[][2] = {{1, 1}, {3, 7}, {16, 4}, {32, 32}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        size_t local[2] = {shapes[t][0], shapes[t][1]}, global[2] = {local[0] * 2, local[1] * 3};
        size_t n = global[0] * global[1];
        cl_uint *out = malloc(3 * n * sizeof *out);
        cl_mem bo = buf_poisoned(3 * n * sizeof *out);
        assert_int_equal(launch("linear_ids", 2, NULL, global, local, KARGS(KARG(bo))), CL_SUCCESS);
        buf_read(bo, 3 * n * sizeof *out, out);
        for (size_t y = 0; y < global[1]; y++)
            for (size_t x = 0; x < global[0]; x++) {
                size_t g = y * global[0] + x;
                cl_uint want[3] = {(cl_uint)((y % local[1]) * local[0] + x % local[0]),
                                   (cl_uint)(local[0] * 100 + local[1]), (cl_uint)g};
                for (int k = 0; k < 3; k++)
                    if (out[3 * g + k] != want[k])
                        fail_msg("local %zux%zu at (%zu,%zu) value %d: %u, want %u", local[0], local[1], x, y, k,
                                 out[3 * g + k], want[k]);
            }
        clReleaseMemObject(bo);
        free(out);
    }
}

static void test_goto_barrier(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 16, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 4;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)i * 7;
        cl_mem b = buf_new(n * sizeof *in, in);
        assert_int_equal(launch("goto_barrier", 1, NULL, &n, &ls, KARGS(KARG(b))), CL_SUCCESS);
        buf_read(b, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) { /* three rotations by one, adding 0, 1, 2 */
            int want = in[g - g % ls + (g % ls + 3) % ls] + 3;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(b);
        free(in);
        free(out);
    }
}

static void test_fast_relaxed_math(void **state)
{
    (void)state;
    cl_program p = weft_test_build(&env, relaxed_source, "-cl-fast-relaxed-math -cl-mad-enable");
    assert_non_null(p);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "relaxed", &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { N = 500 };
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)i * 0.37f;
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    assert_int_equal(clSetKernelArg(k, 0, sizeof bi, &bi), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bo, &bo), CL_SUCCESS);
    size_t global = N;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < N; i++) {
        double x = in[i], want = sqrt(x) + 1.0 / (x + 1.0) + (x * 2.0 + 1.0);
        if (!close_f(out[i], want, 1e-3)) /* native_ functions: implementation-defined accuracy */
            fail_msg("at %d: %g, want %g", i, out[i], want);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A C99 `inline` function (neither static nor extern) is common in real OpenCL code (e.g.
 * PyOpenCL's pyopencl-complex.h); the frontend must keep its body. */
static void test_c99_inline_function(void **state)
{
    (void)state;
    cl_program p = weft_test_build(&env,
                                   "inline int sq(int x) { return x * x; }\n"
                                   "kernel void k(global int *p) { p[get_global_id(0)] = sq(p[get_global_id(0)]); }\n",
                                   NULL);
    assert_non_null(p);
    int data[10];
    for (int i = 0; i < 10; i++)
        data[i] = i - 5;
    cl_mem b = buf_new(sizeof data, data);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    size_t global = 10;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    buf_read(b, sizeof data, data);
    for (int i = 0; i < 10; i++)
        assert_int_equal(data[i], (i - 5) * (i - 5));
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work_group_barrier),
        cmocka_unit_test(test_c11_local_atomics),
        cmocka_unit_test(test_c11_global_atomics),
        cmocka_unit_test(test_linear_ids),
        cmocka_unit_test(test_goto_barrier),
        cmocka_unit_test(test_fast_relaxed_math),
        cmocka_unit_test(test_c99_inline_function),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
