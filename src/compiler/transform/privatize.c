/* compiler/transform/privatize.c — private state that lives across sub-CFGs becomes
 * work-item-indexed arrays in ctx->scratch (DESIGN §3 stage 7, simple form).
 *
 * Assumes: sub-CFGs formed; values crossing blocks already demoted to entry-block allocas
 * (demote.c), so every value live across a barrier is in an alloca.
 * Guarantees: every entry-block alloca used in more than one sub-CFG, or whose address is
 * stored to memory or turned into an integer (it could then be reached from another
 * sub-CFG), is replaced by an array of local-size elements in ctx->scratch, each array
 * 64-byte aligned, element stride a multiple of the alloca's alignment; each use indexes it by
 * the linear local id. Allocas used within one sub-CFG stay (each work-item's use starts and
 * ends within its own iteration of that sub-CFG's loop). wf->scratch_size is the total.
 * Refinements from the shape analysis (demote.c's slot_info): a uniform value crossing
 * sub-CFGs keeps one scalar slot, an affine one a uniform base that each reload recomputes.
 * With wf->affine_slot_bases (a vectorized build), a demoted affine value used by one sub-CFG
 * only gets the uniform base too: the vectorizer keeps a uniform slot as one scalar, where it
 * would keep a slot of varying contents as a vector of lanes, and everything computed from a
 * lane-private vector is varying to it (a grid-stride counter in a kernel with barriers: every
 * load through it a gather, where the same loop without barriers, left in SSA form, loads
 * vectors). Sound for the same reason as a uniform slot is: the shape analysis calls a value
 * affine only where every work-item that reads it reads its own instance (values escaping a
 * loop that work-items leave in different iterations are varying). Not in a sub-CFG that runs
 * again after its own barrier (a loop around a barrier, the breadth-first schedule's loops): a
 * slot's value may then outlive one run of the packet loop (fuzz seed 4303 under "lc").
 */
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "weft/abi.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRATCH_ALIGN 64u

struct uses_info {
    uint64_t mask;
    bool escapes;
};

static bool is_lifetime_call(LLVMValueRef i)
{
    if (!LLVMIsACallInst(i))
        return false;
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (!f || !LLVMIsAFunction(f))
        return false;
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    return n > 13 && strncmp(name, "llvm.lifetime", 13) == 0;
}

static LLVMTypeRef leaf_type(LLVMTypeRef t)
{
    while (LLVMGetTypeKind(t) == LLVMArrayTypeKind)
        t = LLVMGetElementType(t);
    return t;
}

/* A load of type `leaf` from `ptr`, or a store of a `leaf` value to it. */
static bool element_access(LLVMValueRef user, LLVMValueRef ptr, LLVMTypeRef leaf)
{
    if (LLVMIsALoadInst(user))
        return LLVMTypeOf(user) == leaf && !LLVMGetVolatile(user);
    if (LLVMIsAStoreInst(user))
        return LLVMGetOperand(user, 1) == ptr && LLVMGetOperand(user, 0) != ptr &&
               LLVMTypeOf(LLVMGetOperand(user, 0)) == leaf && !LLVMGetVolatile(user);
    return false;
}

bool weft_privatize_interleaved(LLVMValueRef a)
{
    LLVMTypeRef leaf = leaf_type(LLVMGetAllocatedType(a));
    LLVMTypeKind k = LLVMGetTypeKind(leaf);
    bool scalar = k == LLVMIntegerTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
                  k == LLVMHalfTypeKind || k == LLVMPointerTypeKind;
    LLVMValueRef count = LLVMGetOperand(a, 0);
    if (!scalar || !LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1)
        return false;
    if (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(leaf) % 8)
        return false;   /* i1 and friends: bytes shared by several elements */
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (is_lifetime_call(user) || element_access(user, a, leaf))
            continue;
        if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != a ||
            leaf_type(LLVMGetGEPSourceElementType(user)) != leaf)
            return false;
        int nidx = LLVMGetNumOperands(user) - 1;
        for (int x = 1; x <= nidx; x++)
            if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(user, (unsigned)x))) != LLVMIntegerTypeKind)
                return false;   /* a vector of addresses */
        for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v))
            if (!element_access(LLVMGetUser(v), user, leaf))
                return false;
    }
    return true;
}

