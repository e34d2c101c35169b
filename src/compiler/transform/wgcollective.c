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
 *           reduce/all/any:  res = in[0] op in[1] op ... op in[N-1]   (in local-id order)
 *           broadcast:       res = in[target]
 *           scans:           in[0..N) = its inclusive/exclusive prefixes, in place
 *       barrier
 *       r = res                      (scans: in[lid])
 *
 * with lid the linear local id. in[] and res live at the start of ctx->scratch (the
 * work-group's own working memory, whose size the variant reports), not in __local memory:
 * they take nothing from the kernel's CL_DEVICE_LOCAL_MEM_SIZE budget. One in[]/res serves
 * every call: between two barriers a work-item reads only what the leader wrote (res, or its
 * own in[lid] after a scan) and writes only its own in[lid], so a next call may follow at
 * once, also around a loop. Floating-point reductions therefore add in local-id order, the
 * same answer for every work-group size split. A broadcast id outside the group (undefined
 * behaviour) reads in[0] rather than past the buffer.
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
    if (!call || !LLVMIsACallInst(call))
        return (struct weft_sg_call){0};
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee))
        return (struct weft_sg_call){0};
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    return weft_wg_collective_by_name(name, len);
}

/* The scratch bytes in[] takes before res: N elements of the widest value, 8-byte aligned. */
static uint64_t res_offset(uint64_t n, uint64_t elem) { return (n * elem + 7) & ~(uint64_t)7; }

