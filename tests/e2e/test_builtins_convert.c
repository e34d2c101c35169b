/* tests/e2e/test_builtins_convert.c — the explicit conversions convert_<type>[n][_sat][_rnd]
 * end to end, checked bit-exactly against host references.
 *
 * For each of the ten source types, one kernel converts a set of edge values (type limits
 * and their neighbours, halfway cases, ±0, NaN, ±inf, subnormals, values beyond every
 * destination range) and pseudo-random values to every destination type with every
 * saturation and rounding suffix, as scalars and as 4-wide vectors. The host reference is
 * computed independently: integer results with 128-bit arithmetic, float-to-integer with
 * the C rounding functions, and conversions to float/double by the host FPU under
 * fesetround() with the matching rounding mode. Out-of-range float-to-integer results
 * without _sat are undefined by the specification and not checked.
 * Exercises __opencl_c_fp64 and cl_khr_fp64 (conversions from and to double).
 */
#include <fenv.h>
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

enum { NV = 256 }; /* values per source type, a multiple of 4 */

struct ty {
    const char *name;
    int is_float, bits, is_signed;
};

static const struct ty TYPES[] = {
    {"char", 0, 8, 1}, {"uchar", 0, 8, 0}, {"short", 0, 16, 1}, {"ushort", 0, 16, 0},
    {"int", 0, 32, 1}, {"uint", 0, 32, 0}, {"long", 0, 64, 1}, {"ulong", 0, 64, 0},
    {"float", 1, 32, 1}, {"double", 1, 64, 1},
};
static const char *const RND[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

/* the variants of one source type, in kernel order */
struct variant {
    int dst, sat, rnd;
};

static int variants(struct variant *v)
{
    int n = 0;
    for (int d = 0; d < 10; d++)
        for (int s = 0; s < (TYPES[d].is_float ? 1 : 2); s++)
            for (int r = 0; r < 5; r++)
                v[n++] = (struct variant){d, s, r};
    return n;
}

/* ---- source values --------------------------------------------------------------------- */

typedef __int128 i128;

/* An integer source value as its exact 128-bit value, reduced to the type. */
static i128 wrap_int(i128 v, const struct ty *t)
{
    unsigned __int128 m = ((unsigned __int128)1 << t->bits) - 1;
    unsigned __int128 u = (unsigned __int128)v & m;
    if (t->is_signed && (u >> (t->bits - 1)) & 1)
        return (i128)u - ((i128)1 << t->bits);
    return (i128)u;
}

static void store_int(void *buf, int i, const struct ty *t, i128 v)
{
    switch (t->bits) {
    case 8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case 16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case 32: ((int32_t *)buf)[i] = (int32_t)v; break;
    default: ((int64_t *)buf)[i] = (int64_t)v; break;
    }
}

static i128 load_int(const void *buf, int i, const struct ty *t)
{
    switch (t->bits) {
    case 8: return t->is_signed ? ((const int8_t *)buf)[i] : ((const uint8_t *)buf)[i];
    case 16: return t->is_signed ? ((const int16_t *)buf)[i] : ((const uint16_t *)buf)[i];
    case 32: return t->is_signed ? (i128)((const int32_t *)buf)[i] : (i128)((const uint32_t *)buf)[i];
    default: return t->is_signed ? (i128)((const int64_t *)buf)[i] : (i128)((const uint64_t *)buf)[i];
    }
}

static void fill_inputs(const struct ty *t, void *buf)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)t->bits * 977 ^ (uint64_t)t->is_float;
    if (!t->is_float) {
        static const i128 edges[] = {
            0, 1, -1, 2, -2, 127, 128, 129, -127, -128, -129, 255, 256, 257, 32767, 32768,
            -32768, -32769, 65535, 65536, 16777215, 16777216, 16777217, 33554435,
            2147483647LL, 2147483648LL, -2147483647LL - 1, -2147483649LL, 4294967295LL,
            4294967296LL, 9007199254740993LL, 9007199254740995LL, 0x7fffffffffffffffLL,
            -0x7fffffffffffffffLL - 1, 0x7ffffffffffffdffLL, 0x7ffffffffffffe00LL,
            (i128)0xffffffffffffffffULL, (i128)0x8000000000000001ULL, (i128)0xfffffffffffff801ULL,
            0x00ffffff7fffffffLL, 0x4000004000000001LL,
        };
        int i = 0;
        for (; i < (int)ARRAY_LEN(edges); i++)
            store_int(buf, i, t, wrap_int(edges[i], t));
        for (; i < NV; i++) {
            uint64_t r = bt_rand(&seed);
            /* vary the magnitude so that every rounding position is exercised */
            int sh = (int)(r % 64);
            store_int(buf, i, t, wrap_int((i128)(int64_t)(bt_rand(&seed) >> sh), t));
        }
        return;
    }
    static const double edges[] = {
        0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997, 1.0000001,
        127.5, 128.5, -128.5, -129.5, 255.5, 256.0, -0.9, 0.9, 32767.5, 65535.5, 65536.0,
        2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0,
        9223372036854775808.0, -9223372036854775808.0, 9223371487098961920.0,
        18446744073709551616.0, 18446742974197923840.0, 1e10, -1e10, 1e30, -1e30,
        3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45, -1.1754943508222875e-38,
        NAN, INFINITY, -INFINITY, 16777217.0, 16777219.0, 8388608.5, -8388609.5,
        /* doubles only: beyond float's range and precision */
        1e300, -1e300, 3.4028235677973366e38, 3.4028235677973362e38, 1.0000000596046448,
        1.0000000894069672, -1.0000000596046448, 1e-300, -1e-310, 4.9406564584124654e-324,
        9007199254740993.0, 0.1, 1.0 / 3.0, 2.0 / 3.0,
    };
    int i = 0;
    for (; i < (int)ARRAY_LEN(edges); i++) {
        if (t->bits == 32)
            ((float *)buf)[i] = (float)edges[i];
        else
            ((double *)buf)[i] = edges[i];
    }
    for (; i < NV; i++) {
        uint64_t r = bt_rand(&seed);
        double scale = ldexp(1.0, (int)(r % 80) - 10);
        double v = ((double)(bt_rand(&seed) >> 11) / 9007199254740992.0 - 0.5) * scale;
        if (r & 0x100) /* exact halves and near-integers */
            v = floor(v) + ((r & 0x200) ? 0.5 : 0.0);
        if (t->bits == 32)
            ((float *)buf)[i] = (float)v;
        else
            ((double *)buf)[i] = (r & 0x400) ? v : v * (1.0 + 1e-12);
    }
}

