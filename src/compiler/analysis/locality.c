/* compiler/analysis/locality.c — stride classes of loop accesses and the DFO/BFO vote
 * (analysis/locality.h).
 *
 * The evaluator answers "how much does v change when the variable of interest (a loop's
 * induction variables, or one dimension's local id) steps by one" as an exact integer or X.
 * Integers count in their own units, pointers in bytes; an access's class divides by the
 * accessed element's size. Values are memoized per question; a value met again while it is
 * being evaluated (a cycle through phis) counts as 0 for that evaluation, which is what the
 * loop-carried part of a non-induction recurrence contributes to one step.
 */
#include "compiler/analysis/locality.h"

#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/shape.h"
#include "compiler/transform/irutil.h"
#include "util/ptrmap.h"

#define STRIDE_X INT64_MIN
#define STRIDE_BUSY (INT64_MIN + 1)

struct eval {
    const struct weft_loops *loops;
    int loop;                 /* >= 0: strides along this loop's induction variables */
    int dim;                  /* loop < 0: strides along this dimension's work-items */
    bool approx;
    LLVMTargetDataRef td;
    struct weft_ptrmap memo;  /* value -> (uintptr_t)int64 stride */
};

static bool name_is(LLVMValueRef call, const char *want)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee))
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

/* get_local_id(d) / get_global_id(d) with a constant d: returns d, else -1. */
static int id_call_dim(LLVMValueRef call)
{
    if (!name_is(call, "_Z12get_local_idj") && !name_is(call, "_Z13get_global_idj"))
        return -1;
    LLVMValueRef d = LLVMGetOperand(call, 0);
    return d && LLVMIsAConstantInt(d) ? (int)LLVMConstIntGetZExtValue(d) : 3;
}

static bool is_barrier_call(LLVMValueRef in)
{
    if (!LLVMIsACallInst(in))
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!callee || !LLVMIsAFunction(callee))
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    return (len >= 10 && memcmp(name, "_Z7barrier", 10) == 0) ||
           (len >= 20 && memcmp(name, "_Z18work_group_barrier", 20) == 0) ||
           strcmp(name, "__weft_implicit_barrier") == 0;
}

static int64_t add_s(int64_t a, int64_t b)
{
    int64_t r;
    if (a == STRIDE_X || b == STRIDE_X || __builtin_add_overflow(a, b, &r))
        return STRIDE_X;
    return r;
}

static int64_t mul_s(int64_t a, int64_t c)
{
    int64_t r;
    if (a == STRIDE_X || __builtin_mul_overflow(a, c, &r))
        return STRIDE_X;
    return r;
}

/* Kim's approximate merge of two candidate strides (phi, select). */
static int64_t merge_s(const struct eval *e, int64_t a, int64_t b)
{
    if (a == b)
        return a;
    if (e->approx && ((a == 0 && b == 1) || (a == 1 && b == 0)))
        return 1;
    return STRIDE_X;
}

/* Division-like operations of a value with stride s (rem, div, and-mask, right shift): exact
 * when `divisor` divides s and the operation is exact; else Kim's approximation for s == 1. */
static int64_t divlike_s(const struct eval *e, int64_t s, int64_t divisor, bool exact)
{
    if (s == 0)
        return 0;
    if (exact && divisor > 0 && s != STRIDE_X && s % divisor == 0)
        return s / divisor;
    return e->approx && s == 1 ? 1 : STRIDE_X;
}

static int64_t stride_of(struct eval *e, LLVMValueRef v);

static int64_t all_operands_zero(struct eval *e, LLVMValueRef in)
{
    int n = LLVMGetNumOperands(in);
    for (int i = 0; i < n; i++) {
        LLVMValueRef op = LLVMGetOperand(in, i);
        if (LLVMIsABasicBlock(op) || LLVMIsAFunction(op))
            continue;
        if (stride_of(e, op) != 0)
            return STRIDE_X;
    }
    return 0;
}

