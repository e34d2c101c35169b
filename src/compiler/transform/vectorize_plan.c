/* compiler/transform/vectorize_plan.c — the vectorizer's plan for one sub-CFG: whether it can
 * run as packets, how (see vectorize.h), and what the emitters need to know.
 *
 * Decides: each instruction's kind (uniform, affine of a constant stride, varying; from the
 * shape analysis, made varying where an operand is lane-private), which values cross blocks,
 * which entry-block allocas become one copy per lane, what runs lane by lane; rejects what no
 * emitter handles (with the reason). Builds the sub-CFG's CFG, dominator tree and natural
 * loops with analysis/'s sub-CFG mode and, on them, the linear order that a divergent sub-CFG's
 * linearized copy runs its blocks in (topological, each loop's blocks contiguous, header
 * first). Chooses the packet size P = W x U. Emits nothing.
 */
#include "compiler/transform/vectorize.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/loops.h"
#include "compiler/analysis/shape.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/subgroup.h"
#include "compiler/transform/vectorize_internal.h"
#include "util/ptrmap.h"
#include "util/vec.h"

static void fail(struct weft_vec_plan *p, const char *fmt, const char *detail)
{
    if (p->failed)
        return;
    p->failed = true;
    if (p->rep)
        snprintf(p->rep->reason, sizeof p->rep->reason, fmt, detail ? detail : "");
}

static const char *fn_string_attr(LLVMValueRef fn, const char *key)
{
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
    if (!a)
        return NULL;
    unsigned n = 0;
    return LLVMGetStringAttributeValue(a, &n);
}

unsigned weft_vectorize_target_width(LLVMValueRef fn)
{
    const char *feat = fn_string_attr(fn, "target-features");
    const char *cpu = fn_string_attr(fn, "target-cpu");
    if ((feat && strstr(feat, "+avx512f")) || (cpu && strstr(cpu, "x86-64-v4")))
        return 16;
    if ((feat && (strstr(feat, "+avx2") || strstr(feat, "+avx,"))) || (cpu && strstr(cpu, "x86-64-v3")))
        return 8;
    return 4;
}

bool weft_vec_scalar_type(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMHalfTypeKind:
    case LLVMPointerTypeKind:
        return true;
    default:
        return false;
    }
}

/* A per-work-item type a packet can hold: a scalar, or a fixed vector of scalars (OpenCL's
 * float4 and friends), kept lane-major: component j of lane l is element l*n + j. */
static bool lane_type(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        return weft_vec_scalar_type(LLVMGetElementType(t));
    return weft_vec_scalar_type(t);
}

/* Components per work-item: n of <n x T>, else 1. */
unsigned weft_vec_ncomp(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

LLVMTypeRef weft_vec_vtype(struct weft_vec_plan *p, LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        return LLVMVectorType(LLVMGetElementType(t), p->P * LLVMGetVectorSize(t));
    return LLVMVectorType(t, p->P);
}

static const char *callee_name(LLVMValueRef call)
{
    size_t n = 0;
    return weft_direct_callee_name(call, &n);
}

static bool name_starts(const char *s, const char *prefix) { return s && strncmp(s, prefix, strlen(prefix)) == 0; }

/* llvm.prefetch (compiler/prefetch.h): a hint, one per packet or none (vectorize_values.c). */
bool weft_vec_is_prefetch(LLVMValueRef call)
{
    return name_starts(callee_name(call), "llvm.prefetch");
}

/* Intrinsics that mean nothing to a packet (their effect is on one work-item's bookkeeping). */
bool weft_vec_droppable_call(LLVMValueRef call)
{
    const char *n = callee_name(call);
    return name_starts(n, "llvm.lifetime.") || name_starts(n, "llvm.dbg.") || name_starts(n, "llvm.assume") ||
           name_starts(n, "llvm.experimental.noalias.scope.decl") || name_starts(n, "llvm.invariant.") ||
           name_starts(n, "llvm.var.annotation") || name_starts(n, "llvm.sideeffect");
}

static const struct lanewise LANEWISE[] = {
    {"llvm.fma", -1, 0, 0},       {"llvm.fmuladd", -1, 0, 0},   {"llvm.sqrt", -1, 0, 0},
    {"llvm.fabs", -1, 0, 0},      {"llvm.floor", -1, 0, 0},     {"llvm.ceil", -1, 0, 0},
    {"llvm.trunc", -1, 0, 0},     {"llvm.rint", -1, 0, 0},      {"llvm.nearbyint", -1, 0, 0},
    {"llvm.round", -1, 0, 0},     {"llvm.roundeven", -1, 0, 0}, {"llvm.copysign", -1, 0, 0},
    {"llvm.minnum", -1, 0, 0},    {"llvm.maxnum", -1, 0, 0},    {"llvm.minimum", -1, 0, 0},
    {"llvm.maximum", -1, 0, 0},   {"llvm.exp", -1, 0, 0},       {"llvm.exp2", -1, 0, 0},
    {"llvm.exp10", -1, 0, 0},     {"llvm.log", -1, 0, 0},       {"llvm.log2", -1, 0, 0},
    {"llvm.log10", -1, 0, 0},     {"llvm.sin", -1, 0, 0},       {"llvm.cos", -1, 0, 0},
    {"llvm.pow", -1, 0, 0},       {"llvm.canonicalize", -1, 0, 0}, {"llvm.smin", -1, 0, 0},
    {"llvm.smax", -1, 0, 0},      {"llvm.umin", -1, 0, 0},      {"llvm.umax", -1, 0, 0},
    {"llvm.ctpop", -1, 0, 0},     {"llvm.bswap", -1, 0, 0},     {"llvm.bitreverse", -1, 0, 0},
    {"llvm.fshl", -1, 0, 0},      {"llvm.fshr", -1, 0, 0},      {"llvm.sadd.sat", -1, 0, 0},
    {"llvm.uadd.sat", -1, 0, 0},  {"llvm.ssub.sat", -1, 0, 0},  {"llvm.usub.sat", -1, 0, 0},
    {"llvm.abs", 1, 0, 0},        {"llvm.ctlz", 1, 0, 0},       {"llvm.cttz", 1, 0, 0},
    {"llvm.is.fpclass", 1, 1, 0}, {"llvm.ldexp", -1, 0, 1},
};

/* The entry for an intrinsic named "<name>.<overload suffix>". */
const struct lanewise *weft_vec_lanewise_of(LLVMValueRef call)
{
    const char *n = callee_name(call);
    if (!name_starts(n, "llvm."))
        return NULL;
    for (size_t i = 0; i < sizeof LANEWISE / sizeof LANEWISE[0]; i++) {
        size_t len = strlen(LANEWISE[i].name);
        if (strncmp(n, LANEWISE[i].name, len) == 0 && n[len] == '.' &&
            !(n[len + 1] == 's' && n[len + 2] == 'a'))   /* "llvm.uadd.sat" is not "llvm.uadd" */
            return &LANEWISE[i];
    }
    return NULL;
}

struct vinfo *weft_vec_info(struct weft_vec_plan *p, LLVMValueRef v)
{
    uintptr_t i = v ? weft_ptrmap_get_or(&p->iidx, v, 0) : 0;
    return i ? &p->vi[i - 1] : NULL;
}

struct priv *weft_vec_priv_of(struct weft_vec_plan *p, LLVMValueRef v)
{
    uintptr_t i = v ? weft_ptrmap_get_or(&p->pidx, v, 0) : 0;
    return i ? &p->priv[i - 1] : NULL;
}

int weft_vec_block_index(const struct weft_vec_plan *p, LLVMBasicBlockRef bb)
{
    return weft_cfg_index(p->cfg, bb);
}

/* The kind of any operand: sub-CFG instructions by their info, lane-private allocas are
 * varying (each lane has its own copy), everything else (constants, arguments, entry-block
 * values) is uniform. */
int weft_vec_kind_of(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct vinfo *vi = weft_vec_info(p, v);
    if (vi)
        return vi->kind;
    if (weft_vec_priv_of(p, v))
        return K_V;
    return K_U;
}

/* Run lane by lane: atomics, fences, volatile or atomic accesses, calls of anything that is not
 * a work-item function or a lane-wise intrinsic. */
bool weft_vec_is_serialized(LLVMValueRef i)
{
    if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i))
        return true;
    if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i))
        return LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic;
    if (LLVMIsACallInst(i))
        return !weft_vec_droppable_call(i) && !weft_vec_is_prefetch(i) && weft_wi_call_kind(i) == WEFT_WI_NONE &&
               !weft_vec_lanewise_of(i) &&
               !weft_subgroup_is_collective(weft_subgroup_call(i).kind);
    return false;
}

