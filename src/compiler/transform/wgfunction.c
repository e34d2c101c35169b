/* compiler/transform/wgfunction.c — kernel -> work-group function: runs the passes of passes.h
 * in order and wraps the result in the ABI of weft/abi.h.
 *
 * Guarantees: weft_wg_<kernel>(const void *args, const struct weft_wg_ctx *ctx,
 * uint64_t first_group, uint64_t group_count) that, for each linear group g in
 * [first_group, first_group + group_count), computes (gx, gy, gz) with dimension 0 fastest
 * (split by ctx->launch_groups, offset by ctx->group_base: weft/abi.h), and runs the
 * work-group: arguments unpacked once per call from the packed block (arglayout.h), byval
 * structs copied to aligned stack memory, __local arguments as ctx->local_mem + offset. The
 * kernel itself stays in the module; the intermediate work function is deleted. A vectorized
 * work function past a size bound (vectorized_size_limit) is dropped for the scalar work-item
 * loops, and the vectorizer's report of every sub-CFG says so. The caller still runs an
 * optimization pipeline (sroa first: the demoted stack slots and the per-call argument copies
 * are meant to be promoted).
 */
#include "compiler/transform/wgfunction.h"

#include "compiler/analysis/shape.h"
#include "compiler/arglayout.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/subgroup.h"
#include "util/vec.h"
#include "weft/abi.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_param_attr(LLVMContextRef c, LLVMValueRef fn, unsigned idx, const char *name)
{
    unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(c, k, 0));
}

