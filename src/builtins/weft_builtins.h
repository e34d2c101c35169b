/* builtins/weft_builtins.h — shared helpers of the OpenCL C builtin library (not seen by
 * user kernels).
 *
 * The declarations of every builtin come from clang (-finclude-default-header); the library
 * only provides definitions with exactly those signatures, so the mangled names match what
 * a kernel calls. Definitions must say `overloadable` themselves (clang's __ovld macro exists
 * only in opencl-c.h, which the driver replaces by its table-generated declarations).
 *
 * Vector overloads are written once per width with the X-macros below. Most apply the
 * scalar function per component with a fixed-trip loop (clang's vector subscripts); -O2
 * unrolls it, and after inlining into a kernel LLVM's vectorizers see plain scalar calls.
 * Where a clang elementwise builtin exists, the vector form maps to one LLVM intrinsic on
 * the whole vector instead.
 */
#ifndef WEFT_BUILTINS_H
#define WEFT_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define OVL __attribute__((overloadable))
#define CNST __attribute__((overloadable, const))
#define INLINE static inline __attribute__((always_inline))

/* The vector widths every gentype comes in, besides the scalar. */
#define WEFT_WIDTHS(M, ...) M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) \
                            M(8, __VA_ARGS__) M(16, __VA_ARGS__)

/* Element types. */
#define WEFT_INT_TYPES(M, ...) M(char, __VA_ARGS__) M(uchar, __VA_ARGS__) M(short, __VA_ARGS__) \
    M(ushort, __VA_ARGS__) M(int, __VA_ARGS__) M(uint, __VA_ARGS__) M(long, __VA_ARGS__)        \
    M(ulong, __VA_ARGS__)
#define WEFT_FLOAT_TYPES(M, ...) M(float, __VA_ARGS__) M(double, __VA_ARGS__)
#define WEFT_ALL_TYPES(M, ...) WEFT_INT_TYPES(M, __VA_ARGS__) WEFT_FLOAT_TYPES(M, __VA_ARGS__)

/* Address spaces of pointer arguments: the named ones (what OpenCL C 1.x programs call), and
 * __generic when the library is compiled with the generic address space (what OpenCL C 3.0
 * programs call: their builtins take generic pointers then, runtime/features.h). */
#ifdef __opencl_c_generic_address_space
#define WEFT_GENERIC_SPACE(M, ...) M(__generic, __VA_ARGS__)
#else
#define WEFT_GENERIC_SPACE(M, ...)
#endif
#define WEFT_PTR_SPACES(M, ...) M(__private, __VA_ARGS__) M(__global, __VA_ARGS__) \
                                M(__local, __VA_ARGS__) WEFT_GENERIC_SPACE(M, __VA_ARGS__)

/* ---- per-component vector overloads ------------------------------------------------------- */

/* R##N F(T##N x) */
#define WEFT_VEC1_N(N, R, T, F) \
    CNST R##N F(T##N x) { R##N r; for (int i = 0; i < N; i++) r[i] = F(x[i]); return r; }
#define WEFT_VEC1(R, T, F) WEFT_WIDTHS(WEFT_VEC1_N, R, T, F)

/* R##N F(T##N x, U##N y) */
#define WEFT_VEC2_N(N, R, T, U, F) \
    CNST R##N F(T##N x, U##N y) { R##N r; for (int i = 0; i < N; i++) r[i] = F(x[i], y[i]); return r; }
#define WEFT_VEC2(R, T, U, F) WEFT_WIDTHS(WEFT_VEC2_N, R, T, U, F)

/* R##N F(T##N x, U y) — a scalar second argument */
#define WEFT_VEC2S_N(N, R, T, U, F) \
    CNST R##N F(T##N x, U y) { R##N r; for (int i = 0; i < N; i++) r[i] = F(x[i], y); return r; }
#define WEFT_VEC2S(R, T, U, F) WEFT_WIDTHS(WEFT_VEC2S_N, R, T, U, F)

/* R##N F(T##N x, T##N y, T##N z) */
#define WEFT_VEC3_N(N, R, T, F) \
    CNST R##N F(T##N x, T##N y, T##N z) {                                         \
        R##N r; for (int i = 0; i < N; i++) r[i] = F(x[i], y[i], z[i]); return r; }
#define WEFT_VEC3(R, T, F) WEFT_WIDTHS(WEFT_VEC3_N, R, T, F)

/* R##N F(T##N x, AS P##N *p): the scalar writes through a private temporary. */
#define WEFT_VEC1P_N(N, AS, R, T, P, F)                                             \
    OVL R##N F(T##N x, AS P##N *p) {                                                \
        R##N r; P##N o;                                                             \
        for (int i = 0; i < N; i++) { P t; r[i] = F(x[i], &t); o[i] = t; }          \
        *p = o; return r; }
#define WEFT_VEC1P_AS(AS, R, T, P, F) WEFT_WIDTHS(WEFT_VEC1P_N, AS, R, T, P, F)
#define WEFT_VEC1P(R, T, P, F) WEFT_PTR_SPACES(WEFT_VEC1P_AS, R, T, P, F)

