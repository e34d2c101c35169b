/* compiler/transform/vectorize.c — runs a sub-CFG for packets of P consecutive work-items of
 * dimension 0 at once (see vectorize.h for what the pass guarantees).
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
 */
#include "compiler/transform/vectorize.h"

#include <llvm-c/DebugInfo.h>
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
#include "util/ptrmap.h"
#include "util/vec.h"

enum { K_U, K_A, K_V };

struct vinfo {
    LLVMValueRef v;
    int block;                 /* index in plan->blocks */
    uint8_t kind;
    bool cross;                /* a PHI, or used in another block of the sub-CFG */
    bool has_stride;           /* AFFINE with a constant stride */
    int64_t stride;
    LLVMValueRef slot_s, slot_v;
    unsigned epoch;            /* scal/vec/lanes are valid while epoch == plan->epoch */
    LLVMValueRef scal, vec;
    LLVMValueRef *lanes;       /* serialized result of a type without a vector form */
};

/* An entry-block alloca the sub-CFG uses: one copy per lane. */
struct priv {
    LLVMValueRef alloca;
    bool simple;               /* only loaded/stored directly, as one scalar first-class type */
    LLVMValueRef wide;         /* <P x T> (simple) or [P x T] */
    LLVMValueRef lanes;        /* <P x ptr>: each lane's copy (not simple) */
};

/* A natural loop of the sub-CFG, numbered in the order its first back edge comes in the
 * sub-CFG's reverse post-order (the order the linear copy's loop ends are made in). */
struct vloop {
    int header, parent;
    int shared;                /* its index in plan->loop_info */
    int first, last;           /* positions in the linear order */
};

struct weft_vec_plan {
    struct weft_workfn *wf;
    const struct weft_subcfg *sub;
    const struct weft_shapes *sh;
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMTypeRef i1, i32, i64;
    unsigned W, U, P;
    bool linear;
    /* the sub-CFG's own CFG, dominators and natural loops (analysis/, sub-CFG mode): blocks
     * are numbered as in sub->blocks, entry first */
    struct weft_cfg *cfg;
    struct weft_domtree *dom;
    struct weft_loops *loop_info;
    unsigned nb;
    LLVMBasicBlockRef *blocks; /* cfg->blocks */
    struct vinfo *vi;
    size_t nvi;
    struct weft_ptrmap iidx;   /* instruction -> index + 1 */
    struct priv *priv;
    size_t npriv;
    struct weft_ptrmap pidx;   /* alloca -> index + 1 */
    struct vloop *loops;
    int nloops;
    int *order;                /* linear order (block indices) */
    int norder;
    int *inner;                /* [nb] innermost loop or -1 */
    LLVMBasicBlockRef *exits;  /* distinct barrier blocks the sub-CFG leaves to (cfg->exits) */
    unsigned nexits;

    /* emission */
    LLVMBuilderRef b;
    LLVMValueRef mask;         /* NULL: every lane active; else <P x i1> */
    int const_active;          /* lanes 0..n-1 active (known), or -1 (dynamic mask) */
    LLVMValueRef base;         /* i64 local id x of lane 0 */
    LLVMValueRef ivy, ivz;
    unsigned epoch;
    LLVMValueRef *bmask;       /* [nb] mask slots (linearized) */
    LLVMValueRef *xmask;       /* [nexits] exit mask slots (linearized) */
    /* the linear copy of the packet being emitted, for the fast path's hand-overs */
    LLVMBasicBlockRef *lin_guard;      /* [norder] the guard of each position */
    LLVMBasicBlockRef *lin_loop_end;   /* [nloops] each loop's end test */
    LLVMBasicBlockRef lin_exit;
    int *position;                     /* [nb] block index -> position in the linear order */
    struct weft_vec_report *rep;
    bool serial_loops;         /* serialized operations run in a loop over the lanes */
    bool failed;
};

/* Lane copies of serialized operations a sub-CFG may unroll (serialize): beyond, lane loops. */
enum { SERIAL_UNROLL_MAX = 128 };

static void fail(struct weft_vec_plan *p, const char *fmt, const char *detail)
{
    if (p->failed)
        return;
    p->failed = true;
    if (p->rep)
        snprintf(p->rep->reason, sizeof p->rep->reason, fmt, detail ? detail : "");
}

/* ---- target ------------------------------------------------------------------------------ */

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

/* ---- small IR helpers -------------------------------------------------------------------- */

static bool scalar_type(LLVMTypeRef t)
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
        return scalar_type(LLVMGetElementType(t));
    return scalar_type(t);
}

/* Components per work-item: n of <n x T>, else 1. */
static unsigned ncomp(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

static LLVMTypeRef vtype(struct weft_vec_plan *p, LLVMTypeRef t)
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

/* Intrinsics that mean nothing to a packet (their effect is on one work-item's bookkeeping). */
static bool droppable_call(LLVMValueRef call)
{
    const char *n = callee_name(call);
    return name_starts(n, "llvm.lifetime.") || name_starts(n, "llvm.dbg.") || name_starts(n, "llvm.assume") ||
           name_starts(n, "llvm.experimental.noalias.scope.decl") || name_starts(n, "llvm.invariant.") ||
           name_starts(n, "llvm.var.annotation") || name_starts(n, "llvm.sideeffect");
}

/* Lane-wise intrinsics with a vector overload: the overload type is the return type, or
 * operand 0's for llvm.is.fpclass; llvm.ldexp adds operand 1's. Immediate operands stay
 * scalar. */
struct lanewise {
    const char *name;
    int imm_operand;   /* -1: none */
    bool overload_arg0, overload_arg1;
};
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
static const struct lanewise *lanewise_of(LLVMValueRef call)
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

static LLVMValueRef call_intrinsic(struct weft_vec_plan *p, const char *name, LLVMTypeRef *types, size_t ntypes,
                                   LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(p->m, id, types, ntypes);
    return LLVMBuildCall2(p->b, LLVMIntrinsicGetType(p->c, id, types, ntypes), f, args, nargs, "");
}

/* ---- instruction facts ------------------------------------------------------------------- */

static struct vinfo *info(struct weft_vec_plan *p, LLVMValueRef v)
{
    uintptr_t i = v ? weft_ptrmap_get_or(&p->iidx, v, 0) : 0;
    return i ? &p->vi[i - 1] : NULL;
}

static struct priv *priv_of(struct weft_vec_plan *p, LLVMValueRef v)
{
    uintptr_t i = v ? weft_ptrmap_get_or(&p->pidx, v, 0) : 0;
    return i ? &p->priv[i - 1] : NULL;
}

static int block_index(const struct weft_vec_plan *p, LLVMBasicBlockRef bb)
{
    return weft_cfg_index(p->cfg, bb);
}

/* The kind of any operand: sub-CFG instructions by their info, lane-private allocas are
 * varying (each lane has its own copy), everything else (constants, arguments, entry-block
 * values) is uniform. */
static int kind_of(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct vinfo *vi = info(p, v);
    if (vi)
        return vi->kind;
    if (priv_of(p, v))
        return K_V;
    return K_U;
}

/* Run lane by lane: atomics, fences, volatile or atomic accesses, calls of anything that is not
 * a work-item function or a lane-wise intrinsic. */
static bool is_serialized(LLVMValueRef i)
{
    if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i))
        return true;
    if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i))
        return LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic;
    if (LLVMIsACallInst(i))
        return !droppable_call(i) && weft_wi_call_kind(i) == WEFT_WI_NONE && !lanewise_of(i) &&
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

static void fail_at(struct weft_vec_plan *p, const char *what, LLVMValueRef v)
{
    char buf[140];
    char msg[200];
    snprintf(msg, sizeof msg, "%s: %s", what, print_value(v, buf, sizeof buf));
    fail(p, "%s", msg);
}

/* ---- plan: blocks, kinds, legality --------------------------------------------------------- */

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
        if (!LLVMIsAInstruction(user) || block_index(p, LLVMGetInstructionParent(user)) < 0)
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
                if (sh.dim != 0 || !scalar_type(LLVMTypeOf(i)))
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
            if (!op || !LLVMIsAAllocaInst(op) || info(p, op) || weft_ptrmap_has(&p->pidx, op))
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
            if (LLVMIsALoadInst(user) && LLVMTypeOf(user) == t && !is_serialized(user))
                continue;
            if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == pv->alloca &&
                LLVMTypeOf(LLVMGetOperand(user, 0)) == t && !is_serialized(user))
                continue;
            if (LLVMIsACallInst(user) && droppable_call(user))
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
                if (kind_of(p, op) == K_V) {
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
            struct vinfo *ui = info(p, user);
            if (!ui)
                fail_at(p, "a value used outside its sub-CFG", v->v);   /* demotion prevents this */
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
            fail_at(p, "an aggregate result used as a whole", i);
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
            fail_at(p, "an alloca inside the sub-CFG", i);
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
            fail_at(p, "unsupported instruction", i);
            continue;
        default:
            break;
        }
        if (LLVMIsACallInst(i)) {
            LLVMValueRef callee = LLVMGetCalledValue(i);
            if (!callee || !LLVMIsAFunction(callee)) {
                fail_at(p, "an indirect call or inline assembly", i);
                continue;
            }
            enum weft_wi_kind wk = weft_wi_call_kind(i);
            if (wk != WEFT_WI_NONE && wk != WEFT_WI_LOCAL_ID) {
                fail_at(p, "a work-item function that should have been lowered", i);
                continue;
            }
            if (wk == WEFT_WI_LOCAL_ID && !LLVMIsAConstantInt(LLVMGetOperand(i, 0))) {
                fail_at(p, "get_local_id with a variable dimension", i);
                continue;
            }
            if (is_serialized(i) && !void_t && !scalar_type(t)) {
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
                    fail_at(p, "a call returning a vector that must run lane by lane", i);
                else
                    check_aggregate_users(p, i);
                continue;
            }
            if (lanewise_of(i) && LLVMGetNumArgOperands(i) > 4) {
                fail_at(p, "an intrinsic with too many operands", i);
                continue;
            }
        }
        if (LLVMIsAAtomicCmpXchgInst(i)) {
            check_aggregate_users(p, i);
            continue;
        }
        if (LLVMIsALoadInst(i) && !is_serialized(i)) {
            LLVMValueRef ptr = LLVMGetOperand(i, 0);
            struct priv *pv = priv_of(p, ptr);
            if (!(pv && pv->simple) && kind_of(p, ptr) != K_U && !lane_type(t)) {
                fail_at(p, "a load of an aggregate from a varying address", i);
                continue;
            }
        }
        if (LLVMIsAStoreInst(i) && !is_serialized(i)) {
            LLVMValueRef val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
            if (!lane_type(LLVMTypeOf(val)) && (kind_of(p, ptr) != K_U || kind_of(p, val) != K_U)) {
                fail_at(p, "a store of an aggregate to a varying address or of a varying value", i);
                continue;
            }
        }
        if (v->kind != K_U && !void_t && !lane_type(t) && !(LLVMIsALoadInst(i) && kind_of(p, LLVMGetOperand(i, 0)) == K_U)) {
            fail_at(p, "a varying value of aggregate type", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMInsertValue) {
            fail_at(p, "a varying aggregate", i);
            continue;
        }
        if (v->kind != K_U && ((op == LLVMExtractElement && !LLVMIsAConstantInt(LLVMGetOperand(i, 1))) ||
                               (op == LLVMInsertElement && !LLVMIsAConstantInt(LLVMGetOperand(i, 2))))) {
            fail_at(p, "a varying vector element with a variable index", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMGetElementPtr && LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
            fail_at(p, "a vector of addresses per work-item", i);
            continue;
        }
        if (v->kind != K_U && op == LLVMExtractValue) {
            LLVMValueRef agg = LLVMGetOperand(i, 0);
            if (!(LLVMIsAAtomicCmpXchgInst(agg) || (LLVMIsACallInst(agg) && is_serialized(agg))))
                fail_at(p, "a varying aggregate", i);
        }
    }
}

/* ---- plan: loops and the linear order ------------------------------------------------------ */

/* Whether loop l (plan numbering) contains block b. */
static bool in_loop(const struct weft_vec_plan *p, int l, int b)
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

static int loop_with_header(const struct weft_vec_plan *p, int b)
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
        if (region < 0 ? !weft_cfg_reachable(cfg, b) : !in_loop(p, region, (int)b))
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
        int l = loop_with_header(p, best);
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

