/* compiler/transform/wgcollective.c — the work-group collective functions (OpenCL C 3.0
 * __opencl_c_work_group_collective_functions; OpenCL C 2.0): work_group_all, _any,
 * _broadcast, _reduce_<op>, _scan_inclusive_<op> and _scan_exclusive_<op>, op add/min/max.
 *
 * Assumes: workitem.c has run (get_local_id is the per-work-item placeholder, the local size
 * is the variant's constant N); barriers are not canonical yet; privatize has not laid out
 * ctx->scratch yet. Every work-item of the group reaches each call, in the same order (the
 * specification requires it, as for barrier()).
 * Guarantees: each call `r = work_group_<f>(x, ...)` becomes
 *
 *       in[lid] = x                  (all/any: x != 0)
 *       barrier
 *       if (lid == 0)                the leader, once per group:
 *           reduce/all/any:  res = in[0] op in[1] op ... op in[N-1]   (in chains)
 *           broadcast:       res = in[target]
 *           scans:           in[0..N) = its inclusive/exclusive prefixes, in place
 *       barrier
 *       r = res                      (scans: in[lid])
 *
 * with lid the linear local id. The leader's test carries WEFT_ONCE_MD: wgloops runs the
 * sub-CFG between the two barriers once per group, as work-item 0, not in a work-item loop
 * (nor vectorized). in[] and res live at the start of ctx->scratch (the
 * work-group's own working memory, whose size the variant reports), not in __local memory:
 * they take nothing from the kernel's CL_DEVICE_LOCAL_MEM_SIZE budget. One in[]/res serves
 * every call: between two barriers a work-item reads only what the leader wrote (res, or its
 * own in[lid] after a scan) and writes only its own in[lid], so a next call may follow at
 * once, also around a loop. Floating-point reductions add in a fixed order for a given group
 * size (interleaved chains, vectors of 16 lanes from 16 work-items on, then pairwise:
 * build_reduction; the specification leaves the order to the implementation), so every run
 * gives the same answer; floating-point scans add in local-id order. A
 * broadcast id outside the group (undefined behaviour) reads in[0] rather than past the
 * buffer.
 */
#include "compiler/transform/wgcollective.h"

#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/subgroup.h"
#include "util/vec.h"
#include "weft/abi.h"

#include <llvm-c/Target.h>
#include <string.h>

struct weft_sg_call weft_wg_collective_by_name(const char *name, size_t len)
{
    const char *id, *p;
    size_t idn, pn;
    if (!weft_split_mangled(name, len, &id, &idn, &p, &pn))
        return (struct weft_sg_call){0};
    return weft_collective_parse(id, idn, p, pn, true);
}

struct weft_sg_call weft_wg_collective_call(LLVMValueRef call)
{
    size_t len = 0;
    const char *name = weft_direct_callee_name(call, &len);
    return name ? weft_wg_collective_by_name(name, len) : (struct weft_sg_call){0};
}

/* The scratch bytes in[] takes before res: N elements of the widest value, 8-byte aligned. */
static uint64_t res_offset(uint64_t n, uint64_t elem) { return (n * elem + 7) & ~(uint64_t)7; }

static void build_barrier(LLVMBuilderRef b, LLVMModuleRef m)
{
    LLVMValueRef f = weft_get_void_fn(m, WEFT_IMPLICIT_BARRIER_NAME);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

/* ctx->scratch, where in[] starts. */
static LLVMValueRef scratch(LLVMBuilderRef b, struct weft_workfn *wf)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_SCRATCH, NULL);
}

static LLVMValueRef in_slot(LLVMBuilderRef b, LLVMValueRef base, LLVMTypeRef t, LLVMValueRef idx)
{
    return LLVMBuildInBoundsGEP2(b, t, base, &idx, 1, "wg.in");
}

static LLVMValueRef res_slot(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef base, uint64_t off)
{
    LLVMValueRef o = weft_i64(wf->c, off);
    return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(wf->c), base, &o, 1, "wg.res");
}

