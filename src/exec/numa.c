/* exec/numa.c — the pool's threads grouped per NUMA node (exec/numa.h).
 *
 * Guarantees: a plan places every thread on a core of the topology, numbers the threads node
 * after node (so node k's threads are one interval of indices), gives every node a share of
 * threads proportional to its cores (within one thread), and with one node is the pool's
 * plain order: thread i on core i % cores, stealing in ring order i+1, i+2, ....
 */
#include "exec/numa.h"

#include <stdlib.h>

void weft_numa_plan_free(struct weft_numa_plan *p)
{
    if (!p)
        return;
    free(p->core);
    free(p->node);
    free(p->node_first);
    free(p->node_order);
    free(p);
}

/* Fills row k of node_order: k, then the nodes of k's package, then the others, each group in
 * ring order k+1, k+2, ... */
static void order_nodes(struct weft_numa_plan *p, const unsigned *package, unsigned k)
{
    unsigned *row = p->node_order + (size_t)k * p->nodes, n = 0;
    row[n++] = k;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned d = 1; d < p->nodes; d++) {
            unsigned m = (k + d) % p->nodes;
            bool same = package && package[m] == package[k];
            if (same == (pass == 0))
                row[n++] = m;
        }
}

struct weft_numa_plan *weft_numa_plan_new(const struct weft_topology *t, unsigned threads)
{
    if (threads < 1)
        return NULL;
    const unsigned cores = t->cores ? t->cores : 1, nodes = t->core_node && t->numa_nodes ? t->numa_nodes : 1;
    struct weft_numa_plan *p = calloc(1, sizeof *p);
    unsigned *node_cores = calloc(nodes, sizeof *node_cores);        /* cores per node */
    unsigned *cores_of = malloc((size_t)cores * sizeof *cores_of);   /* cores, node after node */
    unsigned *cores_first = calloc((size_t)nodes + 1, sizeof *cores_first);
    if (!p || !node_cores || !cores_of || !cores_first)
        goto fail;
    p->threads = threads;
    p->nodes = nodes;
    p->core = malloc((size_t)threads * sizeof *p->core);
    p->node = malloc((size_t)threads * sizeof *p->node);
    p->node_first = calloc((size_t)nodes + 1, sizeof *p->node_first);
    p->node_order = malloc((size_t)nodes * nodes * sizeof *p->node_order);
    if (!p->core || !p->node || !p->node_first || !p->node_order)
        goto fail;

    for (unsigned c = 0; c < cores; c++) {
        unsigned k = weft_topology_core_node(t, c);
        node_cores[k < nodes ? k : 0]++;
    }
    for (unsigned k = 0; k < nodes; k++)
        cores_first[k + 1] = cores_first[k] + node_cores[k];
    {
        unsigned *fill = calloc(nodes, sizeof *fill);
        if (!fill)
            goto fail;
        for (unsigned c = 0; c < cores; c++) {
            unsigned k = weft_topology_core_node(t, c);
            k = k < nodes ? k : 0;
            cores_of[cores_first[k] + fill[k]++] = c;
        }
        free(fill);
    }

    /* Node k's threads: ceil(threads * C_k / cores) - ceil(threads * C_{k-1} / cores), C_k the
     * cores of nodes 0 .. k. Rounding up puts the first thread on node 0 and, with fewer
     * threads than nodes, every thread on a node of its own, as far apart as the ring allows. */
    for (unsigned k = 0; k < nodes; k++) {
        uint64_t upto = (uint64_t)threads * cores_first[k + 1];
        p->node_first[k + 1] = (unsigned)((upto + cores - 1) / cores);
    }
    p->node_first[nodes] = threads;
    for (unsigned k = 0; k < nodes; k++) {
        unsigned n = p->node_first[k + 1] - p->node_first[k];
        if (n)
            p->used_nodes++;
        for (unsigned j = 0; j < n; j++) {
            unsigned i = p->node_first[k] + j;
            p->node[i] = k;
            p->core[i] = node_cores[k] ? cores_of[cores_first[k] + j % node_cores[k]] : i % cores;
        }
    }
    for (unsigned k = 0; k < nodes; k++)
        order_nodes(p, t->node_package, k);
    free(node_cores);
    free(cores_of);
    free(cores_first);
    return p;
fail:
    free(node_cores);
    free(cores_of);
    free(cores_first);
    weft_numa_plan_free(p);
    return NULL;
}

unsigned weft_numa_victims(const struct weft_numa_plan *p, unsigned self, unsigned threads, unsigned *out,
                           unsigned *same_node)
{
    if (threads > p->threads)
        threads = p->threads;
    const unsigned mine = p->node[self < p->threads ? self : p->threads - 1];
    const unsigned rank = self - p->node_first[mine];
    const unsigned *row = p->node_order + (size_t)mine * p->nodes;
    unsigned n = 0;
    *same_node = 0;
    for (unsigned r = 0; r < p->nodes; r++) {
        const unsigned m = row[r];
        const unsigned lo = p->node_first[m];
        const unsigned hi = p->node_first[m + 1] < threads ? p->node_first[m + 1] : threads;
        if (lo >= hi)
            continue;
        const unsigned len = hi - lo, start = m == mine ? rank + 1 : rank;
        for (unsigned j = 0; j < len; j++) {
            unsigned v = lo + (start + j) % len;
            if (v != self)
                out[n++] = v;
        }
        if (m == mine)
            *same_node = n;
    }
    return n;
}
