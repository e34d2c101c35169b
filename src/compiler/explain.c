/* compiler/explain.c — the decisions of the kernel compiler for one kernel and local size, read
 * back from the passes themselves (see explain.h).
 *
 * Two runs, each in its own LLVMContext:
 *   1. decisions: the passes of transform/passes.h in the order wgfunction.c runs them, stopped
 *      after privatization, so that their intermediate results (the sub-CFG list, the slot
 *      shapes recorded by demotion, the allocas privatization replaced or kept) can be read.
 *      Memory-access shapes come from the shape analysis on the work function just before
 *      demotion, focused on the innermost work-item dimension (what the vectorizer sees).
 *   2. vectorization: the real weft_build_wg_function and the same optimization pipeline as a
 *      variant (globaldce,default<O3>). Before optimizing, every work-item loop's !llvm.loop
 *      gets one more operand naming it (!{!"weft.explain.loop", !"s<sub-CFG>.<dim>"}); LLVM
 *      keeps unknown loop attributes on the vector loop and on the scalar remainder, so after
 *      optimization the loops can be found again. A loop counts as vectorized when its ID has
 *      llvm.loop.isvectorized and its body computes on vectors; the width is the lane count of
 *      the widest non-mask vector in the body. LLVM's remarks, when the process enabled them
 *      (-pass-remarks*=loop-vectorize), are collected through the context's diagnostic handler.
 * Privatization outcomes are read from the IR privatize.c leaves: an alloca that disappeared
 * became a scratch array; a crossing slot whose reloads feed a "recomputed" value was
 * recomputed; any other crossing slot was kept as one uniform scalar. The counts are checked
 * against the pass's own counters and a disagreement is reported, not hidden.
 */
#include "compiler/explain.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/loops.h"
#include "compiler/analysis/print.h"
#include "compiler/analysis/shape.h"
#include "compiler/codegen.h"
#include "compiler/metadata.h"
#include "compiler/narrowids.h"
#include "compiler/narrowmasks.h"
#include "compiler/prefetch.h"
#include "compiler/scalarize.h"
#include "compiler/specialize.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/wgfunction.h"
#include "exec/variant_select.h"

#define LOOP_TAG "weft.explain.loop"
/* line numbers from here on in a remark's location name a work-item loop: base + 4*sub-CFG + dim */
#define REMARK_LINE_BASE 1000000u

/* ---- small helpers ------------------------------------------------------------------------ */

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static char *type_string(LLVMTypeRef t)
{
    char *s = LLVMPrintTypeToString(t);
    char *d = strdup(s ? s : "?");
    LLVMDisposeMessage(s);
    return d;
}

/* Source line (and column) of an instruction in the kernel's file: through inlined helper
 * functions to the outermost call site. 0 without debug info. */
static unsigned src_line(LLVMValueRef inst, unsigned *col)
{
    if (col)
        *col = 0;
    if (!inst || !LLVMIsAInstruction(inst))
        return 0;
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
    if (!loc)
        return 0;
    for (LLVMMetadataRef up; (up = LLVMDILocationGetInlinedAt(loc));)
        loc = up;
    if (col)
        *col = LLVMDILocationGetColumn(loc);
    return LLVMDILocationGetLine(loc);
}

static bool addresses_alloca(LLVMValueRef p)
{
    for (int depth = 0; p && depth < 16; depth++) {
        if (LLVMIsAAllocaInst(p))
            return true;
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
            p = LLVMGetOperand(p, 0);
        else
            return false;
    }
    return false;
}

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Makes room for element n of *arr (elements of `elem` bytes); false when out of memory. */
static bool grow(void **arr, unsigned n, size_t elem)
{
    void *p = realloc(*arr, ((size_t)n + 1) * elem);
    if (!p)
        return false;
    *arr = p;
    return true;
}

/* ---- kernel names ------------------------------------------------------------------------- */

bool weft_explain_kernel_names(const struct weft_bitcode *exe, char ***names, unsigned *count,
                               struct weft_diag *diag)
{
    *names = NULL;
    *count = 0;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m;
    if (!weft_module_parse(ctx, exe->data, exe->size, &m, diag)) {
        LLVMContextDispose(ctx);
        return false;
    }
    bool ok = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && ok; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || !weft_is_kernel(f))
            continue;
        size_t n = 0;
        const char *nm = LLVMGetValueName2(f, &n);
        ok = grow((void **)names, *count, sizeof **names) && ((*names)[*count] = dup_n(nm, n));
        if (ok)
            (*count)++;
    }
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    if (!ok)
        weft_diag_error(diag, "out of memory");
    return ok;
}

/* ---- run 1: sub-CFGs, accesses, privatization --------------------------------------------- */

static int barrier_id(const struct weft_subcfgs *sc, LLVMBasicBlockRef bb)
{
    if (bb == sc->exit_barrier)
        return WEFT_SUBCFG_EXIT_ID;
    for (unsigned i = 0; i < sc->count; i++)
        if (sc->barriers[i] == bb)
            return (int)i;
    return -2;
}

static bool record_subcfgs(const struct weft_subcfgs *sc, struct weft_explain_kernel *out)
{
    out->subcfgs = calloc(sc->count ? sc->count : 1, sizeof *out->subcfgs);
    if (!out->subcfgs)
        return false;
    out->nsubcfgs = sc->count;
    for (unsigned i = 0; i < sc->count; i++) {
        const struct weft_subcfg *s = &sc->s[i];
        struct weft_explain_subcfg *e = &out->subcfgs[i];
        e->id = s->id;
        e->barrier_line = i == 0 ? 0 : src_line(LLVMGetFirstInstruction(s->barrier), NULL);
        e->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof *e->blocks);
        if (!e->blocks)
            return false;
        e->nblocks = s->nblocks;
        for (unsigned k = 0; k < s->nblocks; k++) {
            const char *bn = LLVMGetBasicBlockName(s->blocks[k]);
            e->blocks[k] = strdup(bn && *bn ? bn : "(unnamed)");
            if (!e->blocks[k])
                return false;
            for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[k]); in; in = LLVMGetNextInstruction(in)) {
                unsigned l = src_line(in, NULL);
                if (!l)
                    continue;
                if (!e->line_first || l < e->line_first)
                    e->line_first = l;
                if (l > e->line_last)
                    e->line_last = l;
            }
            LLVMValueRef t = LLVMGetBasicBlockTerminator(s->blocks[k]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned j = 0; j < ns; j++) {
                int id = barrier_id(sc, LLVMGetSuccessor(t, j));
                if (id == -2)
                    continue;
                bool seen = false;
                for (unsigned x = 0; x < e->exits_to_count; x++)
                    seen |= e->exits_to[x] == id;
                if (!seen && e->exits_to_count < 8)
                    e->exits_to[e->exits_to_count++] = id;
            }
        }
    }
    return true;
}

