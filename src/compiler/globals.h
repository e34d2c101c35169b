/* compiler/globals.h — program-scope variables (OpenCL C 3.0 §6.8,
 * __opencl_c_program_scope_global_variables): which module variables live in a program's
 * one block of global-variable storage, where, and with which initial bytes.
 *
 * Design. A program's program-scope variables must be one storage per built program, shared
 * by all its kernels, all their variants and all launches, and initialized once at build time.
 * Variants are compiled separately and their objects are shared between programs with the same
 * bitcode (the JIT reuses a symbol already defined; the disk cache reuses objects across
 * processes), so no variant may carry the storage or its address. Instead:
 *   - the image (specialize.c) allocates one zeroed, WEFT_LOCAL_ALIGN-aligned block of
 *     `size` bytes per build and writes the initial values into it (weft_globals_init), with
 *     pointer initializers (`global int *p = &x;`) resolved to addresses inside the block;
 *   - the work-group transformation (transform/locals.c) rewrites every use of a member
 *     variable into `ctx->program_globals + offset` (weft/abi.h field 12), which the runtime
 *     sets to the block of the launched kernel's program.
 * Compiled code thus depends only on the offsets, which are a function of the executable
 * bitcode alone (and the data layout): the same bitcode gives the same layout in every
 * process, so cached objects stay valid for any program built from it.
 *
 * Members: every defined variable in the global address space (addrspace(1) in the fake
 * address-space map the frontend uses), plus, transitively, any other defined variable (a
 * __constant one, a string literal) that a member's initializer points to or whose
 * initializer points to a member — so that every pointer stored in the block at build time
 * points into the block. Other __constant variables stay private constants of each variant
 * (read-only, so copies are indistinguishable, and LLVM may fold loads from them); __local
 * variables are laid out per work-group (locals.c).
 */
#ifndef WEFT_COMPILER_GLOBALS_H
#define WEFT_COMPILER_GLOBALS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/diag.h"

/* The largest program-scope variable (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE). */
#define WEFT_MAX_GLOBAL_VARIABLE_SIZE ((uint64_t)64 << 20)

struct weft_globals_layout {
    unsigned n;
    LLVMValueRef *vars;     /* members, in module order */
    uint64_t *offsets;      /* byte offset of vars[i] in the block */
    uint64_t size;          /* bytes of the block (0: the program has none) */
};

/* Members and offsets of module `m` under its data layout. Each offset is aligned to the
 * variable's alignment (at most WEFT_LOCAL_ALIGN is assumed of the block). False, with a
 * line in `diag`, when a variable is larger than WEFT_MAX_GLOBAL_VARIABLE_SIZE or out of
 * memory. */
bool weft_globals_layout_compute(LLVMModuleRef m, struct weft_globals_layout *out, struct weft_diag *diag);
/* Offset of `v` when it is a member, else -1. */
int64_t weft_globals_offset_of(const struct weft_globals_layout *l, LLVMValueRef v);
void weft_globals_layout_free(struct weft_globals_layout *l);

/* Writes the members' initial values into `block` (layout.size bytes, zeroed by the caller,
 * at its final address: pointer initializers become absolute addresses inside it). False with
 * a line in `diag` for an initializer it cannot evaluate. */
bool weft_globals_init(LLVMModuleRef m, const struct weft_globals_layout *l, unsigned char *block,
                       struct weft_diag *diag);

#endif