static bool sub_divergent(struct weft_vec_plan *p)
{
    for (unsigned k = 0; k < p->nb; k++) {
        if (weft_shapes_branch_divergent(p->sh, p->blocks[k]) || weft_shapes_loop_divergent(p->sh, p->blocks[k]))
            return true;
        /* a branch on a value this pass made varying (lane-private memory) */
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
        bool cond = t && ((LLVMIsABranchInst(t) && LLVMIsConditional(t)) || LLVMIsASwitchInst(t));
        if (cond && kind_of(p, LLVMGetOperand(t, 0)) != K_U)
            return true;
    }
    return false;
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
    return ncomp(t) * (bits > 32 ? (unsigned)(bits / 32) : 1);
}

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
        if (is_serialized(p->vi[x].v))
            return p->W;
    /* registers W lanes of the state a loop keeps take (W lanes of 32 bits fill one): the
     * loop-carried varying values, and the varying values from before the loop that it reads
     * (nbody's own position: live through every iteration) */
    unsigned carried = 0;
    struct weft_ptrmap counted;
    weft_ptrmap_init(&counted);
    for (int l = 0; l < p->nloops; l++)
        for (size_t x = 0; x < p->nvi; x++) {
            struct vinfo *v = &p->vi[x];
            if (!in_loop(p, l, v->block))
                continue;
            if (LLVMIsAPHINode(v->v) && v->block == p->loops[l].header) {
                if (v->kind != K_U && weft_ptrmap_put(&counted, v->v, 1))
                    carried += reg_units(p, LLVMTypeOf(v->v));
                continue;
            }
            if (LLVMIsALoadInst(v->v)) {
                /* demoted state: a varying value reloaded from the same place every iteration */
                LLVMValueRef ptr = LLVMGetOperand(v->v, 0);
                struct vinfo *pi = info(p, ptr);
                bool invariant = priv_of(p, ptr) || (kind_of(p, ptr) != K_U && pi && !in_loop(p, l, pi->block));
                if (invariant && weft_ptrmap_put(&counted, ptr, 1))
                    carried += reg_units(p, LLVMTypeOf(v->v));
            }
            int no = LLVMGetNumOperands(v->v);
            for (int o = 0; o < no; o++) {
                struct vinfo *d = info(p, LLVMGetOperand(v->v, (unsigned)o));
                if (d && d->kind != K_U && !in_loop(p, l, d->block) && weft_ptrmap_put(&counted, d->v, 1))
                    carried += reg_units(p, LLVMTypeOf(d->v));
            }
        }
    weft_ptrmap_free(&counted);
    unsigned regs = p->W >= 16 ? 32 : 16;
    /* P lanes of state take carried * P / W registers; leave a few for temporaries */
    unsigned pk = pow2_floor((regs - 4) * p->W / (carried ? carried : 1));
    if (pk > 8 * p->W)
        pk = 8 * p->W;
    if (pk < 2)
        pk = 2;
    return pk < max_p ? pk : max_p;
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
        if (find_loops(p)) {
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
        nserial += is_serialized(p->vi[x].v);
    p->serial_loops = (unsigned long long)nserial * p->P > SERIAL_UNROLL_MAX;
    report->width = p->P < p->W ? p->P : p->W;
    report->interleave = p->U;
    report->linearized = p->linear;
    report->tail = wf->local_size[0] % p->P != 0;
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
    free(p->lin_guard);
    free(p->lin_loop_end);
    free(p->position);
    weft_ptrmap_free(&p->iidx);
    weft_ptrmap_free(&p->pidx);
    free(p);
}

/* ---- emission: values -------------------------------------------------------------------- */

static LLVMValueRef const_splat(struct weft_vec_plan *p, LLVMValueRef s)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = s;
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}


/* A constant shuffle mask (-1: undefined element). */
static LLVMValueRef shuffle_mask(struct weft_vec_plan *p, const int *idx, unsigned n)
{
    LLVMValueRef *e = malloc(sizeof *e * n);
    if (!e)
        abort();
    for (unsigned k = 0; k < n; k++)
        e[k] = idx[k] < 0 ? LLVMGetUndef(p->i32) : LLVMConstInt(p->i32, (unsigned)idx[k], 0);
    LLVMValueRef v = LLVMConstVector(e, n);
    free(e);
    return v;
}

/* One vector of P x n elements from v by a single shuffle: element l*n + j is v's element l
 * (`by_lane`: each lane's value repeated for the n components of a vector-typed value) or v's
 * element j (a uniform <n x T> value repeated for every lane). */
static LLVMValueRef spread(struct weft_vec_plan *p, LLVMValueRef v, unsigned n, bool by_lane)
{
    int *idx = malloc(sizeof(int) * p->P * n);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        for (unsigned j = 0; j < n; j++)
            idx[l * n + j] = (int)(by_lane ? l : j);
    LLVMValueRef r = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), shuffle_mask(p, idx, p->P * n), "");
    free(idx);
    return r;
}

static LLVMValueRef splat(struct weft_vec_plan *p, LLVMValueRef s)
{
    if (LLVMGetTypeKind(LLVMTypeOf(s)) == LLVMVectorTypeKind)
        return spread(p, s, ncomp(LLVMTypeOf(s)), false);
    if (LLVMIsAConstantInt(s) || LLVMIsAConstantFP(s) || LLVMIsAConstantPointerNull(s) || LLVMIsAUndefValue(s) ||
        LLVMIsAPoisonValue(s))
        return const_splat(p, s);
    LLVMTypeRef vt = vtype(p, LLVMTypeOf(s));
    LLVMValueRef ins = LLVMBuildInsertElement(p->b, LLVMGetPoison(vt), s, LLVMConstInt(p->i32, 0, 0), "");
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(p->i32, p->P));
    return LLVMBuildShuffleVector(p->b, ins, LLVMGetPoison(vt), zero, "");
}

/* <0, 1, ..., P-1> of integer type t */
static LLVMValueRef iota(struct weft_vec_plan *p, LLVMTypeRef t)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = LLVMConstInt(t, l, 0);
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}

static LLVMValueRef const_mask(struct weft_vec_plan *p, unsigned active)
{
    LLVMValueRef *e = malloc(sizeof *e * p->P);
    if (!e)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        e[l] = LLVMConstInt(p->i1, l < active, 0);
    LLVMValueRef v = LLVMConstVector(e, p->P);
    free(e);
    return v;
}

static LLVMValueRef cur_mask(struct weft_vec_plan *p) { return p->mask ? p->mask : const_mask(p, p->P); }



/* m & c as select(m, c, false): lanes outside m may hold poison (a masked load leaves them
 * undefined) and `and` would spread it into the mask, where LLVM may read it as true. */
static LLVMValueRef mask_and(struct weft_vec_plan *p, LLVMValueRef m, LLVMValueRef c)
{
    return LLVMBuildSelect(p->b, m, c, LLVMConstNull(LLVMTypeOf(m)), "");
}

/* Each lane's mask bit repeated for the n components of a vector-typed value. */
static LLVMValueRef mask_for(struct weft_vec_plan *p, LLVMValueRef mask, unsigned n)
{
    if (!mask || n == 1)
        return mask;
    return spread(p, mask, n, true);
}

/* The mask for a packet value of type vt. */
static LLVMValueRef mask_like(struct weft_vec_plan *p, LLVMValueRef mask, LLVMTypeRef vt)
{
    return mask_for(p, mask, LLVMGetVectorSize(vt) / p->P);
}

/* Lane `lane` (an i32 value) of a packet value of per-work-item type t. */
static LLVMValueRef extract_lane(struct weft_vec_plan *p, LLVMValueRef vec, LLVMValueRef lane, LLVMTypeRef t)
{
    unsigned n = ncomp(t);
    if (n == 1)
        return LLVMBuildExtractElement(p->b, vec, lane, "");
    LLVMValueRef r = LLVMGetPoison(t);
    LLVMValueRef base = LLVMBuildMul(p->b, lane, LLVMConstInt(p->i32, n, 0), "");
    for (unsigned j = 0; j < n; j++) {
        LLVMValueRef e = LLVMBuildExtractElement(p->b, vec, LLVMBuildAdd(p->b, base, LLVMConstInt(p->i32, j, 0), ""), "");
        r = LLVMBuildInsertElement(p->b, r, e, LLVMConstInt(p->i32, j, 0), "");
    }
    return r;
}

static bool valid(struct weft_vec_plan *p, struct vinfo *v) { return v->epoch == p->epoch; }

static LLVMValueRef mask_bits(struct weft_vec_plan *p, LLVMValueRef mask)
{
    return LLVMBuildBitCast(p->b, mask, LLVMIntTypeInContext(p->c, p->P), "");
}

static LLVMValueRef get_vec(struct weft_vec_plan *p, LLVMValueRef v);

/* The scalar of a uniform or affine value (lane 0); for a varying one, its first active lane. */
static LLVMValueRef get_scal(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct vinfo *vi = info(p, v);
    if (!vi)
        return v;   /* constants, arguments, entry-block values */
    if (valid(p, vi) && vi->scal)
        return vi->scal;
    LLVMValueRef vec = get_vec(p, v);
    LLVMValueRef lane = LLVMConstInt(p->i32, 0, 0);
    if (p->mask && p->const_active < 0) {
        LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
        LLVMValueRef args[] = {mask_bits(p, p->mask), LLVMConstInt(p->i1, 0, 0)};
        LLVMValueRef tz = call_intrinsic(p, "llvm.cttz", &it, 1, args, 2);
        lane = LLVMBuildIntCast2(p->b, tz, p->i32, 0, "");
    }
    return extract_lane(p, vec, lane, LLVMTypeOf(v));
}

/* The lanes of an affine value of constant stride from its scalar: lane l = lane 0 + l * stride. */
static LLVMValueRef affine_vec(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMTypeRef t = LLVMTypeOf(vi->scal);
    LLVMValueRef s = splat(p, vi->scal);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        LLVMValueRef off = LLVMBuildMul(p->b, iota(p, p->i64),
                                        const_splat(p, LLVMConstInt(p->i64, (uint64_t)vi->stride, 1)), "");
        return LLVMBuildGEP2(p->b, LLVMInt8TypeInContext(p->c), s, &off, 1, "");
    }
    LLVMValueRef off = LLVMBuildMul(p->b, iota(p, t), const_splat(p, LLVMConstInt(t, (uint64_t)vi->stride, 1)), "");
    return LLVMBuildAdd(p->b, s, off, "");
}

static LLVMValueRef get_vec(struct weft_vec_plan *p, LLVMValueRef v)
{
    struct priv *pv = priv_of(p, v);
    if (pv)
        return pv->lanes;
    struct vinfo *vi = info(p, v);
    if (!vi)
        return splat(p, v);
    if (valid(p, vi) && vi->vec)
        return vi->vec;
    if (valid(p, vi) && vi->scal && vi->kind == K_A && vi->has_stride)
        return affine_vec(p, vi);
    if (valid(p, vi) && vi->scal)
        return splat(p, vi->scal);
    /* not available: an internal error (the emitter visits definitions first) */
    fail_at(p, "internal: no vector form for", v);
    return LLVMGetPoison(vtype(p, LLVMTypeOf(v)));
}

/* The value of `v` in lane l. */
static LLVMValueRef lane_of(struct weft_vec_plan *p, LLVMValueRef v, unsigned l)
{
    struct vinfo *vi = info(p, v);
    if (vi && valid(p, vi) && vi->lanes)
        return vi->lanes[l];
    if (kind_of(p, v) == K_U && (!vi || (valid(p, vi) && vi->scal)))
        return get_scal(p, v);
    return extract_lane(p, get_vec(p, v), LLVMConstInt(p->i32, l, 0), LLVMTypeOf(v));
}

/* select(mask, nv, *slot): what a store under a mask keeps of the old contents */
static LLVMValueRef blend(struct weft_vec_plan *p, LLVMValueRef mask, LLVMValueRef nv, LLVMValueRef slot)
{
    if (!mask)
        return nv;
    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(nv), slot, "");
    return LLVMBuildSelect(p->b, mask_like(p, mask, LLVMTypeOf(nv)), nv, old, "");
}

/* Names a copy after the original ("x" for the scalar, "x.v" for the vector), for readers of
 * the IR. */
static void name_after(LLVMValueRef orig, LLVMValueRef copy, const char *suffix)
{
    size_t n = 0;
    const char *nm = LLVMGetValueName2(orig, &n);
    if (!copy || !n || !LLVMIsAInstruction(copy) || LLVMGetValueName2(copy, &(size_t){0})[0])
        return;
    char buf[96];
    snprintf(buf, sizeof buf, "%.*s%s", (int)(n > 80 ? 80 : n), nm, suffix);
    LLVMSetValueName2(copy, buf, strlen(buf));
}

