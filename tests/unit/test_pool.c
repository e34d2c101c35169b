/* tests/unit/test_pool.c — the worker pool (exec/pool.h) with hand-written work-group
 * functions that record what ran where: every group runs exactly once for many launch sizes
 * and group costs, each thread has its own aligned local arena and scratch (reused across
 * launches, grown when a launch needs more), launches from two threads never mix, a launch's
 * calls get the stack it asks for on every thread (a thread whose own stack is small included)
 * and one over the limit is refused, WEFT_NUM_THREADS sets the concurrency, a pool of a
 * sub-device's runs its launches alone and stops when freed, idle workers sleep. Prints the per-launch overhead
 * (never asserted). The process runs with WEFT_NUM_THREADS=4 (set before the pool starts). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>

#include "exec/pool.h"
#include "runtime/device.h"
#include "weft/abi.h"

#define NUM_THREADS 4
#define MAX_THREADS 16

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- per-thread identity: a small index per OS thread that ever ran a group -------------- */

static atomic_int next_tid;
static _Thread_local int my_tid = -1;
static pid_t os_tids[MAX_THREADS];

static int tid(void)
{
    if (my_tid < 0) {
        my_tid = atomic_fetch_add(&next_tid, 1);
        if (my_tid < MAX_THREADS)
            os_tids[my_tid] = (pid_t)syscall(SYS_gettid);
    }
    return my_tid;
}

/* ---- a recording work-group function ------------------------------------------------------ */

struct record {
    uint64_t total;
    _Atomic uint32_t *counts;            /* per group: how many times it ran */
    atomic_bool bad_range;               /* a call got a range outside [0, total) or count 0 */
    atomic_bool bad_ctx;                 /* ctx fields differ from the launch's */
    atomic_bool clobbered;               /* another thread wrote into our arena or scratch */
    const struct weft_launch *launch;
    size_t fill;                         /* bytes of local/scratch each group fills and checks */
    unsigned spin_until_threads;         /* groups wait (bounded) until this many threads took part */
    uint64_t spin_deadline;              /* ... or until this time (CLOCK_MONOTONIC ns) */
    atomic_uint threads_seen_mask;
    char *local_of[MAX_THREADS];         /* per thread: last ctx->local_mem / scratch / ctx seen */
    char *scratch_of[MAX_THREADS];
    const struct weft_wg_ctx *ctx_of[MAX_THREADS];
    atomic_bool tid_overflow;
};

static void record_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    struct record *r = (struct record *)args;
    int t = tid();
    if (t >= MAX_THREADS) {
        atomic_store(&r->tid_overflow, true);
        t = MAX_THREADS - 1;
    }
    r->local_of[t] = ctx->local_mem;
    r->scratch_of[t] = ctx->scratch;
    r->ctx_of[t] = ctx;
    atomic_fetch_or(&r->threads_seen_mask, 1u << t);
    const struct weft_wg_ctx *want = &r->launch->ctx;
    if (ctx->work_dim != want->work_dim || memcmp(ctx->global_size, want->global_size, sizeof want->global_size) ||
        memcmp(ctx->local_size, want->local_size, sizeof want->local_size) ||
        memcmp(ctx->global_offset, want->global_offset, sizeof want->global_offset) ||
        memcmp(ctx->num_groups, want->num_groups, sizeof want->num_groups) || ctx->printf_buf != want->printf_buf ||
        !ctx->local_mem || !ctx->scratch || (uintptr_t)ctx->local_mem % WEFT_LOCAL_ALIGN ||
        (uintptr_t)ctx->scratch % WEFT_LOCAL_ALIGN)
        atomic_store(&r->bad_ctx, true);
    if (count == 0 || first >= r->total || count > r->total - first) {
        atomic_store(&r->bad_range, true);
        return;
    }
    for (uint64_t g = first; g < first + count; g++) {
        atomic_fetch_add(&r->counts[g], 1);
        if (r->spin_until_threads) {
            /* Hold the group until enough threads joined, so they all demonstrably run
             * groups of this launch (bounded: a missing thread shows up in the mask). */
            while ((unsigned)__builtin_popcount(atomic_load(&r->threads_seen_mask)) < r->spin_until_threads &&
                   now_ns() < r->spin_deadline)
                sched_yield();
        }
        if (r->fill) {
            unsigned char tag = (unsigned char)(g * 7 + 1);
            memset(ctx->local_mem, tag, r->fill);
            memset(ctx->scratch, tag ^ 0xff, r->fill);
            sched_yield(); /* give another thread the chance to clobber a shared area */
            for (size_t i = 0; i < r->fill; i += 61)
                if ((unsigned char)ctx->local_mem[i] != tag || (unsigned char)ctx->scratch[i] != (tag ^ 0xff))
                    atomic_store(&r->clobbered, true);
        }
    }
}

