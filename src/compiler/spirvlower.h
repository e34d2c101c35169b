/* compiler/spirvlower.h — makes llvm-spirv-15's output (an LLVM module for the SPIR target)
 * what the rest of Weft's compiler expects of a frontend object. */
#ifndef WEFT_COMPILER_SPIRVLOWER_H
#define WEFT_COMPILER_SPIRVLOWER_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "compiler/compiler.h"

/* In place: x86-64 triple and the builtin library's data layout; spir_func becomes the C
 * calling convention (kernels stay spir_kernel, as clang emits them); builtin calls mangled
 * the SPIR way (address spaces as U3AS<n>, private pointers unqualified) are renamed to the
 * builtin library's Itanium names (CLglobal, CLprivate, ...), and a builtin taking a generic
 * pointer that the library lacks calls the private-pointer overload (one flat address space
 * on the CPU); kernels get "uniform-work-group-size" from -cl-uniform-work-group-size and
 * floating-point instructions the fast-math flags of the relaxed-math options. Returns
 * false (with a log line) only when out of memory; names it cannot map are left for the
 * linker's undefined-function check to report. */
bool weft_spirv_lower(LLVMModuleRef m, const struct weft_build_options *opts, struct weft_diag *diag);

/* The same on bitcode: parses `in`, lowers, verifies and writes `out` (an OBJECT).
 * CL_COMPILE_PROGRAM_FAILURE with a log when the translator's output is not valid. */
cl_int weft_spirv_lower_bitcode(const struct weft_bitcode *in, const struct weft_build_options *opts,
                                struct weft_bitcode *out, struct weft_diag *diag);

/* The canonical form of an Itanium-mangled OpenCL builtin name, the same for the SPIR mangling
 * (spir = true) and clang's: substitutions expanded, address spaces as numbers (private 0),
 * cv-qualifiers dropped. NULL when the name is outside the subset OpenCL builtins use.
 * Caller frees. (Exported for the unit test.) */
char *weft_spirv_canonical_name(const char *mangled, bool spir);

#endif