/* a op b for the call's operation (all: and, any: or, over 0/1 values). */
static LLVMValueRef combine(LLVMBuilderRef b, LLVMModuleRef m, const struct weft_sg_call *sg, LLVMValueRef x,
                            LLVMValueRef y)
{
    if (sg->kind == WEFT_SG_ALL)
        return LLVMBuildAnd(b, x, y, "");
    if (sg->kind == WEFT_SG_ANY)
        return LLVMBuildOr(b, x, y, "");
    LLVMTypeRef t = LLVMTypeOf(x);
    if (sg->op == WEFT_SG_OP_ADD)
        return sg->is_float ? LLVMBuildFAdd(b, x, y, "") : LLVMBuildAdd(b, x, y, "");
    bool min = sg->op == WEFT_SG_OP_MIN;
    if (sg->is_float) {
        /* fmin/fmax: a NaN operand yields the other one */
        const char *name = min ? "llvm.minnum" : "llvm.maxnum";
        unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
        LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
        LLVMValueRef args[] = {x, y};
        return LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &t, 1), f, args, 2, "");
    }
    LLVMIntPredicate pred = min ? (sg->is_signed ? LLVMIntSLT : LLVMIntULT) : (sg->is_signed ? LLVMIntSGT : LLVMIntUGT);
    return LLVMBuildSelect(b, LLVMBuildICmp(b, pred, x, y, ""), x, y, "");
}

/* Independent accumulators of a reduction's leader: a chain of N dependent operations would
 * make the leader latency-bound (N x 4 cycles for floats), eight chains keep the ALUs busy. */
#define LEADER_CHAINS 8

/* The value a reduction's accumulators start from: all's 1, any's 0, the operation's identity
 * otherwise (-0.0 for float add, so that a sum of -0.0 stays -0.0). */
static LLVMValueRef fold_start(LLVMTypeRef t, const struct weft_sg_call *sg)
{
    if (sg->kind == WEFT_SG_ALL || sg->kind == WEFT_SG_ANY)
        return LLVMConstInt(t, sg->kind == WEFT_SG_ALL, 0);
    return weft_subgroup_identity(t, sg);
}

/* A loop block placed after `after`, entered from the builder's block: the builder ends up in
 * it, with *iv the phi of the index from `start`; close_loop finishes it. */
static LLVMBasicBlockRef open_loop(LLVMBuilderRef b, struct weft_workfn *wf, LLVMBasicBlockRef after,
                                   uint64_t start, LLVMValueRef *iv)
{
    LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(wf->c, wf->fn, "wg.leader.loop");
    LLVMMoveBasicBlockAfter(loop, after);
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    *iv = LLVMBuildPhi(b, LLVMInt64TypeInContext(wf->c), "wg.i");
    LLVMValueRef v = weft_i64(wf->c, start);
    LLVMAddIncoming(*iv, &v, &from, 1);
    return loop;
}

/* Steps the index by `step` and loops while it is below `end`; the builder continues in the
 * block after the loop. */
static void close_loop(LLVMBuilderRef b, struct weft_workfn *wf, LLVMBasicBlockRef loop, LLVMValueRef iv,
                       uint64_t step, uint64_t end)
{
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(wf->c, wf->fn, "wg.leader.done");
    LLVMMoveBasicBlockAfter(done, LLVMGetInsertBlock(b));
    LLVMValueRef next = LLVMBuildAdd(b, iv, weft_i64(wf->c, step), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, weft_i64(wf->c, end), ""), loop, done);
    LLVMAddIncoming(iv, &next, &latch, 1);
    LLVMPositionBuilderAtEnd(b, done);
}

/* A leader's vector accumulators: LEADER_LANES elements each (a 512-bit register of 32-bit
 * values), up to LEADER_VECTORS of them, independent (AVX-512's add has 4 cycles of latency and
 * two ports). The scalar chains folded a group of 256 floats in about 400 cycles on the 2-core
 * Sapphire Rapids VM (reduction_wg 1.5x the local-memory tree's time); as vectors, 16 loads and
 * adds. */
