/* tools/weft/explain_chain.c — `weft explain FILE.cl --chain ...`: the fusion decision the
 * runtime would take for a chain of launches (exec/fuse/fuse.h), without running anything. Its
 * own file because it speaks the runtime's language (buffers, argument values, NDRange) where
 * the rest of `weft explain` speaks the compiler's.
 *
 * The chain is written as launches `kernel(arg, arg, ...)` separated by commas; a pointer
 * argument is a buffer name (launches that name the same buffer share it), a scalar a number.
 * It goes through the code the runtime plans with: the kernels' access summaries
 * (compiler/analysis/access.h) with the values put in (exec/fuse/bind.h), the layout checks
 * and geometry (exec/fuse/plan.h), and fuse.h's rules. Equation 6 needs t_s/t_c, which the
 * runtime measures; here it is --ratio (default the runtime's value before any measurement).
 * What is printed: which launches would be fused and why the others not, the depth K, the
 * tiles, and the rows run with the redundant ones (the figures of the WEFT_LOG=info line). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "exec/pool.h"
#include "explain_chain.h"
#include "exec/fuse/fuse.h"
#include "exec/fuse/bind.h"
#include "exec/fuse/plan.h"

#define MAX_STAGES WEFT_FUSE_MAX_CHAIN
#define MAX_BUFS 16u
#define MAX_ARGS 32u

struct stage {
    const struct weft_kernel_meta *km;
    unsigned nargs;
    char *arg[MAX_ARGS];           /* the text of each argument */
    int buf[MAX_ARGS];             /* pointer arguments: buffer index, else -1 */
    bool svm[MAX_ARGS];            /* a pointer argument written svm:NAME: an SVM pointer
                                      (clSetKernelArgSVMPointer), not a cl_mem */
    int64_t value[MAX_ARGS];       /* integer scalars */
    bool has_value[MAX_ARGS];
    struct weft_fp_access *acc;
    struct weft_fp_node *nodes;
};

struct chain {
    struct stage st[MAX_STAGES];
    unsigned n;
    char *buf_name[MAX_BUFS];
    unsigned nbufs;
};

static bool arg_value(const void *ctx, unsigned arg, int64_t *v)
{
    const struct stage *s = ctx;
    if (arg >= s->nargs || !s->has_value[arg])
        return false;
    *v = s->value[arg];
    return true;
}

