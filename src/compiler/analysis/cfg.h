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
 *
 * Sub-CFG mode (weft_cfg_build_sub): the graph of a subset of a function's blocks, such as one
 * barrier-free sub-CFG (transform/subcfg.c) that the vectorizer runs for a packet of
 * work-items. `blocks` are the given ones in the given order, the first being the entry; only
 * edges between them are successors and predecessors. An edge that leaves the set is an exit
 * edge: `exits` lists the distinct blocks outside that the set branches to, in block order and
 * then terminator order, and `exit_start`/`exit` give each block's exit edges (indices into
 * `exits`, de-duplicated, in terminator order). Dominators and loops work on either kind of CFG
 * unchanged; the post-dominator tree treats a block with an exit edge like one without
 * successors (its virtual exit stands for every way out). In function mode there are no exit
 * edges (`nexits` is 0).
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
    /* sub-CFG mode: edges that leave the block set (function mode: none) */
    bool sub;
    LLVMBasicBlockRef *exits;    /* [nexits] distinct blocks outside, in discovery order */
    size_t nexits;
    uint32_t *exit_start, *exit; /* exit edges of block i: exit[exit_start[i] .. exit_start[i+1]) */
};

/* Builds the CFG of a function with a body; returns NULL for a declaration. */
struct weft_cfg *weft_cfg_build(LLVMValueRef fn);
/* Builds the CFG of the sub-CFG made of `blocks[0..n)` of `fn` (blocks[0] its entry; see
 * "Sub-CFG mode" above); NULL when n is 0. */
struct weft_cfg *weft_cfg_build_sub(LLVMValueRef fn, LLVMBasicBlockRef const *blocks, size_t n);
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
/* Exit edges of block i (indices into cfg->exits); none in function mode. */
static inline size_t weft_cfg_nexit(const struct weft_cfg *cfg, size_t i)
{
    return cfg->exit_start[i + 1] - cfg->exit_start[i];
}
static inline const uint32_t *weft_cfg_exit_edges(const struct weft_cfg *cfg, size_t i)
{
    return cfg->exit + cfg->exit_start[i];
}
/* The index of an outside block in cfg->exits, or -1. */
int weft_cfg_exit_index(const struct weft_cfg *cfg, LLVMBasicBlockRef bb);
static inline bool weft_cfg_reachable(const struct weft_cfg *cfg, size_t i)
{
    return cfg->rpo_index[i] >= 0;
}
/* Position of an instruction within its block (0 = first), or -1 if not in this function. */
int weft_cfg_inst_pos(const struct weft_cfg *cfg, LLVMValueRef inst);
/* The block number of an instruction of this function, or -1. */
int weft_cfg_inst_block(const struct weft_cfg *cfg, LLVMValueRef inst);

#endif
