/* compiler/transform/vectorize.h — whole-function vectorization of a sub-CFG across the
 * work-items of dimension 0 (DESIGN §3 stage 9; Kerr's vectorization across work-items, Kim
 * §2.10 for the masks).
 *
 * The work-item loop of a sub-CFG normally runs one work-item per iteration (wgloops.c). When
 * the sub-CFG can be vectorized, its dimension-0 loop instead runs packets of P = W x U
 * consecutive work-items: W lanes of the target's SIMD width, U packets interleaved for
 * instruction-level parallelism (LLVM splits a P-lane vector into U registers, so U independent
 * chains are in flight). Inside a packet:
 *   - uniform values (shape analysis, focused on dimension 0) stay scalar; varying values become
 *     P-lane vectors; affine values are kept both ways (lane 0 as a scalar, and the vector);
 *   - unit-stride addresses become (masked) vector loads and stores, uniform addresses scalar
 *     ones, any other address a masked gather or scatter; private variables get one copy per
 *     lane;
 *   - with uniform control flow the sub-CFG keeps its shape: uniform branches and the kernel's
 *     own uniform loops stay scalar branches and loops that run once per packet;
 *   - with divergent control flow the sub-CFG is linearized: blocks run in a topological order
 *     (each loop's blocks together), each under a lane mask; a block whose mask is empty is
 *     skipped (the none-active fast path), a loop repeats while any lane is still in it, and
 *     values that cross blocks are blended under the mask;
 *   - atomics, volatile accesses and calls to unknown functions (printf) run lane by lane, in
 *     work-item order, for the active lanes only;
 *   - a local size that is not a multiple of P ends with one masked packet (the tail).
 * Sub-CFGs the pass cannot handle (irreducible control flow, varying values of vector or
 * aggregate type, allocas inside the sub-CFG, ...) keep the scalar work-item loop, and the
 * reason is reported.
 */
#ifndef WEFT_TRANSFORM_VECTORIZE_H
#define WEFT_TRANSFORM_VECTORIZE_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>

struct weft_workfn;
struct weft_subcfg;
struct weft_shapes;

/* What happened to one sub-CFG, for `weft explain` and weft-opt. */
struct weft_vec_report {
    bool vectorized;
    unsigned width;          /* W: SIMD lanes */
    unsigned interleave;     /* U: packets side by side */
    bool linearized;         /* divergent control flow, run under masks */
    bool wide_items;         /* the work-items' own vectors fill a SIMD register (uint16 with
                                16 lanes): each lane is a register-wide value already */
    bool tail;               /* the local size ends with a masked packet */
    unsigned vector_mem;     /* unit-stride vector loads/stores */
    unsigned scalar_mem;     /* uniform-address loads/stores */
    unsigned gathers;        /* gathers and scatters */
    unsigned probed;         /* ... of them, loads through a loop counter that run as one vector
                                load when a packet's addresses turn out consecutive */
    unsigned choices;        /* loads from one of two contiguous places: two masked loads, a blend */
    unsigned row_groups;     /* groups of loads along each lane's own row, read as one vector per
                                lane and transposed (full unmasked packets; vectorize_rows.c) */
    unsigned serialized;     /* operations run lane by lane (atomics, calls) */
    unsigned remat;          /* ... of them, accesses to __local memory whose lanes recompute their
                                addresses from scalars (vectorize_lanes.c) */
    unsigned masked_blocks;  /* blocks run under a lane mask (linearized) */
    bool fast_path;          /* linearized, and full packets run unmasked while their lanes agree */
    unsigned scalar_agree;   /* fast-path branches whose agreement the first and last lanes decide */
    unsigned final_guards;   /* ... of them, those whose false edge in every lane ends the packet
                                loop (vectorize_rest.c: the later packets would be idle) */
    bool once;               /* not vectorized: the sub-CFG runs once per work-group (WEFT_ONCE_MD) */
    char reason[200];        /* why not vectorized (empty when vectorized) */
};

/* The most elements per work-item an access may step and still be read or written as vector
 * accesses and a shuffle in a full packet, instead of a gather or scatter (vectorize_memory.c). */
#define WEFT_VEC_STRIDED_MAX 4

/* The lane width W for `fn` from its "target-cpu"/"target-features" attributes: 16 with
 * AVX-512F, 8 with AVX or AVX2, 4 otherwise. */
unsigned weft_vectorize_target_width(LLVMValueRef fn);

/* Whether a work-item's value of type t is register-wide: a vector of at least `width` lanes of
 * 32 bits (a uint16 with AVX-512). Side by side, each of its components takes a register of its
 * own (the report's wide_items); compiler/scalarize.h leaves such kernels' arithmetic whole. */
bool weft_vec_register_wide(LLVMTargetDataRef td, LLVMTypeRef t, unsigned width);

/* Whether the sub-CFG can be vectorized with `width` lanes (and `interleave` packets side by
 * side; 0: the cost model chooses); `shapes` describes wf->fn as it is (focused on dimension
 * 0). NULL with report->reason set when it cannot; otherwise the report holds the decisions. */
struct weft_vec_plan;
struct weft_vec_plan *weft_vectorize_plan(struct weft_workfn *wf, const struct weft_subcfg *sub,
                                          const struct weft_shapes *shapes, unsigned width,
                                          unsigned interleave, struct weft_vec_report *report);
void weft_vectorize_plan_free(struct weft_vec_plan *plan);

/* Emits the dimension-0 work-item loop of the sub-CFG as packets, starting at block `start`
 * (empty; the emitter terminates it). `iv_y`/`iv_z` are the local ids of the other dimensions
 * (NULL: 0). Every exit of the sub-CFG towards barrier block `bb` goes through
 * `exit_stub(opaque, bb, done)`, a block that records the next barrier and branches to
 * `done`, which is where the finished loop continues. */
typedef LLVMBasicBlockRef (*weft_vec_exit_fn)(void *opaque, LLVMBasicBlockRef barrier, LLVMBasicBlockRef done);
bool weft_vectorize_emit(struct weft_vec_plan *plan, LLVMBasicBlockRef start, LLVMValueRef iv_y,
                         LLVMValueRef iv_z, LLVMBasicBlockRef done, weft_vec_exit_fn exit_stub, void *opaque,
                         struct weft_vec_report *report);

#endif
