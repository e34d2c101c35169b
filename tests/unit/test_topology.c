/* tests/unit/test_topology.c — exec/topology.c: the machine description is complete and
 * self-consistent (checked against what the kernel reports through sysconf), is read once and
 * shared by every thread, and pinning puts the calling thread on exactly one core's CPUs. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "exec/topology.h"

static void test_description_is_complete_and_consistent(void **state)
{
    const struct weft_topology *t = weft_topology_get();
    assert_non_null(t);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    assert_true(t->cores >= 1);
    assert_true(t->pus >= t->cores);
    if (online > 0)
        assert_true(t->pus <= (unsigned)online); /* hwloc drops CPUs a cpuset disallows */
    assert_true(t->cache_line >= 16 && (t->cache_line & (t->cache_line - 1)) == 0);
    /* levels grow outward when they are known */
    if (t->l1d_size && t->l2_size)
        assert_true(t->l1d_size <= t->l2_size);
    if (t->l2_size && t->l3_size)
        assert_true(t->l2_size <= t->l3_size);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    assert_int_equal(t->total_memory, (uint64_t)pages * (uint64_t)page);
    assert_true(t->max_clock_mhz >= 0);
    assert_true(strlen(t->cpu_name) > 0);
    assert_true(strlen(t->cpu_name) < sizeof t->cpu_name);
    /* trimmed */
    assert_true(t->cpu_name[0] != ' ' && t->cpu_name[strlen(t->cpu_name) - 1] != ' ');
}

/* The kernel's size of cpu0's data/unified cache of `level`, in bytes; 0 when not described. */
static uint64_t sysfs_cache_size(int level)
{
    for (int i = 0; i < 16; i++) {
        char path[128], type[32] = "";
        unsigned lv = 0;
        unsigned long long kib = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *f = fopen(path, "r");
        if (!f)
            return 0;
        int ok = fscanf(f, "%31s", type);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        f = fopen(path, "r");
        if (f) {
            ok += fscanf(f, "%u", &lv);
            fclose(f);
        }
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (f) {
            ok += fscanf(f, "%lluK", &kib);
            fclose(f);
        }
        if (ok == 3 && (int)lv == level && strcmp(type, "Instruction") != 0)
            return kib * 1024;
    }
    return 0;
}

static void test_cache_sizes_match_the_kernel(void **state)
{
    const struct weft_topology *t = weft_topology_get();
    uint64_t l1 = sysfs_cache_size(1), l2 = sysfs_cache_size(2), l3 = sysfs_cache_size(3);
    if (l1)
        assert_int_equal(t->l1d_size, l1);
    if (l2)
        assert_int_equal(t->l2_size, l2);
    if (l3)
        assert_int_equal(t->l3_size, l3);
}

static void *get_from_thread(void *arg)
{
    return (void *)weft_topology_get();
}

static void test_read_once_shared_by_threads(void **state)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&th[i], NULL, get_from_thread, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        assert_ptr_equal(r, weft_topology_get());
    }
}

struct pin_result {
    unsigned index;
    bool pinned;
    cpu_set_t set;
    unsigned domain;
};

static void *pin_thread(void *arg)
{
    struct pin_result *r = arg;
    r->pinned = weft_topology_pin_current_thread(r->index);
    CPU_ZERO(&r->set);
    sched_getaffinity(0, sizeof r->set, &r->set);
    r->domain = weft_topology_current_llc_domain();
    return NULL;
}

static struct pin_result pin_in_thread(unsigned index)
{
    struct pin_result r = {.index = index};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, pin_thread, &r), 0);
    pthread_join(th, NULL);
    return r;
}

static void test_pinning_selects_one_core(void **state)
{
    const struct weft_topology *t = weft_topology_get();
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    unsigned threads_per_core = t->pus / t->cores;
    cpu_set_t seen;
    CPU_ZERO(&seen);
    for (unsigned i = 0; i < t->cores; i++) {
        struct pin_result r = pin_in_thread(i);
        if (!r.pinned)
            fail_msg("pinning to core %u failed", i);
        int n = CPU_COUNT(&r.set);
        /* the hardware threads of one core, no more */
        assert_true(n >= 1 && (unsigned)n <= (threads_per_core ? threads_per_core : 1) + 1);
        cpu_set_t overlap;
        CPU_AND(&overlap, &seen, &r.set);
        if (CPU_COUNT(&overlap) != 0)
            fail_msg("core %u shares CPUs with an earlier core", i);
        CPU_OR(&seen, &seen, &r.set);
    }
    /* indices wrap around the cores */
    struct pin_result a = pin_in_thread(0), b = pin_in_thread(t->cores);
    assert_true(a.pinned && b.pinned);
    assert_true(CPU_EQUAL(&a.set, &b.set));
    /* the calling (main) thread was never touched */
    cpu_set_t still;
    assert_int_equal(sched_getaffinity(0, sizeof still, &still), 0);
    assert_true(CPU_EQUAL(&still, &allowed));
}

/* Every core is in one LLC domain; pinned one per core, threads see every domain, and no
 * domain holds more cores than the largest one. */
static void test_llc_domains_cover_the_cores(void **state)
{
    const struct weft_topology *t = weft_topology_get();
    assert_true(t->llc_domains >= 1 && t->llc_domains <= t->cores);
    assert_true(t->llc_domain_cores >= 1 && t->llc_domain_cores <= t->cores);
    assert_true(t->llc_domains * t->llc_domain_cores >= t->cores);
    unsigned count[256] = {0}, seen = 0;
    for (unsigned i = 0; i < t->cores; i++) {
        struct pin_result r = pin_in_thread(i);
        assert_true(r.pinned);
        assert_true(r.domain < t->llc_domains);
        if (count[r.domain]++ == 0)
            seen++;
        assert_true(count[r.domain] <= t->llc_domain_cores);
    }
    assert_int_equal(seen, t->llc_domains);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_description_is_complete_and_consistent),
        cmocka_unit_test(test_cache_sizes_match_the_kernel),
        cmocka_unit_test(test_read_once_shared_by_threads),
        cmocka_unit_test(test_pinning_selects_one_core),
        cmocka_unit_test(test_llc_domains_cover_the_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