static bool build_abi_wrapper(struct weft_workfn *wf, const struct weft_arg_layout *lay,
                              LLVMValueRef *out_fn, struct weft_diag *diag)
{
    LLVMContextRef c = wf->c;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i8 = LLVMInt8TypeInContext(c);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    LLVMTypeRef params[] = {ptr, ptr, i64, i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 4, 0);
    size_t klen = 0;
    const char *kname = LLVMGetValueName2(wf->kernel, &klen);
    char *name = malloc(klen + 16);
    if (!name) {
        weft_diag_error(diag, "out of memory");
        return false;
    }
    snprintf(name, klen + 16, "weft_wg_%.*s", (int)klen, kname);
    LLVMValueRef old = LLVMGetNamedFunction(wf->m, name);
    if (old) {
        weft_diag_error(diag, "%s already exists in the module", name);
        free(name);
        return false;
    }
    LLVMValueRef fn = LLVMAddFunction(wf->m, name, fty);
    free(name);
    add_param_attr(c, fn, LLVMAttributeFunctionIndex, "nounwind");
    for (unsigned p = 1; p <= 2; p++) {
        add_param_attr(c, fn, p, "noalias");
        add_param_attr(c, fn, p, "readonly");
        add_param_attr(c, fn, p, "nocapture");
    }
    LLVMValueRef args = LLVMGetParam(fn, 0), ctx = LLVMGetParam(fn, 1);
    LLVMValueRef first = LLVMGetParam(fn, 2), count = LLVMGetParam(fn, 3);
    LLVMSetValueName2(args, "args", 4);
    LLVMSetValueName2(ctx, "ctx", 3);
    LLVMSetValueName2(first, "first_group", 11);
    LLVMSetValueName2(count, "group_count", 11);

    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, fn, "entry");
    LLVMBasicBlockRef groups = LLVMAppendBasicBlockInContext(c, fn, "group");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, entry);

    /* ctx fields, addressed through the same struct type the work function uses: the linear
     * group number splits by this sub-launch's groups per dimension, and the group ids are
     * offset by its first group (weft/abi.h; 0 unless the NDRange has remainder groups) */
    LLVMValueRef ngp = LLVMBuildStructGEP2(b, wf->ctx_type, ctx, WEFT_CTX_FIELD_LAUNCH_GROUPS, "");
    LLVMValueRef ng0 = LLVMBuildLoad2(b, i64, ngp, "launch_groups.x");
    LLVMValueRef ng1p = LLVMBuildInBoundsGEP2(b, i64, ngp, (LLVMValueRef[]){weft_i64(c, 1)}, 1, "");
    LLVMValueRef ng1 = LLVMBuildLoad2(b, i64, ng1p, "launch_groups.y");
    LLVMValueRef gbp = LLVMBuildStructGEP2(b, wf->ctx_type, ctx, WEFT_CTX_FIELD_GROUP_BASE, "");
    LLVMValueRef gbase[3];
    static const char *const gbase_names[3] = {"group_base.x", "group_base.y", "group_base.z"};
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef p = d ? LLVMBuildInBoundsGEP2(b, i64, gbp, (LLVMValueRef[]){weft_i64(c, d)}, 1, "") : gbp;
        gbase[d] = LLVMBuildLoad2(b, i64, p, gbase_names[d]);
    }
    LLVMValueRef local_mem = NULL;

    unsigned n = wf->nparams;
    LLVMValueRef *call_args = calloc(n + 4, sizeof *call_args);
    if (!call_args) {
        LLVMDisposeBuilder(b);
        weft_diag_error(diag, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct weft_arg_slot *a = &lay->args[i];
        LLVMValueRef off = weft_i64(c, a->offset);
        LLVMValueRef src = LLVMBuildInBoundsGEP2(b, i8, args, &off, 1, "");
        char nm[32];
        snprintf(nm, sizeof nm, "arg%u", i);
        switch (a->kind) {
        case WEFT_ARG_GLOBAL_PTR:
        case WEFT_ARG_CONSTANT_PTR: {
            LLVMValueRef v = LLVMBuildLoad2(b, a->type, src, nm);
            LLVMSetAlignment(v, 8);
            call_args[i] = v;
            break;
        }
        case WEFT_ARG_LOCAL_PTR: {
            if (!local_mem) {
                LLVMValueRef lp = LLVMBuildStructGEP2(b, wf->ctx_type, ctx, WEFT_CTX_FIELD_LOCAL_MEM, "");
                local_mem = LLVMBuildLoad2(b, ptr, lp, "local_mem");
            }
            LLVMValueRef o = LLVMBuildLoad2(b, i64, src, "");
            LLVMSetAlignment(o, 8);
            LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, local_mem, &o, 1, nm);
            if (LLVMTypeOf(p) != a->type)
                p = LLVMBuildAddrSpaceCast(b, p, a->type, "");
            call_args[i] = p;
            break;
        }
        case WEFT_ARG_BY_VALUE:
            if (a->byval_type) {
                /* the block is only 8-aligned: copy to memory with the struct's alignment */
                LLVMValueRef tmp = LLVMBuildAlloca(b, a->byval_type, nm);
                unsigned al = a->byval_align ? a->byval_align : LLVMABIAlignmentOfType(td, a->byval_type);
                LLVMSetAlignment(tmp, al);
                LLVMBuildMemCpy(b, tmp, al, src, WEFT_ARG_ALIGN, weft_i64(c, a->size));
                call_args[i] = tmp;
            } else {
                LLVMValueRef v = LLVMBuildLoad2(b, a->type, src, nm);
                unsigned al = LLVMABIAlignmentOfType(td, a->type);
                LLVMSetAlignment(v, al < WEFT_ARG_ALIGN ? al : WEFT_ARG_ALIGN);
                call_args[i] = v;
            }
            break;
        }
    }
    LLVMValueRef end = LLVMBuildAdd(b, first, count, "end");
    LLVMValueRef any = LLVMBuildICmp(b, LLVMIntNE, count, weft_i64(c, 0), "");
    LLVMBuildCondBr(b, any, groups, done);

    LLVMPositionBuilderAtEnd(b, groups);
    LLVMValueRef g = LLVMBuildPhi(b, i64, "g");
    LLVMValueRef rx = LLVMBuildURem(b, g, ng0, "");
    LLVMValueRef t = LLVMBuildUDiv(b, g, ng0, "");
    LLVMValueRef ry = LLVMBuildURem(b, t, ng1, "");
    LLVMValueRef rz = LLVMBuildUDiv(b, t, ng1, "");
    LLVMValueRef gx = LLVMBuildNUWAdd(b, rx, gbase[0], "gx");
    LLVMValueRef gy = LLVMBuildNUWAdd(b, ry, gbase[1], "gy");
    LLVMValueRef gz = LLVMBuildNUWAdd(b, rz, gbase[2], "gz");
    call_args[n] = ctx;
    call_args[n + 1] = gx;
    call_args[n + 2] = gy;
    call_args[n + 3] = gz;
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(wf->fn), wf->fn, call_args, n + 4, "");
    free(call_args);
    unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ai, 0));
    LLVMValueRef g1 = LLVMBuildNUWAdd(b, g, weft_i64(c, 1), "");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, g1, end, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
    LLVMBuildCondBr(b, more, groups, done);
    LLVMAddIncoming(g, &first, &entry, 1);
    LLVMAddIncoming(g, &g1, &latch, 1);

    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    *out_fn = fn;
    return true;
}

