/* compiler/compiler.h — the kernel compiler as the runtime sees it (program.c, kernel.c).
 *
 * Programs move through three kinds of bitcode, all held as plain bytes so that no LLVM
 * object ever crosses a thread or outlives one call (each call parses into its own
 * LLVMContext):
 *   - an OBJECT: one translation unit as clang emitted it (clCompileProgram);
 *   - a LIBRARY: several objects linked, nothing else done (clLinkProgram -create-library);
 *   - an EXECUTABLE: objects linked with the builtin library, everything but the kernels
 *     internalized and inlined, checked (no undefined calls, no recursion, passable argument
 *     types). An executable is what weft_image_create() turns into kernel metadata and what
 *     variants are compiled from.
 * Every function that can fail returns a cl_int and appends its explanation to a weft_diag
 * (the build log). All functions are thread-safe.
 */
#ifndef WEFT_COMPILER_COMPILER_H
#define WEFT_COMPILER_COMPILER_H

#include <CL/cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/analysis/access.h"
#include "compiler/diag.h"
#include "compiler/transform/wgfunction.h"
#include "compiler/variant.h"

/* ---- bitcode buffers -------------------------------------------------------------------- */

struct weft_bitcode {
    unsigned char *data;   /* malloc'd */
    size_t size;
};

void weft_bitcode_free(struct weft_bitcode *bc);

/* ---- build options -------------------------------------------------------------------- */

/* The user's options, parsed once. Everything clang must see goes to `clang_args`. */
struct weft_build_options {
    char **clang_args;       /* NULL-terminated, owned */
    size_t num_clang_args;
    char cl_std[16];         /* "CL1.2" unless -cl-std= given */
    bool kernel_arg_info;    /* -cl-kernel-arg-info */
    bool opt_disable;        /* -cl-opt-disable */
    bool fast_math;          /* any of the relaxed-math flags */
    bool create_library;     /* -create-library (clLinkProgram) */
    bool enable_link_options;
};

enum weft_options_kind { WEFT_OPTIONS_COMPILE, WEFT_OPTIONS_LINK };

/* CL_INVALID_BUILD_OPTIONS (compile: the caller maps it for clCompileProgram) with a message
 * in `diag` for an unknown or malformed option. */
cl_int weft_options_parse(const char *options, enum weft_options_kind kind,
                          struct weft_build_options *out, struct weft_diag *diag);
void weft_options_free(struct weft_build_options *o);

/* ---- frontend (frontend.c) ------------------------------------------------------------- */

struct weft_header {
    const char *name;        /* include name as the program's source writes it */
    const char *source;
};

/* Compiles OpenCL C `source` to an OBJECT. clang's diagnostics go to `diag` verbatim.
 * CL_COMPILE_PROGRAM_FAILURE when clang fails; CL_OUT_OF_HOST_MEMORY /
 * CL_COMPILER_NOT_AVAILABLE when clang cannot be run. */
cl_int weft_frontend_compile(const char *source, const struct weft_build_options *opts,
                             const struct weft_header *headers, size_t num_headers,
                             struct weft_bitcode *out, struct weft_diag *diag);

/* The clang binary used: WEFT_CLANG, else clang-19 on PATH, else the one the build found. */
const char *weft_frontend_clang_path(void);

/* Runs argv[0] as a child process: stdin fed from `input`, stdout and stderr collected
 * (malloc'd, NUL-terminated); `fd3` >= 0 is given to the child as its descriptor 3. Returns
 * the exit status, 128 + signal when killed, -1 when it could not run (errno), -2 out of
 * memory. */
int weft_frontend_run_process(char *const argv[], int fd3, const char *input, size_t input_len,
                              unsigned char **out, size_t *out_len, unsigned char **errb, size_t *err_len);

/* ---- link (link.c) --------------------------------------------------------------------- */

/* Links `n` objects/libraries. With `executable`, also links the builtin library,
 * internalizes, inlines and checks (undefined calls, recursion, argument types).
 * CL_LINK_PROGRAM_FAILURE with a log on any problem (program.c maps it to
 * CL_BUILD_PROGRAM_FAILURE for clBuildProgram). */
