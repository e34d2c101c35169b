/* runtime/fuse_team.c — phases of units worked through by a team (runtime/fuse_team.h).
 *
 * State word: generation (32 bits) | units (16) | next (16). A claim is a CAS of next -> next+1
 * while next < units, so it names its phase: a thread that read an old state fails its CAS
 * instead of claiming a unit of a phase it did not set up for. A claimed unit keeps its phase
 * open (the phase ends only when `done` reaches `units`), so what the phase's set-up wrote
 * stays as it was while the unit runs. The thread that finishes the last unit resets `done`,
 * calls `next` and publishes the new state with release order; claimers load it with acquire
 * order. Generation 0 with 0 units means "not started": its first claimer sets it up. Units
 * stay below 0xffff so that no state is mistaken for FINISHED. */
#include "runtime/fuse_team.h"

#include <sched.h>

#define FINISHED UINT64_MAX
#define STARTING 1u   /* units field of generation 0 while its first phase is being set up */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void weft_team_init(struct weft_team *t)
{
    atomic_init(&t->state, 0);
    atomic_init(&t->done, 0);
}

/* Publishes the phase after generation `gen` (or FINISHED). */
static void publish(struct weft_team *t, void *ctx, weft_team_next_fn next, uint64_t gen, bool first)
{
    atomic_store_explicit(&t->done, 0, memory_order_relaxed);
    unsigned units = next(ctx, first);
    if (units > WEFT_TEAM_MAX_UNITS)
        units = WEFT_TEAM_MAX_UNITS;   /* the callback promised not to; stay safe */
    uint64_t s = units ? ((gen + 1) & 0xffffffffu) << 32 | (uint64_t)units << 16 : FINISHED;
    atomic_store_explicit(&t->state, s, memory_order_release);
}

void weft_team_work(struct weft_team *t, void *ctx, weft_team_next_fn next, weft_team_unit_fn unit,
                    void *thread_arg)
{
    unsigned spins = 0;
    for (;;) {
        uint64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
        if (s == FINISHED)
            return;
        const uint64_t gen = s >> 32, units = s >> 16 & 0xffffu, idx = s & 0xffffu;
        if (gen == 0 && units == 0) {
            /* not started: the thread that moves it to STARTING sets up the first phase */
            uint64_t busy = (uint64_t)STARTING << 16 | STARTING;
            if (atomic_compare_exchange_strong_explicit(&t->state, &s, busy, memory_order_acq_rel,
                                                        memory_order_acquire))
                publish(t, ctx, next, 0, true);
            continue;
        }
        if (idx >= units) {
            /* nothing left to claim: wait for the phase to end */
            if (++spins % 256 == 0)
                sched_yield();
            else
                cpu_relax();
            continue;
        }
        if (!atomic_compare_exchange_weak_explicit(&t->state, &s, s + 1, memory_order_acquire,
                                                   memory_order_relaxed))
            continue;
        spins = 0;
        unit(ctx, (unsigned)idx, thread_arg);
        if (atomic_fetch_add_explicit(&t->done, 1, memory_order_acq_rel) + 1 == units)
            publish(t, ctx, next, gen, false);
    }
}
