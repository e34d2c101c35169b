/* exec/topology.h — what the machine is, read once with hwloc: cores, caches, line size,
 * memory, and the cpusets used to pin one worker per core. */
#ifndef WEFT_EXEC_TOPOLOGY_H
#define WEFT_EXEC_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct weft_topology {
    unsigned cores;            /* physical cores (or PUs when cores are not reported) */
    unsigned pus;              /* hardware threads */
    uint64_t l1d_size, l2_size, l3_size; /* bytes, per cache instance; 0 when unknown */
    unsigned cache_line;       /* bytes */
    uint64_t total_memory;     /* bytes */
    double   max_clock_mhz;    /* 0 when unknown */
    char     cpu_name[128];
    /* Last-level cache domains (Zhou's processors of hierarchical overlapped tiling): the
     * instances of the deepest data cache, with the cores under the largest of them. 1 and
     * `cores` when hwloc cannot tell. */
    unsigned llc_domains;
    unsigned llc_domain_cores;
};

/* Read once, thread-safe; never NULL. */
const struct weft_topology *weft_topology_get(void);
/* The last-level cache domain (0 .. llc_domains-1) of the CPU the calling thread runs on now
 * (0 when unknown). */
unsigned weft_topology_current_llc_domain(void);
/* Pins the calling thread to core `index % cores`. Returns false when pinning is not
 * possible (the thread keeps running unpinned). */
bool weft_topology_pin_current_thread(unsigned index);

#endif
