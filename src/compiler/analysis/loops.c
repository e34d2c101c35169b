/* compiler/analysis/loops.c — natural loops from back edges, merged per header, with nesting
 * (see loops.h for the guarantees). */
#include "compiler/analysis/loops.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();   /* out of memory in the compiler: nothing sensible to return */
    return p;
}

typedef WEFT_VEC(uint32_t) u32vec;

static void sort_u32(uint32_t *a, size_t n, const int32_t *key)
{
    /* insertion sort: the lists are short, and it keeps the code obvious */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (key ? key[a[j - 1]] > key[a[j]] : a[j - 1] > a[j]); j--) {
            uint32_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

static uint32_t *take(u32vec *v, size_t *n)
{
    *n = v->len;
    return v->data ? v->data : xcalloc(1, sizeof(uint32_t));
}

struct weft_loops *weft_loops_compute(const struct weft_cfg *cfg, const struct weft_domtree *dom)
{
    struct weft_loops *l = xcalloc(1, sizeof(*l));
    l->cfg = cfg;
    l->dom = dom;
    l->innermost = xcalloc(cfg->nblocks, sizeof(int32_t));
    for (size_t i = 0; i < cfg->nblocks; i++)
        l->innermost[i] = -1;
    WEFT_VEC(struct weft_loop) loops = {0};
    WEFT_VEC(struct weft_bitset) members = {0};
    u32vec work = {0};

    for (size_t k = 0; k < cfg->nreachable; k++) {
        uint32_t h = cfg->rpo[k];
        u32vec latches = {0};
        for (size_t e = 0; e < weft_cfg_npred(cfg, h); e++) {
            uint32_t p = weft_cfg_preds(cfg, h)[e];
            if (!weft_cfg_reachable(cfg, p))
                continue;
            if (weft_dom_dominates(dom, (int)h, (int)p))
                weft_vec_push(&latches, p);
            else if (cfg->rpo_index[p] >= cfg->rpo_index[h])
                l->irreducible = true;   /* a retreating edge into a non-dominating header */
        }
        if (!latches.len)
            continue;

        /* Body: everything that reaches a latch backwards without passing the header. */
        struct weft_bitset in;
        weft_bitset_init(&in, cfg->nblocks);
        weft_bitset_set(&in, h);
        u32vec blocks = {0};
        weft_vec_push(&blocks, h);
        for (size_t i = 0; i < latches.len; i++)
            if (!weft_bitset_test(&in, latches.data[i])) {
                weft_bitset_set(&in, latches.data[i]);
                weft_vec_push(&blocks, latches.data[i]);
                weft_vec_push(&work, latches.data[i]);
            }
        while (work.len) {
            uint32_t b = weft_vec_pop(&work);
            for (size_t e = 0; e < weft_cfg_npred(cfg, b); e++) {
                uint32_t p = weft_cfg_preds(cfg, b)[e];
                if (weft_cfg_reachable(cfg, p) && !weft_bitset_test(&in, p)) {
                    weft_bitset_set(&in, p);
                    weft_vec_push(&blocks, p);
                    weft_vec_push(&work, p);
                }
            }
        }
        sort_u32(blocks.data, blocks.len, cfg->rpo_index);

        u32vec exiting = {0}, exits = {0};
        for (size_t i = 0; i < blocks.len; i++) {
            uint32_t b = blocks.data[i];
            bool is_exiting = false;
            for (size_t e = 0; e < weft_cfg_nsucc(cfg, b); e++) {
                uint32_t s = weft_cfg_succs(cfg, b)[e];
                if (weft_bitset_test(&in, s))
                    continue;
                is_exiting = true;
                bool dup = false;
                for (size_t j = 0; j < exits.len; j++)
                    dup |= exits.data[j] == s;
                if (!dup)
                    weft_vec_push(&exits, s);
            }
            if (is_exiting || weft_cfg_nexit(cfg, b) > 0)
                weft_vec_push(&exiting, b);
        }
        sort_u32(latches.data, latches.len, NULL);
        sort_u32(exiting.data, exiting.len, NULL);
        sort_u32(exits.data, exits.len, NULL);

        struct weft_loop lp = {.header = h, .parent = -1, .depth = 1};
        lp.blocks = take(&blocks, &lp.nblocks);
        lp.latches = take(&latches, &lp.nlatches);
        lp.exiting = take(&exiting, &lp.nexiting);
        lp.exits = take(&exits, &lp.nexits);
        weft_vec_push(&loops, lp);
        weft_vec_push(&members, in);
    }
    weft_vec_free(&work);

    /* Nesting: loops that share a block are nested, and a later header (in RPO) is the inner
     * one, so the parent is the last earlier loop containing this header. */
    for (size_t j = 0; j < loops.len; j++) {
        for (size_t i = j; i-- > 0;)
            if (weft_bitset_test(&members.data[i], loops.data[j].header)) {
                loops.data[j].parent = (int)i;
                loops.data[j].depth = loops.data[i].depth + 1;
                break;
            }
        for (size_t b = 0; b < loops.data[j].nblocks; b++)
            l->innermost[loops.data[j].blocks[b]] = (int32_t)j;
    }
    l->loops = loops.data;
    l->count = loops.len;
    l->members = members.data;
    return l;
}

void weft_loops_free(struct weft_loops *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++) {
        free(l->loops[i].blocks);
        free(l->loops[i].latches);
        free(l->loops[i].exiting);
        free(l->loops[i].exits);
        weft_bitset_free(&l->members[i]);
    }
    free(l->loops);
    free(l->members);
    free(l->innermost);
    free(l);
}

