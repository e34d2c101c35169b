/* tests/unit/test_variant_select.c — runtime selection between two variants
 * (exec/variant_select.h) with hand-written work-group functions that record which variant
 * ran each group: every group runs exactly once across profiling and the rest of the launch,
 * synchronously and asynchronously, the faster variant wins whichever comes first, a decided launch runs only the winner, the
 * decision survives a restart (through the disk cache), small launches and WEFT_PROFILE=off
 * run the first variant only.
 *
 * The profiler's clock is a counter the variants advance (1 unit a group for the fast one, 20
 * for the slow one), so decisions follow counted work, never the machine's load: in sync mode
 * one counter for the process (a slice is timed around a whole pool launch), in async mode one
 * per thread (a slice is timed on the thread that runs it, while others run other groups). */
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

#include <stdatomic.h>
#include <time.h>

#include "exec/pool.h"
#include "exec/variant_select.h"
#include "weft/abi.h"

#define MAX_GROUPS 4096

static atomic_int ran[MAX_GROUPS];      /* how many times each group ran */
static atomic_int by[2];                /* groups run by each variant */

static _Atomic uint64_t shared_clock;
static _Thread_local uint64_t thread_clock;

static uint64_t read_shared_clock(void)
{
    return atomic_load(&shared_clock);
}

static uint64_t read_thread_clock(void)
{
    return thread_clock;
}

static void work(uint64_t units)
{
    atomic_fetch_add(&shared_clock, units);
    thread_clock += units;
}

static void variant_fast(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)args, (void)ctx;
    for (uint64_t g = first; g < first + count; g++) {
        work(1);
        atomic_fetch_add(&ran[g], 1);
        atomic_fetch_add(&by[0], 1);
    }
}

static void variant_slow(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)args, (void)ctx;
    for (uint64_t g = first; g < first + count; g++) {
        work(20);
        atomic_fetch_add(&ran[g], 1);
        atomic_fetch_add(&by[1], 1);
    }
}

static void reset(void)
{
    for (int i = 0; i < MAX_GROUPS; i++)
        atomic_store(&ran[i], 0);
    atomic_store(&by[0], 0);
    atomic_store(&by[1], 0);
}

static struct weft_launch make_launch(weft_wg_fn fn, uint64_t groups)
{
    struct weft_launch l;
    memset(&l, 0, sizeof l);
    l.fn = fn;
    l.total_groups = groups;
    l.ctx.work_dim = 1;
    return l;
}

static void assert_each_once(uint64_t groups)
{
    for (uint64_t g = 0; g < groups; g++)
        assert_int_equal(atomic_load(&ran[g]), 1);
    for (uint64_t g = groups; g < MAX_GROUPS; g++)
        assert_int_equal(atomic_load(&ran[g]), 0);
    assert_int_equal(atomic_load(&by[0]) + atomic_load(&by[1]), (int)groups);
}

static uint64_t fresh_key(void)
{
    static uint64_t n;
    uint64_t g[3] = {(uint64_t)getpid(), ++n, (uint64_t)time(NULL)}, l[3] = {1, 1, 1};
    return weft_select_key(0x1111, 0x2222, g, l);
}

