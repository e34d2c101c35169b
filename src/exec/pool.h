/* exec/pool.h — the worker pool: one worker per core, pinned, created once.
 *
 * weft_pool_run publishes one launch and returns when every work-group of it has run. The
 * calling thread (a queue's command thread) takes part as a worker. Work-groups are claimed
 * in chunks from an atomic counter. Each worker has its own local-memory arena and scratch
 * area, grown when a launch needs more and reused across launches and work-groups. */
#ifndef WEFT_EXEC_POOL_H
#define WEFT_EXEC_POOL_H

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
};

/* Runs the launch to completion; returns 0, or -1 when the arenas could not be allocated. */
int weft_pool_run(const struct weft_launch *launch);
/* Number of threads that run work-groups (workers + the calling thread). */
unsigned weft_pool_concurrency(void);

#endif
