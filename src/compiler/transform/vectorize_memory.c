/* compiler/transform/vectorize_memory.c — a packet's loads and stores.
 *
 * An access through a uniform address stays one scalar access (a store keeps the last active
 * lane's value); a unit-stride address (affine, stride the size of the type) becomes one vector
 * access, masked under a mask; an address chosen per lane between two unit-stride places
 * becomes two masked loads and a blend; in a full packet, an address stepping 2 to 4 elements
 * per lane becomes that many vector accesses and a shuffle (small_stride); a load through a
 * loop counter is tried as one vector load when the packet's addresses turn out consecutive
 * (emit_probed_load); any other address a masked gather or scatter, with the inactive lanes'
 * addresses made harmless. Lane-private variables (the plan's priv) get one copy per lane: a
 * vector slot for a simple scalar variable, an array of P copies otherwise.
 */
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/shape.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/vectorize_internal.h"

/* The bytes one work-item's value of type t takes in a packet's contiguous memory, or 0 when
 * values of t do not line up back to back (a vector of i1 is packed into bits in memory: only
 * whole-byte elements do). */
static unsigned long long packed_size(struct weft_vec_plan *p, LLVMTypeRef t)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(p->m);
    unsigned long long size = LLVMABISizeOfType(td, t);
    return size == LLVMStoreSizeOfType(td, t) && LLVMSizeOfTypeInBits(td, t) == 8 * size ? size : 0;
}

static bool unit_stride(struct weft_vec_plan *p, LLVMValueRef ptr, LLVMTypeRef t)
{
    struct vinfo *pi = weft_vec_info(p, ptr);
    unsigned long long size = packed_size(p, t);
    return pi && pi->kind == K_A && pi->has_stride && size && (unsigned long long)pi->stride == size;
}

/* The address of every component of every lane: <P x ptr> -> <P*n x ptr> for per-work-item
 * type t (a gather or scatter of vector-typed values). */
static LLVMValueRef component_ptrs(struct weft_vec_plan *p, LLVMValueRef ptrs, LLVMTypeRef t)
{
    unsigned n = weft_vec_ncomp(t);
    if (n == 1)
        return ptrs;
    LLVMValueRef rep = weft_vec_spread(p, ptrs, n, true);
    int esize = (int)LLVMABISizeOfType(LLVMGetModuleDataLayout(p->m), LLVMGetElementType(t));
    LLVMValueRef *e = malloc(sizeof *e * p->P * n);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        for (unsigned j = 0; j < n; j++)
            e[l * n + j] = LLVMConstInt(p->i64, (unsigned long long)j * (unsigned)esize, 0);
    LLVMValueRef off = LLVMConstVector(e, p->P * n);
    free(e);
    return LLVMBuildGEP2(p->b, LLVMInt8TypeInContext(p->c), rep, &off, 1, "");
}

/* The lane addresses of a gather or scatter through `ptr`, every lane defined. Under a mask,
 * a lane that is not active may hold undef: a value slot starts undefined and a masked blend
 * keeps it so in lanes that never run (the tail packet of a local size of 5 leaves 11 of 16);
 * masked loads leave their inactive lanes poison. When a whole register's worth of the
 * address vector is undef, LLVM 19's X86 backend gives the gather an undef index register,
 * which the register allocator may then share with the gather's destination (early-clobber
 * does not hold against undef uses): `vpgatherqd (,%zmm0), %ymm0 {%k1}` faults with #UD on
 * every run, whatever the mask. Freezing is not enough (a frozen undef becomes an
 * IMPLICIT_DEF again); choosing an address for the inactive lanes is. A GEP of a uniform base
 * with one varying index keeps that form, so that the backend still folds the base into the
 * instruction (base + vector index): its index is what gets chosen, 0 for inactive lanes. */
