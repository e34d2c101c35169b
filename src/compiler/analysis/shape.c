/* compiler/analysis/shape.c — uniform / affine / varying shapes of a kernel's values, with
 * control divergence (see shape.h for the rules and guarantees).
 *
 * A forward data-flow fixed point on the flat lattice
 *     unknown  <  { uniform, affine(dim, stride) ... }  <  varying
 * where two different middle elements join to varying. Every value moves at most twice, so the
 * worklist terminates. Divergence is discovered during the iteration: when a branch condition
 * becomes non-uniform, its join blocks (found by propagating per-successor labels through the
 * region up to the branch's immediate post-dominator) are marked, with the edges that carry
 * divergent paths, and their phis re-evaluated; every loop the branch can leave before
 * reconverging gets its escaping values forced to varying. Marks only grow, so the combination
 * stays monotone.
 */
#include "compiler/analysis/shape.h"

#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/transform/irutil.h"
#include "compiler/transform/subgroup.h"
#include "util/ptrmap.h"
#include "util/vec.h"

enum { K_UNKNOWN, K_UNIFORM, K_AFFINE, K_VARYING };

/* A stride: a constant (normalized to the value's bit width) or an existing uniform IR value. */
struct stride {
    bool isc;
    int64_t c;
    LLVMValueRef v;
};

struct ishape {
    uint8_t kind;
    int8_t dim;
    struct stride s;
};

struct weft_shapes {
    LLVMValueRef fn;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    /* analyses: owned when the caller gave no loops */
    struct weft_cfg *own_cfg;
    struct weft_domtree *own_dom;
    struct weft_loops *own_loops;
    const struct weft_cfg *cfg;
    const struct weft_loops *loops;
    struct weft_domtree *pdom;

    size_t ninst;
    LLVMValueRef *insts;            /* every instruction, function order */
    struct weft_ptrmap index;       /* instruction -> slot */
    struct ishape *shape;           /* [ninst] */
    bool *pinned, *forced, *queued;
    bool *divergent_branch;         /* [nblocks] terminator is a divergent branch */
    bool *join;                     /* [nblocks] phis are sync-dependent on a divergent branch */
    bool *div_edge;                 /* [edges, indexed like cfg->pred] edge ends a divergent path */
    bool *loop_join;                /* [nblocks] a loop header that work-items reach in different laps */
    bool *loop_divergent;           /* [loops->count] */
    uint64_t local_size[3];         /* 0 = unknown */
    int focus;                      /* -1, or the one dimension whose local id varies */
    struct weft_ptrmap readonly_arg;  /* byval argument -> 1 read-only, 2 written/escapes */
    WEFT_VEC(uint32_t) work;
    bool ran;
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();   /* out of memory in the compiler: nothing sensible to return */
    return p;
}

/* ---- strides ---------------------------------------------------------------------------- */

static unsigned width_of(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(t);
    case LLVMPointerTypeKind:
        return 64;   /* byte strides of pointers are i64 (64-bit targets only) */
    default:
        return 0;
    }
}

/* Sign-extends the low w bits: strides wrap like the arithmetic that produced them. */
static int64_t norm(int64_t c, unsigned w)
{
    if (w == 0 || w >= 64)
        return c;
    uint64_t m = ((uint64_t)1 << w) - 1, u = (uint64_t)c & m;
    if (u >> (w - 1))
        u |= ~m;
    return (int64_t)u;
}

static struct stride sconst(int64_t c) { return (struct stride){.isc = true, .c = c}; }

static bool stride_eq(struct stride a, struct stride b)
{
    return a.isc == b.isc && (a.isc ? a.c == b.c : a.v == b.v);
}

static bool stride_add(struct stride a, struct stride b, struct stride *out)
{
    if (a.isc && b.isc) {
        *out = sconst((int64_t)((uint64_t)a.c + (uint64_t)b.c));
        return true;
    }
    if (a.isc && a.c == 0) {
        *out = b;
        return true;
    }
    if (b.isc && b.c == 0) {
        *out = a;
        return true;
    }
    return false;   /* the sum of two non-constant strides is no existing value */
}

static bool stride_neg(struct stride a, struct stride *out)
{
    if (!a.isc)
        return false;
    *out = sconst((int64_t)(0 - (uint64_t)a.c));
    return true;
}

/* Stride s times a uniform operand u. */
static bool stride_mul(struct stride s, LLVMValueRef u, struct stride *out)
{
    if (LLVMIsAConstantInt(u)) {
        int64_t k = LLVMConstIntGetSExtValue(u);
        if (s.isc) {
            *out = sconst((int64_t)((uint64_t)s.c * (uint64_t)k));
            return true;
        }
        if (k == 1) {
            *out = s;
            return true;
        }
        return false;
    }
    if (s.isc && s.c == 1) {
        *out = (struct stride){.isc = false, .v = u};
        return true;
    }
    return false;
}

/* ---- shapes ----------------------------------------------------------------------------- */

static const struct ishape UNKNOWN = {.kind = K_UNKNOWN};
static const struct ishape UNIFORM = {.kind = K_UNIFORM};
static const struct ishape VARYING = {.kind = K_VARYING};

static bool ishape_eq(struct ishape a, struct ishape b)
{
    if (a.kind != b.kind)
        return false;
    return a.kind != K_AFFINE || (a.dim == b.dim && stride_eq(a.s, b.s));
}

/* An affine shape for value type t, normalized: zero stride or a dimension of local size 1
 * means uniform; a stride that does not fit the type means varying. */
static struct ishape affine(const struct weft_shapes *S, LLVMTypeRef t, int dim, struct stride s)
{
    unsigned w = width_of(t);
    if (!w)
        return VARYING;
    if (s.isc) {
        s.c = norm(s.c, w);
        if (s.c == 0)
            return UNIFORM;
    } else if (LLVMTypeOf(s.v) != (LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMInt64TypeInContext(S->ctx) : t)) {
        return VARYING;
    }
    if (S->local_size[dim] == 1)
        return UNIFORM;
    return (struct ishape){.kind = K_AFFINE, .dim = (int8_t)dim, .s = s};
}