static int buffer_index(struct chain *c, const char *name)
{
    for (unsigned b = 0; b < c->nbufs; b++)
        if (!strcmp(c->buf_name[b], name))
            return (int)b;
    if (c->nbufs == MAX_BUFS)
        return -1;
    c->buf_name[c->nbufs] = strdup(name);
    return c->buf_name[c->nbufs] ? (int)c->nbufs++ : -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* Parses one launch "kernel(a, b, 3)" into st; false with a message. */
static bool parse_stage(struct chain *c, const struct weft_image *img, char *text, struct stage *st)
{
    text = trim(text);
    char *open = strchr(text, '('), *close = text[0] ? strrchr(text, ')') : NULL;
    if (!open || !close || close < open || trim(close + 1)[0]) {
        fprintf(stderr, "weft explain: bad launch '%s': expected KERNEL(ARG, ...)\n", text);
        return false;
    }
    *open = 0;
    *close = 0;
    const char *name = trim(text);
    int ki = weft_image_find_kernel(img, name);
    if (ki < 0) {
        fprintf(stderr, "weft explain: no kernel '%s'; kernels:", name);
        for (cl_uint i = 0; i < img->num_kernels; i++)
            fprintf(stderr, " %s", img->kernels[i].name);
        fprintf(stderr, "\n");
        return false;
    }
    st->km = &img->kernels[ki];
    st->nargs = 0;
    char *args = trim(open + 1);
    for (char *save = NULL, *a = *args ? strtok_r(args, ",", &save) : NULL; a; a = strtok_r(NULL, ",", &save)) {
        if (st->nargs == MAX_ARGS) {
            fprintf(stderr, "weft explain: %s: more than %u arguments\n", name, MAX_ARGS);
            return false;
        }
        st->arg[st->nargs++] = trim(a);
    }
    if (st->nargs != st->km->num_args) {
        fprintf(stderr, "weft explain: %s takes %u arguments, the chain gives %u\n", name, st->km->num_args,
                st->nargs);
        return false;
    }
    for (unsigned i = 0; i < st->nargs; i++) {
        const struct weft_arg_meta *am = &st->km->args[i];
        const char *a = st->arg[i];
        st->buf[i] = -1;
        st->has_value[i] = false;
        st->svm[i] = false;
        if (am->kind == WEFT_ARG_GLOBAL_PTR || am->kind == WEFT_ARG_CONSTANT_PTR) {
            if (!strncmp(a, "svm:", 4)) {
                st->svm[i] = true;
                a += 4;
            }
            if (!isalpha((unsigned char)a[0]) && a[0] != '_') {
                fprintf(stderr, "weft explain: %s argument %u is a buffer: give it a name, not '%s'\n", name, i, a);
                return false;
            }
            st->buf[i] = buffer_index(c, a);
            if (st->buf[i] < 0) {
                fprintf(stderr, "weft explain: more than %u buffers\n", MAX_BUFS);
                return false;
            }
            continue;
        }
        bool integer = am->kind == WEFT_ARG_BY_VALUE && am->type_name &&
                       strcspn(am->type_name, "*") == strlen(am->type_name) &&
                       (strstr(am->type_name, "int") || strstr(am->type_name, "long") ||
                        strstr(am->type_name, "short") || strstr(am->type_name, "char") ||
                        strstr(am->type_name, "size_t"));
        char *end;
        errno = 0;
        if (integer) {
            long long v = strtoll(a, &end, 0);
            if (errno || end == a || *end) {
                fprintf(stderr, "weft explain: %s argument %u (%s) needs an integer, not '%s'\n", name, i,
                        am->type_name, a);
                return false;
            }
            st->value[i] = v;
            st->has_value[i] = true;
        } else {   /* another scalar: its value cannot take part in addresses */
            (void)strtod(a, &end);
            if (end == a || *end) {
                fprintf(stderr, "weft explain: %s argument %u (%s) needs a number, not '%s'\n", name, i,
                        am->type_name ? am->type_name : "?", a);
                return false;
            }
        }
    }
    return true;
}

/* Splits the --chain text at the commas outside parentheses. */
static bool parse_chain(struct chain *c, const struct weft_image *img, char *spec, unsigned repeat)
{
    char *start = spec;
    int depth = 0;
    for (char *p = spec;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if ((*p == ',' && depth == 0) || !*p) {
            bool end = !*p;
            *p = 0;
            if (c->n == MAX_STAGES) {
                fprintf(stderr, "weft explain: a chain of more than %u launches\n", MAX_STAGES);
                return false;
            }
            if (!parse_stage(c, img, start, &c->st[c->n]))
                return false;
            c->n++;
            if (end)
                break;
            start = p + 1;
        }
    }
    unsigned once = c->n;
    for (unsigned r = 1; r < repeat; r++)
        for (unsigned i = 0; i < once; i++) {
            if (c->n == MAX_STAGES) {
                fprintf(stderr, "weft explain: a chain of more than %u launches\n", MAX_STAGES);
                return false;
            }
            c->st[c->n++] = c->st[i];
        }
    return true;
}

/* Why the runtime would not hold back launches of this kernel for fusion (ndrange.c), or NULL. */
static const char *not_fusable(const struct weft_kernel_meta *km)
{
    static char why[200];
    if (km->uses_printf)
        return "it calls printf";
    if (!km->group_blind)
        return "it observes its work-group (local ids or sizes, group ids, barriers or __local memory)";
    for (cl_uint i = 0; i < km->num_args; i++)
        if (km->args[i].image_type || km->args[i].is_sampler)
            return "it takes an image or a sampler";
    if (!km->access.affine) {
        snprintf(why, sizeof why, "its global accesses are not affine: %s", km->access.reason);
        return why;
    }
    for (unsigned i = 0; i < km->access.count; i++)
        if (km->access.acc[i].kind == WEFT_ACCESS_WRITE)
            return NULL;
    return "it writes no global memory";
}

static void print_stage(FILE *out, const struct stage *st, unsigned k)
{
    fprintf(out, "  launch %-3u %s(", k, st->km->name);
    for (unsigned i = 0; i < st->nargs; i++)
        fprintf(out, "%s%s", i ? ", " : "", st->arg[i]);
    fprintf(out, ")\n");
}

int weft_cli_explain_chain(const struct weft_image *img, const struct weft_explain_chain_args *a)
{
    struct chain *c = calloc(1, sizeof *c);
    struct weft_fp_stage fpst[MAX_STAGES];
    struct weft_fp_buffer buf[MAX_BUFS];
    char *spec = strdup(a->spec);
    int rc = 1;
    if (!c || !spec)
        goto out;
    if (!parse_chain(c, img, spec, a->repeat ? a->repeat : 1)) {
        rc = 2;
        goto out;
    }
    unsigned work_dim = a->work_dim;
    uint64_t global[3] = {a->global[0], a->global[1], a->global[2]};
    uint64_t local[3] = {a->local[0], a->local[1], a->local[2]};
    printf("chain of %u launches, NDRange ", c->n);
    for (unsigned d = 0; d < work_dim; d++)
        printf("%s%llu", d ? "x" : "", (unsigned long long)global[d]);
    printf(", local size ");
    for (unsigned d = 0; d < work_dim; d++)
        printf("%s%llu", d ? "x" : "", (unsigned long long)local[d]);
    printf("\n");
    for (unsigned k = 0; k < c->n; k++)
        print_stage(stdout, &c->st[k], k);

    /* the longest prefix the runtime would hold back and describe (fuse.c: add_stage) */
    struct weft_fp_chain chain;
    memset(&chain, 0, sizeof chain);
    memset(buf, 0, sizeof buf);
    chain.work_dim = work_dim;
    for (unsigned d = 0; d < 3; d++)
        chain.global[d] = global[d];
    chain.align = weft_fuse_align(work_dim, local);
    chain.stage = fpst;
    chain.buf = buf;
    chain.nbufs = c->nbufs;
    char why[256] = "";
    unsigned n = 0;
    for (; n < c->n; n++) {
        struct stage *st = &c->st[n];
        const char *no = not_fusable(st->km);
        if (!no && !weft_fuse_takes_work_dim(work_dim))
            no = WEFT_FUSE_3D_WHY;
        if (no) {
            snprintf(why, sizeof why, "launch %u (%.40s) is not held back for fusion: %.120s", n, st->km->name, no);
            break;
        }
        unsigned svm_arg = 0;
        while (svm_arg < st->nargs && !st->svm[svm_arg])
            svm_arg++;
        if (svm_arg < st->nargs) {
            /* runtime/ndrange.c: fusion sees memory only through cl_mem arguments */
            snprintf(why, sizeof why, "launch %u (%.40s) is not held back for fusion: argument %u is an SVM pointer",
                     n, st->km->name, svm_arg);
            break;
        }
        const struct weft_access_summary *sum = &st->km->access;
        struct weft_fb_launch launch = {work_dim, {global[0], global[1], global[2]}, {0, 0, 0}, arg_value, st};
        st->acc = calloc(sum->count, sizeof *st->acc);
        if (!st->acc || !weft_fb_nodes(&launch, sum, &st->nodes)) {
            snprintf(why, sizeof why, "launch %u (%s): an address does not evaluate", n, st->km->name);
            break;
        }
        bool ok = true;
        for (unsigned i = 0; i < sum->count && ok; i++) {
            const struct weft_access *x = &sum->acc[i];
            struct weft_fp_access *y = &st->acc[i];
            if (x->arg >= st->nargs || st->buf[x->arg] < 0) {
                snprintf(why, sizeof why, "launch %u (%s): an access through argument %u, not a buffer", n,
                         st->km->name, x->arg);
                ok = false;
                break;
            }
            if (!weft_fb_access(&launch, sum, x, (unsigned)st->buf[x->arg], st->nodes, y)) {
                snprintf(why, sizeof why, "launch %u (%s): an access offset does not evaluate (a scalar argument "
                         "in it without an integer value?)", n, st->km->name);
                ok = false;
            }
        }
        if (!ok)
            break;
        fpst[n] = (struct weft_fp_stage){sum->count, st->acc};
    }
    /* buffer sizes: what the whole NDRange touches (the CLI has no cl_mem to ask) */
    chain.nstages = n;
    for (unsigned k = 0; k < n; k++)
        for (unsigned i = 0; i < fpst[k].nacc; i++) {
            const struct weft_fp_access *x = &fpst[k].acc[i];
            int64_t lo, hi = x->c0 + (int64_t)x->size;
            if (x->node) {
                uint64_t keep = buf[x->buf].size;
                buf[x->buf].size = UINT64_MAX / 4;
                weft_fp_access_range(&chain, x->buf, x, 0, global[work_dim - 1], &lo, &hi);
                buf[x->buf].size = keep;
            } else {
                for (unsigned d = 0; d < work_dim; d++)
                    hi += x->coef[d] > 0 ? x->coef[d] * (int64_t)(global[d] - 1) : 0;
            }
            if (hi > 0 && hi < (int64_t)1 << 60 && (uint64_t)hi > buf[x->buf].size)
                buf[x->buf].size = (uint64_t)hi;
        }
    /* drop trailing launches that feed nothing back, as the runtime does */
    while (chain.nstages >= 2 && !weft_fp_analyze(&chain, why, sizeof why))
        chain.nstages--;
    if (chain.nstages < 2) {
        printf("not fused: %s\n", why[0] ? why : "fewer than two launches to fuse");
        rc = 0;
        goto out;
    }
    printf("buffers:");
    for (unsigned b = 0; b < c->nbufs; b++) {
        printf(" %s (touched: %llu bytes%s", c->buf_name[b], (unsigned long long)buf[b].size,
               buf[b].windowed ? ", written: windowed" : ", only read: in place");
        if (buf[b].windowed)
            printf(", rows %lld bytes apart", (long long)buf[b].stride);
        printf(")%s", b + 1 < c->nbufs ? "," : "\n");
    }

    /* depth and tile: forced, or equation 6 at --ratio */
    const uint64_t rows = weft_fp_rows(&chain);
    const unsigned teams = weft_fuse_teams();
    unsigned K;
    uint64_t tile;
    const char *how;
    char howbuf[160];
    if (a->depth) {
        K = a->depth < chain.nstages ? a->depth : chain.nstages;
        tile = a->tile ? a->tile : (rows + 3) / 4;
        how = "forced by --depth";
    } else if (a->tile) {
        tile = a->tile;
        K = weft_fp_depth(&chain, tile, a->ratio);
        snprintf(howbuf, sizeof howbuf, "equation 6 at t_s/t_c - 1 = %.3g and tiles of %llu rows", a->ratio,
                 (unsigned long long)tile);
        how = howbuf;
    } else {
        /* two levels: the runtime's tiles are a team's, from a share of a last-level cache */
        uint64_t budget = teams ? weft_fuse_team_budget(teams) : weft_fuse_tile_budget();
        uint64_t row_bytes = weft_fp_row_bytes(&chain);
        unsigned threads = teams ? teams : a->threads ? a->threads : weft_pool_concurrency();
        weft_fp_choose(&chain, row_bytes, budget, threads, a->ratio, &K, &tile);
        snprintf(howbuf, sizeof howbuf,
                 "equation 6 at t_s/t_c - 1 = %.3g; tiles from a %llu KiB cache budget, %llu bytes a row, %u %s",
                 a->ratio, (unsigned long long)(budget >> 10), (unsigned long long)row_bytes, threads,
                 teams ? "teams" : "threads");
        how = howbuf;
    }
    tile = (tile + chain.align - 1) / chain.align * chain.align;
    if (K < 2) {
        printf("depth K = %u (%s)\nnot fused: K < 2\n", K, how);
        rc = 0;
        goto out;
    }
    chain.nstages = K;
    if (!weft_fp_analyze(&chain, why, sizeof why)) {
        printf("depth K = %u (%s)\nnot fused: the first %u launches: %s\n", K, how, K, why);
        rc = 0;
        goto out;
    }
    uint64_t tiles = (rows + tile - 1) / tile, run = weft_fp_rows_run(&chain, K, tile);
    uint64_t useful = (uint64_t)K * rows, redundant = run - useful;
    printf("fused: launches 0-%u (%u of %u)", K - 1, K, c->n);
    if (K + 1 == c->n)
        printf("; launch %u is planned again with what follows it", K);
    else if (K < c->n)
        printf("; launches %u-%u are planned again as a chain of their own", K, c->n - 1);
    printf("\n");
    printf("depth K = %u (%s)\n", K, how);
    printf("tiles: %llu of %llu rows (the outermost NDRange dimension, %llu rows; regions round to %llu)\n",
           (unsigned long long)tiles, (unsigned long long)tile, (unsigned long long)rows,
           (unsigned long long)chain.align);
    printf("rows run: %llu = K*N %llu + redundant %llu (%.1f%%)\n", (unsigned long long)run,
           (unsigned long long)useful, (unsigned long long)redundant, 100.0 * (double)redundant / (double)useful);
    /* one interior tile's regions, the first launch's widest */
    uint64_t rlo[MAX_STAGES], rhi[MAX_STAGES], t = tiles / 2 * tile;
    weft_fp_regions(&chain, K, t, t + tile < rows ? t + tile : rows, rlo, rhi);
    printf("regions of tile %llu (rows %llu-%llu):", (unsigned long long)(tiles / 2), (unsigned long long)t,
           (unsigned long long)((t + tile < rows ? t + tile : rows) - 1));
    for (unsigned k = 0; k < K; k++)
        printf(" %llu-%llu", (unsigned long long)rlo[k], (unsigned long long)(rhi[k] ? rhi[k] - 1 : 0));
    printf("\n");
    printf("fuse: %u launches (%s) fused into %llu tiles of %llu rows: K=%u, redundant rows %llu of %llu (%.1f%%)\n",
           K, c->st[0].km->name, (unsigned long long)tiles, (unsigned long long)tile, K,
           (unsigned long long)redundant, (unsigned long long)useful, 100.0 * (double)redundant / (double)useful);
    if (teams)
        printf("levels: 2 (hierarchical overlapped tiling): teams: %u (the threads of a last-level cache domain "
               "each); a tile is run by one team, with a barrier between launches\n",
               teams);
    else
        printf("levels: 1: each tile is run by one thread\n");
    if (!a->depth && (K < WEFT_FUSE_MIN_DEPTH || a->ratio < WEFT_FUSE_MIN_RATIO))
        printf("the runtime would not fuse it: it needs K >= %u and t_s/t_c - 1 >= %.2f\n", WEFT_FUSE_MIN_DEPTH,
               WEFT_FUSE_MIN_RATIO);
    rc = 0;
out:
    if (c) {
        for (unsigned k = 0; k < c->n; k++) {
            free(c->st[k].acc);
            free(c->st[k].nodes);
        }
        for (unsigned b = 0; b < c->nbufs; b++)
            free(c->buf_name[b]);
    }
    free(c);
    free(spec);
    return rc;
}
