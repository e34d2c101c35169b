/* compiler/analysis/dominators.c — dominator and post-dominator trees by Cooper, Harvey and
 * Kennedy's iterative algorithm over reverse post-order, plus frontiers (see dominators.h). */
#include "compiler/analysis/dominators.h"

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

/* A graph in CSR form over nodes 0..n-1; the trees are computed on it from `root`. */
struct graph {
    size_t n;
    uint32_t *succ_start, *succ, *pred_start, *pred;
};

static void graph_free(struct graph *g)
{
    free(g->succ_start);
    free(g->succ);
    free(g->pred_start);
    free(g->pred);
}

/* Builds preds from succs (counting sort, so preds come in node order). */
static void graph_fill_preds(struct graph *g)
{
    size_t m = g->succ_start[g->n];
    g->pred_start = xcalloc(g->n + 1, sizeof(uint32_t));
    g->pred = xcalloc(m, sizeof(uint32_t));
    for (size_t e = 0; e < m; e++)
        g->pred_start[g->succ[e] + 1]++;
    for (size_t i = 0; i < g->n; i++)
        g->pred_start[i + 1] += g->pred_start[i];
    uint32_t *fill = xcalloc(g->n, sizeof(uint32_t));
    for (size_t i = 0; i < g->n; i++)
        for (uint32_t e = g->succ_start[i]; e < g->succ_start[i + 1]; e++) {
            uint32_t s = g->succ[e];
            g->pred[g->pred_start[s] + fill[s]++] = (uint32_t)i;
        }
    free(fill);
}

/* Reverse post-order from root; rpo_pos[i] = position or -1. Returns the count. */
static size_t graph_rpo(const struct graph *g, uint32_t root, uint32_t *rpo, int32_t *rpo_pos)
{
    uint32_t *stack = xcalloc(g->n, sizeof(uint32_t)), *next = xcalloc(g->n, sizeof(uint32_t));
    uint32_t *post = xcalloc(g->n, sizeof(uint32_t));
    bool *seen = xcalloc(g->n, sizeof(bool));
    size_t sp = 0, np = 0;
    stack[sp++] = root;
    seen[root] = true;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (g->succ_start[b] + next[b] < g->succ_start[b + 1]) {
            uint32_t s = g->succ[g->succ_start[b] + next[b]++];
            if (!seen[s]) {
                seen[s] = true;
                stack[sp++] = s;
            }
        } else {
            post[np++] = b;
            sp--;
        }
    }
    for (size_t i = 0; i < g->n; i++)
        rpo_pos[i] = -1;
    for (size_t i = 0; i < np; i++) {
        rpo[i] = post[np - 1 - i];
        rpo_pos[rpo[i]] = (int32_t)i;
    }
    free(stack);
    free(next);
    free(post);
    free(seen);
    return np;
}

