/* compiler/analysis/dominators.h — dominator and post-dominator trees (Cooper, Harvey and
 * Kennedy, "A Simple, Fast Dominance Algorithm"), dominance queries and dominance frontiers.
 *
 * Guarantees: for the dominator tree, `idom[i]` is the immediate dominator of reachable block i,
 * -1 for the entry and for unreachable blocks. For the post-dominator tree the graph is the
 * reverse CFG with a virtual exit node numbered `cfg->nblocks` (WEFT_DOM_VIRTUAL_EXIT(t)) whose
 * predecessors are every block without successors (ret, unreachable), in a sub-CFG every block
 * with an edge out of it (cfg.h), and, so that every reachable block has a post-dominator, one
 * block of every region that cannot reach an exit (an infinite loop): the last such block in RPO. `idom[i]` is then the immediate
 * post-dominator, possibly the virtual exit; `idom[virtual exit]` is -1. Only blocks reachable
 * from the entry take part in either tree.
 * Dominance queries are O(1) after construction (tree pre/post numbering). Frontiers are
 * computed with the tree and sorted by node number.
 */
#ifndef WEFT_ANALYSIS_DOMINATORS_H
#define WEFT_ANALYSIS_DOMINATORS_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/analysis/cfg.h"

struct weft_domtree {
    const struct weft_cfg *cfg;
    bool post;
    size_t nnodes;           /* nblocks, +1 for the virtual exit of a post-dominator tree */
    int32_t *idom;           /* [nnodes] */
    uint32_t *dfs_in, *dfs_out;   /* tree numbering: a dom b iff in[a] <= in[b] && out[b] <= out[a] */
    /* children of node i in the tree: child[child_start[i] .. child_start[i+1]) in node order */
    uint32_t *child_start, *child;
    /* frontiers: front[front_start[i] .. front_start[i+1]) */
    uint32_t *front_start, *front;
};

#define WEFT_DOM_VIRTUAL_EXIT(t) ((int)(t)->cfg->nblocks)

struct weft_domtree *weft_dom_compute(const struct weft_cfg *cfg);
struct weft_domtree *weft_postdom_compute(const struct weft_cfg *cfg);
void weft_dom_free(struct weft_domtree *t);

/* Whether node a (post-)dominates node b (reflexive). False if either is not in the tree. */
bool weft_dom_dominates(const struct weft_domtree *t, int a, int b);
bool weft_dom_strictly_dominates(const struct weft_domtree *t, int a, int b);
/* Same on blocks. */
bool weft_dom_dominates_block(const struct weft_domtree *t, LLVMBasicBlockRef a, LLVMBasicBlockRef b);
/* Whether instruction `def` dominates instruction `user` in a dominator tree (not post):
 * same block -> def comes first; otherwise block dominance. For a phi user, use
 * weft_dom_dominates_use, which checks the incoming edge's block instead. */
bool weft_dom_dominates_inst(const struct weft_domtree *t, LLVMValueRef def, LLVMValueRef user);
/* Whether `def` dominates the use of operand `op` of `user` (for a phi: the end of the
 * corresponding incoming block). Arguments and constants dominate everything. */
bool weft_dom_dominates_use(const struct weft_domtree *t, LLVMValueRef def, LLVMValueRef user, unsigned op);
/* The immediate (post-)dominator, or -1. */
static inline int weft_dom_idom(const struct weft_domtree *t, int i) { return t->idom[i]; }
/* Nearest common (post-)dominator of two nodes in the tree, or -1. */
int weft_dom_nearest_common(const struct weft_domtree *t, int a, int b);
/* Dominance frontier of node i (for a post-dominator tree: the post-dominance frontier, i.e.
 * the blocks whose branches decide whether i runs). Sets *n. */
const uint32_t *weft_dom_frontier(const struct weft_domtree *t, int i, size_t *n);

#endif
