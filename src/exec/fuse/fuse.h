/* exec/fuse/fuse.h — fusing chains of NDRange launches into overlapped tiles (Zhou et al.,
 * seed-notes 003-004 Part B; issue "Weft 0.5").
 *
 * Who does what:
 *   - runtime/ndrange.c marks a launch fusable at enqueue (its description's `fusable`, the
 *     command's WEFT_COMMAND_FUSABLE) when fusion is on
 *     (WEFT_FUSE=auto, the default), the queue is in-order, and the kernel could take part in a
 *     fused chain: it observes nothing of its work-group (so any region of the NDRange can run
 *     on its own), calls no printf, writes some global memory, the compiler described all
 *     of its global accesses as affine (compiler/analysis/access.h), and it reaches memory only
 *     through cl_mem arguments (no SVM pointer: weft_launch_desc.raw_memory).
 *   - runtime/queue.c holds such launches back (delayed enqueue) until a sync point, a
 *     non-fusable command, WEFT_FUSE_HOLD launches, or a short idle time, and then offers the
 *     launch descriptions (exec/launch.h) of the run of consecutive runnable fusable commands
 *     at the head of the queue to weft_fuse_prepare, and completes their events around
 *     weft_fuse_run.
 *   - fuse.c decides: evaluates the access summaries with the launches' argument values, finds
 *     the producer/consumer pairs through the buffers they share, plans the tiles
 *     (exec/fuse/plan.h: depth K by Zhou's equation 6 from per-row costs it measured on
 *     this machine, tile rows from the cache), and runs them: every tile copies the ranges it
 *     touches of the buffers the chain writes into private windows, runs each launch's own
 *     compiled code over its region with the arguments pointed at the windows, and writes back
 *     only the range it owns: at once the part no neighbour's window reads, the border once no
 *     neighbour still has to read the old contents. Tiles are bands of rows of the outermost
 *     dimension, or with WEFT_FUSE_COLS rectangles of 2-D ranges (exec/fuse/tile2d.h).
 *
 * What stays OpenCL's: each command keeps its own event; all of a fused run's events go
 * RUNNING when it starts and COMPLETE in order when it ends (their profiling times are those
 * of the fused run, which is when each of them executed). Results are the unfused results bit
 * for bit: every work-item runs the same code on the same inputs. */
#ifndef WEFT_EXEC_FUSE_FUSE_H
#define WEFT_EXEC_FUSE_FUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/launch.h"

enum weft_fuse_mode { WEFT_FUSE_OFF, WEFT_FUSE_AUTO };

/* WEFT_FUSE=auto|off (read once). */
enum weft_fuse_mode weft_fuse_setting(void);
/* Whether launches over a work_dim-dimensional NDRange may join a chain: not 3-D ones unless
 * WEFT_FUSE_DEPTH forces fusion. Tiles of whole planes of a 3-D grid were measured slower than
 * the unfused launches (heat3d on the 16-core Xeon: 7.2 ms a chain with the runtime trying
 * fusion, 4.4 unfused; docs/PERFORMANCE.md), and trying costs every process its first runs. */
bool weft_fuse_takes_work_dim(unsigned work_dim);
/* Why not, as weft_fuse_takes_work_dim says no (for logs, reports and `weft explain`). */
#define WEFT_FUSE_3D_WHY "a 3-D NDRange: its chains run unfused unless WEFT_FUSE_DEPTH forces them (tiles of whole planes measured slower)"
/* The longest chain fused at once. */
#define WEFT_FUSE_MAX_CHAIN 64u
/* How many fusable launches a queue holds back at most before it runs them (WEFT_FUSE_HOLD,
 * default and most WEFT_FUSE_MAX_CHAIN). */
unsigned weft_fuse_hold_limit(void);

/* The planning rules fuse.c applies, shared with `weft explain --chain` (tools/weft) so that
 * it prints the decision the runtime would take. Fusing needs a measured saving per row of at
 * least WEFT_FUSE_MIN_RATIO (equation 6's t_s/t_c - 1) and a depth of at least
 * WEFT_FUSE_MIN_DEPTH; before WEFT_FUSE_FUSED_SAMPLES fused runs were measured, t_s/t_c - 1
 * is taken as WEFT_FUSE_FIRST_RATIO (try). Costs are lower medians of recent samples with each
 * key's first left out (exec/fuse/cost.h): the first fused run of a chain pays for the first
 * touch of its windows, and the second can still be slower than the rest (Poisson 2048²:
 * 23-34 ms, then 15-17 ms), so three are taken; the first unfused launches of a process are
 * slow too (512² Jacobi: 140-520 ns a row, 106-112 steady), so five. */
#define WEFT_FUSE_FUSED_SAMPLES 3u
#define WEFT_FUSE_UNFUSED_SAMPLES 5u
#define WEFT_FUSE_MIN_RATIO 0.15
#define WEFT_FUSE_MIN_DEPTH 4u
#define WEFT_FUSE_FIRST_RATIO 3.0
/* Bytes a tile's working set may take: the core's own L2 (Zhou's Eff_Cache). */
uint64_t weft_fuse_tile_budget(void);
/* Hierarchical overlapped tiling (Zhou's HOT; exec/fuse/hot.c): the number of teams, one
 * per last-level cache domain, that run level-1 tiles of weft_fuse_team_budget bytes each
 * together; 0 for plain overlapped tiling (one tile per thread, of weft_fuse_tile_budget).
 * WEFT_FUSE_LEVELS=2 forces it, WEFT_FUSE_LEVELS=1 forbids it; WEFT_FUSE_DOMAINS=N forces N
 * teams (and two levels); 0 without either (see weft_fuse_team_candidate). */
unsigned weft_fuse_teams(void);
/* Without WEFT_FUSE_LEVELS and WEFT_FUSE_DOMAINS: the teams of the two-level form where threads
 * share a last-level cache (then the runtime measures both forms per chain and runs the faster),
 * else 0. */
unsigned weft_fuse_team_candidate(void);
uint64_t weft_fuse_team_budget(unsigned teams);
/* Rows a stage's region rounds out to: 1-D regions start and end on work-groups of the local
 * size, at most 256 work-items; other dimensions run rows of work-groups one item high. */
uint64_t weft_fuse_align(unsigned work_dim, const uint64_t local[3]);

/* exec/dispatch.c reports the time an unfused run of a fusable launch took (per-row cost),
 * except for launches that profiled two variants (weft_select_run's *profiled): their time
 * includes the slower variant's slices and made fusion look better than it is. */
void weft_fuse_note_unfused(const struct weft_launch_desc *d, uint64_t ns);

struct weft_fusion;

/* Plans a fused run of a prefix of launches[0..n): the descriptions of consecutive commands of
 * one in-order queue, all fusable and runnable (a NULL entry, a command that is no launch, ends
 * the chain). Returns NULL when fusing does not pay or does not apply (launches[0] then runs
 * alone, as usual); else the plan for the first *used >= 2 of them. */
struct weft_fusion *weft_fuse_prepare(const struct weft_launch_desc *const *launches, unsigned n, unsigned *used);
/* Runs a plan: 0, or nonzero when the windows could not be allocated (the runtime fails every
 * fused command with CL_OUT_OF_RESOURCES). */
int weft_fuse_run(struct weft_fusion *f);
void weft_fuse_free(struct weft_fusion *f);

#endif
