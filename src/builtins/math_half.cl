/* builtins/math_half.cl — the math functions of spec 6.15.2 for half and every half vector
 * width (cl_khr_fp16).
 *
 * How: a half converts to float exactly, so each function evaluates the float overload of
 * math.cl and rounds its result to half once (round to nearest even). The float result is
 * within a few float ulp of the true value (often correctly rounded), and float carries 13
 * more bits than half, so the half result is within 0.5 + 2^-12 half ulp: inside every bound
 * the specification gives for half. For the correctly rounded operations (sqrt, fdim, the
 * exact ones) float has at least 2p + 2 bits of a half's p = 11, so rounding twice equals
 * rounding once (Figueroa). Three functions cannot go through float:
 *   - fma must round a*b + c once: a*b is exact in double, the sum is taken in double with
 *     its exact error (two-sum), rounded to odd, then to half (exact: 53 >= 11 + 2);
 *   - nextafter steps the half bit pattern;
 *   - fract clamps to the largest half below 1 (0x1.ffcp-1), not float's.
 */
#include "weft_builtins.h"

#ifdef cl_khr_fp16

/* Widths including the scalar (empty N). */
#define MH_WIDTHS1(M, ...) M(, __VA_ARGS__) WEFT_WIDTHS(M, __VA_ARGS__)

/* The float overloads are defined in math.cl. clang declares OpenCL builtins lazily, only
 * when a name has no declaration in the file; defining the half overload here would hide
 * them, so they are declared explicitly. */
#define MH_DECL1_N(N, F) CNST float##N F(float##N x);
#define MH_DECL1(F, _) CNST float F(float x); WEFT_WIDTHS(MH_DECL1_N, F)
#define MH_DECL2_N(N, F) CNST float##N F(float##N x, float##N y);
#define MH_DECL2(F, _) CNST float F(float x, float y); WEFT_WIDTHS(MH_DECL2_N, F)

/* half F(half) through float; the vector forms convert whole vectors (one instruction each
 * way with F16C) and call the float vector overload. */
#define MH1_N(N, F) CNST half##N F(half##N x) { return convert_half##N(F(convert_float##N(x))); }
#define MH1(F, _) \
    CNST half F(half x) { return (half)F((float)x); } WEFT_WIDTHS(MH1_N, F)
#define MH2_N(N, F) CNST half##N F(half##N x, half##N y) { \
        return convert_half##N(F(convert_float##N(x), convert_float##N(y))); }
#define MH2(F, _) \
    CNST half F(half x, half y) { return (half)F((float)x, (float)y); } WEFT_WIDTHS(MH2_N, F)

#define MH_FUNCS1(M) \
    M(acos, _) M(acosh, _) M(acospi, _) M(asin, _) M(asinh, _) M(asinpi, _) M(atan, _)   \
    M(atanh, _) M(atanpi, _) M(cbrt, _) M(ceil, _) M(cos, _) M(cosh, _) M(cospi, _)       \
    M(erf, _) M(erfc, _) M(exp, _) M(exp10, _) M(exp2, _) M(expm1, _) M(fabs, _)          \
    M(floor, _) M(lgamma, _) M(log, _) M(log10, _) M(log1p, _) M(log2, _) M(logb, _)      \
    M(rint, _) M(round, _) M(rsqrt, _) M(sin, _) M(sinh, _) M(sinpi, _) M(sqrt, _)        \
    M(tan, _) M(tanh, _) M(tanpi, _) M(tgamma, _) M(trunc, _)
#define MH_FUNCS2(M) \
    M(atan2, _) M(atan2pi, _) M(copysign, _) M(fdim, _) M(fmax, _) M(fmin, _) M(fmod, _)  \
    M(hypot, _) M(maxmag, _) M(minmag, _) M(pow, _) M(powr, _) M(remainder, _)
MH_FUNCS1(MH_DECL1)
MH_FUNCS2(MH_DECL2)
MH_FUNCS1(MH1)
MH_FUNCS2(MH2)

/* fmax/fmin with a scalar second argument */
#define MH_MINMAX_S_N(N, _)                                                                 \
    CNST half##N fmax(half##N x, half y) { return fmax(x, (half##N)(y)); }                  \
    CNST half##N fmin(half##N x, half y) { return fmin(x, (half##N)(y)); }
WEFT_WIDTHS(MH_MINMAX_S_N, _)

/* mad may round twice; a*b is exact in float, so this is within 1 ulp of fma. */
#define MH_MAD_N(N, _) CNST half##N mad(half##N a, half##N b, half##N c) {                  \
        return convert_half##N(convert_float##N(a) * convert_float##N(b) + convert_float##N(c)); }
MH_WIDTHS1(MH_MAD_N, _)

/* ---- integer arguments and results --------------------------------------------------------- */