/* Records the result of a definition, and stores it into its slots when it crosses blocks. */
static void define(struct weft_vec_plan *p, struct vinfo *vi, LLVMValueRef scal, LLVMValueRef vec)
{
    name_after(vi->v, scal, "");
    name_after(vi->v, vec, ".v");
    vi->epoch = p->epoch;
    vi->scal = scal;
    vi->vec = vec;
    if (!vi->cross || LLVMIsAPHINode(vi->v))
        return;
    if (vi->slot_s)
        LLVMBuildStore(p->b, scal ? scal : get_scal(p, vi->v), vi->slot_s);
    if (vi->slot_v) {
        LLVMValueRef v = vec ? vec : get_vec(p, vi->v);
        LLVMBuildStore(p->b, p->linear ? blend(p, p->mask, v, vi->slot_v) : v, vi->slot_v);
    }
}

/* ---- emission: instructions --------------------------------------------------------------- */

static void copy_flags(LLVMValueRef from, LLVMValueRef to)
{
    if (!LLVMIsAInstruction(to) || LLVMGetInstructionOpcode(to) != LLVMGetInstructionOpcode(from))
        return;
    switch (LLVMGetInstructionOpcode(from)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNUW(to, LLVMGetNUW(from));
        LLVMSetNSW(to, LLVMGetNSW(from));
        break;
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr:
        LLVMSetExact(to, LLVMGetExact(from));
        break;
    case LLVMOr:
        LLVMSetIsDisjoint(to, LLVMGetIsDisjoint(from));
        break;
    case LLVMZExt:
        LLVMSetNNeg(to, LLVMGetNNeg(from));
        break;
    default:
        break;
    }
    if (LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to))
        LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
}

static bool plain_operand(LLVMValueRef op)
{
    return !op || LLVMValueIsBasicBlock(op) || LLVMIsAFunction(op) || LLVMIsAMDNode(op) || LLVMIsAMDString(op) || LLVMIsAValueAsMetadata(op) ||
           LLVMIsAInlineAsm(op);
}

/* Clears the flags that make an instruction's result poison when a fact it assumes fails. */
static void drop_poison_flags(LLVMValueRef c)
{
    switch (LLVMGetInstructionOpcode(c)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNUW(c, 0);
        LLVMSetNSW(c, 0);
        break;
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr:
        LLVMSetExact(c, 0);
        break;
    case LLVMOr:
        LLVMSetIsDisjoint(c, 0);
        break;
    case LLVMGetElementPtr:
        LLVMGEPSetNoWrapFlags(c, 0);
        break;
    default:
        break;
    }
}

/* The scalar copy of an instruction over scalar operands (lane 0 of affine ones).
 *
 * Under a mask, lane 0 of an affine value may belong to a work-item that does not run this
 * block: the facts the block's code was optimized under need not hold for it. Its value still
 * matters, since the active lanes' addresses are computed from it (lane l = lane 0 + l x
 * stride), so it must be the value the arithmetic gives, never poison: the clone drops the
 * flags that assume those facts. `zext nneg` becomes `sext`: LLVM turns a `sext` guarded by
 * `x >= 0` into `zext nneg`, equal on every active lane, but for an inactive lane 0 with x < 0
 * the zero extension (how the backend lowers it) lands 2^32 elements away from the packet
 * (Rodinia's pathfinder, `if (x >= 0) prev[tx] = src[x]` at the left border). */
static LLVMValueRef scalar_clone(struct weft_vec_plan *p, LLVMValueRef i)
{
    /* a known mask (the tail packet's) has lanes 0..n-1 active: lane 0 runs */
    bool lane0_may_idle = p->mask && p->const_active < 0 && kind_of(p, i) == K_A;
    if (lane0_may_idle && LLVMGetInstructionOpcode(i) == LLVMZExt && LLVMGetNNeg(i))
        return LLVMBuildSExt(p->b, get_scal(p, LLVMGetOperand(i, 0)), LLVMTypeOf(i), "");
    LLVMValueRef c = LLVMInstructionClone(i);
    int no = LLVMGetNumOperands(c);
    for (int o = 0; o < no; o++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
        if (!plain_operand(op))
            LLVMSetOperand(c, (unsigned)o, get_scal(p, op));
    }
    if (lane0_may_idle)
        drop_poison_flags(c);
    LLVMInsertIntoBuilder(p->b, c);
    return c;
}

/* A loop ID `!{self, !{"llvm.loop.unroll.disable"}}` for a loop over lanes that must stay a loop. */
static LLVMValueRef loop_no_unroll(struct weft_vec_plan *p)
{
    LLVMMetadataRef dis = LLVMMDStringInContext2(p->c, "llvm.loop.unroll.disable", 24);
    LLVMMetadataRef opt = LLVMMDNodeInContext2(p->c, &dis, 1);
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(p->c, NULL, 0);
    LLVMMetadataRef ops[] = {tmp, opt};
    LLVMMetadataRef id = LLVMMDNodeInContext2(p->c, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, id);
    return LLVMMetadataAsValue(p->c, id);
}

/* serialize() as a loop over the lanes: one copy of the operation whatever the packet's size,
 * its operands and result moved through extractelement/insertelement at the loop's lane. False
 * (nothing emitted) when a value involved has no vector form (aggregates: cmpxchg's pair). */
static bool serialize_loop(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v;
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    if (has_value && !scalar_type(t))
        return false;
    int no = LLVMGetNumOperands(i);
    for (int o = 0; o < no; o++) {
        struct vinfo *oi = info(p, LLVMGetOperand(i, (unsigned)o));
        if (oi && valid(p, oi) && oi->lanes)
            return false;
    }
    /* the operands' scalar or vector forms before the loop, so that what they cache dominates
     * every later use */
    LLVMValueRef *ops = calloc((size_t)no + 1, sizeof *ops);
    bool *per_lane = calloc((size_t)no + 1, sizeof *per_lane);
    if (!ops || !per_lane)
        abort();
    for (int o = 0; o < no; o++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
        struct vinfo *oi = info(p, op);
        if (plain_operand(op))
            ops[o] = op;
        else if (kind_of(p, op) == K_U && (!oi || (valid(p, oi) && oi->scal)))
            ops[o] = get_scal(p, op);
        else {
            ops[o] = get_vec(p, op);
            per_lane[o] = true;
        }
    }
    unsigned n = p->const_active >= 0 ? (unsigned)p->const_active : p->P;
    bool dynamic = p->const_active < 0 && p->mask;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(p->b));
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(p->b);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(p->c, fn, "lanes");
    LLVMBasicBlockRef run = dynamic ? LLVMAppendBasicBlockInContext(p->c, fn, "lanes.run") : head;
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(p->c, fn, "lanes.next");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(p->c, fn, "lanes.done");
    LLVMTypeRef vt = has_value ? vtype(p, t) : NULL;
    LLVMBuildBr(p->b, head);
    LLVMPositionBuilderAtEnd(p->b, head);
    LLVMValueRef l = LLVMBuildPhi(p->b, p->i32, "lane");
    LLVMValueRef acc = has_value ? LLVMBuildPhi(p->b, vt, "") : NULL;
    if (dynamic) {
        LLVMBuildCondBr(p->b, LLVMBuildExtractElement(p->b, p->mask, l, ""), run, next);
        LLVMPositionBuilderAtEnd(p->b, run);
    }
    LLVMValueRef c = LLVMInstructionClone(i);
    for (int o = 0; o < no; o++)
        if (!plain_operand(LLVMGetOperand(i, (unsigned)o)))
            LLVMSetOperand(c, (unsigned)o,
                           per_lane[o] ? extract_lane(p, ops[o], l, LLVMTypeOf(LLVMGetOperand(i, (unsigned)o))) : ops[o]);
    LLVMInsertIntoBuilder(p->b, c);
    LLVMValueRef ran = has_value ? LLVMBuildInsertElement(p->b, acc, c, l, "") : NULL;
    LLVMBasicBlockRef run_end = LLVMGetInsertBlock(p->b);
    LLVMBuildBr(p->b, next);
    LLVMPositionBuilderAtEnd(p->b, next);
    LLVMValueRef after = ran;
    if (dynamic && has_value) {
        after = LLVMBuildPhi(p->b, vt, "");
        LLVMValueRef vals[] = {ran, acc};
        LLVMBasicBlockRef bbs[] = {run_end, head};
        LLVMAddIncoming(after, vals, bbs, 2);
    }
    LLVMValueRef ln = LLVMBuildNUWAdd(p->b, l, LLVMConstInt(p->i32, 1, 0), "");
    LLVMValueRef more = LLVMBuildICmp(p->b, LLVMIntULT, ln, LLVMConstInt(p->i32, n, 0), "");
    LLVMValueRef br = LLVMBuildCondBr(p->b, more, head, done);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(p->c, "llvm.loop", 9), loop_no_unroll(p));
    LLVMValueRef zero = LLVMConstInt(p->i32, 0, 0);
    LLVMAddIncoming(l, &zero, &pre, 1);
    LLVMAddIncoming(l, &ln, &next, 1);
    if (has_value) {
        LLVMValueRef undef = LLVMGetPoison(vt);
        LLVMAddIncoming(acc, &undef, &pre, 1);
        LLVMAddIncoming(acc, &after, &next, 1);
    }
    LLVMPositionBuilderAtEnd(p->b, done);
    free(ops);
    free(per_lane);
    p->rep->serialized++;
    free(vi->lanes);
    vi->lanes = NULL;
    if (has_value && vi->kind != K_V)
        vi->kind = K_V;   /* a uniform-looking atomic result differs per lane */
    define(p, vi, NULL, acc ? after : NULL);
    return true;
}

/* Per-lane execution in work-item order, for the active lanes only. */
static void serialize(struct weft_vec_plan *p, struct vinfo *vi)
{
    if (p->serial_loops && serialize_loop(p, vi))
        return;
    LLVMValueRef i = vi->v;
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    unsigned n = p->const_active >= 0 ? (unsigned)p->const_active : p->P;
    bool dynamic = p->const_active < 0 && p->mask;
    LLVMValueRef *lanes = has_value ? calloc(p->P, sizeof *lanes) : NULL;
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(p->b));
    p->rep->serialized++;
    for (unsigned l = 0; l < p->P; l++) {
        if (l >= n) {
            if (lanes)
                lanes[l] = LLVMGetPoison(t);
            continue;
        }
        LLVMBasicBlockRef from = NULL, join = NULL;
        if (dynamic) {
            LLVMValueRef bit = LLVMBuildExtractElement(p->b, p->mask, LLVMConstInt(p->i32, l, 0), "");
            from = LLVMGetInsertBlock(p->b);
            LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(p->c, fn, "lane");
            join = LLVMAppendBasicBlockInContext(p->c, fn, "lane.next");
            LLVMBuildCondBr(p->b, bit, run, join);
            LLVMPositionBuilderAtEnd(p->b, run);
        }
        LLVMValueRef c = LLVMInstructionClone(i);
        int no = LLVMGetNumOperands(c);
        for (int o = 0; o < no; o++) {
            LLVMValueRef op = LLVMGetOperand(i, (unsigned)o);
            if (!plain_operand(op))
                LLVMSetOperand(c, (unsigned)o, lane_of(p, op, l));
        }
        LLVMInsertIntoBuilder(p->b, c);
        if (dynamic) {
            LLVMBasicBlockRef ran = LLVMGetInsertBlock(p->b);
            LLVMBuildBr(p->b, join);
            LLVMPositionBuilderAtEnd(p->b, join);
            if (has_value) {
                LLVMValueRef phi = LLVMBuildPhi(p->b, t, "");
                LLVMValueRef vals[] = {c, LLVMGetPoison(t)};
                LLVMBasicBlockRef bbs[] = {ran, from};
                LLVMAddIncoming(phi, vals, bbs, 2);
                c = phi;
            }
        }
        if (lanes)
            lanes[l] = c;
    }
    LLVMValueRef vec = NULL;
    if (has_value && scalar_type(t)) {
        vec = LLVMGetPoison(vtype(p, t));
        for (unsigned l = 0; l < p->P; l++)
            vec = LLVMBuildInsertElement(p->b, vec, lanes[l], LLVMConstInt(p->i32, l, 0), "");
        free(lanes);
        lanes = NULL;
    }
    free(vi->lanes);
    vi->lanes = lanes;
    if (vec && vi->kind != K_V)
        vi->kind = K_V;   /* a uniform-looking atomic result differs per lane */
    define(p, vi, NULL, vec);
}

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
    struct vinfo *pi = info(p, ptr);
    unsigned long long size = packed_size(p, t);
    return pi && pi->kind == K_A && pi->has_stride && size && (unsigned long long)pi->stride == size;
}

/* The address of every component of every lane: <P x ptr> -> <P*n x ptr> for per-work-item
 * type t (a gather or scatter of vector-typed values). */
