/* compiler/transform/vectorize_values.c — a packet's values and the instructions that work
 * lane by lane on them.
 *
 * Every value of the sub-CFG has, while the block being emitted can use it (its epoch), a
 * scalar (uniform values, lane 0 of affine ones), a P-lane vector (varying and affine values;
 * component j of lane l of a vector-typed value is element l*n + j), or one value per lane (a
 * serialized result without a vector form). The getters make the missing form from the
 * present one; weft_vec_define records a definition and stores it into its slots when it
 * crosses blocks (blended under the mask in a linearized copy). Lane-wise instructions become
 * their scalar clone, their vector clone, or both; weft_vec_emit_inst dispatches every other
 * instruction to the part that emits it (memory, lanes).
 */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/subgroup.h"
#include "compiler/safediv.h"
#include "compiler/transform/vectorize_internal.h"

LLVMValueRef weft_vec_call_intrinsic(struct weft_vec_plan *p, const char *name, LLVMTypeRef *types, size_t ntypes,
                                     LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(p->m, id, types, ntypes);
    return LLVMBuildCall2(p->b, LLVMIntrinsicGetType(p->c, id, types, ntypes), f, args, nargs, "");
}

LLVMValueRef weft_vec_const_splat(struct weft_vec_plan *p, LLVMValueRef s)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = s;
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}

/* A constant shuffle mask (-1: undefined element). */
LLVMValueRef weft_vec_shuffle_mask(struct weft_vec_plan *p, const int *idx, unsigned n)
{
    LLVMValueRef *e = malloc(sizeof *e * n);
    if (!e)
        abort();
    for (unsigned k = 0; k < n; k++)
        e[k] = idx[k] < 0 ? LLVMGetUndef(p->i32) : LLVMConstInt(p->i32, (unsigned)idx[k], 0);
    LLVMValueRef v = LLVMConstVector(e, n);
    free(e);
    return v;
}

/* One vector of P x n elements from v by a single shuffle: element l*n + j is v's element l
 * (`by_lane`: each lane's value repeated for the n components of a vector-typed value) or v's
 * element j (a uniform <n x T> value repeated for every lane). */
LLVMValueRef weft_vec_spread(struct weft_vec_plan *p, LLVMValueRef v, unsigned n, bool by_lane)
{
    int *idx = malloc(sizeof(int) * p->P * n);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        for (unsigned j = 0; j < n; j++)
            idx[l * n + j] = (int)(by_lane ? l : j);
    LLVMValueRef r = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), weft_vec_shuffle_mask(p, idx, p->P * n), "");
    free(idx);
    return r;
}

LLVMValueRef weft_vec_splat(struct weft_vec_plan *p, LLVMValueRef s)
{
    if (LLVMGetTypeKind(LLVMTypeOf(s)) == LLVMVectorTypeKind)
        return weft_vec_spread(p, s, weft_vec_ncomp(LLVMTypeOf(s)), false);
    if (LLVMIsAConstantInt(s) || LLVMIsAConstantFP(s) || LLVMIsAConstantPointerNull(s) || LLVMIsAUndefValue(s) ||
        LLVMIsAPoisonValue(s))
        return weft_vec_const_splat(p, s);
    LLVMTypeRef vt = weft_vec_vtype(p, LLVMTypeOf(s));
    LLVMValueRef ins = LLVMBuildInsertElement(p->b, LLVMGetPoison(vt), s, LLVMConstInt(p->i32, 0, 0), "");
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(p->i32, p->P));
    return LLVMBuildShuffleVector(p->b, ins, LLVMGetPoison(vt), zero, "");
}

/* <0, 1, ..., P-1> of integer type t */
LLVMValueRef weft_vec_iota(struct weft_vec_plan *p, LLVMTypeRef t)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = LLVMConstInt(t, l, 0);
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}

LLVMValueRef weft_vec_const_mask(struct weft_vec_plan *p, unsigned active)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = LLVMConstInt(p->i1, l < active, 0);
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}

LLVMValueRef weft_vec_cur_mask(struct weft_vec_plan *p) { return p->mask ? p->mask : weft_vec_const_mask(p, p->P); }