#define LEADER_LANES 16
#define LEADER_VECTORS 4

/* A vector of LEADER_LANES copies of the constant `v`. */
static LLVMValueRef splat_const(LLVMValueRef v)
{
    LLVMValueRef e[LEADER_LANES];
    for (unsigned j = 0; j < LEADER_LANES; j++)
        e[j] = v;
    return LLVMConstVector(e, LEADER_LANES);
}

/* `access`, a vector load or store of in[] (elements of type t), aligned as in[] is: to its
 * element only. */
static LLVMValueRef element_aligned(struct weft_workfn *wf, LLVMTypeRef t, LLVMValueRef access)
{
    LLVMSetAlignment(access, (unsigned)LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(wf->m), t));
    return access;
}

/* `v` (LEADER_LANES elements) folded pairwise by halves: lane j with lane j + half, from half =
 * LEADER_LANES / 2 down to 1. */
static LLVMValueRef fold_lanes(LLVMBuilderRef b, LLVMModuleRef m, const struct weft_sg_call *sg, LLVMValueRef v)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    for (unsigned half = LEADER_LANES / 2; half >= 1; half /= 2) {
        LLVMValueRef lo[LEADER_LANES / 2], hi[LEADER_LANES / 2];
        for (unsigned j = 0; j < half; j++) {
            lo[j] = LLVMConstInt(LLVMInt32TypeInContext(c), j, 0);
            hi[j] = LLVMConstInt(LLVMInt32TypeInContext(c), j + half, 0);
        }
        LLVMValueRef poison = LLVMGetPoison(LLVMTypeOf(v));
        LLVMValueRef a = LLVMBuildShuffleVector(b, v, poison, LLVMConstVector(lo, half), "");
        LLVMValueRef z = LLVMBuildShuffleVector(b, v, poison, LLVMConstVector(hi, half), "");
        v = combine(b, m, sg, a, z);
    }
    return LLVMBuildExtractElement(b, v, weft_i64(c, 0), "");
}

/* reduce, all, any: res = in[0] op ... op in[N-1]. With N >= LEADER_LANES: A vectors (A the
 * largest power of two <= LEADER_VECTORS with A x LEADER_LANES <= N) take the first
 * N / (A x LEADER_LANES) x A x LEADER_LANES elements, lane j of vector a the elements
 * congruent to a x LEADER_LANES + j modulo A x LEADER_LANES; the vectors fold pairwise (a with
 * a + A/2), then the lanes (fold_lanes), then the rest one by one. Below: LEADER_CHAINS scalar
 * chains the same way. A fixed order for each N, so every run gives the same answer. */