/* Whether b + s*lid(dim), computed in w bits (s normalized to them), wraps within every group
 * whatever b is: the work-items' values span at least 2^w (|s| * (local size - 1)), so they
 * are no exact progression of integers, and an extension or exact division of them, or a GEP
 * that sign-extends them, is not affine (fuzz seed 4383: zext((uint)gid * 0x9e3779b9)). The
 * no-wrap assumption (shape.h) is for index arithmetic, which spans little; it cannot hold
 * here. False when the local size is not known. */
static bool span_wraps(const struct weft_shapes *S, int dim, int64_t s, unsigned w)
{
    uint64_t n = S->local_size[dim];
    if (n < 2 || w == 0 || w > 64)
        return false;
    unsigned __int128 mag = s < 0 ? (unsigned __int128)(-(__int128)s) : (unsigned __int128)s;
    return mag * (n - 1) >= (unsigned __int128)1 << w;
}

static int slot_of(const struct weft_shapes *S, LLVMValueRef v)
{
    uintptr_t k;
    return weft_ptrmap_get(&S->index, v, &k) ? (int)k : -1;
}

/* Shape of an operand: constants, globals and arguments are uniform. */
static struct ishape get(const struct weft_shapes *S, LLVMValueRef v)
{
    int k = slot_of(S, v);
    if (k >= 0)
        return S->shape[k];
    if (LLVMIsAInstruction(v))
        return VARYING;   /* an instruction of another function: nothing is known */
    return UNIFORM;
}

/* Join into slot k; returns whether the shape changed. */
static bool update(struct weft_shapes *S, int k, struct ishape n)
{
    if (S->pinned[k])
        return false;
    if (S->forced[k])
        n = VARYING;
    struct ishape o = S->shape[k];
    if (n.kind == K_UNKNOWN || ishape_eq(o, n))
        return false;
    if (o.kind == K_UNKNOWN) {
        S->shape[k] = n;
        return true;
    }
    if (o.kind == K_VARYING)
        return false;
    S->shape[k] = VARYING;
    return true;
}

static void enqueue(struct weft_shapes *S, int k)
{
    if (k >= 0 && !S->queued[k]) {
        S->queued[k] = true;
        weft_vec_push(&S->work, (uint32_t)k);
    }
}

static void enqueue_users(struct weft_shapes *S, LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        enqueue(S, slot_of(S, LLVMGetUser(u)));
}

static void force_varying(struct weft_shapes *S, LLVMValueRef v)
{
    int k = slot_of(S, v);
    if (k < 0 || S->pinned[k] || S->forced[k])
        return;
    S->forced[k] = true;
    if (update(S, k, VARYING))
        enqueue_users(S, v);
    enqueue(S, k);
}

/* Generic rule: uniform when every operand is; varying when any is not; unknown while waiting. */
static struct ishape all_uniform(const struct weft_shapes *S, LLVMValueRef in, int nops)
{
    bool unknown = false;
    for (int i = 0; i < nops; i++) {
        struct ishape o = get(S, LLVMGetOperand(in, (unsigned)i));
        if (o.kind == K_UNKNOWN)
            unknown = true;
        else if (o.kind != K_UNIFORM)
            return VARYING;
    }
    return unknown ? UNKNOWN : UNIFORM;
}

/* ---- work-item functions ---------------------------------------------------------------- */

enum wi_fn { WI_NONE, WI_LOCAL_ID, WI_GLOBAL_ID, WI_UNIFORM, WI_LINEAR_ID, WI_GLOBAL_LINEAR_ID };

static enum wi_fn classify_callee(const char *name)
{
    static const char *const uniform[] = {
        "_Z12get_group_idj", "_Z14get_local_sizej", "_Z15get_global_sizej", "_Z14get_num_groupsj",
        "_Z12get_work_dimv", "_Z17get_global_offsetj", "_Z23get_enqueued_local_sizej",
    };
    if (strcmp(name, "_Z12get_local_idj") == 0)
        return WI_LOCAL_ID;
    if (strcmp(name, "_Z13get_global_idj") == 0)
        return WI_GLOBAL_ID;
    if (strcmp(name, "_Z19get_local_linear_idv") == 0)
        return WI_LINEAR_ID;
    if (strcmp(name, "_Z20get_global_linear_idv") == 0)
        return WI_GLOBAL_LINEAR_ID;
    for (size_t i = 0; i < sizeof(uniform) / sizeof(uniform[0]); i++)
        if (strcmp(name, uniform[i]) == 0)
            return WI_UNIFORM;
    return WI_NONE;
}

/* Whether the function or call site says the callee accesses no memory (memory(none)). */
static bool call_is_pure(LLVMValueRef call, LLVMValueRef callee)
{
    uint64_t effects;
    return weft_call_memory_effects(call, callee, &effects) && effects == 0;
}