/* m & c as select(m, c, false): lanes outside m may hold poison (a masked load leaves them
 * undefined) and `and` would spread it into the mask, where LLVM may read it as true. */
LLVMValueRef weft_vec_mask_and(struct weft_vec_plan *p, LLVMValueRef m, LLVMValueRef c)
{
    return LLVMBuildSelect(p->b, m, c, LLVMConstNull(LLVMTypeOf(m)), "");
}

/* Each lane's mask bit repeated for the n components of a vector-typed value. */
static LLVMValueRef mask_for(struct weft_vec_plan *p, LLVMValueRef mask, unsigned n)
{
    if (!mask || n == 1)
        return mask;
    return weft_vec_spread(p, mask, n, true);
}

/* The mask for a packet value of type vt. */
LLVMValueRef weft_vec_mask_like(struct weft_vec_plan *p, LLVMValueRef mask, LLVMTypeRef vt)
{
    return mask_for(p, mask, LLVMGetVectorSize(vt) / p->P);
}

/* Lane `lane` (an i32 value) of a packet value of per-work-item type t. */
LLVMValueRef weft_vec_extract_lane(struct weft_vec_plan *p, LLVMValueRef vec, LLVMValueRef lane, LLVMTypeRef t)
{
    unsigned n = weft_vec_ncomp(t);
    if (n == 1)
        return LLVMBuildExtractElement(p->b, vec, lane, "");
    LLVMValueRef r = LLVMGetPoison(t);
    LLVMValueRef base = LLVMBuildMul(p->b, lane, LLVMConstInt(p->i32, n, 0), "");
    for (unsigned j = 0; j < n; j++) {
        LLVMValueRef e = LLVMBuildExtractElement(p->b, vec, LLVMBuildAdd(p->b, base, LLVMConstInt(p->i32, j, 0), ""), "");
        r = LLVMBuildInsertElement(p->b, r, e, LLVMConstInt(p->i32, j, 0), "");
    }
    return r;
}

bool weft_vec_valid(struct weft_vec_plan *p, struct vinfo *v) { return v->epoch == p->epoch; }

LLVMValueRef weft_vec_mask_bits(struct weft_vec_plan *p, LLVMValueRef mask)
{
    return LLVMBuildBitCast(p->b, mask, LLVMIntTypeInContext(p->c, p->P), "");
}

/* The scalar of a uniform or affine value (lane 0); for a varying one, its first active lane. */
LLVMValueRef weft_vec_get_scal(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct vinfo *vi = weft_vec_info(p, v);
    if (!vi)
        return v;   /* constants, arguments, entry-block values */
    if (weft_vec_valid(p, vi) && vi->scal)
        return vi->scal;
    LLVMValueRef vec = weft_vec_get_vec(p, v);
    LLVMValueRef lane = LLVMConstInt(p->i32, 0, 0);
    if (p->mask && p->const_active < 0) {
        LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
        LLVMValueRef args[] = {weft_vec_mask_bits(p, p->mask), LLVMConstInt(p->i1, 0, 0)};
        LLVMValueRef tz = weft_vec_call_intrinsic(p, "llvm.cttz", &it, 1, args, 2);
        lane = LLVMBuildIntCast2(p->b, tz, p->i32, 0, "");
    }
    return weft_vec_extract_lane(p, vec, lane, LLVMTypeOf(v));
}

/* The lanes of an affine value of constant stride from its scalar: lane l = lane 0 + l * stride. */
LLVMValueRef weft_vec_affine_vec(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMTypeRef t = LLVMTypeOf(vi->scal);
    LLVMValueRef s = weft_vec_splat(p, vi->scal);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        LLVMValueRef off = LLVMBuildMul(p->b, weft_vec_iota(p, p->i64),
                                        weft_vec_const_splat(p, LLVMConstInt(p->i64, (uint64_t)vi->stride, 1)), "");
        return LLVMBuildGEP2(p->b, LLVMInt8TypeInContext(p->c), s, &off, 1, "");
    }
    LLVMValueRef off = LLVMBuildMul(p->b, weft_vec_iota(p, t), weft_vec_const_splat(p, LLVMConstInt(t, (uint64_t)vi->stride, 1)), "");
    return LLVMBuildAdd(p->b, s, off, "");
}

