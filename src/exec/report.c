/* exec/report.c — WEFT_REPORT (exec/report.h).
 *
 * Kernels are kept by name in a small table under one mutex: the report is a diagnosis mode,
 * where a lock per launch costs nothing that matters, and the untraced path never reaches it.
 */
#include "exec/report.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "exec/fuse/fuse.h"
#include "util/clock.h"
#include "util/trace.h"

#define MAX_KERNELS 512u
#define MAX_VARIANTS 6u

struct kernel_entry {
    char name[64];
    uint64_t launches, ns;
    struct {
        const void *fn;      /* NULL: every variant past MAX_VARIANTS */
        uint64_t n;
    } variants[MAX_VARIANTS];
    unsigned nvariants;
    uint64_t fused_launches, fused_runs, min_k, max_k, tiles, tile_rows;   /* tiles: of the longest chain */
    unsigned teams;
    char not_fusable[200];   /* why a launch of it could not join a chain (the latest) */
    char not_fused[160];     /* why a chain it started did not fuse (the latest) */
    uint64_t alone;          /* fusable launches that ran unfused */
};

static struct {
    pthread_mutex_t lock;
    struct kernel_entry *k;
    unsigned n;
} rep = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void print_at_exit(void)
{
    weft_report_print();
}

/* After util/trace.c's constructor (101), which reads WEFT_REPORT. */
__attribute__((constructor(102))) static void report_init(void)
{
    if (weft_report_enabled)
        atexit(print_at_exit);
}

/* The entry of kernel `name`, made on first use; NULL when the table is full. Lock held. */
static struct kernel_entry *entry(const char *name)
{
    if (!rep.k && !(rep.k = calloc(MAX_KERNELS, sizeof *rep.k)))
        return NULL;
    for (unsigned i = 0; i < rep.n; i++)
        if (!strcmp(rep.k[i].name, name))
            return &rep.k[i];
    if (rep.n == MAX_KERNELS)
        return NULL;
    struct kernel_entry *e = &rep.k[rep.n++];
    snprintf(e->name, sizeof e->name, "%s", name);
    return e;
}

static void count_variant(struct kernel_entry *e, const void *fn)
{
    unsigned i = 0;
    while (i < e->nvariants && e->variants[i].fn != fn)
        i++;
    if (i == e->nvariants) {
        if (e->nvariants == MAX_VARIANTS)
            i = MAX_VARIANTS - 1, fn = NULL;   /* "others" */
        else
            e->nvariants++;
    }
    e->variants[i].fn = fn;
    e->variants[i].n++;
}

/* Why launch d could not join a fused chain (runtime/ndrange.c decides, by these rules). */
static void why_not_fusable(const struct weft_launch_desc *d, char *buf, size_t n)
{
    const struct weft_kernel_meta *m = d->meta;
    bool writes = false;
    for (unsigned i = 0; m && i < m->access.count; i++)
        writes |= m->access.acc[i].kind == WEFT_ACCESS_WRITE;
    if (weft_fuse_setting() == WEFT_FUSE_OFF)
        snprintf(buf, n, "WEFT_FUSE=off");
    else if (!m)
        snprintf(buf, n, "a launch of nothing");
    else if (d->uses_printf)
        snprintf(buf, n, "it calls printf");
    else if (!m->group_blind || m->reqd_work_group_size[0] || m->work_group_size_hint[0])
        snprintf(buf, n, "it observes its work-group (local ids or sizes, barriers, local memory, or a "
                         "work-group size attribute)");
    else if (!m->access.affine)
        snprintf(buf, n, "not all of its global accesses are affine: %s", m->access.reason);
    else if (!writes)
        snprintf(buf, n, "it writes no global memory");
    else if (!weft_fuse_takes_work_dim(d->launch.ctx.work_dim))
        snprintf(buf, n, "%s", WEFT_FUSE_3D_WHY);
    else
        snprintf(buf, n, "an out-of-order queue, images, or private arrays too large for a fused run's stack");
}

void weft_report_launch(const struct weft_launch_desc *d, weft_wg_fn ran, uint64_t ns)
{
    char why[200] = "";
    if (!d->fusable)
        why_not_fusable(d, why, sizeof why);
    pthread_mutex_lock(&rep.lock);
    struct kernel_entry *e = entry(d->name[0] ? d->name : "(launch of nothing)");
    if (e) {
        e->launches++;
        e->ns += ns;
        count_variant(e, (const void *)ran);
        if (d->fusable)
            e->alone++;
        else
            snprintf(e->not_fusable, sizeof e->not_fusable, "%s", why);
    }
    pthread_mutex_unlock(&rep.lock);
}