static void profiles_every_group_once(const char *mode)
{
    setenv("WEFT_PROFILE", mode, 1);
    weft_select_set_clock(strcmp(mode, "sync") == 0 ? read_shared_clock : read_thread_clock);
    static const uint64_t sizes[] = {16, 17, 100, 1000, 4096};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int slow_first = 0; slow_first < 2; slow_first++) {
            reset();
            uint64_t key = fresh_key();
            struct weft_launch l = make_launch(slow_first ? variant_slow : variant_fast, sizes[s]);
            for (int round = 0; round < WEFT_SELECT_ROUNDS; round++) {
                /* not final before the last round */
                assert_int_equal(weft_select_decision(key), -1);
                reset();
                assert_int_equal(weft_select_run(&l, slow_first ? variant_fast : variant_slow, key, "test", NULL), 0);
                assert_each_once(sizes[s]);
                /* both ran during profiling, and the fast one won */
                assert_true(atomic_load(&by[0]) > 0);
                assert_true(atomic_load(&by[1]) > 0);
                if (strcmp(mode, "sync") == 0)   /* the rest ran after the decision */
                    assert_true(atomic_load(&by[0]) > atomic_load(&by[1]));
            }
            assert_int_equal(weft_select_decision(key), slow_first ? 1 : 0);

            /* decided: the next launch runs the winner only */
            reset();
            assert_int_equal(weft_select_run(&l, slow_first ? variant_fast : variant_slow, key, "test", NULL), 0);
            assert_each_once(sizes[s]);
            assert_int_equal(atomic_load(&by[1]), 0);
        }
    }
    unsetenv("WEFT_PROFILE");
    weft_select_set_clock(NULL);
}

static void test_profiles_every_group_once_sync(void **state)
{
    (void)state;
    profiles_every_group_once("sync");
}

static void test_profiles_every_group_once_async(void **state)
{
    (void)state;
    profiles_every_group_once("async");
}

static void test_decision_survives_restart(void **state)
{
    (void)state;
    weft_select_set_clock(read_thread_clock);
    reset();
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_slow, 256);
    for (int round = 0; round < WEFT_SELECT_ROUNDS; round++)
        assert_int_equal(weft_select_run(&l, variant_fast, key, "test", NULL), 0);
    assert_int_equal(weft_select_decision(key), 1);
    weft_select_forget();   /* a new process: only the disk copy is left */
    assert_int_equal(weft_select_decision(key), 1);
    reset();
    assert_int_equal(weft_select_run(&l, variant_fast, key, "test", NULL), 0);
    assert_each_once(256);
    assert_int_equal(atomic_load(&by[1]), 0);
    weft_select_set_clock(NULL);
}

/* A program that launches a kernel once per process: each process's launch is one round, kept on
 * disk, so the second process's launch completes the decision and the third profiles nothing
 * (before, the decision was written only once final and every process profiled again). */
static void test_one_launch_per_process_decides(void **state)
{
    (void)state;
    weft_select_set_clock(read_thread_clock);
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_slow, 256);
    for (int process = 0; process < WEFT_SELECT_ROUNDS; process++) {
        weft_select_forget();
        reset();
        bool profiled = false;
        assert_int_equal(weft_select_run(&l, variant_fast, key, "test", &profiled), 0);
        assert_true(profiled);
        assert_each_once(256);
    }
    weft_select_forget();
    assert_int_equal(weft_select_decision(key), 1);
    reset();
    bool profiled = true;
    assert_int_equal(weft_select_run(&l, variant_fast, key, "test", &profiled), 0);
    assert_false(profiled);
    assert_int_equal(atomic_load(&by[1]), 0);
    weft_select_set_clock(NULL);
}

static void test_small_launch_and_off(void **state)
{
    (void)state;
    reset();
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_slow, WEFT_SELECT_MIN_GROUPS - 1);
    assert_int_equal(weft_select_run(&l, variant_fast, key, "test", NULL), 0);
    assert_each_once(WEFT_SELECT_MIN_GROUPS - 1);
    assert_int_equal(atomic_load(&by[0]), 0);   /* only the first variant */
    assert_int_equal(weft_select_decision(key), -1);

    setenv("WEFT_PROFILE", "off", 1);
    reset();
    l.total_groups = 512;
    assert_int_equal(weft_select_run(&l, variant_fast, key, "test", NULL), 0);
    assert_each_once(512);
    assert_int_equal(atomic_load(&by[0]), 0);
    assert_int_equal(weft_select_decision(key), -1);
    unsetenv("WEFT_PROFILE");
}

/* weft_select_run says which launches ran profiling slices (fusion leaves their times out of a
 * kernel's steady cost): those of an undecided key with enough groups, until the decision is
 * final; never small launches, never with WEFT_PROFILE=off. */