LLVMValueRef weft_vec_get_vec(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct priv *pv = weft_vec_priv_of(p, v);
    if (pv)
        return pv->lanes;
    struct vinfo *vi = weft_vec_info(p, v);
    if (!vi)
        return weft_vec_splat(p, v);
    if (weft_vec_valid(p, vi) && vi->vec)
        return vi->vec;
    if (weft_vec_valid(p, vi) && vi->scal && vi->kind == K_A && vi->has_stride)
        return weft_vec_affine_vec(p, vi);
    if (weft_vec_valid(p, vi) && vi->scal)
        return weft_vec_splat(p, vi->scal);
    /* not available: an internal error (the emitter visits definitions first) */
    weft_vec_fail_at(p, "internal: no vector form for", v);
    return LLVMGetPoison(weft_vec_vtype(p, LLVMTypeOf(v)));
}

/* The value of `v` in lane l. */
LLVMValueRef weft_vec_lane_of(struct weft_vec_plan *p, LLVMValueRef v, unsigned l)
{
    struct vinfo *vi = weft_vec_info(p, v);
    if (vi && weft_vec_valid(p, vi) && vi->lanes)
        return vi->lanes[l];
    if (weft_vec_kind_of(p, v) == K_U && (!vi || (weft_vec_valid(p, vi) && vi->scal)))
        return weft_vec_get_scal(p, v);
    return weft_vec_extract_lane(p, weft_vec_get_vec(p, v), LLVMConstInt(p->i32, l, 0), LLVMTypeOf(v));
}

/* select(mask, nv, *slot): what a store under a mask keeps of the old contents */
LLVMValueRef weft_vec_blend(struct weft_vec_plan *p, LLVMValueRef mask, LLVMValueRef nv, LLVMValueRef slot)
{
    if (!mask)
        return nv;
    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(nv), slot, "");
    return LLVMBuildSelect(p->b, weft_vec_mask_like(p, mask, LLVMTypeOf(nv)), nv, old, "");
}

/* Names a copy after the original ("x" for the scalar, "x.v" for the vector), for readers of
 * the IR. */
static void name_after(LLVMValueRef orig, LLVMValueRef copy, const char *suffix)
{
    size_t n = 0;
    const char *nm = LLVMGetValueName2(orig, &n);
    if (!copy || !n || !LLVMIsAInstruction(copy) || LLVMGetValueName2(copy, &(size_t){0})[0])
        return;
    char buf[96];
    snprintf(buf, sizeof buf, "%.*s%s", (int)(n > 80 ? 80 : n), nm, suffix);
    LLVMSetValueName2(copy, buf, strlen(buf));
}

/* Records the result of a definition, and stores it into its slots when it crosses blocks. */
void weft_vec_define(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef scal, LLVMValueRef vec)
{
    name_after(vi->v, scal, "");
    name_after(vi->v, vec, ".v");
    vi->epoch = p->epoch;
    vi->scal = scal;
    vi->vec = vec;
    if (!vi->cross || LLVMIsAPHINode(vi->v))
        return;
    if (vi->slot_s)
        LLVMBuildStore(p->b, scal ? scal : weft_vec_get_scal(p, vi->v), vi->slot_s);
    if (vi->slot_v) {
        LLVMValueRef v = vec ? vec : weft_vec_get_vec(p, vi->v);
        LLVMBuildStore(p->b, p->linear ? weft_vec_blend(p, p->mask, v, vi->slot_v) : v, vi->slot_v);
    }
}

static void copy_flags(LLVMValueRef from, LLVMValueRef to)
{
    if (!LLVMIsAInstruction(to) || LLVMGetInstructionOpcode(to) != LLVMGetInstructionOpcode(from))
        return;
    switch (LLVMGetInstructionOpcode(from)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNUW(to, LLVMGetNUW(from));
        LLVMSetNSW(to, LLVMGetNSW(from));
        break;
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr:
        LLVMSetExact(to, LLVMGetExact(from));
        break;
    case LLVMOr:
        LLVMSetIsDisjoint(to, LLVMGetIsDisjoint(from));
        break;
    case LLVMZExt:
        LLVMSetNNeg(to, LLVMGetNNeg(from));
        break;
    default:
        break;
    }
    if (LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to))
        LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
}