static void build_barrier(LLVMBuilderRef b, LLVMModuleRef m)
{
    LLVMValueRef f = weft_get_void_fn(m, WEFT_IMPLICIT_BARRIER_NAME);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

static LLVMValueRef in_slot(LLVMBuilderRef b, struct weft_workfn *wf, LLVMTypeRef t, LLVMValueRef idx)
{
    LLVMValueRef base = weft_ctx_load(b, wf, WEFT_CTX_FIELD_SCRATCH, NULL);
    return LLVMBuildInBoundsGEP2(b, t, base, &idx, 1, "wg.in");
}

static LLVMValueRef res_slot(LLVMBuilderRef b, struct weft_workfn *wf, uint64_t off)
{
    LLVMValueRef base = weft_ctx_load(b, wf, WEFT_CTX_FIELD_SCRATCH, NULL);
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

/* The leader's block(s) from `leader` on, ending in a branch to `join`. */
static void build_leader(struct weft_workfn *wf, const struct weft_sg_call *sg, LLVMTypeRef t, LLVMValueRef target,
                         uint64_t res_off, LLVMBasicBlockRef leader, LLVMBasicBlockRef join)
{
    LLVMContextRef c = wf->c;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    uint64_t n = weft_workfn_local_total(wf);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, leader);
    if (sg->kind == WEFT_SG_BROADCAST) {
        LLVMValueRef inside = LLVMBuildICmp(b, LLVMIntULT, target, weft_i64(c, n), "");
        LLVMValueRef at = LLVMBuildSelect(b, inside, target, weft_i64(c, 0), "");
        LLVMValueRef v = LLVMBuildLoad2(b, t, in_slot(b, wf, t, at), "");
        LLVMBuildStore(b, v, res_slot(b, wf, res_off));
        LLVMBuildBr(b, join);
        LLVMDisposeBuilder(b);
        return;
    }
    bool scan = sg->kind == WEFT_SG_SCAN_INCLUSIVE || sg->kind == WEFT_SG_SCAN_EXCLUSIVE;
    LLVMValueRef first = in_slot(b, wf, t, weft_i64(c, 0));
    LLVMValueRef acc0 = LLVMBuildLoad2(b, t, first, "wg.acc");
    if (sg->kind == WEFT_SG_SCAN_EXCLUSIVE) {
        /* the exclusive prefix of work-item 0 is the identity; 0 for add (not the -0.0 that
         * weft_subgroup_identity folds with) */
        LLVMValueRef e = sg->op == WEFT_SG_OP_ADD ? LLVMConstNull(t) : weft_subgroup_identity(t, sg);
        LLVMBuildStore(b, e, first);
    }
    LLVMValueRef acc = acc0;
    if (n > 1) {
        LLVMValueRef fn = wf->fn;
        LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, fn, "wg.leader.loop");
        LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "wg.leader.done");
        LLVMMoveBasicBlockAfter(loop, leader);
        LLVMMoveBasicBlockAfter(done, loop);
        LLVMBuildBr(b, loop);
        LLVMPositionBuilderAtEnd(b, loop);
        LLVMValueRef i = LLVMBuildPhi(b, i64, "wg.i");
        LLVMValueRef a = LLVMBuildPhi(b, t, "wg.acc");
        LLVMValueRef p = in_slot(b, wf, t, i);
        LLVMValueRef v = LLVMBuildLoad2(b, t, p, "");
        LLVMValueRef a2 = combine(b, wf->m, sg, a, v);
        if (sg->kind == WEFT_SG_SCAN_INCLUSIVE)
            LLVMBuildStore(b, a2, p);
        else if (sg->kind == WEFT_SG_SCAN_EXCLUSIVE)
            LLVMBuildStore(b, a, p);
        LLVMValueRef i2 = LLVMBuildAdd(b, i, weft_i64(c, 1), "");
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i2, weft_i64(c, n), ""), loop, done);
        LLVMValueRef iv[] = {weft_i64(c, 1), i2}, av[] = {acc0, a2};
        LLVMBasicBlockRef from[] = {leader, loop};
        LLVMAddIncoming(i, iv, from, 2);
        LLVMAddIncoming(a, av, from, 2);
        LLVMPositionBuilderAtEnd(b, done);
        acc = a2;
    }
    if (!scan)
        LLVMBuildStore(b, acc, res_slot(b, wf, res_off));
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
    LLVMBuildStore(b, x, in_slot(b, wf, t, weft_build_local_linear_id(b, wf)));
    build_barrier(b, wf->m);

    /* the leader */
    LLVMBasicBlockRef test = weft_split_block_before(call, "wg.collective");
    LLVMBasicBlockRef join = weft_split_block_before(call, "wg.join");
    LLVMBasicBlockRef leader = LLVMAppendBasicBlockInContext(c, wf->fn, "wg.leader");
    LLVMMoveBasicBlockAfter(leader, test);
    LLVMValueRef br = LLVMGetBasicBlockTerminator(test);
    LLVMPositionBuilderBefore(b, br);
    LLVMValueRef is0 = LLVMBuildICmp(b, LLVMIntEQ, weft_build_local_linear_id(b, wf), weft_i64(c, 0), "wg.is.leader");
    LLVMBuildCondBr(b, is0, leader, join);
    LLVMInstructionEraseFromParent(br);
    build_leader(wf, sg, t, target, res_off, leader, join);

    /* every work-item: its result */
    LLVMPositionBuilderBefore(b, call);
    build_barrier(b, wf->m);
    LLVMValueRef from = sg->kind == WEFT_SG_SCAN_INCLUSIVE || sg->kind == WEFT_SG_SCAN_EXCLUSIVE
                            ? in_slot(b, wf, t, weft_build_local_linear_id(b, wf))
                            : res_slot(b, wf, res_off);
    LLVMValueRef r = LLVMBuildLoad2(b, t, from, "wg.result");
    LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
    LLVMDisposeBuilder(b);
}

bool weft_lower_wg_collectives(struct weft_workfn *wf, struct weft_diag *diag)
{
    (void)diag;   /* nothing here can fail but allocation, which aborts (util/vec.h) */
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    WEFT_VEC(LLVMValueRef) calls = {0};
    uint64_t elem = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (weft_wg_collective_call(i).kind != WEFT_SG_NONE) {
                weft_vec_push(&calls, i);
                uint64_t sz = LLVMABISizeOfType(td, LLVMTypeOf(i));
                elem = sz > elem ? sz : elem;
            }
    if (!calls.len)
        return true;
    uint64_t off = res_offset(weft_workfn_local_total(wf), elem);
    for (size_t k = 0; k < calls.len; k++) {
        struct weft_sg_call sg = weft_wg_collective_call(calls.data[k]);
        lower_call(wf, calls.data[k], &sg, off);
    }
    weft_vec_free(&calls);
    /* privatize lays its arrays out after these bytes */
    if (wf->scratch_size < off + 8)
        wf->scratch_size = weft_round_up(off + 8, 64);
    return true;
}
