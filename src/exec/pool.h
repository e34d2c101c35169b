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

/* Runs the launch to completion; returns 0, or -1 when the calling thread's arenas or stack
 * could not be allocated (a worker that cannot get them sits the launch out). */
int weft_pool_run(const struct weft_launch *launch);
/* Number of threads that run work-groups (workers + the calling thread). */
unsigned weft_pool_concurrency(void);
/* Number of NUMA nodes the pool's threads sit on (1 on a one-node machine; under
 * WEFT_HWLOC_SYNTHETIC, the synthetic shape's). */
unsigned weft_pool_numa_nodes(void);

#endif