static struct weft_launch make_launch(struct record *r, uint64_t total, size_t local_bytes, size_t scratch_bytes)
{
    memset(r, 0, sizeof *r);
    r->total = total;
    r->counts = calloc(total ? total : 1, sizeof *r->counts);
    assert_non_null(r->counts);
    struct weft_launch l;
    memset(&l, 0, sizeof l);
    l.fn = record_fn;
    l.args = r;
    l.ctx.work_dim = 1;
    for (int d = 0; d < 3; d++) {
        l.ctx.global_size[d] = 1;
        l.ctx.local_size[d] = 1;
        l.ctx.num_groups[d] = 1;
    }
    l.ctx.global_size[0] = total * 4;
    l.ctx.local_size[0] = 4;
    l.ctx.num_groups[0] = total;
    l.ctx.global_offset[0] = 5;
    l.total_groups = total;
    l.local_mem_size = local_bytes;
    l.scratch_size = scratch_bytes;
    return l;
}

static void check_exactly_once(struct record *r, uint64_t total)
{
    assert_false(atomic_load(&r->bad_range));
    assert_false(atomic_load(&r->bad_ctx));
    assert_false(atomic_load(&r->tid_overflow));
    for (uint64_t g = 0; g < total; g++) {
        if (atomic_load(&r->counts[g]) != 1)
            fail_msg("launch of %llu groups: group %llu ran %u times", (unsigned long long)total,
                     (unsigned long long)g, (unsigned)atomic_load(&r->counts[g]));
    }
}

/* ---- tests -------------------------------------------------------------------------------- */

static void test_concurrency_follows_weft_num_threads(void **state)
{
    assert_int_equal(weft_pool_concurrency(), NUM_THREADS);
    assert_int_equal(weft_device_worker_count(), NUM_THREADS);
}

static void test_every_group_exactly_once(void **state)
{
    static const uint64_t sizes[] = {1, 2, 3, 4, 5, 7, 13, 64, 100, 257, 1000, 4099, 65537, 300000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct record r;
        struct weft_launch l = make_launch(&r, sizes[i], 0, 0);
        r.launch = &l;
        assert_int_equal(weft_pool_run(&l), 0);
        check_exactly_once(&r, sizes[i]);
        free(r.counts);
    }
}

/* Groups of uneven cost (every 5th slow) perturb which thread claims which chunk. */
static void slow_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    for (uint64_t g = first; g < first + count; g++)
        if (g % 5 == 0)
            for (volatile int spin = 0; spin < 2000; spin++)
                ;
    record_fn(args, ctx, first, count);
}

static void test_uneven_groups_exactly_once(void **state)
{
    static const uint64_t sizes[] = {2, 9, 31, 500, 5003};
    for (int rep = 0; rep < 3; rep++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            struct record r;
            struct weft_launch l = make_launch(&r, sizes[i], 256, 64);
            l.fn = slow_fn;
            r.launch = &l;
            assert_int_equal(weft_pool_run(&l), 0);
            check_exactly_once(&r, sizes[i]);
            free(r.counts);
        }
    }
}

/* The three ways a launch's groups are handed out (exec/pool.c, Chunking): per-thread ranges
 * (a 1-D grid, or a 2-D one with grid_ranges), one guided range (a 2-D grid), one range in
 * capped chunks (max_chunk) each run every group exactly once, with uneven group costs, and a
 * capped launch never gets a chunk past its cap. */
static _Atomic uint64_t largest_chunk;

static void capped_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    uint64_t seen = atomic_load(&largest_chunk);
    while (count > seen && !atomic_compare_exchange_weak(&largest_chunk, &seen, count))
        ;
    slow_fn(args, ctx, first, count);
}

