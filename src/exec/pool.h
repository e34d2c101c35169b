/* exec/pool.h — the worker pool: one worker per core, pinned, created once.
 *
 * weft_pool_run publishes one launch and returns when every work-group of it has run. The
 * calling thread (a queue's command thread) takes part as a worker. Work-groups are claimed
 * in chunks from an atomic counter. Each worker has its own local-memory arena and scratch
 * area, grown when a launch needs more and reused across launches and work-groups.
 *
 * Stacks. Work-group functions keep the kernel's private arrays on the stack, one copy per
 * vector lane, so one call may need far more stack than an application's thread (or a pool
 * worker's default 8 MiB) has. A launch says how much (stack_size); a thread whose own stack
 * cannot spare WEFT_POOL_BASE_STACK + stack_size below the frame that runs the launch runs its
 * chunks on a stack of its slot's own, mapped when first needed and grown (never shrunk) with
 * the launches' needs. */
#ifndef WEFT_EXEC_POOL_H
#define WEFT_EXEC_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "weft/abi.h"

struct weft_launch {
    weft_wg_fn fn;
    const void *args;
    struct weft_wg_ctx ctx;        /* launch-wide fields; local_mem/scratch are set per worker */
    uint64_t total_groups;         /* groups first_group .. first_group + total_groups - 1 run */
    uint64_t first_group;          /* 0 for a whole launch; variant profiling runs slices */
    uint64_t max_chunk;            /* 0, or the most groups a thread claims at once */
    bool grid_ranges;              /* a 2-D or 3-D grid of groups is cut into per-thread ranges
                                      as a 1-D one is (exec/pool.c, Chunking): its groups share
                                      little data beyond their neighbours' */
    size_t local_mem_size;         /* bytes of __local memory one work-group needs */
    size_t scratch_size;           /* bytes of private scratch one work-group needs */
    size_t stack_size;             /* bytes of stack one call of fn takes beyond
                                      WEFT_POOL_BASE_STACK (its private arrays); at most
                                      weft_pool_stack_limit() */
    const char *name;              /* what WEFT_TRACE calls its chunks (util/trace.h); NULL:
                                      "work-groups" */
};

/* Stack every call of a work-group function may take without saying so (its registers
 * spilled, the demoted values of its sub-CFGs, the runtime helpers it calls). */
#define WEFT_POOL_BASE_STACK ((size_t)256 << 10)

/* The largest stack_size a launch may have: WEFT_STACK_MAX_MB MiB (default 256). Private
 * arrays that need more per thread get CL_OUT_OF_RESOURCES at enqueue (runtime/kernel.c). */
size_t weft_pool_stack_limit(void);

/* Pools. The root pool (the device's) is created on first use and never freed. A sub-device
 * (runtime/subdevice.c) has a pool of its own: n threads on its n compute units, the calling
 * thread and n-1 workers, each worker pinned to its core. A thread's launches go to the root
 * pool unless it entered another one; while it is in a sub-device's pool, the thread itself is
 * bound to that pool's cores, so that every work-group of the sub-device's launches runs on
 * them (on a synthetic topology nothing is pinned or bound, as for the root pool). */
struct weft_pool;
struct weft_pool_scope {
    struct weft_pool *prev;
    struct weft_cpuset *saved;    /* the thread's binding before, restored on leave */
};
/* A pool of n >= 1 threads whose worker i (1 .. n-1) is pinned to core cores[i] (topology
 * numbering, % cores) and whose calling thread is bound to all of cores[0 .. n-1] while in it.
 * NULL when memory is short. Fewer workers start when threads cannot be created. A thread not
 * on one of its cores that enters it is bound to them until it leaves. */
struct weft_pool *weft_pool_new(const unsigned *cores, unsigned n);
/* Stops and joins the pool's workers and frees it. No launch may be running on it. */
void weft_pool_free(struct weft_pool *p);
/* Threads that run a launch of pool p (NULL: the root pool). */
unsigned weft_pool_size(const struct weft_pool *p);
/* Until weft_pool_leave(scope), the calling thread's launches (weft_pool_run) and
 * weft_pool_concurrency are pool p's (NULL: the root pool's). Scopes nest. */
void weft_pool_enter(struct weft_pool *p, struct weft_pool_scope *scope);
void weft_pool_leave(struct weft_pool_scope *scope);
/* Binds the calling thread for good (a queue's command thread) to pool p's cores, so that
 * entering p costs it no system call; for the root pool (NULL), which it starts, to the cores
 * no worker is pinned to, so that leading a launch never crowds a worker off its core. Does
 * nothing where nothing can be bound. */
void weft_pool_adopt_thread(struct weft_pool *p);
/* Whether the calling thread may run p's launches where it is: the thread adopted p, p's
 * cores are unknown (nothing is bound), or the thread runs on one of them now; for the root
 * pool (NULL), on one of the cores no worker is pinned to (any core before the root pool
 * started, or where every core has a worker). */
bool weft_pool_thread_inside(const struct weft_pool *p);

/* Runs the launch to completion on the calling thread's pool; returns 0, or -1 when the
 * calling thread's arenas or stack could not be allocated (a worker that cannot get them sits
 * the launch out). */
int weft_pool_run(const struct weft_launch *launch);
/* How many ranges weft_pool_run cuts `launch`'s groups into when `threads` threads take part:
 * one per thread, or 1 (every thread takes from the one range). */
unsigned weft_pool_ranges(const struct weft_launch *launch, unsigned threads);
/* Number of threads that run work-groups (workers + the calling thread) in the calling
 * thread's pool. */
unsigned weft_pool_concurrency(void);
/* Number of NUMA nodes the pool's threads sit on (1 on a one-node machine; under
 * WEFT_HWLOC_SYNTHETIC, the synthetic shape's). */
unsigned weft_pool_numa_nodes(void);

#endif
