/* compiler/transform/vectorize_rows.c — row groups: consecutive loads of each lane's own row,
 * read as one vector per lane and transposed in registers.
 *
 * A loop that rowunroll.c unrolled holds, per row a work-item walks, ROW_UNROLL loads whose
 * addresses follow each other by the element size (A[i*n + j], A[i*n + j + 1], ...), while
 * neighbouring lanes' addresses are a row apart. Side by side each of them is a gather of P
 * elements from P rows. A group of G such loads (G a power of two from 4 to 16, found in one
 * block with nothing that may write memory between the first and the last) is read instead as
 * one G-element load per lane, from the lane's address of the first load, and the P x G block is
 * transposed square by square (T x T, T = min(P, G): 8 x 8 of 32-bit elements in x86's form,
 * other squares by log2 T rounds of interleaves), the squares' columns joined: column k is the
 * packet's vector of load k. Every lane reads only elements its own loads read. Only in full
 * packets that run unmasked (the structured copy, and the fast path of a linearized one); under a
 * mask each load is emitted as before. The first load of the group emits the block; the others
 * take their column while the block's emission that made it lasts (its epoch).
 */
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/linear.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/vectorize_internal.h"

#define GROUP_MIN 4
#define GROUP_MAX 16
/* How far past its first load a group is looked for: 8 copies of a body of at most 64
 * instructions (rowunroll.c), and a bound on the search in long blocks without stores. */
#define GROUP_SPAN 600

struct vrowgroup {
    LLVMValueRef load[GROUP_MAX];
    unsigned n;
    unsigned epoch;
    bool ready;
    LLVMValueRef col[GROUP_MAX];
};

/* A load that may lead or join a group: a plain scalar load of global or constant memory whose
 * lanes are neither the same address nor a few elements apart. */
static bool row_load(struct weft_vec_plan *p, LLVMValueRef i, LLVMTargetDataRef td)
{
    if (!LLVMIsALoadInst(i) || LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        return false;
    LLVMTypeRef t = LLVMTypeOf(i);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind &&
        (k != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) < 8 || LLVMGetIntTypeWidth(t) > 64 ||
         (LLVMGetIntTypeWidth(t) & (LLVMGetIntTypeWidth(t) - 1))))
        return false;
    LLVMValueRef ptr = LLVMGetOperand(i, 0);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
    if ((as != 1 && as != 2) || weft_vec_priv_of(p, ptr) || weft_vec_kind_of(p, ptr) == K_U)
        return false;
    struct vinfo *pi = weft_vec_info(p, ptr);
    long long size = (long long)LLVMABISizeOfType(td, t);
    if (pi && pi->kind == K_A && pi->has_stride && (pi->stride < 0 ? -pi->stride : pi->stride) <= size * WEFT_VEC_STRIDED_MAX)
        return false;
    return true;
}

/* Whether instruction x may write memory (ends a group's span). */
static bool may_write(LLVMValueRef x)
{
    if (LLVMIsAStoreInst(x) || LLVMIsAAtomicRMWInst(x) || LLVMIsAAtomicCmpXchgInst(x) || LLVMIsAFenceInst(x))
        return true;
    if (LLVMIsALoadInst(x))
        return LLVMGetVolatile(x) || LLVMGetOrdering(x) != LLVMAtomicOrderingNotAtomic;
    return LLVMIsACallInst(x) && !weft_call_is_pure(x);
}

void weft_vec_find_row_groups(struct weft_vec_plan *p, struct weft_vec_report *report)
{
    weft_ptrmap_init(&p->rowidx);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(p->m);
    for (unsigned bi = 0; bi < p->nb; bi++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(p->blocks[bi]); i; i = LLVMGetNextInstruction(i)) {
            if (weft_ptrmap_get_or(&p->rowidx, i, 0) || !row_load(p, i, td))
                continue;
            LLVMTypeRef t = LLVMTypeOf(i);
            int64_t size = (int64_t)LLVMABISizeOfType(td, t);
            struct vrowgroup g = {.load = {i}, .n = 1};
            unsigned span = 0;
            for (LLVMValueRef x = LLVMGetNextInstruction(i); x && g.n < GROUP_MAX && span < GROUP_SPAN && !may_write(x);
                 x = LLVMGetNextInstruction(x), span++) {
                int64_t d;
                if (LLVMTypeOf(x) == t && !weft_ptrmap_get_or(&p->rowidx, x, 0) && row_load(p, x, td) &&
                    weft_linear_distance(td, LLVMGetOperand(i, 0), LLVMGetOperand(x, 0), &d) && d == (int64_t)g.n * size)
                    g.load[g.n++] = x;
            }
            while (g.n & (g.n - 1))
                g.n &= g.n - 1;   /* a power of two */
            if (g.n < GROUP_MIN)
                continue;
            struct vrowgroup *grown = realloc(p->rows, (p->nrows + 1) * sizeof *p->rows);
            if (!grown)
                abort();
            p->rows = grown;
            p->rows[p->nrows] = g;
            for (unsigned k = 0; k < g.n; k++)
                weft_ptrmap_put(&p->rowidx, g.load[k], p->nrows * GROUP_MAX + k + 1);
            p->nrows++;
        }
    report->row_groups = (unsigned)p->nrows;
}