bool weft_vec_plain_operand(LLVMValueRef op)
{
    return !op || LLVMValueIsBasicBlock(op) || LLVMIsAFunction(op) || LLVMIsAMDNode(op) || LLVMIsAMDString(op) || LLVMIsAValueAsMetadata(op) ||
           LLVMIsAInlineAsm(op);
}

/* Clears the flags that make an instruction's result poison when a fact it assumes fails. */
static void drop_poison_flags(LLVMValueRef c)
{
    switch (LLVMGetInstructionOpcode(c)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNUW(c, 0);
        LLVMSetNSW(c, 0);
        break;
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr:
        LLVMSetExact(c, 0);
        break;
    case LLVMOr:
        LLVMSetIsDisjoint(c, 0);
        break;
    case LLVMGetElementPtr:
        LLVMGEPSetNoWrapFlags(c, 0);
        break;
    default:
        break;
    }
}

/* The scalar copy of an instruction over scalar operands (lane 0 of affine ones).
 *
 * Under a mask, lane 0 of an affine value may belong to a work-item that does not run this
 * block: the facts the block's code was optimized under need not hold for it. Its value still
 * matters, since the active lanes' addresses are computed from it (lane l = lane 0 + l x
 * stride), so it must be the value the arithmetic gives, never poison: the clone drops the
 * flags that assume those facts. `zext nneg` becomes `sext`: LLVM turns a `sext` guarded by
 * `x >= 0` into `zext nneg`, equal on every active lane, but for an inactive lane 0 with x < 0
 * the zero extension (how the backend lowers it) lands 2^32 elements away from the packet
 * (Rodinia's pathfinder, `if (x >= 0) prev[tx] = src[x]` at the left border). */
LLVMValueRef weft_vec_scalar_clone(struct weft_vec_plan *p, LLVMValueRef i)
{
    /* a known mask (the tail packet's) has lanes 0..n-1 active: lane 0 runs */
    bool lane0_may_idle = p->mask && p->const_active < 0 && weft_vec_kind_of(p, i) == K_A;
    if (lane0_may_idle && LLVMGetInstructionOpcode(i) == LLVMZExt && LLVMGetNNeg(i))
        return LLVMBuildSExt(p->b, weft_vec_get_scal(p, LLVMGetOperand(i, 0)), LLVMTypeOf(i), "");
    LLVMValueRef c = LLVMInstructionClone(i);
    int no = LLVMGetNumOperands(c);
    for (int o = 0; o < no; o++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
        if (!weft_vec_plain_operand(op))
            LLVMSetOperand(c, (unsigned)o, weft_vec_get_scal(p, op));
    }
    if (lane0_may_idle)
        drop_poison_flags(c);
    LLVMInsertIntoBuilder(p->b, c);
    return c;
}

static bool is_division(LLVMOpcode op)
{
    return op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem;
}