static LLVMValueRef component_ptrs(struct weft_vec_plan *p, LLVMValueRef ptrs, LLVMTypeRef t)
{
    unsigned n = ncomp(t);
    if (n == 1)
        return ptrs;
    LLVMValueRef rep = spread(p, ptrs, n, true);
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
        return get_vec(p, ptr);
    LLVMValueRef mask = p->mask;
    struct vinfo *gi = info(p, ptr);
    if (gi && valid(p, gi) && LLVMIsAGetElementPtrInst(ptr) && LLVMGetNumOperands(ptr) == 2 &&
        kind_of(p, LLVMGetOperand(ptr, 0)) == K_U && !priv_of(p, LLVMGetOperand(ptr, 0))) {
        LLVMValueRef x = LLVMGetOperand(ptr, 1);
        struct vinfo *xi = info(p, x);
        if (LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMIntegerTypeKind && kind_of(p, x) != K_U && xi && valid(p, xi)) {
            LLVMValueRef xv = get_vec(p, x);
            LLVMValueRef idx = LLVMBuildSelect(p->b, mask, xv, LLVMConstNull(LLVMTypeOf(xv)), "lane.index");
            return LLVMBuildGEPWithNoWrapFlags(p->b, LLVMGetGEPSourceElementType(ptr), get_scal(p, LLVMGetOperand(ptr, 0)),
                                               &idx, 1, "lane.addr", LLVMGEPGetNoWrapFlags(ptr));
        }
    }
    LLVMValueRef ptrs = get_vec(p, ptr);
    return LLVMBuildSelect(p->b, mask, ptrs, LLVMConstNull(LLVMTypeOf(ptrs)), "lane.addr");
}

/* The alignment of one component of an access of type t aligned to `align`. */
static unsigned element_align(struct weft_vec_plan *p, LLVMTypeRef t, unsigned align)
{
    if (ncomp(t) == 1)
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
    if (!info(p, v))
        return -1;
    if (LLVMIsAGetElementPtrInst(v))
        return LLVMGetNumOperands(v) == 2 && kind_of(p, LLVMGetOperand(v, 0)) == K_U ? 1 : -1;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMSExt: case LLVMZExt: case LLVMTrunc:
        return 0;
    case LLVMShl: case LLVMAShr: case LLVMLShr:   /* the value shifted, by a uniform amount */
        return kind_of(p, LLVMGetOperand(v, 1)) == K_U ? 0 : -1;
    case LLVMMul: case LLVMAdd: case LLVMSub: case LLVMOr:   /* either side */
        return kind_of(p, LLVMGetOperand(v, 1)) == K_U ? 0 : kind_of(p, LLVMGetOperand(v, 0)) == K_U ? 1 : -1;
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
        return LLVMBuildGEP2(p->b, LLVMGetGEPSourceElementType(v), get_scal(p, LLVMGetOperand(v, 0)), &val, 1, "");
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc)
        return LLVMBuildCast(p->b, op, val, LLVMTypeOf(v), "");
    LLVMValueRef o = get_scal(p, LLVMGetOperand(v, 1 - j));
    return j ? LLVMBuildBinOp(p->b, op, o, val, "") : LLVMBuildBinOp(p->b, op, val, o, "");
}

/* A load whose address is one of two places chosen per work-item, both contiguous across the
 * packet: select(c, a, b) itself, or address arithmetic on it (HotSpot's clamped neighbour
 * src[c == cols - 1 ? idx : idx + 1] is base + 4 * sext(select(...))). Instead of a gather:
 * one masked vector load per place, each under the lanes that choose it (the lanes that do
 * not may point outside the buffer), and a blend. Fills the two lane-0 addresses and the
 * condition; false for any other address. */
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
    if (!info(p, v) || LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
        return false;
    LLVMValueRef arm[2] = {LLVMGetOperand(v, 1), LLVMGetOperand(v, 2)};
    for (int k = 0; k < 2; k++) {
        struct vinfo *ai = info(p, arm[k]);
        if (!ai || ai->kind != K_A || !ai->has_stride)
            return false;
        int64_t s = ai->stride;
        for (int i = n - 1; i >= 0; i--)
            if (!chain_stride(p, chain[i], carry[i], &s))
                return false;
        if (s != (int64_t)size)
            return false;
    }
    for (int k = 0; k < 2; k++) {
        arm[k] = get_scal(p, arm[k]);
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
    LLVMValueRef c = get_vec(p, cond), nc = LLVMBuildNot(p->b, c, "");
    LLVMValueRef ma = p->mask ? mask_and(p, p->mask, c) : c, mb = p->mask ? mask_and(p, p->mask, nc) : nc;
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(a)};
    LLVMValueRef args_a[] = {a, LLVMConstInt(p->i32, align, 0), ma, LLVMGetPoison(vt)};
    LLVMValueRef args_b[] = {b, LLVMConstInt(p->i32, align, 0), mb, LLVMGetPoison(vt)};
    LLVMValueRef va = call_intrinsic(p, "llvm.masked.load", tys, 2, args_a, 4);
    LLVMValueRef vb = call_intrinsic(p, "llvm.masked.load", tys, 2, args_b, 4);
    define(p, vi, NULL, LLVMBuildSelect(p->b, c, va, vb, ""));
    return true;
}

static void emit_load(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v, ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(i), vt = vtype(p, t);
    unsigned align = LLVMGetAlignment(i);
    struct priv *pv = priv_of(p, ptr);
    if (pv && pv->simple) {
        define(p, vi, NULL, LLVMBuildLoad2(p->b, vt, pv->wide, ""));
        return;
    }
    if (kind_of(p, ptr) != K_U && agreed_access(p, i)) {
        /* the first active lane's address stands for all */
        p->rep->scalar_mem++;
        LLVMValueRef ld = LLVMBuildLoad2(p->b, t, get_scal(p, ptr), "");
        LLVMSetAlignment(ld, align);
        define(p, vi, ld, NULL);
        return;
    }
    if (kind_of(p, ptr) == K_U) {
        p->rep->scalar_mem++;
        define(p, vi, scalar_clone(p, i), NULL);
        return;
    }
    if (unit_stride(p, ptr, t)) {
        p->rep->vector_mem++;
        LLVMValueRef base = get_scal(p, ptr), v;
        if (!p->mask) {
            v = LLVMBuildLoad2(p->b, vt, base, "");
            LLVMSetAlignment(v, align);
        } else {
            LLVMTypeRef tys[] = {vt, LLVMTypeOf(base)};
            LLVMValueRef args[] = {base, LLVMConstInt(p->i32, align, 0), mask_like(p, p->mask, vt), LLVMConstNull(vt)};
            v = call_intrinsic(p, "llvm.masked.load", tys, 2, args, 4);
        }
        define(p, vi, NULL, v);
        return;
    }
    if (emit_choice_load(p, vi, ptr, t, vt, align))
        return;
    p->rep->gathers++;
    LLVMValueRef ptrs = component_ptrs(p, gather_address(p, ptr), t);
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[] = {ptrs, LLVMConstInt(p->i32, element_align(p, t, align), 0), mask_like(p, cur_mask(p), vt),
                           LLVMConstNull(vt)};
    define(p, vi, NULL, call_intrinsic(p, "llvm.masked.gather", tys, 2, args, 4));
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
    LLVMValueRef args[] = {mask_bits(p, p->mask), LLVMConstInt(p->i1, 0, 0)};
    LLVMValueRef lz = call_intrinsic(p, "llvm.ctlz", &it, 1, args, 2);
    LLVMValueRef idx = LLVMBuildSub(p->b, LLVMConstInt(it, p->P - 1, 0), lz, "");
    return LLVMBuildIntCast2(p->b, idx, p->i32, 0, "");
}

static void emit_store(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v, val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    unsigned align = LLVMGetAlignment(i);
    struct priv *pv = priv_of(p, ptr);
    vi->epoch = p->epoch;
    if (pv && pv->simple) {
        LLVMValueRef v = get_vec(p, val);
        LLVMBuildStore(p->b, blend(p, p->linear ? p->mask : NULL, v, pv->wide), pv->wide);
        return;
    }
    if (kind_of(p, ptr) == K_U || agreed_access(p, i)) {
        p->rep->scalar_mem++;
        LLVMValueRef s = kind_of(p, val) == K_U || agreed_access(p, i)
                             ? get_scal(p, val)
                             : extract_lane(p, get_vec(p, val), last_lane(p), t);
        LLVMValueRef st = LLVMBuildStore(p->b, s, get_scal(p, ptr));
        LLVMSetAlignment(st, align);
        LLVMSetVolatile(st, LLVMGetVolatile(i));
        return;
    }
    LLVMValueRef v = get_vec(p, val);
    LLVMTypeRef vt = LLVMTypeOf(v);
    if (unit_stride(p, ptr, t)) {
        p->rep->vector_mem++;
        LLVMValueRef base = get_scal(p, ptr);
        if (!p->mask) {
            LLVMValueRef st = LLVMBuildStore(p->b, v, base);
            LLVMSetAlignment(st, align);
        } else {
            LLVMTypeRef tys[] = {vt, LLVMTypeOf(base)};
            LLVMValueRef args[] = {v, base, LLVMConstInt(p->i32, align, 0), mask_like(p, p->mask, vt)};
            call_intrinsic(p, "llvm.masked.store", tys, 2, args, 4);
        }
        return;
    }
    p->rep->gathers++;
    LLVMValueRef ptrs = component_ptrs(p, gather_address(p, ptr), t);
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[] = {v, ptrs, LLVMConstInt(p->i32, element_align(p, t, align), 0), mask_like(p, cur_mask(p), vt)};
    call_intrinsic(p, "llvm.masked.scatter", tys, 2, args, 4);
}

static bool is_division(LLVMOpcode op)
{
    return op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem;
}

