/* compiler/transform/schedule.c — breadth-first scheduling of kernel loops (transform/schedule.h).
 *
 * The predicated form, for a loop with header H, its one outside predecessor O, latches and
 * exit edges E_i -> X_i, optionally under a guard branch B whose side St leads into the loop
 * and whose other side Sf does not:
 *
 *     O:    ... br P                      (was: br H)
 *     P:    act = 1; lai = 0; <H's phis: entry values to their slots>; br Hg
 *     B:    ... br c, St, Pskip           (was: St, Sf)
 *     Pskip: act = 0; exit = SKIP; lai = 0; br Hg
 *     Hg:   k = phi [1, P], [1, Pskip], [k + 1, Lnext]
 *           barrier()                                  ; the scheduling barrier
 *           any = load lai (uniform) >= k - 1; br any, Hb, D
 *     Hb:   br act, H, Lat
 *     H..:  the loop body; H's phis read their slots (a uniform phi: a two-word __local buffer
 *           indexed by k's parity, read and written as agreed uniform accesses); latches
 *           store them and branch to Lat;
 *           an exit edge i goes through Ex_i: exit = i; act = 0; br Lat
 *     Lat:  br act, Lset, Lnext
 *     Lset: lai = k; br Lnext                             ; "someone ran iteration k"
 *     Lnext: br Hg
 *     D:    switch exit: i -> LX_i (br X_i), SKIP -> LSkip (br Sf)
 *
 * `lai` (last active iteration) lives in __local memory, one word per loop. In the sub-CFG after
 * the barrier of iteration k, every work-item first reads it, then active ones write k: the
 * writes only raise it to k >= k - 1, so every work-item reads the same answer to lai >= k - 1,
 * whatever the order the work-items run in. Both entries reset it to 0 before the first barrier
 * (after every read of a previous run of the loop), and k starts at 1, so the first iteration
 * always starts. k is marked !weft.uniform (the shape analysis would call it varying at the
 * guard's join), so the barrier passes keep it in one double-buffered slot (privatize.c).
 */
#include "compiler/transform/schedule.h"

#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/dominators.h"
#include "compiler/analysis/locality.h"
#include "compiler/analysis/shape.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/ssarepair.h"

#define SKIP_EXIT 0xffffu

enum weft_schedule_mode weft_schedule_setting(void)
{
    const char *e = getenv("WEFT_SCHEDULE");
    if (e && strcmp(e, "dfo") == 0)
        return WEFT_SCHEDULE_DFO;
    if (e && strcmp(e, "bfo") == 0)
        return WEFT_SCHEDULE_BFO;
    return WEFT_SCHEDULE_AUTO;
}

const char *weft_schedule_mode_name(enum weft_schedule_mode m)
{
    return m == WEFT_SCHEDULE_DFO ? "dfo" : m == WEFT_SCHEDULE_BFO ? "bfo" : "auto";
}

static void insert_marker(LLVMBuilderRef b, LLVMModuleRef m)
{
    LLVMValueRef f = weft_get_void_fn(m, WEFT_IMPLICIT_BARRIER_NAME);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMIsAPHINode(i))
        i = LLVMGetNextInstruction(i);
    return i;
}

/* Replaces successor `from` of bb's terminator by `to` (every edge). */
static void retarget(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    unsigned n = LLVMGetNumSuccessors(t);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetSuccessor(t, i) == from)
            LLVMSetSuccessor(t, i, to);
}

/* The plain form: the marker at the top of the header. */
static void schedule_plain(LLVMBasicBlockRef header)
{
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(header));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMPositionBuilderBefore(b, first_non_phi(header));
    insert_marker(b, m);
    LLVMDisposeBuilder(b);
}

struct guard {
    LLVMBasicBlockRef block, away;   /* B, and its side Sf that does not lead into the loop */
};

/* Whether the guard's shape allows the predicated form: a two-way branch one of whose sides
 * (St, reached only from B) dominates the preheader O and always enters the loop (the header
 * post-dominates St), or B is O. NULL when it does, else why not. Post-dominance by O is not
 * enough: a (uniform) branch at O or between St and O that can skip the loop lets St's
 * work-items pass by the skeleton while the other side's wait at its barrier (tools/fuzz
 * class D: `if (c) ... else if (get_group_id(0) < 2) loop`, the else block both St and O). */
