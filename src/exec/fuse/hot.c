/* exec/fuse/hot.c — the second level of hierarchical overlapped tiling (Zhou et al., HOT,
 * seed-notes 003-004 B.2.4 and Part C's option (b)).
 *
 * Level 1 is fuse.c's overlapped tiling with tiles of a core's L2 per thread of a team
 * (weft_fuse_team_budget) instead of one core's, one team of threads per last-level cache
 * domain (weft_fuse_teams: WEFT_FUSE_LEVELS=2 or WEFT_FUSE_DOMAINS=N; unset, measured against
 * one level where threads share a last-level cache, weft_fuse_team_candidate). A team runs
 * its level-1 tile together, in phases separated by a team barrier (exec/fuse/team.h): fill
 * the tile's windows, then each stage over the tile's region split into units of rows, then
 * write back what the tile owns. Each thread keeps to its own share of a stage's rows (a
 * core's L2 budget). Level 2 is thus
 * Zhou's K' = 1: the cores of a domain share each stage of the tile through the cache they
 * share, with no redundant work among them and one barrier per stage, against OT's copy of the
 * whole window set per core. Level-1 tiles are claimed in order from one counter by whichever
 * team is free; their borders wait for their neighbours as in fuse.c.
 *
 * Each stage of a tile runs as the launch would over the tile's windows: a work-item's reads
 * and writes within one launch never race (OpenCL leaves a launch whose work-items race
 * undefined), so splitting a stage's region among threads changes no result. */
#define _GNU_SOURCE
#include "exec/fuse/internal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "exec/fuse/team.h"
#include "exec/pool.h"
#include "exec/topology.h"

/* Bytes a unit of a copy phase moves, at least. */
#define COPY_CHUNK (128u << 10)
/* Units of a stage per thread of the team (so that a slow thread is waited for briefly). */
#define UNITS_PER_THREAD 4u

enum { PHASE_FILL = 0 };   /* then 1..K: stage phase-1; K+1: write back; K+2: the tile is done */

struct fuse_team {
    struct weft_team team;
    struct weft_fusion *f;
    unsigned threads;                     /* threads expected in the team (unit sizes) */
    uint64_t tile;
    unsigned phase;
    struct wset *w;                       /* the tile's windows; NULL between tiles */
    struct piece piece[MAX_STAGES][2];
    unsigned npiece[MAX_STAGES];
    struct weft_t2_band win[MAX_BUFS];
    bool has[MAX_BUFS];
    /* the current phase: copies move band[b] in `chunk`-byte units, buffer b's from
     * first_unit[b]; stages run rows [a, z) in units of `unit_rows` */
    struct weft_t2_band band[MAX_BUFS];
    unsigned first_unit[MAX_BUFS + 1];
    uint64_t chunk;
    bool border;                          /* write back: the last unit packs the border */
    uint64_t a, z, unit_rows;
};

/* ---- phases ----------------------------------------------------------------------------------- */

/* Sets up a copy phase over band[] (bands with lo == hi move nothing): its units. */
static unsigned copy_units(struct fuse_team *tm, unsigned extra)
{
    const struct weft_fusion *f = tm->f;
    uint64_t total = 0;
    for (unsigned b = 0; b < f->chain.nbufs; b++)
        total += (uint64_t)(tm->band[b].hi - tm->band[b].lo);
    const uint64_t most = WEFT_TEAM_MAX_UNITS - MAX_BUFS - extra;
    tm->chunk = total / most + 1 > COPY_CHUNK ? total / most + 1 : COPY_CHUNK;
    unsigned n = 0;
    for (unsigned b = 0; b < f->chain.nbufs; b++) {
        tm->first_unit[b] = n;
        n += (unsigned)(((uint64_t)(tm->band[b].hi - tm->band[b].lo) + tm->chunk - 1) / tm->chunk);
    }
    tm->first_unit[f->chain.nbufs] = n;
    return n + extra;
}

static void copy_unit(struct fuse_team *tm, unsigned u, enum fuse_copy how)
{
    const struct weft_fusion *f = tm->f;
    unsigned b = 0;
    while (b + 1 < f->chain.nbufs && u >= tm->first_unit[b + 1])
        b++;
    const int64_t lo = tm->band[b].lo + (int64_t)((u - tm->first_unit[b]) * tm->chunk);
    const int64_t hi = lo + (int64_t)tm->chunk < tm->band[b].hi ? lo + (int64_t)tm->chunk : tm->band[b].hi;
    const struct weft_t2_band part = {0, 1, lo, hi};
    fuse_band_copy(f, b, &part, tm->w->ptr[b], tm->w->lo[b], NULL, how);
}

/* Claims the next level-1 tile and allocates its windows; false when no tile is left. */
static bool claim_tile(struct fuse_team *tm)
{
    struct weft_fusion *f = tm->f;
    for (;;) {
        const uint64_t t = atomic_fetch_add(&f->next_tile, 1);
        if (t >= f->tiles)
            return false;
        tm->tile = t;
        fuse_plan_tile(f, t, tm->piece, tm->npiece, tm->win, tm->has);
        uint64_t hi[MAX_BUFS];
        if ((tm->w = fuse_open_windows(f, tm->win, tm->has, hi))) {
            for (unsigned b = 0; b < f->chain.nbufs; b++)
                tm->band[b] = (struct weft_t2_band){0, 1, (int64_t)tm->w->lo[b], (int64_t)hi[b]};
            return true;
        }
        /* out of memory: the run fails; the neighbours need not wait for this tile */
        atomic_store(&f->failed, true);
        atomic_store_explicit(&f->copied[t], 1, memory_order_release);
    }
}

