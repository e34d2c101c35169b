/* tests/unit/test_fuse_cost.c — the fusion planner's measurements (exec/fuse/cost.c): costs
 * are lower medians of the recent window with each key's first sample left out, keys are told
 * apart by kernels and NDRange, a rejected chain waits a doubling number of launches before it
 * is tried once more, and a fused chain runs a window of launches unfused now and then; whether
 * two levels are worth trying is kept per chain and length; a measured verdict against a chain
 * has its unfused cost measured again before it rejects; a chain cut short is not rejected; a
 * chain's decision kept on disk reaches a later process (another key standing for the same
 * chain there).
 * Each test uses keys of its own (the tables are process-wide). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cache.h"

#include "exec/fuse/cost.h"
#include "exec/fuse/fuse.h"

/* Kernel k's code key k + 1 (0 is none); k1 < 0: a stage's key */
static struct weft_cost_key key(int k0, int k1, uint64_t rows)
{
    return (struct weft_cost_key){(uint64_t)k0 + 1, k1 >= 0 ? (uint64_t)k1 + 1 : 0, {512, rows, 1}};
}

static void test_first_sample_left_out_and_minimum_count(void **state)
{
    (void)state;
    struct weft_cost_key k = key(0, -1, 512);
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 1) == 0.0);
    weft_cost_note(WEFT_COST_UNFUSED, &k, 500.0);   /* cold: never counted */
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 1) == 0.0);
    weft_cost_note(WEFT_COST_UNFUSED, &k, 120.0);
    weft_cost_note(WEFT_COST_UNFUSED, &k, 110.0);
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 4) == 0.0);   /* 3 of 4 noted */
    weft_cost_note(WEFT_COST_UNFUSED, &k, 300.0);
    /* lower median of {120, 110, 300} */
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 4) == 120.0);
    weft_cost_note(WEFT_COST_UNFUSED, &k, 100.0);
    /* lower median of {120, 110, 300, 100}: the second smallest */
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 4) == 110.0);
}

static void test_window_forgets_old_samples(void **state)
{
    (void)state;
    struct weft_cost_key k = key(1, -1, 512);
    weft_cost_note(WEFT_COST_UNFUSED, &k, 1.0);
    for (unsigned i = 0; i < WEFT_COST_WINDOW; i++)
        weft_cost_note(WEFT_COST_UNFUSED, &k, 400.0);
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 1) == 400.0);
    /* a steady phase replaces the slow start entirely */
    for (unsigned i = 0; i < WEFT_COST_WINDOW; i++)
        weft_cost_note(WEFT_COST_UNFUSED, &k, 100.0 + i);
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &k, 1) == 100.0 + (WEFT_COST_WINDOW - 1) / 2);
}

static void test_keys_differ_by_kernels_grid_and_kind(void **state)
{
    (void)state;
    struct weft_cost_key a = key(2, 3, 512), b = key(2, 3, 1024), c = key(2, 4, 512), d = key(2, -1, 512);
    for (int i = 0; i < 3; i++) {
        weft_cost_note(WEFT_COST_FUSED, &a, 10.0);
        weft_cost_note(WEFT_COST_FUSED, &b, 20.0);
        weft_cost_note(WEFT_COST_FUSED, &c, 30.0);
        weft_cost_note(WEFT_COST_UNFUSED, &d, 40.0);
    }
    assert_true(weft_cost_get(WEFT_COST_FUSED, &a, 3) == 10.0);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &b, 3) == 20.0);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &c, 3) == 30.0);
    assert_true(weft_cost_get(WEFT_COST_USEFUL, &a, 1) == 0.0);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &d, 1) == 0.0);
    assert_true(weft_cost_get(WEFT_COST_UNFUSED, &d, 3) == 40.0);
}

/* Counts the launches planning is skipped for, up to `limit`, and returns with the verdict of
 * the first launch that was not skipped in *next. */
static unsigned skipped_run(const struct weft_cost_key *k, unsigned limit, enum weft_cost_plan *next)
{
    unsigned n = 0;
    enum weft_cost_plan p;
    while ((p = weft_cost_plan_launch(k)) == WEFT_COST_SKIP && n < limit)
        n++;
    *next = p;
    return n;
}

