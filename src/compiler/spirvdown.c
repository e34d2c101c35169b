/* compiler/spirvdown.c — brings SPIR-V 1.4 instructions llvm-spirv-15 cannot read down to
 * SPIR-V 1.3 instructions of the same meaning (spirvdown.h says which and why).
 *
 * Assumes the module passed weft_spirv_check (framing, Physical64 addressing: pointers are 64
 * bits). A module without any of the instructions concerned is left alone after one scan.
 * Otherwise two passes: the first records, for every id, the instruction defining it and its
 * result type (which opcodes have them: spirv-headers' SpvHasResultAndType); the second copies
 * the module, rewriting as it goes, into one stream, and the declarations the rewrites need
 * are spliced in before the first OpFunction. Sizes follow OpenCL C's layout, which is the
 * data layout of the IR Weft compiles (scalars and pointers aligned to their size, 3-element
 * vectors as 4, vectors aligned to their size, structs padded to their largest member
 * unless CPacked).
 */
#include "compiler/spirvdown.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

/* spirv.h defines SpvHasResultAndType as a C inline definition; declaring it extern here makes
 * this file hold its one external definition (C17 6.7.4), for the calls not inlined. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#define ID_LIMIT 0x3fffffu   /* SPIR-V's universal limit on the id bound */
#define DEPTH_LIMIT 64       /* nesting of aggregate types followed */

#define OPC(p) ((p)[0] & 0xffffu)
#define CNT(p) ((p)[0] >> 16)

enum {
    MO_VOLATILE = 0x1,
    MO_ALIGNED = 0x2,
    MO_NONTEMPORAL = 0x4,
    MO_AVAILABLE = 0x8,
    MO_VISIBLE = 0x10,
    MO_NONPRIVATE = 0x20,
    MO_KNOWN = 0x3f,
};

struct words {
    uint32_t *v;
    size_t n, cap;
    bool oom;
};

static void put(struct words *b, uint32_t x)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        uint32_t *v = b->oom ? NULL : realloc(b->v, cap * sizeof *v);
        if (!v) {
            b->oom = true;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = x;
}

struct constant {
    uint32_t type, id;
    uint64_t value;
};

struct down {
    const uint32_t *w;
    size_t n;
    uint32_t idcap;          /* the module's own bound: ids below it index the tables */
    uint32_t bound;          /* the next new id */
    uint32_t *def;           /* id -> word offset of the instruction defining it (0: none) */
    uint32_t *type;          /* id -> its result type (0: none) */
    unsigned char *packed;   /* id -> decorated CPacked */
    uint32_t int64;          /* an OpTypeInt 64 0 (0: none yet) */
    bool has_int64_cap, need_int64_cap;
    struct constant *consts;
    size_t nconsts, capconsts;
    struct words out, decls;
    size_t at;               /* word offset of the instruction being rewritten */
    bool changed, failed;
    struct weft_diag *diag;
};

static const char *op_name(uint32_t op)
{
    switch (op) {
    case SpvOpCopyMemory: return "OpCopyMemory";
    case SpvOpCopyMemorySized: return "OpCopyMemorySized";
    case SpvOpCopyLogical: return "OpCopyLogical";
    case SpvOpPtrEqual: return "OpPtrEqual";
    case SpvOpPtrNotEqual: return "OpPtrNotEqual";
    case SpvOpPtrDiff: return "OpPtrDiff";
    case SpvOpDecorateString: return "OpDecorateString";
    case SpvOpMemberDecorateString: return "OpMemberDecorateString";
    default: return "instruction";
    }
}

/* Reports why the instruction at d->at cannot be brought down (once per module). */
__attribute__((format(printf, 2, 3))) static bool fail(struct down *d, const char *fmt, ...)
{
    if (d->failed)
        return false;
    d->failed = true;
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    weft_diag_error(d->diag, "error: SPIR-V %s at word %zu cannot be rewritten for llvm-spirv-15: %s",
                    op_name(OPC(d->w + d->at)), d->at, why);
    return false;
}

static uint32_t new_id(struct down *d)
{
    if (d->bound >= ID_LIMIT) {
        fail(d, "the module would need more ids than SPIR-V's limit of %u", ID_LIMIT);
        return 0;
    }
    d->changed = true;
    return d->bound++;
}

/* The instruction defining `id`, or NULL. */
static const uint32_t *def_of(const struct down *d, uint32_t id)
{
    return id < d->idcap && d->def[id] ? d->w + d->def[id] : NULL;
}