static const char *print_value(LLVMValueRef v, char *buf, size_t n)
{
    char *s = LLVMPrintValueToString(v);
    const char *t = s;
    while (t && *t == ' ')
        t++;
    snprintf(buf, n, "%s", t ? t : "?");
    LLVMDisposeMessage(s);
    /* one line */
    for (char *c = buf; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return buf;
}

void weft_vec_fail_at(struct weft_vec_plan *p, const char *what, LLVMValueRef v)
{
    char buf[140];
    char msg[200];
    snprintf(msg, sizeof msg, "%s: %s", what, print_value(v, buf, sizeof buf));
    fail(p, "%s", msg);
}

/* The sub-CFG's blocks and the barrier blocks it leaves to, from its CFG. */
static void collect_blocks(struct weft_vec_plan *p)
{
    p->cfg = weft_cfg_build_sub(p->wf->fn, p->sub->blocks, p->sub->nblocks);
    if (!p->cfg) {
        fail(p, "internal: a sub-CFG without blocks%s", NULL);
        return;
    }
    p->nb = (unsigned)p->cfg->nblocks;
    p->blocks = p->cfg->blocks;
    p->exits = p->cfg->exits;
    p->nexits = (unsigned)p->cfg->nexits;
}

/* Whether a pointer derived from the alloca is used outside this sub-CFG: such memory is shared
 * between sub-CFGs (privatization left only uniform state there), not one copy per lane. */
static bool used_elsewhere(struct weft_vec_plan *p, LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || weft_vec_block_index(p, LLVMGetInstructionParent(user)) < 0)
            return true;
        if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) &&
            used_elsewhere(p, user))
            return true;
    }
    return false;
}

