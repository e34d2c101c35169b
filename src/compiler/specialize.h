/* compiler/specialize.h — one variant of one kernel: from the program's executable bitcode
 * to an object file, specialized for a local size and the host CPU. */
#ifndef WEFT_COMPILER_SPECIALIZE_H
#define WEFT_COMPILER_SPECIALIZE_H

#include "compiler/compiler.h"

struct weft_specialize_result {
    struct weft_bitcode object;      /* ELF object defining `symbol` */
    uint64_t static_local_size;
    uint64_t scratch_size;
    unsigned bfo_loops, votes_bfo;                /* what transform/schedule.h did */
    unsigned vec_linearized;                      /* sub-CFGs vectorized under lane masks */
    unsigned vec_row_walks;                       /* row walks (schedule.h) run under lane masks */
    unsigned vec_wide_items;                      /* sub-CFGs vectorized whose work-items' own
                                                     vectors fill a register (vectorize.h) */
    unsigned sub_group_width;                     /* the variant's sub-group size (subgroup.h) */
    /* the vectorizer across work-items (transform/vectorize.h), for WEFT_REPORT: sub-CFGs it
     * vectorized of all, the first one's lanes, and why the first one not vectorized was not */
    unsigned vec_done, vec_total, vec_width, vec_interleave;
    char vec_reason[120];
};

/* Clones nothing shared: parses `exe` into a private LLVMContext, builds the work-group
 * function of `kernel` for `local_size`, removes the other kernels, optimizes for the host
 * (default<O3>, or a minimal pipeline with `opt_disable`) and emits an object whose only
 * exported symbol is `symbol`, as the variant `spec` (compiler/variant.h) says. With
 * `denorms_zero` (-cl-denorms-are-zero) the symbol sets DAZ and FTZ for the call.
 * CL_OUT_OF_RESOURCES with a log on failure. */
cl_int weft_specialize(const struct weft_bitcode *exe, const char *kernel, const uint64_t local_size[3],
                       bool opt_disable, bool denorms_zero, const struct weft_variant_spec *spec,
                       const char *symbol, struct weft_specialize_result *out, struct weft_diag *diag);

/* WEFT_VECTORIZE=off (or 0, 1): scalar work-item loops only. */
bool weft_vectorize_off(void);
/* A vectorizer setting `s` for `kernel`: auto (NULL, "" or "auto": the target's SIMD width for
 * 32-bit lanes), off ("off", "0", "1": width 0) or W[xU] (lanes per packet W, a power of two
 * from 2 to 64, and packets side by side U, at most 16; 0: the cost model's choice); false when
 * `s` is none of them. WEFT_VECTORIZE and weft-opt's -vectorize read the same way. */
bool weft_vector_parse(const char *s, LLVMValueRef kernel, unsigned *width, unsigned *interleave);
/* The vectorizer setting for `kernel` (WEFT_VECTORIZE; see README): width 0 when off. */
void weft_vector_setting(LLVMValueRef kernel, unsigned *width, unsigned *interleave);

#endif