/* R##N F(T##N x, T##N y, AS P##N *p) */
#define WEFT_VEC2P_N(N, AS, R, T, P, F)                                             \
    OVL R##N F(T##N x, T##N y, AS P##N *p) {                                        \
        R##N r; P##N o;                                                             \
        for (int i = 0; i < N; i++) { P t; r[i] = F(x[i], y[i], &t); o[i] = t; }    \
        *p = o; return r; }
#define WEFT_VEC2P_AS(AS, R, T, P, F) WEFT_WIDTHS(WEFT_VEC2P_N, AS, R, T, P, F)
#define WEFT_VEC2P(R, T, P, F) WEFT_PTR_SPACES(WEFT_VEC2P_AS, R, T, P, F)

/* Whole-vector elementwise builtins: R##N F(T##N x) { return B(x); } */
#define WEFT_EW1_N(N, T, F, B) CNST T##N F(T##N x) { return B(x); }
#define WEFT_EW1(T, F, B) CNST T F(T x) { return B(x); } WEFT_WIDTHS(WEFT_EW1_N, T, F, B)
#define WEFT_EW2_N(N, T, F, B) CNST T##N F(T##N x, T##N y) { return B(x, y); }
#define WEFT_EW2(T, F, B) CNST T F(T x, T y) { return B(x, y); } WEFT_WIDTHS(WEFT_EW2_N, T, F, B)
#define WEFT_EW3_N(N, T, F, B) CNST T##N F(T##N x, T##N y, T##N z) { return B(x, y, z); }
#define WEFT_EW3(T, F, B) CNST T F(T x, T y, T z) { return B(x, y, z); } \
    WEFT_WIDTHS(WEFT_EW3_N, T, F, B)

/* ---- bit helpers ---------------------------------------------------------------------------- */

/* The neighbours of a finite float/double, by stepping the bit pattern (x != 0). */
INLINE float weft_next_upf(float x)
{
    if (x == 0.0f) return 0x1p-149f;
    int b = as_int(x);
    return as_float(x > 0.0f ? b + 1 : b - 1);
}
INLINE float weft_next_downf(float x) { return -weft_next_upf(-x); }
INLINE double weft_next_up(double x)
{
    if (x == 0.0) return 0x1p-1074;
    long b = as_long(x);
    return as_double(x > 0.0 ? b + 1 : b - 1);
}
INLINE double weft_next_down(double x) { return -weft_next_up(-x); }

/* ---- half <-> float ---------------------------------------------------------------------- */

INLINE float weft_half_to_float(ushort h)
{
    uint s = (uint)(h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1fu;
    uint m = h & 0x3ffu;
    if (e == 0x1fu) /* inf, NaN (payload kept, quiet bit as stored) */
        return as_float(s | 0x7f800000u | (m << 13));
    if (e == 0) /* zero, subnormal: m * 2^-24, exact in float */
        return as_float(s | as_uint((float)m * 0x1p-24f));
    return as_float(s | ((e + 112u) << 23) | (m << 13));
}

enum { WEFT_RTE, WEFT_RTZ, WEFT_RTP, WEFT_RTN };

/* double -> half bits with one rounding in mode `mode`. Floats get here exactly. */
INLINE ushort weft_double_to_half(double x, int mode)
{
    ulong b = as_ulong(x);
    ushort s = (ushort)((b >> 48) & 0x8000u);
    ulong a = b & 0x7fffffffffffffffUL;
    bool neg = s != 0;
    if (a > 0x7ff0000000000000UL) /* NaN: quiet, top payload bits kept */
        return (ushort)(s | 0x7e00u | (ushort)((a >> 42) & 0x1ffu));
    if (a == 0x7ff0000000000000UL)
        return (ushort)(s | 0x7c00u);
    if (a == 0)
        return s;
    int e = (int)(a >> 52) - 1023;
    ulong sig = (a & 0x000fffffffffffffUL) | (a >> 52 ? 0x0010000000000000UL : 0);
    if (a >> 52 == 0) e = -1022; /* double subnormal: far below half's range */
    if (e > 15) { /* beyond the largest finite half (65504) */
        bool to_inf = mode == WEFT_RTE || (mode == WEFT_RTP && !neg) || (mode == WEFT_RTN && neg);
        return (ushort)(s | (to_inf ? 0x7c00u : 0x7bffu));
    }
    /* keep 11 significant bits for normals, fewer for half subnormals (e < -14) */
    int shift = 42 + (e < -14 ? -14 - e : 0);
    ulong keep, rem, tie;
    if (shift >= 64) { keep = 0; rem = 1; tie = 2; } /* nonzero, below half an ulp */
    else {
        keep = sig >> shift;
        rem = sig & ((1UL << shift) - 1);
        tie = 1UL << (shift - 1);
    }
    ushort h = e < -14 ? (ushort)keep : (ushort)(((uint)(e + 15) << 10) | (uint)(keep & 0x3ffu));
    bool up;
    switch (mode) {
    case WEFT_RTZ: up = false; break;
    case WEFT_RTP: up = !neg && rem != 0; break;
    case WEFT_RTN: up = neg && rem != 0; break;
    default: up = rem > tie || (rem == tie && (keep & 1)); break;
    }
    /* the carry of a rounded-up mantissa moves into the exponent, up to infinity */
    return (ushort)(s | (ushort)(h + (up ? 1 : 0)));
}

#endif
