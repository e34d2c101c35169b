/* builtins/integer.cl — OpenCL C integer functions (spec 6.15.3) for char ... ulong, scalar
 * and every vector width.
 *
 * Guarantees: exact results as the specification defines them, for every input (wrapping
 * arithmetic is done in the unsigned type, so no signed overflow is ever undefined in the
 * IR; saturation and the high halves of products use a wider type, __int128 for 64 bits).
 * add_sat, sub_sat, min, max and clamp map to LLVM's saturating/min/max intrinsics on the
 * whole vector; the rest apply the scalar per component.
 */
#include "weft_builtins.h"

/* ---- whole-vector intrinsics ----------------------------------------------------------- */

/* Scalar add_sat/sub_sat cannot use the elementwise builtins: those promote char and short
 * scalars to int (the sum would not saturate); the overflow builtins keep the exact type. */
#define INT_EW(T, _)                                                                  \
    CNST T add_sat(T x, T y) {                                                        \
        T r; if (!__builtin_add_overflow(x, y, &r)) return r;                         \
        if ((T)-1 > (T)0) return (T)-1; /* unsigned: only upwards */                 \
        T mn = (T)((ulong)1 << (sizeof(T) * 8 - 1));                                  \
        return y > 0 ? (T)~mn : mn; }                                                 \
    CNST T sub_sat(T x, T y) {                                                        \
        T r; if (!__builtin_sub_overflow(x, y, &r)) return r;                         \
        if ((T)-1 > (T)0) return (T)0;                                                \
        T mn = (T)((ulong)1 << (sizeof(T) * 8 - 1));                                  \
        return y < 0 ? (T)~mn : mn; }                                                 \
    WEFT_WIDTHS(WEFT_EW2_N, T, add_sat, __builtin_elementwise_add_sat)                \
    WEFT_WIDTHS(WEFT_EW2_N, T, sub_sat, __builtin_elementwise_sub_sat)                \
    WEFT_EW2(T, max, __builtin_elementwise_max)                                       \
    WEFT_EW2(T, min, __builtin_elementwise_min)                                       \
    CNST T clamp(T x, T lo, T hi) {                                                   \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi); }     \
    WEFT_WIDTHS(INT_EW_N, T)
#define INT_EW_N(N, T)                                                                \
    CNST T##N max(T##N x, T y) { return __builtin_elementwise_max(x, (T##N)(y)); }    \
    CNST T##N min(T##N x, T y) { return __builtin_elementwise_min(x, (T##N)(y)); }    \
    CNST T##N clamp(T##N x, T##N lo, T##N hi) {                                      \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi); }     \
    CNST T##N clamp(T##N x, T lo, T hi) {                                             \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, (T##N)(lo)), (T##N)(hi)); }
WEFT_INT_TYPES(INT_EW, _)

/* ---- scalars ----------------------------------------------------------------------------- */

/* T: the type, U: its unsigned twin, B: its bits, TMIN/TMAX: its range, W: a type that holds
 * a product of two T plus a T (signed for signed T). */
#define INT_COMMON(T, U, B, TMIN, TMAX)                                                   \
    CNST U abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }      \
    CNST T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & 1)); }              \
    CNST T rhadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + ((x | y) & 1)); }           \
    CNST T clz(T x) { return (T)__builtin_clzg((U)x, B); }                               \
    CNST T ctz(T x) { return (T)__builtin_ctzg((U)x, B); }                               \
    CNST T popcount(T x) { return (T)__builtin_popcountg((U)x); }                        \
    CNST T mad_hi(T a, T b, T c) { return (T)((U)mul_hi(a, b) + (U)c); }                 \
    CNST T rotate(T v, T i) {                                                             \
        U u = (U)v, n = (U)((U)i & (B - 1));                                              \
        return (T)((U)(u << n) | (U)(u >> ((B - n) & (B - 1)))); }                        \
    WEFT_VEC1(U, T, abs) WEFT_VEC2(U, T, T, abs_diff) WEFT_VEC2(T, T, T, hadd)            \
    WEFT_VEC2(T, T, T, rhadd) WEFT_VEC1(T, T, clz) WEFT_VEC1(T, T, ctz)                   \
    WEFT_VEC1(T, T, popcount) WEFT_VEC3(T, T, mad_hi) WEFT_VEC3(T, T, mad_sat)            \
    WEFT_VEC2(T, T, T, mul_hi) WEFT_VEC2(T, T, T, rotate)