/* The vector form of a lane-wise instruction (vector operands, same opcode and flags). */
static LLVMValueRef vector_clone(struct weft_vec_plan *p, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMBuilderRef b = p->b;
    LLVMValueRef r = NULL;
    switch (op) {
    case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
    case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: {
        LLVMValueRef a = get_vec(p, LLVMGetOperand(i, 0)), c = get_vec(p, LLVMGetOperand(i, 1));
        if (is_division(op) && p->mask && kind_of(p, LLVMGetOperand(i, 1)) != K_U) {
            /* inactive lanes may hold anything: never let them divide by zero */
            LLVMTypeRef et = LLVMTypeOf(LLVMGetOperand(i, 1));
            if (LLVMGetTypeKind(et) == LLVMVectorTypeKind)
                et = LLVMGetElementType(et);
            LLVMValueRef *ones = malloc(sizeof *ones * LLVMGetVectorSize(LLVMTypeOf(c)));
            if (!ones)
                abort();
            for (unsigned k = 0; k < LLVMGetVectorSize(LLVMTypeOf(c)); k++)
                ones[k] = LLVMConstInt(et, 1, 0);
            LLVMValueRef one = LLVMConstVector(ones, LLVMGetVectorSize(LLVMTypeOf(c)));
            free(ones);
            c = LLVMBuildSelect(b, mask_like(p, p->mask, LLVMTypeOf(c)), c, one, "");
        }
        r = LLVMBuildBinOp(b, op, a, c, "");
        break;
    }
    case LLVMFNeg:
        r = LLVMBuildFNeg(b, get_vec(p, LLVMGetOperand(i, 0)), "");
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP:
    case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMBitCast: case LLVMAddrSpaceCast:
        r = LLVMBuildCast(b, op, get_vec(p, LLVMGetOperand(i, 0)), vtype(p, LLVMTypeOf(i)), "");
        break;
    case LLVMICmp:
        r = LLVMBuildICmp(b, LLVMGetICmpPredicate(i), get_vec(p, LLVMGetOperand(i, 0)),
                          get_vec(p, LLVMGetOperand(i, 1)), "");
        break;
    case LLVMFCmp:
        r = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(i), get_vec(p, LLVMGetOperand(i, 0)),
                          get_vec(p, LLVMGetOperand(i, 1)), "");
        break;
    case LLVMSelect: {
        LLVMValueRef cnd = LLVMGetOperand(i, 0);
        LLVMValueRef tv = get_vec(p, LLVMGetOperand(i, 1)), fv = get_vec(p, LLVMGetOperand(i, 2));
        LLVMValueRef cv = kind_of(p, cnd) == K_U ? get_scal(p, cnd) : get_vec(p, cnd);
        if (LLVMGetTypeKind(LLVMTypeOf(cnd)) != LLVMVectorTypeKind && kind_of(p, cnd) != K_U)
            cv = mask_like(p, cv, LLVMTypeOf(tv));   /* one condition per work-item, n components */
        r = LLVMBuildSelect(b, cv, tv, fv, "");
        break;
    }
    case LLVMFreeze:
        r = LLVMBuildFreeze(b, get_vec(p, LLVMGetOperand(i, 0)), "");
        break;
    case LLVMExtractElement: {
        /* component j of each lane */
        LLVMValueRef v = LLVMGetOperand(i, 0);
        int j = (int)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 1));
        unsigned n = ncomp(LLVMTypeOf(v));
        int *idx = malloc(sizeof(int) * p->P);
        if (!idx)
            abort();
        for (unsigned l = 0; l < p->P; l++)
            idx[l] = (int)(l * n) + j;
        LLVMValueRef vv = get_vec(p, v);
        r = LLVMBuildShuffleVector(b, vv, LLVMGetPoison(LLVMTypeOf(vv)), shuffle_mask(p, idx, p->P), "");
        free(idx);
        break;
    }
    case LLVMInsertElement: {
        LLVMValueRef v = LLVMGetOperand(i, 0), e = LLVMGetOperand(i, 1);
        unsigned j = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2)), n = ncomp(LLVMTypeOf(v));
        LLVMValueRef vv = get_vec(p, v), ev = get_vec(p, e);
        /* widen the P new components to the packet's length, then merge them in */
        int *idx = malloc(sizeof(int) * p->P * n);
        if (!idx)
            abort();
        for (unsigned k = 0; k < p->P * n; k++)
            idx[k] = k < p->P ? (int)k : -1;
        LLVMValueRef ew = n == 1 ? ev : LLVMBuildShuffleVector(b, ev, LLVMGetPoison(LLVMTypeOf(ev)), shuffle_mask(p, idx, p->P * n), "");
        for (unsigned l = 0; l < p->P; l++)
            for (unsigned k = 0; k < n; k++)
                idx[l * n + k] = k == j ? (int)(p->P * n + l) : (int)(l * n + k);
        r = LLVMBuildShuffleVector(b, vv, ew, shuffle_mask(p, idx, p->P * n), "");
        free(idx);
        break;
    }
    case LLVMShuffleVector: {
        LLVMValueRef a = LLVMGetOperand(i, 0), c = LLVMGetOperand(i, 1);
        unsigned n = ncomp(LLVMTypeOf(a)), m = LLVMGetNumMaskElements(i);
        int *idx = malloc(sizeof(int) * p->P * m);
        if (!idx)
            abort();
        for (unsigned l = 0; l < p->P; l++)
            for (unsigned k = 0; k < m; k++) {
                int mk = LLVMGetMaskValue(i, k);
                idx[l * m + k] = mk == LLVMGetUndefMaskElem() ? -1
                                 : mk < (int)n                ? (int)(l * n) + mk
                                                              : (int)(p->P * n + l * n) + (mk - (int)n);
            }
        r = LLVMBuildShuffleVector(b, get_vec(p, a), get_vec(p, c), shuffle_mask(p, idx, p->P * m), "");
        free(idx);
        break;
    }
    case LLVMGetElementPtr: {
        unsigned n = (unsigned)LLVMGetNumOperands(i);
        LLVMValueRef base = LLVMGetOperand(i, 0);
        LLVMValueRef *idx = malloc(sizeof *idx * n);
        if (!idx)
            abort();
        bool any_vec = kind_of(p, base) != K_U;
        for (unsigned o = 1; o < n; o++) {
            LLVMValueRef x = LLVMGetOperand(i, o);
            if (LLVMIsAConstant(x) || kind_of(p, x) == K_U) {
                idx[o - 1] = LLVMIsAConstant(x) ? x : get_scal(p, x);
            } else {
                idx[o - 1] = get_vec(p, x);
                any_vec = true;
            }
        }
        LLVMValueRef bv = kind_of(p, base) != K_U || !any_vec ? get_vec(p, base) : get_scal(p, base);
        r = LLVMBuildGEPWithNoWrapFlags(b, LLVMGetGEPSourceElementType(i), bv, idx, n - 1, "",
                                        LLVMGEPGetNoWrapFlags(i));
        free(idx);
        break;
    }
    case LLVMCall: {
        const struct lanewise *lw = lanewise_of(i);
        if (!lw)
            break;
        unsigned n = LLVMGetNumArgOperands(i);
        LLVMValueRef args[4];
        LLVMTypeRef tys[2];
        size_t nt = 0;
        for (unsigned o = 0; o < n; o++) {
            LLVMValueRef x = LLVMGetOperand(i, o);
            args[o] = (int)o == lw->imm_operand ? x : get_vec(p, x);
        }
        tys[nt++] = lw->overload_arg0 ? LLVMTypeOf(args[0]) : vtype(p, LLVMTypeOf(i));
        if (lw->overload_arg1)
            tys[nt++] = LLVMTypeOf(args[1]);
        r = call_intrinsic(p, lw->name, tys, nt, args, n);
        break;
    }
    default:
        break;
    }
    if (!r) {
        fail_at(p, "cannot widen", i);
        return LLVMGetPoison(vtype(p, LLVMTypeOf(i)));
    }
    copy_flags(i, r);
    return r;
}

static void emit_local_id(struct weft_vec_plan *p, struct vinfo *vi)
{
    uint64_t d = LLVMConstIntGetZExtValue(LLVMGetOperand(vi->v, 0));
    LLVMTypeRef t = LLVMTypeOf(vi->v);
    if (d == 0) {
        LLVMValueRef s = LLVMBuildIntCast2(p->b, p->base, t, 0, "lid.x");
        LLVMValueRef v = LLVMBuildAdd(p->b, splat(p, s), iota(p, t), "lid.x.lanes");
        vi->kind = K_A;
        vi->has_stride = true;
        vi->stride = 1;
        define(p, vi, s, v);
        return;
    }
    LLVMValueRef iv = d == 1 ? p->ivy : d == 2 ? p->ivz : NULL;
    define(p, vi, iv ? LLVMBuildIntCast2(p->b, iv, t, 0, "") : LLVMConstInt(t, 0, 0), NULL);
}

/* ---- emission: sub-group collectives ------------------------------------------------------ */

/* A sub-group is one W-lane group of the packet: lanes [g*W, (g+1)*W) of packet lanes, i.e.
 * W consecutive work-items starting at a multiple of W (wgfunction.c only lets the vectorizer
 * run a kernel with sub-groups when that is the spec's sub-group of those work-items). Every
 * collective works on the lanes of the current mask: an inactive lane (divergent code, the
 * tail of a local size that is not a multiple of P) contributes the operation's identity. */

/* Lanes [g*W, (g+1)*W) of a P-lane vector. */
static LLVMValueRef group_lanes(struct weft_vec_plan *p, LLVMValueRef v, unsigned g)
{
    if (p->P == p->W)
        return v;
    int *idx = malloc(sizeof(int) * p->W);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->W; l++)
        idx[l] = (int)(g * p->W + l);
    LLVMValueRef r = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), shuffle_mask(p, idx, p->W), "");
    free(idx);
    return r;
}

/* The P-lane vector whose lanes of group g all hold r[g]. */
static LLVMValueRef spread_groups(struct weft_vec_plan *p, LLVMValueRef *r, LLVMTypeRef t)
{
    unsigned ng = p->P / p->W;
    if (ng == 1)
        return splat(p, r[0]);
    LLVMValueRef v = LLVMGetPoison(LLVMVectorType(t, ng));
    for (unsigned g = 0; g < ng; g++)
        v = LLVMBuildInsertElement(p->b, v, r[g], LLVMConstInt(p->i32, g, 0), "");
    int *idx = malloc(sizeof(int) * p->P);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        idx[l] = (int)(l / p->W);
    LLVMValueRef out = LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), shuffle_mask(p, idx, p->P), "");
    free(idx);
    return out;
}

/* One W-lane vector reduced to a scalar by the collective's operation. */
static LLVMValueRef reduce_group(struct weft_vec_plan *p, const struct weft_sg_call *sg, LLVMValueRef v)
{
    LLVMTypeRef vt = LLVMTypeOf(v);
    if (sg->is_float && sg->op == WEFT_SG_OP_ADD) {
        /* reassociable: the specification leaves the order of a floating-point reduction open */
        LLVMValueRef args[] = {weft_subgroup_identity(LLVMGetElementType(vt), sg), v};
        LLVMValueRef r = call_intrinsic(p, "llvm.vector.reduce.fadd", &vt, 1, args, 2);
        LLVMSetFastMathFlags(r, LLVMFastMathAllowReassoc);
        return r;
    }
    const char *name = sg->is_float ? (sg->op == WEFT_SG_OP_MIN ? "llvm.vector.reduce.fmin" : "llvm.vector.reduce.fmax")
                       : sg->op == WEFT_SG_OP_ADD ? "llvm.vector.reduce.add"
                       : sg->op == WEFT_SG_OP_MIN ? (sg->is_signed ? "llvm.vector.reduce.smin" : "llvm.vector.reduce.umin")
                                                  : (sg->is_signed ? "llvm.vector.reduce.smax" : "llvm.vector.reduce.umax");
    return call_intrinsic(p, name, &vt, 1, &v, 1);
}

/* a op b, lane by lane (fmin/fmax are OpenCL's: a NaN operand yields the other). */
static LLVMValueRef combine_lanes(struct weft_vec_plan *p, const struct weft_sg_call *sg, LLVMValueRef a, LLVMValueRef b)
{
    if (sg->op == WEFT_SG_OP_ADD)
        return sg->is_float ? LLVMBuildFAdd(p->b, a, b, "") : LLVMBuildAdd(p->b, a, b, "");
    const char *name = sg->is_float ? (sg->op == WEFT_SG_OP_MIN ? "llvm.minnum" : "llvm.maxnum")
                       : sg->op == WEFT_SG_OP_MIN ? (sg->is_signed ? "llvm.smin" : "llvm.umin")
                                                  : (sg->is_signed ? "llvm.smax" : "llvm.umax");
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[] = {a, b};
    return call_intrinsic(p, name, &t, 1, args, 2);
}

/* v with each lane l replaced by lane l - k of its group, or by `fill` for the first k lanes
 * of each group. */
static LLVMValueRef shift_in_groups(struct weft_vec_plan *p, LLVMValueRef v, unsigned k, LLVMValueRef fill)
{
    int *idx = malloc(sizeof(int) * p->P);
    if (!idx)
        abort();
    for (unsigned l = 0; l < p->P; l++)
        idx[l] = l % p->W >= k ? (int)(l - k) : (int)(p->P + l);
    LLVMValueRef r = LLVMBuildShuffleVector(p->b, v, fill, shuffle_mask(p, idx, p->P), "");
    free(idx);
    return r;
}

