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
 * two compares and a select) next to a division of 20 to 90 cycles.
 */
#ifndef WEFT_COMPILER_SAFEDIV_H
#define WEFT_COMPILER_SAFEDIV_H

#include <llvm-c/Core.h>

/* Guards every division of every function of m; returns how many it guarded. */
unsigned weft_guard_divisions(LLVMModuleRef m);

#endif
