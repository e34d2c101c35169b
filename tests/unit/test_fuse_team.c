/* tests/unit/test_fuse_team.c — a team's phases (exec/fuse/team.c): every unit of a phase
 * runs exactly once and before any unit of the next phase; the set-up of the first phase runs
 * once; one thread alone finishes the team, and threads that join late or never do not hold
 * it up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "exec/fuse/team.h"

#define PHASES 60
#define MAX_UNITS 40

struct run {
    struct weft_team team;
    unsigned phase;                       /* set up by next(): the current phase */
    unsigned units[PHASES];
    atomic_uint ran[PHASES][MAX_UNITS];   /* times each unit ran */
    atomic_uint finished[PHASES];         /* units of each phase finished */
    atomic_uint firsts, setups;
    atomic_bool out_of_order;
};

static unsigned next(void *ctx, bool first)
{
    struct run *r = ctx;
    atomic_fetch_add(&r->setups, 1);
    if (first) {
        atomic_fetch_add(&r->firsts, 1);
        r->phase = 0;
    } else {
        /* every unit of the phase that ends has finished */
        if (atomic_load(&r->finished[r->phase]) != r->units[r->phase])
            atomic_store(&r->out_of_order, true);
        r->phase++;
    }
    return r->phase < PHASES ? r->units[r->phase] : 0;
}

static void unit(void *ctx, unsigned u, void *arg)
{
    struct run *r = ctx;
    const unsigned p = r->phase;
    if (p >= PHASES || u >= r->units[p] || (p > 0 && atomic_load(&r->finished[p - 1]) != r->units[p - 1]))
        atomic_store(&r->out_of_order, true);
    if (p < PHASES && u < MAX_UNITS) {
        atomic_fetch_add(&r->ran[p][u], 1);
        if (u % 7 == (unsigned)(uintptr_t)arg % 7)
            usleep(20);   /* uneven units: others reach the end of the phase first */
        atomic_fetch_add(&r->finished[p], 1);
    }
}

static void run_init(struct run *r)
{
    weft_team_init(&r->team, 3);
    for (unsigned p = 0; p < PHASES; p++)
        r->units[p] = 1 + (p * 13) % MAX_UNITS;
}

static void check(struct run *r)
{
    assert_false(atomic_load(&r->out_of_order));
    assert_int_equal(atomic_load(&r->firsts), 1);
    assert_int_equal(atomic_load(&r->setups), PHASES + 1);
    for (unsigned p = 0; p < PHASES; p++)
        for (unsigned u = 0; u < MAX_UNITS; u++)
            assert_int_equal(atomic_load(&r->ran[p][u]), u < r->units[p] ? 1 : 0);
}

struct worker {
    struct run *r;
    unsigned delay_us;
    uintptr_t id;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    if (w->delay_us)
        usleep(w->delay_us);
    weft_team_work(&w->r->team, w->r, next, unit, (void *)w->id);
    return NULL;
}

static void test_one_thread_alone_runs_every_phase(void **state)
{
    (void)state;
    static struct run r;
    run_init(&r);
    weft_team_work(&r.team, &r, next, unit, (void *)0);
    check(&r);
    /* a thread that comes after the end finds nothing to do */
    weft_team_work(&r.team, &r, next, unit, (void *)1);
    check(&r);
}

static void test_threads_share_phases_in_order(void **state)
{
    (void)state;
    for (unsigned round = 0; round < 20; round++) {
        static struct run r;
        memset(&r, 0, sizeof r);
        run_init(&r);
        pthread_t th[4];
        struct worker w[4];
        for (unsigned i = 0; i < 4; i++) {
            /* one thread joins late; the last only after the team may be finished */
            w[i] = (struct worker){&r, i == 2 ? 300 : i == 3 ? 20000 : 0, i};
            assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
        }
        for (unsigned i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        check(&r);
    }
}

static unsigned no_phase(void *ctx, bool first)
{
    (void)first;
    atomic_fetch_add((atomic_uint *)ctx, 1);
    return 0;
}

static void never(void *ctx, unsigned u, void *arg)
{
    (void)ctx, (void)u, (void)arg;
    fail();
}

static void test_team_without_phases_finishes_at_once(void **state)
{
    (void)state;
    struct weft_team t;
    atomic_uint calls = 0;
    weft_team_init(&t, 1);
    weft_team_work(&t, &calls, no_phase, never, NULL);
    weft_team_work(&t, &calls, no_phase, never, NULL);
    assert_int_equal(atomic_load(&calls), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_thread_alone_runs_every_phase),
        cmocka_unit_test(test_threads_share_phases_in_order),
        cmocka_unit_test(test_team_without_phases_finishes_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
