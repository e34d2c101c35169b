/* exec/dispatch.c — runs an NDRange launch described by the runtime (exec/dispatch.h). */
#include "exec/dispatch.h"

#include <stdio.h>
#include <string.h>

#include "compiler/compiler.h"
#include "compiler/printf.h"
#include "exec/fuse/fuse.h"
#include "exec/pool.h"
#include "exec/report.h"
#include "exec/variant_select.h"
#include "exec/variant_verify.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/trace.h"

/* The pool's work-group function for a launch of several parts: runs groups [first,
 * first + count) of the launch's numbering, each piece by its part's variant on a copy of
 * the worker's context with the part's region fields. `args` is the description. */
static void run_parts(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    const struct weft_launch_desc *p = args;
    const uint64_t end = first + count;
    for (unsigned i = 0; i < p->nparts && first < end; i++) {
        const struct weft_launch_part *part = &p->parts[i];
        uint64_t part_end = part->first + part->count;
        if (first >= part_end)
            continue;
        uint64_t stop = end < part_end ? end : part_end;
        struct weft_wg_ctx c = *ctx;
        weft_launch_set_region(&c, part);
        part->fn(p->launch.args, &c, first - part->first, stop - first);
        first = stop;
    }
}

/* The kernel takes an image or a sampler. */
static bool has_images(const struct weft_kernel_meta *m)
{
    for (unsigned i = 0; i < m->num_args; i++)
        if (m->args[i].image_type || m->args[i].is_sampler)
            return true;
    return false;
}

/* WEFT_VERIFY: before the first launch of this process that would run `alt` for the pair's
 * key, compare the two variants on a sample of `full`'s groups (exec/variant_verify.h); a
 * mismatch makes the first variant final. Kernels whose results may depend on the order of
 * their work-items, or that take images, are not checked. */
static void verify_pair(struct weft_launch_desc *p, const struct weft_launch *full)
{
    if (!weft_verify_setting() || p->uses_printf || has_images(p->meta))
        return;
    const struct weft_kernel_meta *m = p->meta;
    /* a kernel that writes through pointers it loads (SVM) may write outside the buffers that
     * are restored between the two runs */
    if (m->order_effects || m->indirect_stores || !weft_select_claim_verify(p->select_key))
        return;
    struct weft_verify_buffer bufs[64];
    unsigned n = 0;
    for (unsigned i = 0; i < m->num_args && n < 64; i++) {
        if (m->args[i].kind != WEFT_ARG_GLOBAL_PTR)
            continue;   /* __constant buffers are read-only */
        void *data = NULL;
        memcpy(&data, (const char *)full->args + m->args[i].offset, sizeof data);
        size_t size;
        if (!weft_launch_buffer_size(p, data, &size))
            continue;
        bufs[n++] = (struct weft_verify_buffer){data, size, weft_verify_elem_of(m->args[i].type_name), i};
    }
    char what[160], na[WEFT_VARIANT_NAME_MAX], nb[WEFT_VARIANT_NAME_MAX];
    snprintf(what, sizeof what, "kernel '%s', variants %s and %s", p->name, weft_variant_name(&p->spec, na),
             weft_variant_name(&p->alt_spec, nb));
    if (!weft_verify_pair(full, p->alt, bufs, n, what))
        weft_select_reject(p->select_key);
}

static int run_split(struct weft_launch_desc *p, bool *profiled)
{
    struct weft_launch all = p->launch;
    all.fn = run_parts;
    all.args = p;
    if (p->alt) {
        /* the full groups are profiled between the two schedules, the remainder parts follow */
        struct weft_launch full = p->launch;
        weft_launch_set_region(&full.ctx, &p->parts[0]);
        full.fn = p->parts[0].fn;
        full.first_group = 0;
        full.total_groups = p->parts[0].count;
        verify_pair(p, &full);
        int rc = weft_select_run(&full, p->alt, p->select_key, p->name, profiled);
        if (rc != 0)
            return rc;
        all.first_group = p->parts[0].count;
        all.total_groups -= p->parts[0].count;
    }
    return weft_pool_run(&all);
}

/* WEFT_REPORT: the launch ran in `ns`, its full groups by parts[0]'s variant or the one profiling
 * chose (the latest winner of its pair). */
static __attribute__((noinline)) void report(const struct weft_launch_desc *p, uint64_t ns)
{
    weft_wg_fn ran = p->nparts ? p->parts[0].fn : p->launch.fn;
    if (p->alt && weft_select_latest(p->select_key) == 1)
        ran = p->alt;
    weft_report_launch(p, ran, ns);
}

int weft_dispatch_run(struct weft_launch_desc *p)
{
    if (p->launch.total_groups == 0)
        return 0;
    if (p->alt && p->raw_memory && weft_verify_setting()) {
        /* WEFT_VERIFY runs a sample twice and restores bufs in between; what the kernel writes
         * through SVM pointers would be written twice. Without the check, no profiling either:
         * the first variant runs, as it does for every launch WEFT_VERIFY cannot check. */
        weft_log(WEFT_LOG_INFO, "kernel '%s': variants neither verified nor profiled (WEFT_VERIFY): %s; runs %s",
                 p->name, p->raw_memory, weft_variant_name(&p->spec, (char[WEFT_VARIANT_NAME_MAX]){0}));
        p->alt = NULL;
    }
    struct weft_printf_buffer *pb = p->uses_printf ? weft_printf_buffer_new() : NULL;
    p->launch.ctx.printf_buf = pb;
    p->launch.name = p->name;   /* WEFT_TRACE's slices of its chunks */
    /* every global access an affine function of the ids (a stencil sweep, a pointwise kernel):
     * neighbouring groups share a halo at most, so threads keep their own ranges of a 2-D or
     * 3-D grid from launch to launch (exec/pool.h) */
    p->launch.grid_ranges = p->meta && p->meta->access.affine;
    /* timed once for whoever needs it: fusion's per-row cost, the runtime's bounds (p->timed),
     * WEFT_REPORT */
    uint64_t t0 = p->fusable || p->timed || weft_report_enabled ? weft_now_ns() : 0;
    bool profiled = false;
    if (p->alt && p->nparts == 1)
        verify_pair(p, &p->launch);
    int rc = p->nparts > 1 ? run_split(p, &profiled)
             : p->alt     ? weft_select_run(&p->launch, p->alt, p->select_key, p->name, &profiled)
                          : weft_pool_run(&p->launch);
    uint64_t t1 = t0 ? weft_now_ns() : 0;
    if (weft_report_enabled && rc == 0)
        report(p, t1 - t0);
    /* not from a launch that profiled two variants: its time includes the slower one's slices */
    p->run_ns = t0 && rc == 0 && !profiled && (p->fusable || p->timed) ? t1 - t0 : 0;
    /* the per-row cost of this kernel unfused: what fusing it into a chain would save */
    if (p->fusable && p->run_ns)
        weft_fuse_note_unfused(p, p->run_ns);
    if (pb)
        weft_printf_buffer_finish(pb);
    return rc;
}
