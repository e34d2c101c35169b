/* tests/e2e/test_builtins_common.c — common, geometric, relational and miscellaneous vector
 * functions end to end: clamp, degrees, radians, max, min, mix, step, smoothstep, sign;
 * dot, cross, length, distance, normalize and the fast_ forms (including vectors whose
 * squares overflow or underflow); isequal ... isunordered, isfinite, isinf, isnan, isnormal,
 * signbit with the scalar (1) and vector (-1) truth values, any, all, bitselect, select
 * (scalar: c != 0, vector: the most significant bit), shuffle and shuffle2.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "builtins_harness.h"

enum { N = 256 };

static float fvals(int i, uint64_t *seed)
{
    static const float s[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 0.5f, -2.5f,
                              0x1p-149f, FLT_MIN, -FLT_MAX, 3.0f, 1e-20f, 7.25f, -0.75f};
    if (i < (int)ARRAY_LEN(s))
        return s[i];
    double u = (double)(bt_rand(seed) >> 11) / 9007199254740992.0;
    return (float)((u - 0.5) * ldexp(1.0, (int)(bt_rand(seed) % 20) - 6));
}

/* ---- common ------------------------------------------------------------------------------ */

static void test_common_float(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(global const float *x, global const float *y, global const float *a,\n"
        "              global float *o) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float X = x[i], Y = y[i], A = a[i];\n"
        "  float lo = fmin(Y, A), hi = fmax(Y, A);\n"
        "  o[12 * i + 0] = clamp(X, lo, hi);\n"
        "  o[12 * i + 1] = degrees(X);\n"
        "  o[12 * i + 2] = radians(X);\n"
        "  o[12 * i + 3] = max(X, Y);\n"
        "  o[12 * i + 4] = min(X, Y);\n"
        "  o[12 * i + 5] = mix(X, Y, fabs(A) - floor(fabs(A)));\n"
        "  o[12 * i + 6] = step(Y, X);\n"
        "  o[12 * i + 7] = smoothstep(lo, hi, X);\n"
        "  o[12 * i + 8] = sign(X);\n"
        "  float4 v = (float4)(X, Y, A, -X);\n"
        "  float4 c = clamp(v, -1.0f, 1.0f) + step(0.5f, v) * 10.0f + max(v, 0.0f) * 100.0f;\n"
        "  o[12 * i + 9] = c.x; o[12 * i + 10] = c.y; o[12 * i + 11] = smoothstep(-1.0f, 2.0f, v).z;\n"
        "}\n";
    float x[N], y[N], a[N], o[12 * N];
    uint64_t seed = 5;
    for (int i = 0; i < N; i++) {
        x[i] = fvals(i, &seed);
        y[i] = i < 16 ? 1.0f : fvals(100, &seed);
        a[i] = fvals(100, &seed);
    }
    struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(y, sizeof y), BT_BUF(a, sizeof a), BT_BUF(o, sizeof o)};
    assert_int_equal(bt_run(src, NULL, "k", N, 0, args, 4), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N && bad < 10; i++) {
        float X = x[i], Y = y[i], A = a[i], *r = o + 12 * i;
        float lo = fminf(Y, A), hi = fmaxf(Y, A);
        float am = fabsf(A) - floorf(fabsf(A));
#define EXPECT(k, want, tol)                                                                   \
        do {                                                                                   \
            double w_ = (want);                                                                \
            if (!(isnan(w_) && isnan(r[k])) && !(fabs(r[k] - w_) <= (tol) * fmax(1.0, fabs(w_))) && \
                !((double)r[k] == w_)) {                                                       \
                bad++;                                                                         \
                print_error("i=%d x=%a y=%a a=%a: result %d = %a, want %a\n", i, X, Y, A, k, r[k], w_); \
            }                                                                                  \
        } while (0)
        if (!isnan(X) && !isnan(lo))
            EXPECT(0, fminf(fmaxf(X, lo), hi), 0);
        EXPECT(1, (float)(X * (180.0 / 3.14159265358979323846)), 2e-7);
        EXPECT(2, (float)(X * (3.14159265358979323846 / 180.0)), 2e-7);
        if (!isnan(X) && !isnan(Y)) {
            EXPECT(3, fmaxf(X, Y), 0);
            EXPECT(4, fminf(X, Y), 0);
        }
        if (isfinite(X) && isfinite(Y))
            EXPECT(5, X + (Y - X) * am, 1e-6);
        if (!isnan(X) && !isnan(Y))
            EXPECT(6, X < Y ? 0.0f : 1.0f, 0);
        if (isfinite(X) && isfinite(lo) && isfinite(hi) && lo < hi) {
            double t = fmin(fmax((X - lo) / ((double)hi - lo), 0.0), 1.0);
            EXPECT(7, t * t * (3 - 2 * t), 1e-5);
        }
        EXPECT(8, isnan(X) ? 0.0f : X > 0 ? 1.0f : X < 0 ? -1.0f : X, 0);
        if (signbit(r[8]) != signbit(X) && X == 0) {
            bad++;
            print_error("sign(%a) = %a keeps no sign\n", X, r[8]);
        }
        if (isfinite(X) && isfinite(Y)) {
            EXPECT(9, fminf(fmaxf(X, -1), 1) + (X < 0.5f ? 0 : 10) + fmaxf(X, 0) * 100.0f, 1e-6);
            EXPECT(10, fminf(fmaxf(Y, -1), 1) + (Y < 0.5f ? 0 : 10) + fmaxf(Y, 0) * 100.0f, 1e-6);
        }
        if (isfinite(A)) {
            double t = fmin(fmax((A + 1.0) / 3.0, 0.0), 1.0);
            EXPECT(11, t * t * (3 - 2 * t), 1e-5);
        }
#undef EXPECT
    }
    if (bad)
        fail_msg("%d wrong common-function results", bad);
}

