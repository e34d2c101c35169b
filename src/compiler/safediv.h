/* compiler/safediv.h — integer division that cannot trap.
 *
 * OpenCL C leaves x / 0, x % 0 and INT_MIN / -1 undefined in value only (a GPU returns some
 * number); x86's div and idiv raise SIGFPE on them, which would kill the application. Every
 * sdiv/udiv/srem/urem, scalar or vector, whose divisor is not a constant known to be safe
 * gets its divisor replaced by 1 in exactly those cases (x / 0 -> x, INT_MIN / -1 ->
 * INT_MIN, the wrapped value, and INT_MIN % -1 -> 0, the exact one). The divisor becomes
 * umax(freeze(d), 1) (a signed one then a select against the overflow), never a select on
 * d == 0: LLVM may thread a division over a select's arms and take an arm's constant zero lane
 * for undefined behaviour of the whole vector. The cost is a max (and for signed divisions
 * two compares and a select) next to a division of 20 to 90 cycles. A guarded division moves up
 * to right after its operands' definitions, out of every conditional block (LLVM 19 speculates
 * only divisions by constants, and its loop vectorizer mispredicated a uniform one left in a
 * divergent block); it may then run where it did not, at the cost of one division.
 */
#ifndef WEFT_COMPILER_SAFEDIV_H
#define WEFT_COMPILER_SAFEDIV_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* The divisor of a division a / d (or a % d) that cannot trap, built at b's position: d with 1
 * in its lanes of 0 (and, `is_signed`, where a is the minimum and d is -1). For a constant d the
 * builder folds it into a constant: what the vectorizer needs for a division it builds from
 * constant lanes (a hoisted `20 % lid` in a group of one packet: lid = <0, 1, ...>), which the
 * builder would otherwise fold, lane 0's undefined behaviour and all, into poison before
 * weft_guard_divisions sees an instruction. */
LLVMValueRef weft_safe_divisor(LLVMModuleRef m, LLVMBuilderRef b, bool is_signed, LLVMValueRef a, LLVMValueRef d);

/* Guards every division of every function of m, each moved up first; returns how many. */
unsigned weft_guard_divisions(LLVMModuleRef m);
/* Moves every division of fn that weft_guard_divisions will guard to right after its operands'
 * definitions, unguarded: the kernel before the work-group function is built around it (there
 * a uniform dividend kept across a barrier is reloaded inside the conditional block, and the
 * division could no longer leave it). weft_guard_divisions must run before the code does. */
unsigned weft_hoist_divisions(LLVMValueRef fn);

#endif
