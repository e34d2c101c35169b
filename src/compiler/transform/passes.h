/* compiler/transform/passes.h — the passes behind weft_build_wg_function, one file each, and the
 * state they share: the "work function" being transformed.
 *
 * The pipeline (wgfunction.c runs it; weft-opt can stop after any stage):
 *   1. workfn.c     weft_workfn_create: weft_wi_<k>(kernel params..., ptr ctx, i64 gx, gy, gz),
 *                   one work-group's worth of the kernel: the kernel and every function it calls
 *                   inlined into it (barriers in called functions become visible).
 *      deadloops.c  weft_delete_dead_loops: then loops that only count to their end go.
 *   2. workitem.c   weft_workitem_lower: group ids, sizes, offsets, work_dim become parameters,
 *                   constants (the specialized local size) or ctx loads (tagged
 *                   !invariant.load); global ids and linear ids are rewritten over
 *                   get_local_id, which stays as the per-work-item placeholder.
 *      wgcollective.c weft_lower_wg_collectives: then each work-group collective function
 *                   (work_group_reduce_add, ...) becomes stores, two barriers and a leader
 *                   working in the first bytes of ctx->scratch.
 *      barrierloops.c weft_unroll_barrier_loops: then loops around barriers whose trip count
 *                   the constants now fix (a tree over the local size) are unrolled.
 *      rowunroll.c  weft_unroll_row_walks: then, for a vectorized variant, counted loops in
 *                   which each work-item walks a row of its own are unrolled by 8.
 *   3. barriers.c   weft_canonicalize_barriers: every barrier alone in its block, implicit entry
 *                   and exit barriers, a block of its own for the allocas.
 *   4. locals.c     weft_locals_layout: __local variables (addrspace(3) globals) become offsets in
 *                   ctx->local_mem.
 *   5. subcfg.c     weft_subcfgs_form: barrier ids and the barrier-free sub-CFGs.
 *   6. demote.c     weft_demote_values: (only with more than one sub-CFG) PHIs and values used
 *                   outside their block go through stack slots, so blocks can be cloned freely;
 *                   the shape analysis (analysis/shape.h) of each demoted value is recorded.
 *   7. privatize.c  weft_privatize: slots and private variables used in more than one sub-CFG:
 *                   uniform -> one scalar slot, affine with a constant stride -> uniform base +
 *                   recomputation, otherwise a work-item-indexed array in ctx->scratch
 *                   (element-interleaved when every access is a whole scalar element, so that
 *                   neighbouring work-items' copies of one element are neighbours in memory);
 *                   for a vectorized build, affine slots of one sub-CFG get a uniform base too.
 *   8. wgloops.c    weft_wgloops_build: one work-item loop nest per sub-CFG (dimension 0
 *                   innermost, llvm.loop.parallel_accesses on it), a dispatcher switch on the next
 *                   barrier id, get_local_id replaced by the loop variables. Dimension 0 of a
 *                   sub-CFG that the vectorizer accepts (vectorize.h) runs in packets of
 *                   work-items instead.
 *      localatomics.c weft_lower_local_atomics: then atomics on __local memory become plain
 *                   read-modify-write sequences (a work-group runs on one thread).
 *   9. wgfunction.c the ABI wrapper weft_wg_<k>(args, ctx, first_group, group_count).
 */
#ifndef WEFT_TRANSFORM_PASSES_H
#define WEFT_TRANSFORM_PASSES_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/diag.h"
#include "util/ptrmap.h"

struct weft_subcfg {
    int id;                        /* id of the barrier that starts it (0 = kernel entry) */
    LLVMBasicBlockRef barrier;     /* that barrier block */
    LLVMBasicBlockRef entry;       /* first block (the barrier's successor) */
    LLVMBasicBlockRef *blocks;     /* every block of the sub-CFG, entry first */
    unsigned nblocks;
};

#define WEFT_SUBCFG_EXIT_ID (-1)

struct weft_subcfgs {
    unsigned count;
    struct weft_subcfg *s;         /* s[i].id == i */
    LLVMBasicBlockRef exit_barrier;
    LLVMBasicBlockRef *barriers;   /* barriers[id] for ids 0..count-1 */
};