/* Shapes of the work function's values: for privatization (focus -1: the whole group), or
 * for the vectorizer (focus 0, on the function as wgloops sees it). The launch-context loads
 * (workitem.c tags them !invariant.load) are uniform, and so are reloads of the slots demotion
 * made for uniform values and of the uniform bases of recomputed affine values: the analysis
 * cannot know either. */
static struct weft_shapes *compute_shapes(struct weft_workfn *wf, int focus)
{
    struct weft_shapes *s = weft_shapes_create(wf->fn, NULL);
    if (!s)
        return NULL;
    unsigned inv = LLVMGetMDKindIDInContext(wf->c, "invariant.load", 14);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsALoadInst(i))
                continue;
            const struct weft_slot_info *si =
                (const struct weft_slot_info *)weft_ptrmap_get_or(&wf->slot_info, LLVMGetOperand(i, 0), 0);
            if (LLVMGetMetadata(i, inv) || (si && (si->shape == WEFT_SLOT_UNIFORM || si->uniform_base)))
                weft_shapes_seed(s, i, (struct weft_shape){WEFT_SHAPE_UNIFORM, 0, NULL});
        }
    weft_shapes_set_local_size(s, wf->local_size);
    if (focus >= 0)
        weft_shapes_set_focus_dim(s, focus);
    weft_shapes_run(s);
    return s;
}

/* Demoted stack slots that every work-item of a packet sees with the same contents: an entry
 * alloca of a scalar type, only loaded and stored directly, whose stored values are all
 * uniform, in a function without divergent control flow (a store every work-item makes, of one
 * value, keeps the slot uniform). Demotion records some of these (a loop counter of a loop
 * between barriers) without a shape; found optimistically: assume every candidate uniform,
 * seed its loads so, and drop the candidates a stored value contradicts until none does. The
 * survivors are recorded as uniform slots, so that the vectorizer keeps them scalar. */
static struct weft_shapes *vector_shapes(struct weft_workfn *wf)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(wf->fn);
    WEFT_VEC(LLVMValueRef) cand = {0};
    for (LLVMValueRef a = LLVMGetFirstInstruction(entry); a; a = LLVMGetNextInstruction(a)) {
        if (!LLVMIsAAllocaInst(a) || weft_ptrmap_has(&wf->slot_info, a))
            continue;
        LLVMTypeRef t = LLVMGetAllocatedType(a);
        LLVMTypeKind k = LLVMGetTypeKind(t);
        bool ok = k == LLVMIntegerTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
                  k == LLVMPointerTypeKind;
        for (LLVMUseRef u = LLVMGetFirstUse(a); u && ok; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            ok = (LLVMIsALoadInst(user) && !LLVMGetVolatile(user)) ||
                 (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == a && !LLVMGetVolatile(user));
        }
        if (ok)
            weft_vec_push(&cand, a);
    }
    struct weft_slot_info uniform = {WEFT_SLOT_UNIFORM, 0, 0, false};
    for (size_t i = 0; i < cand.len; i++) {
        struct weft_slot_info *si = malloc(sizeof *si);
        if (si) {
            *si = uniform;
            weft_ptrmap_put(&wf->slot_info, cand.data[i], (uintptr_t)si);
        }
    }
    struct weft_shapes *s = compute_shapes(wf, 0);
    for (bool changed = true; changed && s;) {
        changed = false;
        bool divergent = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb && cand.len; bb = LLVMGetNextBasicBlock(bb))
            divergent |= weft_shapes_branch_divergent(s, bb) || weft_shapes_loop_divergent(s, bb);
        for (size_t i = 0; i < cand.len;) {
            bool keep = !divergent;
            for (LLVMUseRef u = LLVMGetFirstUse(cand.data[i]); u && keep; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (LLVMIsAStoreInst(user))
                    keep = weft_shape_is_uniform(weft_shape_of(s, LLVMGetOperand(user, 0)));
            }
            if (keep) {
                i++;
                continue;
            }
            uintptr_t si = 0;
            if (weft_ptrmap_get(&wf->slot_info, cand.data[i], &si)) {
                free((void *)si);
                weft_ptrmap_remove(&wf->slot_info, cand.data[i]);
            }
            cand.data[i] = cand.data[--cand.len];
            changed = true;
        }
        if (changed) {
            weft_shapes_free(s);
            s = compute_shapes(wf, 0);
        }
    }
    weft_vec_free(&cand);
    return s;
}