/* ---- references -------------------------------------------------------------------------- */

static int fe_mode(int rnd, int to_float)
{
    switch (rnd) {
    case 2: return FE_TOWARDZERO;
    case 3: return FE_UPWARD;
    case 4: return FE_DOWNWARD;
    case 0: return to_float ? FE_TONEAREST : FE_TOWARDZERO;
    default: return FE_TONEAREST;
    }
}

/* The reference result as the kernel encodes it (integers sign/zero-extended to 64 bits,
 * floats as their bits); returns 0 for a result the test cannot know (none today). */
static int reference(const struct ty *st, const void *in, int i, const struct variant *v, uint64_t *out)
{
    const struct ty *dt = &TYPES[v->dst];
    if (!dt->is_float) {
        i128 lo = dt->is_signed ? -((i128)1 << (dt->bits - 1)) : 0;
        i128 hi = dt->is_signed ? ((i128)1 << (dt->bits - 1)) - 1 : ((i128)1 << dt->bits) - 1;
        i128 r;
        if (!st->is_float) {
            i128 x = load_int(in, i, st);
            r = v->sat ? (x < lo ? lo : x > hi ? hi : x) : wrap_int(x, dt);
        } else {
            double x = st->bits == 32 ? (double)((const float *)in)[i] : ((const double *)in)[i];
            /* without _sat the specification leaves NaN and out-of-range results to the
             * implementation; Weft gives the saturated result in every variant */
            if (isnan(x)) {
                r = 0;
            } else {
                double y = v->rnd == 1 ? nearbyint(x) : v->rnd == 3 ? ceil(x) : v->rnd == 4 ? floor(x) : trunc(x);
                long double yl = y;
                if (yl < (long double)lo || yl > (long double)hi) {
                    r = yl < (long double)lo ? lo : hi;
                } else {
                    r = (i128)yl;
                }
            }
        }
        *out = (uint64_t)(int64_t)r;
        if (!dt->is_signed)
            *out = (uint64_t)(unsigned __int128)r & (dt->bits == 64 ? ~0ULL : ((1ULL << dt->bits) - 1));
        return 1;
    }
    /* to float/double: the host FPU in the requested rounding mode, on volatile operands so
     * the compiler cannot fold the conversion */
    int old = fegetround();
    fesetround(fe_mode(v->rnd, 1));
    if (dt->bits == 32) {
        volatile float f;
        if (st->is_float && st->bits == 32) { volatile float x = ((const float *)in)[i]; f = x; }
        else if (st->is_float) { volatile double x = ((const double *)in)[i]; f = (float)x; }
        else if (st->is_signed) { volatile int64_t x = (int64_t)load_int(in, i, st); f = (float)x; }
        else { volatile uint64_t x = (uint64_t)load_int(in, i, st); f = (float)x; }
        float g = f;
        uint32_t b;
        memcpy(&b, &g, 4);
        *out = b;
    } else {
        volatile double d;
        if (st->is_float && st->bits == 32) { volatile float x = ((const float *)in)[i]; d = x; }
        else if (st->is_float) { volatile double x = ((const double *)in)[i]; d = x; }
        else if (st->is_signed) { volatile int64_t x = (int64_t)load_int(in, i, st); d = (double)x; }
        else { volatile uint64_t x = (uint64_t)load_int(in, i, st); d = (double)x; }
        double g = d;
        memcpy(out, &g, 8);
    }
    fesetround(old);
    return 1;
}