/* The element index (i64) the GEP `g` over arrays of scalars addresses. */
static LLVMValueRef element_index(LLVMBuilderRef b, LLVMValueRef g, LLVMContextRef c)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
    LLVMValueRef idx = NULL;
    int nidx = LLVMGetNumOperands(g) - 1;
    for (int x = 1; x <= nidx; x++) {
        if (x > 1)
            t = LLVMGetElementType(t);
        uint64_t elems = 1;   /* scalars of the leaf type in one t */
        for (LLVMTypeRef e = t; LLVMGetTypeKind(e) == LLVMArrayTypeKind; e = LLVMGetElementType(e))
            elems *= LLVMGetArrayLength2(e);
        LLVMValueRef term = LLVMBuildMul(b, LLVMBuildSExtOrBitCast(b, LLVMGetOperand(g, (unsigned)x), i64, ""),
                                         LLVMConstInt(i64, elems, 0), "");
        idx = idx ? LLVMBuildAdd(b, idx, term, "") : term;
    }
    return idx ? idx : LLVMConstInt(i64, 0, 0);
}

/* The distinct users of v (an instruction using v twice appears once), malloc'd; *n gets the
 * count. Taken before rewriting, which changes the use list. NULL when out of memory. */
static LLVMValueRef *distinct_users(LLVMValueRef v, unsigned *n)
{
    unsigned count = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        count++;
    LLVMValueRef *users = malloc((count ? count : 1) * sizeof *users);
    if (!users)
        return NULL;
    *n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        bool dup = false;
        for (unsigned j = 0; j < *n && !dup; j++)
            dup = users[j] == user;
        if (!dup)
            users[(*n)++] = user;
    }
    return users;
}

/* Replaces `a` by its element-interleaved copies at scratch + base_off (weft_privatize_interleaved). */
static void interleave(struct weft_workfn *wf, LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef scratch,
                       uint64_t base_off, const char *name)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    LLVMTypeRef leaf = leaf_type(LLVMGetAllocatedType(a)), i8 = LLVMInt8TypeInContext(wf->c);
    uint64_t es = LLVMABISizeOfType(td, leaf), row = es * weft_workfn_local_total(wf);
    unsigned nu = 0;
    LLVMValueRef *users = distinct_users(a, &nu);
    if (!users)
        abort();
    for (unsigned k = 0; k < nu; k++) {
        LLVMValueRef user = users[k];
        if (is_lifetime_call(user)) {
            LLVMInstructionEraseFromParent(user);
            continue;
        }
        LLVMPositionBuilderBefore(b, user);
        LLVMValueRef lin = weft_build_local_linear_id(b, wf);
        LLVMValueRef byte = LLVMBuildAdd(b, LLVMBuildMul(b, lin, weft_i64(wf->c, es), ""), weft_i64(wf->c, base_off), "");
        if (LLVMIsAGetElementPtrInst(user))
            byte = LLVMBuildAdd(b, byte, LLVMBuildMul(b, element_index(b, user, wf->c), weft_i64(wf->c, row), ""), "");
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, scratch, &byte, 1, name);
        LLVMValueRef *accesses = &user, *list = NULL;
        unsigned na = 1;
        if (LLVMIsAGetElementPtrInst(user)) {
            list = distinct_users(user, &na);
            if (!list)
                abort();
            accesses = list;
        }
        for (unsigned x = 0; x < na; x++) {
            LLVMValueRef acc = accesses[x];
            /* a copy is aligned to its element only (the alloca may have promised more) */
            if (LLVMGetAlignment(acc) > es)
                LLVMSetAlignment(acc, (unsigned)es);
            LLVMSetOperand(acc, LLVMIsALoadInst(acc) ? 0 : 1, p);
        }
        if (list) {
            free(list);
            LLVMInstructionEraseFromParent(user);
        }
    }
    free(users);
}

