/* compiler/transform/vectorize_mask.c — a packet's control flow: the sub-CFG's blocks copied
 * with uniform branches kept (structured), run in the plan's linear order under lane masks
 * (linearized), or the fast path that runs a full packet unmasked while its lanes agree and
 * hands it over to the linearized copy where they first do not.
 *
 * Values that cross blocks go through their slots (reloaded at the top of each block that uses
 * them); PHIs through theirs, stored at the end of each predecessor (blended under the edge's
 * mask when linearized). In the linearized copy each block and each exit of the sub-CFG has a
 * mask slot that the edges into it OR their masks into; the exit chain leaves towards the
 * barrier whose mask has a lane.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/transform/passes.h"
#include "compiler/transform/vectorize_internal.h"

static void reload(struct weft_vec_plan *p, LLVMValueRef op, int k)
{
    struct vinfo *vi = weft_vec_info(p, op);
    if (!vi || weft_vec_valid(p, vi) || (vi->block == k && !LLVMIsAPHINode(op)) || (!vi->slot_s && !vi->slot_v))
        return;
    vi->epoch = p->epoch;
    vi->scal = vi->slot_s ? LLVMBuildLoad2(p->b, LLVMTypeOf(op), vi->slot_s, "") : NULL;
    vi->vec = vi->slot_v ? LLVMBuildLoad2(p->b, weft_vec_vtype(p, LLVMTypeOf(op)), vi->slot_v, "") : NULL;
}

/* At the top of an original block: loads of its PHIs, of the values it uses from other blocks,
 * and of those its successors' PHIs take from it. */
static void preload(struct weft_vec_plan *p, int k)
{
    p->epoch++;
    LLVMBasicBlockRef bb = p->blocks[k];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAPHINode(i)) {
            reload(p, i, k);
            continue;
        }
        int no = LLVMGetNumOperands(i);
        for (int o = 0; o < no; o++)
            reload(p, LLVMGetOperand(i, (unsigned)o), k);
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned j = 0; j < ns; j++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
            for (unsigned q = 0; q < LLVMCountIncoming(phi); q++)
                if (LLVMGetIncomingBlock(phi, q) == bb)
                    reload(p, LLVMGetIncomingValue(phi, q), k);
    }
}

static LLVMValueRef any_lane(struct weft_vec_plan *p, LLVMValueRef mask)
{
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    return LLVMBuildICmp(p->b, LLVMIntNE, weft_vec_mask_bits(p, mask), LLVMConstInt(it, 0, 0), "any");
}

/* Stores what the PHIs of successor `s` take from block k, under `mask` (NULL: no blend). */
static void store_phis(struct weft_vec_plan *p, int k, LLVMBasicBlockRef s, LLVMValueRef mask)
{
    for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
        struct vinfo *pi = weft_vec_info(p, phi);
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned q = 0; q < n; q++) {
            if (LLVMGetIncomingBlock(phi, q) != p->blocks[k])
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(phi, q);
            if (pi->slot_s) {
                LLVMValueRef sv = weft_vec_get_scal(p, v);
                if (mask) {
                    /* a uniform or affine PHI keeps its value when no lane takes the edge */
                    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(sv), pi->slot_s, "");
                    sv = LLVMBuildSelect(p->b, any_lane(p, mask), sv, old, "");
                }
                LLVMBuildStore(p->b, sv, pi->slot_s);
            }
            if (pi->slot_v)
                LLVMBuildStore(p->b, weft_vec_blend(p, mask, weft_vec_get_vec(p, v), pi->slot_v), pi->slot_v);
            break;   /* one incoming value per predecessor block */
        }
    }
}

/* Whether successor s has a PHI with an incoming value from block k. */
static bool has_phis_from(struct weft_vec_plan *p, int k, LLVMBasicBlockRef s)
{
    for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
        for (unsigned q = 0, n = LLVMCountIncoming(phi); q < n; q++)
            if (LLVMGetIncomingBlock(phi, q) == p->blocks[k])
                return true;
    return false;
}

/* Computes, at the builder, the values store_phis(p, k, s, ...) will store, so that stores
 * emitted later on an edge block (or a hand-over) reuse them instead of computing them there. */
static void prepare_phis(struct weft_vec_plan *p, int k, LLVMBasicBlockRef s)
{
    for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
        struct vinfo *pi = weft_vec_info(p, phi);
        for (unsigned q = 0, n = LLVMCountIncoming(phi); q < n; q++) {
            if (LLVMGetIncomingBlock(phi, q) != p->blocks[k])
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(phi, q);
            if (pi->slot_s)
                weft_vec_get_scal(p, v);
            if (pi->slot_v)
                weft_vec_get_vec(p, v);
            break;
        }
    }
}

