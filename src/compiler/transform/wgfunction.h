/* compiler/transform/wgfunction.h — the whole kernel -> work-group function transformation
 * (barrier canonicalization, sub-CFGs, privatization, work-item loops, __local layout),
 * the one entry point the compiler driver (compiler/specialize.c) calls.
 *
 * Assumes: `kernel` is a function of `m` (the OpenCL kernel as clang emitted it, with the
 * builtin library linked and every call inlined) in which the only calls left that matter are
 * the work-item functions and barriers, by their Itanium-mangled OpenCL names:
 *   _Z13get_global_idj _Z12get_local_idj _Z12get_group_idj _Z14get_local_sizej
 *   _Z15get_global_sizej _Z14get_num_groupsj _Z12get_work_dimv _Z17get_global_offsetj
 *   _Z23get_enqueued_local_sizej _Z20get_global_linear_idv _Z19get_local_linear_idv
 *   _Z7barrierj _Z18work_group_barrierj _Z18work_group_barrierj12memory_scope
 * and __local variables are module globals in address space 3 used only by this kernel.
 *
 * Guarantees: a new function named `weft_wg_<kernel name>` with the ABI of weft/abi.h that
 * runs `group_count` work-groups from `first_group`, for the local size given (the variant is
 * specialized for it); it unpacks the argument block (offsets per weft/abi.h) itself. The
 * original kernel is left in place (the caller removes it). Returns false with a message in
 * `diag` when the kernel cannot be transformed (e.g. a barrier in divergent control flow that
 * cannot be proven uniform is still accepted; irreducible control flow around a barrier is not).
 */
#ifndef WEFT_TRANSFORM_WGFUNCTION_H
#define WEFT_TRANSFORM_WGFUNCTION_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/diag.h"
#include "compiler/transform/schedule.h"
#include "compiler/transform/vectorize.h"

struct weft_wg_options {
    uint64_t local_size[3];      /* the specialized local size (1 for unused dimensions) */
    unsigned vector_width;       /* lanes per packet for the vectorizer; 0 or 1: off */
    unsigned interleave;         /* packets side by side; 0: chosen by the cost model */
    enum weft_schedule_mode schedule;   /* which loops run breadth-first (schedule.h); 0: none */
    unsigned sub_group_cap;      /* 0, or the sub-group size of the launch's full work-groups:
                                    this variant (a remainder group) may not have larger ones,
                                    and get_max_sub_group_size reports it (subgroup.h) */
};

struct weft_wg_result {
    LLVMValueRef fn;             /* weft_wg_<kernel> */
    uint64_t static_local_size;  /* bytes of the kernel's own __local variables in the arena */
    uint64_t scratch_size;       /* bytes of per-work-group private scratch (privatized values) */
    /* what the transformation did, for `weft explain` and WEFT_LOG */
    unsigned subcfg_count;       /* barrier-free sub-CFGs (1 = no barriers): one loop nest each */
    unsigned privatized_arrays;  /* values/private variables given a work-item-indexed array */
    unsigned uniform_slots;      /* cross-barrier values kept in one scalar slot (uniform) */
    unsigned recomputed;         /* cross-barrier affine values recomputed from a uniform base */
    unsigned affine_bases;       /* affine values of one sub-CFG given a uniform base for the vectorizer */
    struct weft_schedule_report schedule;   /* which loops were scheduled breadth-first */
    unsigned sub_group_width;    /* the sub-group size S: W when the kernel's sub-groups are
                                    the vectorizer's W-lane groups, else 1 (subgroup.h) */
    bool uses_sub_groups;        /* the kernel calls sub-group built-ins */
    struct weft_vec_report *vec; /* [subcfg_count] what the vectorizer did per sub-CFG (NULL when
                                    it was off); free with weft_wg_result_dispose */
    bool schedule_fell_back;     /* breadth-first scheduling left invalid IR (a bug): these
                                    are the depth-first loops */
    bool vectorization_skipped;  /* the vectorized function passed the size bound: these are the
                                    scalar work-item loops, and vec[*].reason says so */
};

void weft_wg_result_dispose(struct weft_wg_result *r);

/* Per-argument facts the packing needs: index i of the kernel's parameters. */
enum weft_arg_kind { WEFT_ARG_BY_VALUE, WEFT_ARG_GLOBAL_PTR, WEFT_ARG_CONSTANT_PTR, WEFT_ARG_LOCAL_PTR };

bool weft_build_wg_function(LLVMModuleRef m, LLVMValueRef kernel, const struct weft_wg_options *opts,
                            struct weft_wg_result *out, struct weft_diag *diag);

/* The pipeline's stages, for tools that look at the IR in between (weft-opt). Stopping before
 * WEFT_WG_STAGE_ALL leaves the intermediate work function weft_wi_<kernel> (the kernel's
 * parameters, then ptr ctx, i64 gx, gy, gz) in the module and sets out->fn to it. */
enum weft_wg_stage {
    WEFT_WG_STAGE_WORKFN,       /* kernel and its callees inlined into the work function */
    WEFT_WG_STAGE_WORKITEM,     /* work-item functions lowered (get_local_id remains) */
    WEFT_WG_STAGE_COLLECTIVES,  /* work-group collectives lowered to barriers and a leader */
    WEFT_WG_STAGE_BARRIERS,     /* barriers canonicalized */
    WEFT_WG_STAGE_LOCALS,       /* __local variables laid out in ctx->local_mem */
    WEFT_WG_STAGE_SUBCFGS,      /* sub-CFGs formed (blocks named barrier<i>); values demoted */
    WEFT_WG_STAGE_PRIVATIZE,    /* cross-sub-CFG state in ctx->scratch arrays */
    WEFT_WG_STAGE_WGLOOPS,      /* work-item loop nests and the dispatcher */
    WEFT_WG_STAGE_ALL,          /* the ABI function weft_wg_<kernel>, work function inlined */
};

bool weft_build_wg_function_until(LLVMModuleRef m, LLVMValueRef kernel, const struct weft_wg_options *opts,
                                  enum weft_wg_stage last, struct weft_wg_result *out,
                                  struct weft_diag *diag);

#endif
