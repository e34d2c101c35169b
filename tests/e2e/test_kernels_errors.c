/* tests/e2e/test_kernels_errors.c — bad input end to end: programs that must not build
 * (syntax error, undefined function, recursion, kernel argument types that cannot be passed,
 * -Werror on a warning, an unknown option) give the specified error and a build log that says
 * what and where; a failed build leaves the context usable; clSetKernelArg with wrong sizes
 * gives CL_INVALID_ARG_SIZE; launches whose local size is over a limit or does not fit the
 * kernel, or that OpenCL C 1.x cannot cut into uniform work-groups, give
 * CL_INVALID_WORK_GROUP_SIZE / CL_INVALID_WORK_ITEM_SIZE. */
#include "test_kernels_harness.h"

static const char *good_source =
    "typedef struct { int a; float b; } S;\n"
    "kernel void args(global int *out, int i, double d, S s, local float *l, float4 v) {\n"
    "  l[get_local_id(0)] = v.x;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = i + (int)d + s.a + (int)s.b + (int)l[0];\n"
    "}\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global int *out) { out[get_global_id(0)] = 1; }\n"
    /* 60 KiB of static __local plus a __local argument: fits exactly in 64 KiB with a 4 KiB argument */
    "kernel void big_local(global int *p, local int *extra) {\n"
    "  local int big[15360];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  for (size_t i = l; i < 15360; i += n) big[i] = (int)i;\n"
    "  extra[l] = (int)l;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  p[get_global_id(0)] = big[15359 - l] + extra[n - 1 - l];\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(good_source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* Builds `src` expecting failure `want_err`; returns the build log (caller frees). */
static char *build_must_fail(const char *src, const char *options, cl_int want_err)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &env.device, options, NULL, NULL);
    if (err != want_err)
        fail_msg("clBuildProgram = %d, want %d for:\n%s", err, want_err, src);
    size_t n = 0;
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n), CL_SUCCESS);
    char *log = calloc(n + 1, 1);
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log, NULL), CL_SUCCESS);
    if (want_err == CL_BUILD_PROGRAM_FAILURE) {
        cl_build_status st;
        assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
                         CL_SUCCESS);
        assert_int_equal(st, CL_BUILD_ERROR);
        /* no executable: kernels cannot be created from a failed build */
        cl_kernel k = clCreateKernel(p, "k", &err);
        assert_null(k);
        assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    }
    clReleaseProgram(p);
    return log;
}

static void expect_log(const char *log, const char *needle, const char *what)
{
    if (!strstr(log, needle))
        fail_msg("%s: build log lacks \"%s\":\n%s", what, needle, log);
}

static void test_syntax_error(void **state)
{
    (void)state;
    char *log = build_must_fail("kernel void k(global int *p) {\n"
                                "  p[0] = 1\n"
                                "}\n",
                                NULL, CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "error", "syntax error");
    expect_log(log, ":2:", "syntax error (line number)");
    free(log);
}

static void test_undeclared_function(void **state)
{
    (void)state;
    char *log = build_must_fail("kernel void k(global int *p) {\n"
                                "  p[0] = no_such_function(3);\n"
                                "}\n",
                                NULL, CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "no_such_function", "undeclared function");
    expect_log(log, ":2:", "undeclared function (line number)");
    free(log);
}

static void test_declared_but_undefined_function(void **state)
{
    (void)state;
    /* clang accepts this; the link with the builtin library must reject it */
    char *log = build_must_fail("int missing_helper(int x);\n"
                                "kernel void k(global int *p) {\n"
                                "  p[0] = missing_helper(3);\n"
                                "}\n",
                                NULL, CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "missing_helper", "undefined function");
    free(log);
}

static void test_recursion(void **state)
{
    (void)state;
    char *log = build_must_fail("int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
                                "kernel void k(global int *p) { p[0] = fact(p[1]); }\n",
                                NULL, CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "fact", "recursion");
    expect_log(log, "recurs", "recursion");
    free(log);
}

static void test_mutual_recursion(void **state)
{
    (void)state;
    char *log = build_must_fail("int odd(int n);\n"
                                "int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n"
                                "int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n"
                                "kernel void k(global int *p) { p[0] = even(p[1]); }\n",
                                NULL, CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "recurs", "mutual recursion");
    free(log);
}

