/* compiler/transform/barrierloops.c — loops around barriers with a trip count known at compile
 * time are unrolled (weft_unroll_barrier_loops, passes.h).
 *
 * A barrier inside a loop makes the loop a cycle of sub-CFGs: each iteration runs the work-item
 * loops of the body, then goes back through the dispatcher. The body's code is then general in
 * the iteration: a tree reduction over __local memory (`for (s = ls / 2; s > 0; s >>= 1) { if
 * (lid < s) sum[lid] += sum[lid + s]; barrier(...); }`) runs every step's packets with a lane
 * mask computed at run time and a test per packet. The local size is a constant of the variant,
 * so such a loop runs a known number of times: unrolled, each step is a sub-CFG of its own whose
 * stride, masks and packet count are constants (the Harris reduction of the bench corpus: 15.9 ms
 * looped, 10.6 ms unrolled by hand, 9.8 ms with no tree at all, one thread of the 2-core
 * Sapphire Rapids VM).
 *
 * Unrolled: an innermost loop with a barrier call in it, one latch, one exiting block (the
 * latch: the rotated form; or the header, when it holds nothing but its phis, the test and the
 * branch), a preheader, and a header phi `iv` with a constant start (constants folded through
 * casts and arithmetic: the lowered local size is a constant its users have not been folded
 * with) whose latch value is `iv op C` (add, sub, mul, shl, lshr, ashr, sdiv, udiv by a
 * constant), the exit test an integer compare of `iv` (or, in the latch, of `iv op C`) with a
 * constant. The trip count is found by running the recurrence: at most MAX_TRIPS, and at most
 * MAX_UNROLLED instructions in all. The loop's blocks become the first copy; the others follow
 * it, each entered from the one before; the header phis become the values they take in each
 * copy; what flows out of the loop is the last copy's.
 */
#include "compiler/transform/passes.h"

#include <stdlib.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/loops.h"
#include "compiler/transform/irutil.h"

/* Small loops only: each copy is code the vectorizer and the backend take in again. */
#define MAX_TRIPS 16
#define MAX_UNROLLED 1000

static bool block_has_barrier(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i) && weft_wi_is_barrier_kind(weft_wi_call_kind(i)))
            return true;
    return false;
}

/* `v` op `c` for the recurrence's operation; false when it is not one this pass runs. */
static bool step(LLVMOpcode op, int64_t v, int64_t c, unsigned bits, int64_t *out)
{
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1, u = (uint64_t)v & mask;
    int64_t r;
    switch (op) {
    /* unsigned arithmetic: wraps as LLVM's does, where signed overflow would be undefined in C */
    case LLVMAdd: r = (int64_t)((uint64_t)v + (uint64_t)c); break;
    case LLVMSub: r = (int64_t)((uint64_t)v - (uint64_t)c); break;
    case LLVMMul: r = (int64_t)((uint64_t)v * (uint64_t)c); break;
    case LLVMShl: if (c < 0 || c >= (int64_t)bits) return false; r = (int64_t)(u << c); break;
    case LLVMLShr: if (c < 0 || c >= (int64_t)bits) return false; r = (int64_t)(u >> c); break;
    case LLVMAShr: if (c < 0 || c >= (int64_t)bits) return false; r = v >> c; break;
    case LLVMSDiv: if (c == 0 || c == -1) return false; r = v / c; break;
    case LLVMUDiv: if (c == 0) return false; r = (int64_t)(u / (uint64_t)c); break;
    default: return false;
    }
    /* back to `bits` bits, sign-extended */
    uint64_t rr = (uint64_t)r & mask;
    if (bits < 64 && (rr >> (bits - 1)) & 1)
        rr |= ~mask;
    *out = (int64_t)rr;
    return true;
}

/* v's value when it is an integer constant or an instruction computing one from constants
 * (the lowered get_local_size is a constant its users have not been folded with yet: `ls / 2`
 * is `sdiv (trunc 256), 2`), at most `depth` instructions deep; sign-extended. */