static struct ishape transfer_call(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMTypeRef rt = LLVMTypeOf(in);
    if (LLVMGetTypeKind(rt) == LLVMVoidTypeKind)
        return UNKNOWN;
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!callee || !LLVMIsAFunction(callee))
        return VARYING;   /* indirect call or inline asm */
    size_t len;
    const char *name = LLVMGetValueName2(callee, &len);
    enum wi_fn wi = classify_callee(name);
    unsigned nargs = LLVMGetNumArgOperands(in);
    switch (weft_subgroup_by_name(name, len).kind) {
    case WEFT_SG_NONE:
        break;
    case WEFT_SG_MAX_SIZE:
    case WEFT_SG_NUM:
    case WEFT_SG_ENQUEUED_NUM:
    case WEFT_SG_WIDTH_PLACEHOLDER:
    case WEFT_SG_MAX_PLACEHOLDER:
        return UNIFORM;
    default:
        /* sub-group id, local id and size (the last sub-group may be short), and the
         * collectives: a reduction or broadcast is the same within one sub-group only, and a
         * work-group holds several */
        return VARYING;
    }
    switch (wi) {
    case WI_UNIFORM:
        return UNIFORM;
    case WI_LOCAL_ID:
    case WI_GLOBAL_ID: {
        LLVMValueRef d = nargs ? LLVMGetOperand(in, 0) : NULL;
        if (!d || !LLVMIsAConstantInt(d))
            return VARYING;   /* which dimension is only known at run time */
        uint64_t dim = LLVMConstIntGetZExtValue(d);
        if (dim > 2)
            return UNIFORM;   /* out-of-range dimensions read 0 (local) / the offset (global) */
        if (S->focus >= 0 && (int)dim != S->focus)
            return UNIFORM;   /* held fixed in the focused view */
        return affine(S, rt, (int)dim, sconst(1));
    }
    case WI_LINEAR_ID:
    case WI_GLOBAL_LINEAR_ID:
        /* local linear = lid0 + size0 * (lid1 + size1 * lid2), global linear likewise with
         * global ids and global sizes: affine in dim 0 when the other dimensions are fixed
         * (size 1, or not in focus); along dim 1 or 2 the stride is the product of the lower
         * local sizes (known only when specialized) or global sizes (never known here) */
        if (S->focus <= 0 && (S->focus == 0 || (S->local_size[1] == 1 && S->local_size[2] == 1)))
            return affine(S, rt, 0, sconst(1));
        if (wi == WI_GLOBAL_LINEAR_ID)
            return VARYING;
        if (S->focus == 1 && S->local_size[0])
            return affine(S, rt, 1, sconst((int64_t)S->local_size[0]));
        if (S->focus == 2 && S->local_size[0] && S->local_size[1])
            return affine(S, rt, 2, sconst((int64_t)(S->local_size[0] * S->local_size[1])));
        return VARYING;
    case WI_NONE:
        break;
    }
    if (call_is_pure(in, callee)) {
        bool unknown = false;
        for (unsigned i = 0; i < nargs; i++) {
            struct ishape o = get(S, LLVMGetOperand(in, i));
            if (o.kind == K_UNKNOWN)
                unknown = true;
            else if (o.kind != K_UNIFORM)
                return VARYING;
        }
        return unknown ? UNKNOWN : UNIFORM;
    }
    return VARYING;
}

/* ---- memory ----------------------------------------------------------------------------- */

static LLVMValueRef underlying_object(LLVMValueRef p)
{
    for (int guard = 0; guard < 64; guard++) {
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p)) {
            p = LLVMGetOperand(p, 0);
            continue;
        }
        if (LLVMIsAConstantExpr(p)) {
            LLVMOpcode op = LLVMGetConstOpcode(p);
            if (op == LLVMGetElementPtr || op == LLVMBitCast || op == LLVMAddrSpaceCast) {
                p = LLVMGetOperand(p, 0);
                continue;
            }
        }
        break;
    }
    return p;
}

/* Whether every transitive use of pointer p only reads through it (GEPs, casts, loads). */
static bool only_read(LLVMValueRef p, int depth)
{
    if (depth > 32)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            continue;
        if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user)) {
            if (LLVMGetOperand(user, 0) != p || !only_read(user, depth + 1))
                return false;
            continue;
        }
        return false;   /* stored to, stored somewhere, passed to a call, compared, ...: give up */
    }
    return true;
}

/* A by-value kernel argument (byval/byref pointer) that the kernel never writes or leaks. */
static bool readonly_byval_arg(struct weft_shapes *S, LLVMValueRef arg)
{
    uintptr_t cached;
    if (weft_ptrmap_get(&S->readonly_arg, arg, &cached))
        return cached == 1;
    static unsigned byval_kind, byref_kind;
    if (!byval_kind) {
        byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
        byref_kind = LLVMGetEnumAttributeKindForName("byref", 5);
    }
    unsigned idx = 0;
    for (LLVMValueRef a = LLVMGetFirstParam(S->fn); a && a != arg; a = LLVMGetNextParam(a))
        idx++;
    bool by_value = LLVMGetEnumAttributeAtIndex(S->fn, idx + 1, byval_kind) ||
                    LLVMGetEnumAttributeAtIndex(S->fn, idx + 1, byref_kind);
    bool ok = by_value && only_read(arg, 0);
    weft_ptrmap_put(&S->readonly_arg, arg, ok ? 1 : 2);
    return ok;
}