static void collect_values(struct weft_vec_plan *p)
{
    weft_ptrmap_init(&p->iidx);
    weft_ptrmap_init(&p->pidx);
    size_t n = 0;
    for (unsigned k = 0; k < p->nb; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[k]); i; i = LLVMGetNextInstruction(i))
            n++;
    p->vi = calloc(n ? n : 1, sizeof *p->vi);
    if (!p->vi)
        abort();   /* out of memory in the compiler */
    for (unsigned k = 0; k < p->nb; k++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
            struct vinfo *v = &p->vi[p->nvi];
            v->v = i;
            v->block = (int)k;
            struct weft_shape sh = weft_shape_of(p->sh, i);
            v->kind = sh.kind == WEFT_SHAPE_UNIFORM ? K_U : sh.kind == WEFT_SHAPE_AFFINE ? K_A : K_V;
            if (v->kind == K_A) {
                v->has_stride = weft_shape_const_stride(sh, &v->stride);
                if (sh.dim != 0 || !weft_vec_scalar_type(LLVMTypeOf(i)))
                    v->kind = K_V;
            }
            weft_ptrmap_put(&p->iidx, i, ++p->nvi);
        }
    /* entry-block allocas the sub-CFG uses become lane-private, except the slots demotion made
     * for uniform values (one scalar is right for every lane) */
    WEFT_VEC(LLVMValueRef) allocas = {0};
    for (size_t x = 0; x < p->nvi; x++) {
        LLVMValueRef i = p->vi[x].v;
        int no = LLVMGetNumOperands(i);
        for (int o = 0; o < no; o++) {
            LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
            if (!op || !LLVMIsAAllocaInst(op) || weft_vec_info(p, op) || weft_ptrmap_has(&p->pidx, op))
                continue;
            struct weft_slot_info *si = (struct weft_slot_info *)weft_ptrmap_get_or(&p->wf->slot_info, op, 0);
            if ((si && (si->shape == WEFT_SLOT_UNIFORM || si->uniform_base)) || used_elsewhere(p, op))
                continue;
            weft_vec_push(&allocas, op);
            weft_ptrmap_put(&p->pidx, op, allocas.len);
        }
    }
    p->npriv = allocas.len;
    p->priv = calloc(p->npriv ? p->npriv : 1, sizeof *p->priv);
    if (!p->priv)
        abort();
    for (size_t x = 0; x < p->npriv; x++) {
        struct priv *pv = &p->priv[x];
        pv->alloca = allocas.data[x];
        LLVMTypeRef t = LLVMGetAllocatedType(pv->alloca);
        pv->simple = lane_type(t);
        for (LLVMUseRef u = LLVMGetFirstUse(pv->alloca); u && pv->simple; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (LLVMIsALoadInst(user) && LLVMTypeOf(user) == t && !weft_vec_is_serialized(user))
                continue;
            if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == pv->alloca &&
                LLVMTypeOf(LLVMGetOperand(user, 0)) == t && !weft_vec_is_serialized(user))
                continue;
            if (LLVMIsACallInst(user) && weft_vec_droppable_call(user))
                continue;
            pv->simple = false;
        }
    }
    weft_vec_free(&allocas);
}

/* Kinds only move towards varying: an instruction with a varying operand that the shape
 * analysis calls uniform or affine (a pointer into a lane-private variable) is varying. */
static void propagate_kinds(struct weft_vec_plan *p)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t x = 0; x < p->nvi; x++) {
            struct vinfo *v = &p->vi[x];
            if (v->kind == K_V || LLVMIsALoadInst(v->v) || LLVMIsAStoreInst(v->v))
                continue;
            int no = LLVMGetNumOperands(v->v);
            for (int o = 0; o < no; o++) {
                LLVMValueRef op = LLVMGetOperand(v->v, (unsigned)o);
                if (!op || LLVMValueIsBasicBlock(op) || LLVMIsAFunction(op))
                    continue;
                if (weft_vec_kind_of(p, op) == K_V) {
                    v->kind = K_V;
                    changed = true;
                    break;
                }
            }
        }
    }
}

static void mark_cross(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->nvi; x++) {
        struct vinfo *v = &p->vi[x];
        if (LLVMIsAPHINode(v->v)) {
            v->cross = true;
            continue;
        }
        for (LLVMUseRef u = LLVMGetFirstUse(v->v); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            struct vinfo *ui = weft_vec_info(p, user);
            if (!ui)
                weft_vec_fail_at(p, "a value used outside its sub-CFG", v->v);   /* demotion prevents this */
            else if (ui->block != v->block || LLVMIsAPHINode(user))
                v->cross = true;
        }
    }
}

/* Only extractvalue in the same block may read an aggregate that was computed lane by lane. */
static void check_aggregate_users(struct weft_vec_plan *p, LLVMValueRef i)
{
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAExtractValueInst(user) || LLVMGetInstructionParent(user) != LLVMGetInstructionParent(i))
            weft_vec_fail_at(p, "an aggregate result used as a whole", i);
    }
}

