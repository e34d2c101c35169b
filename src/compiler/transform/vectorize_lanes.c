/* compiler/transform/vectorize_lanes.c — what a packet runs lane by lane, and what crosses its
 * lanes.
 *
 * Serialized operations (atomics, fences, volatile or atomic accesses, calls of unknown
 * functions) run once per active lane, in work-item order: unrolled for the P lanes, or as a
 * loop over the lanes when a sub-CFG has many of them (plan->serial_loops). Sub-group
 * collectives (reduce, scan, broadcast, all/any) combine the lanes of each W-lane sub-group of
 * the packet, inactive lanes contributing the operation's identity.
 */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "compiler/transform/irutil.h"
#include "compiler/transform/subgroup.h"
#include "compiler/transform/vectorize_internal.h"

/* A loop ID `!{self, !{"llvm.loop.unroll.disable"}}` for a loop over lanes that must stay a loop. */
static LLVMValueRef loop_no_unroll(struct weft_vec_plan *p)
{
    LLVMMetadataRef dis = LLVMMDStringInContext2(p->c, "llvm.loop.unroll.disable", 24);
    LLVMMetadataRef opt = LLVMMDNodeInContext2(p->c, &dis, 1);
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(p->c, NULL, 0);
    LLVMMetadataRef ops[] = {tmp, opt};
    LLVMMetadataRef id = LLVMMDNodeInContext2(p->c, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, id);
    return LLVMMetadataAsValue(p->c, id);
}

/* weft_vec_serialize() as a loop over the lanes: one copy of the operation whatever the packet's size,
 * its operands and result moved through extractelement/insertelement at the loop's lane. False
 * (nothing emitted) when a value involved has no vector form (aggregates: cmpxchg's pair). */
