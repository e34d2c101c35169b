/* weft/abi.h — the work-group function ABI: the contract between the compiler's output
 * (compiler/transform/wgfunction.c emits it) and the runtime (exec/pool.c calls it).
 *
 * A work-group function runs a contiguous range of work-groups of one launch:
 *
 *     void weft_wg_<kernel>(const void *args, const struct weft_wg_ctx *ctx,
 *                           uint64_t first_group, uint64_t group_count);
 *
 * Groups are numbered linearly within the call's (sub-)launch, dimension 0 fastest:
 *     g = gx + launch_groups[0] * (gy + launch_groups[1] * gz),
 * and the work-group that g names has group id (gx, gy, gz) + group_base.
 *
 * Non-uniform work-groups (OpenCL 2.0+): when global_size[d] is not a multiple of the enqueued
 * local size, the NDRange is cut into up to 2^work_dim regions of equal-sized work-groups (per
 * dimension the full groups, then the one remainder group), and each region is a sub-launch
 * of a function specialized for its local size. Every sub-launch sees the whole NDRange in
 * work_dim, global_size, global_offset, num_groups (ceil(global / enqueued local)) and
 * enqueued_local_size, and its own region in local_size, group_base, launch_groups and
 * global_id_base. A whole uniform launch has local_size == enqueued_local_size, group_base 0,
 * launch_groups == num_groups and global_id_base == global_offset
 * (weft_wg_ctx_set_uniform fills them so).
 *
 * `args` is the packed argument block (see below). `ctx` is this worker's copy of the launch
 * context: the launch-wide sizes plus the worker's own local-memory arena and scratch area.
 * Every field of weft_wg_ctx is 8 bytes wide so that the compiler can address fields by
 * index (WEFT_CTX_FIELD_*) without caring about padding. Keep the two in sync.
 */
#ifndef WEFT_ABI_H
#define WEFT_ABI_H

#include <stdint.h>

#define WEFT_ABI_VERSION 3

struct weft_printf_buffer;

struct weft_wg_ctx {
    uint64_t work_dim;             /* field 0 */
    uint64_t global_size[3];       /* field 1 */
    uint64_t local_size[3];        /* field 2: the work-group size of this (sub-)launch */
    uint64_t global_offset[3];     /* field 3 */
    uint64_t num_groups[3];        /* field 4: of the whole NDRange, remainder groups included */
    char *local_mem;               /* field 5: worker's arena, 64-byte aligned, >= launch's local size */
    char *scratch;                 /* field 6: worker's scratch for privatized values, 64-byte aligned */
    struct weft_printf_buffer *printf_buf; /* field 7: launch-wide printf sink (may be NULL) */
    uint64_t enqueued_local_size[3];  /* field 8: the local size the NDRange was enqueued with */
    uint64_t group_base[3];        /* field 9: group id of this sub-launch's first group */
    uint64_t launch_groups[3];     /* field 10: work-groups of this sub-launch per dimension */
    uint64_t global_id_base[3];    /* field 11: global_offset + group_base * (enqueued_local_size -
                                      local_size), so that get_global_id(d) is
                                      group_id * local_size + local_id + global_id_base */
    char *program_globals;         /* field 12: the program's block of program-scope variables
                                      (compiler/globals.h; NULL when it has none) */
    uint64_t local_mem_size;       /* field 13: bytes of local_mem a work-group of this launch uses */
    uint64_t scratch_size;         /* field 14: bytes of scratch a work-group of this launch uses */
    char *stack_lo;                /* field 15: the running thread's stack is [stack_lo, stack_hi) */
    char *stack_hi;                /* field 16   (to_private / to_global of generic pointers) */
};

