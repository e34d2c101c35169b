/* tests/e2e/test_kernels_globals.c — program-scope variables (OpenCL C 3.0 §6.8,
 * __opencl_c_program_scope_global_variables) end to end: values persist across launches and
 * are shared by the kernels of one program, initializers of every kind (scalars, arrays,
 * vectors, structs, strings, pointers to other variables, static and function-scope static
 * variables), CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, two programs with the same source
 * keeping separate storage, a rebuild re-initializing it, a too-large variable failing the
 * build, extern variables across clCompileProgram/clLinkProgram, and the feature macro
 * agreeing with CL_DEVICE_OPENCL_C_FEATURES. Every expected value is computed on the host. */
#include "test_kernels_harness.h"

#include <string.h>

static const char *source =
    "typedef struct { int a; float b; char c; int arr[3]; } S;\n"
    "global int counter = 5;\n"
    "global int table[256] = {1, 2, 3};\n"
    "static global int hidden;\n"
    "constant int carr[4] = {70, 80, 90, 100};\n"
    "global int *global gp = &table[2];\n"
    "constant int *global cp = &carr[1];\n"
    "global S gs = {7, 2.5f, 'x', {4, 5, 6}};\n"
    "global S *global gsp = &gs;\n"
    "global float4 gv = (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "global long gl = -3000000000L;\n"
    "global double gd = 0.125;\n"
    "global char msg[8] = \"hello\";\n"
    "global uint hits;\n"
    "kernel void bump(global int *out) {\n"
    "  static global int calls = 100;\n"
    "  out[0] = counter++;\n"
    "  out[1] = calls++;\n"
    "  hidden += 2;\n"
    "  out[2] = hidden;\n"
    "}\n"
    "kernel void read_counter(global int *out) { out[0] = counter; out[1] = hidden; }\n"
    "kernel void inits(global int *o, global float *f, global long *l, global double *d) {\n"
    "  o[0] = table[0]; o[1] = table[1]; o[2] = table[2]; o[3] = table[3]; o[4] = table[255];\n"
    "  o[5] = *gp; o[6] = *cp; o[7] = cp[2];\n"
    "  o[8] = gs.a; o[9] = gs.c; o[10] = gs.arr[0] + 10 * gs.arr[1] + 100 * gs.arr[2];\n"
    "  o[11] = gsp->arr[2]; o[12] = msg[0]; o[13] = msg[4]; o[14] = msg[5];\n"
    "  o[15] = gp == &table[2]; o[16] = gsp == &gs;\n"
    "  f[0] = gs.b; f[1] = gv.x; f[2] = gv.y; f[3] = gv.z; f[4] = gv.w;\n"
    "  l[0] = gl; d[0] = gd;\n"
    "}\n"
    "kernel void fill_table(int k) { size_t i = get_global_id(0); table[i] = (int)i * k; }\n"
    "kernel void read_table(global int *out) { size_t i = get_global_id(0); out[i] = table[i]; }\n"
    "kernel void count_hits(global const int *in) {\n"
    "  if (in[get_global_id(0)] > 0) atomic_inc(&hits);\n"
    "}\n"
    "kernel void read_hits(global uint *out) { out[0] = hits; }\n"
    "kernel void through_pointer(int v) { *gp = v; gsp->arr[1] = v + 1; }\n"
    "kernel void feature(global int *out) {\n"
    "#ifdef __opencl_c_program_scope_global_variables\n"
    "  out[0] = 1;\n"
    "#else\n"
    "  out[0] = 0;\n"
    "#endif\n"
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

static cl_program build(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &env.device, "-cl-std=CL3.0", NULL, NULL);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

static void run_task(cl_program p, const char *name, cl_mem out)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &one, &one, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clReleaseKernel(k);
}

/* Three launches of one kernel see each other's writes; a second kernel sees them too. */
static void test_persist_across_launches_and_kernels(void **state)
{
    (void)state;
    cl_mem out = buf_new(3 * sizeof(int), NULL);
    int v[3];
    for (int i = 0; i < 3; i++) {
        run_task(prog, "bump", out);
        buf_read(out, sizeof v, v);
        assert_int_equal(v[0], 5 + i);
        assert_int_equal(v[1], 100 + i);
        assert_int_equal(v[2], 2 * (i + 1));
    }
    run_task(prog, "read_counter", out);
    buf_read(out, 2 * sizeof(int), v);
    assert_int_equal(v[0], 8);
    assert_int_equal(v[1], 6);
    clReleaseMemObject(out);
}