/* Follows the pointer `v` (derived from an alloca) through address computations. */
static void collect_uses(LLVMValueRef v, const struct weft_vmap *membership, struct uses_info *info, int depth)
{
    if (depth > 32) {
        info->escapes = true;
        return;
    }
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user)) {
            info->escapes = true;
            continue;
        }
        info->mask |= (uint64_t)(uintptr_t)weft_vmap_get(membership, LLVMGetInstructionParent(user));
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v)
            info->escapes = true;   /* the address itself is stored */
        else if (LLVMIsAPtrToIntInst(user) || LLVMIsAPHINode(user))
            info->escapes = true;
        else if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
                 LLVMIsAAddrSpaceCastInst(user) || LLVMIsASelectInst(user))
            collect_uses(user, membership, info, depth + 1);
    }
}

/* offset = stride * lid(dim), built at `b`, in the type of `v` (an integer), or in i64 bytes
 * for a pointer. */
static LLVMValueRef affine_offset(LLVMBuilderRef b, struct weft_workfn *wf, LLVMTypeRef vt,
                                  const struct weft_slot_info *si)
{
    LLVMValueRef lid = weft_build_local_id(b, wf, (unsigned)si->dim);
    LLVMTypeRef t = LLVMGetTypeKind(vt) == LLVMPointerTypeKind ? LLVMInt64TypeInContext(wf->c) : vt;
    if (LLVMTypeOf(lid) != t)
        lid = LLVMBuildIntCast2(b, lid, t, 0, "");
    return LLVMBuildMul(b, lid, LLVMConstInt(t, (unsigned long long)si->stride, 1), "");
}

/* An affine value v = base + stride*lid(dim) crossing sub-CFGs (Kim §2.8): the slot keeps the
 * uniform base, stored as v - stride*lid, and every reload adds stride*lid back. The
 * arithmetic is exact in the value's own width (wrapping), so the round trip is the identity.
 * Returns false (nothing changed) when the slot has uses other than plain loads and stores. */
static bool recompute_affine(struct weft_workfn *wf, LLVMValueRef slot, const struct weft_slot_info *si)
{
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        bool ok = (LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == slot) ||
                  (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot && LLVMGetOperand(user, 0) != slot);
        if (!ok)
            return false;
    }
    LLVMTypeRef vt = LLVMGetAllocatedType(slot);
    bool is_ptr = LLVMGetTypeKind(vt) == LLVMPointerTypeKind;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(wf->c);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u))
        n++;
    LLVMValueRef *users = malloc((n ? n : 1) * sizeof *users);
    if (!users) {
        LLVMDisposeBuilder(b);
        return false;
    }
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u))
        users[n++] = LLVMGetUser(u);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef user = users[k];
        if (LLVMIsAStoreInst(user)) {
            LLVMPositionBuilderBefore(b, user);
            LLVMValueRef v = LLVMGetOperand(user, 0);
            LLVMValueRef off = affine_offset(b, wf, vt, si);
            LLVMValueRef base = is_ptr ? LLVMBuildGEP2(b, i8, v, (LLVMValueRef[]){LLVMBuildNeg(b, off, "")}, 1, "base")
                                       : LLVMBuildSub(b, v, off, "base");
            LLVMSetOperand(user, 0, base);
        } else {
            LLVMValueRef next = LLVMGetNextInstruction(user);
            LLVMPositionBuilderBefore(b, next);
            LLVMValueRef off = affine_offset(b, wf, vt, si);
            LLVMValueRef v = is_ptr ? LLVMBuildGEP2(b, i8, user, &off, 1, "recomputed")
                                    : LLVMBuildAdd(b, user, off, "recomputed");
            /* every use of the load but the recomputation itself */
            LLVMValueRef ph = LLVMGetPoison(vt);
            LLVMSetOperand(v, 0, ph);
            LLVMReplaceAllUsesWith(user, v);
            LLVMSetOperand(v, 0, user);
        }
    }
    free(users);
    LLVMDisposeBuilder(b);
    return true;
}

/* Predecessor lists of each sub-CFG's blocks, restricted to the sub-CFG (the clone in its
 * loop only has those edges; the entry's edge from the loop header comes from outside). */
struct subcfg_edges {
    unsigned n;
    unsigned *pred_start;   /* n + 1 entries */
    unsigned *preds;        /* block indices */
    struct weft_ptrmap ix;  /* block -> index + 1 */
};

