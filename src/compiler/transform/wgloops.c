/* compiler/transform/wgloops.c — wraps each sub-CFG in a work-item loop nest and chains the
 * nests with a dispatcher (continuation-based synchronization, Meyer §3.3 steps 3-4).
 *
 * Assumes: sub-CFGs formed; with more than one sub-CFG, values demoted (no PHIs, no value used
 * outside its block) and cross-sub-CFG state privatized.
 * Guarantees afterwards:
 *   - every sub-CFG i is cloned once into "subcfg<i>.*" blocks inside a loop nest over the
 *     local ids: dimension 2 outermost, dimension 0 innermost; a dimension whose specialized
 *     local size is 1 gets no loop (its id is 0). The loops are rotated (do-while): a
 *     work-group has at least one work-item;
 *   - get_local_id(d) in the clones is the loop variable of dimension d;
 *   - every work-item loop's latch carries its own !llvm.loop with llvm.loop.parallel_accesses
 *     (the innermost is the one meant for the vectorizer), and every
 *     load/store/memory intrinsic of the sub-CFG body that does not address a stack slot of
 *     the function or a work-item's private copy is in that access group (stack slots shared
 *     by all work-items of a loop must not be declared parallel: sroa removes them before
 *     vectorization anyway; private copies: see mark_parallel);
 *   - with more than one sub-CFG, an i32 "next barrier" slot and a dispatcher block
 *     ("dispatch": switch on it) select the loop nest to run next; each exit of a sub-CFG
 *     towards barrier j stores j; the exit barrier's id (-1) leaves to the `ret`. With one
 *     sub-CFG the nest runs straight from the entry to the `ret`;
 *   - after the nest of a sub-CFG that stores a double-buffered uniform slot (privatize.c), a
 *     ".commit" block copies the slot's `next` into `cur` once, before the dispatcher;
 *   - a sub-CFG that the vectorizer accepts (vectorize.h, when wf->vec_width > 1) has no
 *     dimension-0 loop of its own: the nest over y and z runs the vectorizer's packet loop
 *     instead, with the same exit stubs; its latches carry the same loop ids;
 *   - the original blocks and barrier calls are gone.
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/vectorize.h"

#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nest {
    LLVMBasicBlockRef start;       /* where the dispatcher jumps */
    LLVMBasicBlockRef body_pred;   /* block branching into the cloned entry */
    LLVMBasicBlockRef latch;       /* innermost latch, or the exit target without loops */
    LLVMValueRef iv[3];            /* loop variable per dimension (NULL: constant 0) */
    LLVMValueRef inner_br;         /* innermost latch branch (NULL without loops) */
    LLVMValueRef latch_br[3];      /* every latch branch, innermost first */
    LLVMBasicBlockRef latches[3];  /* innermost first, for block ordering */
    int nlatches;
};

static LLVMBasicBlockRef new_block(LLVMValueRef fn, LLVMContextRef c, const char *fmt, int id, const char *tail)
{
    char name[160];
    snprintf(name, sizeof name, fmt, id, tail);
    return LLVMAppendBasicBlockInContext(c, fn, name);
}

/* Whether a terminator of `sub` carries WEFT_ONCE_MD (passes.h). */
static bool runs_once(const struct weft_subcfg *sub, unsigned once_kind)
{
    for (unsigned k = 0; k < sub->nblocks; k++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(sub->blocks[k]);
        if (t && LLVMGetMetadata(t, once_kind))
            return true;
    }
    return false;
}

/* Builds the loop nest skeleton (headers, latches) for sub-CFG `id`; `pred` is the block that
 * will branch to nest->start, `exit_target` where the finished nest goes. With `once` there
 * is no loop: the body runs once, as work-item 0. */
