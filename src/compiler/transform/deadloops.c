/* compiler/transform/deadloops.c — deletes loops that only count to their end.
 *
 * Guarantees: a loop is deleted when (1) it holds no nested loop; (2) nothing in it writes
 * memory, synchronizes, or calls anything but the work-item functions and LLVM intrinsics that
 * touch no memory (loads are allowed: deleting one removes at most a fault the program may not
 * rely on, as LLVM's own loop deletion does); (3) no value it defines is used outside it; (4) it
 * leaves to one block, which has no PHIs; and (5) it provably ends: one of its exiting blocks,
 * run on every iteration, compares an induction variable stepped by an odd constant (so it
 * takes every value of its type within 2^bits iterations) with a loop-invariant value, by
 * `==`/`!=`, or by an ordering against a constant that some value satisfies and some does not.
 * The loop's entry edges then go straight to its exit block, and its blocks are deleted. Other
 * loops are left alone, as is everything outside the deleted loops.
 *
 * Why: LLVM's optimizer deletes such loops (the scalar work-item loops lose them), but once
 * the vectorizer has linearized a sub-CFG, a loop's trip test reads lane masks that LLVM
 * cannot count, and the vectorized variant runs every iteration of what the scalar one never
 * runs: a CLSmith kernel's `lbl: --x; if (x) goto lbl;` from x = 0x80D0E101EAE88378 takes
 * 2^63 iterations under masks. Deleting it before the work-group passes keeps both variants
 * the same program.
 */
#include "compiler/transform/passes.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/loops.h"
#include "compiler/transform/irutil.h"

/* Whether instruction i may be removed without changing what the work-item does, apart from
 * the time it takes (and faults of loads). */
static bool effect_free(LLVMValueRef i)
{
    if (LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i))
        return false;
    if (LLVMIsALoadInst(i))
        return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
    if (LLVMIsACallInst(i)) {
        enum weft_wi_kind k = weft_wi_call_kind(i);
        if (k != WEFT_WI_NONE)
            return !weft_wi_is_barrier_kind(k);
        size_t n = 0;
        const char *name = weft_direct_callee_name(i, &n);
        uint64_t effects = 0;
        return name && n > 5 && !strncmp(name, "llvm.", 5) &&
               weft_call_memory_effects(i, LLVMGetCalledValue(i), &effects) && effects == 0;
    }
    return !LLVMIsAInvokeInst(i) && !LLVMIsAVAArgInst(i);
}

/* Whether the comparison `x pred c` of N-bit integers (c constant, x on the left) is true for
 * some x and false for another. */
static bool ordering_splits(LLVMIntPredicate pred, LLVMValueRef c)
{
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(c));
    unsigned long long u = LLVMConstIntGetZExtValue(c);
    unsigned long long umax = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    long long s = LLVMConstIntGetSExtValue(c);
    long long smax = bits >= 64 ? (long long)(~0ull >> 1) : (long long)((1ull << (bits - 1)) - 1);
    long long smin = -smax - 1;
    switch (pred) {
    case LLVMIntULT: case LLVMIntUGE: return u != 0;
    case LLVMIntULE: case LLVMIntUGT: return u != umax;
    case LLVMIntSLT: case LLVMIntSGE: return s != smin;
    case LLVMIntSLE: case LLVMIntSGT: return s != smax;
    default: return false;
    }
}

static LLVMIntPredicate swapped(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntUGE: return LLVMIntULE;
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSLE: return LLVMIntSGE;
    case LLVMIntSGE: return LLVMIntSLE;
    default: return p;
    }
}

/* Whether v is an induction variable of loop L: a PHI of the header whose value from the one
 * latch is v + K (K odd), or that sum itself. */
static bool odd_step_iv(const struct weft_cfg *cfg, const struct weft_loop *L, LLVMValueRef v)
{
    LLVMBasicBlockRef header = cfg->blocks[L->header], latch = cfg->blocks[L->latches[0]];
    LLVMValueRef phi = v, next = NULL;
    if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAdd) {
        next = v;
        phi = LLVMGetOperand(v, 0);
    }
    if (!LLVMIsAPHINode(phi) || LLVMGetInstructionParent(phi) != header)
        return false;
    LLVMValueRef step = NULL;
    for (unsigned q = 0; q < LLVMCountIncoming(phi); q++) {
        if (LLVMGetIncomingBlock(phi, q) != latch)
            continue;
        LLVMValueRef in = LLVMGetIncomingValue(phi, q);
        if (!LLVMIsAInstruction(in) || LLVMGetInstructionOpcode(in) != LLVMAdd || LLVMGetOperand(in, 0) != phi ||
            (next && in != next))
            return false;
        step = LLVMGetOperand(in, 1);
    }
    return step && LLVMIsAConstantInt(step) && (LLVMConstIntGetZExtValue(step) & 1);
}