static void or_into(struct weft_vec_plan *p, LLVMValueRef slot, LLVMValueRef m)
{
    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(m), slot, "");
    LLVMBuildStore(p->b, LLVMBuildOr(p->b, old, m, ""), slot);
}

static int exit_index(struct weft_vec_plan *p, LLVMBasicBlockRef bb)
{
    for (unsigned e = 0; e < p->nexits; e++)
        if (p->exits[e] == bb)
            return (int)e;
    return -1;
}

static LLVMBasicBlockRef stub_for(struct weft_vec_plan *p, struct stubs *st, int e)
{
    if (!st->bb[e])
        st->bb[e] = st->fn(st->opaque, p->exits[e], st->done);
    return st->bb[e];
}

static void emit_block_body(struct weft_vec_plan *p, int k)
{
    preload(p, k);
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[k]); i && !p->failed; i = LLVMGetNextInstruction(i))
        weft_vec_emit_inst(p, weft_vec_info(p, i));
}

static void edge_masks(struct weft_vec_plan *p, int k, LLVMValueRef m, LLVMValueRef *emask);

static LLVMBasicBlockRef after_position(struct weft_vec_plan *p, int last, int inner_first, LLVMBasicBlockRef *guard,
                                        LLVMBasicBlockRef *loop_end, LLVMBasicBlockRef exit_chain);

/* The fast path's hand-over to the linear copy where the lanes of a full packet first disagree
 * at block k's terminator. Up to here every lane ran every block of the path, so the linear
 * copy's state is what it would be had it run them: no mask set but the edges out of k (all
 * lanes were in k), values in their slots (both copies keep them there). k's successors' PHI
 * slots are stored here, each lane those of the successor it takes, as the linear copy's edges
 * do: a PHI of one successor may still be read, with its old value, on the way through the
 * other. Control goes on at the position after k, as the linear copy would after k. */
static LLVMBasicBlockRef hand_over(struct weft_vec_plan *p, int k)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "diverge");
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(p->b);
    LLVMPositionBuilderAtEnd(p->b, bb);
    /* every mask is clear already (clear_masks at the packet's start; the unmasked copy
     * writes none): a hand-over costs its two edge masks, not one store per block, which made
     * the code quadratic in the blocks of a sub-CFG with many divergent branches */
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    unsigned ns = LLVMGetNumSuccessors(t);
    LLVMValueRef *emask = calloc(ns + 1, sizeof *emask);
    if (!emask)
        abort();
    edge_masks(p, k, weft_vec_const_mask(p, p->P), emask);
    for (unsigned j = 0; j < ns; j++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
        int si = weft_vec_block_index(p, s);
        or_into(p, si >= 0 ? p->bmask[si] : p->xmask[exit_index(p, s)], emask[j]);
        /* the unmasked copy stores the successors' PHIs only on its edges (emit_structured):
         * here each lane's edge stores them, as in the linear copy (a successor reached by
         * two edges gets one incoming value: every lane stores it) */
        bool dup = false;
        for (unsigned q = 0; q < ns; q++)
            dup |= q != j && LLVMGetSuccessor(t, q) == s;
        bool first = true;
        for (unsigned q = 0; q < j; q++)
            first &= LLVMGetSuccessor(t, q) != s;
        if (si >= 0 && first)
            store_phis(p, k, s, dup ? NULL : emask[j]);
    }
    free(emask);
    LLVMBuildBr(p->b, after_position(p, p->position[k], p->norder, p->lin_guard, p->lin_loop_end, p->lin_exit));
    LLVMPositionBuilderAtEnd(p->b, saved);
    return bb;
}

/* Whether the lanes of a full packet agree on i1 `cond`, from scalars where that is cheap:
 * *all and *none are i1 values such that *all implies every lane's `cond` is true and *none
 * implies none is (each may be false when the lanes do agree: the caller then tests the lanes).
 * A comparison of an affine integer of constant stride with a uniform value is decided by the
 * packet's first and last lanes (the lanes lie between them, in order, unless the last lane
 * overflows: then nothing is decided); `and`, `or` and `not` of such comparisons combine them.
 * Stencils test their borders this way (`if (i == 0 || i == n - 1)`): the packets inside decide
 * with two scalar compares instead of a vector of lane ids. With `gone` (may be NULL), *gone
 * implies that no lane of this packet or of any later one of the packet loop's row holds
 * `cond` (vectorize_rest.c: `id < u` with the ids increasing, `id == u` once past u). False
 * when nothing is decided. */