static void check_legal(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->nvi && !p->failed; x++) {
        struct vinfo *v = &p->vi[x];
        LLVMValueRef i = v->v;
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        LLVMTypeRef t = LLVMTypeOf(i);
        bool void_t = LLVMGetTypeKind(t) == LLVMVoidTypeKind;
        switch (op) {
        case LLVMAlloca:
            weft_vec_fail_at(p, "an alloca inside the sub-CFG", i);
            continue;
        case LLVMInvoke:
        case LLVMCallBr:
        case LLVMIndirectBr:
        case LLVMLandingPad:
        case LLVMResume:
        case LLVMVAArg:
        case LLVMCleanupPad:
        case LLVMCatchPad:
        case LLVMCatchSwitch:
        case LLVMRet:
            weft_vec_fail_at(p, "unsupported instruction", i);
            continue;
        default:
            break;
        }
        if (LLVMIsACallInst(i)) {
            LLVMValueRef callee = LLVMGetCalledValue(i);
            if (!callee || !LLVMIsAFunction(callee)) {
                weft_vec_fail_at(p, "an indirect call or inline assembly", i);
                continue;
            }
            enum weft_wi_kind wk = weft_wi_call_kind(i);
            if (wk != WEFT_WI_NONE && wk != WEFT_WI_LOCAL_ID) {
                weft_vec_fail_at(p, "a work-item function that should have been lowered", i);
                continue;
            }
            if (wk == WEFT_WI_LOCAL_ID && !LLVMIsAConstantInt(LLVMGetOperand(i, 0))) {
                weft_vec_fail_at(p, "get_local_id with a variable dimension", i);
                continue;
            }
            if (weft_vec_is_serialized(i) && !void_t && !weft_vec_scalar_type(t)) {
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
                    weft_vec_fail_at(p, "a call returning a vector that must run lane by lane", i);
                else
                    check_aggregate_users(p, i);
                continue;
            }
            if (weft_vec_lanewise_of(i) && LLVMGetNumArgOperands(i) > 4) {
                weft_vec_fail_at(p, "an intrinsic with too many operands", i);
                continue;
            }
        }
        if (LLVMIsAAtomicCmpXchgInst(i)) {
            check_aggregate_users(p, i);
            continue;
        }
        if (LLVMIsALoadInst(i) && !weft_vec_is_serialized(i)) {
            LLVMValueRef ptr = LLVMGetOperand(i, 0);
            struct priv *pv = weft_vec_priv_of(p, ptr);
            if (!(pv && pv->simple) && weft_vec_kind_of(p, ptr) != K_U && !lane_type(t)) {
                weft_vec_fail_at(p, "a load of an aggregate from a varying address", i);
                continue;
            }
        }
        if (LLVMIsAStoreInst(i) && !weft_vec_is_serialized(i)) {
            LLVMValueRef val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
            if (!lane_type(LLVMTypeOf(val)) && (weft_vec_kind_of(p, ptr) != K_U || weft_vec_kind_of(p, val) != K_U)) {
                weft_vec_fail_at(p, "a store of an aggregate to a varying address or of a varying value", i);
                continue;
            }
        }
        if (v->kind != K_U && !void_t && !lane_type(t) && !(LLVMIsALoadInst(i) && weft_vec_kind_of(p, LLVMGetOperand(i, 0)) == K_U)) {
            weft_vec_fail_at(p, "a varying value of aggregate type", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMInsertValue) {
            weft_vec_fail_at(p, "a varying aggregate", i);
            continue;
        }
        if (v->kind != K_U && ((op == LLVMExtractElement && !LLVMIsAConstantInt(LLVMGetOperand(i, 1))) ||
                               (op == LLVMInsertElement && !LLVMIsAConstantInt(LLVMGetOperand(i, 2))))) {
            weft_vec_fail_at(p, "a varying vector element with a variable index", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMGetElementPtr && LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
            weft_vec_fail_at(p, "a vector of addresses per work-item", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMExtractValue) {
            LLVMValueRef agg = LLVMGetOperand(i, 0);
            if (!(LLVMIsAAtomicCmpXchgInst(agg) || (LLVMIsACallInst(agg) && weft_vec_is_serialized(agg))))
                weft_vec_fail_at(p, "a varying aggregate", i);
        }
    }
}

/* Whether loop l (plan numbering) contains block b. */
bool weft_vec_in_loop(const struct weft_vec_plan *p, int l, int b)
{
    return weft_loop_contains(p->loop_info, p->loops[l].shared, b);
}

/* The sub-CFG's natural loops from the shared analysis (analysis/loops.h on the sub-CFG's CFG),
 * numbered by their first back edge in reverse post-order, with their nesting and each block's
 * innermost loop; fails on irreducible control flow. */
static bool find_loops(struct weft_vec_plan *p)
{
    const struct weft_cfg *cfg = p->cfg;
    p->dom = weft_dom_compute(cfg);
    p->loop_info = weft_loops_compute(cfg, p->dom);
    if (p->loop_info->irreducible) {
        fail(p, "irreducible control flow%s", NULL);
        return false;
    }
    unsigned nb = p->nb;
    size_t nshared = p->loop_info->count;
    p->loops = calloc(nb, sizeof *p->loops);
    p->inner = malloc(sizeof(int) * nb);
    int *number = malloc(sizeof(int) * (nshared + 1));   /* shared index -> plan number */
    if (!p->loops || !p->inner || !number)
        abort();
    for (size_t l = 0; l < nshared; l++)
        number[l] = -1;
    for (size_t k = 0; k < cfg->nreachable; k++) {
        uint32_t t = cfg->rpo[k];
        for (size_t j = 0; j < weft_cfg_nsucc(cfg, t); j++) {
            uint32_t h = weft_cfg_succs(cfg, t)[j];
            if (cfg->rpo_index[h] > cfg->rpo_index[t])
                continue;   /* a forward edge; retreating ones are back edges (reducible) */
            int shared = weft_loops_with_header(p->loop_info, (int)h);
            if (shared < 0 || number[shared] >= 0)
                continue;
            number[shared] = p->nloops;
            p->loops[p->nloops].header = (int)h;
            p->loops[p->nloops].shared = shared;
            p->nloops++;
        }
    }
    for (int l = 0; l < p->nloops; l++) {
        int parent = p->loop_info->loops[p->loops[l].shared].parent;
        p->loops[l].parent = parent < 0 ? -1 : number[parent];
    }
    for (unsigned b = 0; b < nb; b++)
        p->inner[b] = p->loop_info->innermost[b] < 0 ? -1 : number[p->loop_info->innermost[b]];
    free(number);
    return true;
}

/* Whether a block of loop l branches both back to its header and out of the loop. */
static bool exiting_latch(const struct weft_vec_plan *p, int l)
{
    int h = p->loops[l].header;
    for (unsigned b = 0; b < p->nb; b++) {
        if (!weft_vec_in_loop(p, l, (int)b))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        bool back = false, out = false;
        for (unsigned j = 0; j < ns; j++) {
            int s = weft_vec_block_index(p, LLVMGetSuccessor(t, j));
            back |= s == h;
            out |= s < 0 || !weft_vec_in_loop(p, l, s);
        }
        if (back && out)
            return true;
    }
    return false;
}

/* Fails when a loop header's PHI is used outside its loop other than through a PHI of an exit
 * (LCSSA), and the loop is left from a latch. Every copy of the sub-CFG stores a block's values
 * for its successors' PHIs before its branch, the structured and fast copies unmasked: leaving
 * from the latch, the last iteration has put the next iteration's value where a use after the
 * loop reads the PHI. `do { v = i; } while (i++ < n);` read i + 1 after the loop (fuzz seed
 * 1710; with a uniform n as well). A loop left from its header (`while`) has not stored yet.
 * Such loops are rare in what clang emits; their sub-CFG keeps scalar work-item loops. */
static void check_header_values(struct weft_vec_plan *p)
{
    for (int l = 0; l < p->nloops && !p->failed; l++) {
        if (!exiting_latch(p, l))
            continue;
        LLVMBasicBlockRef h = p->blocks[p->loops[l].header];
        for (LLVMValueRef phi = LLVMGetFirstInstruction(h); phi && LLVMIsAPHINode(phi) && !p->failed;
             phi = LLVMGetNextInstruction(phi)) {
            for (LLVMUseRef u = LLVMGetFirstUse(phi); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!LLVMIsAInstruction(user))
                    continue;
                LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
                if (LLVMIsAPHINode(user)) {   /* a PHI uses it at the end of its incoming block */
                    for (unsigned q = 0; q < LLVMCountIncoming(user); q++)
                        if (LLVMGetIncomingValue(user, q) == phi) {
                            LLVMBasicBlockRef from = LLVMGetIncomingBlock(user, q);
                            int fb = weft_vec_block_index(p, from);
                            if (fb < 0 || !weft_vec_in_loop(p, l, fb))
                                at = from;
                            else
                                at = NULL;
                            if (at)
                                break;
                        }
                    if (!at)
                        continue;
                }
                int b = weft_vec_block_index(p, at);
                if (b < 0 || !weft_vec_in_loop(p, l, b)) {
                    weft_vec_fail_at(p, "a loop header's value used after the loop (its last iteration's)", phi);
                    break;
                }
            }
        }
    }
}

int weft_vec_loop_with_header(const struct weft_vec_plan *p, int b)
{
    for (int l = 0; l < p->nloops; l++)
        if (p->loops[l].header == b)
            return l;
    return -1;
}

/* Appends the blocks of `region` (a loop, or -1 for the whole sub-CFG) in topological order of
 * the region with its back edges removed and each nested loop as one node (Kahn's algorithm,
 * ties broken by RPO), recursing into nested loops where they come: every loop's blocks end up
 * contiguous, header first, which the linear copy needs (a loop repeats by jumping back to its
 * first position). */
static void order_region(struct weft_vec_plan *p, int region)
{
    const struct weft_cfg *cfg = p->cfg;
    unsigned nb = p->nb;
    int *node_of = malloc(sizeof(int) * nb), *indeg = calloc(nb, sizeof(int));
    bool *taken = calloc(nb, sizeof(bool));
    if (!node_of || !indeg || !taken)
        abort();
    int rh = region < 0 ? -1 : p->loops[region].header;
    for (unsigned b = 0; b < nb; b++) {
        node_of[b] = -1;
        if (region < 0 ? !weft_cfg_reachable(cfg, b) : !weft_vec_in_loop(p, region, (int)b))
            continue;
        /* the outermost loop strictly inside the region that contains b, else b itself */
        int l = p->inner[b], node = (int)b;
        while (l >= 0 && l != region) {
            node = p->loops[l].header;
            l = p->loops[l].parent;
        }
        node_of[b] = node;
    }
    for (unsigned b = 0; b < nb; b++)
        for (size_t j = 0; node_of[b] >= 0 && j < weft_cfg_nsucc(cfg, b); j++) {
            int s = (int)weft_cfg_succs(cfg, b)[j];
            if (node_of[s] >= 0 && s != rh && node_of[s] != node_of[b])
                indeg[node_of[s]]++;
        }
    if (region >= 0)
        p->loops[region].first = p->norder;
    for (;;) {
        int best = -1;
        for (unsigned b = 0; b < nb; b++)
            if (node_of[b] == (int)b && !taken[b] && indeg[b] == 0 &&
                (best < 0 || cfg->rpo_index[b] < cfg->rpo_index[best]))
                best = (int)b;
        if (best < 0)
            break;
        taken[best] = true;
        int l = weft_vec_loop_with_header(p, best);
        if (l >= 0 && l != region)
            order_region(p, l);
        else
            p->order[p->norder++] = best;
        for (unsigned b = 0; b < nb; b++)
            for (size_t j = 0; node_of[b] == best && j < weft_cfg_nsucc(cfg, b); j++) {
                int s = (int)weft_cfg_succs(cfg, b)[j];
                if (node_of[s] >= 0 && s != rh && node_of[s] != best)
                    indeg[node_of[s]]--;
            }
    }
    if (region >= 0)
        p->loops[region].last = p->norder - 1;
    free(node_of);
    free(indeg);
    free(taken);
}

/* Whether the lanes of a packet may leave block k along different edges: a divergent branch, or
 * one on a value this pass made varying (lane-private memory, demote_lapped_phis). */
static bool branch_varies(struct weft_vec_plan *p, unsigned k)
{
    if (weft_shapes_branch_divergent(p->sh, p->blocks[k]))
        return true;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    bool cond = t && ((LLVMIsABranchInst(t) && LLVMIsConditional(t)) || LLVMIsASwitchInst(t));
    return cond && weft_vec_kind_of(p, LLVMGetOperand(t, 0)) != K_U;
}

static bool sub_divergent(struct weft_vec_plan *p)
{
    for (unsigned k = 0; k < p->nb; k++)
        if (weft_shapes_loop_divergent(p->sh, p->blocks[k]) || branch_varies(p, k))
            return true;
    return false;
}

/* In the linear copy, makes varying the uniform and affine PHIs of a loop header that some lanes
 * may reach along a back edge while others of the packet still have blocks of the same lap to
 * run: a divergent latch that also stays in the loop (an inner loop left divergently straight
 * into the outer header, `while (i--) { j = f(); while (j--) v = g(i); }`, fuzz seed 4738), or
 * two latches with a divergent branch in the loop. Such a PHI has one scalar, which store_phis
 * overwrites as soon as any lane takes the edge: the lanes still in the lap would read the next
 * lap's value (the shape analysis rightly calls it uniform: every work-item has it in every lap).
 * A vector slot is blended per lane. Returns whether a PHI changed. */
static bool demote_lapped_phis(struct weft_vec_plan *p)
{
    bool changed = false;
    for (int l = 0; l < p->nloops; l++) {
        int h = p->loops[l].header;
        int latches = 0;
        bool lapped = false, varies = false;
        for (unsigned b = 0; b < p->nb; b++) {
            if (!weft_vec_in_loop(p, l, (int)b))
                continue;
            bool bv = branch_varies(p, b);
            varies |= bv;
            LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[b]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            bool back = false, stays = false;
            for (unsigned j = 0; j < ns; j++) {
                int s = weft_vec_block_index(p, LLVMGetSuccessor(t, j));
                if (s == h)
                    back = true;
                else if (s >= 0 && weft_vec_in_loop(p, l, s))
                    stays = true;
            }
            latches += back;
            lapped |= back && stays && bv;
        }
        if (!lapped && !(latches > 1 && varies))
            continue;
        for (LLVMValueRef phi = LLVMGetFirstInstruction(p->blocks[h]); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi)) {
            struct vinfo *vi = weft_vec_info(p, phi);
            if (vi && vi->kind != K_V) {
                vi->kind = K_V;
                changed = true;
            }
        }
    }
    return changed;
}