static void test_rejection_retries_with_doubling_wait(void **state)
{
    (void)state;
    enum weft_cost_plan next;
    struct weft_cost_key k = key(5, 5, 512);
    assert_int_equal(weft_cost_plan_launch(&k), WEFT_COST_PLAN);   /* never measured */
    for (int i = 0; i < 3; i++) {
        weft_cost_note(WEFT_COST_FUSED, &k, 90.0);
        weft_cost_note(WEFT_COST_USEFUL, &k, 120.0);
    }
    weft_cost_reject(&k);
    weft_cost_reject(&k);   /* already rejected: the wait does not grow */
    assert_int_equal(skipped_run(&k, 100000, &next), WEFT_COST_RETRY_FIRST);
    assert_int_equal(next, WEFT_COST_RETRY);
    /* the retry keeps what was measured: its run joins the window */
    assert_true(weft_cost_get(WEFT_COST_FUSED, &k, 3) == 90.0);
    weft_cost_note(WEFT_COST_FUSED, &k, 60.0);
    weft_cost_note(WEFT_COST_FUSED, &k, 60.0);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &k, 3) == 60.0);   /* lower median of 90 90 60 60 */
    unsigned wait = WEFT_COST_RETRY_FIRST;
    for (int r = 0; r < 12; r++) {
        weft_cost_reject(&k);
        wait = wait * 2 < WEFT_COST_RETRY_MAX ? wait * 2 : WEFT_COST_RETRY_MAX;
        assert_int_equal(skipped_run(&k, 100000, &next), wait);
        assert_int_equal(next, WEFT_COST_RETRY);
    }
    assert_int_equal(wait, WEFT_COST_RETRY_MAX);
}

/* A chain whose launches cannot fuse (fuse.c found no prefix that feeds itself) is rejected
 * before any fused run: the queue does not plan it again for each launch it starts with. */
static void test_rejection_without_fused_runs(void **state)
{
    (void)state;
    enum weft_cost_plan next;
    struct weft_cost_key k = key(6, 6, 1);
    assert_int_equal(weft_cost_plan_launch(&k), WEFT_COST_PLAN);
    weft_cost_reject(&k);
    assert_int_equal(skipped_run(&k, 100000, &next), WEFT_COST_RETRY_FIRST);
    assert_int_equal(next, WEFT_COST_RETRY);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &k, 1) == 0);   /* nothing measured */
    weft_cost_reject(&k);   /* the retry found it unfusable again: twice the wait */
    assert_int_equal(skipped_run(&k, 100000, &next), 2 * WEFT_COST_RETRY_FIRST);
}

static void test_explore_schedule(void **state)
{
    (void)state;
    unsigned due[64], n = 0;
    for (unsigned run = 1; run <= 4 * WEFT_COST_EXPLORE_EVERY; run++)
        if (weft_cost_explore_due(run))
            due[n++] = run;
    assert_int_equal(n, 6);
    const unsigned expect[] = {4, 8, WEFT_COST_EXPLORE_EVERY, 2 * WEFT_COST_EXPLORE_EVERY, 3 * WEFT_COST_EXPLORE_EVERY,
                               4 * WEFT_COST_EXPLORE_EVERY};
    assert_memory_equal(due, expect, sizeof expect);
}

static void test_fused_chain_remeasures_unfused(void **state)
{
    (void)state;
    enum weft_cost_plan next;
    struct weft_cost_key k = key(6, 7, 512);
    for (unsigned run = 1; run <= 3 * WEFT_COST_EXPLORE_EVERY; run++) {
        weft_cost_note(WEFT_COST_FUSED, &k, 80.0);
        unsigned expect = weft_cost_explore_due(run) ? WEFT_COST_WINDOW : 0;
        assert_int_equal(skipped_run(&k, 100, &next), expect);
        assert_int_equal(next, WEFT_COST_PLAN);
    }
    /* a rejection ends a pending re-measure: the wait for the retry counts instead */
    for (unsigned run = 0; run < WEFT_COST_EXPLORE_EVERY; run++)
        weft_cost_note(WEFT_COST_FUSED, &k, 80.0);
    weft_cost_reject(&k);
    assert_int_equal(skipped_run(&k, 100000, &next), WEFT_COST_RETRY_FIRST);
    assert_int_equal(next, WEFT_COST_RETRY);
}

/* A measured verdict against a chain first has its unfused cost measured again (a window of
 * launches unfused), once; only the next such verdict rejects it. A window run for the
 * exploration after fused runs 4 and 8 counts as that re-measure. */
