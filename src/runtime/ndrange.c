/* runtime/ndrange.c — clEnqueueNDRangeKernel and clEnqueueTask.
 *
 * Guarantees:
 *   - Arguments are checked in the order of the specification's error list, each failure
 *     with its specified code and a one-line reason (WEFT_LOG=info).
 *   - Everything that can fail is done at enqueue time, so the enqueue call reports it: the
 *     argument snapshot (later clSetKernelArg calls do not affect this launch), the compiled
 *     variant for the chosen local size (JIT on first use), the __local layout and its size
 *     against CL_DEVICE_LOCAL_MEM_SIZE.
 *   - As OpenCL 2.1+ says, a NULL global_work_size or a zero in any used dimension is a launch
 *     of nothing: the command still waits for its dependencies and completes its event.
 *   - Non-uniform work-groups (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT is CL_TRUE): a global
 *     size that is not a multiple of the local size is accepted unless the kernel's program
 *     requires uniform work-groups (OpenCL C 1.x, the default without -cl-std; or
 *     -cl-uniform-work-group-size, at compile time or when building a binary), which gets
 *     CL_INVALID_WORK_GROUP_SIZE as the specification says. The NDRange is then cut into up
 *     to 2^work_dim regions of equal work-groups (per dimension the full groups, then the one
 *     remainder group of global % local items): each region is a part run by the variant
 *     compiled for its own local size, with the region fields of weft/abi.h telling it where
 *     it lies, while get_num_groups/get_global_size/get_enqueued_local_size report the whole
 *     NDRange. All parts run in one pool launch (a trampoline maps the pool's group numbers to
 *     the parts), so they belong to one command and one event.
 *   - A NULL local_work_size: the kernel's reqd_work_group_size when it has one; else, when
 *     uniform work-groups are required, per dimension a divisor of the global size, dimension
 *     0 first, a multiple of the SIMD width when one fits; else per dimension the whole
 *     dimension when it fits, a divisor that costs at most half of the group (a multiple of
 *     the SIMD width along dimension 0), or a power of two with a remainder group (the same
 *     full-group variant then serves every global size, and full groups fill whole vectors).
 *     Either way small enough that every pool thread gets several groups.
 *   - A kernel that cannot tell its work-groups apart (group-blind, weft_kernel_group_blind)
 *     runs at a local size of the runtime's choosing in dimension 0: many small groups merged
 *     (merge_blind_groups), few long ones split (split_blind_groups, runtime/group_split.h).
 *   - Enqueue builds the launch's description once (exec/launch.h: the metadata, the argument
 *     block and the memory objects it names, the parts and their variants; unused dimensions:
 *     size 1, offset 0) in the command's payload; at run time the command hands it to the
 *     engine (exec/dispatch.h) and turns a failure into CL_OUT_OF_RESOURCES; the event goes
 *     RUNNING/COMPLETE around it (queue.c). A fusable launch's command points the queue at the
 *     same description (weft_command.launch), which fusion reads (exec/fuse/fuse.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/transform/schedule.h"
#include "exec/dispatch.h"
#include "exec/fuse/fuse.h"
#include "exec/launch.h"
#include "exec/pool.h"
#include "exec/variant_select.h"
#include "runtime/compile_ahead.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/group_split.h"
#include "runtime/kernel.h"
#include "runtime/log.h"
#include "runtime/program.h"
#include "runtime/queue.h"
#include "runtime/svm.h"
#include "runtime/variant_choice.h"

/* The largest work-group the automatic choice makes: big enough to amortize the work-group
 * loop overhead and fill vectors, small enough to keep privatized state in L1/L2. */
#define AUTO_GROUP_ITEMS 256u
/* The automatic choice aims at this many work-groups per pool thread (load balance). */
#define AUTO_GROUPS_PER_THREAD 4u

#define MAX_PARTS WEFT_LAUNCH_MAX_PARTS

/* An NDRange command's payload. */
struct ndrange_cmd {
    struct weft_kernel_args *args;     /* snapshot; owns the packed block, holds the kernel and
                                          every memory object the description lists */
    struct weft_launch_desc desc;      /* what the engine runs (exec/launch.h) */
};

/* A one-group launch whose kernel's one-group launches ran at most this long (on average over
 * the last few, kernel.h) runs on the enqueueing thread when its queue holds only such launches
 * (WEFT_COMMAND_RUN_IF_IDLE): an application that expected it to overlap host work loses about
 * one run of it if it turns out longer. */
#define RUN_HERE_MAX_NS 10000u