static uint32_t type_of(const struct down *d, uint32_t id)
{
    return id < d->idcap ? d->type[id] : 0;
}

/* Appends `op` with `nops` operand words to b. */
static void emit(struct words *b, uint32_t op, unsigned nops, ...)
{
    put(b, (nops + 1) << 16 | op);
    va_list ap;
    va_start(ap, nops);
    for (unsigned k = 0; k < nops; k++)
        put(b, va_arg(ap, uint32_t));
    va_end(ap);
}

static uint32_t int64_type(struct down *d)
{
    if (!d->int64) {
        uint32_t id = new_id(d);
        if (!id)
            return 0;
        emit(&d->decls, SpvOpTypeInt, 3, id, 64u, 0u);
        d->int64 = id;
        d->need_int64_cap = !d->has_int64_cap;
    }
    return d->int64;
}

/* An OpConstant of integer type `type` (`width` bits) and `value`, declared once. */
static uint32_t int_constant(struct down *d, uint32_t type, uint32_t width, uint64_t value)
{
    for (size_t i = 0; i < d->nconsts; i++)
        if (d->consts[i].type == type && d->consts[i].value == value)
            return d->consts[i].id;
    if (d->nconsts == d->capconsts) {
        size_t cap = d->capconsts ? d->capconsts * 2 : 8;
        struct constant *v = realloc(d->consts, cap * sizeof *v);
        if (!v) {
            d->out.oom = true;
            return 0;
        }
        d->consts = v;
        d->capconsts = cap;
    }
    uint32_t id = new_id(d);
    if (!id)
        return 0;
    if (width > 32)
        emit(&d->decls, SpvOpConstant, 4, type, id, (uint32_t)value, (uint32_t)(value >> 32));
    else
        emit(&d->decls, SpvOpConstant, 3, type, id, (uint32_t)value);
    d->consts[d->nconsts++] = (struct constant){type, id, value};
    return id;
}

/* The value of an OpConstant of integer type. */
static bool constant_value(const struct down *d, uint32_t id, uint64_t *v)
{
    const uint32_t *p = def_of(d, id);
    if (!p || OPC(p) != SpvOpConstant || CNT(p) < 4)
        return false;
    *v = p[3];
    if (CNT(p) >= 5)
        *v |= (uint64_t)p[4] << 32;
    return true;
}

/* ---- sizes ----------------------------------------------------------------------------- */

static bool size_align(struct down *d, uint32_t type, uint64_t *size, uint64_t *align, int depth)
{
    const uint32_t *p = def_of(d, type);
    if (!p)
        return fail(d, "%%%u is not a type of the module", type);
    if (depth > DEPTH_LIMIT)
        return fail(d, "type %%%u nests deeper than %d levels", type, DEPTH_LIMIT);
    uint32_t count = CNT(p);
    uint64_t es, ea;
    switch (OPC(p)) {
    case SpvOpTypeBool:
        *size = *align = 1;
        return true;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (count < 3 || p[2] == 0 || p[2] % 8 || p[2] > 64)
            break;
        *size = *align = p[2] / 8;
        return true;
    case SpvOpTypePointer:
        *size = *align = 8;   /* Physical64 */
        return true;
    case SpvOpTypeVector:
        if (count < 4 || !size_align(d, p[2], &es, &ea, depth + 1))
            break;
        *size = *align = es * (p[3] == 3 ? 4 : p[3]);
        return true;
    case SpvOpTypeArray: {
        uint64_t len;
        if (count < 4 || !size_align(d, p[2], &es, &ea, depth + 1))
            break;
        if (!constant_value(d, p[3], &len))
            return fail(d, "the length of array type %%%u is not a constant", type);
        if (len && es > UINT64_MAX / len)
            return fail(d, "array type %%%u is larger than 2^64 bytes", type);
        *size = es * len;
        *align = ea;
        return true;
    }
    case SpvOpTypeStruct: {
        bool packed = d->packed[type];
        uint64_t off = 0, max = 1;
        for (uint32_t k = 2; k < count; k++) {
            if (!size_align(d, p[k], &es, &ea, depth + 1))
                return false;
            if (!packed) {
                off = (off + ea - 1) / ea * ea;
                max = ea > max ? ea : max;
            }
            off += es;
        }
        *align = max;
        *size = (off + max - 1) / max * max;
        return true;
    }
    default:
        break;
    }
    return d->failed ? false : fail(d, "type %%%u (opcode %u) has no size in memory", type, OPC(p));
}