static unsigned pow2_floor(unsigned x)
{
    unsigned r = 1;
    while (r * 2 <= x)
        r *= 2;
    return r;
}

/* Registers W lanes of a value of per-work-item type t take (W lanes of 32 bits fill one). */
static unsigned reg_units(struct weft_vec_plan *p, LLVMTypeRef t)
{
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    unsigned long long bits = LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(p->m), et);
    return weft_vec_ncomp(t) * (bits > 32 ? (unsigned)(bits / 32) : 1);
}

/* Whether `v`, an address or index in loop l, is arithmetic (GEP, add, sub, mul, shl, casts)
 * over values fixed during the loop and the induction variables of l and the loops around it,
 * never a value loaded or carried in the loop otherwise; *moves when l's own induction variable is
 * one of them (the address steps with the loop). */
static bool walks_with_loop(struct weft_vec_plan *p, int l, LLVMValueRef v, unsigned depth, bool *moves)
{
    if (!LLVMIsAInstruction(v))
        return true;
    struct vinfo *vi = weft_vec_info(p, v);
    if (!vi || !weft_vec_in_loop(p, l, vi->block))
        return true;   /* defined before the loop (or the sub-CFG): fixed while it runs */
    if (depth > 12)
        return false;
    if (LLVMIsAPHINode(v)) {
        struct weft_induction ind;
        for (int k = l; k >= 0; k = p->loops[k].parent)
            if (vi->block == p->loops[k].header) {
                if (!weft_loop_induction(p->loop_info, p->loops[k].shared, v, &ind))
                    return false;
                *moves |= k == l;
                return true;
            }
        return false;
    }
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
    case LLVMSExt: case LLVMZExt: case LLVMTrunc:
        break;
    case LLVMOr:
        if (LLVMGetIsDisjoint(v))
            break;
        return false;
    default:
        return false;
    }
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
        if (!walks_with_loop(p, l, LLVMGetOperand(v, (unsigned)i), depth + 1, moves))
            return false;
    return true;
}