static void build_reduction(LLVMBuilderRef b, struct weft_workfn *wf, const struct weft_sg_call *sg, LLVMTypeRef t,
                            LLVMValueRef base, uint64_t res_off)
{
    uint64_t n = weft_workfn_local_total(wf);
    const bool vec = n >= LEADER_LANES;
    unsigned lanes = vec ? LEADER_LANES : 1, chains = vec ? 1 : LEADER_CHAINS;
    while (vec && chains * 2 <= LEADER_VECTORS && chains * 2 * lanes <= n)
        chains *= 2;
    LLVMTypeRef at = vec ? LLVMVectorType(t, lanes) : t;
    uint64_t step = (uint64_t)chains * lanes, body = n / step * step;
    LLVMValueRef acc[LEADER_CHAINS];
    if (body) {
        LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
        LLVMValueRef i;
        LLVMBasicBlockRef loop = open_loop(b, wf, entry, 0, &i);
        LLVMValueRef phi[LEADER_CHAINS];
        for (unsigned k = 0; k < chains; k++) {
            phi[k] = LLVMBuildPhi(b, at, "wg.acc");
            LLVMValueRef start = vec ? splat_const(fold_start(t, sg)) : fold_start(t, sg);
            LLVMAddIncoming(phi[k], &start, &entry, 1);
        }
        for (unsigned k = 0; k < chains; k++) {
            LLVMValueRef at_k = LLVMBuildAdd(b, i, weft_i64(wf->c, (uint64_t)k * lanes), "");
            LLVMValueRef ld = element_aligned(wf, t, LLVMBuildLoad2(b, at, in_slot(b, base, t, at_k), ""));
            acc[k] = combine(b, wf->m, sg, phi[k], ld);
            LLVMAddIncoming(phi[k], &acc[k], &loop, 1);
        }
        close_loop(b, wf, loop, i, step, body);
        for (; chains > 1; chains /= 2)
            for (unsigned k = 0; k < chains / 2; k++)
                acc[k] = combine(b, wf->m, sg, acc[k], acc[k + chains / 2]);
        if (vec)
            acc[0] = fold_lanes(b, wf->m, sg, acc[0]);
    }
    LLVMValueRef r = body ? acc[0] : NULL;
    for (uint64_t e = body; e < n; e++) {
        LLVMValueRef v = LLVMBuildLoad2(b, t, in_slot(b, base, t, weft_i64(wf->c, e)), "");
        r = r ? combine(b, wf->m, sg, r, v) : v;
    }
    LLVMBuildStore(b, r, res_slot(b, wf, base, res_off));
}

/* An integer scan's whole vectors: in[0..body) in vectors of LEADER_LANES elements, each scanned
 * in log2(LEADER_LANES) steps (lane j folds in lane j - k, for k = 1, 2, 4, 8: the identity
 * shifted in below), then folded with the carry (the inclusive prefix of the vectors before it,
 * in every lane); an exclusive scan's vector is the inclusive one moved up a lane, the carry in
 * lane 0. Returns the carry after in[body - 1] (a scalar). Integer operations give one answer in
 * any order; the leader's sequential scan took about 256 dependent steps for a group of 256. */