bool weft_loop_contains(const struct weft_loops *l, int loop, int b)
{
    if (loop < 0 || (size_t)loop >= l->count || b < 0 || (size_t)b >= l->cfg->nblocks)
        return false;
    return weft_bitset_test(&l->members[loop], (size_t)b);
}

int weft_loops_depth(const struct weft_loops *l, int b)
{
    if (b < 0 || (size_t)b >= l->cfg->nblocks || l->innermost[b] < 0)
        return 0;
    return l->loops[l->innermost[b]].depth;
}

int weft_loops_with_header(const struct weft_loops *l, int b)
{
    for (size_t i = 0; i < l->count; i++)
        if ((int)l->loops[i].header == b)
            return (int)i;
    return -1;
}

int weft_loop_preheader(const struct weft_loops *l, int loop)
{
    if (loop < 0 || (size_t)loop >= l->count)
        return -1;
    const struct weft_cfg *cfg = l->cfg;
    uint32_t h = l->loops[loop].header;
    int pre = -1;
    for (size_t k = 0; k < weft_cfg_npred(cfg, h); k++) {
        uint32_t p = weft_cfg_preds(cfg, h)[k];
        if (!weft_cfg_reachable(cfg, p) || weft_loop_contains(l, loop, (int)p))
            continue;
        if (pre >= 0)
            return -1;   /* two entering blocks */
        pre = (int)p;
    }
    if (pre < 0 || weft_cfg_nsucc(cfg, (size_t)pre) != 1)
        return -1;
    return pre;
}

bool weft_loop_defined_outside(const struct weft_loops *l, int loop, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return true;
    int b = weft_cfg_inst_block(l->cfg, v);
    return b >= 0 && !weft_loop_contains(l, loop, b);
}

bool weft_loop_induction(const struct weft_loops *l, int loop, LLVMValueRef phi, struct weft_induction *out)
{
    if (loop < 0 || (size_t)loop >= l->count || !phi || !LLVMIsAPHINode(phi))
        return false;
    const struct weft_cfg *cfg = l->cfg;
    if (weft_cfg_inst_block(cfg, phi) != (int)l->loops[loop].header)
        return false;
    struct weft_induction iv = {.phi = phi};
    bool have_step = false;
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned i = 0; i < n; i++) {
        int pb = weft_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
        LLVMValueRef v = LLVMGetIncomingValue(phi, i);
        if (pb < 0 || !weft_cfg_reachable(cfg, (size_t)pb))
            continue;
        if (!weft_loop_contains(l, loop, pb)) {
            if (iv.start && iv.start != v)
                return false;   /* different start values from different entries */
            iv.start = v;
            continue;
        }
        /* from a latch: phi (+|-) step */
        if (!LLVMIsAInstruction(v))
            return false;
        LLVMOpcode op = LLVMGetInstructionOpcode(v);
        bool down = op == LLVMSub;
        if (!(op == LLVMAdd || down || (op == LLVMOr && LLVMGetIsDisjoint(v))))
            return false;
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1), step;
        if (a == phi)
            step = b;
        else if (b == phi && !down)
            step = a;
        else
            return false;
        if (!weft_loop_defined_outside(l, loop, step))
            return false;
        if (have_step && (step != iv.step || down != iv.down))
            return false;   /* latches step differently */
        iv.step = step;
        iv.down = down;
        have_step = true;
    }
    if (!iv.start || !have_step)
        return false;
    *out = iv;
    return true;
}