static bool lanes_agree_scalar(struct weft_vec_plan *p, LLVMValueRef cond, unsigned depth, LLVMValueRef *all,
                               LLVMValueRef *none, LLVMValueRef *gone)
{
    LLVMValueRef F = LLVMConstInt(p->i1, 0, 0);
    *all = *none = F;
    if (gone)
        *gone = F;
    if (weft_vec_kind_of(p, cond) == K_U) {
        LLVMValueRef u = weft_vec_get_scal(p, cond);
        *all = u;
        *none = LLVMBuildNot(p->b, u, "");
        if (gone)
            *gone = *none;
        return true;
    }
    if (depth > 4 || !LLVMIsAInstruction(cond))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(cond);
    LLVMValueRef a_all, a_none, a_gone, b_all, b_none, b_gone;
    if (op == LLVMXor && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) &&
        LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1) {
        if (!lanes_agree_scalar(p, LLVMGetOperand(cond, 0), depth + 1, &a_all, &a_none, NULL))
            return false;
        *all = a_none;
        *none = a_all;   /* `gone` would need "every lane, from here on": not tracked */
        return true;
    }
    /* `and`/`or`, and clang's short-circuit forms select(a, b, false) and select(a, true, b) */
    int is_and = op == LLVMAnd, is_or = op == LLVMOr;
    LLVMValueRef x = NULL, y = NULL;
    if (is_and || is_or) {
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 1);
    } else if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 2)) &&
               !LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 2))) {
        is_and = 1;
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 1);
    } else if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) &&
               LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1) {
        is_or = 1;
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 2);
    }
    if (is_and || is_or) {
        a_gone = b_gone = F;
        bool dx = lanes_agree_scalar(p, x, depth + 1, &a_all, &a_none, gone ? &a_gone : NULL);
        bool dy = lanes_agree_scalar(p, y, depth + 1, &b_all, &b_none, gone ? &b_gone : NULL);
        if (!dx && !dy)
            return false;
        if (is_and) {   /* all: both all; none (and gone): either */
            *all = dx && dy ? LLVMBuildAnd(p->b, a_all, b_all, "") : F;
            *none = LLVMBuildOr(p->b, a_none, b_none, "");
            if (gone)
                *gone = a_gone == F ? b_gone : b_gone == F ? a_gone : LLVMBuildOr(p->b, a_gone, b_gone, "");
        } else {        /* all: either all; none (and gone): both */
            *all = LLVMBuildOr(p->b, a_all, b_all, "");
            *none = dx && dy ? LLVMBuildAnd(p->b, a_none, b_none, "") : F;
            if (gone)
                *gone = a_gone != F && b_gone != F ? LLVMBuildAnd(p->b, a_gone, b_gone, "") : F;
        }
        return true;
    }
    if (op != LLVMICmp)
        return false;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
    LLVMValueRef v = LLVMGetOperand(cond, 0), u = LLVMGetOperand(cond, 1);
    if (weft_vec_kind_of(p, v) == K_U) {   /* the affine side on the left: u pred v is v swapped(pred) u */
        LLVMValueRef t = v;
        v = u;
        u = t;
        static const LLVMIntPredicate swapped[] = {
            [LLVMIntEQ] = LLVMIntEQ, [LLVMIntNE] = LLVMIntNE, [LLVMIntUGT] = LLVMIntULT, [LLVMIntUGE] = LLVMIntULE,
            [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE, [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE,
            [LLVMIntSLT] = LLVMIntSGT, [LLVMIntSLE] = LLVMIntSGE,
        };
        pred = swapped[pred];
    }
    struct vinfo *vi = weft_vec_info(p, v);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (weft_vec_kind_of(p, u) != K_U || !vi || vi->kind != K_A || !vi->has_stride || vi->stride == 0 ||
        LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return false;
    bool is_signed = pred == LLVMIntSGT || pred == LLVMIntSGE || pred == LLVMIntSLT || pred == LLVMIntSLE;
    /* last lane = first + (P-1)*stride, checked for overflow in the comparison's signedness
     * (EQ/NE: unsigned, so that the lanes are strictly ordered as unsigned numbers) */
    unsigned bits = LLVMGetIntTypeWidth(t);
    int64_t step;
    if (p->P < 2 || __builtin_mul_overflow(vi->stride, (int64_t)(p->P - 1), &step) || step == INT64_MIN ||
        (bits < 64 && (step >= (int64_t)1 << (bits - 1) || step < -((int64_t)1 << (bits - 1)))))
        return false;
    LLVMValueRef first = weft_vec_get_scal(p, v), uu = weft_vec_get_scal(p, u);
    char name[40];
    bool up = vi->stride > 0;
    snprintf(name, sizeof name, "llvm.%s%s.with.overflow", is_signed ? "s" : "u", up || is_signed ? "add" : "sub");
    LLVMValueRef d = LLVMConstInt(t, (uint64_t)(up || is_signed ? step : -step), 1);
    LLVMValueRef args[] = {first, d};
    LLVMValueRef r = weft_vec_call_intrinsic(p, name, &t, 1, args, 2);
    LLVMValueRef last = LLVMBuildExtractValue(p->b, r, 0, "last.lane");
    LLVMValueRef ok = LLVMBuildNot(p->b, LLVMBuildExtractValue(p->b, r, 1, ""), "");
    LLVMValueRef lo = up ? first : last, hi = up ? last : first;
    LLVMValueRef A = F, N = F, G = F;
    if (pred == LLVMIntEQ || pred == LLVMIntNE) {
        /* the lanes differ: never all equal; none equal when u lies outside them */
        LLVMValueRef above = LLVMBuildICmp(p->b, LLVMIntUGT, uu, hi, "");
        LLVMValueRef below = LLVMBuildICmp(p->b, LLVMIntULT, uu, lo, "");
        *(pred == LLVMIntEQ ? &N : &A) = LLVMBuildOr(p->b, below, above, "");
        /* and the later work-items, further from u, never equal it either */
        if (pred == LLVMIntEQ)
            G = up ? below : above;
    } else {
        /* an ordering holds in every lane when it holds in the extreme lane on its side (the
         * last for < and <=, the first for > and >=), and in none when its inverse holds in
         * every lane */
        static const LLVMIntPredicate inverse[] = {
            [LLVMIntUGT] = LLVMIntULE, [LLVMIntUGE] = LLVMIntULT, [LLVMIntULT] = LLVMIntUGE, [LLVMIntULE] = LLVMIntUGT,
            [LLVMIntSGT] = LLVMIntSLE, [LLVMIntSGE] = LLVMIntSLT, [LLVMIntSLT] = LLVMIntSGE, [LLVMIntSLE] = LLVMIntSGT,
        };
        bool less = pred == LLVMIntULT || pred == LLVMIntULE || pred == LLVMIntSLT || pred == LLVMIntSLE;
        A = LLVMBuildICmp(p->b, pred, less ? hi : lo, uu, "");
        N = LLVMBuildICmp(p->b, inverse[pred], less ? lo : hi, uu, "");
        /* none now, and none later when the later work-items move away from u: ids increasing
         * under < and <=, decreasing under > and >= */
        if (less == up)
            G = N;
    }
    *all = A == F ? F : LLVMBuildAnd(p->b, ok, A, "lanes.all");
    *none = N == F ? F : LLVMBuildAnd(p->b, ok, N, "lanes.none");
    /* `gone`: no lane of this packet or of any later one of the row: the values of the row's
     * remaining work-items lie between the first lane's and first + (local size - 1) * stride,
     * in order, when that does not overflow either */
    int64_t far;
    uint64_t l0 = p->wf->local_size[0];
    if (gone && G != F && l0 >= 2 && !__builtin_mul_overflow(vi->stride, (int64_t)(l0 - 1), &far) && far != INT64_MIN &&
        (bits >= 64 || (far < (int64_t)1 << (bits - 1) && far >= -((int64_t)1 << (bits - 1))))) {
        LLVMValueRef fd = LLVMConstInt(t, (uint64_t)(up || is_signed ? far : -far), 1);
        LLVMValueRef fargs[] = {first, fd};
        LLVMValueRef fr = weft_vec_call_intrinsic(p, name, &t, 1, fargs, 2);
        LLVMValueRef far_ok = LLVMBuildNot(p->b, LLVMBuildExtractValue(p->b, fr, 1, ""), "");
        *gone = LLVMBuildAnd(p->b, LLVMBuildAnd(p->b, ok, far_ok, ""), G, "lanes.gone");
    }
    return true;
}

/* The lanes of i1 `cond` computed anew at the builder: comparisons of affine values rebuild
 * those from their scalars, `and`/`or`/`xor`/`select` rebuild their operands, anything else is
 * its vector as emitted. */
static LLVMValueRef lanes_again(struct weft_vec_plan *p, LLVMValueRef v, unsigned depth)
{
    struct vinfo *vi = weft_vec_info(p, v);
    if (!vi || !weft_vec_valid(p, vi) || depth > 4)
        return weft_vec_get_vec(p, v);
    if (vi->kind == K_A && vi->has_stride && vi->scal)
        return weft_vec_affine_vec(p, vi);
    if (vi->kind != K_V || !LLVMIsAInstruction(v))
        return weft_vec_get_vec(p, v);
    LLVMValueRef a, b;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMICmp:
        a = lanes_again(p, LLVMGetOperand(v, 0), depth + 1);
        b = lanes_again(p, LLVMGetOperand(v, 1), depth + 1);
        return LLVMBuildICmp(p->b, LLVMGetICmpPredicate(v), a, b, "");
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
        a = lanes_again(p, LLVMGetOperand(v, 0), depth + 1);
        b = lanes_again(p, LLVMGetOperand(v, 1), depth + 1);
        return LLVMBuildBinOp(p->b, LLVMGetInstructionOpcode(v), a, b, "");
    case LLVMSelect:
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 1)
            return weft_vec_get_vec(p, v);
        return LLVMBuildSelect(p->b, lanes_again(p, LLVMGetOperand(v, 0), depth + 1),
                               lanes_again(p, LLVMGetOperand(v, 1), depth + 1),
                               lanes_again(p, LLVMGetOperand(v, 2), depth + 1), "");
    default:
        return weft_vec_get_vec(p, v);
    }
}