static LLVMValueRef gather_address(struct weft_vec_plan *p, LLVMValueRef ptr)
{
    if (!p->mask)
        return weft_vec_get_vec(p, ptr);
    LLVMValueRef mask = p->mask;
    struct vinfo *gi = weft_vec_info(p, ptr);
    if (gi && weft_vec_valid(p, gi) && LLVMIsAGetElementPtrInst(ptr) && LLVMGetNumOperands(ptr) == 2 &&
        weft_vec_kind_of(p, LLVMGetOperand(ptr, 0)) == K_U && !weft_vec_priv_of(p, LLVMGetOperand(ptr, 0))) {
        LLVMValueRef x = LLVMGetOperand(ptr, 1);
        struct vinfo *xi = weft_vec_info(p, x);
        if (LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMIntegerTypeKind && weft_vec_kind_of(p, x) != K_U && xi && weft_vec_valid(p, xi)) {
            LLVMValueRef xv = weft_vec_get_vec(p, x);
            LLVMValueRef idx = LLVMBuildSelect(p->b, mask, xv, LLVMConstNull(LLVMTypeOf(xv)), "lane.index");
            return LLVMBuildGEPWithNoWrapFlags(p->b, LLVMGetGEPSourceElementType(ptr), weft_vec_get_scal(p, LLVMGetOperand(ptr, 0)),
                                               &idx, 1, "lane.addr", LLVMGEPGetNoWrapFlags(ptr));
        }
    }
    LLVMValueRef ptrs = weft_vec_get_vec(p, ptr);
    return LLVMBuildSelect(p->b, mask, ptrs, LLVMConstNull(LLVMTypeOf(ptrs)), "lane.addr");
}

/* The alignment of one component of an access of type t aligned to `align`. */
static unsigned element_align(struct weft_vec_plan *p, LLVMTypeRef t, unsigned align)
{
    if (weft_vec_ncomp(t) == 1)
        return align;
    unsigned ea = LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(p->m), LLVMGetElementType(t));
    return align && align < ea ? align : ea;
}

/* An access marked !weft.uniform (transform/schedule.c): every active work-item reads or
 * writes the same value at the same place, although the address is computed per work-item. */
static bool agreed_access(struct weft_vec_plan *p, LLVMValueRef i)
{
    return LLVMGetMetadata(i, LLVMGetMDKindIDInContext(p->c, WEFT_UNIFORM_LOAD_MD, strlen(WEFT_UNIFORM_LOAD_MD)));
}

/* The address arithmetic between a choice and the address it makes (choice_places): each step
 * has one operand that carries the chosen value and uniform others, and turns a constant step
 * from lane to lane into another constant step (the shape analysis' rules for affine values). */
enum { CHOICE_CHAIN_MAX = 8 };

/* Which operand of step v carries the value (the others uniform), or -1 when v is no such step. */
static int chain_operand(struct weft_vec_plan *p, LLVMValueRef v)
{
    if (!weft_vec_info(p, v))
        return -1;
    if (LLVMIsAGetElementPtrInst(v))
        return LLVMGetNumOperands(v) == 2 && weft_vec_kind_of(p, LLVMGetOperand(v, 0)) == K_U ? 1 : -1;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMSExt: case LLVMZExt: case LLVMTrunc:
        return 0;
    case LLVMShl: case LLVMAShr: case LLVMLShr:   /* the value shifted, by a uniform amount */
        return weft_vec_kind_of(p, LLVMGetOperand(v, 1)) == K_U ? 0 : -1;
    case LLVMMul: case LLVMAdd: case LLVMSub: case LLVMOr:   /* either side */
        return weft_vec_kind_of(p, LLVMGetOperand(v, 1)) == K_U ? 0 : weft_vec_kind_of(p, LLVMGetOperand(v, 0)) == K_U ? 1 : -1;
    default:
        return -1;
    }
}

/* The step from lane to lane of step v's result when its operand j steps by s; false when it
 * is not a known constant. */