/* Shapes as wgfunction.c computes them: context loads are uniform. */
static struct weft_shapes *shapes_for(struct weft_workfn *wf, int focus_dim)
{
    struct weft_shapes *s = weft_shapes_create(wf->fn, NULL);
    if (!s)
        return NULL;
    unsigned inv = LLVMGetMDKindIDInContext(wf->c, "invariant.load", 14);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsALoadInst(i) && LLVMGetMetadata(i, inv))
                weft_shapes_seed(s, i, (struct weft_shape){WEFT_SHAPE_UNIFORM, 0, NULL});
    weft_shapes_set_local_size(s, wf->local_size);
    if (focus_dim >= 0)
        weft_shapes_set_focus_dim(s, focus_dim);
    weft_shapes_run(s);
    return s;
}

static bool record_accesses(struct weft_workfn *wf, const struct weft_subcfgs *sc, int focus_dim,
                            struct weft_explain_kernel *out)
{
    struct weft_shapes *s = shapes_for(wf, focus_dim);
    if (!s)
        return false;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    bool ok = true;
    for (unsigned si = 0; si < sc->count && ok; si++)
        for (unsigned k = 0; k < sc->s[si].nblocks && ok; k++) {
            LLVMBasicBlockRef bb = sc->s[si].blocks[k];
            /* a block shared by several sub-CFGs is reported with the first */
            bool earlier = false;
            for (unsigned sj = 0; sj < si && !earlier; sj++)
                for (unsigned kk = 0; kk < sc->s[sj].nblocks && !earlier; kk++)
                    earlier = sc->s[sj].blocks[kk] == bb;
            if (earlier)
                continue;
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && ok; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef ptr;
                LLVMTypeRef ty;
                const char *op;
                if (LLVMIsALoadInst(in)) {
                    ptr = LLVMGetOperand(in, 0);
                    ty = LLVMTypeOf(in);
                    op = "load";
                } else if (LLVMIsAStoreInst(in)) {
                    ptr = LLVMGetOperand(in, 1);
                    ty = LLVMTypeOf(LLVMGetOperand(in, 0));
                    op = "store";
                } else if (LLVMIsAAtomicRMWInst(in)) {
                    ptr = LLVMGetOperand(in, 0);
                    ty = LLVMTypeOf(in);
                    op = "atomic";
                } else if (LLVMIsAAtomicCmpXchgInst(in)) {
                    ptr = LLVMGetOperand(in, 0);
                    ty = LLVMTypeOf(LLVMGetOperand(in, 1));
                    op = "atomic";
                } else {
                    continue;
                }
                if (addresses_alloca(ptr))
                    continue;   /* the work-item's own stack: not a memory access of the kernel */
                unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
                /* the launch context (ctx fields) is Weft's, not the kernel's */
                if (LLVMIsALoadInst(in) && LLVMGetMetadata(in, LLVMGetMDKindIDInContext(wf->c, "invariant.load", 14)))
                    continue;
                if (!grow((void **)&out->accesses, out->naccesses, sizeof *out->accesses)) {
                    ok = false;
                    break;
                }
                struct weft_explain_access *a = &out->accesses[out->naccesses++];
                memset(a, 0, sizeof *a);
                a->op = strdup(op);
                a->type = type_string(ty);
                a->addrspace = as;
                a->subcfg = (int)si;
                a->dim = focus_dim;
                a->line = src_line(in, &a->column);
                struct weft_shape sh = weft_shape_of(s, ptr);
                uint64_t esize = LLVMABISizeOfType(td, ty);
                if (sh.kind == WEFT_SHAPE_UNIFORM) {
                    a->cls = WEFT_ACCESS_UNIFORM;
                } else if (sh.kind == WEFT_SHAPE_AFFINE) {
                    int64_t st;
                    a->dim = sh.dim;
                    if (weft_shape_const_stride(sh, &st)) {
                        a->stride = st;
                        a->cls = (uint64_t)st == esize ? WEFT_ACCESS_UNIT : WEFT_ACCESS_STRIDED;
                        if (a->cls == WEFT_ACCESS_STRIDED && sh.dim == 0 && esize && st > 0 &&
                            LLVMGetTypeKind(ty) != LLVMVectorTypeKind && (uint64_t)st % esize == 0 &&
                            (uint64_t)st / esize >= 2 && (uint64_t)st / esize <= WEFT_VEC_STRIDED_MAX)
                            a->cls = WEFT_ACCESS_INTERLEAVED;
                    } else {
                        a->cls = WEFT_ACCESS_STRIDED_VAR;
                    }
                } else {
                    a->cls = WEFT_ACCESS_VARYING;
                }
                ok = a->op && a->type;
            }
        }
    weft_shapes_free(s);
    return ok;
}

/* Sub-CFGs using pointer `v` (derived from an alloca), as privatize.c follows it. */
static void alloca_uses(LLVMValueRef v, const struct weft_ptrmap *membership, uint64_t *mask, bool *escapes,
                        LLVMValueRef *some_user, int depth)
{
    if (depth > 32) {
        *escapes = true;
        return;
    }
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user)) {
            *escapes = true;
            continue;
        }
        *mask |= (uint64_t)weft_ptrmap_get_or(membership, LLVMGetInstructionParent(user), 0);
        if (!*some_user && src_line(user, NULL))
            *some_user = user;
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v)
            *escapes = true;
        else if (LLVMIsAPtrToIntInst(user) || LLVMIsAPHINode(user))
            *escapes = true;
        else if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
                 LLVMIsASelectInst(user))
            alloca_uses(user, membership, mask, escapes, some_user, depth + 1);
    }
}

/* Whether name `s`, without the digits LLVM appends to make names unique, ends with suffix. */
static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    while (a > 0 && s[a - 1] >= '0' && s[a - 1] <= '9')
        a--;
    return a >= b && !strncmp(s + a - b, suffix, b);
}

/* Line of the value a demoted slot holds: the first stored instruction with a location. */
static unsigned slot_value_line(LLVMValueRef slot)
{
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
            unsigned l = src_line(LLVMGetOperand(user, 0), NULL);
            if (!l)
                l = src_line(user, NULL);
            if (l)
                return l;
        }
    }
    return 0;
}

static bool was_recomputed(LLVMValueRef slot)
{
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsALoadInst(user))
            continue;
        LLVMValueRef nx = LLVMGetNextInstruction(user);
        /* privatize.c's recomputation chain after each reload: offset arithmetic, then the
         * value named "recomputed" whose first operand is the reload */
        for (int k = 0; nx && k < 8; k++, nx = LLVMGetNextInstruction(nx)) {
            size_t n = 0;
            const char *nm = LLVMGetValueName2(nx, &n);
            if (n >= 10 && !strncmp(nm, "recomputed", 10) && LLVMGetOperand(nx, 0) == user)
                return true;
        }
    }
    return false;
}

struct alloca_record {
    LLVMValueRef a;
    bool crossing;
    struct weft_explain_private p;
};

