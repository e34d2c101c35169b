/* tests/unit/test_partition.c — sub-device partitions (exec/partition.h) and the affinity
 * domains they follow (exec/topology.h), on shapes this machine does not have (hwloc synthetic
 * topologies): equally and by counts take the units in order and refuse what the OpenCL
 * specification refuses; by affinity domain groups units by the NUMA node or cache their core
 * sits under, a level that does not split the units fails, and next-partitionable takes the
 * first level (NUMA, L4 .. L1) that does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "exec/partition.h"
#include "exec/topology.h"

/* 2 packages x 2 NUMA nodes x (one L3 of 4 L2s of 2 cores): 32 cores, L1 not described */
#define SHAPE "pack:2 numa:2 l3:1 l2:4 core:2 pu:1"

static struct weft_topology *synthetic(const char *description)
{
    struct weft_topology *t = weft_topology_new_synthetic(description);
    if (!t)
        fail_msg("hwloc refused the synthetic topology '%s'", description);
    return t;
}

static void identity_units(unsigned *units, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        units[i] = i;
}

/* Part k holds exactly want[0 .. count-1]. */
static void assert_part(const struct weft_partition *p, unsigned k, const unsigned *want, unsigned count)
{
    assert_true(k < p->parts);
    assert_int_equal(p->first[k + 1] - p->first[k], count);
    for (unsigned i = 0; i < count; i++)
        if (p->unit[p->first[k] + i] != want[i])
            fail_msg("part %u unit %u is core %u, not %u", k, i, p->unit[p->first[k] + i], want[i]);
}

static void test_topology_affinity_domains(void **state)
{
    struct weft_topology *t = synthetic(SHAPE);
    assert_int_equal(t->cores, 32);
    assert_int_equal(t->core_domains[WEFT_AFFINITY_NUMA], 4);
    assert_int_equal(t->core_domains[WEFT_AFFINITY_L3], 4);
    assert_int_equal(t->core_domains[WEFT_AFFINITY_L2], 16);
    assert_null(t->core_domain[WEFT_AFFINITY_L4]);
    assert_null(t->core_domain[WEFT_AFFINITY_L1]);
    for (unsigned c = 0; c < 32; c++) {
        assert_int_equal(weft_topology_core_domain(t, WEFT_AFFINITY_NUMA, c), c / 8);
        assert_int_equal(weft_topology_core_domain(t, WEFT_AFFINITY_L3, c), c / 8);
        assert_int_equal(weft_topology_core_domain(t, WEFT_AFFINITY_L2, c), c / 2);
        assert_int_equal(weft_topology_core_domain(t, WEFT_AFFINITY_L1, c), 0);
    }
    weft_topology_free(t);
}

static void test_equally(void **state)
{
    unsigned units[7];
    identity_units(units, 7);
    struct weft_partition p;
    assert_int_equal(weft_partition_equally(units, 7, 3, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 2);   /* the seventh unit is left out */
    assert_int_equal(p.level, -1);
    assert_part(&p, 0, (unsigned[]){0, 1, 2}, 3);
    assert_part(&p, 1, (unsigned[]){3, 4, 5}, 3);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_equally(units, 7, 1, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 7);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_equally(units, 7, 6, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 1);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_equally(units, 7, 0, &p), WEFT_PARTITION_INVALID);
    assert_int_equal(weft_partition_equally(units, 7, 7, &p), WEFT_PARTITION_FAILED);   /* the whole again */
    assert_int_equal(weft_partition_equally(units, 1, 1, &p), WEFT_PARTITION_FAILED);
    assert_int_equal(weft_partition_equally(units, 7, 8, &p), WEFT_PARTITION_BAD_COUNT);
    assert_int_equal(weft_partition_equally(units, 7, UINT64_MAX, &p), WEFT_PARTITION_BAD_COUNT);
}

static void test_by_counts(void **state)
{
    unsigned units[6] = {5, 4, 3, 2, 1, 0};   /* a sub-device's units need not be in order */
    struct weft_partition p;
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){1, 3}, 2, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 2);
    assert_part(&p, 0, (unsigned[]){5}, 1);
    assert_part(&p, 1, (unsigned[]){4, 3, 2}, 3);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){6}, 1, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 1);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_by_counts(units, 6, NULL, 0, &p), WEFT_PARTITION_INVALID);
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){0}, 1, &p), WEFT_PARTITION_BAD_COUNT);
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){2, -1}, 2, &p), WEFT_PARTITION_BAD_COUNT);
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){4, 3}, 2, &p), WEFT_PARTITION_BAD_COUNT);
    assert_int_equal(weft_partition_by_counts(units, 2, (int64_t[]){1, 1, 1}, 3, &p), WEFT_PARTITION_BAD_COUNT);
    assert_int_equal(weft_partition_by_counts(units, 6, (int64_t[]){INT64_MAX, 1}, 2, &p),
                     WEFT_PARTITION_BAD_COUNT);
}

