/* tests/unit/test_numa.c — NUMA worker groups (exec/numa.h) on shapes this machine does not
 * have, loaded from hwloc synthetic descriptions (weft_topology_new_synthetic) or written by
 * hand: the topology counts nodes, their cores, packages and memory; a plan puts a node's
 * threads next to each other (so its share of a 1-D launch's groups, and of the pages such a
 * launch walks, is one contiguous piece), spreads fewer threads than cores over the nodes,
 * orders stealing own node first, then the package, then the rest; and on one node gives the
 * pool's plain order (thread i on core i % cores, ring order), so the pool needs no plan there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "exec/numa.h"
#include "exec/topology.h"

#define TWO_BY_TWO "pack:2 numa:2 core:16 pu:1"   /* 2 packages x 2 NUMA nodes x 16 cores */

static struct weft_topology *synthetic(const char *description)
{
    struct weft_topology *t = weft_topology_new_synthetic(description);
    if (!t)
        fail_msg("hwloc refused the synthetic topology '%s'", description);
    return t;
}

static struct weft_numa_plan *plan(const struct weft_topology *t, unsigned threads)
{
    struct weft_numa_plan *p = weft_numa_plan_new(t, threads);
    if (!p)
        fail_msg("no plan for %u threads", threads);
    return p;
}

/* ---- the topology's shape ---------------------------------------------------------------- */

static void test_two_packages_of_two_nodes(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    assert_true(t->synthetic);
    assert_int_equal(t->cores, 64);
    assert_int_equal(t->pus, 64);
    assert_int_equal(t->numa_nodes, 4);
    for (unsigned c = 0; c < 64; c++)
        if (weft_topology_core_node(t, c) != c / 16)
            fail_msg("core %u is on node %u, not %u", c, weft_topology_core_node(t, c), c / 16);
    static const unsigned package[] = {0, 0, 1, 1};
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(t->node_package[k], package[k]);
        assert_true(t->node_memory[k] > 0);   /* hwloc gives synthetic nodes memory */
    }
    /* cores outside the topology read as node 0 */
    assert_int_equal(weft_topology_core_node(t, 64), 0);
    weft_topology_free(t);
}

static void test_node_memory_and_hardware_threads(void **state)
{
    struct weft_topology *t = synthetic("pack:2 numa:2(memory=2147483648) core:8 pu:2");
    assert_int_equal(t->cores, 32);   /* workers are pinned per core, not per hardware thread */
    assert_int_equal(t->pus, 64);
    assert_int_equal(t->numa_nodes, 4);
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(t->node_memory[k], (uint64_t)2 << 30);
    for (unsigned c = 0; c < 32; c++)
        assert_int_equal(weft_topology_core_node(t, c), c / 8);
    weft_topology_free(t);
}

static void test_one_node_has_no_map(void **state)
{
    static const char *one[] = {"core:16 pu:1", "pack:1 numa:1 core:16 pu:2"};
    for (size_t i = 0; i < 2; i++) {
        struct weft_topology *t = synthetic(one[i]);
        assert_int_equal(t->cores, 16);
        assert_int_equal(t->numa_nodes, 1);
        assert_null(t->core_node);
        for (unsigned c = 0; c < 16; c++)
            assert_int_equal(weft_topology_core_node(t, c), 0);
        weft_topology_free(t);
    }
}

static void test_refused_description(void **state)
{
    assert_null(weft_topology_new_synthetic("pack:2 nonsense:3"));
    assert_null(weft_topology_new_synthetic(NULL));
}

/* ---- where threads sit ------------------------------------------------------------------- */

