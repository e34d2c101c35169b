/* compiler/narrowmasks.h — masked loads and stores whose mask is a constant run of lanes become
 * plain loads and stores of just those lanes.
 *
 * Why: the vectorizer masks a packet's memory accesses with the lanes that take part, and once
 * the optimizer has unrolled a work-group's packets and folded the local ids in, many masks are
 * constants: the steps of a tree reduction in __local memory (`if (lid < s) p[lid] += p[lid +
 * s]; barrier`) become a masked load, add and store of the first s lanes, step after step. x86
 * does not forward a masked store to a later load that overlaps it: each step waited for the
 * previous step's store to reach the cache, some 25-30 cycles (a C model on the 2-core Sapphire
 * Rapids VM: 55 ns for the five single-packet steps of a group of 32 with masked accesses, 9 ns
 * with loads and stores of just the s lanes, which are forwarded). LLVM 19 keeps the masked
 * instructions (AVX-512 `vmovups {k}`).
 *
 * What is rewritten: calls of llvm.masked.load and llvm.masked.store whose mask is a constant
 * with its true lanes one contiguous run [a, a + k), k a power of two below the lane count, on
 * elements of a whole number of bytes. The load reads k elements (one element: a scalar) at the
 * address of lane a and takes the pass-through value's other lanes; the store writes lane a ..
 * a + k - 1 there. The bytes read and written are exactly those of the true lanes, so nothing
 * outside what the masked access touched is touched. Alignment: the call's, as far as the
 * offset of lane a keeps it. */
#ifndef WEFT_COMPILER_NARROWMASKS_H
#define WEFT_COMPILER_NARROWMASKS_H

#include <llvm-c/Core.h>

/* Rewrites every such call in every function of m; returns how many. */
unsigned weft_narrow_masked_memops(LLVMModuleRef m);

#endif