static void test_reports_profiling(void **state)
{
    (void)state;
    weft_select_set_clock(read_thread_clock);
    uint64_t key = fresh_key();
    bool profiled = true;
    struct weft_launch small = make_launch(variant_slow, WEFT_SELECT_MIN_GROUPS - 1);
    reset();
    assert_int_equal(weft_select_run(&small, variant_fast, key, "test", &profiled), 0);
    assert_false(profiled);
    struct weft_launch l = make_launch(variant_slow, 256);
    for (int round = 0; round < WEFT_SELECT_ROUNDS; round++) {
        reset();
        profiled = false;
        assert_int_equal(weft_select_run(&l, variant_fast, key, "test", &profiled), 0);
        assert_true(profiled);
    }
    reset();
    assert_int_equal(weft_select_run(&l, variant_fast, key, "test", &profiled), 0);
    assert_false(profiled);   /* final: the winner runs alone */
    setenv("WEFT_PROFILE", "off", 1);
    reset();
    profiled = true;
    assert_int_equal(weft_select_run(&l, variant_fast, fresh_key(), "test", &profiled), 0);
    assert_false(profiled);
    unsetenv("WEFT_PROFILE");
    weft_select_set_clock(NULL);
}

/* Two variants whose costs change with the launch's data, like Rodinia bfs's BFS_1 (vectorized:
 * cheap while every lane is idle, four times the scalar code once the frontier is wide): light
 * groups cost the first variant 1 unit and the second 3, heavy groups 4000 and 1000. */
static atomic_bool heavy;

static void variant_masked(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)args, (void)ctx;
    for (uint64_t g = first; g < first + count; g++) {
        work(atomic_load(&heavy) ? 4000 : 1);
        atomic_fetch_add(&ran[g], 1);
        atomic_fetch_add(&by[0], 1);
    }
}

static void variant_rows(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)args, (void)ctx;
    for (uint64_t g = first; g < first + count; g++) {
        work(atomic_load(&heavy) ? 1000 : 3);
        atomic_fetch_add(&ran[g], 1);
        atomic_fetch_add(&by[1], 1);
    }
}

/* A decision made on light launches is profiled again once launches get much heavier per group
 * (the first variant stays final while they do not), the heavy round's winner becomes final,
 * reaches the disk, and is not reopened by more launches as heavy as the ones it was made on. */
static void test_heavier_launches_reopen_a_decision(void **state)
{
    (void)state;
    setenv("WEFT_PROFILE", "sync", 1);
    weft_select_set_clock(read_shared_clock);
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_masked, 512);
    atomic_store(&heavy, false);
    bool profiled = false;
    for (int round = 0; round < WEFT_SELECT_ROUNDS; round++) {
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
        assert_true(profiled);
    }
    assert_int_equal(weft_select_decision(key), 0);
    reset();   /* light again: the decision holds */
    assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
    assert_false(profiled);
    assert_int_equal(weft_select_decision(key), 0);

    atomic_store(&heavy, true);
    /* heavy: runs the first variant alone; the first heavy launch could be a cold one (a
     * process's first), the second reopens */
    for (int launch = 0; launch < 2; launch++) {
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
        assert_false(profiled);
        assert_int_equal(atomic_load(&by[1]), 0);
        assert_int_equal(weft_select_decision(key), launch == 0 ? 0 : -1);
    }
    reset();   /* the next launch profiles and the second variant wins for good */
    assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
    assert_true(profiled);
    assert_each_once(512);
    assert_int_equal(weft_select_decision(key), 1);
    for (int i = 0; i < 3; i++) {
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
        assert_false(profiled);
        assert_int_equal(atomic_load(&by[0]), 0);
    }
    weft_select_forget();
    assert_int_equal(weft_select_decision(key), 1);
    reset();   /* a new process keeps it, heavy launches included */
    assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
    assert_false(profiled);
    assert_int_equal(weft_select_decision(key), 1);
    atomic_store(&heavy, false);
    unsetenv("WEFT_PROFILE");
    weft_select_set_clock(NULL);
}