static cl_int run_ndrange(struct weft_command *cmd)
{
    struct ndrange_cmd *p = cmd->payload;
    if (weft_dispatch_run(&p->desc) != 0)
        return weft_error("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES,
                          "could not allocate %zu bytes of local memory, %zu of scratch and a stack of %zu "
                          "per worker", p->desc.launch.local_mem_size, p->desc.launch.scratch_size,
                          WEFT_POOL_BASE_STACK + p->desc.launch.stack_size);
    if (p->desc.timed && p->desc.run_ns) {
        const struct weft_launch_part *full = &p->desc.parts[0];
        if (p->desc.launch.total_groups == 1)
            weft_kernel_note_one_group_run(p->desc.kernel, p->desc.run_ns);
        weft_kernel_note_few_groups_run(p->desc.kernel, p->desc.run_ns,
                                        full->local[0] * full->local[1] * full->local[2]);
    }
    return CL_SUCCESS;
}

/* Whether a launch may join a fused chain (exec/fuse/fuse.h): fusion on, an in-order queue, a kernel
 * that observes nothing of its work-group, takes no image, calls no printf, and writes global memory that the
 * compiler described as affine accesses. */
static bool fusable(cl_command_queue q, cl_kernel kernel, bool empty, bool uses_printf)
{
    if (empty || uses_printf || weft_fuse_setting() == WEFT_FUSE_OFF ||
        (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) || !weft_kernel_group_blind(kernel) ||
        weft_kernel_has_images(kernel))
        return false;
    const struct weft_access_summary *a = &weft_kernel_meta_of(kernel)->access;
    if (!a->affine)
        return false;
    for (unsigned i = 0; i < a->count; i++)
        if (a->acc[i].kind == WEFT_ACCESS_WRITE)
            return true;
    return false;
}

static void release_ndrange(struct weft_command *cmd)
{
    struct ndrange_cmd *p = cmd->payload;
    weft_kernel_args_free(p->args);
    p->args = NULL;
}

/* ---- automatic local size ----------------------------------------------------------------- */