static bool serialize_loop(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v;
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    if (has_value && !weft_vec_scalar_type(t))
        return false;
    int no = LLVMGetNumOperands(i);
    for (int o = 0; o < no; o++) {
        struct vinfo *oi = weft_vec_info(p, LLVMGetOperand(i, (unsigned)o));
        if (oi && weft_vec_valid(p, oi) && oi->lanes)
            return false;
    }
    /* the operands' scalar or vector forms before the loop, so that what they cache dominates
     * every later use */
    LLVMValueRef *ops = calloc((size_t)no + 1, sizeof *ops);
    bool *per_lane = calloc((size_t)no + 1, sizeof *per_lane);
    if (!ops || !per_lane)
        abort();
    for (int o = 0; o < no; o++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
        struct vinfo *oi = weft_vec_info(p, op);
        if (weft_vec_plain_operand(op))
            ops[o] = op;
        else if (weft_vec_kind_of(p, op) == K_U && (!oi || (weft_vec_valid(p, oi) && oi->scal)))
            ops[o] = weft_vec_get_scal(p, op);
        else {
            ops[o] = weft_vec_get_vec(p, op);
            per_lane[o] = true;
        }
    }
    unsigned n = p->const_active >= 0 ? (unsigned)p->const_active : p->P;
    bool dynamic = p->const_active < 0 && p->mask;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(p->b));
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(p->b);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(p->c, fn, "lanes");
    LLVMBasicBlockRef run = dynamic ? LLVMAppendBasicBlockInContext(p->c, fn, "lanes.run") : head;
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(p->c, fn, "lanes.next");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(p->c, fn, "lanes.done");
    LLVMTypeRef vt = has_value ? weft_vec_vtype(p, t) : NULL;
    LLVMBuildBr(p->b, head);
    LLVMPositionBuilderAtEnd(p->b, head);
    LLVMValueRef l = LLVMBuildPhi(p->b, p->i32, "lane");
    LLVMValueRef acc = has_value ? LLVMBuildPhi(p->b, vt, "") : NULL;
    if (dynamic) {
        LLVMBuildCondBr(p->b, LLVMBuildExtractElement(p->b, p->mask, l, ""), run, next);
        LLVMPositionBuilderAtEnd(p->b, run);
    }
    LLVMValueRef c = LLVMInstructionClone(i);
    for (int o = 0; o < no; o++)
        if (!weft_vec_plain_operand(LLVMGetOperand(i, (unsigned)o)))
            LLVMSetOperand(c, (unsigned)o,
                           per_lane[o] ? weft_vec_extract_lane(p, ops[o], l, LLVMTypeOf(LLVMGetOperand(i, (unsigned)o))) : ops[o]);
    LLVMInsertIntoBuilder(p->b, c);
    LLVMValueRef ran = has_value ? LLVMBuildInsertElement(p->b, acc, c, l, "") : NULL;
    LLVMBasicBlockRef run_end = LLVMGetInsertBlock(p->b);
    LLVMBuildBr(p->b, next);
    LLVMPositionBuilderAtEnd(p->b, next);
    LLVMValueRef after = ran;
    if (dynamic && has_value) {
        after = LLVMBuildPhi(p->b, vt, "");
        LLVMValueRef vals[] = {ran, acc};
        LLVMBasicBlockRef bbs[] = {run_end, head};
        LLVMAddIncoming(after, vals, bbs, 2);
    }
    LLVMValueRef ln = LLVMBuildNUWAdd(p->b, l, LLVMConstInt(p->i32, 1, 0), "");
    LLVMValueRef more = LLVMBuildICmp(p->b, LLVMIntULT, ln, LLVMConstInt(p->i32, n, 0), "");
    LLVMValueRef br = LLVMBuildCondBr(p->b, more, head, done);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(p->c, "llvm.loop", 9), loop_no_unroll(p));
    LLVMValueRef zero = LLVMConstInt(p->i32, 0, 0);
    LLVMAddIncoming(l, &zero, &pre, 1);
    LLVMAddIncoming(l, &ln, &next, 1);
    if (has_value) {
        LLVMValueRef undef = LLVMGetPoison(vt);
        LLVMAddIncoming(acc, &undef, &pre, 1);
        LLVMAddIncoming(acc, &after, &next, 1);
    }
    LLVMPositionBuilderAtEnd(p->b, done);
    free(ops);
    free(per_lane);
    p->rep->serialized++;
    free(vi->lanes);
    vi->lanes = NULL;
    if (has_value && vi->kind != K_V)
        vi->kind = K_V;   /* a uniform-looking atomic result differs per lane */
    weft_vec_define(p, vi, NULL, acc ? after : NULL);
    return true;
}

/* ---- a lane's address recomputed from scalars --------------------------------------------
 * A serialized access to __local memory through an address computed from loaded data (a
 * histogram's atomic_inc(&bins[data[i]]): i a loop counter, data[i] one vector load per
 * packet) would extract each lane's address from a vector of 64-bit pointers, about one and a
 * half vector-to-scalar moves a lane on top of the access. Recomputed from the scalars the
 * plan keeps (uniform values, lane 0 of affine values) and a scalar reload of the lane's
 * element, it is a byte load and an add folded into the access's address, as in a scalar
 * loop. The reload reads __global or __constant memory while nothing between the load and
 * the access (in the kernel's own block) may write memory, and the serialized access itself
 * only writes __local memory, which never aliases it: it reads what the vector load read. */

#define REMAT_DEPTH 4

/* Whether no instruction after `from` and before `to`, in one block, may write memory. */
static bool nothing_written_between(LLVMValueRef from, LLVMValueRef to)
{
    if (LLVMGetInstructionParent(from) != LLVMGetInstructionParent(to))
        return false;
    for (LLVMValueRef i = LLVMGetNextInstruction(from); i; i = LLVMGetNextInstruction(i)) {
        if (i == to)
            return true;
        if (LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
            (LLVMIsACallInst(i) && !weft_vec_droppable_call(i) && !weft_vec_is_prefetch(i) &&
             weft_wi_call_kind(i) == WEFT_WI_NONE))
            return false;
    }
    return false;
}