/* ---- kernels ---------------------------------------------------------------------------- */

static void encode(char *p, size_t cap, const struct ty *dt, const char *v)
{
    if (dt->is_float)
        snprintf(p, cap, dt->bits == 32 ? "(ulong)as_uint(%s)" : "as_ulong(%s)", v);
    else
        snprintf(p, cap, dt->is_signed ? "(ulong)(long)(%s)" : "(ulong)(%s)", v);
}

static char *kernel_source(const struct ty *st, const struct variant *vs, int nv)
{
    size_t cap = 1 << 20, len = 0;
    char *s = malloc(cap), e[256], call[128];
    len += (size_t)snprintf(s + len, cap - len,
                            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "kernel void scalar(global const %s *in, global ulong *out, uint n) {\n"
                            "  size_t i = get_global_id(0);\n  %s x = in[i];\n",
                            st->name, st->name);
    for (int k = 0; k < nv; k++) {
        const struct ty *dt = &TYPES[vs[k].dst];
        snprintf(call, sizeof call, "convert_%s%s%s(x)", dt->name, vs[k].sat ? "_sat" : "", RND[vs[k].rnd]);
        encode(e, sizeof e, dt, call);
        len += (size_t)snprintf(s + len, cap - len, "  out[%d * n + i] = %s;\n", k, e);
    }
    len += (size_t)snprintf(s + len, cap - len,
                            "}\n"
                            "kernel void vector(global const %s *in, global ulong *out, uint n) {\n"
                            "  size_t i = get_global_id(0);\n  %s4 x = vload4(i, in);\n",
                            st->name, st->name);
    for (int k = 0; k < nv; k++) {
        const struct ty *dt = &TYPES[vs[k].dst];
        len += (size_t)snprintf(s + len, cap - len, "  { %s4 r = convert_%s4%s%s(x);\n", dt->name,
                                dt->name, vs[k].sat ? "_sat" : "", RND[vs[k].rnd]);
        for (int c = 0; c < 4; c++) {
            char comp[16];
            snprintf(comp, sizeof comp, "r.s%d", c);
            encode(e, sizeof e, dt, comp);
            len += (size_t)snprintf(s + len, cap - len, "    out[%d * n + 4 * i + %d] = %s;\n", k, c, e);
        }
        len += (size_t)snprintf(s + len, cap - len, "  }\n");
    }
    snprintf(s + len, cap - len, "}\n");
    return s;
}

