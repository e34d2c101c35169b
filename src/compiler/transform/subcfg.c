/* compiler/transform/subcfg.c — finds the barrier-free sub-CFGs (continuation-based
 * synchronization, Meyer §3.3 step 1).
 *
 * Assumes: canonical barriers (barriers.c).
 * Guarantees: the entry barrier has id 0, the other barriers ids 1..n-1 in layout order, the
 * exit barrier WEFT_SUBCFG_EXIT_ID. Sub-CFG i holds every block reachable from barrier i's
 * successor without passing through a barrier block; a block may belong to several sub-CFGs
 * (it is then cloned once per sub-CFG). Barrier blocks are renamed "barrier<i>" so the
 * output reads well (wgloops.c names the clones "subcfg<i>.<block>").
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weft_subcfgs_free(struct weft_subcfgs *s)
{
    for (unsigned i = 0; i < s->count; i++)
        free(s->s[i].blocks);
    free(s->s);
    free(s->barriers);
    memset(s, 0, sizeof *s);
}

bool weft_subcfgs_form(LLVMValueRef fn, struct weft_subcfgs *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    unsigned nbb = 0;
    LLVMBasicBlockRef *bbs = weft_function_blocks(fn, &nbb);
    if (!bbs || nbb < 2) {
        free(bbs);
        weft_diag_error(diag, "sub-CFG formation: barriers are not canonical");
        return false;
    }
    /* entry barrier = successor of the alloca block */
    LLVMBasicBlockRef entry_barrier = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(bbs[0]), 0);
    if (!weft_is_barrier_block(entry_barrier)) {
        free(bbs);
        weft_diag_error(diag, "sub-CFG formation: no entry barrier (run canonicalize-barriers first)");
        return false;
    }
    unsigned nbar = 0;
    for (unsigned i = 0; i < nbb; i++)
        nbar += weft_is_barrier_block(bbs[i]);
    out->barriers = calloc(nbar, sizeof *out->barriers);
    out->s = calloc(nbar, sizeof *out->s);
    LLVMBasicBlockRef *stack = malloc(nbb * sizeof *stack);
    char *seen = malloc(nbb);
    struct weft_vmap index;   /* block -> its layout index + 1 */
    weft_vmap_init(&index);
    bool ok = out->barriers && out->s && stack && seen;
    for (unsigned i = 0; ok && i < nbb; i++)
        ok = weft_vmap_put(&index, bbs[i], (void *)(uintptr_t)(i + 1));
    if (!ok) {
        weft_diag_error(diag, "out of memory");
        goto fail;
    }

    /* ids: entry 0, then the others in layout order; the exit barrier is the one ending in a
     * branch to the `ret` block (the last barrier whose successor returns) */
    out->barriers[out->count++] = entry_barrier;
    for (unsigned i = 0; i < nbb; i++) {
        if (!weft_is_barrier_block(bbs[i]) || bbs[i] == entry_barrier)
            continue;
        LLVMBasicBlockRef succ = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(bbs[i]), 0);
        LLVMValueRef st = LLVMGetFirstInstruction(succ);
        if (weft_wi_call_kind(LLVMGetFirstInstruction(bbs[i])) == WEFT_WI_IMPLICIT_BARRIER && st &&
            LLVMIsAReturnInst(st)) {
            out->exit_barrier = bbs[i];
            continue;
        }
        out->barriers[out->count++] = bbs[i];
    }
    if (!out->exit_barrier) {
        weft_diag_error(diag, "sub-CFG formation: no exit barrier (run canonicalize-barriers first)");
        goto fail;
    }

    for (unsigned id = 0; id < out->count; id++) {
        struct weft_subcfg *s = &out->s[id];
        s->id = (int)id;
        s->barrier = out->barriers[id];
        s->entry = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(s->barrier), 0);
        s->blocks = malloc(nbb * sizeof *s->blocks);
        if (!s->blocks) {
            weft_diag_error(diag, "out of memory");
            goto fail;
        }
        memset(seen, 0, nbb);
        unsigned sp = 0;
        stack[sp++] = s->entry;
        seen[(uintptr_t)weft_vmap_get(&index, s->entry) - 1] = 1;
        while (sp) {
            LLVMBasicBlockRef bb = stack[--sp];
            s->blocks[s->nblocks++] = bb;
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned k = 0; k < ns; k++) {
                LLVMBasicBlockRef succ = LLVMGetSuccessor(t, k);
                if (weft_is_barrier_block(succ))
                    continue;
                unsigned ix = (unsigned)(uintptr_t)weft_vmap_get(&index, succ) - 1;
                if (!seen[ix]) {
                    seen[ix] = 1;
                    stack[sp++] = succ;
                }
            }
        }
    }

    /* readable names */
    char name[48];
    for (unsigned id = 0; id < out->count; id++) {
        snprintf(name, sizeof name, "barrier%u", id);
        LLVMSetValueName2(LLVMBasicBlockAsValue(out->barriers[id]), name, strlen(name));
    }
    LLVMSetValueName2(LLVMBasicBlockAsValue(out->exit_barrier), "barrier.exit", 12);

    free(bbs);
    free(stack);
    free(seen);
    weft_vmap_free(&index);
    return true;

fail:
    free(bbs);
    free(stack);
    free(seen);
    weft_vmap_free(&index);
    weft_subcfgs_free(out);
    return false;
}
