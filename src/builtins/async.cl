/* builtins/async.cl — async_work_group_copy, async_work_group_strided_copy,
 * wait_group_events and prefetch (spec 6.15.11).
 *
 * Guarantees: the copy is done synchronously and cooperatively — work-item l of a group of
 * L copies elements l, l + L, l + 2L, ... — so every element is copied exactly once when
 * all work-items of the group reach the call with the same arguments (which the
 * specification requires). wait_group_events is a work-group barrier with local and global
 * fences, so after it every work-item sees the whole copy; it calls barrier() itself, and
 * the work-group transformation sees that call once the builtin is inlined. The event
 * returned is the one passed in (the copy is already complete; a 0 event stays 0).
 * prefetch is a hint: one prefetch of the first cache line.
 */
#include "weft_builtins.h"

INLINE size_t weft_local_linear_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0)
           + get_local_id(0);
}
INLINE size_t weft_local_linear_size(void)
{
    return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ASYNC_DIR(T, D, S)                                                                     \
    OVL event_t async_work_group_copy(D T *dst, const S T *src, size_t n, event_t e) {         \
        size_t l = weft_local_linear_id(), L = weft_local_linear_size();                       \
        for (size_t i = l; i < n; i += L) dst[i] = src[i];                                     \
        return e; }
#define ASYNC_T(T)                                                                             \
    ASYNC_DIR(T, __local, __global) ASYNC_DIR(T, __global, __local)                            \
    OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n, \
                                              size_t stride, event_t e) {                      \
        size_t l = weft_local_linear_id(), L = weft_local_linear_size();                       \
        for (size_t i = l; i < n; i += L) dst[i] = src[i * stride];                            \
        return e; }                                                                            \
    OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n, \
                                              size_t stride, event_t e) {                      \
        size_t l = weft_local_linear_id(), L = weft_local_linear_size();                       \
        for (size_t i = l; i < n; i += L) dst[i * stride] = src[i];                            \
        return e; }                                                                            \
    OVL void prefetch(const __global T *p, size_t n) { if (n) __builtin_prefetch((const __global void *)p); }
#define ASYNC_N(N, T) ASYNC_T(T##N)
#define ASYNC(T, _) ASYNC_T(T) WEFT_WIDTHS(ASYNC_N, T)
WEFT_ALL_TYPES(ASYNC, _)
#ifdef cl_khr_fp16
ASYNC(half, _)
#endif

/* explicitly private: with the generic address space an unqualified pointer would be generic,
 * and that overload is generic_cl20.cl's */
OVL void wait_group_events(int n, __private event_t *events)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
