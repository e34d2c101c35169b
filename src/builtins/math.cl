/* builtins/math.cl — OpenCL C math functions (spec 6.15.2) for float and double, scalar
 * and every vector width, including the half_ and native_ variants.
 *
 * Guarantees: every result is within the specification's ulp bound for the full-profile
 * (non -cl-fast-relaxed-math) case, and special values (NaN, ±0, ±inf, integers for the
 * *pi functions) follow the specification's edge-case tables.
 *
 * How: exact operations map to LLVM intrinsics through clang's elementwise builtins (ceil,
 * floor, trunc, rint, round, fabs, sqrt — correctly rounded —, copysign, fma, fmin/fmax with
 * IEEE minNum/maxNum NaN rules), so vectorizers can widen them. Transcendentals call the
 * host C library (glibc: <= 2-8 ulp for float, < 2 ulp for double, inside every OpenCL
 * bound); the JIT resolves those plain C names from the process. Functions the C library
 * lacks (sinpi, rootn, powr, ...) are built here; the float versions mostly compute in
 * double and round once, which keeps them within 1 ulp.
 */
#include "weft_builtins.h"

/* C library entry points whose names collide with OpenCL overloads are declared under other
 * names and bound to the C symbol with an asm label. */
float weft_libm_lgammaf_r(float, __private int *) __asm__("lgammaf_r");
double weft_libm_lgamma_r(double, __private int *) __asm__("lgamma_r");
float weft_libm_exp10f(float) __asm__("exp10f");
double weft_libm_exp10(double) __asm__("exp10");

/* ---- functions with an exact LLVM intrinsic ------------------------------------------------ */

#define MATH_EW(T, _)                                        \
    WEFT_EW1(T, ceil, __builtin_elementwise_ceil)            \
    WEFT_EW1(T, floor, __builtin_elementwise_floor)          \
    WEFT_EW1(T, trunc, __builtin_elementwise_trunc)          \
    WEFT_EW1(T, rint, __builtin_elementwise_rint)            \
    WEFT_EW1(T, round, __builtin_elementwise_round)          \
    WEFT_EW1(T, fabs, __builtin_elementwise_abs)             \
    WEFT_EW1(T, sqrt, __builtin_elementwise_sqrt)            \
    WEFT_EW1(T, sin, __builtin_elementwise_sin)              \
    WEFT_EW1(T, cos, __builtin_elementwise_cos)              \
    WEFT_EW1(T, tan, __builtin_elementwise_tan)              \
    WEFT_EW1(T, exp, __builtin_elementwise_exp)              \
    WEFT_EW1(T, exp2, __builtin_elementwise_exp2)            \
    WEFT_EW1(T, log, __builtin_elementwise_log)              \
    WEFT_EW1(T, log2, __builtin_elementwise_log2)            \
    WEFT_EW1(T, log10, __builtin_elementwise_log10)          \
    WEFT_EW2(T, copysign, __builtin_elementwise_copysign)    \
    WEFT_EW2(T, fmax, __builtin_elementwise_max)             \
    WEFT_EW2(T, fmin, __builtin_elementwise_min)             \
    WEFT_EW2(T, pow, __builtin_elementwise_pow)              \
    WEFT_EW3(T, fma, __builtin_elementwise_fma)
WEFT_FLOAT_TYPES(MATH_EW, _)

/* fmax/fmin with a scalar second argument */
#define MATH_MINMAX_S_N(N, T)                                                          \
    CNST T##N fmax(T##N x, T y) { return __builtin_elementwise_max(x, (T##N)(y)); }    \
    CNST T##N fmin(T##N x, T y) { return __builtin_elementwise_min(x, (T##N)(y)); }
#define MATH_MINMAX_S(T, _) WEFT_WIDTHS(MATH_MINMAX_S_N, T)
WEFT_FLOAT_TYPES(MATH_MINMAX_S, _)

/* mad: a * b + c, fused when the target has FMA (the specification lets mad pick). */
#define MATH_MAD_N(N, T) CNST T##N mad(T##N a, T##N b, T##N c) { _Pragma("clang fp contract(fast)") return a * b + c; }
#define MATH_MAD(T, _) CNST T mad(T a, T b, T c) { _Pragma("clang fp contract(fast)") return a * b + c; } \
    WEFT_WIDTHS(MATH_MAD_N, T)
