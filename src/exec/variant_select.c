/* exec/variant_select.c — micro-profiling between two variants (exec/variant_select.h).
 *
 * Decisions live in a small open-addressing table (process lifetime, one mutex) and in the disk
 * cache as a 16-byte record: magic, chosen variant, and the two measured times in thread-ns per
 * work-group (what a later process compares its launches with before reopening it).
 */
#include "exec/variant_select.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/trace.h"

#define TABLE_SIZE 1024u
#define RECORD_MAGIC 0x5745465453454cull   /* "WEFTSEL" */
/* a decision after its first profiled round only: a later process profiles once more, then
 * decides for good (a program that launches a kernel once per process, as a one-launch GEMM
 * does, would otherwise profile in every process and never keep a decision) */
#define RECORD_MAGIC_ROUND1 0x5745465453454dull

struct decision {
    uint64_t key;   /* 0: empty */
    int choice;     /* the latest round's winner */
    int rounds;     /* profiled launches so far; final at WEFT_SELECT_ROUNDS (or from disk) */
    bool verified;  /* WEFT_VERIFY compared the pair in this process */
    uint64_t basis; /* the winner's thread-ns per group when it won (0: unknown) */
    int reopened;   /* times a heavier launch reopened it in this process */
    int heavy;      /* launches since the last reopening that were REOPEN_FACTOR times heavier */
    bool light;     /* a launch of it within the bound ran in this process */
};

static struct decision table[TABLE_SIZE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

struct record {
    uint64_t magic;
    uint32_t choice;
    uint32_t ns_per_group[2];
};

enum weft_profile_mode weft_profile_setting(void)
{
    const char *e = getenv("WEFT_PROFILE");
    if (e && strcmp(e, "off") == 0)
        return WEFT_PROFILE_OFF;
    if (e && strcmp(e, "sync") == 0)
        return WEFT_PROFILE_SYNC;
    return WEFT_PROFILE_ASYNC;
}

uint64_t weft_select_key(uint64_t key_a, uint64_t key_b, const uint64_t global[3], const uint64_t local[3])
{
    uint64_t h = weft_hash64(&key_a, sizeof key_a, 0x73656c656374ull);
    h = weft_hash64(&key_b, sizeof key_b, h);
    h = weft_hash64(global, 3 * sizeof global[0], h);
    h = weft_hash64(local, 3 * sizeof local[0], h);
    return h ? h : 1;
}

static struct decision *slot_for(uint64_t key)
{
    for (unsigned i = 0; i < TABLE_SIZE; i++) {
        struct decision *d = &table[(key + i) % TABLE_SIZE];
        if (d->key == key || d->key == 0)
            return d;
    }
    return NULL;   /* full: decisions are not kept (profiling runs again) */
}

/* A launch that runs a decided variant is timed as a whole (two clock reads). When its groups
 * take REOPEN_FACTOR times longer per thread than the winner's did when it won, and at least
 * REOPEN_MIN_NS each, the decision was made on groups unlike these (Rodinia's bfs: its first
 * launches have a frontier of a few nodes, so every profiled group is all idle lanes and checks
 * a mask; ten launches later every group walks edge lists): the next launch profiles again,
 * one more round, and its decision (final again) replaces the old one, on disk too. The basis
 * grows at least REOPEN_FACTOR times with each reopening, and at most REOPEN_MAX happen per key
 * and process, so a kernel whose cost keeps growing is profiled a bounded number of times. */
#define REOPEN_FACTOR 8u
#define REOPEN_MIN_NS 1000u
#define REOPEN_MAX 4
/* Heavier launches it takes to reopen, counted only after a launch within the bound in this
 * process: a process's first launches of a kernel pay for cold caches, first-touch page faults
 * of fresh buffers and loading its code (kmeans_assign's first was 12x its basis on the 2-core
 * EPYC, and its reopened round ran the 50x slower second variant's slices; Jacobi-2D's first
 * two, one per buffer of its ping-pong pair, were 18x on the 16-core Xeon). A kernel whose
 * work really grew (bfs: first frontiers of a few nodes) was light first and keeps being
 * heavier. */
#define REOPEN_HEAVY_LAUNCHES 2

/* The winner so far (-1: never profiled) and whether it is final; *basis (may be NULL): what a
 * launch of the winner is compared with to reopen the decision, 0 when it may not be reopened
 * (unknown, rejected, or reopened REOPEN_MAX times). The disk cache is read once per key and
 * process: launches that are never profiled (too few groups) do not pay for it. */
static int lookup(uint64_t key, bool *final, uint64_t *basis_out, bool *light_out)
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    bool known = d && d->key == key;
    int choice = known ? d->choice : -1;
    *final = known && d->rounds >= WEFT_SELECT_ROUNDS;
    if (basis_out)
        *basis_out = known && d->reopened < REOPEN_MAX ? d->basis : 0;
    if (light_out)
        *light_out = known && d->light;
    pthread_mutex_unlock(&table_lock);
    if (known)
        return choice;
    void *payload = NULL;
    size_t size = 0;
    int stored = -1;
    bool provisional = false;
    uint64_t basis = 0;
    if (weft_cache_load(key, &payload, &size) && size == sizeof(struct record)) {
        struct record r;
        memcpy(&r, payload, sizeof r);
        if ((r.magic == RECORD_MAGIC || r.magic == RECORD_MAGIC_ROUND1) && r.choice <= 1) {
            stored = (int)r.choice;
            provisional = r.magic == RECORD_MAGIC_ROUND1;
            basis = r.ns_per_group[r.choice];
        }
    }
    free(payload);
    pthread_mutex_lock(&table_lock);
    d = slot_for(key);
    if (d && d->key != key) {
        d->key = key;
        d->choice = stored;
        d->rounds = stored < 0 ? 0 : provisional ? 1 : WEFT_SELECT_ROUNDS;
        d->basis = basis;
        d->reopened = 0;
        d->heavy = 0;
        d->light = false;
        d->verified = false;
    }
    pthread_mutex_unlock(&table_lock);
    *final = stored >= 0 && !provisional;
    if (light_out)
        *light_out = false;
    if (basis_out)
        *basis_out = basis;
    return stored;
}