static bool chain_stride(struct weft_vec_plan *p, LLVMValueRef v, int j, int64_t *s)
{
    if (LLVMIsAGetElementPtrInst(v)) {
        LLVMTypeRef et = LLVMGetGEPSourceElementType(v);
        if (!LLVMTypeIsSized(et))
            return false;
        *s *= (int64_t)LLVMABISizeOfType(LLVMGetModuleDataLayout(p->m), et);
        return true;
    }
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc)
        return true;
    LLVMValueRef k = LLVMGetOperand(v, 1 - j);
    int64_t c = LLVMIsAConstantInt(k) ? LLVMConstIntGetSExtValue(k) : 0;
    switch (op) {
    case LLVMAdd:
        return true;
    case LLVMSub:
        *s = j ? -*s : *s;
        return true;
    case LLVMOr:
        return LLVMGetIsDisjoint(v);
    case LLVMMul:
        if (!LLVMIsAConstantInt(k))
            return false;
        *s *= c;
        return true;
    case LLVMShl:
        if (!LLVMIsAConstantInt(k) || c < 0 || c > 32)
            return false;
        *s *= (int64_t)1 << c;
        return true;
    case LLVMAShr: case LLVMLShr:
        if (!LLVMIsAConstantInt(k) || c < 0 || c > 32 || !LLVMGetExact(v) || *s % ((int64_t)1 << c))
            return false;
        *s /= (int64_t)1 << c;
        return true;
    default:
        return false;
    }
}

/* Step v again on `val` in place of its carrying operand j, the other operands at lane 0. No
 * wrap or inbounds flags: a lane that does not choose this place may point anywhere. */
static LLVMValueRef chain_rebuild(struct weft_vec_plan *p, LLVMValueRef v, int j, LLVMValueRef val)
{
    if (LLVMIsAGetElementPtrInst(v))
        return LLVMBuildGEP2(p->b, LLVMGetGEPSourceElementType(v), weft_vec_get_scal(p, LLVMGetOperand(v, 0)), &val, 1, "");
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc)
        return LLVMBuildCast(p->b, op, val, LLVMTypeOf(v), "");
    LLVMValueRef o = weft_vec_get_scal(p, LLVMGetOperand(v, 1 - j));
    return j ? LLVMBuildBinOp(p->b, op, o, val, "") : LLVMBuildBinOp(p->b, op, val, o, "");
}

/* Whether the block being emitted has v (its scalar or vector form, or v itself): a value of
 * another block is there only when it crosses blocks (reloaded from its slot). */
static bool available_here(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct vinfo *vi = weft_vec_info(p, v);
    return !vi || weft_vec_valid(p, vi);
}

/* A load whose address is one of two places chosen per work-item, both contiguous across the
 * packet: select(c, a, b) itself, or address arithmetic on it (HotSpot's clamped neighbour
 * src[c == cols - 1 ? idx : idx + 1] is base + 4 * sext(select(...))). Instead of a gather:
 * one masked vector load per place, each under the lanes that choose it (the lanes that do
 * not may point outside the buffer), and a blend. Fills the two lane-0 addresses and the
 * condition; false for any other address, and where the select was made in another block
 * whose arms or condition do not reach this one (only the select crosses: `r[x > 1 ? i - 2 :
 * i]` loaded under `if (x == 0)`, the select hoisted above the branch). */
static bool choice_places(struct weft_vec_plan *p, LLVMValueRef ptr, LLVMTypeRef t, LLVMValueRef *a, LLVMValueRef *b,
                          LLVMValueRef *cond)
{
    unsigned long long size = packed_size(p, t);
    if (!size)
        return false;
    LLVMValueRef chain[CHOICE_CHAIN_MAX], v = ptr;
    int carry[CHOICE_CHAIN_MAX], n = 0;
    while (!LLVMIsASelectInst(v)) {
        int j = chain_operand(p, v);
        if (j < 0 || n == CHOICE_CHAIN_MAX)
            return false;
        chain[n] = v;
        carry[n++] = j;
        v = LLVMGetOperand(v, (unsigned)j);
    }
    if (!weft_vec_info(p, v) || LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind ||
        !available_here(p, LLVMGetOperand(v, 0)))
        return false;
    for (int i = 0; i < n; i++) {
        /* the step's other operand, which chain_rebuild takes at lane 0: a GEP's base, a binary
         * operator's uniform side */
        int other = LLVMIsAGetElementPtrInst(chain[i]) ? 0 : LLVMGetNumOperands(chain[i]) > 1 ? 1 - carry[i] : -1;
        if (other >= 0 && !available_here(p, LLVMGetOperand(chain[i], (unsigned)other)))
            return false;
    }
    LLVMValueRef arm[2] = {LLVMGetOperand(v, 1), LLVMGetOperand(v, 2)};
    for (int k = 0; k < 2; k++) {
        struct vinfo *ai = weft_vec_info(p, arm[k]);
        if (!ai || ai->kind != K_A || !ai->has_stride || !available_here(p, arm[k]))
            return false;
        int64_t s = ai->stride;
        for (int i = n - 1; i >= 0; i--)
            if (!chain_stride(p, chain[i], carry[i], &s))
                return false;
        if (s != (int64_t)size)
            return false;
    }
    for (int k = 0; k < 2; k++) {
        arm[k] = weft_vec_get_scal(p, arm[k]);
        for (int i = n - 1; i >= 0; i--)
            arm[k] = chain_rebuild(p, chain[i], carry[i], arm[k]);
    }
    *cond = LLVMGetOperand(v, 0);
    *a = arm[0];
    *b = arm[1];
    return true;
}

