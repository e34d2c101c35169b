/* compiler/analysis/liveness.h — SSA liveness of instruction values per block, and the values
 * live across barrier-style cut points.
 *
 * Tracked values: every non-void instruction of the function (arguments, globals and constants
 * are available everywhere and never need saving, so they are not tracked). Values are
 * numbered in function order (`values[k]`).
 * Semantics (standard for SSA): a phi's incoming value is used at the end of its incoming block
 * (live-out there), not at the start of the phi's block; a phi is defined at the start of its
 * block, so it is never live-in of its own block.
 *   live_in(B)  = upward-exposed non-phi uses of B  +  (live_out(B) - defs(B))
 *   live_out(B) = union over successors S of  live_in(S) + {phi operands of S coming from B}
 * Only blocks reachable from the entry take part; phi operands from unreachable predecessors
 * are ignored.
 */
#ifndef WEFT_ANALYSIS_LIVENESS_H
#define WEFT_ANALYSIS_LIVENESS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "compiler/analysis/cfg.h"
#include "util/bitset.h"
#include "util/ptrmap.h"
#include "util/vec.h"

struct weft_liveness {
    const struct weft_cfg *cfg;
    size_t nvalues;
    LLVMValueRef *values;            /* [nvalues], function order */
    struct weft_ptrmap value_index;  /* value -> k */
    struct weft_bitset *live_in;     /* [cfg->nblocks] sets over value numbers */
    struct weft_bitset *live_out;
};

typedef WEFT_VEC(LLVMValueRef) weft_value_vec;

struct weft_liveness *weft_liveness_compute(const struct weft_cfg *cfg);
void weft_liveness_free(struct weft_liveness *l);

/* The number of a tracked value, or -1. */
int weft_liveness_index(const struct weft_liveness *l, LLVMValueRef v);
bool weft_liveness_is_live_in(const struct weft_liveness *l, LLVMBasicBlockRef bb, LLVMValueRef v);
bool weft_liveness_is_live_out(const struct weft_liveness *l, LLVMBasicBlockRef bb, LLVMValueRef v);
/* Values live immediately before instruction `inst` (a non-phi instruction: for a phi the
 * answer is the block's live-in plus the phis before it). Written into `out` (cleared first;
 * one bit per value number; `out` must have been initialized with nvalues bits). */
void weft_liveness_live_before(const struct weft_liveness *l, LLVMValueRef inst, struct weft_bitset *out);
/* Barrier privatization: given blocks that each begin (after their phis) with a barrier, the
 * values that must survive some barrier — defined before it and used after it — i.e. the union
 * over the cut blocks of the values live just before the first non-phi instruction (which
 * includes the cut block's own phis when they are used). Appended to `out` in function order,
 * each once. Unreachable cut blocks contribute nothing. */
void weft_liveness_live_across(const struct weft_liveness *l, const LLVMBasicBlockRef *cuts, size_t ncuts,
                               weft_value_vec *out);

#endif