static bool record_privatization(struct weft_workfn *wf, struct weft_explain_kernel *out, struct weft_diag *diag)
{
    const struct weft_subcfgs *sc = &wf->subcfgs;
    struct weft_ptrmap membership;   /* block -> sub-CFG mask */
    weft_ptrmap_init(&membership);
    for (unsigned i = 0; i < sc->count; i++)
        for (unsigned k = 0; k < sc->s[i].nblocks; k++) {
            LLVMBasicBlockRef bb = sc->s[i].blocks[k];
            uint64_t m = weft_ptrmap_get_or(&membership, bb, 0) | (1ull << (i < 63 ? i : 63));
            weft_ptrmap_put(&membership, bb, m);
        }
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(wf->fn);
    unsigned n = 0;
    struct alloca_record *rec = NULL;
    const uint64_t reentering = weft_subcfgs_reentering(sc);
    bool ok = true;
    for (LLVMValueRef a = LLVMGetFirstInstruction(entry); a && ok; a = LLVMGetNextInstruction(a)) {
        if (!LLVMIsAAllocaInst(a))
            continue;
        uint64_t mask = 0;
        bool escapes = false;
        LLVMValueRef some_user = NULL;
        alloca_uses(a, &membership, &mask, &escapes, &some_user, 0);
        /* privatize.c's rule, including variables of the program used by a sub-CFG that runs
         * again after its own barrier */
        bool crossing = mask && (popcount64(mask) > 1 || escapes || (mask >> 63) ||
                                 (!weft_ptrmap_has(&wf->demoted, a) && (mask & reentering)));
        if (!crossing)
            continue;
        if (!(ok = grow((void **)&rec, n, sizeof *rec)))
            break;
        struct alloca_record *r = &rec[n++];
        memset(r, 0, sizeof *r);
        r->a = a;
        r->crossing = crossing;
        size_t nl = 0;
        const char *nm = LLVMGetValueName2(a, &nl);
        r->p.name = dup_n(nm, nl);
        LLVMTypeRef ty = LLVMGetAllocatedType(a);
        r->p.type = type_string(ty);
        LLVMValueRef cnt = LLVMGetOperand(a, 0);
        uint64_t elems = LLVMIsAConstantInt(cnt) ? LLVMConstIntGetZExtValue(cnt) : 1;
        r->p.bytes = LLVMABISizeOfType(td, ty) * elems;
        r->p.subcfg_mask = mask;
        r->p.interleaved = weft_privatize_interleaved(a);
        r->p.is_variable = r->p.name && !ends_with(r->p.name, ".slot") && !ends_with(r->p.name, ".phi");
        r->p.line = r->p.is_variable ? src_line(some_user, NULL) : slot_value_line(a);
        const struct weft_slot_info *si = (const void *)weft_ptrmap_get_or(&wf->slot_info, a, 0);
        if (si && si->shape == WEFT_SLOT_AFFINE) {
            r->p.dim = si->dim;
            r->p.stride = si->stride;
        }
        ok = r->p.name && r->p.type;
    }
    weft_ptrmap_free(&membership);
    if (ok)
        ok = weft_privatize(wf, diag);
    if (ok) {
        /* which allocas are left */
        struct weft_ptrmap left;
        weft_ptrmap_init(&left);
        for (LLVMValueRef a = LLVMGetFirstInstruction(entry); a; a = LLVMGetNextInstruction(a))
            if (LLVMIsAAllocaInst(a))
                weft_ptrmap_put(&left, a, 1);
        unsigned arrays = 0, slots = 0, recomputed = 0;
        for (unsigned i = 0; i < n; i++) {
            struct alloca_record *r = &rec[i];
            /* by address and name: privatization may erase an alloca and create another (a
             * double buffer's second copy) at the same address */
            if (!weft_ptrmap_has(&left, r->a) || !r->p.name || strcmp(LLVMGetValueName(r->a), r->p.name) != 0) {
                r->p.kind = WEFT_EXPLAIN_PRIV_ARRAY;
                arrays++;
            } else if (was_recomputed(r->a)) {
                r->p.kind = WEFT_EXPLAIN_PRIV_RECOMPUTED;
                recomputed++;
            } else {
                r->p.kind = WEFT_EXPLAIN_PRIV_SLOT;
                slots++;
            }
        }
        weft_ptrmap_free(&left);
        if (arrays != wf->privatized || slots != wf->uniform_slots || recomputed != wf->recomputed) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "note: explain read %u arrays, %u uniform slots, %u recomputed values; privatization "
                     "counted %u, %u, %u (the per-value list may be inexact)",
                     arrays, slots, recomputed, wf->privatized, wf->uniform_slots, wf->recomputed);
            if (grow((void **)&out->remarks, out->nremarks, sizeof *out->remarks) &&
                (out->remarks[out->nremarks] = strdup(msg)))
                out->nremarks++;
        }
        out->privates = calloc(n ? n : 1, sizeof *out->privates);
        if (!out->privates)
            ok = false;
        for (unsigned i = 0; ok && i < n; i++) {
            out->privates[i] = rec[i].p;
            rec[i].p.name = rec[i].p.type = NULL;
        }
        if (ok)
            out->nprivates = n;
        out->scratch_size = wf->scratch_size;
    }
    for (unsigned i = 0; i < n; i++) {
        free(rec[i].p.name);
        free(rec[i].p.type);
    }
    free(rec);
    return ok;
}

static int innermost_dim(const uint64_t local[3])
{
    for (int d = 0; d < 3; d++)
        if (local[d] > 1)
            return d;
    return -1;
}

static cl_int explain_decisions(const struct weft_bitcode *exe, const char *kernel, const uint64_t local[3],
                                struct weft_explain_kernel *out, struct weft_diag *diag)
{
    cl_int err = CL_OUT_OF_RESOURCES;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    LLVMTargetMachineRef tm = NULL;
    struct weft_workfn wf;
    memset(&wf, 0, sizeof wf);
    bool have_wf = false;
    if (!weft_module_parse(ctx, exe->data, exe->size, &m, diag))
        goto done;
    LLVMValueRef k = LLVMGetNamedFunction(m, kernel);
    if (!k || LLVMIsDeclaration(k) || !weft_is_kernel(k)) {
        err = CL_INVALID_KERNEL_NAME;
        weft_diag_error(diag, "no kernel named '%s' in the program", kernel);
        goto done;
    }
    out->group_blind = !weft_observes_work_group(m, k);
    tm = weft_codegen_host_tm(true, diag);
    if (!tm)
        goto done;
    weft_codegen_set_host(m, tm);
    /* as the runtime's variants see it: ids below 2^31 (compiler/narrowids.h) */
    weft_narrow_ids(m);
    /* the order of weft_build_wg_function_until (wgfunction.c) */
    if (!weft_workfn_create(&wf, m, k, local, diag))
        goto done;
    have_wf = true;
    if (!weft_workitem_lower(&wf, diag) || !weft_lower_wg_collectives(&wf, diag) ||
        !weft_canonicalize_barriers(wf.fn, diag) ||
        !weft_locals_layout(&wf, diag) || !weft_subcfgs_form(wf.fn, &wf.subcfgs, diag))
        goto done;
    out->static_local_size = wf.static_local_size;
    if (!record_subcfgs(&wf.subcfgs, out) || !record_accesses(&wf, &wf.subcfgs, innermost_dim(local), out)) {
        weft_diag_error(diag, "out of memory");
        goto done;
    }
    if (wf.subcfgs.count > 1) {
        struct weft_shapes *shapes = shapes_for(&wf, -1);
        bool ok = weft_demote_values(&wf, shapes, diag);
        if (shapes)
            weft_shapes_free(shapes);
        if (!ok || !record_privatization(&wf, out, diag))
            goto done;
    }
    err = CL_SUCCESS;
done:
    if (have_wf)
        weft_workfn_dispose(&wf);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return err;
}