/* What privatization may do with a stack slot that demotion made for a value (from the shape
 * analysis of the value before demotion). */
enum weft_slot_shape { WEFT_SLOT_VARYING = 0, WEFT_SLOT_UNIFORM, WEFT_SLOT_AFFINE };
struct weft_slot_info {
    enum weft_slot_shape shape;
    int dim;               /* AFFINE: local-id dimension */
    int64_t stride;        /* AFFINE: constant stride (bytes for pointers) */
    bool uniform_base;     /* AFFINE, set by privatize: the slot now holds the uniform base
                              (value - stride * lid) and every reload recomputes the value */
};

/* The work function under transformation. */
struct weft_shapes;
struct weft_vec_report;

struct weft_workfn {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMValueRef kernel;           /* the original kernel (left untouched) */
    LLVMValueRef fn;               /* weft_wi_<kernel> */
    unsigned nparams;              /* the kernel's parameter count; ctx and group ids follow */
    uint64_t local_size[3];
    LLVMTypeRef ctx_type;          /* struct weft_wg_ctx as an LLVM struct */
    uint64_t static_local_size;    /* set by weft_locals_layout */
    uint64_t scratch_size;         /* set by weft_privatize */
    LLVMValueRef scratch_base;     /* set by weft_privatize: its load of ctx->scratch, the base of the
                                    * work-items' private copies (NULL: none) */
    unsigned privatized;           /* how many slots/variables became scratch arrays */
    unsigned uniform_slots;        /* cross-sub-CFG values kept in one scalar slot */
    unsigned recomputed;           /* affine cross-sub-CFG values recomputed from a uniform base */
    bool affine_slot_bases;        /* set before privatize for a vectorized build: affine values
                                    * demoted within one sub-CFG get a uniform base too */
    unsigned affine_bases;         /* how many such values privatize gave one */
    struct weft_ptrmap slot_info;  /* demoted slot -> struct weft_slot_info * (owned) */
    struct weft_ptrmap demoted;    /* every stack slot demotion created (-> 1) */
    /* uniform slots carried around a barrier, double-buffered by privatize: every work-item
     * reads `cur` and writes `next`; once sub-CFG `subcfg` has run for every work-item,
     * wgloops copies `next` to `cur` (Kim's uniform update hoisted out of the work-item loop) */
    struct weft_slot_commit {
        unsigned subcfg;
        LLVMValueRef cur, next;
        LLVMTypeRef type;
    } *commits;
    unsigned ncommits;
    struct weft_subcfgs subcfgs;   /* set by weft_subcfgs_form */
    /* vectorization across work-items (vectorize.h), read by wgloops */
    unsigned vec_width;            /* W lanes; 0 or 1: every sub-CFG keeps its scalar loop */
    unsigned vec_interleave;       /* U packets side by side; 0: the cost model chooses */
    bool vec_sub_groups;           /* the kernel's sub-groups are the packets' W-lane groups
                                      (transform/subgroup.h): packets of at least W lanes */
    const struct weft_shapes *vec_shapes;   /* the function before wgloops, focused on dim 0 */
    struct weft_vec_report *vec_reports;    /* [subcfgs.count], owned by the caller */
};

static inline LLVMValueRef weft_workfn_ctx(const struct weft_workfn *wf)
{
    return LLVMGetParam(wf->fn, wf->nparams);
}
static inline LLVMValueRef weft_workfn_group_id(const struct weft_workfn *wf, unsigned d)
{
    return LLVMGetParam(wf->fn, wf->nparams + 1 + d);
}
static inline uint64_t weft_workfn_local_total(const struct weft_workfn *wf)
{
    return wf->local_size[0] * wf->local_size[1] * wf->local_size[2];
}

/* The LLVM type of struct weft_wg_ctx (weft/abi.h). */
LLVMTypeRef weft_ctx_type(LLVMContextRef c);
/* Loads field `field` (WEFT_CTX_FIELD_*), element `idx` for the 3-wide fields, at `b`. */
LLVMValueRef weft_ctx_load(LLVMBuilderRef b, const struct weft_workfn *wf, unsigned field, LLVMValueRef idx);

