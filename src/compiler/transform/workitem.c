/* compiler/transform/workitem.c — lowers the work-item functions of the work function.
 *
 * Guarantees afterwards: no call of a work-item function is left except get_local_id (the
 * per-work-item placeholder that wgloops.c replaces by loop variables) and barriers:
 *   get_group_id(d)          -> the group-id parameter d (0 for d >= 3)
 *   get_local_size(d)        -> the specialized constant (1 for d >= 3): the size of this
 *                               work-group, also when it is a remainder group
 *   get_enqueued_local_size(d), get_global_size(d), get_num_groups(d) -> ctx load (1 for d >= 3)
 *   get_global_offset(d)     -> ctx load (0 for d >= 3)
 *   get_work_dim()           -> ctx load
 *   get_global_id(d)         -> group*local_size + get_local_id(d) + ctx global_id_base
 *   get_local_linear_id()    -> l0 + L0*(l1 + L1*l2)
 *   get_global_linear_id()   -> r0 + G0*(r1 + G1*r2), r = get_global_id - global offset
 * (weft/abi.h says how global_id_base makes the global ids of a non-uniform NDRange's
 * remainder sub-launches right while the uniform case costs what a plain offset costs.)
 * A non-constant dimension argument is handled with selects (out-of-range values get the
 * specification's defaults).
 * Sub-group queries (subgroup.h), with S = the WEFT_SG_WIDTH_NAME placeholder, M = the
 * WEFT_SG_MAX_NAME one, lin = get_local_linear_id, L = this group's work-items and E = the
 * enqueued local size's (ctx loads) — sub-group k holds linear ids [k*S, (k+1)*S):
 *   get_sub_group_id -> lin / S          get_sub_group_local_id -> lin % S
 *   get_num_sub_groups -> ceil(L / S)    get_sub_group_size -> min(S, L - (lin / S) * S)
 *   get_max_sub_group_size -> min(M, E)  get_enqueued_num_sub_groups -> ceil(E / M)
 * sub_group_barrier is removed. The work-items of a sub-group run in lockstep in one thread:
 * with S == W they are the lanes of one vector packet, so every operation before the barrier
 * has run for all of them (as one vector instruction, or lane by lane for serialized ones)
 * before any operation after it runs, and memory dependences between those operations are
 * LLVM's to keep like any others in one thread; no sub-CFG cut is needed. With S == 1 the
 * sub-group is one work-item, whose own program order already orders its memory accesses.
 * (No pass between here and the work-item loops reorders memory accesses.)
 *
 * The generic address space's queries (OpenCL C 3.0 §6.4.4, __opencl_c_generic_address_space)
 * become range tests: on a CPU every space is one flat address space, so a generic pointer is
 *   __local   when it lies in this work-group's __local memory, [ctx->local_mem,
 *             ctx->local_mem + ctx->local_mem_size) (the worker's arena as this launch uses it);
 *   __private when it lies on the running thread's stack [ctx->stack_lo, ctx->stack_hi) (the
 *             work function's allocas, everything inlined into it) or in the work-group's
 *             scratch [ctx->scratch, + ctx->scratch_size) (private variables privatize.c moves
 *             there because they live across barriers);
 *   __global  otherwise (buffers, program-scope variables, __constant data are global too).
 *   __to_global(p) / __to_local(p) / __to_private(p) -> p cast to the space, or NULL
 *   get_fence(p)             -> CLK_LOCAL_MEM_FENCE for __local, else CLK_GLOBAL_MEM_FENCE
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/subgroup.h"
#include "weft/abi.h"

#include <stdlib.h>
#include <string.h>

static LLVMValueRef get_local_id_fn(struct weft_workfn *wf)
{
    LLVMValueRef f = LLVMGetNamedFunction(wf->m, "_Z12get_local_idj");
    if (f)
        return f;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(wf->c);
    LLVMTypeRef ty = LLVMFunctionType(LLVMInt64TypeInContext(wf->c), &i32, 1, 0);
    f = LLVMAddFunction(wf->m, "_Z12get_local_idj", ty);
    /* readnone + willreturn: lets passes treat the placeholder like the value it stands for */
    unsigned k = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(wf->c, k, 0));
    k = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(wf->c, k, 0));
    k = LLVMGetEnumAttributeKindForName("willreturn", 10);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(wf->c, k, 0));
    return f;
}

LLVMValueRef weft_build_local_id(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    if (d >= 3 || wf->local_size[d] == 1)
        return weft_i64(wf->c, 0);
    LLVMValueRef f = get_local_id_fn(wf);
    LLVMValueRef arg = LLVMConstInt(LLVMInt32TypeInContext(wf->c), d, 0);
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &arg, 1, "");
}

