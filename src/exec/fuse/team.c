/* exec/fuse/team.c — phases of units worked through by a team (exec/fuse/team.h).
 *
 * State word: generation (32 bits, from 1) | units (32). A unit u of generation g is claimed by
 * moving claim[u] from an older generation to g (compared modulo 2^32), so no two threads claim
 * it in one generation, and a thread that read an old state can only write an older
 * generation, which the current phase's claimers still take. After its claim a thread checks
 * that the state still names g: a claimed, unfinished unit keeps its phase open (the phase ends
 * only when `done` reaches `units`), so then the claim is good and what the phase's set-up
 * wrote stays as it was while the unit runs; otherwise the claim was stale and is dropped. The
 * thread that finishes the last unit resets `done`, calls `next` and publishes the new state
 * with release order; claimers load it with acquire order. State 0 means "not started" and
 * SETTING_UP "being set up by the first thread". */
#include "exec/fuse/team.h"

#include <sched.h>

#define FINISHED UINT64_MAX
#define SETTING_UP 1u   /* generation 0, one unit: nothing can be claimed */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void weft_team_init(struct weft_team *t, unsigned expected)
{
    atomic_init(&t->state, 0);
    atomic_init(&t->done, 0);
    atomic_init(&t->joined, 0);
    t->expected = expected ? expected : 1;
    for (unsigned u = 0; u < WEFT_TEAM_MAX_UNITS; u++)
        atomic_init(&t->claim[u], 0);
}

/* Publishes the phase after generation `gen` (or FINISHED). */
static void publish(struct weft_team *t, void *ctx, weft_team_next_fn next, uint32_t gen, bool first)
{
    atomic_store_explicit(&t->done, 0, memory_order_relaxed);
    unsigned units = next(ctx, first);
    if (units > WEFT_TEAM_MAX_UNITS)
        units = WEFT_TEAM_MAX_UNITS;   /* the callback promised not to; stay safe */
    uint32_t g = gen + 1 ? gen + 1 : 1;
    atomic_store_explicit(&t->state, units ? (uint64_t)g << 32 | units : FINISHED, memory_order_release);
}

/* Claims unit u for generation g: false when it was claimed in g (or later). */
static bool claim(struct weft_team *t, unsigned u, uint32_t g)
{
    uint32_t c = atomic_load_explicit(&t->claim[u], memory_order_relaxed);
    while ((int32_t)(g - c) > 0)
        if (atomic_compare_exchange_weak_explicit(&t->claim[u], &c, g, memory_order_acquire, memory_order_relaxed))
            return true;
    return false;
}

void weft_team_work(struct weft_team *t, void *ctx, weft_team_next_fn next, weft_team_unit_fn unit,
                    void *thread_arg)
{
    const unsigned rank = atomic_fetch_add_explicit(&t->joined, 1, memory_order_relaxed) % t->expected;
    unsigned spins = 0;
    uint64_t idle = 0;   /* the state in which nothing was left to claim */
    for (;;) {
        uint64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
        if (s == FINISHED)
            return;
        if (s == 0) {
            /* not started: the thread that moves it to SETTING_UP sets up the first phase */
            if (atomic_compare_exchange_strong_explicit(&t->state, &s, SETTING_UP, memory_order_acq_rel,
                                                        memory_order_acquire))
                publish(t, ctx, next, 0, true);
            continue;
        }
        if (s == SETTING_UP || s == idle) {
            /* nothing left to claim: wait for the phase to end */
            if (++spins % 256 == 0)
                sched_yield();
            else
                cpu_relax();
            continue;
        }
        const uint32_t g = (uint32_t)(s >> 32), units = (uint32_t)s;
        const unsigned start = (unsigned)((uint64_t)rank * units / t->expected);
        bool ran = false;
        for (unsigned i = 0; i < units; i++) {
            const unsigned u = start + i < units ? start + i : start + i - units;
            if (!claim(t, u, g))
                continue;
            if (atomic_load_explicit(&t->state, memory_order_acquire) != s)
                break;   /* a stale claim: the phase had ended */
            unit(ctx, u, thread_arg);
            ran = true;
            if (atomic_fetch_add_explicit(&t->done, 1, memory_order_acq_rel) + 1 == units) {
                publish(t, ctx, next, g, false);
                break;
            }
        }
        if (!ran)
            idle = s;
        spins = 0;
    }
}
