/* exec/fuse/fuse.c — runs chains of launches as overlapped tiles (see fuse.h for the contract
 * and fuse/plan.h for the geometry). */
#include "exec/fuse/fuse.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "compiler/transform/schedule.h"
#include "exec/fuse/bind.h"
#include "exec/fuse/cost.h"
#include "exec/fuse/internal.h"
#include "exec/fuse/plan.h"
#include "exec/fuse/tile2d.h"
#include "exec/launch.h"
#include "exec/pool.h"
#include "exec/report.h"
#include "exec/topology.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/trace.h"

_Static_assert(WEFT_FUSE_MAX_CHAIN <= WEFT_FP_MAX_STAGES, "fuse/plan.h takes the longest chain");
/* Fusing needs at least this many stages (fuse.h; the rest of the rule: weft_cost_verdict). */
#define FUSE_MIN_DEPTH WEFT_FUSE_MIN_DEPTH
/* The work-group size of 1-D fused regions (at most; what the launch chose when smaller). */
#define FUSED_GROUP_1D 256u
/* ... but a 1-D region runs groups of this many work-items from its start first: the kernel
 * cannot tell its groups apart, and a group costs a few ns of overhead (1-D Jacobi K=64 at 64M
 * points, two A/B rounds at size large: groups of 256 271-285 ms, of 1024 236-254 ms). */
#define FUSED_WIDE_1D 1024u
/* The columns of a work-group in 2-D tiles (exec/fuse/tile2d.h), four 16-lane packets: a
 * stage's piece is whole groups from its first column, so a group wastes up to its width per
 * stage, and 16 cost about 3 ns of overhead per group (2-D tiles 1.5x slower on an EPYC). */
#define FUSED_GROUP_2D 64u

/* ---- settings ------------------------------------------------------------------------------- */

static unsigned env_unsigned(const char *name, unsigned dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    return *end || v > 1000000 ? dflt : (unsigned)v;
}

enum weft_fuse_mode weft_fuse_setting(void)
{
    static atomic_int mode = -1;
    int m = atomic_load(&mode);
    if (m < 0) {
        const char *e = getenv("WEFT_FUSE");
        m = e && !strcmp(e, "off") ? WEFT_FUSE_OFF : WEFT_FUSE_AUTO;
        atomic_store(&mode, m);
    }
    return (enum weft_fuse_mode)m;
}

/* WEFT_FUSE_DEPTH: the depth K forced on every chain (0: the measured one). Read at each use,
 * not once: tests set it between launches. */
static unsigned forced_depth(void)
{
    return env_unsigned("WEFT_FUSE_DEPTH", 0);
}

bool weft_fuse_takes_work_dim(unsigned work_dim)
{
    return work_dim < 3 || forced_depth() != 0;
}

unsigned weft_fuse_hold_limit(void)
{
    static atomic_uint limit = 0;
    unsigned l = atomic_load(&limit);
    if (!l) {
        l = env_unsigned("WEFT_FUSE_HOLD", 64);
        if (l < 2)
            l = 2;
        if (l > MAX_STAGES)
            l = MAX_STAGES;
        atomic_store(&limit, l);
    }
    return l;
}

uint64_t weft_fuse_tile_budget(void)
{
    /* Zhou's Eff_Cache: a tile's working set in the core's own L2 (measured on a 2-core EPYC:
     * Jacobi 1-D at 64K-point tiles 39 ms, 1M-point tiles, in the shared L3, 70 ms) */
    const struct weft_topology *topo = weft_topology_get();
    uint64_t budget = topo->l2_size ? topo->l2_size : topo->l3_size / (topo->cores ? topo->cores : 1);
    return budget < (256u << 10) ? 256u << 10 : budget;
}

unsigned weft_fuse_teams(void)
{
    const struct weft_topology *t = weft_topology_get();
    const unsigned threads = weft_pool_concurrency();
    unsigned levels = env_unsigned("WEFT_FUSE_LEVELS", 1), domains = env_unsigned("WEFT_FUSE_DOMAINS", 0);
    if (levels < 2 && !domains)
        return 0;
    if (!domains)
        domains = t->llc_domains;
    return domains < threads ? domains : threads;
}

unsigned weft_fuse_team_candidate(void)
{
    if (getenv("WEFT_FUSE_LEVELS") || getenv("WEFT_FUSE_DOMAINS"))
        return 0;
    /* Where each thread has a last-level cache of its own (the 2-core EPYC, whose cores hwloc
     * reports on separate L3s), a team is one thread: two levels are one. Where threads share
     * one, which form wins depends on the chain (16-core Xeon, one L3: two levels 1.2-1.35x
     * faster on Poisson and HotSpot 2048², 1.3-1.4x slower on 1-D Jacobi K=64;
     * docs/PERFORMANCE.md), so both are measured. */
    const struct weft_topology *t = weft_topology_get();
    const unsigned threads = weft_pool_concurrency();
    return t->llc_domains && t->llc_domains < threads ? t->llc_domains : 0;
}

uint64_t weft_fuse_team_budget(unsigned teams)
{
    const struct weft_topology *t = weft_topology_get();
    const uint64_t core = weft_fuse_tile_budget();
    teams = teams ? teams : 1;
    unsigned threads = weft_pool_concurrency() / teams;
    threads = threads ? threads : 1;
    /* Zhou's level 2 keeps each core's part of a tile in its private cache: a core's budget
     * per thread of the team (each thread keeps to its share of the stages' rows,
     * fuse/team.h), within half the team's share of the last-level caches */
    const uint64_t want = core * threads;
    const uint64_t llc = t->l3_size * t->llc_domains / teams / 2;
    return llc >= core && llc < want ? llc : want;
}

uint64_t weft_fuse_align(unsigned work_dim, const uint64_t local[3])
{
    return work_dim == 1 ? (local[0] < FUSED_GROUP_1D ? local[0] : FUSED_GROUP_1D) : 1;
}

/* ---- measured costs (exec/fuse/cost.h) ------------------------------------------------- */

static struct weft_cost_key chain_key(const struct weft_fuse_stage *s0, const struct weft_fuse_stage *s1)
{
    return (struct weft_cost_key){s0->code, s1 ? s1->code : 0, {s0->global[0], s0->global[1], s0->global[2]}};
}

/* What fusion needs of a launch (false: NULL, not a launch). */
static bool stage_of(const struct weft_launch_desc *d, struct weft_fuse_stage *out)
{
    if (!d)
        return false;
    memset(out, 0, sizeof *out);
    out->launch = d;
    out->meta = d->meta;
    /* by content: a released program's kernel metadata may be freed and the next program's
     * allocated at its address, and with it the old chain's costs and rejection would pass to
     * different code */
    out->code = d->ops && d->kernel ? d->ops->code_key(d->kernel) : (uint64_t)(uintptr_t)d->meta;
    out->block = d->launch.args;
    out->work_dim = (unsigned)d->launch.ctx.work_dim;
    for (int i = 0; i < 3; i++) {
        out->global[i] = d->launch.ctx.global_size[i];
        out->offset[i] = d->launch.ctx.global_offset[i];
        out->local[i] = d->launch.ctx.enqueued_local_size[i];
    }
    out->name = d->name;
    return true;
}