WEFT_FLOAT_TYPES(MATH_MAD, _)

/* ---- C library transcendentals ------------------------------------------------------------ */

#define MATH_LIBM1(F)                                                        \
    CNST float F(float x) { return __builtin_##F##f(x); }                   \
    CNST double F(double x) { return __builtin_##F(x); }                    \
    WEFT_VEC1(float, float, F) WEFT_VEC1(double, double, F)
#define MATH_LIBM2(F)                                                        \
    CNST float F(float x, float y) { return __builtin_##F##f(x, y); }       \
    CNST double F(double x, double y) { return __builtin_##F(x, y); }       \
    WEFT_VEC2(float, float, float, F) WEFT_VEC2(double, double, double, F)

MATH_LIBM1(acos)
MATH_LIBM1(acosh)
MATH_LIBM1(asin)
MATH_LIBM1(asinh)
MATH_LIBM1(atan)
MATH_LIBM1(atanh)
MATH_LIBM1(cosh)
MATH_LIBM1(erf)
MATH_LIBM1(erfc)
MATH_LIBM1(expm1)
MATH_LIBM1(log1p)
MATH_LIBM1(logb)
MATH_LIBM1(sinh)
MATH_LIBM1(tanh)
MATH_LIBM1(tgamma)
MATH_LIBM2(atan2)
MATH_LIBM2(fmod)
MATH_LIBM2(hypot)
MATH_LIBM2(nextafter)
MATH_LIBM2(remainder)

/* cbrt: glibc's double cbrt is off by up to ~3 ulp (OpenCL allows 2): one Newton step on
 * c^3 = x with the residual formed exactly (fma) brings it under 1 ulp. Magnitudes beyond
 * 2^±900 are first scaled by 2^∓999 (a multiple of 3, exact both ways) so the step neither
 * overflows nor loses the residual (OpenCL-CTS math_brute_force cbrt at -0x1.27p+1000). */
CNST float cbrt(float x) { return __builtin_cbrtf(x); }
CNST double cbrt(double x) {
    double a = __builtin_fabs(x), s = 1.0;
    if (!(a > 0.0 && a <= 0x1.fffffffffffffp1023)) return __builtin_cbrt(x); /* 0, inf, NaN */
    if (a > 0x1p900) { x = __builtin_ldexp(x, -999); s = 0x1p333; }
    else if (a < 0x1p-900) { x = __builtin_ldexp(x, 999); s = 0x1p-333; }
    double c = __builtin_cbrt(x);
    double c2 = c * c, e2 = __builtin_fma(c, c, -c2);       /* c*c = c2 + e2 exactly */
    double res = __builtin_fma(c2, c, -x) + e2 * c;         /* c^3 - x */
    return (c - res / (3.0 * c2)) * s; }
WEFT_VEC1(float, float, cbrt)
WEFT_VEC1(double, double, cbrt)

CNST float exp10(float x) { return weft_libm_exp10f(x); }
CNST double exp10(double x) { return weft_libm_exp10(x); }
WEFT_VEC1(float, float, exp10)
WEFT_VEC1(double, double, exp10)

/* lgamma: through the reentrant C function (lgammaf writes the global signgam: a race
 * between work-items otherwise). */
CNST float lgamma(float x) { int s; return weft_libm_lgammaf_r(x, &s); }
CNST double lgamma(double x) { int s; return weft_libm_lgamma_r(x, &s); }
WEFT_VEC1(float, float, lgamma)
WEFT_VEC1(double, double, lgamma)

#define MATH_LGAMMA_R(AS, _)                                                              \
    OVL float lgamma_r(float x, AS int *sign) { int s; float r = weft_libm_lgammaf_r(x, &s); *sign = s; return r; } \
    OVL double lgamma_r(double x, AS int *sign) { int s; double r = weft_libm_lgamma_r(x, &s); *sign = s; return r; }
WEFT_PTR_SPACES(MATH_LGAMMA_R, _)
WEFT_VEC1P(float, float, int, lgamma_r)
WEFT_VEC1P(double, double, int, lgamma_r)

/* ---- simple compositions ----------------------------------------------------------------- */

/* fdim: x - y if x > y, +0 otherwise, NaN if either is NaN. */
CNST float fdim(float x, float y) { return (x != x || y != y) ? x + y : (x > y ? x - y : 0.0f); }
CNST double fdim(double x, double y) { return (x != x || y != y) ? x + y : (x > y ? x - y : 0.0); }
WEFT_VEC2(float, float, float, fdim)
WEFT_VEC2(double, double, double, fdim)

/* maxmag/minmag: by magnitude, ties and NaNs resolved by fmax/fmin. */
CNST float maxmag(float x, float y) {
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    return ax > ay ? x : ay > ax ? y : __builtin_fmaxf(x, y); }
CNST double maxmag(double x, double y) {
    double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    return ax > ay ? x : ay > ax ? y : __builtin_fmax(x, y); }
CNST float minmag(float x, float y) {
    float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
    return ax < ay ? x : ay < ax ? y : __builtin_fminf(x, y); }
CNST double minmag(double x, double y) {
    double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    return ax < ay ? x : ay < ax ? y : __builtin_fmin(x, y); }
WEFT_VEC2(float, float, float, maxmag)
WEFT_VEC2(double, double, double, maxmag)
WEFT_VEC2(float, float, float, minmag)
WEFT_VEC2(double, double, double, minmag)

/* rsqrt: two correctly rounded steps, sqrt then the division (< 1.5 ulp, bound 2), in the
 * argument's own precision: in float it stays a packet of single-precision lanes when Weft
 * vectorizes (double would halve the lanes and cost a double divide). */
CNST float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
CNST double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
WEFT_VEC1(float, float, rsqrt)
WEFT_VEC1(double, double, rsqrt)

/* ldexp: exact (llvm.ldexp). */
CNST float ldexp(float x, int n) { return __builtin_ldexpf(x, n); }
CNST double ldexp(double x, int n) { return __builtin_ldexp(x, n); }
WEFT_VEC2(float, float, int, ldexp)
WEFT_VEC2(double, double, int, ldexp)
WEFT_VEC2S(float, float, int, ldexp)
WEFT_VEC2S(double, double, int, ldexp)

/* ilogb with OpenCL's FP_ILOGB0 (INT_MIN) and FP_ILOGBNAN (INT_MAX), from the bits. */
CNST int ilogb(float x) {
    uint a = as_uint(x) & 0x7fffffffu;
    if (a == 0) return FP_ILOGB0;
    if (a > 0x7f800000u) return FP_ILOGBNAN;
    if (a == 0x7f800000u) return INT_MAX;
    if (a < 0x00800000u) return -118 - (int)__builtin_clz(a); /* subnormal: 2^-126 * a/2^23 */
    return (int)(a >> 23) - 127; }
CNST int ilogb(double x) {
    ulong a = as_ulong(x) & 0x7fffffffffffffffUL;
    if (a == 0) return FP_ILOGB0;
    if (a > 0x7ff0000000000000UL) return FP_ILOGBNAN;
    if (a == 0x7ff0000000000000UL) return INT_MAX;
    if (a < 0x0010000000000000UL) return -1011 - (int)__builtin_clzl(a);
    return (int)(a >> 52) - 1023; }
WEFT_VEC1(int, float, ilogb)
WEFT_VEC1(int, double, ilogb)

/* nan(code): a quiet NaN carrying the code in its payload. */
CNST float nan(uint c) { return as_float(0x7fc00000u | (c & 0x003fffffu)); }
CNST double nan(ulong c) { return as_double(0x7ff8000000000000UL | (c & 0x0007ffffffffffffUL)); }
WEFT_VEC1(float, uint, nan)
WEFT_VEC1(double, ulong, nan)

/* ---- functions with a pointer result ------------------------------------------------------ */

/* fract: fmin(x - floor(x), 0x1.fffffep-1f), floor(x) through iptr; inf -> ±0, NaN -> NaN. */
INLINE float weft_fractf(float x, float *ip) {
    float f = __builtin_floorf(x);
    *ip = f;
    if (x != x || x == 0.0f) return x;
    if (__builtin_isinf(x)) return __builtin_copysignf(0.0f, x);
    return __builtin_fminf(x - f, 0x1.fffffep-1f); }
INLINE double weft_fract(double x, double *ip) {
    double f = __builtin_floor(x);
    *ip = f;
    if (x != x || x == 0.0) return x;
    if (__builtin_isinf(x)) return __builtin_copysign(0.0, x);
    return __builtin_fmin(x - f, 0x1.fffffffffffffp-1); }
/* modf: integral part through iptr, fraction with x's sign (±0 for integers and inf). */
INLINE float weft_modff(float x, float *ip) {
    float t = __builtin_truncf(x);
    *ip = t;
    if (__builtin_isinf(x)) return __builtin_copysignf(0.0f, x);
    return __builtin_copysignf(x - t, x); }
INLINE double weft_modf(double x, double *ip) {
    double t = __builtin_trunc(x);
    *ip = t;
    if (__builtin_isinf(x)) return __builtin_copysign(0.0, x);
    return __builtin_copysign(x - t, x); }
/* frexp: exact (llvm.frexp). */
INLINE float weft_frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
INLINE double weft_frexp(double x, int *e) { return __builtin_frexp(x, e); }

#define MATH_PTR1(AS, _)                                                                     \
    OVL float fract(float x, AS float *p) { float t; float r = weft_fractf(x, &t); *p = t; return r; } \
    OVL double fract(double x, AS double *p) { double t; double r = weft_fract(x, &t); *p = t; return r; } \
    OVL float modf(float x, AS float *p) { float t; float r = weft_modff(x, &t); *p = t; return r; } \
    OVL double modf(double x, AS double *p) { double t; double r = weft_modf(x, &t); *p = t; return r; } \
    OVL float frexp(float x, AS int *p) { int t; float r = weft_frexpf(x, &t); *p = t; return r; } \
    OVL double frexp(double x, AS int *p) { int t; double r = weft_frexp(x, &t); *p = t; return r; }
WEFT_PTR_SPACES(MATH_PTR1, _)
WEFT_VEC1P(float, float, float, fract)
WEFT_VEC1P(double, double, double, fract)
WEFT_VEC1P(float, float, float, modf)
WEFT_VEC1P(double, double, double, modf)
WEFT_VEC1P(float, float, int, frexp)
WEFT_VEC1P(double, double, int, frexp)

/* sincos: sin returned, cos through the pointer. */
#define MATH_SINCOS(AS, _)                                                                   \
    OVL float sincos(float x, AS float *c) { *c = __builtin_cosf(x); return __builtin_sinf(x); } \
    OVL double sincos(double x, AS double *c) { *c = __builtin_cos(x); return __builtin_sin(x); }
WEFT_PTR_SPACES(MATH_SINCOS, _)
WEFT_VEC1P(float, float, float, sincos)
WEFT_VEC1P(double, double, double, sincos)

/* remquo: the IEEE remainder, and in *quo the sign of x/y with the low 7 bits of the
 * magnitude of the rounded quotient (the C library gives only 3, OpenCL requires 7).
 * x' = fmod(|x|, 128|y|) is exact and keeps the quotient's low 7 bits; the remainder of x'
 * by |y| is the remainder of x (up to sign) and (x' - r)/|y| is an integer < 129 that the
 * rounding of the division cannot move by 1/2. */
INLINE double weft_remquo(double x, double y, int *quo) {
    *quo = 0;
    if (x != x || y != y || __builtin_isinf(x) || y == 0.0) return __builtin_nan("");
    double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    double xr = ay <= 0x1p1016 ? __builtin_fmod(ax, 128.0 * ay) : ax;
    double r = __builtin_remainder(xr, ay);
    int q = (int)__builtin_rint((xr - r) / ay) & 127;
    *quo = (__builtin_signbit(x) != __builtin_signbit(y)) ? -q : q;
    return __builtin_copysign(1.0, x) * r; }
INLINE float weft_remquof(float x, float y, int *quo) {
    /* exact in double: float operands, and double has the room for the steps above */
    return (float)weft_remquo((double)x, (double)y, quo); }
#define MATH_REMQUO(AS, _)                                                                   \
    OVL float remquo(float x, float y, AS int *q) { int t; float r = weft_remquof(x, y, &t); *q = t; return r; } \
    OVL double remquo(double x, double y, AS int *q) { int t; double r = weft_remquo(x, y, &t); *q = t; return r; }
WEFT_PTR_SPACES(MATH_REMQUO, _)
WEFT_VEC2P(float, float, int, remquo)
WEFT_VEC2P(double, double, int, remquo)

/* ---- pi-scaled trigonometry -------------------------------------------------------------- */

/* sin(pi x): fmod by 2 is exact; the reduced argument r in [0, 1/2] keeps pi*r accurate. */
INLINE double weft_sinpi(double x) {
    if (x != x || __builtin_isinf(x)) return __builtin_nan("");
    double y = __builtin_fabs(x);
    double r = __builtin_fmod(y, 2.0);
    double s = __builtin_signbit(x) ? -1.0 : 1.0;
    if (r == 0.0 || r == 1.0) return __builtin_copysign(0.0, x);
    if (r > 1.0) { r -= 1.0; s = -s; }
    if (r > 0.5) r = 1.0 - r;
    return s * __builtin_sin(M_PI * r); }
/* cos(pi x): cospi(n + 1/2) = +0 */
INLINE double weft_cospi(double x) {
    if (x != x || __builtin_isinf(x)) return __builtin_nan("");
    double r = __builtin_fmod(__builtin_fabs(x), 2.0);
    double s = 1.0;
    if (r >= 1.0) { r -= 1.0; s = -s; }
    if (r > 0.5) { r = 1.0 - r; s = -s; }
    if (r == 0.5) return 0.0;
    if (r < 0.25) return s * __builtin_cos(M_PI * r);
    return s * __builtin_sin(M_PI * (0.5 - r)); }
/* tan(pi x): period 1; near the poles through 1/tan(pi (1/2 - r)) with 1/2 - r exact. */
INLINE double weft_tanpi(double x) {
    if (x != x || __builtin_isinf(x)) return __builtin_nan("");
    double y = __builtin_fabs(x);
    double r = __builtin_fmod(y, 1.0);
    double sgn = __builtin_signbit(x) ? -1.0 : 1.0;
    bool odd = __builtin_fmod(y, 2.0) >= 1.0;
    double t;
    if (r == 0.0) t = odd ? -0.0 : 0.0;
    else if (r == 0.5) t = odd ? -__builtin_inf() : __builtin_inf();
    else if (r <= 0.25) t = __builtin_tan(M_PI * r);
    else if (r < 0.5) t = 1.0 / __builtin_tan(M_PI * (0.5 - r));
    else if (r < 0.75) t = -1.0 / __builtin_tan(M_PI * (r - 0.5));
    else t = -__builtin_tan(M_PI * (1.0 - r));
    return sgn * t; }

CNST float sinpi(float x) { return (float)weft_sinpi((double)x); }
CNST double sinpi(double x) { return weft_sinpi(x); }
CNST float cospi(float x) { return (float)weft_cospi((double)x); }
CNST double cospi(double x) { return weft_cospi(x); }
CNST float tanpi(float x) { return (float)weft_tanpi((double)x); }
CNST double tanpi(double x) { return weft_tanpi(x); }
CNST float asinpi(float x) { return (float)(__builtin_asin((double)x) / M_PI); }
CNST double asinpi(double x) { return __builtin_asin(x) * M_1_PI; }
CNST float acospi(float x) { return (float)(__builtin_acos((double)x) / M_PI); }
CNST double acospi(double x) { return __builtin_acos(x) * M_1_PI; }
CNST float atanpi(float x) { return (float)(__builtin_atan((double)x) / M_PI); }
CNST double atanpi(double x) { return __builtin_atan(x) * M_1_PI; }
CNST float atan2pi(float y, float x) { return (float)(__builtin_atan2((double)y, (double)x) / M_PI); }
CNST double atan2pi(double y, double x) { return __builtin_atan2(y, x) * M_1_PI; }
WEFT_VEC1(float, float, sinpi)
WEFT_VEC1(double, double, sinpi)
WEFT_VEC1(float, float, cospi)
WEFT_VEC1(double, double, cospi)
WEFT_VEC1(float, float, tanpi)
WEFT_VEC1(double, double, tanpi)
WEFT_VEC1(float, float, asinpi)
WEFT_VEC1(double, double, asinpi)
WEFT_VEC1(float, float, acospi)
WEFT_VEC1(double, double, acospi)
WEFT_VEC1(float, float, atanpi)
WEFT_VEC1(double, double, atanpi)
WEFT_VEC2(float, float, float, atan2pi)
WEFT_VEC2(double, double, double, atan2pi)

/* ---- powers ------------------------------------------------------------------------------ */

/* pown(x, n) = x^n for integer n; pow gives exactly that set of special values, and n is
 * exact as a double. Float: one rounding of the double result. */
CNST float pown(float x, int n) { return (float)__builtin_pow((double)x, (double)n); }
CNST double pown(double x, int n) { return __builtin_pow(x, (double)n); }
WEFT_VEC2(float, float, int, pown)
WEFT_VEC2(double, double, int, pown)

/* powr(x, y) = exp2(y log2 x) for x >= 0: NaN for x < 0 and the 0^0, inf^0, 1^inf cases. */
INLINE double weft_powr(double x, double y) {
    if (x != x || y != y || x < 0.0) return __builtin_nan("");
    if (x == 0.0 && y == 0.0) return __builtin_nan("");
    if (__builtin_isinf(x) && y == 0.0) return __builtin_nan("");
    if (x == 1.0 && __builtin_isinf(y)) return __builtin_nan("");
    return __builtin_pow(x == 0.0 ? 0.0 : x, y); /* -0 counts as +0: no odd-power sign */ }
CNST float powr(float x, float y) { return (float)weft_powr((double)x, (double)y); }
CNST double powr(double x, double y) { return weft_powr(x, y); }
WEFT_VEC2(float, float, float, powr)
WEFT_VEC2(double, double, double, powr)

/* rootn(x, n) = x^(1/n): NaN for n = 0 and for x < 0 with even n. 1/n is not exact, and the
 * error of pow(x, 1/n) grows with |log x|; so |x| = m 2^(kn) is split exactly (k = e / n for
 * the binary exponent e), and x^(1/n) = m^(1/n) 2^k where |log m| < |n| log 2 keeps pow's
 * error under 2 ulp. */
INLINE double weft_rootn(double x, int n) {
    if (n == 0 || x != x) return __builtin_nan("");
    if (x < 0.0 && (n & 1) == 0) return __builtin_nan("");
    double ax = __builtin_fabs(x), r;
    if (ax == 0.0 || __builtin_isinf(ax)) r = __builtin_pow(ax, 1.0 / (double)n);
    else if (n == 1) r = ax;
    else if (n == 2) r = __builtin_sqrt(ax);
    else if (n == -1) r = 1.0 / ax;
    else {
        int e;
        __builtin_frexp(ax, &e);
        int k = e / n;
        r = __builtin_ldexp(__builtin_pow(__builtin_ldexp(ax, -k * n), 1.0 / (double)n), k);
    }
    /* odd roots keep the sign (x < 0, and -0 -> -0 or -inf); even roots of ±0 are +0/+inf */
    return (n & 1) ? __builtin_copysign(r, x) : r; }
CNST float rootn(float x, int n) { return (float)weft_rootn((double)x, n); }
CNST double rootn(double x, int n) { return weft_rootn(x, n); }
WEFT_VEC2(float, float, int, rootn)
WEFT_VEC2(double, double, int, rootn)

/* ---- half_ and native_ ------------------------------------------------------------------ */

/* half_* (8192 ulp) and native_* (implementation-defined) are served by the full-precision
 * functions: exact enough, and no slower on a CPU than a separate approximation would be,
 * except for the divisions and rsqrt, where native_ and half_ use plain float operations
 * (< 3 ulp, and they widen to vector instructions). */
#define MATH_ALIAS1(P, F)                                                          \
    CNST float P##F(float x) { return F(x); } WEFT_VEC1(float, float, P##F)
#define MATH_ALIAS2(P, F)                                                          \
    CNST float P##F(float x, float y) { return F(x, y); } WEFT_VEC2(float, float, float, P##F)
#define MATH_APPROX(P)                                                             \
    MATH_ALIAS1(P, cos) MATH_ALIAS1(P, exp) MATH_ALIAS1(P, exp2) MATH_ALIAS1(P, exp10) \
    MATH_ALIAS1(P, log) MATH_ALIAS1(P, log2) MATH_ALIAS1(P, log10)                     \
    MATH_ALIAS1(P, sin) MATH_ALIAS1(P, sqrt) MATH_ALIAS1(P, tan) MATH_ALIAS2(P, powr)  \
    CNST float P##recip(float x) { return 1.0f / x; }                              \
    CNST float P##rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }             \
    WEFT_VEC1(float, float, P##rsqrt)                                              \
    CNST float P##divide(float x, float y) { return x / y; }                       \
    WEFT_VEC1(float, float, P##recip) WEFT_VEC2(float, float, float, P##divide)
MATH_APPROX(half_)
MATH_APPROX(native_)