/* How many rows of memory each work-item walks in a loop of the sub-CFG, 0 for none: the
 * objects of the loads and stores of global or constant memory whose address steps with the
 * loop (walks_with_loop) and is neither the same for every lane nor a few elements from lane to
 * lane, so a gather or scatter of one element per lane each iteration (gesummv's A[i * n + j]
 * and B[i * n + j], a row of each of A and B per work-item: 2). Each packet side by side adds W
 * more rows walked at once, each in a page of its own for long rows, while the loop's chain waits
 * on the gathers rather than on its arithmetic: gesummv at n = 4096 on the 2-core Sapphire Rapids
 * VM, 16 lanes x 8 packets 40 ms a launch, x 2 23 ms, x 1 13-14 ms (scalar work-item loops 17). */
static unsigned row_streams(struct weft_vec_plan *p)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(p->m);
    struct weft_ptrmap roots;
    weft_ptrmap_init(&roots);
    unsigned streams = 0;
    for (size_t x = 0; x < p->nvi; x++) {
        struct vinfo *v = &p->vi[x];
        bool load = LLVMIsALoadInst(v->v) != NULL;
        if (p->inner[v->block] < 0 || (!load && !LLVMIsAStoreInst(v->v)))
            continue;
        LLVMValueRef ptr = LLVMGetOperand(v->v, load ? 0 : 1);
        struct vinfo *pi = weft_vec_info(p, ptr);
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
        if ((as != 1 && as != 2) || weft_vec_priv_of(p, ptr) || !pi || pi->kind == K_U)
            continue;   /* private and __local memory stay in the first-level cache */
        LLVMTypeRef t = load ? LLVMTypeOf(v->v) : LLVMTypeOf(LLVMGetOperand(v->v, 0));
        long long size = (long long)LLVMABISizeOfType(td, t);
        long long stride = pi->stride < 0 ? -pi->stride : pi->stride;
        if (pi->kind == K_A && pi->has_stride && size && stride <= size * WEFT_VEC_STRIDED_MAX)
            continue;   /* a vector access, or a few of them and a shuffle */
        bool moves = false;
        if (walks_with_loop(p, p->inner[v->block], ptr, 0, &moves) && moves &&
            weft_ptrmap_put(&roots, weft_pointer_object(ptr), 1))
            streams++;
    }
    weft_ptrmap_free(&roots);
    return streams;
}