static bool subcfg_edges_build(const struct weft_subcfg *S, struct subcfg_edges *e)
{
    memset(e, 0, sizeof *e);
    e->n = S->nblocks;
    for (unsigned k = 0; k < e->n; k++)
        weft_ptrmap_put(&e->ix, S->blocks[k], k + 1);
    unsigned *count = calloc(e->n + 1, sizeof *count);
    e->pred_start = calloc(e->n + 1, sizeof *e->pred_start);
    if (!count || !e->pred_start) {
        free(count);
        return false;
    }
    unsigned total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned p = 0; p < e->n; p++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(S->blocks[p]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned j = 0; j < ns; j++) {
                uintptr_t k = weft_ptrmap_get_or(&e->ix, LLVMGetSuccessor(t, j), 0);
                if (!k)
                    continue;
                if (pass == 0) {
                    count[k - 1]++;
                    total++;
                } else {
                    e->preds[e->pred_start[k - 1] + count[k - 1]++] = p;
                }
            }
        }
        if (pass == 0) {
            for (unsigned k = 0; k < e->n; k++)
                e->pred_start[k + 1] = e->pred_start[k] + count[k];
            memset(count, 0, (e->n + 1) * sizeof *count);
            e->preds = calloc(total ? total : 1, sizeof *e->preds);
            if (!e->preds) {
                free(count);
                return false;
            }
        }
    }
    free(count);
    return true;
}

static void subcfg_edges_free(struct subcfg_edges *e)
{
    free(e->pred_start);
    free(e->preds);
    weft_ptrmap_free(&e->ix);
}

/* May every work-item share one scalar copy of `slot` (which holds a uniform value)? Not if
 * some sub-CFG both stores the slot and loads, on some path from its entry, the value it had
 * before the sub-CFG started: with one copy, work-item k+1 would read what work-item k stored
 * during this sub-CFG (a loop-carried value around a barrier). A must-analysis per sub-CFG:
 * "stored on every path from the entry" at each block. */
static bool scalar_slot_safe(const struct weft_subcfgs *sc, const struct subcfg_edges *edges, LLVMValueRef slot)
{
    for (unsigned si = 0; si < sc->count; si++) {
        const struct weft_subcfg *S = &sc->s[si];
        const struct subcfg_edges *e = &edges[si];
        unsigned n = S->nblocks;
        bool any_store = false, any_load = false;
        for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsAInstruction(user) || !weft_ptrmap_has(&e->ix, LLVMGetInstructionParent(user)))
                continue;
            any_store |= LLVMIsAStoreInst(user) != NULL;
            any_load |= LLVMIsALoadInst(user) != NULL;
        }
        if (!any_store || !any_load)
            continue;
        bool *has_store = calloc(n, 1), *load_first = calloc(n, 1), *in = calloc(n, 1), *out = calloc(n, 1);
        bool safe = has_store && load_first && in && out;
        for (unsigned k = 0; safe && k < n; k++)
            for (LLVMValueRef i = LLVMGetFirstInstruction(S->blocks[k]); i; i = LLVMGetNextInstruction(i)) {
                if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot)
                    has_store[k] = true;
                else if (LLVMIsALoadInst(i) && LLVMGetOperand(i, 0) == slot && !has_store[k])
                    load_first[k] = true;
            }
        if (safe) {
            for (unsigned k = 0; k < n; k++)
                in[k] = out[k] = k != 0;   /* optimistic start; blocks[0] is the entry */
            out[0] = has_store[0];
            for (bool changed = true; changed;) {
                changed = false;
                for (unsigned k = 1; k < n; k++) {
                    bool all = true;
                    for (unsigned j = e->pred_start[k]; j < e->pred_start[k + 1] && all; j++)
                        all = out[e->preds[j]];
                    bool o = all || has_store[k];
                    if (all != in[k] || o != out[k]) {
                        in[k] = all;
                        out[k] = o;
                        changed = true;
                    }
                }
            }
            for (unsigned k = 0; k < n; k++)
                if (load_first[k] && !in[k])
                    safe = false;
        }
        free(has_store);
        free(load_first);
        free(in);
        free(out);
        if (!safe)
            return false;
    }
    return true;
}

enum { LOAD_CUR = 1, LOAD_NEXT = 2 };