static void test_plan_puts_a_node_s_threads_together(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    struct weft_numa_plan *p = plan(t, 64);
    assert_int_equal(p->nodes, 4);
    assert_int_equal(p->used_nodes, 4);
    for (unsigned k = 0; k <= 4; k++)
        assert_int_equal(p->node_first[k], 16 * k);
    for (unsigned i = 0; i < 64; i++) {
        assert_int_equal(p->core[i], i);
        assert_int_equal(p->node[i], i / 16);
        assert_int_equal(weft_topology_core_node(t, p->core[i]), p->node[i]);
    }
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

static void test_plan_spreads_fewer_threads(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    /* 8 threads: two per node, on each node's first cores */
    struct weft_numa_plan *p = plan(t, 8);
    static const unsigned cores8[] = {0, 1, 16, 17, 32, 33, 48, 49};
    for (unsigned i = 0; i < 8; i++) {
        assert_int_equal(p->core[i], cores8[i]);
        assert_int_equal(p->node[i], i / 2);
    }
    assert_int_equal(p->used_nodes, 4);
    weft_numa_plan_free(p);
    /* 2 threads: one per package (nodes 0 and 2); the calling thread's slot on node 0 */
    p = plan(t, 2);
    assert_int_equal(p->core[0], 0);
    assert_int_equal(p->core[1], 32);
    assert_int_equal(p->used_nodes, 2);
    weft_numa_plan_free(p);
    /* 1 thread: node 0, one node used (the pool then keeps no plan) */
    p = plan(t, 1);
    assert_int_equal(p->core[0], 0);
    assert_int_equal(p->used_nodes, 1);
    weft_numa_plan_free(p);
    /* 100 threads: 25 per node, a node's cores reused from its first */
    p = plan(t, 100);
    for (unsigned k = 0; k <= 4; k++)
        assert_int_equal(p->node_first[k], 25 * k);
    for (unsigned i = 0; i < 100; i++)
        assert_int_equal(p->core[i], 16 * (i / 25) + (i % 25) % 16);
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

/* Nodes of different sizes (hwloc's synthetic shapes are symmetric, so written by hand): the
 * threads follow the cores. */
static void test_plan_follows_unequal_nodes(void **state)
{
    unsigned core_node[24], package[2] = {0, 1};
    for (unsigned c = 0; c < 24; c++)
        core_node[c] = c < 16 ? 0 : 1;
    struct weft_topology t = {.cores = 24, .pus = 24, .numa_nodes = 2, .core_node = core_node,
                              .node_package = package};
    static const struct { unsigned threads, second; } cases[] = {{24, 16}, {12, 8}, {3, 2}, {48, 32}, {2, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct weft_numa_plan *p = plan(&t, cases[i].threads);
        if (p->node_first[1] != cases[i].second)
            fail_msg("%u threads: node 0 got %u, expected %u", cases[i].threads, p->node_first[1], cases[i].second);
        for (unsigned j = 0; j < cases[i].threads; j++)
            assert_int_equal(core_node[p->core[j]], p->node[j]);
        weft_numa_plan_free(p);
    }
}

/* ---- who owns which groups and bytes ------------------------------------------------------ */

/* Node k's part when the first `threads` threads of p share `total` units: one contiguous
 * piece; returns false when the threads' parts are not adjacent. */
static bool node_part(const struct weft_numa_plan *p, unsigned threads, uint64_t total, unsigned k,
                      uint64_t *first, uint64_t *end)
{
    unsigned lo = p->node_first[k], hi = p->node_first[k + 1] < threads ? p->node_first[k + 1] : threads;
    if (lo >= hi) {
        *first = *end = 0;
        return true;
    }
    weft_numa_part(total, threads, lo, first, end);
    for (unsigned i = lo + 1; i < hi; i++) {
        uint64_t f, e;
        weft_numa_part(total, threads, i, &f, &e);
        if (f != *end)
            return false;
        *end = e;
    }
    return true;
}

static void test_a_node_owns_one_piece_of_a_launch(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    struct weft_numa_plan *p = plan(t, 64);
    static const uint64_t totals[] = {64, 65, 100, 1000, 4103, 1u << 20, 3000000007ull};
    for (size_t n = 0; n < sizeof totals / sizeof totals[0]; n++) {
        uint64_t total = totals[n], expect = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t first, end;
            assert_true(node_part(p, 64, total, k, &first, &end));
            if (first != expect)
                fail_msg("%llu groups: node %u starts at %llu, not %llu", (unsigned long long)total, k,
                         (unsigned long long)first, (unsigned long long)expect);
            /* a quarter, within one group per thread */
            uint64_t size = end - first;
            assert_true(size * 4 + 64 >= total && size * 4 <= total + 64);
            expect = end;
        }
        assert_int_equal(expect, total);
    }
    /* Thread parts: the first total % parts are one longer, sizes q or q + 1, adjacent. */
    for (uint64_t total = 0; total < 300; total += 7)
        for (uint64_t parts = 1; parts <= 70; parts += 3) {
            uint64_t prev = 0;
            for (uint64_t i = 0; i < parts; i++) {
                uint64_t f, e;
                weft_numa_part(total, parts, i, &f, &e);
                assert_int_equal(f, prev);
                assert_int_equal(e - f, total / parts + (i < total % parts));
                prev = e;
            }
            assert_int_equal(prev, total);
        }
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

/* The host's first write of 256 MiB (runtime/storage.c) goes by 4 KiB pages over the 64 threads:
 * node k writes, and so places, exactly bytes [k * 64 MiB, (k + 1) * 64 MiB). */
static void test_a_node_places_its_quarter_of_a_buffer(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    struct weft_numa_plan *p = plan(t, 64);
    const uint64_t page = 4096, size = (uint64_t)256 << 20, pages = size / page;
    for (unsigned k = 0; k < 4; k++) {
        uint64_t first, end;
        assert_true(node_part(p, 64, pages, k, &first, &end));
        assert_int_equal(first * page, (uint64_t)k << 26);
        assert_int_equal(end * page, (uint64_t)(k + 1) << 26);
    }
    /* a 1-D launch of 2^20 groups of 64 floats over the same buffer: node k's groups walk the
     * same bytes */
    for (unsigned k = 0; k < 4; k++) {
        uint64_t first, end;
        assert_true(node_part(p, 64, 1u << 20, k, &first, &end));
        assert_int_equal(first * 64 * 4, (uint64_t)k << 26);
        assert_int_equal(end * 64 * 4, (uint64_t)(k + 1) << 26);
    }
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

/* ---- stealing order ----------------------------------------------------------------------- */

static void test_node_order_package_first(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    struct weft_numa_plan *p = plan(t, 64);
    static const unsigned order[4][4] = {{0, 1, 2, 3}, {1, 0, 2, 3}, {2, 3, 0, 1}, {3, 2, 0, 1}};
    for (unsigned k = 0; k < 4; k++)
        for (unsigned r = 0; r < 4; r++)
            assert_int_equal(p->node_order[k * 4 + r], order[k][r]);
    weft_numa_plan_free(p);
    weft_topology_free(t);
    /* one package of four nodes: ring order */
    t = synthetic("pack:1 numa:4 core:4 pu:1");
    p = plan(t, 16);
    static const unsigned ring[4] = {1, 2, 3, 0};
    for (unsigned r = 0; r < 4; r++)
        assert_int_equal(p->node_order[4 + r], ring[r]);
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

static void test_steal_own_node_first(void **state)
{
    struct weft_topology *t = synthetic(TWO_BY_TWO);
    struct weft_numa_plan *p = plan(t, 64);
    unsigned out[64], same;
    /* thread 5 (node 0, rank 5): its node from 6 round to 4, then node 1 (same package) from
     * rank 5, then nodes 2 and 3 */
    assert_int_equal(weft_numa_victims(p, 5, 64, out, &same), 63);
    assert_int_equal(same, 15);
    for (unsigned j = 0; j < 15; j++)
        assert_int_equal(out[j], (6 + j) % 16);
    for (unsigned j = 0; j < 16; j++) {
        assert_int_equal(out[15 + j], 16 + (5 + j) % 16);
        assert_int_equal(out[31 + j], 32 + (5 + j) % 16);
        assert_int_equal(out[47 + j], 48 + (5 + j) % 16);
    }
    /* thread 40 (node 2, rank 8): node 2, node 3, then package 0's nodes 0 and 1 */
    assert_int_equal(weft_numa_victims(p, 40, 64, out, &same), 63);
    assert_int_equal(same, 15);
    for (unsigned j = 0; j < 15; j++)
        assert_int_equal(out[j], 32 + (9 + j) % 16);
    for (unsigned j = 0; j < 16; j++) {
        assert_int_equal(out[15 + j], 48 + (8 + j) % 16);
        assert_int_equal(out[31 + j], 0 + (8 + j) % 16);
        assert_int_equal(out[47 + j], 16 + (8 + j) % 16);
    }
    /* a launch with 40 threads taking part: nodes 2 and 3 have 8 and 0 of them */
    assert_int_equal(weft_numa_victims(p, 5, 40, out, &same), 39);
    assert_int_equal(same, 15);
    for (unsigned j = 0; j < 8; j++)
        assert_int_equal(out[31 + j], 32 + (5 + j) % 8);
    /* a helper that joined a launch it has no range in (thread 50 of 40): everyone, none of
     * them on its node 3 */
    assert_int_equal(weft_numa_victims(p, 50, 40, out, &same), 40);
    assert_int_equal(same, 0);
    bool seen[40] = {false};
    for (unsigned j = 0; j < 40; j++) {
        assert_true(out[j] < 40 && !seen[out[j]]);
        seen[out[j]] = true;
    }
    weft_numa_plan_free(p);
    weft_topology_free(t);
}

/* ---- one node: the pool's plain order ------------------------------------------------------ */

static void check_plain_order(const struct weft_topology *t)
{
    static const unsigned sizes[] = {1, 2, 3, 5, 16, 17, 40};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        const unsigned threads = sizes[n];
        struct weft_numa_plan *p = plan(t, threads);
        assert_int_equal(p->used_nodes, 1);
        for (unsigned i = 0; i < threads; i++)
            assert_int_equal(p->core[i], i % t->cores);
        /* every launch size the pool can make, every thread (those beyond it joined late):
         * the pool's ring (s + k) % threads, k = 1 .. threads, without s itself */
        unsigned out[40], same;
        for (unsigned part = 1; part <= threads; part++)
            for (unsigned s = 0; s < threads; s++) {
                unsigned got = weft_numa_victims(p, s, part, out, &same), j = 0;
                for (unsigned k = 1; k <= part; k++) {
                    unsigned v = (s + k) % part;
                    if (v == s)
                        continue;
                    if (j >= got || out[j] != v)
                        fail_msg("%u threads, %u taking part, thread %u: victim %u differs", threads, part, s, j);
                    j++;
                }
                assert_int_equal(got, j);
                assert_int_equal(same, got);   /* all on its node */
            }
        weft_numa_plan_free(p);
    }
}

static void test_one_node_plan_is_the_plain_order(void **state)
{
    struct weft_topology *t = synthetic("pack:1 numa:1 core:16 pu:1");
    check_plain_order(t);
    weft_topology_free(t);
    /* and this machine (one node here and on the 16-core device) */
    if (weft_topology_get()->numa_nodes == 1)
        check_plain_order(weft_topology_get());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_packages_of_two_nodes),
        cmocka_unit_test(test_node_memory_and_hardware_threads),
        cmocka_unit_test(test_one_node_has_no_map),
        cmocka_unit_test(test_refused_description),
        cmocka_unit_test(test_plan_puts_a_node_s_threads_together),
        cmocka_unit_test(test_plan_spreads_fewer_threads),
        cmocka_unit_test(test_plan_follows_unequal_nodes),
        cmocka_unit_test(test_a_node_owns_one_piece_of_a_launch),
        cmocka_unit_test(test_a_node_places_its_quarter_of_a_buffer),
        cmocka_unit_test(test_node_order_package_first),
        cmocka_unit_test(test_steal_own_node_first),
        cmocka_unit_test(test_one_node_plan_is_the_plain_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