/* ---- geometric -------------------------------------------------------------------------- */

static void test_geometric(void **state)
{
    (void)state;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void k(global const float4 *p, global const float4 *q, global float *o,\n"
        "              global const double4 *dp, global double *od) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float4 P = p[i], Q = q[i];\n"
        "  o[16 * i + 0] = dot(P, Q);\n"
        "  o[16 * i + 1] = length(P);\n"
        "  o[16 * i + 2] = distance(P, Q);\n"
        "  float4 nrm = normalize(P);\n"
        "  o[16 * i + 3] = nrm.x; o[16 * i + 4] = nrm.y; o[16 * i + 5] = nrm.z; o[16 * i + 6] = nrm.w;\n"
        "  float3 c = cross(P.xyz, Q.xyz);\n"
        "  o[16 * i + 7] = c.x; o[16 * i + 8] = c.y; o[16 * i + 9] = c.z;\n"
        "  o[16 * i + 10] = length(P.xy); o[16 * i + 11] = length(P.x);\n"
        "  o[16 * i + 12] = fast_length(P); o[16 * i + 13] = fast_normalize(P.xyz).y;\n"
        "  o[16 * i + 14] = fast_distance(P.xy, Q.xy); o[16 * i + 15] = dot(P.xyz, Q.xyz);\n"
        "  double4 D = dp[i];\n"
        "  od[8 * i + 0] = length(D); od[8 * i + 1] = normalize(D).w; od[8 * i + 2] = dot(D, D);\n"
        "  od[8 * i + 3] = cross(D, D.wzyx).x; vstore4(normalize(D), 2 * i + 1, od);\n"
        "}\n";
    cl_float4 p[N], q[N];
    cl_double4 dp[N];
    float o[16 * N];
    double od[8 * N];
    uint64_t seed = 11;
    for (int i = 0; i < N; i++) {
        /* scale some vectors so that their squares overflow or underflow float */
        float sc = i % 8 == 1 ? 1e30f : i % 8 == 2 ? 1e-30f : 1.0f;
        double dsc = i % 8 == 1 ? 1e200 : i % 8 == 2 ? 1e-200 : 1.0;
        for (int j = 0; j < 4; j++) {
            p[i].s[j] = fvals(100, &seed) * sc;
            q[i].s[j] = fvals(100, &seed);
            dp[i].s[j] = (double)fvals(100, &seed) * dsc;
        }
        if (i == 0)
            memset(&p[i], 0, sizeof p[i]);
    }
    /* lengths beyond DBL_MAX: length is +inf, normalize still normalizes (OpenCL-CTS
     * geometrics geom_normalize, double2 {1.3291e308, -1.28466e308}) */
    const cl_double4 huge[] = {{{0x1.7a8a95dca630cp+1023, -0x1.6de2669ea47d3p+1023, 0.0, 0.0}},
                               {{-DBL_MAX, DBL_MAX, DBL_MAX, -0x1p+1000}},
                               {{0x1p+1023, 0x1p+1023, 0x1p-1074, -0x1p+1022}}};
    for (int h = 0; h < 3; h++)
        dp[3 + 8 * h] = huge[h];
    struct bt_arg args[] = {BT_BUF(p, sizeof p), BT_BUF(q, sizeof q), BT_BUF(o, sizeof o),
                            BT_BUF(dp, sizeof dp), BT_BUF(od, sizeof od)};
    assert_int_equal(bt_run(src, NULL, "k", N, 0, args, 5), CL_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N && bad < 10; i++) {
        const float *P = p[i].s, *Q = q[i].s, *r = o + 16 * i;
        long double ss = 0, dd = 0, dot = 0, dabs = 0;
        for (int j = 0; j < 4; j++) {
            ss += (long double)P[j] * P[j];
            dd += ((long double)P[j] - Q[j]) * ((long double)P[j] - Q[j]);
            dot += (long double)P[j] * Q[j];
            dabs += fabsl((long double)P[j] * Q[j]);
        }
        long double len = sqrtl(ss), dist = sqrtl(dd);
        if (fabsl(r[0] - dot) > 4 * FLT_EPSILON * dabs + FLT_MIN) { bad++; print_error("dot %d: %a vs %La\n", i, r[0], dot); }
        if (bt_ulp_f(r[1], (double)len) > 3) { bad++; print_error("length %d: %a vs %La\n", i, r[1], len); }
        if (fabsl(r[2] - dist) > 4 * FLT_EPSILON * dist) { bad++; print_error("distance %d: %a vs %La\n", i, r[2], dist); }
        for (int j = 0; j < 4; j++) {
            long double w = len == 0 ? P[j] : P[j] / len;
            if (fabsl(r[3 + j] - w) > 3 * FLT_EPSILON) { bad++; print_error("normalize %d.%d: %a vs %La\n", i, j, r[3 + j], w); }
        }
        long double cx = (long double)P[1] * Q[2] - (long double)P[2] * Q[1];
        long double cy = (long double)P[2] * Q[0] - (long double)P[0] * Q[2];
        long double cz = (long double)P[0] * Q[1] - (long double)P[1] * Q[0];
        long double cm = 0;
        for (int j = 0; j < 3; j++) cm = fmaxl(cm, fabsl((long double)P[j]) * 2 * fabsl((long double)Q[(j + 1) % 3]) + fabsl((long double)P[j]) * fabsl((long double)Q[(j + 2) % 3]));
        if (isfinite(cm) && (fabsl(r[7] - cx) > 4 * FLT_EPSILON * cm + FLT_MIN || fabsl(r[8] - cy) > 4 * FLT_EPSILON * cm + FLT_MIN ||
                             fabsl(r[9] - cz) > 4 * FLT_EPSILON * cm + FLT_MIN)) {
            bad++;
            print_error("cross %d: (%a %a %a) vs (%La %La %La)\n", i, r[7], r[8], r[9], cx, cy, cz);
        }
        long double l2 = sqrtl((long double)P[0] * P[0] + (long double)P[1] * P[1]);
        if (bt_ulp_f(r[10], (double)l2) > 3 || r[11] != fabsf(P[0])) { bad++; print_error("length2/1 %d\n", i); }
        if (bt_ulp_f(r[12], (double)len) > 8192) { bad++; print_error("fast_length %d: %a vs %La\n", i, r[12], len); }
        const double *D = dp[i].s;
        long double dss = 0;
        for (int j = 0; j < 4; j++) dss += (long double)D[j] * D[j];
        long double dl = sqrtl(dss);
        if (dl > DBL_MAX ? od[8 * i] != INFINITY : bt_ulp_d(od[8 * i], dl) > 3) { bad++; print_error("length(double4) %d: %a vs %La\n", i, od[8 * i], dl); }
        for (int j = 0; j < 4; j++) {
            long double dn = dl == 0 ? D[j] : D[j] / dl;
            if (fabsl(od[8 * i + 4 + j] - dn) > 4 * DBL_EPSILON) { bad++; print_error("normalize(double4) %d.%d: %a vs %La\n", i, j, od[8 * i + 4 + j], dn); }
        }
        if (od[8 * i + 1] != od[8 * i + 7]) { bad++; print_error("normalize(double4).w %d\n", i); }
    }
    if (bad)
        fail_msg("%d wrong geometric results", bad);
}

/* ---- relational ---------------------------------------------------------------------------- */

static void test_relational(void **state)
{
    (void)state;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void k(global const float *x, global const float *y, global int *o, global long *ol) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float X = x[i], Y = y[i];\n"
        "  int s[13] = { isequal(X, Y), isnotequal(X, Y), isgreater(X, Y), isgreaterequal(X, Y),\n"
        "    isless(X, Y), islessequal(X, Y), islessgreater(X, Y), isordered(X, Y), isunordered(X, Y),\n"
        "    isfinite(X), isinf(X), isnan(X), isnormal(X) };\n"
        "  float4 vx = (float4)(X), vy = (float4)(Y);\n"
        "  int4 v[13] = { isequal(vx, vy), isnotequal(vx, vy), isgreater(vx, vy), isgreaterequal(vx, vy),\n"
        "    isless(vx, vy), islessequal(vx, vy), islessgreater(vx, vy), isordered(vx, vy), isunordered(vx, vy),\n"
        "    isfinite(vx), isinf(vx), isnan(vx), isnormal(vx) };\n"
        "  for (int k = 0; k < 13; k++) { o[32 * i + k] = s[k]; o[32 * i + 13 + k] = v[k].y; }\n"
        "  o[32 * i + 26] = signbit(X); o[32 * i + 27] = signbit(vx).w;\n"
        "  double dx = X, dy = Y;\n"
        "  o[32 * i + 28] = isless((double)X, (double)Y); o[32 * i + 29] = isnan(dx);\n"
        "  long2 lv = isgreater((double2)(dx), (double2)(dy)); ol[2 * i] = lv.x;\n"
        "  ol[2 * i + 1] = signbit((double2)(dx)).y;\n"
        "}\n";
    float x[N], y[N];
    int o[32 * N];
    long long ol[2 * N];
    uint64_t seed = 3;
    for (int i = 0; i < N; i++) {
        x[i] = fvals(i % 16, &seed);
        y[i] = fvals(i / 16, &seed);
    }
    struct bt_arg args[] = {BT_BUF(x, sizeof x), BT_BUF(y, sizeof y), BT_BUF(o, sizeof o), BT_BUF(ol, sizeof ol)};
    assert_int_equal(bt_run(src, NULL, "k", N, 0, args, 4), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        float X = x[i], Y = y[i];
        int want[13] = {X == Y, X != Y, isgreater(X, Y), isgreaterequal(X, Y), isless(X, Y), islessequal(X, Y),
                        islessgreater(X, Y), !isunordered(X, Y), isunordered(X, Y), isfinite(X) != 0,
                        isinf(X) != 0, isnan(X) != 0, isnormal(X) != 0};
        for (int k = 0; k < 13; k++) {
            if (o[32 * i + k] != want[k])
                fail_msg("relational %d scalar (%a, %a) = %d, want %d", k, X, Y, o[32 * i + k], want[k]);
            if (o[32 * i + 13 + k] != -want[k])
                fail_msg("relational %d vector (%a, %a) = %d, want %d", k, X, Y, o[32 * i + 13 + k], -want[k]);
        }
        int sb = signbit(X) != 0;
        if (o[32 * i + 26] != sb || o[32 * i + 27] != -sb)
            fail_msg("signbit(%a) = %d / %d", X, o[32 * i + 26], o[32 * i + 27]);
        if (o[32 * i + 28] != isless(X, Y) || o[32 * i + 29] != (isnan(X) != 0))
            fail_msg("double relational (%a, %a)", X, Y);
        if (ol[2 * i] != -(long long)isgreater(X, Y) || ol[2 * i + 1] != -(long long)sb)
            fail_msg("double2 relational (%a, %a) = %lld %lld", X, Y, ol[2 * i], ol[2 * i + 1]);
    }
}

/* any, all, bitselect, select, shuffle, shuffle2 */
static void test_select_shuffle(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(global const int *a, global const int *b, global const int *c, global int *o,\n"
        "              global const float *f) {\n"
        "  size_t i = get_global_id(0);\n"
        "  int A = a[i], B = b[i], C = c[i];\n"
        "  int4 va = vload4(i, a), vb = vload4(i, b), vc = vload4(i, c);\n"
        "  o[24 * i + 0] = any(va); o[24 * i + 1] = all(va); o[24 * i + 2] = any(A); o[24 * i + 3] = all(A);\n"
        "  o[24 * i + 4] = bitselect(A, B, C); o[24 * i + 5] = select(A, B, C);\n"
        "  o[24 * i + 6] = select(A, B, (uint)C);\n"
        "  int4 s = select(va, vb, vc); o[24 * i + 7] = s.x; o[24 * i + 8] = s.w;\n"
        "  uint4 su = select(as_uint4(va), as_uint4(vb), as_uint4(vc)); o[24 * i + 9] = (int)su.z;\n"
        "  float2 fs = select((float2)(f[i], 1.0f), (float2)(2.0f, f[i]), (int2)(C, ~C));\n"
        "  o[24 * i + 10] = as_int(fs.x); o[24 * i + 11] = as_int(fs.y);\n"
        "  o[24 * i + 12] = as_int(bitselect(f[i], 1.0f, as_float(C)));\n"
        "  uint4 m = as_uint4(vc);\n"
        "  int4 sh = shuffle(va, m); o[24 * i + 13] = sh.x; o[24 * i + 14] = sh.w;\n"
        "  int8 s2 = shuffle2(va, vb, (uint8)(m, m >> 3)); o[24 * i + 15] = s2.s1; o[24 * i + 16] = s2.s6;\n"
        "  char16 c16 = as_char16(vb); o[24 * i + 17] = any(c16); o[24 * i + 18] = all(c16 | (char)0x80);\n"
        "  long2 l2 = as_long2(va); o[24 * i + 19] = any(l2); o[24 * i + 20] = all(l2);\n"
        "  int2 s22 = shuffle(vb, (uint2)(7, 2)); o[24 * i + 21] = s22.x; o[24 * i + 22] = s22.y;\n"
        "  o[24 * i + 23] = shuffle((int16)(va, vb, vc, va), (uint2)(9, 13)).y;\n"
        "}\n";
    enum { M = 64 };
    int a[4 * M + 4], b[4 * M + 4], c[4 * M + 4], o[24 * M];
    float f[M];
    uint64_t seed = 99;
    for (int i = 0; i < 4 * M + 4; i++) {
        a[i] = (int)bt_rand(&seed);
        b[i] = (int)bt_rand(&seed);
        c[i] = (i % 5 == 0) ? 0 : (int)bt_rand(&seed);
    }
    for (int i = 0; i < M; i++)
        f[i] = (float)i - 3.5f;
    struct bt_arg args[] = {BT_BUF(a, sizeof a), BT_BUF(b, sizeof b), BT_BUF(c, sizeof c), BT_BUF(o, sizeof o), BT_BUF(f, sizeof f)};
    assert_int_equal(bt_run(src, NULL, "k", M, 0, args, 5), CL_SUCCESS);
    for (int i = 0; i < M; i++) {
        const int *va = a + 4 * i, *vb = b + 4 * i, *vc = c + 4 * i, *r = o + 24 * i;
        int A = a[i], B = b[i], C = c[i];
        int any4 = 0, all4 = 1;
        for (int j = 0; j < 4; j++) { any4 |= va[j] < 0; all4 &= va[j] < 0; }
        int want[24] = {any4, all4, A < 0, A < 0, (A & ~C) | (B & C), C ? B : A, C ? B : A,
                        vc[0] < 0 ? vb[0] : va[0], vc[3] < 0 ? vb[3] : va[3], vc[2] < 0 ? vb[2] : va[2]};
        float fx = C < 0 ? 2.0f : f[i], fy = ~C < 0 ? f[i] : 1.0f, one = 1.0f;
        memcpy(&want[10], &fx, 4);
        memcpy(&want[11], &fy, 4);
        uint32_t fb, ob;
        memcpy(&fb, &f[i], 4);
        memcpy(&ob, &one, 4);
        want[12] = (int)((fb & ~(uint32_t)C) | (ob & (uint32_t)C));
        want[13] = va[(unsigned)vc[0] & 3];
        want[14] = va[(unsigned)vc[3] & 3];
        unsigned k1 = (unsigned)vc[1] & 7, k6 = ((unsigned)vc[2] >> 3) & 7;
        want[15] = k1 < 4 ? va[k1] : vb[k1 - 4];
        want[16] = k6 < 4 ? va[k6] : vb[k6 - 4];
        signed char bytes[16];
        memcpy(bytes, vb, 16);
        int anyc = 0;
        for (int j = 0; j < 16; j++) anyc |= bytes[j] < 0;
        want[17] = anyc;
        want[18] = 1;
        long long l[2];
        memcpy(l, va, 16);
        want[19] = l[0] < 0 || l[1] < 0;
        want[20] = l[0] < 0 && l[1] < 0;
        want[21] = vb[7 & 3];
        want[22] = vb[2];
        want[23] = va[1]; /* (va, vb, vc, va)[13] */
        for (int k = 0; k < 24; k++)
            if (r[k] != want[k])
                fail_msg("item %d, result %d: got %d (0x%x), want %d (0x%x)", i, k, r[k], r[k], want[k], want[k]);
    }
}

/* The overloads with mixed scalar/vector arguments and the vector forms of the functions
 * with pointer results, which the per-family tests above do not reach. */
static void test_mixed_overloads(void **state)
{
    (void)state;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void k(global const float *a, global float *o, global const double *d, global double *od,\n"
        "              global int *oi, global long *ol) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float4 x = vload4(i, a); float s = a[i + 1];\n"
        "  vstore4(fmax(x, s), 0, o + 64 * i);\n"
        "  vstore4(fmin(x, s), 1, o + 64 * i);\n"
        "  vstore4(ldexp(x, 3), 2, o + 64 * i);\n"
        "  vstore4(ldexp(x, (int4)(1, -1, 2, -2)), 3, o + 64 * i);\n"
        "  vstore4(mix(x, x * 3.0f, 0.25f), 4, o + 64 * i);\n"
        "  float4 ip; vstore4(fract(x, &ip), 5, o + 64 * i); vstore4(ip, 6, o + 64 * i);\n"
        "  local float8 lp[64]; float8 x8 = (float8)(x, -x);\n"
        "  vstore8(modf(x8, &lp[get_local_id(0)]), 0, o + 64 * i + 28);\n"
        "  vstore8(lp[get_local_id(0)], 0, o + 64 * i + 36);\n"
        "  double2 dv = vload2(i, d); global int *gi = oi + 16 * i;\n"
        "  vstore2(frexp(dv, (global int2 *)gi), 0, od + 16 * i);\n"
        "  int3 q; vstore3(remquo((float3)(x.xyz), (float3)(1.5f), &q), 0, o + 64 * i + 44); vstore3(q, 1, gi);\n"
        "  double3 dd = vload3(0, d + i); vstore3(dd * 2.0, 1, od + 16 * i);\n"
        "  long16 l16 = vload16(0, (global const long *)d); vstore16(l16 ^ (long16)(1), 0, ol + 32 * i);\n"
        "  int4 vi = (int4)((int)i, -(int)i, 7, -7);\n"
        "  vstore4(max(vi, 3), 2, gi); vstore4(min(vi, -3), 3, gi);\n"
        "  uchar16 c16 = (uchar16)((uchar)i) + (uchar16)(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15);\n"
        "  uchar16 cl = clamp(c16, (uchar)5, (uchar)9);\n"
        "  ol[32 * i + 16] = as_long(cl.lo); ol[32 * i + 17] = as_long(cl.hi);\n"
        "  double2 sel = select((double2)(1.0, 2.0), (double2)(3.0, 4.0), (long2)(-1, 0));\n"
        "  od[16 * i + 5] = sel.x; od[16 * i + 6] = sel.y;\n"
        "  double2 bs = bitselect(dv, (double2)(0.0), as_double2((long2)(0x8000000000000000L)));\n"
        "  od[16 * i + 7] = bs.x; od[16 * i + 8] = bs.y;\n"
        "  char16 sc = select((char16)(1), (char16)(2), as_char16(c16));\n"
        "  ol[32 * i + 18] = as_long(sc.lo);\n"
        "  float2 sh = shuffle2((float4)(x), (float4)(s), (uint2)(1, 6));\n"
        "  o[64 * i + 60] = sh.x; o[64 * i + 61] = sh.y;\n"
        "}\n";
    enum { M = 32 };
    float a[4 * M + 8], o[64 * M];
    double d[2 * M + 16], od[16 * M];
    int oi[16 * M];
    long long ol[32 * M];
    uint64_t seed = 8;
    for (int i = 0; i < 4 * M + 8; i++)
        a[i] = i < 8 ? (float[]){0.0f, -0.0f, 2.5f, -2.5f, INFINITY, -INFINITY, 1e-3f, -7.75f}[i] : fvals(100, &seed) * 10.0f;
    for (int i = 0; i < 2 * M + 16; i++)
        d[i] = (double)fvals(100, &seed) * 1e5;
    memset(o, 0, sizeof o);
    struct bt_arg args[] = {BT_BUF(a, sizeof a), BT_BUF(o, sizeof o), BT_BUF(d, sizeof d),
                            BT_BUF(od, sizeof od), BT_BUF(oi, sizeof oi), BT_BUF(ol, sizeof ol)};
    assert_int_equal(bt_run(src, NULL, "k", M, 0, args, 6), CL_SUCCESS);
    for (int i = 0; i < M; i++) {
        const float *x = a + 4 * i, s = a[i + 1], *r = o + 64 * i;
        const int *ri = oi + 16 * i;
        for (int c = 0; c < 4; c++) {
            float fl = floorf(x[c]);
            float fr = isinf(x[c]) ? copysignf(0.0f, x[c]) : x[c] == 0 ? x[c] : fminf(x[c] - fl, 0x1.fffffep-1f);
            float want[7] = {fmaxf(x[c], s), fminf(x[c], s), ldexpf(x[c], 3), ldexpf(x[c], (int[]){1, -1, 2, -2}[c]),
                             x[c] + (x[c] * 3.0f - x[c]) * 0.25f, fr, fl};
            for (int k = 0; k < 7; k++)
                /* fmax/fmin of +0 and -0 may return either zero (IEEE maxNum/minNum) */
                if (!bt_same_f(r[4 * k + c], want[k]) && !(k == 4 && !isfinite(x[c])) &&
                    !(k < 2 && r[4 * k + c] == want[k]))
                    fail_msg("item %d comp %d result %d: %a, want %a (x = %a, s = %a)", i, c, k, r[4 * k + c], want[k], x[c], s);
            for (int h = 0; h < 2; h++) {
                float v = h ? -x[c] : x[c], ipart, frac = modff(v, &ipart);
                if (!bt_same_f(r[28 + 4 * h + c], frac) || !bt_same_f(r[36 + 4 * h + c], ipart))
                    fail_msg("modf(float8) item %d: %a -> %a, %a", i, v, r[28 + 4 * h + c], r[36 + 4 * h + c]);
            }
        }
        for (int c = 0; c < 2; c++) {
            int e;
            double m = frexp(d[2 * i + c], &e);
            if (od[16 * i + c] != m || ri[c] != e)
                fail_msg("frexp(double2) item %d: %a -> %a, %d", i, d[2 * i + c], od[16 * i + c], ri[c]);
        }
        for (int c = 0; c < 3; c++) {
            int q;
            float rq = remquof(x[c], 1.5f, &q);
            if (!bt_same_f(r[44 + c], rq) || (isfinite(x[c]) && (ri[3 + c] & 7) != (q & 7)))
                fail_msg("remquo(float3) item %d: %a -> %a, %d (want %a, %d)", i, x[c], r[44 + c], ri[3 + c], rq, q);
            if (od[16 * i + 3 + c] != d[i + c] * 2.0 && c < 2)
                fail_msg("vload3/vstore3 double item %d", i);
        }
        int vi[4] = {i, -i, 7, -7};
        for (int c = 0; c < 4; c++)
            if (ri[8 + c] != (vi[c] > 3 ? vi[c] : 3) || ri[12 + c] != (vi[c] < -3 ? vi[c] : -3))
                fail_msg("max/min(int4, int) item %d", i);
        long long lw;
        memcpy(&lw, &d[0], 8);
        if (ol[32 * i] != (lw ^ 1))
            fail_msg("vload16(long) item %d", i);
        unsigned char cl[16];
        memcpy(cl, &ol[32 * i + 16], 16);
        for (int c = 0; c < 16; c++) {
            int v = (i + c) & 255;
            if (cl[c] != (v < 5 ? 5 : v > 9 ? 9 : v))
                fail_msg("clamp(uchar16, uchar, uchar) item %d comp %d = %d", i, c, cl[c]);
        }
        if (od[16 * i + 5] != 3.0 || od[16 * i + 6] != 2.0)
            fail_msg("select(double2) = %g %g", od[16 * i + 5], od[16 * i + 6]);
        if (!bt_same_d(od[16 * i + 7], fabs(d[2 * i])) || !bt_same_d(od[16 * i + 8], fabs(d[2 * i + 1])))
            fail_msg("bitselect(double2) item %d: %a, want %a", i, od[16 * i + 7], fabs(d[2 * i]));
        signed char sc[8];
        memcpy(sc, &ol[32 * i + 18], 8);
        for (int c = 0; c < 8; c++)
            if (sc[c] != ((((i + c) & 255) >= 128) ? 2 : 1))
                fail_msg("select(char16, uchar16 mask) item %d comp %d = %d", i, c, sc[c]);
        if (!bt_same_f(r[60], x[1]) || !bt_same_f(r[61], s))
            fail_msg("shuffle2(float4) item %d", i);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_common_float),
        cmocka_unit_test(test_geometric),
        cmocka_unit_test(test_relational),
        cmocka_unit_test(test_select_shuffle),
        cmocka_unit_test(test_mixed_overloads),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