/* Sorts the loads of `slot` in sub-CFG S (within one execution of it by one work-item) into
 * those no store can precede (LOAD_CUR: the value from before the sub-CFG started) and those a
 * store precedes on every path (LOAD_NEXT: this work-item's own store), recorded in `reads`
 * (load -> class; a block shared by several sub-CFGs must get one class in all). False when a
 * load is preceded by a store on some paths only, or classes conflict. *stores: S stores. */
static bool classify_loads(const struct weft_subcfg *S, const struct subcfg_edges *e, LLVMValueRef slot,
                           struct weft_ptrmap *reads, bool *stores)
{
    unsigned n = S->nblocks;
    /* may[k]/must[k]: a store precedes block k on some/every path from the sub-CFG's entry */
    bool *has_store = calloc(n, 1), *may = calloc(n, 1), *must = calloc(n, 1), ok = has_store && may && must;
    *stores = false;
    for (unsigned k = 0; ok && k < n; k++) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(S->blocks[k]); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot)
                has_store[k] = true;
        *stores |= has_store[k];
        must[k] = k != 0;   /* optimistic start; blocks[0] is the entry */
    }
    for (bool changed = ok; changed;) {
        changed = false;
        for (unsigned k = 0; k < n; k++) {
            bool any = false, all = k != 0;
            for (unsigned j = e->pred_start[k]; j < e->pred_start[k + 1]; j++) {
                unsigned q = e->preds[j];
                any |= may[q] || has_store[q];
                all &= must[q] || has_store[q];
            }
            if (any != may[k] || all != must[k]) {
                may[k] |= any;
                must[k] = all;
                changed = true;
            }
        }
    }
    for (unsigned k = 0; ok && k < n; k++) {
        bool stored_here = false;
        for (LLVMValueRef i = LLVMGetFirstInstruction(S->blocks[k]); i && ok; i = LLVMGetNextInstruction(i)) {
            if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot)
                stored_here = true;
            if (!LLVMIsALoadInst(i) || LLVMGetOperand(i, 0) != slot)
                continue;
            uintptr_t cls = stored_here || must[k] ? LOAD_NEXT : !may[k] ? LOAD_CUR : 0;
            uintptr_t seen = weft_ptrmap_get_or(reads, i, 0);
            ok = cls && (!seen || seen == cls);
            weft_ptrmap_put(reads, i, cls);
        }
    }
    free(has_store);
    free(may);
    free(must);
    return ok;
}

/* A uniform slot that some sub-CFG loads (the value from before it started) and then stores
 * (a counter of a loop around a barrier): one scalar copy would let work-item k+1 read what
 * work-item k stored. When every load either precedes all stores or follows one on every path
 * (classify_loads), two copies do: stores go to `next`, the loads that follow a store read
 * `next` (every work-item stores the same value), the others read `cur`, and wgloops commits
 * next -> cur after each storing sub-CFG. */
static bool double_buffer(struct weft_workfn *wf, const struct subcfg_edges *edges, LLVMValueRef slot)
{
    const struct weft_subcfgs *sc = &wf->subcfgs;
    uint64_t storing = 0;
    struct weft_ptrmap reads;
    weft_ptrmap_init(&reads);
    for (unsigned si = 0; si < sc->count; si++) {
        bool stores = false;
        if (!classify_loads(&sc->s[si], &edges[si], slot, &reads, &stores) || (stores && si >= 64)) {
            weft_ptrmap_free(&reads);
            return false;
        }
        if (stores)
            storing |= 1ull << si;
    }
    /* everything that can fail first: then the rewrite cannot stop half-way */
    unsigned nstoring = (unsigned)__builtin_popcountll(storing);
    struct weft_slot_commit *grown = realloc(wf->commits, (wf->ncommits + nstoring) * sizeof *grown);
    struct weft_slot_info *ni = malloc(sizeof *ni);
    if (grown)
        wf->commits = grown;
    if (!grown || !ni) {
        free(ni);
        weft_ptrmap_free(&reads);
        return false;
    }
    LLVMTypeRef ty = LLVMGetAllocatedType(slot);
    /* before the slot: the caller's walk over the entry's allocas has passed it */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);
    LLVMPositionBuilderBefore(b, slot);
    LLVMValueRef next = LLVMBuildAlloca(b, ty, "uniform.next");
    LLVMDisposeBuilder(b);
    /* a uniform slot like `cur`: the vectorizer keeps it scalar, not lane-private */
    *ni = (struct weft_slot_info){WEFT_SLOT_UNIFORM, 0, 0, false};
    weft_ptrmap_put(&wf->slot_info, next, (uintptr_t)ni);
    for (LLVMUseRef u = LLVMGetFirstUse(slot), nu; u; u = nu) {
        nu = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) ||
            (LLVMIsALoadInst(user) && weft_ptrmap_get_or(&reads, user, 0) == LOAD_NEXT))
            LLVMSetOperand(user, LLVMIsAStoreInst(user) ? 1 : 0, next);
    }
    weft_ptrmap_free(&reads);
    for (unsigned si = 0; si < sc->count && si < 64; si++)
        if (storing >> si & 1)
            wf->commits[wf->ncommits++] = (struct weft_slot_commit){si, slot, next, ty};
    return true;
}