/* The sub-group size S of this variant (transform/subgroup.h): W, when every sub-CFG can be
 * vectorized in packets of whole W-lane groups and each W-lane group is a sub-group of the
 * specification (W consecutive linear local ids from a multiple of W): the x extent is a
 * multiple of W (rows hold whole groups), or the work-group is one row (its last group may be
 * short, as the last sub-group may); and the launch's full work-groups allow it (`cap`).
 * Otherwise 1. Deterministic for one local size, schedule and WEFT_VECTORIZE, which is what
 * lets clGetKernelSubGroupInfo answer before the launch by compiling the same variant. The
 * vectorizer's plans are only tried here (they change nothing); wgloops plans again. */
static unsigned sub_group_width(struct weft_workfn *wf, const struct weft_wg_options *opts,
                                const struct weft_shapes *shapes)
{
    unsigned W = opts->vector_width;
    const uint64_t *L = wf->local_size;
    if (W < 2 || !shapes || (opts->sub_group_cap && opts->sub_group_cap < W))
        return 1;
    if (!(L[0] % W == 0 || (L[1] == 1 && L[2] == 1 && L[0] >= 2)))
        return 1;
    wf->vec_sub_groups = true;
    for (unsigned s = 0; s < wf->subcfgs.count; s++) {
        struct weft_vec_report rep;
        struct weft_vec_plan *plan = weft_vectorize_plan(wf, &wf->subcfgs.s[s], shapes, W, opts->interleave, &rep);
        if (!plan)
            return 1;
        weft_vectorize_plan_free(plan);
    }
    return W;
}

/* Replaces every call of placeholder `name` by the constant v. */
static void resolve_placeholder(LLVMModuleRef m, const char *name, unsigned v)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        return;
    LLVMValueRef k = LLVMConstInt(LLVMGetReturnType(LLVMGlobalGetValueType(f)), v, 0);
    for (LLVMUseRef u = LLVMGetFirstUse(f); u;) {
        LLVMValueRef user = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        if (LLVMIsACallInst(user)) {
            LLVMReplaceAllUsesWith(user, k);
            LLVMInstructionEraseFromParent(user);
        }
    }
    if (!LLVMGetFirstUse(f))
        LLVMDeleteFunction(f);
}

void weft_wg_result_dispose(struct weft_wg_result *r)
{
    free(r->vec);
    r->vec = NULL;
}

/* The bound on vectorized work functions (vectorized_size_limit). */
enum { VEC_GROWTH_MAX = 16, VEC_SIZE_FLOOR = 8000, VEC_SIZE_MAX = 12000 };

/* Instructions in fn. */
static unsigned long count_instructions(LLVMValueRef fn)
{
    unsigned long n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n++;
    return n;
}

/* The most instructions a vectorized work function may have, for a kernel of `kernel_size`
 * instructions (the work function before the work-group passes). Vectorized code is
 * legitimately several times the kernel: a full packet's unmasked copy, the linear copy its
 * lanes fall back to, the tail packet's copy, slots and masks. Past this, LLVM's optimizer and
 * backend (register allocation above all) take time that grows faster than the code, and the
 * scalar work-item loops are the better deal. */
static unsigned long vectorized_size_limit(unsigned long kernel_size)
{
    unsigned long limit = VEC_GROWTH_MAX * kernel_size;
    return limit < VEC_SIZE_FLOOR ? VEC_SIZE_FLOOR : limit > VEC_SIZE_MAX ? VEC_SIZE_MAX : limit;
}

