/* compiler/analysis/loops.h — natural loops (from back edges a->h where h dominates a), their
 * nesting, headers, latches, exiting and exit blocks and depths.
 *
 * Guarantees: one loop per header (back edges to one header merge into one loop). `loops` are
 * ordered by header RPO position, so a loop comes before every loop nested in it. Every loop's
 * `blocks` are sorted by RPO position, header first; `latches` (sources of back edges),
 * `exiting` (blocks in the loop with a successor outside), `exits` (blocks outside the loop with
 * a predecessor inside) are sorted by block number. `parent` is the innermost enclosing loop or
 * -1; depth 1 is outermost. `innermost[b]` is the innermost loop containing block b or -1.
 * A retreating edge whose target does not dominate its source makes `irreducible` true; such
 * cycles are not reported as loops (run LLVM's "fix-irreducible" first when that matters).
 * On a sub-CFG's CFG (cfg.h) the loops are those of the sub-CFG: `exits` are blocks of the
 * sub-CFG only, and a loop that leaves the sub-CFG through an exit edge has that block among its
 * `exiting` blocks.
 */
#ifndef WEFT_ANALYSIS_LOOPS_H
#define WEFT_ANALYSIS_LOOPS_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "util/bitset.h"

struct weft_loop {
    uint32_t header;
    int parent;          /* index in weft_loops.loops, or -1 */
    int depth;           /* 1 = outermost */
    uint32_t *blocks; size_t nblocks;
    uint32_t *latches; size_t nlatches;
    uint32_t *exiting; size_t nexiting;
    uint32_t *exits; size_t nexits;
};

struct weft_loops {
    const struct weft_cfg *cfg;
    const struct weft_domtree *dom;
    struct weft_loop *loops;
    size_t count;
    int32_t *innermost;  /* [cfg->nblocks] */
    bool irreducible;
    struct weft_bitset *members;   /* [count] block sets, for weft_loop_contains */
};

struct weft_loops *weft_loops_compute(const struct weft_cfg *cfg, const struct weft_domtree *dom);
void weft_loops_free(struct weft_loops *l);

/* Whether loop `loop` contains block b (also through nested loops). */
bool weft_loop_contains(const struct weft_loops *l, int loop, int b);
/* Loop depth of block b (0 = in no loop). */
int weft_loops_depth(const struct weft_loops *l, int b);
/* The loop whose header is b, or -1. */
int weft_loops_with_header(const struct weft_loops *l, int b);
/* The loop's preheader: the header's only predecessor outside the loop, provided the header is
 * its only successor; -1 otherwise (run "loop-simplify" to get one). */
int weft_loop_preheader(const struct weft_loops *l, int loop);
/* Whether value v is loop-invariant in the plain sense: a constant, argument or global, or an
 * instruction defined outside the loop. */
bool weft_loop_defined_outside(const struct weft_loops *l, int loop, LLVMValueRef v);

/* A simple induction variable: a phi of the header whose value from outside the loop is `start`
 * and whose value from every latch is `phi + step` (add, or `or disjoint`) or `phi - step`
 * (sub: `down`), with `step` defined outside the loop. */
struct weft_induction {
    LLVMValueRef phi, start, step;
    bool down;
};
bool weft_loop_induction(const struct weft_loops *l, int loop, LLVMValueRef phi, struct weft_induction *out);

#endif
