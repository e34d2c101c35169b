/* tests/e2e/test_kernels_collectives.c — the work-group collective functions end to end
 * (__opencl_c_work_group_collective_functions, -cl-std=CL3.0): reduce, inclusive and
 * exclusive scans of add/min/max for int, uint, long, ulong, float and double (and half where
 * cl_khr_fp16 is reported); all, any and broadcast in one, two and three dimensions; group
 * sizes from 1 to 1024 and a non-uniform remainder group; collectives in a loop, next to
 * __local memory and barriers, and next to sub-group collectives. Every result is compared
 * with a reference computed on the host, group by group.
 */
#include "test_kernels_harness.h"

static const char *source =
    "#define OPS(T) \\\n"
    "kernel void ops_##T(global const T *in, global T *out) {\\\n"
    "  size_t g = get_global_id(0); T x = in[g]; global T *o = out + g * 9;\\\n"
    "  o[0] = work_group_reduce_add(x); o[1] = work_group_reduce_min(x); o[2] = work_group_reduce_max(x);\\\n"
    "  o[3] = work_group_scan_inclusive_add(x); o[4] = work_group_scan_inclusive_min(x);\\\n"
    "  o[5] = work_group_scan_inclusive_max(x); o[6] = work_group_scan_exclusive_add(x);\\\n"
    "  o[7] = work_group_scan_exclusive_min(x); o[8] = work_group_scan_exclusive_max(x);\\\n"
    "}\n"
    "OPS(int) OPS(uint) OPS(long) OPS(ulong) OPS(float) OPS(double)\n"
    "kernel void votes(global const int *in, global int *out, ulong from) {\n"
    "  size_t g = get_global_id(0); int x = in[g];\n"
    "  out[g * 3] = work_group_all(x);\n"
    "  out[g * 3 + 1] = work_group_any(x);\n"
    "  out[g * 3 + 2] = work_group_broadcast(x + (int)get_local_id(0), from);\n"
    "}\n"
    "kernel void broadcast_2d(global const int *in, global int *out, ulong x, ulong y) {\n"
    "  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[g] = work_group_broadcast(in[g], x, y);\n"
    "}\n"
    "kernel void broadcast_3d(global const int *in, global int *out, ulong x, ulong y, ulong z) {\n"
    "  size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);\n"
    "  out[g] = work_group_broadcast(in[g], x, y, z);\n"
    "}\n"
    "kernel void in_loop(global const int *in, global int *out) {\n"
    "  size_t g = get_global_id(0), n = get_local_size(0);\n"
    "  int x = in[g], acc = 0;\n"
    "  for (int r = 0; r < 4; r++) {\n"
    "    acc += work_group_reduce_add(x + r);\n"
    "    acc += work_group_scan_exclusive_add(x * r);\n"
    "    acc ^= work_group_broadcast(acc, (size_t)r % n);\n"
    "  }\n"
    "  out[g] = acc;\n"
    "}\n"
    "kernel void with_local(global const int *in, global int *out) {\n"
    "  local int t[256];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = work_group_reduce_max(t[n - 1 - l]);\n"
    "  out[get_global_id(0)] = s + t[(l + 1) % n];\n"
    "}\n"
    "kernel void with_sub_groups(global const int *in, global int *out) {\n"
    "  size_t g = get_global_id(0); int x = in[g];\n"
    "  out[g * 3] = work_group_reduce_add(x);\n"
    "  out[g * 3 + 1] = sub_group_reduce_add(x);\n"
    "  out[g * 3 + 2] = (int)get_max_sub_group_size();\n"
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

/* The nine results of ops_<T> for one group (host reference), then the comparison. Values are
 * small integers (also for float and double), so every order of addition gives one answer. */