static struct ishape transfer_load(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMValueRef ptr = LLVMGetOperand(in, 0);
    struct ishape p = get(S, ptr);
    if (p.kind == K_UNKNOWN)
        return UNKNOWN;
    if (p.kind != K_UNIFORM || LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
        return VARYING;
    /* __global and __local memory are shared: the same address reads the same value for all
     * work-items unless some work-item wrote something else there without synchronizing with
     * the others (a barrier between them, or a write before the kernel), a data race whose
     * behaviour OpenCL leaves undefined. A work-item that reads back its own write to the
     * address shares it with every other work-item that reads it, or no other one reads it. */
    unsigned as = weft_pointer_space(ptr);   /* a generic pointer: the space it came from */
    if (as == 1 || as == 3 || as == 2)
        return UNIFORM;
    /* Private memory is each work-item's own, even at one address (a by-value argument is
     * copied per work-item): only what nobody writes is the same for all. */
    if (LLVMGetMetadata(in, LLVMGetMDKindIDInContext(S->ctx, "invariant.load", 14)))
        return UNIFORM;
    LLVMValueRef base = underlying_object(ptr);
    if (LLVMIsAGlobalVariable(base) && LLVMIsGlobalConstant(base))
        return UNIFORM;
    if (LLVMIsAArgument(base) && readonly_byval_arg(S, base))
        return UNIFORM;
    return VARYING;
}

/* ---- arithmetic ------------------------------------------------------------------------- */

static bool is_int_scalar(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind;
}

static struct ishape transfer_addsub(struct weft_shapes *S, LLVMValueRef in, bool sub)
{
    LLVMTypeRef t = LLVMTypeOf(in);
    struct ishape a = get(S, LLVMGetOperand(in, 0)), b = get(S, LLVMGetOperand(in, 1));
    if (a.kind == K_VARYING || b.kind == K_VARYING || !is_int_scalar(t))
        return all_uniform(S, in, 2);
    if (a.kind == K_UNKNOWN || b.kind == K_UNKNOWN)
        return UNKNOWN;
    if (a.kind == K_UNIFORM && b.kind == K_UNIFORM)
        return UNIFORM;
    struct stride sb = b.s, r;
    if (b.kind == K_AFFINE && sub && !stride_neg(b.s, &sb))
        return VARYING;
    if (a.kind == K_UNIFORM)
        return affine(S, t, b.dim, sb);
    if (b.kind == K_UNIFORM)
        return affine(S, t, a.dim, a.s);
    if (a.dim != b.dim)
        return VARYING;   /* depends on two local ids */
    if (sub && stride_eq(a.s, b.s))
        return UNIFORM;   /* e.g. get_global_id(0) - get_local_id(0) */
    if (!stride_add(a.s, sb, &r))
        return VARYING;
    return affine(S, t, a.dim, r);
}

static struct ishape transfer_mul(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMTypeRef t = LLVMTypeOf(in);
    LLVMValueRef x = LLVMGetOperand(in, 0), y = LLVMGetOperand(in, 1);
    struct ishape a = get(S, x), b = get(S, y);
    if (a.kind == K_VARYING || b.kind == K_VARYING || !is_int_scalar(t))
        return all_uniform(S, in, 2);
    if (a.kind == K_UNKNOWN || b.kind == K_UNKNOWN)
        return UNKNOWN;
    if (a.kind == K_UNIFORM && b.kind == K_UNIFORM)
        return UNIFORM;
    if (a.kind == K_AFFINE && b.kind == K_AFFINE)
        return VARYING;   /* quadratic in the local id */
    struct ishape aff = a.kind == K_AFFINE ? a : b;
    LLVMValueRef u = a.kind == K_AFFINE ? y : x;
    struct stride r;
    if (!stride_mul(aff.s, u, &r))
        return VARYING;
    return affine(S, t, aff.dim, r);
}

static struct ishape transfer_shl(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMTypeRef t = LLVMTypeOf(in);
    LLVMValueRef y = LLVMGetOperand(in, 1);
    struct ishape a = get(S, LLVMGetOperand(in, 0)), b = get(S, y);
    if (a.kind != K_AFFINE || b.kind != K_UNIFORM || !is_int_scalar(t))
        return all_uniform(S, in, 2);
    if (!LLVMIsAConstantInt(y) || !a.s.isc)
        return VARYING;
    uint64_t k = LLVMConstIntGetZExtValue(y);
    if (k >= width_of(t))
        return UNIFORM;   /* poison; any answer is sound, and uniform is the simplest */
    return affine(S, t, a.dim, sconst((int64_t)((uint64_t)a.s.c << k)));
}

/* Exact division by a constant (udiv/sdiv exact, lshr/ashr exact): no remainder is dropped for
 * any work-item, so b + s*lid divides into b/d + (s/d)*lid when d divides the constant stride.
 * This is how clang's sign-extension idiom `ashr exact (shl x, 32), 32` keeps x's shape.
 * Without `exact`, division rounds (lid/32) and the result is varying. */
static struct ishape transfer_exact_div(struct weft_shapes *S, LLVMValueRef in, LLVMOpcode op)
{
    LLVMTypeRef t = LLVMTypeOf(in);
    LLVMValueRef y = LLVMGetOperand(in, 1);
    struct ishape a = get(S, LLVMGetOperand(in, 0)), b = get(S, y);
    if (a.kind != K_AFFINE || b.kind != K_UNIFORM || !is_int_scalar(t) || !LLVMGetExact(in) ||
        !LLVMIsAConstantInt(y) || !a.s.isc)
        return all_uniform(S, in, 2);
    unsigned w = width_of(t);
    int64_t d;
    if (op == LLVMLShr || op == LLVMAShr) {
        uint64_t k = LLVMConstIntGetZExtValue(y);
        if (k >= w || k >= 63)
            return VARYING;
        d = (int64_t)1 << k;
    } else {
        d = op == LLVMSDiv ? LLVMConstIntGetSExtValue(y) : (int64_t)LLVMConstIntGetZExtValue(y);
        if (d <= 0)
            return VARYING;   /* negative or huge unsigned divisors: not worth the cases */
    }
    int64_t st = norm(a.s.c, w);
    if (st % d != 0 || span_wraps(S, a.dim, st, w))
        return VARYING;
    return affine(S, t, a.dim, sconst(st / d));
}

static struct ishape transfer_cast(struct weft_shapes *S, LLVMValueRef in, LLVMOpcode op)
{
    LLVMTypeRef t = LLVMTypeOf(in), st = LLVMTypeOf(LLVMGetOperand(in, 0));
    struct ishape a = get(S, LLVMGetOperand(in, 0));
    if (a.kind != K_AFFINE)
        return all_uniform(S, in, 1);
    switch (op) {
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
        /* b + s*lid keeps its form under truncation (modular arithmetic) and, assuming the
         * index arithmetic does not wrap inside one work-group, under extension: not when it
         * must wrap */
        if (!is_int_scalar(t) || !a.s.isc)
            return VARYING;
        if (op != LLVMTrunc && span_wraps(S, a.dim, norm(a.s.c, width_of(st)), width_of(st)))
            return VARYING;
        return affine(S, t, a.dim, a.s);
    case LLVMPtrToInt:
    case LLVMIntToPtr:
        if (width_of(t) != 64 || width_of(st) != 64)
            return VARYING;
        return affine(S, t, a.dim, a.s);
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
        if (width_of(t) && width_of(t) == width_of(st) && LLVMGetTypeKind(t) == LLVMGetTypeKind(st))
            return affine(S, t, a.dim, a.s);
        return VARYING;
    default:
        return VARYING;   /* fp conversions of affine values are not affine in general */
    }
}

static struct ishape transfer_gep(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMTypeRef t = LLVMTypeOf(in);
    int nops = LLVMGetNumOperands(in);
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
        return all_uniform(S, in, nops);   /* vector GEPs */
    struct ishape base = get(S, LLVMGetOperand(in, 0));
    bool unknown = base.kind == K_UNKNOWN;
    if (base.kind == K_VARYING)
        return VARYING;
    int dim = base.kind == K_AFFINE ? base.dim : -1;
    struct stride acc = base.kind == K_AFFINE ? base.s : sconst(0);
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(in);
    for (int i = 1; i < nops; i++) {
        LLVMValueRef idx = LLVMGetOperand(in, (unsigned)i);
        uint64_t size;
        if (i == 1) {
            size = LLVMABISizeOfType(S->td, cur);
        } else if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
            /* struct field indices are constants: no stride, step into the field */
            if (!LLVMIsAConstantInt(idx))
                return VARYING;
            cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(idx));
            continue;
        } else if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind || LLVMGetTypeKind(cur) == LLVMVectorTypeKind) {
            cur = LLVMGetElementType(cur);
            size = LLVMABISizeOfType(S->td, cur);
        } else {
            return VARYING;
        }
        struct ishape x = get(S, idx);
        if (x.kind == K_UNKNOWN) {
            unknown = true;
            continue;
        }
        if (x.kind == K_VARYING)
            return VARYING;
        if (x.kind == K_UNIFORM)
            continue;
        if (dim >= 0 && x.dim != dim)
            return VARYING;
        dim = x.dim;
        /* stride_x * size: a non-constant index stride survives only with byte-sized elements
         * and an i64 index (so the stride value is already the byte stride) */
        struct stride term;
        unsigned wi = width_of(LLVMTypeOf(idx));
        if (x.s.isc && wi < 64 && span_wraps(S, x.dim, norm(x.s.c, wi), wi))
            return VARYING;   /* a narrower index is sign-extended */
        if (x.s.isc)
            term = sconst((int64_t)((uint64_t)norm(x.s.c, wi) * size));
        else if (size == 1)
            term = x.s;
        else
            return VARYING;
        if (!stride_add(acc, term, &acc))
            return VARYING;
    }
    if (unknown)
        return UNKNOWN;
    if (dim < 0)
        return UNIFORM;
    return affine(S, t, dim, acc);
}

