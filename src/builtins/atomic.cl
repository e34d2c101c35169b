/* builtins/atomic.cl — atomic functions and memory fences: the OpenCL 1.x atomic_* functions
 * (int, uint, float xchg), the cl_khr_{global,local}_int32_* and cl_khr_int64_* atom_*
 * functions, the OpenCL C 3.0 C11-style functions (__global, __local and __generic
 * overloads, with and without _explicit order/scope), atomic_flag_*,
 * atomic_work_item_fence and mem_fence/read_mem_fence/write_mem_fence.
 *
 * Guarantees: every read-modify-write is one LLVM atomicrmw/cmpxchg on the object (lock-free
 * on x86-64 for 32- and 64-bit types), so atomics are atomic between work-items of a group
 * and between work-groups running on different cores. The 1.x functions are sequentially
 * consistent (a locked instruction on x86 either way). The C11-style functions honour the
 * order argument; scopes are all served by the strongest (device) behaviour, which is
 * correct for every narrower scope. Barriers are not here (the work-group transformation
 * replaces them).
 */
#include "weft_builtins.h"

#define SEQ __ATOMIC_SEQ_CST

/* ---- OpenCL 1.x atomic_* and the extensions' atom_* --------------------------------------- */

#define LEGACY(P, AS, T)                                                                          \
    OVL T P##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, SEQ); }                \
    OVL T P##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, SEQ); }                \
    OVL T P##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, SEQ); }              \
    OVL T P##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, SEQ); }                  \
    OVL T P##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, SEQ); }                  \
    OVL T P##_cmpxchg(volatile AS T *p, T cmp, T val) {                                           \
        T e = cmp; __atomic_compare_exchange_n(p, &e, val, false, SEQ, SEQ); return e; }          \
    OVL T P##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, SEQ); }                \
    OVL T P##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, SEQ); }                \
    OVL T P##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, SEQ); }                \
    OVL T P##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, SEQ); }                  \
    OVL T P##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, SEQ); }
#define LEGACY_AS(AS)                                                                             \
    LEGACY(atomic, AS, int) LEGACY(atomic, AS, uint)                                              \
    LEGACY(atom, AS, int) LEGACY(atom, AS, uint) LEGACY(atom, AS, long) LEGACY(atom, AS, ulong)   \
    OVL float atomic_xchg(volatile AS float *p, float v) {                                        \
        return as_float(__atomic_exchange_n((volatile AS int *)p, as_int(v), SEQ)); }
LEGACY_AS(__global)
LEGACY_AS(__local)

/* ---- C11-style (OpenCL C 3.0) ------------------------------------------------------------- */

#if __OPENCL_C_VERSION__ >= 300

#define DEV memory_scope_device
#define SQ memory_order_seq_cst

/* A: the atomic type, C: the value type (the same but for the intptr forms). Three forms of
 * each function: implicit (seq_cst, device scope), _explicit(order), _explicit(order, scope). */
#define C11_FETCH(OP, AS, A, C, R)                                                                \
    OVL R atomic_fetch_##OP(volatile AS A *o, C v) {                                              \
        return __opencl_atomic_fetch_##OP(o, (R)v, SQ, DEV); }                                    \
    OVL R atomic_fetch_##OP##_explicit(volatile AS A *o, C v, memory_order m) {                   \
        return __opencl_atomic_fetch_##OP(o, (R)v, m, DEV); }                                     \
    OVL R atomic_fetch_##OP##_explicit(volatile AS A *o, C v, memory_order m, memory_scope s) {   \
        return __opencl_atomic_fetch_##OP(o, (R)v, m, s); }

#define C11_BASIC(AS, A, C)                                                                       \
    OVL void atomic_init(volatile AS A *o, C v) { __opencl_atomic_init(o, v); }                   \
    OVL void atomic_store(volatile AS A *o, C v) { __opencl_atomic_store(o, v, SQ, DEV); }        \
    OVL void atomic_store_explicit(volatile AS A *o, C v, memory_order m) {                       \
        __opencl_atomic_store(o, v, m, DEV); }                                                    \
    OVL void atomic_store_explicit(volatile AS A *o, C v, memory_order m, memory_scope s) {       \
        __opencl_atomic_store(o, v, m, s); }                                                      \
    OVL C atomic_load(volatile AS A *o) { return __opencl_atomic_load(o, SQ, DEV); }              \
    OVL C atomic_load_explicit(volatile AS A *o, memory_order m) {                                \
        return __opencl_atomic_load(o, m, DEV); }                                                 \
    OVL C atomic_load_explicit(volatile AS A *o, memory_order m, memory_scope s) {                \
        return __opencl_atomic_load(o, m, s); }                                                   \
    OVL C atomic_exchange(volatile AS A *o, C v) { return __opencl_atomic_exchange(o, v, SQ, DEV); } \
    OVL C atomic_exchange_explicit(volatile AS A *o, C v, memory_order m) {                       \
        return __opencl_atomic_exchange(o, v, m, DEV); }                                          \
    OVL C atomic_exchange_explicit(volatile AS A *o, C v, memory_order m, memory_scope s) {       \
        return __opencl_atomic_exchange(o, v, m, s); }                                            \
    C11_CMPXCHG(AS, A, C, __private) C11_CMPXCHG(AS, A, C, __global) C11_CMPXCHG(AS, A, C, __local) \
    C11_CMPXCHG_GENERIC(AS, A, C)

/* compare_exchange: `expected` may live in any named address space; the builtin works on a
 * private copy, written back (it holds the value seen when the exchange fails). */