static bool build_once(LLVMModuleRef m, LLVMValueRef kernel, const struct weft_wg_options *opts,
                       enum weft_wg_stage last, struct weft_wg_result *out, struct weft_diag *diag,
                       char *too_large, size_t too_large_size, bool *schedule_broken)
{
    memset(out, 0, sizeof *out);
    struct weft_arg_layout lay;
    if (!weft_arglayout_compute(kernel, &lay, diag))
        return false;
    struct weft_workfn wf;
    unsigned subcfg_count = 0;   /* wgloops frees the sub-CFG list */
    bool ok = weft_workfn_create(&wf, m, kernel, opts->local_size, diag);
    unsigned long kernel_size = ok ? count_instructions(wf.fn) : 0;
    struct weft_schedule_report sched = {0};
    if (ok && last >= WEFT_WG_STAGE_WORKITEM) {
        /* before lowering: the locality analysis reads get_local_id / get_global_id */
        weft_schedule_loops(wf.fn, opts->local_size, opts->schedule, &sched);
        /* A breadth-first loop is rewired with a skeleton and SSA repair: if that left invalid
         * IR, the later passes would not notice (demotion to slots makes any IR valid again)
         * and the variant would compute wrong values. The caller builds depth-first instead. */
        if (sched.bfo && LLVMVerifyFunction(wf.fn, LLVMReturnStatusAction)) {
            *schedule_broken = true;
            ok = false;
        }
        if (ok)
            ok = weft_workitem_lower(&wf, diag);
    }
    if (ok && last >= WEFT_WG_STAGE_COLLECTIVES) {
        ok = weft_lower_wg_collectives(&wf, diag);
        /* unrolled code is the kernel's code from here on, also for the vectorized size bound */
        if (ok && weft_unroll_barrier_loops(wf.fn))
            kernel_size = count_instructions(wf.fn);
        if (ok && opts->vector_width > 1 && weft_unroll_row_walks(wf.fn, WEFT_ROW_UNROLL))
            kernel_size = count_instructions(wf.fn);
    }
    if (ok && last >= WEFT_WG_STAGE_BARRIERS)
        ok = weft_canonicalize_barriers(wf.fn, diag);
    if (ok && last >= WEFT_WG_STAGE_LOCALS)
        ok = weft_locals_layout(&wf, diag);
    if (ok && last >= WEFT_WG_STAGE_SUBCFGS) {
        ok = weft_subcfgs_form(wf.fn, &wf.subcfgs, diag);
        subcfg_count = wf.subcfgs.count;
        /* one sub-CFG is moved into its loop nest as it is: nothing to demote */
        if (ok && wf.subcfgs.count > 1) {
            struct weft_shapes *shapes = compute_shapes(&wf, -1);
            ok = weft_demote_values(&wf, shapes, diag);
            if (shapes)
                weft_shapes_free(shapes);
        }
    }
    if (ok && last >= WEFT_WG_STAGE_PRIVATIZE && wf.subcfgs.count > 1) {
        wf.affine_slot_bases = opts->vector_width > 1;
        ok = weft_privatize(&wf, diag);
    }
    struct weft_shapes *vec_shapes = NULL;
    struct weft_vec_report *vec = NULL;
    unsigned vector_width = opts->vector_width, sg_width = 1;
    bool uses_sg = false;
    if (ok && last >= WEFT_WG_STAGE_WGLOOPS) {
        uses_sg = weft_subgroup_used(wf.fn);
        if (uses_sg) {
            /* one sub-group size for every sub-CFG: all vectorized in W-lane groups, or none */
            if (vector_width > 1 && wf.subcfgs.count) {
                vec_shapes = vector_shapes(&wf);
                sg_width = sub_group_width(&wf, opts, vec_shapes);
                weft_shapes_free(vec_shapes);
                vec_shapes = NULL;
            }
            resolve_placeholder(m, WEFT_SG_WIDTH_NAME, sg_width);
            resolve_placeholder(m, WEFT_SG_MAX_NAME, opts->sub_group_cap ? opts->sub_group_cap : sg_width);
            if (sg_width == 1) {
                weft_subgroup_lower_scalar(wf.fn);
                vector_width = 0;
                wf.vec_sub_groups = false;
            }
        }
        if (vector_width > 1 && wf.subcfgs.count) {
            vec = calloc(wf.subcfgs.count, sizeof *vec);
            vec_shapes = vector_shapes(&wf);
            wf.vec_width = vector_width;
            wf.vec_interleave = opts->interleave;
            wf.vec_shapes = vec_shapes;
            wf.vec_reports = vec;
        }
        ok = weft_wgloops_build(&wf, diag);
        bool any_vec = false;
        for (unsigned v = 0; ok && vec && v < subcfg_count; v++)
            any_vec |= vec[v].vectorized;
        /* sub-group kernels keep their vectorized sub-groups whatever the size */
        if (ok && any_vec && too_large && sg_width == 1) {
            unsigned long size = count_instructions(wf.fn), limit = vectorized_size_limit(kernel_size);
            if (size > limit) {
                snprintf(too_large, too_large_size,
                         "vectorization skipped: work-group function too large (%lu instructions > limit %lu; "
                         "the kernel has %lu)", size, limit, kernel_size);
                ok = false;
            }
        }
        /* with sub-groups of W, a sub-CFG left scalar would run them one work-item wide (a
         * sub-CFG run once per group holds only a collective's leader, no sub-group code) */
        for (unsigned s = 0; ok && sg_width > 1 && s < subcfg_count; s++)
            if (!vec || (!vec[s].vectorized && !vec[s].once)) {
                weft_diag_error(diag, "vectorizer: sub-CFG %u of a kernel with sub-groups of %u was not vectorized: %s",
                                s, sg_width, vec ? vec[s].reason : "");
                ok = false;
            }
        if (ok)
            weft_lower_local_atomics(wf.fn);
        if (vec_shapes)
            weft_shapes_free(vec_shapes);
        wf.vec_shapes = NULL;
    }

    LLVMValueRef wg = NULL;
    if (ok && last >= WEFT_WG_STAGE_ALL) {
        ok = build_abi_wrapper(&wf, &lay, &wg, diag);
        if (ok && !weft_inline_all_calls(m, wg, diag)) {
            LLVMDeleteFunction(wg);   /* it still calls the work function */
            wg = NULL;
            ok = false;
        }
        if (ok) {
            LLVMDeleteFunction(wf.fn);
            wf.fn = NULL;
        }
    }
    if (ok) {
        LLVMValueRef marker = LLVMGetNamedFunction(m, WEFT_IMPLICIT_BARRIER_NAME);
        if (marker && !LLVMGetFirstUse(marker))
            LLVMDeleteFunction(marker);
        out->fn = wg ? wg : wf.fn;
        out->static_local_size = wf.static_local_size;
        out->scratch_size = wf.scratch_size;
        out->privatized_arrays = wf.privatized;
        out->uniform_slots = wf.uniform_slots;
        out->recomputed = wf.recomputed;
        out->affine_bases = wf.affine_bases;
        out->subcfg_count = subcfg_count;
        out->schedule = sched;
        out->vec = vec;
        vec = NULL;
        out->uses_sub_groups = uses_sg;
        out->sub_group_width = sg_width;
        char *msg = NULL;
        if (LLVMVerifyFunction(out->fn, LLVMReturnStatusAction)) {
            size_t n = 0;
            LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
            weft_diag_error(diag, "internal error: the work-group function for %s is not valid IR: %.400s",
                            LLVMGetValueName2(kernel, &n), msg ? msg : "");
            /* leave the module as it was, so that the caller may build again differently */
            LLVMDeleteFunction(out->fn);
            out->fn = NULL;
            ok = false;
        }
        LLVMDisposeMessage(msg);
    } else if (wf.fn) {
        /* leave the module as it was */
        LLVMDeleteFunction(wf.fn);
    }
    free(vec);
    weft_workfn_dispose(&wf);
    weft_arglayout_free(&lay);
    return ok;
}