enum weft_ctx_field {
    WEFT_CTX_FIELD_WORK_DIM = 0,
    WEFT_CTX_FIELD_GLOBAL_SIZE = 1,
    WEFT_CTX_FIELD_LOCAL_SIZE = 2,
    WEFT_CTX_FIELD_GLOBAL_OFFSET = 3,
    WEFT_CTX_FIELD_NUM_GROUPS = 4,
    WEFT_CTX_FIELD_LOCAL_MEM = 5,
    WEFT_CTX_FIELD_SCRATCH = 6,
    WEFT_CTX_FIELD_PRINTF = 7,
    WEFT_CTX_FIELD_ENQUEUED_LOCAL_SIZE = 8,
    WEFT_CTX_FIELD_GROUP_BASE = 9,
    WEFT_CTX_FIELD_LAUNCH_GROUPS = 10,
    WEFT_CTX_FIELD_GLOBAL_ID_BASE = 11,
    WEFT_CTX_FIELD_PROGRAM_GLOBALS = 12,
    WEFT_CTX_FIELD_LOCAL_MEM_SIZE = 13,
    WEFT_CTX_FIELD_SCRATCH_SIZE = 14,
    WEFT_CTX_FIELD_STACK_LO = 15,
    WEFT_CTX_FIELD_STACK_HI = 16,
};
#define WEFT_CTX_FIELD_COUNT 17

/* Fills the region fields (8-11) of a context whose fields 0-4 describe a whole launch of
 * uniform work-groups. */
static inline void weft_wg_ctx_set_uniform(struct weft_wg_ctx *c)
{
    for (int d = 0; d < 3; d++) {
        c->enqueued_local_size[d] = c->local_size[d];
        c->group_base[d] = 0;
        c->launch_groups[d] = c->num_groups[d];
        c->global_id_base[d] = c->global_offset[d];
    }
}

typedef void (*weft_wg_fn)(const void *args, const struct weft_wg_ctx *ctx,
                           uint64_t first_group, uint64_t group_count);

/* Packed arguments. Argument i lives at byte offset `offset[i]` of the block, where offsets
 * are assigned in order, each rounded up to WEFT_ARG_ALIGN (the compiler loads with that
 * alignment, never more):
 *   - __global / __constant pointer: the 8-byte address (NULL allowed);
 *   - __local pointer: an 8-byte offset into ctx->local_mem (the runtime places __local
 *     arguments after the kernel's static __local variables, each WEFT_LOCAL_ALIGN-aligned);
 *   - anything passed by value (scalars, vectors, structs): its bytes as the host gave them.
 * Each argument occupies round_up(size, WEFT_ARG_ALIGN) bytes. */
#define WEFT_ARG_ALIGN 8u
#define WEFT_LOCAL_ALIGN 128u

static inline uint64_t weft_round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Images and samplers (OpenCL C image types, sampler_t).
 *
 * clang-19 gives an image argument (image2d_t, ...) the type `ptr addrspace(1)` and a sampler
 * `ptr addrspace(2)`. Weft passes, in the 8-byte argument slot:
 *   - an image: the address of its struct weft_image_desc (owned by the cl_mem, immutable
 *     while the image lives);
 *   - a sampler: not an address but the sampler's bits (the CLK_* values of OpenCL C:
 *     normalized 0x1, addressing 0x0/0x2/0x4/0x6/0x8 in 0xe, filter 0x10/0x20), so that a
 *     sampler declared in kernel code (`__translate_sampler_initializer(bits)`) and one passed
 *     by the host look the same to the builtins (src/builtins/image.cl).
 * The builtins mirror this struct; keep the two in sync (field order and 8-byte alignment). */
struct weft_image_desc {
    char *data;                    /* pixel (0, 0, 0) */
    uint64_t row_pitch;            /* bytes between rows (1D arrays: between layers) */
    uint64_t slice_pitch;          /* bytes between slices (2D arrays: between layers) */
    int32_t width, height, depth;  /* 1 for absent dimensions */
    int32_t array_size;            /* layers of a 1D/2D array, else 0 */
    int32_t channel_order;         /* CL_R, CL_RGBA, ... */
    int32_t channel_data_type;     /* CL_UNORM_INT8, ... */
    int32_t elem_size;             /* bytes per pixel */
    int32_t num_channels;          /* components stored per pixel */
    int32_t type;                  /* CL_MEM_OBJECT_IMAGE* */
    int32_t comp_size;             /* bytes per stored component */
    int32_t swizzle[4];            /* read: for r,g,b,a the stored component, or -1 for 0, -2 for 1 */
    int32_t store_from[4];         /* write: for stored component k, which of r,g,b,a it takes */
};

#define WEFT_SAMPLER_NORMALIZED 0x1u
#define WEFT_SAMPLER_ADDRESS_MASK 0xeu
#define WEFT_SAMPLER_FILTER_LINEAR 0x20u

#endif