#define C11_CMPXCHG_KIND(K, AS, A, C, EAS)                                                        \
    OVL bool atomic_compare_exchange_##K(volatile AS A *o, EAS C *e, C d) {                       \
        C t = *e; bool r = __opencl_atomic_compare_exchange_##K(o, &t, d, SQ, SQ, DEV);           \
        *e = t; return r; }                                                                       \
    OVL bool atomic_compare_exchange_##K##_explicit(volatile AS A *o, EAS C *e, C d,              \
                                                   memory_order ms, memory_order mf) {            \
        C t = *e; bool r = __opencl_atomic_compare_exchange_##K(o, &t, d, ms, mf, DEV);           \
        *e = t; return r; }                                                                       \
    OVL bool atomic_compare_exchange_##K##_explicit(volatile AS A *o, EAS C *e, C d,              \
                                                   memory_order ms, memory_order mf,              \
                                                   memory_scope s) {                              \
        C t = *e; bool r = __opencl_atomic_compare_exchange_##K(o, &t, d, ms, mf, s);             \
        *e = t; return r; }
#define C11_CMPXCHG(AS, A, C, EAS) C11_CMPXCHG_KIND(strong, AS, A, C, EAS) C11_CMPXCHG_KIND(weak, AS, A, C, EAS)
#ifdef __opencl_c_generic_address_space
#define C11_CMPXCHG_GENERIC(AS, A, C) C11_CMPXCHG(AS, A, C, __generic)
#else
#define C11_CMPXCHG_GENERIC(AS, A, C)
#endif

#define C11_INTEGER(AS, A, C)                                                                     \
    C11_BASIC(AS, A, C)                                                                           \
    C11_FETCH(add, AS, A, C, C) C11_FETCH(sub, AS, A, C, C) C11_FETCH(or, AS, A, C, C)            \
    C11_FETCH(xor, AS, A, C, C) C11_FETCH(and, AS, A, C, C) C11_FETCH(min, AS, A, C, C)           \
    C11_FETCH(max, AS, A, C, C)

#define C11_AS(AS)                                                                                \
    C11_INTEGER(AS, atomic_int, int) C11_INTEGER(AS, atomic_uint, uint)                           \
    C11_INTEGER(AS, atomic_long, long) C11_INTEGER(AS, atomic_ulong, ulong)                       \
    C11_BASIC(AS, atomic_float, float) C11_BASIC(AS, atomic_double, double)                       \
    /* the intptr forms: atomic_uintptr_t is atomic_ulong here, ptrdiff_t/intptr_t are long */    \
    C11_FETCH(add, AS, atomic_uintptr_t, ptrdiff_t, uintptr_t)                                    \
    C11_FETCH(sub, AS, atomic_uintptr_t, ptrdiff_t, uintptr_t)                                    \
    C11_FETCH(or, AS, atomic_uintptr_t, intptr_t, uintptr_t)                                      \
    C11_FETCH(xor, AS, atomic_uintptr_t, intptr_t, uintptr_t)                                     \
    C11_FETCH(and, AS, atomic_uintptr_t, intptr_t, uintptr_t)                                     \
    C11_FETCH(min, AS, atomic_uintptr_t, intptr_t, uintptr_t)                                     \
    C11_FETCH(or, AS, atomic_intptr_t, uintptr_t, intptr_t)                                       \
    C11_FETCH(xor, AS, atomic_intptr_t, uintptr_t, intptr_t)                                      \
    C11_FETCH(and, AS, atomic_intptr_t, uintptr_t, intptr_t)                                      \
    C11_FETCH(min, AS, atomic_intptr_t, uintptr_t, intptr_t)                                      \
    /* atomic_flag: an atomic_int holding 0 (clear) or 1 (set) */                                \
    OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *f) {                               \
        return __opencl_atomic_exchange((volatile AS atomic_int *)f, 1, SQ, DEV) != 0; }          \
    OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *f, memory_order m) {      \
        return __opencl_atomic_exchange((volatile AS atomic_int *)f, 1, m, DEV) != 0; }           \
    OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *f, memory_order m,        \
                                               memory_scope s) {                                  \
        return __opencl_atomic_exchange((volatile AS atomic_int *)f, 1, m, s) != 0; }             \
    OVL void atomic_flag_clear(volatile AS atomic_flag *f) {                                      \
        __opencl_atomic_store((volatile AS atomic_int *)f, 0, SQ, DEV); }                         \
    OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *f, memory_order m) {             \
        __opencl_atomic_store((volatile AS atomic_int *)f, 0, m, DEV); }                          \
    OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *f, memory_order m, memory_scope s) { \
        __opencl_atomic_store((volatile AS atomic_int *)f, 0, m, s); }
C11_AS(__global)
C11_AS(__local)
#ifdef __opencl_c_generic_address_space
C11_AS(__generic)   /* what OpenCL C 3.0 programs call when the generic space is supported */
#endif

/* A fence orders this work-item's accesses; memory_order_relaxed orders nothing. */
OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order m, memory_scope s)
{
    if (flags != 0 && m != memory_order_relaxed)
        __atomic_thread_fence(m);
}

#endif

/* ---- 1.x fences ---------------------------------------------------------------------------- */

/* mem_fence orders loads and stores (on x86 only store->load needs an instruction, which
 * seq_cst gives); read_mem_fence orders loads (acquire), write_mem_fence stores (release). */
OVL void mem_fence(cl_mem_fence_flags flags) { if (flags) __atomic_thread_fence(__ATOMIC_SEQ_CST); }
OVL void read_mem_fence(cl_mem_fence_flags flags) { if (flags) __atomic_thread_fence(__ATOMIC_ACQUIRE); }
OVL void write_mem_fence(cl_mem_fence_flags flags) { if (flags) __atomic_thread_fence(__ATOMIC_RELEASE); }