/* Lane l of v (an operand of `user`) from scalars, or NULL: uniform values, affine values of
 * constant stride, and casts, single-index GEPs and non-volatile loads of __global or
 * __constant memory over them, REMAT_DEPTH deep. */
static LLVMValueRef remat_lane(struct weft_vec_plan *p, LLVMValueRef v, unsigned l, LLVMValueRef user, unsigned depth)
{
    struct vinfo *vi = weft_vec_info(p, v);
    int kind = weft_vec_kind_of(p, v);
    if (kind == K_U)
        return !vi || (weft_vec_valid(p, vi) && vi->scal) ? weft_vec_get_scal(p, v) : NULL;
    if (!vi || depth > REMAT_DEPTH || !LLVMIsAInstruction(v))
        return NULL;
    if (kind == K_A) {
        if (!vi->has_stride || !weft_vec_valid(p, vi) || !vi->scal)
            return NULL;
        LLVMTypeRef t = LLVMTypeOf(vi->scal);
        if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
            LLVMValueRef off = LLVMConstInt(p->i64, (uint64_t)(vi->stride * (int64_t)l), 1);
            return LLVMBuildGEP2(p->b, LLVMInt8TypeInContext(p->c), vi->scal, &off, 1, "");
        }
        return LLVMGetTypeKind(t) == LLVMIntegerTypeKind
                   ? LLVMBuildAdd(p->b, vi->scal, LLVMConstInt(t, (uint64_t)(vi->stride * (int64_t)l), 1), "")
                   : NULL;
    }
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMZExt: case LLVMSExt: case LLVMTrunc: {
        LLVMValueRef a = remat_lane(p, LLVMGetOperand(v, 0), l, user, depth + 1);
        return a ? LLVMBuildCast(p->b, op, a, LLVMTypeOf(v), "") : NULL;
    }
    case LLVMGetElementPtr: {
        if (LLVMGetNumOperands(v) != 2)
            return NULL;
        LLVMValueRef base = remat_lane(p, LLVMGetOperand(v, 0), l, user, depth + 1);
        LLVMValueRef idx = base ? remat_lane(p, LLVMGetOperand(v, 1), l, user, depth + 1) : NULL;
        if (!idx)
            return NULL;
        LLVMValueRef r = LLVMBuildGEP2(p->b, LLVMGetGEPSourceElementType(v), base, &idx, 1, "");
        LLVMSetIsInBounds(r, LLVMIsInBounds(v));
        return r;
    }
    case LLVMLoad: {
        LLVMValueRef ptr = LLVMGetOperand(v, 0);
        unsigned as = weft_pointer_space(ptr);
        int pk = weft_vec_kind_of(p, ptr);
        if (LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic || (as != 1 && as != 2) ||
            pk == K_V || !nothing_written_between(v, user))
            return NULL;
        LLVMValueRef a = remat_lane(p, ptr, l, user, depth + 1);
        if (!a)
            return NULL;
        LLVMValueRef ld = LLVMBuildLoad2(p->b, LLVMTypeOf(v), a, "");
        LLVMSetAlignment(ld, LLVMGetAlignment(v));
        return ld;
    }
    default:
        return NULL;
    }
}

/* Whether operand o of serialized instruction i is the address of its access to __local memory. */
static bool local_address_operand(LLVMValueRef i, unsigned o)
{
    unsigned at = LLVMIsAStoreInst(i) ? 1u : 0u;
    bool access = LLVMIsALoadInst(i) || LLVMIsAStoreInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i);
    return access && o == at && weft_pointer_space(LLVMGetOperand(i, at)) == 3;
}