static struct ishape transfer_select(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMValueRef tv = LLVMGetOperand(in, 1), fv = LLVMGetOperand(in, 2);
    struct ishape c = get(S, LLVMGetOperand(in, 0)), a = get(S, tv), b = get(S, fv);
    if (tv == fv)
        return a;
    if (c.kind == K_UNKNOWN || a.kind == K_UNKNOWN || b.kind == K_UNKNOWN)
        return (c.kind == K_VARYING || a.kind == K_VARYING || b.kind == K_VARYING) ? VARYING : UNKNOWN;
    if (c.kind != K_UNIFORM)
        return VARYING;   /* work-items pick different operands */
    return ishape_eq(a, b) ? a : VARYING;
}

static struct ishape transfer_phi(struct weft_shapes *S, LLVMValueRef in)
{
    int b = weft_cfg_inst_block(S->cfg, in);
    unsigned n = LLVMCountIncoming(in);
    if (b >= 0 && S->loop_join[b]) {
        /* different laps: only a phi that is one value on every edge is not affected */
        LLVMValueRef only = NULL;
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef v = LLVMGetIncomingValue(in, i);
            if (v == in)
                continue;
            if (only && v != only)
                return VARYING;
            only = v;
        }
    }
    if (b >= 0 && S->join[b]) {
        /* Sync dependence: work-items arriving along different divergent paths meet here; the
         * phi is varying unless those paths all bring the very same value. */
        LLVMValueRef dv = NULL;
        for (unsigned i = 0; i < n; i++) {
            int pb = weft_cfg_index(S->cfg, LLVMGetIncomingBlock(in, i));
            for (size_t k = 0; pb >= 0 && k < weft_cfg_npred(S->cfg, (size_t)b); k++) {
                if ((int)weft_cfg_preds(S->cfg, (size_t)b)[k] != pb ||
                    !S->div_edge[S->cfg->pred_start[b] + k])
                    continue;
                LLVMValueRef v = LLVMGetIncomingValue(in, i);
                if (dv && v != dv)
                    return VARYING;
                dv = v;
            }
        }
    }
    LLVMValueRef same = NULL;
    bool all_same = true;
    struct ishape r = UNKNOWN;
    for (unsigned i = 0; i < n; i++) {
        int pb = weft_cfg_index(S->cfg, LLVMGetIncomingBlock(in, i));
        if (pb < 0 || !weft_cfg_reachable(S->cfg, (size_t)pb))
            continue;
        LLVMValueRef v = LLVMGetIncomingValue(in, i);
        if (v == in)
            continue;   /* a phi feeding itself adds nothing */
        if (same && v != same)
            all_same = false;
        same = v;
        struct ishape s = get(S, v);
        if (s.kind == K_UNKNOWN)
            continue;   /* optimistic: a back edge not computed yet */
        if (r.kind == K_UNKNOWN)
            r = s;
        else if (!ishape_eq(r, s))
            return VARYING;
    }
    if (same && all_same)
        return get(S, same);
    if (r.kind == K_AFFINE)
        r = affine(S, LLVMTypeOf(in), r.dim, r.s);   /* retype (same type, but normalizes) */
    return r;
}

