/* compiler/transform/ssarepair.c — SSA repair by demotion (transform/ssarepair.h). */
#include "compiler/transform/ssarepair.h"

#include <stdbool.h>
#include <stdlib.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"

/* The load that replaces `def` in operand `op` of `user`: before the user, or for a phi at
 * the end of the incoming block. A phi's entries for one block must carry one value (a switch
 * with two cases to the same block), so a phi reuses the load it made for that block. */
static LLVMValueRef reload(LLVMBuilderRef b, LLVMValueRef user, unsigned op, LLVMTypeRef ty, LLVMValueRef slot)
{
    if (!LLVMIsAPHINode(user)) {
        LLVMPositionBuilderBefore(b, user);
        return LLVMBuildLoad2(b, ty, slot, "");
    }
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(user, op);
    for (unsigned k = 0; k < op; k++)
        if (LLVMGetIncomingBlock(user, k) == from && LLVMIsALoadInst(LLVMGetIncomingValue(user, k)) &&
            LLVMGetOperand(LLVMGetIncomingValue(user, k), 0) == slot)
            return LLVMGetIncomingValue(user, k);
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
    return LLVMBuildLoad2(b, ty, slot, "");
}

static void demote(LLVMValueRef fn, LLVMValueRef def)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(def));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMPositionBuilderBefore(b, first);
    LLVMTypeRef ty = LLVMTypeOf(def);
    LLVMValueRef slot = LLVMBuildAlloca(b, ty, "ssa.slot");
    /* The users first, then their operands: rewriting one operand of a user that holds `def`
     * twice (a phi with two entries) takes both of its uses off the list, so walking the list
     * while rewriting skipped the users after it (seed 681 of tools/fuzz: a value used by a phi
     * twice and by one more instruction kept that last use and broke dominance). */
    size_t nusers = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(def); u; u = LLVMGetNextUse(u))
        nusers++;
    LLVMValueRef *users = malloc((nusers ? nusers : 1) * sizeof *users);
    size_t n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(def); u && users; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = users[i] == user;
        if (!seen)
            users[n++] = user;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned nops = (unsigned)LLVMGetNumOperands(users[i]);
        for (unsigned op = 0; op < nops; op++)
            if (LLVMGetOperand(users[i], op) == def)
                LLVMSetOperand(users[i], op, reload(b, users[i], op, ty, slot));
    }
    free(users);
    LLVMValueRef at = LLVMGetNextInstruction(def);
    while (at && LLVMIsAPHINode(at))
        at = LLVMGetNextInstruction(at);
    LLVMPositionBuilderBefore(b, at);
    LLVMBuildStore(b, def, slot);
    LLVMDisposeBuilder(b);
}

unsigned weft_ssa_repair(LLVMValueRef fn)
{
    struct weft_cfg *cfg = weft_cfg_build(fn);
    if (!cfg)
        return 0;
    struct weft_domtree *dom = weft_dom_compute(cfg);
    LLVMValueRef *bad = NULL;
    size_t nbad = 0;
    for (size_t bi = 0; bi < cfg->nblocks; bi++) {
        if (!weft_cfg_reachable(cfg, bi))
            continue;
        for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[bi]); in; in = LLVMGetNextInstruction(in)) {
            bool broken = false;
            for (LLVMUseRef u = LLVMGetFirstUse(in); u && !broken; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!LLVMIsAInstruction(user) ||
                    !weft_cfg_reachable(cfg, (size_t)weft_cfg_index(cfg, LLVMGetInstructionParent(user))))
                    continue;
                unsigned n = (unsigned)LLVMGetNumOperands(user);
                for (unsigned op = 0; op < n && !broken; op++)
                    if (LLVMGetOperand(user, op) == in && !weft_dom_dominates_use(dom, in, user, op))
                        broken = true;
            }
            if (broken) {
                LLVMValueRef *grown = realloc(bad, (nbad + 1) * sizeof *grown);
                if (!grown)
                    break;
                bad = grown;
                bad[nbad++] = in;
            }
        }
    }
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    for (size_t i = 0; i < nbad; i++)
        demote(fn, bad[i]);
    free(bad);
    return (unsigned)nbad;
}
