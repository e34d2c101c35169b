/* runtime/kernel.h — kernel objects, and what the NDRange launch (ndrange.c) needs of them to
 * build its launch description (exec/launch.h, which also defines struct weft_variant). */
#ifndef WEFT_RUNTIME_KERNEL_H
#define WEFT_RUNTIME_KERNEL_H

#include <stdbool.h>
#include "compiler/variant.h"
#include "exec/launch.h"
#include "runtime/object.h"
#include "weft/abi.h"

struct weft_kernel_meta;   /* compiler/compiler.h */
struct weft_kernel_args;   /* kernel.c: a snapshot of argument values */

/* Launch-relevant facts of a kernel (from its compiled metadata). */
struct weft_kernel_launch_info {
    size_t reqd_work_group_size[3];   /* all 0 when the kernel has no reqd_work_group_size */
    size_t work_group_size_hint[3];
    size_t max_work_group_size;       /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t preferred_multiple;        /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    bool uniform_work_groups;         /* built as OpenCL C 1.x or with -cl-uniform-work-group-size */
};

void weft_kernel_launch_info(cl_kernel k, struct weft_kernel_launch_info *out);
/* CL_INVALID_KERNEL_ARGS when an argument is not set; otherwise a snapshot of the current
 * values that holds every memory object it refers to (for the command's lifetime). */
cl_int weft_kernel_capture_args(cl_kernel k, struct weft_kernel_args **out);
/* The compiled variant for this local size and work dimension (compiled on first use and
 * cached). Errors: CL_OUT_OF_RESOURCES / CL_OUT_OF_HOST_MEMORY / CL_INVALID_PROGRAM_EXECUTABLE.
 * CL_OUT_OF_RESOURCES, before compiling, also when the kernel's private arrays need more stack
 * than weft_pool_stack_limit(); a variant whose vector lanes' copies of them would need more
 * is replaced by the scalar work-item loops (code WEFT_CODE_SCALAR; out->spec says what ran),
 * unless the kernel uses sub-groups (their size must stay what clGetKernelSubGroupInfo
 * reported). `spec` names the variant (compiler/variant.h). */
cl_int weft_kernel_get_variant(cl_kernel k, cl_uint work_dim, const size_t local[3],
                               const struct weft_variant_spec *spec, struct weft_variant *out);
/* The same variant when it is ready without compiling (built in this process or in the disk
 * cache): CL_SUCCESS; WEFT_VARIANT_NOT_COMPILED (compiler/compiler.h) when it is not, or
 * another thread compiles it; an error code when its compile failed or cannot fit. */
cl_int weft_kernel_peek_variant(cl_kernel k, cl_uint work_dim, const size_t local[3],
                                const struct weft_variant_spec *spec, struct weft_variant *out);
/* How long the kernel's longest variant compile took, in ms, as far as this process knows
 * (compiler/compiler.h weft_image_compile_ms). */
uint32_t weft_kernel_compile_ms(cl_kernel k);
/* Writes the __local argument offsets into the snapshot (after the variant's static locals)
 * and returns the packed argument block and the total __local bytes a work-group needs. */
const void *weft_kernel_args_pack(struct weft_kernel_args *a, const struct weft_variant *v,
                                  size_t *local_mem_total);
void weft_kernel_args_free(struct weft_kernel_args *a);
/* True when the kernel calls printf: the launch then gives ctx->printf_buf a buffer from
 * weft_printf_buffer_new() and calls weft_printf_buffer_finish() on it when the launch
 * completes (compiler/printf.h), which writes the output to stdout. */
bool weft_kernel_uses_printf(cl_kernel k);
/* The kernel takes an image or sampler argument (its launches never join a fused chain: the
 * access summary cannot see through image descriptors). */
bool weft_kernel_has_images(cl_kernel k);
/* Called by every clEnqueueNDRangeKernel of `k`; weft_kernel_launched tells whether one came
 * (runtime/variant_choice.h: a launch knows its local size better than a guess). */
void weft_kernel_note_launch(cl_kernel k);
bool weft_kernel_launched(cl_kernel k);
/* The kernel's instructions, everything inlined (weft_kernel_meta.code_size). */
size_t weft_kernel_code_size(cl_kernel k);
/* The kernel observes nothing of its work-groups (weft_kernel_meta.group_blind) and asks for
 * no particular work-group size: the runtime may run neighbouring work-groups as one. */
