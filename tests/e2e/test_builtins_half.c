/* tests/e2e/test_builtins_half.c — cl_khr_fp16 end to end: half arithmetic, conversions in
 * every rounding mode, the math, common, geometric and relational functions, vector loads
 * and stores of half vectors, half kernel arguments and half in __local memory across a
 * barrier, and half stores and loads through private pointers cast from another type.
 *
 * References are computed on the host with GCC's _Float16 (IEEE binary16, operations rounded
 * once from their exact value) and __float128 (a*b + c of halves is exact in it), never with
 * the library under test. Most checks run over all 65536 half bit patterns.
 *
 * The device reports cl_khr_fp16 only on a CPU with F16C; there the test asserts every
 * result, elsewhere it asserts that the extension, the fp config and the kernel macro are
 * all absent and that a kernel using half does not build.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <CL/cl_ext.h>

#include "builtins_harness.h"

typedef _Float16 f16;
enum { NH = 65536 };

static int have_fp16(void)
{
    char ext[4096] = {0};
    assert_int_equal(clGetDeviceInfo(bt_env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    return strstr(ext, "cl_khr_fp16") != NULL;
}

static f16 h_of(uint16_t b) { f16 h; memcpy(&h, &b, 2); return h; }
static uint16_t bits_of(f16 h) { uint16_t b; memcpy(&b, &h, 2); return b; }

/* Equal bit patterns, or both NaN. */
static int same_h(uint16_t a, uint16_t b)
{
    return a == b || (isnan((double)h_of(a)) && isnan((double)h_of(b)));
}

/* Distance in half ulps of `got` from the exact `want`: NaN matches NaN, infinities match
 * exactly, a reference beyond 65520 counts as infinity. */
static double ulp_h(uint16_t got, double want)
{
    double g = (double)h_of(got);
    if (fabs(want) >= 65520.0)
        want = copysign(INFINITY, want);
    if (isnan(want))
        return isnan(g) ? 0.0 : INFINITY;
    if (isinf(want) || isinf(g))
        return g == want ? 0.0 : INFINITY;
    if (isnan(g))
        return INFINITY;
    int e;
    frexp(want, &e);
    double ulp = ldexp(1.0, (e - 11 < -24) ? -24 : e - 11);
    return fabs(g - want) / ulp;
}

static void all_halves(uint16_t *h)
{
    for (int i = 0; i < NH; i++)
        h[i] = (uint16_t)i;
}

/* ---- absent on this CPU ---------------------------------------------------------------------- */