static void check_source_type(int si)
{
    const struct ty *st = &TYPES[si];
    struct variant vs[128];
    int nv = variants(vs);
    size_t esize = st->bits / 8;
    void *in = calloc(NV, esize);
    fill_inputs(st, in);
    char *src = kernel_source(st, vs, nv);
    uint64_t *out = calloc((size_t)nv * NV, 8);
    cl_uint n = NV;
    const char *kinds[] = {"scalar", "vector"};
    for (int kind = 0; kind < 2; kind++) {
        memset(out, 0xa5, (size_t)nv * NV * 8);
        struct bt_arg args[] = {BT_BUF(in, NV * esize), BT_BUF(out, (size_t)nv * NV * 8), BT_SCALAR(n)};
        assert_int_equal(bt_run(src, NULL, kinds[kind], kind ? NV / 4 : NV, 0, args, 3), CL_SUCCESS);
        int bad = 0;
        for (int k = 0; k < nv; k++) {
            for (int i = 0; i < NV; i++) {
                uint64_t want;
                if (!reference(st, in, i, &vs[k], &want))
                    continue;
                uint64_t got = out[(size_t)k * NV + i];
                if (got != want && bad++ < 10) {
                    char val[64];
                    if (st->is_float)
                        snprintf(val, sizeof val, "%.17g", st->bits == 32 ? (double)((float *)in)[i] : ((double *)in)[i]);
                    else
                        snprintf(val, sizeof val, "%lld", (long long)load_int(in, i, st));
                    print_error("%s convert_%s%s%s(%s %s) = 0x%llx, want 0x%llx\n", kinds[kind],
                                TYPES[vs[k].dst].name, vs[k].sat ? "_sat" : "", RND[vs[k].rnd], st->name,
                                val, (unsigned long long)got, (unsigned long long)want);
                }
            }
        }
        if (bad)
            fail_msg("%d wrong conversions from %s (%s)", bad, st->name, kinds[kind]);
    }
    free(src);
    free(in);
    free(out);
}

#define SRC_TEST(i, name) \
    static void test_convert_from_##name(void **state) { (void)state; check_source_type(i); }
SRC_TEST(0, char)
SRC_TEST(1, uchar)
SRC_TEST(2, short)
SRC_TEST(3, ushort)
SRC_TEST(4, int)
SRC_TEST(5, uint)
SRC_TEST(6, long)
SRC_TEST(7, ulong)
SRC_TEST(8, float)
SRC_TEST(9, double)

/* The 3- and 16-wide forms take the same paths per component as the 4-wide ones. */
static void test_convert_widths_3_16(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(global const float *in, global int *o3, global uchar *o16) {\n"
        "  float3 a = vload3(0, in);\n"
        "  vstore3(convert_int3_sat_rtn(a), 0, o3);\n"
        "  float16 b = vload16(0, in);\n"
        "  vstore16(convert_uchar16_sat_rte(b), 0, o16);\n"
        "}\n";
    float in[16] = {-2.5f, 1e10f, 3.5f, 0.5f, 1.5f, 2.5f, 255.5f, 254.5f, -0.5f, NAN, 300.0f, 127.49f, 128.5f, 0.0f, 1e-3f, 254.49f};
    int o3[3] = {0};
    unsigned char o16[16] = {0};
    struct bt_arg args[] = {BT_BUF(in, sizeof in), BT_BUF(o3, sizeof o3), BT_BUF(o16, sizeof o16)};
    assert_int_equal(bt_run(src, NULL, "k", 1, 1, args, 3), CL_SUCCESS);
    assert_int_equal(o3[0], -3);
    assert_int_equal(o3[1], INT_MAX);
    assert_int_equal(o3[2], 3);
    static const unsigned char want[16] = {0, 255, 4, 0, 2, 2, 255, 254, 0, 0, 255, 127, 128, 0, 0, 254};
    for (int i = 0; i < 16; i++)
        if (o16[i] != want[i])
            fail_msg("convert_uchar16_sat_rte: component %d of %g = %d, want %d", i, in[i], o16[i], want[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_convert_from_char),   cmocka_unit_test(test_convert_from_uchar),
        cmocka_unit_test(test_convert_from_short),  cmocka_unit_test(test_convert_from_ushort),
        cmocka_unit_test(test_convert_from_int),    cmocka_unit_test(test_convert_from_uint),
        cmocka_unit_test(test_convert_from_long),   cmocka_unit_test(test_convert_from_ulong),
        cmocka_unit_test(test_convert_from_float),  cmocka_unit_test(test_convert_from_double),
        cmocka_unit_test(test_convert_widths_3_16),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
