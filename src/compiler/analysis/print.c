/* compiler/analysis/print.c — stable text dumps of the analyses for weft-opt and lit tests.
 *
 * Guarantees: output depends only on the IR (function order of blocks and values, never on
 * pointer values or hash order). Blocks print as their label (`entry`, or LLVM's number `3`
 * when unnamed), values as in the IR (`%x`, `%5`). Formats, one line each:
 *   cfg:        "<block>: succs [a, b] preds [c]"            ("unreachable" appended if so;
 *               a sub-CFG's blocks with edges out of it add "exits [d]" before that)
 *   dominators: "<block>: idom <b|-> frontier [..]" then "post-dominators" with "ipdom"
 *               (the virtual exit prints as "<exit>")
 *   loops:      "loop <header>: depth D parent <header|-> blocks [..] latches [..] exiting [..]
 *               exits [..]", then "irreducible: yes|no"
 *   liveness:   "<block>: in [..] out [..]"
 *   locality:   per loop "loop <header>: bfo B dfo D neutral N -> BFO|DFO[, divergent]
 *               [, guarded][, not schedulable: why]", per-dimension votes when several
 *               dimensions are in use, then "load|store <address>: L? W?.." per voting access;
 *               "locality-precise" without Kim's approximate stride rules
 *   shapes:     "<value>: uniform | varying | affine(dim D, stride S)", per non-void
 *               instruction, then "<block>: branch divergent|uniform" for conditional
 *               terminators and "<block>: loop divergent|uniform" for loop headers
 *   access:     "access of @k: affine" then "read |write arg A size S: <offset>" per access in
 *               instruction order (offset as weft_affine_format writes it), or
 *               "access of @k: not affine (<reason>)"
 */
#include "compiler/analysis/print.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/access.h"
#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/liveness.h"
#include "compiler/analysis/locality.h"
#include "compiler/analysis/loops.h"
#include "compiler/analysis/shape.h"
#include "util/ptrmap.h"

/* LLVM's slot numbering of unnamed arguments, blocks and instructions. */
struct names {
    struct weft_ptrmap slot;   /* value or block -> number */
};

static void names_init(struct names *n, LLVMValueRef fn)
{
    weft_ptrmap_init(&n->slot);
    uintptr_t next = 0;
    size_t len;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
        if (!*LLVMGetValueName2(a, &len))
            weft_ptrmap_put(&n->slot, a, next++);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!*LLVMGetBasicBlockName(bb))
            weft_ptrmap_put(&n->slot, bb, next++);
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind && !*LLVMGetValueName2(in, &len))
                weft_ptrmap_put(&n->slot, in, next++);
    }
}

static void print_block(const struct names *n, LLVMBasicBlockRef bb, FILE *out)
{
    uintptr_t k;
    if (weft_ptrmap_get(&n->slot, bb, &k))
        fprintf(out, "%lu", (unsigned long)k);
    else
        fputs(LLVMGetBasicBlockName(bb), out);
}

static void print_value(const struct names *n, LLVMValueRef v, FILE *out)
{
    uintptr_t k;
    size_t len;
    if (weft_ptrmap_get(&n->slot, v, &k)) {
        fprintf(out, "%%%lu", (unsigned long)k);
    } else if (LLVMIsAConstantInt(v)) {
        fprintf(out, "%lld", LLVMConstIntGetSExtValue(v));
    } else if (LLVMIsAGlobalValue(v)) {
        fprintf(out, "@%s", LLVMGetValueName2(v, &len));
    } else {
        const char *name = LLVMGetValueName2(v, &len);
        if (*name) {
            fprintf(out, "%%%s", name);
        } else {
            char *s = LLVMPrintValueToString(v);
            fputs(s, out);
            LLVMDisposeMessage(s);
        }
    }
}

static void print_block_list(const struct names *n, const struct weft_cfg *cfg, const uint32_t *b, size_t count,
                             FILE *out)
{
    fputc('[', out);
    for (size_t i = 0; i < count; i++) {
        if (i)
            fputs(", ", out);
        if (b[i] >= cfg->nblocks)
            fputs("<exit>", out);
        else
            print_block(n, cfg->blocks[b[i]], out);
    }
    fputc(']', out);
}