static void test_unfused_remeasured_before_rejection(void **state)
{
    (void)state;
    enum weft_cost_plan next;
    struct weft_cost_key k = key(11, 12, 512);
    weft_cost_note(WEFT_COST_FUSED, &k, 80.0);
    assert_true(weft_cost_remeasure_before_reject(&k));
    assert_int_equal(skipped_run(&k, 100, &next), WEFT_COST_WINDOW);
    assert_int_equal(next, WEFT_COST_PLAN);
    assert_false(weft_cost_remeasure_before_reject(&k));
    weft_cost_reject(&k);
    assert_int_equal(skipped_run(&k, 100000, &next), WEFT_COST_RETRY_FIRST);
    assert_int_equal(next, WEFT_COST_RETRY);

    struct weft_cost_key e = key(13, 14, 512);
    for (unsigned run = 1; run <= 4; run++)
        weft_cost_note(WEFT_COST_FUSED, &e, 80.0);
    assert_int_equal(skipped_run(&e, 100, &next), WEFT_COST_WINDOW);   /* the exploration */
    assert_false(weft_cost_remeasure_before_reject(&e));

    /* asked while a window is still running: no rejection yet, that window is the re-measure */
    struct weft_cost_key w = key(15, 16, 512);
    for (unsigned run = 1; run <= 4; run++)
        weft_cost_note(WEFT_COST_FUSED, &w, 80.0);
    assert_int_equal(weft_cost_plan_launch(&w), WEFT_COST_SKIP);
    assert_true(weft_cost_remeasure_before_reject(&w));
    assert_int_equal(skipped_run(&w, 100, &next), WEFT_COST_WINDOW - 1);
    assert_false(weft_cost_remeasure_before_reject(&w));
}

/* Where both forms can run: one level is measured first, then two levels, then the one with
 * the lower cost per row replaced runs, and stays measured (a change of costs flips it). */
static void test_two_levels_tried_then_the_faster_kept(void **state)
{
    (void)state;
    struct weft_cost_key one = key(8, 9, 512), two = one;
    two.form = WEFT_FUSE_FORM_TWO_LEVELS;
    assert_int_equal(weft_cost_pick_form(&one, 3), WEFT_FUSE_FORM_ONE_LEVEL);   /* nothing measured */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(weft_cost_pick_form(&one, 3), WEFT_FUSE_FORM_ONE_LEVEL);
        weft_cost_note(WEFT_COST_USEFUL, &one, 100.0);
    }
    /* one level measured: two levels next, until its three runs are */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(weft_cost_pick_form(&two, 3), WEFT_FUSE_FORM_TWO_LEVELS);
        weft_cost_note(WEFT_COST_USEFUL, &two, 70.0);
    }
    assert_int_equal(weft_cost_pick_form(&one, 3), WEFT_FUSE_FORM_TWO_LEVELS);   /* faster */
    for (int i = 0; i < (int)WEFT_COST_WINDOW; i++)
        weft_cost_note(WEFT_COST_USEFUL, &two, 130.0);
    assert_int_equal(weft_cost_pick_form(&two, 3), WEFT_FUSE_FORM_ONE_LEVEL);    /* now slower */
    /* the forms' costs are apart: one level's are as noted */
    assert_true(weft_cost_get(WEFT_COST_USEFUL, &one, 3) == 100.0);
}

/* A chain's decision state is one whatever form ran: rejecting it under two levels skips its
 * launches under either key, and a two-level run due for re-measuring unfused makes the chain
 * (its one-level key, which the queue asks with) run unfused. */
static void test_decisions_shared_by_the_forms(void **state)
{
    (void)state;
    enum weft_cost_plan next;
    struct weft_cost_key one = key(10, 11, 512), two = one;
    two.form = WEFT_FUSE_FORM_TWO_LEVELS;
    for (unsigned run = 1; run <= 4; run++)
        weft_cost_note(WEFT_COST_FUSED, &two, 80.0);   /* run 4: re-measure unfused */
    assert_int_equal(skipped_run(&one, 100, &next), WEFT_COST_WINDOW);
    assert_int_equal(next, WEFT_COST_PLAN);
    weft_cost_reject(&two);
    assert_int_equal(skipped_run(&one, 100000, &next), WEFT_COST_RETRY_FIRST);
    assert_int_equal(next, WEFT_COST_RETRY);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &two, 3) == 80.0);
    assert_true(weft_cost_get(WEFT_COST_FUSED, &one, 1) == 0.0);
}