LLVMValueRef weft_build_local_linear_id(LLVMBuilderRef b, struct weft_workfn *wf)
{
    LLVMValueRef l0 = weft_build_local_id(b, wf, 0), l1 = weft_build_local_id(b, wf, 1),
                 l2 = weft_build_local_id(b, wf, 2);
    LLVMValueRef t = LLVMBuildMul(b, l2, weft_i64(wf->c, wf->local_size[1]), "");
    t = LLVMBuildAdd(b, t, l1, "");
    t = LLVMBuildMul(b, t, weft_i64(wf->c, wf->local_size[0]), "");
    return LLVMBuildAdd(b, t, l0, "lid.linear");
}

/* value_d for constant d, or a select chain over d = 0,1,2 with `dflt` for d >= 3. */
typedef LLVMValueRef (*per_dim_fn)(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d);

static LLVMValueRef per_dim(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef darg,
                            per_dim_fn f, LLVMValueRef dflt)
{
    if (LLVMIsAConstantInt(darg)) {
        uint64_t d = LLVMConstIntGetZExtValue(darg);
        return d < 3 ? f(b, wf, (unsigned)d) : dflt;
    }
    LLVMValueRef r = dflt;
    LLVMTypeRef dt = LLVMTypeOf(darg);
    for (int d = 2; d >= 0; d--) {
        LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, darg, LLVMConstInt(dt, (unsigned)d, 0), "");
        r = LLVMBuildSelect(b, is, f(b, wf, (unsigned)d), r, "");
    }
    return r;
}

static LLVMValueRef dim_group(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    (void)b;
    return weft_workfn_group_id(wf, d);
}
static LLVMValueRef dim_local_size(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    (void)b;
    return weft_i64(wf->c, wf->local_size[d]);
}
static LLVMValueRef dim_enqueued_local_size(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_ENQUEUED_LOCAL_SIZE, weft_i64(wf->c, d));
}
static LLVMValueRef dim_global_size(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_GLOBAL_SIZE, weft_i64(wf->c, d));
}
static LLVMValueRef dim_num_groups(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_NUM_GROUPS, weft_i64(wf->c, d));
}
static LLVMValueRef dim_offset(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_GLOBAL_OFFSET, weft_i64(wf->c, d));
}
/* group*L + lid: the global id of a work-item of a uniform region without its base */
static LLVMValueRef dim_group_item(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    LLVMValueRef g = LLVMBuildMul(b, weft_workfn_group_id(wf, d), weft_i64(wf->c, wf->local_size[d]), "");
    return LLVMBuildAdd(b, g, weft_build_local_id(b, wf, d), "");
}
static LLVMValueRef dim_id_base(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_ctx_load(b, wf, WEFT_CTX_FIELD_GLOBAL_ID_BASE, weft_i64(wf->c, d));
}
/* the global id without the global offset */
static LLVMValueRef dim_global_rel(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    LLVMValueRef shift = LLVMBuildSub(b, dim_id_base(b, wf, d), dim_offset(b, wf, d), "");
    return LLVMBuildAdd(b, dim_group_item(b, wf, d), shift, "");
}
static LLVMValueRef dim_global_id(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return LLVMBuildAdd(b, dim_group_item(b, wf, d), dim_id_base(b, wf, d), "gid");
}
static LLVMValueRef dim_local_id(LLVMBuilderRef b, struct weft_workfn *wf, unsigned d)
{
    return weft_build_local_id(b, wf, d);
}

static LLVMValueRef sg_placeholder(struct weft_workfn *wf, LLVMBuilderRef b, const char *name)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(wf->c);
    LLVMValueRef f = LLVMGetNamedFunction(wf->m, name);
    if (!f) {
        f = LLVMAddFunction(wf->m, name, LLVMFunctionType(i32, NULL, 0, 0));
        /* memory(none) nounwind willreturn: the shape analysis sees a uniform value */
        const char *attrs[] = {"memory", "nounwind", "willreturn"};
        for (unsigned a = 0; a < 3; a++) {
            unsigned k = LLVMGetEnumAttributeKindForName(attrs[a], strlen(attrs[a]));
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(wf->c, k, 0));
        }
    }
    LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
    return LLVMBuildZExt(b, r, LLVMInt64TypeInContext(wf->c), "");
}

