/* compiler/analysis/linear.h — whether two addresses are a known number of bytes apart.
 *
 * An address is taken apart into a root pointer (what is left after the GEPs), a constant and
 * terms coefficient x atom, where an atom is an integer value the decomposition does not look
 * into, with how it was widened (as is, sign- or zero-extended). The decomposition goes through
 * GEPs (struct fields and constant indices fold into the constant), add, sub, `or disjoint`,
 * multiplication and left shift by a constant, and sext/zext, which it distributes over an add
 * only when the add cannot wrap in that sense (nsw under sext, nuw under zext; `zext nneg` is
 * both). Two addresses whose roots and terms are the same differ by the difference of their
 * constants. Arithmetic on 64-bit indices is taken as exact (as LLVM's inbounds GEPs are), like
 * the shape analysis: addresses do not wrap around the address space.
 */
#ifndef WEFT_ANALYSIS_LINEAR_H
#define WEFT_ANALYSIS_LINEAR_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

/* Whether `q` is `p` plus a constant number of bytes, and that number in *bytes. False when it
 * cannot tell (different roots or terms, or an expression too deep or too wide). */
bool weft_linear_distance(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef q, int64_t *bytes);

/* The coefficient (bytes per unit) of integer value `atom` in address `p`, counting it however
 * it was widened; false when `p` does not decompose. */
bool weft_linear_coefficient(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef atom, int64_t *coef);

#endif