static void build_nest(struct weft_workfn *wf, int id, LLVMBasicBlockRef pred, LLVMBasicBlockRef exit_target,
                       bool skip_x, bool once, struct nest *nest)
{
    LLVMContextRef c = wf->c;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    memset(nest, 0, sizeof *nest);
    int dims[3], nd = 0;
    for (int d = 2; d >= (skip_x ? 1 : 0); d--)
        if (wf->local_size[d] > 1 && !once)
            dims[nd++] = d;
    static const char *const dn[] = {"x", "y", "z"};

    if (nd == 0) {
        nest->start = nest->body_pred = new_block(wf->fn, c, "subcfg%d%s", id, "");
        nest->latch = exit_target;
        LLVMDisposeBuilder(b);
        return;
    }
    LLVMBasicBlockRef headers[3], latches[3];
    for (int j = 0; j < nd; j++) {
        char tail[16];
        snprintf(tail, sizeof tail, ".wi.%s", dn[dims[j]]);
        headers[j] = new_block(wf->fn, c, "subcfg%d%s", id, tail);
    }
    for (int j = nd - 1; j >= 0; j--) {
        char tail[16];
        snprintf(tail, sizeof tail, ".latch.%s", dn[dims[j]]);
        latches[j] = new_block(wf->fn, c, "subcfg%d%s", id, tail);
    }
    for (int j = 0; j < nd; j++) {
        LLVMPositionBuilderAtEnd(b, headers[j]);
        char nm[16];
        snprintf(nm, sizeof nm, "lid.%s", dn[dims[j]]);
        nest->iv[dims[j]] = LLVMBuildPhi(b, i64, nm);
        if (j + 1 < nd)
            LLVMBuildBr(b, headers[j + 1]);
        /* the innermost header's branch into the body is added by the caller */
    }
    for (int j = nd - 1; j >= 0; j--) {
        LLVMPositionBuilderAtEnd(b, latches[j]);
        LLVMValueRef iv = nest->iv[dims[j]];
        LLVMValueRef nx = LLVMBuildNUWAdd(b, iv, LLVMConstInt(i64, 1, 0), "");
        LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, nx, LLVMConstInt(i64, wf->local_size[dims[j]], 0), "");
        LLVMValueRef br = LLVMBuildCondBr(b, more, headers[j], j > 0 ? latches[j - 1] : exit_target);
        if (j == nd - 1)
            nest->inner_br = br;
        nest->latch_br[nd - 1 - j] = br;
        LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
        LLVMBasicBlockRef from = j > 0 ? headers[j - 1] : pred;
        LLVMAddIncoming(iv, &zero, &from, 1);
        LLVMAddIncoming(iv, &nx, &latches[j], 1);
    }
    for (int j = nd - 1; j >= 0; j--)
        nest->latches[nest->nlatches++] = latches[j];
    nest->start = headers[0];
    nest->body_pred = headers[nd - 1];
    nest->latch = latches[nd - 1];
    LLVMDisposeBuilder(b);
}

/* Is `p` (a pointer operand) an address inside one of the function's own stack slots, or in
 * the work-items' private copies (based on `scratch`, privatize.c's load of ctx->scratch)? */
static bool addresses_alloca(LLVMValueRef p, LLVMValueRef scratch)
{
    for (int depth = 0; p && depth < 16; depth++) {
        if (LLVMIsAAllocaInst(p) || (scratch && p == scratch))
            return true;
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
            p = LLVMGetOperand(p, 0);
        else
            return false;
    }
    return false;
}

/* Puts memory access i into the work-item loop's parallel access group, unless it addresses a
 * stack slot (shared by all work-items of the loop) or a work-item's private copy: LLVM 19's
 * loop vectorizer takes the group for "no dependence at all", not only none across iterations,
 * and moved a load of a private array's element (an interleaved group with a neighbour) above a
 * store to it through a variable index of the same iteration (tools/fuzz seed 690: lc.scalar,
 * bfo.scalar read a[0] before `a[i] = 0` wrote it). */
static void mark_parallel(LLVMValueRef i, unsigned ag_kind, LLVMValueRef ag, LLVMValueRef scratch)
{
    LLVMValueRef ptr = NULL;
    if (LLVMIsALoadInst(i))
        ptr = LLVMGetOperand(i, 0);
    else if (LLVMIsAStoreInst(i))
        ptr = LLVMGetOperand(i, 1);
    else if (LLVMIsAMemIntrinsic(i))
        ptr = LLVMGetOperand(i, 0);
    else
        return;
    if ((LLVMIsAMemCpyInst(i) || LLVMIsAMemMoveInst(i)) && addresses_alloca(LLVMGetOperand(i, 1), scratch))
        return;
    if (LLVMIsAStoreInst(i) || LLVMIsALoadInst(i)) {
        if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic || LLVMGetVolatile(i))
            return;
    }
    if (addresses_alloca(ptr, scratch))
        return;
    LLVMSetMetadata(i, ag_kind, ag);
}

