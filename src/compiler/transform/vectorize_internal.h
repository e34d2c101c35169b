/* compiler/transform/vectorize_internal.h — what the parts of the vectorizer across work-items
 * share (vectorize.c lists them): the plan of one sub-CFG, the facts about its values, and the
 * helpers each part offers the others. Only vectorize*.c include it; other modules use
 * vectorize.h.
 */
#ifndef WEFT_TRANSFORM_VECTORIZE_INTERNAL_H
#define WEFT_TRANSFORM_VECTORIZE_INTERNAL_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/transform/vectorize.h"
#include "util/ptrmap.h"

struct weft_cfg;
struct weft_domtree;
struct weft_loops;
struct weft_sg_call;

/* A value's kind in a packet: uniform (one scalar), affine (lane 0 as a scalar, and the vector),
 * varying (a vector, or one value per lane). */
enum { K_U, K_A, K_V };

/* What the plan knows of one instruction of the sub-CFG, and its copies in the packet being
 * emitted. */
struct vinfo {
    LLVMValueRef v;
    int block;                 /* index in plan->blocks */
    uint8_t kind;
    bool cross;                /* a PHI, or used in another block of the sub-CFG */
    bool has_stride;           /* AFFINE with a constant stride */
    int64_t stride;
    LLVMValueRef slot_s, slot_v;
    unsigned epoch;            /* scal/vec/lanes are valid while epoch == plan->epoch */
    LLVMValueRef scal, vec;
    LLVMValueRef *lanes;       /* serialized result of a type without a vector form */
};

/* An entry-block alloca the sub-CFG uses: one copy per lane. */
struct priv {
    LLVMValueRef alloca;
    bool simple;               /* only loaded/stored directly, as one scalar first-class type */
    LLVMValueRef wide;         /* <P x T> (simple) or [P x T] */
    LLVMValueRef lanes;        /* <P x ptr>: each lane's copy (not simple) */
};

/* A natural loop of the sub-CFG, numbered in the order its first back edge comes in the
 * sub-CFG's reverse post-order (the order the linear copy's loop ends are made in). */
struct vloop {
    int header, parent;
    int shared;                /* its index in plan->loop_info */
    int first, last;           /* positions in the linear order */
};

/* The plan of one sub-CFG (vectorize_plan.c), and the state of its emission. */
struct weft_vec_plan {
    struct weft_workfn *wf;
    const struct weft_subcfg *sub;
    const struct weft_shapes *sh;
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMTypeRef i1, i32, i64;
    unsigned W, U, P;
    bool linear;
    /* the sub-CFG's own CFG, dominators and natural loops (analysis/, sub-CFG mode): blocks
     * are numbered as in sub->blocks, entry first */
    struct weft_cfg *cfg;
    struct weft_domtree *dom;
    struct weft_loops *loop_info;
    unsigned nb;
    LLVMBasicBlockRef *blocks; /* cfg->blocks */
    struct vinfo *vi;
    size_t nvi;
    struct weft_ptrmap iidx;   /* instruction -> index + 1 */
    struct priv *priv;
    size_t npriv;
    struct weft_ptrmap pidx;   /* alloca -> index + 1 */
    struct vloop *loops;
    int nloops;
    int *order;                /* linear order (block indices) */
    int norder;
    int *inner;                /* [nb] innermost loop or -1 */
    LLVMBasicBlockRef *exits;  /* distinct barrier blocks the sub-CFG leaves to (cfg->exits) */
    unsigned nexits;