#define MH_INT_DECL_N(N, _)                                                                 \
    CNST float##N ldexp(float##N x, int##N n); CNST float##N pown(float##N x, int##N n);    \
    CNST float##N rootn(float##N x, int##N n); CNST int##N ilogb(float##N x);
MH_WIDTHS1(MH_INT_DECL_N, _)
#define MH_INT_N(N, _)                                                                      \
    CNST half##N ldexp(half##N x, int##N n) { return convert_half##N(ldexp(convert_float##N(x), n)); } \
    CNST half##N pown(half##N x, int##N n) { return convert_half##N(pown(convert_float##N(x), n)); }   \
    CNST half##N rootn(half##N x, int##N n) { return convert_half##N(rootn(convert_float##N(x), n)); } \
    CNST int##N ilogb(half##N x) { return ilogb(convert_float##N(x)); }
MH_WIDTHS1(MH_INT_N, _)
#define MH_LDEXP_S_DECL_N(N, _) CNST float##N ldexp(float##N x, int n);
WEFT_WIDTHS(MH_LDEXP_S_DECL_N, _)
#define MH_LDEXP_S_N(N, _) \
    CNST half##N ldexp(half##N x, int n) { return convert_half##N(ldexp(convert_float##N(x), n)); }
WEFT_WIDTHS(MH_LDEXP_S_N, _)

/* nan: a quiet NaN carrying the low nine bits of the code as payload. */
CNST half nan(ushort c) { return as_half((ushort)(0x7e00u | (c & 0x01ffu))); }
WEFT_VEC1(half, ushort, nan)

/* ---- exact in half arithmetic ------------------------------------------------------------- */

/* nextafter: the neighbour of x towards y in the half bit pattern (±0 step to the smallest
 * subnormal; NaNs propagate). */
CNST half nextafter(half x, half y)
{
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    short b = as_short(x);
    if (x == (half)0.0h) return as_half((short)(y > x ? 0x0001 : 0x8001));
    return as_half((short)(((x < y) == (x > (half)0.0h)) ? b + 1 : b - 1));
}
WEFT_VEC2(half, half, half, nextafter)

/* fma: one rounding of a*b + c. The product is exact in double; s = p + c is rounded, e is
 * its exact error; an inexact s is moved to the odd one of the two doubles around the true
 * sum (round to odd), which then rounds to half exactly as the true sum would. */
CNST half fma(half a, half b, half c)
{
    double p = (double)a * (double)b, q = (double)c;
    double s = p + q;
    if (s != s || s - s != 0.0)                           /* NaN, infinities: no rounding */
        return as_half(weft_double_to_half(s, WEFT_RTE));
    double bp = s - q, bq = s - bp;
    double e = (p - bp) + (q - bq);
    if (e != 0.0 && (as_ulong(s) & 1) == 0)
        s = as_double(as_long(s) + (((e > 0.0) == (s > 0.0)) ? 1 : -1));
    return as_half(weft_double_to_half(s, WEFT_RTE));
}
WEFT_VEC3(half, half, fma)

/* ---- pointer results: through a float temporary ------------------------------------------- */

OVL float fract(float x, __private float *p);
OVL float modf(float x, __private float *p);
OVL float frexp(float x, __private int *p);
OVL float sincos(float x, __private float *c);
OVL float lgamma_r(float x, __private int *s);
OVL float remquo(float x, float y, __private int *q);
#define MH_PTR(AS, _)                                                                       \
    OVL half fract(half x, AS half *p) {                                                    \
        float t, r = fract((float)x, &t); *p = (half)t;                                     \
        return r > 0x1.ffcp-1f ? (half)0x1.ffcp-1f : (half)r; }                           \
    OVL half modf(half x, AS half *p) { float t; half r = (half)modf((float)x, &t); *p = (half)t; return r; } \
    OVL half frexp(half x, AS int *p) { int t; half r = (half)frexp((float)x, &t); *p = t; return r; } \
    OVL half sincos(half x, AS half *c) { float t; half r = (half)sincos((float)x, &t); *c = (half)t; return r; } \
    OVL half lgamma_r(half x, AS int *s) { int t; half r = (half)lgamma_r((float)x, &t); *s = t; return r; } \
    OVL half remquo(half x, half y, AS int *q) { int t; half r = (half)remquo((float)x, (float)y, &t); *q = t; return r; }
WEFT_PTR_SPACES(MH_PTR, _)
WEFT_VEC1P(half, half, half, fract)
WEFT_VEC1P(half, half, half, modf)
WEFT_VEC1P(half, half, int, frexp)
WEFT_VEC1P(half, half, half, sincos)
WEFT_VEC1P(half, half, int, lgamma_r)
WEFT_VEC2P(half, half, int, remquo)

#endif /* cl_khr_fp16 */