/* The block an exit of sub-CFG `s` towards barrier slot `slot` (0 = the kernel exit, i+1 =
 * barrier i) goes through: records the next barrier (with several sub-CFGs) and continues at
 * `to`. */
static LLVMBasicBlockRef exit_stub(struct weft_workfn *wf, int s, unsigned slot, LLVMValueRef next_slot,
                                   LLVMBasicBlockRef to, const char *kind)
{
    int target = slot == 0 ? WEFT_SUBCFG_EXIT_ID : (int)slot - 1;
    char tail[48];
    if (slot)
        snprintf(tail, sizeof tail, "%s.to.barrier%d", kind, target);
    else
        snprintf(tail, sizeof tail, "%s.to.exit", kind);
    LLVMBasicBlockRef bb = new_block(wf->fn, wf->c, "subcfg%d%s", s, tail);
    LLVMBuilderRef sb = LLVMCreateBuilderInContext(wf->c);
    LLVMPositionBuilderAtEnd(sb, bb);
    if (next_slot)
        LLVMBuildStore(sb, LLVMConstInt(LLVMInt32TypeInContext(wf->c), (unsigned long long)(long long)target, 1),
                       next_slot);
    LLVMBuildBr(sb, to);
    LLVMDisposeBuilder(sb);
    return bb;
}

/* What the vectorizer needs to make exit stubs. */
struct vec_exits {
    struct weft_workfn *wf;
    int s;
    const struct weft_vmap *barrier_id;
    LLVMValueRef next_slot;
};

static LLVMBasicBlockRef vec_exit_stub(void *opaque, LLVMBasicBlockRef barrier, LLVMBasicBlockRef done)
{
    struct vec_exits *x = opaque;
    uintptr_t bid = (uintptr_t)weft_vmap_get(x->barrier_id, barrier);
    return exit_stub(x->wf, x->s, (unsigned)(bid - 1), x->next_slot, done, ".vec");
}

/* Self-referential loop ids on every latch of the nest: !{!self, !{"llvm.loop.parallel_accesses",
 * !ag}}. The outer work-item loops are parallel too (work-items of a sub-CFG never depend on
 * each other): if LLVM fully unrolls a small innermost loop, the next one out can still be
 * vectorized. With `no_unroll`, the innermost loop also says llvm.loop.unroll.disable: O3's
 * full unroller runs before the loop vectorizer and would otherwise dissolve a short
 * dimension-0 loop (local size 16 in x) into scalar code that SLP only partly recovers. The
 * vectorizer keeps the hint on the vector loop, whose trip count is then tiny. */
static void tag_latches(LLVMContextRef c, const struct nest *nest, LLVMMetadataRef ag_md, bool no_unroll)
{
    unsigned loop_kind = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
    for (int j = 0; j < nest->nlatches; j++) {
        LLVMMetadataRef pa_ops[] = {LLVMMDStringInContext2(c, "llvm.loop.parallel_accesses", 27), ag_md};
        LLVMMetadataRef pa = LLVMMDNodeInContext2(c, pa_ops, 2);
        LLVMMetadataRef tmp = LLVMTemporaryMDNode(c, NULL, 0);
        LLVMMetadataRef no_unroll_ops[] = {LLVMMDStringInContext2(c, "llvm.loop.unroll.disable", 24)};
        LLVMMetadataRef nu = LLVMMDNodeInContext2(c, no_unroll_ops, 1);
        LLVMMetadataRef id_ops[] = {tmp, pa, nu};
        LLVMMetadataRef loop_id = LLVMMDNodeInContext2(c, id_ops, j == 0 && no_unroll ? 3 : 2);
        LLVMMetadataReplaceAllUsesWith(tmp, loop_id);
        LLVMSetMetadata(nest->latch_br[j], loop_kind, LLVMMetadataAsValue(c, loop_id));
    }
}