/* ---- run 2: vectorization ------------------------------------------------------------------ */

struct remark_sink {
    struct weft_explain_kernel *out;
};

/* The work-item loop a remark is about (its location line is synthetic, see tag_loop), and
 * where its message starts; NULL when the remark is about something else. */
static struct weft_explain_loop *remark_loop(struct weft_explain_kernel *out, const char *d, const char **msg)
{
    for (const char *p = strchr(d, ':'); p; p = strchr(p + 1, ':')) {
        unsigned line = 0, col = 0;
        int off = 0;
        if (sscanf(p + 1, "%u:%u: %n", &line, &col, &off) == 2 && off > 0 && line >= REMARK_LINE_BASE) {
            unsigned code = line - REMARK_LINE_BASE;
            for (unsigned i = 0; i < out->nloops; i++)
                if ((unsigned)out->loops[i].subcfg == code / 4 && (unsigned)out->loops[i].dim == code % 4) {
                    *msg = p + 1 + off;
                    return &out->loops[i];
                }
        }
    }
    return NULL;
}

static void remark_handler(LLVMDiagnosticInfoRef di, void *opaque)
{
    struct remark_sink *sink = opaque;
    struct weft_explain_kernel *out = sink->out;
    LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
    if (sev != LLVMDSRemark && sev != LLVMDSWarning)
        return;
    char *d = LLVMGetDiagInfoDescription(di);
    /* the loop vectorizer's account only ("vectorized loop", "loop not vectorized", ...) */
    if (!d || !strstr(d, "vectoriz")) {
        LLVMDisposeMessage(d);
        return;
    }
    const char *msg = NULL;
    struct weft_explain_loop *l = remark_loop(out, d, &msg);
    if (l) {
        unsigned w = 0, ic = 0;
        if (sscanf(msg, "vectorized loop (vectorization width: %u, interleaved count: %u)", &w, &ic) == 2) {
            l->vectorized = true;
            l->width = w;
            l->interleave = ic;
        }
        size_t old = l->remark ? strlen(l->remark) : 0;
        /* a loop the optimizer duplicated (e.g. unswitched) is reported once per copy */
        char *r = l->remark && strstr(l->remark, msg) ? NULL : realloc(l->remark, old + strlen(msg) + 3);
        if (r) {
            sprintf(r + old, "%s%s", old ? "; " : "", msg);
            l->remark = r;
        }
    } else if (out->nremarks < 64 && grow((void **)&out->remarks, out->nremarks, sizeof(char *))) {
        char *c = strdup(d);
        if (c)
            out->remarks[out->nremarks++] = c;
    }
    LLVMDisposeMessage(d);
}

/* The string of MDString operand `v`, or NULL. */
static const char *md_string(LLVMValueRef v, unsigned *len)
{
    if (!v || !LLVMIsAMDString(v))
        return NULL;
    return LLVMGetMDString(v, len);
}

static LLVMMetadataRef loop_tag_node(LLVMContextRef c, const char *tag)
{
    LLVMMetadataRef ops[] = {LLVMMDStringInContext2(c, LOOP_TAG, strlen(LOOP_TAG)),
                             LLVMMDStringInContext2(c, tag, strlen(tag))};
    return LLVMMDNodeInContext2(c, ops, 2);
}

/* Adds !{!"weft.explain.loop", !"s<i>.<d>"} to the loop ID on `br`. */
static void tag_loop(LLVMContextRef c, LLVMValueRef br, unsigned loop_kind, const char *tag, LLVMMetadataRef loc)
{
    LLVMValueRef id = LLVMGetMetadata(br, loop_kind);
    if (!id)
        return;
    unsigned n = LLVMGetMDNodeNumOperands(id);
    LLVMValueRef *ops = calloc(n ? n : 1, sizeof *ops);
    LLVMMetadataRef *nops = calloc(n + 5, sizeof *nops);
    if (!ops || !nops) {
        free(ops);
        free(nops);
        return;
    }
    LLVMGetMDNodeOperands(id, ops);
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(c, NULL, 0);
    nops[0] = tmp;
    for (unsigned i = 1; i < n; i++)
        nops[i] = LLVMValueAsMetadata(ops[i]);
    /* the tag itself, and (as LLVM's follow-up attributes) the tags the vector loop and the
     * scalar remainder get if the loop vectorizer transforms it, each with the attributes the
     * vectorizer would have given them without follow-ups (isvectorized; no runtime unrolling
     * of the remainder), so that the optimization stays that of a real variant */
    char vtag[40], rtag[40];
    snprintf(vtag, sizeof vtag, "%s.v", tag);
    snprintf(rtag, sizeof rtag, "%s.r", tag);
    LLVMMetadataRef tag_md = loop_tag_node(c, tag);
    LLVMMetadataRef isvec_ops[] = {LLVMMDStringInContext2(c, "llvm.loop.isvectorized", 22),
                                   LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), 1, 0))};
    LLVMMetadataRef isvec = LLVMMDNodeInContext2(c, isvec_ops, 2);
    LLVMMetadataRef nounroll_op = LLVMMDStringInContext2(c, "llvm.loop.unroll.runtime.disable", 31);
    LLVMMetadataRef nounroll = LLVMMDNodeInContext2(c, &nounroll_op, 1);
    LLVMMetadataRef fv_ops[] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.followup_vectorized", 39), isvec,
                                loop_tag_node(c, vtag)};
    LLVMMetadataRef fe_ops[] = {LLVMMDStringInContext2(c, "llvm.loop.vectorize.followup_epilogue", 37), isvec, nounroll,
                                loop_tag_node(c, rtag)};
    unsigned at = n ? n : 1;
    nops[at++] = tag_md;
    nops[at++] = LLVMMDNodeInContext2(c, fv_ops, 3);
    nops[at++] = LLVMMDNodeInContext2(c, fe_ops, 4);
    if (loc)
        nops[at++] = loc;   /* the loop's start location: LLVM's remarks about it carry it */
    LLVMMetadataRef nid = LLVMMDNodeInContext2(c, nops, at);
    LLVMMetadataReplaceAllUsesWith(tmp, nid);
    LLVMSetMetadata(br, loop_kind, LLVMMetadataAsValue(c, nid));
    free(ops);
    free(nops);
}

/* Reads a loop ID: the tag (s<i>.<d>) it carries and whether it was vectorized. */
static bool read_loop_id(LLVMValueRef id, int *sub, int *dim, bool *vectorized, bool *vector_loop)
{
    bool tagged = false;
    *vectorized = *vector_loop = false;
    unsigned n = LLVMGetMDNodeNumOperands(id);
    LLVMValueRef *ops = calloc(n ? n : 1, sizeof *ops);
    if (!ops)
        return false;
    LLVMGetMDNodeOperands(id, ops);
    for (unsigned i = 1; i < n; i++) {
        if (!ops[i] || !LLVMIsAMDNode(ops[i]))
            continue;
        unsigned m = LLVMGetMDNodeNumOperands(ops[i]);
        if (m < 1)
            continue;
        LLVMValueRef sub_ops[4] = {0};
        if (m > 4)
            continue;
        LLVMGetMDNodeOperands(ops[i], sub_ops);
        unsigned len = 0;
        const char *s = md_string(sub_ops[0], &len);
        if (!s)
            continue;
        if (len == strlen(LOOP_TAG) && !memcmp(s, LOOP_TAG, len) && m == 2) {
            unsigned tl = 0;
            const char *t = md_string(sub_ops[1], &tl);
            char buf[32];
            if (t && tl < sizeof buf) {
                memcpy(buf, t, tl);
                buf[tl] = 0;
                tagged = sscanf(buf, "s%d.%d", sub, dim) == 2;
                *vector_loop = tagged && strstr(buf, ".v") != NULL;
            }
        } else if (len == 22 && !memcmp(s, "llvm.loop.isvectorized", 22)) {
            *vectorized = true;
        }
    }
    free(ops);
    return tagged;
}