static void test_fp16_reported_truthfully(void **state)
{
    (void)state;
    cl_device_fp_config cfg = 0;
    cl_uint pw = 0, nw = 0;
    assert_int_equal(clGetDeviceInfo(bt_env.device, CL_DEVICE_HALF_FP_CONFIG, sizeof cfg, &cfg, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(bt_env.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof pw, &pw, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(bt_env.device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof nw, &nw, NULL), CL_SUCCESS);
    int has = have_fp16();
    assert_int_equal(has, __builtin_cpu_supports("f16c") != 0);
    /* the kernel's macro agrees with the host's query */
    static const char *src = "kernel void k(global int *o) {\n"
                             "#ifdef cl_khr_fp16\n o[0] = 1;\n#else\n o[0] = 2;\n#endif\n}\n";
    int o = 0;
    struct bt_arg args[] = {BT_BUF(&o, sizeof o)};
    assert_int_equal(bt_run(src, "", "k", 1, 1, args, 1), CL_SUCCESS);
    if (has) {
        assert_int_equal(o, 1);
        assert_true(cfg & CL_FP_ROUND_TO_NEAREST);
        assert_true(cfg & CL_FP_INF_NAN);
        assert_true(pw > 0 && nw > 0);
    } else {
        assert_int_equal(o, 2);
        assert_int_equal(cfg, 0);
        assert_int_equal(pw, 0);
        static const char *h = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                               "kernel void k(global half *p) { p[0] = p[1] * p[2]; }\n";
        short buf[4] = {0};
        struct bt_arg a2[] = {BT_BUF(buf, sizeof buf)};
        assert_int_equal(bt_run(h, "", "k", 1, 1, a2, 1), CL_BUILD_PROGRAM_FAILURE);
    }
}

/* ---- arithmetic -------------------------------------------------------------------------------- */

/* x op y for every half x against a spread of y, including subnormals, infinities and NaN;
 * each result must be the correctly rounded one, bit for bit. */
static void test_half_arithmetic(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *x, global half *add, global half *sub, global half *mul,\n"
        "              global half *dvd, global half *sq, half y) {\n"
        "  size_t i = get_global_id(0);\n"
        "  half a = x[i];\n"
        "  add[i] = a + y; sub[i] = a - y; mul[i] = a * y; dvd[i] = a / y; sq[i] = sqrt(a);\n"
        "}\n";
    static uint16_t x[NH], add[NH], sub[NH], mul[NH], dvd[NH], sq[NH];
    all_halves(x);
    const uint16_t ys[] = {0x3c00, 0x3555, 0xc248, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0x7e00, 0x8000, 0x1234};
    for (size_t t = 0; t < sizeof ys / sizeof ys[0]; t++) {
        uint16_t y = ys[t];
        struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(add, sizeof add), BT_BUF(sub, sizeof sub),
                                BT_BUF(mul, sizeof mul), BT_BUF(dvd, sizeof dvd), BT_BUF(sq, sizeof sq),
                                BT_SCALAR(y)};
        assert_int_equal(bt_run(src, "", "k", NH, 0, args, 7), CL_SUCCESS);
        f16 hy = h_of(y);
        for (int i = 0; i < NH; i++) {
            f16 a = h_of((uint16_t)i);
            if (!same_h(add[i], bits_of(a + hy)) || !same_h(sub[i], bits_of(a - hy)) ||
                !same_h(mul[i], bits_of(a * hy)) || !same_h(dvd[i], bits_of(a / hy)) ||
                !same_h(sq[i], bits_of((f16)sqrtf((float)a))))
                fail_msg("x=0x%04x y=0x%04x: + %04x * %04x / %04x sqrt %04x", i, y, add[i], mul[i], dvd[i], sq[i]);
        }
    }
}

/* fma rounds once: a*b + c is exact in __float128, and one conversion rounds it. */
static void test_half_fma(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *a, global half *r, half b, half c) {\n"
        "  size_t i = get_global_id(0); r[i] = fma(a[i], b, c);\n"
        "}\n";
    static uint16_t a[NH], r[NH];
    all_halves(a);
    /* pairs whose products meet c at a rounding tie or just off it */
    const uint16_t bc[][2] = {{0x3c01, 0x8001}, {0x3bff, 0x1400}, {0x5640, 0xd640}, {0x0200, 0x3c00},
                              {0x7bff, 0xfbff}, {0x3555, 0x2c00}, {0x8401, 0x0001}};
    for (size_t t = 0; t < sizeof bc / sizeof bc[0]; t++) {
        uint16_t b = bc[t][0], c = bc[t][1];
        struct bt_arg args[] = {BT_BUF(a, sizeof a), BT_BUF(r, sizeof r), BT_SCALAR(b), BT_SCALAR(c)};
        assert_int_equal(bt_run(src, "", "k", NH, 0, args, 4), CL_SUCCESS);
        for (int i = 0; i < NH; i++) {
            __float128 q = (__float128)h_of((uint16_t)i) * (__float128)h_of(b) + (__float128)h_of(c);
            uint16_t want = bits_of((f16)q);
            if (!same_h(r[i], want))
                fail_msg("fma(0x%04x, 0x%04x, 0x%04x) = 0x%04x, want 0x%04x", i, b, c, r[i], want);
        }
    }
}

/* ---- conversions ------------------------------------------------------------------------------- */

/* The half nearest to x in a directed mode, found from the round-to-nearest one and its
 * neighbours on the host. */
static uint16_t host_to_half(double x, int mode /* 0 rte 1 rtz 2 rtp 3 rtn */)
{
    if (isnan(x))
        return 0x7e00;
    f16 r = (f16)(float)x;
    if ((double)(float)x != x) /* double that float would round first: search */
        r = (f16)(__float128)x;
    double d = (double)r;
    uint16_t b = bits_of(r);
    int up_bits = (b & 0x8000) ? -1 : 1; /* bit step that moves away from -inf */
    if (mode == 1 && fabs(d) > fabs(x))
        b = (uint16_t)(b - ((b & 0x7fff) ? 1 : 0)); /* toward zero (inf -> 65504 too) */
    if (mode == 2 && d < x)
        b = (uint16_t)(b + up_bits);
    if (mode == 3 && d > x)
        b = (uint16_t)(b - up_bits);
    if (mode == 2 && b == 0x8000 && x > 0)
        b = 0x0001;
    return b;
}

static void test_half_conversions(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const float *f, global const double *d, global const int *n,\n"
        "              global half *out, global const half *h, global int *hi, global float *hf) {\n"
        "  size_t i = get_global_id(0);\n"
        "  out[16 * i + 0] = convert_half(f[i]);     out[16 * i + 1] = convert_half_rtz(f[i]);\n"
        "  out[16 * i + 2] = convert_half_rtp(f[i]); out[16 * i + 3] = convert_half_rtn(f[i]);\n"
        "  out[16 * i + 4] = convert_half_rte(d[i]); out[16 * i + 5] = convert_half_rtz(d[i]);\n"
        "  out[16 * i + 6] = convert_half_rtp(d[i]); out[16 * i + 7] = convert_half_rtn(d[i]);\n"
        "  out[16 * i + 8] = convert_half(n[i]);     out[16 * i + 9] = convert_half_rtz(n[i]);\n"
        "  out[16 * i + 10] = convert_half_rtp(n[i]); out[16 * i + 11] = convert_half_rtn(n[i]);\n"
        "  half4 v = convert_half4_rtz((float4)(f[i], -f[i], d[i], n[i]));\n"
        "  vstore4(v, 4 * i + 2, out + 4);\n"
        "  hi[2 * i] = convert_int_sat(h[i]); hi[2 * i + 1] = convert_int_sat_rte(h[i]);\n"
        "  hf[i] = convert_float(h[i]);\n"
        "}\n";
    enum { M = NH };
    static float f[M], hf[M];
    static double d[M];
    static int n[M], hi[2 * M];
    static uint16_t out[16 * M], h[M];
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < M; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        /* floats and doubles around the half range, including exact ties and overflow */
        int e = (int)(s % 44) - 28;
        f[i] = ldexpf((float)((s >> 8) & 0xffffff) / 0x1p24f + 1.0f, e) * ((s >> 40) & 1 ? -1.0f : 1.0f);
        if (i % 7 == 0)
            f[i] = (float)h_of((uint16_t)(s >> 20)) + ldexpf((float)h_of((uint16_t)(s >> 20)), -11); /* ties */
        d[i] = (double)f[i] + ldexp((double)f[i], -40) * ((s >> 50) & 1 ? 1 : -1);
        n[i] = (int)(s >> 33) >> (int)(s % 31);
        h[i] = (uint16_t)i;
    }
    struct bt_arg args[] = {BT_BUF(f, sizeof f), BT_BUF(d, sizeof d), BT_BUF(n, sizeof n), BT_BUF(out, sizeof out),
                            BT_BUF(h, sizeof h), BT_BUF(hi, sizeof hi), BT_BUF(hf, sizeof hf)};
    assert_int_equal(bt_run(src, "", "k", M, 0, args, 7), CL_SUCCESS);
    for (int i = 0; i < M; i++) {
        const char *what[] = {"float rte", "float rtz", "float rtp", "float rtn", "double rte", "double rtz",
                              "double rtp", "double rtn", "int rte", "int rtz", "int rtp", "int rtn"};
        for (int m = 0; m < 12; m++) {
            double x = m < 4 ? (double)f[i] : m < 8 ? d[i] : (double)n[i];
            uint16_t want = host_to_half(x, m % 4);
            if (!same_h(out[16 * i + m], want))
                fail_msg("%s of %a: 0x%04x, want 0x%04x", what[m], x, out[16 * i + m], want);
        }
        uint16_t v[4] = {host_to_half(f[i], 1), host_to_half(-f[i], 1), host_to_half((float)d[i], 1),
                         host_to_half((float)n[i], 1)};
        for (int c = 0; c < 4; c++)
            if (!same_h(out[16 * i + 12 + c], v[c]))
                fail_msg("convert_half4_rtz lane %d of item %d: 0x%04x, want 0x%04x", c, i, out[16 * i + 12 + c], v[c]);
        /* half -> int and float */
        double hv = (double)h_of((uint16_t)i);
        int want_t = isnan(hv) ? 0 : hv >= 2147483647.0 ? INT32_MAX : hv <= -2147483648.0 ? INT32_MIN : (int)trunc(hv);
        int want_e = isnan(hv) ? 0 : hv >= 2147483647.0 ? INT32_MAX : hv <= -2147483648.0 ? INT32_MIN : (int)nearbyint(hv);
        assert_int_equal(hi[2 * i], want_t);
        assert_int_equal(hi[2 * i + 1], want_e);
        assert_true(bt_same_f(hf[i], (float)h_of((uint16_t)i)));
    }
}