static bool const_value(LLVMValueRef v, int depth, int64_t *out)
{
    if (LLVMIsAConstantInt(v)) {
        if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
            return false;
        *out = LLVMConstIntGetSExtValue(v);
        return true;
    }
    if (depth <= 0 || !LLVMIsAInstruction(v) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return false;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (bits > 64)
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    int64_t a, c;
    if (op == LLVMTrunc || op == LLVMSExt || op == LLVMZExt) {
        if (!const_value(LLVMGetOperand(v, 0), depth - 1, &a))
            return false;
        if (op == LLVMZExt) {
            unsigned from = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0)));
            a = from >= 64 ? a : (int64_t)((uint64_t)a & ((1ull << from) - 1));
        }
        return step(LLVMAdd, a, 0, bits, out);   /* to `bits` bits */
    }
    return LLVMGetNumOperands(v) == 2 && const_value(LLVMGetOperand(v, 0), depth - 1, &a) &&
           const_value(LLVMGetOperand(v, 1), depth - 1, &c) && step(op, a, c, bits, out);
}

static bool compare(LLVMIntPredicate p, int64_t a, int64_t b, unsigned bits)
{
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1, ua = (uint64_t)a & mask, ub = (uint64_t)b & mask;
    switch (p) {
    case LLVMIntEQ: return a == b;
    case LLVMIntNE: return a != b;
    case LLVMIntSGT: return a > b;
    case LLVMIntSGE: return a >= b;
    case LLVMIntSLT: return a < b;
    case LLVMIntSLE: return a <= b;
    case LLVMIntUGT: return ua > ub;
    case LLVMIntUGE: return ua >= ub;
    case LLVMIntULT: return ua < ub;
    default: return ua <= ub;   /* ULE */
    }
}

/* The loop's shape, as this pass takes it: the exiting block (`exiting`, the latch or the
 * header), its branch's successor inside the loop, and the trip count (the times the body runs;
 * 0: not a loop this pass unrolls). */
struct shape {
    LLVMBasicBlockRef header, latch, pre, exit, exiting, stay;
    bool header_exits;   /* the header tests and exits (the latch does not; its other
                            instructions are phis only); else the latch (the rotated form) */
    unsigned trips;
};

static bool in_loop(const struct weft_loops *L, int li, LLVMBasicBlockRef bb)
{
    int i = weft_cfg_index(L->cfg, bb);
    return i >= 0 && weft_loop_contains(L, li, i);
}

/* Finds sh->trips for loop li (sh's blocks set by the caller). */
static void trip_count(const struct weft_loops *L, int li, struct shape *sh)
{
    sh->trips = 0;
    LLVMValueRef br = LLVMGetBasicBlockTerminator(sh->exiting);
    if (!br || LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br))
        return;
    LLVMValueRef cmp = LLVMGetCondition(br);
    int64_t bound;
    if (!LLVMIsAICmpInst(cmp) || !const_value(LLVMGetOperand(cmp, 1), 8, &bound))
        return;
    bool continue_if_true = in_loop(L, li, LLVMGetSuccessor(br, 0));
    sh->stay = LLVMGetSuccessor(br, continue_if_true ? 0 : 1);
    if (in_loop(L, li, LLVMGetSuccessor(br, continue_if_true ? 1 : 0)))
        return;
    if (sh->header_exits) {   /* phis, the compare, the branch: nothing else flows out */
        for (LLVMValueRef in = LLVMGetFirstInstruction(sh->header); in; in = LLVMGetNextInstruction(in))
            if (!LLVMIsAPHINode(in) && in != cmp && in != br)
                return;
        if (LLVMGetFirstUse(cmp) && LLVMGetNextUse(LLVMGetFirstUse(cmp)))
            return;
    }
    LLVMValueRef tested = LLVMGetOperand(cmp, 0);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(sh->header); phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi)) {
        if (LLVMGetTypeKind(LLVMTypeOf(phi)) != LLVMIntegerTypeKind || LLVMCountIncoming(phi) != 2)
            continue;
        LLVMValueRef start = NULL, next = NULL;
        for (unsigned k = 0; k < 2; k++) {
            if (LLVMGetIncomingBlock(phi, k) == sh->pre)
                start = LLVMGetIncomingValue(phi, k);
            else if (LLVMGetIncomingBlock(phi, k) == sh->latch)
                next = LLVMGetIncomingValue(phi, k);
        }
        int64_t v, c;
        if (!start || !next || !LLVMIsAInstruction(next) || (tested != next && tested != phi) ||
            (sh->header_exits && tested != phi) || LLVMGetOperand(next, 0) != phi ||
            weft_loop_defined_outside(L, li, next) || !const_value(start, 8, &v) ||
            !const_value(LLVMGetOperand(next, 1), 8, &c))
            continue;
        unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(phi));
        if (bits > 64)
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(next);
        LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
        /* header test: before each run of the body; latch test: after it, on the next value */
        for (unsigned n = 0; n <= MAX_TRIPS; n++) {
            int64_t nv;
            if (sh->header_exits && compare(pred, v, bound, bits) != continue_if_true) {
                sh->trips = n;
                return;
            }
            if (!step(op, v, c, bits, &nv))
                return;
            if (!sh->header_exits && compare(pred, tested == next ? nv : v, bound, bits) != continue_if_true) {
                sh->trips = n + 1;
                return;
            }
            v = nv;
        }
        return;   /* runs longer than MAX_TRIPS, or forever */
    }
}