static bool emit_choice_load(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef ptr, LLVMTypeRef t,
                             LLVMTypeRef vt, unsigned align)
{
    LLVMValueRef a, b, cond;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind || !choice_places(p, ptr, t, &a, &b, &cond))
        return false;
    p->rep->vector_mem += 2;
    p->rep->choices++;
    LLVMValueRef c = weft_vec_get_vec(p, cond), nc = LLVMBuildNot(p->b, c, "");
    LLVMValueRef ma = p->mask ? weft_vec_mask_and(p, p->mask, c) : c, mb = p->mask ? weft_vec_mask_and(p, p->mask, nc) : nc;
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(a)};
    LLVMValueRef args_a[] = {a, LLVMConstInt(p->i32, align, 0), ma, LLVMGetPoison(vt)};
    LLVMValueRef args_b[] = {b, LLVMConstInt(p->i32, align, 0), mb, LLVMGetPoison(vt)};
    LLVMValueRef va = weft_vec_call_intrinsic(p, "llvm.masked.load", tys, 2, args_a, 4);
    LLVMValueRef vb = weft_vec_call_intrinsic(p, "llvm.masked.load", tys, 2, args_b, 4);
    weft_vec_define(p, vi, NULL, LLVMBuildSelect(p->b, c, va, vb, ""));
    return true;
}

/* One vector of P lanes from `base`: a plain load, or under `mask` (NULL: every lane) a masked
 * load whose inactive lanes are zero and read nothing. */
static LLVMValueRef vector_load(struct weft_vec_plan *p, LLVMValueRef base, LLVMTypeRef vt, unsigned align,
                                LLVMValueRef mask)
{
    if (!mask) {
        LLVMValueRef v = LLVMBuildLoad2(p->b, vt, base, "");
        LLVMSetAlignment(v, align);
        return v;
    }
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(base)};
    LLVMValueRef args[] = {base, LLVMConstInt(p->i32, align, 0), weft_vec_mask_like(p, mask, vt), LLVMConstNull(vt)};
    return weft_vec_call_intrinsic(p, "llvm.masked.load", tys, 2, args, 4);
}

/* Accesses whose address steps k elements per work-item, k = 2..WEFT_VEC_STRIDED_MAX (the members of
 * an array of pairs or small structs: in[2 * i] and in[2 * i + 1]), in a full packet: k
 * contiguous vector accesses over the span the lanes touch and a shuffle, instead of a gather
 * or scatter (16 element accesses). The last vector is masked to end at the last lane's
 * element, so that the packet touches no byte past its own lanes' span; a store writes only
 * its lanes' elements (masked), never the ones between them. */
/* k when `ptr` steps k elements of t per lane (see above), else 0. */
static unsigned small_stride(struct weft_vec_plan *p, LLVMValueRef ptr, LLVMTypeRef t)
{
    struct vinfo *pi = weft_vec_info(p, ptr);
    long long size = (long long)packed_size(p, t);
    if (p->mask || !pi || pi->kind != K_A || !pi->has_stride || !size || LLVMGetTypeKind(t) == LLVMVectorTypeKind ||
        pi->stride <= 0 || pi->stride % size || pi->stride / size < 2 || pi->stride / size > WEFT_VEC_STRIDED_MAX ||
        p->P < WEFT_VEC_STRIDED_MAX)
        return 0;
    return (unsigned)(pi->stride / size);
}

