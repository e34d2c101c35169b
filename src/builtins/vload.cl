/* builtins/vload.cl — vector data load and store functions (spec 6.15.7): vloadn/vstoren,
 * vload_half[n], vloada_half[n], vstore_half[n] and vstorea_half[n] with every rounding mode.
 *
 * Guarantees: vloadn/vstoren need only the element alignment (the access goes through an
 * under-aligned vector type, so the backend never emits an aligned vector move on an
 * unaligned address) and the 3-wide forms touch exactly three elements. Half conversions
 * are exact bit manipulations: half to float is exact; float and double to half round once,
 * directly from the source value (no double rounding through float), in the requested mode,
 * with overflow, subnormals, infinities and NaNs as IEEE 754 defines them. vstore_half
 * without a suffix rounds to nearest even (the default rounding mode).
 */
#include "weft_builtins.h"

/* ---- vloadn / vstoren -------------------------------------------------------------------- */

#define VL_TYPEDEF_N(N, T) typedef T##N weft_##T##N##_u __attribute__((aligned(sizeof(T))));
#define VL_TYPEDEFS(T, _) VL_TYPEDEF_N(2, T) VL_TYPEDEF_N(4, T) VL_TYPEDEF_N(8, T) VL_TYPEDEF_N(16, T)
WEFT_ALL_TYPES(VL_TYPEDEFS, _)

#define VL_LOAD_N(N, AS, T)                                                                \
    OVL T##N vload##N(size_t o, const AS T *p) { return *(const AS weft_##T##N##_u *)(p + o * N); }
#define VL_STORE_N(N, AS, T)                                                               \
    OVL void vstore##N(T##N v, size_t o, AS T *p) { *(AS weft_##T##N##_u *)(p + o * N) = v; }
#define VL_LOAD_AS(AS, T)                                                                  \
    VL_LOAD_N(2, AS, T) VL_LOAD_N(4, AS, T) VL_LOAD_N(8, AS, T) VL_LOAD_N(16, AS, T)       \
    OVL T##3 vload3(size_t o, const AS T *p) { p += o * 3; return (T##3)(p[0], p[1], p[2]); }
#define VL_STORE_AS(AS, T)                                                                 \
    VL_STORE_N(2, AS, T) VL_STORE_N(4, AS, T) VL_STORE_N(8, AS, T) VL_STORE_N(16, AS, T)   \
    OVL void vstore3(T##3 v, size_t o, AS T *p) { p += o * 3; p[0] = v.x; p[1] = v.y; p[2] = v.z; }
#define VL_ALL(T, _)                                                                       \
    VL_LOAD_AS(__private, T) VL_LOAD_AS(__global, T) VL_LOAD_AS(__local, T)                \
    VL_LOAD_AS(__constant, T)                                                              \
    VL_STORE_AS(__private, T) VL_STORE_AS(__global, T) VL_STORE_AS(__local, T)            \
    WEFT_GENERIC_SPACE(VL_LOAD_AS, T) WEFT_GENERIC_SPACE(VL_STORE_AS, T)
WEFT_ALL_TYPES(VL_ALL, _)
#ifdef cl_khr_fp16
VL_TYPEDEFS(half, _)
VL_ALL(half, _)
#endif

/* ---- vload_half, vloada_half ------------------------------------------------------------- */

#define VH_LOAD_N(N, AS, A, STRIDE)                                                        \
    OVL float##N vload##A##_half##N(size_t o, const AS half *p) {                          \
        const AS ushort *q = (const AS ushort *)p + o * STRIDE;                            \
        float##N r; for (int i = 0; i < N; i++) r[i] = weft_half_to_float(q[i]); return r; }
#define VH_LOAD_AS(AS, _)                                                                  \
    OVL float vload_half(size_t o, const AS half *p) {                                     \
        return weft_half_to_float(((const AS ushort *)p)[o]); }                            \
    VH_LOAD_N(2, AS, , 2) VH_LOAD_N(3, AS, , 3) VH_LOAD_N(4, AS, , 4)                      \
    VH_LOAD_N(8, AS, , 8) VH_LOAD_N(16, AS, , 16)                                          \
    VH_LOAD_N(2, AS, a, 2) VH_LOAD_N(3, AS, a, 4) VH_LOAD_N(4, AS, a, 4)                   \
    VH_LOAD_N(8, AS, a, 8) VH_LOAD_N(16, AS, a, 16)
VH_LOAD_AS(__private, _)
VH_LOAD_AS(__global, _)
VH_LOAD_AS(__local, _)
VH_LOAD_AS(__constant, _)
WEFT_GENERIC_SPACE(VH_LOAD_AS, _)

/* ---- vstore_half, vstorea_half ----------------------------------------------------------- */

#define VH_STORE1(AS, T, SUF, MODE)                                                        \
    OVL void vstore_half##SUF(T v, size_t o, AS half *p) {                                 \
        ((AS ushort *)p)[o] = weft_double_to_half((double)v, MODE); }
#define VH_STORE_N(N, AS, T, A, STRIDE, SUF, MODE)                                         \
    OVL void vstore##A##_half##N##SUF(T##N v, size_t o, AS half *p) {                      \
        AS ushort *q = (AS ushort *)p + o * STRIDE;                                        \
        for (int i = 0; i < N; i++) q[i] = weft_double_to_half((double)v[i], MODE); }
#define VH_STORE_MODE(AS, T, SUF, MODE)                                                    \
    VH_STORE1(AS, T, SUF, MODE)                                                            \
    VH_STORE_N(2, AS, T, , 2, SUF, MODE) VH_STORE_N(3, AS, T, , 3, SUF, MODE)              \
    VH_STORE_N(4, AS, T, , 4, SUF, MODE) VH_STORE_N(8, AS, T, , 8, SUF, MODE)              \
    VH_STORE_N(16, AS, T, , 16, SUF, MODE)                                                 \
    VH_STORE_N(2, AS, T, a, 2, SUF, MODE) VH_STORE_N(3, AS, T, a, 4, SUF, MODE)            \
    VH_STORE_N(4, AS, T, a, 4, SUF, MODE) VH_STORE_N(8, AS, T, a, 8, SUF, MODE)            \
    VH_STORE_N(16, AS, T, a, 16, SUF, MODE)
#define VH_STORE_AS(AS, T)                                                                 \
    VH_STORE_MODE(AS, T, , WEFT_RTE) VH_STORE_MODE(AS, T, _rte, WEFT_RTE)                  \
    VH_STORE_MODE(AS, T, _rtz, WEFT_RTZ) VH_STORE_MODE(AS, T, _rtp, WEFT_RTP)              \
    VH_STORE_MODE(AS, T, _rtn, WEFT_RTN)
#define VH_STORE(T, _) VH_STORE_AS(__private, T) VH_STORE_AS(__global, T) VH_STORE_AS(__local, T) \
    WEFT_GENERIC_SPACE(VH_STORE_AS, T)
WEFT_FLOAT_TYPES(VH_STORE, _)
