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

#endif