/* ---- math ------------------------------------------------------------------------------------- */

static void test_half_math(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *x, global half *o) {\n"
        "  size_t i = get_global_id(0); half a = x[i]; global half *r = o + 12 * i;\n"
        "  r[0] = sin(a); r[1] = exp(a); r[2] = log(a); r[3] = pow(a, (half)1.5h);\n"
        "  r[4] = atan2(a, (half)-0.75h); r[5] = tanh(a); r[6] = rsqrt(a); r[7] = cbrt(a);\n"
        "  r[8] = floor(a); r[9] = fmod(a, (half)0.375h); r[10] = ldexp(a, 3);\n"
        "  half ip; r[11] = fract(a, &ip) + ip * (half)0;\n"
        "}\n";
    static uint16_t x[NH], o[12 * NH];
    all_halves(x);
    struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(o, sizeof o)};
    assert_int_equal(bt_run(src, "", "k", NH, 0, args, 2), CL_SUCCESS);
    for (int i = 0; i < NH; i++) {
        double a = (double)h_of((uint16_t)i);
        if (isinf(a) || isnan(a))
            continue; /* special values: covered by the float functions' own tests */
        double fr = (double)(f16)(a - floor(a)); /* rounded to half, then clamped below 1 */
        if (fr > 0x1.ffcp-1)
            fr = 0x1.ffcp-1;
        const double want[12] = {sin(a), exp(a), log(a), pow(a, 1.5), atan2(a, -0.75), tanh(a), 1.0 / sqrt(a),
                                 cbrt(a), floor(a), fmod(a, 0.375), ldexp(a, 3), fr};
        /* spec bounds for half: 2 ulp for these; exact for floor, fmod, ldexp, fract */
        const double bound[12] = {2, 2, 2, 2, 2, 2, 1, 2, 0, 0, 0, 0};
        for (int m = 0; m < 12; m++) {
            if (!(ulp_h(o[12 * i + m], want[m]) <= bound[m]))
                fail_msg("function %d of 0x%04x (%a): got %a, want %a", m, i, a, (double)h_of(o[12 * i + m]), want[m]);
        }
    }
}