/* A private cache directory for the tests that keep decisions on disk. */
static char cache_dir[] = "/tmp/weft-fuse-cost-XXXXXX";

/* Made once. Whether it was made is kept apart from the template's text: mkdtemp's random
 * suffix may itself contain an 'X'. */
static bool cache_made;

static void use_private_cache(void)
{
    if (!cache_made && !mkdtemp(cache_dir))
        fail_msg("mkdtemp failed");
    cache_made = true;
    setenv("WEFT_CACHE_DIR", cache_dir, 1);
}

/* The disk keys of these tests, and how often the planner asked for one. */
static unsigned keys_asked;

/* Whether two levels are worth measuring is kept per chain, whatever the form asked about; a
 * "no" holds only for chains as long as the one it was decided on. */
static void test_two_levels_decision_by_chain_length(void **state)
{
    (void)state;
    struct weft_cost_key one = key(20, 21, 512), two = one;
    two.form = WEFT_FUSE_FORM_TWO_LEVELS;
    assert_int_equal(weft_cost_two_levels(&one, 3), -1);
    weft_cost_set_two_levels(&one, 3, false);
    assert_int_equal(weft_cost_two_levels(&one, 3), 0);
    assert_int_equal(weft_cost_two_levels(&two, 2), 0);
    assert_int_equal(weft_cost_two_levels(&one, 10), -1);   /* longer: decided again */
    weft_cost_set_two_levels(&two, 10, false);
    assert_int_equal(weft_cost_two_levels(&one, 10), 0);
    assert_int_equal(weft_cost_two_levels(&one, 64), -1);
    weft_cost_set_two_levels(&one, 64, true);
    assert_int_equal(weft_cost_two_levels(&one, 64), 1);
    assert_int_equal(weft_cost_two_levels(&two, 128), 1);
    assert_int_equal(weft_cost_two_levels(&one, 2), 1);
}

/* A planned chain is fused from WEFT_FUSE_MIN_DEPTH stages on while its costs pay; a chain cut
 * short (every stage fits, but fewer than that many) is only not fused, never rejected; a
 * depth the costs cut below the chain's length, a ratio below WEFT_FUSE_MIN_RATIO or a measured
 * gain under 10 % reject it. */
static void test_verdict_short_chains_are_not_rejected(void **state)
{
    (void)state;
    assert_int_equal(weft_cost_verdict(10, 10, 1.5, true, 100, 300), WEFT_COST_VERDICT_FUSE);
    assert_int_equal(weft_cost_verdict(4, 64, 1.5, false, 0, 0), WEFT_COST_VERDICT_FUSE);
    assert_int_equal(weft_cost_verdict(2, 2, 1.5, true, 100, 300), WEFT_COST_VERDICT_SHORT);
    assert_int_equal(weft_cost_verdict(3, 3, WEFT_FUSE_FIRST_RATIO, false, 0, 0), WEFT_COST_VERDICT_SHORT);
    assert_int_equal(weft_cost_verdict(3, 10, 1.5, true, 100, 300), WEFT_COST_VERDICT_REJECT);
    assert_int_equal(weft_cost_verdict(2, 2, 0.1, true, 100, 300), WEFT_COST_VERDICT_REJECT);
    assert_int_equal(weft_cost_verdict(10, 10, 0.1, true, 100, 300), WEFT_COST_VERDICT_REJECT);
    assert_int_equal(weft_cost_verdict(10, 10, 1.5, true, 95, 100), WEFT_COST_VERDICT_REJECT);
    assert_int_equal(weft_cost_verdict(2, 2, 1.5, true, 95, 100), WEFT_COST_VERDICT_REJECT);
    assert_int_equal(weft_cost_verdict(10, 10, 1.5, true, 85, 100), WEFT_COST_VERDICT_FUSE);
}

static uint64_t given_key(const void *arg)
{
    keys_asked++;
    return *(const uint64_t *)arg;
}

/* A fused decision stored by one process: the next one (a new key for the same chain, as its
 * kernels are other objects there) reads its form and ratio once, before measuring anything;
 * a ratio within 10 % is not written again. */