/* Per-lane execution in work-item order, for the active lanes only. */
void weft_vec_serialize(struct weft_vec_plan *p, struct vinfo *vi)
{
    if (p->serial_loops && serialize_loop(p, vi))
        return;
    LLVMValueRef i = vi->v;
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    unsigned n = p->const_active >= 0 ? (unsigned)p->const_active : p->P;
    bool dynamic = p->const_active < 0 && p->mask;
    LLVMValueRef *lanes = has_value ? calloc(p->P, sizeof *lanes) : NULL;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(p->b));
    p->rep->serialized++;
    bool remat = false;
    for (unsigned l = 0; l < p->P; l++) {
        if (l >= n) {
            if (lanes)
                lanes[l] = LLVMGetPoison(t);
            continue;
        }
        LLVMBasicBlockRef from = NULL, join = NULL;
        if (dynamic) {
            LLVMValueRef bit = LLVMBuildExtractElement(p->b, p->mask, LLVMConstInt(p->i32, l, 0), "");
            from = LLVMGetInsertBlock(p->b);
            LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(p->c, fn, "lane");
            join = LLVMAppendBasicBlockInContext(p->c, fn, "lane.next");
            LLVMBuildCondBr(p->b, bit, run, join);
            LLVMPositionBuilderAtEnd(p->b, run);
        }
        LLVMValueRef c = LLVMInstructionClone(i);
        int no = LLVMGetNumOperands(c);
        for (int o = 0; o < no; o++) {
            LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
            if (weft_vec_plain_operand(op))
                continue;
            LLVMValueRef lane = local_address_operand(i, (unsigned)o) ? remat_lane(p, op, l, i, 0) : NULL;
            remat |= lane != NULL;
            LLVMSetOperand(c, (unsigned)o, lane ? lane : weft_vec_lane_of(p, op, l));
        }
        LLVMInsertIntoBuilder(p->b, c);
        if (dynamic) {
            LLVMBasicBlockRef ran = LLVMGetInsertBlock(p->b);
            LLVMBuildBr(p->b, join);
            LLVMPositionBuilderAtEnd(p->b, join);
            if (has_value) {
                LLVMValueRef phi = LLVMBuildPhi(p->b, t, "");
                LLVMValueRef vals[] = {c, LLVMGetPoison(t)};
                LLVMBasicBlockRef bbs[] = {ran, from};
                LLVMAddIncoming(phi, vals, bbs, 2);
                c = phi;
            }
        }
        if (lanes)
            lanes[l] = c;
    }
    p->rep->remat += remat;
    LLVMValueRef vec = NULL;
    if (has_value && weft_vec_scalar_type(t)) {
        vec = LLVMGetPoison(weft_vec_vtype(p, t));
        for (unsigned l = 0; l < p->P; l++)
            vec = LLVMBuildInsertElement(p->b, vec, lanes[l], LLVMConstInt(p->i32, l, 0), "");
        free(lanes);
        lanes = NULL;
    }
    free(vi->lanes);
    vi->lanes = lanes;
    if (vec && vi->kind != K_V)
        vi->kind = K_V;   /* a uniform-looking atomic result differs per lane */
    weft_vec_define(p, vi, NULL, vec);
}

/* A sub-group is one W-lane group of the packet: lanes [g*W, (g+1)*W) of packet lanes, i.e.
 * W consecutive work-items starting at a multiple of W (wgfunction.c only lets the vectorizer
 * run a kernel with sub-groups when that is the spec's sub-group of those work-items). Every
 * collective works on the lanes of the current mask: an inactive lane (divergent code, the
 * tail of a local size that is not a multiple of P) contributes the operation's identity. */
/* Lanes [g*W, (g+1)*W) of a P-lane vector. */
static LLVMValueRef group_lanes(struct weft_vec_plan *p, LLVMValueRef v, unsigned g)
{
    if (p->P == p->W)
        return v;
    int *idx = malloc(sizeof(int) * p->W);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->W; l++)
        idx[l] = (int)(g * p->W + l);
    LLVMValueRef r = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), weft_vec_shuffle_mask(p, idx, p->W), "");
    free(idx);
    return r;
}