static bool const_int(LLVMValueRef v, int64_t *out)
{
    if (!v || !LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

static int64_t gep_stride(struct eval *e, LLVMValueRef in)
{
    int64_t s = stride_of(e, LLVMGetOperand(in, 0));
    LLVMTypeRef t = LLVMGetGEPSourceElementType(in);
    int n = LLVMGetNumOperands(in);
    for (int i = 1; i < n && s != STRIDE_X; i++) {
        LLVMValueRef idx = LLVMGetOperand(in, i);
        if (i > 1) {
            LLVMTypeKind k = LLVMGetTypeKind(t);
            if (k == LLVMStructTypeKind) {
                t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
                continue;
            }
            t = LLVMGetElementType(t);
        }
        int64_t is = stride_of(e, idx);
        if (is == 0)
            continue;
        s = add_s(s, mul_s(is, (int64_t)LLVMABISizeOfType(e->td, t)));
    }
    return s;
}

static int64_t phi_stride(struct eval *e, LLVMValueRef in)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(in);
    if (e->loop >= 0) {
        int b = weft_cfg_index(e->loops->cfg, bb);
        if (b >= 0 && (int)e->loops->loops[e->loop].header == b) {
            struct weft_induction ind;
            int64_t step;
            if (weft_loop_induction(e->loops, e->loop, in, &ind) && const_int(ind.step, &step))
                return ind.down ? mul_s(step, -1) : step;
            /* a pointer stepping by a constant GEP every iteration */
            LLVMValueRef latch_val = NULL;
            for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
                int p = weft_cfg_index(e->loops->cfg, LLVMGetIncomingBlock(in, k));
                if (p >= 0 && weft_loop_contains(e->loops, e->loop, p)) {
                    LLVMValueRef val = LLVMGetIncomingValue(in, k);
                    if (latch_val && latch_val != val)
                        return STRIDE_X;
                    latch_val = val;
                }
            }
            if (latch_val && LLVMIsAGetElementPtrInst(latch_val) && LLVMGetOperand(latch_val, 0) == in &&
                LLVMGetNumOperands(latch_val) == 2 && const_int(LLVMGetOperand(latch_val, 1), &step))
                return mul_s(step, (int64_t)LLVMABISizeOfType(e->td, LLVMGetGEPSourceElementType(latch_val)));
            return STRIDE_X;   /* a recurrence the loop computes: unknown per iteration */
        }
    }
    int64_t s = STRIDE_BUSY;
    for (unsigned k = 0; k < LLVMCountIncoming(in) && s != STRIDE_X; k++) {
        int64_t t = stride_of(e, LLVMGetIncomingValue(in, k));
        s = s == STRIDE_BUSY ? t : merge_s(e, s, t);
    }
    return s == STRIDE_BUSY ? 0 : s;
}

