/* compiler/transform/irutil.c — shared IR helpers for the work-group passes (see irutil.h). */
#include "compiler/transform/irutil.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum weft_wi_kind kind;
} wi_names[] = {
    {"_Z12get_local_idj", WEFT_WI_LOCAL_ID},
    {"_Z13get_global_idj", WEFT_WI_GLOBAL_ID},
    {"_Z12get_group_idj", WEFT_WI_GROUP_ID},
    {"_Z14get_local_sizej", WEFT_WI_LOCAL_SIZE},
    {"_Z23get_enqueued_local_sizej", WEFT_WI_ENQUEUED_LOCAL_SIZE},
    {"_Z15get_global_sizej", WEFT_WI_GLOBAL_SIZE},
    {"_Z14get_num_groupsj", WEFT_WI_NUM_GROUPS},
    {"_Z12get_work_dimv", WEFT_WI_WORK_DIM},
    {"_Z17get_global_offsetj", WEFT_WI_GLOBAL_OFFSET},
    {"_Z20get_global_linear_idv", WEFT_WI_GLOBAL_LINEAR_ID},
    {"_Z19get_local_linear_idv", WEFT_WI_LOCAL_LINEAR_ID},
    {"_Z7barrierj", WEFT_WI_BARRIER},
    {"_Z18work_group_barrierj", WEFT_WI_BARRIER},
    {"_Z18work_group_barrierj12memory_scope", WEFT_WI_BARRIER},
    {WEFT_IMPLICIT_BARRIER_NAME, WEFT_WI_IMPLICIT_BARRIER},
};

const char *weft_direct_callee_name(LLVMValueRef call, size_t *len)
{
    if (!call || !LLVMIsACallInst(call))
        return NULL;
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee))
        return NULL;
    return LLVMGetValueName2(callee, len);
}

enum weft_wi_kind weft_wi_call_kind(LLVMValueRef call)
{
    size_t len = 0;
    const char *name = weft_direct_callee_name(call, &len);
    if (!name)
        return WEFT_WI_NONE;
    for (size_t i = 0; i < sizeof wi_names / sizeof wi_names[0]; i++)
        if (strlen(wi_names[i].name) == len && memcmp(wi_names[i].name, name, len) == 0)
            return wi_names[i].kind;
    return WEFT_WI_NONE;
}

bool weft_is_barrier_block(LLVMBasicBlockRef bb)
{
    LLVMValueRef first = LLVMGetFirstInstruction(bb);
    if (!first || !weft_wi_is_barrier_kind(weft_wi_call_kind(first)))
        return false;
    LLVMValueRef next = LLVMGetNextInstruction(first);
    return next && next == LLVMGetBasicBlockTerminator(bb);
}

void weft_phis_replace_incoming_block(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMIsAPHINode(i)) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        unsigned n = LLVMCountIncoming(i);
        bool hit = false;
        for (unsigned k = 0; k < n; k++)
            hit |= LLVMGetIncomingBlock(i, k) == from;
        if (hit) {
            /* LLVM-C cannot set an incoming block: rebuild the PHI with the new block list */
            LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(i)));
            LLVMPositionBuilderBefore(b, i);
            size_t len = 0;
            const char *name = LLVMGetValueName2(i, &len);
            char *copy = strndup(name, len);
            LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(i), "");
            for (unsigned k = 0; k < n; k++) {
                LLVMValueRef v = LLVMGetIncomingValue(i, k);
                LLVMBasicBlockRef blk = LLVMGetIncomingBlock(i, k);
                if (blk == from)
                    blk = to;
                LLVMAddIncoming(phi, &v, &blk, 1);
            }
            LLVMReplaceAllUsesWith(i, phi);
            LLVMInstructionEraseFromParent(i);
            if (copy)
                LLVMSetValueName2(phi, copy, strlen(copy));
            free(copy);
            LLVMDisposeBuilder(b);
        }
        i = next;
    }
}