/* The i64 value of sub-group query `k` (see the header comment). */
static LLVMValueRef sg_query(struct weft_workfn *wf, LLVMBuilderRef b, enum weft_sg_kind k)
{
    LLVMValueRef S = sg_placeholder(wf, b, WEFT_SG_WIDTH_NAME);
    LLVMValueRef L = weft_i64(wf->c, weft_workfn_local_total(wf));
    LLVMValueRef one = weft_i64(wf->c, 1);
    switch (k) {
    case WEFT_SG_ID:
        return LLVMBuildUDiv(b, weft_build_local_linear_id(b, wf), S, "sg.id");
    case WEFT_SG_LOCAL_ID:
        return LLVMBuildURem(b, weft_build_local_linear_id(b, wf), S, "sg.lid");
    case WEFT_SG_NUM:
        return LLVMBuildUDiv(b, LLVMBuildSub(b, LLVMBuildAdd(b, L, S, ""), one, ""), S, "sg.num");
    case WEFT_SG_SIZE: {
        LLVMValueRef first = LLVMBuildMul(b, LLVMBuildUDiv(b, weft_build_local_linear_id(b, wf), S, ""), S, "");
        LLVMValueRef left = LLVMBuildSub(b, L, first, "");
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, left, S, ""), left, S, "sg.size");
    }
    default: {
        LLVMValueRef M = sg_placeholder(wf, b, WEFT_SG_MAX_NAME);
        LLVMValueRef E = one;
        for (unsigned d = 0; d < 3; d++)
            E = LLVMBuildMul(b, E, dim_enqueued_local_size(b, wf, d), "");
        if (k == WEFT_SG_MAX_SIZE)
            return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, E, M, ""), E, M, "sg.max");
        return LLVMBuildUDiv(b, LLVMBuildSub(b, LLVMBuildAdd(b, E, M, ""), one, ""), M, "sg.enqueued.num");
    }
    }
}

/* ---- generic address space ---------------------------------------------------------------- */

enum generic_query { GQ_NONE, GQ_TO_GLOBAL, GQ_TO_LOCAL, GQ_TO_PRIVATE, GQ_GET_FENCE };

static enum generic_query generic_query_of(LLVMValueRef call)
{
    if (!LLVMIsACallInst(call))
        return GQ_NONE;
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee) || LLVMGetNumArgOperands(call) != 1)
        return GQ_NONE;
    size_t n = 0;
    const char *name = LLVMGetValueName2(callee, &n);
    if (!strcmp(name, "__to_global"))
        return GQ_TO_GLOBAL;
    if (!strcmp(name, "__to_local"))
        return GQ_TO_LOCAL;
    if (!strcmp(name, "__to_private"))
        return GQ_TO_PRIVATE;
    if (!strcmp(name, "_Z9get_fencePU9CLgenericv") || !strcmp(name, "_Z9get_fencePU9CLgenericKv"))
        return GQ_GET_FENCE;
    return GQ_NONE;
}

/* (p - lo) <u size: p lies in [lo, lo + size). */
static LLVMValueRef in_range(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef p, LLVMValueRef lo, LLVMValueRef size)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMValueRef lo_i = LLVMBuildPtrToInt(b, lo, i64, "");
    return LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, p, lo_i, ""), size, "");
}

/* (The loads are sequenced one statement each so the IR comes out in a fixed order.) */
static LLVMValueRef is_local(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef p)
{
    LLVMValueRef lo = weft_ctx_load(b, wf, WEFT_CTX_FIELD_LOCAL_MEM, NULL);
    LLVMValueRef size = weft_ctx_load(b, wf, WEFT_CTX_FIELD_LOCAL_MEM_SIZE, NULL);
    return in_range(b, wf->c, p, lo, size);
}

static LLVMValueRef is_private(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef p)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(wf->c);
    LLVMValueRef lo = weft_ctx_load(b, wf, WEFT_CTX_FIELD_STACK_LO, NULL);
    LLVMValueRef hi = weft_ctx_load(b, wf, WEFT_CTX_FIELD_STACK_HI, NULL);
    LLVMValueRef hi_i = LLVMBuildPtrToInt(b, hi, i64, "");
    LLVMValueRef lo_i = LLVMBuildPtrToInt(b, lo, i64, "");
    LLVMValueRef on_stack = in_range(b, wf->c, p, lo, LLVMBuildSub(b, hi_i, lo_i, ""));
    LLVMValueRef scratch = weft_ctx_load(b, wf, WEFT_CTX_FIELD_SCRATCH, NULL);
    LLVMValueRef scratch_size = weft_ctx_load(b, wf, WEFT_CTX_FIELD_SCRATCH_SIZE, NULL);
    LLVMValueRef in_scratch = in_range(b, wf->c, p, scratch, scratch_size);
    return LLVMBuildOr(b, on_stack, in_scratch, "");
}

