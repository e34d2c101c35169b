/* runtime/variant_choice.c — which compiled variants a launch runs and profiles
 * (runtime/variant_choice.h), and the same choice made ahead of the first launch.
 */
#include "runtime/variant_choice.h"

#include <string.h>

#include "compiler/compiler.h"
#include "compiler/transform/schedule.h"
#include "exec/variant_select.h"
#include "runtime/compile_ahead.h"
#include "runtime/kernel.h"
#include "runtime/log.h"

/* weft_kernel_get_variant, or with `ahead` only when the variant is ready: otherwise
 * WEFT_VARIANT_NOT_COMPILED, and it is compiled ahead (runtime/compile_ahead.h). */
static cl_int get_or_compile_ahead(cl_kernel kernel, cl_uint work_dim, const size_t local[3],
                                   const struct weft_variant_spec *spec, bool ahead, struct weft_variant *out)
{
    if (!ahead)
        return weft_kernel_get_variant(kernel, work_dim, local, spec, out);
    cl_int err = weft_kernel_peek_variant(kernel, work_dim, local, spec, out);
    if (err == WEFT_VARIANT_NOT_COMPILED)
        weft_compile_ahead(kernel, work_dim, local, spec, false);
    return err;
}

/* Whether a launch that finds `first` not compiled compiles the scalar work-item loops instead
 * (into *scalar), and `first` ahead: for a kernel slow to compile (runtime/compile_ahead.h),
 * whose vectorized code is `first`, at a local size of more than one work-item, without
 * sub-groups (whose size the variant fixes). The scalar code compiles in a fraction of the
 * vectorized code's time (hashcat's MD5 at 16 work-items: 0.14-0.2 s against 5-8 s on the
 * 2-core Sapphire Rapids VM), and a compile a launch waits for is inside the application's
 * timing; the launches run it until the vectorized code is ready, then profile the two as usual. */
static bool scalar_compiled_first(cl_kernel kernel, const size_t local[3], const struct weft_variant_spec *first,
                                  struct weft_variant_spec *scalar)
{
    if (first->code != WEFT_CODE_VECTOR || local[0] * local[1] * local[2] <= 1 ||
        weft_kernel_uses_sub_groups(kernel) || !weft_compile_ahead_worth(kernel))
        return false;
    *scalar = *first;
    scalar->code = WEFT_CODE_SCALAR;
    return true;
}

bool weft_scalar_ready_at(cl_kernel kernel, cl_uint work_dim, const size_t local[3],
                          const struct weft_variant_spec *first)
{
    struct weft_variant v;
    struct weft_variant_spec scalar;
    return scalar_compiled_first(kernel, local, first, &scalar) &&
           weft_kernel_peek_variant(kernel, work_dim, local, &scalar, &v) == CL_SUCCESS;
}

cl_int weft_choose_variants(cl_kernel kernel, cl_uint work_dim, const size_t local[3],
                            const struct weft_variant_spec *first, bool forced, bool passing,
                            struct weft_variant *v, struct weft_variant *alt)
{
    memset(alt, 0, sizeof *alt);
    struct weft_variant_spec scalar_first;
    if (!forced && scalar_compiled_first(kernel, local, first, &scalar_first) &&
        weft_kernel_peek_variant(kernel, work_dim, local, first, v) == WEFT_VARIANT_NOT_COMPILED &&
        weft_kernel_get_variant(kernel, work_dim, local, &scalar_first, v) == CL_SUCCESS) {
        /* not for a stand-in: queued, it would replace the larger size's compile */
        if (!passing)
            weft_compile_ahead(kernel, work_dim, local, first, true);
        return CL_SUCCESS;   /* the first variant, once ready, is profiled against it as usual */
    }
    cl_int err = weft_kernel_get_variant(kernel, work_dim, local, first, v);
    /* a kernel with sub-groups keeps the variant whose sub-group size clGetKernelSubGroupInfo
     * reported (the scalar variant's is 1) */
    if (err != CL_SUCCESS || forced || weft_kernel_uses_sub_groups(kernel))
        return err;
    /* a kernel slow to compile runs what is ready; what it lacks is compiled ahead */
    const bool ahead = weft_compile_ahead_worth(kernel);
    struct weft_variant_spec scalar;
    struct weft_variant sv;
    if (weft_variant_static_scalar(&v->spec, v->vec_row_walks, &scalar) &&
        get_or_compile_ahead(kernel, work_dim, local, &scalar, ahead, &sv) == CL_SUCCESS) {
        weft_log(WEFT_LOG_DEBUG, "%s: %u loop(s) walk a row per work-item under lane masks: scalar work-item "
                 "loops, not profiled against the vectorized code (static cost)", weft_kernel_name(kernel),
                 v->vec_row_walks);
        *v = sv;
    }
    if (weft_schedule_setting() != WEFT_SCHEDULE_AUTO || weft_profile_setting() == WEFT_PROFILE_OFF)
        return CL_SUCCESS;
    /* an alternative compiled ahead for a launch that will not profile it would take the
     * background thread from the compiles that matter (hashcat's autotune: merged sizes 2 to 8,
     * a few groups each, then stand-ins for 128) */
    if (ahead && passing)
        return CL_SUCCESS;
    struct weft_variant_spec cand[2];
    unsigned n = weft_variant_alternatives(&v->spec, v->votes_bfo > 0, v->vec_linearized > 0,
                                           v->vec_wide_items > 0, cand);
    for (unsigned i = 0; i < n && !alt->fn; i++) {
        cl_int aerr = get_or_compile_ahead(kernel, work_dim, local, &cand[i], ahead, alt);
        /* an "lc" that schedules nothing breadth-first is the first variant again */
        if (aerr != CL_SUCCESS || (cand[i].schedule != v->spec.schedule && alt->bfo_loops == 0))
            memset(alt, 0, sizeof *alt);
        if (aerr == WEFT_VARIANT_NOT_COMPILED)
            break;   /* profiled once it is ready */
    }
    return CL_SUCCESS;   /* without an alternative: the first variant alone */
}


/* ---- ahead of the first launch ------------------------------------------------------------ */

/* On the background thread: what a launch at `local` would choose, compiled; a launch (not a
 * stand-in, with enough groups to profile) is what the guess is for. */
static void run_prepared(cl_kernel kernel, cl_uint work_dim, const size_t local[3])
{
    struct weft_variant_spec first;
    bool forced = weft_variant_first(false, &first);
    struct weft_variant v, alt;
    cl_int err = weft_choose_variants(kernel, work_dim, local, &first, forced, false, &v, &alt);
    weft_log(WEFT_LOG_DEBUG, "%s: variants prepared for local size %zux%zux%zu%s", weft_kernel_name(kernel), local[0],
             local[1], local[2], err == CL_SUCCESS ? "" : " (failed: a launch reports why)");
}

void weft_prepare_variants(cl_kernel kernel, cl_uint work_dim, const size_t local[3])
{
    if (weft_kernel_launched(kernel))
        return;   /* its launches compiled, or queued, what they need */
    size_t n = weft_kernel_code_size(kernel);
    if (n > WEFT_PREPARE_MAX_INSTRUCTIONS) {
        weft_log(WEFT_LOG_DEBUG, "%s: not prepared for local size %zux%zux%zu: %zu instructions", weft_kernel_name(kernel),
                 local[0], local[1], local[2], n);
        return;
    }
    weft_compile_prepare(kernel, work_dim, local, run_prepared);
}
