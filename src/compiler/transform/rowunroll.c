/* compiler/transform/rowunroll.c — loops in which each work-item walks a row of its own are
 * unrolled (weft_unroll_row_walks, passes.h), so that the vectorizer can load each lane's row in
 * whole vectors and transpose them in registers (vectorize_memory.c, row groups).
 *
 * Why: a work-item per row (gesummv, atax, mvt: `for (j = 0; j < n; j++) t += A[i * n + j] *
 * x[j]`) makes neighbouring lanes read addresses a row apart; side by side, every step of the
 * loop is a gather of P elements. With the loop unrolled by ROW_UNROLL, the copies' loads of
 * one row are consecutive addresses, which the vectorizer reads as one vector per lane and
 * transposes. A throwaway C model of the vectorized gesummv (n = 4096, 8 lanes, 16 threads of
 * the 16-core device machine): gathers 1.31-1.37 ms, row loads transposed 0.77, the OpenMP loop
 * 0.82 (8 threads: 2.42, 1.14, 1.10); on the 2-core Sapphire Rapids VM all three within 20%.
 *
 * Unrolled: an innermost loop of two blocks, as the frontend leaves a counted loop: a header
 * holding its phis, `icmp slt|ult j, n` on an induction phi `j` that steps by one (n defined
 * outside the loop) and the branch, then a body that is the only latch. The body holds no
 * barrier, atomic, volatile access or call (but calls that touch no memory and are not
 * convergent: fmuladd, readnone builtins), at most MAX_BODY instructions, and its values are used only in the loop.
 * It must read a row: a load of __global or __constant memory whose address moves by its
 * element size per step of `j` (analysis/linear.h) and is not the same for the work-items nor
 * a few elements apart between neighbours (analysis/shape.h).
 * The body's instructions that do not depend on the loop (arithmetic only) move to the end of
 * the block that enters the loop first (a preheader, or the block whose branch skips the loop:
 * arithmetic without side effects may run there either way) (the copies' addresses then share their terms). Then a loop of ROW_UNROLL
 * copies of the body runs while `n - j > ROW_UNROLL - 1` (with `j < n`: unsigned, so exact), and
 * the original loop finishes the rest: each copy is one iteration the original would have run.
 */
#include "compiler/transform/passes.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/linear.h"
#include "compiler/analysis/loops.h"
#include "compiler/analysis/shape.h"
#include "compiler/transform/irutil.h"

#define MAX_BODY 64
/* Lanes whose rows are within this many elements of each other share lines: no transposition. */
#define NEAR_ROWS 4

static bool in_loop(LLVMValueRef v, LLVMBasicBlockRef h, LLVMBasicBlockRef b)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    return bb == h || bb == b;
}

struct walk {
    LLVMBasicBlockRef pre, header, body;
    LLVMValueRef cmp, j, n;
};

/* Whether loop li is one this pass unrolls; fills *w. */
static bool loop_shape(const struct weft_loops *L, int li, struct walk *w)
{
    const struct weft_loop *lp = &L->loops[li];
    for (size_t o = 0; o < L->count; o++)
        if (L->loops[o].parent == li)
            return false;
    if (lp->nblocks != 2 || lp->nlatches != 1 || lp->nexiting != 1 || lp->nexits != 1 ||
        lp->exiting[0] != lp->header || lp->latches[0] == lp->header)
        return false;
    const struct weft_cfg *cfg = L->cfg;
    w->header = cfg->blocks[lp->header];
    w->body = cfg->blocks[lp->latches[0]];
    /* the header: phis, one compare, the branch on it to the body (true) or the exit */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->header);
    LLVMValueRef i = LLVMGetFirstInstruction(w->header);
    while (i && LLVMIsAPHINode(i))
        i = LLVMGetNextInstruction(i);
    if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term) || i != LLVMGetCondition(term) || LLVMGetNextInstruction(i) != term ||
        !LLVMIsAICmpInst(i) || LLVMGetSuccessor(term, 0) != w->body)
        return false;
    w->cmp = i;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(i);
    if (pred != LLVMIntSLT && pred != LLVMIntULT)
        return false;
    w->j = LLVMGetOperand(i, 0);
    w->n = LLVMGetOperand(i, 1);
    struct weft_induction ind;
    if (!LLVMIsAPHINode(w->j) || LLVMGetInstructionParent(w->j) != w->header || !weft_loop_defined_outside(L, li, w->n) ||
        !weft_loop_induction(L, li, w->j, &ind) || ind.down || !LLVMIsAConstantInt(ind.step) ||
        LLVMConstIntGetZExtValue(ind.step) != 1)
        return false;
    /* the one block outside that enters the loop (a preheader, or the block whose branch
     * chooses between the loop and skipping it), by one edge */
    w->pre = NULL;
    if (LLVMCountIncoming(w->j) != 2)
        return false;
    for (unsigned k = 0; k < 2; k++)
        if (LLVMGetIncomingBlock(w->j, k) != w->body)
            w->pre = LLVMGetIncomingBlock(w->j, k);
    if (!w->pre || w->pre == w->header)
        return false;
    LLVMValueRef pterm = LLVMGetBasicBlockTerminator(w->pre);
    unsigned edges = 0;
    for (unsigned s = 0; pterm && s < LLVMGetNumSuccessors(pterm); s++)
        edges += LLVMGetSuccessor(pterm, s) == w->header;
    if (edges != 1)
        return false;
    /* the body */
    unsigned count = 0;
    for (LLVMValueRef x = LLVMGetFirstInstruction(w->body); x; x = LLVMGetNextInstruction(x)) {
        if (++count > MAX_BODY || LLVMIsAPHINode(x) || LLVMIsAAtomicRMWInst(x) || LLVMIsAAtomicCmpXchgInst(x) ||
            LLVMIsAFenceInst(x) || LLVMIsAAllocaInst(x))
            return false;
        if ((LLVMIsALoadInst(x) || LLVMIsAStoreInst(x)) && (LLVMGetVolatile(x) || LLVMGetOrdering(x) != LLVMAtomicOrderingNotAtomic))
            return false;
        if (LLVMIsACallInst(x) && !weft_call_is_pure(x))
            return false;
        if (x == LLVMGetBasicBlockTerminator(w->body))
            return LLVMIsABranchInst(x) && !LLVMIsConditional(x) && LLVMGetSuccessor(x, 0) == w->header;
        for (LLVMUseRef u = LLVMGetFirstUse(x); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!in_loop(user, w->header, w->body) || (LLVMGetInstructionParent(user) == w->header && !LLVMIsAPHINode(user)))
                return false;
        }
    }
    return false;
}