#define CHECK_OPS(T, gen, fmt)                                                                       \
    static void check_ops_##T(size_t n, size_t ls)                                               \
    {                                                                                                \
        T *in = malloc(n * sizeof *in), *out = malloc(n * 9 * sizeof *out);                         \
        for (size_t i = 0; i < n; i++)                                                               \
            in[i] = (T)(gen);                                                                        \
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * 9 * sizeof *out);            \
        assert_int_equal(launch("ops_" #T, 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS); \
        buf_read(bo, n * 9 * sizeof *out, out);                                                      \
        for (size_t g0 = 0; g0 < n; g0 += ls) {                                                      \
            size_t end = g0 + ls < n ? g0 + ls : n;                                                  \
            T sum = 0, mn = in[g0], mx = in[g0];                                                     \
            for (size_t i = g0; i < end; i++) {                                                      \
                sum += in[i];                                                                        \
                mn = in[i] < mn ? in[i] : mn;                                                        \
                mx = in[i] > mx ? in[i] : mx;                                                        \
            }                                                                                        \
            T isum = 0, imn = max_##T, imx = min_##T;                                                \
            for (size_t i = g0; i < end; i++) {                                                      \
                T want[9] = {sum, mn, mx, 0, 0, 0, isum, imn, imx};                                  \
                isum += in[i];                                                                       \
                imn = in[i] < imn ? in[i] : imn;                                                     \
                imx = in[i] > imx ? in[i] : imx;                                                     \
                want[3] = isum, want[4] = imn, want[5] = imx;                                        \
                for (int k = 0; k < 9; k++)                                                          \
                    if (out[i * 9 + k] != want[k])                                                   \
                        fail_msg(#T " local %zu, item %zu, result %d: " fmt ", want " fmt, ls, i, k, \
                                 out[i * 9 + k], want[k]);                                           \
            }                                                                                        \
        }                                                                                            \
        clReleaseMemObject(bi);                                                                      \
        clReleaseMemObject(bo);                                                                      \
        free(in);                                                                                    \
        free(out);                                                                                   \
    }

static const int max_int = INT32_MAX, min_int = INT32_MIN;
static const unsigned max_uint = UINT32_MAX, min_uint = 0;
static const long max_long = INT64_MAX, min_long = INT64_MIN;
static const ulong max_ulong = UINT64_MAX, min_ulong = 0;
static const float max_float = INFINITY, min_float = -INFINITY;
static const double max_double = INFINITY, min_double = -INFINITY;
typedef unsigned uint;
typedef unsigned long ulong;   /* long is OpenCL's 64 bits on this (LP64) host too */

/* int: small signed values; uint: values on both sides of 2^31 (an unsigned compare); long and
 * ulong: values past 32 bits; float and double: small integers, exact in any order */
CHECK_OPS(int, (int)(rng_next() % 2001) - 1000, "%d")
CHECK_OPS(uint, rng_next(), "%u")
CHECK_OPS(long, ((long)(rng_next() % 2001) - 1000) * 4000000000l, "%ld")
CHECK_OPS(ulong, (ulong)rng_next() << 31, "%lu")
CHECK_OPS(float, (float)((int)(rng_next() % 201) - 100), "%g")
CHECK_OPS(double, (double)((int)(rng_next() % 201) - 100) * 0.5, "%g")

/* Runs 1-D kernel `name`(in, out[, extra]) over n work-items in groups of ls; returns the
 * `per_item` ints each work-item wrote (malloc'd). */
static int *run_ints(const char *name, size_t n, size_t ls, const int *in, size_t per_item, const uint64_t *extra)
{
    int *out = malloc(n * per_item * sizeof *out);
    cl_mem bi = buf_new(n * sizeof *in, (void *)in), bo = buf_poisoned(n * per_item * sizeof *out);
    cl_int err = extra ? launch(name, 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KARG(*extra)))
                       : launch(name, 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo)));
    assert_int_equal(err, CL_SUCCESS);
    buf_read(bo, n * per_item * sizeof *out, out);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    return out;
}

/* 1 and 7: the leader's scalar chains; 24 and 100: its vectors and the elements after them
 * (16 + 8, 64 + 36); 64, 256, 1024: vectors only */
static const size_t local_sizes[] = {1, 7, 24, 64, 100, 256, 1024};

static void test_reduce_and_scan(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], n = ls * 3;
        check_ops_int(n, ls);
        check_ops_uint(n, ls);
        check_ops_long(n, ls);
        check_ops_ulong(n, ls);
        check_ops_float(n, ls);
        check_ops_double(n, ls);
    }
}

/* A non-uniform NDRange: the remainder group of 100 % 32 = 4 work-items reduces over its 4. */
static void test_remainder_group(void **state)
{
    (void)state;
    check_ops_int(100, 32);
    check_ops_double(100, 32);
}