/* The largest divisor of n that is <= cap (n >= 1, cap >= 1). */
static size_t largest_divisor(size_t n, size_t cap)
{
    if (n <= cap)
        return n;
    for (size_t d = cap; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* The largest divisor of n that is <= cap and a multiple of m, or 0 when there is none. */
static size_t largest_divisor_multiple(size_t n, size_t cap, size_t m)
{
    if (m == 0)
        return 0;
    for (size_t d = cap / m * m; d >= m; d -= m)
        if (n % d == 0)
            return d;
    return 0;
}

/* The largest power of two <= n (n >= 1). */
static size_t pow2_floor(size_t n)
{
    size_t p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

/* The work-items per group the automatic choice aims at for a launch of global sizes >= 1:
 * at most the budget and AUTO_GROUP_ITEMS, halved until every thread gets several groups, but
 * not below one vector (below that the groups get too small to vectorize and dispatch costs
 * dominate). A power of two when `pow2`. */
static size_t auto_group_items(cl_uint work_dim, const size_t global[3], size_t budget, size_t simd, bool pow2,
                               unsigned threads)
{
    uint64_t total = 1;
    for (cl_uint d = 0; d < work_dim; d++)
        total = global[d] > UINT64_MAX / total ? UINT64_MAX : total * global[d];
    size_t want = budget < AUTO_GROUP_ITEMS ? budget : AUTO_GROUP_ITEMS;
    if (want < 1)
        want = 1;
    if (pow2)
        want = pow2_floor(want);
    uint64_t groups_wanted = (uint64_t)threads * AUTO_GROUPS_PER_THREAD;
    while (want > simd && total / want < groups_wanted)
        want /= 2;
    return want < 1 ? 1 : want;
}

/* Chooses a uniform local size for a launch whose global sizes are all >= 1. */
static void choose_local_size(cl_uint work_dim, const size_t global[3], size_t budget,
                              const size_t max_items[3], size_t simd, unsigned threads, size_t local[3])
{
    size_t left = auto_group_items(work_dim, global, budget, simd, false, threads);
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t cap = left < max_items[d] ? left : max_items[d];
        size_t l = largest_divisor(global[d], cap);
        if (d == 0 && l % simd != 0) {
            /* Prefer full vectors along dimension 0 when that costs at most a factor 4. */
            size_t v = largest_divisor_multiple(global[d], cap, simd);
            if (v && v * 4 >= l)
                l = v;
        }
        local[d] = l;
        left /= l;
        if (left < 1)
            left = 1;
    }
    for (cl_uint d = work_dim; d < 3; d++)
        local[d] = 1;
}

/* Chooses a local size for a launch whose global sizes are all >= 1 when remainder groups are
 * allowed. Per dimension, dimension 0 first: the whole dimension when it fits; else a divisor
 * that is at least half of what fits (a multiple of the SIMD width along dimension 0), so the
 * groups stay uniform; else a power of two (a multiple of the SIMD width when that fits) and a
 * remainder group, rather than a small odd divisor. */
static void choose_local_size_nonuniform(cl_uint work_dim, const size_t global[3], size_t budget,
                                         const size_t max_items[3], size_t simd, unsigned threads,
                                         size_t local[3])
{
    size_t left = auto_group_items(work_dim, global, budget, simd, true, threads);
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t cap = left < max_items[d] ? left : max_items[d];
        size_t l = global[d];
        if (l > cap) {
            size_t m = d == 0 && simd <= cap ? simd : 1;
            size_t div = largest_divisor_multiple(global[d], cap, m);
            l = div && div * 2 >= cap ? div : pow2_floor(cap);
        }
        local[d] = l;
        left /= l;
        if (left < 1)
            left = 1;
    }
    for (cl_uint d = work_dim; d < 3; d++)
        local[d] = 1;
}

/* ---- launch geometry ---------------------------------------------------------------------- */

struct geometry {
    bool empty;                        /* global size NULL or 0 in a used dimension */
    size_t global[3], offset[3], local[3];   /* unused dimensions: 1, 0, 1 */
    bool stand_in;                     /* local[0] runs in place of a merged or split size
                                          being compiled ahead (regrouped_size_ready,
                                          split_blind_groups) */
};

/* Work-groups of g in dimensions 1 and 2 (what merging or splitting dimension 0 multiplies). */
static uint64_t groups_beyond_dim0(const struct geometry *g)
{
    uint64_t rest = 1;
    for (int d = 1; d < 3; d++)
        rest *= g->global[d] / g->local[d] + (g->global[d] % g->local[d] != 0);
    return rest;
}

/* Like WEFT_CHECK, but names the entry point (the checks live in this helper). */
#define GEOM_CHECK(cond, code, ...)                                                          \
    do {                                                                                     \
        if (!(cond))                                                                         \
            return weft_error("clEnqueueNDRangeKernel", (code), __VA_ARGS__);                \
    } while (0)

/* A merged size that runs in place of a larger one not compiled yet fills at least one packet
 * of the widest vectors (16 lanes): below that, the packets run mostly idle lanes (hashcat's
 * MD5 at local size 1 ran 10x slower than at 128 on the 2-core EPYC). */
#define MERGED_READY_MIN 16u

/* For a kernel slow to compile (runtime/compile_ahead.h): the merged size `want` when its
 * first variant is ready; otherwise the largest merged size between it and the enqueued one,
 * of at least MERGED_READY_MIN, whose first variant is ready (hashcat's autotune grows the
 * global size launch after launch, and with it the merged size: each new one compiled inside
 * its timing, 3-8 s for MD5 on the 2-core EPYC), with `want` compiled ahead. When none is
 * ready, `want`: the launch compiles it. For a split size `want` (smaller than the enqueued
 * one, split_blind_groups; any kernel) that is not ready while the enqueued size's variant is,
 * the enqueued size runs and `want` is compiled ahead: a launch at a size the application
 * showed beforehand compiles nothing (runtime/variant_choice.h prepares it; hashcat times such
 * launches). Without compiles ahead (WEFT_COMPILE_AHEAD_MS=off), or with nothing ready at
 * either size, `want`: the launch compiles one anyway. */
static size_t regrouped_size_ready(cl_kernel kernel, cl_uint work_dim, const struct geometry *g, size_t want)
{
    uint64_t gs[3], off[3];
    for (int d = 0; d < 3; d++)
        gs[d] = g->global[d], off[d] = g->offset[d];
    struct weft_variant_spec first;
    weft_variant_first(weft_variant_needs_wide_ids(work_dim, off, gs), &first);
    struct weft_variant v;
    size_t l[3] = {want, g->local[1], g->local[2]};
    cl_int err = weft_kernel_peek_variant(kernel, work_dim, l, &first, &v);
    if (want < g->local[0] && err != CL_SUCCESS && err != WEFT_VARIANT_NOT_COMPILED)
        return g->local[0];   /* a split size whose compile failed: the groups stay whole */
    if (err != WEFT_VARIANT_NOT_COMPILED || weft_scalar_ready_at(kernel, work_dim, l, &first))
        return want;   /* ready, or its compile failed: the launch reports why */
    if (want < g->local[0]) {
        /* a split size (split_blind_groups): the enqueued one stands in when it is ready */
        size_t e[3] = {g->local[0], g->local[1], g->local[2]};
        if (!weft_compile_ahead_on() ||
            (weft_kernel_peek_variant(kernel, work_dim, e, &first, &v) != CL_SUCCESS &&
             !weft_scalar_ready_at(kernel, work_dim, e, &first)))
            return want;
        weft_compile_ahead(kernel, work_dim, l, &first, true);
        return g->local[0];
    }
    for (l[0] = want / 2; l[0] >= g->local[0] && l[0] >= MERGED_READY_MIN; l[0] /= 2) {
        if (weft_kernel_peek_variant(kernel, work_dim, l, &first, &v) == CL_SUCCESS ||
            weft_scalar_ready_at(kernel, work_dim, l, &first)) {
            size_t ready = l[0];
            l[0] = want;
            weft_compile_ahead(kernel, work_dim, l, &first, true);
            return ready;
        }
    }
    return want;
}

/* The merged size `l0` (what merge_blind_groups found for this global size) made one that pays
 * for its compile:
 *   - below MERGED_READY_MIN (one packet of the widest vectors) a merged group runs mostly
 *     idle lanes: it becomes MERGED_READY_MIN (the local size doubled up to it) when the global
 *     size is a multiple of that with a group per thread, else the local size (no merging);
 *   - for a kernel slow to compile, every merged size is a compile and a profiling key of its
 *     own: the merged size is the largest the kernel allows (its top, up to WEFT_BLIND_GROUP_X
 *     work-items) or else the one of MERGED_READY_MIN as above. hashcat's autotune doubles the
 *     global size from 2 to 2048 work-items (2-core Sapphire Rapids VM), merged to 2, 4, ..., 128:
 *     seven compiles of MD5 of about a second each, most inside the autotune's timing, the rest
 *     compiled ahead process after process, each new size profiled again (the kernel is known
 *     to be slow only after its first merged compile: its local size 1 compiled in 200 ms). */
static size_t merged_size_paying(const struct geometry *g, uint64_t rest, unsigned threads, size_t max_wg,
                                 size_t l0, bool slow)
{
    const size_t l = g->local[0], lanes = g->local[1] * g->local[2];
    size_t top = l;
    while (top * 2 <= WEFT_BLIND_GROUP_X && top * 2 * lanes <= max_wg)
        top *= 2;
    if (l0 == l || (slow ? l0 == top : l0 >= MERGED_READY_MIN))
        return l0;
    size_t small = l;
    while (small * 2 <= MERGED_READY_MIN && small * 2 * lanes <= max_wg)
        small *= 2;
    return small > l && g->global[0] % small == 0 && g->global[0] / small * rest >= threads ? small : l;
}

/* Runs neighbouring work-groups of a kernel that observes nothing of its work-group
 * (weft_kernel_group_blind) as one: doubles the local size in dimension 0 while the global size
 * stays a multiple of it, it stays within WEFT_BLIND_GROUP_X and the kernel's maximum, and there
 * remain at least 8 groups per worker; then keeps only sizes that pay for their compile
 * (merged_size_paying). The kernel cannot tell: get_global_id and the other
 * global functions give the same answers for every work-item. Why: the vectorizer's packets
 * interleave up to the whole group, so a column-walking kernel then reads that many
 * consecutive elements per step, as a blocked native loop does (sgemv, 2-core EPYC: 2.1 ms at a
 * local size of 64, 1.45 ms at 256). */
static void merge_blind_groups(cl_kernel kernel, cl_uint work_dim, struct geometry *g, unsigned threads)
{
    if (g->empty || !weft_kernel_group_blind(kernel))
        return;
    struct weft_kernel_launch_info info;
    weft_kernel_launch_info(kernel, &info);
    const uint64_t rest = groups_beyond_dim0(g);
    uint64_t min_groups = 8ull * threads;
    size_t l0 = g->local[0];
    while (l0 * 2 <= WEFT_BLIND_GROUP_X && g->global[0] % (l0 * 2) == 0 &&
           l0 * 2 * g->local[1] * g->local[2] <= info.max_work_group_size &&
           g->global[0] / (l0 * 2) * rest >= min_groups)
        l0 *= 2;
    const bool slow = weft_compile_ahead_worth(kernel);
    l0 = merged_size_paying(g, rest, threads, info.max_work_group_size, l0, slow);
    if (l0 != g->local[0] && slow) {
        size_t want = l0;
        l0 = regrouped_size_ready(kernel, work_dim, g, want);
        g->stand_in = l0 != want;
    }
    g->local[0] = l0;
}

/* Runs the work-groups of a group-blind launch of few, long groups as smaller ones
 * (runtime/group_split.h says when and why). While the split size is not compiled and the
 * enqueued one is, the enqueued size runs and the split one is compiled ahead
 * (regrouped_size_ready). */
static void split_blind_groups(cl_kernel kernel, cl_uint work_dim, struct geometry *g, unsigned threads)
{
    if (g->empty || threads < 2 || !weft_kernel_group_blind(kernel))
        return;
    const size_t l = g->local[0], lanes = g->local[1] * g->local[2];
    const uint64_t rest = groups_beyond_dim0(g);
    size_t l0 = weft_split_local0(g->global[0], l, lanes, rest, threads, weft_kernel_item_ps(kernel));
    if (l0 == l)
        return;
    const size_t want = l0;
    l0 = regrouped_size_ready(kernel, work_dim, g, want);
    g->stand_in = l0 != want;
    weft_log(WEFT_LOG_DEBUG,
             "kernel '%s': %llu work-group(s) of %zu work-items for %u threads: split to %zu work-items%s",
             weft_kernel_name(kernel), (unsigned long long)((g->global[0] / l + (g->global[0] % l != 0)) * rest),
             l * lanes, threads, want * lanes, l0 != want ? " once compiled (ahead)" : "");
    g->local[0] = l0;
}

/* Checks work_dim, the global size and offset and the local size in the specification's
 * order and fills `g`; a NULL local size gets one chosen here. `uniform_option`: the program
 * was built with -cl-uniform-work-group-size (the kernel's metadata tells the rest). */
static cl_int check_geometry(cl_device_id dev, cl_kernel kernel, cl_uint work_dim,
                             const size_t *global_work_offset, const size_t *global_work_size,
                             const size_t *local_work_size, bool uniform_option, struct geometry *g)
{
    GEOM_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION,
               "work_dim %u is not in [1, 3]", work_dim);

    size_t *global = g->global, *offset = g->offset, *local = g->local;
    for (int d = 0; d < 3; d++)
        global[d] = 1, offset[d] = 0, local[d] = 1;
    bool empty = global_work_size == NULL;
    for (cl_uint d = 0; d < work_dim && !empty; d++)
        empty = global_work_size[d] == 0;
    if (!empty) {
        uint64_t items = 1;
        for (cl_uint d = 0; d < work_dim; d++) {
            global[d] = global_work_size[d];
            GEOM_CHECK(items <= UINT64_MAX / global[d], CL_INVALID_GLOBAL_WORK_SIZE,
                       "the global work size has more work-items than a 64-bit count can hold");
            items *= global[d];
        }
    }
    if (global_work_offset) {
        for (cl_uint d = 0; d < work_dim; d++) {
            offset[d] = global_work_offset[d];
            GEOM_CHECK(offset[d] <= SIZE_MAX - global[d], CL_INVALID_GLOBAL_OFFSET,
                       "global_work_offset[%u] %zu + global_work_size[%u] %zu exceeds SIZE_MAX",
                       d, offset[d], d, global[d]);
        }
    }

    struct weft_kernel_launch_info info;
    weft_kernel_launch_info(kernel, &info);
    const bool has_reqd = info.reqd_work_group_size[0] != 0;
    const bool uniform = uniform_option || info.uniform_work_groups;
    if (local_work_size) {
        uint64_t product = 1;
        for (cl_uint d = 0; d < work_dim; d++) {
            local[d] = local_work_size[d];
            GEOM_CHECK(local[d] != 0, CL_INVALID_WORK_GROUP_SIZE, "local_work_size[%u] is 0", d);
            product = local[d] > UINT64_MAX / product ? UINT64_MAX : product * local[d];
        }
        if (has_reqd)
            for (cl_uint d = 0; d < 3; d++)
                GEOM_CHECK(local[d] == info.reqd_work_group_size[d], CL_INVALID_WORK_GROUP_SIZE,
                           "local size %zux%zux%zu does not match reqd_work_group_size(%zu, %zu, %zu)",
                           local[0], local[1], local[2], info.reqd_work_group_size[0],
                           info.reqd_work_group_size[1], info.reqd_work_group_size[2]);
        GEOM_CHECK(product <= info.max_work_group_size, CL_INVALID_WORK_GROUP_SIZE,
                   "%llu work-items per work-group exceed the kernel's CL_KERNEL_WORK_GROUP_SIZE %zu",
                   (unsigned long long)product, info.max_work_group_size);
        if (!empty && uniform)
            for (cl_uint d = 0; d < work_dim; d++)
                GEOM_CHECK(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                           "global_work_size[%u] %zu is not a multiple of local_work_size[%u] %zu, and "
                           "the program requires uniform work-groups (OpenCL C 1.x, or "
                           "-cl-uniform-work-group-size)", d, global[d], d, local[d]);
        for (cl_uint d = 0; d < work_dim; d++)
            GEOM_CHECK(local[d] <= dev->max_work_item_sizes[d], CL_INVALID_WORK_ITEM_SIZE,
                       "local_work_size[%u] %zu exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[%u] %zu",
                       d, local[d], d, dev->max_work_item_sizes[d]);
    } else if (has_reqd) {
        for (cl_uint d = 0; d < 3; d++)
            local[d] = info.reqd_work_group_size[d];
        if (!empty && uniform)
            for (cl_uint d = 0; d < work_dim; d++)
                GEOM_CHECK(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                           "global_work_size[%u] %zu is not a multiple of the kernel's "
                           "reqd_work_group_size %zu, and the program requires uniform work-groups "
                           "(OpenCL C 1.x, or -cl-uniform-work-group-size)", d, global[d], local[d]);
    } else if (!empty) {
        size_t budget = info.max_work_group_size < dev->max_work_group_size ? info.max_work_group_size
                                                                             : dev->max_work_group_size;
        size_t simd = info.preferred_multiple ? info.preferred_multiple : 1;
        if (uniform)
            choose_local_size(work_dim, global, budget ? budget : 1, dev->max_work_item_sizes, simd,
                              dev->compute_units, local);
        else
            choose_local_size_nonuniform(work_dim, global, budget ? budget : 1, dev->max_work_item_sizes, simd,
                                         dev->compute_units, local);
        weft_log(WEFT_LOG_DEBUG, "clEnqueueNDRangeKernel: global %zux%zux%zu, chose local %zux%zux%zu",
                 global[0], global[1], global[2], local[0], local[1], local[2]);
    }

    g->empty = empty;
    return CL_SUCCESS;
}