/* The terminator of block k in the fast path of a divergent sub-CFG: a branch on a varying
 * condition goes on unmasked while every lane of the packet takes the same side, and hands the
 * packet over to the linear copy when they do not; a switch on a varying value always does. */
static void emit_fast_terminator(struct weft_vec_plan *p, int k, const LLVMBasicBlockRef *target)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    LLVMBasicBlockRef succ[2] = {target[0], LLVMIsASwitchInst(t) ? NULL : target[1]};
    if (LLVMIsASwitchInst(t)) {
        LLVMBuildBr(p->b, hand_over(p, k));
        return;
    }
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    LLVMValueRef s_all, s_none, s_gone = NULL;
    /* whether all lanes failing it tells of the later packets too: only a final guard asks */
    bool final = p->rest_idle && weft_vec_final_guard(p, k);
    bool decided = lanes_agree_scalar(p, LLVMGetOperand(t, 0), 0, &s_all, &s_none, final ? &s_gone : NULL);
    if (decided) {
        /* decided from scalars where it can be; the lanes are tested only where not */
        if (p->rep)
            p->rep->scalar_agree++;
        LLVMBasicBlockRef not_all = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.not.all");
        LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.test");
        LLVMBuildCondBr(p->b, s_all, succ[0], not_all);
        LLVMPositionBuilderAtEnd(p->b, not_all);
        LLVMBasicBlockRef none_to = succ[1];
        if (final && !LLVMIsConstant(s_gone)) {
            /* a final guard (vectorize_rest.c): when the later packets fail it too, this
             * packet is the loop's last */
            if (p->rep)
                p->rep->final_guards++;
            none_to = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "packets.rest.idle");
            LLVMPositionBuilderAtEnd(p->b, none_to);
            LLVMValueRef was = LLVMBuildLoad2(p->b, p->i1, p->rest_idle, "");
            LLVMBuildStore(p->b, LLVMBuildOr(p->b, was, s_gone, ""), p->rest_idle);
            LLVMBuildBr(p->b, succ[1]);
            LLVMPositionBuilderAtEnd(p->b, not_all);
        }
        LLVMBuildCondBr(p->b, s_none, none_to, test);
        LLVMPositionBuilderAtEnd(p->b, test);
    }
    /* With the scalar test in front, the lanes' condition is computed again where they are
     * tested, and the hand-over's edge masks (get_vec) read that copy while it is emitted:
     * computed once in the block, LLVM would place it where both the test and the later blocks'
     * tests can use it, on the path the scalars decided. */
    LLVMValueRef cond = LLVMGetOperand(t, 0);
    struct vinfo *ci = decided ? weft_vec_info(p, cond) : NULL;
    LLVMValueRef kept = ci ? ci->vec : NULL;
    if (ci)
        ci->vec = lanes_again(p, cond, 0);
    LLVMValueRef bits = weft_vec_mask_bits(p, weft_vec_get_vec(p, cond));
    LLVMValueRef all = LLVMBuildICmp(p->b, LLVMIntEQ, bits, LLVMConstAllOnes(it), "all.lanes");
    LLVMValueRef none = LLVMBuildICmp(p->b, LLVMIntEQ, bits, LLVMConstNull(it), "no.lane");
    LLVMBasicBlockRef split = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.split");
    LLVMBasicBlockRef mixed = hand_over(p, k);
    if (ci)
        ci->vec = kept;
    LLVMBuildCondBr(p->b, all, succ[0], split);
    LLVMPositionBuilderAtEnd(p->b, split);
    LLVMBuildCondBr(p->b, none, succ[1], mixed);
}

