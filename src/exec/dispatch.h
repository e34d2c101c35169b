/* exec/dispatch.h — runs one NDRange launch from its description (exec/launch.h).
 *
 * Guarantees:
 *   - A launch of nothing (total_groups 0) returns at once.
 *   - A launch of one part runs as one pool launch; a launch of several parts (non-uniform
 *     work-groups, weft/abi.h regions) runs all its parts in one pool launch through a
 *     trampoline that maps the pool's group numbers to the parts, each piece by its part's
 *     variant with the part's region fields.
 *   - With an alternative variant (alt), the full groups are profiled between the two
 *     (exec/variant_select.h), after WEFT_VERIFY's comparison of the pair when it is on
 *     (exec/variant_verify.h); the remainder parts follow.
 *   - printf: the launch gets a buffer for its run, written to stdout when it ends
 *     (compiler/printf.h).
 *   - A fusable launch's unfused run is timed and reported to fusion's cost model
 *     (exec/fuse/fuse.h), unless it profiled two variants (its time includes the slower one's).
 */
#ifndef WEFT_EXEC_DISPATCH_H
#define WEFT_EXEC_DISPATCH_H

#include "exec/launch.h"

/* Runs the launch to completion: 0, or nonzero when the pool could not get a thread's arenas or
 * stack (weft_pool_run; the runtime reports CL_OUT_OF_RESOURCES with the launch's sizes). Sets
 * d->launch.ctx.printf_buf for the run. */
int weft_dispatch_run(struct weft_launch_desc *d);

#endif