    /* emission */
    LLVMBuilderRef b;
    LLVMValueRef mask;         /* NULL: every lane active; else <P x i1> */
    int const_active;          /* lanes 0..n-1 active (known), or -1 (dynamic mask) */
    LLVMValueRef base;         /* i64 local id x of lane 0 */
    LLVMValueRef ivy, ivz;
    unsigned epoch;
    LLVMValueRef *bmask;       /* [nb] mask slots (linearized) */
    LLVMValueRef *xmask;       /* [nexits] exit mask slots (linearized) */
    /* the linear copy of the packet being emitted, for the fast path's hand-overs */
    LLVMBasicBlockRef *lin_guard;      /* [norder] the guard of each position */
    LLVMBasicBlockRef *lin_loop_end;   /* [nloops] each loop's end test */
    LLVMBasicBlockRef lin_exit;
    int *position;                     /* [nb] block index -> position in the linear order */
    struct weft_vec_report *rep;
    /* final guards (vectorize_rest.c): [nb] 1 where block k's branch is one, computed when
     * first asked (NULL before); `rest_idle` is the i1 slot a full packet sets when it finds
     * every later packet idle, and the packet loop ends (NULL: no such loop to end) */
    int8_t *final_guard;
    LLVMValueRef rest_idle;
    bool serial_loops;         /* serialized operations run in a loop over the lanes */
    /* row groups (vectorize_rows.c): consecutive loads of each lane's own row */
    struct vrowgroup *rows;
    size_t nrows;
    struct weft_ptrmap rowidx; /* load -> group * 16 + its place + 1 */
    bool failed;
};

/* vectorize_rows.c: finds the plan's row groups (after the packet size is chosen), frees them,
 * and emits a load of one from the group's transposed rows (false: emit it otherwise). */
void weft_vec_find_row_groups(struct weft_vec_plan *p, struct weft_vec_report *report);
void weft_vec_free_row_groups(struct weft_vec_plan *p);
bool weft_vec_emit_row_load(struct weft_vec_plan *p, struct vinfo *vi);

/* Lane copies of serialized operations a sub-CFG may unroll (serialize): beyond, lane loops. */
enum { SERIAL_UNROLL_MAX = 128 };

/* Lane-wise intrinsics with a vector overload: the overload type is the return type, or
 * operand 0's for llvm.is.fpclass; llvm.ldexp adds operand 1's. Immediate operands stay
 * scalar. */
struct lanewise {
    const char *name;
    int imm_operand;   /* -1: none */
    bool overload_arg0, overload_arg1;
};

/* The blocks through which a packet leaves the sub-CFG towards each barrier (the caller's
 * exit stubs, made when first needed), and where the packet's copy continues. */
struct stubs {
    LLVMBasicBlockRef *bb;   /* [nexits] */
    weft_vec_exit_fn fn;
    void *opaque;
    LLVMBasicBlockRef done;
};

/* ---- planning (vectorize_plan.c) ---------------------------------------------------------- */

bool weft_vec_scalar_type(LLVMTypeRef t);
unsigned weft_vec_ncomp(LLVMTypeRef t);
LLVMTypeRef weft_vec_vtype(struct weft_vec_plan *p, LLVMTypeRef t);
bool weft_vec_droppable_call(LLVMValueRef call);
bool weft_vec_is_prefetch(LLVMValueRef call);
const struct lanewise *weft_vec_lanewise_of(LLVMValueRef call);
struct vinfo *weft_vec_info(struct weft_vec_plan *p, LLVMValueRef v);
struct priv *weft_vec_priv_of(struct weft_vec_plan *p, LLVMValueRef v);
int weft_vec_block_index(const struct weft_vec_plan *p, LLVMBasicBlockRef bb);
int weft_vec_kind_of(struct weft_vec_plan *p, LLVMValueRef v);
bool weft_vec_is_serialized(LLVMValueRef i);
void weft_vec_fail_at(struct weft_vec_plan *p, const char *what, LLVMValueRef v);
bool weft_vec_in_loop(const struct weft_vec_plan *p, int l, int b);
int weft_vec_loop_with_header(const struct weft_vec_plan *p, int b);

/* ---- values and lane-wise instructions (vectorize_values.c) -------------------------------- */

LLVMValueRef weft_vec_call_intrinsic(struct weft_vec_plan *p, const char *name, LLVMTypeRef *types, size_t ntypes,
                                     LLVMValueRef *args, unsigned nargs);
