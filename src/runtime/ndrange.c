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
 *   - A NULL local_work_size becomes a uniform work-group size (the device reports no
 *     non-uniform work-group support): the kernel's reqd_work_group_size when it has one,
 *     else per dimension a divisor of the global size, dimension 0 first, a multiple of the
 *     SIMD width when one fits, small enough that every pool thread gets several groups.
 *   - At run time the command fills one weft_launch (unused dimensions: size 1, offset 0) and
 *     hands it to the pool; the event goes RUNNING/COMPLETE around it (queue.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/printf.h"
#include "exec/pool.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/kernel.h"
#include "runtime/log.h"
#include "runtime/program.h"
#include "runtime/queue.h"
#include "runtime/variant_select.h"
#include "compiler/transform/schedule.h"

/* The largest work-group the automatic choice makes: big enough to amortize the work-group
 * loop overhead and fill vectors, small enough to keep privatized state in L1/L2. */
#define AUTO_GROUP_ITEMS 256u
/* The automatic choice aims at this many work-groups per pool thread (load balance). */
#define AUTO_GROUPS_PER_THREAD 4u

struct ndrange_cmd {
    struct weft_kernel_args *args;     /* snapshot; owns the packed block */
    bool uses_printf;
    struct weft_launch launch;         /* complete at enqueue (printf_buf set at run) */
    weft_wg_fn alt;                    /* another schedule of the kernel to profile, or NULL */
    uint64_t select_key;               /* the decision's key (runtime/variant_select.h) */
    char name[64];                     /* the kernel, for the log */
};

static cl_int run_ndrange(struct weft_command *cmd)
{
    struct ndrange_cmd *p = cmd->payload;
    if (p->launch.total_groups == 0)
        return CL_SUCCESS;
    struct weft_printf_buffer *pb = p->uses_printf ? weft_printf_buffer_new() : NULL;
    p->launch.ctx.printf_buf = pb;
    int rc = p->alt ? weft_select_run(&p->launch, p->alt, p->select_key, p->name) : weft_pool_run(&p->launch);
    if (pb)
        weft_printf_buffer_finish(pb);
    if (rc != 0)
        return weft_error("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES,
                          "could not allocate %zu bytes of local memory and %zu of scratch per worker",
                          p->launch.local_mem_size, p->launch.scratch_size);
    return CL_SUCCESS;
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

/* Chooses a uniform local size for a launch whose global sizes are all >= 1. */
static void choose_local_size(cl_uint work_dim, const size_t global[3], size_t budget,
                              const size_t max_items[3], size_t simd, size_t local[3])
{
    uint64_t total = 1;
    for (cl_uint d = 0; d < work_dim; d++)
        total = global[d] > UINT64_MAX / total ? UINT64_MAX : total * global[d];
    size_t want = budget < AUTO_GROUP_ITEMS ? budget : AUTO_GROUP_ITEMS;
    /* Shrink the group until every thread gets several groups, but not below one vector
     * (below that the groups get too small to vectorize and dispatch costs dominate). */
    uint64_t groups_wanted = (uint64_t)weft_pool_concurrency() * AUTO_GROUPS_PER_THREAD;
    while (want > simd && total / want < groups_wanted)
        want /= 2;
    if (want < 1)
        want = 1;

    size_t left = want;
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

/* ---- launch geometry ---------------------------------------------------------------------- */

struct geometry {
    bool empty;                        /* global size NULL or 0 in a used dimension */
    size_t global[3], offset[3], local[3];   /* unused dimensions: 1, 0, 1 */
};

/* Like WEFT_CHECK, but names the entry point (the checks live in this helper). */
#define GEOM_CHECK(cond, code, ...)                                                          \
    do {                                                                                     \
        if (!(cond))                                                                         \
            return weft_error("clEnqueueNDRangeKernel", (code), __VA_ARGS__);                \
    } while (0)

/* Checks work_dim, the global size and offset and the local size in the specification's
 * order and fills `g`; a NULL local size gets a uniform one chosen here. */
/* The variant to run and, when the schedule is left to Weft (WEFT_SCHEDULE=auto) and some loop's
 * locality votes for breadth-first order, the breadth-first one to profile against it
 * (runtime/variant_select.h). Depth-first comes first: with the vectorizer's packets of
 * consecutive work-items it won on most kernels measured (docs/PERFORMANCE.md). */
static cl_int choose_variants(cl_kernel kernel, cl_uint work_dim, const size_t local[3], struct weft_variant *v,
                              struct weft_variant *alt)
{
    enum weft_schedule_mode mode = weft_schedule_setting();
    memset(alt, 0, sizeof *alt);
    cl_int err = weft_kernel_get_variant_scheduled(kernel, work_dim, local,
                                                   mode == WEFT_SCHEDULE_AUTO ? WEFT_SCHEDULE_DFO : mode, v);
    if (err != CL_SUCCESS || mode != WEFT_SCHEDULE_AUTO || v->votes_bfo == 0 ||
        weft_profile_setting() == WEFT_PROFILE_OFF)
        return err;
    err = weft_kernel_get_variant_scheduled(kernel, work_dim, local, WEFT_SCHEDULE_AUTO, alt);
    if (err != CL_SUCCESS || alt->bfo_loops == 0)
        memset(alt, 0, sizeof *alt);   /* then the depth-first variant alone */
    return CL_SUCCESS;
}

static cl_int check_geometry(cl_device_id dev, cl_kernel kernel, cl_uint work_dim,
                             const size_t *global_work_offset, const size_t *global_work_size,
                             const size_t *local_work_size, struct geometry *g)
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
        if (!empty)
            for (cl_uint d = 0; d < work_dim; d++)
                GEOM_CHECK(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                           "global_work_size[%u] %zu is not a multiple of local_work_size[%u] %zu "
                           "(the device requires uniform work-groups)", d, global[d], d, local[d]);
        for (cl_uint d = 0; d < work_dim; d++)
            GEOM_CHECK(local[d] <= dev->max_work_item_sizes[d], CL_INVALID_WORK_ITEM_SIZE,
                       "local_work_size[%u] %zu exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[%u] %zu",
                       d, local[d], d, dev->max_work_item_sizes[d]);
    } else if (has_reqd) {
        for (cl_uint d = 0; d < 3; d++)
            local[d] = info.reqd_work_group_size[d];
        if (!empty)
            for (cl_uint d = 0; d < work_dim; d++)
                GEOM_CHECK(global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE,
                           "global_work_size[%u] %zu is not a multiple of the kernel's "
                           "reqd_work_group_size %zu (the device requires uniform work-groups)",
                           d, global[d], local[d]);
    } else if (!empty) {
        size_t budget = info.max_work_group_size < dev->max_work_group_size ? info.max_work_group_size
                                                                             : dev->max_work_group_size;
        size_t simd = info.preferred_multiple ? info.preferred_multiple : 1;
        choose_local_size(work_dim, global, budget ? budget : 1, dev->max_work_item_sizes, simd, local);
        weft_log(WEFT_LOG_DEBUG, "clEnqueueNDRangeKernel: global %zux%zux%zu, chose local %zux%zux%zu",
                 global[0], global[1], global[2], local[0], local[1], local[2]);
    }

    g->empty = empty;
    return CL_SUCCESS;
}

/* ---- entry points ------------------------------------------------------------------------- */

static bool program_has_executable(cl_program p)
{
    pthread_mutex_lock(&p->lock);
    bool ok = p->status == CL_BUILD_SUCCESS && p->image != NULL;
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
    cl_program program = NULL;
    cl_context kctx = NULL;
    /* The kernel's struct is private to kernel.c; its public queries are enough here. */
    if (clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) != CL_SUCCESS ||
        clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof kctx, &kctx, NULL) != CL_SUCCESS)
        return weft_error(__func__, CL_INVALID_KERNEL, "kernel is not a live kernel");
    WEFT_CHECK(program_has_executable(program), CL_INVALID_PROGRAM_EXECUTABLE,
               "the kernel's program has no executable built for the device");
    WEFT_CHECK(kctx == q->context, CL_INVALID_CONTEXT, "kernel and command_queue belong to different contexts");

    /* Arguments: CL_INVALID_KERNEL_ARGS when one is not set (the snapshot also holds every
     * buffer the launch uses until the command is done). */
    struct weft_kernel_args *args = NULL;
    cl_int err = weft_kernel_capture_args(kernel, &args);
    if (err != CL_SUCCESS)
        return err;

    struct geometry g;
    err = check_geometry(q->device, kernel, work_dim, global_work_offset, global_work_size,
                         local_work_size, &g);
    if (err != CL_SUCCESS) {
        weft_kernel_args_free(args);
        return err;
    }
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
    weft_wg_fn alt_fn = NULL;
    uint64_t select_key = 0;
    launch.ctx.work_dim = work_dim;
    uint64_t groups = 1;
    for (int d = 0; d < 3; d++) {
        launch.ctx.global_size[d] = empty ? 0 : global[d];
        launch.ctx.local_size[d] = local[d];
        launch.ctx.global_offset[d] = offset[d];
        launch.ctx.num_groups[d] = empty ? 0 : global[d] / local[d];
        groups *= launch.ctx.num_groups[d];
    }
    launch.total_groups = empty ? 0 : groups;

    if (!empty) {
        /* Compile (or find) the variant now so that a failure is this call's error. */
        struct weft_variant v, alt = {0};
        err = choose_variants(kernel, work_dim, local, &v, &alt);
        if (err != CL_SUCCESS) {
            weft_kernel_args_free(args);
            return err;
        }
        /* one argument block for both: __local arguments after the larger static area */
        struct weft_variant both = v;
        if (alt.fn && alt.static_local_size > both.static_local_size)
            both.static_local_size = alt.static_local_size;
        if (alt.fn && alt.scratch_size > both.scratch_size)
            both.scratch_size = alt.scratch_size;
        size_t local_total = 0;
        launch.args = weft_kernel_args_pack(args, &both, &local_total);
        if (local_total > dev->local_mem_size && (alt.fn || v.bfo_loops) &&
            weft_kernel_get_variant_scheduled(kernel, work_dim, local, WEFT_SCHEDULE_DFO, &v) == CL_SUCCESS) {
            /* a breadth-first variant's own __local word does not fit: depth-first alone */
            memset(&alt, 0, sizeof alt);
            both = v;
            launch.args = weft_kernel_args_pack(args, &both, &local_total);
        }
        if (local_total > dev->local_mem_size) {
            weft_kernel_args_free(args);
            return weft_error(__func__, CL_OUT_OF_RESOURCES,
                              "the kernel needs %zu bytes of __local memory per work-group, the "
                              "device has %llu", local_total, (unsigned long long)dev->local_mem_size);
        }
        launch.fn = v.fn;
        launch.local_mem_size = local_total;
        launch.scratch_size = both.scratch_size;
        alt_fn = alt.fn;
        if (alt.fn) {
            uint64_t gs[3], ls[3];
            for (int d = 0; d < 3; d++) {
                gs[d] = launch.ctx.global_size[d];
                ls[d] = launch.ctx.local_size[d];
            }
            select_key = weft_select_key(v.key, alt.key, gs, ls);
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
    p->uses_printf = !empty && weft_kernel_uses_printf(kernel);
    p->launch = launch;
    p->alt = alt_fn;
    p->select_key = select_key;
    snprintf(p->name, sizeof p->name, "%s", empty ? "" : weft_kernel_name(kernel));
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
