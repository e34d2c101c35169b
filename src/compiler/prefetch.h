/* compiler/prefetch.h — software prefetches for grid-stride loops.
 *
 * A grid-stride loop (`for (i = get_global_id(0); i < n; i += get_global_size(0)) ... data[i]`,
 * the GPU idiom for a fixed grid over any n) reads, per work-item and iteration, one element a
 * global size further on: the hardware prefetchers follow a stream within a 4 KiB page and do not
 * cross to the next one, so every iteration waits for memory, and a loop body with more work
 * than loads (a histogram's 16 lane-by-lane increments per packet) leaves too few iterations in
 * flight to overlap the misses. The corpus's histogram (64 KiB grid stride) on the 2-core
 * Sapphire Rapids VM, depth-first: 116-136 ms a launch without, 49-55 ms with.
 *
 * For each load of global or constant memory in a kernel loop whose step is a grid stride (the
 * global size or number of groups, times anything) and whose address is arithmetic over values
 * fixed in the loop and that induction variable (GEP, add, sub, mul, shl, shifts, casts), this
 * inserts before the load `llvm.prefetch` of the address WEFT_PREFETCH_AHEAD iterations on: the
 * address expression again with the induction variable advanced (no wrap flags, no inbounds: a
 * prefetch past the end of a buffer is a hint that never faults). One per object and loop; none
 * where an enclosing loop reads the same addresses again (from the cache). Column walks step as
 * far, but are left alone: a 2-D grid's other rows of work-items read the same columns from the
 * cache (sgemm NT with a prefetch per step: 1.33x the time, 2-core VM).
 *
 * The vectorizer issues one prefetch per packet where its lanes' addresses are close (two where
 * they span a line), and the first and the last lane's otherwise: a grid-stride counter is a
 * varying value whose lanes happen to be consecutive (transform/vectorize_values.c).
 */
#ifndef WEFT_COMPILER_PREFETCH_H
#define WEFT_COMPILER_PREFETCH_H

#include <llvm-c/Core.h>

/* Iterations ahead: the depth-first histogram at 4, 8 and 16 read 62.8, 58.9 and 58.4 ms (2-core
 * Sapphire Rapids VM, the prefetch in the kernel's source); its iterations are short (16
 * increments a packet), so 8 is ahead of the miss in longer ones too. */
#define WEFT_PREFETCH_AHEAD 8

/* Inserts the prefetches into `fn` (a kernel after linking and inlining); returns how many. */
unsigned weft_prefetch_grid_strides(LLVMValueRef fn);

#endif