/* Part j's address: elements j*P .. j*P + P - 1 of the span. */
static LLVMValueRef strided_part(struct weft_vec_plan *p, LLVMValueRef base, LLVMTypeRef t, unsigned j)
{
    LLVMValueRef off = LLVMConstInt(p->i64, (unsigned long long)j * p->P, 0);
    return j ? LLVMBuildGEP2(p->b, t, base, &off, 1, "strided.part") : base;
}

static bool emit_strided_load(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef ptr, LLVMTypeRef t,
                              LLVMTypeRef vt, unsigned align)
{
    unsigned k = small_stride(p, ptr, t), P = p->P;
    if (!k)
        return false;
    p->rep->vector_mem += k;
    LLVMValueRef base = weft_vec_get_scal(p, ptr), part[WEFT_VEC_STRIDED_MAX];
    for (unsigned j = 0; j < k; j++)   /* the last part ends at the last lane's element */
        part[j] = vector_load(p, strided_part(p, base, t, j), vt, align,
                              j + 1 < k ? NULL : weft_vec_const_mask(p, p->P - k + 1));
    /* pairs of parts side by side (2P elements each), then every k-th element of those */
    int *idx = malloc(sizeof *idx * 2 * P);
    if (!idx)
        abort();
    for (unsigned l = 0; l < 2 * P; l++)
        idx[l] = (int)l;
    LLVMValueRef wide[2];
    unsigned nw = 0;
    for (unsigned j = 0; j < k; j += 2)
        wide[nw++] = LLVMBuildShuffleVector(p->b, part[j], j + 1 < k ? part[j + 1] : LLVMGetPoison(vt),
                                            weft_vec_shuffle_mask(p, idx, 2 * P), "");
    for (unsigned l = 0; l < P; l++)
        idx[l] = (int)(l * k);
    LLVMValueRef v = LLVMBuildShuffleVector(p->b, wide[0], nw > 1 ? wide[1] : LLVMGetPoison(LLVMTypeOf(wide[0])),
                                            weft_vec_shuffle_mask(p, idx, P), "strided");
    free(idx);
    weft_vec_define(p, vi, NULL, v);
    return true;
}

/* The store side: part j holds the lanes whose element falls in it, at their offsets. */
static bool emit_strided_store(struct weft_vec_plan *p, LLVMValueRef val, LLVMValueRef ptr, LLVMTypeRef t,
                               unsigned align)
{
    unsigned k = small_stride(p, ptr, t), P = p->P;
    if (!k)
        return false;
    p->rep->vector_mem += k;
    LLVMValueRef base = weft_vec_get_scal(p, ptr), vec = weft_vec_get_vec(p, val);
    LLVMTypeRef vt = LLVMTypeOf(vec);
    int *idx = malloc(sizeof *idx * P);
    LLVMValueRef *bits = malloc(sizeof *bits * P);
    if (!idx || !bits)
        abort();
    for (unsigned j = 0; j < k; j++) {
        LLVMValueRef at = strided_part(p, base, t, j);
        /* element e of part j is lane (j*P + e) / k's when (j*P + e) % k == 0 (none past the
         * last lane's element) */
        for (unsigned e = 0; e < P; e++) {
            unsigned o = j * P + e;
            bool mine = o % k == 0 && o / k < P;
            idx[e] = mine ? (int)(o / k) : -1;
            bits[e] = LLVMConstInt(p->i1, mine, 0);
        }
        LLVMValueRef part = LLVMBuildShuffleVector(p->b, vec, LLVMGetPoison(vt), weft_vec_shuffle_mask(p, idx, P), "");
        LLVMValueRef lanes = LLVMConstVector(bits, P);
        LLVMTypeRef tys[] = {vt, LLVMTypeOf(at)};
        LLVMValueRef args[] = {part, at, LLVMConstInt(p->i32, align, 0), lanes};
        weft_vec_call_intrinsic(p, "llvm.masked.store", tys, 2, args, 4);
    }
    free(idx);
    free(bits);
    return true;
}