/* The vector form of a lane-wise instruction (vector operands, same opcode and flags). */
static LLVMValueRef vector_clone(struct weft_vec_plan *p, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMBuilderRef b = p->b;
    LLVMValueRef r = NULL;
    switch (op) {
    case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
    case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: {
        LLVMValueRef a = weft_vec_get_vec(p, LLVMGetOperand(i, 0)), c = weft_vec_get_vec(p, LLVMGetOperand(i, 1));
        if (is_division(op) && (weft_vec_kind_of(p, LLVMGetOperand(i, 1)) != K_U || LLVMIsConstant(c)))
            /* Lanes of a varying divisor may be 0 where the division was hoisted above its guard
             * (safediv.h), and inactive lanes may hold anything: the divisor is made safe here,
             * before LLVM sees the division. Not a select against the mask: InstSimplify threads
             * a division over a select's arms, and a constant arm with a zero lane (one packet's
             * local ids <0, 1, ...>) made every lane's result poison (`lid ? 20 % lid : 5`, tools/
             * fuzz seed 2384). A constant divisor folds at once (and would fold, zero lane and
             * all, into poison with the division). */
            c = weft_safe_divisor(p->m, b, op == LLVMSDiv || op == LLVMSRem, a, c);
        r = LLVMBuildBinOp(b, op, a, c, "");
        break;
    }
    case LLVMFNeg:
        r = LLVMBuildFNeg(b, weft_vec_get_vec(p, LLVMGetOperand(i, 0)), "");
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP:
    case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast:
        r = LLVMBuildCast(b, op, weft_vec_get_vec(p, LLVMGetOperand(i, 0)), weft_vec_vtype(p, LLVMTypeOf(i)), "");
        break;
    case LLVMICmp:
        r = LLVMBuildICmp(b, LLVMGetICmpPredicate(i), weft_vec_get_vec(p, LLVMGetOperand(i, 0)),
                          weft_vec_get_vec(p, LLVMGetOperand(i, 1)), "");
        break;
    case LLVMFCmp:
        r = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(i), weft_vec_get_vec(p, LLVMGetOperand(i, 0)),
                          weft_vec_get_vec(p, LLVMGetOperand(i, 1)), "");
        break;
    case LLVMSelect: {
        LLVMValueRef cnd = LLVMGetOperand(i, 0);
        LLVMValueRef tv = weft_vec_get_vec(p, LLVMGetOperand(i, 1)), fv = weft_vec_get_vec(p, LLVMGetOperand(i, 2));
        LLVMValueRef cv = weft_vec_kind_of(p, cnd) == K_U ? weft_vec_get_scal(p, cnd) : weft_vec_get_vec(p, cnd);
        if (LLVMGetTypeKind(LLVMTypeOf(cnd)) != LLVMVectorTypeKind && weft_vec_kind_of(p, cnd) != K_U)
            cv = weft_vec_mask_like(p, cv, LLVMTypeOf(tv));   /* one condition per work-item, n components */
        r = LLVMBuildSelect(b, cv, tv, fv, "");
        break;
    }
    case LLVMFreeze:
        r = LLVMBuildFreeze(b, weft_vec_get_vec(p, LLVMGetOperand(i, 0)), "");
        break;
    case LLVMExtractElement: {
        /* component j of each lane */
        LLVMValueRef v = LLVMGetOperand(i, 0);
        int j = (int)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 1));
        unsigned n = weft_vec_ncomp(LLVMTypeOf(v));
        int *idx = malloc(sizeof(int) * p->P);
        if (!idx)
            abort();
        for (unsigned l = 0; l < p->P; l++)
            idx[l] = (int)(l * n) + j;
        LLVMValueRef vv = weft_vec_get_vec(p, v);
        r = LLVMBuildShuffleVector(b, vv, LLVMGetPoison(LLVMTypeOf(vv)), weft_vec_shuffle_mask(p, idx, p->P), "");
        free(idx);
        break;
    }
    case LLVMInsertElement: {
        LLVMValueRef v = LLVMGetOperand(i, 0), e = LLVMGetOperand(i, 1);
        unsigned j = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2)), n = weft_vec_ncomp(LLVMTypeOf(v));
        LLVMValueRef vv = weft_vec_get_vec(p, v), ev = weft_vec_get_vec(p, e);
        /* widen the P new components to the packet's length, then merge them in */
        int *idx = malloc(sizeof(int) * p->P * n);
        if (!idx)
            abort();
        for (unsigned k = 0; k < p->P * n; k++)
            idx[k] = k < p->P ? (int)k : -1;
        LLVMValueRef ew = n == 1 ? ev : LLVMBuildShuffleVector(b, ev, LLVMGetPoison(LLVMTypeOf(ev)), weft_vec_shuffle_mask(p, idx, p->P * n), "");
        for (unsigned l = 0; l < p->P; l++)
            for (unsigned k = 0; k < n; k++)
                idx[l * n + k] = k == j ? (int)(p->P * n + l) : (int)(l * n + k);
        r = LLVMBuildShuffleVector(b, vv, ew, weft_vec_shuffle_mask(p, idx, p->P * n), "");
        free(idx);
        break;
    }
    case LLVMShuffleVector: {
        LLVMValueRef a = LLVMGetOperand(i, 0), c = LLVMGetOperand(i, 1);
        unsigned n = weft_vec_ncomp(LLVMTypeOf(a)), m = LLVMGetNumMaskElements(i);
        int *idx = malloc(sizeof(int) * p->P * m);
        if (!idx)
            abort();
        for (unsigned l = 0; l < p->P; l++)
            for (unsigned k = 0; k < m; k++) {
                int mk = LLVMGetMaskValue(i, k);
                idx[l * m + k] = mk == LLVMGetUndefMaskElem() ? -1
                                 : mk < (int)n                ? (int)(l * n) + mk
                                                              : (int)(p->P * n + l * n) + (mk - (int)n);
            }
        r = LLVMBuildShuffleVector(b, weft_vec_get_vec(p, a), weft_vec_get_vec(p, c), weft_vec_shuffle_mask(p, idx, p->P * m), "");
        free(idx);
        break;
    }
    case LLVMGetElementPtr: {
        unsigned n = (unsigned)LLVMGetNumOperands(i);
        LLVMValueRef base = LLVMGetOperand(i, 0);
        LLVMValueRef *idx = malloc(sizeof *idx * n);
        if (!idx)
            abort();
        bool any_vec = weft_vec_kind_of(p, base) != K_U;
        for (unsigned o = 1; o < n; o++) {
            LLVMValueRef x = LLVMGetOperand(i, o);
            if (LLVMIsAConstant(x) || weft_vec_kind_of(p, x) == K_U) {
                idx[o - 1] = LLVMIsAConstant(x) ? x : weft_vec_get_scal(p, x);
            } else {
                idx[o - 1] = weft_vec_get_vec(p, x);
                any_vec = true;
            }
        }
        LLVMValueRef bv = weft_vec_kind_of(p, base) != K_U || !any_vec ? weft_vec_get_vec(p, base) : weft_vec_get_scal(p, base);
        r = LLVMBuildGEPWithNoWrapFlags(b, LLVMGetGEPSourceElementType(i), bv, idx, n - 1, "",
                                        LLVMGEPGetNoWrapFlags(i));
        free(idx);
        break;
    }
    case LLVMCall: {
        const struct lanewise *lw = weft_vec_lanewise_of(i);
        if (!lw)
            break;
        unsigned n = LLVMGetNumArgOperands(i);
        LLVMValueRef args[4];
        LLVMTypeRef tys[2];
        size_t nt = 0;
        for (unsigned o = 0; o < n; o++) {
            LLVMValueRef x = LLVMGetOperand(i, o);
            args[o] = (int)o == lw->imm_operand ? x : weft_vec_get_vec(p, x);
        }
        tys[nt++] = lw->overload_arg0 ? LLVMTypeOf(args[0]) : weft_vec_vtype(p, LLVMTypeOf(i));
        if (lw->overload_arg1)
            tys[nt++] = LLVMTypeOf(args[1]);
        r = weft_vec_call_intrinsic(p, lw->name, tys, nt, args, n);
        break;
    }
    default:
        break;
    }
    if (!r) {
        weft_vec_fail_at(p, "cannot widen", i);
        return LLVMGetPoison(weft_vec_vtype(p, LLVMTypeOf(i)));
    }
    copy_flags(i, r);
    return r;
}

