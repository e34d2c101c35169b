/* tests/unit/test_pool_callers.c — where a root-pool launch may be led from (exec/pool.c,
 * Callers). The process runs with WEFT_NUM_THREADS=2 (set before the pool starts): one worker,
 * pinned to core 1, so core 0 (and any core past 1) is the callers'. A thread on core 1 may not
 * run the root pool's launches where it is (it would share the worker's core), one on core 0
 * may, and a thread that adopts the root pool (a queue's command thread) is bound off core 1.
 * Each case runs on a thread of its own, whose binding dies with it. Needs two cores and real
 * pinning; skipped otherwise. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#include "exec/pool.h"
#include "exec/topology.h"
#include "weft/abi.h"

static void count_groups(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)ctx;
    (void)first;
    __atomic_fetch_add((uint64_t *)args, count, __ATOMIC_RELAXED);
}

/* Starts the root pool with a launch of many groups (every one runs). */
static void run_root_launch(void)
{
    uint64_t ran = 0;
    struct weft_launch l = {.fn = count_groups, .args = &ran, .total_groups = 1000};
    l.ctx.num_groups[0] = 1000;
    l.ctx.num_groups[1] = l.ctx.num_groups[2] = 1;
    assert_int_equal(weft_pool_run(&l), 0);
    assert_int_equal(ran, 1000);
}

/* Whether pinning works here (two cores or more, not a synthetic shape). */
static bool pinning_works(void)
{
    const struct weft_topology *t = weft_topology_get();
    if (t->cores < 2 || t->synthetic)
        return false;
    struct weft_cpuset *one = weft_topology_cpuset((const unsigned[]){1}, 1);
    weft_cpuset_free(one);
    return one != NULL;
}

/* What a thread bound to one core finds (query_on_core). */
struct on_core {
    unsigned core;
    bool bound, inside;
};

static void *query_on_core(void *arg)
{
    struct on_core *q = arg;
    struct weft_cpuset *set = weft_topology_cpuset(&q->core, 1);
    q->bound = weft_topology_bind_current_thread(set, NULL);
    q->inside = q->bound && weft_pool_thread_inside(NULL);
    weft_cpuset_free(set);
    return NULL;
}

/* What a thread that adopted the root pool finds (adopting). */
struct adopted {
    bool inside, off_worker_core;
};

static void *adopting(void *arg)
{
    struct adopted *r = arg;
    struct weft_cpuset *worker = weft_topology_cpuset((const unsigned[]){1}, 1);
    /* start where the worker is: adopting must move the thread off that core */
    weft_topology_bind_current_thread(worker, NULL);
    weft_pool_adopt_thread(NULL);
    r->inside = weft_pool_thread_inside(NULL);
    cpu_set_t now;
    CPU_ZERO(&now);
    pthread_getaffinity_np(pthread_self(), sizeof now, &now);
    /* no CPU of core 1 is in the binding: the current one is not, whichever it is */
    r->off_worker_core = !weft_cpuset_has_current_cpu(worker) && CPU_COUNT(&now) > 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &now))
            continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0 && weft_cpuset_has_current_cpu(worker))
            r->off_worker_core = false;
    }
    weft_cpuset_free(worker);
    return NULL;
}

static void run_on_thread(void *(*fn)(void *), void *r)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fn, r), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
}

static void test_callers_keep_off_the_worker_core(void **state)
{
    (void)state;
    if (!pinning_works())
        skip();
    run_root_launch();
    assert_int_equal(weft_pool_concurrency(), 2);
    struct on_core worker = {.core = 1}, caller = {.core = 0};
    struct adopted a = {0};
    run_on_thread(query_on_core, &worker);
    run_on_thread(query_on_core, &caller);
    run_on_thread(adopting, &a);
    assert_true(worker.bound && caller.bound);
    assert_false(worker.inside);
    assert_true(caller.inside);
    assert_true(a.inside);
    assert_true(a.off_worker_core);
    /* launches still run every group, led from wherever */
    run_root_launch();
}

int main(void)
{
    setenv("WEFT_NUM_THREADS", "2", 1);   /* before anything starts the pool */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_callers_keep_off_the_worker_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
