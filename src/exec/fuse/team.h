/* exec/fuse/team.h — a team of threads sharing a cache works through a sequence of phases,
 * each split into units (the second level of hierarchical overlapped tiling, Zhou et al.,
 * seed-notes 003-004 B.2.4: the cores of one last-level cache domain run one level-1 tile
 * together, with a barrier between its stages).
 *
 * The barrier is not a rendezvous of a fixed number of threads: every thread that joins claims
 * units of the current phase, and the thread that finishes a phase's last unit sets up the
 * next one (the `next` callback) before publishing it. So a team never waits for a thread that
 * does not come (a pool worker still asleep, or busy elsewhere): one thread alone runs every
 * phase; the others help when they are there. Threads with nothing left to claim spin until
 * the next phase is published.
 *
 * Locality: the i-th thread to join (of the `expected`) claims first the i-th contiguous share
 * of every phase's units, in order, and only then what is left of the others'. When units of
 * consecutive phases cover the same data in the same order, each thread keeps working on the
 * part it left in its own cache. */
#ifndef WEFT_EXEC_FUSE_TEAM_H
#define WEFT_EXEC_FUSE_TEAM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The most units a phase may have. */
#define WEFT_TEAM_MAX_UNITS 1024u

struct weft_team {
    /* phase generation << 32 | units of the phase; see fuse/team.c */
    _Atomic uint64_t state;
    _Atomic uint32_t done;       /* units of the current phase finished */
    _Atomic uint32_t joined;     /* threads that joined (their rank) */
    unsigned expected;           /* threads the units are shared among first */
    _Atomic uint32_t claim[WEFT_TEAM_MAX_UNITS];   /* the generation that last claimed each unit */
};

/* Sets up the team's next phase (its first when `first`): returns its number of units
 * (1 .. WEFT_TEAM_MAX_UNITS), or 0 when the team is finished. Runs on one thread at a time,
 * after every unit of the previous phase finished; what it writes is seen by the units. */
typedef unsigned (*weft_team_next_fn)(void *ctx, bool first);
/* Runs unit `unit` of the current phase. */
typedef void (*weft_team_unit_fn)(void *ctx, unsigned unit, void *thread_arg);

/* A team whose first phase is set up by the first thread that works on it; units are shared
 * among `expected` threads first (at least 1). */
void weft_team_init(struct weft_team *t, unsigned expected);
/* Works on the team until it is finished (any number of threads, at any time). */
void weft_team_work(struct weft_team *t, void *ctx, weft_team_next_fn next, weft_team_unit_fn unit,
                    void *thread_arg);

#endif