static void free_edges(struct subcfg_edges *edges, unsigned n)
{
    for (unsigned k = 0; edges && k < n; k++)
        subcfg_edges_free(&edges[k]);
    free(edges);
}

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

uint64_t weft_subcfgs_reentering(const struct weft_subcfgs *sc)
{
    uint64_t mask = 0;
    for (unsigned i = 0; i < sc->count && i < 63; i++)
        for (unsigned k = 0; k < sc->s[i].nblocks && !(mask >> i & 1); k++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(sc->s[i].blocks[k]);
            unsigned n = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned j = 0; j < n; j++)
                if (LLVMGetSuccessor(t, j) == sc->s[i].barrier)
                    mask |= 1ull << i;
        }
    return mask;
}

bool weft_privatize(struct weft_workfn *wf, struct weft_diag *diag)
{
    const struct weft_subcfgs *sc = &wf->subcfgs;
    struct weft_vmap membership;
    weft_vmap_init(&membership);
    for (unsigned i = 0; i < sc->count; i++)
        for (unsigned k = 0; k < sc->s[i].nblocks; k++) {
            LLVMBasicBlockRef bb = sc->s[i].blocks[k];
            uint64_t m = (uint64_t)(uintptr_t)weft_vmap_get(&membership, bb);
            m |= 1ull << (i < 63 ? i : 63);
            if (!weft_vmap_put(&membership, bb, (void *)(uintptr_t)m)) {
                weft_vmap_free(&membership);
                weft_diag_error(diag, "out of memory");
                return false;
            }
        }

    /* lifetime markers would end a variable's life inside one work-item loop while the next
     * work-item or sub-CFG still uses it; they only help the stack coloring we do not need */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wf->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef nx = LLVMGetNextInstruction(i);
            if (is_lifetime_call(i))
                LLVMInstructionEraseFromParent(i);
            i = nx;
        }

    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(wf->fn);
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(wf->c);
    LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(entry));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(wf->c);
    LLVMValueRef scratch = NULL;
    uint64_t local_total = weft_workfn_local_total(wf);
    uint64_t offset = wf->scratch_size;
    struct subcfg_edges *edges = NULL;   /* built on first need */
    bool edges_failed = false;
    const uint64_t reentering = weft_subcfgs_reentering(sc);

    for (LLVMValueRef a = LLVMGetFirstInstruction(entry); a;) {
        LLVMValueRef next = LLVMGetNextInstruction(a);
        if (!LLVMIsAAllocaInst(a)) {
            a = next;
            continue;
        }
        struct uses_info info = {0};
        collect_uses(a, &membership, &info, 0);
        /* a variable of the program's own (not a demoted value) used by a sub-CFG that runs again
         * after its own barrier may carry values from one run to the next */
        bool own_variable = !weft_ptrmap_has(&wf->demoted, a);
        bool widen = info.mask && (popcount64(info.mask) > 1 || info.escapes || (info.mask >> 63) ||
                                   (own_variable && (info.mask & reentering)));
        const struct weft_slot_info *si = (const void *)weft_ptrmap_get_or(&wf->slot_info, a, 0);
        if (!widen) {
            if (wf->affine_slot_bases && info.mask && !info.escapes && !(info.mask & reentering) && si &&
                si->shape == WEFT_SLOT_AFFINE && !si->uniform_base && recompute_affine(wf, a, si)) {
                ((struct weft_slot_info *)si)->uniform_base = true;
                wf->affine_bases++;
            }
            a = next;
            continue;
        }
        if (si && !edges) {
            edges = calloc(sc->count, sizeof *edges);
            for (unsigned k = 0; edges && k < sc->count; k++)
                if (!subcfg_edges_build(&sc->s[k], &edges[k]))
                    edges_failed = true;
        }
        if (si && (!edges || edges_failed || !scalar_slot_safe(&wf->subcfgs, edges, a))) {
            if (si->shape == WEFT_SLOT_UNIFORM && edges && !edges_failed && double_buffer(wf, edges, a)) {
                wf->uniform_slots++;
                a = next;
                continue;
            }
            si = NULL;   /* loop-carried around a barrier: needs a copy per work-item */
        }
        if (si && si->shape == WEFT_SLOT_UNIFORM) {
            /* every work-item stores the same value: one scalar slot is enough */
            wf->uniform_slots++;
            a = next;
            continue;
        }
        if (si && si->shape == WEFT_SLOT_AFFINE && recompute_affine(wf, a, si)) {
            ((struct weft_slot_info *)si)->uniform_base = true;
            wf->recomputed++;
            a = next;
            continue;
        }
        LLVMTypeRef ty = LLVMGetAllocatedType(a);
        LLVMValueRef count = LLVMGetOperand(a, 0);
        uint64_t n = LLVMIsAConstantInt(count) ? LLVMConstIntGetZExtValue(count) : 0;
        if (!n) {
            weft_diag_error(diag, "a variable-sized private array lives across a barrier");
            free_edges(edges, sc->count);
            LLVMDisposeBuilder(b);
            LLVMDisposeBuilder(eb);
            weft_vmap_free(&membership);
            return false;
        }
        uint64_t align = LLVMGetAlignment(a);
        if (!align)
            align = LLVMABIAlignmentOfType(td, ty);
        uint64_t stride = weft_round_up(LLVMABISizeOfType(td, ty) * n, align ? align : 1);
        offset = weft_round_up(offset, SCRATCH_ALIGN);
        uint64_t base_off = offset;
        offset += stride * local_total;
        if (!scratch)
            scratch = wf->scratch_base = weft_ctx_load(eb, wf, WEFT_CTX_FIELD_SCRATCH, NULL);

        size_t nl = 0;
        const char *an = LLVMGetValueName2(a, &nl);
        char name[96];
        snprintf(name, sizeof name, "%.*s.priv", (int)(nl > 80 ? 80 : nl), an);
        if (weft_privatize_interleaved(a)) {
            interleave(wf, b, a, scratch, base_off, name);
            LLVMInstructionEraseFromParent(a);
            wf->privatized++;
            a = next;
            continue;
        }

        unsigned nu = 0;
        LLVMValueRef *users = distinct_users(a, &nu);
        if (!users) {
            weft_diag_error(diag, "out of memory");
            free_edges(edges, sc->count);
            LLVMDisposeBuilder(b);
            LLVMDisposeBuilder(eb);
            weft_vmap_free(&membership);
            return false;
        }
        for (unsigned k = 0; k < nu; k++) {
            LLVMValueRef user = users[k];
            if (is_lifetime_call(user)) {
                LLVMInstructionEraseFromParent(user);
                continue;
            }
            LLVMPositionBuilderBefore(b, user);
            LLVMValueRef lin = weft_build_local_linear_id(b, wf);
            LLVMValueRef byte = LLVMBuildAdd(b, LLVMBuildMul(b, lin, weft_i64(wf->c, stride), ""),
                                             weft_i64(wf->c, base_off), "");
            LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, scratch, &byte, 1, name);
            int no = LLVMGetNumOperands(user);
            for (int o = 0; o < no; o++)
                if (LLVMGetOperand(user, (unsigned)o) == a)
                    LLVMSetOperand(user, (unsigned)o, p);
        }
        free(users);
        LLVMInstructionEraseFromParent(a);
        wf->privatized++;
        a = next;
    }
    wf->scratch_size = offset ? weft_round_up(offset, SCRATCH_ALIGN) : 0;
    free_edges(edges, sc->count);
    LLVMDisposeBuilder(b);
    LLVMDisposeBuilder(eb);
    weft_vmap_free(&membership);
    return true;
}
