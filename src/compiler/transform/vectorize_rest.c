/* compiler/transform/vectorize_rest.c — guards after which the rest of a packet loop has
 * nothing to do.
 *
 * GPU kernels narrow a work-group's work step by step: a tree reduction runs
 * `if (lid < stride) s[lid] += s[lid + stride];` with a halving stride, one barrier apart, and
 * a leader writes `if (lid == 0) out[g] = s[0];`. Each such sub-CFG still ran every packet of
 * the group, only for most of them to find all their lanes idle: a tree over 256 work-items in
 * packets of 16 ran 8 x 16 packets where 19 had work. A branch of the sub-CFG is a *final
 * guard* when a packet whose lanes all take its false edge shows that every later packet of
 * the loop would do nothing:
 *   - every packet reaches it the same way, and at most once: each block that can reach it
 *     branches on uniform values only (or not at all), and it lies on no cycle of the sub-CFG;
 *   - whatever a packet does before it, or after its false edge, ends with the packet: those
 *     blocks (the ones that can reach it, itself, and the ones its false successor can reach)
 *     store only to stack slots and call nothing with effects, and the ones after the false
 *     edge branch on uniform values only too. A stack slot is either the sub-CFG's own
 *     temporary or a uniform slot that every work-item writes alike (privatize.c); on these
 *     uniform paths the packet that stops the loop wrote what the later ones would have.
 * Whether the later packets take the false edge too is the condition's business: the fast path
 * (vectorize_mask.c) decides it from the packet's first lane and the work-group's last one
 * (`lid < u` with ids increasing, `lid == u` once past u), and only then ends the loop.
 */
#include "compiler/analysis/cfg.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/vectorize_internal.h"

#include <stdlib.h>
#include <string.h>

/* A call whose only effect is its result. */
static bool pure_call(LLVMValueRef call)
{
    if (weft_vec_droppable_call(call) || weft_vec_is_prefetch(call) || weft_vec_lanewise_of(call) ||
        weft_wi_call_kind(call) != WEFT_WI_NONE)
        return !weft_wi_is_barrier_kind(weft_wi_call_kind(call));
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return false;
    /* memory(none): the attribute's value is 0 */
    unsigned k = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k);
    if (!a)
        a = LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, k);
    return a && LLVMGetEnumAttributeValue(a) == 0;
}

/* A store to a stack slot: an alloca, or an element of one. */
static bool stack_store(LLVMValueRef st)
{
    LLVMValueRef ptr = LLVMGetOperand(st, 1);
    while (LLVMIsAGetElementPtrInst(ptr))
        ptr = LLVMGetOperand(ptr, 0);
    return LLVMIsAAllocaInst(ptr) && !LLVMGetVolatile(st);
}

/* Whether block `b` does nothing that outlives the work-item running it. */
static bool block_ends_with_packet(LLVMBasicBlockRef b)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAStoreInst(i)) {
            if (!stack_store(i))
                return false;
        } else if (LLVMIsALoadInst(i)) {
            if (LLVMGetVolatile(i))
                return false;
        } else if (LLVMIsACallInst(i)) {
            if (!pure_call(i))
                return false;
        } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
                   LLVMIsAVAArgInst(i) || LLVMIsAInvokeInst(i)) {
            return false;
        }
    }
    return true;
}

/* Whether block k's terminator takes the same edge for every work-item. */
static bool uniform_terminator(struct weft_vec_plan *p, unsigned k)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    if (LLVMIsABranchInst(t) && !LLVMIsConditional(t))
        return true;
    if ((LLVMIsABranchInst(t) || LLVMIsASwitchInst(t)) && LLVMGetNumOperands(t) > 0)
        return weft_vec_kind_of(p, LLVMGetOperand(t, 0)) == K_U;
    return false;
}

/* Marks in `seen` every block reachable from block `from` (itself included), along successor
 * edges, or along predecessor edges (`back`: every block that can reach it). */
static void reach(const struct weft_cfg *cfg, unsigned from, bool back, bool *seen, uint32_t *stack)
{
    size_t top = 0;
    if (!seen[from]) {
        seen[from] = true;
        stack[top++] = from;
    }
    while (top) {
        unsigned b = stack[--top];
        const uint32_t *e = back ? weft_cfg_preds(cfg, b) : weft_cfg_succs(cfg, b);
        size_t n = back ? weft_cfg_npred(cfg, b) : weft_cfg_nsucc(cfg, b);
        for (size_t j = 0; j < n; j++)
            if (!seen[e[j]]) {
                seen[e[j]] = true;
                stack[top++] = e[j];
            }
    }
}

static bool is_final_guard(struct weft_vec_plan *p, unsigned k, const bool *quiet, bool *seen, uint32_t *stack)
{
    const struct weft_cfg *cfg = p->cfg;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) || !quiet[k])
        return false;
    /* on no cycle: k is not reachable from its successors */
    memset(seen, 0, p->nb * sizeof *seen);
    const uint32_t *s = weft_cfg_succs(cfg, k);
    for (size_t j = 0; j < weft_cfg_nsucc(cfg, k); j++)
        reach(cfg, s[j], false, seen, stack);
    if (seen[k])
        return false;
    /* reached the same way by every packet, doing nothing that lasts on the way */
    memset(seen, 0, p->nb * sizeof *seen);
    reach(cfg, k, true, seen, stack);
    for (unsigned b = 0; b < p->nb; b++)
        if (seen[b] && (!quiet[b] || (b != k && !uniform_terminator(p, b))))
            return false;
    /* nothing that lasts after the false edge either, on a path every packet takes alike */
    int f = weft_vec_block_index(p, LLVMGetSuccessor(t, 1));
    if (f < 0)
        return true;   /* straight to a barrier: the exit stub records only the barrier */
    memset(seen, 0, p->nb * sizeof *seen);
    reach(cfg, (unsigned)f, false, seen, stack);
    for (unsigned b = 0; b < p->nb; b++)
        if (seen[b] && (!quiet[b] || !uniform_terminator(p, b)))
            return false;
    return true;
}

bool weft_vec_final_guard(struct weft_vec_plan *p, int k)
{
    if (k < 0 || (unsigned)k >= p->nb)
        return false;
    if (!p->final_guard) {
        p->final_guard = calloc(p->nb, sizeof *p->final_guard);
        bool *quiet = calloc(p->nb, sizeof *quiet), *seen = calloc(p->nb, sizeof *seen);
        uint32_t *stack = calloc(p->nb, sizeof *stack);
        if (!p->final_guard || !quiet || !seen || !stack)
            abort();
        for (unsigned b = 0; b < p->nb; b++)
            quiet[b] = block_ends_with_packet(p->blocks[b]);
        for (unsigned b = 0; b < p->nb; b++)
            p->final_guard[b] = is_final_guard(p, b, quiet, seen, stack) ? 1 : 0;
        free(quiet);
        free(seen);
        free(stack);
    }
    return p->final_guard[k] != 0;
}

bool weft_vec_has_final_guard(struct weft_vec_plan *p)
{
    for (unsigned k = 0; k < p->nb; k++)
        if (weft_vec_final_guard(p, (int)k))
            return true;
    return false;
}
