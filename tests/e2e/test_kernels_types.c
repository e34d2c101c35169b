/* tests/e2e/test_kernels_types.c — every scalar and vector type end to end: for each of
 * char, uchar, short, ushort, int, uint, long, ulong, float, double and each width 1, 2, 3, 4,
 * 8, 16, a kernel loads with vloadN, computes with arithmetic, a reversing swizzle, a
 * comparison and select, and stores with vstoreN; plus swizzle read/write forms (.lo/.hi/
 * .even/.odd, .xyzw, .sF, repeated components), conversions with saturation and rounding
 * modes, as_type reinterpretation, half load/store, 64-bit integer operations, and structs
 * passed by value (nested, vector members, arrays) and through global memory, three-component
 * vectors and a union by value.
 * Every result is compared with a reference computed on the host.
 * Exercises the device's __opencl_c_int64 (long, ulong) and cl_khr_byte_addressable_store (char stores).
 */
#include "test_kernels_harness.h"

static const char *source =
    "#define OPS1(T) kernel void ops_##T##1(global const T *a, global const T *b, global T *out) {\\\n"
    "  size_t i = get_global_id(0);\\\n"
    "  T x = a[i], y = b[i];\\\n"
    "  T r = x * (T)3 + y - (T)1;\\\n"
    "  out[i] = x > y ? x : r;\\\n"
    "}\n"
    "#define OPSN(T, N, REV) kernel void ops_##T##N(global const T *a, global const T *b, global T *out) {\\\n"
    "  size_t i = get_global_id(0);\\\n"
    "  T##N x = vload##N(i, a), y = vload##N(i, b);\\\n"
    "  T##N r = x * (T)3 + y.REV - (T)1;\\\n"
    "  vstore##N(select(r, x, x > y), i, out);\\\n"
    "}\n"
    "#define OPS(T) OPS1(T) OPSN(T, 2, s10) OPSN(T, 3, s210) OPSN(T, 4, s3210) OPSN(T, 8, s76543210)\\\n"
    "  OPSN(T, 16, sFEDCBA9876543210)\n"
    "OPS(char) OPS(uchar) OPS(short) OPS(ushort) OPS(int) OPS(uint) OPS(long) OPS(ulong) OPS(float) OPS(double)\n"
    /* Swizzles: reads and writes of every form on one float8/float4/float3/int16 per work-item. */
    "kernel void swizzles(global const float8 *in, global float *out, global const int16 *iv, global int *iout) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float8 v = in[i];\n"
    "  float4 lo = v.lo, hi = v.hi, ev = v.even, od = v.odd;\n"
    "  float4 q = lo.wzyx + hi.xxyy * ev.s0123 - od.zwxy;\n"
    "  float3 t = hi.zyx;\n"
    "  t.xz = t.zx + (float2)(1.0f, 2.0f);\n"
    "  float4 w = (float4)(t, q.w);\n"
    "  w.yw = w.wy;\n"
    "  float8 r = (float8)(q, w);\n"
    "  r.s7 += 100.0f;\n"
    "  r.odd = r.odd * 2.0f;\n"
    "  vstore8(r, i, out);\n"
    "  int16 k = iv[i];\n"
    "  int8 e = k.even + k.odd.s76543210;\n"
    "  int4 f = k.sFEDC - k.s0123 + k.hi.lo.s3210;\n"
    "  iout[i * 4 + 0] = e.s0 + e.s7 * 10;\n"
    "  iout[i * 4 + 1] = f.x * f.w - f.y;\n"
    "  iout[i * 4 + 2] = k.sF + k.sa + k.sB;\n"
    "  iout[i * 4 + 3] = dot(convert_float4(k.s48CF), (float4)(1.0f, -1.0f, 2.0f, -2.0f));\n"
    "}\n"
    /* Conversions with saturation and explicit rounding modes, and reinterpretation. */
    "kernel void conversions(global const float *f, global char *c, global uchar4 *u4, global int *ri,\n"
    "                        global short *s, global uint *bits, global float *back) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = f[i];\n"
    "  c[i] = convert_char_sat((int)x * 4);\n"
    "  u4[i] = convert_uchar4_sat_rte((float4)(x, -x, x * 0.5f, x + 0.5f));\n"
    "  ri[i * 4 + 0] = convert_int_rtz(x);\n"
    "  ri[i * 4 + 1] = convert_int_rtn(x);\n"
    "  ri[i * 4 + 2] = convert_int_rtp(x);\n"
    "  ri[i * 4 + 3] = convert_int_rte(x);\n"
    "  s[i] = convert_short_sat(x * 1000.0f);\n"
    "  bits[i] = as_uint(x);\n"
    "  back[i] = as_float(as_uint(x) ^ 0x80000000u);\n"
    "}\n"
    /* Half-precision storage: vstore_half (round to nearest even) and vload_half. */
    "kernel void half_storage(global const float *in, global half *h, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  vstore_half(in[i], i, h);\n"
    "  out[i] = vload_half(i, (global const half *)h) * 2.0f;\n"
    "}\n"
    /* 64-bit integer operations. */
    "kernel void int64_ops(global const long *a, global const ulong *b, global long *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  long x = a[i]; ulong y = b[i];\n"
    "  out[i * 6 + 0] = x / 7 + x % 7;\n"
    "  out[i * 6 + 1] = (long)(y >> 13) ^ (x << 3);\n"
    "  out[i * 6 + 2] = (long)mul_hi(y, (ulong)0x9E3779B97F4A7C15UL);\n"
    "  out[i * 6 + 3] = (long)(y / 1000003UL);\n"
    "  out[i * 6 + 4] = abs_diff(x, -x) > 0 ? (long)clz(y) : -1;\n"
    "  out[i * 6 + 5] = rotate(x, (long)(i % 64));\n"
    "}\n"
    /* Structs passed by value: nested, vector member, arrays; and returned from helpers. */
    "typedef struct { short s; double d; } Inner;\n"
    "typedef struct { int a; float4 v; char tag[3]; Inner in; float w[5]; } Outer;\n"
    "typedef struct { float x, y; } Pair;\n"
    "Pair make_pair(float x, float y) { Pair p; p.x = x; p.y = y; return p; }\n"
    "float pair_dot(Pair p, Pair q) { return p.x * q.x + p.y * q.y; }\n"
    "kernel void struct_by_value(global double *out, Outer o, Pair p, char c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  double r = o.a + o.v.x + o.v.y * 2 + o.v.z * 3 + o.v.w * 4 + o.tag[0] + o.tag[1] * 10 + o.tag[2] * 100;\n"
    "  r += o.in.s + o.in.d;\n"
    "  for (int k = 0; k < 5; k++) r += o.w[k] * (k + 1);\n"
    "  Pair q = make_pair((float)i, 1.0f);\n"
    "  out[i] = r * (double)i + pair_dot(p, q) + c;\n"
    "}\n"
    "typedef struct { int id; float val; uchar flags; long big; } Rec;\n"
    "kernel void struct_array(global Rec *recs, int bump) {\n"
    "  size_t i = get_global_id(0);\n"
    "  Rec r = recs[i];\n"
    "  r.id += bump;\n"
    "  r.val *= 0.5f;\n"
    "  r.flags |= (uchar)(1u << (i % 8));\n"
    "  r.big = r.big * 3 + (long)r.id;\n"
    "  recs[i] = r;\n"
    "}\n"
    /* Three-component vectors by value (sized as four), a struct holding one, and a union. */
    "typedef struct { char c; float3 v; short s; } S3;\n"
    "typedef union { int i; float f; uchar b[8]; } U;\n"
    "kernel void vec3_union_args(global double *o, S3 s, U u, char3 c3, double3 d3, long3 l3, ushort3 us3) {\n"
    "  size_t k = get_global_id(0) * 11;\n"
    "  o[k + 0] = s.c; o[k + 1] = s.v.x; o[k + 2] = s.v.y; o[k + 3] = s.v.z; o[k + 4] = s.s;\n"
    "  o[k + 5] = u.i; o[k + 6] = u.b[5];\n"
    "  o[k + 7] = c3.x + c3.y * 10 + c3.z * 100; o[k + 8] = d3.x + d3.y + d3.z;\n"
    "  o[k + 9] = (double)(l3.x + l3.y + l3.z); o[k + 10] = us3.x + us3.y + us3.z;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* Element types of the ops_* kernels, with host-side load/store through exact conversions. */