cl_int weft_link(const struct weft_bitcode *inputs, size_t n, bool executable,
                 const struct weft_build_options *opts, struct weft_bitcode *out,
                 struct weft_diag *diag);

/* ---- the whole build (specialize.c) ---------------------------------------------------- */

/* clBuildProgram from source: frontend + link into an EXECUTABLE, through the disk cache
 * (keyed by source, options, compiler, builtin library and Weft version) when the result
 * cannot depend on files outside the source (no #include, no -I). The log of a cached
 * build is the log of the build that produced it. Errors as weft_frontend_compile and
 * weft_link. */
cl_int weft_build_executable(const char *source, const char *options, const struct weft_build_options *opts,
                             struct weft_bitcode *exe, struct weft_diag *diag);

/* ---- kernel metadata (metadata.c) -------------------------------------------------------- */

struct weft_arg_meta {
    char *name;                                /* NULL unless built with -cl-kernel-arg-info */
    char *type_name;                           /* "float*", "int4", "S" */
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_access_qualifier access;
    cl_kernel_arg_type_qualifier type_qualifier;
    enum weft_arg_kind kind;
    size_t size;                               /* bytes the host passes to clSetKernelArg */
    size_t offset;                             /* in the packed argument block */
    cl_mem_object_type image_type;             /* image arguments: CL_MEM_OBJECT_IMAGE*, else 0 */
    bool is_sampler;                           /* a sampler_t argument (passed as its bits) */
};

struct weft_kernel_meta {
    char *name;
    cl_uint num_args;
    struct weft_arg_meta *args;
    size_t args_size;                          /* bytes of the packed argument block */
    char *attributes;                          /* CL_KERNEL_ATTRIBUTES */
    size_t reqd_work_group_size[3];            /* zeros when absent */
    size_t work_group_size_hint[3];
    size_t static_local_size;                  /* bytes of the kernel's own __local variables */
    size_t private_size;                       /* estimate of private memory per work-item */
    size_t code_size;                          /* instructions, everything inlined: what a
                                                  compile's time grows with */
    bool has_arg_names;
    bool uses_printf;                          /* the kernel calls printf (after inlining) */
    bool order_effects;                        /* atomics, or stores to program-scope
                                                  variables: what it leaves may depend on the
                                                  order its work-items run in */
    bool indirect_stores;                      /* writes global memory through a pointer no
                                                  argument gave it (one loaded from memory, as
                                                  shared virtual memory allows): what it writes
                                                  may lie outside every cl_mem argument */
    bool uses_sub_groups;                      /* ... or sub-group built-ins (transform/subgroup.h) */
    bool uniform_work_groups;                  /* OpenCL C 1.x or -cl-uniform-work-group-size:
                                                  the global size must be a multiple of the local */
    bool group_blind;                          /* observes nothing of its work-group: no local
                                                  id or size, group id or count, barrier or
                                                  __local memory (so the runtime may run
                                                  neighbouring work-groups as one) */
    struct weft_access_summary access;         /* its global memory accesses as affine
                                                  relations, when it has them (for fusing
                                                  launch chains; analysis/access.h) */
};

/* Work-items of dimension 0 per group the runtime merges a group-blind kernel's work-groups
 * up to (runtime/ndrange.c). */
#define WEFT_BLIND_GROUP_X 256u

/* ---- executable images (specialize.c) -------------------------------------------------- */

/* A built executable: its bitcode, options, kernel metadata and compiled variants. */
struct weft_image {
    struct weft_bitcode bitcode;
    char *options;                             /* the build options string */
    bool denorms_zero;                         /* -cl-denorms-are-zero: kernels run with the
                                                  SSE control register's DAZ and FTZ set */
    bool opt_disable;                          /* -cl-opt-disable: the one option variants'
                                                  code, and so their cache key, depends on */
    cl_uint num_kernels;
    struct weft_kernel_meta *kernels;
    uint64_t bitcode_hash;
    unsigned char *globals;                    /* the program-scope variables' storage, one per
                                                  build, initialized at build time (globals.h);
                                                  NULL when there are none */
    uint64_t globals_size;                     /* its bytes (CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) */
    pthread_mutex_t lock;                      /* guards the variant list */
    pthread_cond_t compiled;                   /* a pending variant became ready or was dropped */
    struct weft_variant_entry *variants;
    _Atomic uint32_t *compile_ms;              /* per kernel: the longest compile of one of its
                                                  variants this process saw (JIT or disk record),
                                                  a one-work-item one counted 8x (specialize.c) */
};

