/* compiler/analysis/locality.h — Kim's locality-centric classification of the memory accesses
 * in a kernel's loops, and the per-loop vote between depth-first order (DFO: each work-item runs
 * the whole loop before the next starts, what a work-item loop around the region gives) and
 * breadth-first order (BFO: all work-items run iteration k before any runs k+1).
 *
 * For every natural loop, each load and store whose innermost loop it is gets two stride
 * classes, in units of the accessed element:
 *   - along the loop: L0 (same address every iteration), L1 (next element), LX (anything else);
 *   - along the work-items of each dimension d: W0, W1, WX (consecutive local ids in d).
 * Strides come from a small factorizing evaluator (expr = s*v + rest) seeded with the loop's
 * induction variables (header phis stepping by a constant) or with get_local_id(d) /
 * get_global_id(d). Only strides 0 and +-1 element are told apart; any other constant or a
 * symbolic coefficient is X; a loaded value varies (X) in every dimension its address does.
 * The approximate rules (the default; Kim §3.3.4) call `b % N`, `b / N`, `b & C`, `b >> C` of a
 * stride-1 b stride 1, and a phi/select of a stride-0 and a stride-1 value stride 1; the
 * precise mode calls them X.
 * Accesses to private memory (allocas) and to __local memory (address space 3) do not vote:
 * neither leaves the first-level cache whatever the order.
 *
 * Table 3.1 votes per access and per dimension in use: W0L1, W0LX, W1LX vote BFO; W1L0, WXL0,
 * WXL1 vote DFO; the diagonal is neutral. A loop prefers BFO when its BFO votes, summed over the
 * dimensions in use, outnumber its DFO votes (a tie, 0-0 included, is DFO). Each loop decides
 * for itself (inner loops first in priority: an inner loop's accesses vote only there).
 *
 * Whether BFO can be implemented by scheduling barriers at the top of the loop header is judged
 * on the whole work-group's shapes: not when the loop already contains a barrier (it already
 * runs breadth-first), nor when its header depends on more than one divergent branch. A loop
 * that only some work-items enter (one divergent `guard`) or whose trip count differs between
 * work-items (`divergent`) needs the predicated form (transform/schedule.h).
 */
#ifndef WEFT_ANALYSIS_LOCALITY_H
#define WEFT_ANALYSIS_LOCALITY_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/analysis/loops.h"

enum weft_stride_class { WEFT_STRIDE_0, WEFT_STRIDE_1, WEFT_STRIDE_X };

struct weft_access_locality {
    LLVMValueRef inst;                   /* the load or store */
    enum weft_stride_class loop;         /* L0 / L1 / LX */
    enum weft_stride_class wi[3];        /* W0 / W1 / WX per dimension */
};

struct weft_loop_locality {
    int loop;                            /* index in weft_locality.loops->loops */
    LLVMBasicBlockRef header;
    struct weft_access_locality *accesses;
    size_t naccesses;
    unsigned bfo[3], dfo[3], neutral[3]; /* votes per dimension (dimensions in use only) */
    unsigned votes_bfo, votes_dfo, votes_neutral;   /* summed over the dimensions in use */
    bool prefers_bfo;                    /* votes_bfo > votes_dfo */
    bool divergent;                      /* work-items may run different iteration counts */
    bool has_barrier;                    /* it contains a barrier (explicit or implicit) */
    unsigned guards;                     /* divergent branches deciding whether it runs */
    LLVMBasicBlockRef guard;             /* the one such branch's block, when guards == 1 */
    const char *not_schedulable;         /* NULL when BFO can be implemented; else why not */
};

struct weft_locality {
    struct weft_cfg *cfg;
    struct weft_domtree *dom;
    struct weft_loops *loops;
    bool dim_used[3];                    /* dimensions whose work-items are told apart */
    size_t count;                        /* == loops->count */
    struct weft_loop_locality *loop;     /* [count], in the order of loops->loops */
};

/* `local_size` (NULL when unknown): dimensions of size 1 are not in use; when NULL, a dimension
 * is in use when the kernel asks for its local or global id. `approximate`: Kim's approximate
 * stride rules (default) or the precise ones. NULL for a declaration. */
struct weft_locality *weft_locality_compute(LLVMValueRef fn, const uint64_t local_size[3], bool approximate);
void weft_locality_free(struct weft_locality *l);

/* "L0", "W1", ... */
const char *weft_stride_class_name(char axis, enum weft_stride_class c);

#endif
