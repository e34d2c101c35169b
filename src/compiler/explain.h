/* compiler/explain.h — what the kernel compiler decided for one kernel and one local size, in
 * a form `weft explain` prints: the barrier-free sub-CFGs, what was privatized and how, the
 * shape of every memory access, and which work-item loops LLVM vectorized.
 *
 * Guarantees: the explanation is computed from the same passes, in the same order, as a real
 * variant (compiler/specialize.c): the decisions reported are the ones the passes made, read
 * from their results (never predicted separately). Everything runs in a private LLVMContext;
 * `exe` is not changed. Source lines are reported when the program was built with -g.
 */
#ifndef WEFT_COMPILER_EXPLAIN_H
#define WEFT_COMPILER_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/compiler.h"
#include "compiler/scalarize.h"
#include "compiler/variant.h"

struct weft_explain_subcfg {
    int id;                      /* 0 = from the kernel entry, i = after barrier i */
    unsigned barrier_line;       /* source line of the barrier that starts it (0: entry/unknown) */
    unsigned nblocks;
    char **blocks;               /* block names as the transformation names them */
    unsigned line_first, line_last;   /* source lines covered (0 when unknown) */
    unsigned exits_to_count;
    int exits_to[8];             /* ids of the barriers it may end at (-1 = kernel exit) */
};

enum weft_explain_priv_kind {
    WEFT_EXPLAIN_PRIV_SLOT,        /* uniform: one scalar slot shared by all work-items */
    WEFT_EXPLAIN_PRIV_RECOMPUTED,  /* affine: uniform base kept, value recomputed per work-item */
    WEFT_EXPLAIN_PRIV_ARRAY,       /* a work-item-indexed array in the scratch area */
};

struct weft_explain_private {
    char *name;                  /* IR name of the slot or private variable */
    char *type;                  /* its LLVM type */
    enum weft_explain_priv_kind kind;
    bool is_variable;            /* a private variable/array of the kernel, not a demoted value */
    int dim;                     /* RECOMPUTED: local-id dimension */
    int64_t stride;              /* RECOMPUTED: stride per work-item (bytes for pointers) */
    uint64_t bytes;              /* bytes per work-item */
    bool interleaved;            /* ARRAY: element by element (weft_privatize_interleaved) */
    unsigned line;               /* source line of the definition (0 when unknown) */
    uint64_t subcfg_mask;        /* sub-CFGs that use it (bit i = sub-CFG i) */
};

enum weft_explain_access_class {
    WEFT_ACCESS_UNIFORM,         /* one address for all work-items */
    WEFT_ACCESS_UNIT,            /* consecutive work-items touch consecutive elements */
    WEFT_ACCESS_STRIDED,         /* a constant stride other than the element size */
    WEFT_ACCESS_INTERLEAVED,     /* ... of 2 to 4 scalar elements along x: in full packets, vector
                                    accesses and a shuffle (vectorize_memory.c) */
    WEFT_ACCESS_STRIDED_VAR,     /* a stride that is a uniform run-time value */
    WEFT_ACCESS_VARYING,         /* anything else: gather/scatter */
};

struct weft_explain_access {
    char *op;                    /* "load", "store", "atomic" */
    char *type;                  /* accessed LLVM type */
    unsigned addrspace;          /* 1 global, 2 constant, 3 local, 0 private/generic */
    enum weft_explain_access_class cls;
    int dim;                     /* the local-id dimension the class is measured along */
    int64_t stride;              /* STRIDED/UNIT: bytes per work-item */
    int subcfg;                  /* first sub-CFG containing it */
    unsigned line, column;
};

struct weft_explain_loop {
    int subcfg;
    int dim;                     /* local-id dimension of this work-item loop */
    bool innermost;
    bool survived;               /* still a loop after optimization (else fully unrolled) */
    bool vectorized;
    unsigned width;              /* vectorization factor (LLVM's remark, else the widest vector
                                    the vector loop computes with) */
    unsigned interleave;         /* LLVM's interleave count (0 when unknown) */
    char *remark;                /* LLVM's loop-vectorize remarks about this loop ("; "-joined) */
};

struct weft_explain_kernel {
    char *name;
    uint64_t local_size[3];
    bool group_blind;            /* weft_observes_work_group is false: neighbouring groups merge */
    bool uses_sub_groups;        /* calls sub-group built-ins ... */
    unsigned sub_group_width;    /* ... which then run sub-groups of this many work-items */
    unsigned nsubcfgs;
    struct weft_explain_subcfg *subcfgs;
    unsigned nprivates;
    struct weft_explain_private *privates;
    unsigned naccesses;
    struct weft_explain_access *accesses;
    unsigned nloops;
    struct weft_explain_loop *loops;
    struct weft_schedule_report schedule;   /* the loops' locality votes and schedule */
    int schedule_mode;           /* WEFT_SCHEDULE (enum weft_schedule_mode) */
    bool schedule_fell_back;     /* breadth-first scheduling failed (a bug): depth-first instead */
    struct weft_variant_spec variant;   /* the variant explained: what a launch runs first */
    bool variant_forced;         /* ... because WEFT_VARIANT names it */
    char *locality;              /* analysis/print.h "locality" dump of the kernel: the stride
                                    classes of each loop's accesses (NULL without loops) */
    unsigned nvec;
    struct weft_vec_report *vec; /* [nvec] Weft's own vectorizer, per sub-CFG (NULL when off) */
    enum weft_scalarize_result scalarized;   /* a work-item's vector arithmetic before
                                                vectorizing (compiler/scalarize.h) */
    unsigned prefetches;         /* software prefetches of grid-stride loops (prefetch.h) */
    unsigned narrowed;           /* masked loads and stores of a constant run of lanes made
                                    plain after optimizing (narrowmasks.h) */
    uint64_t scratch_size;       /* bytes of scratch per work-group */
    uint64_t static_local_size;
    unsigned nremarks;
    char **remarks;              /* other loop-vectorize remarks (user loops, notes), when the
                                    process enabled LLVM's remarks (-pass-remarks*=loop-vectorize,
                                    slp-vectorizer), and notes of explain itself */
};

/* The names of the kernels of an executable, in module order (malloc'd array of malloc'd
 * strings). False with a message when the bitcode cannot be read. */
bool weft_explain_kernel_names(const struct weft_bitcode *exe, char ***names, unsigned *count,
                               struct weft_diag *diag);

/* Explains `kernel` of `exe` specialized for `local_size`. CL_INVALID_KERNEL_NAME when there
 * is no such kernel, CL_OUT_OF_RESOURCES with a message when a pass fails. */
cl_int weft_explain_kernel(const struct weft_bitcode *exe, const char *kernel, const uint64_t local_size[3],
                           struct weft_explain_kernel *out, struct weft_diag *diag);
void weft_explain_kernel_free(struct weft_explain_kernel *k);

/* Human-readable report (what `weft explain` prints). */
void weft_explain_print(FILE *f, const struct weft_explain_kernel *k);

#endif