static int64_t eval_inst(struct eval *e, LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    int64_t c;
    switch (op) {
    case LLVMCall: {
        int d = id_call_dim(in);
        if (d >= 0)
            return e->loop < 0 && d == e->dim ? 1 : 0;
        return all_operands_zero(e, in);
    }
    case LLVMPHI:
        return phi_stride(e, in);
    case LLVMAdd:
        return add_s(stride_of(e, LLVMGetOperand(in, 0)), stride_of(e, LLVMGetOperand(in, 1)));
    case LLVMOr:
        if (LLVMGetIsDisjoint(in))
            return add_s(stride_of(e, LLVMGetOperand(in, 0)), stride_of(e, LLVMGetOperand(in, 1)));
        return all_operands_zero(e, in);
    case LLVMSub:
        return add_s(stride_of(e, LLVMGetOperand(in, 0)), mul_s(stride_of(e, LLVMGetOperand(in, 1)), -1));
    case LLVMMul:
        for (int i = 0; i < 2; i++)
            if (const_int(LLVMGetOperand(in, i), &c))
                return mul_s(stride_of(e, LLVMGetOperand(in, 1 - i)), c);
        return all_operands_zero(e, in);
    case LLVMShl:
        if (const_int(LLVMGetOperand(in, 1), &c) && c >= 0 && c < 62)
            return mul_s(stride_of(e, LLVMGetOperand(in, 0)), (int64_t)1 << c);
        return all_operands_zero(e, in);
    case LLVMAShr:
    case LLVMLShr:
        if (const_int(LLVMGetOperand(in, 1), &c) && c >= 0 && c < 62)
            return divlike_s(e, stride_of(e, LLVMGetOperand(in, 0)), (int64_t)1 << c, LLVMGetExact(in));
        return all_operands_zero(e, in);
    case LLVMSDiv:
    case LLVMUDiv:
        if (stride_of(e, LLVMGetOperand(in, 1)) != 0)
            return STRIDE_X;
        return divlike_s(e, stride_of(e, LLVMGetOperand(in, 0)),
                         const_int(LLVMGetOperand(in, 1), &c) ? c : 0, LLVMGetExact(in));
    case LLVMSRem:
    case LLVMURem:
    case LLVMAnd:
        if (stride_of(e, LLVMGetOperand(in, 1)) != 0)
            return all_operands_zero(e, in);
        return divlike_s(e, stride_of(e, LLVMGetOperand(in, 0)), 0, false);
    case LLVMSExt:
    case LLVMZExt:
    case LLVMTrunc:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMFreeze:
        return stride_of(e, LLVMGetOperand(in, 0));
    case LLVMGetElementPtr:
        return gep_stride(e, in);
    case LLVMSelect:
        return merge_s(e, stride_of(e, LLVMGetOperand(in, 1)), stride_of(e, LLVMGetOperand(in, 2)));
    case LLVMLoad:
        return stride_of(e, LLVMGetOperand(in, 0)) == 0 ? 0 : STRIDE_X;
    default:
        return all_operands_zero(e, in);
    }
}

static int64_t stride_of(struct eval *e, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return 0;   /* arguments, constants and globals are the same for every step */
    if (e->loop >= 0 && weft_loop_defined_outside(e->loops, e->loop, v))
        return 0;
    uintptr_t m;
    if (weft_ptrmap_get(&e->memo, v, &m))
        return (int64_t)m == STRIDE_BUSY ? 0 : (int64_t)m;
    weft_ptrmap_put(&e->memo, v, (uintptr_t)STRIDE_BUSY);
    int64_t s = eval_inst(e, v);
    weft_ptrmap_put(&e->memo, v, (uintptr_t)s);
    return s;
}

/* ---- classification and votes ------------------------------------------------------------ */

static enum weft_stride_class classify(int64_t bytes, uint64_t elem)
{
    if (bytes == 0)
        return WEFT_STRIDE_0;
    if (bytes != STRIDE_X && elem && (uint64_t)(bytes < 0 ? -bytes : bytes) == elem)
        return WEFT_STRIDE_1;
    return WEFT_STRIDE_X;
}

/* Table 3.1: +1 BFO, -1 DFO, 0 neutral. Rows L0/L1/LX, columns W0/W1/WX. */
static int table_vote(enum weft_stride_class l, enum weft_stride_class w)
{
    static const int t[3][3] = {{0, -1, -1}, {1, 0, -1}, {1, 1, 0}};
    return t[l][w];
}

/* The object an address points into, through GEPs and casts. */
static LLVMValueRef address_root(LLVMValueRef p)
{
    for (int guard = 0; guard < 64 && p; guard++) {
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
            p = LLVMGetOperand(p, 0);
        else if (LLVMIsAConstantExpr(p) && (LLVMGetConstOpcode(p) == LLVMGetElementPtr ||
                                            LLVMGetConstOpcode(p) == LLVMBitCast))
            p = LLVMGetOperand(p, 0);
        else
            break;
    }
    return p;
}

static bool votes_access(LLVMValueRef in, LLVMValueRef *addr, LLVMTypeRef *ty)
{
    if (LLVMIsALoadInst(in)) {
        *addr = LLVMGetOperand(in, 0);
        *ty = LLVMTypeOf(in);
    } else if (LLVMIsAStoreInst(in)) {
        *addr = LLVMGetOperand(in, 1);
        *ty = LLVMTypeOf(LLVMGetOperand(in, 0));
    } else {
        return false;
    }
    if (weft_pointer_space(*addr) == 3)
        return false;   /* __local: a work-group's own small array, L1-resident either way */
    LLVMValueRef root = address_root(*addr);
    return !(root && LLVMIsAAllocaInst(root));
}