enum ety { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_LONG, T_ULONG, T_FLOAT, T_DOUBLE };
static const char *ety_name[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"};
static const size_t ety_size[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

static double ety_load(enum ety t, const void *p, size_t i)
{
    switch (t) {
    case T_CHAR: return ((const int8_t *)p)[i];
    case T_UCHAR: return ((const uint8_t *)p)[i];
    case T_SHORT: return ((const int16_t *)p)[i];
    case T_USHORT: return ((const uint16_t *)p)[i];
    case T_INT: return ((const int32_t *)p)[i];
    case T_UINT: return ((const uint32_t *)p)[i];
    case T_LONG: return (double)((const int64_t *)p)[i];
    case T_ULONG: return (double)((const uint64_t *)p)[i];
    case T_FLOAT: return ((const float *)p)[i];
    case T_DOUBLE: return ((const double *)p)[i];
    }
    return 0;
}

/* Stores v converted as the kernel's arithmetic would: integers wrap modulo 2^bits. */
static void ety_store(enum ety t, void *p, size_t i, double v)
{
    int64_t w = (int64_t)v;
    switch (t) {
    case T_CHAR: ((int8_t *)p)[i] = (int8_t)w; break;
    case T_UCHAR: ((uint8_t *)p)[i] = (uint8_t)w; break;
    case T_SHORT: ((int16_t *)p)[i] = (int16_t)w; break;
    case T_USHORT: ((uint16_t *)p)[i] = (uint16_t)w; break;
    case T_INT: ((int32_t *)p)[i] = (int32_t)w; break;
    case T_UINT: ((uint32_t *)p)[i] = (uint32_t)w; break;
    case T_LONG: ((int64_t *)p)[i] = w; break;
    case T_ULONG: ((uint64_t *)p)[i] = (uint64_t)w; break;
    case T_FLOAT: ((float *)p)[i] = (float)v; break;
    case T_DOUBLE: ((double *)p)[i] = v; break;
    }
}

static void test_all_scalar_and_vector_types(void **state)
{
    (void)state;
    static const int widths[] = {1, 2, 3, 4, 8, 16};
    enum { ITEMS = 37 }; /* odd, so no launch is a multiple of a vector width by accident */
    for (int t = T_CHAR; t <= T_DOUBLE; t++)
        for (size_t wi = 0; wi < ARRAY_LEN(widths); wi++) {
            int n = widths[wi];
            size_t count = (size_t)ITEMS * n, bytes = count * ety_size[t];
            bool is_signed = t == T_CHAR || t == T_SHORT || t == T_INT || t == T_LONG || t >= T_FLOAT;
            void *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes), *want = malloc(bytes);
            for (size_t i = 0; i < count; i++) {
                double x = (double)(rng_next() % 21), y = (double)(rng_next() % 21);
                if (is_signed) {
                    x -= 10;
                    y -= 10;
                }
                if (t >= T_FLOAT) {
                    x += 0.25 * (rng_next() % 4);
                    y -= 0.5 * (rng_next() % 2);
                }
                ety_store(t, a, i, x);
                ety_store(t, b, i, y);
            }
            for (size_t item = 0; item < ITEMS; item++)
                for (int j = 0; j < n; j++) {
                    size_t e = item * n + j, rev = item * n + (n - 1 - j);
                    double x = ety_load(t, a, e), y = ety_load(t, b, n == 1 ? e : rev);
                    double yc = ety_load(t, b, e);
                    ety_store(t, want, e, x > yc ? x : x * 3 + y - 1);
                }
            char name[32];
            snprintf(name, sizeof name, "ops_%s%d", ety_name[t], n);
            cl_mem ba = buf_new(bytes, a), bb = buf_new(bytes, b), bo = buf_poisoned(bytes);
            size_t global = ITEMS, local = 1;
            assert_int_equal(launch(name, 1, NULL, &global, &local, KARGS(KARG(ba), KARG(bb), KARG(bo))), CL_SUCCESS);
            buf_read(bo, bytes, out);
            for (size_t i = 0; i < count; i++)
                if (memcmp((char *)out + i * ety_size[t], (char *)want + i * ety_size[t], ety_size[t]))
                    fail_msg("%s: element %zu = %g, want %g", name, i, ety_load(t, out, i), ety_load(t, want, i));
            clReleaseMemObject(ba);
            clReleaseMemObject(bb);
            clReleaseMemObject(bo);
            free(a);
            free(b);
            free(out);
            free(want);
        }
}

static void test_swizzles(void **state)
{
    (void)state;
    enum { N = 21 };
    float in[N][8], out[N][8];
    int iv[N][16], iout[N][4];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < 8; j++)
            in[i][j] = (float)(rng_next() % 17) - 8.0f;
        for (int j = 0; j < 16; j++)
            iv[i][j] = (int)(rng_next() % 201) - 100;
    }
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out), biv = buf_new(sizeof iv, iv),
           bio = buf_poisoned(sizeof iout);
    size_t global = N, local = 7;
    assert_int_equal(launch("swizzles", 1, NULL, &global, &local, KARGS(KARG(bi), KARG(bo), KARG(biv), KARG(bio))),
                     CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    buf_read(bio, sizeof iout, iout);
    for (int i = 0; i < N; i++) {
        const float *v = in[i];
        float lo[4] = {v[0], v[1], v[2], v[3]}, hi[4] = {v[4], v[5], v[6], v[7]};
        float ev[4] = {v[0], v[2], v[4], v[6]}, od[4] = {v[1], v[3], v[5], v[7]};
        float hx[4] = {hi[0], hi[0], hi[1], hi[1]}, odz[4] = {od[2], od[3], od[0], od[1]};
        float q[4], r[8];
        for (int j = 0; j < 4; j++)
            q[j] = lo[3 - j] + hx[j] * ev[j] - odz[j];
        float t[3] = {hi[2], hi[1], hi[0]};
        float tx = t[2] + 1.0f, tz = t[0] + 2.0f;
        t[0] = tx;
        t[2] = tz;
        float w[4] = {t[0], t[1], t[2], q[3]};
        float wy = w[1];
        w[1] = w[3];
        w[3] = wy;
        for (int j = 0; j < 4; j++) {
            r[j] = q[j];
            r[4 + j] = w[j];
        }
        r[7] += 100.0f;
        for (int j = 1; j < 8; j += 2)
            r[j] *= 2.0f;
        for (int j = 0; j < 8; j++)
            if (out[i][j] != r[j])
                fail_msg("item %d float lane %d: %g, want %g", i, j, out[i][j], r[j]);
        const int *k = iv[i];
        int e0 = k[0] + k[15], e7 = k[14] + k[1];
        int f[4];
        for (int j = 0; j < 4; j++)
            f[j] = k[15 - j] - k[j] + k[8 + 3 - j];
        int want[4] = {e0 + e7 * 10, f[0] * f[3] - f[1], k[15] + k[10] + k[11],
                       (int)((float)k[4] - (float)k[8] + 2.0f * (float)k[12] - 2.0f * (float)k[15])};
        for (int j = 0; j < 4; j++)
            if (iout[i][j] != want[j])
                fail_msg("item %d int result %d: %d, want %d", i, j, iout[i][j], want[j]);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(biv);
    clReleaseMemObject(bio);
}

static int sat(double v, double lo, double hi)
{
    return (int)(v < lo ? lo : v > hi ? hi : v);
}

static void test_conversions(void **state)
{
    (void)state;
    static const float f[] = {0.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.7f, -3.7f, 31.9f, 32.0f, -33.0f,
                              100.25f, 255.5f, 256.0f, -1000.0f, 40.0f, 1e6f, -1e6f, 7.49f, 0.25f};
    enum { N = sizeof f / sizeof f[0] };
    cl_char c[N];
    cl_uchar4 u4[N];
    cl_int ri[N * 4];
    cl_short s[N];
    cl_uint bits[N];
    float back[N];
    cl_mem bf = buf_new(sizeof f, f), bc = buf_poisoned(sizeof c), bu = buf_poisoned(sizeof u4),
           br = buf_poisoned(sizeof ri), bs = buf_poisoned(sizeof s), bb = buf_poisoned(sizeof bits),
           bk = buf_poisoned(sizeof back);
    size_t global = N, local = 3;
    assert_int_equal(launch("conversions", 1, NULL, &global, &local,
                            KARGS(KARG(bf), KARG(bc), KARG(bu), KARG(br), KARG(bs), KARG(bb), KARG(bk))),
                     CL_SUCCESS);
    buf_read(bc, sizeof c, c);
    buf_read(bu, sizeof u4, u4);
    buf_read(br, sizeof ri, ri);
    buf_read(bs, sizeof s, s);
    buf_read(bb, sizeof bits, bits);
    buf_read(bk, sizeof back, back);
    for (int i = 0; i < N; i++) {
        float x = f[i];
        assert_int_equal(c[i], sat((double)((int)x * 4), -128, 127));
        float lanes[4] = {x, -x, x * 0.5f, x + 0.5f};
        for (int j = 0; j < 4; j++) {
            double rn = nearbyint(lanes[j]); /* default rounding mode: to nearest even */
            if (u4[i].s[j] != sat(rn, 0, 255))
                fail_msg("convert_uchar4_sat_rte(%g) lane %d = %u, want %d", x, j, u4[i].s[j], sat(rn, 0, 255));
        }
        int want[4] = {(int)truncf(x), (int)floorf(x), (int)ceilf(x), (int)nearbyintf(x)};
        for (int j = 0; j < 4; j++)
            if (ri[i * 4 + j] != want[j])
                fail_msg("convert_int rounding %d of %g = %d, want %d", j, x, ri[i * 4 + j], want[j]);
        double sx = (double)(x * 1000.0f);
        /* convert_short_sat rounds toward zero (default for float->int) before saturating */
        assert_int_equal(s[i], sat(trunc(sx), -32768, 32767));
        uint32_t ub;
        memcpy(&ub, &x, 4);
        assert_int_equal(bits[i], ub);
        assert_true(back[i] == -x);
    }
    clReleaseMemObject(bf);
    clReleaseMemObject(bc);
    clReleaseMemObject(bu);
    clReleaseMemObject(br);
    clReleaseMemObject(bs);
    clReleaseMemObject(bb);
    clReleaseMemObject(bk);
}

static void test_half_storage(void **state)
{
    (void)state;
    /* Values exactly representable in half round-trip exactly; others round to nearest even. */
    static const float in[] = {0.0f, 1.0f, -2.5f, 65504.0f, 0x1p-14f, 1.0009765625f, 1.00048828125f,
                               1.00146484375f, 3.14159265f, -1000.5f};
    static const float halfval[] = {0.0f, 1.0f, -2.5f, 65504.0f, 0x1p-14f, 1.0009765625f, 1.0f,
                                    1.001953125f, 3.140625f, -1000.5f};
    enum { N = sizeof in / sizeof in[0] };
    float out[N];
    cl_mem bi = buf_new(sizeof in, in), bh = buf_poisoned(N * 2), bo = buf_poisoned(sizeof out);
    size_t global = N, local = 1;
    assert_int_equal(launch("half_storage", 1, NULL, &global, &local, KARGS(KARG(bi), KARG(bh), KARG(bo))),
                     CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < N; i++)
        if (out[i] != halfval[i] * 2.0f)
            fail_msg("half round trip of %.10g: %.10g, want %.10g", in[i], out[i] / 2.0f, halfval[i]);
    clReleaseMemObject(bi);
    clReleaseMemObject(bh);
    clReleaseMemObject(bo);
}

static uint64_t rotl64(uint64_t x, unsigned r)
{
    return r ? (x << r) | (x >> (64 - r)) : x;
}

static void test_int64_ops(void **state)
{
    (void)state;
    enum { N = 70 };
    cl_long a[N], out[N * 6];
    cl_ulong b[N];
    for (int i = 0; i < N; i++) {
        a[i] = ((int64_t)rng_next() << 20) ^ (int64_t)rng_next();
        if (i % 2)
            a[i] = -a[i];
        b[i] = ((uint64_t)rng_next() << 32 | rng_next()) >> (i % 50);
    }
    a[0] = 0;
    b[1] = 0;
    cl_mem ba = buf_new(sizeof a, a), bb = buf_new(sizeof b, b), bo = buf_poisoned(sizeof out);
    size_t global = N, local = 7;
    assert_int_equal(launch("int64_ops", 1, NULL, &global, &local, KARGS(KARG(ba), KARG(bb), KARG(bo))), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < N; i++) {
        int64_t x = a[i];
        uint64_t y = b[i];
        int64_t want[6];
        want[0] = x / 7 + x % 7;
        want[1] = (int64_t)(y >> 13) ^ (int64_t)((uint64_t)x << 3);
        want[2] = (int64_t)(uint64_t)(((unsigned __int128)y * 0x9E3779B97F4A7C15ULL) >> 64);
        want[3] = (int64_t)(y / 1000003ULL);
        uint64_t ad = x < 0 ? (uint64_t)0 - 2 * (uint64_t)x : 2 * (uint64_t)x;
        want[4] = ad > 0 ? (y ? __builtin_clzll(y) : 64) : -1;
        want[5] = (int64_t)rotl64((uint64_t)x, (unsigned)(i % 64));
        for (int j = 0; j < 6; j++)
            if (out[i * 6 + j] != want[j])
                fail_msg("item %d op %d: %lld, want %lld", i, j, (long long)out[i * 6 + j], (long long)want[j]);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bo);
}

/* Host mirrors of the kernel's structs, laid out by OpenCL C's rules (float4 aligned to 16). */
typedef struct {
    cl_short s;
    cl_double d;
} Inner;
typedef struct {
    cl_int a;
    cl_float4 v;
    cl_char tag[3];
    Inner in;
    cl_float w[5];
} Outer;
typedef struct {
    cl_float x, y;
} Pair;

static void test_struct_by_value(void **state)
{
    (void)state;
    Outer o;
    memset(&o, 0, sizeof o);
    o.a = -17;
    o.v = (cl_float4){{1.5f, -2.0f, 0.25f, 8.0f}};
    o.tag[0] = 3;
    o.tag[1] = -4;
    o.tag[2] = 5;
    o.in.s = -300;
    o.in.d = 0.125;
    for (int k = 0; k < 5; k++)
        o.w[k] = (float)(k * k) - 2.5f;
    Pair p = {2.0f, -3.0f};
    cl_char c = 9;
    enum { N = 50 };
    double out[N];
    cl_mem bo = buf_poisoned(sizeof out);
    size_t global = N, local = 5;
    assert_int_equal(launch("struct_by_value", 1, NULL, &global, &local, KARGS(KARG(bo), KARG(o), KARG(p), KARG(c))),
                     CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    double r = o.a + o.v.s[0] + o.v.s[1] * 2 + o.v.s[2] * 3 + o.v.s[3] * 4 + o.tag[0] + o.tag[1] * 10 + o.tag[2] * 100;
    r += o.in.s + o.in.d;
    for (int k = 0; k < 5; k++)
        r += o.w[k] * (k + 1);
    for (int i = 0; i < N; i++) {
        double want = r * i + (double)(p.x * (float)i + p.y * 1.0f) + c;
        if (!close_f(out[i], want, 1e-12))
            fail_msg("item %d: %.17g, want %.17g", i, out[i], want);
    }
    clReleaseMemObject(bo);
}

typedef struct {
    cl_int id;
    cl_float val;
    cl_uchar flags;
    cl_long big;
} Rec;

static void test_struct_array(void **state)
{
    (void)state;
    enum { N = 100 };
    Rec recs[N], out[N];
    for (int i = 0; i < N; i++)
        recs[i] = (Rec){i * 3, (float)i + 0.5f, (cl_uchar)(i * 7), (cl_long)i << 35};
    cl_int bump = 11;
    cl_mem b = buf_new(sizeof recs, recs);
    size_t global = N, local = 100;
    assert_int_equal(launch("struct_array", 1, NULL, &global, &local, KARGS(KARG(b), KARG(bump))), CL_SUCCESS);
    buf_read(b, sizeof out, out);
    for (int i = 0; i < N; i++) {
        Rec r = recs[i];
        r.id += bump;
        r.val *= 0.5f;
        r.flags |= (cl_uchar)(1u << (i % 8));
        r.big = r.big * 3 + r.id;
        if (out[i].id != r.id || out[i].val != r.val || out[i].flags != r.flags || out[i].big != r.big)
            fail_msg("rec %d: {%d, %g, %u, %lld}, want {%d, %g, %u, %lld}", i, out[i].id, out[i].val, out[i].flags,
                     (long long)out[i].big, r.id, r.val, r.flags, (long long)r.big);
    }
    clReleaseMemObject(b);
}

typedef struct {
    cl_char c;
    cl_float3 v;
    cl_short s;
} S3;
typedef union {
    cl_int i;
    cl_float f;
    cl_uchar b[8];
} U;

static void test_vec3_and_union_args(void **state)
{
    (void)state;
    S3 s;
    memset(&s, 0, sizeof s);
    s.c = -5;
    s.v = (cl_float3){{1.5f, 2.5f, 3.5f}};
    s.s = -300;
    U u;
    memset(&u, 0, sizeof u);
    u.i = 77;
    u.b[5] = 9;
    cl_char3 c3 = {{1, 2, 3}};
    cl_double3 d3 = {{0.25, 0.5, 1.0}};
    cl_long3 l3 = {{1LL << 40, 2, 3}};
    cl_ushort3 us3 = {{60000, 1, 2}};
    enum { N = 3 };
    double o[N * 11];
    cl_mem b = buf_poisoned(sizeof o);
    size_t global = N, local = 1;
    assert_int_equal(launch("vec3_union_args", 1, NULL, &global, &local,
                            KARGS(KARG(b), KARG(s), KARG(u), KARG(c3), KARG(d3), KARG(l3), KARG(us3))),
                     CL_SUCCESS);
    buf_read(b, sizeof o, o);
    const double want[11] = {-5, 1.5, 2.5, 3.5, -300, 77, 9, 321, 1.75, (double)((1LL << 40) + 5), 60003};
    for (int w = 0; w < N; w++)
        for (int j = 0; j < 11; j++)
            if (o[w * 11 + j] != want[j])
                fail_msg("item %d value %d: %.17g, want %.17g", w, j, o[w * 11 + j], want[j]);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_scalar_and_vector_types),
        cmocka_unit_test(test_swizzles),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_half_storage),
        cmocka_unit_test(test_int64_ops),
        cmocka_unit_test(test_struct_by_value),
        cmocka_unit_test(test_struct_array),
        cmocka_unit_test(test_vec3_and_union_args),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