static void test_all_any_broadcast(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], n = ls * 4;
        int *in = malloc(n * sizeof *in);
        /* group 0: all non-zero; group 1: all zero; groups 2 and 3: one zero / one non-zero */
        for (size_t i = 0; i < n; i++) {
            size_t grp = i / ls, l = i % ls;
            in[i] = grp == 0 ? (int)(rng_next() % 50) + 1 : grp == 1 ? 0 : grp == 2 ? (l == ls / 2 ? 0 : -3) : (l == ls - 1 ? 5 : 0);
        }
        uint64_t from = ls / 3;
        int *out = run_ints("votes", n, ls, in, 3, &from);
        for (size_t i = 0; i < n; i++) {
            size_t g0 = i - i % ls;
            int all = 1, any = 0;
            for (size_t j = g0; j < g0 + ls; j++) {
                all &= in[j] != 0;
                any |= in[j] != 0;
            }
            int want[3] = {all, any, in[g0 + from] + (int)from};
            for (int k = 0; k < 3; k++)
                if (out[i * 3 + k] != want[k])
                    fail_msg("local %zu, item %zu, result %d: %d, want %d", ls, i, k, out[i * 3 + k], want[k]);
        }
        free(in);
        free(out);
    }
}

static void test_broadcast_2d_3d(void **state)
{
    (void)state;
    size_t n = 8 * 6 * 4;
    int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)(rng_next() % 100000);
    cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);

    size_t g2[2] = {8, 6}, l2[2] = {4, 3};
    uint64_t x = 3, y = 1;
    assert_int_equal(launch("broadcast_2d", 2, NULL, g2, l2, KARGS(KARG(bi), KARG(bo), KARG(x), KARG(y))), CL_SUCCESS);
    buf_read(bo, 8 * 6 * sizeof *out, out);
    for (size_t j = 0; j < 6; j++)
        for (size_t i = 0; i < 8; i++) {
            int want = in[(j - j % 3 + y) * 8 + (i - i % 4 + x)];
            if (out[j * 8 + i] != want)
                fail_msg("2-D (%zu, %zu): %d, want %d", i, j, out[j * 8 + i], want);
        }

    size_t g3[3] = {4, 6, 8}, l3[3] = {2, 3, 2};
    uint64_t z = 1;
    x = 1, y = 2;
    assert_int_equal(launch("broadcast_3d", 3, NULL, g3, l3, KARGS(KARG(bi), KARG(bo), KARG(x), KARG(y), KARG(z))),
                     CL_SUCCESS);
    buf_read(bo, n * sizeof *out, out);
    for (size_t k = 0; k < 8; k++)
        for (size_t j = 0; j < 6; j++)
            for (size_t i = 0; i < 4; i++) {
                int want = in[((k - k % 2 + z) * 6 + (j - j % 3 + y)) * 4 + (i - i % 2 + x)];
                if (out[(k * 6 + j) * 4 + i] != want)
                    fail_msg("3-D (%zu, %zu, %zu): %d, want %d", i, j, k, out[(k * 6 + j) * 4 + i], want);
            }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
}

/* Calls one after another and around a loop share the scratch: a reduce, a scan and a
 * broadcast of a value the previous calls made, four times. */
static void test_in_loop(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *acc = malloc(ls * sizeof *acc);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 1000);
        int *out = run_ints("in_loop", n, ls, in, 1, NULL);
        for (size_t g0 = 0; g0 < n; g0 += ls) {
            for (size_t l = 0; l < ls; l++)
                acc[l] = 0;
            for (int r = 0; r < 4; r++) {
                int sum = 0, pre = 0;
                for (size_t l = 0; l < ls; l++)
                    sum += in[g0 + l] + r;
                for (size_t l = 0; l < ls; l++) {
                    acc[l] += sum + pre;
                    pre += in[g0 + l] * r;
                }
                int b = acc[(size_t)r % ls];
                for (size_t l = 0; l < ls; l++)
                    acc[l] ^= b;
            }
            for (size_t l = 0; l < ls; l++)
                if (out[g0 + l] != acc[l])
                    fail_msg("local %zu, item %zu: %d, want %d", ls, g0 + l, out[g0 + l], acc[l]);
        }
        free(in);
        free(out);
        free(acc);
    }
}