struct copy {
    struct weft_vmap map;   /* original instruction or block -> this copy's */
};

static LLVMValueRef mapped(const struct copy *c, LLVMValueRef v)
{
    void *m = weft_vmap_get(&c->map, v);
    return m ? (LLVMValueRef)m : v;
}

static LLVMBasicBlockRef mapped_block(const struct copy *c, LLVMBasicBlockRef bb)
{
    return LLVMValueAsBasicBlock(mapped(c, LLVMBasicBlockAsValue(bb)));
}

/* Copy c of the loop's blocks, placed after `after` (returns its last block), its header phis
 * already mapped by the caller: instructions first, then their operands (a phi may name a
 * value of a later block). */
static LLVMBasicBlockRef clone_copy(LLVMValueRef fn, LLVMBuilderRef b, LLVMBasicBlockRef *blocks, size_t nb,
                                    LLVMBasicBlockRef header, struct copy *c, LLVMBasicBlockRef after)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    for (size_t i = 0; i < nb; i++) {
        LLVMBasicBlockRef nbb = LLVMAppendBasicBlockInContext(ctx, fn, LLVMGetBasicBlockName(blocks[i]));
        LLVMMoveBasicBlockAfter(nbb, after);
        after = nbb;
        weft_vmap_put(&c->map, LLVMBasicBlockAsValue(blocks[i]), LLVMBasicBlockAsValue(nbb));
    }
    for (size_t i = 0; i < nb; i++) {
        LLVMPositionBuilderAtEnd(b, mapped_block(c, blocks[i]));
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in; in = LLVMGetNextInstruction(in)) {
            if (blocks[i] == header && LLVMIsAPHINode(in))
                continue;
            LLVMValueRef cl = LLVMIsAPHINode(in) ? LLVMBuildPhi(b, LLVMTypeOf(in), "") : LLVMInstructionClone(in);
            if (!LLVMIsAPHINode(in))
                LLVMInsertIntoBuilder(b, cl);
            weft_vmap_put(&c->map, in, cl);
        }
    }
    for (size_t i = 0; i < nb; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in; in = LLVMGetNextInstruction(in)) {
            if (blocks[i] == header && LLVMIsAPHINode(in))
                continue;
            LLVMValueRef cl = mapped(c, in);
            if (LLVMIsAPHINode(in)) {
                for (unsigned p = 0; p < LLVMCountIncoming(in); p++) {
                    LLVMValueRef v = mapped(c, LLVMGetIncomingValue(in, p));
                    LLVMBasicBlockRef from = mapped_block(c, LLVMGetIncomingBlock(in, p));
                    LLVMAddIncoming(cl, &v, &from, 1);
                }
                continue;
            }
            for (int o = 0; o < LLVMGetNumOperands(in); o++)
                LLVMSetOperand(cl, (unsigned)o, mapped(c, LLVMGetOperand(in, o)));
        }
    return after;
}