/* The P-lane vector whose lanes of group g all hold r[g]. */
static LLVMValueRef spread_groups(struct weft_vec_plan *p, LLVMValueRef *r, LLVMTypeRef t)
{
    unsigned ng = p->P / p->W;
    if (ng == 1)
        return weft_vec_splat(p, r[0]);
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(t, ng));
    for (unsigned g = 0; g < ng; g++)
        v = LLVMBuildInsertElement(p->b, v, r[g], LLVMConstInt(p->i32, g, 0), "");
    int *idx = malloc(sizeof(int) * p->P);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        idx[l] = (int)(l / p->W);
    LLVMValueRef out = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), weft_vec_shuffle_mask(p, idx, p->P), "");
    free(idx);
    return out;
}

/* One W-lane vector reduced to a scalar by the collective's operation. */
static LLVMValueRef reduce_group(struct weft_vec_plan *p, const struct weft_sg_call *sg, LLVMValueRef v)
{
    LLVMTypeRef vt = LLVMTypeOf(v);
    if (sg->is_float && sg->op == WEFT_SG_OP_ADD) {
        /* reassociable: the specification leaves the order of a floating-point reduction open */
        LLVMValueRef args[] = {weft_subgroup_identity(LLVMGetElementType(vt), sg), v};
        LLVMValueRef r = weft_vec_call_intrinsic(p, "llvm.vector.reduce.fadd", &vt, 1, args, 2);
        LLVMSetFastMathFlags(r, LLVMFastMathAllowReassoc);
        return r;
    }
    const char *name = sg->is_float ? (sg->op == WEFT_SG_OP_MIN ? "llvm.vector.reduce.fmin" : "llvm.vector.reduce.fmax")
                       : sg->op == WEFT_SG_OP_ADD ? "llvm.vector.reduce.add"
                       : sg->op == WEFT_SG_OP_MIN ? (sg->is_signed ? "llvm.vector.reduce.smin" : "llvm.vector.reduce.umin")
                                                  : (sg->is_signed ? "llvm.vector.reduce.smax" : "llvm.vector.reduce.umax");
    return weft_vec_call_intrinsic(p, name, &vt, 1, &v, 1);
}

/* a op b, lane by lane (fmin/fmax are OpenCL's: a NaN operand yields the other). */
static LLVMValueRef combine_lanes(struct weft_vec_plan *p, const struct weft_sg_call *sg, LLVMValueRef a, LLVMValueRef b)
{
    if (sg->op == WEFT_SG_OP_ADD)
        return sg->is_float ? LLVMBuildFAdd(p->b, a, b, "") : LLVMBuildAdd(p->b, a, b, "");
    const char *name = sg->is_float ? (sg->op == WEFT_SG_OP_MIN ? "llvm.minnum" : "llvm.maxnum")
                       : sg->op == WEFT_SG_OP_MIN ? (sg->is_signed ? "llvm.smin" : "llvm.umin")
                                                  : (sg->is_signed ? "llvm.smax" : "llvm.umax");
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[] = {a, b};
    return weft_vec_call_intrinsic(p, name, &t, 1, args, 2);
}

