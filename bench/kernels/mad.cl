/* clpeak-shaped compute kernels (clpeak's compute_sp/dp/integer): per work-item two variables in
 * one long dependent chain, x = mad(y, x, y); y = mad(x, y, x); 64 x 16 = 1024 mads per lane,
 * the result written once. Only vectorizing and interleaving across work-items can keep the
 * FMA pipes full. Widths 1, 2, 4, 8, 16 of float, double and uint (the mad_int* kernels; integer
 * multiply-add wraps around, as in clpeak): lane l of work-item i computes element
 * j = vec_step(T) * i + l, exactly what the scalar kernel computes for work-item j, so every
 * width checks against the same native reference (bench/b_micro.c).
 * Floating point starts in (-1, 0)^2, where the chain stays bounded (it creeps towards 0) and
 * rounding errors shrink instead of growing. */
#define MAD16(x, y, MAD) \
    x = MAD(y, x, y); y = MAD(x, y, x); x = MAD(y, x, y); y = MAD(x, y, x); \
    x = MAD(y, x, y); y = MAD(x, y, x); x = MAD(y, x, y); y = MAD(x, y, x); \
    x = MAD(y, x, y); y = MAD(x, y, x); x = MAD(y, x, y); y = MAD(x, y, x); \
    x = MAD(y, x, y); y = MAD(x, y, x); x = MAD(y, x, y); y = MAD(x, y, x);
#define IMAD(a, b, c) ((a) * (b) + (c))

/* the element indices of this work-item's lanes, as uint, uint2, ... uint16 */
#define IOTA_uint 0u
#define IOTA_uint2 (uint2)(0, 1)
#define IOTA_uint4 (uint4)(0, 1, 2, 3)
#define IOTA_uint8 (uint8)(0, 1, 2, 3, 4, 5, 6, 7)
#define IOTA_uint16 (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define LANES(U) ((U)((uint)get_global_id(0) * (uint)vec_step(U)) + IOTA_##U)

#define MAD_KERNEL(NAME, T, U, MAD, X0, Y0, RESULT)  \
    kernel void NAME(global T *out)                  \
    {                                                \
        U j = LANES(U);                              \
        T x = X0, y = Y0;                            \
        for (int k = 0; k < 64; k++) {               \
            MAD16(x, y, MAD)                         \
        }                                            \
        out[get_global_id(0)] = RESULT;              \
    }

/* x0 in [-0.76, -0.25], y0 = -1 - x0 */
#define MAD_REAL(T, U, S) \
    MAD_KERNEL(mad_##T, T, U, mad, (S)-0.25 - (S)0.0005 * convert_##T(j & 1023u), (S)-1 - x, x + y)
#define MAD_UINT(NAME, U) MAD_KERNEL(NAME, U, U, IMAD, j, ~j, x ^ y)

MAD_REAL(float, uint, float)
MAD_REAL(float2, uint2, float)
MAD_REAL(float4, uint4, float)
MAD_REAL(float8, uint8, float)
MAD_REAL(float16, uint16, float)

MAD_UINT(mad_int, uint)
MAD_UINT(mad_int2, uint2)
MAD_UINT(mad_int4, uint4)
MAD_UINT(mad_int8, uint8)
MAD_UINT(mad_int16, uint16)

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
MAD_REAL(double, uint, double)
MAD_REAL(double2, uint2, double)
MAD_REAL(double4, uint4, double)
MAD_REAL(double8, uint8, double)
MAD_REAL(double16, uint16, double)
#endif