static void emit_collective(struct weft_vec_plan *p, struct vinfo *vi, const struct weft_sg_call *sg)
{
    LLVMValueRef i = vi->v, x = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(x), rt = LLVMTypeOf(i);
    LLVMValueRef xv = get_vec(p, x), m = p->mask, r = NULL;
    unsigned ng = p->P / p->W;
    LLVMValueRef *res = calloc(ng, sizeof *res);
    if (!res)
        abort();
    switch (sg->kind) {
    case WEFT_SG_ALL:
    case WEFT_SG_ANY: {
        bool all = sg->kind == WEFT_SG_ALL;
        LLVMValueRef c = LLVMBuildICmp(p->b, LLVMIntNE, xv, LLVMConstNull(LLVMTypeOf(xv)), "");
        /* inactive lanes neither veto `all` nor satisfy `any` */
        if (m)
            c = LLVMBuildSelect(p->b, m, c, const_splat(p, LLVMConstInt(p->i1, all, 0)), "");
        for (unsigned g = 0; g < ng; g++) {
            LLVMValueRef gv = group_lanes(p, c, g);
            LLVMTypeRef gt = LLVMTypeOf(gv);
            LLVMValueRef red = call_intrinsic(p, all ? "llvm.vector.reduce.and" : "llvm.vector.reduce.or", &gt, 1, &gv, 1);
            res[g] = LLVMBuildZExt(p->b, red, rt, "");
        }
        r = spread_groups(p, res, rt);
        break;
    }
    case WEFT_SG_REDUCE: {
        LLVMValueRef xi = m ? LLVMBuildSelect(p->b, m, xv, const_splat(p, weft_subgroup_identity(t, sg)), "") : xv;
        for (unsigned g = 0; g < ng; g++)
            res[g] = reduce_group(p, sg, group_lanes(p, xi, g));
        r = spread_groups(p, res, rt);
        break;
    }
    case WEFT_SG_SCAN_INCLUSIVE:
    case WEFT_SG_SCAN_EXCLUSIVE: {
        /* Hillis-Steele within each group: log2(W) shifted combines */
        LLVMValueRef id = const_splat(p, weft_subgroup_identity(t, sg));
        r = m ? LLVMBuildSelect(p->b, m, xv, id, "") : xv;
        for (unsigned k = 1; k < p->W; k *= 2)
            r = combine_lanes(p, sg, r, shift_in_groups(p, r, k, id));
        if (sg->kind == WEFT_SG_SCAN_EXCLUSIVE)
            r = shift_in_groups(p, r, 1, id);
        break;
    }
    case WEFT_SG_BROADCAST: {
        /* the lane is the same for the whole sub-group (the specification's condition); a lane
         * outside the sub-group or an inactive one is undefined: wrap it into the group and
         * freeze whatever that lane holds */
        LLVMValueRef lane = LLVMGetOperand(i, 1);
        LLVMValueRef wmask = LLVMConstInt(p->i32, p->W - 1, 0);
        bool uniform = kind_of(p, lane) == K_U;
        LLVMValueRef ls = uniform ? LLVMBuildAnd(p->b, LLVMBuildIntCast2(p->b, get_scal(p, lane), p->i32, 0, ""), wmask, "") : NULL;
        LLVMValueRef lv = uniform ? NULL : get_vec(p, lane);
        LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
        LLVMValueRef bits = uniform ? NULL : mask_bits(p, cur_mask(p));
        for (unsigned g = 0; g < ng; g++) {
            LLVMValueRef base = LLVMConstInt(p->i32, g * p->W, 0), l = ls;
            if (!uniform) {
                /* the lane index as the group's first active lane has it */
                LLVMValueRef gb = LLVMBuildLShr(p->b, bits, LLVMConstInt(it, g * p->W, 0), "");
                LLVMValueRef args[] = {gb, LLVMConstInt(p->i1, 0, 0)};
                LLVMValueRef tz = LLVMBuildIntCast2(p->b, call_intrinsic(p, "llvm.cttz", &it, 1, args, 2), p->i32, 0, "");
                LLVMValueRef first = LLVMBuildAdd(p->b, base, LLVMBuildAnd(p->b, tz, wmask, ""), "");
                l = LLVMBuildExtractElement(p->b, lv, first, "");
                l = LLVMBuildAnd(p->b, LLVMBuildIntCast2(p->b, l, p->i32, 0, ""), wmask, "");
            }
            LLVMValueRef e = LLVMBuildExtractElement(p->b, xv, LLVMBuildAdd(p->b, base, l, ""), "");
            res[g] = LLVMBuildFreeze(p->b, e, "");
        }
        r = spread_groups(p, res, rt);
        break;
    }
    default:
        break;
    }
    free(res);
    if (!r) {
        fail_at(p, "internal: an unknown sub-group collective", i);
        return;
    }
    define(p, vi, NULL, r);
}

static void emit_inst(struct weft_vec_plan *p, struct vinfo *vi)
{
    LLVMValueRef i = vi->v;
    if (LLVMIsAPHINode(i) || LLVMIsATerminatorInst(i))
        return;
    if (LLVMIsACallInst(i) && droppable_call(i)) {
        vi->epoch = p->epoch;
        return;
    }
    if (LLVMIsACallInst(i) && weft_wi_call_kind(i) == WEFT_WI_LOCAL_ID) {
        emit_local_id(p, vi);
        return;
    }
    struct weft_sg_call sg = weft_subgroup_call(i);
    if (weft_subgroup_is_collective(sg.kind)) {
        emit_collective(p, vi, &sg);
        return;
    }
    if (is_serialized(i)) {
        serialize(p, vi);
        return;
    }
    if (LLVMIsALoadInst(i)) {
        emit_load(p, vi);
        return;
    }
    if (LLVMIsAStoreInst(i)) {
        emit_store(p, vi);
        return;
    }
    if (LLVMIsAExtractValueInst(i) && vi->kind != K_U) {
        struct vinfo *ai = info(p, LLVMGetOperand(i, 0));
        LLVMValueRef v = LLVMGetPoison(vtype(p, LLVMTypeOf(i)));
        for (unsigned l = 0; l < p->P; l++) {
            LLVMValueRef e = LLVMBuildExtractValue(p->b, ai->lanes[l], *LLVMGetIndices(i), "");
            v = LLVMBuildInsertElement(p->b, v, e, LLVMConstInt(p->i32, l, 0), "");
        }
        define(p, vi, NULL, v);
        return;
    }
    switch (vi->kind) {
    case K_U:
        define(p, vi, scalar_clone(p, i), NULL);
        break;
    case K_A: {
        LLVMValueRef s = scalar_clone(p, i);
        define(p, vi, s, vector_clone(p, i));
        break;
    }
    default:
        define(p, vi, NULL, vector_clone(p, i));
        break;
    }
}

/* ---- emission: blocks ---------------------------------------------------------------------- */

static LLVMValueRef entry_alloca(struct weft_vec_plan *p, LLVMTypeRef t, const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(p->c);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(p->wf->fn);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef a = LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return a;
}

static void make_slots(struct weft_vec_plan *p)
{
    for (size_t x = 0; x < p->nvi; x++) {
        struct vinfo *v = &p->vi[x];
        LLVMTypeRef t = LLVMTypeOf(v->v);
        if (!v->cross || LLVMGetTypeKind(t) == LLVMVoidTypeKind)
            continue;
        if (v->kind != K_V)
            v->slot_s = entry_alloca(p, t, "vslot.s");
        if (v->kind != K_U || is_serialized(v->v))
            v->slot_v = entry_alloca(p, vtype(p, t), "vslot.v");
    }
    for (size_t x = 0; x < p->npriv; x++) {
        struct priv *pv = &p->priv[x];
        LLVMTypeRef t = LLVMGetAllocatedType(pv->alloca);
        if (pv->simple) {
            pv->wide = entry_alloca(p, vtype(p, t), "priv.lanes");
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
        pv->wide = entry_alloca(p, at, "priv.lanes");
        if (al)
            LLVMSetAlignment(pv->wide, al);
        /* each lane's copy, addressed right after the alloca in the entry block */
        LLVMBuilderRef b = LLVMCreateBuilderInContext(p->c);
        LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(pv->wide));
        LLVMValueRef idx[] = {LLVMConstInt(p->i64, 0, 0), iota(p, p->i64)};
        pv->lanes = LLVMBuildInBoundsGEP2(b, at, pv->wide, idx, 2, "priv.lane.ptrs");
        LLVMDisposeBuilder(b);
    }
    if (p->linear) {
        LLVMTypeRef mt = LLVMVectorType(p->i1, p->P);
        p->bmask = calloc(p->nb, sizeof *p->bmask);
        p->xmask = calloc(p->nexits + 1, sizeof *p->xmask);
        if (!p->bmask || !p->xmask)
            abort();
        for (unsigned k = 0; k < p->nb; k++)
            p->bmask[k] = entry_alloca(p, mt, "mask");
        for (unsigned e = 0; e < p->nexits; e++)
            p->xmask[e] = entry_alloca(p, mt, "exit.mask");
    }
}

static void reload(struct weft_vec_plan *p, LLVMValueRef op, int k)
{
    struct vinfo *vi = info(p, op);
    if (!vi || valid(p, vi) || (vi->block == k && !LLVMIsAPHINode(op)) || (!vi->slot_s && !vi->slot_v))
        return;
    vi->epoch = p->epoch;
    vi->scal = vi->slot_s ? LLVMBuildLoad2(p->b, LLVMTypeOf(op), vi->slot_s, "") : NULL;
    vi->vec = vi->slot_v ? LLVMBuildLoad2(p->b, vtype(p, LLVMTypeOf(op)), vi->slot_v, "") : NULL;
}

/* At the top of an original block: loads of its PHIs, of the values it uses from other blocks,
 * and of those its successors' PHIs take from it. */
static void preload(struct weft_vec_plan *p, int k)
{
    p->epoch++;
    LLVMBasicBlockRef bb = p->blocks[k];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (LLVMIsAPHINode(i)) {
            reload(p, i, k);
            continue;
        }
        int no = LLVMGetNumOperands(i);
        for (int o = 0; o < no; o++)
            reload(p, LLVMGetOperand(i, (unsigned)o), k);
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned j = 0; j < ns; j++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi))
            for (unsigned q = 0; q < LLVMCountIncoming(phi); q++)
                if (LLVMGetIncomingBlock(phi, q) == bb)
                    reload(p, LLVMGetIncomingValue(phi, q), k);
    }
}

static LLVMValueRef any_lane(struct weft_vec_plan *p, LLVMValueRef mask)
{
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    return LLVMBuildICmp(p->b, LLVMIntNE, mask_bits(p, mask), LLVMConstInt(it, 0, 0), "any");
}

/* Stores what the PHIs of successor `s` take from block k, under `mask` (NULL: no blend). */
static void store_phis(struct weft_vec_plan *p, int k, LLVMBasicBlockRef s, LLVMValueRef mask)
{
    for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
        struct vinfo *pi = info(p, phi);
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned q = 0; q < n; q++) {
            if (LLVMGetIncomingBlock(phi, q) != p->blocks[k])
                continue;
            LLVMValueRef v = LLVMGetIncomingValue(phi, q);
            if (pi->slot_s) {
                LLVMValueRef sv = get_scal(p, v);
                if (mask) {
                    /* a uniform or affine PHI keeps its value when no lane takes the edge */
                    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(sv), pi->slot_s, "");
                    sv = LLVMBuildSelect(p->b, any_lane(p, mask), sv, old, "");
                }
                LLVMBuildStore(p->b, sv, pi->slot_s);
            }
            if (pi->slot_v)
                LLVMBuildStore(p->b, blend(p, mask, get_vec(p, v), pi->slot_v), pi->slot_v);
            break;   /* one incoming value per predecessor block */
        }
    }
}

static void or_into(struct weft_vec_plan *p, LLVMValueRef slot, LLVMValueRef m)
{
    LLVMValueRef old = LLVMBuildLoad2(p->b, LLVMTypeOf(m), slot, "");
    LLVMBuildStore(p->b, LLVMBuildOr(p->b, old, m, ""), slot);
}

static int exit_index(struct weft_vec_plan *p, LLVMBasicBlockRef bb)
{
    for (unsigned e = 0; e < p->nexits; e++)
        if (p->exits[e] == bb)
            return (int)e;
    return -1;
}

struct stubs {
    LLVMBasicBlockRef *bb;   /* [nexits] */
    weft_vec_exit_fn fn;
    void *opaque;
    LLVMBasicBlockRef done;
};

static LLVMBasicBlockRef stub_for(struct weft_vec_plan *p, struct stubs *st, int e)
{
    if (!st->bb[e])
        st->bb[e] = st->fn(st->opaque, p->exits[e], st->done);
    return st->bb[e];
}

static void emit_block_body(struct weft_vec_plan *p, int k)
{
    preload(p, k);
    for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[k]); i && !p->failed; i = LLVMGetNextInstruction(i))
        emit_inst(p, info(p, i));
}

static void edge_masks(struct weft_vec_plan *p, int k, LLVMValueRef m, LLVMValueRef *emask);
static LLVMBasicBlockRef after_position(struct weft_vec_plan *p, int last, int inner_first, LLVMBasicBlockRef *guard,
                                        LLVMBasicBlockRef *loop_end, LLVMBasicBlockRef exit_chain);

/* The fast path's hand-over to the linear copy where the lanes of a full packet first disagree
 * at block k's terminator. Up to here every lane ran every block of the path, so the linear
 * copy's state is what it would be had it run them: no mask set but the edges out of k (all
 * lanes were in k), values in their slots (both copies keep them there; k's successors' PHI
 * slots hold k's values for every lane, and each lane reads only those of the successor it
 * takes). Control goes on at the position after k, as the linear copy would after k. */
static LLVMBasicBlockRef hand_over(struct weft_vec_plan *p, int k)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "diverge");
    LLVMBasicBlockRef saved = LLVMGetInsertBlock(p->b);
    LLVMPositionBuilderAtEnd(p->b, bb);
    /* every mask is clear already (clear_masks at the packet's start; the unmasked copy
     * writes none): a hand-over costs its two edge masks, not one store per block, which made
     * the code quadratic in the blocks of a sub-CFG with many divergent branches */
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    unsigned ns = LLVMGetNumSuccessors(t);
    LLVMValueRef *emask = calloc(ns + 1, sizeof *emask);
    if (!emask)
        abort();
    edge_masks(p, k, const_mask(p, p->P), emask);
    for (unsigned j = 0; j < ns; j++) {
        int si = block_index(p, LLVMGetSuccessor(t, j));
        or_into(p, si >= 0 ? p->bmask[si] : p->xmask[exit_index(p, LLVMGetSuccessor(t, j))], emask[j]);
    }
    free(emask);
    LLVMBuildBr(p->b, after_position(p, p->position[k], p->norder, p->lin_guard, p->lin_loop_end, p->lin_exit));
    LLVMPositionBuilderAtEnd(p->b, saved);
    return bb;
}

