/* compiler/transform/vectorize.c — runs a sub-CFG for packets of P consecutive work-items of
 * dimension 0 at once (see vectorize.h for what the pass guarantees): the packet loop, the
 * tail packet, and the slots the copies share.
 *
 * Assumes: the sub-CFG's blocks are the original blocks of wf->fn (wgloops.c calls the pass
 * instead of its scalar clone); values are either still in SSA form (a kernel without
 * barriers) or demoted to entry-block slots (demote.c, privatize.c); `get_local_id` calls are
 * the per-work-item placeholders; the shapes describe the function as it is, focused on
 * dimension 0.
 *
 * How the copy is made. Every value of the sub-CFG gets a representation per packet: a scalar
 * (uniform values; lane 0 of affine ones) and/or a P-lane vector (varying and affine values).
 * Values that cross blocks, and PHIs, go through stack slots that sroa promotes again (the
 * pass does its own reg2mem so that it never has to repair SSA form): a slot is stored right
 * after its value is defined (PHI slots at the end of each predecessor) and loaded at the top
 * of each block that uses it. With uniform control flow the copy has the sub-CFG's own shape.
 * With divergent control flow it is linearized: the blocks follow a topological order in which
 * each natural loop's blocks are contiguous, header first; each block has a mask slot that its
 * predecessors OR their edge masks into; a block whose mask is empty is skipped; a loop header
 * clears the masks of its loop at the start of every iteration and the loop repeats while its
 * back edges left any lane in the header's mask; stores to value slots are blends, so a lane
 * keeps the value of the last block it really ran.
 *
 * The pass in parts (vectorize_internal.h holds the plan they share):
 *   vectorize_plan.c     the plan: legality, each value's kind, lane-private variables, the
 *                        sub-CFG's loops and linear order (on analysis/'s CFG, dominators and
 *                        loops in sub-CFG mode), the packet size
 *   vectorize_values.c   a packet's values (scalar, vector, per lane) and lane-wise instructions
 *   vectorize_memory.c   loads and stores: vector, scalar, masked, gathers and scatters, loads
 *                        from one of two places, lane-private copies of variables
 *   vectorize_lanes.c    what runs lane by lane (atomics, calls, volatile accesses) and the
 *                        sub-group collectives across a packet's lanes
 *   vectorize_mask.c     control flow: the structured copy, the linearized copy under lane
 *                        masks, and the fast path between them
 *   vectorize_rest.c     final guards: branches after which, once a packet's lanes all fail
 *                        them, the later packets have nothing to do (the loop ends)
 *   vectorize.c          this file: the packet loop and the tail
 */
#include "compiler/transform/vectorize.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdlib.h>

#include "compiler/transform/passes.h"
#include "compiler/transform/vectorize_internal.h"

static void make_slots(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->nvi; x++) {
        struct vinfo *v = &p->vi[x];
        LLVMTypeRef t = LLVMTypeOf(v->v);
        if (!v->cross || LLVMGetTypeKind(t) == LLVMVoidTypeKind)
            continue;
        if (v->kind != K_V)
            v->slot_s = weft_vec_entry_alloca(p, t, "vslot.s");
        if (v->kind != K_U || weft_vec_is_serialized(v->v))
            v->slot_v = weft_vec_entry_alloca(p, weft_vec_vtype(p, t), "vslot.v");
    }
    weft_vec_make_private_copies(p);
    if (p->linear) {
        LLVMTypeRef mt = LLVMVectorType(p->i1, p->P);
        p->bmask = calloc(p->nb, sizeof *p->bmask);
        p->xmask = calloc(p->nexits + 1, sizeof *p->xmask);
        if (!p->bmask || !p->xmask)
            abort();
        for (unsigned k = 0; k < p->nb; k++)
            p->bmask[k] = weft_vec_entry_alloca(p, mt, "mask");
        for (unsigned e = 0; e < p->nexits; e++)
            p->xmask[e] = weft_vec_entry_alloca(p, mt, "exit.mask");
    }
}

/* One packet: the sub-CFG for lanes base .. base+P-1 of which the first `active` are real. */
static void emit_packet(struct weft_vec_plan *p, LLVMBasicBlockRef start, LLVMValueRef base, unsigned active,
                        struct stubs *st)
{
    p->base = base;
    for (unsigned e = 0; e < p->nexits; e++)
        st->bb[e] = NULL;
    p->const_active = (int)active;
    if (p->linear) {
        /* a full packet first runs unmasked, and goes linear where its lanes first disagree */
        bool fast = active == p->P;
        p->mask = NULL;
        weft_vec_emit_linear(p, fast ? NULL : start, fast ? weft_vec_const_mask(p, active) : weft_vec_partial_mask(p, start, active), st);
        if (fast && !p->failed) {
            /* a second copy of the same operations: counted once */
            struct weft_vec_report counted = *p->rep;
            p->mask = NULL;
            p->const_active = (int)active;
            /* what the hand-overs to the linear copy expect (hand_over); promoted to constants */
            LLVMPositionBuilderAtEnd(p->b, start);
            weft_vec_clear_masks(p);
            weft_vec_emit_structured(p, start, st, true);
            counted.scalar_agree = p->rep->scalar_agree;   /* only the fast path has them */
            counted.final_guards = p->rep->final_guards;
            *p->rep = counted;
            p->rep->fast_path = true;
        }
    } else {
        p->mask = active == p->P ? NULL : weft_vec_const_mask(p, active);
        weft_vec_emit_structured(p, start, st, false);
    }
}

