/* compiler/analysis/cfg.c — dense block numbering, de-duplicated edge lists, reverse post-order,
 * of a whole function or of a sub-CFG (see cfg.h for the guarantees). */
#include "compiler/analysis/cfg.h"

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

int weft_cfg_index(const struct weft_cfg *cfg, LLVMBasicBlockRef bb)
{
    uintptr_t v;
    return bb && weft_ptrmap_get(&cfg->block_index, bb, &v) ? (int)v : -1;
}

int weft_cfg_inst_pos(const struct weft_cfg *cfg, LLVMValueRef inst)
{
    uintptr_t v;
    return inst && weft_ptrmap_get(&cfg->inst_pos, inst, &v) ? (int)v : -1;
}

int weft_cfg_inst_block(const struct weft_cfg *cfg, LLVMValueRef inst)
{
    if (!inst || !LLVMIsAInstruction(inst) || !weft_ptrmap_has(&cfg->inst_pos, inst))
        return -1;
    return weft_cfg_index(cfg, LLVMGetInstructionParent(inst));
}

int weft_cfg_exit_index(const struct weft_cfg *cfg, LLVMBasicBlockRef bb)
{
    for (size_t e = 0; e < cfg->nexits; e++)
        if (cfg->exits[e] == bb)
            return (int)e;
    return -1;
}

/* The CFG of blocks[0..n) (blocks[0] the entry), which the new CFG takes; `sub` keeps edges
 * that leave the set as exit edges (a function's blocks have none to leave to). */
static struct weft_cfg *build(LLVMValueRef fn, LLVMBasicBlockRef *blocks, size_t n, bool sub)
{
    struct weft_cfg *cfg = xcalloc(1, sizeof(*cfg));
    cfg->fn = fn;
    cfg->sub = sub;
    cfg->nblocks = n;
    cfg->blocks = blocks;
    weft_ptrmap_init(&cfg->block_index);
    weft_ptrmap_init(&cfg->inst_pos);

    size_t i;
    for (i = 0; i < cfg->nblocks; i++) {
        LLVMBasicBlockRef bb = cfg->blocks[i];
        weft_ptrmap_put(&cfg->block_index, bb, i);
        uintptr_t pos = 0;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            weft_ptrmap_put(&cfg->inst_pos, in, pos++);
    }