/* nextafter steps the half bit pattern. */
static void test_half_nextafter(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *x, global const half *y, global half *r) {\n"
        "  size_t i = get_global_id(0); r[i] = nextafter(x[i], y[i]);\n"
        "}\n";
    /* x, y, want */
    const uint16_t c[][3] = {{0x0000, 0x3c00, 0x0001}, {0x8000, 0xbc00, 0x8001}, {0x3c00, 0x7c00, 0x3c01},
                             {0x3c00, 0x0000, 0x3bff}, {0xbc00, 0x0000, 0xbbff}, {0xbc00, 0xfc00, 0xbc01},
                             {0x7bff, 0x7c00, 0x7c00}, {0x0001, 0x0000, 0x0000}, {0x03ff, 0x7c00, 0x0400},
                             {0x3c00, 0x3c00, 0x3c00}};
    enum { C = sizeof c / sizeof c[0] };
    uint16_t x[C], y[C], r[C];
    for (int i = 0; i < C; i++) {
        x[i] = c[i][0];
        y[i] = c[i][1];
    }
    struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(y, sizeof y), BT_BUF(r, sizeof r)};
    assert_int_equal(bt_run(src, "", "k", C, 0, args, 3), CL_SUCCESS);
    for (int i = 0; i < C; i++)
        if (r[i] != c[i][2])
            fail_msg("nextafter(0x%04x, 0x%04x) = 0x%04x, want 0x%04x", x[i], y[i], r[i], c[i][2]);
}