/* The divergent branches, other than the loop's own, that block b is control dependent on
 * (iterated post-dominance frontier): how many, and the first one found. */
static unsigned divergent_controls(const struct weft_cfg *cfg, const struct weft_domtree *pdom,
                                   const struct weft_loops *loops, int loop, const struct weft_shapes *shapes, int b,
                                   LLVMBasicBlockRef *first)
{
    size_t n = cfg->nblocks;
    char *seen = calloc(n, 1);
    uint32_t *work = malloc(n * sizeof *work);
    size_t top = 0;
    unsigned divergent = 0;
    if (!seen || !work) {
        free(seen);
        free(work);
        return 2;
    }
    work[top++] = (uint32_t)b;
    seen[b] = 1;
    while (top) {
        uint32_t x = work[--top];
        size_t nf = 0;
        const uint32_t *f = weft_dom_frontier(pdom, (int)x, &nf);
        for (size_t i = 0; i < nf; i++) {
            uint32_t y = f[i];
            if (y >= n || seen[y])
                continue;
            seen[y] = 1;
            if (!weft_loop_contains(loops, loop, (int)y) && weft_shapes_branch_divergent(shapes, cfg->blocks[y])) {
                if (!divergent++)
                    *first = cfg->blocks[y];
            }
            work[top++] = y;
        }
    }
    free(seen);
    free(work);
    return divergent;
}

static void analyse_loop(struct weft_locality *L, int li, const struct weft_shapes *shapes,
                         const struct weft_domtree *pdom, bool approx, LLVMTargetDataRef td)
{
    const struct weft_loops *loops = L->loops;
    const struct weft_loop *lp = &loops->loops[li];
    struct weft_loop_locality *r = &L->loop[li];
    r->loop = li;
    r->header = L->cfg->blocks[lp->header];
    struct eval le = {loops, li, -1, approx, td, {0}};
    struct eval we[3];
    weft_ptrmap_init(&le.memo);
    for (int d = 0; d < 3; d++) {
        we[d] = (struct eval){loops, -1, d, approx, td, {0}};
        weft_ptrmap_init(&we[d].memo);
    }
    bool has_barrier = false;
    for (size_t i = 0; i < lp->nblocks; i++) {
        uint32_t b = lp->blocks[i];
        bool own = loops->innermost[b] == li;
        for (LLVMValueRef in = LLVMGetFirstInstruction(L->cfg->blocks[b]); in; in = LLVMGetNextInstruction(in)) {
            has_barrier |= is_barrier_call(in);
            LLVMValueRef addr;
            LLVMTypeRef ty;
            if (!own || !votes_access(in, &addr, &ty))
                continue;
            uint64_t elem = LLVMStoreSizeOfType(td, ty);
            struct weft_access_locality a = {in, classify(stride_of(&le, addr), elem), {0}};
            for (int d = 0; d < 3; d++) {
                a.wi[d] = L->dim_used[d] ? classify(stride_of(&we[d], addr), elem) : WEFT_STRIDE_0;
                if (!L->dim_used[d])
                    continue;
                int v = table_vote(a.loop, a.wi[d]);
                if (v > 0)
                    r->bfo[d]++;
                else if (v < 0)
                    r->dfo[d]++;
                else
                    r->neutral[d]++;
            }
            struct weft_access_locality *grown = realloc(r->accesses, (r->naccesses + 1) * sizeof *grown);
            if (grown) {
                r->accesses = grown;
                r->accesses[r->naccesses++] = a;
            }
        }
    }
    for (int d = 0; d < 3; d++) {
        r->votes_bfo += r->bfo[d];
        r->votes_dfo += r->dfo[d];
        r->votes_neutral += r->neutral[d];
        weft_ptrmap_free(&we[d].memo);
    }
    weft_ptrmap_free(&le.memo);
    r->prefers_bfo = r->votes_bfo > r->votes_dfo;
    r->divergent = !shapes || weft_shapes_loop_divergent(shapes, r->header);
    r->has_barrier = has_barrier;
    if (has_barrier)
        r->not_schedulable = "it contains a barrier (it already runs breadth-first)";
    else if (!shapes)
        r->not_schedulable = "no shapes";
    else if ((r->guards = divergent_controls(L->cfg, pdom, loops, li, shapes, (int)lp->header, &r->guard)) > 1)
        r->not_schedulable = "it is nested in more than one divergent branch";
}