static void emit_local_id(struct weft_vec_plan *p, struct vinfo *vi)
{
    uint64_t d = LLVMConstIntGetZExtValue(LLVMGetOperand(vi->v, 0));
    LLVMTypeRef t = LLVMTypeOf(vi->v);
    if (d == 0) {
        LLVMValueRef s = LLVMBuildIntCast2(p->b, p->base, t, 0, "lid.x");
        LLVMValueRef v = LLVMBuildAdd(p->b, weft_vec_splat(p, s), weft_vec_iota(p, t), "lid.x.lanes");
        vi->kind = K_A;
        vi->has_stride = true;
        vi->stride = 1;
        weft_vec_define(p, vi, s, v);
        return;
    }
    LLVMValueRef iv = d == 1 ? p->ivy : d == 2 ? p->ivz : NULL;
    weft_vec_define(p, vi, iv ? LLVMBuildIntCast2(p->b, iv, t, 0, "") : LLVMConstInt(t, 0, 0), NULL);
}

/* A prefetch (compiler/prefetch.h) for the packet: lanes a few bytes apart share their lines, so
 * lane 0's address and, when the packet spans a line, the last lane's; one address, once. Any
 * other address, the first and the last lane's (a grid-stride loop's counter is a varying value
 * whose lanes are consecutive, which the loads find out per packet: vectorize_memory.c). */
