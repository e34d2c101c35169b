/* exec/fuse/bind.h — the access relations of one launch as numbers: a kernel's access
 * summary (compiler/analysis/access.h) with the launch's NDRange and scalar argument values
 * put in, in the form exec/fuse/plan.h plans with. Its own module because two callers need
 * exactly the same arithmetic: the runtime (fuse.c), which reads argument values from a
 * launch's packed argument block, and `weft explain --chain` (tools/weft), which has no launch
 * and takes them from the command line; both hand them over through a callback. */
#ifndef WEFT_EXEC_FUSE_BIND_H
#define WEFT_EXEC_FUSE_BIND_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/analysis/access.h"
#include "exec/fuse/plan.h"

struct weft_fb_launch {
    unsigned work_dim;
    uint64_t global[3], offset[3];   /* unused dimensions: 1 and 0 */
    /* The value of integer scalar argument number `arg`, sign-extended; false when the
     * argument is not an integer scalar or has no value. */
    bool (*arg_value)(const void *ctx, unsigned arg, int64_t *v);
    const void *ctx;
};

/* coef[d] and c0 of byte offset `a` at the 0-based index i of the work-item:
 * c0 + sum coef[d] * i[d] (global offsets folded into c0). False when a symbol has no value, a
 * term multiplies two global ids, or the arithmetic overflows. */
bool weft_fb_offset(const struct weft_fb_launch *l, const struct weft_affine *a, int64_t coef[3], int64_t *c0);

/* The summary's choice nodes (the addresses of choosing reads) as fuse_plan nodes, leaves
 * evaluated like weft_fb_offset: *out is malloc'd with s->nchoice nodes, or NULL when the
 * summary has none. False when a leaf does not evaluate or memory runs out. */
bool weft_fb_nodes(const struct weft_fb_launch *l, const struct weft_access_summary *s, struct weft_fp_node **out);

/* Access `a` of summary `s` of a launch on the chain's buffer `buf` as plan numbers in *x: an
 * affine one by weft_fb_offset, a choosing read as node[a->root] of `nodes` (weft_fb_nodes'
 * result). An access pinned to one row of the outermost dimension takes the row step of its
 * argument's other accesses (fuse/bind.c). False when an affine offset does not evaluate. */
bool weft_fb_access(const struct weft_fb_launch *l, const struct weft_access_summary *s, const struct weft_access *a,
                    unsigned buf, const struct weft_fp_node *nodes, struct weft_fp_access *x);

#endif