static void test_every_partition_exactly_once(void **state)
{
    static const uint64_t sizes[] = {2, 3, 17, 500, 4099};
    static const struct {
        uint64_t rows, cap;   /* groups in dimension 1 (2: a 2-D grid), max_chunk */
        bool grid_ranges;
    } kinds[] = {{1, 0, false}, {2, 0, false}, {2, 0, true}, {1, 1, false}, {2, 3, false}, {2, 3, true}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            struct record r;
            struct weft_launch l = make_launch(&r, sizes[i], 0, 0);
            l.ctx.num_groups[1] = kinds[k].rows;
            l.max_chunk = kinds[k].cap;
            l.grid_ranges = kinds[k].grid_ranges;
            l.fn = capped_fn;
            r.launch = &l;
            atomic_store(&largest_chunk, 0);
            assert_int_equal(weft_pool_run(&l), 0);
            check_exactly_once(&r, sizes[i]);
            if (kinds[k].cap && atomic_load(&largest_chunk) > kinds[k].cap)
                fail_msg("max_chunk %llu: a chunk of %llu groups", (unsigned long long)kinds[k].cap,
                         (unsigned long long)atomic_load(&largest_chunk));
            free(r.counts);
        }
}

/* Which launches are cut into per-thread ranges: 1-D grids, and 2-D or 3-D ones with
 * grid_ranges; never a capped launch. */
static void test_ranges_by_grid(void **state)
{
    (void)state;
    struct weft_launch l = {0};
    l.ctx.num_groups[0] = 64;
    l.ctx.num_groups[1] = l.ctx.num_groups[2] = 1;
    assert_int_equal(weft_pool_ranges(&l, 16), 16);
    l.ctx.num_groups[2] = 5;
    assert_int_equal(weft_pool_ranges(&l, 16), 1);
    l.grid_ranges = true;
    assert_int_equal(weft_pool_ranges(&l, 16), 16);
    l.ctx.num_groups[1] = 3;
    assert_int_equal(weft_pool_ranges(&l, 4), 4);
    l.max_chunk = 2;
    assert_int_equal(weft_pool_ranges(&l, 16), 1);
    l.ctx.num_groups[1] = l.ctx.num_groups[2] = 1;
    assert_int_equal(weft_pool_ranges(&l, 16), 1);
}

static void test_zero_groups_runs_nothing(void **state)
{
    struct record r;
    struct weft_launch l = make_launch(&r, 0, 0, 0);
    r.launch = &l;
    assert_int_equal(weft_pool_run(&l), 0);
    assert_int_equal(atomic_load(&r.threads_seen_mask), 0);
    free(r.counts);
}

/* Runs a launch in which all NUM_THREADS threads take part; returns the thread mask. */
static unsigned run_all_threads(struct record *r, struct weft_launch *l)
{
    r->launch = l;
    r->spin_until_threads = NUM_THREADS;
    r->spin_deadline = now_ns() + 20ull * 1000000000ull; /* a missing thread fails the test, late */
    assert_int_equal(weft_pool_run(l), 0);
    check_exactly_once(r, r->total);
    return atomic_load(&r->threads_seen_mask);
}

static void test_arenas_distinct_aligned_and_reused(void **state)
{
    struct record a, b, c;
    const size_t small = 3000, big = 1u << 20;
    struct weft_launch la = make_launch(&a, 600, small, small);
    a.fill = small;
    unsigned mask = run_all_threads(&a, &la);
    assert_int_equal(__builtin_popcount(mask), NUM_THREADS);
    assert_false(atomic_load(&a.clobbered));

    /* Distinct per thread: no two threads share a local arena, a scratch area or a ctx. */
    for (int i = 0; i < MAX_THREADS; i++) {
        if (!(mask & (1u << i)))
            continue;
        for (int j = i + 1; j < MAX_THREADS; j++) {
            if (!(mask & (1u << j)))
                continue;
            assert_ptr_not_equal(a.local_of[i], a.local_of[j]);
            assert_ptr_not_equal(a.scratch_of[i], a.scratch_of[j]);
            assert_ptr_not_equal(a.ctx_of[i], a.ctx_of[j]);
        }
        assert_ptr_not_equal(a.local_of[i], a.scratch_of[i]);
    }

    /* Reused: the same sizes again give every thread the same areas. */
    struct weft_launch lb = make_launch(&b, 600, small, small);
    b.fill = small;
    unsigned mask_b = run_all_threads(&b, &lb);
    assert_false(atomic_load(&b.clobbered));
    for (int i = 0; i < MAX_THREADS; i++) {
        if (!(mask & mask_b & (1u << i)))
            continue;
        assert_ptr_equal(a.local_of[i], b.local_of[i]);
        assert_ptr_equal(a.scratch_of[i], b.scratch_of[i]);
    }

    /* Grown: a launch needing 1 MiB gets (and fills) 1 MiB per thread without clobbering;
     * a smaller launch afterwards keeps the grown areas. */
    struct weft_launch lc = make_launch(&c, 64, big, big);
    c.fill = big;
    unsigned mask_c = run_all_threads(&c, &lc);
    assert_false(atomic_load(&c.clobbered));
    struct record d;
    struct weft_launch ld = make_launch(&d, 64, small, 0);
    d.fill = 0;
    unsigned mask_d = run_all_threads(&d, &ld);
    for (int i = 0; i < MAX_THREADS; i++)
        if (mask_c & mask_d & (1u << i))
            assert_ptr_equal(c.local_of[i], d.local_of[i]);
    free(a.counts);
    free(b.counts);
    free(c.counts);
    free(d.counts);
}

