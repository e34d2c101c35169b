/* compiler/codegen.h — host target machine, module (de)serialization, optimization
 * pipelines, object emission and the process-wide ORC LLJIT that runs the objects. */
#ifndef WEFT_COMPILER_CODEGEN_H
#define WEFT_COMPILER_CODEGEN_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stdbool.h>

#include "compiler/compiler.h"

/* The host CPU name and feature string (process-wide, never freed). */
const char *weft_codegen_host_cpu(void);
const char *weft_codegen_host_features(void);

/* A new target machine for the host CPU (the caller disposes it); NULL with a message. */
LLVMTargetMachineRef weft_codegen_host_tm(bool optimize, struct weft_diag *diag);

/* Sets the module's triple and data layout from `tm`, and gives every function the host CPU
 * and features (replacing clang's generic "x86-64"), so that the cost models see the ISA. */
void weft_codegen_set_host(LLVMModuleRef m, LLVMTargetMachineRef tm);

/* Runs an LLVMRunPasses pipeline; false with the pass builder's message in `diag`. */
bool weft_codegen_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm,
                             struct weft_diag *diag);

/* Parses bitcode into `ctx` (the module is fully materialized). */
bool weft_module_parse(LLVMContextRef ctx, const void *data, size_t size, LLVMModuleRef *out,
                       struct weft_diag *diag);
/* Serializes a module to bitcode. */
bool weft_module_write(LLVMModuleRef m, struct weft_bitcode *out);

/* Emits an ELF object for `m`. */
bool weft_codegen_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef m, struct weft_bitcode *obj,
                              struct weft_diag *diag);

/* How many times this process has run the backend (weft_codegen_emit_object) or linked an
 * object into the JIT: LLVM registers the destructors of some statics the first time one of
 * those reaches them (runtime/compile_ahead.c registers its exit handler after them). */
uint64_t weft_codegen_use_count(void);

/* Runs a small module through the optimizer and the backend for the host, and throws the
 * object away: LLVM registers the destructors of some of its statics only when a compile first
 * reaches them, and runtime/compile_ahead.c needs them registered before its exit handler.
 * False when something failed (nothing is left behind either way). */
bool weft_codegen_warm_up(void);

/* Adds `obj` to the process-wide JIT (unless a definition of `symbol` is already there, as
 * when two programs share a variant) and returns the address of `symbol`. */
bool weft_jit_add_object(const void *obj, size_t size, const char *symbol, void **addr,
                         struct weft_diag *diag);

/* WEFT_DUMP=dir: writes the module's IR to dir/<tag>.<stage>.ll (no-op otherwise). */
void weft_dump_module(LLVMModuleRef m, const char *tag, const char *stage);

#endif
