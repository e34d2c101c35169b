/* compiler/analysis/liveness.c — SSA liveness by backward iteration to a fixed point over
 * bit sets of value numbers (see liveness.h for the semantics). */
#include "compiler/analysis/liveness.h"

#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();   /* out of memory in the compiler: nothing sensible to return */
    return p;
}

int weft_liveness_index(const struct weft_liveness *l, LLVMValueRef v)
{
    uintptr_t k;
    return v && weft_ptrmap_get(&l->value_index, v, &k) ? (int)k : -1;
}

/* Applies one non-phi instruction backwards: live = (live - def) + operands. */
static void step_back(const struct weft_liveness *l, LLVMValueRef in, struct weft_bitset *live)
{
    int d = weft_liveness_index(l, in);
    if (d >= 0)
        weft_bitset_reset(live, (size_t)d);
    int n = LLVMGetNumOperands(in);
    for (int k = 0; k < n; k++) {
        int u = weft_liveness_index(l, LLVMGetOperand(in, (unsigned)k));
        if (u >= 0)
            weft_bitset_set(live, (size_t)u);
    }
}

static bool is_phi(LLVMValueRef in)
{
    return LLVMGetInstructionOpcode(in) == LLVMPHI;
}

struct weft_liveness *weft_liveness_compute(const struct weft_cfg *cfg)
{
    struct weft_liveness *l = xcalloc(1, sizeof(*l));
    l->cfg = cfg;
    weft_ptrmap_init(&l->value_index);
    size_t n = 0;
    for (size_t b = 0; b < cfg->nblocks; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[b]); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
                n++;
    l->nvalues = n;
    l->values = xcalloc(n, sizeof(LLVMValueRef));
    n = 0;
    for (size_t b = 0; b < cfg->nblocks; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[b]); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind) {
                weft_ptrmap_put(&l->value_index, in, n);
                l->values[n++] = in;
            }

    l->live_in = xcalloc(cfg->nblocks, sizeof(struct weft_bitset));
    l->live_out = xcalloc(cfg->nblocks, sizeof(struct weft_bitset));
    for (size_t b = 0; b < cfg->nblocks; b++) {
        weft_bitset_init(&l->live_in[b], l->nvalues);
        weft_bitset_init(&l->live_out[b], l->nvalues);
    }

    /* Per-block constant parts: the phi uses each block contributes to its predecessors'
     * live-out is recomputed on the fly; the gen/kill part is replayed with step_back, which
     * is exact and cheap for kernel-sized functions. */
    struct weft_bitset tmp;
    weft_bitset_init(&tmp, l->nvalues);
    for (bool changed = true; changed;) {
        changed = false;
        /* post-order (reverse of RPO) converges fastest for a backward problem */
        for (size_t k = cfg->nreachable; k-- > 0;) {
            uint32_t b = cfg->rpo[k];
            LLVMBasicBlockRef bb = cfg->blocks[b];
            weft_bitset_clear_all(&tmp);
            for (size_t e = 0; e < weft_cfg_nsucc(cfg, b); e++) {
                uint32_t s = weft_cfg_succs(cfg, b)[e];
                weft_bitset_union(&tmp, &l->live_in[s]);
                /* phi operands flowing along b -> s are used at the end of b */
                for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[s]); in && is_phi(in);
                     in = LLVMGetNextInstruction(in)) {
                    unsigned np = LLVMCountIncoming(in);
                    for (unsigned q = 0; q < np; q++)
                        if (LLVMGetIncomingBlock(in, q) == bb) {
                            int u = weft_liveness_index(l, LLVMGetIncomingValue(in, q));
                            if (u >= 0)
                                weft_bitset_set(&tmp, (size_t)u);
                        }
                }
            }
            if (weft_bitset_union(&l->live_out[b], &tmp))
                changed = true;
            weft_bitset_copy(&tmp, &l->live_out[b]);
            for (LLVMValueRef in = LLVMGetLastInstruction(bb); in; in = LLVMGetPreviousInstruction(in)) {
                if (is_phi(in)) {
                    int d = weft_liveness_index(l, in);
                    weft_bitset_reset(&tmp, (size_t)d);
                } else {
                    step_back(l, in, &tmp);
                }
            }
            if (weft_bitset_union(&l->live_in[b], &tmp))
                changed = true;
        }
    }
    weft_bitset_free(&tmp);
    return l;
}