void weft_vec_free_row_groups(struct weft_vec_plan *p)
{
    free(p->rows);
    p->rows = NULL;
    p->nrows = 0;
    weft_ptrmap_free(&p->rowidx);
}

/* Elements [from, from + n) of vector v. */
static LLVMValueRef slice(struct weft_vec_plan *p, LLVMValueRef v, unsigned from, unsigned n)
{
    int idx[GROUP_MAX];
    for (unsigned k = 0; k < n; k++)
        idx[k] = (int)(from + k);
    return LLVMBuildShuffleVector(p->b, v, LLVMGetPoison(LLVMTypeOf(v)), weft_vec_shuffle_mask(p, idx, n), "");
}

/* One round of two-input shuffles: for k < 8,
 *     out[k] = shuffle(r[pair[k][0]], r[pair[k][1]], mask[(k >> shift) & 1])
 * (each round uses two masks, alternating every 1 << shift outputs). */
static void round8(struct weft_vec_plan *p, LLVMValueRef *r, const int pair[8][2], const int mask[2][8],
                   unsigned shift, const char *name)
{
    LLVMValueRef out[8];
    for (unsigned k = 0; k < 8; k++)
        out[k] = LLVMBuildShuffleVector(p->b, r[pair[k][0]], r[pair[k][1]],
                                        weft_vec_shuffle_mask(p, mask[(k >> shift) & 1], 8), name);
    memcpy(r, out, sizeof out);
}

/* 8 x 8 of 32-bit elements as x86 does it in 256-bit registers: two rounds within 128-bit
 * halves (unpcklps/unpckhps, then shufps), one across them (vperm2f128). The whole-vector
 * interleaves of transpose() below cross the halves in every round: LLVM made each a vpermt2ps,
 * 24 per group and step of 8 on the one port that shuffles across halves (with the row loads'
 * own shuffles, about 1.5x the shuffles of this form; gesummv on the 16-core machine took 1.4x
 * the time of a C model written this way). */
static void transpose8x32(struct weft_vec_plan *p, LLVMValueRef *r)
{
    static const int pair1[8][2] = {{0, 1}, {0, 1}, {2, 3}, {2, 3}, {4, 5}, {4, 5}, {6, 7}, {6, 7}};
    static const int mask1[2][8] = {{0, 8, 1, 9, 4, 12, 5, 13}, {2, 10, 3, 11, 6, 14, 7, 15}};
    static const int pair2[8][2] = {{0, 2}, {0, 2}, {1, 3}, {1, 3}, {4, 6}, {4, 6}, {5, 7}, {5, 7}};
    static const int mask2[2][8] = {{0, 1, 8, 9, 4, 5, 12, 13}, {2, 3, 10, 11, 6, 7, 14, 15}};
    static const int pair3[8][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    static const int mask3[2][8] = {{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}};
    round8(p, r, pair1, mask1, 0, "rows.unpack");
    round8(p, r, pair2, mask2, 0, "rows.shuf");
    round8(p, r, pair3, mask3, 2, "rows.halves");
}

/* Transposes the T x T block r[0..T-1] (T-element vectors) in place: r[k] becomes the vector of
 * element k of every row. log2 T rounds; round s interleaves row i with row i + T/2. */
static void transpose(struct weft_vec_plan *p, LLVMValueRef *r, unsigned T, unsigned element_bits)
{
    if (T == 8 && element_bits == 32) {
        transpose8x32(p, r);
        return;
    }
    LLVMValueRef next[GROUP_MAX];
    int lo[GROUP_MAX], hi[GROUP_MAX];
    for (unsigned x = 0; x < T / 2; x++) {
        lo[2 * x] = (int)x;
        lo[2 * x + 1] = (int)(T + x);
        hi[2 * x] = (int)(T / 2 + x);
        hi[2 * x + 1] = (int)(T + T / 2 + x);
    }
    for (unsigned s = 1; s < T; s *= 2) {
        for (unsigned i = 0; i < T / 2; i++) {
            next[2 * i] = LLVMBuildShuffleVector(p->b, r[i], r[i + T / 2], weft_vec_shuffle_mask(p, lo, T), "rows.lo");
            next[2 * i + 1] = LLVMBuildShuffleVector(p->b, r[i], r[i + T / 2], weft_vec_shuffle_mask(p, hi, T), "rows.hi");
        }
        memcpy(r, next, T * sizeof *r);
    }
}

/* Concatenates n vectors of m elements into one of n * m. */
static LLVMValueRef concat(struct weft_vec_plan *p, LLVMValueRef *v, unsigned n, unsigned m)
{
    while (n > 1) {
        int *idx = malloc(sizeof(int) * 2 * m);
        if (!idx)
            abort();
        for (unsigned k = 0; k < 2 * m; k++)
            idx[k] = (int)k;
        for (unsigned i = 0; i < n / 2; i++)
            v[i] = LLVMBuildShuffleVector(p->b, v[2 * i], v[2 * i + 1], weft_vec_shuffle_mask(p, idx, 2 * m), "");
        free(idx);
        n /= 2;
        m *= 2;
    }
    return v[0];
}

/* Lane l's value of address `v`, computed as a scalar where `v` is index arithmetic of the
 * group's own block, from lane l of the values it starts from (the row's start is loop-invariant:
 * its lanes move out of the loop). Taken from the packet's vector of 64-bit addresses instead,
 * every step of gesummv's loop sign-extended, scaled and offset the whole vector before the
 * extracts; LLVM's SLP vectorizer packs these scalars again, but only the 32-bit index sum is
 * left per step, the scaling going into the loads' addressing (2-core VM, 6 alternating rounds:
 * 7.08 -> 6.69 ms). */
static LLVMValueRef lane_address(struct weft_vec_plan *p, LLVMValueRef v, unsigned l, int block, unsigned depth)
{
    struct vinfo *vi = weft_vec_info(p, v);
    if (depth > 8 || !vi || vi->block != block || weft_vec_kind_of(p, v) == K_U)
        return weft_vec_lane_of(p, v, l);
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMSExt:
    case LLVMZExt: case LLVMTrunc: case LLVMOr:
        break;
    default:
        return weft_vec_lane_of(p, v, l);
    }
    LLVMValueRef c = LLVMInstructionClone(v);
    for (int o = 0; o < LLVMGetNumOperands(v); o++) {
        LLVMValueRef op = LLVMGetOperand(v, (unsigned)o);
        if (!weft_vec_plain_operand(op) && !LLVMIsAConstant(op))
            LLVMSetOperand(c, (unsigned)o, lane_address(p, op, l, block, depth + 1));
    }
    LLVMInsertIntoBuilder(p->b, c);
    return c;
}