void weft_fuse_note_unfused(const struct weft_launch_desc *d, uint64_t ns)
{
    struct weft_fuse_stage st;
    if (!stage_of(d, &st))
        return;
    const struct weft_fuse_stage *s = &st;
    uint64_t rows = s->global[s->work_dim - 1];
    if (rows) {
        struct weft_cost_key k = chain_key(s, NULL);
        weft_cost_note(WEFT_COST_UNFUSED, &k, (double)ns / (double)rows);
    }
}

/* ---- window sets: a tile's private copies, recycled across tiles and runs ------------------ */

#define WSET_CACHE_MAX 8u
static pthread_mutex_t wset_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wset *wset_cache;
static unsigned wset_cached;

struct wset *fuse_wset_get(void)
{
    pthread_mutex_lock(&wset_lock);
    struct wset *w = wset_cache;
    if (w) {
        wset_cache = w->next;
        wset_cached--;
    }
    pthread_mutex_unlock(&wset_lock);
    return w ? w : calloc(1, sizeof *w);
}

void fuse_wset_put(struct wset *w)
{
    pthread_mutex_lock(&wset_lock);
    if (wset_cached < WSET_CACHE_MAX) {
        w->next = wset_cache;
        wset_cache = w;
        wset_cached++;
        w = NULL;
    }
    pthread_mutex_unlock(&wset_lock);
    if (w) {
        for (unsigned b = 0; b < MAX_BUFS; b++)
            free(w->mem[b]);
        free(w->args);
        free(w);
    }
}

/* Room for `bytes` whose first byte has the 64-byte phase of `phase_of` (so the kernel's
 * vector accesses keep the alignment they have in the real buffer). */
char *fuse_wset_room(struct wset *w, unsigned b, size_t bytes, uintptr_t phase_of)
{
    size_t need = bytes + 64;
    if (w->cap[b] < need) {
        free(w->mem[b]);
        w->mem[b] = aligned_alloc(64, (need + 63) / 64 * 64);
        w->cap[b] = w->mem[b] ? (need + 63) / 64 * 64 : 0;
        if (!w->mem[b])
            return NULL;
    }
    return w->mem[b] + (phase_of & 63);
}

struct wset *fuse_open_windows(const struct weft_fusion *f, const struct weft_t2_band *win, const bool *has,
                               uint64_t *hi_out)
{
    struct wset *w = fuse_wset_get();
    if (!w)
        return NULL;
    if (w->args_cap < f->args_max) {
        free(w->args);
        w->args_cap = (f->args_max + 63) / 64 * 64;
        w->args = aligned_alloc(64, w->args_cap);
        if (!w->args) {
            w->args_cap = 0;
            fuse_wset_put(w);
            return NULL;
        }
    }
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        uint64_t lo = 0, hi = 0;
        w->ptr[b] = NULL;
        w->lo[b] = 0;
        if (has[b] && weft_t2_band_range(&win[b], f->buf[b].stride, f->buf[b].size, &lo, &hi)) {
            if (!(w->ptr[b] = fuse_wset_room(w, b, hi - lo, (uintptr_t)(f->base[b] + lo)))) {
                fuse_wset_put(w);
                return NULL;
            }
            w->lo[b] = lo;
        }
        if (hi_out)
            hi_out[b] = w->ptr[b] ? hi : 0;
    }
    return w;
}

/* ---- a planned fused run ---------------------------------------------------------------------- */


/* The integer scalar argument `arg` of a stage, from its packed argument block. */
static bool stage_arg_value(const void *ctx, unsigned arg, int64_t *v)
{
    const struct weft_fuse_stage *s = ctx;
    if (arg >= s->meta->num_args)
        return false;
    const struct weft_arg_meta *a = &s->meta->args[arg];
    if (a->kind != WEFT_ARG_BY_VALUE)
        return false;
    const unsigned char *p = s->block + a->offset;
    switch (a->size) {
    case 1: { int8_t x; memcpy(&x, p, 1); *v = x; return true; }
    case 2: { int16_t x; memcpy(&x, p, 2); *v = x; return true; }
    case 4: { int32_t x; memcpy(&x, p, 4); *v = x; return true; }
    case 8: { int64_t x; memcpy(&x, p, 8); *v = x; return true; }
    default: return false;
    }
}

