/* compiler/prefetch.c — software prefetches for grid-stride loops (compiler/prefetch.h). */
#include "compiler/prefetch.h"

#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/loops.h"
#include "compiler/transform/irutil.h"
#include "util/ptrmap.h"

/* At most this many per kernel. */
#define PREFETCH_MAX 8
#define TERM_DEPTH 16

/* How an address or index depends on the loop's induction variable: `coef` bytes (units for an
 * integer) per unit of it when `known`. */
struct term {
    bool moves, known;
    int64_t coef;
};

struct walk {
    const struct weft_loops *loops;
    int loop;
    LLVMTargetDataRef td;
    LLVMValueRef iv;   /* the one induction variable the address follows */
    struct weft_induction ind;
};

static bool term_of(struct walk *w, LLVMValueRef v, unsigned depth, struct term *t);

/* A query of the NDRange's sizes (get_global_size(0), ...): the same everywhere in the kernel,
 * wherever the optimizer left the call (a grid-stride loop's step stays in its latch). */
static bool size_query(LLVMValueRef v)
{
    if (!LLVMIsACallInst(v))
        return false;
    int k = (int)weft_wi_call_kind(v);
    return (k == WEFT_WI_LOCAL_SIZE || k == WEFT_WI_ENQUEUED_LOCAL_SIZE || k == WEFT_WI_GLOBAL_SIZE ||
            k == WEFT_WI_NUM_GROUPS || k == WEFT_WI_GLOBAL_OFFSET) &&
           LLVMIsAConstantInt(LLVMGetOperand(v, 0));
}

/* Whether a loop's step is a grid stride: the NDRange's size, or its number of groups, times
 * anything (`i += get_global_size(0)`, `i += get_num_groups(0) * get_local_size(0)`): each
 * work-item then reads its own elements once, which no cache holds. A column walk (`A[i + j *
 * m]`) steps as far, but a 2-D grid's other rows of work-items read the same columns from the
 * cache (sgemm NT: a prefetch per step made it 1.33x slower on the 2-core Sapphire Rapids VM). */
static bool grid_stride(LLVMValueRef step, unsigned depth)
{
    if (size_query(step)) {
        int k = (int)weft_wi_call_kind(step);
        return k == WEFT_WI_GLOBAL_SIZE || k == WEFT_WI_NUM_GROUPS;
    }
    if (depth > 4 || !LLVMIsAInstruction(step))
        return false;
    switch (LLVMGetInstructionOpcode(step)) {
    case LLVMMul: case LLVMShl:
        return grid_stride(LLVMGetOperand(step, 0), depth + 1) || grid_stride(LLVMGetOperand(step, 1), depth + 1);
    case LLVMSExt: case LLVMZExt: case LLVMTrunc:
        return grid_stride(LLVMGetOperand(step, 0), depth + 1);
    default:
        return false;
    }
}

/* Whether v is fixed while the loop runs. */
static bool invariant(const struct weft_loops *loops, int loop, LLVMValueRef v)
{
    return !LLVMIsAInstruction(v) || weft_loop_defined_outside(loops, loop, v) || size_query(v);
}

/* Whether `phi`, of the loop's header, is an induction variable: from outside one start, from
 * its one latch phi (+|-) step with step fixed in the loop, where "phi" may come back through
 * casts (clang's `i += get_global_size(0)` on an int: sext(trunc(phi)) + step, in i64). */