/* Whether loop L ends on every path: see the header comment, condition (5). */
static bool counted(const struct weft_loops *loops, const struct weft_domtree *dom, const struct weft_loop *L)
{
    const struct weft_cfg *cfg = loops->cfg;
    if (L->nlatches != 1)
        return false;
    for (size_t e = 0; e < L->nexiting; e++) {
        LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->blocks[L->exiting[e]]);
        if (!weft_dom_dominates(dom, (int)L->exiting[e], (int)L->latches[0]) || !LLVMIsABranchInst(br) ||
            !LLVMIsConditional(br))
            continue;
        LLVMValueRef c = LLVMGetCondition(br);
        if (!LLVMIsAICmpInst(c))
            continue;
        LLVMIntPredicate pred = LLVMGetICmpPredicate(c);
        LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
        if (!odd_step_iv(cfg, L, a)) {
            LLVMValueRef t = a;
            a = b;
            b = t;
            pred = swapped(pred);
        }
        int idx = (int)(L - loops->loops);
        if (!odd_step_iv(cfg, L, a) || !weft_loop_defined_outside(loops, idx, b))
            continue;
        if (pred == LLVMIntEQ || pred == LLVMIntNE || (LLVMIsAConstantInt(b) && ordering_splits(pred, b)))
            return true;
    }
    return false;
}

static bool deletable(const struct weft_loops *loops, const struct weft_domtree *dom, int idx)
{
    const struct weft_loop *L = &loops->loops[idx];
    const struct weft_cfg *cfg = loops->cfg;
    for (size_t j = 0; j < loops->count; j++)
        if (loops->loops[j].parent == idx)
            return false;
    if (L->nexits != 1 || LLVMIsAPHINode(LLVMGetFirstInstruction(cfg->blocks[L->exits[0]])))
        return false;
    for (size_t k = 0; k < L->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks[L->blocks[k]]); i; i = LLVMGetNextInstruction(i)) {
            if (!effect_free(i))
                return false;
            for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                int ub = LLVMIsAInstruction(user) ? weft_cfg_index(cfg, LLVMGetInstructionParent(user)) : -1;
                if (ub < 0 || !weft_loop_contains(loops, idx, ub))
                    return false;
            }
        }
    return counted(loops, dom, L);
}

/* Sends the loop's entry edges to its exit block and deletes its blocks. */
static void delete_loop(const struct weft_loops *loops, int idx)
{
    const struct weft_loop *L = &loops->loops[idx];
    const struct weft_cfg *cfg = loops->cfg;
    LLVMBasicBlockRef header = cfg->blocks[L->header], exit = cfg->blocks[L->exits[0]];
    for (size_t p = 0; p < weft_cfg_npred(cfg, L->header); p++) {
        int pb = (int)weft_cfg_preds(cfg, L->header)[p];
        if (weft_loop_contains(loops, idx, pb))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[pb]);
        for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++)
            if (LLVMGetSuccessor(t, s) == header)
                LLVMSetSuccessor(t, s, exit);
    }
    /* the loop's values are used only inside it: cut those uses, then the blocks can go */
    for (size_t k = 0; k < L->nblocks; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks[L->blocks[k]]); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
                LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
    for (size_t k = 0; k < L->nblocks; k++)
        LLVMDeleteBasicBlock(cfg->blocks[L->blocks[k]]);
}

unsigned weft_delete_dead_loops(LLVMValueRef fn)
{
    unsigned deleted = 0;
    /* one loop at a time: deleting an inner loop may leave its parent innermost and dead */
    for (;;) {
        struct weft_cfg *cfg = weft_cfg_build(fn);
        struct weft_domtree *dom = cfg ? weft_dom_compute(cfg) : NULL;
        struct weft_loops *loops = dom ? weft_loops_compute(cfg, dom) : NULL;
        int found = -1;
        for (size_t l = 0; loops && l < loops->count && found < 0; l++)
            if (deletable(loops, dom, (int)l))
                found = (int)l;
        if (found >= 0) {
            delete_loop(loops, found);
            deleted++;
        }
        if (loops)
            weft_loops_free(loops);
        if (dom)
            weft_dom_free(dom);
        if (cfg)
            weft_cfg_free(cfg);
        if (found < 0)
            return deleted;
    }
}