/* Ends a dump's header line: " sub-CFG <entry>:" in sub-CFG mode, ":" otherwise. */
static void print_sub_entry(const struct names *n, const struct weft_cfg *cfg, FILE *out)
{
    if (cfg->sub) {
        fputs(" sub-CFG ", out);
        print_block(n, cfg->blocks[0], out);
    }
    fputs(":\n", out);
}

static void print_cfg(const struct names *n, const struct weft_cfg *cfg, FILE *out)
{
    fprintf(out, "cfg of @%s", LLVMGetValueName(cfg->fn));
    print_sub_entry(n, cfg, out);
    for (size_t b = 0; b < cfg->nblocks; b++) {
        fputs("  ", out);
        print_block(n, cfg->blocks[b], out);
        fputs(": succs ", out);
        print_block_list(n, cfg, weft_cfg_succs(cfg, b), weft_cfg_nsucc(cfg, b), out);
        fputs(" preds ", out);
        print_block_list(n, cfg, weft_cfg_preds(cfg, b), weft_cfg_npred(cfg, b), out);
        if (weft_cfg_nexit(cfg, b)) {
            fputs(" exits [", out);
            for (size_t e = 0; e < weft_cfg_nexit(cfg, b); e++) {
                if (e)
                    fputs(", ", out);
                print_block(n, cfg->exits[weft_cfg_exit_edges(cfg, b)[e]], out);
            }
            fputc(']', out);
        }
        fputs(weft_cfg_reachable(cfg, b) ? "\n" : " unreachable\n", out);
    }
}

static void print_tree(const struct names *n, const struct weft_cfg *cfg, const struct weft_domtree *t, FILE *out)
{
    fprintf(out, "%s of @%s", t->post ? "post-dominators" : "dominators", LLVMGetValueName(cfg->fn));
    print_sub_entry(n, cfg, out);
    for (size_t b = 0; b < cfg->nblocks; b++) {
        fputs("  ", out);
        print_block(n, cfg->blocks[b], out);
        if (!weft_cfg_reachable(cfg, b)) {
            fputs(": unreachable\n", out);
            continue;
        }
        fputs(t->post ? ": ipdom " : ": idom ", out);
        int d = weft_dom_idom(t, (int)b);
        if (d < 0)
            fputc('-', out);
        else if ((size_t)d >= cfg->nblocks)
            fputs("<exit>", out);
        else
            print_block(n, cfg->blocks[d], out);
        size_t nf;
        const uint32_t *f = weft_dom_frontier(t, (int)b, &nf);
        fputs(" frontier ", out);
        print_block_list(n, cfg, f, nf, out);
        fputc('\n', out);
    }
}

static void print_loops(const struct names *n, const struct weft_loops *l, FILE *out)
{
    const struct weft_cfg *cfg = l->cfg;
    fprintf(out, "loops of @%s", LLVMGetValueName(cfg->fn));
    print_sub_entry(n, cfg, out);
    for (size_t i = 0; i < l->count; i++) {
        const struct weft_loop *lp = &l->loops[i];
        fputs("  loop ", out);
        print_block(n, cfg->blocks[lp->header], out);
        fprintf(out, ": depth %d parent ", lp->depth);
        if (lp->parent < 0)
            fputc('-', out);
        else
            print_block(n, cfg->blocks[l->loops[lp->parent].header], out);
        fputs(" blocks ", out);
        print_block_list(n, cfg, lp->blocks, lp->nblocks, out);
        fputs(" latches ", out);
        print_block_list(n, cfg, lp->latches, lp->nlatches, out);
        fputs(" exiting ", out);
        print_block_list(n, cfg, lp->exiting, lp->nexiting, out);
        fputs(" exits ", out);
        print_block_list(n, cfg, lp->exits, lp->nexits, out);
        fputc('\n', out);
    }
    fprintf(out, "  irreducible: %s\n", l->irreducible ? "yes" : "no");
}

static void print_set(const struct names *n, const struct weft_liveness *l, const struct weft_bitset *s, FILE *out)
{
    fputc('[', out);
    bool first = true;
    for (size_t k = weft_bitset_next(s, 0); k != SIZE_MAX; k = weft_bitset_next(s, k + 1)) {
        if (!first)
            fputs(", ", out);
        first = false;
        print_value(n, l->values[k], out);
    }
    fputc(']', out);
}