void weft_move_instruction(LLVMBuilderRef b, LLVMValueRef inst)
{
    /* the builder would give the instruction the empty name: keep the one it has */
    size_t n = 0;
    const char *name = LLVMGetValueName2(inst, &n);
    char *copy = n ? strndup(name, n) : NULL;
    LLVMInstructionRemoveFromParent(inst);
    LLVMInsertIntoBuilderWithName(b, inst, copy ? copy : "");
    free(copy);
}

LLVMBasicBlockRef weft_split_block_before(LLVMValueRef inst, const char *name)
{
    LLVMBasicBlockRef old = LLVMGetInstructionParent(inst);
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(inst));
    LLVMBasicBlockRef nb = LLVMCreateBasicBlockInContext(c, name);
    LLVMValueRef fn = LLVMGetBasicBlockParent(old);
    LLVMAppendExistingBasicBlock(fn, nb);
    LLVMMoveBasicBlockAfter(nb, old);

    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, nb);
    for (LLVMValueRef i = inst; i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        weft_move_instruction(b, i);
        i = next;
    }
    LLVMPositionBuilderAtEnd(b, old);
    LLVMBuildBr(b, nb);
    LLVMDisposeBuilder(b);

    LLVMValueRef term = LLVMGetBasicBlockTerminator(nb);
    if (term) {
        unsigned ns = LLVMGetNumSuccessors(term);
        for (unsigned s = 0; s < ns; s++)
            weft_phis_replace_incoming_block(LLVMGetSuccessor(term, s), old, nb);
    }
    return nb;
}

LLVMBasicBlockRef *weft_function_blocks(LLVMValueRef fn, unsigned *n)
{
    *n = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *bbs = malloc((*n ? *n : 1) * sizeof *bbs);
    if (bbs)
        LLVMGetBasicBlocks(fn, bbs);
    else
        *n = 0;
    return bbs;
}

LLVMValueRef weft_get_void_fn(LLVMModuleRef m, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef ty = LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, 0);
    f = LLVMAddFunction(m, name, ty);
    /* convergent like a real barrier, so no pass moves it before we remove it */
    unsigned k = LLVMGetEnumAttributeKindForName("convergent", 10);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, k, 0));
    return f;
}

LLVMValueRef weft_i64(LLVMContextRef c, uint64_t v)
{
    return LLVMConstInt(LLVMInt64TypeInContext(c), v, 0);
}


bool weft_call_memory_effects(LLVMValueRef call, LLVMValueRef callee, uint64_t *effects)
{
    static unsigned memory_kind;
    if (!memory_kind)
        memory_kind = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, memory_kind);
    if (!a && callee)
        a = LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, memory_kind);
    if (!a)
        return false;
    *effects = LLVMGetEnumAttributeValue(a);
    return true;
}

bool weft_call_is_pure(LLVMValueRef call)
{
    static unsigned convergent_kind;
    if (!convergent_kind)
        convergent_kind = LLVMGetEnumAttributeKindForName("convergent", 10);
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!callee || !LLVMIsAFunction(callee))
        return false;
    uint64_t effects = 0;
    if (!weft_call_memory_effects(call, callee, &effects) || effects != 0)
        return false;
    return !LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, convergent_kind) &&
           !LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, convergent_kind);
}

LLVMValueRef weft_pointer_object(LLVMValueRef p)
{
    for (int guard = 0; guard < 64 && (LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p) ||
                                       LLVMIsABitCastInst(p));
         guard++)
        p = LLVMGetOperand(p, 0);
    return p;
}

unsigned weft_pointer_space(LLVMValueRef p)
{
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
    for (int guard = 0; as == 4 && guard < 64; guard++) {
        bool cast = LLVMIsAAddrSpaceCastInst(p) ||
                    (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMAddrSpaceCast);
        bool step = cast || LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
                    (LLVMIsAConstantExpr(p) &&
                     (LLVMGetConstOpcode(p) == LLVMGetElementPtr || LLVMGetConstOpcode(p) == LLVMBitCast));
        if (!step)
            break;
        p = LLVMGetOperand(p, 0);
        as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
    }
    return as;
}