/* ---- two threads launching at once -------------------------------------------------------- */

static atomic_int running[2];
static atomic_bool overlap;

struct tagged {
    struct record r;                     /* first: record_fn sees a struct record */
    int id;
};

static void tagged_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    const struct tagged *t = args;
    atomic_fetch_add(&running[t->id], 1);
    if (atomic_load(&running[1 - t->id]) != 0)
        atomic_store(&overlap, true);
    record_fn(args, ctx, first, count);
    atomic_fetch_sub(&running[t->id], 1);
}

struct launcher {
    int id;
    int launches;
    atomic_bool failed;
};

static pthread_barrier_t launch_start;

static void *launcher_main(void *arg)
{
    struct launcher *L = arg;
    pthread_barrier_wait(&launch_start); /* both start together, so their launches overlap */
    for (int i = 0; i < L->launches; i++) {
        struct tagged t;
        uint64_t total = 1 + (uint64_t)((i * 37 + L->id * 11) % 97);
        struct weft_launch l = make_launch(&t.r, total, 128 * (size_t)(1 + i % 3), 64);
        t.id = L->id;
        t.r.launch = &l;
        l.fn = tagged_fn;
        l.args = &t;
        if (weft_pool_run(&l) != 0)
            atomic_store(&L->failed, true);
        if (atomic_load(&t.r.bad_range) || atomic_load(&t.r.bad_ctx))
            atomic_store(&L->failed, true);
        for (uint64_t g = 0; g < total; g++)
            if (atomic_load(&t.r.counts[g]) != 1)
                atomic_store(&L->failed, true);
        free(t.r.counts);
    }
    return NULL;
}

static void test_concurrent_launches_serialize(void **state)
{
    struct launcher L[2] = {{.id = 0, .launches = 2000}, {.id = 1, .launches = 2000}};
    pthread_t th[2];
    assert_int_equal(pthread_barrier_init(&launch_start, NULL, 2), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, launcher_main, &L[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&launch_start);
    assert_false(atomic_load(&L[0].failed));
    assert_false(atomic_load(&L[1].failed));
    assert_false(atomic_load(&overlap));
}

/* ---- idle workers sleep ------------------------------------------------------------------- */

/* The scheduler state letter of thread `t` of this process ('?' when unreadable). */
static char thread_state(pid_t t)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)t);
    FILE *f = fopen(path, "r");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the state follows the command name "(...)" */
    return p && p[1] == ' ' ? p[2] : '?';
}

/* A pool of its own (a sub-device's): its launches run every group exactly once on its own
 * threads, weft_pool_concurrency says its size inside the scope and the root's outside, scopes
 * nest, and freeing it stops its workers (none of them ran the root's launch). */