void weft_fuse_free(struct weft_fusion *f)
{
    if (!f)
        return;
    for (unsigned k = 0; k < MAX_STAGES; k++) {   /* also a stage add_stage gave up on */
        free(f->st[k].acc);
        free(f->st[k].nodes);
    }
    for (struct pending *lists[2] = {f->deferred, f->spare}, **l = lists; l < lists + 2; l++)
        while (*l) {
            struct pending *p = *l;
            *l = p->next;
            free(p->data);
            free(p);
        }
    weft_t2_free(&f->t2);
    fuse_hot_free(f);
    free(f->copied);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

/* The buffer index of storage `ptr` (adding it), or -1 when it is not a memory object of the
 * launch or overlaps another one without being it (sub-buffers of one parent). */
static int buffer_of(struct weft_fusion *f, const struct weft_fuse_stage *s, char *ptr)
{
    for (unsigned b = 0; b < f->chain.nbufs; b++)
        if (f->base[b] == ptr)
            return (int)b;
    size_t size = 0;
    if (!weft_launch_buffer_size(s->launch, ptr, &size) || f->chain.nbufs == MAX_BUFS)
        return -1;
    for (unsigned b = 0; b < f->chain.nbufs; b++)
        if (ptr < f->base[b] + f->buf[b].size && f->base[b] < ptr + size)
            return -1;
    unsigned b = f->chain.nbufs++;
    f->base[b] = ptr;
    memset(&f->buf[b], 0, sizeof f->buf[b]);
    f->buf[b].size = size;
    return (int)b;
}

/* Turns launch k into stage k of f: its accesses as numbers. */
static bool add_stage(struct weft_fusion *f, const struct weft_launch_desc *d, char *why, size_t n)
{
    unsigned k = f->chain.nstages;
    struct fstage *st = &f->st[k];
    memset(st, 0, sizeof *st);
    if (!stage_of(d, &st->s)) {
        snprintf(why, n, "not a kernel launch");
        return false;
    }
    const struct weft_fuse_stage *s = &st->s;
    if (d->raw_memory) {
        /* never marked fusable (runtime/ndrange.c); checked again because windows over bufs
         * would miss what it writes through SVM pointers */
        snprintf(why, n, "%s: %s", s->name, d->raw_memory);
        return false;
    }
    const struct weft_access_summary *sum = &s->meta->access;
    if (!sum->affine || !sum->count) {
        snprintf(why, n, "%s: %s", s->name, sum->affine ? "no global accesses" : sum->reason);
        return false;
    }
    if (k > 0) {
        const struct weft_fuse_stage *s0 = &f->st[0].s;
        if (s->work_dim != s0->work_dim || memcmp(s->global, s0->global, sizeof s->global) ||
            memcmp(s->offset, s0->offset, sizeof s->offset)) {
            snprintf(why, n, "%s has another NDRange than %s", s->name, s0->name);
            return false;
        }
    }
    st->acc = calloc(sum->count, sizeof *st->acc);
    if (!st->acc)
        return false;
    struct weft_fb_launch launch = {s->work_dim, {s->global[0], s->global[1], s->global[2]},
                                    {s->offset[0], s->offset[1], s->offset[2]}, stage_arg_value, s};
    if (!weft_fb_nodes(&launch, sum, &st->nodes)) {
        snprintf(why, n, "%s: a choosing read's address does not evaluate", s->name);
        return false;
    }
    for (unsigned i = 0; i < sum->count; i++) {
        const struct weft_access *a = &sum->acc[i];
        const struct weft_arg_meta *am = a->arg < s->meta->num_args ? &s->meta->args[a->arg] : NULL;
        if (!am || (am->kind != WEFT_ARG_GLOBAL_PTR && am->kind != WEFT_ARG_CONSTANT_PTR)) {
            snprintf(why, n, "%s: an access through argument %u, not a buffer", s->name, a->arg);
            return false;
        }
        char *ptr;
        memcpy(&ptr, s->block + am->offset, sizeof ptr);
        int b = buffer_of(f, s, ptr);
        if (b < 0) {
            snprintf(why, n, "%s: argument %u is not a whole buffer apart from the others", s->name, a->arg);
            return false;
        }
        if (!weft_fb_access(&launch, sum, a, (unsigned)b, st->nodes, &st->acc[i])) {
            snprintf(why, n, "%s: an access offset does not evaluate", s->name);
            return false;
        }
    }
    f->fpst[k] = (struct weft_fp_stage){sum->count, st->acc};
    f->chain.nstages++;
    return true;
}

/* The pointer arguments of stage k that point at windowed buffers. */
static bool find_patches(struct weft_fusion *f, struct fstage *st)
{
    for (unsigned i = 0; i < st->s.meta->num_args; i++) {
        const struct weft_arg_meta *am = &st->s.meta->args[i];
        if (am->kind != WEFT_ARG_GLOBAL_PTR && am->kind != WEFT_ARG_CONSTANT_PTR)
            continue;
        char *ptr;
        memcpy(&ptr, st->s.block + am->offset, sizeof ptr);
        for (unsigned b = 0; b < f->chain.nbufs; b++) {
            if (f->base[b] != ptr || !f->buf[b].windowed)
                continue;
            if (st->npatch == MAX_PATCHES)
                return false;
            st->patch[st->npatch].offset = am->offset;
            st->patch[st->npatch].buf = b;
            st->npatch++;
        }
    }
    return true;
}

/* Compiles (or finds) the variants the regions of stage st need: per dimension the full groups
 * of the fused local size and, where the global size leaves one, the remainder group. With 2-D
 * tiles, dimension 0 runs groups of col_local. */
static bool prepare_parts(struct fstage *st, uint64_t outer_local, uint64_t col_local, size_t *scratch)
{
    const struct weft_fuse_stage *s = &st->s;
    const unsigned D = s->work_dim - 1;
    for (unsigned d = 0; d < 3; d++)
        st->flocal[d] = d == 0 && D > 0 && col_local ? col_local : d < D ? s->local[d] : d == D ? outer_local : 1;
    /* two packets side by side: the stages run in cache, where the packet loop's border tests
     * cost as much as the stencil (2-core EPYC, size large, two A/B rounds: 1-D Jacobi K=64
     * 409-465 -> 350-404 ms, 2-D Jacobi K=10 133-171 -> 113-157 ms); what WEFT_VARIANT forces,
     * when it does */
    struct weft_variant_spec spec;
    if (!weft_variant_first(weft_variant_needs_wide_ids(s->work_dim, s->offset, s->global), &spec))
        spec.code = WEFT_CODE_X2;
    for (unsigned mask = 0; mask < (1u << s->work_dim); mask++) {
        size_t local[3] = {1, 1, 1};
        bool exists = true;
        for (unsigned d = 0; d < s->work_dim; d++) {
            uint64_t full = s->global[d] / st->flocal[d], rem = s->global[d] % st->flocal[d];
            exists = exists && (mask >> d & 1 ? rem != 0 : full != 0);
            local[d] = (size_t)(mask >> d & 1 ? rem : st->flocal[d]);
        }
        if (!exists)
            continue;
        struct weft_variant v;
        if (s->launch->ops->get_variant(s->launch->kernel, s->work_dim, local, &spec, &v) != 0 ||
            v.static_local_size)
            return false;
        st->part[mask].fn = v.fn;
        for (unsigned d = 0; d < 3; d++)
            st->part[mask].local[d] = local[d];
        if (v.scratch_size > *scratch)
            *scratch = v.scratch_size;
    }
    /* wide groups where they fit whole regions' starts (a kernel that cannot take them, e.g.
     * one with a required work-group size, keeps its groups) */
    struct weft_variant v;
    size_t wide[3] = {FUSED_WIDE_1D, 1, 1};
    if (s->work_dim == 1 && !col_local && FUSED_WIDE_1D % outer_local == 0 && outer_local < FUSED_WIDE_1D &&
        s->global[0] >= FUSED_WIDE_1D &&
        s->launch->ops->get_variant(s->launch->kernel, 1, wide, &spec, &v) == 0 && !v.static_local_size) {
        st->wide.fn = v.fn;
        st->wide.local[0] = FUSED_WIDE_1D;
        st->wide.local[1] = st->wide.local[2] = 1;
        if (v.scratch_size > *scratch)
            *scratch = v.scratch_size;
    }
    return true;
}

static bool other_form_measured(const struct weft_cost_key *key)
{
    const struct weft_cost_key other = weft_cost_key_in_form(
        key, key->form == WEFT_FUSE_FORM_ONE_LEVEL ? WEFT_FUSE_FORM_TWO_LEVELS : WEFT_FUSE_FORM_ONE_LEVEL);
    return weft_cost_get(WEFT_COST_USEFUL, &other, WEFT_FUSE_FUSED_SAMPLES) > 0;
}

/* Whether the one-level plan of f's chain leaves work that two levels could save
 * (weft_fp_two_levels_may_pay), decided once per chain, length and process (a second
 * weft_fp_choose per planned chain is what it would otherwise cost), from the plan a one-level
 * run would make: with its measured t_s/t_c - 1 when it has one (`unfused`:
 * the chain's unfused cost per row, 0 or below while not all measured), else an earlier
 * process's, else WEFT_FUSE_FIRST_RATIO. */
static bool one_level_leaves_work(const struct weft_fusion *f, double unfused, const struct weft_cost_prior *prior)
{
    const int known = weft_cost_two_levels(&f->key, f->chain.nstages);
    if (known >= 0)
        return known;
    const struct weft_cost_key one = weft_cost_key_in_form(&f->key, WEFT_FUSE_FORM_ONE_LEVEL);
    const double fused = weft_cost_get(WEFT_COST_FUSED, &one, WEFT_FUSE_FUSED_SAMPLES);
    const double ratio = unfused > 0 && fused > 0 ? unfused / fused - 1.0
                         : prior && prior->form == WEFT_FUSE_FORM_ONE_LEVEL ? prior->ratio
                                                                          : WEFT_FUSE_FIRST_RATIO;
    unsigned K;
    uint64_t tile;
    weft_fp_choose(&f->chain, weft_fp_row_bytes(&f->chain), weft_fuse_tile_budget(), weft_pool_concurrency(), ratio,
                   &K, &tile);
    const bool worth = weft_fp_two_levels_may_pay(&f->chain, K, tile);
    weft_cost_set_two_levels(&f->key, f->chain.nstages, worth);
    if (!worth)
        weft_log(WEFT_LOG_DEBUG,
                 "fuse: %s: two levels not tried: one level fuses all %u stages, redoing %.1f%% of its rows",
                 f->st[0].s.name, K, 100.0 * weft_fp_redundant_share(&f->chain, K, tile));
    return worth;
}

/* Where a chain's decision is kept on disk (fuse/cost.h): its first two kernels by content, its
 * NDRange and local size, and what decides its costs on this machine (threads, the two-level
 * form's teams, this build of Weft). `arg`: the chain's first two stages. */
static uint64_t prior_key(const void *arg)
{
    const struct weft_fuse_stage *a = arg, *b = a + 1;
    uint64_t k[12] = {a->launch->ops->code_key(a->launch->kernel), b->launch->ops->code_key(b->launch->kernel),
                      a->global[0], a->global[1], a->global[2], a->local[0], a->local[1], a->local[2],
                      weft_pool_concurrency(), weft_fuse_team_candidate(), weft_cache_build_identity(),
                      a->work_dim};
    return weft_hash64(k, sizeof k, 0x6675736570726eull);
}

struct weft_fusion *weft_fuse_prepare(const struct weft_launch_desc *const *launches, unsigned n, unsigned *used)
{
    if (n < 2)
        return NULL;
    if (n > MAX_STAGES)
        n = MAX_STAGES;
    /* a chain measured not to pay is not planned until its retry (planning costs microseconds
     * per launch), and a fused one runs a few launches unfused now and then to re-measure */
    const unsigned depth_forced = forced_depth();
    struct weft_fuse_stage ab[2];   /* the first two stages */
    enum weft_cost_plan plan = WEFT_COST_PLAN;
    struct weft_cost_key pair_key;
    const bool have_pair = !depth_forced && stage_of(launches[0], &ab[0]) && stage_of(launches[1], &ab[1]);
    if (have_pair) {
        pair_key = chain_key(&ab[0], &ab[1]);
        weft_cost_load_prior(&pair_key, prior_key, ab);
        plan = weft_cost_plan_launch(&pair_key);
        if (plan == WEFT_COST_SKIP) {
            if (weft_trace_enabled || weft_report_enabled)
                weft_report_not_fused(launches[0]->name, "measured not to pay (or not to apply); tried again later");
            return NULL;
        }
    }
    const uint64_t t_prepare = weft_now_ns();
    struct weft_fusion *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->t_prepare = t_prepare;
    pthread_mutex_init(&f->lock, NULL);
    f->chain.stage = f->fpst;
    f->chain.buf = f->buf;
    char why[160] = "";
    /* the longest prefix whose stages all describe themselves */
    for (unsigned k = 0; k < n; k++)
        if (!add_stage(f, launches[k], why, sizeof why))
            break;
    const struct weft_fuse_stage *s0 = &f->st[0].s;
    if (f->chain.nstages < 2)
        goto no;
    f->key = chain_key(s0, &f->st[1].s);
    f->chain.work_dim = s0->work_dim;
    for (unsigned d = 0; d < 3; d++)
        f->chain.global[d] = s0->global[d];
    /* 1-D regions start and end on work-groups: small ones, as every stage's region rounds out
     * to them; other dimensions run rows of work-groups one item high */
    f->chain.align = weft_fuse_align(s0->work_dim, s0->local);
    /* drop trailing stages that feed nothing back (analysis needs a producer/consumer pair) */
    while (f->chain.nstages >= 2 && !weft_fp_analyze(&f->chain, why, sizeof why)) {
        f->chain.nstages--;
        free(f->st[f->chain.nstages].acc);
        f->st[f->chain.nstages].acc = NULL;
    }
    if (f->chain.nstages < 2) {
        /* No prefix of the chain fuses. Planning it costs an analysis per prefix, and the
         * queue asks again for each launch the chain starts with (a burst of 64 held
         * launches of a kernel that feeds nothing: 35 us per launch on a 16-core Xeon against
         * 4.5 us unfused): the pair waits for its retry as a chain measured not to pay does. */
        if (have_pair)
            weft_cost_reject(&pair_key);
        goto no;
    }

    /* depth and tile: forced by WEFT_FUSE_DEPTH / WEFT_FUSE_TILE, else equation 6 with costs
     * measured on this machine */
    const uint64_t rows = weft_fp_rows(&f->chain);
    unsigned forced_tile = env_unsigned("WEFT_FUSE_TILE", 0), forced_cols = env_unsigned("WEFT_FUSE_COLS", 0);
    /* two levels (fuse/hot.c) only for row tiles: forced by WEFT_FUSE_LEVELS / WEFT_FUSE_DOMAINS,
     * else tried where threads share a last-level cache and kept where measured faster */
    unsigned teams = forced_cols ? 0 : weft_fuse_teams();
    unsigned candidate_teams = forced_cols || teams ? 0 : weft_fuse_team_candidate();
    f->key.form = teams ? WEFT_FUSE_FORM_TWO_LEVELS : WEFT_FUSE_FORM_ONE_LEVEL;
    unsigned K;
    uint64_t tile;
    if (depth_forced) {
        K = depth_forced < f->chain.nstages ? depth_forced : f->chain.nstages;
        f->chain.nstages = K;
        tile = forced_tile ? forced_tile : (rows + 3) / 4;
    } else {
        /* what an earlier process measured and decided (fuse/cost.h), until this one has
         * measured the same */
        struct weft_cost_prior prior;
        const bool have_prior = have_pair && weft_cost_prior(&f->key, &prior);
        double unfused = 0;
        for (unsigned k = 0; k < f->chain.nstages && unfused >= 0; k++) {
            const struct weft_cost_key uk = chain_key(&f->st[k].s, NULL);
            double u = weft_cost_get(WEFT_COST_UNFUSED, &uk, WEFT_FUSE_UNFUSED_SAMPLES);
            if (u == 0 && !have_prior) {
                snprintf(why, sizeof why, "no unfused run of %s measured yet", f->st[k].s.name);
                goto no;
            }
            unfused = u == 0 ? -1.0 : unfused + u / f->chain.nstages;   /* -1: not all measured */
        }
        if (candidate_teams && !one_level_leaves_work(f, unfused, have_prior ? &prior : NULL)) {
            candidate_teams = 0;
            f->key.form = WEFT_FUSE_FORM_ONE_LEVEL;
        }
        unsigned form = have_prior ? prior.form
                        : candidate_teams ? weft_cost_pick_form(&f->key, WEFT_FUSE_FUSED_SAMPLES)
                                          : WEFT_FUSE_FORM_ONE_LEVEL;
        if (form == WEFT_FUSE_FORM_TWO_LEVELS && candidate_teams) {
            /* the gain over unfused is judged on the form that runs */
            teams = candidate_teams;
            f->key.form = WEFT_FUSE_FORM_TWO_LEVELS;
        }
        double fused = weft_cost_get(WEFT_COST_FUSED, &f->key, WEFT_FUSE_FUSED_SAMPLES);
        double useful = weft_cost_get(WEFT_COST_USEFUL, &f->key, WEFT_FUSE_FUSED_SAMPLES);
        const bool measured = unfused > 0 && fused > 0 && plan != WEFT_COST_RETRY;
        /* measured; else what an earlier process measured; else (or a retry) try */
        double ratio = measured ? unfused / fused - 1.0 : have_prior ? prior.ratio : WEFT_FUSE_FIRST_RATIO;
        uint64_t budget = teams ? weft_fuse_team_budget(teams) : weft_fuse_tile_budget();
        uint64_t row_bytes = weft_fp_row_bytes(&f->chain);
        weft_fp_choose(&f->chain, row_bytes, budget, teams ? teams : weft_pool_concurrency(), ratio, &K, &tile);
        weft_log(WEFT_LOG_DEBUG,
                 "fuse: %s: unfused %.2f ns/row, fused %.2f ns per row run, %.2f per row replaced, t_s/t_c %.2f%s: "
                 "K=%u, tile %llu, %s", s0->name, unfused, fused, useful, ratio,
                 !measured && have_prior ? " (an earlier process's)" : "", K, (unsigned long long)tile,
                 teams ? "two levels" : "one level");
        if (forced_tile)
            tile = forced_tile;
        /* The model charges the copies in and out to every stage alike; below a few stages or a
         * clear margin they are not paid back (Jacobi 2-D on a 2-core EPYC: K=2 took 1.4x the
         * unfused time at ratio 0.05): weft_cost_verdict. */
        const enum weft_cost_verdict verdict = weft_cost_verdict(K, f->chain.nstages, ratio, measured, useful, unfused);
        if (verdict != WEFT_COST_VERDICT_FUSE)
            K = 1;
        if (K < 2) {
            bool remeasure = false;
            if (fused > 0 && verdict == WEFT_COST_VERDICT_REJECT) {
                remeasure = measured && weft_cost_remeasure_before_reject(&f->key);
                if (!remeasure)
                    weft_cost_reject(&f->key);
                if (measured && have_pair && !remeasure)
                    weft_cost_store_prior(&f->key, prior_key, ab, true, f->key.form, ratio);
            }
            if (remeasure)
                snprintf(why, sizeof why,
                         "fusing may not pay (unfused %.1f ns/row, fused %.1f ns per row replaced): unfused "
                         "cost measured again first", unfused, useful);
            else if (verdict == WEFT_COST_VERDICT_SHORT)
                snprintf(why, sizeof why, "%u launches, fewer than the %u that pay", f->chain.nstages,
                         FUSE_MIN_DEPTH);
            else
                snprintf(why, sizeof why,
                         "fusing does not pay: unfused %.1f ns/row, fused %.1f ns per row run, %.1f ns per row replaced",
                         unfused, fused, useful);
            goto no;
        }
        /* it pays, with both forms measured (or the one there is): final until costs change */
        if (measured && have_pair && (!candidate_teams || other_form_measured(&f->key)))
            weft_cost_store_prior(&f->key, prior_key, ab, false, f->key.form, ratio);
    }
    tile = (tile + f->chain.align - 1) / f->chain.align * f->chain.align;
    for (unsigned k = K; k < f->chain.nstages; k++) {
        free(f->st[k].acc);
        f->st[k].acc = NULL;
    }
    f->chain.nstages = K;
    /* the shortened chain must still feed itself */
    if (!weft_fp_analyze(&f->chain, why, sizeof why))
        goto no;
    /* 2-D tiles only when asked for: measured slower than row tiles (docs/PERFORMANCE.md) */
    bool cols = forced_cols != 0;
    if (cols && !weft_t2_init(&f->t2, &f->chain, FUSED_GROUP_2D, why, sizeof why)) {
        weft_log(WEFT_LOG_DEBUG, "fuse: %s chain: row tiles instead of 2-D ones: %s", s0->name, why);
        cols = false;
    }
    f->tile = tile;
    f->cols = cols;
    f->teams = cols ? 0 : teams;
    f->row_items = 1;
    for (unsigned d = 0; d + 1 < f->chain.work_dim; d++)
        f->row_items *= f->chain.global[d];
    if (cols) {
        f->ctile = (forced_cols + FUSED_GROUP_2D - 1) / FUSED_GROUP_2D * FUSED_GROUP_2D;
        f->tiles = weft_t2_tiles(&f->t2, tile, f->ctile);
        f->reach = weft_t2_reach(&f->t2, K, tile, f->ctile);
    } else {
        f->tiles = (rows + tile - 1) / tile;
        f->reach = (weft_fp_reach(&f->chain, K, tile) + tile - 1) / tile;
    }
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        if (!f->buf[b].windowed)
            continue;
        /* plus a row and a group of slack: the margins are measured on a few tiles */
        if (cols) {
            weft_t2_margin(&f->t2, K, tile, f->ctile, b, &f->margin_rows[b], &f->margin_bytes[b]);
            f->margin_rows[b] += 1;
            f->margin_bytes[b] += FUSED_GROUP_2D * f->buf[b].elem;
        } else {
            f->margin_rows[b] = 0;
            f->margin_bytes[b] = weft_fp_margin(&f->chain, K, tile, b) + (int64_t)f->chain.align * f->buf[b].stride;
        }
    }
    f->copied = calloc(f->tiles, sizeof *f->copied);
    if (!f->copied || (f->teams && !fuse_hot_init(f)))
        goto no;
    for (unsigned k = 0; k < K; k++) {
        struct fstage *st = &f->st[k];
        if (!find_patches(f, st) || !prepare_parts(st, f->chain.align, cols ? FUSED_GROUP_2D : 0, &f->scratch)) {
            snprintf(why, sizeof why, "%s: its regions cannot run on their own", st->s.name);
            goto no;
        }
        size_t args = st->s.meta->args_size ? st->s.meta->args_size : 8;
        if (args > f->args_max)
            f->args_max = args;
    }
    *used = K;
    return f;
no:
    weft_log(WEFT_LOG_DEBUG, "fuse: %s%s not fused: %s", f->chain.nstages ? s0->name : "launch", f->chain.nstages > 1 ? " chain" : "",
             why);
    if (weft_trace_enabled || weft_report_enabled)
        weft_report_not_fused(launches[0]->name, why[0] ? why : "its launches do not describe themselves");
    weft_fuse_free(f);
    return NULL;
}