static void print_liveness(const struct names *n, const struct weft_liveness *l, FILE *out)
{
    const struct weft_cfg *cfg = l->cfg;
    fprintf(out, "liveness of @%s:\n", LLVMGetValueName(cfg->fn));
    for (size_t b = 0; b < cfg->nblocks; b++) {
        fputs("  ", out);
        print_block(n, cfg->blocks[b], out);
        if (!weft_cfg_reachable(cfg, b)) {
            fputs(": unreachable\n", out);
            continue;
        }
        fputs(": in ", out);
        print_set(n, l, &l->live_in[b], out);
        fputs(" out ", out);
        print_set(n, l, &l->live_out[b], out);
        fputc('\n', out);
    }
}

static void print_shapes(const struct names *n, const struct weft_cfg *cfg, const struct weft_loops *loops,
                         const struct weft_shapes *s, FILE *out)
{
    fprintf(out, "shapes of @%s:\n", LLVMGetValueName(cfg->fn));
    for (size_t b = 0; b < cfg->nblocks; b++) {
        LLVMBasicBlockRef bb = cfg->blocks[b];
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVoidTypeKind)
                continue;
            struct weft_shape sh = weft_shape_of(s, in);
            fputs("  ", out);
            print_value(n, in, out);
            switch (sh.kind) {
            case WEFT_SHAPE_UNIFORM:
                fputs(": uniform\n", out);
                break;
            case WEFT_SHAPE_VARYING:
                fputs(": varying\n", out);
                break;
            case WEFT_SHAPE_AFFINE:
                fprintf(out, ": affine(dim %d, stride ", sh.dim);
                print_value(n, sh.stride, out);
                fputs(")\n", out);
                break;
            }
        }
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (term && weft_cfg_reachable(cfg, b) && weft_cfg_nsucc(cfg, b) > 1) {
            fputs("  ", out);
            print_block(n, bb, out);
            fprintf(out, ": branch %s\n", weft_shapes_branch_divergent(s, bb) ? "divergent" : "uniform");
        }
        if (loops && weft_loops_with_header(loops, (int)b) >= 0) {
            fputs("  ", out);
            print_block(n, bb, out);
            fprintf(out, ": loop %s\n", weft_shapes_loop_divergent(s, bb) ? "divergent" : "uniform");
        }
    }
}

static void print_locality(const struct names *n, const struct weft_locality *L, FILE *out)
{
    fprintf(out, "locality of @%s:\n", LLVMGetValueName(L->cfg->fn));
    unsigned used = 0;
    for (int d = 0; d < 3; d++)
        used += L->dim_used[d];
    for (size_t i = 0; i < L->count; i++) {
        const struct weft_loop_locality *r = &L->loop[i];
        fputs("  loop ", out);
        print_block(n, r->header, out);
        fprintf(out, ": bfo %u dfo %u neutral %u -> %s%s", r->votes_bfo, r->votes_dfo, r->votes_neutral,
                r->prefers_bfo ? "BFO" : "DFO", r->divergent ? ", divergent" : "");
        if (r->guards == 1)
            fputs(", guarded", out);
        if (r->not_schedulable)
            fprintf(out, ", not schedulable: %s", r->not_schedulable);
        fputc('\n', out);
        if (used > 1)
            for (int d = 0; d < 3; d++)
                if (L->dim_used[d])
                    fprintf(out, "    dim %d: bfo %u dfo %u neutral %u\n", d, r->bfo[d], r->dfo[d], r->neutral[d]);
        for (size_t a = 0; a < r->naccesses; a++) {
            const struct weft_access_locality *acc = &r->accesses[a];
            bool load = LLVMIsALoadInst(acc->inst);
            fprintf(out, "    %s ", load ? "load" : "store");
            print_value(n, LLVMGetOperand(acc->inst, load ? 0 : 1), out);
            fprintf(out, ": %s", weft_stride_class_name('L', acc->loop));
            for (int d = 0; d < 3; d++)
                if (L->dim_used[d])
                    fprintf(out, " %s", weft_stride_class_name('W', acc->wi[d]));
            fputc('\n', out);
        }
    }
}