static LLVMValueRef build_vector_scan(LLVMBuilderRef b, struct weft_workfn *wf, const struct weft_sg_call *sg,
                                      LLVMTypeRef t, LLVMValueRef base, uint64_t body)
{
    LLVMContextRef c = wf->c;
    LLVMTypeRef vt = LLVMVectorType(t, LEADER_LANES);
    LLVMValueRef ident = splat_const(weft_subgroup_identity(t, sg));
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMValueRef i;
    LLVMBasicBlockRef loop = open_loop(b, wf, entry, 0, &i);
    LLVMValueRef carry = LLVMBuildPhi(b, vt, "wg.carry");
    LLVMAddIncoming(carry, &ident, &entry, 1);
    LLVMValueRef p = in_slot(b, base, t, i);
    LLVMValueRef v = element_aligned(wf, t, LLVMBuildLoad2(b, vt, p, ""));
    for (unsigned k = 1; k < LEADER_LANES; k *= 2)
        v = combine(b, wf->m, sg, v, weft_lanes_shift_up(b, v, LEADER_LANES, k, ident));
    LLVMValueRef incl = combine(b, wf->m, sg, v, carry);
    LLVMValueRef out = sg->kind == WEFT_SG_SCAN_EXCLUSIVE ? weft_lanes_shift_up(b, incl, LEADER_LANES, 1, carry) : incl;
    element_aligned(wf, t, LLVMBuildStore(b, out, p));
    LLVMValueRef last = splat_const(LLVMConstInt(LLVMInt32TypeInContext(c), LEADER_LANES - 1, 0));
    LLVMValueRef next = LLVMBuildShuffleVector(b, incl, LLVMGetPoison(vt), last, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
    LLVMAddIncoming(carry, &next, &latch, 1);
    close_loop(b, wf, loop, i, LEADER_LANES, body);
    return LLVMBuildExtractElement(b, next, weft_i64(c, 0), "");
}

/* Scans: in[0..N) becomes its inclusive or exclusive prefixes, in place. Integer scans of at
 * least LEADER_LANES elements: whole vectors first (build_vector_scan). The rest, and
 * floating-point scans (which add in local-id order), one element after the other: each
 * prefix depends on the one before. */
static void build_scan(LLVMBuilderRef b, struct weft_workfn *wf, const struct weft_sg_call *sg, LLVMTypeRef t,
                       LLVMValueRef base)
{
    uint64_t n = weft_workfn_local_total(wf);
    bool exclusive = sg->kind == WEFT_SG_SCAN_EXCLUSIVE;
    uint64_t start = 1;
    LLVMValueRef acc0;
    if (!sg->is_float && n >= LEADER_LANES) {
        start = n / LEADER_LANES * LEADER_LANES;
        acc0 = build_vector_scan(b, wf, sg, t, base, start);
        if (start == n)
            return;
    } else {
        LLVMValueRef first = in_slot(b, base, t, weft_i64(wf->c, 0));
        acc0 = LLVMBuildLoad2(b, t, first, "wg.acc");
        if (exclusive) {
            /* the exclusive prefix of work-item 0 is the identity; 0 for add (not the -0.0 that
             * weft_subgroup_identity folds with) */
            LLVMValueRef e = sg->op == WEFT_SG_OP_ADD ? LLVMConstNull(t) : weft_subgroup_identity(t, sg);
            LLVMBuildStore(b, e, first);
        }
        if (n < 2)
            return;
    }
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
    LLVMValueRef i;
    LLVMBasicBlockRef loop = open_loop(b, wf, entry, start, &i);
    LLVMValueRef a = LLVMBuildPhi(b, t, "wg.acc");
    LLVMValueRef p = in_slot(b, base, t, i);
    LLVMValueRef a2 = combine(b, wf->m, sg, a, LLVMBuildLoad2(b, t, p, ""));
    LLVMBuildStore(b, exclusive ? a : a2, p);
    LLVMValueRef av[] = {acc0, a2};
    LLVMBasicBlockRef from[] = {entry, loop};
    LLVMAddIncoming(a, av, from, 2);
    close_loop(b, wf, loop, i, 1, n);
}

/* The leader's block(s) from `leader` on, ending in a branch to `join`. */
static void build_leader(struct weft_workfn *wf, const struct weft_sg_call *sg, LLVMTypeRef t, LLVMValueRef target,
                         uint64_t res_off, LLVMBasicBlockRef leader, LLVMBasicBlockRef join)
{
    LLVMContextRef c = wf->c;
    uint64_t n = weft_workfn_local_total(wf);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, leader);
    LLVMValueRef base = scratch(b, wf);
    if (sg->kind == WEFT_SG_BROADCAST) {
        LLVMValueRef inside = LLVMBuildICmp(b, LLVMIntULT, target, weft_i64(c, n), "");
        LLVMValueRef at = LLVMBuildSelect(b, inside, target, weft_i64(c, 0), "");
        LLVMValueRef v = LLVMBuildLoad2(b, t, in_slot(b, base, t, at), "");
        LLVMBuildStore(b, v, res_slot(b, wf, base, res_off));
    } else if (sg->kind == WEFT_SG_SCAN_INCLUSIVE || sg->kind == WEFT_SG_SCAN_EXCLUSIVE) {
        build_scan(b, wf, sg, t, base);
    } else {
        build_reduction(b, wf, sg, t, base, res_off);
    }
    LLVMBuildBr(b, join);
    LLVMDisposeBuilder(b);
}

/* The linear local id that work_group_broadcast's operands 1.. name. */
static LLVMValueRef broadcast_target(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef call, unsigned dims)
{
    LLVMValueRef t = weft_i64(wf->c, 0);
    uint64_t stride = 1;
    for (unsigned d = 0; d < dims; d++) {
        LLVMValueRef id = LLVMGetOperand(call, d + 1);
        t = LLVMBuildAdd(b, t, LLVMBuildMul(b, id, weft_i64(wf->c, stride), ""), "");
        stride *= wf->local_size[d];
    }
    return t;
}

