/* tests/e2e/test_basic_kernels.c — small kernels end to end (build, arguments, launch,
 * results checked against host references): saxpy over several local sizes, vector types,
 * a struct by value, a __constant argument, helper functions, 2-D and 3-D NDRanges with
 * offsets, a __local argument, and printf (stdout captured). */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "weft_test.h"

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

static cl_kernel kernel_from(const char *src, const char *name, const char *options, cl_program *prog)
{
    cl_program p = weft_test_build(&env, src, options);
    assert_non_null(p);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    *prog = p;
    return k;
}

static cl_mem buffer(size_t size, void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size, init, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static void read_back(cl_mem m, size_t size, void *dst)
{
    assert_int_equal(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, size, dst, 0, NULL, NULL), CL_SUCCESS);
}

static void test_saxpy_local_sizes(void **state)
{
    static const char *src = "kernel void saxpy(float a, global const float *x, global float *y, uint n) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  if (i < n) y[i] = a * x[i] + y[i];\n"
                             "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "saxpy", NULL, &p);
    static const size_t locals[] = {0, 1, 3, 7, 64, 100, 256};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t local = locals[t];
        size_t n = 1000 + t, global = local ? (n + local - 1) / local * local : n;
        float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++) {
            x[i] = (float)i * 0.5f;
            y[i] = 100.0f - (float)i;
        }
        cl_mem bx = buffer(n * sizeof *x, x), by = buffer(n * sizeof *y, y);
        float a = 2.5f;
        cl_uint un = (cl_uint)n;
        assert_int_equal(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof bx, &bx), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 2, sizeof by, &by), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 3, sizeof un, &un), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL),
                         CL_SUCCESS);
        read_back(by, n * sizeof *out, out);
        for (size_t i = 0; i < n; i++)
            if (out[i] != a * x[i] + y[i])
                fail_msg("local %zu: y[%zu] = %g, want %g", local, i, out[i], a * x[i] + y[i]);
        clReleaseMemObject(bx);
        clReleaseMemObject(by);
        free(x);
        free(y);
        free(out);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_vector_types(void **state)
{
    static const char *src =
        "kernel void vec(global const float4 *a, global float4 *b, global int8 *c, global char16 *d,\n"
        "                float2 s, global double2 *e) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float4 v = a[i];\n"
        "  b[i] = v.wzyx * s.x + (float4)(s.y);\n"
        "  int8 w = (int8)((int)i) + (int8)(0, 1, 2, 3, 4, 5, 6, 7);\n"
        "  c[i] = w * 3 - (w >> 1);\n"
        "  char16 z = (char16)((char)i);\n"
        "  d[i] = add_sat(z, (char16)(120));\n"
        "  e[i] = (double2)((double)i / 3.0, sqrt((double)i));\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "vec", NULL, &p);
    enum { N = 64 };
    cl_float4 a[N], b[N];
    cl_int8 c[N];
    cl_char16 d[N];
    cl_double2 e[N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            a[i].s[j] = (float)(i * 4 + j);
    cl_mem ba = buffer(sizeof a, a), bb = buffer(sizeof b, NULL), bc = buffer(sizeof c, NULL),
           bd = buffer(sizeof d, NULL), be = buffer(sizeof e, NULL);
    cl_float2 s = {{2.0f, -1.0f}};
    assert_int_equal(clSetKernelArg(k, 0, sizeof ba, &ba), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bb, &bb), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof bc, &bc), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof bd, &bd), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 4, sizeof s, &s), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 5, sizeof be, &be), CL_SUCCESS);
    size_t global = N, local = 16;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    read_back(bb, sizeof b, b);
    read_back(bc, sizeof c, c);
    read_back(bd, sizeof d, d);
    read_back(be, sizeof e, e);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 4; j++)
            assert_true(b[i].s[j] == a[i].s[3 - j] * 2.0f - 1.0f);
        for (int j = 0; j < 8; j++) {
            int w = i + j;
            assert_int_equal(c[i].s[j], w * 3 - (w >> 1));
        }
        for (int j = 0; j < 16; j++) {
            int sum = i + 120;
            assert_int_equal(d[i].s[j], sum > 127 ? 127 : sum);
        }
        assert_true(fabs(e[i].s[0] - i / 3.0) < 1e-15);
        assert_true(fabs(e[i].s[1] - sqrt((double)i)) < 1e-15);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    clReleaseMemObject(bd);
    clReleaseMemObject(be);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_struct_constant_and_helpers(void **state)
{
    static const char *src =
        "typedef struct { float scale; int offset; char flag; double d; } Params;\n"
        "static float twice(float x) { return 2.0f * x; }\n"
        "float poly(float x, constant float *coef, int n) {\n"
        "  float r = 0.0f;\n"
        "  for (int i = n - 1; i >= 0; i--) r = r * x + coef[i];\n"
        "  return r;\n"
        "}\n"
        "int pick(int a, int b, char flag) { return flag ? a : b; }\n"
        "kernel void k(global float *out, constant float *coef, Params p, int n) {\n"
        "  int i = get_global_id(0);\n"
        "  float x = (float)i * p.scale;\n"
        "  out[i] = twice(poly(x, coef, n)) + pick(p.offset, -p.offset, p.flag) + (float)p.d;\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "k", NULL, &p);
    struct {
        cl_float scale;
        cl_int offset;
        cl_char flag;
        cl_double d;
    } params = {0.25f, 7, 1, 0.5};
    float coef[4] = {1.0f, -2.0f, 0.5f, 0.125f};
    enum { N = 200 };
    float out[N];
    cl_mem bo = buffer(sizeof out, NULL), bcoef = buffer(sizeof coef, coef);
    int n = 4;
    assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof bcoef, &bcoef), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof params, &params), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof n, &n), CL_SUCCESS);
    size_t global = N;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    read_back(bo, sizeof out, out);
    for (int i = 0; i < N; i++) {
        float x = (float)i * params.scale, r = 0.0f;
        for (int j = n - 1; j >= 0; j--)
            r = r * x + coef[j];
        float want = 2.0f * r + 7 + 0.5f;
        if (fabsf(out[i] - want) > 1e-4f * fabsf(want) + 1e-5f)
            fail_msg("out[%d] = %g, want %g", i, out[i], want);
    }
    clReleaseMemObject(bo);
    clReleaseMemObject(bcoef);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A kernel called as a function by another kernel, built with and without optimization. */
