/* compiler/spirvdown.h — a SPIR-V to SPIR-V pre-pass that rewrites what llvm-spirv-15 cannot
 * read into instructions of the same meaning that it can, before the module goes to the
 * translator (spirv.c).
 *
 * Why: the device reports SPIR-V 1.0 to 1.4, but llvm-spirv-15 (Debian's translator, which
 * Weft runs as a child process) asserts ("Not implemented", "Invalid Id") on several SPIR-V 1.4
 * instructions, and on OpCopyMemory of any version. Fixing the translator is not an option
 * (it is the distribution's binary), so the module is brought down to forms it handles:
 *
 *   OpCopyMemory            -> OpCopyMemorySized of the pointee's size (OpenCL layout)
 *   two memory-operand sets -> one set that is exact for both (Volatile and the rest: either
 *                              set's; Aligned: the smaller alignment, dropped unless both have it)
 *   OpPtrEqual/OpPtrNotEqual-> OpConvertPtrToU (64 bits: Physical64) + OpIEqual/OpINotEqual
 *   OpPtrDiff               -> OpConvertPtrToU, OpISub, OpSDiv by the pointee's size
 *   OpCopyLogical           -> OpCompositeExtract/OpCompositeInsert into an OpUndef, leaf by
 *                              leaf
 *   OpDecorateString, OpMemberDecorateString with UserSemantic -> removed (informative only)
 *
 * Everything else is copied word for word; the version word stays (the translator reads 1.4
 * headers, only these instructions fail). New constants and, when the module has none, a
 * 64-bit integer type (and OpCapability Int64) are declared before the first function, with
 * ids above the old bound. */
#ifndef WEFT_COMPILER_SPIRVDOWN_H
#define WEFT_COMPILER_SPIRVDOWN_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/diag.h"

/* Rewrites the host-order module *words (*n words; it must have passed weft_spirv_check) in
 * place: on success *words may be a new malloc'd array (the old one freed) and *n its length,
 * and *changed tells whether anything was rewritten. CL_COMPILE_PROGRAM_FAILURE with a log
 * line when an instruction cannot be brought down (a decoration string other than
 * UserSemantic, a pointee without a size, types that do not match logically, ...),
 * CL_OUT_OF_HOST_MEMORY when out of memory; *words and *n are unchanged on failure. */
cl_int weft_spirv_downgrade(uint32_t **words, size_t *n, bool *changed, struct weft_diag *diag);

#endif
