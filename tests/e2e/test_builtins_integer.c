/* tests/e2e/test_builtins_integer.c — the integer functions (abs, abs_diff, add_sat, sub_sat,
 * hadd, rhadd, clamp, clz, ctz, popcount, mad_hi, mad_sat, max, min, mul_hi, rotate,
 * upsample, mad24, mul24) for every integer type, scalar and 4-wide, checked exactly
 * against host references computed with 128-bit arithmetic.
 * Exercises __opencl_c_int64 (the long and ulong overloads).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "builtins_harness.h"

enum { NV = 512 };

typedef __int128 i128;

struct ity {
    const char *name, *uname, *wide; /* wide: the upsample result, NULL for 64 bits */
    int bits, is_signed;
};

static const struct ity TYPES[] = {
    {"char", "uchar", "short", 8, 1},  {"uchar", "uchar", "ushort", 8, 0},
    {"short", "ushort", "int", 16, 1}, {"ushort", "ushort", "uint", 16, 0},
    {"int", "uint", "long", 32, 1},    {"uint", "uint", "ulong", 32, 0},
    {"long", "ulong", NULL, 64, 1},    {"ulong", "ulong", NULL, 64, 0},
};

static i128 lo_of(const struct ity *t) { return t->is_signed ? -((i128)1 << (t->bits - 1)) : 0; }
static i128 hi_of(const struct ity *t)
{
    return t->is_signed ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1;
}

static i128 wrap(i128 v, int bits, int is_signed)
{
    unsigned __int128 u = (unsigned __int128)v & (((unsigned __int128)1 << bits) - 1);
    if (is_signed && (u >> (bits - 1)) & 1)
        return (i128)u - ((i128)1 << bits);
    return (i128)u;
}

static i128 clampi(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }

/* floor division by 2 for any sign */
static i128 fdiv2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

enum fn {
    F_ABS, F_ABS_DIFF, F_ADD_SAT, F_SUB_SAT, F_HADD, F_RHADD, F_CLAMP, F_CLZ, F_CTZ, F_POPCOUNT,
    F_MAD_HI, F_MAD_SAT, F_MAX, F_MIN, F_MUL_HI, F_ROTATE, F_UPSAMPLE, F_MAD24, F_MUL24, F_COUNT
};

struct fdesc {
    const char *expr;  /* over a, b, c (and lo/hi for clamp) */
    int unsigned_result, wide_result;
};

static const struct fdesc FNS[F_COUNT] = {
    [F_ABS] = {"abs(a)", 1, 0},
    [F_ABS_DIFF] = {"abs_diff(a, b)", 1, 0},
    [F_ADD_SAT] = {"add_sat(a, b)", 0, 0},
    [F_SUB_SAT] = {"sub_sat(a, b)", 0, 0},
    [F_HADD] = {"hadd(a, b)", 0, 0},
    [F_RHADD] = {"rhadd(a, b)", 0, 0},
    [F_CLAMP] = {"clamp(a, min(b, c), max(b, c))", 0, 0},
    [F_CLZ] = {"clz(a)", 0, 0},
    [F_CTZ] = {"ctz(a)", 0, 0},
    [F_POPCOUNT] = {"popcount(a)", 0, 0},
    [F_MAD_HI] = {"mad_hi(a, b, c)", 0, 0},
    [F_MAD_SAT] = {"mad_sat(a, b, c)", 0, 0},
    [F_MAX] = {"max(a, b)", 0, 0},
    [F_MIN] = {"min(a, b)", 0, 0},
    [F_MUL_HI] = {"mul_hi(a, b)", 0, 0},
    [F_ROTATE] = {"rotate(a, b)", 0, 0},
    [F_UPSAMPLE] = {"upsample(a, ub)", 0, 1},
    [F_MAD24] = {"mad24(a24, b24, c)", 0, 0},
    [F_MUL24] = {"mul24(a24, b24)", 0, 0},
};

static int applies(int f, const struct ity *t)
{
    if (f == F_UPSAMPLE)
        return t->wide != NULL;
    if (f == F_MAD24 || f == F_MUL24)
        return t->bits == 32;
    return 1;
}