static struct ishape transfer(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    int nops = LLVMGetNumOperands(in);
    switch (op) {
    case LLVMAdd:
        return transfer_addsub(S, in, false);
    case LLVMSub:
        return transfer_addsub(S, in, true);
    case LLVMOr:
        if (LLVMGetIsDisjoint(in))
            return transfer_addsub(S, in, false);   /* no common bits: an add */
        return all_uniform(S, in, nops);
    case LLVMMul:
        return transfer_mul(S, in);
    case LLVMShl:
        return transfer_shl(S, in);
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr:
        return transfer_exact_div(S, in, op);
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
        return transfer_cast(S, in, op);
    case LLVMFreeze:
        return get(S, LLVMGetOperand(in, 0));
    case LLVMGetElementPtr:
        return transfer_gep(S, in);
    case LLVMSelect:
        return transfer_select(S, in);
    case LLVMPHI:
        return transfer_phi(S, in);
    case LLVMLoad:
        return transfer_load(S, in);
    case LLVMCall:
        return transfer_call(S, in);
    case LLVMAlloca:        /* each work-item has its own private object */
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
    case LLVMVAArg:
    case LLVMLandingPad:
    case LLVMInvoke:
    case LLVMCallBr:
        return VARYING;
    default:
        /* div, rem, and, xor, shifts right, compares, fp arithmetic, vector and aggregate ops */
        if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVoidTypeKind)
            return UNKNOWN;
        return all_uniform(S, in, nops);
    }
}

/* ---- divergence ------------------------------------------------------------------------- */

/* Makes block b a join: its phis are re-evaluated with transfer_phi's join rule. */
static void mark_join(struct weft_shapes *S, int b)
{
    S->join[b] = true;
    for (LLVMValueRef in = LLVMGetFirstInstruction(S->cfg->blocks[b]); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
        enqueue(S, slot_of(S, in));
}

/* Exit block x of divergent loop li: work-items arrive from different exiting edges and in
 * different iterations. Edges from the loop are divergent paths (different values along them
 * make a phi varying), and a phi taking a value computed inside the loop sees that value from
 * different iterations: varying even with a single incoming edge (the LCSSA phi). */
static void mark_divergent_exit(struct weft_shapes *S, int li, int x)
{
    const struct weft_cfg *cfg = S->cfg;
    for (size_t k = 0; k < weft_cfg_npred(cfg, (size_t)x); k++)
        if (weft_loop_contains(S->loops, li, (int)weft_cfg_preds(cfg, (size_t)x)[k]))
            S->div_edge[cfg->pred_start[x] + k] = true;
    mark_join(S, x);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(cfg->blocks[x]); phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi)) {
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned i = 0; i < n; i++) {
            int pb = weft_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
            int vb = weft_cfg_inst_block(cfg, LLVMGetIncomingValue(phi, i));
            if (weft_loop_contains(S->loops, li, pb) && weft_loop_contains(S->loops, li, vb)) {
                force_varying(S, phi);
                break;
            }
        }
    }
}

/* A loop that work-items may leave in different iterations: values escaping it are varying. */
static void loop_diverges(struct weft_shapes *S, int li)
{
    if (S->loop_divergent[li])
        return;
    S->loop_divergent[li] = true;
    const struct weft_loop *L = &S->loops->loops[li];
    for (size_t i = 0; i < L->nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(S->cfg->blocks[L->blocks[i]]); in;
             in = LLVMGetNextInstruction(in)) {
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                int ub = weft_cfg_inst_block(S->cfg, user);
                if (ub < 0 || weft_loop_contains(S->loops, li, ub))
                    continue;
                /* An LCSSA phi in an exit block is forced varying below, which is enough; any
                 * other use outside sees the value of some work-item's last iteration, so the
                 * value itself must read as varying (shapes are per value, not per use). */
                bool exit_phi = false;
                if (LLVMIsAPHINode(user))
                    for (size_t e = 0; e < L->nexits; e++)
                        exit_phi |= (int)L->exits[e] == ub;
                if (!exit_phi) {
                    force_varying(S, in);
                    break;
                }
            }
        }
    for (size_t i = 0; i < L->nexits; i++)
        mark_divergent_exit(S, li, (int)L->exits[i]);
}

static bool is_header_of_enclosing(const struct weft_shapes *S, int target, int b)
{
    int li = weft_loops_with_header(S->loops, target);
    return li >= 0 && weft_loop_contains(S->loops, li, b);
}

/* The label that predecessor k of x passes to x during branch_diverges, or -1 when the edge is
 * not part of a divergent path from b (outside the region, or a back edge inside it unless
 * `any_order`, used for candidates whose predecessors are all final). */
static int32_t edge_label(const struct weft_shapes *S, int b, uint32_t x, size_t k, const uint8_t *role,
                          const int32_t *label, bool any_order)
{
    const struct weft_cfg *cfg = S->cfg;
    uint32_t p = weft_cfg_preds(cfg, x)[k];
    if ((int)p == b)
        return (int32_t)x;   /* the edge b -> x carries its own label */
    if (role[p] == 1 && label[p] >= 0 && (any_order || cfg->rpo_index[p] < cfg->rpo_index[x]))
        return label[p];
    return -1;
}

