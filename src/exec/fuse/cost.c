/* exec/fuse/cost.c — measured costs and planning decisions of fused chains (fuse/cost.h). */
#include "exec/fuse/cost.h"
#include "exec/fuse/fuse.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cache.h"

#define COST_SLOTS 64u

struct cost_entry {
    struct weft_cost_key key;
    double ring[WEFT_COST_WINDOW];   /* samples 2, 3, ... of the key, the newest at (samples-2) % W */
    bool used;                       /* false: a free slot */
    unsigned samples;                /* noted in all (fused entries: the chain's fused runs) */
    /* fused entries only: the decision state of the chain */
    bool rejected;
    unsigned retry_left, backoff;    /* launches until the next retry, and the wait after it */
    unsigned explore_left;           /* launches still to run unfused */
    bool remeasured;                 /* a window of launches ran unfused after the chain fused
                                        (weft_cost_remeasure_before_reject) */
    signed char two_levels;          /* weft_cost_two_levels: 1, 0, or -1 (not decided yet) */
    unsigned two_levels_stages;      /* ... decided on a chain of that many launches */
    /* the decision on disk (weft_cost_load_prior): read once; state as read or last stored */
    bool prior_loaded;
    enum { PRIOR_NONE, PRIOR_REJECTED, PRIOR_FUSED } prior_state;
    unsigned prior_form;
    double prior_ratio;
};

#define PRIOR_MAGIC 0x57454654465553ull   /* "WEFTFUS" */

/* What the disk cache holds for a chain: 16 bytes, the padding zeroed. */
struct prior_record {
    uint64_t magic;
    uint16_t state, form;
    float ratio;
};

static pthread_mutex_t cost_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cost_entry table[WEFT_COST_KINDS][COST_SLOTS];
static unsigned next_slot[WEFT_COST_KINDS];

static bool key_eq(const struct weft_cost_key *a, const struct weft_cost_key *b)
{
    return a->k0 == b->k0 && a->k1 == b->k1 && !memcmp(a->global, b->global, sizeof a->global) &&
           a->form == b->form;
}

static struct cost_entry *find(enum weft_cost_kind kind, const struct weft_cost_key *key)
{
    for (unsigned i = 0; i < COST_SLOTS; i++)
        if (table[kind][i].used && key_eq(&table[kind][i].key, key))
            return &table[kind][i];
    return NULL;
}

/* The entry of `key`, a new one (in the slot filled longest ago, round robin) if it has none. */
static struct cost_entry *find_or_add(enum weft_cost_kind kind, const struct weft_cost_key *key)
{
    struct cost_entry *e = find(kind, key);
    if (!e) {
        e = &table[kind][next_slot[kind]];
        next_slot[kind] = (next_slot[kind] + 1) % COST_SLOTS;
        *e = (struct cost_entry){.key = *key, .used = true, .backoff = WEFT_COST_RETRY_FIRST, .two_levels = -1};
    }
    return e;
}

struct weft_cost_key weft_cost_key_in_form(const struct weft_cost_key *key, unsigned form)
{
    struct weft_cost_key k = *key;
    k.form = form;
    return k;
}

/* The chain's entry: its one-level FUSED one, which holds its decisions. Called locked. */
static struct cost_entry *chain_entry(const struct weft_cost_key *key)
{
    struct weft_cost_key chain = weft_cost_key_in_form(key, WEFT_FUSE_FORM_ONE_LEVEL);
    return find_or_add(WEFT_COST_FUSED, &chain);
}

void weft_cost_note(enum weft_cost_kind kind, const struct weft_cost_key *key, double ns_per_row)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = find_or_add(kind, key);
    if (e->samples)
        e->ring[(e->samples - 1) % WEFT_COST_WINDOW] = ns_per_row;
    e->samples++;
    if (kind == WEFT_COST_FUSED && weft_cost_explore_due(e->samples))
        chain_entry(key)->explore_left = WEFT_COST_WINDOW;
    pthread_mutex_unlock(&cost_lock);
}

bool weft_cost_explore_due(unsigned fused_runs)
{
    if (fused_runs < WEFT_COST_EXPLORE_EVERY)
        return fused_runs == 4 || fused_runs == 8;
    return fused_runs % WEFT_COST_EXPLORE_EVERY == 0;
}

double weft_cost_get(enum weft_cost_kind kind, const struct weft_cost_key *key, unsigned min_samples)
{
    double v[WEFT_COST_WINDOW];
    unsigned n = 0;
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = find(kind, key);
    if (e && e->samples >= min_samples && e->samples >= 2) {
        n = e->samples - 1 < WEFT_COST_WINDOW ? e->samples - 1 : WEFT_COST_WINDOW;
        memcpy(v, e->ring, n * sizeof *v);
    }
    pthread_mutex_unlock(&cost_lock);
    /* insertion sort: at most WEFT_COST_WINDOW values */
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[(n - 1) / 2] : 0.0;
}

/* Fused runs must be measured at least this much faster per replaced launch row than unfused
 * ones to pay for their copies in and out. */
#define MIN_GAIN 0.10

enum weft_cost_verdict weft_cost_verdict(unsigned depth, unsigned stages, double ratio, bool measured, double useful,
                                         double unfused)
{
    if (ratio < WEFT_FUSE_MIN_RATIO || (measured && useful > 0 && useful > unfused * (1.0 - MIN_GAIN)))
        return WEFT_COST_VERDICT_REJECT;
    if (depth >= WEFT_FUSE_MIN_DEPTH)
        return WEFT_COST_VERDICT_FUSE;
    return depth == stages ? WEFT_COST_VERDICT_SHORT : WEFT_COST_VERDICT_REJECT;
}

