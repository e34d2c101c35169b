/* compiler/arglayout.h — the single definition of the packed argument block of weft/abi.h.
 *
 * For a kernel function as clang-19 emits it for OpenCL C on x86_64 (with or without
 * -ffake-address-space-map), this says for every parameter what kind it is, where it lives in
 * the argument block and how many bytes the host gives for it:
 *   - the kind comes from !kernel_arg_addr_space (0 private/by value, 1 global, 2 constant,
 *     3 local); without that metadata, from the pointer's address space (same numbering);
 *   - a struct/union is passed by clang as `ptr byval(%T)`: its host size is the alloc size of
 *     %T (= OpenCL C sizeof); scalars and vectors are passed directly: their host size is the
 *     alloc size of the LLVM type (so a 3-component vector occupies 4 components, as sizeof
 *     does in OpenCL C);
 *   - pointers (global, constant, local) occupy 8 bytes in the block; for a __local pointer
 *     that slot holds an offset into ctx->local_mem, and `size` is 8 (the size the host passes
 *     to clSetKernelArg for a __local argument is the allocation size instead, not a slot size).
 * Offsets are assigned in parameter order, each a multiple of WEFT_ARG_ALIGN; each argument
 * takes weft_round_up(size, WEFT_ARG_ALIGN) bytes.
 *
 * The work-group function (transform/wgfunction.c) unpacks with this layout; the runtime packs
 * with the offsets/sizes recorded at build time from it. Argument types that cannot be passed
 * (images, samplers, pipes, queues, events, unsized types) make weft_arglayout_compute fail
 * with a message naming the argument.
 */
#ifndef WEFT_COMPILER_ARGLAYOUT_H
#define WEFT_COMPILER_ARGLAYOUT_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

#include "compiler/diag.h"
#include "compiler/transform/wgfunction.h"   /* enum weft_arg_kind */
#include "weft/abi.h"

struct weft_arg_slot {
    enum weft_arg_kind kind;
    uint64_t offset;        /* byte offset in the packed block (multiple of WEFT_ARG_ALIGN) */
    uint64_t size;          /* host-visible size in bytes (8 for every pointer kind) */
    LLVMTypeRef type;       /* the parameter's LLVM type (ptr for byval structs) */
    LLVMTypeRef byval_type; /* the struct/union type when passed `byval`, else NULL */
    unsigned byval_align;   /* alignment of the byval parameter (0 when not byval) */
};

struct weft_arg_layout {
    unsigned count;
    uint64_t total_size;    /* bytes of the whole block (multiple of WEFT_ARG_ALIGN) */
    struct weft_arg_slot *args;   /* count entries, owned */
};

/* Computes the layout of `kernel`'s parameters (the module's data layout gives sizes).
 * Returns false with a message in `diag` (and an empty layout) when an argument cannot be
 * passed. `out` must be released with weft_arglayout_free. */
bool weft_arglayout_compute(LLVMValueRef kernel, struct weft_arg_layout *out, struct weft_diag *diag);
void weft_arglayout_free(struct weft_arg_layout *layout);

/* Bytes one argument of host size `size` takes in the block. */
static inline uint64_t weft_arglayout_slot_bytes(uint64_t size)
{
    return weft_round_up(size ? size : 1, WEFT_ARG_ALIGN);
}

#endif
