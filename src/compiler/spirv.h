/* compiler/spirv.h — SPIR-V modules (clCreateProgramWithIL): what Weft reads of the binary
 * itself (the header, the instruction stream's framing, the specialization constants) and
 * the translation of a module into an OBJECT (compiler.h) by llvm-spirv-15.
 *
 * The binary is read word by word in either byte order (the magic number tells); nothing here
 * trusts a word count or an id without checking it against the module's length and bound. */
#ifndef WEFT_COMPILER_SPIRV_H
#define WEFT_COMPILER_SPIRV_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"

/* The SPIR-V versions llvm-spirv-15 reads (it rejects 1.5 and later). */
#define WEFT_SPIRV_MAX_MINOR 4

/* CL_SUCCESS when `il` is a SPIR-V module Weft can consume: magic number (either byte order),
 * a version 1.0..1.4, a non-zero id bound, schema 0, and instructions that exactly tile the
 * rest of the module. Otherwise CL_INVALID_VALUE with the reason in `why`. */
cl_int weft_spirv_check(const void *il, size_t len, char *why, size_t why_len);

/* One specialization constant of a module: OpSpecConstant{,True,False} decorated SpecId. */
struct weft_spirv_spec {
    uint32_t spec_id;
    uint32_t size;        /* bytes the host passes: 1 for a boolean, else the type's width / 8 */
    bool is_bool;
};

/* The module's specialization constants (*out malloc'd, NULL when there are none). The module
 * must have passed weft_spirv_check. CL_OUT_OF_HOST_MEMORY on failure. */
cl_int weft_spirv_spec_constants(const void *il, size_t len, struct weft_spirv_spec **out, size_t *count);

/* A value the application set with clSetProgramSpecializationConstant. */
struct weft_spirv_spec_value {
    uint32_t spec_id;
    uint32_t size;
    unsigned char bytes[8];
};

/* The llvm-spirv binary used: WEFT_LLVM_SPIRV, else llvm-spirv-15 on PATH, else the build's. */
const char *weft_spirv_translator_path(void);

/* Translates the module (specialized with `values`, the defaults for the others) into an
 * OBJECT: the instructions llvm-spirv-15 cannot read are rewritten (spirvdown.h), then
 * llvm-spirv-15 -r, then what the SPIR target leaves different from Weft's frontend
 * output is lowered (triple and data layout, calling conventions, builtin names, build
 * options). The translator's messages go to `diag`; CL_COMPILE_PROGRAM_FAILURE when it (or the
 * rewrite) fails, CL_COMPILER_NOT_AVAILABLE when it cannot be run. */
cl_int weft_spirv_translate(const void *il, size_t len, const struct weft_spirv_spec_value *values,
                            size_t num_values, const struct weft_build_options *opts,
                            struct weft_bitcode *out, struct weft_diag *diag);

/* clBuildProgram from IL: translation + link into an EXECUTABLE, through the disk cache (keyed
 * by the module, the specialization values, options, translator, builtin library and Weft
 * version; the log of a cached build is the log of the build that made it). Errors as
 * weft_spirv_translate and weft_link. */
cl_int weft_spirv_build_executable(const void *il, size_t len, const struct weft_spirv_spec_value *values,
                                   size_t num_values, const char *options, const struct weft_build_options *opts,
                                   struct weft_bitcode *exe, struct weft_diag *diag);

#endif