static unsigned vector_lanes(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return 0;
    LLVMTypeRef el = LLVMGetElementType(t);
    if (LLVMGetTypeKind(el) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(el) == 1)
        return 0;   /* masks */
    return LLVMGetVectorSize(t);
}

/* spir_kernel is not a convention the x86 backend knows (as specialize.c does). */
static void demote_kernels(LLVMModuleRef m, LLVMValueRef keep)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv || LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv) {
            LLVMSetFunctionCallConv(f, LLVMCCallConv);
            for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
                if (LLVMIsACallInst(LLVMGetUser(u)))
                    LLVMSetInstructionCallConv(LLVMGetUser(u), LLVMCCallConv);
        }
        if (f != keep && !LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
}

static cl_int explain_vectorization(const struct weft_bitcode *exe, const char *kernel, const uint64_t local[3],
                                    struct weft_explain_kernel *out, struct weft_diag *diag)
{
    cl_int err = CL_OUT_OF_RESOURCES;
    LLVMContextRef ctx = LLVMContextCreate();
    struct remark_sink sink = {out};
    LLVMContextSetDiagnosticHandler(ctx, remark_handler, &sink);
    LLVMModuleRef m = NULL;
    LLVMTargetMachineRef tm = NULL;
    struct weft_cfg *cfg = NULL;
    struct weft_domtree *dom = NULL;
    struct weft_loops *loops = NULL;
    if (!weft_module_parse(ctx, exe->data, exe->size, &m, diag))
        goto done;
    LLVMValueRef k = LLVMGetNamedFunction(m, kernel);
    if (!k || !weft_is_kernel(k)) {
        err = CL_INVALID_KERNEL_NAME;
        goto done;
    }
    tm = weft_codegen_host_tm(true, diag);
    if (!tm)
        goto done;
    weft_codegen_set_host(m, tm);
    struct weft_wg_options wopts = {0};
    memcpy(wopts.local_size, local, sizeof wopts.local_size);
    weft_vector_setting(k, &wopts.vector_width, &wopts.interleave);
    /* what runs first: under auto, the depth-first variant (the runtime profiles the other) */
    out->schedule_mode = (int)weft_schedule_setting();
    {
        /* Kim's class table, from the kernel as it is before the work-group passes */
        char *text = NULL;
        size_t len = 0;
        FILE *ms = open_memstream(&text, &len);
        if (ms) {
            weft_analysis_print("locality", k, ms);
            fclose(ms);
            if (text && strstr(text, "  loop "))
                out->locality = text;
            else
                free(text);
        }
    }
    /* the variant a launch runs first */
    out->variant_forced = weft_variant_first(false, &out->variant);
    wopts.schedule = out->variant.schedule;
    if (out->variant.code == WEFT_CODE_SCALAR)
        wopts.vector_width = 0;
    if (out->variant.code == WEFT_CODE_X2 && !wopts.interleave)
        wopts.interleave = 2;
    struct weft_wg_result res = {0};
    if (!out->variant.wide_ids)
        weft_narrow_ids(m);
    out->prefetches = weft_prefetch_grid_strides(k);   /* as the runtime's variants */
    if (wopts.vector_width > 1)
        out->scalarized = weft_scalarize_vector_ops(m, k, wopts.vector_width);
    if (!weft_build_wg_function(m, k, &wopts, &res, diag) || !res.fn) {
        weft_wg_result_dispose(&res);
        goto done;
    }
    out->schedule = res.schedule;
    out->schedule_fell_back = res.schedule_fell_back;
    out->uses_sub_groups = res.uses_sub_groups;
    out->sub_group_width = res.sub_group_width;
    out->vec = res.vec;
    out->nvec = res.vec ? res.subcfg_count : 0;
    res.vec = NULL;
    LLVMValueRef fn = res.fn;
    static const char sym[] = "weft_explain_wg";
    LLVMSetValueName2(fn, sym, strlen(sym));
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    LLVMSetFunctionCallConv(fn, LLVMCCallConv);
    demote_kernels(m, fn);

    LLVMMetadataRef scope = LLVMGetSubprogram(k);   /* present with -g */
    /* tag every work-item loop (wgloops.c names its blocks "subcfg<i>.*") */
    unsigned loop_kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    int inner = innermost_dim(local);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        int sub = -1;
        char d = 0;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || !LLVMGetMetadata(t, loop_kind))
            continue;
        /* the back edge goes to the loop's header "subcfg<i>.wi.<x|y|z>" (the latch block
         * itself may have been merged into the body by inlining) */
        unsigned ns = LLVMGetNumSuccessors(t);
        for (unsigned j = 0; j < ns && d == 0; j++)
            if (sscanf(LLVMGetBasicBlockName(LLVMGetSuccessor(t, j)), "subcfg%d.wi.%c", &sub, &d) != 2)
                d = 0;
        if (d != 'x' && d != 'y' && d != 'z')
            continue;
        int dim = d == 'x' ? 0 : d == 'y' ? 1 : 2;
        char tag[32];
        snprintf(tag, sizeof tag, "s%d.%d", sub, dim);
        /* a synthetic line number that names the loop in LLVM's remarks (see remark_loop) */
        LLVMMetadataRef loc = scope ? LLVMDIBuilderCreateDebugLocation(ctx, REMARK_LINE_BASE + (unsigned)sub * 4 + (unsigned)dim,
                                                                       0, scope, NULL)
                                    : NULL;
        tag_loop(ctx, t, loop_kind, tag, loc);
        if (!grow((void **)&out->loops, out->nloops, sizeof *out->loops)) {
            weft_diag_error(diag, "out of memory");
            goto done;
        }
        struct weft_explain_loop *l = &out->loops[out->nloops++];
        memset(l, 0, sizeof *l);
        l->subcfg = sub;
        l->dim = dim;
        l->innermost = dim == inner;
    }
    if (!weft_codegen_run_passes(m, "globaldce,default<O3>", tm, diag))
        goto done;
    out->narrowed = weft_narrow_masked_memops(m);   /* as specialize.c does after optimizing */
    fn = LLVMGetNamedFunction(m, sym);
    if (!fn) {
        weft_diag_error(diag, "internal: the work-group function disappeared during optimization");
        goto done;
    }
    cfg = weft_cfg_build(fn);
    dom = cfg ? weft_dom_compute(cfg) : NULL;
    loops = dom ? weft_loops_compute(cfg, dom) : NULL;
    if (!loops) {
        weft_diag_error(diag, "out of memory");
        goto done;
    }
    for (size_t li = 0; li < loops->count; li++) {
        const struct weft_loop *L = &loops->loops[li];
        int sub = -1, dim = -1;
        bool vec = false, tagged = false, vloop = false;
        for (size_t j = 0; j < L->nlatches && !tagged; j++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[L->latches[j]]);
            LLVMValueRef id = t ? LLVMGetMetadata(t, loop_kind) : NULL;
            if (id)
                tagged = read_loop_id(id, &sub, &dim, &vec, &vloop);
        }
        if (!tagged)
            continue;
        unsigned width = 0;
        for (size_t j = 0; j < L->nblocks; j++) {
            if (loops->innermost[L->blocks[j]] != (int32_t)li)
                continue;   /* in a nested loop */
            for (LLVMValueRef in = LLVMGetFirstInstruction(cfg->blocks[L->blocks[j]]); in;
                 in = LLVMGetNextInstruction(in)) {
                unsigned w = vector_lanes(LLVMTypeOf(in));
                if (LLVMIsAStoreInst(in)) {
                    unsigned sw = vector_lanes(LLVMTypeOf(LLVMGetOperand(in, 0)));
                    w = sw > w ? sw : w;
                }
                width = w > width ? w : width;
            }
        }
        for (unsigned x = 0; x < out->nloops; x++) {
            struct weft_explain_loop *l = &out->loops[x];
            if (l->subcfg != sub || l->dim != dim)
                continue;
            l->survived = true;
            if (vloop && vec && width >= 2) {
                l->vectorized = true;
                if (!l->width)   /* LLVM's remark, when there is one, knows the factor */
                    l->width = width;
            }
        }
    }
    err = CL_SUCCESS;