static void test_initializers(void **state)
{
    (void)state;
    cl_mem o = buf_new(17 * sizeof(int), NULL), f = buf_new(5 * sizeof(float), NULL);
    cl_mem l = buf_new(sizeof(cl_long), NULL), d = buf_new(sizeof(double), NULL);
    size_t one = 1;
    assert_int_equal(launch("inits", 1, NULL, &one, &one, KARGS(KARG(o), KARG(f), KARG(l), KARG(d))), CL_SUCCESS);
    int ov[17];
    float fv[5];
    cl_long lv;
    double dv;
    buf_read(o, sizeof ov, ov);
    buf_read(f, sizeof fv, fv);
    buf_read(l, sizeof lv, &lv);
    buf_read(d, sizeof dv, &dv);
    const int want[17] = {1, 2, 3, 0, 0, 3, 80, 100, 7, 'x', 654, 6, 'h', 'o', 0, 1, 1};
    for (int i = 0; i < 17; i++) {
        if (ov[i] != want[i])
            fail_msg("inits: o[%d] = %d, expected %d", i, ov[i], want[i]);
    }
    const float fwant[5] = {2.5f, 1.0f, 2.0f, 3.0f, 4.0f};
    for (int i = 0; i < 5; i++)
        assert_true(fv[i] == fwant[i]);
    assert_true(lv == -3000000000LL);
    assert_true(dv == 0.125);
    clReleaseMemObject(o);
    clReleaseMemObject(f);
    clReleaseMemObject(l);
    clReleaseMemObject(d);
}

/* Many work-groups write the table in one launch, another kernel reads it in the next; then a
 * write through initialized pointers (gp = &table[2], gsp = &gs) lands in the same storage. */
static void test_table_between_kernels(void **state)
{
    (void)state;
    size_t n = 256, local = 32;
    int k = 3;
    assert_int_equal(launch("fill_table", 1, NULL, &n, &local, KARGS(KARG(k))), CL_SUCCESS);
    cl_mem out = buf_poisoned(n * sizeof(int));
    assert_int_equal(launch("read_table", 1, NULL, &n, &local, KARGS(KARG(out))), CL_SUCCESS);
    int v[256];
    buf_read(out, sizeof v, v);
    for (int i = 0; i < 256; i++)
        if (v[i] != i * k)
            fail_msg("table[%d] = %d, expected %d", i, v[i], i * k);
    size_t one = 1;
    int w = -9;
    assert_int_equal(launch("through_pointer", 1, NULL, &one, &one, KARGS(KARG(w))), CL_SUCCESS);
    assert_int_equal(launch("read_table", 1, NULL, &n, &local, KARGS(KARG(out))), CL_SUCCESS);
    buf_read(out, sizeof v, v);
    assert_int_equal(v[2], -9);
    assert_int_equal(v[3], 3 * k);
    clReleaseMemObject(out);
}

/* An atomic counter in a program-scope variable, incremented by every work-group. */
static void test_atomic_counter(void **state)
{
    (void)state;
    enum { N = 4096 };
    int in[N];
    unsigned expected = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (int)(rng_next() % 7) - 3;
        expected += in[i] > 0;
    }
    cl_mem b = buf_new(sizeof in, in), out = buf_new(sizeof(cl_uint), NULL);
    size_t n = N, local = 64;
    assert_int_equal(launch("count_hits", 1, NULL, &n, &local, KARGS(KARG(b))), CL_SUCCESS);
    assert_int_equal(launch("count_hits", 1, NULL, &n, NULL, KARGS(KARG(b))), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(launch("read_hits", 1, NULL, &one, &one, KARGS(KARG(out))), CL_SUCCESS);
    cl_uint got;
    buf_read(out, sizeof got, &got);
    assert_int_equal(got, 2 * expected);
    clReleaseMemObject(b);
    clReleaseMemObject(out);
}

