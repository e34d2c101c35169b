/* runtime/group_split.h — the work-group size a group-blind launch of few, long work-groups
 * runs at (runtime/ndrange.c split_blind_groups applies it; merge_blind_groups goes the other
 * way for launches of many small ones). A pure function of the launch's shape, the pool's
 * thread count and the kernel's measured speed, so that it is tested on shapes and thread
 * counts this machine does not have. */
#ifndef WEFT_RUNTIME_GROUP_SPLIT_H
#define WEFT_RUNTIME_GROUP_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/* A launch of fewer work-groups than this per thread has its groups split; the automatic
 * local size aims at as many (ndrange.c AUTO_GROUPS_PER_THREAD). */
#define WEFT_SPLIT_GROUPS_PER_THREAD 4u
/* ... down to groups of a multiple of this many work-items of dimension 0: whole packets of
 * the widest vectors (16 floats in an AVX-512 register). */
#define WEFT_SPLIT_MIN_ITEMS 16u
/* A launch of fewer groups than threads is split only when one of its groups is known to
 * take at least this long: splitting wakes threads that would otherwise sleep (a few
 * microseconds each on the 16-core Xeon), which only a long launch repays. */
#define WEFT_SPLIT_MIN_NS 100000u

/* The local size in dimension 0 for a launch of `global0` work-items of dimension 0 in groups of
 * `local0` x `lanes` (lanes: the local size in dimensions 1 and 2), `rest` groups in
 * dimensions 1 and 2, on `threads` threads, of a kernel that observes nothing of its
 * work-groups; `item_ps`: its measured picoseconds per work-item on one thread, 0 when
 * unknown. `local0` halved while the launch has fewer than WEFT_SPLIT_GROUPS_PER_THREAD groups
 * per thread, global0 stays a multiple of it and it stays a multiple of WEFT_SPLIT_MIN_ITEMS:
 *   - with at least one group per thread, every thread is woken anyway, and one or two groups
 *     each leave the launch waiting for the slowest thread (gesummv, 16 groups of 256 rows on
 *     the 16-core Xeon: 3-5 of the 16 CPUs ran the same group 1.7x slower, a different set in
 *     every process), where more groups let the fast threads take the slow ones' share;
 *   - with fewer groups than threads, cores stay idle, but only a group known (item_ps) to
 *     take at least WEFT_SPLIT_MIN_NS is split: a launch of one short group stays on one
 *     thread.
 * `local0` itself when nothing is split (one thread, enough groups, a size that does not
 * halve). */
size_t weft_split_local0(size_t global0, size_t local0, size_t lanes, uint64_t rest, unsigned threads,
                         uint64_t item_ps);

#endif