/* The branch ending block b has become divergent. */
static void branch_diverges(struct weft_shapes *S, int b)
{
    if (S->divergent_branch[b])
        return;
    S->divergent_branch[b] = true;
    const struct weft_cfg *cfg = S->cfg;
    int P = weft_dom_idom(S->pdom, b);
    int vexit = WEFT_DOM_VIRTUAL_EXIT(S->pdom);

    /* Loops containing b but not its reconvergence point can be left in different iterations. */
    for (int li = S->loops->innermost[b]; li >= 0; li = S->loops->loops[li].parent)
        if (P == vexit || P < 0 || !weft_loop_contains(S->loops, li, P))
            loop_diverges(S, li);

    /* Join points: propagate a label per successor edge, in RPO, through the blocks reachable
     * from b before P; a block reached with two different labels is a join (and labels itself).
     * The region is not expanded past two kinds of candidate blocks, decided last from the
     * final labels of all their predecessors: P itself, and headers of loops around b reached
     * through back edges (work-items that continue the loop along different latches meet
     * there: a header phi merging two latches is a join). */
    int32_t *label = xcalloc(cfg->nblocks, sizeof(int32_t));
    uint8_t *role = xcalloc(cfg->nblocks, sizeof(uint8_t));   /* 0 outside, 1 region, 2 candidate */
    for (size_t i = 0; i < cfg->nblocks; i++)
        label[i] = -1;
    WEFT_VEC(uint32_t) stack = {0}, cands = {0};
    weft_vec_push(&stack, (uint32_t)b);
    while (stack.len) {
        uint32_t x = weft_vec_pop(&stack);
        for (size_t k = 0; k < weft_cfg_nsucc(cfg, x); k++) {
            uint32_t s = weft_cfg_succs(cfg, x)[k];
            if (role[s])
                continue;
            if ((int)s == P || is_header_of_enclosing(S, (int)s, b)) {
                role[s] = 2;
                weft_vec_push(&cands, s);
            } else if ((int)s != b) {
                role[s] = 1;
                weft_vec_push(&stack, s);
            }
        }
    }
    weft_vec_free(&stack);

    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: the region in RPO (forward edges only); pass 1: the candidates */
        size_t count = pass == 0 ? cfg->nreachable : cands.len;
        for (size_t r = 0; r < count; r++) {
            uint32_t x = pass == 0 ? cfg->rpo[r] : cands.data[r];
            if (pass == 0 && role[x] != 1)
                continue;
            int32_t lab = -1;
            bool is_join = false;
            for (size_t k = 0; k < weft_cfg_npred(cfg, x); k++) {
                int32_t pl = edge_label(S, b, x, k, role, label, pass == 1);
                if (pl < 0)
                    continue;
                if (lab < 0)
                    lab = pl;
                else if (lab != pl)
                    is_join = true;
            }
            if (pass == 1 && (int)x != P && lab >= 0 && P != vexit && P >= 0 &&
                weft_loop_contains(S->loops, weft_loops_with_header(S->loops, (int)x), P)) {
                /* Some work-items come back to this header before reconverging at P (inside
                 * the loop): they lap the others, so the header's loop-carried values differ
                 * between work-items whatever edge they take. */
                if (!S->loop_join[x]) {
                    S->loop_join[x] = true;
                    mark_join(S, (int)x);
                }
            }
            if (is_join) {
                /* the labelled edges are the divergent paths that meet here */
                for (size_t k = 0; k < weft_cfg_npred(cfg, x); k++)
                    if (edge_label(S, b, x, k, role, label, pass == 1) >= 0)
                        S->div_edge[cfg->pred_start[x] + k] = true;
                mark_join(S, (int)x);
                lab = (int32_t)x;
            }
            label[x] = lab;
        }
    }
    weft_vec_free(&cands);
    free(label);
    free(role);
}

static void transfer_terminator(struct weft_shapes *S, LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    LLVMValueRef cond = NULL;
    if (op == LLVMBr && LLVMIsConditional(in))
        cond = LLVMGetCondition(in);
    else if (op == LLVMSwitch)
        cond = LLVMGetOperand(in, 0);
    else if (op == LLVMIndirectBr)
        cond = LLVMGetOperand(in, 0);
    if (!cond)
        return;
    struct ishape c = get(S, cond);
    if (c.kind == K_AFFINE || c.kind == K_VARYING) {
        int b = weft_cfg_inst_block(S->cfg, in);
        if (b >= 0 && weft_cfg_nsucc(S->cfg, (size_t)b) > 1)
            branch_diverges(S, b);
    }
}

/* ---- driver ----------------------------------------------------------------------------- */

struct weft_shapes *weft_shapes_create(LLVMValueRef kernel, const struct weft_loops *loops)
{
    if (!kernel || LLVMCountBasicBlocks(kernel) == 0)
        return NULL;
    struct weft_shapes *S = xcalloc(1, sizeof(*S));
    S->fn = kernel;
    S->ctx = LLVMGetTypeContext(LLVMTypeOf(kernel));
    S->td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(kernel));
    if (loops) {
        S->cfg = loops->cfg;
        S->loops = loops;
    } else {
        S->own_cfg = weft_cfg_build(kernel);
        S->own_dom = weft_dom_compute(S->own_cfg);
        S->own_loops = weft_loops_compute(S->own_cfg, S->own_dom);
        S->cfg = S->own_cfg;
        S->loops = S->own_loops;
    }
    S->pdom = weft_postdom_compute(S->cfg);
    weft_ptrmap_init(&S->index);
    weft_ptrmap_init(&S->readonly_arg);
    for (size_t b = 0; b < S->cfg->nblocks; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(S->cfg->blocks[b]); in; in = LLVMGetNextInstruction(in))
            S->ninst++;
    S->insts = xcalloc(S->ninst, sizeof(LLVMValueRef));
    size_t k = 0;
    for (size_t b = 0; b < S->cfg->nblocks; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(S->cfg->blocks[b]); in; in = LLVMGetNextInstruction(in)) {
            weft_ptrmap_put(&S->index, in, k);
            S->insts[k++] = in;
        }
    S->shape = xcalloc(S->ninst, sizeof(struct ishape));
    S->pinned = xcalloc(S->ninst, sizeof(bool));
    S->forced = xcalloc(S->ninst, sizeof(bool));
    S->queued = xcalloc(S->ninst, sizeof(bool));
    S->divergent_branch = xcalloc(S->cfg->nblocks, sizeof(bool));
    S->join = xcalloc(S->cfg->nblocks, sizeof(bool));
    S->div_edge = xcalloc(S->cfg->pred_start[S->cfg->nblocks], sizeof(bool));
    S->loop_join = xcalloc(S->cfg->nblocks, sizeof(bool));
    S->loop_divergent = xcalloc(S->loops->count, sizeof(bool));
    S->focus = -1;
    return S;
}