static bool induction_of(struct walk *w, LLVMValueRef phi, unsigned depth, struct weft_induction *out)
{
    const struct weft_loop *lp = &w->loops->loops[w->loop];
    if (weft_cfg_inst_block(w->loops->cfg, phi) != (int)lp->header || lp->nlatches != 1)
        return false;
    LLVMBasicBlockRef latch = w->loops->cfg->blocks[lp->latches[0]];
    LLVMValueRef next = NULL;
    for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
        if (LLVMGetIncomingBlock(phi, i) == latch)
            next = LLVMGetIncomingValue(phi, i);
    if (!next || !LLVMIsAInstruction(next))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(next);
    if (op != LLVMAdd && op != LLVMSub)
        return false;
    LLVMValueRef a = LLVMGetOperand(next, 0), b = LLVMGetOperand(next, 1);
    bool down = op == LLVMSub;
    if (invariant(w->loops, w->loop, a) && !down) {
        LLVMValueRef x = a;
        a = b;
        b = x;
    }
    if (!invariant(w->loops, w->loop, b))
        return false;
    struct walk inner = *w;
    inner.iv = phi;   /* a's term in phi itself: 1 */
    struct term t;
    if (!term_of(&inner, a, depth + 1, &t) || !t.moves || !t.known || t.coef != 1)
        return false;
    *out = (struct weft_induction){.phi = phi, .step = b, .down = down};
    return true;
}

/* t's coefficient times f; unknown past 64 bits */
static void scale(struct term *t, int64_t f)
{
    if (t->known && __builtin_mul_overflow(t->coef, f, &t->coef))
        t->known = false;
}

/* a + sign * b */
static struct term combine(struct term a, struct term b, int sign)
{
    struct term r = {a.moves || b.moves, (!a.moves || a.known) && (!b.moves || b.known), 0};
    int64_t x = a.moves ? a.coef : 0, y = b.moves ? b.coef : 0;
    if (sign < 0 ? __builtin_sub_overflow(x, y, &r.coef) : __builtin_add_overflow(x, y, &r.coef))
        r.known = false;
    return r;
}

/* The term of a GEP: the base's plus each moving index times the size of what it steps over. */
static bool gep_term(struct walk *w, LLVMValueRef gep, unsigned depth, struct term *t)
{
    if (!term_of(w, LLVMGetOperand(gep, 0), depth + 1, t))
        return false;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(gep, i);
        LLVMTypeRef stepped = cur;   /* what index i steps over */
        if (i > 1) {
            LLVMTypeKind k = LLVMGetTypeKind(cur);
            if (k == LLVMStructTypeKind) {
                if (!LLVMIsAConstantInt(idx))
                    return false;
                cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(idx));
                continue;   /* a field: a constant offset */
            }
            if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind)
                return false;
            cur = stepped = LLVMGetElementType(cur);
        }
        struct term it;
        if (!term_of(w, idx, depth + 1, &it))
            return false;
        if (!it.moves)
            continue;
        scale(&it, (int64_t)LLVMABISizeOfType(w->td, stepped));
        *t = combine(*t, it, 1);
    }
    return true;
}

static bool term_of(struct walk *w, LLVMValueRef v, unsigned depth, struct term *t)
{
    *t = (struct term){0};
    if (invariant(w->loops, w->loop, v))
        return true;   /* fixed while the loop runs */
    if (depth > TERM_DEPTH)
        return false;
    if (LLVMIsAPHINode(v)) {
        struct weft_induction ind;
        if (w->iv ? v != w->iv : !induction_of(w, v, depth, &ind))
            return false;   /* another phi, or a second induction variable */
        if (!w->iv) {
            w->iv = v;
            w->ind = ind;
        }
        *t = (struct term){true, true, 1};
        return true;
    }
    struct term a, b;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMGetElementPtr:
        return gep_term(w, v, depth, t);
    case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMAddrSpaceCast: case LLVMBitCast:
        return term_of(w, LLVMGetOperand(v, 0), depth + 1, t);
    case LLVMOr:   /* a disjoint or is an add */
    case LLVMAdd: case LLVMSub:
        if (LLVMGetInstructionOpcode(v) == LLVMOr && !LLVMGetIsDisjoint(v))
            return false;
        if (!term_of(w, LLVMGetOperand(v, 0), depth + 1, &a) || !term_of(w, LLVMGetOperand(v, 1), depth + 1, &b))
            return false;
        *t = combine(a, b, LLVMGetInstructionOpcode(v) == LLVMSub ? -1 : 1);
        return true;
    case LLVMAShr: case LLVMLShr: {
        /* by a constant, of a coefficient it divides (sext(trunc(x)) as shl 32, ashr exact 32) */
        LLVMValueRef k = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) > 62 || !term_of(w, LLVMGetOperand(v, 0), depth + 1, t))
            return false;
        int64_t d = (int64_t)1 << LLVMConstIntGetZExtValue(k);
        if (t->moves && (!t->known || t->coef % d != 0))
            return false;
        t->coef /= d;
        return true;
    }
    case LLVMMul: case LLVMShl: {
        bool shl = LLVMGetInstructionOpcode(v) == LLVMShl;
        if (!term_of(w, LLVMGetOperand(v, 0), depth + 1, &a) || !term_of(w, LLVMGetOperand(v, 1), depth + 1, &b))
            return false;
        if ((a.moves && b.moves) || (shl && b.moves))
            return false;
        struct term m = a.moves ? a : b;
        LLVMValueRef other = LLVMGetOperand(v, a.moves ? 1 : 0);
        *t = m;
        if (!m.moves)
            return true;
        int64_t c = LLVMIsAConstantInt(other) ? LLVMConstIntGetSExtValue(other) : 0;
        if (!LLVMIsAConstantInt(other) || (shl && (c < 0 || c > 32)))
            t->known = false;   /* times a runtime value (a row length) */
        else
            scale(t, shl ? (int64_t)1 << c : c);
        return true;
    }
    default:
        return false;
    }
}