static void test_argument_types_that_cannot_be_passed(void **state)
{
    (void)state;
    static const char *srcs[] = {
        "kernel void k(bool b, global int *p) { p[0] = b; }\n",
        "kernel void k(global int **pp) { pp[0][0] = 1; }\n",
        "kernel void k(size_t n, global int *p) { p[0] = (int)n; }\n",
        "typedef struct { global int *ptr; } S;\nkernel void k(S s) { s.ptr[0] = 1; }\n",
    };
    for (size_t i = 0; i < ARRAY_LEN(srcs); i++) {
        char *log = build_must_fail(srcs[i], NULL, CL_BUILD_PROGRAM_FAILURE);
        expect_log(log, "error", srcs[i]);
        expect_log(log, ":1:", srcs[i]);
        free(log);
    }
}

static void test_werror_and_defines(void **state)
{
    (void)state;
    static const char *src = "kernel void k(global char *p) { char c = 300; p[0] = c + VALUE; }\n";
    char *log = build_must_fail(src, "-DVALUE=1 -Werror", CL_BUILD_PROGRAM_FAILURE);
    expect_log(log, "300", "-Werror"); /* clang's default-on -Wconstant-conversion */
    free(log);
    log = build_must_fail(src, NULL, CL_BUILD_PROGRAM_FAILURE); /* VALUE undefined */
    expect_log(log, "VALUE", "missing -D");
    free(log);
    log = build_must_fail(src, "-DVALUE=1 -cl-no-such-option", CL_INVALID_BUILD_OPTIONS);
    free(log);
    /* and the same source builds with the right options, after the failures */
    cl_program p = weft_test_build(&env, src, "-DVALUE=1");
    assert_non_null(p);
    clReleaseProgram(p);
}

static void test_set_arg_sizes(void **state)
{
    (void)state;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "args", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem b = buf_new(64, NULL);
    cl_long big = 0;
    cl_int i = 1;
    cl_double d = 2.0;
    struct {
        cl_int a;
        cl_float b;
    } s = {3, 4.0f};
    cl_float4 v = {{1, 2, 3, 4}};
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_int), &b), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 1, sizeof big, &big), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 1, 2, &i), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 2, sizeof(cl_float), &d), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 3, sizeof s + 4, &s), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 4, 0, NULL), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 5, sizeof(cl_float2), &v), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 6, sizeof i, &i), CL_INVALID_ARG_INDEX);
    /* correct sizes then work, and the kernel runs */
    int out[8];
    size_t global = 8, local = 4;
    assert_int_equal(launch("args", 1, NULL, &global, &local,
                            KARGS(KARG(b), KARG(i), KARG(d), KARG(s), KLOCAL(4 * sizeof(float)), KARG(v))),
                     CL_SUCCESS);
    buf_read(b, sizeof out, out);
    for (int j = 0; j < 8; j++)
        assert_int_equal(out[j], 1 + 2 + 3 + 4 + 1);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

