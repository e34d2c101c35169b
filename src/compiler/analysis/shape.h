/* compiler/analysis/shape.h — what each value of a kernel looks like across the work-items of
 * one work-group: uniform (the same for all), affine in the local id of one dimension with a
 * stride (v = base + stride * get_local_id(dim), base and stride uniform), or varying.
 *
 * Roots: kernel arguments, globals and constants are uniform; get_local_id(d)/get_global_id(d)
 * with a constant d are affine in d with stride 1; get_group_id, get_local_size,
 * get_global_size, get_num_groups, get_work_dim, get_global_offset, get_enqueued_local_size are
 * uniform (names as in compiler/transform/wgfunction.h). Callers may pin extra values
 * (weft_shapes_seed), e.g. the induction variables of work-item loops.
 * Rules (a forward fixed point; each value only moves unknown -> shape -> varying):
 *   add/sub/or-disjoint: uniform+affine is affine; affine+affine in one dimension adds strides
 *   (gid - lid is uniform); mul by a uniform value and shl by a constant scale the stride;
 *   trunc/zext/sext keep affine values affine (assuming, like every OpenCL CPU compiler, that
 *   index arithmetic does not wrap inside one work-group); GEPs give pointers affine in bytes;
 *   an `exact` division or right shift by a constant that divides the stride divides it (clang's
 *   `ashr exact (shl x, 32), 32` sign-extension idiom keeps x's shape). Not when the operand
 *   must wrap: once |stride| * (local size - 1) reaches 2^width, an extension, exact division
 *   or narrower GEP index of it is varying ((ulong)((uint)gid * 0x9e3779b9) is no base +
 *   stride*lid; privatization would recompute it from one base for all work-items).
 *   div/rem/and/xor/shifts by non-constants/compares/fp ops/anything else of a non-uniform
 *   operand is varying. In particular get_local_id(0)/32 is VARYING: it is equal for runs of 32
 *   work-items, which no (uniform, affine) shape describes; claiming affine stride 0 or 1/32
 *   would be wrong for a vectorizer or for recomputation.
 *   phi/select: the common shape of the incoming values (uniform+affine is varying).
 *   Loads are varying unless the address is uniform and the memory is __global, __local or
 *   __constant (address spaces 1, 3, 2: shared, so work-items that read one address alike
 *   read one value unless a data race, undefined in OpenCL, makes them differ), a constant
 *   global, a by-value (byval) kernel argument that the kernel never writes or lets escape
 *   (private: each work-item has its own copy), or the load is marked !invariant.load.
 *   An instruction marked !weft.uniform (WEFT_UNIFORM_LOAD_MD) is pinned uniform: Weft's own
 *   scheduling code puts it on values every work-item that uses them agrees on (reads of
 *   work-group-shared words that every work-item reads alike, the skeleton's iteration count).
 *   Calls: work-item functions as above; get_max_sub_group_size, get_num_sub_groups,
 *   get_enqueued_num_sub_groups (and the sub-group width placeholders of
 *   transform/subgroup.h) are uniform; get_sub_group_id, get_sub_group_local_id,
 *   get_sub_group_size and every sub-group collective (reduce, scan, broadcast, all, any) are
 *   varying: their values agree within one sub-group at most, and a work-group holds several;
 *   a call to a function that does not access memory (memory(none), e.g. math intrinsics)
 *   with uniform arguments is uniform; otherwise varying.
 * Control divergence: a conditional branch or switch whose condition is not uniform is
 *   divergent. Its join points are the blocks where paths from different successors first meet
 *   before its immediate post-dominator P (P included), found by propagating one label per
 *   successor edge; a phi there is varying unless all the divergent paths bring it the very same
 *   value. Values computed inside the divergent region itself stay uniform when their operands
 *   are (they are the same for the work-items that run them).
 *   Loops: when P is outside a loop containing the branch, work-items may leave that loop in
 *   different iterations (temporal divergence): phis of its exit blocks taking values computed
 *   in the loop are varying, and every value of the loop with another use outside it is varying
 *   as a whole (run LLVM's "lcssa" first to keep such values uniform inside the loop). When a
 *   path from the branch returns to the header of an enclosing loop without passing P (inside
 *   that loop), some work-items lap others: the header's phis are varying unless they are one
 *   value on every edge. The pass is a sound over-approximation, not an exact one.
 * Strides: integers use a stride of the value's type; pointers a byte stride of type i64. A
 * stride is a constant, or an existing uniform value of the IR (e.g. `n` in lid*n); when a
 * stride would need arithmetic on a non-constant value that is not in the IR, the value is
 * varying instead (conservative). An affine value whose stride is 0, or whose dimension has a
 * local size of 1 (weft_shapes_set_local_size), is reported uniform.
 */