    /* Successors, de-duplicated in terminator order; edges out of the set are exit edges. */
    WEFT_VEC(uint32_t) succ = {0}, exit = {0};
    WEFT_VEC(LLVMBasicBlockRef) exits = {0};
    cfg->succ_start = xcalloc(cfg->nblocks + 1, sizeof(uint32_t));
    cfg->exit_start = xcalloc(cfg->nblocks + 1, sizeof(uint32_t));
    for (i = 0; i < cfg->nblocks; i++) {
        cfg->succ_start[i] = (uint32_t)succ.len;
        cfg->exit_start[i] = (uint32_t)exit.len;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->blocks[i]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned k = 0; k < ns; k++) {
            LLVMBasicBlockRef sb = LLVMGetSuccessor(term, k);
            int si = weft_cfg_index(cfg, sb);
            if (si < 0) {
                /* only in sub-CFG mode: every successor is a block of the function */
                int e = -1;
                for (size_t x = 0; x < exits.len && e < 0; x++)
                    if (exits.data[x] == sb)
                        e = (int)x;
                if (e < 0) {
                    e = (int)exits.len;
                    weft_vec_push(&exits, sb);
                }
                bool dup = false;
                for (size_t j = cfg->exit_start[i]; j < exit.len; j++)
                    dup |= exit.data[j] == (uint32_t)e;
                if (!dup)
                    weft_vec_push(&exit, (uint32_t)e);
                continue;
            }
            uint32_t s = (uint32_t)si;
            bool dup = false;
            for (size_t j = cfg->succ_start[i]; j < succ.len; j++)
                dup |= succ.data[j] == s;
            if (!dup)
                weft_vec_push(&succ, s);
        }
    }
    cfg->succ_start[cfg->nblocks] = (uint32_t)succ.len;
    cfg->succ = succ.len ? succ.data : xcalloc(1, sizeof(uint32_t));
    cfg->exit_start[cfg->nblocks] = (uint32_t)exit.len;
    cfg->exit = exit.len ? exit.data : xcalloc(1, sizeof(uint32_t));
    cfg->nexits = exits.len;
    cfg->exits = exits.len ? exits.data : xcalloc(1, sizeof(LLVMBasicBlockRef));

    /* Predecessors by counting sort over the edges, so they come in block order. */
    cfg->pred_start = xcalloc(cfg->nblocks + 1, sizeof(uint32_t));
    for (size_t e = 0; e < succ.len; e++)
        cfg->pred_start[cfg->succ[e] + 1]++;
    for (i = 0; i < cfg->nblocks; i++)
        cfg->pred_start[i + 1] += cfg->pred_start[i];
    cfg->pred = xcalloc(succ.len, sizeof(uint32_t));
    uint32_t *fill = xcalloc(cfg->nblocks, sizeof(uint32_t));
    for (i = 0; i < cfg->nblocks; i++)
        for (uint32_t e = cfg->succ_start[i]; e < cfg->succ_start[i + 1]; e++) {
            uint32_t s = cfg->succ[e];
            cfg->pred[cfg->pred_start[s] + fill[s]++] = (uint32_t)i;
        }
    free(fill);

    /* Reverse post-order by an explicit-stack DFS (kernels can be deep after inlining). */
    cfg->rpo_index = xcalloc(cfg->nblocks, sizeof(int32_t));
    uint32_t *post = xcalloc(cfg->nblocks, sizeof(uint32_t));
    uint32_t *stack = xcalloc(cfg->nblocks, sizeof(uint32_t));
    uint32_t *next = xcalloc(cfg->nblocks, sizeof(uint32_t));   /* next successor to visit */
    bool *seen = xcalloc(cfg->nblocks, sizeof(bool));
    size_t sp = 0, npost = 0;
    stack[sp++] = 0;
    seen[0] = true;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (next[b] < weft_cfg_nsucc(cfg, b)) {
            uint32_t s = weft_cfg_succs(cfg, b)[next[b]++];
            if (!seen[s]) {
                seen[s] = true;
                stack[sp++] = s;
            }
        } else {
            post[npost++] = b;
            sp--;
        }
    }
    cfg->nreachable = npost;
    cfg->rpo = xcalloc(npost, sizeof(uint32_t));
    for (i = 0; i < cfg->nblocks; i++)
        cfg->rpo_index[i] = -1;
    for (i = 0; i < npost; i++) {
        cfg->rpo[i] = post[npost - 1 - i];
        cfg->rpo_index[cfg->rpo[i]] = (int32_t)i;
    }
    free(post);
    free(stack);
    free(next);
    free(seen);
    return cfg;
}

struct weft_cfg *weft_cfg_build(LLVMValueRef fn)
{
    if (!fn || LLVMCountBasicBlocks(fn) == 0)
        return NULL;
    size_t n = LLVMCountBasicBlocks(fn), i = 0;
    LLVMBasicBlockRef *blocks = xcalloc(n, sizeof(LLVMBasicBlockRef));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        blocks[i++] = bb;
    return build(fn, blocks, n, false);
}

struct weft_cfg *weft_cfg_build_sub(LLVMValueRef fn, LLVMBasicBlockRef const *blocks, size_t n)
{
    if (!fn || !blocks || n == 0)
        return NULL;
    LLVMBasicBlockRef *own = xcalloc(n, sizeof(LLVMBasicBlockRef));
    memcpy(own, blocks, n * sizeof(LLVMBasicBlockRef));
    return build(fn, own, n, true);
}

void weft_cfg_free(struct weft_cfg *cfg)
{
    if (!cfg)
        return;
    free(cfg->blocks);
    free(cfg->succ_start);
    free(cfg->succ);
    free(cfg->pred_start);
    free(cfg->pred);
    free(cfg->rpo);
    free(cfg->rpo_index);
    free(cfg->exits);
    free(cfg->exit_start);
    free(cfg->exit);
    weft_ptrmap_free(&cfg->block_index);
    weft_ptrmap_free(&cfg->inst_pos);
    free(cfg);
}