static void test_work_group_size_limits(void **state)
{
    (void)state;
    size_t dev_max = 0, items[3] = {0}, kmax = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max, &dev_max, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "fixed", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                              NULL),
                     CL_SUCCESS);
    assert_true(kmax >= 1 && kmax <= dev_max);
    clReleaseKernel(k);

    cl_mem b = buf_new(1 << 20, NULL);
    cl_int zero = 0;
    cl_double dz = 0;
    struct {
        cl_int a;
        cl_float b;
    } sz = {0, 0};
    cl_float4 vz = {{0}};
    /* total local size over the device limit, each dimension within its own limit */
    size_t l2[2] = {items[0], dev_max / items[0] + 1};
    if (l2[1] <= items[1]) {
        size_t g2[2] = {l2[0], l2[1]};
        assert_int_equal(launch("args", 2, NULL, g2, l2,
                                KARGS(KARG(b), KARG(zero), KARG(dz), KARG(sz), KLOCAL(16), KARG(vz))),
                         CL_INVALID_WORK_GROUP_SIZE);
    } else {
        fail_msg("cannot form a local size over %zu within item sizes %zu x %zu", dev_max, items[0], items[1]);
    }
    /* one dimension over CL_DEVICE_MAX_WORK_ITEM_SIZES */
    size_t l1 = items[0] + 1, g1 = l1;
    err = launch("fixed", 1, NULL, &g1, &l1, KARGS(KARG(b)));
    if (l1 > kmax) /* then both conditions hold, and the specification names both codes */
        assert_true(err == CL_INVALID_WORK_ITEM_SIZE || err == CL_INVALID_WORK_GROUP_SIZE);
    else
        assert_int_equal(err, CL_INVALID_WORK_ITEM_SIZE);
    /* reqd_work_group_size(4,2,1) not matched */
    size_t g[2] = {8, 8}, bad[2] = {2, 4}, good[2] = {4, 2};
    assert_int_equal(launch("fixed", 2, NULL, g, bad, KARGS(KARG(b))), CL_INVALID_WORK_GROUP_SIZE);
    assert_int_equal(launch("fixed", 2, NULL, g, good, KARGS(KARG(b))), CL_SUCCESS);
    /* global size not a multiple of the local size: the device supports non-uniform work-groups,
     * but this program is OpenCL C 1.2 (built without -cl-std), which requires uniform ones
     * (test_kernels_nonuniform.c runs them for OpenCL C 3.0) */
    size_t gu = 10, lu = 4;
    cl_bool nonuniform = CL_FALSE;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonuniform,
                                     &nonuniform, NULL), CL_SUCCESS);
    assert_int_equal(nonuniform, CL_TRUE);
    assert_int_equal(launch("args", 1, NULL, &gu, &lu,
                            KARGS(KARG(b), KARG(zero), KARG(dz), KARG(sz), KLOCAL(16), KARG(vz))),
                     CL_INVALID_WORK_GROUP_SIZE);
    /* ... and so does reqd_work_group_size(4,2,1) with a NULL local size */
    size_t gr[2] = {10, 8};
    assert_int_equal(launch("fixed", 2, NULL, gr, NULL, KARGS(KARG(b))), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(b);
}

static void test_local_memory_over_limit(void **state)
{
    (void)state;
    cl_ulong lmem = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL), CL_SUCCESS);
    cl_mem b = buf_new(64, NULL);
    cl_int i = 0;
    cl_double d = 0;
    struct {
        cl_int a;
        cl_float b;
    } s = {0, 0};
    cl_float4 v = {{0}};
    size_t global = 4, local = 4;
    cl_int err = launch("args", 1, NULL, &global, &local,
                        KARGS(KARG(b), KARG(i), KARG(d), KARG(s), KLOCAL((size_t)lmem + 4096), KARG(v)));
    /* the specification allows either report, at argument time or at launch */
    if (err != CL_OUT_OF_RESOURCES && err != CL_INVALID_ARG_SIZE)
        fail_msg("__local argument of %llu bytes (device has %llu): error %d, want CL_OUT_OF_RESOURCES",
                 (unsigned long long)lmem + 4096, (unsigned long long)lmem, err);
    clReleaseMemObject(b);
}

static void test_local_memory_at_the_limit(void **state)
{
    (void)state;
    cl_ulong lmem = 0, klocal = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "big_local", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof klocal, &klocal, NULL),
                     CL_SUCCESS);
    assert_true(klocal >= 15360 * 4);
    clReleaseKernel(k);
    if (lmem < klocal + 64 * sizeof(int))
        fail_msg("device local memory %llu cannot hold the kernel's %llu bytes", (unsigned long long)lmem,
                 (unsigned long long)klocal);
    int out[64];
    cl_mem b = buf_poisoned(sizeof out);
    size_t global = 64, local = 64, fits = (size_t)(lmem - klocal), over = fits + 1;
    assert_int_equal(launch("big_local", 1, NULL, &global, &local, KARGS(KARG(b), KLOCAL(fits))), CL_SUCCESS);
    buf_read(b, sizeof out, out);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 15359 - i + 63 - i);
    err = launch("big_local", 1, NULL, &global, &local, KARGS(KARG(b), KLOCAL(over)));
    assert_true(err == CL_OUT_OF_RESOURCES || err == CL_INVALID_ARG_SIZE);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_undeclared_function),
        cmocka_unit_test(test_declared_but_undefined_function),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_mutual_recursion),
        cmocka_unit_test(test_argument_types_that_cannot_be_passed),
        cmocka_unit_test(test_werror_and_defines),
        cmocka_unit_test(test_set_arg_sizes),
        cmocka_unit_test(test_work_group_size_limits),
        cmocka_unit_test(test_local_memory_over_limit),
        cmocka_unit_test(test_local_memory_at_the_limit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