/* ---- parts: the regions of equal work-groups -------------------------------------------- */

/* Cuts a non-empty NDRange into its regions of equal work-groups (weft/abi.h): per dimension
 * the full groups and, when the local size does not divide the global size, the remainder
 * group. The region of full groups in every dimension, when there is one, comes first
 * (*first_full); the parts number the groups consecutively. Returns how many parts. */
static unsigned split_regions(const size_t global[3], const size_t offset[3], const size_t local[3],
                              struct weft_launch_part parts[MAX_PARTS], bool *first_full)
{
    unsigned n = 0;
    uint64_t next = 0, full[3], left[3];
    unsigned remainders = 0, fulls = 0;   /* bit d: dimension d has a remainder group, full groups */
    for (int d = 0; d < 3; d++) {
        full[d] = global[d] / local[d];
        left[d] = global[d] - full[d] * local[d];
        remainders |= (left[d] != 0) << d;
        fulls |= (full[d] != 0) << d;
    }
    /* bit d of `rem`: the part is the remainder group in dimension d */
    for (unsigned rem = 0; rem < MAX_PARTS; rem++) {
        bool exists = (rem & ~remainders) == 0 && (~rem & 7u & ~fulls) == 0;
        if (!exists)
            continue;
        struct weft_launch_part part;
        memset(&part, 0, sizeof part);
        uint64_t count = 1;
        for (int d = 0; d < 3; d++) {
            if (rem >> d & 1) {
                part.local[d] = left[d];
                part.group_base[d] = full[d];
                part.launch_groups[d] = 1;
            } else {
                part.local[d] = local[d];
                part.group_base[d] = 0;
                part.launch_groups[d] = full[d];
            }
            /* the ids of the first work-item of the part, less group_base * its local size */
            part.global_id_base[d] = offset[d] + part.group_base[d] * (local[d] - part.local[d]);
            count *= part.launch_groups[d];
        }
        if (rem == 0)
            *first_full = true;
        part.first = next;
        part.count = count;
        next += count;
        parts[n++] = part;
    }
    return n;
}