#define INT_SIGNED(T, U, B, TMIN, TMAX, W)                                                \
    CNST U abs(T x) { return x < 0 ? (U)((U)0 - (U)x) : (U)x; }                          \
    CNST T mul_hi(T a, T b) { return (T)(((W)a * (W)b) >> B); }                          \
    CNST T mad_sat(T a, T b, T c) {                                                       \
        W p = (W)a * (W)b + (W)c;                                                          \
        return p < (W)TMIN ? TMIN : p > (W)TMAX ? TMAX : (T)p; }                           \
    INT_COMMON(T, U, B, TMIN, TMAX)
#define INT_UNSIGNED(T, U, B, TMIN, TMAX, W)                                              \
    CNST U abs(T x) { return x; }                                                         \
    CNST T mul_hi(T a, T b) { return (T)(((W)a * (W)b) >> B); }                          \
    CNST T mad_sat(T a, T b, T c) {                                                       \
        W p = (W)a * (W)b + (W)c;                                                          \
        return p > (W)TMAX ? TMAX : (T)p; }                                                \
    INT_COMMON(T, U, B, TMIN, TMAX)

INT_SIGNED(char, uchar, 8, CHAR_MIN, CHAR_MAX, int)
INT_UNSIGNED(uchar, uchar, 8, 0, UCHAR_MAX, uint)
INT_SIGNED(short, ushort, 16, SHRT_MIN, SHRT_MAX, int)
INT_UNSIGNED(ushort, ushort, 16, 0, USHRT_MAX, uint)
INT_SIGNED(int, uint, 32, INT_MIN, INT_MAX, long)
INT_UNSIGNED(uint, uint, 32, 0, UINT_MAX, ulong)
INT_SIGNED(long, ulong, 64, LONG_MIN, LONG_MAX, __int128)
INT_UNSIGNED(ulong, ulong, 64, 0, ULONG_MAX, unsigned __int128)

/* upsample(hi, lo) = hi << bits(lo) | lo, in the type twice as wide. */
#define INT_UPSAMPLE(R, UR, H, L, B)                                                      \
    CNST R upsample(H hi, L lo) { return (R)(((UR)hi << B) | (UR)lo); }                  \
    WEFT_VEC2(R, H, L, upsample)
INT_UPSAMPLE(short, ushort, char, uchar, 8)
INT_UPSAMPLE(ushort, ushort, uchar, uchar, 8)
INT_UPSAMPLE(int, uint, short, ushort, 16)
INT_UPSAMPLE(uint, uint, ushort, ushort, 16)
INT_UPSAMPLE(long, ulong, int, uint, 32)
INT_UPSAMPLE(ulong, ulong, uint, uint, 32)

/* mul24/mad24: inputs outside 24 bits give implementation-defined results; the full
 * product (wrapping) is as fast as anything on a CPU. */
CNST int mul24(int x, int y) { return (int)((uint)x * (uint)y); }
CNST uint mul24(uint x, uint y) { return x * y; }
CNST int mad24(int x, int y, int z) { return (int)((uint)x * (uint)y + (uint)z); }
CNST uint mad24(uint x, uint y, uint z) { return x * y + z; }
WEFT_VEC2(int, int, int, mul24)
WEFT_VEC2(uint, uint, uint, mul24)
WEFT_VEC3(int, int, mad24)
WEFT_VEC3(uint, uint, mad24)