static LLVMValueRef emit_gather(struct weft_vec_plan *p, LLVMValueRef addrs, LLVMTypeRef t, LLVMTypeRef vt,
                                unsigned align)
{
    LLVMValueRef ptrs = component_ptrs(p, addrs, t);
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[] = {ptrs, LLVMConstInt(p->i32, element_align(p, t, align), 0),
                           weft_vec_mask_like(p, weft_vec_cur_mask(p), vt), LLVMConstNull(vt)};
    return weft_vec_call_intrinsic(p, "llvm.masked.gather", tys, 2, args, 4);
}

/* Loop counters: a varying address whose only varying sources are lane-private variables and
 * PHIs, through integer and address arithmetic (`for (j = start + lid; j < end; j += ls)
 * ... val[j]`, a grid-stride loop's data[i]). Such counters usually step through consecutive
 * elements lane by lane, which the plan cannot prove (a masked store to the variable may leave
 * some lanes behind). Data-dependent addresses (x[col[j]]) are not counters. */
static bool counter_address(struct weft_vec_plan *p, LLVMValueRef v, unsigned depth)
{
    if (weft_vec_kind_of(p, v) != K_V)
        return true;   /* uniform or affine: steps the plan knows */
    if (depth > 8 || !LLVMIsAInstruction(v) || !weft_vec_info(p, v))
        return false;
    if (LLVMIsAPHINode(v))
        return true;
    if (LLVMIsALoadInst(v)) {
        /* a variable of the work-item: a lane-private copy, or its slot among the work-group's
         * private copies (privatize.c), which lives across barriers */
        LLVMValueRef a = LLVMGetOperand(v, 0);
        if (weft_vec_priv_of(p, a))
            return true;
        while (LLVMIsAGetElementPtrInst(a))
            a = LLVMGetOperand(a, 0);
        return p->wf->scratch_base && a == p->wf->scratch_base;
    }
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMAShr:
    case LLVMLShr: case LLVMOr: case LLVMSExt: case LLVMZExt: case LLVMTrunc:
        break;
    default:
        return false;
    }
    for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(v); i++)
        if (!counter_address(p, LLVMGetOperand(v, i), depth + 1))
            return false;
    return true;
}

/* A load through a loop counter's address (counter_address), probed per packet: when lane 0
 * is active and every active lane's address is lane 0's plus the lane times the element size,
 * one vector load (masked like the packet) from lane 0's address; otherwise the gather. The
 * probe is a vector compare and a branch, a fraction of a gather's cost. */
static bool emit_probed_load(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef ptr, LLVMTypeRef t,
                             LLVMTypeRef vt, unsigned align)
{
    unsigned long long size = packed_size(p, t);
    if (!size || LLVMGetTypeKind(t) == LLVMVectorTypeKind || weft_vec_kind_of(p, ptr) != K_V ||
        !counter_address(p, ptr, 0))
        return false;
    p->rep->gathers++;
    p->rep->probed++;
    LLVMValueRef addrs = gather_address(p, ptr);
    LLVMTypeRef iv = LLVMVectorType(p->i64, p->P);
    LLVMValueRef ai = LLVMBuildPtrToInt(p->b, addrs, iv, "");
    LLVMValueRef zero = LLVMConstInt(p->i32, 0, 0);
    LLVMValueRef a0 = LLVMBuildExtractElement(p->b, ai, zero, "");
    LLVMValueRef *step = malloc(sizeof *step * p->P);
    if (!step)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        step[l] = LLVMConstInt(p->i64, l * size, 0);
    LLVMValueRef want = LLVMBuildAdd(p->b, weft_vec_splat(p, a0), LLVMConstVector(step, p->P), "");
    free(step);
    LLVMValueRef same = LLVMBuildICmp(p->b, LLVMIntEQ, ai, want, "");
    if (p->mask)
        same = LLVMBuildOr(p->b, same, LLVMBuildNot(p->b, p->mask, ""), "");
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    LLVMValueRef ok = LLVMBuildICmp(p->b, LLVMIntEQ, weft_vec_mask_bits(p, same), LLVMConstAllOnes(it), "lanes.consecutive");
    if (p->mask)
        ok = LLVMBuildAnd(p->b, ok, LLVMBuildExtractElement(p->b, p->mask, zero, ""), "");
    LLVMValueRef fn = p->wf->fn;
    LLVMBasicBlockRef vec = LLVMAppendBasicBlockInContext(p->c, fn, "probe.vector");
    LLVMBasicBlockRef gat = LLVMAppendBasicBlockInContext(p->c, fn, "probe.gather");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(p->c, fn, "probe.join");
    LLVMBuildCondBr(p->b, ok, vec, gat);
    LLVMPositionBuilderAtEnd(p->b, vec);
    LLVMValueRef v1 = vector_load(p, LLVMBuildExtractElement(p->b, addrs, zero, ""), vt, align, p->mask);
    LLVMBuildBr(p->b, join);
    LLVMPositionBuilderAtEnd(p->b, gat);
    LLVMValueRef v2 = emit_gather(p, addrs, t, vt, align);
    LLVMBuildBr(p->b, join);
    LLVMPositionBuilderAtEnd(p->b, join);
    LLVMValueRef phi = LLVMBuildPhi(p->b, vt, "");
    LLVMValueRef vals[] = {v1, v2};
    LLVMBasicBlockRef bbs[] = {vec, gat};
    LLVMAddIncoming(phi, vals, bbs, 2);
    weft_vec_define(p, vi, NULL, phi);
    return true;
}