/* ---- vectors, relational, geometric, local memory ------------------------------------------------ */

/* half4 loads and stores, relational results as short4, select, clamp, dot; a work-group
 * reverses its halves through __local memory across a barrier. */
static void test_half_vectors_and_local(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const half *x, global half *o, global short *lt, global half *dt,\n"
        "              global half *rev, local half *tmp) {\n"
        "  size_t i = get_global_id(0), l = get_local_id(0), L = get_local_size(0);\n"
        "  half4 a = vload4(i, x), b = a.wzyx;\n"
        "  short4 m = isless(a, b);\n"
        "  vstore4(m, i, lt);\n"
        "  vstore4(select(clamp(a, (half)-1, (half)1), b, m), i, o);\n"
        "  dt[i] = dot(a, (half4)(1, 2, 3, 4));\n"
        "  tmp[l] = x[i];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  rev[i] = tmp[L - 1 - l] * (half)2;\n"
        "}\n";
    enum { N = 256, L = 64 };
    uint16_t x[4 * N], o[4 * N], dt[N], rev[N];
    short lt[4 * N];
    for (int i = 0; i < 4 * N; i++)
        x[i] = bits_of((f16)((float)((i * 37) % 101) / 16.0f - 3.0f));
    struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(o, sizeof o), BT_BUF(lt, sizeof lt), BT_BUF(dt, sizeof dt),
                            BT_BUF(rev, sizeof rev), BT_LOCAL(L * 2)};
    assert_int_equal(bt_run(src, "", "k", N, L, args, 6), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        float a[4], b[4];
        for (int c = 0; c < 4; c++)
            a[c] = (float)h_of(x[4 * i + c]);
        for (int c = 0; c < 4; c++)
            b[c] = a[3 - c];
        float dot = 0;
        for (int c = 0; c < 4; c++) {
            short m = a[c] < b[c] ? -1 : 0;
            assert_int_equal(lt[4 * i + c], m);
            float cl = a[c] < -1 ? -1 : a[c] > 1 ? 1 : a[c];
            assert_int_equal(o[4 * i + c], bits_of((f16)(m ? b[c] : cl)));
            dot += a[c] * (float)(c + 1);
        }
        /* dot accumulates in half: allow the rounding of each of its four steps */
        assert_true(fabs((double)h_of(dt[i]) - dot) <= 4 * ldexp(1.0, -10) * (fabs(dot) + 8));
        int g = i / L, l = i % L;
        assert_int_equal(rev[i], bits_of((f16)((float)h_of(x[g * L + (L - 1 - l)]) * 2.0f)));
    }
}

/* ---- stores through punned private pointers ------------------------------------------------------ */

/* The library's loads and stores must alias whatever the kernel declared the storage as: piglit's
 * vstore-half-private stores a half3 with vstore3 into a volatile private short array through a
 * (private half *) cast and reads the shorts back; vstore_half[n]/vstorea_half[n] write halves
 * into a half array the kernel reads as half, and vload_half[n] reads halves the kernel wrote as
 * half. The library once carried type-based alias tags (its scalar accesses as half or ushort),
 * and LLVM deleted such stores as dead or read the memory before them: 0 came back instead of
 * 121, with the vectorizer on or off. */