static void test_with_local_memory(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 5, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100000) - 50000;
        int *out = run_ints("with_local", n, ls, in, 1, NULL);
        for (size_t i = 0; i < n; i++) {
            size_t g0 = i - i % ls;
            int mx = in[g0];
            for (size_t j = g0; j < g0 + ls; j++)
                mx = in[j] > mx ? in[j] : mx;
            int want = mx + in[g0 + (i % ls + 1) % ls];
            if (out[i] != want)
                fail_msg("local %zu, item %zu: %d, want %d", ls, i, out[i], want);
        }
        free(in);
        free(out);
    }
}

/* Work-group and sub-group reductions in one kernel: sub-groups are consecutive runs of
 * get_max_sub_group_size() work-items (the last one shorter). */
static void test_with_sub_groups(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 20, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        int *in = malloc(n * sizeof *in);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 1000);
        int *out = run_ints("with_sub_groups", n, ls, in, 3, NULL);
        for (size_t i = 0; i < n; i++) {
            size_t g0 = i - i % ls, s = (size_t)out[i * 3 + 2];
            assert_true(s >= 1 && s <= ls);
            size_t s0 = g0 + (i - g0) / s * s, s1 = s0 + s < g0 + ls ? s0 + s : g0 + ls;
            int wg = 0, sg = 0;
            for (size_t j = g0; j < g0 + ls; j++)
                wg += in[j];
            for (size_t j = s0; j < s1; j++)
                sg += in[j];
            if (out[i * 3] != wg || out[i * 3 + 1] != sg)
                fail_msg("local %zu, item %zu (sub-groups of %zu): %d %d, want %d %d", ls, i, s, out[i * 3],
                         out[i * 3 + 1], wg, sg);
        }
        free(in);
        free(out);
    }
}

/* Half collectives (where the device reports cl_khr_fp16): values are small integers, so
 * every order of addition gives one exact answer. The kernel converts from and to float. */
static void test_half(void **state)
{
    (void)state;
    char ext[4096] = {0};
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    if (!strstr(ext, "cl_khr_fp16"))
        skip();
    cl_program p = weft_test_build(&env,
                                   "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                                   "kernel void k(global const float *in, global float *out) {\n"
                                   "  size_t g = get_global_id(0); half x = (half)in[g];\n"
                                   "  out[g * 4] = work_group_reduce_add(x); out[g * 4 + 1] = work_group_reduce_max(x);\n"
                                   "  out[g * 4 + 2] = work_group_scan_inclusive_add(x);\n"
                                   "  out[g * 4 + 3] = work_group_scan_exclusive_min(x);\n"
                                   "}\n",
                                   "-cl-std=CL3.0");
    assert_non_null(p);
    cl_program saved = prog;
    prog = p;
    static const size_t sizes[] = {1, 7, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        float *in = malloc(n * sizeof *in), *out = malloc(n * 4 * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)((int)(rng_next() % 9) - 4);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * 4 * sizeof *out);
        assert_int_equal(launch("k", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * 4 * sizeof *out, out);
        for (size_t g0 = 0; g0 < n; g0 += ls) {
            float sum = 0, mx = -INFINITY, run = 0, mn = INFINITY;
            for (size_t i = g0; i < g0 + ls; i++) {
                sum += in[i];
                mx = in[i] > mx ? in[i] : mx;
            }
            for (size_t i = g0; i < g0 + ls; i++) {
                run += in[i];
                float want[4] = {sum, mx, run, mn};
                mn = in[i] < mn ? in[i] : mn;
                for (int k = 0; k < 4; k++)
                    if (out[i * 4 + k] != want[k])
                        fail_msg("half, local %zu, item %zu, result %d: %g, want %g", ls, i, k, out[i * 4 + k],
                                 want[k]);
            }
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
    prog = saved;
    clReleaseProgram(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_and_scan),   cmocka_unit_test(test_remainder_group),
        cmocka_unit_test(test_all_any_broadcast), cmocka_unit_test(test_broadcast_2d_3d),
        cmocka_unit_test(test_in_loop),           cmocka_unit_test(test_with_local_memory),
        cmocka_unit_test(test_with_sub_groups),   cmocka_unit_test(test_half),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