/* Stage k's phase: its region of the tile in units of whole work-groups. */
static unsigned stage_units(struct fuse_team *tm, unsigned k)
{
    const struct weft_fusion *f = tm->f;
    if (!tm->npiece[k])
        return 0;
    tm->a = tm->piece[k][0].a;
    tm->z = tm->piece[k][0].b;
    const uint64_t align = f->chain.align, rows = tm->z - tm->a;
    uint64_t per = rows / ((uint64_t)tm->threads * UNITS_PER_THREAD);
    if (per < rows / (WEFT_TEAM_MAX_UNITS - 1) + 1)
        per = rows / (WEFT_TEAM_MAX_UNITS - 1) + 1;
    tm->unit_rows = (per + align - 1) / align * align;
    fuse_stage_args(f, tm->w, k, tm->w->args);
    return (unsigned)((rows + tm->unit_rows - 1) / tm->unit_rows);
}

/* The write-back phase: what the tile owns, or only what no neighbour reads while one still
 * has to fill its windows (the border then packed by the last unit). */
static unsigned write_back_units(struct fuse_team *tm)
{
    tm->border = fuse_write_now(tm->f, tm->w, tm->tile, tm->band);
    return copy_units(tm, tm->border);
}

/* fuse_team's set-up of the next phase: fill, stages 1..K, write back, then the next tile. */
static unsigned next_phase(void *ctx, bool first)
{
    struct fuse_team *tm = ctx;
    struct weft_fusion *f = tm->f;
    const unsigned K = f->chain.nstages;
    for (unsigned p = first ? K + 2 : tm->phase + 1;; p++) {
        if (p == K + 2) {
            if (tm->w) {
                fuse_wset_put(tm->w);
                tm->w = NULL;
                fuse_flush_deferred(f, false);
            }
            if (!claim_tile(tm))
                return 0;
            tm->phase = PHASE_FILL;
            unsigned n = copy_units(tm, 0);
            if (n)
                return n;
            /* nothing to fill (a tile whose windows lie past the buffers' ends, as the last
             * rows of an NDRange padded beyond the data): its first stage next, not p + 1 */
            p = PHASE_FILL;
            continue;
        }
        tm->phase = p;
        if (p == 1) {
            atomic_store_explicit(&f->copied[tm->tile], 1, memory_order_release);
            fuse_flush_deferred(f, false);
        }
        if (atomic_load(&f->failed)) {
            p = K + 1;   /* next: the tile is done */
            continue;
        }
        unsigned n = p <= K ? stage_units(tm, p - 1) : write_back_units(tm);
        if (n)
            return n;
    }
}

static void run_unit(void *ctx, unsigned u, void *thread_arg)
{
    struct fuse_team *tm = ctx;
    struct weft_fusion *f = tm->f;
    const unsigned K = f->chain.nstages;
    if (tm->phase == PHASE_FILL) {
        copy_unit(tm, u, COPY_IN);
    } else if (tm->phase <= K) {
        const uint64_t a = tm->a + u * tm->unit_rows, z = a + tm->unit_rows < tm->z ? a + tm->unit_rows : tm->z;
        fuse_run_region(&f->st[tm->phase - 1], tm->w->args, thread_arg, a, z, false, 0, 0);
        atomic_fetch_add_explicit(&f->items_run, (z - a) * f->row_items, memory_order_relaxed);
    } else if (tm->border && u == tm->first_unit[f->chain.nbufs]) {
        fuse_defer_border(f, tm->w, tm->tile);
    } else {
        copy_unit(tm, u, COPY_OUT);
    }
}

/* ---- running ------------------------------------------------------------------------------------ */

bool fuse_hot_init(struct weft_fusion *f)
{
    f->team = calloc(f->teams, sizeof *f->team);
    if (!f->team)
        return false;
    const unsigned threads = weft_pool_concurrency() / f->teams;
    for (unsigned i = 0; i < f->teams; i++) {
        weft_team_init(&f->team[i].team, threads ? threads : 1);
        f->team[i].f = f;
        f->team[i].threads = threads ? threads : 1;
    }
    atomic_init(&f->next_tile, 0);
    return true;
}

void fuse_hot_free(struct weft_fusion *f)
{
    if (!f->team)
        return;
    for (unsigned i = 0; i < f->teams; i++)
        if (f->team[i].w)
            fuse_wset_put(f->team[i].w);
    free(f->team);
    f->team = NULL;
}

/* The team of the cache domain the calling thread runs on. */
static unsigned own_team(const struct weft_fusion *f)
{
    const struct weft_topology *t = weft_topology_get();
    if (f->teams == t->llc_domains)
        return weft_topology_current_llc_domain() % f->teams;
    int cpu = sched_getcpu();
    return cpu >= 0 ? (unsigned)cpu % f->teams : 0;
}

void fuse_hot_worker(const void *arg, const struct weft_wg_ctx *wctx, uint64_t first, uint64_t count)
{
    (void)first, (void)count;
    struct weft_fusion *f = (struct weft_fusion *)arg;
    /* its own domain's team first; then it helps the others finish their last tiles */
    const unsigned own = own_team(f);
    for (unsigned i = 0; i < f->teams; i++) {
        struct fuse_team *tm = &f->team[(own + i) % f->teams];
        weft_team_work(&tm->team, tm, next_phase, run_unit, (void *)wctx);
    }
}
