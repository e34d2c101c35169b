/* compiler/analysis/cfg.h — the control-flow graph of one function as dense block numbers.
 *
 * Guarantees: every basic block of the function gets a number, `blocks[i]`, in the function's
 * block order (the entry is 0). Successor and predecessor lists are de-duplicated (a switch with
 * two cases to one block gives one edge) and kept in terminator / discovery order. `rpo` lists
 * the blocks reachable from the entry in reverse post-order (entry first; for every edge a->b
 * that is not a back edge, a comes before b); `rpo_index[i]` is the position of block i in
 * `rpo`, or -1 when block i is unreachable. Edges from unreachable blocks are kept in the lists;
 * analyses built on the CFG ignore unreachable blocks.
 * Also numbers the instructions of each block (position within its block) so dominance between
 * instructions of one block is an O(1) question.
 * The CFG is a snapshot: rebuild it after changing the function's blocks or terminators.
 */
#ifndef WEFT_ANALYSIS_CFG_H
#define WEFT_ANALYSIS_CFG_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/ptrmap.h"

struct weft_cfg {
    LLVMValueRef fn;
    size_t nblocks;
    LLVMBasicBlockRef *blocks;   /* [nblocks], function order */
    /* successors of block i: succ[succ_start[i] .. succ_start[i+1]) ; same for preds */
    uint32_t *succ_start, *succ;
    uint32_t *pred_start, *pred;
    uint32_t *rpo;               /* [nreachable] block numbers */
    size_t nreachable;
    int32_t *rpo_index;          /* [nblocks] position in rpo or -1 */
    struct weft_ptrmap block_index;  /* LLVMBasicBlockRef -> number */
    struct weft_ptrmap inst_pos;     /* instruction -> position within its block */
};

/* Builds the CFG of a function with a body; returns NULL for a declaration. */
struct weft_cfg *weft_cfg_build(LLVMValueRef fn);
void weft_cfg_free(struct weft_cfg *cfg);

/* The number of a block of this function, or -1. */
int weft_cfg_index(const struct weft_cfg *cfg, LLVMBasicBlockRef bb);
static inline size_t weft_cfg_nsucc(const struct weft_cfg *cfg, size_t i)
{
    return cfg->succ_start[i + 1] - cfg->succ_start[i];
}
static inline const uint32_t *weft_cfg_succs(const struct weft_cfg *cfg, size_t i)
{
    return cfg->succ + cfg->succ_start[i];
}
static inline size_t weft_cfg_npred(const struct weft_cfg *cfg, size_t i)
{
    return cfg->pred_start[i + 1] - cfg->pred_start[i];
}
static inline const uint32_t *weft_cfg_preds(const struct weft_cfg *cfg, size_t i)
{
    return cfg->pred + cfg->pred_start[i];
}
static inline bool weft_cfg_reachable(const struct weft_cfg *cfg, size_t i)
{
    return cfg->rpo_index[i] >= 0;
}
/* Position of an instruction within its block (0 = first), or -1 if not in this function. */
int weft_cfg_inst_pos(const struct weft_cfg *cfg, LLVMValueRef inst);
/* The block number of an instruction of this function, or -1. */
int weft_cfg_inst_block(const struct weft_cfg *cfg, LLVMValueRef inst);

#endif
