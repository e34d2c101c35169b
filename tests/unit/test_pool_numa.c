/* tests/unit/test_pool_numa.c — the worker pool (exec/pool.h) and the host's placed first writes
 * (runtime/storage.h) on a synthetic topology of 2 packages x 2 NUMA nodes x 16 cores
 * (WEFT_HWLOC_SYNTHETIC, set before the pool starts): 64 threads in four node groups on this
 * machine's few cores. Every work-group runs exactly once in 1-D launches (node-grouped ranges,
 * stealing by node), 2-D and capped ones; a placed write calls its pieces over every byte once,
 * cut at pages, and a placed copy into fresh storage copies it; writes below the size limit are
 * left to the caller. Where pages land is not checked: this machine has one node. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "exec/pool.h"
#include "exec/topology.h"
#include "runtime/storage.h"
#include "weft/abi.h"

#define SHAPE "pack:2 numa:2 core:16 pu:1"

static void test_pool_follows_the_synthetic_shape(void **state)
{
    const struct weft_topology *t = weft_topology_get();
    assert_true(t->synthetic);
    assert_int_equal(t->cores, 64);
    assert_int_equal(t->numa_nodes, 4);
    assert_int_equal(weft_pool_concurrency(), 64);
    assert_int_equal(weft_pool_numa_nodes(), 4);
}

/* ---- every group once ---------------------------------------------------------------------- */

struct record {
    uint64_t base, total;
    _Atomic uint32_t *counts;
    atomic_bool bad_range;
};

static void record_fn(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    struct record *r = (struct record *)args;
    if (count == 0 || first < r->base || first - r->base > r->total || count > r->total - (first - r->base)) {
        atomic_store(&r->bad_range, true);
        return;
    }
    for (uint64_t g = 0; g < count; g++)
        atomic_fetch_add_explicit(&r->counts[first - r->base + g], 1, memory_order_relaxed);
}

/* Runs `total` groups from `base` as a grid of x by `rows` groups (rows > 1: 2-D), chunks capped
 * at max_chunk (0: none), and checks that each ran once. */
static void run_once(uint64_t total, uint64_t base, uint64_t rows, uint64_t max_chunk)
{
    struct record r = {.base = base, .total = total, .counts = calloc(total ? total : 1, sizeof(uint32_t))};
    assert_non_null(r.counts);
    struct weft_launch launch = {.fn = record_fn, .args = &r, .ctx = {.work_dim = rows > 1 ? 2 : 1},
                                 .total_groups = total, .first_group = base, .max_chunk = max_chunk};
    launch.ctx.num_groups[0] = rows > 1 ? total / rows : total;
    launch.ctx.num_groups[1] = rows;
    launch.ctx.num_groups[2] = 1;
    for (int d = 0; d < 3; d++) {
        launch.ctx.local_size[d] = 1;
        launch.ctx.global_size[d] = launch.ctx.num_groups[d];
    }
    assert_int_equal(weft_pool_run(&launch), 0);
    assert_false(atomic_load(&r.bad_range));
    for (uint64_t g = 0; g < total; g++)
        if (r.counts[g] != 1)
            fail_msg("%llu groups from %llu (rows %llu, chunk cap %llu): group %llu ran %u times",
                     (unsigned long long)total, (unsigned long long)base, (unsigned long long)rows,
                     (unsigned long long)max_chunk, (unsigned long long)g, (unsigned)r.counts[g]);
    free(r.counts);
}

static void test_every_group_exactly_once(void **state)
{
    static const uint64_t sizes[] = {1, 2, 3, 16, 63, 64, 65, 1000, 4103, 100000};
    for (int round = 0; round < 3; round++)   /* who steals what differs from run to run */
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            run_once(sizes[i], 0, 1, 0);
            run_once(sizes[i], 7, 1, 0);
            run_once(sizes[i], 0, 1, 3);
            if (sizes[i] % 4 == 0)
                run_once(sizes[i], 0, 4, 0);
        }
}

/* ---- placed first writes ------------------------------------------------------------------- */

struct pages {
    size_t size;
    _Atomic uint32_t *counts;   /* per 4 KiB page */
    atomic_bool bad_piece;
};

static void page_piece(const void *arg, size_t offset, size_t n)
{
    struct pages *p = (struct pages *)arg;
    if (offset % 4096 || n == 0 || offset > p->size || n > p->size - offset ||
        (offset + n != p->size && n % 4096)) {
        atomic_store(&p->bad_piece, true);
        return;
    }
    for (size_t page = offset / 4096; page * 4096 < offset + n; page++)
        atomic_fetch_add_explicit(&p->counts[page], 1, memory_order_relaxed);
}

static void test_placed_write_covers_every_byte_once(void **state)
{
    static const size_t sizes[] = {WEFT_STORAGE_PLACED_MIN, WEFT_STORAGE_PLACED_MIN + 5000, (size_t)33 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t pages = (sizes[i] + 4095) / 4096;
        struct pages p = {.size = sizes[i], .counts = calloc(pages, sizeof(uint32_t))};
        assert_non_null(p.counts);
        assert_true(weft_storage_write_placed(sizes[i], page_piece, &p));
        assert_false(atomic_load(&p.bad_piece));
        for (size_t g = 0; g < pages; g++)
            if (p.counts[g] != 1)
                fail_msg("%zu bytes: page %zu written %u times", sizes[i], g, (unsigned)p.counts[g]);
        free(p.counts);
    }
}

static void test_small_writes_are_left_to_the_caller(void **state)
{
    struct pages p = {.size = WEFT_STORAGE_PLACED_MIN - 1, .counts = NULL};
    assert_false(weft_storage_write_placed(p.size, page_piece, &p));   /* page_piece would crash on NULL */
    char a[64] = "x", b[64] = "";
    assert_false(weft_storage_copy_placed(b, a, sizeof a));
    assert_string_equal(b, "");
}

static void test_placed_copy_into_fresh_storage(void **state)
{
    const size_t size = ((size_t)24 << 20) + 100;
    unsigned char *src = malloc(size);
    assert_non_null(src);
    uint32_t x = 12345;
    for (size_t i = 0; i < size; i++) {
        x = x * 1664525u + 1013904223u;
        src[i] = (unsigned char)(x >> 24);
    }
    unsigned char *dst = weft_storage_alloc(size);
    assert_non_null(dst);
    assert_true(weft_storage_copy_placed(dst, src, size));
    assert_memory_equal(dst, src, size);
    weft_storage_free(dst, size);
    free(src);
}

int main(void)
{
    /* before anything reads the topology or starts the pool */
    setenv("WEFT_HWLOC_SYNTHETIC", SHAPE, 1);
    unsetenv("WEFT_NUM_THREADS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_follows_the_synthetic_shape),
        cmocka_unit_test(test_every_group_exactly_once),
        cmocka_unit_test(test_placed_write_covers_every_byte_once),
        cmocka_unit_test(test_small_writes_are_left_to_the_caller),
        cmocka_unit_test(test_placed_copy_into_fresh_storage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