static i128 reference(int f, const struct ity *t, i128 a, i128 b, i128 c)
{
    int B = t->bits, S = t->is_signed;
    i128 lo = lo_of(t), hi = hi_of(t);
    unsigned __int128 ua = (unsigned __int128)wrap(a, B, 0);
    switch (f) {
    case F_ABS: return a < 0 ? -a : a;
    case F_ABS_DIFF: return a > b ? a - b : b - a;
    case F_ADD_SAT: return clampi(a + b, lo, hi);
    case F_SUB_SAT: return clampi(a - b, lo, hi);
    case F_HADD: return fdiv2(a + b);
    case F_RHADD: return fdiv2(a + b + 1);
    case F_CLAMP: {
        i128 l = b < c ? b : c, h = b < c ? c : b;
        return clampi(a, l, h);
    }
    case F_CLZ: {
        int n = 0;
        for (int i = B - 1; i >= 0 && !((ua >> i) & 1); i--) n++;
        return n;
    }
    case F_CTZ: {
        int n = 0;
        for (int i = 0; i < B && !((ua >> i) & 1); i++) n++;
        return n;
    }
    case F_POPCOUNT: {
        int n = 0;
        for (int i = 0; i < B; i++) n += (int)((ua >> i) & 1);
        return n;
    }
    case F_MUL_HI: {
        i128 p = a * b; /* fits: |a*b| < 2^127 for 64-bit operands except unsigned */
        if (B == 64 && !S) {
            unsigned __int128 up = (unsigned __int128)(uint64_t)a * (uint64_t)b;
            return (i128)(up >> 64);
        }
        return p >> B; /* arithmetic shift: floor, as the high half of a two's complement product */
    }
    case F_MAD_HI: return wrap(reference(F_MUL_HI, t, a, b, c) + c, B, S);
    case F_MAD_SAT: {
        if (B == 64 && !S) {
            unsigned __int128 p = (unsigned __int128)(uint64_t)a * (uint64_t)b;
            unsigned __int128 s = p + (uint64_t)c;
            if (s < p || s > (unsigned __int128)UINT64_MAX)
                return (i128)UINT64_MAX;
            return (i128)s;
        }
        if (B == 64) {
            /* |a*b| < 2^126: exact in i128, and so is the sum */
            return clampi(a * b + c, lo, hi);
        }
        return clampi(a * b + c, lo, hi);
    }
    case F_MAX: return a > b ? a : b;
    case F_MIN: return a < b ? a : b;
    case F_ROTATE: {
        int n = (int)(wrap(b, B, 0) % B);
        unsigned __int128 m = ((unsigned __int128)1 << B) - 1;
        unsigned __int128 r = n ? ((ua << n) | (ua >> (B - n))) & m : ua;
        return wrap((i128)r, B, S);
    }
    case F_UPSAMPLE: {
        i128 ub = wrap(b, B, 0);
        return a * ((i128)1 << B) + ub;
    }
    case F_MUL24: {
        i128 a24 = S ? wrap(a, 24, 1) : wrap(a, 24, 0), b24 = S ? wrap(b, 24, 1) : wrap(b, 24, 0);
        return wrap(a24 * b24, 32, S);
    }
    case F_MAD24: {
        i128 a24 = S ? wrap(a, 24, 1) : wrap(a, 24, 0), b24 = S ? wrap(b, 24, 1) : wrap(b, 24, 0);
        return wrap(a24 * b24 + c, 32, S);
    }
    }
    return 0;
}

/* ---- inputs ---------------------------------------------------------------------------------- */

static void store(void *buf, int i, int bits, i128 v)
{
    switch (bits) {
    case 8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case 16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case 32: ((int32_t *)buf)[i] = (int32_t)v; break;
    default: ((int64_t *)buf)[i] = (int64_t)v; break;
    }
}

static i128 load(const void *buf, int i, const struct ity *t)
{
    switch (t->bits) {
    case 8: return t->is_signed ? (i128)((const int8_t *)buf)[i] : (i128)((const uint8_t *)buf)[i];
    case 16: return t->is_signed ? (i128)((const int16_t *)buf)[i] : (i128)((const uint16_t *)buf)[i];
    case 32: return t->is_signed ? (i128)((const int32_t *)buf)[i] : (i128)((const uint32_t *)buf)[i];
    default: return t->is_signed ? (i128)((const int64_t *)buf)[i] : (i128)((const uint64_t *)buf)[i];
    }
}

static void fill(const struct ity *t, void *a, void *b, void *c, uint64_t seed)
{
    i128 lo = lo_of(t), hi = hi_of(t);
    const i128 edges[] = {0, 1, -1, 2, lo, hi, lo + 1, hi - 1, hi / 2, lo / 2, 3, -3};
    int ne = (int)ARRAY_LEN(edges);
    for (int i = 0; i < NV; i++) {
        i128 v[3];
        for (int k = 0; k < 3; k++) {
            uint64_t r = bt_rand(&seed);
            /* all combinations of edges first, then random values of random magnitude */
            if (i < ne * ne)
                v[k] = edges[k == 0 ? i % ne : k == 1 ? i / ne : (i + k) % ne];
            else
                v[k] = (i128)(int64_t)(bt_rand(&seed) >> (r % 64));
            v[k] = wrap(v[k], t->bits, t->is_signed);
        }
        store(a, i, t->bits, v[0]);
        store(b, i, t->bits, v[1]);
        store(c, i, t->bits, v[2]);
    }
}