static struct stride stride_from_value(LLVMValueRef v)
{
    if (!v || LLVMIsAConstantInt(v))
        return sconst(v ? LLVMConstIntGetSExtValue(v) : 1);
    return (struct stride){.isc = false, .v = v};
}

void weft_shapes_seed(struct weft_shapes *S, LLVMValueRef v, struct weft_shape shape)
{
    int k = slot_of(S, v);
    if (k < 0)
        return;   /* arguments and constants are uniform already */
    struct ishape s = {.kind = shape.kind == WEFT_SHAPE_UNIFORM ? K_UNIFORM
                               : shape.kind == WEFT_SHAPE_AFFINE ? K_AFFINE : K_VARYING};
    if (s.kind == K_AFFINE) {
        s.dim = (int8_t)shape.dim;
        s.s = stride_from_value(shape.stride);
        if (s.s.isc)
            s.s.c = norm(s.s.c, width_of(LLVMTypeOf(v)));
    }
    S->shape[k] = s;
    S->pinned[k] = true;
}

void weft_shapes_set_local_size(struct weft_shapes *S, const uint64_t sizes[3])
{
    memcpy(S->local_size, sizes, sizeof(S->local_size));
}

void weft_shapes_set_focus_dim(struct weft_shapes *S, int dim)
{
    S->focus = dim >= 0 && dim < 3 ? dim : -1;
}

void weft_shapes_run(struct weft_shapes *S)
{
    if (S->ran)
        return;
    S->ran = true;
    /* Seed the worklist in reverse so the stack pops in RPO: most values are final on the
     * first visit. Unreachable blocks are not visited (their values stay unknown). Values
     * Weft's own scheduling code marks !weft.uniform are pinned uniform. */
    unsigned uniform_md = LLVMGetMDKindIDInContext(S->ctx, WEFT_UNIFORM_LOAD_MD, strlen(WEFT_UNIFORM_LOAD_MD));
    for (size_t r = S->cfg->nreachable; r-- > 0;) {
        LLVMBasicBlockRef bb = S->cfg->blocks[S->cfg->rpo[r]];
        for (LLVMValueRef in = LLVMGetLastInstruction(bb); in; in = LLVMGetPreviousInstruction(in)) {
            int k = slot_of(S, in);
            if (k >= 0 && !S->pinned[k] && LLVMGetMetadata(in, uniform_md)) {
                S->shape[k] = UNIFORM;
                S->pinned[k] = true;
            }
            enqueue(S, k);
        }
    }
    while (S->work.len) {
        uint32_t k = weft_vec_pop(&S->work);
        S->queued[k] = false;
        LLVMValueRef in = S->insts[k];
        int b = weft_cfg_inst_block(S->cfg, in);
        if (b < 0 || !weft_cfg_reachable(S->cfg, (size_t)b))
            continue;
        if (LLVMIsATerminatorInst(in)) {
            transfer_terminator(S, in);
            continue;
        }
        if (S->pinned[k])
            continue;
        if (update(S, (int)k, transfer(S, in)))
            enqueue_users(S, in);
    }
    weft_vec_free(&S->work);
}

struct weft_shapes *weft_shapes_compute(LLVMValueRef kernel, const struct weft_loops *loops)
{
    struct weft_shapes *S = weft_shapes_create(kernel, loops);
    if (S)
        weft_shapes_run(S);
    return S;
}

struct weft_shape weft_shape_of(const struct weft_shapes *S, LLVMValueRef v)
{
    struct ishape s = get(S, v);
    struct weft_shape r = {.kind = WEFT_SHAPE_VARYING};
    if (s.kind == K_UNIFORM) {
        r.kind = WEFT_SHAPE_UNIFORM;
    } else if (s.kind == K_AFFINE) {
        r.kind = WEFT_SHAPE_AFFINE;
        r.dim = s.dim;
        if (s.s.isc) {
            LLVMTypeRef t = LLVMTypeOf(v);
            if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
                t = LLVMInt64TypeInContext(S->ctx);
            r.stride = LLVMConstInt(t, (unsigned long long)s.s.c, 1);
        } else {
            r.stride = s.s.v;
        }
    }
    /* unknown (unreachable code) reads as varying: nothing may be assumed about it */
    return r;
}

bool weft_shape_const_stride(struct weft_shape sh, int64_t *stride)
{
    if (sh.kind != WEFT_SHAPE_AFFINE || !sh.stride || !LLVMIsAConstantInt(sh.stride))
        return false;
    *stride = LLVMConstIntGetSExtValue(sh.stride);
    return true;
}

bool weft_shapes_branch_divergent(const struct weft_shapes *S, LLVMBasicBlockRef bb)
{
    int b = weft_cfg_index(S->cfg, bb);
    return b >= 0 && S->divergent_branch[b];
}

bool weft_shapes_loop_divergent(const struct weft_shapes *S, LLVMBasicBlockRef header)
{
    int b = weft_cfg_index(S->cfg, header);
    int li = b >= 0 ? weft_loops_with_header(S->loops, b) : -1;
    return li >= 0 && (S->loop_divergent[li] || S->loop_join[b]);
}

void weft_shapes_free(struct weft_shapes *S)
{
    if (!S)
        return;
    weft_dom_free(S->pdom);
    weft_loops_free(S->own_loops);
    weft_dom_free(S->own_dom);
    weft_cfg_free(S->own_cfg);
    weft_ptrmap_free(&S->index);
    weft_ptrmap_free(&S->readonly_arg);
    free(S->insts);
    free(S->shape);
    free(S->pinned);
    free(S->forced);
    free(S->queued);
    free(S->divergent_branch);
    free(S->join);
    free(S->div_edge);
    free(S->loop_join);
    free(S->loop_divergent);
    weft_vec_free(&S->work);
    free(S);
}
