/* compiler/transform/localatomics.c — atomic operations on __local memory become plain
 * read-modify-write sequences (passes.h, after the work-item loops are built).
 *
 * Why it is correct: a work-group runs on one worker thread from its first work-item to its
 * last (exec/pool.c), and its __local memory is that worker's arena (runtime/ndrange.c), so no
 * other thread can touch it while the group runs; the work-items of the group take turns in
 * program order (the work-item loops, and the vectorizer's lane-by-lane atomics, lane 0
 * first). An atomic on __local memory therefore only has to be one indivisible step among the
 * group's work-items, which a plain load, operation and store in sequence already is. A locked
 * instruction costs some 20 cycles each; a histogram in __local memory is made of them.
 *
 * Only accesses whose pointer is in addrspace(3) at this point are rewritten, or is a generic
 * pointer cast from one (weft_pointer_space): an atomic through a generic pointer of unknown
 * origin may reach global memory and stays atomic. A volatile atomic (OpenCL 1.x's
 * atomic_inc and friends take volatile pointers) becomes a volatile load and a volatile store:
 * still performed, in order, just not locked.
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"

#include <stdlib.h>

#define LOCAL_AS 3u

static bool on_local(LLVMValueRef ptr)
{
    return weft_pointer_space(ptr) == LOCAL_AS;
}

/* The new value of an atomicrmw `op` from the old one and the operand; NULL: not lowered. */
static LLVMValueRef apply(LLVMBuilderRef b, LLVMAtomicRMWBinOp op, LLVMValueRef old, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(old);
    switch (op) {
    case LLVMAtomicRMWBinOpXchg:
        return v;
    case LLVMAtomicRMWBinOpAdd:
        return LLVMBuildAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpSub:
        return LLVMBuildSub(b, old, v, "");
    case LLVMAtomicRMWBinOpAnd:
        return LLVMBuildAnd(b, old, v, "");
    case LLVMAtomicRMWBinOpNand:
        return LLVMBuildNot(b, LLVMBuildAnd(b, old, v, ""), "");
    case LLVMAtomicRMWBinOpOr:
        return LLVMBuildOr(b, old, v, "");
    case LLVMAtomicRMWBinOpXor:
        return LLVMBuildXor(b, old, v, "");
    case LLVMAtomicRMWBinOpMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpFAdd:
        return LLVMBuildFAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpFSub:
        return LLVMBuildFSub(b, old, v, "");
    case LLVMAtomicRMWBinOpUIncWrap: {
        /* old >= v ? 0 : old + 1 */
        LLVMValueRef wrap = LLVMBuildICmp(b, LLVMIntUGE, old, v, "");
        return LLVMBuildSelect(b, wrap, LLVMConstNull(t), LLVMBuildAdd(b, old, LLVMConstInt(t, 1, 0), ""), "");
    }
    case LLVMAtomicRMWBinOpUDecWrap: {
        /* old == 0 || old > v ? v : old - 1 */
        LLVMValueRef wrap = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, old, LLVMConstNull(t), ""),
                                        LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), "");
        return LLVMBuildSelect(b, wrap, v, LLVMBuildSub(b, old, LLVMConstInt(t, 1, 0), ""), "");
    }
    default:
        return NULL;   /* fmax/fmin and newer operations: left atomic */
    }
}

static LLVMValueRef plain_load(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef ptr, LLVMValueRef like)
{
    LLVMValueRef l = LLVMBuildLoad2(b, t, ptr, "");
    if (LLVMGetAlignment(like))
        LLVMSetAlignment(l, LLVMGetAlignment(like));
    LLVMSetVolatile(l, LLVMGetVolatile(like));
    return l;
}

static void plain_store(LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef ptr, LLVMValueRef like)
{
    LLVMValueRef s = LLVMBuildStore(b, v, ptr);
    if (LLVMGetAlignment(like))
        LLVMSetAlignment(s, LLVMGetAlignment(like));
    LLVMSetVolatile(s, LLVMGetVolatile(like));
}

/* Rewrites one instruction; true when it was replaced (and erased). */
static bool lower(LLVMBuilderRef b, LLVMValueRef i)
{
    if (LLVMIsAAtomicRMWInst(i)) {
        LLVMValueRef ptr = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
        if (!on_local(ptr))
            return false;
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef old = plain_load(b, LLVMTypeOf(v), ptr, i);
        LLVMValueRef nv = apply(b, LLVMGetAtomicRMWBinOp(i), old, v);
        if (!nv) {
            LLVMInstructionEraseFromParent(old);
            return false;
        }
        plain_store(b, nv, ptr, i);
        LLVMReplaceAllUsesWith(i, old);
        LLVMInstructionEraseFromParent(i);
        return true;
    }
    if (LLVMIsAAtomicCmpXchgInst(i)) {
        LLVMValueRef ptr = LLVMGetOperand(i, 0), cmp = LLVMGetOperand(i, 1), nv = LLVMGetOperand(i, 2);
        if (!on_local(ptr))
            return false;
        LLVMTypeRef t = LLVMTypeOf(cmp);
        LLVMTypeKind k = LLVMGetTypeKind(t);
        if (k != LLVMIntegerTypeKind && k != LLVMPointerTypeKind)
            return false;
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef old = plain_load(b, t, ptr, i);
        LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, old, cmp, "");
        /* a weak cmpxchg may fail spuriously, a strong one may not: succeeding when equal is
         * right for both */
        plain_store(b, LLVMBuildSelect(b, eq, nv, old, ""), ptr, i);
        LLVMValueRef pair = LLVMBuildInsertValue(b, LLVMGetPoison(LLVMTypeOf(i)), old, 0, "");
        pair = LLVMBuildInsertValue(b, pair, eq, 1, "");
        LLVMReplaceAllUsesWith(i, pair);
        LLVMInstructionEraseFromParent(i);
        return true;
    }
    if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic &&
        on_local(LLVMGetOperand(i, LLVMIsALoadInst(i) ? 0 : 1))) {
        LLVMSetOrdering(i, LLVMAtomicOrderingNotAtomic);
        return false;   /* changed in place */
    }
    return false;
}

unsigned weft_lower_local_atomics(LLVMValueRef fn)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            n += lower(b, i);
        }
    LLVMDisposeBuilder(b);
    return n;
}