static void test_kernel_calls_kernel(void **state)
{
    static const char *src =
        "kernel void inner(global int *a) { a[get_global_id(0)] += 5; }\n"
        "kernel void outer(global int *a) { a[get_global_id(0)] = 2 * (int)get_global_id(0); inner(a); }\n";
    static const char *const options[] = {NULL, "-cl-opt-disable"};
    for (size_t o = 0; o < ARRAY_LEN(options); o++) {
        cl_program p;
        cl_kernel outer = kernel_from(src, "outer", options[o], &p);
        cl_int err;
        cl_kernel inner = clCreateKernel(p, "inner", &err);
        assert_int_equal(err, CL_SUCCESS);
        enum { N = 40 };
        int a[N];
        cl_mem b = buffer(sizeof a, NULL);
        assert_int_equal(clSetKernelArg(outer, 0, sizeof b, &b), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(inner, 0, sizeof b, &b), CL_SUCCESS);
        size_t global = N, local = 8;
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, outer, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, inner, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
        read_back(b, sizeof a, a);
        for (int i = 0; i < N; i++)
            if (a[i] != 2 * i + 10)
                fail_msg("options '%s': a[%d] = %d, want %d", options[o] ? options[o] : "", i, a[i], 2 * i + 10);
        clReleaseMemObject(b);
        clReleaseKernel(inner);
        clReleaseKernel(outer);
        clReleaseProgram(p);
    }
}