/* Whether the lanes of a full packet agree on i1 `cond`, from scalars where that is cheap:
 * *all and *none are i1 values such that *all implies every lane's `cond` is true and *none
 * implies none is (each may be false when the lanes do agree: the caller then tests the lanes).
 * A comparison of an affine integer of constant stride with a uniform value is decided by the
 * packet's first and last lanes (the lanes lie between them, in order, unless the last lane
 * overflows: then nothing is decided); `and`, `or` and `not` of such comparisons combine them.
 * Stencils test their borders this way (`if (i == 0 || i == n - 1)`): the packets inside decide
 * with two scalar compares instead of a vector of lane ids. False when nothing is decided. */
static bool lanes_agree_scalar(struct weft_vec_plan *p, LLVMValueRef cond, unsigned depth, LLVMValueRef *all,
                               LLVMValueRef *none)
{
    LLVMValueRef F = LLVMConstInt(p->i1, 0, 0);
    *all = *none = F;
    if (kind_of(p, cond) == K_U) {
        LLVMValueRef u = get_scal(p, cond);
        *all = u;
        *none = LLVMBuildNot(p->b, u, "");
        return true;
    }
    if (depth > 4 || !LLVMIsAInstruction(cond))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(cond);
    LLVMValueRef a_all, a_none, b_all, b_none;
    if (op == LLVMXor && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) &&
        LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1) {
        if (!lanes_agree_scalar(p, LLVMGetOperand(cond, 0), depth + 1, &a_all, &a_none))
            return false;
        *all = a_none;
        *none = a_all;
        return true;
    }
    /* `and`/`or`, and clang's short-circuit forms select(a, b, false) and select(a, true, b) */
    int is_and = op == LLVMAnd, is_or = op == LLVMOr;
    LLVMValueRef x = NULL, y = NULL;
    if (is_and || is_or) {
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 1);
    } else if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 2)) &&
               !LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 2))) {
        is_and = 1;
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 1);
    } else if (op == LLVMSelect && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) &&
               LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) == 1) {
        is_or = 1;
        x = LLVMGetOperand(cond, 0);
        y = LLVMGetOperand(cond, 2);
    }
    if (is_and || is_or) {
        bool dx = lanes_agree_scalar(p, x, depth + 1, &a_all, &a_none);
        bool dy = lanes_agree_scalar(p, y, depth + 1, &b_all, &b_none);
        if (!dx && !dy)
            return false;
        if (is_and) {   /* all: both all; none: either none */
            *all = dx && dy ? LLVMBuildAnd(p->b, a_all, b_all, "") : F;
            *none = LLVMBuildOr(p->b, a_none, b_none, "");
        } else {        /* all: either all; none: both none */
            *all = LLVMBuildOr(p->b, a_all, b_all, "");
            *none = dx && dy ? LLVMBuildAnd(p->b, a_none, b_none, "") : F;
        }
        return true;
    }
    if (op != LLVMICmp)
        return false;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
    LLVMValueRef v = LLVMGetOperand(cond, 0), u = LLVMGetOperand(cond, 1);
    if (kind_of(p, v) == K_U) {   /* the affine side on the left: u pred v is v swapped(pred) u */
        LLVMValueRef t = v;
        v = u;
        u = t;
        static const LLVMIntPredicate swapped[] = {
            [LLVMIntEQ] = LLVMIntEQ, [LLVMIntNE] = LLVMIntNE, [LLVMIntUGT] = LLVMIntULT, [LLVMIntUGE] = LLVMIntULE,
            [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE, [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE,
            [LLVMIntSLT] = LLVMIntSGT, [LLVMIntSLE] = LLVMIntSGE,
        };
        pred = swapped[pred];
    }
    struct vinfo *vi = info(p, v);
    LLVMTypeRef t = LLVMTypeOf(v);
    if (kind_of(p, u) != K_U || !vi || vi->kind != K_A || !vi->has_stride || vi->stride == 0 ||
        LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return false;
    bool is_signed = pred == LLVMIntSGT || pred == LLVMIntSGE || pred == LLVMIntSLT || pred == LLVMIntSLE;
    /* last lane = first + (P-1)*stride, checked for overflow in the comparison's signedness
     * (EQ/NE: unsigned, so that the lanes are strictly ordered as unsigned numbers) */
    unsigned bits = LLVMGetIntTypeWidth(t);
    int64_t step;
    if (p->P < 2 || __builtin_mul_overflow(vi->stride, (int64_t)(p->P - 1), &step) || step == INT64_MIN ||
        (bits < 64 && (step >= (int64_t)1 << (bits - 1) || step < -((int64_t)1 << (bits - 1)))))
        return false;
    LLVMValueRef first = get_scal(p, v), uu = get_scal(p, u);
    char name[40];
    bool up = vi->stride > 0;
    snprintf(name, sizeof name, "llvm.%s%s.with.overflow", is_signed ? "s" : "u", up || is_signed ? "add" : "sub");
    LLVMValueRef d = LLVMConstInt(t, (uint64_t)(up || is_signed ? step : -step), 1);
    LLVMValueRef args[] = {first, d};
    LLVMValueRef r = call_intrinsic(p, name, &t, 1, args, 2);
    LLVMValueRef last = LLVMBuildExtractValue(p->b, r, 0, "last.lane");
    LLVMValueRef ok = LLVMBuildNot(p->b, LLVMBuildExtractValue(p->b, r, 1, ""), "");
    LLVMValueRef lo = up ? first : last, hi = up ? last : first;
    LLVMValueRef A = F, N = F;
    if (pred == LLVMIntEQ || pred == LLVMIntNE) {
        /* the lanes differ: never all equal; none equal when u lies outside them */
        LLVMValueRef above = LLVMBuildICmp(p->b, LLVMIntUGT, uu, hi, "");
        LLVMValueRef below = LLVMBuildICmp(p->b, LLVMIntULT, uu, lo, "");
        *(pred == LLVMIntEQ ? &N : &A) = LLVMBuildOr(p->b, below, above, "");
    } else {
        /* an ordering holds in every lane when it holds in the extreme lane on its side (the
         * last for < and <=, the first for > and >=), and in none when its inverse holds in
         * every lane */
        static const LLVMIntPredicate inverse[] = {
            [LLVMIntUGT] = LLVMIntULE, [LLVMIntUGE] = LLVMIntULT, [LLVMIntULT] = LLVMIntUGE, [LLVMIntULE] = LLVMIntUGT,
            [LLVMIntSGT] = LLVMIntSLE, [LLVMIntSGE] = LLVMIntSLT, [LLVMIntSLT] = LLVMIntSGE, [LLVMIntSLE] = LLVMIntSGT,
        };
        bool less = pred == LLVMIntULT || pred == LLVMIntULE || pred == LLVMIntSLT || pred == LLVMIntSLE;
        A = LLVMBuildICmp(p->b, pred, less ? hi : lo, uu, "");
        N = LLVMBuildICmp(p->b, inverse[pred], less ? lo : hi, uu, "");
    }
    *all = A == F ? F : LLVMBuildAnd(p->b, ok, A, "lanes.all");
    *none = N == F ? F : LLVMBuildAnd(p->b, ok, N, "lanes.none");
    return true;
}

/* The lanes of i1 `cond` computed anew at the builder: comparisons of affine values rebuild
 * those from their scalars, `and`/`or`/`xor`/`select` rebuild their operands, anything else is
 * its vector as emitted. */
static LLVMValueRef lanes_again(struct weft_vec_plan *p, LLVMValueRef v, unsigned depth)
{
    struct vinfo *vi = info(p, v);
    if (!vi || !valid(p, vi) || depth > 4)
        return get_vec(p, v);
    if (vi->kind == K_A && vi->has_stride && vi->scal)
        return affine_vec(p, vi);
    if (vi->kind != K_V || !LLVMIsAInstruction(v))
        return get_vec(p, v);
    LLVMValueRef a, b;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMICmp:
        a = lanes_again(p, LLVMGetOperand(v, 0), depth + 1);
        b = lanes_again(p, LLVMGetOperand(v, 1), depth + 1);
        return LLVMBuildICmp(p->b, LLVMGetICmpPredicate(v), a, b, "");
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
        a = lanes_again(p, LLVMGetOperand(v, 0), depth + 1);
        b = lanes_again(p, LLVMGetOperand(v, 1), depth + 1);
        return LLVMBuildBinOp(p->b, LLVMGetInstructionOpcode(v), a, b, "");
    case LLVMSelect:
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 1)
            return get_vec(p, v);
        return LLVMBuildSelect(p->b, lanes_again(p, LLVMGetOperand(v, 0), depth + 1),
                               lanes_again(p, LLVMGetOperand(v, 1), depth + 1),
                               lanes_again(p, LLVMGetOperand(v, 2), depth + 1), "");
    default:
        return get_vec(p, v);
    }
}

/* The terminator of block k in the fast path of a divergent sub-CFG: a branch on a varying
 * condition goes on unmasked while every lane of the packet takes the same side, and hands the
 * packet over to the linear copy when they do not; a switch on a varying value always does. */
static void emit_fast_terminator(struct weft_vec_plan *p, int k, LLVMBasicBlockRef *clone, struct stubs *st)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    LLVMBasicBlockRef succ[2];
    for (unsigned j = 0; j < 2; j++) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
        int si = block_index(p, s);
        succ[j] = si >= 0 ? clone[si] : stub_for(p, st, exit_index(p, s));
    }
    if (LLVMIsASwitchInst(t)) {
        LLVMBuildBr(p->b, hand_over(p, k));
        return;
    }
    LLVMTypeRef it = LLVMIntTypeInContext(p->c, p->P);
    LLVMValueRef s_all, s_none;
    bool decided = lanes_agree_scalar(p, LLVMGetOperand(t, 0), 0, &s_all, &s_none);
    if (decided) {
        /* decided from scalars where it can be; the lanes are tested only where not */
        if (p->rep)
            p->rep->scalar_agree++;
        LLVMBasicBlockRef not_all = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.not.all");
        LLVMBasicBlockRef test = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.test");
        LLVMBuildCondBr(p->b, s_all, succ[0], not_all);
        LLVMPositionBuilderAtEnd(p->b, not_all);
        LLVMBuildCondBr(p->b, s_none, succ[1], test);
        LLVMPositionBuilderAtEnd(p->b, test);
    }
    /* With the scalar test in front, the lanes' condition is computed again where they are
     * tested, and the hand-over's edge masks (get_vec) read that copy while it is emitted:
     * computed once in the block, LLVM would place it where both the test and the later blocks'
     * tests can use it, on the path the scalars decided. */
    LLVMValueRef cond = LLVMGetOperand(t, 0);
    struct vinfo *ci = decided ? info(p, cond) : NULL;
    LLVMValueRef kept = ci ? ci->vec : NULL;
    if (ci)
        ci->vec = lanes_again(p, cond, 0);
    LLVMValueRef bits = mask_bits(p, get_vec(p, cond));
    LLVMValueRef all = LLVMBuildICmp(p->b, LLVMIntEQ, bits, LLVMConstAllOnes(it), "all.lanes");
    LLVMValueRef none = LLVMBuildICmp(p->b, LLVMIntEQ, bits, LLVMConstNull(it), "no.lane");
    LLVMBasicBlockRef split = LLVMAppendBasicBlockInContext(p->c, p->wf->fn, "lanes.split");
    LLVMBasicBlockRef mixed = hand_over(p, k);
    if (ci)
        ci->vec = kept;
    LLVMBuildCondBr(p->b, all, succ[0], split);
    LLVMPositionBuilderAtEnd(p->b, split);
    LLVMBuildCondBr(p->b, none, succ[1], mixed);
}

/* Uniform control flow: the copy has the sub-CFG's shape; branches stay scalar. With `fast`
 * (a divergent sub-CFG, a full packet, its linear copy emitted), this is the fast path that
 * runs unmasked while all lanes agree (emit_fast_terminator). */