/* Takes ownership of `bc`. Reads the kernel metadata and allocates and initializes the
 * program-scope variables' storage. CL_INVALID_BINARY with a log when the bitcode cannot be
 * read; CL_LINK_PROGRAM_FAILURE with a log when a program-scope variable is too large
 * (WEFT_MAX_GLOBAL_VARIABLE_SIZE) or its initializer cannot be evaluated. */
cl_int weft_image_create(struct weft_bitcode *bc, const char *options, bool kernel_arg_info,
                         bool opt_disable, struct weft_image **out, struct weft_diag *diag);
void weft_image_free(struct weft_image *img);
/* Index of kernel `name`, or -1. */
int weft_image_find_kernel(const struct weft_image *img, const char *name);

struct weft_compiled_variant {
    void (*fn)(const void *, const void *, uint64_t, uint64_t);  /* weft_wg_fn */
    uint64_t static_local_size;
    uint64_t scratch_size;
    uint32_t bfo_loops;        /* loops the variant runs breadth-first (transform/schedule.h) */
    uint32_t votes_bfo;        /* loops that could run breadth-first and vote BFO (what AUTO schedules) */
    uint32_t vec_linearized;   /* sub-CFGs the vectorizer ran under lane masks (divergent code) */
    uint32_t vec_row_walks;    /* ... and the divergent loops in them that walk a row per work-item
                                  (transform/schedule.h row_walks; compiler/variant.h) */
    uint32_t vec_wide_items;   /* sub-CFGs vectorized whose work-items' own vectors fill a SIMD
                                  register (transform/vectorize.h wide_items) */
    uint32_t sub_group_width;  /* the sub-group size S of this variant (transform/subgroup.h) */
    uint64_t key;              /* the variant's cache key: names this code */
};

/* The variant `spec` of kernel `k` for `local_size` (compiled on first use: memory cache, disk
 * cache, then JIT). CL_OUT_OF_RESOURCES with a log when compilation fails. */
cl_int weft_image_get_variant(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                              const struct weft_variant_spec *spec, struct weft_compiled_variant *out,
                              struct weft_diag *diag);
/* The variant if it is ready without compiling: built in this process already or in the disk
 * cache (CL_SUCCESS); WEFT_VARIANT_NOT_COMPILED when it is neither, or another thread is
 * compiling it; CL_OUT_OF_RESOURCES when its last compile in this process failed. */
#define WEFT_VARIANT_NOT_COMPILED 1
cl_int weft_image_peek_variant(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                               const struct weft_variant_spec *spec, struct weft_compiled_variant *out);
/* The longest compile of one of kernel k's variants this process knows of, in ms (0: none
 * compiled or loaded yet, or loaded from records that predate the measure); a variant of one
 * work-item, which vectorizes nothing, counts 8 times its compile (what vectorizing the kernel
 * costs, about). */
uint32_t weft_image_compile_ms(struct weft_image *img, cl_uint k);
/* Whether a launch's global ids may reach WEFT_NARROW_ID_LIMIT in some dimension (offset +
 * global size past it): then only a ".wide" variant may run it. */
bool weft_variant_needs_wide_ids(unsigned work_dim, const uint64_t offset[3], const uint64_t global[3]);

/* ---- program binaries (specialize.c) --------------------------------------------------- */

/* Serializes (type, options, bitcode) with a checked header. */
cl_int weft_binary_write(cl_program_binary_type type, const char *options,
                         const struct weft_bitcode *bc, unsigned char **out, size_t *out_size);
/* CL_INVALID_BINARY when the blob is not a Weft binary, is truncated or its checksum fails. */
cl_int weft_binary_read(const unsigned char *data, size_t size, cl_program_binary_type *type,
                        char **options, struct weft_bitcode *bc);

/* ---- hashing (cache.c) ------------------------------------------------------------------ */

uint64_t weft_hash64(const void *data, size_t n, uint64_t seed);

#endif