LLVMValueRef weft_vec_const_splat(struct weft_vec_plan *p, LLVMValueRef s);
LLVMValueRef weft_vec_shuffle_mask(struct weft_vec_plan *p, const int *idx, unsigned n);
LLVMValueRef weft_vec_spread(struct weft_vec_plan *p, LLVMValueRef v, unsigned n, bool by_lane);
LLVMValueRef weft_vec_splat(struct weft_vec_plan *p, LLVMValueRef s);
LLVMValueRef weft_vec_iota(struct weft_vec_plan *p, LLVMTypeRef t);
LLVMValueRef weft_vec_const_mask(struct weft_vec_plan *p, unsigned active);
LLVMValueRef weft_vec_cur_mask(struct weft_vec_plan *p);
LLVMValueRef weft_vec_mask_and(struct weft_vec_plan *p, LLVMValueRef m, LLVMValueRef c);
LLVMValueRef weft_vec_mask_like(struct weft_vec_plan *p, LLVMValueRef mask, LLVMTypeRef vt);
LLVMValueRef weft_vec_extract_lane(struct weft_vec_plan *p, LLVMValueRef vec, LLVMValueRef lane, LLVMTypeRef t);
bool weft_vec_valid(struct weft_vec_plan *p, struct vinfo *v);
LLVMValueRef weft_vec_mask_bits(struct weft_vec_plan *p, LLVMValueRef mask);
LLVMValueRef weft_vec_get_scal(struct weft_vec_plan *p, LLVMValueRef v);
LLVMValueRef weft_vec_affine_vec(struct weft_vec_plan *p, struct vinfo *vi);
LLVMValueRef weft_vec_get_vec(struct weft_vec_plan *p, LLVMValueRef v);
LLVMValueRef weft_vec_lane_of(struct weft_vec_plan *p, LLVMValueRef v, unsigned l);
LLVMValueRef weft_vec_blend(struct weft_vec_plan *p, LLVMValueRef mask, LLVMValueRef nv, LLVMValueRef slot);
void weft_vec_define(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef scal, LLVMValueRef vec);
bool weft_vec_plain_operand(LLVMValueRef op);
LLVMValueRef weft_vec_scalar_clone(struct weft_vec_plan *p, LLVMValueRef i);
void weft_vec_emit_inst(struct weft_vec_plan *p, struct vinfo *vi);
LLVMValueRef weft_vec_entry_alloca(struct weft_vec_plan *p, LLVMTypeRef t, const char *name);

/* ---- memory (vectorize_memory.c) ---------------------------------------------------------- */

void weft_vec_emit_load(struct weft_vec_plan *p, struct vinfo *vi);
void weft_vec_emit_store(struct weft_vec_plan *p, struct vinfo *vi);
void weft_vec_make_private_copies(struct weft_vec_plan *p);

/* ---- lane by lane (vectorize_lanes.c) ----------------------------------------------------- */

void weft_vec_serialize(struct weft_vec_plan *p, struct vinfo *vi);
void weft_vec_emit_collective(struct weft_vec_plan *p, struct vinfo *vi, const struct weft_sg_call *sg);

/* ---- the rest of the packet loop idle (vectorize_rest.c) ------------------------------------ */

/* Whether block k's branch is a final guard: once every lane of a full packet takes its false
 * edge, and the condition says that every later work-item would too, nothing the later
 * packets do outlives them. */
bool weft_vec_final_guard(struct weft_vec_plan *p, int k);
bool weft_vec_has_final_guard(struct weft_vec_plan *p);

/* ---- control flow and masks (vectorize_mask.c) -------------------------------------------- */

void weft_vec_emit_structured(struct weft_vec_plan *p, LLVMBasicBlockRef start, struct stubs *st, bool fast);
void weft_vec_emit_linear(struct weft_vec_plan *p, LLVMBasicBlockRef start, LLVMValueRef entry_mask, struct stubs *st);
void weft_vec_clear_masks(struct weft_vec_plan *p);
LLVMValueRef weft_vec_partial_mask(struct weft_vec_plan *p, LLVMBasicBlockRef start, unsigned active);

#endif
