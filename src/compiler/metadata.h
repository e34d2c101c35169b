/* compiler/metadata.h — kernel facts read from a linked module: what clGetKernelInfo,
 * clGetKernelArgInfo and clGetKernelWorkGroupInfo report, and how arguments are packed. */
#ifndef WEFT_COMPILER_METADATA_H
#define WEFT_COMPILER_METADATA_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "compiler/compiler.h"

/* True for an OpenCL kernel definition (spir_kernel calling convention). */
bool weft_is_kernel(LLVMValueRef fn);

/* Reads every kernel of `m` (in module order). `arg_names`: keep argument names (built with
 * -cl-kernel-arg-info). False with a message when the metadata is malformed. */
bool weft_metadata_read(LLVMModuleRef m, bool arg_names, struct weft_kernel_meta **out,
                        cl_uint *count, struct weft_diag *diag);
void weft_metadata_free(struct weft_kernel_meta *k, cl_uint count);

/* The metadata string operand `i` of `fn`'s !`kind` node (owned by LLVM), or NULL. */
const char *weft_metadata_string(LLVMValueRef fn, const char *kind, unsigned i, size_t *len);
/* Whether kernel fn of the linked module m (everything inlined) can tell its work-group apart:
 * local ids or sizes, group ids or counts, barriers, __local memory (weft_kernel_meta.group_blind
 * is the negation). */
bool weft_observes_work_group(LLVMModuleRef m, LLVMValueRef fn);

#endif