bool weft_workfn_create(struct weft_workfn *wf, LLVMModuleRef m, LLVMValueRef kernel,
                        const uint64_t local_size[3], struct weft_diag *diag);
void weft_workfn_dispose(struct weft_workfn *wf);   /* frees analysis state, not the IR */
/* Marks every call of a defined function in `fn` always-inline and inlines, until none is
 * left; fails on recursion. */
bool weft_inline_all_calls(LLVMModuleRef m, LLVMValueRef fn, struct weft_diag *diag);
/* Deletes the loops of `fn` that provably end and do nothing else (deadloops.c says which);
 * returns how many. */
unsigned weft_delete_dead_loops(LLVMValueRef fn);

/* get_local_id(d) placeholder call (constant 0 when that dimension's local size is 1), and the
 * linear local id over those placeholders. */
LLVMValueRef weft_build_local_id(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d);
LLVMValueRef weft_build_local_linear_id(LLVMBuilderRef b, struct weft_workfn *wf);

bool weft_workitem_lower(struct weft_workfn *wf, struct weft_diag *diag);
bool weft_locals_layout(struct weft_workfn *wf, struct weft_diag *diag);
/* Metadata kind on a terminator of a sub-CFG whose work is all done by the work-item of linear
 * local id 0 (a work-group collective's leader, wgcollective.c): wgloops runs such a sub-CFG
 * once per work-group, as that work-item, instead of in a work-item loop. */
#define WEFT_ONCE_MD "weft.work_group.once"
/* Before barriers are canonical and before privatize (wgcollective.c says what it builds);
 * reserves its bytes at the start of ctx->scratch in wf->scratch_size. */
bool weft_lower_wg_collectives(struct weft_workfn *wf, struct weft_diag *diag);
/* Works on any function returning void (weft-opt runs it on the kernel itself). */
/* Unrolls, in `fn`, the innermost loops that hold a barrier and run a number of times known at
 * compile time (at most 16; barrierloops.c says which), each step a copy of the body; returns
 * how many loops it unrolled. */
unsigned weft_unroll_barrier_loops(LLVMValueRef fn);
/* Unrolls, in `fn`, by `count`, the innermost counted loops in which each work-item reads a row
 * of its own (rowunroll.c says which), for the vectorizer's row groups; returns how many. */
#define WEFT_ROW_UNROLL 8
unsigned weft_unroll_row_walks(LLVMValueRef fn, unsigned count);
bool weft_canonicalize_barriers(LLVMValueRef fn, struct weft_diag *diag);
/* Needs canonical barriers. Names barrier blocks "barrier<id>" for readable output. */
bool weft_subcfgs_form(LLVMValueRef fn, struct weft_subcfgs *out, struct weft_diag *diag);
void weft_subcfgs_free(struct weft_subcfgs *s);
/* `shapes` (may be NULL) describes fn before demotion; then each slot made for a uniform value,
 * or an affine one with a constant stride, is recorded in wf->slot_info. */
bool weft_demote_values(struct weft_workfn *wf, const struct weft_shapes *shapes, struct weft_diag *diag);
bool weft_privatize(struct weft_workfn *wf, struct weft_diag *diag);
/* Atomic read-modify-writes, compare-exchanges, loads and stores on addrspace(3) in fn become
 * plain ones (localatomics.c says why that is right); returns how many RMWs were rewritten. */
unsigned weft_lower_local_atomics(LLVMValueRef fn);
/* Whether privatize lays the work-items' copies of alloca `a` out element by element (element
 * e of every work-item side by side: work-item w's copy of element e at (e * local size + w) *
 * element size) rather than one whole copy after another: `a` holds scalars or (nested) arrays
 * of one scalar type, and is only loaded and stored as that type, directly or through one GEP
 * over arrays of it. A packet of work-items then reads element e with one vector access. */
bool weft_privatize_interleaved(LLVMValueRef a);
/* The sub-CFGs (bit i: sub-CFG i, i < 63) that can branch to their own starting barrier, i.e.
 * run again (a barrier in a loop): a variable they use may live from one run to the next. */
uint64_t weft_subcfgs_reentering(const struct weft_subcfgs *sc);
bool weft_wgloops_build(struct weft_workfn *wf, struct weft_diag *diag);

#endif