/* Replaces terminator `term` with a branch to `to` (and its condition, when nothing else uses
 * it). */
static void branch_to(LLVMBuilderRef b, LLVMValueRef term, LLVMBasicBlockRef to)
{
    LLVMValueRef cond = LLVMIsConditional(term) ? LLVMGetCondition(term) : NULL;
    LLVMPositionBuilderBefore(b, term);
    LLVMBuildBr(b, to);
    LLVMInstructionEraseFromParent(term);
    if (cond && LLVMIsAInstruction(cond) && !LLVMGetFirstUse(cond))
        LLVMInstructionEraseFromParent(cond);
}

/* Unrolls loop li, whose shape `sh` trip_count found (trips >= 1). */
static void unroll(LLVMValueRef fn, const struct weft_loops *L, int li, const struct shape *sh)
{
    const struct weft_loop *lp = &L->loops[li];
    const unsigned trips = sh->trips;
    size_t nb = lp->nblocks;
    LLVMBasicBlockRef *blocks = malloc(nb * sizeof *blocks);
    for (size_t i = 0; i < nb; i++)
        blocks[i] = L->cfg->blocks[lp->blocks[i]];
    struct copy *copies = calloc(trips + 1, sizeof *copies);
    for (unsigned k = 0; k <= trips; k++)
        weft_vmap_init(&copies[k].map);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
    /* the header phis of copy k: their preheader values (k = 0), else what the latch of copy
     * k - 1 gave them; copy `trips` holds only those, the values after the loop */
    LLVMBasicBlockRef after = sh->latch;
    for (unsigned k = 0; k <= trips; k++) {
        for (LLVMValueRef phi = LLVMGetFirstInstruction(sh->header); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi))
            for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, i);
                if (k == 0 ? from == sh->pre : from == sh->latch)
                    weft_vmap_put(&copies[k].map, phi,
                                  k == 0 ? LLVMGetIncomingValue(phi, i) : mapped(&copies[k - 1], LLVMGetIncomingValue(phi, i)));
            }
        if (k > 0 && k < trips)
            after = clone_copy(fn, b, blocks, nb, sh->header, &copies[k], after);
    }
    /* values used after the loop: with the latch exiting, the last copy's; with the header
     * exiting, only its phis flow out: their values after the last step. Copy 1 names copy 0's
     * (the loop's own) values through the header phis: its blocks are inside too. */
    const struct copy *out = sh->header_exits ? &copies[trips] : &copies[trips - 1];
    LLVMBasicBlockRef last_exiting = mapped_block(&copies[trips - 1], sh->latch);   /* it goes to the exit */
    for (size_t i = 0; i < nb; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef to = mapped(out, in);
            /* one use at a time, only the operand that use is: rewriting every operand of a
             * user that names `in` twice (a phi with two incoming edges from outside the loop)
             * would move the saved next use onto `to`'s list, and the walk would then follow
             * `to`'s uses and miss `in`'s remaining ones outside the loop */
            for (LLVMUseRef u = LLVMGetFirstUse(in), next; u && to != in; u = next) {
                LLVMValueRef user = LLVMGetUser(u);
                next = LLVMGetNextUse(u);
                LLVMBasicBlockRef ub = LLVMGetInstructionParent(user);
                bool inside = false;
                for (size_t j = 0; j < nb && !inside; j++)
                    inside = ub == blocks[j];
                for (unsigned k = 1; k < trips && !inside; k++)
                    for (size_t j = 0; j < nb && !inside; j++)
                        inside = ub == mapped_block(&copies[k], blocks[j]);
                if (inside)
                    continue;
                for (int o = 0; o < LLVMGetNumOperands(user); o++)
                    if (LLVMGetOperandUse(user, (unsigned)o) == u) {
                        LLVMSetOperand(user, (unsigned)o, to);
                        break;
                    }
            }
        }
    weft_phis_replace_incoming_block(sh->exit, sh->exiting, last_exiting);
    /* every copy runs the body once: the exit test goes; each latch leads to the next copy, the
     * last one's to the exit */
    for (unsigned k = 0; k < trips; k++) {
        if (sh->header_exits)
            branch_to(b, LLVMGetBasicBlockTerminator(mapped_block(&copies[k], sh->header)),
                      mapped_block(&copies[k], sh->stay));
        branch_to(b, LLVMGetBasicBlockTerminator(mapped_block(&copies[k], sh->latch)),
                  k + 1 < trips ? mapped_block(&copies[k + 1], sh->header) : sh->exit);
    }
    for (LLVMValueRef phi = LLVMGetFirstInstruction(sh->header), n; phi && LLVMIsAPHINode(phi); phi = n) {
        n = LLVMGetNextInstruction(phi);
        LLVMReplaceAllUsesWith(phi, mapped(&copies[0], phi));
        LLVMInstructionEraseFromParent(phi);
    }
    LLVMDisposeBuilder(b);
    for (unsigned k = 0; k <= trips; k++)
        weft_vmap_free(&copies[k].map);
    free(copies);
    free(blocks);
}

