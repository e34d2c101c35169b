/* builtins/common.cl — OpenCL C common (6.15.4), geometric (6.15.5) and relational (6.15.6)
 * functions.
 *
 * Guarantees: common and relational functions follow the specification's definitions
 * exactly, with the vector rule for relational results (-1 for true in every component,
 * 1 for a true scalar). Geometric functions on float compute in double and round once (no
 * overflow or underflow of the intermediate sum of squares); double versions scale by a
 * power of two first, so length/normalize of huge or tiny vectors stay accurate.
 */
#include "weft_builtins.h"

/* Widths including the scalar (empty N). */
#define WEFT_WIDTHS1(M, ...) M(, __VA_ARGS__) WEFT_WIDTHS(M, __VA_ARGS__)

/* ---- common ------------------------------------------------------------------------------ */

#define COMMON_N(N, T)                                                                     \
    CNST T##N clamp(T##N x, T##N lo, T##N hi) {                                            \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi); }          \
    CNST T##N degrees(T##N r) { return (T##N)(180.0 / M_PI) * r; }                         \
    CNST T##N radians(T##N d) { return (T##N)(M_PI / 180.0) * d; }                         \
    CNST T##N max(T##N x, T##N y) { return __builtin_elementwise_max(x, y); }              \
    CNST T##N min(T##N x, T##N y) { return __builtin_elementwise_min(x, y); }              \
    CNST T##N mix(T##N x, T##N y, T##N a) { return x + (y - x) * a; }                      \
    CNST T##N step(T##N edge, T##N x) { return x < edge ? (T##N)(0.0) : (T##N)(1.0); }     \
    CNST T##N smoothstep(T##N e0, T##N e1, T##N x) {                                       \
        T##N t = clamp((x - e0) / (e1 - e0), (T##N)(0.0), (T##N)(1.0));                   \
        return t * t * ((T##N)(3.0) - (T##N)(2.0) * t); }                                  \
    CNST T##N sign(T##N x) {                                                               \
        return x > (T##N)(0.0) ? (T##N)(1.0)                                               \
             : x < (T##N)(0.0) ? (T##N)(-1.0) : x == x ? x : (T##N)(0.0); }
/* the overloads whose later arguments are scalars */
#define COMMON_S_N(N, T)                                                                   \
    CNST T##N clamp(T##N x, T lo, T hi) { return clamp(x, (T##N)(lo), (T##N)(hi)); }       \
    CNST T##N max(T##N x, T y) { return __builtin_elementwise_max(x, (T##N)(y)); }         \
    CNST T##N min(T##N x, T y) { return __builtin_elementwise_min(x, (T##N)(y)); }         \
    CNST T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)(a)); }                    \
    CNST T##N step(T edge, T##N x) { return step((T##N)(edge), x); }                       \
    CNST T##N smoothstep(T e0, T e1, T##N x) { return smoothstep((T##N)(e0), (T##N)(e1), x); }
#define COMMON(T, _) WEFT_WIDTHS1(COMMON_N, T) WEFT_WIDTHS(COMMON_S_N, T)
WEFT_FLOAT_TYPES(COMMON, _)
#ifdef cl_khr_fp16
COMMON(half, _)
#endif

/* ---- relational -------------------------------------------------------------------------- */

/* C comparison operators already give 1/0 for scalars and -1/0 in the right integer type
 * for vectors (int for float, long for double). */
#define REL_N(N, T, I, FMIN)                                                               \
    CNST I##N isequal(T##N x, T##N y) { return x == y; }                                   \
    CNST I##N isnotequal(T##N x, T##N y) { return x != y; }                                \
    CNST I##N isgreater(T##N x, T##N y) { return x > y; }                                  \
    CNST I##N isgreaterequal(T##N x, T##N y) { return x >= y; }                            \
    CNST I##N isless(T##N x, T##N y) { return x < y; }                                     \
    CNST I##N islessequal(T##N x, T##N y) { return x <= y; }                               \
    CNST I##N islessgreater(T##N x, T##N y) { return (x < y) || (x > y); }                 \
    CNST I##N isordered(T##N x, T##N y) { return (x == x) && (y == y); }                   \
    CNST I##N isunordered(T##N x, T##N y) { return (x != x) || (y != y); }                 \
    CNST I##N isfinite(T##N x) { return __builtin_elementwise_abs(x) < (T##N)(INFINITY); } \
    CNST I##N isinf(T##N x) { return __builtin_elementwise_abs(x) == (T##N)(INFINITY); }   \
    CNST I##N isnan(T##N x) { return x != x; }                                             \
    CNST I##N isnormal(T##N x) {                                                           \
        T##N a = __builtin_elementwise_abs(x);                                             \
        return (a >= (T##N)(FMIN)) && (a < (T##N)(INFINITY)); }
WEFT_WIDTHS(REL_N, float, int, FLT_MIN)
WEFT_WIDTHS(REL_N, double, long, DBL_MIN)
/* scalar double relationals return int, not long */
REL_N(, float, int, FLT_MIN)
REL_N(, double, int, DBL_MIN)
#ifdef cl_khr_fp16
WEFT_WIDTHS(REL_N, half, short, HALF_MIN)
REL_N(, half, int, HALF_MIN)
CNST int signbit(half x) { return as_short(x) < 0; }
#define REL_SIGNBIT_H_N(N, _) CNST short##N signbit(half##N x) { return as_short##N(x) < (short##N)(0); }
WEFT_WIDTHS(REL_SIGNBIT_H_N, _)
#endif

CNST int signbit(float x) { return as_int(x) < 0; }
CNST int signbit(double x) { return as_long(x) < 0; }
#define REL_SIGNBIT_N(N, _)                                                                \
    CNST int##N signbit(float##N x) { return as_int##N(x) < (int##N)(0); }                 \
    CNST long##N signbit(double##N x) { return as_long##N(x) < (long##N)(0); }
WEFT_WIDTHS(REL_SIGNBIT_N, _)

/* any/all: the most significant bit of any/all components (signed integer types only). */
#define REL_ANYALL_N(N, T)                                                                 \
    CNST int any(T##N x) { int r = 0; for (int i = 0; i < N; i++) r |= x[i] < 0; return r; } \
    CNST int all(T##N x) { int r = 1; for (int i = 0; i < N; i++) r &= x[i] < 0; return r; }
#define REL_ANYALL(T, _)                                                                   \
    CNST int any(T x) { return x < 0; }                                                    \
    CNST int all(T x) { return x < 0; }                                                    \
    WEFT_WIDTHS(REL_ANYALL_N, T)
REL_ANYALL(char, _)
REL_ANYALL(short, _)
REL_ANYALL(int, _)
REL_ANYALL(long, _)

/* bitselect: each bit from b where c has a 1, from a where it has a 0. */
#define REL_BITSELECT_INT_N(N, T) \
    CNST T##N bitselect(T##N a, T##N b, T##N c) { return (a & ~c) | (b & c); }
#define REL_BITSELECT_INT(T, _) WEFT_WIDTHS1(REL_BITSELECT_INT_N, T)
WEFT_INT_TYPES(REL_BITSELECT_INT, _)
#define REL_BITSELECT_FP_N(N, T, I)                                                        \
    CNST T##N bitselect(T##N a, T##N b, T##N c) {                                          \
        I##N ia = as_##I##N(a), ib = as_##I##N(b), ic = as_##I##N(c);                      \
        return as_##T##N((I##N)((ia & ~ic) | (ib & ic))); }
WEFT_WIDTHS1(REL_BITSELECT_FP_N, float, uint)
WEFT_WIDTHS1(REL_BITSELECT_FP_N, double, ulong)
#ifdef cl_khr_fp16
WEFT_WIDTHS1(REL_BITSELECT_FP_N, half, ushort)
#endif

/* select: scalars pick b when c != 0; vectors pick per component by the MSB of c. */
#define REL_SELECT_N(N, T, S, U)                                                           \
    CNST T##N select(T##N a, T##N b, S##N c) { return c < (S##N)(0) ? b : a; }             \
    CNST T##N select(T##N a, T##N b, U##N c) { return as_##S##N(c) < (S##N)(0) ? b : a; }
#define REL_SELECT(T, S, U)                                                                \
    CNST T select(T a, T b, S c) { return c ? b : a; }                                     \
    CNST T select(T a, T b, U c) { return c ? b : a; }                                     \
    WEFT_WIDTHS(REL_SELECT_N, T, S, U)
REL_SELECT(char, char, uchar)
REL_SELECT(uchar, char, uchar)
REL_SELECT(short, short, ushort)
REL_SELECT(ushort, short, ushort)
REL_SELECT(int, int, uint)
REL_SELECT(uint, int, uint)
REL_SELECT(long, long, ulong)
REL_SELECT(ulong, long, ulong)
REL_SELECT(float, int, uint)
REL_SELECT(double, long, ulong)
#ifdef cl_khr_fp16
REL_SELECT(half, short, ushort)
#endif

/* ---- geometric --------------------------------------------------------------------------- */

/* Per width N (1..4), with P(i) the i-th component. Float: everything in double. */

/* The sum of the squares of v * 2^-e, e the exponent of the largest |component| m > 0: the
 * power-of-two scaling is exact, and the squares neither overflow nor underflow. */
INLINE double weft_scaled_sumsq_d(const double *v, int n, int e)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double t = __builtin_ldexp(v[i], -e);
        s += t * t;
    }
    return s;
}

/* The largest |component|, or NaN when one is NaN (infinities are the callers'). */
INLINE double weft_max_abs_d(const double *v, int n)
{
    double m = 0.0;
    bool nan = false;
    for (int i = 0; i < n; i++) {
        double a = __builtin_fabs(v[i]);
        nan |= a != a;
        m = a > m ? a : m;
    }
    return nan ? __builtin_nan("") : m;
}

INLINE double weft_len_d(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (__builtin_isinf(v[i])) return __builtin_inf();
    double m = weft_max_abs_d(v, n);
    if (m != m || m == 0.0) return m;
    int e = __builtin_ilogb(m);
    return __builtin_ldexp(__builtin_sqrt(weft_scaled_sumsq_d(v, n, e)), e);
}

/* normalize with the specification's special cases: zero vectors come back unchanged,
 * infinite components become ±1 and the others 0 before normalizing. The scaled vector is
 * divided by its own length, so vectors whose length overflows (components near DBL_MAX)
 * still normalize. */
INLINE void weft_normalize_d(double *v, int n)
{
    bool inf = false;
    for (int i = 0; i < n; i++) inf |= __builtin_isinf(v[i]);
    if (inf)
        for (int i = 0; i < n; i++)
            v[i] = __builtin_copysign(__builtin_isinf(v[i]) ? 1.0 : 0.0, v[i]);
    double m = weft_max_abs_d(v, n);
    if (m == 0.0) return;
    if (m != m) {
        for (int i = 0; i < n; i++) v[i] = m;
        return;
    }
    int e = __builtin_ilogb(m);
    double l = __builtin_sqrt(weft_scaled_sumsq_d(v, n, e));
    for (int i = 0; i < n; i++) v[i] = __builtin_ldexp(v[i], -e) / l;
}

#define GEOM_VEC(N, T)                                                                     \
    CNST T dot(T##N p, T##N q) { T s = 0; for (int i = 0; i < N; i++) s += p[i] * q[i]; return s; } \
    CNST T length(T##N p) { double v[N]; for (int i = 0; i < N; i++) v[i] = p[i]; return (T)weft_len_d(v, N); } \
    CNST T distance(T##N p, T##N q) { return length(p - q); }                              \
    CNST T##N normalize(T##N p) {                                                          \
        double v[N]; for (int i = 0; i < N; i++) v[i] = p[i];                             \
        bool zero = true; for (int i = 0; i < N; i++) zero &= v[i] == 0.0;                 \
        if (zero) return p;                                                                \
        weft_normalize_d(v, N);                                                            \
        T##N r; for (int i = 0; i < N; i++) r[i] = (T)v[i]; return r; }
GEOM_VEC(2, float)
GEOM_VEC(3, float)
GEOM_VEC(4, float)
GEOM_VEC(2, double)
GEOM_VEC(3, double)
GEOM_VEC(4, double)
#ifdef cl_khr_fp16
GEOM_VEC(2, half)
GEOM_VEC(3, half)
GEOM_VEC(4, half)
#endif

#define GEOM_SCALAR(T)                                                                     \
    CNST T dot(T p, T q) { return p * q; }                                                 \
    CNST T length(T p) { return __builtin_elementwise_abs(p); }                            \
    CNST T distance(T p, T q) { return __builtin_elementwise_abs(p - q); }                 \
    CNST T normalize(T p) {                                                                \
        if (p != p || p == (T)0) return p;                                                 \
        return __builtin_elementwise_copysign((T)1, p); }
GEOM_SCALAR(float)
GEOM_SCALAR(double)
#ifdef cl_khr_fp16
GEOM_SCALAR(half)
#endif

/* cross: the w component of the 4-wide form is 0. */
#define GEOM_CROSS(T)                                                                      \
    CNST T##3 cross(T##3 a, T##3 b) {                                                      \
        return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); } \
    CNST T##4 cross(T##4 a, T##4 b) {                                                      \
        return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, (T)0); }
GEOM_CROSS(float)
GEOM_CROSS(double)
#ifdef cl_khr_fp16
GEOM_CROSS(half)
#endif

/* fast_*: float only; the accurate forms cost little more on a CPU. */
CNST float fast_length(float p) { return length(p); }
CNST float fast_distance(float p, float q) { return distance(p, q); }
CNST float fast_normalize(float p) { return normalize(p); }
#define GEOM_FAST(N)                                                                       \
    CNST float fast_length(float##N p) { return length(p); }                               \
    CNST float fast_distance(float##N p, float##N q) { return distance(p, q); }            \
    CNST float##N fast_normalize(float##N p) { return normalize(p); }
GEOM_FAST(2)
GEOM_FAST(3)
GEOM_FAST(4)