/* Rows walked at once that a core's hardware prefetcher follows: Intel's L2 streamer keeps 32
 * streams, one per 4 KiB page (the optimization reference manual), and the loop reads its other
 * operands (gesummv's x[j]) besides the rows. A packet whose P x rows reach it walks pages the
 * prefetcher drops: gesummv (2 rows per work-item) on the 2-core Sapphire Rapids VM, 16 lanes
 * (32 rows) 11.4-13.3 ms a launch, 8 lanes 8.3-10.9, 4 lanes 11.7-11.9; on the 16-core device
 * machine 16 lanes 2.65-2.72 ms, 8 lanes 1.84-2.05. One row per work-item (16 at 16 lanes) reads
 * the same at 16 and 8 lanes. */
#define ROW_STREAMS_MAX 32u

/* Work-items per packet, P. W by default; for a sub-CFG with a loop of its own (a dependent
 * chain per work-item) as many as the register file holds with the loop-carried varying values
 * (Kerr: enough independent chains in flight to cover the FMA latency): up to 8 W when the
 * state is small (U packets side by side), fewer than W when each work-item carries wide
 * vectors (double16), so that the chains stay in registers. Never more than the local size
 * needs. */
static unsigned choose_packet_any(struct weft_vec_plan *p, unsigned requested);

/* With sub-groups the packet holds whole sub-groups of W lanes: P is a multiple of W. */
static unsigned choose_packet(struct weft_vec_plan *p, unsigned requested)
{
    unsigned pk = choose_packet_any(p, requested);
    return p->wf->vec_sub_groups && pk < p->W ? p->W : pk;
}

static unsigned choose_packet_any(struct weft_vec_plan *p, unsigned requested)
{
    uint64_t l0 = p->wf->local_size[0];
    unsigned max_p = l0 >= p->W ? p->W * pow2_floor((unsigned)(l0 / p->W)) : p->W;
    if (requested)
        return p->W * requested < max_p ? p->W * pow2_floor(requested) : max_p;
    if (p->nloops == 0)
        return p->W;
    /* a loop whose trip count differs per work-item makes wider packets wait for their slowest
     * lane; divergent branches elsewhere (a guard around the kernel's loop) do not */
    for (int l = 0; l < p->nloops; l++)
        if (weft_shapes_loop_divergent(p->sh, p->blocks[p->loops[l].header]))
            return p->W;
    for (size_t x = 0; x < p->nvi; x++)
        if (weft_vec_is_serialized(p->vi[x].v))
            return p->W;
    unsigned rows = row_streams(p);
    if (rows) {
        /* one packet, narrower while P x rows reach the prefetcher's streams */
        unsigned pk = p->W;
        while (pk > 2 && pk * rows >= ROW_STREAMS_MAX)
            pk /= 2;
        return pk < max_p ? pk : max_p;
    }
    /* registers W lanes of the state a loop keeps take (W lanes of 32 bits fill one): the
     * loop-carried varying values, and the varying values from before the loop that it reads
     * (nbody's own position: live through every iteration) */
    unsigned carried = 0;
    struct weft_ptrmap counted;
    weft_ptrmap_init(&counted);
    for (int l = 0; l < p->nloops; l++)
        for (size_t x = 0; x < p->nvi; x++) {
            struct vinfo *v = &p->vi[x];
            if (!weft_vec_in_loop(p, l, v->block))
                continue;
            if (LLVMIsAPHINode(v->v) && v->block == p->loops[l].header) {
                if (v->kind != K_U && weft_ptrmap_put(&counted, v->v, 1))
                    carried += reg_units(p, LLVMTypeOf(v->v));
                continue;
            }
            if (LLVMIsALoadInst(v->v)) {
                /* demoted state: a varying value reloaded from the same place every iteration */
                LLVMValueRef ptr = LLVMGetOperand(v->v, 0);
                struct vinfo *pi = weft_vec_info(p, ptr);
                bool invariant = weft_vec_priv_of(p, ptr) || (weft_vec_kind_of(p, ptr) != K_U && pi && !weft_vec_in_loop(p, l, pi->block));
                if (invariant && weft_ptrmap_put(&counted, ptr, 1))
                    carried += reg_units(p, LLVMTypeOf(v->v));
            }
            int no = LLVMGetNumOperands(v->v);
            for (int o = 0; o < no; o++) {
                struct vinfo *d = weft_vec_info(p, LLVMGetOperand(v->v, (unsigned)o));
                if (d && d->kind != K_U && !weft_vec_in_loop(p, l, d->block) && weft_ptrmap_put(&counted, d->v, 1))
                    carried += reg_units(p, LLVMTypeOf(d->v));
            }
        }
    weft_ptrmap_free(&counted);
    unsigned regs = p->W >= 16 ? 32 : 16;
    /* P lanes of state take carried * P / W registers; leave a few for temporaries */
    unsigned pk = pow2_floor((regs - 4) * p->W / (carried ? carried : 1));
    /* Rounding down to a power of two can halve the packet. When twice as many lanes' state
     * still fits the register file exactly and that state is vector-typed work-items' (8 units
     * or more: a pair of float4 and up, updated component by component in place), take them:
     * clpeak's float16 chains (32 units) got 8 lanes, half-width vectors at half the FMA rate,
     * and its float4/float8 chains half the independent chains that fill the FMA pipes (2-core
     * EPYC: float16 186-215 -> 243-248 GFLOP/s, float8 234-294 -> 258-330). Scalar state of a few
     * units comes with temporaries of its own: nbody's 4 units at 128 lanes spilled (0.8x). */
    if (carried >= 8 && pk * 2 * carried <= regs * p->W)
        pk *= 2;
    if (pk > 8 * p->W)
        pk = 8 * p->W;
    if (pk < 2)
        pk = 2;
    return pk < max_p ? pk : max_p;
}