/* The size in bytes of what pointer `ptr` points to. */
static bool pointee_size(struct down *d, uint32_t ptr, uint64_t *size)
{
    const uint32_t *t = def_of(d, type_of(d, ptr));
    if (!t || OPC(t) != SpvOpTypePointer || CNT(t) < 4)
        return fail(d, "the type of %%%u is not a pointer type", ptr);
    uint64_t align;
    if (!size_align(d, t[3], size, &align, 0))
        return false;
    if (*size == 0)
        return fail(d, "%%%u points to an object of size 0", ptr);
    return true;
}

/* ---- memory operands --------------------------------------------------------------------- */

struct memops {
    uint32_t mask, align, avail, vis;
};

/* Reads one memory-operand set at o[*k] (the instruction's operands end at `end`); false when
 * it has bits whose operands are unknown here, or is cut short. */
static bool memops_read(const uint32_t *o, uint32_t end, uint32_t *k, struct memops *m)
{
    memset(m, 0, sizeof *m);
    m->mask = o[(*k)++];
    if (m->mask & ~(uint32_t)MO_KNOWN)
        return false;
    uint32_t *fields[] = {&m->align, &m->avail, &m->vis};
    uint32_t bits[] = {MO_ALIGNED, MO_AVAILABLE, MO_VISIBLE};
    for (int f = 0; f < 3; f++)
        if (m->mask & bits[f]) {
            if (*k >= end)
                return false;
            *fields[f] = o[(*k)++];
        }
    return true;
}

static uint32_t memops_words(const struct memops *m)
{
    return 1 + !!(m->mask & MO_ALIGNED) + !!(m->mask & MO_AVAILABLE) + !!(m->mask & MO_VISIBLE);
}

static void memops_put(struct words *b, const struct memops *m)
{
    put(b, m->mask);
    if (m->mask & MO_ALIGNED)
        put(b, m->align);
    if (m->mask & MO_AVAILABLE)
        put(b, m->avail);
    if (m->mask & MO_VISIBLE)
        put(b, m->vis);
}

/* One set that holds for both the target (t) and the source (s): every access property of
 * either (volatile on one side makes the copy volatile), Aligned only when both are aligned,
 * to the smaller alignment. MakePointerAvailable belongs to the target and MakePointerVisible
 * to the source in the one-set form too. */
static struct memops memops_merge(const struct memops *t, const struct memops *s)
{
    struct memops m = {t->mask | s->mask, 0, 0, 0};
    if ((t->mask & MO_ALIGNED) && (s->mask & MO_ALIGNED))
        m.align = t->align < s->align ? t->align : s->align;
    else
        m.mask &= ~(uint32_t)MO_ALIGNED;
    m.avail = t->mask & MO_AVAILABLE ? t->avail : s->avail;
    m.vis = s->mask & MO_VISIBLE ? s->vis : t->vis;
    return m;
}

/* OpCopyMemory (always: llvm-spirv-15 asserts on it) and OpCopyMemorySized with two sets. */
static bool rewrite_copy_memory(struct down *d, const uint32_t *p)
{
    uint32_t op = OPC(p), end = CNT(p) - 1, fixed = op == SpvOpCopyMemory ? 2 : 3;
    const uint32_t *o = p + 1;
    if (end < fixed)
        return fail(d, "it has %u operands", end);
    struct memops m1 = {0}, m2 = {0};
    bool has1 = fixed < end, has2 = false;
    uint32_t k = fixed;
    if (has1 && !memops_read(o, end, &k, &m1)) {
        if (op == SpvOpCopyMemory)
            return fail(d, "its memory operands 0x%x are not ones Weft knows", o[fixed]);
        for (uint32_t i = 0; i < CNT(p); i++)   /* not Weft's to judge: as it is */
            put(&d->out, p[i]);
        return true;
    }
    if (k < end) {
        has2 = true;
        if (!memops_read(o, end, &k, &m2) || k != end)
            return fail(d, "its second memory-operand set is malformed or not one Weft knows");
    }
    if (op == SpvOpCopyMemorySized && !has2) {
        for (uint32_t i = 0; i < CNT(p); i++)
            put(&d->out, p[i]);
        return true;
    }
    struct memops m = has2 ? memops_merge(&m1, &m2) : m1;
    uint32_t size_id = o[2];
    if (op == SpvOpCopyMemory) {
        uint64_t size;
        if (!pointee_size(d, o[0], &size))
            return false;
        uint32_t t = int64_type(d);
        if (!t || !(size_id = int_constant(d, t, 64, size)))
            return false;
    }
    d->changed = true;
    put(&d->out, (4 + (has1 ? memops_words(&m) : 0)) << 16 | SpvOpCopyMemorySized);
    put(&d->out, o[0]);
    put(&d->out, o[1]);
    put(&d->out, size_id);
    if (has1)
        memops_put(&d->out, &m);
    return true;
}