/* Two programs of one source share compiled code but never storage; a rebuild starts afresh. */
static void test_programs_independent(void **state)
{
    (void)state;
    static const char *src = "global int c = 10;\n"
                             "kernel void step(global int *o) { o[0] = c; c += 5; }\n";
    cl_program a = build(src), b = build(src);
    cl_mem out = buf_new(sizeof(int), NULL);
    int v;
    run_task(a, "step", out);
    run_task(a, "step", out);
    run_task(b, "step", out);
    buf_read(out, sizeof v, &v);
    assert_int_equal(v, 10);
    run_task(a, "step", out);
    buf_read(out, sizeof v, &v);
    assert_int_equal(v, 20);
    /* no kernel objects left: rebuilding gives a new executable with fresh storage */
    assert_int_equal(clBuildProgram(a, 1, &env.device, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
    run_task(a, "step", out);
    buf_read(out, sizeof v, &v);
    assert_int_equal(v, 10);
    clReleaseMemObject(out);
    clReleaseProgram(a);
    clReleaseProgram(b);
}

static size_t total_size(cl_program p)
{
    size_t t = 12345, ret = 0;
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof t,
                                           &t, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, sizeof(size_t));
    return t;
}

static void test_total_size(void **state)
{
    (void)state;
    /* three ints, in whatever order the frontend emits them; __constant data that no
     * variable points to stays out */
    cl_program p = build("global int a = 1; global int b; global int c = 3;\n"
                         "constant int k[100] = {1};\n"
                         "kernel void t(global int *o) { o[0] = a + b + c + k[o[1]]; }\n");
    assert_int_equal(total_size(p), 12);
    clReleaseProgram(p);
    p = build("kernel void t(global int *o) { o[0] = 1; }\n");
    assert_int_equal(total_size(p), 0);
    clReleaseProgram(p);
    /* char, double, int[10]: 49 bytes and alignment padding (at most 7 + 15 whatever the
     * order: the frontend may align int[10] to 16) */
    p = build("global char x; global double y; global int z[10];\n"
              "kernel void t(global int *o) { o[0] = x + (int)y + z[o[1]]; }\n");
    size_t t = total_size(p);
    assert_true(t >= 49 && t <= 49 + 7 + 15);
    clReleaseProgram(p);
}

static void test_too_large(void **state)
{
    (void)state;
    size_t max = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max, &max, NULL),
                     CL_SUCCESS);
    assert_true(max >= 65536);
    size_t pref = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof pref, &pref,
                                     NULL),
                     CL_SUCCESS);
    assert_true(pref > 0);
    char src[256];
    snprintf(src, sizeof src, "global char big[%zu];\n"
                              "kernel void t(global char *o) { o[0] = big[o[1]]; }\n", max + 1);
    const char *s = src;
    cl_int err;
    cl_program p = clCreateProgramWithSource(env.context, 1, &s, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 1, &env.device, "-cl-std=CL3.0", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    assert_non_null(strstr(log, "'big'"));
    assert_non_null(strstr(log, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE"));
    clReleaseProgram(p);
    /* exactly the maximum builds */
    snprintf(src, sizeof src, "global char big[%zu];\n"
                              "kernel void t(global char *o) { o[0] = big[o[1]]; }\n", max);
    p = clCreateProgramWithSource(env.context, 1, &s, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 1, &env.device, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
    assert_int_equal(total_size(p), max);
    clReleaseProgram(p);
}

/* extern in one compiled object, defined in another: clLinkProgram resolves it; undefined
 * everywhere, the link fails with a log line. */
static void test_extern_link(void **state)
{
    (void)state;
    const char *use = "extern global int shared_x;\n"
                      "int next(void);\n"
                      "kernel void get(global int *o) { o[0] = shared_x; o[1] = next(); }\n";
    const char *def = "global int shared_x = 42;\n"
                      "int next(void) { return ++shared_x; }\n";
    cl_int err;
    cl_program pu = clCreateProgramWithSource(env.context, 1, &use, NULL, &err);
    cl_program pd = clCreateProgramWithSource(env.context, 1, &def, NULL, &err);
    assert_int_equal(clCompileProgram(pu, 1, &env.device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clCompileProgram(pd, 1, &env.device, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program both[2] = {pu, pd};
    cl_program exe = clLinkProgram(env.context, 1, &env.device, NULL, 2, both, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(total_size(exe), sizeof(int));
    cl_mem out = buf_new(2 * sizeof(int), NULL);
    int v[2];
    run_task(exe, "get", out);
    buf_read(out, sizeof v, v);
    assert_int_equal(v[0], 42);
    assert_int_equal(v[1], 43);
    run_task(exe, "get", out);
    buf_read(out, sizeof v, v);
    assert_int_equal(v[0], 43);
    assert_int_equal(v[1], 44);
    clReleaseProgram(exe);
    exe = clLinkProgram(env.context, 1, &env.device, NULL, 1, &pu, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(exe, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    assert_true(strstr(log, "shared_x") || strstr(log, "next"));
    clReleaseProgram(exe);
    clReleaseMemObject(out);
    clReleaseProgram(pu);
    clReleaseProgram(pd);
}

/* The macro a kernel sees is what the device reports. */
static void test_feature_macro_matches_device(void **state)
{
    (void)state;
    int reported = weft_test_device_has_feature(env.device, "__opencl_c_program_scope_global_variables");
    assert_int_not_equal(reported, -1);
    cl_mem out = buf_new(sizeof(int), NULL);
    int seen = -1;
    run_task(prog, "feature", out);
    buf_read(out, sizeof seen, &seen);
    assert_int_equal(seen, reported);
    assert_int_equal(reported, 1);
    clReleaseMemObject(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_persist_across_launches_and_kernels),
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_table_between_kernels),
        cmocka_unit_test(test_atomic_counter),
        cmocka_unit_test(test_programs_independent),
        cmocka_unit_test(test_total_size),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_extern_link),
        cmocka_unit_test(test_feature_macro_matches_device),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