/* Uniform control flow: the copy has the sub-CFG's shape; branches stay scalar. With `fast`
 * (a divergent sub-CFG, a full packet, its linear copy emitted), this is the fast path that
 * runs unmasked while all lanes agree (emit_fast_terminator). */
void weft_vec_emit_structured(struct weft_vec_plan *p, LLVMBasicBlockRef start, struct stubs *st, bool fast)
{
    LLVMValueRef fn = p->wf->fn;
    LLVMBasicBlockRef *clone = calloc(p->nb, sizeof *clone);
    if (!clone)
        abort();
    for (unsigned k = 0; k < p->nb; k++) {
        char name[96];
        snprintf(name, sizeof name, "vec.%.80s", LLVMGetBasicBlockName(p->blocks[k]));
        clone[k] = LLVMAppendBasicBlockInContext(p->c, fn, name);
    }
    LLVMPositionBuilderAtEnd(p->b, start);
    LLVMBuildBr(p->b, clone[0]);
    for (unsigned k = 0; k < p->nb && !p->failed; k++) {
        LLVMPositionBuilderAtEnd(p->b, clone[k]);
        emit_block_body(p, (int)k);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
        unsigned ns = LLVMGetNumSuccessors(t);
        LLVMBasicBlockRef *target = calloc(ns + 1, sizeof *target);
        if (!target)
            abort();
        bool several = false;   /* two successors or more: the PHIs' stores go on the edges */
        for (unsigned j = 1; j < ns; j++)
            several |= LLVMGetSuccessor(t, j) != LLVMGetSuccessor(t, 0);
        for (unsigned j = 0; j < ns; j++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
            int si = weft_vec_block_index(p, s);
            target[j] = si >= 0 ? clone[si] : stub_for(p, st, exit_index(p, s));
            bool dup = false;
            for (unsigned q = 0; q < j; q++)
                dup |= LLVMGetSuccessor(t, q) == s;
            if (dup) {
                for (unsigned q = 0; q < j; q++)
                    if (LLVMGetSuccessor(t, q) == s)
                        target[j] = target[q];
                continue;
            }
            if (si < 0)
                continue;
            if (!several) {
                store_phis(p, (int)k, s, NULL);
                continue;
            }
            /* A PHI written before the branch would be written for the other side too, which may
             * still read its old value: a loop header's PHI updated by a `continue` edge, read
             * by the block that tests the exit (`while (1) { i++; if (i & 1) continue; ...
             * if (i >= lim) break; }` left the loop one iteration early). So the stores go on an
             * edge block of their own, their values computed here. */
            if (!has_phis_from(p, (int)k, s))
                continue;
            prepare_phis(p, (int)k, s);
            /* the body may have split the block (a call scalarized lane by lane): the branch goes
             * at the end of where the body ended, not at the end of clone[k] */
            LLVMBasicBlockRef here = LLVMGetInsertBlock(p->b);
            LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(p->c, fn, "edge");
            LLVMPositionBuilderAtEnd(p->b, edge);
            store_phis(p, (int)k, s, NULL);
            LLVMBuildBr(p->b, target[j]);
            LLVMPositionBuilderAtEnd(p->b, here);
            target[j] = edge;
        }
        bool conditional = (LLVMIsABranchInst(t) && LLVMIsConditional(t)) || LLVMIsASwitchInst(t);
        if (fast && conditional && weft_vec_kind_of(p, LLVMGetOperand(t, 0)) != K_U) {
            emit_fast_terminator(p, (int)k, target);
            free(target);
            continue;
        }
        LLVMValueRef c = LLVMInstructionClone(t);
        if (conditional)
            LLVMSetOperand(c, 0, weft_vec_get_scal(p, LLVMGetOperand(t, 0)));
        LLVMInsertIntoBuilder(p->b, c);
        for (unsigned j = 0; j < ns; j++)
            LLVMSetSuccessor(c, j, target[j]);
        free(target);
    }
    free(clone);
}