/* Compiles (or finds) every part's variant now, so that a failure is this call's error, and
 * packs one argument block for all of them (__local arguments after the largest static
 * area; the scratch of the largest). Sets the launch's fn (part 0's), args, local_mem_size
 * and scratch_size. When parts[0] is the region of full groups (`first_full`) and Weft picks
 * the schedule, *alt may be a breadth-first variant of it to profile against
 * (weft_choose_variants);
 * *key0 and *spec0 are then part 0's cache key and variant. */
static cl_int prepare_parts(cl_kernel kernel, cl_device_id dev, cl_uint work_dim, const size_t enqueued_local[3],
                            struct weft_kernel_args *args, struct weft_launch_part *parts, unsigned nparts,
                            bool first_full, bool wide_ids, bool stand_in, struct weft_launch *launch,
                            struct weft_variant *alt, uint64_t *key0, struct weft_variant_spec *spec0)
{
    const bool passing = stand_in || launch->total_groups < weft_select_min_groups();
    struct weft_variant_spec plain;
    bool forced = weft_variant_first(wide_ids, &plain);
    struct weft_variant v[MAX_PARTS];
    /* Sub-groups: a remainder group's variant may not have larger sub-groups than the full
     * groups' (get_max_sub_group_size is one value for the whole dispatch), which it is told
     * through a cap in the schedule (compiler/compiler.h); the full groups' size is the one
     * clGetKernelSubGroupInfo reports for the enqueued local size. */
    unsigned cap = 0;
    if (weft_kernel_uses_sub_groups(kernel) && (nparts > 1 || !first_full)) {
        unsigned sg = 1;
        cl_int err = weft_kernel_sub_group_width(kernel, work_dim, enqueued_local, &sg);
        if (err != CL_SUCCESS)
            return err;
        cap = sg;
    }
    for (bool dfo_only = false;; dfo_only = true) {
        memset(alt, 0, sizeof *alt);
        bool breadth_first = false;
        for (unsigned i = 0; i < nparts; i++) {
            size_t l[3] = {parts[i].local[0], parts[i].local[1], parts[i].local[2]};
            struct weft_variant_spec spec = plain;
            spec.sub_group_cap = i == 0 && first_full ? 0 : cap;
            if (dfo_only)
                spec.schedule = WEFT_SCHEDULE_DFO;
            cl_int err = i == 0 && first_full && !dfo_only
                             ? weft_choose_variants(kernel, work_dim, l, &plain, forced, passing, &v[0], alt)
                             : weft_kernel_get_variant(kernel, work_dim, l, &spec, &v[i]);
            if (err != CL_SUCCESS)
                return err;
            breadth_first = breadth_first || v[i].bfo_loops;
        }
        struct weft_variant all = v[0];
        for (unsigned i = 1; i <= nparts; i++) {
            const struct weft_variant *o = i < nparts ? &v[i] : alt;
            if (!o->fn)
                continue;
            if (o->static_local_size > all.static_local_size)
                all.static_local_size = o->static_local_size;
            if (o->scratch_size > all.scratch_size)
                all.scratch_size = o->scratch_size;
            if (o->stack_size > all.stack_size)
                all.stack_size = o->stack_size;
        }
        size_t local_total = 0;
        launch->args = weft_kernel_args_pack(args, &all, &local_total);
        if (local_total > dev->local_mem_size && !dfo_only && (alt->fn || breadth_first))
            continue;   /* a breadth-first variant's own __local word does not fit: depth-first alone */
        if (local_total > dev->local_mem_size)
            return weft_error("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES,
                              "the kernel needs %zu bytes of __local memory per work-group, the "
                              "device has %llu", local_total, (unsigned long long)dev->local_mem_size);
        for (unsigned i = 0; i < nparts; i++)
            parts[i].fn = v[i].fn;
        launch->fn = v[0].fn;
        launch->local_mem_size = local_total;
        launch->scratch_size = all.scratch_size;
        launch->stack_size = all.stack_size;
        *key0 = v[0].key;
        *spec0 = v[0].spec;
        return CL_SUCCESS;
    }
}

