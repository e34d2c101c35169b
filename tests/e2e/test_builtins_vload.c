/* tests/e2e/test_builtins_vload.c — vector data load and store functions end to end:
 * vloadn/vstoren for n = 2, 3, 4, 8, 16 at element-aligned (not vector-aligned) addresses in
 * global, local, private and constant memory; vload_half[n]/vloada_half[n] on every one of
 * the 65536 half values; vstore_half[n]/vstorea_half[n] from float and double in every
 * rounding mode, against a host reference that picks the neighbouring halves by search
 * (so it shares nothing with the implementation), including double inputs that double
 * rounding through float would get wrong.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "builtins_harness.h"

/* ---- vloadn / vstoren ---------------------------------------------------------------------- */

static void test_vloadn_vstoren(void **state)
{
    (void)state;
    /* every work-item moves one vector of each width from src + 1 (so never vector-aligned)
     * to dst + 3, through global, local, private and constant memory */
    static const char *src =
        "#define MOVE(N, T, S, D) vstore##N(vload##N(i, (S) + 1), i, (D) + 3)\n"
        "kernel void k(global const float *gs, constant float *cs, global float *g2, global float *g3,\n"
        "              global float *g4, global float *g8, global float *g16, global float *gl,\n"
        "              global float *gp, global float *gc, global const char *bs, global char *bd,\n"
        "              local float *ls) {\n"
        "  size_t i = get_global_id(0), n = get_global_size(0);\n"
        "  MOVE(2, float, gs, g2); MOVE(3, float, gs, g3); MOVE(4, float, gs, g4);\n"
        "  MOVE(8, float, gs, g8); MOVE(16, float, gs, g16);\n"
        "  for (size_t j = get_local_id(0); j < 16 * n + 1; j += get_local_size(0)) ls[j] = gs[j];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  float3 l3 = vload3(i, ls + 1);\n"
        "  vstore3(l3, i, gl + 3);\n"
        "  float p[20];\n"
        "  vstore16(vload16(i, gs + 1), 0, p + 1);\n"
        "  vstore8(vload8(0, p + 1) + vload8(1, p + 1), i, gp + 3);\n"
        "  vstore4(vload4(i, cs + 1), i, gc + 3);\n"
        "  vstore16(vload16(i, bs + 1), i, bd + 3);\n"
        "  vstore3(vload3(i, bs + 5), i, bd + 16 * n + 7);\n"
        "}\n";
    enum { N = 16, S = 16 * N + 64 };
    float gs[S], g2[S], g3[S], g4[S], g8[S], g16[S], gl[S], gp[S], gc[S];
    signed char bs[S], bd[S];
    for (int i = 0; i < S; i++) {
        gs[i] = (float)i * 1.5f - 7.0f;
        bs[i] = (signed char)(i * 37 + 5);
    }
    float *outs[] = {g2, g3, g4, g8, g16, gl, gp, gc};
    for (int k = 0; k < 8; k++)
        memset(outs[k], 0, sizeof g2);
    memset(bd, 0, sizeof bd);
    struct bt_arg args[] = {BT_BUF(gs, sizeof gs), BT_BUF(gs, sizeof gs), BT_BUF(g2, sizeof g2), BT_BUF(g3, sizeof g3),
                            BT_BUF(g4, sizeof g4), BT_BUF(g8, sizeof g8), BT_BUF(g16, sizeof g16),
                            BT_BUF(gl, sizeof gl), BT_BUF(gp, sizeof gp), BT_BUF(gc, sizeof gc),
                            BT_BUF(bs, sizeof bs), BT_BUF(bd, sizeof bd), BT_LOCAL((16 * N + 1) * sizeof(float))};
    assert_int_equal(bt_run(src, NULL, "k", N, 4, args, 13), CL_SUCCESS);
    static const int widths[] = {2, 3, 4, 8, 16};
    for (int w = 0; w < 5; w++) {
        int n = widths[w];
        for (int j = 0; j < S; j++) {
            float want = (j >= 3 && j < 3 + n * N) ? gs[j - 3 + 1] : 0.0f;
            if (outs[w][j] != want)
                fail_msg("vload%d/vstore%d global: element %d = %g, want %g", n, n, j, outs[w][j], want);
        }
    }
    for (int j = 0; j < S; j++) {
        float want = (j >= 3 && j < 3 + 3 * N) ? gs[j - 2] : 0.0f;
        if (gl[j] != want)
            fail_msg("vload3 local: element %d = %g, want %g", j, gl[j], want);
        int i = (j - 3) / 8, c = (j - 3) % 8;
        want = (j >= 3 && j < 3 + 8 * N) ? gs[16 * i + 1 + c] + gs[16 * i + 1 + 8 + c] : 0.0f;
        if (gp[j] != want)
            fail_msg("vload/vstore private: element %d = %g, want %g", j, gp[j], want);
        want = (j >= 3 && j < 3 + 4 * N) ? gs[j - 2] : 0.0f;
        if (gc[j] != want)
            fail_msg("vload4 constant: element %d = %g, want %g", j, gc[j], want);
    }
    for (int j = 0; j < S; j++) {
        signed char want = 0;
        if (j >= 3 && j < 3 + 16 * N)
            want = bs[j - 2];
        if (j >= 16 * N + 7 && j < 16 * N + 7 + 3 * N)
            want = bs[j - (16 * N + 7) + 5];
        if (bd[j] != want)
            fail_msg("vload/vstore char: element %d = %d, want %d", j, bd[j], want);
    }
}