static void lower_call(struct weft_workfn *wf, LLVMValueRef call, const struct weft_sg_call *sg, uint64_t res_off)
{
    LLVMContextRef c = wf->c;
    LLVMTypeRef t = LLVMTypeOf(call);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);

    /* every work-item: its value into in[lid] */
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef x = LLVMGetOperand(call, 0);
    if (sg->kind == WEFT_SG_ALL || sg->kind == WEFT_SG_ANY)
        x = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, x, LLVMConstNull(LLVMTypeOf(x)), ""), t, "");
    LLVMValueRef target = sg->kind == WEFT_SG_BROADCAST ? broadcast_target(b, wf, call, sg->broadcast_dims) : NULL;
    LLVMBuildStore(b, x, in_slot(b, scratch(b, wf), t, weft_build_local_linear_id(b, wf)));
    build_barrier(b, wf->m);

    /* the leader */
    LLVMBasicBlockRef test = weft_split_block_before(call, "wg.collective");
    LLVMBasicBlockRef join = weft_split_block_before(call, "wg.join");
    LLVMBasicBlockRef leader = LLVMAppendBasicBlockInContext(c, wf->fn, "wg.leader");
    LLVMMoveBasicBlockAfter(leader, test);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(test);
    LLVMPositionBuilderBefore(b, br);
    LLVMValueRef is0 = LLVMBuildICmp(b, LLVMIntEQ, weft_build_local_linear_id(b, wf), weft_i64(c, 0), "wg.is.leader");
    LLVMValueRef cbr = LLVMBuildCondBr(b, is0, leader, join);
    LLVMSetMetadata(cbr, LLVMGetMDKindIDInContext(c, WEFT_ONCE_MD, (unsigned)strlen(WEFT_ONCE_MD)),
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, NULL, 0)));
    LLVMInstructionEraseFromParent(br);
    build_leader(wf, sg, t, target, res_off, leader, join);

    /* every work-item: its result */
    LLVMPositionBuilderBefore(b, call);
    build_barrier(b, wf->m);
    LLVMValueRef base = scratch(b, wf);
    LLVMValueRef from = sg->kind == WEFT_SG_SCAN_INCLUSIVE || sg->kind == WEFT_SG_SCAN_EXCLUSIVE
                            ? in_slot(b, base, t, weft_build_local_linear_id(b, wf))
                            : res_slot(b, wf, base, res_off);
    LLVMValueRef r = LLVMBuildLoad2(b, t, from, "wg.result");
    LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
    LLVMDisposeBuilder(b);
}

bool weft_lower_wg_collectives(struct weft_workfn *wf, struct weft_diag *diag)
{
    (void)diag;   /* nothing here can fail but allocation, which aborts (util/vec.h) */
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    struct found {
        LLVMValueRef call;
        struct weft_sg_call sg;
    };
    WEFT_VEC(struct found) calls = {0};
    uint64_t elem = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            struct weft_sg_call sg = weft_wg_collective_call(i);
            if (sg.kind == WEFT_SG_NONE)
                continue;
            weft_vec_push(&calls, ((struct found){i, sg}));
            uint64_t sz = LLVMABISizeOfType(td, LLVMTypeOf(i));
            elem = sz > elem ? sz : elem;
        }
    if (!calls.len)
        return true;
    uint64_t off = res_offset(weft_workfn_local_total(wf), elem);
    for (size_t k = 0; k < calls.len; k++)
        lower_call(wf, calls.data[k].call, &calls.data[k].sg, off);
    weft_vec_free(&calls);
    /* privatize lays its arrays out after these bytes */
    if (wf->scratch_size < off + 8)
        wf->scratch_size = weft_round_up(off + 8, 64);
    return true;
}