done:
    if (loops)
        weft_loops_free(loops);
    if (dom)
        weft_dom_free(dom);
    if (cfg)
        weft_cfg_free(cfg);
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return err;
}

/* ---- entry points ------------------------------------------------------------------------- */

cl_int weft_explain_kernel(const struct weft_bitcode *exe, const char *kernel, const uint64_t local_size[3],
                           struct weft_explain_kernel *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->name = strdup(kernel);
    if (!out->name)
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(out->local_size, local_size, sizeof out->local_size);
    cl_int err = explain_decisions(exe, kernel, local_size, out, diag);
    if (err == CL_SUCCESS)
        err = explain_vectorization(exe, kernel, local_size, out, diag);
    return err;
}

void weft_explain_kernel_free(struct weft_explain_kernel *k)
{
    if (!k)
        return;
    free(k->name);
    free(k->vec);
    free(k->locality);
    for (unsigned i = 0; i < k->nsubcfgs; i++) {
        for (unsigned j = 0; j < k->subcfgs[i].nblocks; j++)
            free(k->subcfgs[i].blocks[j]);
        free(k->subcfgs[i].blocks);
    }
    free(k->subcfgs);
    for (unsigned i = 0; i < k->nprivates; i++) {
        free(k->privates[i].name);
        free(k->privates[i].type);
    }
    free(k->privates);
    for (unsigned i = 0; i < k->naccesses; i++) {
        free(k->accesses[i].op);
        free(k->accesses[i].type);
    }
    free(k->accesses);
    for (unsigned i = 0; i < k->nloops; i++)
        free(k->loops[i].remark);
    free(k->loops);
    for (unsigned i = 0; i < k->nremarks; i++)
        free(k->remarks[i]);
    free(k->remarks);
    memset(k, 0, sizeof *k);
}

/* ---- printing ----------------------------------------------------------------------------- */

static const char *space_name(unsigned as)
{
    switch (as) {
    case 1: return "global";
    case 2: return "constant";
    case 3: return "local";
    default: return "private/generic";
    }
}

static void print_lines(FILE *f, unsigned first, unsigned last)
{
    if (!first)
        fprintf(f, "lines ?");
    else if (first == last)
        fprintf(f, "line %u", first);
    else
        fprintf(f, "lines %u-%u", first, last);
}

static void print_mask(FILE *f, uint64_t mask)
{
    const char *sep = "";
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1) {
            fprintf(f, "%s%d", sep, i);
            sep = ",";
        }
}

/* The variants a launch of this kernel can get (compiler/variant.h): the one it runs first,
 * the one the runtime may profile against it (runtime/variant_choice.h weft_choose_variants),
 * and the names WEFT_VARIANT takes. */
static void print_variants(FILE *f, const struct weft_explain_kernel *k)
{
    char name[WEFT_VARIANT_NAME_MAX], other[WEFT_VARIANT_NAME_MAX];
    fprintf(f, "  Variants (WEFT_VARIANT=<name> forces one for every launch):\n");
    bool linearized = false, wide = false;
    for (unsigned i = 0; i < k->nvec; i++) {
        linearized |= k->vec[i].vectorized && k->vec[i].linearized;
        wide |= k->vec[i].vectorized && k->vec[i].wide_items;
    }
    struct weft_variant_spec first = k->variant;
    bool statically = false;
    if (!k->variant_forced && !k->uses_sub_groups &&
        weft_variant_static_scalar(&k->variant, linearized ? k->schedule.row_walks : 0, &first)) {
        fprintf(f, "    runs first: %s (static cost: %u divergent loop%s walk%s a row per work-item, which the "
                   "vectorized code %s runs under lane masks with a gather per access and iteration; not "
                   "profiled against it)\n", weft_variant_name(&first, name), k->schedule.row_walks,
                k->schedule.row_walks == 1 ? "" : "s", k->schedule.row_walks == 1 ? "s" : "",
                weft_variant_name(&k->variant, other));
        linearized = wide = false;   /* the scalar code has no masks, nor packets */
        statically = true;
    } else {
        fprintf(f, "    runs first: %s%s\n", weft_variant_name(&k->variant, name),
                k->variant_forced ? " (forced by WEFT_VARIANT)" : "");
    }
    struct weft_variant_spec cand[2];
    unsigned n = weft_variant_alternatives(&first, k->schedule.votes_bfo > 0, linearized, wide, cand);
    if (k->variant_forced)
        fprintf(f, "    profiled against it: none: WEFT_VARIANT forces the variant\n");
    else if (k->schedule_mode != WEFT_SCHEDULE_AUTO)
        fprintf(f, "    profiled against it: none: WEFT_SCHEDULE fixes the schedule\n");
    else if (k->uses_sub_groups)
        fprintf(f, "    profiled against it: none: the kernel uses sub-groups, whose size must stay what "
                   "clGetKernelSubGroupInfo reported\n");
    else if (!n && statically)
        fprintf(f, "    profiled against it: none: no loop votes breadth-first, and the static cost chose the code\n");
    else if (!n)
        fprintf(f, "    profiled against it: none: no loop votes breadth-first, no code runs under lane masks and "
                   "no work-item's own vector fills a register\n");
    else
        fprintf(f, "    profiled against it: %s (%s; WEFT_PROFILE)\n", weft_variant_name(&cand[0], name),
                cand[0].schedule != first.schedule ? "some loop's locality votes breadth-first"
                : wide ? "the work-items' own vectors fill a SIMD register: side by side, each component "
                         "takes a register"
                       : "the vectorizer ran divergent code under lane masks");
    fprintf(f, "    in a fused chain (WEFT_FUSE): %s\n",
            k->variant_forced ? weft_variant_name(&k->variant, name)
                              : weft_variant_name(&(struct weft_variant_spec){k->variant.schedule, WEFT_CODE_X2,
                                                                              k->variant.wide_ids, 0}, name));
    fprintf(f, "    every name:");
    for (unsigned i = 0; i < WEFT_VARIANT_CHOICES; i++) {
        struct weft_variant_spec v;
        weft_variant_choice(i, &v);
        fprintf(f, " %s", weft_variant_name(&v, name));
    }
    fprintf(f, "; each also with .wide (global ids may pass 2^31 - 2^24; a launch that reaches them always "
               "gets it)\n");
}

