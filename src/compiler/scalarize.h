/* compiler/scalarize.h — a work-item's vector arithmetic split into its components before the
 * vectorizer across work-items (LLVM's scalarizer pass), for vectorized variants.
 *
 * The vectorizer keeps a work-item's vector value as the packet's lanes back to back (a float4
 * of 16 work-items: 64 floats, lane by lane). Element-wise operations cost nothing extra that
 * way, but an operation between a work-item's own components (a swizzle, dot(r, r), a scalar
 * times a float3, building a vector from scalars) becomes shuffles across registers, and the
 * registers they need spill. Split into components first, each component is one vector of the
 * packet's lanes and the shuffles are gone: the corpus's nbody (float3 arithmetic on float4
 * loads) ran 48.6-49.9 ms, and 20.9-22.8 split, on the 2-core Sapphire Rapids VM. Loads and
 * stores stay whole (a work-item's vector is contiguous in memory); the vectorizer reads and
 * writes their components as before.
 *
 * Not for a kernel with a vector value as wide as a SIMD register (`width` lanes of 32 bits:
 * hashcat's uint16, clpeak's float16 on AVX-512): those are the register-wide work-items the
 * vectorizer reports (transform/vectorize.h wide_items) and the runtime profiles the scalar
 * work-item loops against (compiler/variant.h), which it tells from their vector values. */
#ifndef WEFT_COMPILER_SCALARIZE_H
#define WEFT_COMPILER_SCALARIZE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

enum weft_scalarize_result {
    WEFT_SCALARIZE_NOTHING = 0,   /* no vector arithmetic in the kernel (or width < 2) */
    WEFT_SCALARIZE_SPLIT,         /* split */
    WEFT_SCALARIZE_KEPT_WIDE,     /* kept: a vector of width x 32 bits or more */
};

/* Splits the vector arithmetic of every function of m (the kernel's callees with it) unless
 * `kernel` or a function it calls holds a vector value of width * 32 bits or more. */
enum weft_scalarize_result weft_scalarize_vector_ops(LLVMModuleRef m, LLVMValueRef kernel, unsigned width);

#endif