static void emit_structured(struct weft_vec_plan *p, LLVMBasicBlockRef start, struct stubs *st, bool fast)
{
    LLVMValueRef fn = p->wf->fn;
    LLVMBasicBlockRef *clone = calloc(p->nb, sizeof *clone);
    if (!clone)
        abort();
    for (unsigned k = 0; k < p->nb; k++) {
        char name[96];
        snprintf(name, sizeof name, "vec.%.80s", LLVMGetBasicBlockName(p->blocks[k]));
        clone[k] = LLVMAppendBasicBlockInContext(p->c, fn, name);
    }
    LLVMPositionBuilderAtEnd(p->b, start);
    LLVMBuildBr(p->b, clone[0]);
    for (unsigned k = 0; k < p->nb && !p->failed; k++) {
        LLVMPositionBuilderAtEnd(p->b, clone[k]);
        emit_block_body(p, (int)k);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
        unsigned ns = LLVMGetNumSuccessors(t);
        for (unsigned j = 0; j < ns; j++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
            bool dup = false;
            for (unsigned q = 0; q < j; q++)
                dup |= LLVMGetSuccessor(t, q) == s;
            if (!dup && block_index(p, s) >= 0)
                store_phis(p, (int)k, s, NULL);
        }
        bool conditional = (LLVMIsABranchInst(t) && LLVMIsConditional(t)) || LLVMIsASwitchInst(t);
        if (fast && conditional && kind_of(p, LLVMGetOperand(t, 0)) != K_U) {
            emit_fast_terminator(p, (int)k, clone, st);
            continue;
        }
        LLVMValueRef c = LLVMInstructionClone(t);
        if (conditional)
            LLVMSetOperand(c, 0, get_scal(p, LLVMGetOperand(t, 0)));
        LLVMInsertIntoBuilder(p->b, c);
        for (unsigned j = 0; j < ns; j++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
            int si = block_index(p, s);
            LLVMSetSuccessor(c, j, si >= 0 ? clone[si] : stub_for(p, st, exit_index(p, s)));
        }
    }
    free(clone);
}

/* The edge masks of block k's terminator under block mask m (one per successor slot). */
static void edge_masks(struct weft_vec_plan *p, int k, LLVMValueRef m, LLVMValueRef *emask)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
    unsigned ns = LLVMGetNumSuccessors(t);
    if (LLVMIsABranchInst(t) && LLVMIsConditional(t)) {
        LLVMValueRef cnd = LLVMGetOperand(t, 0);
        LLVMValueRef cv = get_vec(p, cnd);
        emask[0] = mask_and(p, m, cv);
        emask[1] = mask_and(p, m, LLVMBuildNot(p->b, cv, ""));
    } else if (LLVMIsASwitchInst(t)) {
        LLVMValueRef cv = get_vec(p, LLVMGetOperand(t, 0));
        LLVMValueRef rest = m;
        /* successor 0 is the default; case j compares with operand 2j */
        for (unsigned j = 1; j < ns; j++) {
            LLVMValueRef eq = LLVMBuildICmp(p->b, LLVMIntEQ, cv, const_splat(p, LLVMGetOperand(t, 2 * j)), "");
            emask[j] = mask_and(p, m, eq);
            rest = mask_and(p, rest, LLVMBuildNot(p->b, eq, ""));
        }
        emask[0] = rest;
    } else {
        for (unsigned j = 0; j < ns; j++)
            emask[j] = m;
    }
}

/* Where control continues after the loop that ends at position `last`, skipping to the end
 * test of an enclosing loop that ends there too (the innermost of those after `inner_first`). */
static LLVMBasicBlockRef after_position(struct weft_vec_plan *p, int last, int inner_first, LLVMBasicBlockRef *guard,
                                        LLVMBasicBlockRef *loop_end, LLVMBasicBlockRef exit_chain)
{
    int best = -1;
    for (int l = 0; l < p->nloops; l++)
        if (p->loops[l].last == last && p->loops[l].first < inner_first &&
            (best < 0 || p->loops[l].first > p->loops[best].first))
            best = l;
    if (best >= 0)
        return loop_end[best];
    return last + 1 < p->norder ? guard[last + 1] : exit_chain;
}

/* Divergent control flow: blocks in the linear order, each under its mask. With start NULL
 * the copy has no entry of its own: the fast path hands packets over to it (hand_over). Its
 * guards, loop ends and exit stay in the plan until the next packet. */
static void emit_linear(struct weft_vec_plan *p, LLVMBasicBlockRef start, LLVMValueRef entry_mask, struct stubs *st)
{
    LLVMValueRef fn = p->wf->fn;
    LLVMTypeRef mt = LLVMVectorType(p->i1, p->P);
    LLVMValueRef zero = LLVMConstNull(mt);
    int n = p->norder;
    free(p->lin_guard);
    free(p->lin_loop_end);
    LLVMBasicBlockRef *guard = p->lin_guard = calloc((size_t)n + 1, sizeof *guard);
    LLVMBasicBlockRef *loop_end = p->lin_loop_end = calloc((size_t)p->nloops + 1, sizeof *loop_end);
    if (!guard || !loop_end)
        abort();
    for (int x = 0; x < n; x++) {
        char name[96];
        snprintf(name, sizeof name, "lin.%.80s", LLVMGetBasicBlockName(p->blocks[p->order[x]]));
        guard[x] = LLVMAppendBasicBlockInContext(p->c, fn, name);
    }
    for (int l = 0; l < p->nloops; l++)
        loop_end[l] = LLVMAppendBasicBlockInContext(p->c, fn, "lin.loop.end");
    LLVMBasicBlockRef exit_chain = p->lin_exit = LLVMAppendBasicBlockInContext(p->c, fn, "lin.exit");

    /* all masks clear; the entry's is the packet's */
    if (start) {
        LLVMPositionBuilderAtEnd(p->b, start);
        for (unsigned k = 0; k < p->nb; k++)
            LLVMBuildStore(p->b, zero, p->bmask[k]);
        for (unsigned e = 0; e < p->nexits; e++)
            LLVMBuildStore(p->b, zero, p->xmask[e]);
        LLVMBuildStore(p->b, entry_mask, p->bmask[0]);
        LLVMBuildBr(p->b, guard[0]);
    }

    for (int x = 0; x < n && !p->failed; x++) {
        int k = p->order[x];
        int L = loop_with_header(p, k);
        /* an empty block is skipped; an empty loop header skips its whole loop */
        LLVMBasicBlockRef next = after_position(p, x, n, guard, loop_end, exit_chain);
        LLVMBasicBlockRef skip = L >= 0 ? after_position(p, p->loops[L].last, p->loops[L].first, guard, loop_end, exit_chain)
                                        : next;
        LLVMPositionBuilderAtEnd(p->b, guard[x]);
        LLVMValueRef m = LLVMBuildLoad2(p->b, mt, p->bmask[k], "mask");
        char name[96];
        snprintf(name, sizeof name, "run.%.80s", LLVMGetBasicBlockName(p->blocks[k]));
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(p->c, fn, name);
        LLVMBuildCondBr(p->b, any_lane(p, m), body, skip);
        LLVMPositionBuilderAtEnd(p->b, body);
        p->mask = m;
        p->const_active = -1;
        p->rep->masked_blocks++;
        if (L >= 0) {
            /* a new iteration: its blocks start empty, back edges collect the next one's lanes */
            for (unsigned b = 0; b < p->nb; b++)
                if (in_loop(p, L, (int)b))
                    LLVMBuildStore(p->b, zero, p->bmask[b]);
        }
        emit_block_body(p, k);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p->blocks[k]);
        unsigned ns = LLVMGetNumSuccessors(t);
        LLVMValueRef *emask = calloc(ns + 1, sizeof *emask);
        if (!emask)
            abort();
        edge_masks(p, k, m, emask);
        for (unsigned j = 0; j < ns; j++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, j);
            int si = block_index(p, s);
            if (si >= 0) {
                store_phis(p, k, s, emask[j]);
                or_into(p, p->bmask[si], emask[j]);
            } else {
                or_into(p, p->xmask[exit_index(p, s)], emask[j]);
            }
        }
        free(emask);
        LLVMBuildBr(p->b, next);
    }
    /* loop ends: another iteration while the back edges left lanes in the header */
    for (int l = 0; l < p->nloops; l++) {
        LLVMPositionBuilderAtEnd(p->b, loop_end[l]);
        LLVMValueRef hm = LLVMBuildLoad2(p->b, mt, p->bmask[p->loops[l].header], "");
        LLVMBuildCondBr(p->b, any_lane(p, hm), guard[p->loops[l].first],
                        after_position(p, p->loops[l].last, p->loops[l].first, guard, loop_end, exit_chain));
    }
    /* the exit: the barrier the lanes left towards (all active lanes agree on it) */
    LLVMPositionBuilderAtEnd(p->b, exit_chain);
    for (unsigned e = 0; e < p->nexits; e++) {
        LLVMBasicBlockRef stub = stub_for(p, st, (int)e);
        if (e + 1 == p->nexits) {
            LLVMBuildBr(p->b, stub);
            break;
        }
        LLVMValueRef xm = LLVMBuildLoad2(p->b, mt, p->xmask[e], "");
        LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(p->c, fn, "lin.exit.next");
        LLVMBuildCondBr(p->b, any_lane(p, xm), stub, other);
        LLVMPositionBuilderAtEnd(p->b, other);
    }
    if (p->nexits == 0)
        LLVMBuildUnreachable(p->b);
}

/* Clears every block and exit mask at the builder. */
static void clear_masks(struct weft_vec_plan *p)
{
    LLVMValueRef zero = LLVMConstNull(LLVMVectorType(p->i1, p->P));
    for (unsigned b = 0; b < p->nb; b++)
        LLVMBuildStore(p->b, zero, p->bmask[b]);
    for (unsigned e = 0; e < p->nexits; e++)
        LLVMBuildStore(p->b, zero, p->xmask[e]);
}

/* The entry mask of a linearized partial packet, lanes 0..active-1, as a value LLVM cannot fold:
 * the lane count comes back through a volatile load at the start of `start`. With the mask a
 * constant, InstCombine turns the linear copy's block masks (select (m, c, false)) into shuffles
 * with a false half, and LLVM 19's X86 backend lost the false half of one kept across blocks
 * (kmovd of the whole splat): the tail packet of a local size of 48 ran lanes 48..63 and its
 * masked stores wrote past their slots (SIGSEGV in a scatter after the barrier). What the
 * vectorizer itself knows of the packet (const_active) stays; a structured (uniform) copy keeps
 * its constant mask, which only its memory accesses read. */
static LLVMValueRef partial_mask(struct weft_vec_plan *p, LLVMBasicBlockRef start, unsigned active)
{
    LLVMValueRef slot = entry_alloca(p, p->i32, "packet.lanes");
    LLVMPositionBuilderAtEnd(p->b, start);
    LLVMValueRef st = LLVMBuildStore(p->b, LLVMConstInt(p->i32, active, 0), slot);
    LLVMSetVolatile(st, 1);
    LLVMValueRef n = LLVMBuildLoad2(p->b, p->i32, slot, "packet.lanes");
    LLVMSetVolatile(n, 1);
    return LLVMBuildICmp(p->b, LLVMIntULT, iota(p, p->i32), splat(p, n), "packet.mask");
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
        emit_linear(p, fast ? NULL : start, fast ? const_mask(p, active) : partial_mask(p, start, active), st);
        if (fast && !p->failed) {
            /* a second copy of the same operations: counted once */
            struct weft_vec_report counted = *p->rep;
            p->mask = NULL;
            p->const_active = (int)active;
            /* what the hand-overs to the linear copy expect (hand_over); promoted to constants */
            LLVMPositionBuilderAtEnd(p->b, start);
            clear_masks(p);
            emit_structured(p, start, st, true);
            counted.scalar_agree = p->rep->scalar_agree;   /* only the fast path has them */
            *p->rep = counted;
            p->rep->fast_path = true;
        }
    } else {
        p->mask = active == p->P ? NULL : const_mask(p, active);
        emit_structured(p, start, st, false);
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
        LLVMBuildBr(p->b, hdr);
        LLVMPositionBuilderAtEnd(p->b, hdr);
        LLVMValueRef base = LLVMBuildPhi(p->b, p->i64, "lid.x.packet");
        LLVMBuildBr(p->b, body);
        st.done = latch;
        emit_packet(p, body, base, p->P, &st);
        LLVMPositionBuilderAtEnd(p->b, latch);
        LLVMValueRef next = LLVMBuildNUWAdd(p->b, base, LLVMConstInt(p->i64, p->P, 0), "");
        LLVMValueRef more = LLVMBuildICmp(p->b, LLVMIntULT, next, LLVMConstInt(p->i64, nfull * p->P, 0), "");
        LLVMValueRef br = LLVMBuildCondBr(p->b, more, hdr, tail_start);
        LLVMValueRef zero = LLVMConstInt(p->i64, 0, 0);
        LLVMAddIncoming(base, &zero, &start, 1);
        LLVMAddIncoming(base, &next, &latch, 1);
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
    } else {
        LLVMPositionBuilderAtEnd(p->b, start);
        LLVMBuildBr(p->b, tail_start);
    }
    if (tail && !p->failed) {
        st.done = done;
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
