/* tests/unit/test_group_split.c — the work-group size of a group-blind launch of few, long
 * groups (runtime/group_split.h), at thread counts this machine does not have: gesummv's 16
 * groups of 256 on 16 threads become 64 of 64; a launch with enough groups, on one thread, or
 * of a size that does not halve keeps its groups; fewer groups than threads are split only when
 * the kernel is known to be slow enough; sizes never drop below whole packets, and the global
 * size stays a multiple of the local one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "runtime/group_split.h"

/* picoseconds per work-item that make one group of `items` take twice the bound, or half */
static uint64_t slow_ps(size_t items) { return 2000ull * WEFT_SPLIT_MIN_NS / items; }
static uint64_t fast_ps(size_t items) { return 500ull * WEFT_SPLIT_MIN_NS / items; }

static void test_at_least_a_group_per_thread(void **state)
{
    (void)state;
    /* gesummv on 16 threads: 16 groups -> 4 per thread, measured or not */
    assert_int_equal(weft_split_local0(4096, 256, 1, 1, 16, 0), 64);
    assert_int_equal(weft_split_local0(4096, 256, 1, 1, 16, fast_ps(256)), 64);
    /* 2 threads: 16 groups are already 8 per thread */
    assert_int_equal(weft_split_local0(4096, 256, 1, 1, 2, 0), 256);
    /* 2 threads, 4 groups: 8 of 128 */
    assert_int_equal(weft_split_local0(1024, 256, 1, 1, 2, 0), 128);
    /* exactly 4 per thread: nothing to do */
    assert_int_equal(weft_split_local0(4096, 64, 1, 1, 16, 0), 64);
    /* one thread: never */
    assert_int_equal(weft_split_local0(256, 256, 1, 1, 1, slow_ps(256)), 256);
}

static void test_fewer_groups_than_threads(void **state)
{
    (void)state;
    /* one group of 256 on 16 threads: unknown or short stays; long goes to 16 groups of 16 */
    assert_int_equal(weft_split_local0(256, 256, 1, 1, 16, 0), 256);
    assert_int_equal(weft_split_local0(256, 256, 1, 1, 16, fast_ps(256)), 256);
    assert_int_equal(weft_split_local0(256, 256, 1, 1, 16, slow_ps(256)), 16);
    /* 8 groups of 128 on 16 threads, long: 64 groups of 16 */
    assert_int_equal(weft_split_local0(1024, 128, 1, 1, 16, slow_ps(128)), 16);
    /* the lanes of dimensions 1 and 2 count in a group's time: 16 x 8 work-items */
    assert_int_equal(weft_split_local0(64, 64, 8, 1, 4, fast_ps(64 * 8)), 64);
    assert_int_equal(weft_split_local0(64, 64, 8, 1, 4, fast_ps(64)), 16);   /* 64 x 8 of them: long */
    assert_int_equal(weft_split_local0(64, 64, 8, 1, 4, slow_ps(64 * 8)), 16);
    /* a huge measure does not overflow */
    assert_int_equal(weft_split_local0(256, 256, 1, 1, 16, UINT64_MAX), 16);
}

static void test_sizes_that_do_not_halve(void **state)
{
    (void)state;
    /* not a multiple of 2 x 16: stays */
    assert_int_equal(weft_split_local0(48 * 4, 48, 1, 1, 16, 0), 48);
    assert_int_equal(weft_split_local0(16 * 16, 16, 1, 1, 16, slow_ps(16)), 16);
    /* halves while it stays a multiple of 16: 96 -> 48 */
    assert_int_equal(weft_split_local0(96 * 16, 96, 1, 1, 16, 0), 48);
    /* the global size must stay a multiple: 1000 = 8 x 125 (a remainder group) stays */
    assert_int_equal(weft_split_local0(1000, 256, 1, 1, 16, 0), 256);
    /* 2-D: 4 rows of 4 groups of 256 on 16 threads -> 4 rows of 16 groups of 64 */
    assert_int_equal(weft_split_local0(1024, 256, 1, 4, 16, 0), 64);
    /* rows alone give enough groups */
    assert_int_equal(weft_split_local0(256, 256, 1, 64, 16, 0), 256);
    /* nonsense shapes change nothing */
    assert_int_equal(weft_split_local0(256, 0, 1, 1, 16, 0), 0);
    assert_int_equal(weft_split_local0(256, 256, 0, 1, 16, 0), 256);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_at_least_a_group_per_thread),
        cmocka_unit_test(test_fewer_groups_than_threads),
        cmocka_unit_test(test_sizes_that_do_not_halve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
