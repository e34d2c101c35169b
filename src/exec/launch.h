/* exec/launch.h — the self-contained description of one NDRange launch: what the runtime
 * hands the engine (exec/dispatch.h runs it, exec/fuse/fuse.h fuses chains of them).
 *
 * Who does what:
 *   - The runtime (runtime/ndrange.c) checks clEnqueueNDRangeKernel's arguments, takes the
 *     argument snapshot, chooses the local size, compiles the variants and fills one
 *     weft_launch_desc, once per enqueue, in the command's payload. Everything the engine needs
 *     is in it: the kernel's compiled metadata, the packed argument block, every memory object
 *     the arguments name (storage and size), the NDRange cut into its parts, the variants and
 *     their decision key.
 *   - The engine reads it and never calls the cl* API layer. What it must still ask of the
 *     kernel (a variant for another local size, compiled on first use; the kernel's code key
 *     for decisions kept on disk) goes through weft_kernel_ops, which the runtime implements
 *     (runtime/kernel.c). Errors come back as plain return values; the runtime turns them into
 *     OpenCL error codes.
 *   - The description lives as long as its command: the runtime's snapshot holds the kernel
 *     and every memory object listed in bufs until the command completed. */
#ifndef WEFT_EXEC_LAUNCH_H
#define WEFT_EXEC_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/variant.h"
#include "exec/pool.h"
#include "weft/abi.h"

struct weft_kernel_meta;   /* compiler/compiler.h */
/* The runtime's kernel object (cl_kernel), opaque to the engine: it is only handed back to
 * weft_kernel_ops. */
struct _cl_kernel;

/* A compiled variant of a kernel for one local size (runtime/kernel.h compiles them). */
struct weft_variant {
    weft_wg_fn fn;
    size_t static_local_size;   /* bytes of the kernel's own __local variables */
    size_t scratch_size;        /* bytes of private scratch per work-group */
    uint64_t key;               /* names the compiled code (its cache key) */
    unsigned bfo_loops;         /* loops it runs breadth-first (compiler/transform/schedule.h) */
    unsigned votes_bfo;         /* loops whose locality votes for breadth-first order */
    unsigned vec_linearized;    /* sub-CFGs the vectorizer ran under lane masks */
    unsigned vec_row_walks;     /* divergent loops in them that walk a row per work-item */
    unsigned vec_wide_items;    /* sub-CFGs vectorized whose work-items' own vectors fill a register */
    unsigned sub_group_width;   /* its sub-group size (compiler/transform/subgroup.h) */
    size_t stack_size;          /* bytes of stack a call may take for the kernel's private
                                   arrays, beyond WEFT_POOL_BASE_STACK (exec/pool.h): an upper
                                   bound, at most weft_pool_stack_limit() */
    struct weft_variant_spec spec;   /* what it is (compiler/variant.h) */
};

/* What the engine may ask of a launch's kernel; the runtime implements it (runtime/kernel.c,
 * weft_kernel_launch_ops). */
struct weft_kernel_ops {
    /* The compiled variant for this local size (compiled on first use, cached): 0, or an
     * OpenCL error code the runtime has logged (runtime/kernel.h weft_kernel_get_variant). */
    int (*get_variant)(struct _cl_kernel *kernel, unsigned work_dim, const size_t local[3],
                       const struct weft_variant_spec *spec, struct weft_variant *out);
    /* Names the kernel's code by content, the same in every process (decisions on disk). */
    uint64_t (*code_key)(struct _cl_kernel *kernel);
};

/* A memory object the launch's arguments name: where its storage starts, and its size. */
struct weft_launch_buffer {
    const char *data;
    size_t size;
};

/* At most 2^3 regions of equal work-groups (weft/abi.h). */
#define WEFT_LAUNCH_MAX_PARTS 8u

/* One region of the NDRange whose work-groups all have one size: a sub-launch. */
struct weft_launch_part {
    weft_wg_fn fn;                     /* the variant for `local` */
    uint64_t first, count;             /* its groups in the launch's linear numbering */
    uint64_t local[3], group_base[3], launch_groups[3], global_id_base[3];  /* weft/abi.h */
};

struct weft_launch_desc {
    /* the kernel */
    const struct weft_kernel_meta *meta;   /* argument layout, access summary, flags */
    struct _cl_kernel *kernel;             /* for ops only */
    const struct weft_kernel_ops *ops;
    char name[64];                         /* the kernel's name, for the log ("" when empty) */
    bool uses_printf;                      /* the run gives ctx.printf_buf a buffer */
    bool fusable;                          /* may join a fused chain (exec/fuse/fuse.h): its
                                              unfused runs are timed for fusion's costs */
    bool timed;                            /* the runtime wants run_ns (a launch of at most one
                                              work-group per thread: runtime/ndrange.c's
                                              bounds for one group and for splitting groups) */
    /* the argument values: the packed block is launch.args */
    const struct weft_launch_buffer *bufs; /* every memory object of the arguments, in order */
    unsigned nbufs;
    const char *raw_memory;                /* NULL when bufs is all the kernel can reach; else why
                                              not (shared virtual memory: an SVM pointer argument,
                                              clSetKernelExecInfo pointers). Such a launch is
                                              never fused and never run twice on copies of bufs
                                              (WEFT_VERIFY): what it writes outside bufs could not
                                              be windowed or restored */
    /* what runs */
    struct weft_launch launch;             /* complete (printf_buf set at run); with one part,
                                              that part's launch; else the whole NDRange's
                                              fields, the region fields set per part */
    unsigned nparts;                       /* 0 for a launch of nothing */
    struct weft_launch_part parts[WEFT_LAUNCH_MAX_PARTS];   /* parts[0]: the full groups when
                                                               there are any */
    weft_wg_fn alt;                        /* another schedule of parts[0] to profile, or NULL */
    struct weft_variant_spec spec, alt_spec;   /* parts[0]'s variant and alt's (the log) */
    uint64_t select_key;                   /* the decision's key (exec/variant_select.h) */
    uint64_t run_ns;                       /* set by weft_dispatch_run for a fusable or timed
                                              launch that ran one variant: how long it took
                                              (fusion's costs, runtime/ndrange.c's bound); else 0 */
};

/* The size of the memory object of the launch whose storage starts at `data` (the first one
 * listed), or false when no memory object of the arguments starts there. */
static inline bool weft_launch_buffer_size(const struct weft_launch_desc *d, const void *data, size_t *size)
{
    if (!data)
        return false;
    for (unsigned i = 0; i < d->nbufs; i++)
        if (d->bufs[i].data == data) {
            *size = d->bufs[i].size;
            return true;
        }
    return false;
}

/* Sets the region fields of a work-group context to those of `part` (weft/abi.h). */
static inline void weft_launch_set_region(struct weft_wg_ctx *c, const struct weft_launch_part *part)
{
    for (int d = 0; d < 3; d++) {
        c->local_size[d] = part->local[d];
        c->group_base[d] = part->group_base[d];
        c->launch_groups[d] = part->launch_groups[d];
        c->global_id_base[d] = part->global_id_base[d];
    }
}

#endif