/* Whether the work-items compute on vectors of their own as wide as a SIMD register (hashcat's
 * kernels with VECT_SIZE 16: uint16 per work-item, with W = 16 lanes of 32 bits): side by side,
 * every component becomes a register of its own, a P-fold state that the straight-line rounds of
 * a hash spill, where each work-item alone already fills the register (SHA1 on the 2-core EPYC:
 * 77-98 MH/s vectorized, 206-230 with the scalar work-item loops). The runtime then measures the
 * scalar code against the vectorized one (compiler/variant.h): clpeak's float16 chains are
 * register-wide too, but need the lanes' independent chains to fill the FMA pipes. */
bool weft_vec_register_wide(LLVMTargetDataRef td, LLVMTypeRef t, unsigned width)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMSizeOfTypeInBits(td, t) >= 32ull * width;
}

static bool wide_items(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->nvi; x++)
        if (p->vi[x].kind != K_U &&
            weft_vec_register_wide(LLVMGetModuleDataLayout(p->m), LLVMTypeOf(p->vi[x].v), p->W))
            return true;
    return false;
}

struct weft_vec_plan *weft_vectorize_plan(struct weft_workfn *wf, const struct weft_subcfg *sub,
                                          const struct weft_shapes *shapes, unsigned width,
                                          unsigned interleave, struct weft_vec_report *report)
{
    memset(report, 0, sizeof *report);
    report->width = width;
    struct weft_vec_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(report->reason, sizeof report->reason, "out of memory");
        return NULL;
    }
    p->wf = wf;
    p->sub = sub;
    p->sh = shapes;
    p->c = wf->c;
    p->m = wf->m;
    p->rep = report;
    p->W = width;
    p->i1 = LLVMInt1TypeInContext(p->c);
    p->i32 = LLVMInt32TypeInContext(p->c);
    p->i64 = LLVMInt64TypeInContext(p->c);
    weft_ptrmap_init(&p->iidx);
    weft_ptrmap_init(&p->pidx);
    if (width < 2)
        fail(p, "vectorization is off%s", NULL);
    else if (wf->local_size[0] < 2)
        fail(p, "the local size in x is 1: no work-items to put side by side%s", NULL);
    else if (!shapes)
        fail(p, "no shape analysis%s", NULL);
    if (!p->failed)
        collect_blocks(p);
    if (!p->failed) {
        collect_values(p);
        propagate_kinds(p);
        mark_cross(p);
        check_legal(p);
    }
    if (!p->failed) {
        p->linear = sub_divergent(p);
        if (find_loops(p))
            check_header_values(p);
        if (!p->failed && p->linear && demote_lapped_phis(p)) {
            do   /* a varying PHI may make another loop's latch divergent */
                propagate_kinds(p);
            while (demote_lapped_phis(p));
            check_legal(p);   /* again: a varying PHI of an aggregate type is not supported */
        }
        if (!p->failed) {
            p->order = malloc(sizeof(int) * (p->nb + 1));
            if (!p->order)
                abort();
            order_region(p, -1);
            if ((size_t)p->norder != p->cfg->nreachable)
                fail(p, "internal: the linear order misses blocks%s", NULL);
            p->position = malloc(sizeof(int) * (p->nb + 1));
            if (!p->position)
                abort();
            for (unsigned k = 0; k < p->nb; k++)
                p->position[k] = -1;
            for (int x = 0; x < p->norder; x++)
                p->position[p->order[x]] = x;
        }
    }
    if (p->failed) {
        weft_vectorize_plan_free(p);
        return NULL;
    }
    p->P = choose_packet(p, interleave);
    p->U = p->P > p->W ? p->P / p->W : 1;
    /* Serialized operations unrolled lane by lane cost P copies each, in every copy of the
     * sub-CFG (unmasked, linear, tail): CLSmith's kernels, whose private structs have volatile
     * fields, grew 17-26x in volatile accesses alone and took minutes in LLVM's backend. Past
     * a few, each runs as a loop over the lanes instead (one copy). */
    unsigned nserial = 0;
    for (size_t x = 0; x < p->nvi; x++)
        nserial += weft_vec_is_serialized(p->vi[x].v);
    p->serial_loops = (unsigned long long)nserial * p->P > SERIAL_UNROLL_MAX;
    report->width = p->P < p->W ? p->P : p->W;
    report->interleave = p->U;
    report->linearized = p->linear;
    report->wide_items = wide_items(p);
    report->tail = wf->local_size[0] % p->P != 0;
    weft_vec_find_row_groups(p, report);
    return p;
}

void weft_vectorize_plan_free(struct weft_vec_plan *p)
{
    if (!p)
        return;
    for (size_t x = 0; x < p->nvi; x++)
        free(p->vi[x].lanes);
    free(p->vi);
    free(p->priv);
    free(p->loops);
    free(p->order);
    free(p->inner);
    weft_loops_free(p->loop_info);
    weft_dom_free(p->dom);
    weft_cfg_free(p->cfg);
    free(p->bmask);
    free(p->xmask);
    free(p->final_guard);
    free(p->lin_guard);
    free(p->lin_loop_end);
    free(p->position);
    weft_ptrmap_free(&p->iidx);
    weft_ptrmap_free(&p->pidx);
    weft_vec_free_row_groups(p);
    free(p);
}