static void test_fused_decision_reaches_the_next_process(void **state)
{
    (void)state;
    use_private_cache();
    const uint64_t disk = 0x1234567890abcdefull;
    struct weft_cost_key first = key(12, 13, 512), next = key(14, 15, 512);
    struct weft_cost_prior p;
    weft_cost_load_prior(&first, given_key, &disk);   /* nothing on disk */
    assert_false(weft_cost_prior(&first, &p));
    weft_cost_store_prior(&first, given_key, &disk, false, WEFT_FUSE_FORM_TWO_LEVELS, 0.8);
    weft_cost_load_prior(&next, given_key, &disk);
    assert_true(weft_cost_prior(&next, &p));
    assert_int_equal(p.form, WEFT_FUSE_FORM_TWO_LEVELS);
    /* read once per chain: the key is not even computed again */
    unsigned asked = keys_asked;
    weft_cost_load_prior(&next, given_key, &disk);
    assert_int_equal(keys_asked, asked);
    assert_true(p.ratio > 0.79 && p.ratio < 0.81);
    enum weft_cost_plan plan;
    assert_int_equal(skipped_run(&next, 100, &plan), 0);   /* planned at once */
    assert_int_equal(plan, WEFT_COST_PLAN);
    /* the same decision again is not rewritten; another one is */
    void *payload = NULL;
    size_t size = 0;
    assert_true(weft_cache_load(disk, &payload, &size));
    free(payload);
    weft_cost_store_prior(&first, given_key, &disk, false, WEFT_FUSE_FORM_TWO_LEVELS, 0.85);
    weft_cost_store_prior(&first, given_key, &disk, false, WEFT_FUSE_FORM_ONE_LEVEL, 0.85);
    struct weft_cost_key third = key(16, 17, 512);
    weft_cost_load_prior(&third, given_key, &disk);
    assert_true(weft_cost_prior(&third, &p));
    assert_int_equal(p.form, WEFT_FUSE_FORM_ONE_LEVEL);
}

/* A chain stored as rejected is rejected in the next process from its first launch, waits for
 * its retry as usual; a damaged record is ignored. */
static void test_rejected_decision_reaches_the_next_process(void **state)
{
    (void)state;
    use_private_cache();
    const uint64_t disk = 0x0fedcba987654321ull, damaged = 0x1111111111111111ull;
    struct weft_cost_key first = key(18, 19, 512), next = key(18, 19, 1024), other = key(19, 18, 1024);
    weft_cost_store_prior(&first, given_key, &disk, true, WEFT_FUSE_FORM_ONE_LEVEL, 0.0);
    weft_cost_load_prior(&next, given_key, &disk);
    struct weft_cost_prior p;
    assert_false(weft_cost_prior(&next, &p));
    enum weft_cost_plan plan;
    assert_int_equal(skipped_run(&next, 100000, &plan), WEFT_COST_RETRY_FIRST);
    assert_int_equal(plan, WEFT_COST_RETRY);
    const char junk[16] = "not a record!!!";
    assert_true(weft_cache_store(damaged, junk, sizeof junk));
    weft_cost_load_prior(&other, given_key, &damaged);
    assert_false(weft_cost_prior(&other, &p));
    assert_int_equal(skipped_run(&other, 100, &plan), 0);
}

static int remove_cache(void **state)
{
    (void)state;
    if (cache_made) {
        char cmd[96];
        snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
        if (system(cmd) != 0)
            return -1;
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_sample_left_out_and_minimum_count),
        cmocka_unit_test(test_window_forgets_old_samples),
        cmocka_unit_test(test_keys_differ_by_kernels_grid_and_kind),
        cmocka_unit_test(test_rejection_retries_with_doubling_wait),
        cmocka_unit_test(test_rejection_without_fused_runs),
        cmocka_unit_test(test_explore_schedule),
        cmocka_unit_test(test_unfused_remeasured_before_rejection),
        cmocka_unit_test(test_fused_chain_remeasures_unfused),
        cmocka_unit_test(test_two_levels_tried_then_the_faster_kept),
        cmocka_unit_test(test_decisions_shared_by_the_forms),
        cmocka_unit_test(test_two_levels_decision_by_chain_length),
        cmocka_unit_test(test_verdict_short_chains_are_not_rejected),
        cmocka_unit_test(test_fused_decision_reaches_the_next_process),
        cmocka_unit_test(test_rejected_decision_reaches_the_next_process),
    };
    return cmocka_run_group_tests(tests, NULL, remove_cache);
}