/* ---- half ------------------------------------------------------------------------------------ */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* The half nearest to x in `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn), by searching the ordered
 * non-negative halves 0 ... 0x7c00 (inf). */
static uint16_t half_ref(double x, int mode)
{
    if (isnan(x))
        return 0x7e00;
    uint16_t s = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    int lo = 0, hi = 0x7c00; /* find the largest h with value(h) <= a */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (half_value((uint16_t)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    uint16_t down = (uint16_t)lo;
    if (half_value(down) == a)
        return s | down;
    /* a lies between down and down + 1 (down + 1 may be inf: beyond 65504 the next
     * representable "value" for rounding to nearest is 65536 = inf's position) */
    uint16_t up = (uint16_t)(down + 1);
    double vd = half_value(down), vu = down == 0x7bff ? 65536.0 : half_value(up);
    int neg = s != 0, pick_up;
    switch (mode) {
    case 1: pick_up = 0; break;
    case 2: pick_up = !neg; break;
    case 3: pick_up = neg; break;
    default: pick_up = (a - vd > vu - a) || (a - vd == vu - a && (down & 1)); break;
    }
    return s | (pick_up ? up : down);
}

static void test_vload_half_all(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(global const half *h, global float *o, global float *o4, global float *oa3) {\n"
        "  size_t i = get_global_id(0);\n"
        "  o[i] = vload_half(i, h);\n"
        "  if (i % 4 == 0) vstore4(vload_half4(i / 4, h), i / 4, o4);\n"
        "  if (i % 4 == 0) vstore3(vloada_half3(i / 4, h), i / 4, oa3);\n"
        "}\n";
    enum { N = 65536 };
    uint16_t *h = malloc(N * 2);
    float *o = malloc(N * 4), *o4 = malloc(N * 4), *oa3 = malloc(N / 4 * 3 * 4);
    for (int i = 0; i < N; i++)
        h[i] = (uint16_t)i;
    struct bt_arg args[] = {BT_BUF(h, N * 2), BT_BUF(o, N * 4), BT_BUF(o4, N * 4), BT_BUF(oa3, N / 4 * 3 * 4)};
    assert_int_equal(bt_run(src, NULL, "k", N, 0, args, 4), CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        double want = half_value((uint16_t)i);
        if (!bt_same_f(o[i], (float)want) || !bt_same_f(o4[i], (float)want))
            fail_msg("vload_half(0x%04x) = %a / %a, want %a", i, o[i], o4[i], want);
        if (i % 4 < 3 && !bt_same_f(oa3[i / 4 * 3 + i % 4], (float)want))
            fail_msg("vloada_half3 component of 0x%04x = %a, want %a", i, oa3[i / 4 * 3 + i % 4], want);
    }
    free(h);
    free(o);
    free(o4);
    free(oa3);
}

static void test_vstore_half_rounding(void **state)
{
    (void)state;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "kernel void k(global const float *f, global const double *d, global half *o, uint n) {\n"
        "  size_t i = get_global_id(0);\n"
        "  float x = f[i]; double y = d[i];\n"
        "  vstore_half(x, i, o);          vstore_half_rte(x, n + i, o);\n"
        "  vstore_half_rtz(x, 2 * n + i, o); vstore_half_rtp(x, 3 * n + i, o);\n"
        "  vstore_half_rtn(x, 4 * n + i, o);\n"
        "  vstore_half_rte(y, 5 * n + i, o); vstore_half_rtz(y, 6 * n + i, o);\n"
        "  vstore_half_rtp(y, 7 * n + i, o); vstore_half_rtn(y, 8 * n + i, o);\n"
        "  if (i % 4 == 0) {\n"
        "    vstore_half4_rtp(vload4(i / 4, f), i / 4, o + 9 * n);\n"
        "    vstorea_half3_rtn(vload3(0, f + i), i / 4, o + 10 * n);\n"
        "    vstore_half8_rtz(convert_double8(vload8(0, f + (i & ~7))), 0, o + 11 * n + (i & ~7));\n"
        "  }\n"
        "}\n";
    enum { N = 4096 };
    float *f = malloc(N * 4);
    double *d = malloc(N * 8);
    uint16_t *o = calloc(12 * N, 2);
    uint64_t seed = 1234;
    static const double edges[] = {0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, -65520.0, 70000.0,
                                   0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-26, -0x1p-25, 0x1.ff8p-15, 0x1.ffcp-15,
                                   1.0 + 0x1p-11, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11 - 0x1p-40,
                                   1.0 + 3 * 0x1p-11, 0x1p-14, 0x1.004p-14, 1e-30, -1e-30, 1e30, NAN,
                                   INFINITY, -INFINITY, 2049.0, 2051.0, -2051.0, 0.1, 1.0 / 3.0};
    for (int i = 0; i < N; i++) {
        double v;
        if (i < (int)ARRAY_LEN(edges))
            v = edges[i];
        else {
            double u = (double)(bt_rand(&seed) >> 11) / 9007199254740992.0;
            v = ((bt_rand(&seed) & 1) ? -1 : 1) * ldexp(1.0 + u, (int)(bt_rand(&seed) % 50) - 30);
        }
        d[i] = v;
        f[i] = (float)v;
    }
    cl_uint n = N;
    struct bt_arg args[] = {BT_BUF(f, N * 4), BT_BUF(d, N * 8), BT_BUF(o, 12 * N * 2), BT_SCALAR(n)};
    assert_int_equal(bt_run(src, NULL, "k", N, 0, args, 4), CL_SUCCESS);
    static const char *names[] = {"vstore_half(float)", "_rte(float)", "_rtz(float)", "_rtp(float)", "_rtn(float)",
                                  "_rte(double)", "_rtz(double)", "_rtp(double)", "_rtn(double)"};
    static const int modes[] = {0, 0, 1, 2, 3, 0, 1, 2, 3};
    int bad = 0;
    for (int k = 0; k < 9; k++) {
        for (int i = 0; i < N; i++) {
            double x = k < 5 ? (double)f[i] : d[i];
            uint16_t want = half_ref(x, modes[k]), got = o[k * N + i];
            int both_nan = isnan(x) && (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
            if (got != want && !both_nan && bad++ < 10)
                print_error("%s of %a = 0x%04x, want 0x%04x\n", names[k], x, got, want);
        }
    }
    for (int i = 0; i < N; i++) {
        uint16_t want = half_ref(f[i], 2);
        if (o[9 * N + i] != want && !isnan(f[i]) && bad++ < 10)
            print_error("vstore_half4_rtp of %a = 0x%04x, want 0x%04x\n", f[i], o[9 * N + i], want);
        if (i % 4 == 0)
            for (int c = 0; c < 3; c++) {
                want = half_ref(f[i + c], 3);
                if (o[10 * N + i + c] != want && !isnan(f[i + c]) && bad++ < 10)
                    print_error("vstorea_half3_rtn of %a = 0x%04x, want 0x%04x\n", f[i + c], o[10 * N + i + c], want);
            }
        want = half_ref(f[i], 1);
        if (o[11 * N + i] != want && !isnan(f[i]) && bad++ < 10)
            print_error("vstore_half8_rtz(double) of %a = 0x%04x, want 0x%04x\n", f[i], o[11 * N + i], want);
    }
    free(f);
    free(d);
    free(o);
    if (bad)
        fail_msg("%d wrong half conversions", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vloadn_vstoren),
        cmocka_unit_test(test_vload_half_all),
        cmocka_unit_test(test_vstore_half_rounding),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