static void test_2d_3d_offsets(void **state)
{
    static const char *src =
        "kernel void ids(global uint *out, uint w, uint h) {\n"
        "  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
        "  size_t ox = get_global_offset(0), oy = get_global_offset(1), oz = get_global_offset(2);\n"
        "  size_t idx = (x - ox) + w * ((y - oy) + h * (z - oz));\n"
        "  out[idx] = (uint)(x * 1000000 + y * 1000 + z) ^ (uint)(get_local_id(0) << 24)\n"
        "           ^ (uint)(get_group_id(1) << 28) ^ (uint)(get_work_dim() << 30);\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "ids", NULL, &p);
    struct {
        cl_uint dim;
        size_t global[3], offset[3], local[3];
    } cases[] = {
        {2, {12, 10, 1}, {3, 5, 0}, {4, 5, 1}},
        {2, {7, 9, 1}, {0, 100, 0}, {7, 3, 1}},
        {3, {8, 6, 4}, {1, 2, 3}, {2, 3, 2}},
        {3, {5, 3, 7}, {10, 0, 20}, {5, 1, 7}},
    };
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        size_t gx = cases[t].global[0], gy = cases[t].global[1], gz = cases[t].global[2];
        size_t n = gx * gy * gz;
        cl_uint *out = calloc(n, sizeof *out);
        cl_mem bo = buffer(n * sizeof *out, out);
        cl_uint w = (cl_uint)gx, h = (cl_uint)gy;
        assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof w, &w), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 2, sizeof h, &h), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, cases[t].dim, cases[t].offset, cases[t].global,
                                                cases[t].local, 0, NULL, NULL),
                         CL_SUCCESS);
        read_back(bo, n * sizeof *out, out);
        for (size_t z = 0; z < gz; z++)
            for (size_t y = 0; y < gy; y++)
                for (size_t x = 0; x < gx; x++) {
                    size_t X = x + cases[t].offset[0], Y = y + cases[t].offset[1], Z = z + cases[t].offset[2];
                    cl_uint want = (cl_uint)(X * 1000000 + Y * 1000 + Z) ^ (cl_uint)((x % cases[t].local[0]) << 24) ^
                                   (cl_uint)((y / cases[t].local[1]) << 28) ^ (cl_uint)(cases[t].dim << 30);
                    size_t idx = x + gx * (y + gy * z);
                    if (out[idx] != want)
                        fail_msg("case %zu: (%zu,%zu,%zu) = %#x, want %#x", t, x, y, z, out[idx], want);
                }
        clReleaseMemObject(bo);
        free(out);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_local_argument_reverse(void **state)
{
    static const char *src =
        "kernel void rev(global const int *in, global int *out, local int *tmp) {\n"
        "  size_t l = get_local_id(0), n = get_local_size(0);\n"
        "  tmp[l] = in[get_global_id(0)];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  out[get_global_id(0)] = tmp[n - 1 - l];\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "rev", NULL, &p);
    static const size_t locals[] = {1, 7, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t local = locals[t], global = local * 5;
        int *in = malloc(global * sizeof *in), *out = malloc(global * sizeof *out);
        for (size_t i = 0; i < global; i++)
            in[i] = (int)(i * 7 + 3);
        cl_mem bi = buffer(global * sizeof *in, in), bo = buffer(global * sizeof *out, NULL);
        assert_int_equal(clSetKernelArg(k, 0, sizeof bi, &bi), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof bo, &bo), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 2, local * sizeof(int), NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        read_back(bo, global * sizeof *out, out);
        for (size_t i = 0; i < global; i++) {
            size_t g = i / local, l = i % local;
            if (out[i] != in[g * local + local - 1 - l])
                fail_msg("local %zu: out[%zu] = %d, want %d", local, i, out[i], in[g * local + local - 1 - l]);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_printf(void **state)
{
    static const char *src =
        "kernel void p(int base, float f) {\n"
        "  int i = get_global_id(0);\n"
        "  printf(\"wi %d: %d %5.2f %s %c %x|%ld\\n\", i, base + i, f * i, \"str\", 'A' + i, 255, (long)i << 40);\n"
        "  if (i == 0) printf(\"vec %v4hld %v2hlf %%\\n\", (int4)(1, -2, 3, -4), (float2)(0.5f, 1.5f));\n"
        "  if (i == 1) printf(\"wide %v8hlf|%v16hhd|%v2lf|%v3hu\\n\", (float8)(1, 2, 3, 4, 5, 6, 7, 8),\n"
        "                     (char16)(-1), (double2)(0.25, -0.5), (ushort3)(7, 8, 65535));\n"
        "  if (i == 2) { printf(\"plain line\\n\"); printf(\"x\"); printf(\"%c\\n\", 'y'); }\n"
        "}\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "p", NULL, &p);
    int base = 10;
    float f = 1.5f;
    assert_int_equal(clSetKernelArg(k, 0, sizeof base, &base), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof f, &f), CL_SUCCESS);
    char *out = weft_test_capture_launch(env.queue, k, 4, 2);
    assert_non_null(out);
    for (int i = 0; i < 4; i++) {
        char line[128];
        snprintf(line, sizeof line, "wi %d: %d %5.2f str %c ff|%ld\n", i, base + i, f * i, 'A' + i, (long)i << 40);
        if (!strstr(out, line))
            fail_msg("missing line '%s' in output:\n%s", line, out);
    }
    if (!strstr(out, "vec 1,-2,3,-4 0.500000,1.500000 %\n"))
        fail_msg("vector printf wrong:\n%s", out);
    /* constant formats must not become puts/putchar (LLVM's libcall simplification); groups
     * may run in parallel, so another work-item's line can fall between "x" and "y\n" */
    if (!strstr(out, "plain line\n") || !strchr(out, 'x') || !strstr(out, "y\n"))
        fail_msg("plain printf wrong:\n%s", out);
    if (!strstr(out, "wide 1.000000,2.000000,3.000000,4.000000,5.000000,6.000000,7.000000,8.000000|"
                     "-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1|0.250000,-0.500000|7,8,65535\n"))
        fail_msg("wide vector printf wrong:\n%s", out);
    free(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Integer x / 0, x % 0 and MIN / -1 have undefined values in OpenCL C but must not kill the
 * application (x86's idiv raises SIGFPE: OpenCL-CTS integer_ops quick_int_math crashed);
 * compiler/safediv.h makes them x, the wrapped MIN and 0. Every other quotient stays exact,
 * scalar, per-work-item vector and vectorized across work-items. */
static void test_integer_division_never_traps(void **state)
{
    (void)state;
    static const char *src =
        "kernel void d(global const int *a, global const int *b, global int *q, global int *r,\n"
        "              global const long *la, global const long *lb, global long *lq, global long *lr,\n"
        "              global uint *uq, global int4 *vq) {\n"
        "  size_t i = get_global_id(0);\n"
        "  q[i] = a[i] / b[i]; r[i] = a[i] % b[i];\n"
        "  lq[i] = la[i] / lb[i]; lr[i] = la[i] % lb[i];\n"
        "  uq[i] = (uint)a[i] / (uint)b[i] + (uint)a[i] % (uint)b[i];\n"
        /* the sum wraps (INT_MIN / 1 + a negative remainder): added as uint, which OpenCL C
         * defines, where int overflow is undefined and clang may assume it away */
        "  vq[i] = as_int4(as_uint4((int4)(a[i]) / (int4)(b[i], 1, -1, b[i])) + as_uint4((int4)(a[i]) % (int4)(b[i])));\n"
        "}\n";
    enum { N = 64 };
    cl_int a[N], b[N], q[N], r[N];
    cl_long la[N], lb[N], lq[N], lr[N];
    cl_uint uq[N];
    cl_int vq[4 * N];
    for (int i = 0; i < N; i++) {
        a[i] = i % 3 == 0 ? INT32_MIN : 1000 - 37 * i;
        b[i] = i % 4 == 0 ? 0 : i % 4 == 1 ? -1 : i - 20;
        la[i] = i % 3 == 0 ? INT64_MIN : 100000 - 12345 * (cl_long)i;
        lb[i] = b[i];
    }
    cl_program p;
    cl_kernel k = kernel_from(src, "d", NULL, &p);
    cl_mem m[10] = {buffer(sizeof a, a),   buffer(sizeof b, b),   buffer(sizeof q, NULL),  buffer(sizeof r, NULL),
                    buffer(sizeof la, la), buffer(sizeof lb, lb), buffer(sizeof lq, NULL), buffer(sizeof lr, NULL),
                    buffer(sizeof uq, NULL), buffer(sizeof vq, NULL)};
    for (cl_uint i = 0; i < 10; i++)
        assert_int_equal(clSetKernelArg(k, i, sizeof m[i], &m[i]), CL_SUCCESS);
    size_t global = N, local = 16;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    read_back(m[2], sizeof q, q);
    read_back(m[3], sizeof r, r);
    read_back(m[6], sizeof lq, lq);
    read_back(m[7], sizeof lr, lr);
    read_back(m[9], sizeof vq, vq);
    for (int i = 0; i < N; i++) {
        bool zero = b[i] == 0, ovf = b[i] == -1 && a[i] == INT32_MIN, lovf = lb[i] == -1 && la[i] == INT64_MIN;
        if (!zero && !ovf && (q[i] != a[i] / b[i] || r[i] != a[i] % b[i]))
            fail_msg("%d / %d = %d rem %d", a[i], b[i], q[i], r[i]);
        if (!zero && !lovf && (lq[i] != la[i] / lb[i] || lr[i] != la[i] % lb[i]))
            fail_msg("%lld / %lld = %lld rem %lld", (long long)la[i], (long long)lb[i], (long long)lq[i],
                     (long long)lr[i]);
        if (ovf && (q[i] != INT32_MIN || r[i] != 0))
            fail_msg("INT_MIN / -1 = %d rem %d, want the wrapped INT_MIN rem 0", q[i], r[i]);
        /* a / 1 + a % b, wrapping as the kernel's uint sum does */
        if (vq[4 * i + 1] != (cl_int)((cl_uint)a[i] + (cl_uint)(zero || ovf ? 0 : a[i] % b[i])))
            fail_msg("vector lane 1 at %d: %d", i, vq[4 * i + 1]);
    }
    for (int i = 0; i < 10; i++)
        clReleaseMemObject(m[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_launch_argument_errors(void **state)
{
    static const char *src = "kernel void k(global int *x, int v) { x[get_global_id(0)] = v; }\n"
                             "__attribute__((reqd_work_group_size(4,1,1)))\n"
                             "kernel void r(global int *x) { x[get_global_id(0)] = 1; }\n";
    cl_program p;
    cl_kernel k = kernel_from(src, "k", NULL, &p);
    size_t global = 8, local = 4;
    /* argument 1 not set */
    cl_mem b = buffer(64, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_KERNEL_ARGS);
    int v = 42;
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    int out[8];
    read_back(b, sizeof out, out);
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], 42);
    cl_int err;
    cl_kernel r = clCreateKernel(p, "r", &err);
    assert_int_equal(clSetKernelArg(r, 0, sizeof b, &b), CL_SUCCESS);
    local = 2;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, r, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(r);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy_local_sizes),
        cmocka_unit_test(test_vector_types),
        cmocka_unit_test(test_struct_constant_and_helpers),
        cmocka_unit_test(test_kernel_calls_kernel),
        cmocka_unit_test(test_2d_3d_offsets),
        cmocka_unit_test(test_local_argument_reverse),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_integer_division_never_traps),
        cmocka_unit_test(test_launch_argument_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