static struct weft_domtree *tree_build(const struct weft_cfg *cfg, bool post, const struct graph *g,
                                       uint32_t root)
{
    struct weft_domtree *t = xcalloc(1, sizeof(*t));
    t->cfg = cfg;
    t->post = post;
    t->nnodes = g->n;
    t->idom = xcalloc(g->n, sizeof(int32_t));
    uint32_t *rpo = xcalloc(g->n, sizeof(uint32_t));
    int32_t *pos = xcalloc(g->n, sizeof(int32_t));
    size_t nr = graph_rpo(g, root, rpo, pos);

    for (size_t i = 0; i < g->n; i++)
        t->idom[i] = -1;
    t->idom[root] = (int32_t)root;
    /* Iterate to the fixed point; on reducible graphs two passes suffice. */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 1; k < nr; k++) {
            uint32_t b = rpo[k];
            int32_t nd = -1;
            for (uint32_t e = g->pred_start[b]; e < g->pred_start[b + 1]; e++) {
                int32_t p = (int32_t)g->pred[e];
                if (pos[p] < 0 || t->idom[p] < 0)
                    continue;   /* unreachable or not processed yet */
                if (nd < 0) {
                    nd = p;
                    continue;
                }
                int32_t f1 = p, f2 = nd;   /* walk the deeper finger up until they meet */
                while (f1 != f2) {
                    while (pos[f1] > pos[f2])
                        f1 = t->idom[f1];
                    while (pos[f2] > pos[f1])
                        f2 = t->idom[f2];
                }
                nd = f1;
            }
            if (nd >= 0 && t->idom[b] != nd) {
                t->idom[b] = nd;
                changed = true;
            }
        }
    }
    t->idom[root] = -1;

    /* Children lists and a pre/post numbering of the tree for O(1) dominance queries. */
    t->child_start = xcalloc(g->n + 1, sizeof(uint32_t));
    for (size_t i = 0; i < g->n; i++)
        if (t->idom[i] >= 0)
            t->child_start[t->idom[i] + 1]++;
    for (size_t i = 0; i < g->n; i++)
        t->child_start[i + 1] += t->child_start[i];
    t->child = xcalloc(t->child_start[g->n], sizeof(uint32_t));
    uint32_t *fill = xcalloc(g->n, sizeof(uint32_t));
    for (size_t i = 0; i < g->n; i++)
        if (t->idom[i] >= 0)
            t->child[t->child_start[t->idom[i]] + fill[t->idom[i]]++] = (uint32_t)i;
    free(fill);

    t->dfs_in = xcalloc(g->n, sizeof(uint32_t));
    t->dfs_out = xcalloc(g->n, sizeof(uint32_t));
    uint32_t *stack = xcalloc(g->n, sizeof(uint32_t)), *next = xcalloc(g->n, sizeof(uint32_t));
    size_t sp = 0;
    uint32_t clock = 1;   /* 0 marks "not in the tree" */
    stack[sp++] = root;
    t->dfs_in[root] = clock++;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (t->child_start[b] + next[b] < t->child_start[b + 1]) {
            uint32_t c = t->child[t->child_start[b] + next[b]++];
            t->dfs_in[c] = clock++;
            stack[sp++] = c;
        } else {
            t->dfs_out[b] = clock++;
            sp--;
        }
    }
    free(stack);
    free(next);

    /* Frontiers (Cooper et al. §4): for a join b, walk up from each predecessor to idom(b). */
    WEFT_VEC(uint32_t) *df = xcalloc(g->n, sizeof(*df));
    for (size_t k = 0; k < nr; k++) {
        uint32_t b = rpo[k];
        if (g->pred_start[b + 1] - g->pred_start[b] < 2)
            continue;
        for (uint32_t e = g->pred_start[b]; e < g->pred_start[b + 1]; e++) {
            int32_t r = (int32_t)g->pred[e];
            if (pos[r] < 0)
                continue;
            while (r >= 0 && r != t->idom[b]) {
                bool dup = false;
                for (size_t j = 0; j < df[r].len; j++)
                    dup |= df[r].data[j] == b;
                if (!dup)
                    weft_vec_push(&df[r], b);
                r = t->idom[r];
            }
        }
    }
    t->front_start = xcalloc(g->n + 1, sizeof(uint32_t));
    for (size_t i = 0; i < g->n; i++)
        t->front_start[i + 1] = t->front_start[i] + (uint32_t)df[i].len;
    t->front = xcalloc(t->front_start[g->n], sizeof(uint32_t));
    for (size_t i = 0; i < g->n; i++) {
        /* sorted by node number, for stable output */
        for (size_t a = 1; a < df[i].len; a++)
            for (size_t c = a; c > 0 && df[i].data[c - 1] > df[i].data[c]; c--) {
                uint32_t tmp = df[i].data[c];
                df[i].data[c] = df[i].data[c - 1];
                df[i].data[c - 1] = tmp;
            }
        if (df[i].len)
            memcpy(t->front + t->front_start[i], df[i].data, df[i].len * sizeof(uint32_t));
        weft_vec_free(&df[i]);
    }
    free(df);
    free(rpo);
    free(pos);
    return t;
}

struct weft_domtree *weft_dom_compute(const struct weft_cfg *cfg)
{
    struct graph g = {.n = cfg->nblocks};
    /* The CFG's own edges, but only from reachable blocks (unreachable code dominates nothing). */
    g.succ_start = xcalloc(g.n + 1, sizeof(uint32_t));
    WEFT_VEC(uint32_t) succ = {0};
    for (size_t i = 0; i < g.n; i++) {
        g.succ_start[i] = (uint32_t)succ.len;
        if (weft_cfg_reachable(cfg, i))
            for (size_t k = 0; k < weft_cfg_nsucc(cfg, i); k++)
                weft_vec_push(&succ, weft_cfg_succs(cfg, i)[k]);
    }
    g.succ_start[g.n] = (uint32_t)succ.len;
    g.succ = succ.data ? succ.data : xcalloc(1, sizeof(uint32_t));
    graph_fill_preds(&g);
    struct weft_domtree *t = tree_build(cfg, false, &g, 0);
    graph_free(&g);
    return t;
}

struct weft_domtree *weft_postdom_compute(const struct weft_cfg *cfg)
{
    size_t nb = cfg->nblocks, vexit = nb;
    /* Roots of the reverse graph: blocks without successors and (sub-CFG mode) blocks with an
     * edge out of the set, then one block of each region that cannot reach them (found by
     * reverse reachability, picking the unreached reachable block that comes last in RPO, i.e.
     * deepest in the infinite loop). */
    bool *reaches = xcalloc(nb, sizeof(bool));
    WEFT_VEC(uint32_t) roots = {0}, work = {0};
    for (size_t k = 0; k < cfg->nreachable; k++) {
        uint32_t b = cfg->rpo[k];
        if (weft_cfg_nsucc(cfg, b) == 0 || weft_cfg_nexit(cfg, b) > 0)
            weft_vec_push(&roots, b);
    }
    size_t scanned = 0;
    for (;;) {
        for (; scanned < roots.len; scanned++) {
            uint32_t r = roots.data[scanned];
            if (reaches[r])
                continue;
            reaches[r] = true;
            weft_vec_push(&work, r);
            while (work.len) {
                uint32_t b = weft_vec_pop(&work);
                for (size_t k = 0; k < weft_cfg_npred(cfg, b); k++) {
                    uint32_t p = weft_cfg_preds(cfg, b)[k];
                    if (weft_cfg_reachable(cfg, p) && !reaches[p]) {
                        reaches[p] = true;
                        weft_vec_push(&work, p);
                    }
                }
            }
        }
        int pick = -1;
        for (size_t k = cfg->nreachable; k-- > 0;)
            if (!reaches[cfg->rpo[k]]) {
                pick = (int)cfg->rpo[k];
                break;
            }
        if (pick < 0)
            break;
        weft_vec_push(&roots, (uint32_t)pick);
    }
    free(reaches);
    weft_vec_free(&work);