static const char *find_guard_sides(const struct weft_locality *L, const struct weft_domtree *pdom, int o,
                                    LLVMBasicBlockRef header, struct guard *g)
{
    static const char *const indirect = "the divergent branch around it does not lead straight into it";
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->block);
    int hi = weft_cfg_index(L->cfg, header);
    if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t) || hi < 0)
        return indirect;
    const char *why = indirect;
    for (unsigned s = 0; s < 2; s++) {
        LLVMBasicBlockRef st = LLVMGetSuccessor(t, s), sf = LLVMGetSuccessor(t, 1 - s);
        int sti = weft_cfg_index(L->cfg, st);
        if (L->cfg->blocks[o] == g->block && st == header && sf != header) {
            /* the guard is the preheader: its edge into the loop becomes the edge into P */
            g->away = sf;
            return NULL;
        }
        if (st == sf || sti < 0 || weft_cfg_npred(L->cfg, (size_t)sti) != 1 || !weft_dom_dominates(L->dom, sti, o))
            continue;
        if (weft_dom_dominates(pdom, hi, sti)) {
            g->away = sf;
            return NULL;
        }
        why = "a branch between the divergent branch around it and the loop can skip the loop";
    }
    return why;
}

static LLVMBasicBlockRef new_block(LLVMValueRef fn, const char *name)
{
    return LLVMAppendBasicBlockInContext(LLVMGetTypeContext(LLVMTypeOf(fn)), fn, name);
}