bool weft_wgloops_build(struct weft_workfn *wf, struct weft_diag *diag)
{
    struct weft_subcfgs *sc = &wf->subcfgs;
    LLVMContextRef c = wf->c;
    LLVMValueRef fn = wf->fn;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef exit = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(sc->exit_barrier), 0);
    bool multi = sc->count > 1;
    bool ok = true;

    /* old blocks, to delete at the end */
    unsigned nold = 0;
    LLVMBasicBlockRef *old = weft_function_blocks(fn, &nold);
    struct weft_vmap barrier_id;   /* barrier block -> id + 2 */
    weft_vmap_init(&barrier_id);
    for (unsigned i = 0; i < sc->count; i++)
        weft_vmap_put(&barrier_id, sc->barriers[i], (void *)(uintptr_t)(i + 2));
    weft_vmap_put(&barrier_id, sc->exit_barrier, (void *)(uintptr_t)1);

    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMValueRef next_slot = NULL;
    LLVMBasicBlockRef dispatch = NULL;
    if (multi) {
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        next_slot = LLVMBuildAlloca(b, i32, "next.barrier");
        dispatch = LLVMAppendBasicBlockInContext(c, fn, "dispatch");
    }
    LLVMBasicBlockRef exit_target = multi ? dispatch : exit;
    LLVMBasicBlockRef *starts = calloc(sc->count, sizeof *starts);
    LLVMBasicBlockRef *stubs = calloc(sc->count + 1, sizeof *stubs);   /* [0] = exit */

    /* access group: the uniqued empty node (see DESIGN §3 point 8) */
    unsigned ag_kind = LLVMGetMDKindIDInContext(c, "llvm.access.group", 17);
    unsigned once_kind = LLVMGetMDKindIDInContext(c, WEFT_ONCE_MD, (unsigned)strlen(WEFT_ONCE_MD));
    LLVMMetadataRef ag_md = LLVMMDNodeInContext2(c, NULL, 0);
    LLVMValueRef ag = LLVMMetadataAsValue(c, ag_md);

    for (unsigned s = 0; ok && s < sc->count; s++) {
        struct weft_subcfg *sub = &sc->s[s];
        struct nest nest;
        /* dimension 0 in packets when the vectorizer takes the sub-CFG (vectorize.h) */
        struct weft_vec_plan *plan = NULL;
        bool once = runs_once(sub, once_kind);
        if (once && wf->vec_reports) {
            wf->vec_reports[s].once = true;
            snprintf(wf->vec_reports[s].reason, sizeof wf->vec_reports[s].reason,
                     "runs once per work-group (the leader of a work-group collective)");
        } else if (wf->vec_width > 1 && wf->vec_reports) {
            plan = weft_vectorize_plan(wf, sub, wf->vec_shapes, wf->vec_width, wf->vec_interleave,
                                       &wf->vec_reports[s]);
        }
        /* double-buffered uniform slots this sub-CFG stores: committed once all work-items ran it */
        LLVMBasicBlockRef nest_exit = exit_target;
        for (unsigned k = 0; k < wf->ncommits; k++) {
            const struct weft_slot_commit *cm = &wf->commits[k];
            if (cm->subcfg != s)
                continue;
            if (nest_exit == exit_target) {
                nest_exit = new_block(fn, c, "subcfg%d%s", (int)s, ".commit");
                LLVMPositionBuilderAtEnd(b, nest_exit);
                LLVMBuildBr(b, exit_target);
            }
            LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(nest_exit));
            LLVMBuildStore(b, LLVMBuildLoad2(b, cm->type, cm->next, ""), cm->cur);
        }
        build_nest(wf, (int)s, multi ? dispatch : entry, nest_exit, plan != NULL, once, &nest);
        starts[s] = nest.start;
        memset(stubs, 0, (sc->count + 1) * sizeof *stubs);
        if (plan) {
            struct vec_exits x = {wf, (int)s, &barrier_id, next_slot};
            bool vok = weft_vectorize_emit(plan, nest.body_pred, nest.iv[1], nest.iv[2], nest.latch, vec_exit_stub, &x,
                                           &wf->vec_reports[s]);
            weft_vectorize_plan_free(plan);
            if (!vok) {
                weft_diag_error(diag, "vectorizer: sub-CFG %u: %s", s, wf->vec_reports[s].reason);
                ok = false;
                break;
            }
            for (int j = 0; j < nest.nlatches; j++)
                LLVMMoveBasicBlockAfter(nest.latches[j], LLVMGetLastBasicBlock(fn));
            tag_latches(c, &nest, ag_md, false);
            continue;
        }

        struct weft_vmap map;
        weft_vmap_init(&map);
        LLVMBasicBlockRef *clones = malloc(sub->nblocks * sizeof *clones);
        if (!clones) {
            weft_vmap_free(&map);
            weft_diag_error(diag, "out of memory");
            ok = false;
            break;
        }
        for (unsigned k = 0; k < sub->nblocks; k++) {
            size_t nl = 0;
            const char *bn = LLVMGetBasicBlockName(sub->blocks[k]);
            nl = strlen(bn);
            char tail[100];
            snprintf(tail, sizeof tail, "%s%.*s", nl ? "." : "", (int)(nl > 80 ? 80 : nl), bn);
            clones[k] = new_block(fn, c, "subcfg%d%s", (int)s, tail);
            weft_vmap_put(&map, sub->blocks[k], clones[k]);
        }
        /* instructions (PHIs get their incoming lists after every value is mapped) */
        for (unsigned k = 0; k < sub->nblocks; k++) {
            LLVMPositionBuilderAtEnd(b, clones[k]);
            for (LLVMValueRef i = LLVMGetFirstInstruction(sub->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef ci;
                size_t nl = 0;
                const char *nm = LLVMGetValueName2(i, &nl);
                if (LLVMIsAPHINode(i)) {
                    ci = LLVMBuildPhi(b, LLVMTypeOf(i), "");
                } else {
                    ci = LLVMInstructionClone(i);
                    LLVMInsertIntoBuilder(b, ci);
                }
                if (nl)
                    LLVMSetValueName2(ci, nm, nl);
                weft_vmap_put(&map, i, ci);
            }
        }
        /* operands, successors, PHIs, local ids, access groups */
        for (unsigned k = 0; k < sub->nblocks && ok; k++) {
            LLVMValueRef oi = LLVMGetFirstInstruction(sub->blocks[k]);
            for (LLVMValueRef ci = LLVMGetFirstInstruction(clones[k]); ci && ok;
                 ci = LLVMGetNextInstruction(ci), oi = LLVMGetNextInstruction(oi)) {
                if (LLVMIsAPHINode(ci)) {
                    unsigned n = LLVMCountIncoming(oi);
                    for (unsigned j = 0; j < n; j++) {
                        LLVMValueRef v = LLVMGetIncomingValue(oi, j);
                        LLVMValueRef mv = weft_vmap_get(&map, v);
                        LLVMBasicBlockRef from = LLVMGetIncomingBlock(oi, j);
                        LLVMBasicBlockRef mf = weft_vmap_get(&map, from);
                        if (!mf && from == sub->barrier)
                            mf = nest.body_pred;
                        if (!mf)
                            continue;   /* an edge from outside this sub-CFG cannot be taken here */
                        LLVMValueRef val = mv ? mv : v;
                        LLVMAddIncoming(ci, &val, &mf, 1);
                    }
                    continue;
                }
                int no = LLVMGetNumOperands(ci);
                for (int o = 0; o < no; o++) {
                    LLVMValueRef op = LLVMGetOperand(ci, (unsigned)o);
                    if (!op || LLVMValueIsBasicBlock(op))
                        continue;
                    LLVMValueRef mv = weft_vmap_get(&map, op);
                    if (mv)
                        LLVMSetOperand(ci, (unsigned)o, mv);
                }
                if (LLVMIsATerminatorInst(ci)) {
                    unsigned ns = LLVMGetNumSuccessors(ci);
                    for (unsigned j = 0; j < ns; j++) {
                        LLVMBasicBlockRef succ = LLVMGetSuccessor(ci, j);
                        LLVMBasicBlockRef ms = weft_vmap_get(&map, succ);
                        if (!ms) {
                            uintptr_t bid = (uintptr_t)weft_vmap_get(&barrier_id, succ);
                            if (!bid) {
                                weft_diag_error(diag, "work-item loops: sub-CFG %u leaves to a block outside it", s);
                                ok = false;
                                break;
                            }
                            unsigned slot = (unsigned)(bid - 1);   /* 0 = exit, i+1 = barrier i */
                            if (!stubs[slot])
                                stubs[slot] = exit_stub(wf, (int)s, slot, next_slot, nest.latch, "");
                            ms = stubs[slot];
                        }
                        LLVMSetSuccessor(ci, j, ms);
                    }
                    continue;
                }
                if (nest.inner_br)
                    mark_parallel(ci, ag_kind, ag, wf->scratch_base);
            }
        }
        /* get_local_id(d) -> the loop variable of dimension d (after remapping: users of
         * the clone refer to it only now) */
        for (unsigned k = 0; k < sub->nblocks && ok; k++)
            for (LLVMValueRef ci = LLVMGetFirstInstruction(clones[k]); ci;) {
                LLVMValueRef nx = LLVMGetNextInstruction(ci);
                if (weft_wi_call_kind(ci) == WEFT_WI_LOCAL_ID) {
                    LLVMValueRef d = LLVMGetOperand(ci, 0);
                    if (!LLVMIsAConstantInt(d)) {
                        weft_diag_error(diag, "work-item loops: get_local_id with a variable dimension was not lowered");
                        ok = false;
                        break;
                    }
                    uint64_t dim = LLVMConstIntGetZExtValue(d);
                    LLVMValueRef r = dim < 3 && nest.iv[dim] ? nest.iv[dim] : weft_i64(c, 0);
                    if (LLVMTypeOf(r) != LLVMTypeOf(ci)) {
                        LLVMPositionBuilderBefore(b, ci);
                        r = LLVMBuildIntCast2(b, r, LLVMTypeOf(ci), 0, "");
                    }
                    LLVMReplaceAllUsesWith(ci, r);
                    LLVMInstructionEraseFromParent(ci);
                }
                ci = nx;
            }
        LLVMPositionBuilderAtEnd(b, nest.body_pred);
        LLVMBuildBr(b, clones[0]);   /* blocks[0] is the sub-CFG's entry */
        /* layout: headers, body, latches innermost first (reads like the loop it is) */
        for (int j = 0; j < nest.nlatches; j++)
            LLVMMoveBasicBlockAfter(nest.latches[j], LLVMGetLastBasicBlock(fn));

        tag_latches(c, &nest, ag_md, true);
        free(clones);
        weft_vmap_free(&map);
    }

    if (ok) {
        /* entry: straight into the first nest, or into the dispatcher */
        LLVMValueRef t = LLVMGetBasicBlockTerminator(entry);
        LLVMPositionBuilderBefore(b, t);
        if (multi) {
            LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), next_slot);
            LLVMBuildBr(b, dispatch);
            LLVMBasicBlockRef unreachable = LLVMAppendBasicBlockInContext(c, fn, "dispatch.unreachable");
            LLVMPositionBuilderAtEnd(b, unreachable);
            LLVMBuildUnreachable(b);
            LLVMPositionBuilderAtEnd(b, dispatch);
            LLVMValueRef v = LLVMBuildLoad2(b, i32, next_slot, "next");
            LLVMValueRef sw = LLVMBuildSwitch(b, v, unreachable, sc->count + 1);
            for (unsigned s = 0; s < sc->count; s++)
                LLVMAddCase(sw, LLVMConstInt(i32, s, 0), starts[s]);
            LLVMAddCase(sw, LLVMConstInt(i32, (unsigned long long)(long long)WEFT_SUBCFG_EXIT_ID, 1), exit);
            LLVMMoveBasicBlockAfter(dispatch, entry);
        } else {
            LLVMBuildBr(b, starts[0]);
        }
        LLVMInstructionEraseFromParent(t);

        /* delete the original blocks: first every branch between them, then their values */
        for (unsigned k = 0; k < nold; k++) {
            if (old[k] == entry || old[k] == exit)
                continue;
            LLVMValueRef term = LLVMGetBasicBlockTerminator(old[k]);
            if (term)
                LLVMInstructionEraseFromParent(term);
        }
        for (unsigned k = 0; k < nold; k++) {
            if (old[k] == entry || old[k] == exit)
                continue;
            for (LLVMValueRef i = LLVMGetFirstInstruction(old[k]); i; i = LLVMGetNextInstruction(i))
                if (LLVMGetFirstUse(i))
                    LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
        }
        for (unsigned k = 0; k < nold; k++)
            if (old[k] != entry && old[k] != exit)
                LLVMDeleteBasicBlock(old[k]);
        LLVMMoveBasicBlockAfter(exit, LLVMGetLastBasicBlock(fn));
    }

    LLVMDisposeBuilder(b);
    free(starts);
    free(stubs);
    free(old);
    weft_vmap_free(&barrier_id);
    /* the blocks the sub-CFG list pointed at are gone */
    weft_subcfgs_free(sc);
    return ok;
}