/* ---- running ------------------------------------------------------------------------------------ */

/* Runs rows [a, b) of the outer dimension of stage st with argument block `args`: all of every
 * other dimension, or with 2-D tiles (`cols`) columns [u, v) of dimension 0 (a whole number of
 * its groups). */
void fuse_run_region(const struct fstage *st, const void *args, const struct weft_wg_ctx *wctx, uint64_t a,
                     uint64_t b, bool cols, uint64_t u, uint64_t v)
{
    const struct weft_fuse_stage *s = &st->s;
    const unsigned D = s->work_dim - 1;
    struct weft_wg_ctx c = *wctx;
    c.work_dim = s->work_dim;
    for (unsigned d = 0; d < 3; d++) {
        c.global_size[d] = s->global[d];
        c.global_offset[d] = s->offset[d];
        c.enqueued_local_size[d] = st->flocal[d];
        c.num_groups[d] = (s->global[d] + st->flocal[d] - 1) / st->flocal[d];
    }
    if (st->wide.fn && !cols && D == 0 && b - a >= FUSED_WIDE_1D) {
        /* groups of FUSED_WIDE_1D from a, numbered from 0 (the kernel cannot tell) */
        const uint64_t n = (b - a) / FUSED_WIDE_1D;
        struct weft_wg_ctx w = c;
        w.local_size[0] = w.enqueued_local_size[0] = FUSED_WIDE_1D;
        w.group_base[0] = 0;
        w.launch_groups[0] = n;
        w.global_id_base[0] = s->offset[0] + a;
        for (unsigned d = 1; d < 3; d++) {
            w.local_size[d] = 1;
            w.group_base[d] = 0;
            w.launch_groups[d] = 1;
            w.global_id_base[d] = s->offset[d];
        }
        st->wide.fn(args, &w, 0, n);
        a += n * FUSED_WIDE_1D;
        if (a >= b)
            return;
    }
    for (unsigned mask = 0; mask < 8; mask++) {
        const struct fpart *p = &st->part[mask];
        if (!p->fn)
            continue;
        uint64_t count = 1;
        for (unsigned d = 0; d < 3; d++) {
            const uint64_t L = st->flocal[d];
            c.local_size[d] = p->local[d];
            if (cols && d == 0) {
                /* columns [u, v) of 2-D tiles: whole groups from u, anywhere in the row (the
                 * kernel cannot tell its groups apart, so their numbers may start at 0) */
                c.group_base[d] = 0;
                c.launch_groups[d] = mask & 1 ? 0 : (v - u) / L;
                c.global_id_base[d] = s->offset[d] + u;
                count *= c.launch_groups[d];
                continue;
            }
            /* items [lo, hi) of dimension d: lo a multiple of L, hi one too or the end */
            const uint64_t lo = d == D ? a : 0, hi = d == D ? b : s->global[d];
            const uint64_t full = s->global[d] / L, full_end = hi < full * L ? hi : full * L;
            const uint64_t base = mask >> d & 1 ? full : lo / L;
            const uint64_t groups = mask >> d & 1 ? (hi == s->global[d]) : (full_end > lo ? (full_end - lo) / L : 0);
            c.group_base[d] = base;
            c.launch_groups[d] = groups;
            c.global_id_base[d] = s->offset[d] + base * (L - p->local[d]);
            count *= groups;
        }
        if (count)
            p->fn(args, &c, 0, count);
    }
}