int weft_select_decision(uint64_t key)
{
    bool final = false;
    int choice = lookup(key, &final, NULL, NULL);
    return final ? choice : -1;
}

int weft_select_latest(uint64_t key)
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    int choice = d && d->key == key ? d->choice : -1;
    pthread_mutex_unlock(&table_lock);
    return choice;
}

/* Records one profiled launch, and the decision so far in the disk cache: final after
 * WEFT_SELECT_ROUNDS, provisional before (RECORD_MAGIC_ROUND1). `ns_per_group`: thread-ns. */
static void remember(uint64_t key, int choice, const uint64_t ns_per_group[2])
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    bool final = false;
    if (d) {
        if (d->key != key) {
            d->rounds = 0;
            d->reopened = 0;
            d->light = false;
            d->verified = false;
        }
        d->heavy = 0;
        d->rounds++;
        d->key = key;
        d->choice = choice;
        d->basis = ns_per_group[choice];
        final = d->rounds >= WEFT_SELECT_ROUNDS;
    }
    pthread_mutex_unlock(&table_lock);
    struct record r;
    memset(&r, 0, sizeof r);   /* the padding too: the bytes go to disk */
    r.magic = final ? RECORD_MAGIC : RECORD_MAGIC_ROUND1;
    r.choice = (uint32_t)choice;
    for (int i = 0; i < 2; i++)
        r.ns_per_group[i] = (uint32_t)(ns_per_group[i] > UINT32_MAX ? UINT32_MAX : ns_per_group[i]);
    weft_cache_store(key, &r, sizeof r);
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static _Atomic(weft_select_clock_fn) clock_fn = monotonic_ns;

void weft_select_set_clock(weft_select_clock_fn fn)
{
    atomic_store(&clock_fn, fn ? fn : monotonic_ns);
}

static uint64_t now_ns(void)
{
    return atomic_load(&clock_fn)();
}

/* Runs groups [first, first + count) of the launch with fn; returns the pool's status and
 * adds the elapsed time to *ns. */
static int run_slice(const struct weft_launch *whole, weft_wg_fn fn, uint64_t first, uint64_t count, uint64_t *ns)
{
    struct weft_launch part = *whole;
    part.fn = fn;
    part.first_group = whole->first_group + first;
    part.total_groups = count;
    uint64_t t0 = now_ns();
    int rc = weft_pool_run(&part);
    *ns += now_ns() - t0;
    return rc;
}

/* run_slice for a profiling slice (`which` of the pair), recorded in WEFT_TRACE's trace. */
static int profile_slice(const struct weft_launch *whole, weft_wg_fn fn, int which, uint64_t first, uint64_t count,
                         uint64_t *ns, const char *what)
{
    uint64_t t0 = weft_trace_enabled ? weft_now_ns() : 0;
    int rc = run_slice(whole, fn, first, count, ns);
    if (weft_trace_enabled)
        weft_trace_record(WEFT_TRACE_PROFILE, 0, t0, weft_now_ns() - t0, what, NULL, (uintptr_t)fn, count,
                          (uint64_t)which, 0);
    return rc;
}