static LLVMValueRef lower_generic_query(LLVMBuilderRef b, struct weft_workfn *wf, LLVMValueRef call,
                                        enum generic_query q)
{
    LLVMValueRef ptr = LLVMGetOperand(call, 0);
    LLVMValueRef p = LLVMBuildPtrToInt(b, ptr, LLVMInt64TypeInContext(wf->c), "");
    LLVMTypeRef rt = LLVMTypeOf(call);
    if (q == GQ_GET_FENCE) {
        /* CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2 */
        return LLVMBuildSelect(b, is_local(b, wf, p), LLVMConstInt(rt, 1, 0), LLVMConstInt(rt, 2, 0), "fence");
    }
    LLVMValueRef ok;
    if (q == GQ_TO_LOCAL)
        ok = is_local(b, wf, p);
    else if (q == GQ_TO_PRIVATE)
        ok = is_private(b, wf, p);
    else {
        LLVMValueRef local = is_local(b, wf, p);
        LLVMValueRef priv = is_private(b, wf, p);
        ok = LLVMBuildNot(b, LLVMBuildOr(b, local, priv, ""), "");
    }
    LLVMValueRef cast = LLVMTypeOf(ptr) == rt ? ptr : LLVMBuildAddrSpaceCast(b, ptr, rt, "");
    return LLVMBuildSelect(b, ok, cast, LLVMConstPointerNull(rt), "");
}

bool weft_workitem_lower(struct weft_workfn *wf, struct weft_diag *diag)
{
    (void)diag;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);
    LLVMValueRef zero = weft_i64(wf->c, 0), one = weft_i64(wf->c, 1);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef i = LLVMGetFirstInstruction(bb);
        while (i) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            enum weft_wi_kind k = weft_wi_call_kind(i);
            LLVMValueRef r = NULL;
            LLVMPositionBuilderBefore(b, i);
            enum weft_sg_kind sk = k == WEFT_WI_NONE ? weft_subgroup_call(i).kind : WEFT_SG_NONE;
            if (sk == WEFT_SG_BARRIER) {
                LLVMInstructionEraseFromParent(i);
                i = next;
                continue;
            }
            if (sk >= WEFT_SG_SIZE && sk <= WEFT_SG_LOCAL_ID)
                r = sg_query(wf, b, sk);
            enum generic_query q = k == WEFT_WI_NONE ? generic_query_of(i) : GQ_NONE;
            if (q != GQ_NONE)
                r = lower_generic_query(b, wf, i, q);
            LLVMValueRef darg = LLVMGetNumArgOperands(i) > 0 && k != WEFT_WI_BARRIER ? LLVMGetOperand(i, 0) : NULL;
            switch (k) {
            case WEFT_WI_GROUP_ID: r = per_dim(b, wf, darg, dim_group, zero); break;
            case WEFT_WI_LOCAL_SIZE: r = per_dim(b, wf, darg, dim_local_size, one); break;
            case WEFT_WI_ENQUEUED_LOCAL_SIZE: r = per_dim(b, wf, darg, dim_enqueued_local_size, one); break;
            case WEFT_WI_GLOBAL_SIZE: r = per_dim(b, wf, darg, dim_global_size, one); break;
            case WEFT_WI_NUM_GROUPS: r = per_dim(b, wf, darg, dim_num_groups, one); break;
            case WEFT_WI_GLOBAL_OFFSET: r = per_dim(b, wf, darg, dim_offset, zero); break;
            case WEFT_WI_WORK_DIM: r = weft_ctx_load(b, wf, WEFT_CTX_FIELD_WORK_DIM, NULL); break;
            case WEFT_WI_GLOBAL_ID: r = per_dim(b, wf, darg, dim_global_id, zero); break;
            case WEFT_WI_LOCAL_ID:
                /* constant dimensions stay calls (placeholders); others become selects of them */
                if (!LLVMIsAConstantInt(darg))
                    r = per_dim(b, wf, darg, dim_local_id, zero);
                else if (LLVMConstIntGetZExtValue(darg) >= 3 ||
                         wf->local_size[LLVMConstIntGetZExtValue(darg)] == 1)
                    r = zero;
                break;
            case WEFT_WI_LOCAL_LINEAR_ID: r = weft_build_local_linear_id(b, wf); break;
            case WEFT_WI_GLOBAL_LINEAR_ID: {
                LLVMValueRef t = dim_global_rel(b, wf, 2);
                t = LLVMBuildMul(b, t, dim_global_size(b, wf, 1), "");
                t = LLVMBuildAdd(b, t, dim_global_rel(b, wf, 1), "");
                t = LLVMBuildMul(b, t, dim_global_size(b, wf, 0), "");
                r = LLVMBuildAdd(b, t, dim_global_rel(b, wf, 0), "gid.linear");
                break;
            }
            default: break;
            }
            if (r) {
                LLVMTypeRef want = LLVMTypeOf(i);
                if (LLVMTypeOf(r) != want)
                    r = LLVMBuildIntCast2(b, r, want, 0, "");
                LLVMReplaceAllUsesWith(i, r);
                LLVMInstructionEraseFromParent(i);
            }
            i = next;
        }
    }
    LLVMDisposeBuilder(b);
    return true;
}