/* The edge masks of block k's terminator under block mask m (one per successor slot). */
static void edge_masks(struct weft_vec_plan *p, int k, LLVMValueRef m, LLVMValueRef *emask)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    unsigned ns = LLVMGetNumSuccessors(t);
    if (LLVMIsABranchInst(t) && LLVMIsConditional(t)) {
        LLVMValueRef cnd = LLVMGetOperand(t, 0);
        LLVMValueRef cv = weft_vec_get_vec(p, cnd);
        emask[0] = weft_vec_mask_and(p, m, cv);
        emask[1] = weft_vec_mask_and(p, m, LLVMBuildNot(p->b, cv, ""));
    } else if (LLVMIsASwitchInst(t)) {
        LLVMValueRef cv = weft_vec_get_vec(p, LLVMGetOperand(t, 0));
        LLVMValueRef rest = m;
        /* successor 0 is the default; case j compares with operand 2j */
        for (unsigned j = 1; j < ns; j++) {
            LLVMValueRef eq = LLVMBuildICmp(p->b, LLVMIntEQ, cv, weft_vec_const_splat(p, LLVMGetOperand(t, 2 * j)), "");
            emask[j] = weft_vec_mask_and(p, m, eq);
            rest = weft_vec_mask_and(p, rest, LLVMBuildNot(p->b, eq, ""));
        }
        emask[0] = rest;
    } else {
        for (unsigned j = 0; j < ns; j++)
            emask[j] = m;
    }
}