bool weft_build_wg_function_until(LLVMModuleRef m, LLVMValueRef kernel, const struct weft_wg_options *opts,
                                  enum weft_wg_stage last, struct weft_wg_result *out,
                                  struct weft_diag *diag)
{
    struct weft_wg_options o = *opts;
    char too_large[sizeof out->vec->reason] = "";
    bool schedule_broken = false;
    bool ok = build_once(m, kernel, &o, last, out, diag, too_large, sizeof too_large, &schedule_broken);
    if (schedule_broken) {
        /* a bug in breadth-first scheduling (see build_once): the depth-first loops instead,
         * the simpler form every kernel has (a failed build leaves the module as it was) */
        o.schedule = WEFT_SCHEDULE_DFO;
        ok = build_once(m, kernel, &o, last, out, diag, too_large, sizeof too_large, &schedule_broken);
    }
    if (!ok && too_large[0]) {
        /* the vectorized function was too large: the scalar work-item loops instead, and every
         * sub-CFG's report says why */
        o.vector_width = 0;
        if (!build_once(m, kernel, &o, last, out, diag, NULL, 0, &schedule_broken))
            return false;
        out->vec = calloc(out->subcfg_count ? out->subcfg_count : 1, sizeof *out->vec);
        if (!out->vec) {
            weft_diag_error(diag, "out of memory");
            return false;
        }
        for (unsigned s = 0; s < out->subcfg_count; s++)
            snprintf(out->vec[s].reason, sizeof out->vec[s].reason, "%s", too_large);
        out->vectorization_skipped = true;
        ok = true;
    }
    out->schedule_fell_back = ok && o.schedule != opts->schedule;
    return ok;
}

bool weft_build_wg_function(LLVMModuleRef m, LLVMValueRef kernel, const struct weft_wg_options *opts,
                            struct weft_wg_result *out, struct weft_diag *diag)
{
    return weft_build_wg_function_until(m, kernel, opts, WEFT_WG_STAGE_ALL, out, diag);
}