/* Whether v depends on nothing that changes in loop `outer` but the inner loop's induction
 * variable `iv`: then every iteration of `outer` reads the same addresses again, from the cache
 * after the first (k-means' features, read once per cluster). */
static bool repeats_in(const struct weft_loops *loops, int outer, LLVMValueRef iv, LLVMValueRef v, unsigned depth)
{
    if (v == iv || invariant(loops, outer, v))
        return true;
    if (depth > TERM_DEPTH || LLVMIsAPHINode(v))
        return false;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMGetElementPtr: case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMAddrSpaceCast:
    case LLVMBitCast: case LLVMOr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAShr:
    case LLVMLShr:
        break;
    default:
        return false;
    }
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
        if (!repeats_in(loops, outer, iv, LLVMGetOperand(v, (unsigned)i), depth + 1))
            return false;
    return true;
}

struct cloner {
    LLVMBuilderRef b;
    const struct weft_loops *loops;
    int loop;
    LLVMValueRef iv, ahead;
    struct weft_ptrmap done;
};

/* v with the induction variable replaced by `ahead`, built before the builder's position (no wrap
 * flags, no inbounds: the address may be past the object, which a prefetch may name). */
static LLVMValueRef clone_ahead(struct cloner *c, LLVMValueRef v)
{
    if (v == c->iv)
        return c->ahead;
    if (!LLVMIsAInstruction(v) || weft_loop_defined_outside(c->loops, c->loop, v))
        return v;   /* (a size query in the loop is cloned: it may come after the load) */
    uintptr_t got = weft_ptrmap_get_or(&c->done, v, 0);
    if (got)
        return (LLVMValueRef)got;
    LLVMValueRef n = LLVMInstructionClone(v);
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
        LLVMSetOperand(n, (unsigned)i, clone_ahead(c, LLVMGetOperand(v, (unsigned)i)));
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl) {
        LLVMSetNSW(n, 0);
        LLVMSetNUW(n, 0);
    } else if (op == LLVMGetElementPtr) {
        LLVMSetIsInBounds(n, 0);
    }
    LLVMInsertIntoBuilderWithName(c->b, n, "pf");
    weft_ptrmap_put(&c->done, v, (uintptr_t)n);
    return n;
}

/* iv + WEFT_PREFETCH_AHEAD * step (minus for a counting-down variable), after the header's phis. */
static LLVMValueRef advanced(LLVMBuilderRef b, const struct weft_induction *ind)
{
    LLVMBasicBlockRef header = LLVMGetInstructionParent(ind->phi);
    LLVMValueRef at = LLVMGetFirstInstruction(header);
    while (at && LLVMIsAPHINode(at))
        at = LLVMGetNextInstruction(at);
    LLVMPositionBuilderBefore(b, at);
    LLVMTypeRef t = LLVMTypeOf(ind->phi);
    LLVMValueRef step = ind->step;
    if (LLVMIsAInstruction(step) && size_query(step)) {
        step = LLVMInstructionClone(step);   /* the latch's query, again before its first use */
        LLVMInsertIntoBuilderWithName(b, step, "pf.step");
    }
    LLVMValueRef dist = LLVMBuildMul(b, step, LLVMConstInt(t, WEFT_PREFETCH_AHEAD, 0), "pf.dist");
    return ind->down ? LLVMBuildSub(b, ind->phi, dist, "pf.iv") : LLVMBuildAdd(b, ind->phi, dist, "pf.iv");
}

