/* compiler/transform/demote.c — demotes PHIs and block-crossing SSA values to stack slots
 * (what LLVM's reg2mem does, for one function: LLVM-C can only run passes on whole modules).
 *
 * Assumes: the entry block holds the allocas and dominates everything (canonical barriers).
 * Guarantees afterwards: no PHI is left, and every instruction outside the entry block is
 * used only in its own block; values that crossed blocks are stored to an entry-block alloca
 * right after their definition and loaded right before each use in another block. Blocks can
 * then be cloned one by one without any SSA repair; sroa/mem2reg undo what is not needed.
 */
#include "compiler/analysis/shape.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "util/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records what privatization may do with `slot`, which holds `v`. */
static void record_shape(struct weft_workfn *wf, const struct weft_shapes *shapes, LLVMValueRef slot, LLVMValueRef v,
                         const struct weft_ptrmap *phi_loads)
{
    if (!shapes)
        return;
    /* a load that replaced a phi in step 1 has the phi's shape (the shapes predate the load) */
    LLVMValueRef phi = (LLVMValueRef)weft_ptrmap_get_or(phi_loads, v, 0);
    struct weft_shape sh = weft_shape_of(shapes, phi ? phi : v);
    struct weft_slot_info info = {WEFT_SLOT_VARYING, 0, 0};
    LLVMTypeKind tk = LLVMGetTypeKind(LLVMTypeOf(v));
    if (sh.kind == WEFT_SHAPE_UNIFORM) {
        info.shape = WEFT_SLOT_UNIFORM;
    } else if (sh.kind == WEFT_SHAPE_AFFINE && (tk == LLVMIntegerTypeKind || tk == LLVMPointerTypeKind) &&
               sh.dim >= 0 && sh.dim < 3 && weft_shape_const_stride(sh, &info.stride)) {
        info.shape = WEFT_SLOT_AFFINE;
        info.dim = sh.dim;
    } else {
        return;
    }
    struct weft_slot_info *p = malloc(sizeof *p);
    if (!p)
        return;   /* the slot is then simply widened: always correct */
    *p = info;
    weft_ptrmap_put(&wf->slot_info, slot, (uintptr_t)p);
}

static void erase_all(LLVMValueRef *insts, size_t n)
{
    for (size_t k = 0; k < n; k++)
        LLVMInstructionEraseFromParent(insts[k]);
}

static LLVMValueRef slot_for(LLVMBuilderRef eb, LLVMValueRef v, const char *suffix)
{
    size_t n = 0;
    const char *name = LLVMGetValueName2(v, &n);
    char buf[96];
    snprintf(buf, sizeof buf, "%.*s%s", (int)(n > 80 ? 80 : n), name, suffix);
    return LLVMBuildAlloca(eb, LLVMTypeOf(v), buf);
}

bool weft_demote_values(struct weft_workfn *wf, const struct weft_shapes *shapes, struct weft_diag *diag)
{
    LLVMValueRef fn = wf->fn;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    /* step 1's loads -> the phis they replaced. The phis stay (inert: no uses, poison incoming
     * values) until the end: an instruction created meanwhile cannot take an erased phi's
     * address, under which the shape analysis would still answer with the phi's shape. */
    struct weft_ptrmap phi_loads;
    weft_ptrmap_init(&phi_loads);
    WEFT_VEC(LLVMValueRef) dead_phis = {0};

    /* 1. PHIs: load at the top of the block, store at the end of each predecessor. All PHIs
     * of a block are loaded before any of their stores run, keeping parallel-copy semantics. */
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef i = LLVMGetFirstInstruction(bb);
        LLVMValueRef first_non_phi = LLVMGetFirstInstruction(bb);
        while (first_non_phi && LLVMIsAPHINode(first_non_phi))
            first_non_phi = LLVMGetNextInstruction(first_non_phi);
        while (i && LLVMIsAPHINode(i)) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            LLVMValueRef slot = slot_for(eb, i, ".phi");
            weft_ptrmap_put(&wf->demoted, slot, 1);
            record_shape(wf, shapes, slot, i, &phi_loads);
            unsigned n = LLVMCountIncoming(i);
            for (unsigned k = 0; k < n; k++) {
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(i, k);
                LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
                LLVMBuildStore(b, LLVMGetIncomingValue(i, k), slot);
            }
            LLVMPositionBuilderBefore(b, first_non_phi);
            LLVMValueRef ld = LLVMBuildLoad2(b, LLVMTypeOf(i), slot, "");
            weft_ptrmap_put(&phi_loads, ld, (uintptr_t)i);
            LLVMReplaceAllUsesWith(i, ld);
            size_t nl = 0;
            const char *nm = LLVMGetValueName2(i, &nl);
            char *copy = strndup(nm, nl);
            LLVMSetValueName2(i, "", 0);
            for (unsigned k = 0; k < n; k++)
                LLVMSetOperand(i, k, LLVMGetPoison(LLVMTypeOf(i)));
            weft_vec_push(&dead_phis, i);
            if (copy)
                LLVMSetValueName2(ld, copy, strlen(copy));
            free(copy);
            i = next;
        }
    }

    /* 2. values used in another block */
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind || LLVMIsATerminatorInst(i))
                continue;
            bool crosses = false;
            for (LLVMUseRef u = LLVMGetFirstUse(i); u && !crosses; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                crosses = LLVMIsAInstruction(user) && LLVMGetInstructionParent(user) != bb;
            }
            if (!crosses)
                continue;
            LLVMValueRef slot = slot_for(eb, i, ".slot");
            weft_ptrmap_put(&wf->demoted, slot, 1);
            record_shape(wf, shapes, slot, i, &phi_loads);
            LLVMValueRef after = LLVMGetNextInstruction(i);
            LLVMPositionBuilderBefore(b, after);
            LLVMBuildStore(b, i, slot);
            /* collect users first: rewriting operands edits the use list */
            unsigned nu = 0, cap = 8;
            LLVMValueRef *users = malloc(cap * sizeof *users);
            for (LLVMUseRef u = LLVMGetFirstUse(i); u && users; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) == bb)
                    continue;
                if (nu == cap) {
                    LLVMValueRef *nu_users = realloc(users, (cap *= 2) * sizeof *users);
                    if (!nu_users) {
                        free(users);
                        users = NULL;
                        break;
                    }
                    users = nu_users;
                }
                users[nu++] = user;
            }
            if (!users) {
                weft_diag_error(diag, "out of memory demoting values");
                LLVMDisposeBuilder(b);
                LLVMDisposeBuilder(eb);
                weft_ptrmap_free(&phi_loads);
                erase_all(dead_phis.data, dead_phis.len);
                weft_vec_free(&dead_phis);
                return false;
            }
            for (unsigned k = 0; k < nu; k++) {
                LLVMValueRef user = users[k];
                if (k > 0 && users[k - 1] == user)
                    continue;   /* same user listed once per operand use */
                LLVMPositionBuilderBefore(b, user);
                LLVMValueRef ld = LLVMBuildLoad2(b, LLVMTypeOf(i), slot, "");
                int no = LLVMGetNumOperands(user);
                for (int o = 0; o < no; o++)
                    if (LLVMGetOperand(user, (unsigned)o) == i)
                        LLVMSetOperand(user, (unsigned)o, ld);
            }
            free(users);
        }
    }
    LLVMDisposeBuilder(b);
    LLVMDisposeBuilder(eb);
    weft_ptrmap_free(&phi_loads);
    erase_all(dead_phis.data, dead_phis.len);
    weft_vec_free(&dead_phis);
    return true;
}
