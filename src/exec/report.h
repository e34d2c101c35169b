/* exec/report.h — WEFT_REPORT: one line per kernel at process exit, saying what ran and why.
 *
 * Guarantees:
 *   - With WEFT_REPORT unset nothing is collected: the engine's hooks test weft_report_enabled
 *     (util/trace.h, read once at load) and do nothing else.
 *   - With WEFT_REPORT=1 (or "stderr") the report goes to stderr at exit; any other value is a
 *     file path, written at exit (replaced). One line per kernel that ran, the kernels with the
 *     most time first:
 *       weft report: kernel NAME: N launches, T ms total, M us mean, S% of device time;
 *         variants: V (n), ...; vectorized: yes (...) | no (why); fused: F of N launches in
 *         R runs (K=k, tiles t x rows) | no (why)
 *     then one line of totals. A launch's time is its run on the device (exec/dispatch.c: from
 *     the engine taking it to its last work-group), a fused run's time is shared evenly among the
 *     launches it ran; "device time" is the sum over all kernels.
 *   - The variants are named from the compiler's registry (util/trace.h); "vectorized" is the
 *     compiler's account of the most-run variant (sub-CFGs vectorized across work-items, or the
 *     vectorizer's reason), "fused" the fusion's (exec/fuse/fuse.h): why a launch was not
 *     fusable, or why the chains it started did not fuse.
 * The fusion hooks also put the fusion's decisions into WEFT_TRACE's trace.
 */
#ifndef WEFT_EXEC_REPORT_H
#define WEFT_EXEC_REPORT_H

#include <stdint.h>

#include "exec/launch.h"

/* A launch the dispatch ran unfused, in `ns`; `ran` the variant that ran its full groups (the
 * one profiling chose). Call only when weft_report_enabled. */
void weft_report_launch(const struct weft_launch_desc *d, weft_wg_fn ran, uint64_t ns);

/* A fused run of k launches (their kernels' names and the variants their full groups ran) that
 * took `ns` from t0, in `tiles` tiles of `tile_rows` rows (`teams` > 0: hierarchical). Records
 * it in the report and the trace, each as enabled. */
void weft_report_fused(const char *const *names, const weft_wg_fn *fns, unsigned k, uint64_t t0, uint64_t ns,
                       uint64_t tiles, uint64_t tile_rows, unsigned teams);

/* A chain starting with kernel `name` offered to fusion that did not fuse, and why. Records it
 * in the report and the trace, each as enabled. */
void weft_report_not_fused(const char *name, const char *why);

/* Prints the report now (at exit; tests). */
void weft_report_print(void);

#endif