static void test_sub_pool(void **state)
{
    const unsigned cores[3] = {0, 1, 0};
    struct weft_pool *sub = weft_pool_new(cores, 3);
    assert_non_null(sub);
    assert_int_equal(weft_pool_size(sub), 3);
    assert_int_equal(weft_pool_size(NULL), NUM_THREADS);
    struct weft_pool_scope outer, inner;
    weft_pool_enter(sub, &outer);
    assert_int_equal(weft_pool_concurrency(), 3);
    static const uint64_t sizes[] = {1, 2, 3, 100, 4099, 65537};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct record r;
        struct weft_launch l = make_launch(&r, sizes[i], 64, 64);
        r.launch = &l;
        assert_int_equal(weft_pool_run(&l), 0);
        check_exactly_once(&r, sizes[i]);
        free(r.counts);
    }
    weft_pool_enter(NULL, &inner);   /* back to the root pool, nested */
    assert_int_equal(weft_pool_concurrency(), NUM_THREADS);
    weft_pool_leave(&inner);
    assert_int_equal(weft_pool_concurrency(), 3);
    weft_pool_leave(&outer);
    assert_int_equal(weft_pool_concurrency(), NUM_THREADS);
    weft_pool_free(sub);
    /* the root pool still runs everything */
    struct record r;
    struct weft_launch l = make_launch(&r, 5003, 0, 0);
    r.launch = &l;
    assert_int_equal(weft_pool_run(&l), 0);
    check_exactly_once(&r, 5003);
    free(r.counts);
    /* a pool of one thread: the caller alone */
    struct weft_pool *one = weft_pool_new(cores, 1);
    assert_non_null(one);
    weft_pool_enter(one, &outer);
    assert_int_equal(weft_pool_concurrency(), 1);
    l = make_launch(&r, 777, 0, 0);
    r.launch = &l;
    assert_int_equal(weft_pool_run(&l), 0);
    check_exactly_once(&r, 777);
    free(r.counts);
    weft_pool_leave(&outer);
    weft_pool_free(one);
}

static void test_idle_workers_sleep(void **state)
{
    struct record r;
    struct weft_launch l = make_launch(&r, 300, 0, 0);
    unsigned mask = run_all_threads(&r, &l);
    free(r.counts);
    pid_t self = (pid_t)syscall(SYS_gettid);
    /* Workers spin for microseconds after a launch, then sleep in the kernel. Poll for up to
     * 5 s (a loaded machine may delay them) until every worker that ran a group sleeps. */
    bool all_asleep = false;
    for (int attempt = 0; attempt < 500 && !all_asleep; attempt++) {
        usleep(10000);
        all_asleep = true;
        for (int i = 0; i < MAX_THREADS; i++) {
            if (!(mask & (1u << i)) || os_tids[i] == self)
                continue;
            char s = thread_state(os_tids[i]);
            if (s != 'S')
                all_asleep = false;
        }
    }
    assert_true(all_asleep);
}

/* ---- stacks: a launch gets the stack it asks for, on every thread ------------------------- */

struct stack_record {
    size_t use;                          /* bytes each call takes on its stack */
    uint64_t spin_deadline;              /* 0, or calls wait for every thread until then */
    _Atomic uint64_t calls;
    atomic_bool outside;                 /* a frame outside [ctx->stack_lo, ctx->stack_hi) */
    atomic_uint threads_seen_mask;
};

/* Takes `use` bytes of stack below its frame and touches every page of them (from the top,
 * as a frame grows), checking that they lie on the stack the context names. */
static void stack_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    struct stack_record *r = (struct stack_record *)args;
    int t = tid();
    atomic_fetch_or(&r->threads_seen_mask, 1u << (t < MAX_THREADS ? t : MAX_THREADS - 1));
    volatile char *buf = __builtin_alloca(r->use);
    for (size_t i = r->use; i >= 4096; i -= 4096)
        buf[i - 1] = (char)i;
    buf[0] = 1;
    if ((const char *)buf < ctx->stack_lo || (const char *)buf + r->use > ctx->stack_hi)
        atomic_store(&r->outside, true);
    atomic_fetch_add(&r->calls, 1);
    /* a launch of many groups waits (bounded) until every thread took part */
    while (r->spin_deadline && (unsigned)__builtin_popcount(atomic_load(&r->threads_seen_mask)) < NUM_THREADS &&
           now_ns() < r->spin_deadline)
        sched_yield();
}

static struct weft_launch stack_launch(struct stack_record *r, size_t use, size_t stack_size, uint64_t groups)
{
    memset(r, 0, sizeof *r);
    r->use = use;
    struct weft_launch l;
    memset(&l, 0, sizeof l);
    l.fn = stack_fn;
    l.args = r;
    l.ctx.work_dim = 1;
    for (int d = 0; d < 3; d++)
        l.ctx.global_size[d] = l.ctx.local_size[d] = l.ctx.num_groups[d] = 1;
    l.ctx.num_groups[0] = l.ctx.global_size[0] = groups;
    l.total_groups = groups;
    l.stack_size = stack_size;
    return l;
}

/* 24 MiB a call: three times a thread's usual 8 MiB, one group (the caller alone) and many
 * (every thread), twice (the stacks are kept and reused). */