void weft_vec_emit_load(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v, ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(i), vt = weft_vec_vtype(p, t);
    unsigned align = LLVMGetAlignment(i);
    struct priv *pv = weft_vec_priv_of(p, ptr);
    if (pv && pv->simple) {
        weft_vec_define(p, vi, NULL, LLVMBuildLoad2(p->b, vt, pv->wide, ""));
        return;
    }
    if (weft_vec_kind_of(p, ptr) != K_U && agreed_access(p, i)) {
        /* the first active lane's address stands for all */
        p->rep->scalar_mem++;
        LLVMValueRef ld = LLVMBuildLoad2(p->b, t, weft_vec_get_scal(p, ptr), "");
        LLVMSetAlignment(ld, align);
        weft_vec_define(p, vi, ld, NULL);
        return;
    }
    if (weft_vec_kind_of(p, ptr) == K_U) {
        p->rep->scalar_mem++;
        weft_vec_define(p, vi, weft_vec_scalar_clone(p, i), NULL);
        return;
    }
    if (weft_vec_emit_row_load(p, vi))
        return;
    if (unit_stride(p, ptr, t)) {
        p->rep->vector_mem++;
        weft_vec_define(p, vi, NULL, vector_load(p, weft_vec_get_scal(p, ptr), vt, align, p->mask));
        return;
    }
    if (emit_choice_load(p, vi, ptr, t, vt, align) || emit_strided_load(p, vi, ptr, t, vt, align) ||
        emit_probed_load(p, vi, ptr, t, vt, align))
        return;
    p->rep->gathers++;
    weft_vec_define(p, vi, NULL, emit_gather(p, gather_address(p, ptr), t, vt, align));
}

/* Index of the last active lane: when several lanes store to one address, the last work-item's
 * value is the one that stays. */
static LLVMValueRef last_lane(struct weft_vec_plan *p)
{
    if (p->const_active >= 0)
        return LLVMConstInt(p->i32, (unsigned)p->const_active - 1, 0);
    if (!p->mask)
        return LLVMConstInt(p->i32, p->P - 1, 0);
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    LLVMValueRef args[] = {weft_vec_mask_bits(p, p->mask), LLVMConstInt(p->i1, 0, 0)};
    LLVMValueRef lz = weft_vec_call_intrinsic(p, "llvm.ctlz", &it, 1, args, 2);
    LLVMValueRef idx = LLVMBuildSub(p->b, LLVMConstInt(it, p->P - 1, 0), lz, "");
    return LLVMBuildIntCast2(p->b, idx, p->i32, 0, "");
}