static char *kernel_source(const struct ity *t, int vec)
{
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    const char *T = t->name;
    char tv[16], uv[16];
    snprintf(tv, sizeof tv, "%s%s", T, vec ? "4" : "");
    snprintf(uv, sizeof uv, "%s%s", t->uname, vec ? "4" : "");
    len += (size_t)snprintf(s + len, cap - len,
        "kernel void k(global const %s *pa, global const %s *pb, global const %s *pc, global ulong *out, uint n) {\n"
        "  size_t i = get_global_id(0);\n", T, T, T);
    if (vec)
        len += (size_t)snprintf(s + len, cap - len,
            "  %s a = vload4(i, pa), b = vload4(i, pb), c = vload4(i, pc);\n"
            "  %s ub = as_%s(b);\n", tv, uv, uv);
    else
        len += (size_t)snprintf(s + len, cap - len,
            "  %s a = pa[i], b = pb[i], c = pc[i];\n  %s ub = as_%s(b);\n", tv, uv, uv);
    if (t->bits == 32)
        len += (size_t)snprintf(s + len, cap - len,
            "  %s a24 = %s, b24 = %s;\n", tv,
            t->is_signed ? "(a << 8) >> 8" : "a & 0xffffffu", t->is_signed ? "(b << 8) >> 8" : "b & 0xffffffu");
    for (int f = 0; f < F_COUNT; f++) {
        if (!applies(f, t))
            continue;
        int res_signed = FNS[f].wide_result ? t->is_signed : (FNS[f].unsigned_result ? 0 : t->is_signed);
        const char *cast = res_signed ? "(ulong)(long)" : "(ulong)";
        if (!vec) {
            len += (size_t)snprintf(s + len, cap - len, "  out[%d * n + i] = %s(%s);\n", f, cast, FNS[f].expr);
        } else {
            len += (size_t)snprintf(s + len, cap - len, "  { __auto_type r = %s;\n", FNS[f].expr);
            for (int c = 0; c < 4; c++)
                len += (size_t)snprintf(s + len, cap - len,
                                        "    out[%d * n + 4 * i + %d] = %s(r.s%d);\n", f, c, cast, c);
            len += (size_t)snprintf(s + len, cap - len, "  }\n");
        }
    }
    snprintf(s + len, cap - len, "}\n");
    return s;
}

static void check_type(int ti)
{
    const struct ity *t = &TYPES[ti];
    size_t es = (size_t)t->bits / 8;
    void *a = malloc(NV * es), *b = malloc(NV * es), *c = malloc(NV * es);
    uint64_t *out = malloc((size_t)F_COUNT * NV * 8);
    fill(t, a, b, c, 0x1234567ULL + (uint64_t)ti);
    cl_uint n = NV;
    for (int vec = 0; vec < 2; vec++) {
        char *src = kernel_source(t, vec);
        memset(out, 0, (size_t)F_COUNT * NV * 8);
        struct bt_arg args[] = {BT_BUF(a, NV * es), BT_BUF(b, NV * es), BT_BUF(c, NV * es),
                                BT_BUF(out, (size_t)F_COUNT * NV * 8), BT_SCALAR(n)};
        assert_int_equal(bt_run(src, "-cl-std=CL3.0", "k", vec ? NV / 4 : NV, 0, args, 5), CL_SUCCESS);
        int bad = 0;
        for (int f = 0; f < F_COUNT; f++) {
            if (!applies(f, t))
                continue;
            for (int i = 0; i < NV; i++) {
                i128 x = load(a, i, t), y = load(b, i, t), z = load(c, i, t);
                i128 r = reference(f, t, x, y, z);
                int rb = FNS[f].wide_result ? 2 * t->bits : t->bits;
                int rs = FNS[f].wide_result ? t->is_signed : (FNS[f].unsigned_result ? 0 : t->is_signed);
                uint64_t want = (uint64_t)wrap(r, rb, rs);
                if (rb < 64 && !rs)
                    want &= (1ULL << rb) - 1;
                uint64_t got = out[(size_t)f * NV + i];
                if (got != want && bad++ < 10)
                    print_error("%s%s: %s with a=%lld b=%lld c=%lld: got 0x%llx, want 0x%llx\n", t->name,
                                vec ? "4" : "", FNS[f].expr, (long long)x, (long long)y, (long long)z,
                                (unsigned long long)got, (unsigned long long)want);
            }
        }
        free(src);
        if (bad)
            fail_msg("%d wrong integer results for %s%s", bad, t->name, vec ? "4" : "");
    }
    free(a);
    free(b);
    free(c);
    free(out);
}

#define TYPE_TEST(i, name) \
    static void test_integer_##name(void **state) { (void)state; check_type(i); }
TYPE_TEST(0, char)
TYPE_TEST(1, uchar)
TYPE_TEST(2, short)
TYPE_TEST(3, ushort)
TYPE_TEST(4, int)
TYPE_TEST(5, uint)
TYPE_TEST(6, long)
TYPE_TEST(7, ulong)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_char),  cmocka_unit_test(test_integer_uchar),
        cmocka_unit_test(test_integer_short), cmocka_unit_test(test_integer_ushort),
        cmocka_unit_test(test_integer_int),   cmocka_unit_test(test_integer_uint),
        cmocka_unit_test(test_integer_long),  cmocka_unit_test(test_integer_ulong),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