/* Whether the body reads a row: a load of global or constant memory that steps by its element
 * size with j and whose lanes are not close. */
static bool reads_row(LLVMValueRef fn, const struct walk *w, const struct weft_shapes *sh)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    for (LLVMValueRef x = LLVMGetFirstInstruction(w->body); x; x = LLVMGetNextInstruction(x)) {
        if (!LLVMIsALoadInst(x))
            continue;
        LLVMValueRef ptr = LLVMGetOperand(x, 0);
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
        LLVMTypeRef t = LLVMTypeOf(x);
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if ((as != 1 && as != 2) || (k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind && k != LLVMIntegerTypeKind))
            continue;
        int64_t size = (int64_t)LLVMABISizeOfType(td, t), coef = 0;
        if (!weft_linear_coefficient(td, ptr, w->j, &coef) || coef != size)
            continue;
        struct weft_shape s = weft_shape_of(sh, ptr);
        if (s.kind == WEFT_SHAPE_UNIFORM)
            continue;
        if (s.kind == WEFT_SHAPE_AFFINE && s.dim != 0)
            continue;
        if (s.kind == WEFT_SHAPE_AFFINE && LLVMIsAConstantInt(s.stride)) {
            int64_t st = LLVMConstIntGetSExtValue(s.stride);
            if ((st < 0 ? -st : st) <= NEAR_ROWS * size)
                continue;
        }
        return true;
    }
    return false;
}

/* Moves the body's loop-invariant arithmetic to the end of the preheader. */
static void hoist_invariants(const struct walk *w)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(w->j)));
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(w->pre));
    for (LLVMValueRef x = LLVMGetFirstInstruction(w->body), next; x; x = next) {
        next = LLVMGetNextInstruction(x);
        if (LLVMIsATerminatorInst(x) || LLVMIsALoadInst(x) || LLVMIsAStoreInst(x) || LLVMIsACallInst(x))
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(x);
        if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem)
            continue;
        bool inv = true;
        for (int o = 0; o < LLVMGetNumOperands(x) && inv; o++)
            inv = !in_loop(LLVMGetOperand(x, (unsigned)o), w->header, w->body);
        if (!inv)
            continue;
        size_t len = 0;
        const char *nm = LLVMGetValueName2(x, &len);
        char *name = strndup(nm, len);
        LLVMInstructionRemoveFromParent(x);   /* drops the name */
        LLVMInsertIntoBuilderWithName(b, x, name ? name : "");
        free(name);
    }
    LLVMDisposeBuilder(b);
}

static LLVMValueRef mapped(struct weft_vmap *m, LLVMValueRef v)
{
    LLVMValueRef to = weft_vmap_get(m, v);
    return to ? to : v;
}