static void print_access(LLVMValueRef fn, FILE *out)
{
    struct weft_access_summary s;
    weft_access_summarize(fn, &s);
    if (!s.affine) {
        fprintf(out, "access of @%s: not affine (%s)\n", LLVMGetValueName(fn), s.reason);
        weft_access_summary_dispose(&s);
        return;
    }
    fprintf(out, "access of @%s: affine\n", LLVMGetValueName(fn));
    for (unsigned i = 0; i < s.count; i++) {
        const struct weft_access *a = &s.acc[i];
        char text[512];
        weft_access_format(&s, a, text, sizeof text);
        fprintf(out, "  %s arg %u size %u: %s\n", a->kind == WEFT_ACCESS_WRITE ? "write" : "read ", a->arg, a->size,
                text);
    }
    weft_access_summary_dispose(&s);
}

/* The dumps that work on a function's CFG and on a sub-CFG's alike; false for other names. */
static bool print_graph(const char *name, const struct names *n, const struct weft_cfg *cfg, FILE *out)
{
    if (strcmp(name, "cfg") == 0) {
        print_cfg(n, cfg, out);
    } else if (strcmp(name, "dominators") == 0) {
        struct weft_domtree *dom = weft_dom_compute(cfg), *pdom = weft_postdom_compute(cfg);
        print_tree(n, cfg, dom, out);
        print_tree(n, cfg, pdom, out);
        weft_dom_free(dom);
        weft_dom_free(pdom);
    } else if (strcmp(name, "loops") == 0) {
        struct weft_domtree *dom = weft_dom_compute(cfg);
        struct weft_loops *l = weft_loops_compute(cfg, dom);
        print_loops(n, l, out);
        weft_loops_free(l);
        weft_dom_free(dom);
    } else {
        return false;
    }
    return true;
}

bool weft_analysis_has_subcfg_printer(const char *name)
{
    return name && (strcmp(name, "cfg") == 0 || strcmp(name, "dominators") == 0 || strcmp(name, "loops") == 0);
}

void weft_analysis_print_subcfg(const char *name, LLVMValueRef fn, LLVMBasicBlockRef const *blocks, size_t nblocks,
                                FILE *out)
{
    if (!weft_analysis_has_subcfg_printer(name)) {
        fprintf(out, "unknown sub-CFG analysis '%s'\n", name ? name : "(null)");
        return;
    }
    struct weft_cfg *cfg = weft_cfg_build_sub(fn, blocks, nblocks);
    if (!cfg)
        return;
    struct names n;
    names_init(&n, fn);
    print_graph(name, &n, cfg, out);
    weft_ptrmap_free(&n.slot);
    weft_cfg_free(cfg);
}

static const char *const printers[] = {"cfg", "dominators", "loops", "liveness", "shapes", "locality",
                                       "locality-precise", "access"};

bool weft_analysis_has_printer(const char *name)
{
    for (size_t i = 0; i < sizeof(printers) / sizeof(printers[0]); i++)
        if (name && strcmp(name, printers[i]) == 0)
            return true;
    return false;
}

void weft_analysis_print(const char *name, LLVMValueRef fn, FILE *out)
{
    if (!weft_analysis_has_printer(name)) {
        fprintf(out, "unknown analysis '%s'\n", name ? name : "(null)");
        return;
    }
    struct weft_cfg *cfg = weft_cfg_build(fn);
    if (!cfg)
        return;   /* a declaration: nothing to print */
    struct names n;
    names_init(&n, fn);
    if (weft_analysis_has_subcfg_printer(name)) {
        print_graph(name, &n, cfg, out);
    } else if (strcmp(name, "liveness") == 0) {
        struct weft_liveness *l = weft_liveness_compute(cfg);
        print_liveness(&n, l, out);
        weft_liveness_free(l);
    } else if (strcmp(name, "access") == 0) {
        print_access(fn, out);
    } else if (strncmp(name, "locality", 8) == 0) {
        struct weft_locality *L = weft_locality_compute(fn, NULL, strcmp(name, "locality") == 0);
        print_locality(&n, L, out);
        weft_locality_free(L);
    } else {
        struct weft_domtree *dom = weft_dom_compute(cfg);
        struct weft_loops *l = weft_loops_compute(cfg, dom);
        struct weft_shapes *s = weft_shapes_compute(fn, l);
        print_shapes(&n, cfg, l, s, out);
        weft_shapes_free(s);
        weft_loops_free(l);
        weft_dom_free(dom);
    }
    weft_ptrmap_free(&n.slot);
    weft_cfg_free(cfg);
}
