/* compiler/transform/barriers.c — canonicalizes barriers so sub-CFG formation sees one shape.
 *
 * Assumes: `fn` returns void; every call that may reach a barrier has been inlined.
 * Guarantees afterwards:
 *   - the entry block ("alloca") holds only the function's allocas and branches to an entry
 *     barrier block ("barrier.entry");
 *   - every `ret` is replaced by a branch to one exit barrier block ("barrier.exit") that
 *     branches to a block holding only `ret void`;
 *   - every barrier call (explicit, or the implicit marker __weft_implicit_barrier) is alone in
 *     its block, followed only by an unconditional branch to a block of its own (no PHIs, no
 *     other predecessor);
 *   - a barrier block never branches straight to another barrier block (an empty block sits
 *     between them, so every sub-CFG has at least one block).
 * Returns false only on a kernel that does not return void.
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"

#include <stdlib.h>

static LLVMValueRef build_marker(LLVMBuilderRef b, LLVMModuleRef m)
{
    LLVMValueRef f = weft_get_void_fn(m, WEFT_IMPLICIT_BARRIER_NAME);
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

bool weft_canonicalize_barriers(LLVMValueRef fn, struct weft_diag *diag)
{
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    LLVMContextRef c = LLVMGetModuleContext(m);
    size_t nlen = 0;
    const char *fname = LLVMGetValueName2(fn, &nlen);
    if (LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMVoidTypeKind) {
        weft_diag_error(diag, "%.*s: a kernel must return void", (int)nlen, fname);
        return false;
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);

    /* 1. explicit barriers alone in their blocks (before the implicit ones exist) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!weft_wi_is_barrier_kind(weft_wi_call_kind(i)))
                continue;
            if (LLVMGetFirstInstruction(bb) != i) {
                bb = weft_split_block_before(i, "barrier.block");
            }
            /* always a fresh block after the barrier: the barrier block belongs to no sub-CFG,
             * so nothing (e.g. the stores that demoted PHIs put at the end of predecessors)
             * may live in it, and its successor never has PHIs */
            weft_split_block_before(LLVMGetNextInstruction(i), "after.barrier");
            break;   /* the rest of the block (if any) is the next block, visited next */
        }
    }

    /* 2. returns -> one exit barrier */
    LLVMBasicBlockRef exit_barrier = LLVMAppendBasicBlockInContext(c, fn, "barrier.exit");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(c, fn, "exit");
    LLVMPositionBuilderAtEnd(b, exit_barrier);
    build_marker(b, m);
    LLVMBuildBr(b, exit);
    LLVMPositionBuilderAtEnd(b, exit);
    LLVMBuildRetVoid(b);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (bb == exit)
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t && LLVMIsAReturnInst(t)) {
            LLVMPositionBuilderBefore(b, t);
            LLVMBuildBr(b, exit_barrier);
            LLVMInstructionEraseFromParent(t);
        }
    }

    /* 3. a fresh entry with the allocas, then the entry barrier */
    LLVMBasicBlockRef old_entry = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef entry = LLVMInsertBasicBlockInContext(c, old_entry, "alloca");
    LLVMBasicBlockRef entry_barrier = LLVMInsertBasicBlockInContext(c, old_entry, "barrier.entry");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef br = LLVMBuildBr(b, entry_barrier);
    for (LLVMValueRef i = LLVMGetFirstInstruction(old_entry); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (LLVMIsAAllocaInst(i) && LLVMIsAConstant(LLVMGetOperand(i, 0))) {
            LLVMPositionBuilderBefore(b, br);
            weft_move_instruction(b, i);
        }
        i = next;
    }
    LLVMPositionBuilderAtEnd(b, entry_barrier);
    build_marker(b, m);
    LLVMBuildBr(b, old_entry);

    /* 4. no barrier block directly followed by another */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!weft_is_barrier_block(bb))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        LLVMBasicBlockRef succ = LLVMGetSuccessor(t, 0);
        if (LLVMIsAReturnInst(t) || !weft_is_barrier_block(succ))
            continue;
        LLVMBasicBlockRef mid = LLVMCreateBasicBlockInContext(c, "between.barriers");
        LLVMAppendExistingBasicBlock(fn, mid);
        LLVMMoveBasicBlockAfter(mid, bb);
        LLVMPositionBuilderAtEnd(b, mid);
        LLVMBuildBr(b, succ);
        LLVMSetSuccessor(t, 0, mid);
    }
    LLVMDisposeBuilder(b);
    return true;
}
