/* exec/topology.h — what the machine is, read once with hwloc: cores, caches, line size,
 * memory, NUMA nodes, and the cpusets used to pin one worker per core.
 *
 * WEFT_HWLOC_SYNTHETIC (for tests and what-if runs only) replaces the machine's shape with an
 * hwloc synthetic description such as "pack:2 numa:2 core:16 pu:1": every decision that
 * follows the shape (the core count, hence the default thread count; NUMA worker groups; LLC
 * domains) follows the description, while threads are not pinned (see
 * weft_topology_pin_current_thread). */
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
    /* NUMA nodes that hold cores, in hwloc's logical order (nodes of memory alone, such as
     * CXL expanders, host no worker and are left out); 1 when hwloc shows one or cannot tell.
     * Read them through weft_topology_core_node: the arrays may be NULL (one node). */
    unsigned numa_nodes;
    const unsigned *core_node;     /* per core (hwloc's logical order): its node */
    const unsigned *node_package;  /* per node: the package (socket) of its first core */
    const uint64_t *node_memory;   /* per node: bytes of memory local to it; 0 when unknown */
    /* Affinity domains (what OpenCL sub-devices partition by, runtime/subdevice.c): per level
     * (enum weft_affinity_level), per core, the instance of that level the core sits under,
     * numbered 0 .. core_domains[level]-1. The array is NULL when hwloc shows no such level
     * (every core then counts as one domain). */
    const unsigned *core_domain[5];
    unsigned core_domains[5];
    /* The shape is not this machine's (WEFT_HWLOC_SYNTHETIC, or hwloc's own HWLOC_SYNTHETIC
     * or HWLOC_XMLFILE): its CPU numbers name nothing here, so nothing is pinned. */
    bool synthetic;
};

/* The NUMA node (0 .. numa_nodes-1) of core `core` (0 .. cores-1); 0 when unknown. */
static inline unsigned weft_topology_core_node(const struct weft_topology *t, unsigned core)
{
    return t->core_node && core < t->cores ? t->core_node[core] : 0;
}

/* The levels of core_domain, in the order OpenCL's CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE
 * tries them. */
enum weft_affinity_level {
    WEFT_AFFINITY_NUMA,
    WEFT_AFFINITY_L4,
    WEFT_AFFINITY_L3,
    WEFT_AFFINITY_L2,
    WEFT_AFFINITY_L1,
    WEFT_AFFINITY_LEVELS
};

/* The domain of `level` that core `core` sits under; 0 when the level is unknown. */
static inline unsigned weft_topology_core_domain(const struct weft_topology *t, enum weft_affinity_level level,
                                                 unsigned core)
{
    return t->core_domain[level] && core < t->cores ? t->core_domain[level][core] : 0;
}

/* Read once, thread-safe; never NULL. */
const struct weft_topology *weft_topology_get(void);
/* The last-level cache domain (0 .. llc_domains-1) of the CPU the calling thread runs on now
 * (0 when unknown). */
unsigned weft_topology_current_llc_domain(void);
/* Pins the calling thread to core `index % cores`. Returns false when pinning is not
 * possible (the thread keeps running unpinned), and always on a synthetic topology. */
bool weft_topology_pin_current_thread(unsigned index);
/* A set of CPUs: those of cores cores[0..n-1] (each taken `% cores`). NULL when binding is
 * not possible (no hwloc, a synthetic topology, memory short). Freed with weft_cpuset_free. */
struct weft_cpuset;
struct weft_cpuset *weft_topology_cpuset(const unsigned *cores, unsigned n);
void weft_cpuset_free(struct weft_cpuset *set);
/* Whether the calling thread runs on a CPU of `set` now (false for NULL). */
bool weft_cpuset_has_current_cpu(const struct weft_cpuset *set);
/* Binds the calling thread to `set`, first saving its binding (a set of CPUs too) in *saved
 * when saved is not NULL. Returns false (nothing changed) when it cannot. */
bool weft_topology_bind_current_thread(const struct weft_cpuset *set, struct weft_cpuset **saved);
/* Gives the calling thread back the binding bind_current_thread saved, and frees it. */
void weft_topology_restore_binding(struct weft_cpuset *saved);

/* The shape hwloc builds from a synthetic description (hwloc_topology_set_synthetic), read
 * the way weft_topology_get reads the machine; fields hwloc cannot give (cache sizes it was
 * not told, the CPU's name, total memory) come from this machine as there. NULL when hwloc
 * refuses the description. For tests: the process's own topology stays what it is. Freed with
 * weft_topology_free. */
struct weft_topology *weft_topology_new_synthetic(const char *description);
void weft_topology_free(struct weft_topology *t);

#endif