bool fuse_neighbours_copied(struct weft_fusion *f, uint64_t t)
{
    uint64_t lo = t > f->reach ? t - f->reach : 0, hi = t + f->reach < f->tiles ? t + f->reach : f->tiles - 1;
    for (uint64_t i = lo; i <= hi; i++)
        if (!atomic_load_explicit(&f->copied[i], memory_order_acquire))
            return false;
    return true;
}


/* Copies the bytes of `band` of buffer b (rows its stride apart, clamped to the buffer): into
 * the window `win` (which holds byte `wlo` of the buffer at its start) or out of it, out of it
 * into `packed` or from `packed` into the buffer. Returns the bytes. */
size_t fuse_band_copy(const struct weft_fusion *f, unsigned b, const struct weft_t2_band *band, char *win,
                      uint64_t wlo, char *packed, enum fuse_copy how)
{
    const int64_t stride = f->buf[b].stride, size = (int64_t)f->buf[b].size;
    char *buf = f->base[b];
    struct weft_t2_band x = *band;
    if (x.hi - x.lo >= stride)   /* a row wide or more: one range */
        x = (struct weft_t2_band){0, 1, x.r0 * stride + x.lo, (x.r1 - 1) * stride + x.hi};
    size_t off = 0;
    for (int64_t i = x.r0; i < x.r1; i++) {
        int64_t l = i * stride + x.lo, h = i * stride + x.hi;
        l = l < 0 ? 0 : l;
        h = h > size ? size : h;
        if (l >= h)
            continue;
        const size_t n = (size_t)(h - l);
        switch (how) {
        case COPY_IN: memcpy(win + (l - (int64_t)wlo), buf + l, n); break;
        case COPY_OUT: memcpy(buf + l, win + (l - (int64_t)wlo), n); break;
        case PACK: memcpy(packed + off, win + (l - (int64_t)wlo), n); break;
        case UNPACK: memcpy(buf + l, packed + off, n); break;
        case MEASURE: break;
        }
        off += n;
    }
    return off;
}

