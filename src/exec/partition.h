/* exec/partition.h — how a device's compute units split into sub-devices (what OpenCL's
 * clCreateSubDevices asks for, runtime/subdevice.c): equally, by counts, or by the affinity
 * domains (NUMA node, L4 .. L1 cache) the units' cores share.
 *
 * A device's compute units are listed by the core each runs on (exec/topology.h numbering; the
 * root device's unit i is core i % cores, so with WEFT_NUM_THREADS above the core count two
 * units may name one core). Pure functions of that list and a topology, so that they are
 * tested on shapes this machine does not have (hwloc's synthetic topologies). */
#ifndef WEFT_EXEC_PARTITION_H
#define WEFT_EXEC_PARTITION_H

#include <stdint.h>

#include "exec/topology.h"

enum weft_partition_status {
    WEFT_PARTITION_OK,
    WEFT_PARTITION_INVALID,      /* a value the scheme does not accept (OpenCL: CL_INVALID_VALUE) */
    WEFT_PARTITION_BAD_COUNT,    /* more units or parts asked for than there are, or a count
                                    below 1 (CL_INVALID_DEVICE_PARTITION_COUNT) */
    WEFT_PARTITION_FAILED,       /* valid, but the units do not split that way
                                    (CL_DEVICE_PARTITION_FAILED) */
    WEFT_PARTITION_NO_MEMORY,
};

struct weft_partition {
    unsigned parts;
    unsigned *first;             /* parts + 1 entries: part k is unit[first[k] .. first[k+1]-1] */
    unsigned *unit;              /* the parts' units (their cores), part after part */
    int level;                   /* by affinity domain: the enum weft_affinity_level split by;
                                    -1 for the other schemes */
};

/* As many parts of `per` units as the n units hold, in order (the rest unused). per == 0:
 * INVALID; per > n: BAD_COUNT; per == n (the whole device again): FAILED, as the OpenCL-CTS
 * reads the specification. */
enum weft_partition_status weft_partition_equally(const unsigned *units, unsigned n, uint64_t per,
                                                  struct weft_partition *out);
/* One part per count, taking the units in order. No counts: INVALID; a count of 0 (or below,
 * passed as a huge value), counts summing above n, or more counts than units: BAD_COUNT. */
enum weft_partition_status weft_partition_by_counts(const unsigned *units, unsigned n, const int64_t *counts,
                                                    unsigned ncounts, struct weft_partition *out);
/* One part per domain of `level` the units' cores sit under, parts in the order the units meet
 * them. level < 0: the first level, NUMA then L4 .. L1, that splits the units in two parts or
 * more. A level topology `t` does not know: INVALID; one that puts every unit in one domain
 * (and a next-partitionable search that finds none): FAILED. */
enum weft_partition_status weft_partition_by_domain(const struct weft_topology *t, const unsigned *units,
                                                    unsigned n, int level, struct weft_partition *out);
/* The levels (bit 1 << level) that split the n units in two parts or more. */
unsigned weft_partition_splitting_levels(const struct weft_topology *t, const unsigned *units, unsigned n);
void weft_partition_free(struct weft_partition *p);

#endif