#ifndef WEFT_ANALYSIS_SHAPE_H
#define WEFT_ANALYSIS_SHAPE_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/analysis/loops.h"

#define WEFT_UNIFORM_LOAD_MD "weft.uniform"

enum weft_shape_kind { WEFT_SHAPE_UNIFORM, WEFT_SHAPE_AFFINE, WEFT_SHAPE_VARYING };

struct weft_shape {
    enum weft_shape_kind kind;
    int dim;                 /* AFFINE: which local-id dimension */
    LLVMValueRef stride;     /* AFFINE: stride per work-item, uniform (constant or not) */
};

struct weft_shapes;

/* One call: create, run, return (NULL for a declaration). `loops` may be NULL (then the
 * analysis builds its own CFG, dominators and loops); when given, it must describe `kernel`. */
struct weft_shapes *weft_shapes_compute(LLVMValueRef kernel, const struct weft_loops *loops);

/* Step by step, to seed values or give the local size first:
 *     s = weft_shapes_create(kernel, loops);
 *     weft_shapes_seed(s, iv, (struct weft_shape){WEFT_SHAPE_AFFINE, 0, one});
 *     weft_shapes_run(s);                                                           */
struct weft_shapes *weft_shapes_create(LLVMValueRef kernel, const struct weft_loops *loops);
/* Pins v to `shape` (never changed by the rules or by divergence). Before weft_shapes_run. */
void weft_shapes_seed(struct weft_shapes *s, LLVMValueRef v, struct weft_shape shape);
/* Specialized local size (1 for unused dims): dims of size 1 make their local id uniform, and
 * with sizes[1] == sizes[2] == 1 the linear ids are affine in dimension 0. Before run. */
void weft_shapes_set_local_size(struct weft_shapes *s, const uint64_t sizes[3]);
/* Shapes along one dimension only: the local ids of the other dimensions count as uniform, so
 * answers (and divergence) describe how values differ between work-items that differ only in
 * local id `dim` — what the innermost work-item loop's vectorizer and the locality analysis
 * need (`gy*w + gx` is then affine with stride 1 along dimension 0). Not for privatization,
 * which needs the whole group's view (the default). Before run. */
void weft_shapes_set_focus_dim(struct weft_shapes *s, int dim);
void weft_shapes_run(struct weft_shapes *s);

struct weft_shape weft_shape_of(const struct weft_shapes *s, LLVMValueRef v);
/* The stride of an affine shape as a constant, when it is one. */
bool weft_shape_const_stride(struct weft_shape sh, int64_t *stride);
/* Whether the terminator of bb is a divergent branch. */
bool weft_shapes_branch_divergent(const struct weft_shapes *s, LLVMBasicBlockRef bb);
/* Whether the natural loop with this header may run a different number of iterations for
 * different work-items that enter it together (a divergent exit, or work-items lapping each
 * other); false for a header that starts no loop. A loop inside a divergent if is still
 * uniform when all work-items that enter it leave it together. */
bool weft_shapes_loop_divergent(const struct weft_shapes *s, LLVMBasicBlockRef header);
void weft_shapes_free(struct weft_shapes *s);

static inline bool weft_shape_is_uniform(struct weft_shape sh) { return sh.kind == WEFT_SHAPE_UNIFORM; }

#endif