/* What tile t owns of windowed buffer b: the bytes its own work-items write. */
void fuse_tile_owned(const struct weft_fusion *f, unsigned b, uint64_t t, struct weft_t2_band *o)
{
    if (f->cols) {
        struct weft_t2_rect tile;
        weft_t2_tile(&f->t2, f->tile, f->ctile, t, &tile);
        weft_t2_owned(&f->t2, b, &tile, o);
        return;
    }
    const uint64_t rows = weft_fp_rows(&f->chain), t_lo = t * f->tile, t_hi = t_lo + f->tile < rows ? t_lo + f->tile : rows;
    uint64_t lo, hi;
    weft_fp_owned(&f->chain, b, t_lo, t_hi, &lo, &hi);
    *o = (struct weft_t2_band){0, 1, (int64_t)lo, (int64_t)hi};
}

/* Tile t's owned bytes of buffer b, split into what no other tile's window reads (*core, maybe
 * empty) and the rest (border[0..n), returned), which must wait for the neighbours' copies. */
unsigned fuse_split_owned(const struct weft_fusion *f, unsigned b, uint64_t t, struct weft_t2_band *core,
                          struct weft_t2_band border[4])
{
    struct weft_t2_band o;
    fuse_tile_owned(f, b, t, &o);
    const int64_t hr = f->margin_rows[b], hb = f->margin_bytes[b];
    if (o.r1 - o.r0 <= 2 * hr || o.hi - o.lo <= 2 * hb) {
        *core = (struct weft_t2_band){0, 0, 0, 0};
        border[0] = o;
        return 1;
    }
    *core = (struct weft_t2_band){o.r0 + hr, o.r1 - hr, o.lo + hb, o.hi - hb};
    unsigned n = 0;
    if (hr > 0) {
        border[n++] = (struct weft_t2_band){o.r0, o.r0 + hr, o.lo, o.hi};
        border[n++] = (struct weft_t2_band){o.r1 - hr, o.r1, o.lo, o.hi};
    }
    if (hb > 0) {
        border[n++] = (struct weft_t2_band){o.r0 + hr, o.r1 - hr, o.lo, o.lo + hb};
        border[n++] = (struct weft_t2_band){o.r0 + hr, o.r1 - hr, o.hi - hb, o.hi};
    }
    return n;
}