void weft_liveness_free(struct weft_liveness *l)
{
    if (!l)
        return;
    for (size_t b = 0; b < l->cfg->nblocks; b++) {
        weft_bitset_free(&l->live_in[b]);
        weft_bitset_free(&l->live_out[b]);
    }
    free(l->live_in);
    free(l->live_out);
    free(l->values);
    weft_ptrmap_free(&l->value_index);
    free(l);
}

bool weft_liveness_is_live_in(const struct weft_liveness *l, LLVMBasicBlockRef bb, LLVMValueRef v)
{
    int b = weft_cfg_index(l->cfg, bb), k = weft_liveness_index(l, v);
    return b >= 0 && k >= 0 && weft_bitset_test(&l->live_in[b], (size_t)k);
}

bool weft_liveness_is_live_out(const struct weft_liveness *l, LLVMBasicBlockRef bb, LLVMValueRef v)
{
    int b = weft_cfg_index(l->cfg, bb), k = weft_liveness_index(l, v);
    return b >= 0 && k >= 0 && weft_bitset_test(&l->live_out[b], (size_t)k);
}

void weft_liveness_live_before(const struct weft_liveness *l, LLVMValueRef inst, struct weft_bitset *out)
{
    weft_bitset_clear_all(out);
    int b = weft_cfg_inst_block(l->cfg, inst);
    if (b < 0 || !weft_cfg_reachable(l->cfg, (size_t)b))
        return;
    LLVMBasicBlockRef bb = l->cfg->blocks[b];
    if (is_phi(inst)) {
        /* before a phi: the block's live-in plus the phis above it that are still used */
        weft_bitset_copy(out, &l->live_in[b]);
        LLVMValueRef first_non_phi = LLVMGetFirstInstruction(bb);
        while (first_non_phi && is_phi(first_non_phi))
            first_non_phi = LLVMGetNextInstruction(first_non_phi);
        struct weft_bitset after;
        weft_bitset_init(&after, l->nvalues);
        if (first_non_phi)
            weft_liveness_live_before(l, first_non_phi, &after);
        for (LLVMValueRef p = LLVMGetFirstInstruction(bb); p != inst; p = LLVMGetNextInstruction(p)) {
            int k = weft_liveness_index(l, p);
            if (weft_bitset_test(&after, (size_t)k))
                weft_bitset_set(out, (size_t)k);
        }
        weft_bitset_free(&after);
        return;
    }
    weft_bitset_copy(out, &l->live_out[b]);
    for (LLVMValueRef in = LLVMGetLastInstruction(bb); in; in = LLVMGetPreviousInstruction(in)) {
        step_back(l, in, out);
        if (in == inst)
            return;
    }
}

void weft_liveness_live_across(const struct weft_liveness *l, const LLVMBasicBlockRef *cuts, size_t ncuts,
                               weft_value_vec *out)
{
    struct weft_bitset acc, one;
    weft_bitset_init(&acc, l->nvalues);
    weft_bitset_init(&one, l->nvalues);
    for (size_t c = 0; c < ncuts; c++) {
        int b = weft_cfg_index(l->cfg, cuts[c]);
        if (b < 0 || !weft_cfg_reachable(l->cfg, (size_t)b))
            continue;
        LLVMValueRef in = LLVMGetFirstInstruction(cuts[c]);
        while (in && is_phi(in))
            in = LLVMGetNextInstruction(in);
        if (!in)
            continue;
        weft_liveness_live_before(l, in, &one);
        weft_bitset_union(&acc, &one);
    }
    for (size_t k = weft_bitset_next(&acc, 0); k != SIZE_MAX; k = weft_bitset_next(&acc, k + 1))
        weft_vec_push(out, l->values[k]);
    weft_bitset_free(&acc);
    weft_bitset_free(&one);
}