int weft_cost_two_levels(const struct weft_cost_key *key, unsigned stages)
{
    pthread_mutex_lock(&cost_lock);
    const struct cost_entry *e = chain_entry(key);
    const int r = e->two_levels == 0 && stages > e->two_levels_stages ? -1 : e->two_levels;
    pthread_mutex_unlock(&cost_lock);
    return r;
}

void weft_cost_set_two_levels(const struct weft_cost_key *key, unsigned stages, bool worth)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    e->two_levels = worth ? 1 : 0;
    e->two_levels_stages = stages;
    pthread_mutex_unlock(&cost_lock);
}

bool weft_cost_remeasure_before_reject(const struct weft_cost_key *key)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    const bool again = !e->remeasured;
    if (again && e->explore_left == 0)   /* else a window is running: it is the re-measure */
        e->explore_left = WEFT_COST_WINDOW;
    pthread_mutex_unlock(&cost_lock);
    return again;
}

void weft_cost_reject(const struct weft_cost_key *key)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    if (!e->rejected) {
        e->rejected = true;
        e->retry_left = e->backoff;
        e->backoff = e->backoff < WEFT_COST_RETRY_MAX / 2 ? e->backoff * 2 : WEFT_COST_RETRY_MAX;
        e->explore_left = 0;
    }
    pthread_mutex_unlock(&cost_lock);
}

unsigned weft_cost_pick_form(const struct weft_cost_key *key, unsigned min_samples)
{
    const struct weft_cost_key one = weft_cost_key_in_form(key, WEFT_FUSE_FORM_ONE_LEVEL),
                               two = weft_cost_key_in_form(key, WEFT_FUSE_FORM_TWO_LEVELS);
    const double c1 = weft_cost_get(WEFT_COST_USEFUL, &one, min_samples);
    const double c2 = weft_cost_get(WEFT_COST_USEFUL, &two, min_samples);
    return c1 > 0 && (c2 == 0 || c2 < c1) ? WEFT_FUSE_FORM_TWO_LEVELS : WEFT_FUSE_FORM_ONE_LEVEL;
}

enum weft_cost_plan weft_cost_plan_launch(const struct weft_cost_key *key)
{
    enum weft_cost_plan r = WEFT_COST_PLAN;
    const struct weft_cost_key chain = weft_cost_key_in_form(key, WEFT_FUSE_FORM_ONE_LEVEL);
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = find(WEFT_COST_FUSED, &chain);
    if (e && e->rejected) {
        if (e->retry_left > 0) {
            e->retry_left--;
            r = WEFT_COST_SKIP;
        } else {
            e->rejected = false;
            r = WEFT_COST_RETRY;
        }
    } else if (e && e->explore_left > 0) {
        if (--e->explore_left == 0)
            e->remeasured = true;
        r = WEFT_COST_SKIP;
    }
    pthread_mutex_unlock(&cost_lock);
    return r;
}

void weft_cost_load_prior(const struct weft_cost_key *key, uint64_t (*disk_key)(const void *), const void *arg)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    bool loaded = e->prior_loaded;
    e->prior_loaded = true;
    pthread_mutex_unlock(&cost_lock);
    if (loaded)
        return;
    void *payload = NULL;
    size_t size = 0;
    struct prior_record r;
    bool ok = weft_cache_load(disk_key(arg), &payload, &size) && size == sizeof r;
    if (ok)
        memcpy(&r, payload, sizeof r);
    free(payload);
    if (!ok || r.magic != PRIOR_MAGIC || r.form >= WEFT_FUSE_FORMS || !(r.ratio >= 0.0f && r.ratio < 1e6f) ||
        (r.state != PRIOR_REJECTED && r.state != PRIOR_FUSED))
        return;
    pthread_mutex_lock(&cost_lock);
    e = chain_entry(key);
    e->prior_state = r.state;
    e->prior_form = r.form;
    e->prior_ratio = r.ratio;
    if (r.state == PRIOR_REJECTED && !e->rejected) {
        e->rejected = true;
        e->retry_left = e->backoff;
        e->explore_left = 0;
    }
    pthread_mutex_unlock(&cost_lock);
}

bool weft_cost_prior(const struct weft_cost_key *key, struct weft_cost_prior *out)
{
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    bool fused = e->prior_state == PRIOR_FUSED;
    if (fused) {
        out->form = e->prior_form;
        out->ratio = e->prior_ratio;
    }
    pthread_mutex_unlock(&cost_lock);
    return fused;
}

void weft_cost_store_prior(const struct weft_cost_key *key, uint64_t (*disk_key)(const void *), const void *arg,
                           bool rejected, unsigned form, double ratio)
{
    unsigned state = rejected ? PRIOR_REJECTED : PRIOR_FUSED;
    pthread_mutex_lock(&cost_lock);
    struct cost_entry *e = chain_entry(key);
    /* a ratio within 10 % of the stored one is the same decision: not written again */
    bool same = e->prior_state == state &&
                (rejected || (e->prior_form == form && fabs(e->prior_ratio - ratio) <= 0.1 * e->prior_ratio));
    if (!same) {
        e->prior_state = state;
        e->prior_form = form;
        e->prior_ratio = ratio;
    }
    pthread_mutex_unlock(&cost_lock);
    if (same)
        return;
    struct prior_record r;
    memset(&r, 0, sizeof r);
    r.magic = PRIOR_MAGIC;
    r.state = (uint16_t)state;
    r.form = (uint16_t)form;
    r.ratio = (float)ratio;
    weft_cache_store(disk_key(arg), &r, sizeof r);
}