/* ---- entry points ------------------------------------------------------------------------- */

/* True when `opts` holds `opt` as a whole token. */
static bool has_option(const char *opts, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *s = opts; s && (s = strstr(s, opt)); s += n)
        if ((s == opts || s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\n') &&
            (s[n] == 0 || s[n] == ' ' || s[n] == '\t' || s[n] == '\n'))
            return true;
    return false;
}

/* Whether the program has an executable; `uniform_option`: its build options hold
 * -cl-uniform-work-group-size (which matters for a program built from a binary: from source,
 * clang already marked the kernels). */
static bool program_has_executable(cl_program p, bool *uniform_option)
{
    pthread_mutex_lock(&p->lock);
    bool ok = p->status == CL_BUILD_SUCCESS && p->image != NULL;
    *uniform_option = has_option(p->options, "-cl-uniform-work-group-size");
    pthread_mutex_unlock(&p->lock);
    return ok;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                       const size_t *global_work_offset, const size_t *global_work_size,
                       const size_t *local_work_size, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_is_queue(q), CL_INVALID_COMMAND_QUEUE, "command_queue is not a live command queue");
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL, "kernel is not a live kernel");
    /* The kernel's struct is private to kernel.c; kernel.h hands out its program. */
    const cl_program program = weft_kernel_program(kernel);
    const cl_context kctx = program->context;
    bool uniform_option = false;
    WEFT_CHECK(program_has_executable(program, &uniform_option), CL_INVALID_PROGRAM_EXECUTABLE,
               "the kernel's program has no executable built for the device");
    WEFT_CHECK(kctx == q->context, CL_INVALID_CONTEXT, "kernel and command_queue belong to different contexts");

    /* Arguments: CL_INVALID_KERNEL_ARGS when one is not set (the snapshot also holds every
     * buffer the launch uses until the command is done). */
    struct weft_kernel_args *args = NULL;
    cl_int err = weft_kernel_capture_args(kernel, &args);
    if (err != CL_SUCCESS)
        return err;

    struct geometry g = {0};
    err = check_geometry(q->device, kernel, work_dim, global_work_offset, global_work_size,
                         local_work_size, uniform_option, &g);
    if (err != CL_SUCCESS) {
        weft_kernel_args_free(args);
        return err;
    }
    weft_kernel_note_launch(kernel);   /* its prepared guesses are dropped (variant_choice.h) */
    merge_blind_groups(kernel, work_dim, &g, q->device->compute_units);
    split_blind_groups(kernel, work_dim, &g, q->device->compute_units);
    const cl_device_id dev = q->device;
    const bool empty = g.empty;
    const size_t *global = g.global, *local = g.local, *offset = g.offset;
    err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS) {
        weft_kernel_args_free(args);
        return err;
    }

    struct weft_launch launch;
    memset(&launch, 0, sizeof launch);
    struct weft_launch_part parts[MAX_PARTS];
    unsigned nparts = 0;
    struct weft_variant alt = {0};
    uint64_t select_key = 0;
    struct weft_variant_spec spec0 = {0};
    launch.ctx.work_dim = work_dim;
    launch.ctx.program_globals = weft_kernel_program_globals(kernel);
    uint64_t groups = 1;
    for (int d = 0; d < 3; d++) {
        launch.ctx.global_size[d] = empty ? 0 : global[d];
        launch.ctx.local_size[d] = local[d];
        launch.ctx.global_offset[d] = offset[d];
        launch.ctx.num_groups[d] = empty ? 0 : global[d] / local[d] + (global[d] % local[d] != 0);
        groups *= launch.ctx.num_groups[d];
    }
    weft_wg_ctx_set_uniform(&launch.ctx);
    launch.total_groups = empty ? 0 : groups;

    if (!empty) {
        bool first_full = false;
        nparts = split_regions(global, offset, local, parts, &first_full);
        uint64_t parts_key = 0;
        /* variants assume global ids below 2^31 unless this launch reaches them (narrowids.h) */
        const bool ids = weft_variant_needs_wide_ids(work_dim, launch.ctx.global_offset, launch.ctx.global_size);
        err = prepare_parts(kernel, dev, work_dim, local, args, parts, nparts, first_full, ids, g.stand_in, &launch,
                            &alt, &parts_key, &spec0);
        if (err != CL_SUCCESS) {
            weft_kernel_args_free(args);
            return err;
        }
        if (nparts == 1)
            weft_launch_set_region(&launch.ctx, &parts[0]);
        if (alt.fn) {
            uint64_t gs[3], ls[3];
            for (int d = 0; d < 3; d++) {
                gs[d] = launch.ctx.global_size[d];
                ls[d] = launch.ctx.enqueued_local_size[d];
            }
            select_key = weft_select_key(parts_key, alt.key, gs, ls);
        }
    }

    struct weft_command *cmd = weft_command_new(q, CL_COMMAND_NDRANGE_KERNEL, num_events_in_wait_list,
                                                event_wait_list, sizeof(struct ndrange_cmd));
    if (!cmd) {
        weft_kernel_args_free(args);
        return weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "could not allocate the command");
    }
    struct ndrange_cmd *p = cmd->payload;
    p->args = args;
    struct weft_launch_desc *d = &p->desc;
    d->meta = weft_kernel_meta_of(kernel);
    d->kernel = kernel;
    d->ops = &weft_kernel_launch_ops;
    d->bufs = weft_kernel_args_buffers(args, &d->nbufs);
    d->raw_memory = weft_kernel_args_raw_memory(args);
    d->uses_printf = !empty && weft_kernel_uses_printf(kernel);
    d->launch = launch;
    d->nparts = nparts;
    memcpy(d->parts, parts, nparts * sizeof parts[0]);
    d->alt = alt.fn;
    d->spec = spec0;
    d->alt_spec = alt.spec;
    d->select_key = select_key;
    const char *name = empty ? "" : weft_kernel_name(kernel);
    size_t name_len = strnlen(name, sizeof d->name - 1);   /* (snprintf's format parse: 2% of a launch) */
    memcpy(d->name, name, name_len);
    d->name[name_len] = '\0';
    /* a fused run (exec/fuse/fuse.c) asks the pool for no stack beyond WEFT_POOL_BASE_STACK
     * for the stages it calls: launches whose private arrays may need more than half of that
     * run unfused, on the stack their own launch asks for (exec/pool.h) */
    d->fusable = fusable(q, kernel, empty, d->uses_printf) && weft_fuse_takes_work_dim(launch.ctx.work_dim) &&
                 launch.stack_size <= WEFT_POOL_BASE_STACK / 2;
    if (d->fusable && d->raw_memory) {
        /* shared virtual memory: fusion sees memory only through the launches' cl_mem arguments */
        weft_log(WEFT_LOG_DEBUG, "%s: not held back for fusion: %s", d->name, d->raw_memory);
        d->fusable = false;
    }
    if (d->fusable)
        cmd->flags |= WEFT_COMMAND_FUSABLE;
    d->timed = !empty && launch.total_groups <= q->device->compute_units;
    /* one short group: no other thread needs to see it (the queue decides whether it is idle).
     * Not a kernel on shared virtual memory: it may wait, through SVM atomics, for the very host
     * thread that would be running it */
    uint64_t avg_ns = empty ? 0 : weft_kernel_one_group_run_ns(kernel);
    if (launch.total_groups == 1 && !alt.fn && avg_ns && avg_ns <= RUN_HERE_MAX_NS && !d->raw_memory &&
        !weft_svm_atomics_in(q->context, d->bufs, d->nbufs))
        cmd->flags |= WEFT_COMMAND_RUN_IF_IDLE;
    cmd->launch = d;
    cmd->run = run_ndrange;
    cmd->release = release_ndrange;
    return weft_command_enqueue(cmd, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
              const cl_event *event_wait_list, cl_event *event)
{
    static const size_t one[1] = {1};
    return clEnqueueNDRangeKernel(command_queue, kernel, 1, NULL, one, one, num_events_in_wait_list,
                                  event_wait_list, event);
}
