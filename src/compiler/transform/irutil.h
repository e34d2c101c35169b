/* compiler/transform/irutil.h — small IR helpers the work-group passes share, over LLVM-C
 * (which has no block splitting, cloning or value maps of its own).
 *
 * Contains: recognition of the OpenCL work-item functions and barriers by mangled name, block
 * splitting that keeps successor PHIs right, a PHI incoming-block rewrite, and a value map
 * (pointer -> pointer) used for cloning. Nothing here prints or aborts.
 */
#ifndef WEFT_TRANSFORM_IRUTIL_H
#define WEFT_TRANSFORM_IRUTIL_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/ptrmap.h"

enum weft_wi_kind {
    WEFT_WI_NONE = 0,
    WEFT_WI_LOCAL_ID,
    WEFT_WI_GLOBAL_ID,
    WEFT_WI_GROUP_ID,
    WEFT_WI_LOCAL_SIZE,
    WEFT_WI_ENQUEUED_LOCAL_SIZE,
    WEFT_WI_GLOBAL_SIZE,
    WEFT_WI_NUM_GROUPS,
    WEFT_WI_WORK_DIM,
    WEFT_WI_GLOBAL_OFFSET,
    WEFT_WI_GLOBAL_LINEAR_ID,
    WEFT_WI_LOCAL_LINEAR_ID,
    WEFT_WI_BARRIER,          /* barrier / work_group_barrier (any overload) */
    WEFT_WI_IMPLICIT_BARRIER, /* the marker canonicalization inserts at entry and exit */
};

/* Name of the marker function for implicit barriers (a declaration; never survives the
 * work-group transformation). */
#define WEFT_IMPLICIT_BARRIER_NAME "__weft_implicit_barrier"

/* The name (and its length) of the function `call` calls directly; NULL when `call` is not a
 * call instruction or calls through a pointer or inline assembly. */
const char *weft_direct_callee_name(LLVMValueRef call, size_t *len);
/* What work-item function (or barrier) `call` calls; WEFT_WI_NONE for anything else. */
enum weft_wi_kind weft_wi_call_kind(LLVMValueRef call);
static inline bool weft_wi_is_barrier_kind(enum weft_wi_kind k)
{
    return k == WEFT_WI_BARRIER || k == WEFT_WI_IMPLICIT_BARRIER;
}
/* A canonical barrier block: a barrier call followed directly by its terminator. */
bool weft_is_barrier_block(LLVMBasicBlockRef bb);

/* Moves `inst` and everything after it in its block into a new block placed right after it,
 * ends the old block with `br new`, and retargets successor PHIs. Returns the new block. */
LLVMBasicBlockRef weft_split_block_before(LLVMValueRef inst, const char *name);
/* Moves `inst` (keeping its name) to the builder's position. */
void weft_move_instruction(LLVMBuilderRef b, LLVMValueRef inst);
/* In every PHI at the top of `bb`, incoming block `from` becomes `to`. */
void weft_phis_replace_incoming_block(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to);

/* Blocks of a function in layout order (malloc'd; *n receives the count). */
LLVMBasicBlockRef *weft_function_blocks(LLVMValueRef fn, unsigned *n);

/* Declares (or finds) `void name()` in `m`. */
LLVMValueRef weft_get_void_fn(LLVMModuleRef m, const char *name);

/* The LLVM MemoryEffects value of a call (call site first, then the callee's declaration):
 * two bits per location, argmem (bits 0-1), inaccessiblemem (2-3), other (4-5). False when
 * neither says anything (the call may touch any memory). */
bool weft_call_memory_effects(LLVMValueRef call, LLVMValueRef callee, uint64_t *effects);
/* Whether a call may be duplicated, moved past memory accesses or run more often: it touches no
 * memory (memory(none): llvm.fmuladd, readnone builtins) and is not convergent (barriers and
 * sub-group functions stay where they are). */
bool weft_call_is_pure(LLVMValueRef call);

/* The OpenCL address space a pointer addresses (fake address-space map: 0 private, 1 global,
 * 2 constant, 3 local, 4 generic): its own, except that a generic pointer computed only by
 * GEPs and casts from a pointer of a named space addresses that space (what the frontend
 * makes of a named pointer passed to a function taking an unqualified pointer, once inlined).
 * A generic pointer of unknown origin stays 4. */
unsigned weft_pointer_space(LLVMValueRef p);
/* The object a pointer points into: p under its GEPs, bitcasts and address-space casts (a kernel
 * argument, usually), so that two accesses of one array name the same object. */
LLVMValueRef weft_pointer_object(LLVMValueRef p);

/* A constant i64. */
LLVMValueRef weft_i64(LLVMContextRef c, uint64_t v);

/* Pointer -> pointer map for cloning and lookups, over util/ptrmap.h. */
struct weft_vmap {
    struct weft_ptrmap m;
};
static inline void weft_vmap_init(struct weft_vmap *v) { weft_ptrmap_init(&v->m); }
static inline void weft_vmap_free(struct weft_vmap *v) { weft_ptrmap_free(&v->m); }
/* false only when memory runs out */
static inline bool weft_vmap_put(struct weft_vmap *v, const void *key, void *val)
{
    weft_ptrmap_put(&v->m, key, (uintptr_t)val);
    return weft_ptrmap_get(&v->m, key, NULL);
}
static inline void *weft_vmap_get(const struct weft_vmap *v, const void *key)
{
    return key ? (void *)weft_ptrmap_get_or(&v->m, key, 0) : NULL;
}

#endif