/* ---- pointer comparisons and differences --------------------------------------------------- */

static bool rewrite_ptr_op(struct down *d, const uint32_t *p)
{
    uint32_t op = OPC(p);
    if (CNT(p) != 5)
        return fail(d, "it has %u words, not 5", CNT(p));
    uint32_t rtype = p[1], rid = p[2], a = p[3], b = p[4];
    uint32_t t = 0, width = 64;
    uint64_t size = 0;
    if (op == SpvOpPtrDiff) {
        const uint32_t *rt = def_of(d, rtype);
        if (!rt || OPC(rt) != SpvOpTypeInt || CNT(rt) < 4)
            return fail(d, "its result type %%%u is not an integer scalar type", rtype);
        width = rt[2];
        if (!pointee_size(d, a, &size))
            return false;
        t = width == 64 ? rtype : int64_type(d);
    } else {
        t = int64_type(d);
    }
    if (!t)
        return false;
    uint32_t ua = new_id(d), ub = new_id(d);
    if (!ua || !ub)
        return false;
    emit(&d->out, SpvOpConvertPtrToU, 3, t, ua, a);
    emit(&d->out, SpvOpConvertPtrToU, 3, t, ub, b);
    if (op != SpvOpPtrDiff) {
        emit(&d->out, op == SpvOpPtrEqual ? SpvOpIEqual : SpvOpINotEqual, 4, rtype, rid, ua, ub);
        return true;
    }
    uint32_t diff = new_id(d), c = int_constant(d, t, 64, size);
    uint32_t quot = width == 64 ? rid : new_id(d);
    if (!diff || !c || !quot)
        return false;
    emit(&d->out, SpvOpISub, 4, t, diff, ua, ub);
    emit(&d->out, SpvOpSDiv, 4, t, quot, diff, c);   /* exact: both point into one array */
    if (width != 64)
        emit(&d->out, SpvOpSConvert, 3, rtype, rid, quot);
    return true;
}

/* ---- OpCopyLogical ----------------------------------------------------------------------- */

/* A walk over the leaves of two logically matching types (the same array/struct shape down to
 * identical leaf types). Counting first, then emitting: for each leaf, an OpCompositeExtract
 * from the source value and an OpCompositeInsert into the copy built up from an OpUndef, both
 * by the leaf's index path; the last insert is the result. (llvm-spirv-15 reads
 * OpCompositeConstruct of structs and arrays only when every constituent is a constant.) */
struct leaf_walk {
    uint32_t path[DEPTH_LIMIT];
    unsigned depth;
    bool emit;
    uint32_t leaves, done;
    uint32_t top, value, cur, result;
};

#define LEAF_LIMIT 65536u   /* leaves of one OpCopyLogical */