static void schedule_predicated(const struct weft_locality *L, int li, const struct guard *g, unsigned serial,
                                const struct weft_shapes *shapes)
{
    const struct weft_loop *lp = &L->loops->loops[li];
    LLVMBasicBlockRef H = L->cfg->blocks[lp->header];
    LLVMValueRef fn = LLVMGetBasicBlockParent(H);
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    int o = weft_loop_preheader(L->loops, li);
    LLVMBasicBlockRef O = o >= 0 ? L->cfg->blocks[o] : NULL;
    if (!O) {
        /* the one outside predecessor (checked by the caller) */
        const uint32_t *preds = weft_cfg_preds(L->cfg, lp->header);
        for (size_t i = 0; i < weft_cfg_npred(L->cfg, lp->header); i++)
            if (!weft_loop_contains(L->loops, li, (int)preds[i]))
                O = L->cfg->blocks[preds[i]];
    }

    /* per-work-item state, and the group's shared stamp */
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
    LLVMValueRef act = LLVMBuildAlloca(b, i8, "bfo.active");
    LLVMValueRef exit_id = LLVMBuildAlloca(b, i32, "bfo.exit");
    char name[64];
    snprintf(name, sizeof name, "weft.bfo.lai.%u", serial);
    LLVMValueRef lai = LLVMAddGlobalInAddressSpace(m, i64, name, 3);
    LLVMSetLinkage(lai, LLVMInternalLinkage);
    LLVMSetInitializer(lai, LLVMGetUndef(i64));
    LLVMSetAlignment(lai, 8);

    LLVMBasicBlockRef P = new_block(fn, "bfo.pre"), Hg = new_block(fn, "bfo.header"), Hb = new_block(fn, "bfo.body"),
                      Lat = new_block(fn, "bfo.latch"), Lset = new_block(fn, "bfo.stamp"),
                      Lnext = new_block(fn, "bfo.next"), D = new_block(fn, "bfo.dispatch");
    LLVMBasicBlockRef Pskip = g ? new_block(fn, "bfo.skip") : NULL, LSkip = g ? new_block(fn, "bfo.skip.exit") : NULL;

    /* the skeleton's iteration counter first: shared phis index their buffers with it */
    LLVMPositionBuilderAtEnd(b, Hg);
    LLVMValueRef k = LLVMBuildPhi(b, i64, "bfo.iter");
    unsigned md = LLVMGetMDKindIDInContext(c, WEFT_UNIFORM_LOAD_MD, strlen(WEFT_UNIFORM_LOAD_MD));
    /* 1 from both entries, +1 per skeleton iteration: the same for every work-item, although
     * the shape analysis sees a phi at the join of the guard */
    LLVMSetMetadata(k, md, LLVMMDNodeInContext(c, NULL, 0));

    /* H's phis. A uniform one (a counter: the same value for every work-item that runs the
     * iteration) goes through a two-word __local buffer indexed by the iteration's parity: read
     * buf[k & 1] at H, written buf[(k + 1) & 1] at the latches, so the reads of one sub-CFG never
     * see its writes and every work-item, active or not, reads one value (marked uniform: the
     * vectorizer keeps it scalar and addresses built on it affine). The others go through a
     * private slot: entry value stored in P, latch values at the latches. */
    LLVMValueRef at = first_non_phi(H);
    LLVMPositionBuilderAtEnd(b, P);
    unsigned nshared = 0;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(H), next; phi && LLVMIsAPHINode(phi); phi = next) {
        next = LLVMGetNextInstruction(phi);
        LLVMTypeRef ty = LLVMTypeOf(phi);
        LLVMBuilderRef eb = LLVMCreateBuilderInContext(c);
        bool shared = shapes && weft_shape_is_uniform(weft_shape_of(shapes, phi));
        LLVMValueRef slot;
        if (shared) {
            snprintf(name, sizeof name, "weft.bfo.phi.%u.%u", serial, nshared++);
            slot = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(ty, 2), name, 3);
            LLVMSetLinkage(slot, LLVMInternalLinkage);
            LLVMSetInitializer(slot, LLVMGetUndef(LLVMArrayType2(ty, 2)));
        } else {
            LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
            slot = LLVMBuildAlloca(eb, ty, "bfo.phi");
        }
        for (unsigned n = 0; n < LLVMCountIncoming(phi); n++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, n);
            LLVMValueRef v = LLVMGetIncomingValue(phi, n);
            LLVMBuilderRef sb = from == O ? b : eb;
            if (from != O)
                LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(from));
            LLVMValueRef dst = slot;
            if (shared) {
                /* entry: iteration 1 reads buf[1]; a latch of iteration k feeds k + 1 */
                LLVMValueRef idx = from == O ? LLVMConstInt(i64, 1, 0)
                                             : LLVMBuildAnd(sb, LLVMBuildAdd(sb, k, LLVMConstInt(i64, 1, 0), ""),
                                                            LLVMConstInt(i64, 1, 0), "");
                LLVMValueRef ix[2] = {LLVMConstInt(i64, 0, 0), idx};
                dst = LLVMBuildInBoundsGEP2(sb, LLVMArrayType2(ty, 2), slot, ix, 2, "");
            }
            LLVMValueRef st = LLVMBuildStore(sb, v, dst);
            if (shared)   /* every work-item that stores stores the same value there */
                LLVMSetMetadata(st, md, LLVMMDNodeInContext(c, NULL, 0));
        }
        LLVMPositionBuilderBefore(eb, at);
        LLVMValueRef src = slot;
        if (shared) {
            LLVMValueRef ix[2] = {LLVMConstInt(i64, 0, 0), LLVMBuildAnd(eb, k, LLVMConstInt(i64, 1, 0), "")};
            src = LLVMBuildInBoundsGEP2(eb, LLVMArrayType2(ty, 2), slot, ix, 2, "");
        }
        LLVMValueRef ld = LLVMBuildLoad2(eb, ty, src, "");
        if (shared)
            LLVMSetMetadata(ld, md, LLVMMDNodeInContext(c, NULL, 0));
        LLVMReplaceAllUsesWith(phi, ld);
        LLVMInstructionEraseFromParent(phi);
        LLVMDisposeBuilder(eb);
    }
    LLVMBuildStore(b, LLVMConstInt(i8, 1, 0), act);
    LLVMBuildStore(b, LLVMConstInt(i64, 0, 0), lai);
    LLVMBuildBr(b, Hg);

    /* edges: O -> P, latches -> Lat, exits through Ex_i */
    retarget(O, H, P);
    for (size_t i = 0; i < lp->nlatches; i++)
        retarget(L->cfg->blocks[lp->latches[i]], H, Lat);
    LLVMPositionBuilderAtEnd(b, D);
    LLVMValueRef id = LLVMBuildLoad2(b, i32, exit_id, "bfo.exit.id");
    LLVMBasicBlockRef *landing = malloc((lp->nexiting * 4 + 1) * sizeof *landing);
    unsigned nexit = 0;
    LLVMValueRef sw = NULL;
    LLVMBasicBlockRef first_landing = NULL;
    for (size_t e = 0; e < lp->nexiting; e++) {
        LLVMBasicBlockRef E = L->cfg->blocks[lp->exiting[e]];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(E);
        unsigned ns = LLVMGetNumSuccessors(t);
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef X = LLVMGetSuccessor(t, s);
            int xi = weft_cfg_index(L->cfg, X);
            if (xi < 0 || weft_loop_contains(L->loops, li, xi))
                continue;
            LLVMBasicBlockRef Ex = new_block(fn, "bfo.leave"), LX = new_block(fn, "bfo.exit");
            LLVMSetSuccessor(t, s, Ex);
            LLVMPositionBuilderAtEnd(b, Ex);
            LLVMBuildStore(b, LLVMConstInt(i32, nexit, 0), exit_id);
            LLVMBuildStore(b, LLVMConstInt(i8, 0, 0), act);
            LLVMBuildBr(b, Lat);
            LLVMPositionBuilderAtEnd(b, LX);
            LLVMBuildBr(b, X);
            weft_phis_replace_incoming_block(X, E, LX);
            landing[nexit++] = LX;
            if (!first_landing)
                first_landing = LX;
        }
    }
    LLVMPositionBuilderAtEnd(b, D);
    sw = LLVMBuildSwitch(b, id, g ? LSkip : first_landing, nexit);
    for (unsigned i = 0; i < nexit; i++)
        LLVMAddCase(sw, LLVMConstInt(i32, i, 0), landing[i]);
    free(landing);

    /* the guard's other side joins the skeleton inactive */
    if (g) {
        retarget(g->block, g->away, Pskip);
        LLVMPositionBuilderAtEnd(b, Pskip);
        LLVMBuildStore(b, LLVMConstInt(i8, 0, 0), act);
        LLVMBuildStore(b, LLVMConstInt(i32, SKIP_EXIT, 0), exit_id);
        LLVMBuildStore(b, LLVMConstInt(i64, 0, 0), lai);
        LLVMBuildBr(b, Hg);
        LLVMPositionBuilderAtEnd(b, LSkip);
        LLVMBuildBr(b, g->away);
        weft_phis_replace_incoming_block(g->away, g->block, LSkip);
    }

    /* the skeleton */
    LLVMPositionBuilderAtEnd(b, Hg);
    insert_marker(b, m);
    LLVMValueRef stamp = LLVMBuildLoad2(b, i64, lai, "bfo.stamp");
    LLVMSetMetadata(stamp, md, LLVMMDNodeInContext(c, NULL, 0));
    LLVMValueRef prev = LLVMBuildSub(b, k, LLVMConstInt(i64, 1, 0), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, stamp, prev, "bfo.any"), Hb, D);
    LLVMPositionBuilderAtEnd(b, Hb);
    LLVMValueRef a = LLVMBuildLoad2(b, i8, act, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, a, LLVMConstInt(i8, 0, 0), ""), H, Lat);
    LLVMPositionBuilderAtEnd(b, Lat);
    a = LLVMBuildLoad2(b, i8, act, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, a, LLVMConstInt(i8, 0, 0), ""), Lset, Lnext);
    LLVMPositionBuilderAtEnd(b, Lset);
    LLVMBuildStore(b, k, lai);
    LLVMBuildBr(b, Lnext);
    LLVMPositionBuilderAtEnd(b, Lnext);
    LLVMValueRef k1 = LLVMBuildAdd(b, k, LLVMConstInt(i64, 1, 0), "");
    LLVMBuildBr(b, Hg);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    LLVMBasicBlockRef in_blocks[3] = {P, Lnext, Pskip};
    LLVMValueRef in_vals[3] = {one, k1, one};
    LLVMAddIncoming(k, in_vals, in_blocks, g ? 3 : 2);
    LLVMDisposeBuilder(b);
    weft_ssa_repair(fn);
}

