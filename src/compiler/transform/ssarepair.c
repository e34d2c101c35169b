/* compiler/transform/ssarepair.c — SSA repair by demotion (transform/ssarepair.h). */
#include "compiler/transform/ssarepair.h"

#include <stdlib.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"

static void demote(LLVMValueRef fn, LLVMValueRef def)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(def));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMPositionBuilderBefore(b, first);
    LLVMTypeRef ty = LLVMTypeOf(def);
    LLVMValueRef slot = LLVMBuildAlloca(b, ty, "ssa.slot");
    /* uses first (the store added below is a use too) */
    LLVMUseRef u = LLVMGetFirstUse(def);
    while (u) {
        LLVMUseRef next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        unsigned n = (unsigned)LLVMGetNumOperands(user);
        for (unsigned op = 0; op < n; op++) {
            if (LLVMGetOperand(user, op) != def)
                continue;
            if (LLVMIsAPHINode(user))
                LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, op)));
            else
                LLVMPositionBuilderBefore(b, user);
            LLVMSetOperand(user, op, LLVMBuildLoad2(b, ty, slot, ""));
        }
        u = next;
    }
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
