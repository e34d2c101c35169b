/* weft/abi.h — the work-group function ABI: the contract between the compiler's output
 * (compiler/transform/wgfunction.c emits it) and the runtime (exec/pool.c calls it).
 *
 * A work-group function runs a contiguous range of work-groups of one launch:
 *
 *     void weft_wg_<kernel>(const void *args, const struct weft_wg_ctx *ctx,
 *                           uint64_t first_group, uint64_t group_count);
 *
 * Groups are numbered linearly, dimension 0 fastest:
 *     g = gx + num_groups[0] * (gy + num_groups[1] * gz).
 *
 * `args` is the packed argument block (see below). `ctx` is this worker's copy of the launch
 * context: the launch-wide sizes plus the worker's own local-memory arena and scratch area.
 * Every field of weft_wg_ctx is 8 bytes wide so that the compiler can address fields by
 * index (WEFT_CTX_FIELD_*) without caring about padding. Keep the two in sync.
 */
#ifndef WEFT_ABI_H
#define WEFT_ABI_H

#include <stdint.h>

#define WEFT_ABI_VERSION 1

struct weft_printf_buffer;

struct weft_wg_ctx {
    uint64_t work_dim;             /* field 0 */
    uint64_t global_size[3];       /* field 1 */
    uint64_t local_size[3];        /* field 2 */
    uint64_t global_offset[3];     /* field 3 */
    uint64_t num_groups[3];        /* field 4 */
    char *local_mem;               /* field 5: worker's arena, 64-byte aligned, >= launch's local size */
    char *scratch;                 /* field 6: worker's scratch for privatized values, 64-byte aligned */
    struct weft_printf_buffer *printf_buf; /* field 7: launch-wide printf sink (may be NULL) */
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
};

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

#endif
