/* exec/partition.c — sub-device partitions of a device's compute units (exec/partition.h). */
#include "exec/partition.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Room for `parts` parts of `units` units in all; false when memory is short. */
static bool partition_alloc(struct weft_partition *out, unsigned parts, unsigned units)
{
    out->parts = parts;
    out->level = -1;
    out->first = calloc((size_t)parts + 1, sizeof *out->first);
    out->unit = malloc(((size_t)units ? units : 1) * sizeof *out->unit);
    if (out->first && out->unit)
        return true;
    weft_partition_free(out);
    return false;
}

void weft_partition_free(struct weft_partition *p)
{
    free(p->first);
    free(p->unit);
    p->first = NULL;
    p->unit = NULL;
    p->parts = 0;
}

enum weft_partition_status weft_partition_equally(const unsigned *units, unsigned n, uint64_t per,
                                                  struct weft_partition *out)
{
    memset(out, 0, sizeof *out);
    if (per == 0)
        return WEFT_PARTITION_INVALID;
    if (per > n)
        return WEFT_PARTITION_BAD_COUNT;
    if (per == n)   /* one part, the whole device: it cannot be partitioned further */
        return WEFT_PARTITION_FAILED;
    unsigned parts = (unsigned)(n / per);
    if (!partition_alloc(out, parts, parts * (unsigned)per))
        return WEFT_PARTITION_NO_MEMORY;
    for (unsigned k = 0; k <= parts; k++)
        out->first[k] = k * (unsigned)per;
    memcpy(out->unit, units, sizeof *units * parts * per);
    return WEFT_PARTITION_OK;
}

enum weft_partition_status weft_partition_by_counts(const unsigned *units, unsigned n, const int64_t *counts,
                                                    unsigned ncounts, struct weft_partition *out)
{
    memset(out, 0, sizeof *out);
    if (ncounts == 0)
        return WEFT_PARTITION_INVALID;
    if (ncounts > n)
        return WEFT_PARTITION_BAD_COUNT;
    uint64_t sum = 0;
    for (unsigned k = 0; k < ncounts; k++) {
        if (counts[k] < 1 || (uint64_t)counts[k] > n)
            return WEFT_PARTITION_BAD_COUNT;
        sum += (uint64_t)counts[k];
    }
    if (sum > n)
        return WEFT_PARTITION_BAD_COUNT;
    if (!partition_alloc(out, ncounts, (unsigned)sum))
        return WEFT_PARTITION_NO_MEMORY;
    for (unsigned k = 0; k < ncounts; k++)
        out->first[k + 1] = out->first[k] + (unsigned)counts[k];
    memcpy(out->unit, units, sizeof *units * sum);
    return WEFT_PARTITION_OK;
}

/* The distinct domains of `level` among the units' cores, in the order met, into dom (room
 * for n); returns how many. */
static unsigned domains_met(const struct weft_topology *t, int level, const unsigned *units, unsigned n,
                            unsigned *dom)
{
    unsigned found = 0;
    for (unsigned u = 0; u < n; u++) {
        unsigned d = weft_topology_core_domain(t, (enum weft_affinity_level)level, units[u] % t->cores);
        unsigned k = 0;
        while (k < found && dom[k] != d)
            k++;
        if (k == found)
            dom[found++] = d;
    }
    return found;
}

unsigned weft_partition_splitting_levels(const struct weft_topology *t, const unsigned *units, unsigned n)
{
    unsigned mask = 0, *dom = malloc(((size_t)n ? n : 1) * sizeof *dom);
    if (!dom)
        return 0;
    for (int level = 0; level < WEFT_AFFINITY_LEVELS; level++)
        if (t->core_domain[level] && domains_met(t, level, units, n, dom) >= 2)
            mask |= 1u << level;
    free(dom);
    return mask;
}

enum weft_partition_status weft_partition_by_domain(const struct weft_topology *t, const unsigned *units,
                                                    unsigned n, int level, struct weft_partition *out)
{
    memset(out, 0, sizeof *out);
    if (level >= WEFT_AFFINITY_LEVELS)
        return WEFT_PARTITION_INVALID;
    if (level >= 0 && !t->core_domain[level])
        return WEFT_PARTITION_INVALID;
    if (n == 0)
        return WEFT_PARTITION_FAILED;
    unsigned *dom = malloc(sizeof *dom * n);
    if (!dom)
        return WEFT_PARTITION_NO_MEMORY;
    unsigned parts = 0;
    if (level >= 0) {
        parts = domains_met(t, level, units, n, dom);
    } else {
        for (int l = 0; l < WEFT_AFFINITY_LEVELS && parts < 2; l++)
            if (t->core_domain[l] && (parts = domains_met(t, l, units, n, dom)) >= 2)
                level = l;
    }
    if (parts < 2) {
        free(dom);
        return WEFT_PARTITION_FAILED;
    }
    if (!partition_alloc(out, parts, n)) {
        free(dom);
        return WEFT_PARTITION_NO_MEMORY;
    }
    out->level = level;
    /* part k: the units whose domain is dom[k], in their order */
    unsigned at = 0;
    for (unsigned k = 0; k < parts; k++) {
        out->first[k] = at;
        for (unsigned u = 0; u < n; u++)
            if (weft_topology_core_domain(t, (enum weft_affinity_level)level, units[u] % t->cores) == dom[k])
                out->unit[at++] = units[u];
    }
    out->first[parts] = at;
    free(dom);
    return WEFT_PARTITION_OK;
}