/* Profiling slices: about 1/16 of the launch in all but at most MAX_SLICE groups each (enough
 * to time, little spent on the loser), at least one group per thread each, at most half the
 * launch. */
#define MAX_SLICE 256u
/* How much faster per group the second variant must be to replace the first. */
#define SWITCH_MARGIN_PERCENT 10u

static uint64_t slice_size(uint64_t total)
{
    uint64_t threads = weft_pool_concurrency();
    uint64_t slice = total / 16;
    if (slice > MAX_SLICE)
        slice = MAX_SLICE;
    if (slice < threads)
        slice = threads;
    if (4 * slice > total / 2)
        slice = total / 8;
    return slice ? slice : 1;
}

/* Slices run in the order A B B A, so neither variant alone pays for cold caches. */
static const int slice_variant[4] = {0, 1, 1, 0};

static int decide(uint64_t key, const uint64_t ns[2], const uint64_t groups[2], const char *what, const char *how,
                  const weft_wg_fn fns[2])
{
    uint64_t per[2] = {ns[0] / (groups[0] ? groups[0] : 1), ns[1] / (groups[1] ? groups[1] : 1)};
    /* the second variant must win by a margin: the first is the default, and memory-bound
     * kernels measure within a few percent of themselves from one slice to the next */
    int choice = per[1] * (100 + SWITCH_MARGIN_PERCENT) < per[0] * 100 ? 1 : 0;
    /* a sync slice is timed around a whole pool launch: its threads shared the time */
    uint64_t threads = strcmp(how, "sync") == 0 ? weft_pool_concurrency() : 1;
    remember(key, choice, (const uint64_t[2]){per[0] * threads, per[1] * threads});
    weft_log(WEFT_LOG_INFO, "%s: profiled (%s) %llu+%llu work-groups: first variant %llu ns/group, second "
             "variant %llu ns/group; chose the %s", what, how, (unsigned long long)groups[0],
             (unsigned long long)groups[1], (unsigned long long)per[0], (unsigned long long)per[1],
             choice ? "second" : "first");
    if (weft_trace_enabled) {
        uint64_t a = per[0] > UINT32_MAX ? UINT32_MAX : per[0], b = per[1] > UINT32_MAX ? UINT32_MAX : per[1];
        weft_trace_record(WEFT_TRACE_DECIDE, 0, weft_now_ns(), 0, what, how, (uintptr_t)fns[0], (uintptr_t)fns[1],
                          (uint64_t)choice, a << 32 | b);
    }
    return choice;
}

/* A variant whose groups have cost LOSER_FACTOR times the other's cannot win (the second needs
 * to be SWITCH_MARGIN_PERCENT faster): its remaining slices are not run. Without this, a launch
 * paid the loser's whole slices: kmeans_assign's second variant costs 50x the first per group,
 * and its two slices of 256 groups made a profiled launch 6x slower than the kernel (2-core
 * EPYC). */
#define LOSER_FACTOR 2u

/* Whether the measurements so far show variant `v` losing by LOSER_FACTOR. */
static bool losing(int v, const uint64_t ns[2], const uint64_t groups[2])
{
    if (!groups[0] || !groups[1])
        return false;
    /* per[v] > LOSER_FACTOR * per[1 - v], cross-multiplied */
    return (unsigned __int128)ns[v] * groups[1 - v] > (unsigned __int128)LOSER_FACTOR * ns[1 - v] * groups[v];
}

static int run_sync(struct weft_launch *launch, weft_wg_fn b, uint64_t key, const char *what)
{
    uint64_t total = launch->total_groups, slice = slice_size(total);
    weft_wg_fn fns[2] = {launch->fn, b};
    uint64_t ns[2] = {0, 0}, groups[2] = {0, 0}, done = 0;
    for (int i = 0; i < 4; i++) {
        int rc = profile_slice(launch, fns[slice_variant[i]], slice_variant[i], done, slice, &ns[slice_variant[i]],
                               what);
        if (rc != 0)
            return rc;
        groups[slice_variant[i]] += slice;
        done += slice;
        if (losing(0, ns, groups) || losing(1, ns, groups))
            break;
    }
    int choice = decide(key, ns, groups, what, "sync", fns);
    if (done >= total)
        return 0;
    uint64_t ignored = 0;
    return run_slice(launch, fns[choice], done, total - done, &ignored);
}