static void test_by_domain(void **state)
{
    struct weft_topology *t = synthetic(SHAPE);
    unsigned units[32];
    identity_units(units, 32);
    struct weft_partition p;
    assert_int_equal(weft_partition_by_domain(t, units, 32, WEFT_AFFINITY_NUMA, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 4);
    assert_int_equal(p.level, WEFT_AFFINITY_NUMA);
    assert_part(&p, 2, (unsigned[]){16, 17, 18, 19, 20, 21, 22, 23}, 8);
    weft_partition_free(&p);
    assert_int_equal(weft_partition_by_domain(t, units, 32, WEFT_AFFINITY_L2, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 16);
    assert_part(&p, 15, (unsigned[]){30, 31}, 2);
    weft_partition_free(&p);
    /* next partitionable: NUMA for the whole machine */
    assert_int_equal(weft_partition_by_domain(t, units, 32, -1, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.level, WEFT_AFFINITY_NUMA);
    assert_int_equal(p.parts, 4);
    weft_partition_free(&p);
    /* levels the shape does not have */
    assert_int_equal(weft_partition_by_domain(t, units, 32, WEFT_AFFINITY_L4, &p), WEFT_PARTITION_INVALID);
    assert_int_equal(weft_partition_by_domain(t, units, 32, WEFT_AFFINITY_L1, &p), WEFT_PARTITION_INVALID);
    assert_int_equal(weft_partition_by_domain(t, units, 32, WEFT_AFFINITY_LEVELS, &p), WEFT_PARTITION_INVALID);
    assert_int_equal(weft_partition_splitting_levels(t, units, 32),
                     1u << WEFT_AFFINITY_NUMA | 1u << WEFT_AFFINITY_L3 | 1u << WEFT_AFFINITY_L2);
    weft_topology_free(t);
}

/* A NUMA node's units: NUMA and its one L3 do not split them, L2 does; units met out of order
 * keep the order in which their domains are first met. */
static void test_by_domain_within_a_node(void **state)
{
    struct weft_topology *t = synthetic(SHAPE);
    const unsigned node1[8] = {9, 8, 15, 14, 10, 11, 12, 13};
    struct weft_partition p;
    assert_int_equal(weft_partition_by_domain(t, node1, 8, WEFT_AFFINITY_NUMA, &p), WEFT_PARTITION_FAILED);
    assert_int_equal(weft_partition_by_domain(t, node1, 8, WEFT_AFFINITY_L3, &p), WEFT_PARTITION_FAILED);
    assert_int_equal(weft_partition_splitting_levels(t, node1, 8), 1u << WEFT_AFFINITY_L2);
    assert_int_equal(weft_partition_by_domain(t, node1, 8, -1, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.level, WEFT_AFFINITY_L2);
    assert_int_equal(p.parts, 4);
    assert_part(&p, 0, (unsigned[]){9, 8}, 2);
    assert_part(&p, 1, (unsigned[]){15, 14}, 2);
    assert_part(&p, 2, (unsigned[]){10, 11}, 2);
    assert_part(&p, 3, (unsigned[]){12, 13}, 2);
    weft_partition_free(&p);
    /* two cores of one L2: nothing splits them */
    const unsigned pair[2] = {4, 5};
    assert_int_equal(weft_partition_splitting_levels(t, pair, 2), 0);
    assert_int_equal(weft_partition_by_domain(t, pair, 2, -1, &p), WEFT_PARTITION_FAILED);
    weft_topology_free(t);
}

/* More units than cores (WEFT_NUM_THREADS above the core count): unit i on core i % cores, two
 * units of one core share its domains. */
static void test_units_beyond_the_cores(void **state)
{
    struct weft_topology *t = synthetic("pack:1 l3:2 core:2 pu:1");   /* 4 cores, two L3s */
    unsigned units[8];
    for (unsigned i = 0; i < 8; i++)
        units[i] = i % 4;
    struct weft_partition p;
    assert_int_equal(weft_partition_by_domain(t, units, 8, WEFT_AFFINITY_L3, &p), WEFT_PARTITION_OK);
    assert_int_equal(p.parts, 2);
    assert_part(&p, 0, (unsigned[]){0, 1, 0, 1}, 4);
    assert_part(&p, 1, (unsigned[]){2, 3, 2, 3}, 4);
    weft_partition_free(&p);
    weft_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topology_affinity_domains),
        cmocka_unit_test(test_equally),
        cmocka_unit_test(test_by_counts),
        cmocka_unit_test(test_by_domain),
        cmocka_unit_test(test_by_domain_within_a_node),
        cmocka_unit_test(test_units_beyond_the_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