static void emit_prefetch(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef call = vi->v, ptr = LLVMGetOperand(call, 0);
    vi->epoch = p->epoch;
    struct vinfo *pi = weft_vec_info(p, ptr);
    int kind = weft_vec_kind_of(p, ptr);
    LLVMValueRef at[2] = {NULL, NULL};
    if (kind == K_U) {
        at[0] = weft_vec_get_scal(p, ptr);
    } else if (kind == K_A && pi && pi->has_stride && pi->stride >= -64 && pi->stride <= 64) {
        at[0] = weft_vec_get_scal(p, ptr);
        int64_t span = pi->stride * (int64_t)(p->P - 1);
        LLVMValueRef off = LLVMConstInt(p->i64, (uint64_t)span, 1);
        if (span >= 64 || span <= -64)
            at[1] = LLVMBuildGEP2(p->b, LLVMInt8TypeInContext(p->c), at[0], &off, 1, "pf.last");
    } else {
        at[0] = weft_vec_lane_of(p, ptr, 0);
        at[1] = p->P > 1 ? weft_vec_lane_of(p, ptr, p->P - 1) : NULL;
    }
    for (int k = 0; k < 2 && at[k]; k++) {
        LLVMValueRef args[] = {at[k], LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), LLVMGetOperand(call, 3)};
        LLVMBuildCall2(p->b, LLVMGetCalledFunctionType(call), LLVMGetCalledValue(call), args, 4, "");
    }
}

void weft_vec_emit_inst(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v;
    if (LLVMIsAPHINode(i) || LLVMIsATerminatorInst(i))
        return;
    if (LLVMIsACallInst(i) && weft_vec_droppable_call(i)) {
        vi->epoch = p->epoch;
        return;
    }
    if (LLVMIsACallInst(i) && weft_wi_call_kind(i) == WEFT_WI_LOCAL_ID) {
        emit_local_id(p, vi);
        return;
    }
    struct weft_sg_call sg = weft_subgroup_call(i);
    if (weft_subgroup_is_collective(sg.kind)) {
        weft_vec_emit_collective(p, vi, &sg);
        return;
    }
    if (LLVMIsACallInst(i) && weft_vec_is_prefetch(i)) {
        emit_prefetch(p, vi);
        return;
    }
    if (weft_vec_is_serialized(i)) {
        weft_vec_serialize(p, vi);
        return;
    }
    if (LLVMIsALoadInst(i)) {
        weft_vec_emit_load(p, vi);
        return;
    }
    if (LLVMIsAStoreInst(i)) {
        weft_vec_emit_store(p, vi);
        return;
    }
    if (LLVMIsAExtractValueInst(i) && vi->kind != K_U) {
        struct vinfo *ai = weft_vec_info(p, LLVMGetOperand(i, 0));
        LLVMValueRef v = LLVMGetPoison(weft_vec_vtype(p, LLVMTypeOf(i)));
        for (unsigned l = 0; l < p->P; l++) {
            LLVMValueRef e = LLVMBuildExtractValue(p->b, ai->lanes[l], *LLVMGetIndices(i), "");
            v = LLVMBuildInsertElement(p->b, v, e, LLVMConstInt(p->i32, l, 0), "");
        }
        weft_vec_define(p, vi, NULL, v);
        return;
    }
    switch (vi->kind) {
    case K_U:
        weft_vec_define(p, vi, weft_vec_scalar_clone(p, i), NULL);
        break;
    case K_A: {
        LLVMValueRef s = weft_vec_scalar_clone(p, i);
        weft_vec_define(p, vi, s, vector_clone(p, i));
        break;
    }
    default:
        weft_vec_define(p, vi, NULL, vector_clone(p, i));
        break;
    }
}

LLVMValueRef weft_vec_entry_alloca(struct weft_vec_plan *p, LLVMTypeRef t, const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(p->c);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(p->wf->fn);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return a;
}