/* Packs what tile t owns of its windows within the margins of the neighbours' windows and
 * queues it to be written once they have filled theirs (fuse_flush_deferred). */
void fuse_defer_border(struct weft_fusion *f, const struct wset *w, uint64_t t)
{
    struct weft_t2_band border[MAX_BUFS][4];
    unsigned nb[MAX_BUFS];
    size_t bytes = 0;
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        struct weft_t2_band core;
        if (!f->buf[b].windowed || !w->ptr[b])
            continue;
        nb[b] = fuse_split_owned(f, b, t, &core, border[b]);
        for (unsigned i = 0; i < nb[b]; i++)
            bytes += fuse_band_copy(f, b, &border[b][i], NULL, 0, NULL, MEASURE);
    }
    pthread_mutex_lock(&f->lock);
    struct pending *p = f->spare;
    if (p)
        f->spare = p->next;
    pthread_mutex_unlock(&f->lock);
    if (!p && !(p = calloc(1, sizeof *p))) {
        atomic_store(&f->failed, true);
        return;
    }
    if (p->cap < bytes) {
        free(p->data);
        p->cap = 0;
        if (!(p->data = malloc(bytes))) {
            free(p);
            atomic_store(&f->failed, true);
            return;
        }
        p->cap = bytes;
    }
    p->tile = t;
    p->mask = 0;
    size_t off = 0;
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        if (!f->buf[b].windowed || !w->ptr[b])
            continue;
        for (unsigned i = 0; i < nb[b]; i++)
            off += fuse_band_copy(f, b, &border[b][i], w->ptr[b], w->lo[b], p->data + off, PACK);
        p->mask |= 1u << b;
    }
    pthread_mutex_lock(&f->lock);
    p->next = f->deferred;
    f->deferred = p;
    pthread_mutex_unlock(&f->lock);
}

bool fuse_write_now(struct weft_fusion *f, const struct wset *w, uint64_t t, struct weft_t2_band *now)
{
    const bool all = fuse_neighbours_copied(f, t);
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        struct weft_t2_band border[4];
        now[b] = (struct weft_t2_band){0, 0, 0, 0};
        if (!f->buf[b].windowed || !w->ptr[b])
            continue;
        if (all)
            fuse_tile_owned(f, b, t, &now[b]);
        else
            fuse_split_owned(f, b, t, &now[b], border);
    }
    return !all;
}

/* Writes tile t's owned bytes from its windows into the buffers: all of them once its
 * neighbours have filled their windows; else what they do not read now, and the rest packed to
 * be written when they have. */
static void write_back(struct weft_fusion *f, struct wset *w, uint64_t t)
{
    struct weft_t2_band now[MAX_BUFS];
    const bool wait = fuse_write_now(f, w, t, now);
    for (unsigned b = 0; b < f->chain.nbufs; b++)
        if (w->ptr[b])
            fuse_band_copy(f, b, &now[b], w->ptr[b], w->lo[b], NULL, COPY_OUT);
    if (wait)
        fuse_defer_border(f, w, t);
}

/* Writes back the deferred tiles whose neighbours have all filled their windows (all of them
 * when `all`). Which buffers a tile packed: those its stages touch, as when it ran. */
void fuse_flush_deferred(struct weft_fusion *f, bool all)
{
    struct pending *ready = NULL;
    pthread_mutex_lock(&f->lock);
    for (struct pending **pp = &f->deferred; *pp;) {
        struct pending *p = *pp;
        if (all || fuse_neighbours_copied(f, p->tile)) {
            *pp = p->next;
            p->next = ready;
            ready = p;
        } else {
            pp = &p->next;
        }
    }
    pthread_mutex_unlock(&f->lock);
    for (struct pending *p = ready; p; p = p->next) {
        size_t off = 0;
        for (unsigned b = 0; b < f->chain.nbufs; b++) {
            struct weft_t2_band core, border[4];
            if (!f->buf[b].windowed || !(p->mask >> b & 1))
                continue;
            unsigned n = fuse_split_owned(f, b, p->tile, &core, border);
            for (unsigned i = 0; i < n; i++)
                off += fuse_band_copy(f, b, &border[i], NULL, 0, p->data + off, UNPACK);
        }
    }
    if (!ready)
        return;
    pthread_mutex_lock(&f->lock);
    while (ready) {
        struct pending *p = ready;
        ready = p->next;
        p->next = f->spare;
        f->spare = p;
    }
    pthread_mutex_unlock(&f->lock);
}


/* Stage k's argument block into `args` (f->args_max bytes), its buffer arguments pointed at
 * the windows of w. */
void fuse_stage_args(const struct weft_fusion *f, const struct wset *w, unsigned k, unsigned char *args)
{
    const struct fstage *st = &f->st[k];
    memcpy(args, st->s.block, st->s.meta->args_size ? st->s.meta->args_size : 8);
    for (unsigned i = 0; i < st->npatch; i++) {
        unsigned b = st->patch[i].buf;
        /* the kernel adds its own offsets to the buffer's start: point that start where byte 0
         * of the buffer would be if the window were the buffer */
        uintptr_t start = w->ptr[b] ? (uintptr_t)w->ptr[b] - (uintptr_t)w->lo[b] : (uintptr_t)f->base[b];
        memcpy(args + st->patch[i].offset, &start, sizeof start);
    }
}

/* The pieces each stage runs for tile t and the bands of the windows, per windowed buffer
 * (has[b] false: the tile touches none of it). */
void fuse_plan_tile(const struct weft_fusion *f, uint64_t t, struct piece (*piece)[2], unsigned *npiece,
                    struct weft_t2_band *win, bool *has)
{
    const unsigned K = f->chain.nstages;
    if (f->cols) {
        struct weft_t2_rect tile, reg[MAX_STAGES], p[2];
        weft_t2_tile(&f->t2, f->tile, f->ctile, t, &tile);
        weft_t2_regions(&f->t2, K, &tile, reg);
        for (unsigned k = 0; k < K; k++) {
            npiece[k] = weft_t2_pieces(&f->t2, &reg[k], p);
            for (unsigned i = 0; i < npiece[k]; i++)
                piece[k][i] = (struct piece){(uint64_t)p[i].r0, (uint64_t)p[i].r1, (uint64_t)p[i].c0, (uint64_t)p[i].c1};
        }
        for (unsigned b = 0; b < f->chain.nbufs; b++)
            has[b] = f->buf[b].windowed && weft_t2_window(&f->t2, K, reg, b, &win[b]);
        return;
    }
    const uint64_t rows = weft_fp_rows(&f->chain), t_lo = t * f->tile, t_hi = t_lo + f->tile < rows ? t_lo + f->tile : rows;
    uint64_t rlo[MAX_STAGES], rhi[MAX_STAGES];
    weft_fp_regions(&f->chain, K, t_lo, t_hi, rlo, rhi);
    for (unsigned k = 0; k < K; k++) {
        npiece[k] = rlo[k] < rhi[k];
        piece[k][0] = (struct piece){rlo[k], rhi[k], 0, f->chain.global[0]};
    }
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        uint64_t lo = 0, hi = 0;
        has[b] = f->buf[b].windowed && weft_fp_window(&f->chain, K, rlo, rhi, b, &lo, &hi);
        win[b] = (struct weft_t2_band){0, 1, (int64_t)lo, (int64_t)hi};
    }
}