bool weft_kernel_group_blind(cl_kernel k);
/* How long the kernel's launches of one work-group ran, a moving average over the last few
 * (0: none ran yet); ndrange.c lets such launches run on the enqueueing thread when it is short. */
void weft_kernel_note_one_group_run(cl_kernel k, uint64_t ns);
uint64_t weft_kernel_one_group_run_ns(cl_kernel k);
/* How long the kernel takes per work-item on one thread, in picoseconds: a moving average over
 * its last launches of at most one work-group per pool thread (each group ran on a thread of
 * its own, so a launch took about as long as one group: `ns` for `group_items` work-items);
 * 0 while none ran. ndrange.c splits the work-groups of such launches when they are long. */
void weft_kernel_note_few_groups_run(cl_kernel k, uint64_t ns, uint64_t group_items);
uint64_t weft_kernel_item_ps(cl_kernel k);
/* The kernel calls sub-group built-ins: its launches never switch variants at run time
 * (the sub-group size must stay what clGetKernelSubGroupInfo reported). */
bool weft_kernel_uses_sub_groups(cl_kernel k);
/* The sub-group size S of launches of `k` with this (enqueued) local size: the one the variant
 * the launch runs has (compiled now when needed). */
cl_int weft_kernel_sub_group_width(cl_kernel k, cl_uint work_dim, const size_t local[3], unsigned *width);
/* The storage of its program's program-scope variables (ctx->program_globals), or NULL. */
char *weft_kernel_program_globals(cl_kernel k);
/* The kernel's function name. */
const char *weft_kernel_name(cl_kernel k);
/* Names the kernel's code by content (its program's bitcode, -cl-opt-disable and its name): the
 * same in every process that builds or loads the same program, for decisions kept on disk. */
uint64_t weft_kernel_code_key(cl_kernel k);
/* The kernel's program (its context: ->context), held by the kernel. */
cl_program weft_kernel_program(cl_kernel k);
/* The kernel's compiled metadata (argument layout, access summary). */
const struct weft_kernel_meta *weft_kernel_meta_of(cl_kernel k);
/* Every memory object of the snapshot (buffers and images, in argument order): its storage and
 * size, *n of them, valid while the snapshot lives. */
const struct weft_launch_buffer *weft_kernel_args_buffers(const struct weft_kernel_args *a, unsigned *n);
/* Shared virtual memory (runtime/svm.c validates, these store). Argument `index` (a __global or
 * __constant pointer) becomes the raw pointer `p` (clSetKernelArgSVMPointer); the set of
 * CL_KERNEL_EXEC_INFO_SVM_PTRS is replaced by a copy of ptrs[0..n) (CL_OUT_OF_HOST_MEMORY);
 * `on`: CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM was set to CL_TRUE. */
cl_int weft_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *p);
cl_int weft_kernel_set_svm_ptrs(cl_kernel k, void *const *ptrs, size_t n);
void weft_kernel_set_svm_system(cl_kernel k, bool on);
/* Unified shared memory (runtime/usm.c validates, these store): CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL
 * named n pointers; the indirect-access kind `bit` (any nonzero flag of usm.c's choosing) was set
 * to `on`. Either makes the kernel's launches reach memory no argument lists. */
void weft_kernel_set_usm_ptrs(cl_kernel k, size_t n);
void weft_kernel_set_usm_indirect(cl_kernel k, unsigned bit, bool on);
/* Why the snapshot's kernel may reach memory that is no memory object of its arguments (an SVM
 * or USM pointer argument, exec-info SVM or USM pointers, fine-grain system SVM or indirect USM
 * access asked for), or NULL when all it
 * can reach is listed by weft_kernel_args_buffers. Such a launch is never fused and never run
 * twice on copies (exec/launch.h weft_launch_desc.raw_memory). */
const char *weft_kernel_args_raw_memory(const struct weft_kernel_args *a);
/* The engine's way to ask for variants and code keys of a launch's kernel (exec/launch.h). */
extern const struct weft_kernel_ops weft_kernel_launch_ops;

#endif