    /* Reverse graph: node i's successors are its CFG predecessors; the virtual exit's are the roots. */
    struct graph g = {.n = nb + 1};
    g.succ_start = xcalloc(g.n + 1, sizeof(uint32_t));
    WEFT_VEC(uint32_t) succ = {0};
    for (size_t i = 0; i < nb; i++) {
        g.succ_start[i] = (uint32_t)succ.len;
        if (!weft_cfg_reachable(cfg, i))
            continue;
        for (size_t k = 0; k < weft_cfg_npred(cfg, i); k++) {
            uint32_t p = weft_cfg_preds(cfg, i)[k];
            if (weft_cfg_reachable(cfg, p))
                weft_vec_push(&succ, p);
        }
    }
    g.succ_start[vexit] = (uint32_t)succ.len;
    for (size_t k = 0; k < roots.len; k++)
        weft_vec_push(&succ, roots.data[k]);
    g.succ_start[g.n] = (uint32_t)succ.len;
    g.succ = succ.data ? succ.data : xcalloc(1, sizeof(uint32_t));
    weft_vec_free(&roots);
    graph_fill_preds(&g);
    struct weft_domtree *t = tree_build(cfg, true, &g, (uint32_t)vexit);
    graph_free(&g);
    return t;
}

void weft_dom_free(struct weft_domtree *t)
{
    if (!t)
        return;
    free(t->idom);
    free(t->dfs_in);
    free(t->dfs_out);
    free(t->child_start);
    free(t->child);
    free(t->front_start);
    free(t->front);
    free(t);
}

bool weft_dom_dominates(const struct weft_domtree *t, int a, int b)
{
    if (a < 0 || b < 0 || (size_t)a >= t->nnodes || (size_t)b >= t->nnodes)
        return false;
    if (!t->dfs_in[a] || !t->dfs_in[b])
        return false;
    return t->dfs_in[a] <= t->dfs_in[b] && t->dfs_out[b] <= t->dfs_out[a];
}

bool weft_dom_strictly_dominates(const struct weft_domtree *t, int a, int b)
{
    return a != b && weft_dom_dominates(t, a, b);
}

bool weft_dom_dominates_block(const struct weft_domtree *t, LLVMBasicBlockRef a, LLVMBasicBlockRef b)
{
    return weft_dom_dominates(t, weft_cfg_index(t->cfg, a), weft_cfg_index(t->cfg, b));
}

bool weft_dom_dominates_inst(const struct weft_domtree *t, LLVMValueRef def, LLVMValueRef user)
{
    int bd = weft_cfg_inst_block(t->cfg, def), bu = weft_cfg_inst_block(t->cfg, user);
    if (bd < 0 || bu < 0)
        return false;
    if (bd != bu)
        return weft_dom_strictly_dominates(t, bd, bu);
    if (!weft_dom_dominates(t, bd, bu))
        return false;   /* unreachable block */
    return weft_cfg_inst_pos(t->cfg, def) < weft_cfg_inst_pos(t->cfg, user);
}

bool weft_dom_dominates_use(const struct weft_domtree *t, LLVMValueRef def, LLVMValueRef user, unsigned op)
{
    if (!LLVMIsAInstruction(def))
        return true;
    if (LLVMIsAPHINode(user)) {
        /* The use happens at the end of the incoming block: def must dominate that block's
         * terminator, which holds for def in that block itself. */
        LLVMBasicBlockRef in = LLVMGetIncomingBlock(user, op);
        int bd = weft_cfg_inst_block(t->cfg, def), bi = weft_cfg_index(t->cfg, in);
        return weft_dom_dominates(t, bd, bi);
    }
    return weft_dom_dominates_inst(t, def, user);
}

int weft_dom_nearest_common(const struct weft_domtree *t, int a, int b)
{
    if (a < 0 || b < 0 || !t->dfs_in[a] || !t->dfs_in[b])
        return -1;
    while (!weft_dom_dominates(t, a, b)) {
        a = t->idom[a];
        if (a < 0)
            return -1;
    }
    return a;
}

const uint32_t *weft_dom_frontier(const struct weft_domtree *t, int i, size_t *n)
{
    if (i < 0 || (size_t)i >= t->nnodes) {
        *n = 0;
        return t->front;
    }
    *n = t->front_start[i + 1] - t->front_start[i];
    return t->front + t->front_start[i];
}