static void run_tile(struct weft_fusion *f, const struct weft_wg_ctx *wctx, uint64_t t)
{
    const unsigned K = f->chain.nstages;
    struct piece piece[MAX_STAGES][2];
    unsigned npiece[MAX_STAGES];
    struct weft_t2_band win[MAX_BUFS];
    bool has[MAX_BUFS];
    fuse_plan_tile(f, t, piece, npiece, win, has);
    struct wset *w = fuse_open_windows(f, win, has, NULL);
    if (!w)
        atomic_store(&f->failed, true);
    for (unsigned b = 0; w && b < f->chain.nbufs; b++)
        if (w->ptr[b])
            fuse_band_copy(f, b, &win[b], w->ptr[b], w->lo[b], NULL, COPY_IN);
    atomic_store_explicit(&f->copied[t], 1, memory_order_release);
    if (!w || atomic_load(&f->failed)) {
        if (w)
            fuse_wset_put(w);
        return;
    }
    uint64_t items = 0;
    unsigned char *args = w->args;
    for (unsigned k = 0; k < K; k++) {
        if (!npiece[k])
            continue;
        const struct fstage *st = &f->st[k];
        fuse_stage_args(f, w, k, args);
        for (unsigned i = 0; i < npiece[k]; i++) {
            const struct piece *p = &piece[k][i];
            fuse_run_region(st, args, wctx, p->a, p->b, f->cols, p->u, p->v);
            items += (p->b - p->a) * (f->cols ? p->v - p->u : f->row_items);
        }
    }
    atomic_fetch_add(&f->items_run, items);
    write_back(f, w, t);
    fuse_wset_put(w);
}

/* The pool's work-group function of a fused run: one "group" per tile. Deferred write-backs
 * are flushed after every tile: one thread may be handed all the tiles at once, and what waits
 * would otherwise pile up until the end. */
static void run_tiles(const void *arg, const struct weft_wg_ctx *wctx, uint64_t first, uint64_t count)
{
    struct weft_fusion *f = (struct weft_fusion *)arg;
    for (uint64_t t = first; t < first + count; t++) {
        run_tile(f, wctx, t);
        fuse_flush_deferred(f, false);
    }
}

/* WEFT_TRACE and WEFT_REPORT: a fused run of f that took ns from t0 (exec/report.h). */
static __attribute__((noinline)) void observe_run(const struct weft_fusion *f, uint64_t t0, uint64_t ns)
{
    const char *names[MAX_STAGES];
    weft_wg_fn fns[MAX_STAGES];
    const unsigned k = f->chain.nstages;
    for (unsigned i = 0; i < k; i++) {
        names[i] = f->st[i].s.name;
        fns[i] = NULL;
        for (unsigned m = 0; m < 8 && !fns[i]; m++)
            fns[i] = f->st[i].part[m].fn;
    }
    weft_report_fused(names, fns, k, t0, ns, f->tiles, f->tile, f->teams);
}

int weft_fuse_run(struct weft_fusion *f)
{
    const struct weft_fuse_stage *s0 = &f->st[0].s;
    struct weft_launch launch;
    memset(&launch, 0, sizeof launch);
    launch.fn = f->teams ? fuse_hot_worker : run_tiles;
    launch.args = f;
    launch.ctx.work_dim = s0->work_dim;
    for (int d = 0; d < 3; d++) {
        launch.ctx.global_size[d] = s0->global[d];
        launch.ctx.local_size[d] = 1;
        launch.ctx.global_offset[d] = s0->offset[d];
        launch.ctx.num_groups[d] = 1;
    }
    weft_wg_ctx_set_uniform(&launch.ctx);
    /* with teams, every thread joins once and claims tiles for its team */
    launch.total_groups = f->teams ? weft_pool_concurrency() : f->tiles;
    launch.max_chunk = 1;
    launch.scratch_size = f->scratch;
    launch.name = s0->name;
    uint64_t t0 = weft_now_ns();
    int rc = weft_pool_run(&launch);
    fuse_flush_deferred(f, true);
    uint64_t ns = weft_now_ns() - t0;
    if ((weft_trace_enabled || weft_report_enabled) && rc == 0 && !atomic_load(&f->failed))
        observe_run(f, t0, ns);
    /* The costs include the planning (analyses, windows, variants looked up): the launches it
     * replaces are timed from their start to their end too, and a chain of many stages or
     * buffers pays it on every run */
    const uint64_t ns_planned = weft_now_ns() - f->t_prepare;
    if (rc != 0 || atomic_load(&f->failed))
        return 1;   /* the runtime reports CL_OUT_OF_RESOURCES (runtime/queue.c) */
    /* costs per row (fuse/cost.h): rows run, and rows the chain replaced */
    const uint64_t items = atomic_load(&f->items_run), useful = (uint64_t)f->chain.nstages * weft_fp_rows(&f->chain);
    const double run = (double)items / (double)f->row_items;
    if (items) {
        weft_cost_note(WEFT_COST_USEFUL, &f->key, (double)ns_planned / (double)useful);
        weft_cost_note(WEFT_COST_FUSED, &f->key, (double)ns_planned / run);
    }
    if (weft_log_level() >= WEFT_LOG_INFO) {
        char shape[96];
        if (f->cols)
            snprintf(shape, sizeof shape, "%llu rows x %llu columns", (unsigned long long)f->tile,
                     (unsigned long long)f->ctile);
        else if (f->teams)
            snprintf(shape, sizeof shape, "%llu rows, each run by a team (%u teams)", (unsigned long long)f->tile,
                     f->teams);
        else
            snprintf(shape, sizeof shape, "%llu rows", (unsigned long long)f->tile);
        const bool two = f->st[1].s.meta != s0->meta;
        weft_log(WEFT_LOG_INFO,
                 "fuse: %u launches (%s%s%s) fused into %llu tiles of %s: K=%u, redundant rows %.0f of %llu (%.1f%%), "
                 "%.3f ms (%.3f ms with planning)",
                 f->chain.nstages, s0->name, two ? ", " : "", two ? f->st[1].s.name : "", (unsigned long long)f->tiles,
                 shape, f->chain.nstages, run - (double)useful, (unsigned long long)useful,
                 100.0 * (run - (double)useful) / (double)useful, (double)ns / 1e6, (double)ns_planned / 1e6);
    }
    return 0;
}