/* One loop is transformed per round (the CFG changes); outer loops first, so that a loop
 * nested in a predicated one finds that loop's activity test as its guard. */
void weft_schedule_loops(LLVMValueRef fn, const uint64_t local_size[3], enum weft_schedule_mode mode,
                         struct weft_schedule_report *report)
{
    struct weft_schedule_report local;
    if (!report)
        report = &local;
    memset(report, 0, sizeof *report);
    if (mode == WEFT_SCHEDULE_DFO && report == &local)
        return;   /* nothing to do and nothing to tell */
    /* headers already decided (by the block they start with) */
    LLVMBasicBlockRef done[64];
    unsigned ndone = 0, serial = 0;
    bool first_round = true;
    for (unsigned round = 0; round < 16; round++) {
        struct weft_locality *L = weft_locality_compute(fn, local_size, true);
        if (!L)
            return;
        struct weft_domtree *pdom = weft_postdom_compute(L->cfg);
        int pick = -1;
        struct guard g = {0};
        bool guarded = false;
        for (size_t i = 0; i < L->count && pick < 0; i++) {
            struct weft_loop_locality *r = &L->loop[i];
            bool seen = false;
            for (unsigned d = 0; d < ndone; d++)
                seen |= done[d] == r->header;
            /* after the first round, loops holding a barrier are the ones scheduled so far */
            if (seen || (!first_round && r->has_barrier))
                continue;
            const char *note = r->not_schedulable;
            const struct weft_loop *lp = &L->loops->loops[i];
            /* the header's predecessors from outside the loop: the predicated form wants one, O */
            unsigned outside = 0;
            int o = -1;
            const uint32_t *preds = weft_cfg_preds(L->cfg, lp->header);
            for (size_t p = 0; p < weft_cfg_npred(L->cfg, lp->header); p++)
                if (!weft_loop_contains(L->loops, (int)i, (int)preds[p])) {
                    outside++;
                    o = (int)preds[p];
                }
            bool needs_pred = r->divergent || r->guards == 1;
            struct guard gi = {r->guard, NULL};
            if (!note && needs_pred && outside != 1)
                note = "its header has several entries";
            if (!note && needs_pred && lp->nexits == 0)
                note = "it never exits";
            if (!note && r->guards == 1)
                note = find_guard_sides(L, pdom, o, L->cfg->blocks[lp->header], &gi);
            bool want = mode == WEFT_SCHEDULE_BFO || (mode == WEFT_SCHEDULE_AUTO && r->prefers_bfo);
            if (ndone < 64)
                done[ndone++] = r->header;
            if (report->count < WEFT_SCHEDULE_MAX_REPORTED) {
                struct weft_schedule_loop *rl = &report->loop[report->count];
                const char *hn = LLVMGetBasicBlockName(r->header);
                if (*hn)
                    snprintf(rl->header, sizeof rl->header, "%.47s", hn);
                else   /* names discarded: the loop's position in the kernel */
                    snprintf(rl->header, sizeof rl->header, "#%u", report->count + 1);
                rl->votes_bfo = r->votes_bfo;
                rl->votes_dfo = r->votes_dfo;
                rl->votes_neutral = r->votes_neutral;
                rl->bfo = !note && want;
                rl->predicated = rl->bfo && needs_pred;
                rl->note = note                   ? note
                           : want                 ? NULL
                           : !r->prefers_bfo      ? "votes DFO"
                                                  : "votes BFO; WEFT_SCHEDULE=dfo, or auto before profiling";
            }
            bool row_walk = false;
            for (size_t a = 0; r->divergent && L->dim_used[0] && a < r->naccesses; a++)
                row_walk |= r->accesses[a].loop == WEFT_STRIDE_1 && r->accesses[a].wi[0] == WEFT_STRIDE_X;
            if (report->count < WEFT_SCHEDULE_MAX_REPORTED)
                report->loop[report->count].row_walk = row_walk;
            report->row_walks += row_walk;
            report->count++;
            if (!note)
                report->schedulable++;
            if (!note && r->prefers_bfo)
                report->votes_bfo++;
            if (!note && want) {
                pick = (int)i;
                g = gi;
                guarded = r->guards == 1;
                report->bfo++;
            }
        }
        if (pick >= 0 && (L->loop[pick].divergent || guarded)) {
            /* the whole group's shapes: which of the loop's phis every work-item agrees on */
            struct weft_shapes *sh = weft_shapes_create(fn, L->loops);
            weft_shapes_set_local_size(sh, local_size);
            weft_shapes_run(sh);
            schedule_predicated(L, pick, guarded ? &g : NULL, serial++, sh);
            weft_shapes_free(sh);
        } else if (pick >= 0) {
            schedule_plain(L->cfg->blocks[L->loops->loops[pick].header]);
        }
        weft_dom_free(pdom);
        weft_locality_free(L);
        first_round = false;
        if (pick < 0)
            break;
    }
    if (serial) {
        /* the predicated form's flags and slots back into SSA values: the barrier passes then
         * see, by liveness, which of them live across the scheduling barrier */
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(LLVMGetGlobalParent(fn), "function(mem2reg)", NULL, o);
        if (e)
            LLVMConsumeError(e);
        LLVMDisposePassBuilderOptions(o);
    }
}
