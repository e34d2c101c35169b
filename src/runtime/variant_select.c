/* runtime/variant_select.c — micro-profiling between two variants (runtime/variant_select.h).
 *
 * Decisions live in a small open-addressing table (process lifetime, one mutex) and in the
 * disk cache as a 16-byte record: magic, chosen variant, and the two measured times in ns per
 * work-group (for the log of a later process).
 */
#include "runtime/variant_select.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "runtime/log.h"

#define TABLE_SIZE 1024u
#define RECORD_MAGIC 0x5745465453454cull   /* "WEFTSEL" */

struct decision {
    uint64_t key;   /* 0: empty */
    int choice;
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
    if (e && strcmp(e, "async") == 0)
        return WEFT_PROFILE_ASYNC;
    return WEFT_PROFILE_SYNC;
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

int weft_select_decision(uint64_t key)
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    int choice = d && d->key == key ? d->choice : -1;
    pthread_mutex_unlock(&table_lock);
    if (choice >= 0)
        return choice;
    void *payload = NULL;
    size_t size = 0;
    if (weft_cache_load(key, &payload, &size) && size == sizeof(struct record)) {
        struct record r;
        memcpy(&r, payload, sizeof r);
        if (r.magic == RECORD_MAGIC && r.choice <= 1)
            choice = (int)r.choice;
    }
    free(payload);
    if (choice >= 0) {
        pthread_mutex_lock(&table_lock);
        d = slot_for(key);
        if (d) {
            d->key = key;
            d->choice = choice;
        }
        pthread_mutex_unlock(&table_lock);
    }
    return choice;
}

static void remember(uint64_t key, int choice, const uint64_t ns_per_group[2])
{
    pthread_mutex_lock(&table_lock);
    struct decision *d = slot_for(key);
    if (d) {
        d->key = key;
        d->choice = choice;
    }
    pthread_mutex_unlock(&table_lock);
    struct record r = {RECORD_MAGIC, (uint32_t)choice,
                       {(uint32_t)(ns_per_group[0] > UINT32_MAX ? UINT32_MAX : ns_per_group[0]),
                        (uint32_t)(ns_per_group[1] > UINT32_MAX ? UINT32_MAX : ns_per_group[1])}};
    weft_cache_store(key, &r, sizeof r);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

int weft_select_run(struct weft_launch *launch, weft_wg_fn b, uint64_t key, const char *what)
{
    enum weft_profile_mode mode = weft_profile_setting();
    int choice = mode == WEFT_PROFILE_OFF ? 0 : weft_select_decision(key);
    if (choice == 1) {
        struct weft_launch other = *launch;
        other.fn = b;
        return weft_pool_run(&other);
    }
    if (choice == 0 || launch->total_groups < WEFT_SELECT_MIN_GROUPS)
        return weft_pool_run(launch);
    if (mode == WEFT_PROFILE_ASYNC) {
        static bool said;
        if (!said)
            weft_log(WEFT_LOG_INFO, "WEFT_PROFILE=async is not implemented; profiling synchronously");
        said = true;
    }
    /* Slices of at least one group per thread, about 1/16 of the launch in all. */
    uint64_t total = launch->total_groups, threads = weft_pool_concurrency();
    uint64_t slice = total / 16;
    if (slice < threads)
        slice = threads;
    if (4 * slice > total / 2)
        slice = total / 8;
    if (slice == 0)
        slice = 1;
    weft_wg_fn fns[2] = {launch->fn, b};
    static const int order[4] = {0, 1, 1, 0};
    uint64_t ns[2] = {0, 0}, groups[2] = {0, 0};
    for (int i = 0; i < 4; i++) {
        int rc = run_slice(launch, fns[order[i]], (uint64_t)i * slice, slice, &ns[order[i]]);
        if (rc != 0)
            return rc;
        groups[order[i]] += slice;
    }
    uint64_t per[2] = {ns[0] / groups[0], ns[1] / groups[1]};
    choice = per[1] < per[0] ? 1 : 0;
    remember(key, choice, per);
    weft_log(WEFT_LOG_INFO, "%s: profiled %llu+%llu work-groups: %s variant %llu ns/group, %s variant %llu ns/group; "
             "chose the %s", what, (unsigned long long)groups[0], (unsigned long long)groups[1], "first",
             (unsigned long long)per[0], "second", (unsigned long long)per[1], choice ? "second" : "first");
    uint64_t done = 4 * slice;
    if (done >= total)
        return 0;
    uint64_t ignored = 0;
    return run_slice(launch, fns[choice], done, total - done, &ignored);
}

void weft_select_forget(void)
{
    pthread_mutex_lock(&table_lock);
    memset(table, 0, sizeof table);
    pthread_mutex_unlock(&table_lock);
}