/* Asynchronous orchestration: one launch whose work-group function is a trampoline. The pool
 * hands out groups from 0 upward, so the profiling slices (the first 4 slices) are claimed
 * first; other groups run with the best variant known when each starts (the latest winner, or
 * the first variant), one group at a time until the profile completes. A slice runs in steps
 * that grow from 1/64 of it, each timed, and neither variant runs more than one step ahead of
 * the other; the profile completes when its last profiled group finishes, or earlier when one
 * variant is losing by LOSER_FACTOR after at least two steps of each (the rest of every slice
 * then runs the winner). Whoever completes it decides. */
struct async_state {
    const void *args;
    weft_wg_fn fn[2];
    uint64_t slice, first_group;
    _Atomic uint64_t ns[2], groups[2], steps[2], profiled;
    _Atomic int best;
    _Atomic bool deciding, decided;
    uint64_t key;
    const char *what;
};

/* Decides once, from what was measured so far. */
static void async_decide(struct async_state *st)
{
    if (atomic_exchange(&st->deciding, true))
        return;
    uint64_t ns[2] = {atomic_load(&st->ns[0]), atomic_load(&st->ns[1])};
    uint64_t groups[2] = {atomic_load(&st->groups[0]), atomic_load(&st->groups[1])};
    atomic_store(&st->best, decide(st->key, ns, groups, st->what, "async", st->fn));
    atomic_store(&st->decided, true);
}

static void async_trampoline(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    struct async_state *st = (struct async_state *)args;
    uint64_t rel = first - st->first_group, end = rel + count, profile_end = 4 * st->slice;
    while (rel < end) {
        /* `deciding`, not `decided`: the decision writes to the disk cache, and steps that kept
         * running meanwhile doubled until the loser had run most of its slices */
        if (rel >= profile_end || atomic_load(&st->deciding)) {
            /* until the profile is complete, one group at a time with the best known so far,
             * so that a chunk claimed early does not run all its groups on the loser */
            while (rel < end && !atomic_load(&st->decided)) {
                st->fn[atomic_load(&st->best)](st->args, ctx, st->first_group + rel, 1);
                rel++;
            }
            if (rel < end)
                st->fn[atomic_load(&st->best)](st->args, ctx, st->first_group + rel, end - rel);
            return;
        }
        uint64_t s = rel / st->slice, stop = (s + 1) * st->slice;
        if (stop > end)
            stop = end;
        int v = slice_variant[s];
        uint64_t base = st->slice / 64 ? st->slice / 64 : 1;
        while (rel < stop && !atomic_load(&st->deciding)) {
            /* a variant does not run more than one step ahead of the other: when the thread of
             * the other's slice is late (descheduled, still waking), this thread measures both,
             * and a losing variant never runs a whole slice before anything compares it */
            uint64_t done_v = atomic_load(&st->steps[v]), done_o = atomic_load(&st->steps[1 - v]);
            int u = done_v > done_o + 1 ? 1 - v : v;
            uint64_t k = u == v ? done_v : done_o;   /* the variant's steps double */
            uint64_t step = base << (k < 6 ? k : 6), n = stop - rel < step ? stop - rel : step;
            uint64_t t0 = now_ns(), tt = weft_trace_enabled ? weft_now_ns() : 0;
            st->fn[u](st->args, ctx, st->first_group + rel, n);
            atomic_fetch_add(&st->ns[u], now_ns() - t0);
            if (weft_trace_enabled)
                weft_trace_record(WEFT_TRACE_PROFILE, 0, tt, weft_now_ns() - tt, st->what, NULL, (uintptr_t)st->fn[u],
                                  n, (uint64_t)u, 0);
            atomic_fetch_add(&st->groups[u], n);
            atomic_fetch_add(&st->steps[u], 1);
            rel += n;
            uint64_t ns[2] = {atomic_load(&st->ns[0]), atomic_load(&st->ns[1])};
            uint64_t groups[2] = {atomic_load(&st->groups[0]), atomic_load(&st->groups[1])};
            bool enough = atomic_load(&st->steps[0]) >= 2 && atomic_load(&st->steps[1]) >= 2;
            if (atomic_fetch_add(&st->profiled, n) + n == profile_end ||
                (enough && (losing(0, ns, groups) || losing(1, ns, groups))))
                async_decide(st);
        }
    }
}

