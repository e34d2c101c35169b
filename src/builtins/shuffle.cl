/* builtins/shuffle.cl — shuffle and shuffle2 (spec 6.15.10 "Miscellaneous vector
 * functions") for every element type and every pair of widths 2, 4, 8, 16.
 *
 * Guarantees: component i of the result is x[mask[i] mod N] (shuffle) or, with the 2N
 * components of x then y, (x,y)[mask[i] mod 2N] (shuffle2): only the low bits the
 * specification names are used, so any mask value is safe.
 */
#include "weft_builtins.h"

#define SHUF(N, M, T, U)                                                                      \
    CNST T##M shuffle(T##N x, U##M mask) {                                                    \
        T##M r; for (int i = 0; i < M; i++) r[i] = x[mask[i] & (N - 1)]; return r; }          \
    CNST T##M shuffle2(T##N x, T##N y, U##M mask) {                                           \
        T##M r;                                                                               \
        for (int i = 0; i < M; i++) {                                                         \
            U k = mask[i] & (2 * N - 1);                                                      \
            r[i] = k < N ? x[k] : y[k - N];                                                   \
        }                                                                                     \
        return r; }
#define SHUF_M(N, T, U) SHUF(N, 2, T, U) SHUF(N, 4, T, U) SHUF(N, 8, T, U) SHUF(N, 16, T, U)
#define SHUF_T(T, U) SHUF_M(2, T, U) SHUF_M(4, T, U) SHUF_M(8, T, U) SHUF_M(16, T, U)
SHUF_T(char, uchar)
SHUF_T(uchar, uchar)
SHUF_T(short, ushort)
SHUF_T(ushort, ushort)
SHUF_T(int, uint)
SHUF_T(uint, uint)
SHUF_T(long, ulong)
SHUF_T(ulong, ulong)
SHUF_T(float, uint)
SHUF_T(double, ulong)
#ifdef cl_khr_fp16
SHUF_T(half, ushort)
#endif
