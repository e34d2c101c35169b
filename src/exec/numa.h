/* exec/numa.h — the pool's threads grouped per NUMA node: which core each thread is pinned to,
 * which part of a 1-D launch (and so of the buffers it walks) each owns, and in which order a
 * thread that ran out of its own part takes over what the others left.
 *
 * Pure functions of a topology's shape (exec/topology.h), so that they can be tested on shapes
 * this machine does not have (hwloc's synthetic topologies). The pool (exec/pool.c) uses a plan
 * only where its threads sit on two nodes or more; on one node it keeps its own code, and this
 * plan would give the same answers (thread i on core i % cores, ring order for stealing).
 */
#ifndef WEFT_EXEC_NUMA_H
#define WEFT_EXEC_NUMA_H

#include <stdint.h>

#include "exec/topology.h"

struct weft_numa_plan {
    unsigned threads;            /* pool threads; thread 0 is the one that calls weft_pool_run */
    unsigned nodes;              /* the topology's NUMA nodes (some may get no thread) */
    unsigned used_nodes;         /* nodes with at least one thread */
    unsigned *core;              /* per thread: the core it is pinned to (topology's numbering) */
    unsigned *node;              /* per thread: its node; non-decreasing in the thread index */
    unsigned *node_first;        /* nodes + 1 entries: node k's threads are
                                    node_first[k] .. node_first[k + 1] - 1 */
    unsigned *node_order;        /* nodes x nodes: row k is the order in which node k's threads
                                    take work from nodes: k, the other nodes of its package,
                                    then the rest, each group in ring order from k */
};

/* The plan for `threads` (>= 1) threads on topology `t`. Node k gets threads in proportion to
 * its cores (ceil(threads * cores up to k / cores) - the same up to k - 1: with fewer threads
 * than nodes they spread over the packages), numbered node after node, so that the threads of
 * a node are adjacent; a node's j-th thread sits on its (j mod its cores)-th core. NULL when
 * memory is short. */
struct weft_numa_plan *weft_numa_plan_new(const struct weft_topology *t, unsigned threads);
void weft_numa_plan_free(struct weft_numa_plan *p);

/* The order in which thread `self` takes over work left by threads 0 .. threads-1 (threads <=
 * p->threads; self may be outside them, a helper that joined late): first the other threads of
 * its node, in ring order from the one after it, then node by node in node_order, each node's
 * threads in ring order from the one at self's rank within its own node (so that the thieves of
 * one node spread over the victims of another). Writes them to out (room for `threads`
 * entries), never self; returns how many, and in *same_node how many of the first are on its
 * node. */
unsigned weft_numa_victims(const struct weft_numa_plan *p, unsigned self, unsigned threads, unsigned *out,
                           unsigned *same_node);

/* Part i (0 .. parts-1) of `total` units split into `parts` contiguous parts of equal size
 * (the first total % parts one unit longer): [*first, *end). Part i goes to thread i, so the
 * threads of a node, being adjacent, own adjacent parts: a node's share of a launch's groups,
 * and of the bytes a 1-D launch walks in order, is one contiguous piece. */
static inline void weft_numa_part(uint64_t total, uint64_t parts, uint64_t i, uint64_t *first, uint64_t *end)
{
    /* i * total / parts without overflow: total = q * parts + rem */
    const uint64_t q = total / parts, rem = total % parts;
    *first = i * q + (i < rem ? i : rem);
    *end = (i + 1) * q + (i + 1 < rem ? i + 1 : rem);
}

#endif