static void test_half_stores_through_punned_private_pointers(void **state)
{
    (void)state;
    if (!have_fp16())
        return;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global const float4 *f, global ushort *o, global float *fo) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float4 v = f[i];\n"
        "  global ushort *r = o + 24 * i;\n"
        "  volatile private short s[8];\n"
        "  for (int j = 0; j < 8; j++) s[j] = 0;\n"
        "  half3 h3 = convert_half3(v.xyz);\n"
        "  vstore3(h3, 0, (private half *)s + 1);\n"
        "  vstore3(h3, 1, (private half *)s + 1);\n"
        "  for (int j = 0; j < 8; j++) r[j] = s[j];\n"
        "  volatile private half h[16];\n"
        "  for (int j = 0; j < 16; j++) h[j] = 0;\n"
        "  vstore_half3(v.xyz, 0, (private half *)h + 1);\n"
        "  vstore_half4_rtz(v, 1, (private half *)h);\n"
        "  vstorea_half3_rtp(v.xyz, 2, (private half *)h);\n"
        "  vstore_half_rtn(v.w, 11, (private half *)h);\n"
        "  vstorea_half2_rte(v.zw, 6, (private half *)h);\n"
        "  for (int j = 0; j < 16; j++) r[8 + j] = as_ushort(h[j]);\n"
        "  private half p[8];\n"
        "  for (int j = 0; j < 4; j++) { p[j] = convert_half(v[j]); p[4 + j] = convert_half_rtz(v[j]); }\n"
        "  vstore4(vload_half4(0, p), 0, fo + 8 * i);\n"
        "  vstore3(vloada_half3(1, p), 0, fo + 8 * i + 4);\n"
        "  fo[8 * i + 7] = vload_half(7, p);\n"
        "}\n";
    enum { N = 64 };
    float f[4 * N], fo[8 * N];
    uint16_t o[24 * N];
    uint64_t seed = 99;
    for (int i = 0; i < 4 * N; i++) {
        double u = (double)(bt_rand(&seed) >> 11) / 9007199254740992.0;
        f[i] = (float)(((bt_rand(&seed) & 1) ? -1 : 1) * ldexp(1.0 + u, (int)(bt_rand(&seed) % 20) - 8));
    }
    f[0] = 121.0f, f[1] = 66.0f, f[2] = 189.0f; /* piglit's values */
    struct bt_arg args[] = {BT_BUF(f, sizeof f), BT_BUF(o, sizeof o), BT_BUF(fo, sizeof fo)};
    assert_int_equal(bt_run(src, "", "k", N, 0, args, 3), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        const float *v = f + 4 * i;
        uint16_t rte[4], rtz[4], rtp[4], rtn[4];
        for (int c = 0; c < 4; c++) {
            rte[c] = host_to_half(v[c], 0);
            rtz[c] = host_to_half(v[c], 1);
            rtp[c] = host_to_half(v[c], 2);
            rtn[c] = host_to_half(v[c], 3);
        }
        const uint16_t want_s[8] = {0, rte[0], rte[1], rte[2], rte[0], rte[1], rte[2], 0};
        const uint16_t want_h[16] = {0,      rte[0], rte[1], rte[2], rtz[0], rtz[1], rtz[2], rtz[3],
                                     rtp[0], rtp[1], rtp[2], rtn[3], rte[2], rte[3], 0,      0};
        for (int j = 0; j < 8; j++)
            if (o[24 * i + j] != want_s[j])
                fail_msg("item %d: vstore3(half3) into a private short array, short %d = 0x%04x, want 0x%04x", i, j,
                         o[24 * i + j], want_s[j]);
        for (int j = 0; j < 16; j++)
            if (o[24 * i + 8 + j] != want_h[j])
                fail_msg("item %d: vstore(a)_half[n] into a private half array, half %d = 0x%04x, want 0x%04x", i, j,
                         o[24 * i + 8 + j], want_h[j]);
        const uint16_t want_p[8] = {rte[0], rte[1], rte[2], rte[3], rtz[0], rtz[1], rtz[2], rtz[3]};
        for (int j = 0; j < 8; j++)
            if (!bt_same_f(fo[8 * i + j], (float)h_of(want_p[j])))
                fail_msg("item %d: vload_half[n] of private halves, element %d = %a, want %a", i, j, fo[8 * i + j],
                         (double)h_of(want_p[j]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp16_reported_truthfully),
        cmocka_unit_test(test_half_arithmetic),
        cmocka_unit_test(test_half_fma),
        cmocka_unit_test(test_half_conversions),
        cmocka_unit_test(test_half_math),
        cmocka_unit_test(test_half_nextafter),
        cmocka_unit_test(test_half_vectors_and_local),
        cmocka_unit_test(test_half_stores_through_punned_private_pointers),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