bool weft_vectorize_emit(struct weft_vec_plan *p, LLVMBasicBlockRef start, LLVMValueRef iv_y, LLVMValueRef iv_z,
                         LLVMBasicBlockRef done, weft_vec_exit_fn exit_stub, void *opaque,
                         struct weft_vec_report *report)
{
    p->rep = report;
    p->b = LLVMCreateBuilderInContext(p->c);
    p->ivy = iv_y;
    p->ivz = iv_z;
    make_slots(p);
    uint64_t l0 = p->wf->local_size[0];
    uint64_t nfull = l0 / p->P, tail = l0 % p->P;
    LLVMValueRef fn = p->wf->fn;
    struct stubs st = {calloc(p->nexits + 1, sizeof(LLVMBasicBlockRef)), exit_stub, opaque, done};
    if (!st.bb)
        abort();
    LLVMBasicBlockRef tail_start = tail ? LLVMAppendBasicBlockInContext(p->c, fn, "packet.tail") : done;
    if (nfull) {
        LLVMBasicBlockRef hdr = LLVMAppendBasicBlockInContext(p->c, fn, "packet");
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(p->c, fn, "packet.body");
        LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(p->c, fn, "packet.latch");
        LLVMPositionBuilderAtEnd(p->b, start);
        /* a packet that fails a final guard may end the loop (vectorize_rest.c) */
        p->rest_idle = NULL;
        if (p->linear && (nfull > 1 || tail) && weft_vec_has_final_guard(p)) {
            p->rest_idle = weft_vec_entry_alloca(p, p->i1, "packets.idle");
            LLVMBuildStore(p->b, LLVMConstInt(p->i1, 0, 0), p->rest_idle);
        }
        LLVMBuildBr(p->b, hdr);
        LLVMPositionBuilderAtEnd(p->b, hdr);
        LLVMValueRef base = LLVMBuildPhi(p->b, p->i64, "lid.x.packet");
        LLVMBuildBr(p->b, body);
        st.done = latch;
        emit_packet(p, body, base, p->P, &st);
        LLVMPositionBuilderAtEnd(p->b, latch);
        LLVMBasicBlockRef latch_end = latch;
        if (p->rest_idle) {
            /* the later packets, the tail's included, have nothing to do */
            LLVMBasicBlockRef go_on = LLVMAppendBasicBlockInContext(p->c, fn, "packet.latch.more");
            LLVMBuildCondBr(p->b, LLVMBuildLoad2(p->b, p->i1, p->rest_idle, "rest.idle"), done, go_on);
            LLVMPositionBuilderAtEnd(p->b, go_on);
            latch_end = go_on;
        }
        LLVMValueRef next = LLVMBuildNUWAdd(p->b, base, LLVMConstInt(p->i64, p->P, 0), "");
        LLVMValueRef more = LLVMBuildICmp(p->b, LLVMIntULT, next, LLVMConstInt(p->i64, nfull * p->P, 0), "");
        LLVMValueRef br = LLVMBuildCondBr(p->b, more, hdr, tail_start);
        LLVMValueRef zero = LLVMConstInt(p->i64, 0, 0);
        LLVMAddIncoming(base, &zero, &start, 1);
        LLVMAddIncoming(base, &next, &latch_end, 1);
        /* the packet loop is vectorized already: LLVM's loop vectorizer leaves it alone */
        LLVMMetadataRef isvec_ops[] = {LLVMMDStringInContext2(p->c, "llvm.loop.isvectorized", 22),
                                       LLVMValueAsMetadata(LLVMConstInt(p->i32, 1, 0))};
        LLVMMetadataRef isvec = LLVMMDNodeInContext2(p->c, isvec_ops, 2);
        LLVMMetadataRef tmp = LLVMTemporaryMDNode(p->c, NULL, 0);
        LLVMMetadataRef id_ops[] = {tmp, isvec};
        LLVMMetadataRef loop_id = LLVMMDNodeInContext2(p->c, id_ops, 2);
        LLVMMetadataReplaceAllUsesWith(tmp, loop_id);
        LLVMSetMetadata(br, LLVMGetMDKindIDInContext(p->c, "llvm.loop", 9), LLVMMetadataAsValue(p->c, loop_id));
        LLVMMoveBasicBlockAfter(latch, LLVMGetLastBasicBlock(fn));   /* reads like the loop it is */
        if (latch_end != latch)
            LLVMMoveBasicBlockAfter(latch_end, latch);
    } else {
        LLVMPositionBuilderAtEnd(p->b, start);
        LLVMBuildBr(p->b, tail_start);
    }
    if (tail && !p->failed) {
        st.done = done;
        p->rest_idle = NULL;   /* the tail is the last packet: nothing after it to end */
        /* the tail is a second copy of the same operations: count them once */
        struct weft_vec_report counted = *report;
        LLVMMoveBasicBlockAfter(tail_start, LLVMGetLastBasicBlock(fn));
        emit_packet(p, tail_start, LLVMConstInt(p->i64, nfull * p->P, 0), (unsigned)tail, &st);
        if (nfull && !p->failed)
            *report = counted;
    }
    free(st.bb);
    LLVMDisposeBuilder(p->b);
    p->b = NULL;
    report->vectorized = !p->failed;
    if (!p->failed)
        report->reason[0] = 0;
    return !p->failed;
}