static int run_async(struct weft_launch *launch, weft_wg_fn b, uint64_t key, const char *what, int best)
{
    struct async_state st = {.args = launch->args, .fn = {launch->fn, b}, .slice = slice_size(launch->total_groups),
                             .first_group = launch->first_group, .key = key, .what = what};
    atomic_init(&st.best, best);
    atomic_init(&st.deciding, false);
    atomic_init(&st.decided, false);
    struct weft_launch tramp = *launch;
    tramp.fn = async_trampoline;
    tramp.args = &st;
    /* chunks no larger than a slice: the slices go to different threads, each thread times
     * both variants, and the profile completes early */
    tramp.max_chunk = st.slice;
    return weft_pool_run(&tramp);
}

/* Whether the launch of `groups` groups that took `ns` (whole, on the calling thread) makes
 * `key`'s decision, decided on `basis` (lookup), worth profiling again; reopens it if so.
 * `light`: a launch within the bound ran in this process already (lookup). The lock is taken
 * only for heavy launches and the first light one: the others cost two clock reads. */
static void maybe_reopen(uint64_t key, uint64_t basis, bool light, uint64_t ns, uint64_t groups, const char *what)
{
    uint64_t per = ns * weft_pool_concurrency() / (groups ? groups : 1);
    if (!basis)
        return;
    bool heavy = per >= REOPEN_MIN_NS && per / REOPEN_FACTOR > basis;
    if (!heavy && light)
        return;
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    /* still that decision: another launch of the key may have reopened it meanwhile */
    bool still = d && d->key == key && d->rounds >= WEFT_SELECT_ROUNDS && d->reopened < REOPEN_MAX &&
                 d->basis == basis;
    bool reopen = false;
    if (still && !heavy)
        d->light = true;   /* once per key and process */
    else if (still && d->light && ++d->heavy >= REOPEN_HEAVY_LAUNCHES) {
        d->rounds = WEFT_SELECT_ROUNDS - 1;
        d->reopened++;
        d->heavy = 0;
        reopen = true;
    }
    pthread_mutex_unlock(&table_lock);
    if (reopen)
        weft_log(WEFT_LOG_INFO, "%s: this launch took %llu ns/group per thread, more than %ux the %llu its "
                 "variant was chosen on: the next launch profiles again", what, (unsigned long long)per,
                 REOPEN_FACTOR, (unsigned long long)basis);
}

uint64_t weft_select_min_groups(void)
{
    uint64_t per_threads = (uint64_t)WEFT_SELECT_GROUPS_PER_THREAD * weft_pool_concurrency();
    return per_threads > WEFT_SELECT_MIN_GROUPS ? per_threads : WEFT_SELECT_MIN_GROUPS;
}

int weft_select_run(struct weft_launch *launch, weft_wg_fn b, uint64_t key, const char *what, bool *profiled)
{
    enum weft_profile_mode mode = weft_profile_setting();
    bool final = false;
    uint64_t basis = 0;
    bool light = false;
    int choice = mode == WEFT_PROFILE_OFF ? 0 : lookup(key, &final, &basis, &light);
    bool profile = mode != WEFT_PROFILE_OFF && !final && launch->total_groups >= weft_select_min_groups();
    if (profiled)
        *profiled = profile;
    if (!profile) {
        struct weft_launch run = *launch;
        if (choice == 1)
            run.fn = b;
        if (!final || !basis || launch->total_groups < weft_select_min_groups())
            return weft_pool_run(&run);
        uint64_t t0 = now_ns();
        int rc = weft_pool_run(&run);
        if (rc == 0)
            maybe_reopen(key, basis, light, now_ns() - t0, launch->total_groups, what);
        return rc;
    }
    return mode == WEFT_PROFILE_SYNC ? run_sync(launch, b, key, what)
                                     : run_async(launch, b, key, what, choice < 0 ? 0 : choice);
}

bool weft_select_claim_verify(uint64_t key)
{
    bool final = false;
    lookup(key, &final, NULL, NULL);   /* the slot, with what the disk holds */
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    bool claim = d && d->key == key && !d->verified;
    if (claim)
        d->verified = true;
    pthread_mutex_unlock(&table_lock);
    return claim;
}

void weft_select_reject(uint64_t key)
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    if (d) {
        d->key = key;
        d->choice = 0;
        d->rounds = WEFT_SELECT_ROUNDS;
        d->verified = true;
        d->basis = 0;   /* never reopened: the pair disagreed */
    }
    pthread_mutex_unlock(&table_lock);
    /* a second variant chosen by an earlier process is replaced on disk too */
    struct record r;
    memset(&r, 0, sizeof r);
    r.magic = RECORD_MAGIC;
    weft_cache_store(key, &r, sizeof r);
}

void weft_select_forget(void)
{
    pthread_mutex_lock(&table_lock);
    memset(table, 0, sizeof table);
    pthread_mutex_unlock(&table_lock);
}