void weft_vec_emit_collective(struct weft_vec_plan *p, struct vinfo *vi, const struct weft_sg_call *sg)
{
    LLVMValueRef i = vi->v, x = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(x), rt = LLVMTypeOf(i);
    LLVMValueRef xv = weft_vec_get_vec(p, x), m = p->mask, r = NULL;
    unsigned ng = p->P / p->W;
    LLVMValueRef *res = calloc(ng, sizeof *res);
    if (!res)
        abort();
    switch (sg->kind) {
    case WEFT_SG_ALL:
    case WEFT_SG_ANY: {
        bool all = sg->kind == WEFT_SG_ALL;
        LLVMValueRef c = LLVMBuildICmp(p->b, LLVMIntNE, xv, LLVMConstNull(LLVMTypeOf(xv)), "");
        /* inactive lanes neither veto `all` nor satisfy `any` */
        if (m)
            c = LLVMBuildSelect(p->b, m, c, weft_vec_const_splat(p, LLVMConstInt(p->i1, all, 0)), "");
        for (unsigned g = 0; g < ng; g++) {
            LLVMValueRef gv = group_lanes(p, c, g);
            LLVMTypeRef gt = LLVMTypeOf(gv);
            LLVMValueRef red = weft_vec_call_intrinsic(p, all ? "llvm.vector.reduce.and" : "llvm.vector.reduce.or", &gt, 1, &gv, 1);
            res[g] = LLVMBuildZExt(p->b, red, rt, "");
        }
        r = spread_groups(p, res, rt);
        break;
    }
    case WEFT_SG_REDUCE: {
        LLVMValueRef xi = m ? LLVMBuildSelect(p->b, m, xv, weft_vec_const_splat(p, weft_subgroup_identity(t, sg)), "") : xv;
        for (unsigned g = 0; g < ng; g++)
            res[g] = reduce_group(p, sg, group_lanes(p, xi, g));
        r = spread_groups(p, res, rt);
        break;
    }
    case WEFT_SG_SCAN_INCLUSIVE:
    case WEFT_SG_SCAN_EXCLUSIVE: {
        /* Hillis-Steele within each group: log2(W) shifted combines */
        LLVMValueRef id = weft_vec_const_splat(p, weft_subgroup_identity(t, sg));
        r = m ? LLVMBuildSelect(p->b, m, xv, id, "") : xv;
        for (unsigned k = 1; k < p->W; k *= 2)
            r = combine_lanes(p, sg, r, weft_lanes_shift_up(p->b, r, p->W, k, id));
        if (sg->kind == WEFT_SG_SCAN_EXCLUSIVE)
            r = weft_lanes_shift_up(p->b, r, p->W, 1, id);
        break;
    }
    case WEFT_SG_BROADCAST: {
        /* the lane is the same for the whole sub-group (the specification's condition); a lane
         * outside the sub-group or an inactive one is undefined: wrap it into the group and
         * freeze whatever that lane holds */
        LLVMValueRef lane = LLVMGetOperand(i, 1);
        LLVMValueRef wmask = LLVMConstInt(p->i32, p->W - 1, 0);
        bool uniform = weft_vec_kind_of(p, lane) == K_U;
        LLVMValueRef ls = uniform ? LLVMBuildAnd(p->b, LLVMBuildIntCast2(p->b, weft_vec_get_scal(p, lane), p->i32, 0, ""), wmask, "") : NULL;
        LLVMValueRef lv = uniform ? NULL : weft_vec_get_vec(p, lane);
        LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
        LLVMValueRef bits = uniform ? NULL : weft_vec_mask_bits(p, weft_vec_cur_mask(p));
        for (unsigned g = 0; g < ng; g++) {
            LLVMValueRef base = LLVMConstInt(p->i32, g * p->W, 0), l = ls;
            if (!uniform) {
                /* the lane index as the group's first active lane has it */
                LLVMValueRef gb = LLVMBuildLShr(p->b, bits, LLVMConstInt(it, g * p->W, 0), "");
                LLVMValueRef args[] = {gb, LLVMConstInt(p->i1, 0, 0)};
                LLVMValueRef tz = LLVMBuildIntCast2(p->b, weft_vec_call_intrinsic(p, "llvm.cttz", &it, 1, args, 2), p->i32, 0, "");
                LLVMValueRef first = LLVMBuildAdd(p->b, base, LLVMBuildAnd(p->b, tz, wmask, ""), "");
                l = LLVMBuildExtractElement(p->b, lv, first, "");
                l = LLVMBuildAnd(p->b, LLVMBuildIntCast2(p->b, l, p->i32, 0, ""), wmask, "");
            }
            LLVMValueRef e = LLVMBuildExtractElement(p->b, xv, LLVMBuildAdd(p->b, base, l, ""), "");
            res[g] = LLVMBuildFreeze(p->b, e, "");
        }
        r = spread_groups(p, res, rt);
        break;
    }
    default:
        break;
    }
    free(res);
    if (!r) {
        weft_vec_fail_at(p, "internal: an unknown sub-group collective", i);
        return;
    }
    weft_vec_define(p, vi, NULL, r);
}