/* How many instructions the loop's blocks hold. */
static size_t loop_size(const struct weft_loops *L, const struct weft_loop *lp)
{
    size_t n = 0;
    for (size_t i = 0; i < lp->nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(L->cfg->blocks[lp->blocks[i]]); in;
             in = LLVMGetNextInstruction(in))
            n++;
    return n;
}

unsigned weft_unroll_barrier_loops(LLVMValueRef fn)
{
    unsigned done = 0;
    /* one loop per round: the CFG changes; innermost first (the outer one may then qualify) */
    for (unsigned round = 0; round < 64; round++) {
        struct weft_cfg *cfg = weft_cfg_build(fn);
        struct weft_domtree *dom = cfg ? weft_dom_compute(cfg) : NULL;
        struct weft_loops *L = dom ? weft_loops_compute(cfg, dom) : NULL;
        int pick = -1;
        struct shape sh = {0};
        for (size_t li = 0; L && !L->irreducible && li < L->count && pick < 0; li++) {
            const struct weft_loop *lp = &L->loops[li];
            bool inner = true, barrier = false;
            for (size_t o = 0; o < L->count; o++)
                inner &= L->loops[o].parent != (int)li;
            for (size_t i = 0; i < lp->nblocks; i++)
                barrier |= block_has_barrier(cfg->blocks[lp->blocks[i]]);
            int p = weft_loop_preheader(L, (int)li);
            if (!inner || !barrier || p < 0 || lp->nlatches != 1 || lp->nexiting != 1 || lp->nexits != 1 ||
                (lp->exiting[0] != lp->latches[0] && lp->exiting[0] != lp->header))
                continue;
            sh = (struct shape){.header = cfg->blocks[lp->header], .latch = cfg->blocks[lp->latches[0]],
                                .pre = cfg->blocks[p], .exit = cfg->blocks[lp->exits[0]],
                                .exiting = cfg->blocks[lp->exiting[0]],
                                .header_exits = lp->exiting[0] != lp->latches[0]};
            trip_count(L, (int)li, &sh);
            if (sh.trips && loop_size(L, lp) * sh.trips <= MAX_UNROLLED)
                pick = (int)li;
        }
        if (pick >= 0)
            unroll(fn, L, pick, &sh);
        if (L)
            weft_loops_free(L);
        if (dom)
            weft_dom_free(dom);
        if (cfg)
            weft_cfg_free(cfg);
        if (pick < 0)
            break;
        done++;
    }
    return done;
}