static void test_large_stack_launches(void **state)
{
    const size_t use = (size_t)24 << 20;
    for (int round = 0; round < 2; round++) {
        static const uint64_t groups[] = {1, 64};
        for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
            struct stack_record r;
            struct weft_launch l = stack_launch(&r, use, use, groups[i]);
            r.spin_deadline = groups[i] > 1 ? now_ns() + 5000000000u : 0;
            assert_int_equal(weft_pool_run(&l), 0);
            assert_int_equal(atomic_load(&r.calls) >= 1, 1);
            assert_false(atomic_load(&r.outside));
            if (groups[i] > 1)
                assert_int_equal(__builtin_popcount(atomic_load(&r.threads_seen_mask)), NUM_THREADS);
        }
    }
}

/* A launch from a thread whose own stack is 128 KiB: its calls still get WEFT_POOL_BASE_STACK,
 * and the 24 MiB of the test above. */
static void *small_stack_launcher(void *arg)
{
    atomic_bool *failed = arg;
    struct stack_record r;
    struct weft_launch l = stack_launch(&r, WEFT_POOL_BASE_STACK - 16384, 0, 1);
    if (weft_pool_run(&l) != 0 || atomic_load(&r.outside) || atomic_load(&r.calls) != 1)
        atomic_store(failed, true);
    l = stack_launch(&r, (size_t)24 << 20, (size_t)24 << 20, 8);
    if (weft_pool_run(&l) != 0 || atomic_load(&r.outside) || atomic_load(&r.calls) < 1)
        atomic_store(failed, true);
    return NULL;
}

static void test_small_stack_caller(void **state)
{
    atomic_bool failed = false;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    assert_int_equal(pthread_attr_setstacksize(&attr, 128 * 1024), 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, &attr, small_stack_launcher, &failed), 0);
    pthread_attr_destroy(&attr);
    pthread_join(t, NULL);
    assert_false(atomic_load(&failed));
}

/* More than weft_pool_stack_limit(): refused, nothing runs. */
static void test_stack_over_limit_refused(void **state)
{
    struct stack_record r;
    struct weft_launch l = stack_launch(&r, 4096, weft_pool_stack_limit() + 1, 4);
    assert_int_equal(weft_pool_run(&l), -1);
    assert_int_equal(atomic_load(&r.calls), 0);
}

/* ---- overhead (printed, never asserted) --------------------------------------------------- */

static void empty_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count) {}

static void test_print_launch_overhead(void **state)
{
    static const uint64_t groups[] = {1, NUM_THREADS, 64};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        struct weft_launch l;
        memset(&l, 0, sizeof l);
        l.fn = empty_fn;
        l.total_groups = groups[i];
        l.ctx.work_dim = 1;
        const int n = groups[i] == 1 ? 20000 : 2000;
        for (int k = 0; k < 100; k++) /* warm up: workers awake, areas allocated */
            assert_int_equal(weft_pool_run(&l), 0);
        uint64_t t0 = now_ns();
        for (int k = 0; k < n; k++)
            assert_int_equal(weft_pool_run(&l), 0);
        uint64_t t1 = now_ns();
        printf("pool: empty launch of %3llu groups on %u threads: %.0f ns per launch\n",
               (unsigned long long)groups[i], weft_pool_concurrency(), (double)(t1 - t0) / n);
    }
}

int main(void)
{
    /* Before anything starts the pool (it reads the variable once). */
    char v[8];
    snprintf(v, sizeof v, "%d", NUM_THREADS);
    setenv("WEFT_NUM_THREADS", v, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrency_follows_weft_num_threads),
        cmocka_unit_test(test_every_group_exactly_once),
        cmocka_unit_test(test_uneven_groups_exactly_once),
        cmocka_unit_test(test_every_partition_exactly_once),
        cmocka_unit_test(test_ranges_by_grid),
        cmocka_unit_test(test_zero_groups_runs_nothing),
        cmocka_unit_test(test_arenas_distinct_aligned_and_reused),
        cmocka_unit_test(test_concurrent_launches_serialize),
        cmocka_unit_test(test_large_stack_launches),
        cmocka_unit_test(test_small_stack_caller),
        cmocka_unit_test(test_stack_over_limit_refused),
        cmocka_unit_test(test_sub_pool),
        cmocka_unit_test(test_idle_workers_sleep),
        cmocka_unit_test(test_print_launch_overhead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