static bool walk_leaves(struct down *d, struct leaf_walk *k, uint32_t dst, uint32_t src)
{
    if (dst == src) {
        if (!k->emit) {
            if (++k->leaves > LEAF_LIMIT)
                return fail(d, "the types have more than %u leaves", LEAF_LIMIT);
            return true;
        }
        uint32_t ex = new_id(d), next = ++k->done == k->leaves ? k->result : new_id(d);
        if (!ex || !next)
            return false;
        put(&d->out, (4 + k->depth) << 16 | SpvOpCompositeExtract);
        put(&d->out, src);
        put(&d->out, ex);
        put(&d->out, k->value);
        for (unsigned i = 0; i < k->depth; i++)
            put(&d->out, k->path[i]);
        put(&d->out, (5 + k->depth) << 16 | SpvOpCompositeInsert);
        put(&d->out, k->top);
        put(&d->out, next);
        put(&d->out, ex);
        put(&d->out, k->cur);
        for (unsigned i = 0; i < k->depth; i++)
            put(&d->out, k->path[i]);
        k->cur = next;
        return true;
    }
    const uint32_t *pd = def_of(d, dst), *ps = def_of(d, src);
    if (!pd || !ps || OPC(pd) != OPC(ps) || (OPC(pd) != SpvOpTypeArray && OPC(pd) != SpvOpTypeStruct))
        return fail(d, "types %%%u and %%%u do not match logically", dst, src);
    if (k->depth >= DEPTH_LIMIT)
        return fail(d, "type %%%u nests deeper than %d levels", dst, DEPTH_LIMIT);
    bool array = OPC(pd) == SpvOpTypeArray;
    uint64_t count;
    if (array) {
        uint64_t ls;
        if (CNT(pd) < 4 || CNT(ps) < 4 || !constant_value(d, pd[3], &count) || !constant_value(d, ps[3], &ls))
            return fail(d, "the length of array type %%%u or %%%u is not a constant", dst, src);
        if (count != ls)
            return fail(d, "array types %%%u and %%%u do not match logically: lengths %llu and %llu", dst, src,
                        (unsigned long long)count, (unsigned long long)ls);
        if (count > LEAF_LIMIT)
            return fail(d, "the types have more than %u leaves", LEAF_LIMIT);
    } else {
        count = CNT(pd) - 2;
        if (CNT(ps) != CNT(pd))
            return fail(d, "struct types %%%u and %%%u do not match logically: %u and %u members", dst, src,
                        CNT(pd) - 2, CNT(ps) - 2);
    }
    for (uint32_t e = 0; e < count; e++) {
        k->path[k->depth++] = e;
        bool ok = walk_leaves(d, k, array ? pd[2] : pd[2 + e], array ? ps[2] : ps[2 + e]);
        k->depth--;
        if (!ok)
            return false;
    }
    return true;
}

static bool rewrite_copy_logical(struct down *d, const uint32_t *p)
{
    if (CNT(p) != 4)
        return fail(d, "it has %u words, not 4", CNT(p));
    uint32_t dst = p[1], result = p[2], value = p[3], src = type_of(d, value);
    if (!src)
        return fail(d, "the type of its operand %%%u is unknown", value);
    d->changed = true;
    if (dst == src) {   /* not valid SPIR-V, but a copy all the same */
        emit(&d->out, SpvOpCopyObject, 3, dst, result, value);
        return true;
    }
    struct leaf_walk k = {.top = dst, .value = value, .result = result};
    if (!walk_leaves(d, &k, dst, src))
        return false;
    if (k.leaves == 0) {   /* nothing to copy: an empty struct */
        emit(&d->out, SpvOpUndef, 2, dst, result);
        return true;
    }
    k.emit = true;
    if (!(k.cur = new_id(d)))
        return false;
    emit(&d->out, SpvOpUndef, 2, dst, k.cur);
    return walk_leaves(d, &k, dst, src);
}

/* ---- the passes ------------------------------------------------------------------------- */

static bool concerned(uint32_t op)
{
    return op == SpvOpCopyMemory || op == SpvOpCopyMemorySized || op == SpvOpCopyLogical || op == SpvOpPtrEqual ||
           op == SpvOpPtrNotEqual || op == SpvOpPtrDiff || op == SpvOpDecorateString ||
           op == SpvOpMemberDecorateString;
}

/* First pass: definitions, result types, CPacked structs, a 64-bit integer type. */
static bool read_facts(struct down *d)
{
    for (size_t i = 5; i < d->n; i += CNT(d->w + i)) {
        const uint32_t *p = d->w + i;
        uint32_t op = OPC(p), count = CNT(p);
        bool has_result, has_type;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        uint32_t id = 0;
        if (has_result && has_type && count >= 3)
            id = p[2];
        else if (has_result && count >= 2)
            id = p[1];
        if (id) {
            if (id >= d->idcap) {
                d->at = i;
                return fail(d, "its result id %u is not below the module's bound %u", id, d->idcap);
            }
            d->def[id] = (uint32_t)i;
            if (has_type)
                d->type[id] = p[1];
        }
        if (op == SpvOpDecorate && count >= 3 && p[2] == SpvDecorationCPacked && p[1] < d->idcap)
            d->packed[p[1]] = 1;
        else if (op == SpvOpTypeInt && count >= 4 && p[2] == 64 && p[3] == 0 && !d->int64)
            d->int64 = p[1];
        else if (op == SpvOpCapability && count >= 2 && p[1] == SpvCapabilityInt64)
            d->has_int64_cap = true;
    }
    return true;
}