void weft_report_fused(const char *const *names, const weft_wg_fn *fns, unsigned k, uint64_t t0, uint64_t ns,
                       uint64_t tiles, uint64_t tile_rows, unsigned teams)
{
    if (weft_trace_enabled) {
        /* the other kernels of the chain, when it has more than one ("a,b,c") */
        char others[64] = "";
        size_t len = 0;
        for (unsigned i = 1; i < k && len + 1 < sizeof others; i++) {
            bool seen = !strcmp(names[i], names[0]);
            for (unsigned j = 1; j < i && !seen; j++)
                seen = !strcmp(names[i], names[j]);
            if (!seen)
                len += (size_t)snprintf(others + len, sizeof others - len, "%s%s", len ? "," : "", names[i]);
        }
        weft_trace_record(WEFT_TRACE_FUSED, 0, t0, ns, names[0], others, k, tiles, tile_rows, teams);
    }
    if (!weft_report_enabled)
        return;
    pthread_mutex_lock(&rep.lock);
    for (unsigned i = 0; i < k; i++) {
        struct kernel_entry *e = entry(names[i]);
        if (!e)
            continue;
        bool first_of_run = true;   /* a kernel twice in a chain counts one run */
        for (unsigned j = 0; j < i; j++)
            first_of_run = first_of_run && strcmp(names[j], names[i]) != 0;
        e->launches++;
        e->fused_launches++;
        e->ns += ns / k;
        count_variant(e, (const void *)fns[i]);
        if (first_of_run) {
            e->fused_runs++;
            if (!e->min_k || k < e->min_k)
                e->min_k = k;
            if (k > e->max_k) {
                e->max_k = k;
                e->tiles = tiles;
                e->tile_rows = tile_rows;
                e->teams = teams;
            }
        }
    }
    pthread_mutex_unlock(&rep.lock);
}

void weft_report_not_fused(const char *name, const char *why)
{
    if (weft_trace_enabled)
        weft_trace_record_text(WEFT_TRACE_NOT_FUSED, weft_now_ns(), name, why);
    if (!weft_report_enabled)
        return;
    pthread_mutex_lock(&rep.lock);
    struct kernel_entry *e = entry(name);
    if (e)
        snprintf(e->not_fused, sizeof e->not_fused, "%s", why);
    pthread_mutex_unlock(&rep.lock);
}

/* ---- printing ------------------------------------------------------------------------------- */

static int by_time(const void *a, const void *b)
{
    const struct kernel_entry *x = a, *y = b;
    return x->ns > y->ns ? -1 : x->ns < y->ns;
}

static void variant_label(const void *fn, char *buf, size_t n)
{
    struct weft_trace_variant v;
    if (!fn)
        snprintf(buf, n, "others");
    else if (weft_trace_variant_of(fn, &v))
        snprintf(buf, n, "%s", v.variant);
    else
        snprintf(buf, n, "?");
}

/* "vectorized: ..." for the kernel's most-run variant. */
static void vector_label(const struct kernel_entry *e, char *buf, size_t n)
{
    unsigned best = 0;
    for (unsigned i = 1; i < e->nvariants; i++)
        if (e->variants[i].n > e->variants[best].n)
            best = i;
    struct weft_trace_variant v;
    if (!e->nvariants || !e->variants[best].fn || !weft_trace_variant_of(e->variants[best].fn, &v)) {
        snprintf(buf, n, "unknown");
        return;
    }
    if (strstr(v.variant, ".scalar")) {
        /* what the vectorized variant it was chosen over had */
        struct weft_trace_variant o;
        bool other = false;
        for (unsigned i = 0; i < e->nvariants && !other; i++)
            other = e->variants[i].fn && weft_trace_variant_of(e->variants[i].fn, &o) && !strstr(o.variant, ".scalar") &&
                    o.vec_known && o.vec_done;
        int len = snprintf(buf, n, "no (the scalar variant %s ran most launches: profiling or the static cost model "
                                   "chose it)", v.variant);
        if (other && len > 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "; %s is vectorized (%u of %u sub-CFGs, %u lanes x %u)", o.variant,
                     o.vec_done, o.vec_total, o.vec_width, o.vec_interleave ? o.vec_interleave : 1);
    } else if (!v.vec_known) {
        snprintf(buf, n, "unknown (%s was compiled by an older Weft; weft explain tells)", v.variant);
    } else if (v.vec_done) {
        snprintf(buf, n, "yes (%s: %u of %u sub-CFGs, %u lanes x %u)", v.variant, v.vec_done, v.vec_total,
                 v.vec_width, v.vec_interleave ? v.vec_interleave : 1);
    } else {
        snprintf(buf, n, "no (%s)", v.vec_reason[0] ? v.vec_reason : "no reason kept: compiled by an earlier process; weft explain tells");
    }
}