/* A scheduled loop puts a barrier in its body, which every work-item of the group must reach
 * the same number of times. That holds only while every loop around it runs the same
 * iterations for all work-items: an enclosing loop with a divergent trip count that stays
 * depth-first (a scheduled one becomes a uniform skeleton and is no longer divergent), or a
 * divergent guard outside an enclosing loop (the guard's other side would join the skeleton
 * once while the loop runs it many times), makes work-items wait at different barriers:
 * their stores were lost (shared/repros/variant-bfo). */
static void check_enclosing_loops(struct weft_locality *L, int li)
{
    struct weft_loop_locality *r = &L->loop[li];
    if (r->not_schedulable)
        return;
    int guard = r->guards ? weft_cfg_index(L->cfg, r->guard) : -1;
    for (int p = L->loops->loops[li].parent; p >= 0; p = L->loops->loops[p].parent) {
        if (L->loop[p].divergent) {
            r->not_schedulable = "it is nested in a divergent loop that runs depth-first";
            return;
        }
        if (guard >= 0 && !weft_loop_contains(L->loops, p, guard)) {
            r->not_schedulable = "the divergent branch around it is outside a loop that encloses it";
            return;
        }
    }
}

struct weft_locality *weft_locality_compute(LLVMValueRef fn, const uint64_t local_size[3], bool approximate)
{
    struct weft_cfg *cfg = weft_cfg_build(fn);
    if (!cfg)
        return NULL;
    struct weft_locality *L = calloc(1, sizeof *L);
    L->cfg = cfg;
    L->dom = weft_dom_compute(cfg);
    L->loops = weft_loops_compute(cfg, L->dom);
    L->count = L->loops->count;
    L->loop = calloc(L->count ? L->count : 1, sizeof *L->loop);
    for (int d = 0; d < 3; d++)
        L->dim_used[d] = local_size && local_size[d] > 1;
    if (!local_size)
        for (size_t b = 0; b < cfg->nblocks; b++)
            for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[b]); in; in = LLVMGetNextInstruction(in))
                if (LLVMIsACallInst(in)) {
                    int d = id_call_dim(in);
                    if (d >= 0 && d < 3)
                        L->dim_used[d] = true;
                }
    if (L->count) {
        struct weft_shapes *shapes = weft_shapes_create(fn, L->loops);
        if (local_size)
            weft_shapes_set_local_size(shapes, local_size);
        weft_shapes_run(shapes);
        struct weft_domtree *pdom = weft_postdom_compute(cfg);
        LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
        for (size_t i = 0; i < L->count; i++)
            analyse_loop(L, (int)i, shapes, pdom, approximate, td);
        for (size_t i = 0; i < L->count; i++)
            check_enclosing_loops(L, (int)i);
        weft_dom_free(pdom);
        weft_shapes_free(shapes);
    }
    return L;
}

void weft_locality_free(struct weft_locality *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++)
        free(l->loop[i].accesses);
    free(l->loop);
    weft_loops_free(l->loops);
    weft_dom_free(l->dom);
    weft_cfg_free(l->cfg);
    free(l);
}

const char *weft_stride_class_name(char axis, enum weft_stride_class c)
{
    static const char *const l[] = {"L0", "L1", "LX"}, *const w[] = {"W0", "W1", "WX"};
    return axis == 'L' ? l[c] : w[c];
}