void weft_explain_print(FILE *f, const struct weft_explain_kernel *k)
{
    static const char dn[] = "xyz";
    fprintf(f, "kernel %s  (local size %llux%llux%llu)\n", k->name, (unsigned long long)k->local_size[0],
            (unsigned long long)k->local_size[1], (unsigned long long)k->local_size[2]);
    if (k->group_blind)
        fprintf(f, "  work-groups: the kernel cannot tell them apart (no local id or size, group id, barrier or "
                "__local memory): unless it asks for a work-group size, launches run neighbouring groups as "
                "one, up to %u work-items of dimension 0, and split few long groups into smaller ones for "
                "the threads\n", WEFT_BLIND_GROUP_X);

    if (k->uses_sub_groups)
        fprintf(f, "  sub-groups: %u work-item%s each (%s)\n", k->sub_group_width, k->sub_group_width == 1 ? "" : "s",
                k->sub_group_width > 1 ? "the vectorizer's lanes" : "the work-group is not vectorized in whole rows "
                                                                    "of W lanes");
    fprintf(f, "  sub-CFGs: %u (barrier-free regions, one work-item loop nest each)\n", k->nsubcfgs);
    for (unsigned i = 0; i < k->nsubcfgs; i++) {
        const struct weft_explain_subcfg *s = &k->subcfgs[i];
        fprintf(f, "    sub-CFG %d  ", s->id);
        if (s->id == 0)
            fprintf(f, "from the kernel entry");
        else if (s->barrier_line)
            fprintf(f, "after barrier %d (line %u)", s->id, s->barrier_line);
        else
            fprintf(f, "after barrier %d", s->id);
        fprintf(f, ", ");
        print_lines(f, s->line_first, s->line_last);
        fprintf(f, ", %u block%s; continues at ", s->nblocks, s->nblocks == 1 ? "" : "s");
        for (unsigned j = 0; j < s->exits_to_count; j++)
            if (s->exits_to[j] == WEFT_SUBCFG_EXIT_ID)
                fprintf(f, "%sthe kernel exit", j ? " or " : "");
            else
                fprintf(f, "%ssub-CFG %d", j ? " or " : "", s->exits_to[j]);
        fprintf(f, "\n      blocks:");
        unsigned unnamed = 0;
        for (unsigned j = 0; j < s->nblocks; j++)
            if (strcmp(s->blocks[j], "(unnamed)"))
                fprintf(f, " %s", s->blocks[j]);
            else
                unnamed++;
        if (unnamed)
            fprintf(f, " and %u unnamed", unnamed);
        fprintf(f, "\n");
    }

    if (k->nsubcfgs <= 1) {
        fprintf(f, "  privatized: nothing (no barrier: every value stays in the work-item's registers)\n");
    } else if (!k->nprivates) {
        fprintf(f, "  privatized: nothing lives across a barrier\n");
    } else {
        fprintf(f, "  privatized (live across barriers; scratch %llu bytes per work-group):\n",
                (unsigned long long)k->scratch_size);
        for (unsigned i = 0; i < k->nprivates; i++) {
            const struct weft_explain_private *p = &k->privates[i];
            fprintf(f, "    %%%s  %s  %s", p->name, p->type, p->is_variable ? "private variable" : "value");
            if (p->line)
                fprintf(f, " of line %u", p->line);
            fprintf(f, ", used in sub-CFGs ");
            print_mask(f, p->subcfg_mask);
            fprintf(f, "\n      -> ");
            switch (p->kind) {
            case WEFT_EXPLAIN_PRIV_SLOT:
                fprintf(f, "uniform: one scalar slot shared by the work-group\n");
                break;
            case WEFT_EXPLAIN_PRIV_RECOMPUTED:
                fprintf(f, "affine (stride %lld in local id %c): uniform base kept, recomputed per work-item\n",
                        (long long)p->stride, dn[p->dim >= 0 && p->dim < 3 ? p->dim : 0]);
                break;
            case WEFT_EXPLAIN_PRIV_ARRAY:
                fprintf(f, "array: %llu bytes x %llu work-items in scratch%s\n", (unsigned long long)p->bytes,
                        (unsigned long long)(k->local_size[0] * k->local_size[1] * k->local_size[2]),
                        p->interleaved ? ", element by element (neighbours' copies of an element side by side)" : "");
                break;
            }
        }
    }

    if (!k->naccesses) {
        fprintf(f, "  memory accesses: none\n");
    } else {
        fprintf(f, "  memory accesses (shape across work-items of the innermost work-item loop):\n");
        for (unsigned i = 0; i < k->naccesses; i++) {
            const struct weft_explain_access *a = &k->accesses[i];
            fprintf(f, "    ");
            if (a->line)
                fprintf(f, "line %u:%u  ", a->line, a->column);
            fprintf(f, "%s %s %s  sub-CFG %d  ", a->op, space_name(a->addrspace), a->type, a->subcfg);
            char d = dn[a->dim >= 0 && a->dim < 3 ? a->dim : 0];
            switch (a->cls) {
            case WEFT_ACCESS_UNIFORM:
                fprintf(f, "uniform (one address for all work-items)\n");
                break;
            case WEFT_ACCESS_UNIT:
                fprintf(f, "unit stride along %c (%lld bytes: contiguous, vector load/store)\n", d, (long long)a->stride);
                break;
            case WEFT_ACCESS_STRIDED:
                fprintf(f, "strided along %c (%lld bytes per work-item: gather/scatter)\n", d, (long long)a->stride);
                break;
            case WEFT_ACCESS_INTERLEAVED:
                fprintf(f, "strided along %c (%lld bytes per work-item: full packets in vector accesses and a "
                           "shuffle, masked ones gather/scatter)\n", d, (long long)a->stride);
                break;
            case WEFT_ACCESS_STRIDED_VAR:
                fprintf(f, "strided along %c by a run-time uniform value (gather/scatter)\n", d);
                break;
            case WEFT_ACCESS_VARYING:
                fprintf(f, "varying (data-dependent address: gather/scatter)\n");
                break;
            }
        }
    }

    if (k->schedule.count) {
        const struct weft_schedule_report *r = &k->schedule;
        fprintf(f, "  Work-item schedule per kernel loop (WEFT_SCHEDULE=%s; Kim's locality votes: accesses "
                   "that walk the work-items more cheaply than the loop vote breadth-first):\n",
                weft_schedule_mode_name((enum weft_schedule_mode)k->schedule_mode));
        for (unsigned i = 0; i < r->count && i < WEFT_SCHEDULE_MAX_REPORTED; i++) {
            const struct weft_schedule_loop *l = &r->loop[i];
            fprintf(f, "    loop %s: votes bfo %u, dfo %u, neutral %u -> %s%s%s%s%s\n", l->header, l->votes_bfo,
                    l->votes_dfo, l->votes_neutral, l->bfo ? "breadth-first" : "depth-first",
                    l->predicated ? " (predicated)" : "", l->note ? "; " : "", l->note ? l->note : "",
                    l->row_walk ? "; walks a row per work-item (L1 WX) with a trip count of its own" : "");
        }
        if (k->locality) {
            /* the dump's loops and accesses, under a heading of our own */
            const char *body = strchr(k->locality, '\n');
            fprintf(f, "    stride classes of each loop's accesses (L: along the loop, W: along the work-items of "
                       "each dimension in use; 0, 1 element, X other):\n");
            for (const char *line = body ? body + 1 : ""; *line;) {
                const char *end = strchr(line, '\n');
                int n = end ? (int)(end - line) : (int)strlen(line);
                fprintf(f, "    %.*s\n", n, line);
                line = end ? end + 1 : line + n;
            }
        }
        if (k->schedule_fell_back)
            fprintf(f, "    breadth-first scheduling left invalid IR (a Weft bug; please report it): every loop "
                       "of this variant runs depth-first\n");
        if (k->schedule_mode == WEFT_SCHEDULE_AUTO && r->votes_bfo)
            fprintf(f, "    auto: depth-first runs first; the first two launches with at least %u work-groups "
                       "(and %u per thread) also time the breadth-first variant on some of their groups, and the faster is kept "
                       "(WEFT_PROFILE; WEFT_LOG=info shows the choice)\n", WEFT_SELECT_MIN_GROUPS,
                    WEFT_SELECT_GROUPS_PER_THREAD);
    }
    print_variants(f, k);
    if (k->prefetches)
        fprintf(f, "  software prefetch: %u load(s) of grid-stride loops, %d iterations ahead (compiler/prefetch.h)\n",
                k->prefetches, WEFT_PREFETCH_AHEAD);
    if (k->narrowed)
        fprintf(f, "  masked loads and stores of a constant run of lanes made plain after optimizing: %u "
                   "(x86 forwards those to the next step of a tree reduction; compiler/narrowmasks.h)\n",
                k->narrowed);
    if (k->nvec) {
        fprintf(f, "  Weft's vectorizer (work-items of dimension x side by side, per sub-CFG):\n");
        if (k->scalarized == WEFT_SCALARIZE_SPLIT)
            fprintf(f, "    a work-item's vector arithmetic split into components first: one vector of lanes "
                       "per component\n");
        else if (k->scalarized == WEFT_SCALARIZE_KEPT_WIDE)
            fprintf(f, "    a work-item's vector arithmetic kept whole: its vectors are as wide as a SIMD register "
                       "(register-wide work-items)\n");
        for (unsigned i = 0; i < k->nvec; i++) {
            const struct weft_vec_report *v = &k->vec[i];
            fprintf(f, "    sub-CFG %u: ", i);
            if (v->once) {
                fprintf(f, "no work-item loop: %s\n", v->reason);
                continue;
            }
            if (!v->vectorized) {
                fprintf(f, "scalar work-item loop: %s\n", v->reason);
                continue;
            }
            fprintf(f, "vectorized, width %u x interleave %u (%u work-items per packet)", v->width, v->interleave,
                    v->width * v->interleave);
            if (v->linearized) {
                fprintf(f, ", divergent control flow linearized under masks (%u masked blocks, empty ones skipped)%s",
                        v->masked_blocks,
                        v->fast_path ? "; full packets run unmasked until their lanes first disagree" : "");
                if (v->scalar_agree)
                    fprintf(f, " (%u branch%s on a work-item id against a uniform value decided from the packet's "
                               "first and last ids)",
                            v->scalar_agree, v->scalar_agree == 1 ? "" : "es");
                if (v->final_guards)
                    fprintf(f, "; %u of them end%s the packet loop when a packet's lanes all fail %s and the "
                               "later work-items would too (nothing else of theirs lasts)",
                            v->final_guards, v->final_guards == 1 ? "s" : "", v->final_guards == 1 ? "it" : "them");
            } else {
                fprintf(f, ", uniform control flow kept as branches");
            }
            if (v->tail)
                fprintf(f, ", masked tail packet of %llu",
                        (unsigned long long)(k->local_size[0] % (v->width * v->interleave)));
            fprintf(f, "\n      memory: %u vector, %u scalar (uniform address), %u gather/scatter; %u lane by lane\n",
                    v->vector_mem, v->scalar_mem, v->gathers, v->serialized);
            if (v->choices)
                fprintf(f, "      %u load%s from one of two contiguous places: two masked vector loads and a blend each\n",
                        v->choices, v->choices == 1 ? "" : "s");
            if (v->remat)
                fprintf(f, "      %u of the lane-by-lane accesses to __local memory take%s each lane's address from "
                           "scalars (its element of __global memory loaded again), not from a vector of addresses\n",
                        v->remat, v->remat == 1 ? "s" : "");
            if (v->probed)
                fprintf(f, "      %u of the gathers load%s through a loop counter: one vector load instead when a "
                           "packet's addresses are consecutive (tested per packet)\n",
                        v->probed, v->probed == 1 ? "s" : "");
            if (v->row_groups)
                fprintf(f, "      %u row group%s: consecutive loads along each work-item's own row (a loop unrolled "
                           "by %d), read as one vector per lane and transposed in full unmasked packets; a masked "
                           "packet gathers them\n",
                        v->row_groups, v->row_groups == 1 ? "" : "s", WEFT_ROW_UNROLL);
        }
    }
    if (!k->nloops) {
        fprintf(f, "  work-item loops: none left for LLVM (local size 1, or Weft vectorized them)\n");
    } else {
        fprintf(f, "  work-item loops (after LLVM's O3):\n");
        for (unsigned i = 0; i < k->nloops; i++) {
            const struct weft_explain_loop *l = &k->loops[i];
            fprintf(f, "    sub-CFG %d loop over local id %c%s: ", l->subcfg, dn[l->dim], l->innermost ? " (innermost)" : "");
            if (l->vectorized) {
                fprintf(f, "vectorized, width %u", l->width);
                if (l->interleave)
                    fprintf(f, ", interleaved %u", l->interleave);
                if (!l->survived)
                    fprintf(f, " (the vector loop was then fully unrolled)");
            } else if (!l->survived) {
                fprintf(f, "not a loop any more (fully unrolled or folded by the optimizer)");
            } else {
                fprintf(f, "not vectorized");
            }
            if (l->remark)
                fprintf(f, "\n      LLVM: %s", l->remark);
            fprintf(f, "\n");
        }
    }
    if (k->nremarks) {
        fprintf(f, "  other vectorizer remarks (SLP, loops of the kernel, the loop over work-groups):\n");
        for (unsigned i = 0; i < k->nremarks; i++)
            fprintf(f, "    %s\n", k->remarks[i]);
    }
}