static void fused_label(const struct kernel_entry *e, char *buf, size_t n)
{
    if (e->fused_launches) {
        char k[48];
        if (e->min_k == e->max_k)
            snprintf(k, sizeof k, "K=%llu", (unsigned long long)e->max_k);
        else
            snprintf(k, sizeof k, "K=%llu-%llu", (unsigned long long)e->min_k, (unsigned long long)e->max_k);
        int len = snprintf(buf, n, "%llu of %llu launches in %llu runs (%s, %llu tiles of %llu rows%s)",
                           (unsigned long long)e->fused_launches, (unsigned long long)e->launches,
                           (unsigned long long)e->fused_runs, k, (unsigned long long)e->tiles,
                           (unsigned long long)e->tile_rows, e->teams ? ", two levels" : "");
        if (e->alone && len > 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "; the others not: %s",
                     e->not_fused[0] ? e->not_fused : "no chain to fuse with (a sync point after each)");
    } else if (e->not_fusable[0] && !e->alone) {
        snprintf(buf, n, "no (%s)", e->not_fusable);
    } else {
        snprintf(buf, n, "no (%s)", e->not_fused[0] ? e->not_fused
                                                    : "no chain to fuse with: a sync point or another command "
                                                      "after each launch");
    }
}

void weft_report_print(void)
{
    const char *dest = getenv("WEFT_REPORT");
    FILE *f = stderr;
    bool own = false;
    if (dest && strcmp(dest, "1") && strcmp(dest, "stderr") && strcmp(dest, "on") && strcmp(dest, "yes")) {
        f = fopen(dest, "w");
        own = f != NULL;
        if (!f) {
            fprintf(stderr, "weft: WEFT_REPORT: cannot write %s; the report goes here\n", dest);
            f = stderr;
        }
    }
    pthread_mutex_lock(&rep.lock);
    uint64_t total = 0, launches = 0;
    for (unsigned i = 0; i < rep.n; i++) {
        total += rep.k[i].ns;
        launches += rep.k[i].launches;
    }
    if (rep.n)
        qsort(rep.k, rep.n, sizeof *rep.k, by_time);
    for (unsigned i = 0; i < rep.n; i++) {
        const struct kernel_entry *e = &rep.k[i];
        if (!e->launches)
            continue;   /* only offered to fusion, never ran (cannot happen; kept safe) */
        char variants[256] = "", vec[256], fused[400];
        size_t len = 0;
        for (unsigned j = 0; j < e->nvariants && len + 1 < sizeof variants; j++) {
            char name[40];
            variant_label(e->variants[j].fn, name, sizeof name);
            len += (size_t)snprintf(variants + len, sizeof variants - len, "%s%s (%llu)", j ? ", " : "", name,
                                    (unsigned long long)e->variants[j].n);
        }
        vector_label(e, vec, sizeof vec);
        fused_label(e, fused, sizeof fused);
        fprintf(f, "weft report: kernel %s: %llu launches, %.3f ms total, %.1f us mean, %.1f%% of device time; "
                   "variants: %s; vectorized: %s; fused: %s\n",
                e->name, (unsigned long long)e->launches, (double)e->ns / 1e6,
                (double)e->ns / 1e3 / (double)e->launches, total ? 100.0 * (double)e->ns / (double)total : 0.0,
                variants, vec, fused);
    }
    fprintf(f, "weft report: total: %u kernels, %llu launches, %.3f ms of device time\n", rep.n,
            (unsigned long long)launches, (double)total / 1e6);
    pthread_mutex_unlock(&rep.lock);
    if (own)
        fclose(f);
    else
        fflush(f);
}
