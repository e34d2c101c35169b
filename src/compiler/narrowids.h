/* compiler/narrowids.h — global ids below 2^31 (the "narrow ids" assumption of a variant).
 *
 * OpenCL C code takes `int i = get_global_id(0)` and indexes with i - 1, i + 1, ... Clang keeps
 * the 32-bit wrap-around of those ints, and LLVM's canonical form of sext(trunc(gid) + k) is
 * ashr((gid << 32) + (k << 32), S), one shift per neighbour: the loads of a stencil
 * cannot share a base. When every global id of a launch is below WEFT_NARROW_ID_LIMIT, no such
 * int wraps, and sext(trunc(gid) + k) is gid + k (for k up to 2^24, the limit's margin).
 *
 * weft_narrow_ids, for a variant built under that assumption (every variant but those with
 * ".wide", compiler/variant.h; runtime/ndrange.c and exec/fuse/fuse.c ask for
 * those when a launch's offset + global size passes the limit in some dimension), rewrites the
 * shifted forms above into gid + k, before the work-group function is built (the vectorizer
 * then sees one affine base for the neighbours). A range attribute on the calls would not
 * survive: work-item lowering replaces them. */
#ifndef WEFT_COMPILER_NARROWIDS_H
#define WEFT_COMPILER_NARROWIDS_H

#include <llvm-c/Core.h>

/* Global ids of a launch whose variants assume narrow ids are below this (offset + global size
 * at most this in every dimension). */
#define WEFT_NARROW_ID_LIMIT ((1ull << 31) - (1ull << 24))

/* Applies the assumption to every function of m; returns how many shifted forms it rewrote. */
unsigned weft_narrow_ids(LLVMModuleRef m);

#endif