unsigned weft_prefetch_grid_strides(LLVMValueRef fn)
{
    if (!fn || !LLVMGetFirstBasicBlock(fn))
        return 0;
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    struct weft_cfg *cfg = weft_cfg_build(fn);
    struct weft_domtree *dom = cfg ? weft_dom_compute(cfg) : NULL;
    struct weft_loops *loops = dom ? weft_loops_compute(cfg, dom) : NULL;
    if (!loops || !loops->count) {
        weft_loops_free(loops);
        weft_dom_free(dom);
        weft_cfg_free(cfg);
        return 0;
    }
    /* first the loads to prefetch (the CFG's positions stay valid while nothing is inserted) */
    struct pick {
        LLVMValueRef load, iv;
        struct weft_induction ind;
        int loop;
    } picks[PREFETCH_MAX];
    LLVMValueRef roots[PREFETCH_MAX];
    unsigned n = 0;
    for (size_t bi = 0; bi < cfg->nblocks && n < PREFETCH_MAX; bi++) {
        int l = weft_cfg_reachable(cfg, bi) ? loops->innermost[bi] : -1;
        if (l < 0)
            continue;
        for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[bi]); in && n < PREFETCH_MAX;
             in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsALoadInst(in) || LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
                continue;
            LLVMValueRef ptr = LLVMGetOperand(in, 0);
            unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
            if (as != 1 && as != 2)
                continue;   /* global and constant memory only */
            struct walk w = {loops, l, LLVMGetModuleDataLayout(m), NULL, {0}};
            struct term t;
            if (!term_of(&w, ptr, 0, &t) || !t.moves || !grid_stride(w.ind.step, 0))
                continue;
            int outer = loops->loops[l].parent;
            if (outer >= 0 && repeats_in(loops, outer, w.iv, ptr, 0))
                continue;   /* read again from the cache by the enclosing loop */
            LLVMValueRef root = weft_pointer_object(ptr);
            bool seen = false;
            for (unsigned k = 0; k < n; k++)
                seen |= picks[k].loop == l && roots[k] == root;
            if (seen)
                continue;   /* one per object and loop */
            roots[n] = root;
            picks[n++] = (struct pick){in, w.iv, w.ind, l};
        }
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", strlen("llvm.prefetch"));
    LLVMValueRef aheads[PREFETCH_MAX] = {0};
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef ahead = NULL;
        for (unsigned j = 0; j < k && !ahead; j++)
            if (picks[j].iv == picks[k].iv)
                ahead = aheads[j];
        aheads[k] = ahead ? ahead : advanced(b, &picks[k].ind);
        struct cloner c = {b, loops, picks[k].loop, picks[k].iv, aheads[k], {0}};
        weft_ptrmap_init(&c.done);
        LLVMPositionBuilderBefore(b, picks[k].load);
        LLVMValueRef addr = clone_ahead(&c, LLVMGetOperand(picks[k].load, 0));
        weft_ptrmap_free(&c.done);
        LLVMTypeRef pt = LLVMTypeOf(addr);
        LLVMValueRef decl = LLVMGetIntrinsicDeclaration(m, id, &pt, 1);
        /* read, keep in every cache level, data */
        LLVMValueRef args[] = {addr, LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 3, 0), LLVMConstInt(i32, 1, 0)};
        LLVMBuildCall2(b, LLVMGlobalGetValueType(decl), decl, args, 4, "");
    }
    LLVMDisposeBuilder(b);
    weft_loops_free(loops);
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    return n;
}