void weft_vec_emit_store(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v, val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    unsigned align = LLVMGetAlignment(i);
    struct priv *pv = weft_vec_priv_of(p, ptr);
    vi->epoch = p->epoch;
    if (pv && pv->simple) {
        LLVMValueRef v = weft_vec_get_vec(p, val);
        LLVMBuildStore(p->b, weft_vec_blend(p, p->linear ? p->mask : NULL, v, pv->wide), pv->wide);
        return;
    }
    if (weft_vec_kind_of(p, ptr) == K_U || agreed_access(p, i)) {
        p->rep->scalar_mem++;
        LLVMValueRef s = weft_vec_kind_of(p, val) == K_U || agreed_access(p, i)
                             ? weft_vec_get_scal(p, val)
                             : weft_vec_extract_lane(p, weft_vec_get_vec(p, val), last_lane(p), t);
        LLVMValueRef st = LLVMBuildStore(p->b, s, weft_vec_get_scal(p, ptr));
        LLVMSetAlignment(st, align);
        LLVMSetVolatile(st, LLVMGetVolatile(i));
        return;
    }
    LLVMValueRef v = weft_vec_get_vec(p, val);
    LLVMTypeRef vt = LLVMTypeOf(v);
    if (unit_stride(p, ptr, t)) {
        p->rep->vector_mem++;
        LLVMValueRef base = weft_vec_get_scal(p, ptr);
        if (!p->mask) {
            LLVMValueRef st = LLVMBuildStore(p->b, v, base);
            LLVMSetAlignment(st, align);
        } else {
            LLVMTypeRef tys[] = {vt, LLVMTypeOf(base)};
            LLVMValueRef args[] = {v, base, LLVMConstInt(p->i32, align, 0), weft_vec_mask_like(p, p->mask, vt)};
            weft_vec_call_intrinsic(p, "llvm.masked.store", tys, 2, args, 4);
        }
        return;
    }
    if (!LLVMGetVolatile(i) && emit_strided_store(p, val, ptr, t, align))
        return;
    p->rep->gathers++;
    LLVMValueRef ptrs = component_ptrs(p, gather_address(p, ptr), t);
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[] = {v, ptrs, LLVMConstInt(p->i32, element_align(p, t, align), 0), weft_vec_mask_like(p, weft_vec_cur_mask(p), vt)};
    weft_vec_call_intrinsic(p, "llvm.masked.scatter", tys, 2, args, 4);
}

/* One copy per lane of each entry-block alloca the sub-CFG uses (plan->priv): a vector
 * slot <P x T> for a simple variable, an array of P copies with each lane's address
 * otherwise. */
void weft_vec_make_private_copies(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->npriv; x++) {
        struct priv *pv = &p->priv[x];
        LLVMTypeRef t = LLVMGetAllocatedType(pv->alloca);
        if (pv->simple) {
            pv->wide = weft_vec_entry_alloca(p, weft_vec_vtype(p, t), "priv.lanes");
            continue;
        }
        /* Every lane's copy keeps the alignment of the alloca, which the accesses to it claim:
         * clang aligns private arrays of 16 bytes or more to 16, and the copies of an int[7]
         * (28 bytes) back to back put lane 1's at 28, where the memcpy of its initializer, as
         * aligned 16-byte stores, faulted. Copies are padded to a multiple of the alignment. */
        unsigned al = LLVMGetAlignment(pv->alloca);
        unsigned long long size = LLVMABISizeOfType(LLVMGetModuleDataLayout(p->m), t);
        LLVMTypeRef et = t;
        if (al > 1 && size % al) {
            LLVMTypeRef f[] = {t, LLVMArrayType2(LLVMInt8TypeInContext(p->c), al - size % al)};
            et = LLVMStructTypeInContext(p->c, f, 2, 0);
        }
        LLVMTypeRef at = LLVMArrayType2(et, p->P);
        pv->wide = weft_vec_entry_alloca(p, at, "priv.lanes");
        if (al)
            LLVMSetAlignment(pv->wide, al);
        /* each lane's copy, addressed right after the alloca in the entry block */
        LLVMBuilderRef b = LLVMCreateBuilderInContext(p->c);
        LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(pv->wide));
        LLVMValueRef idx[] = {LLVMConstInt(p->i64, 0, 0), weft_vec_iota(p, p->i64)};
        pv->lanes = LLVMBuildInBoundsGEP2(b, at, pv->wide, idx, 2, "priv.lane.ptrs");
        LLVMDisposeBuilder(b);
    }
}