/* Second pass: the copy with the rewrites; *splice is where the new declarations go. */
static bool rewrite(struct down *d, size_t *splice)
{
    *splice = 0;
    for (size_t i = 0; i < 5; i++)
        put(&d->out, d->w[i]);
    for (size_t i = 5; i < d->n && !d->out.oom; i += CNT(d->w + i)) {
        const uint32_t *p = d->w + i;
        uint32_t op = OPC(p), count = CNT(p);
        d->at = i;
        if (op == SpvOpFunction && !*splice)
            *splice = d->out.n;
        bool ok = true;
        switch (op) {
        case SpvOpCopyMemory:
        case SpvOpCopyMemorySized:
            ok = rewrite_copy_memory(d, p);
            break;
        case SpvOpPtrEqual:
        case SpvOpPtrNotEqual:
        case SpvOpPtrDiff:
            ok = rewrite_ptr_op(d, p);
            break;
        case SpvOpCopyLogical:
            ok = rewrite_copy_logical(d, p);
            break;
        case SpvOpDecorateString:
        case SpvOpMemberDecorateString: {
            uint32_t k = op == SpvOpDecorateString ? 2 : 3;
            if (count <= k)
                return fail(d, "it has %u words", count);
            if (p[k] != SpvDecorationUserSemantic)
                return fail(d, "decoration %u: llvm-spirv-15 reads no decoration strings, and Weft drops only "
                               "UserSemantic (5635), which is informative",
                            p[k]);
            d->changed = true;   /* dropped */
            break;
        }
        default:
            for (uint32_t k = 0; k < count; k++)
                put(&d->out, p[k]);
            break;
        }
        if (!ok)
            return false;
    }
    if (!*splice)
        *splice = d->out.n;
    return true;
}

cl_int weft_spirv_downgrade(uint32_t **words, size_t *n, bool *changed, struct weft_diag *diag)
{
    *changed = false;
    const uint32_t *w = *words;
    bool any = false;
    for (size_t i = 5; i < *n && !any; i += CNT(w + i))
        any = concerned(OPC(w + i));
    if (!any)
        return CL_SUCCESS;

    struct down d = {.w = w, .n = *n, .idcap = w[3], .bound = w[3], .diag = diag};
    d.at = 5;
    if (w[3] > ID_LIMIT) {
        weft_diag_error(diag, "error: the SPIR-V module's id bound %u exceeds SPIR-V's limit of %u", w[3], ID_LIMIT);
        return CL_COMPILE_PROGRAM_FAILURE;
    }
    d.def = calloc(d.idcap, sizeof *d.def);
    d.type = calloc(d.idcap, sizeof *d.type);
    d.packed = calloc(d.idcap, 1);
    cl_int err = CL_SUCCESS;
    size_t splice = 0;
    if (!d.def || !d.type || !d.packed)
        err = CL_OUT_OF_HOST_MEMORY;
    else if (!read_facts(&d) || !rewrite(&d, &splice))
        err = d.out.oom || d.decls.oom ? CL_OUT_OF_HOST_MEMORY : CL_COMPILE_PROGRAM_FAILURE;
    else if (d.out.oom || d.decls.oom)
        err = CL_OUT_OF_HOST_MEMORY;

    uint32_t *result = NULL;
    size_t total = 0;
    if (err == CL_SUCCESS && d.changed) {
        total = d.out.n + d.decls.n + (d.need_int64_cap ? 2 : 0);
        result = malloc(total * sizeof *result);
        if (!result) {
            err = CL_OUT_OF_HOST_MEMORY;
        } else {
            /* header, OpCapability Int64 when needed (capabilities come first), the module up
             * to its first function, the new declarations, the functions */
            size_t k = 0;
            memcpy(result, d.out.v, 5 * sizeof *result);
            k = 5;
            result[3] = d.bound;
            if (d.need_int64_cap) {
                result[k++] = 2u << 16 | SpvOpCapability;
                result[k++] = SpvCapabilityInt64;
            }
            memcpy(result + k, d.out.v + 5, (splice - 5) * sizeof *result);
            k += splice - 5;
            if (d.decls.n)
                memcpy(result + k, d.decls.v, d.decls.n * sizeof *result);
            k += d.decls.n;
            memcpy(result + k, d.out.v + splice, (d.out.n - splice) * sizeof *result);
        }
    }
    free(d.def);
    free(d.type);
    free(d.packed);
    free(d.consts);
    free(d.out.v);
    free(d.decls.v);
    if (err != CL_SUCCESS || !result)
        return err;
    free(*words);
    *words = result;
    *n = total;
    *changed = true;
    return CL_SUCCESS;
}