/* The group's columns: each lane's G elements loaded at once, transposed square by square. */
static void emit_group(struct weft_vec_plan *p, struct vrowgroup *g)
{
    LLVMValueRef lead = g->load[0], ptr = LLVMGetOperand(lead, 0);
    LLVMTypeRef t = LLVMTypeOf(lead);
    unsigned G = g->n, P = p->P, T = G < P ? G : P;
    LLVMTypeRef rt = LLVMVectorType(t, G);
    LLVMValueRef *row = malloc(sizeof *row * P);
    LLVMValueRef *piece = malloc(sizeof *piece * P * (G / T) * T);   /* [lane block][element block][t] */
    if (!row || !piece)
        abort();
    for (unsigned l = 0; l < P; l++) {
        LLVMValueRef ld = LLVMBuildLoad2(p->b, rt, lane_address(p, ptr, l, weft_vec_info(p, lead)->block, 0), "rows.row");
        LLVMSetAlignment(ld, LLVMGetAlignment(lead));
        row[l] = ld;
    }
    unsigned nlb = P / T, neb = G / T;
    for (unsigned lb = 0; lb < nlb; lb++)
        for (unsigned eb = 0; eb < neb; eb++) {
            LLVMValueRef sq[GROUP_MAX];
            for (unsigned r = 0; r < T; r++)
                sq[r] = neb == 1 ? row[lb * T + r] : slice(p, row[lb * T + r], eb * T, T);
            transpose(p, sq, T, (unsigned)(LLVMABISizeOfType(LLVMGetModuleDataLayout(p->m), t) * 8));
            for (unsigned k = 0; k < T; k++)
                piece[(lb * neb + eb) * T + k] = sq[k];
        }
    for (unsigned eb = 0; eb < neb; eb++)
        for (unsigned k = 0; k < T; k++) {
            LLVMValueRef parts[64];
            for (unsigned lb = 0; lb < nlb; lb++)
                parts[lb] = piece[(lb * neb + eb) * T + k];
            g->col[eb * T + k] = concat(p, parts, nlb, T);
        }
    free(row);
    free(piece);
}

bool weft_vec_emit_row_load(struct weft_vec_plan *p, struct vinfo *vi)
{
    uintptr_t at = weft_ptrmap_get_or(&p->rowidx, vi->v, 0);
    if (!at || p->mask || p->const_active != (int)p->P || p->P > 64)
        return false;
    struct vrowgroup *g = &p->rows[(at - 1) / GROUP_MAX];
    unsigned k = (unsigned)((at - 1) % GROUP_MAX);
    if (k == 0) {
        emit_group(p, g);
        g->epoch = p->epoch;
        g->ready = true;
    } else if (!g->ready || g->epoch != p->epoch) {
        return false;
    }
    p->rep->vector_mem++;
    weft_vec_define(p, vi, NULL, g->col[k]);
    return true;
}