/* Where control continues after the loop that ends at position `last`, skipping to the end
 * test of an enclosing loop that ends there too (the innermost of those after `inner_first`). */
static LLVMBasicBlockRef after_position(struct weft_vec_plan *p, int last, int inner_first, LLVMBasicBlockRef *guard,
                                        LLVMBasicBlockRef *loop_end, LLVMBasicBlockRef exit_chain)
{
    int best = -1;
    for (int l = 0; l < p->nloops; l++)
        if (p->loops[l].last == last && p->loops[l].first < inner_first &&
            (best < 0 || p->loops[l].first > p->loops[best].first))
            best = l;
    if (best >= 0)
        return loop_end[best];
    return last + 1 < p->norder ? guard[last + 1] : exit_chain;
}

/* Divergent control flow: blocks in the linear order, each under its mask. With start NULL
 * the copy has no entry of its own: the fast path hands packets over to it (hand_over). Its
 * guards, loop ends and exit stay in the plan until the next packet. */
void weft_vec_emit_linear(struct weft_vec_plan *p, LLVMBasicBlockRef start, LLVMValueRef entry_mask, struct stubs *st)
{
    LLVMValueRef fn = p->wf->fn;
    LLVMTypeRef mt = LLVMVectorType(p->i1, p->P);
    LLVMValueRef zero = LLVMConstNull(mt);
    int n = p->norder;
    free(p->lin_guard);
    free(p->lin_loop_end);
    LLVMBasicBlockRef *guard = p->lin_guard = calloc((size_t)n + 1, sizeof *guard);
    LLVMBasicBlockRef *loop_end = p->lin_loop_end = calloc((size_t)p->nloops + 1, sizeof *loop_end);
    if (!guard || !loop_end)
        abort();
    for (int x = 0; x < n; x++) {
        char name[96];
        snprintf(name, sizeof name, "lin.%.80s", LLVMGetBasicBlockName(p->blocks[p->order[x]]));
        guard[x] = LLVMAppendBasicBlockInContext(p->c, fn, name);
    }
    for (int l = 0; l < p->nloops; l++)
        loop_end[l] = LLVMAppendBasicBlockInContext(p->c, fn, "lin.loop.end");
    LLVMBasicBlockRef exit_chain = p->lin_exit = LLVMAppendBasicBlockInContext(p->c, fn, "lin.exit");

    /* all masks clear; the entry's is the packet's */
    if (start) {
        LLVMPositionBuilderAtEnd(p->b, start);
        for (unsigned k = 0; k < p->nb; k++)
            LLVMBuildStore(p->b, zero, p->bmask[k]);
        for (unsigned e = 0; e < p->nexits; e++)
            LLVMBuildStore(p->b, zero, p->xmask[e]);
        LLVMBuildStore(p->b, entry_mask, p->bmask[0]);
        LLVMBuildBr(p->b, guard[0]);
    }

    for (int x = 0; x < n && !p->failed; x++) {
        int k = p->order[x];
        int L = weft_vec_loop_with_header(p, k);
        /* an empty block is skipped; an empty loop header skips its whole loop */
        LLVMBasicBlockRef next = after_position(p, x, n, guard, loop_end, exit_chain);
        LLVMBasicBlockRef skip = L >= 0 ? after_position(p, p->loops[L].last, p->loops[L].first, guard, loop_end, exit_chain)
                                        : next;
        LLVMPositionBuilderAtEnd(p->b, guard[x]);
        LLVMValueRef m = LLVMBuildLoad2(p->b, mt, p->bmask[k], "mask");
        char name[96];
        snprintf(name, sizeof name, "run.%.80s", LLVMGetBasicBlockName(p->blocks[k]));
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(p->c, fn, name);
        LLVMBuildCondBr(p->b, any_lane(p, m), body, skip);
        LLVMPositionBuilderAtEnd(p->b, body);
        p->mask = m;
        p->const_active = -1;
        p->rep->masked_blocks++;
        if (L >= 0) {
            /* a new iteration: its blocks start empty, back edges collect the next one's lanes */
            for (unsigned b = 0; b < p->nb; b++)
                if (weft_vec_in_loop(p, L, (int)b))
                    LLVMBuildStore(p->b, zero, p->bmask[b]);
        }
        emit_block_body(p, k);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
        unsigned ns = LLVMGetNumSuccessors(t);
        LLVMValueRef *emask = calloc(ns + 1, sizeof *emask);
        if (!emask)
            abort();
        edge_masks(p, k, m, emask);
        for (unsigned j = 0; j < ns; j++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
            int si = weft_vec_block_index(p, s);
            if (si >= 0) {
                store_phis(p, k, s, emask[j]);
                or_into(p, p->bmask[si], emask[j]);
            } else {
                or_into(p, p->xmask[exit_index(p, s)], emask[j]);
            }
        }
        free(emask);
        LLVMBuildBr(p->b, next);
    }
    /* loop ends: another iteration while the back edges left lanes in the header */
    for (int l = 0; l < p->nloops; l++) {
        LLVMPositionBuilderAtEnd(p->b, loop_end[l]);
        LLVMValueRef hm = LLVMBuildLoad2(p->b, mt, p->bmask[p->loops[l].header], "");
        LLVMBuildCondBr(p->b, any_lane(p, hm), guard[p->loops[l].first],
                        after_position(p, p->loops[l].last, p->loops[l].first, guard, loop_end, exit_chain));
    }
    /* the exit: the barrier the lanes left towards (all active lanes agree on it) */
    LLVMPositionBuilderAtEnd(p->b, exit_chain);
    for (unsigned e = 0; e < p->nexits; e++) {
        LLVMBasicBlockRef stub = stub_for(p, st, (int)e);
        if (e + 1 == p->nexits) {
            LLVMBuildBr(p->b, stub);
            break;
        }
        LLVMValueRef xm = LLVMBuildLoad2(p->b, mt, p->xmask[e], "");
        LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(p->c, fn, "lin.exit.next");
        LLVMBuildCondBr(p->b, any_lane(p, xm), stub, other);
        LLVMPositionBuilderAtEnd(p->b, other);
    }
    if (p->nexits == 0)
        LLVMBuildUnreachable(p->b);
}