/* A new process's first launches are heavy for reasons of their own (cold caches, first touch
 * of fresh buffers, one per buffer of a ping-pong pair): they reopen nothing. Heavy launches
 * count once a launch within the bound ran in the process. */
static void test_cold_launches_reopen_nothing(void **state)
{
    (void)state;
    setenv("WEFT_PROFILE", "sync", 1);
    weft_select_set_clock(read_shared_clock);
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_masked, 512);
    atomic_store(&heavy, false);
    for (int round = 0; round < WEFT_SELECT_ROUNDS; round++) {
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", NULL), 0);
    }
    assert_int_equal(weft_select_decision(key), 0);
    weft_select_forget();   /* a new process */
    bool profiled = true;
    for (int launch = 0; launch < 6; launch++) {
        /* three cold (heavy) launches, then light ones */
        atomic_store(&heavy, launch < 3);
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
        assert_false(profiled);
        assert_int_equal(weft_select_decision(key), 0);
    }
    atomic_store(&heavy, true);   /* heavier for good, after light ones: reopened */
    for (int launch = 0; launch < 2; launch++) {
        reset();
        assert_int_equal(weft_select_run(&l, variant_rows, key, "test", &profiled), 0);
        assert_false(profiled);
    }
    assert_int_equal(weft_select_decision(key), -1);
    atomic_store(&heavy, false);
    unsetenv("WEFT_PROFILE");
    weft_select_set_clock(NULL);
}

/* A second variant that costs far more per group than the first stops being profiled once that
 * shows: the launch does not pay for its whole slices (sync: one slice of it instead of two;
 * async: a few small steps instead of two slices), and every group still runs exactly once. (A
 * slow first variant costs nothing extra: it is what the launch runs unprofiled.) */
static void loser_stops_early(const char *mode)
{
    setenv("WEFT_PROFILE", mode, 1);
    bool sync = strcmp(mode, "sync") == 0;
    weft_select_set_clock(sync ? read_shared_clock : read_thread_clock);
    uint64_t key = fresh_key();
    struct weft_launch l = make_launch(variant_fast, 4096);
    reset();
    bool profiled = false;
    assert_int_equal(weft_select_run(&l, variant_slow, key, "test", &profiled), 0);
    assert_true(profiled);
    assert_each_once(4096);
    /* 4096 groups: slices of 256; the slow variant would otherwise run 512 groups */
    int slow_groups = atomic_load(&by[1]);
    assert_true(slow_groups > 0);
    if (sync)
        assert_int_equal(slow_groups, 256);
    else
        assert_true(slow_groups < 64);
    assert_int_equal(weft_select_decision(key), -1);   /* one round: not final yet */
    unsetenv("WEFT_PROFILE");
    weft_select_set_clock(NULL);
}

static void test_loser_stops_early_sync(void **state)
{
    (void)state;
    loser_stops_early("sync");
}

static void test_loser_stops_early_async(void **state)
{
    (void)state;
    loser_stops_early("async");
}

int main(void)
{
    char dir[] = "/tmp/weft-select-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("WEFT_CACHE_DIR", dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiles_every_group_once_sync),
        cmocka_unit_test(test_profiles_every_group_once_async),
        cmocka_unit_test(test_decision_survives_restart),
        cmocka_unit_test(test_one_launch_per_process_decides),
        cmocka_unit_test(test_small_launch_and_off),
        cmocka_unit_test(test_reports_profiling),
        cmocka_unit_test(test_heavier_launches_reopen_a_decision),
        cmocka_unit_test(test_cold_launches_reopen_nothing),
        cmocka_unit_test(test_loser_stops_early_sync),
        cmocka_unit_test(test_loser_stops_early_async),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