static void unroll(const struct walk *w, unsigned count)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(w->j));
    LLVMBasicBlockRef uh = LLVMInsertBasicBlockInContext(c, w->header, "rows.header");
    LLVMBasicBlockRef ub = LLVMInsertBasicBlockInContext(c, w->header, "rows.body");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    struct weft_vmap map;
    weft_vmap_init(&map);
    /* the unrolled loop's phis: the header's, entered from the preheader */
    LLVMPositionBuilderAtEnd(b, uh);
    unsigned nphi = 0;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(w->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
        nphi++;
    /* each phi's value from the body (latch), and the unrolled loop's copy of the phi */
    LLVMValueRef *orig = calloc(nphi + 1, sizeof *orig), *latch = calloc(nphi + 1, sizeof *latch);
    LLVMValueRef *uphi = calloc(nphi + 1, sizeof *uphi), *next = calloc(nphi + 1, sizeof *next);
    if (!orig || !latch || !uphi || !next)
        abort();
    unsigned k = 0;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(w->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi), k++) {
        orig[k] = phi;
        uphi[k] = LLVMBuildPhi(b, LLVMTypeOf(phi), "rows.phi");
        LLVMValueRef from_pre = NULL;
        for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
            if (LLVMGetIncomingBlock(phi, i) == w->pre)
                from_pre = LLVMGetIncomingValue(phi, i);
            if (LLVMGetIncomingBlock(phi, i) == w->body)
                latch[k] = LLVMGetIncomingValue(phi, i);
        }
        LLVMBasicBlockRef pre = w->pre;
        LLVMAddIncoming(uphi[k], &from_pre, &pre, 1);
        weft_vmap_put(&map, phi, uphi[k]);
    }
    /* room for `count` iterations: j < n and n - j > count - 1 (unsigned: exact when j < n) */
    LLVMValueRef j = mapped(&map, w->j);
    LLVMValueRef first = LLVMBuildICmp(b, LLVMGetICmpPredicate(w->cmp), j, w->n, "");
    LLVMValueRef left = LLVMBuildSub(b, w->n, j, "rows.left");
    LLVMValueRef room = LLVMBuildICmp(b, LLVMIntUGT, left, LLVMConstInt(LLVMTypeOf(j), count - 1, 0), "");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, first, room, "rows.room"), ub, w->header);
    /* the copies */
    LLVMPositionBuilderAtEnd(b, ub);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(w->body);
    for (unsigned copy = 0; copy < count; copy++) {
        for (LLVMValueRef x = LLVMGetFirstInstruction(w->body); x && x != term; x = LLVMGetNextInstruction(x)) {
            LLVMValueRef cl = LLVMInstructionClone(x);
            for (int o = 0; o < LLVMGetNumOperands(cl); o++)
                LLVMSetOperand(cl, (unsigned)o, mapped(&map, LLVMGetOperand(x, (unsigned)o)));
            LLVMInsertIntoBuilder(b, cl);
            weft_vmap_put(&map, x, cl);
        }
        for (k = 0; k < nphi; k++)
            next[k] = mapped(&map, latch[k]);
        for (k = 0; k < nphi; k++)
            weft_vmap_put(&map, orig[k], next[k]);
    }
    LLVMBuildBr(b, uh);
    for (k = 0; k < nphi; k++)
        LLVMAddIncoming(uphi[k], &next[k], &ub, 1);
    /* the original loop finishes what is left, entered from the unrolled loop's header with
     * the values its phis reached */
    weft_phis_replace_incoming_block(w->header, w->pre, uh);   /* rebuilds them, in order */
    k = 0;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(w->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi), k++)
        for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
            if (LLVMGetIncomingBlock(phi, i) == uh)
                LLVMSetOperand(phi, i, uphi[k]);
    LLVMValueRef pterm = LLVMGetBasicBlockTerminator(w->pre);
    for (unsigned s = 0; s < LLVMGetNumSuccessors(pterm); s++)
        if (LLVMGetSuccessor(pterm, s) == w->header)
            LLVMSetSuccessor(pterm, s, uh);
    LLVMDisposeBuilder(b);
    weft_vmap_free(&map);
    free(orig);
    free(latch);
    free(uphi);
    free(next);
}

unsigned weft_unroll_row_walks(LLVMValueRef fn, unsigned count)
{
    unsigned done = 0;
    if (count < 2)
        return 0;
    /* one loop per round: the CFG changes. The unrolled loop is not of the shape taken; the
     * original loop still is, and is remembered. */
    struct weft_ptrmap seen;
    weft_ptrmap_init(&seen);
    for (unsigned round = 0; round < 16; round++) {
        struct weft_cfg *cfg = weft_cfg_build(fn);
        struct weft_domtree *dom = cfg ? weft_dom_compute(cfg) : NULL;
        struct weft_loops *L = dom ? weft_loops_compute(cfg, dom) : NULL;
        struct weft_shapes *sh = NULL;   /* computed once a loop has the shape: most kernels have none */
        struct walk w = {0};
        bool found = false;
        for (size_t li = 0; L && !L->irreducible && li < L->count && !found; li++) {
            if (!loop_shape(L, (int)li, &w) || weft_ptrmap_get_or(&seen, w.header, 0))
                continue;
            if (!sh)
                sh = weft_shapes_compute(fn, NULL);
            found = sh && reads_row(fn, &w, sh);
        }
        if (sh)
            weft_shapes_free(sh);
        if (L)
            weft_loops_free(L);
        if (dom)
            weft_dom_free(dom);
        if (cfg)
            weft_cfg_free(cfg);
        if (!found)
            break;
        weft_ptrmap_put(&seen, w.header, 1);
        hoist_invariants(&w);
        unroll(&w, count);
        done++;
    }
    weft_ptrmap_free(&seen);
    return done;
}