/* Clears every block and exit mask at the builder. */
void weft_vec_clear_masks(struct weft_vec_plan *p)
{
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(p->i1, p->P));
    for (unsigned b = 0; b < p->nb; b++)
        LLVMBuildStore(p->b, zero, p->bmask[b]);
    for (unsigned e = 0; e < p->nexits; e++)
        LLVMBuildStore(p->b, zero, p->xmask[e]);
}

/* The entry mask of a linearized partial packet, lanes 0..active-1, as a value LLVM cannot fold:
 * the lane count comes back through a volatile load at the start of `start`. With the mask a
 * constant, InstCombine turns the linear copy's block masks (select (m, c, false)) into shuffles
 * with a false half, and LLVM 19's X86 backend lost the false half of one kept across blocks
 * (kmovd of the whole splat): the tail packet of a local size of 48 ran lanes 48..63 and its
 * masked stores wrote past their slots (SIGSEGV in a scatter after the barrier). What the
 * vectorizer itself knows of the packet (const_active) stays; a structured (uniform) copy keeps
 * its constant mask, which only its memory accesses read. */
LLVMValueRef weft_vec_partial_mask(struct weft_vec_plan *p, LLVMBasicBlockRef start, unsigned active)
{
    LLVMValueRef slot = weft_vec_entry_alloca(p, p->i32, "packet.lanes");
    LLVMPositionBuilderAtEnd(p->b, start);
    LLVMValueRef st = LLVMBuildStore(p->b, LLVMConstInt(p->i32, active, 0), slot);
    LLVMSetVolatile(st, 1);
    LLVMValueRef n = LLVMBuildLoad2(p->b, p->i32, slot, "packet.lanes");
    LLVMSetVolatile(n, 1);
    return LLVMBuildICmp(p->b, LLVMIntULT, weft_vec_iota(p, p->i32), weft_vec_splat(p, n), "packet.mask");
}
