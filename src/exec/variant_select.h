/* exec/variant_select.h — runtime selection between two compiled variants of one kernel
 * launch (Kim ch. 7: micro-profiling on productive work-groups).
 *
 * Guarantees:
 *   - Every work-group of the launch runs exactly once, by one of the two variants (the
 *     profiled work-groups are part of the result: "fully productive" profiling). The two
 *     variants must compute the same results (they are schedules of one kernel).
 *   - The decision is kept per key (the two variants' cache keys and the NDRange shape), in
 *     memory for the process and in the disk cache (compiler/cache.h) across processes; a
 *     decided key runs the winner for the whole launch with no profiling cost. A decision is
 *     final after WEFT_SELECT_ROUNDS profiled launches, in this process or earlier ones (each
 *     round's winner goes to disk, marked provisional until the last); until then each launch
 *     profiles again, starting (async) from the latest winner.
 *   - A final decision is reopened (one more profiled round) when a launch that runs it takes
 *     much longer per work-group than the groups it was made on (exec/variant_select.c
 *     maybe_reopen): a kernel whose first launches have almost nothing to do (a BFS's first
 *     frontiers: every profiled group all idle lanes) is measured again once it has work. A
 *     bounded number of times per key and process; the new decision replaces the old on disk.
 *   - Profiling runs when the launch has at least weft_select_min_groups() work-groups
 *     (WEFT_SELECT_MIN_GROUPS, and WEFT_SELECT_GROUPS_PER_THREAD per thread of the pool): each
 *     variant runs two slices of the first groups, in the order A B B A (so that neither pays
 *     alone for cold caches), about 1/16 of the launch in all (at most 256 groups a slice); the
 *     lower time per work-group (the second variant's at least 10 % lower)
 *     wins and runs the rest. Smaller launches run the first variant and decide nothing.
 *       WEFT_PROFILE=async (default, Kim's asynchronous orchestration): one pool launch; the
 *       pool hands groups out from 0 upward, so the slices go first, each timed by the thread
 *       that runs it, while other threads already run later groups with the first variant;
 *       the thread that completes the last profiled group decides, and chunks that start
 *       afterwards run the winner.
 *       WEFT_PROFILE=sync: each slice is a pool launch of its own, timed as a whole; the rest
 *       runs after the decision.
 *       WEFT_PROFILE=off: the first variant, always.
 *   - WEFT_LOG=info logs each decision with both times.
 * Part of the engine (it runs the launch, exec/pool.h, and is called by exec/dispatch.c); the
 * runtime only computes a launch's key and reads the settings when it builds the description
 * (runtime/ndrange.c).
 */
#ifndef WEFT_EXEC_VARIANT_SELECT_H
#define WEFT_EXEC_VARIANT_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/pool.h"

#define WEFT_SELECT_MIN_GROUPS 16u
/* A launch of few, long groups (gesummv on 16 cores: 16 groups, one per thread) would wait for
 * the slower variant's slices: each thread's share of the launch is then one group, and one
 * slow group is the launch's time (measured 2x). With four groups a thread, a slice costs a
 * thread at most a quarter of its share. */
#define WEFT_SELECT_GROUPS_PER_THREAD 4u
/* Profiled launches before a decision is final: the first launch of a kernel also pays for
 * first-touch page faults and cold caches, which can favour whichever variant runs later, so
 * its winner only runs until the second launch is profiled too. */
#define WEFT_SELECT_ROUNDS 2

enum weft_profile_mode { WEFT_PROFILE_OFF, WEFT_PROFILE_SYNC, WEFT_PROFILE_ASYNC };

/* WEFT_PROFILE=async (default) | sync | off. */
enum weft_profile_mode weft_profile_setting(void);

/* The decision key of a launch: both variants' cache keys and the NDRange's sizes. */
uint64_t weft_select_key(uint64_t key_a, uint64_t key_b, const uint64_t global[3], const uint64_t local[3]);

/* Runs `launch` (whose fn is variant A) choosing between A and `b` as described above. `what`
 * names the kernel for the log. *profiled (may be NULL) says whether this launch profiled: its
 * time then includes the slower variant's slices, not the kernel's steady cost. Returns what
 * weft_pool_run returns. */
int weft_select_run(struct weft_launch *launch, weft_wg_fn b, uint64_t key, const char *what, bool *profiled);

/* The fewest work-groups a launch profiles with. */
uint64_t weft_select_min_groups(void);

/* The final decision for `key`: 0 (A), 1 (B), or -1 when undecided. */
int weft_select_decision(uint64_t key);
/* The latest winner for `key` in this process, final or not: 0 (A), 1 (B), or -1 when never
 * profiled nor read from disk (WEFT_REPORT names the variant that ran). */
int weft_select_latest(uint64_t key);
/* The clock the profiler times slices with, in ns: CLOCK_MONOTONIC unless a test installs its
 * own (NULL restores it), so that tests decide by counted work rather than by a loaded machine's
 * timing. Async slices are timed on the thread that runs them, sync slices around a whole pool
 * launch on the calling thread. */
typedef uint64_t (*weft_select_clock_fn)(void);
void weft_select_set_clock(weft_select_clock_fn fn);

/* WEFT_VERIFY (exec/variant_verify.h): true the first time in this process that the pair
 * of `key` is to be checked (the caller then checks it). */
bool weft_select_claim_verify(uint64_t key);
/* The pair of `key` disagreed: the first variant, final, in memory and on disk. */
void weft_select_reject(uint64_t key);

/* Forgets the in-memory decisions, as a new process starts (tests of the disk copy). */
void weft_select_forget(void);

#endif
