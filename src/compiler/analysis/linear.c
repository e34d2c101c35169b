/* compiler/analysis/linear.c — addresses as root + constant + sum of coefficient x atom
 * (linear.h). */
#include "compiler/analysis/linear.h"

#include <string.h>

#define MAX_TERMS 12
#define MAX_DEPTH 16

enum widen { AS_IS, SEXT, ZEXT };

struct term {
    LLVMValueRef atom;
    enum widen how;
    int64_t coef;
};

struct form {
    LLVMValueRef root;
    int64_t constant;
    struct term t[MAX_TERMS];
    int n;
};

static bool mul_ok(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static bool add_term(struct form *f, LLVMValueRef atom, enum widen how, int64_t coef)
{
    for (int i = 0; i < f->n; i++)
        if (f->t[i].atom == atom && f->t[i].how == how)
            return !__builtin_add_overflow(f->t[i].coef, coef, &f->t[i].coef);
    if (f->n == MAX_TERMS)
        return false;
    f->t[f->n++] = (struct term){atom, how, coef};
    return true;
}

static bool int_form(struct form *f, LLVMValueRef v, enum widen how, int64_t m, unsigned depth);

/* The value of a constant integer as the widening reads it. */
static int64_t const_value(LLVMValueRef c, enum widen how)
{
    return how == ZEXT ? (int64_t)LLVMConstIntGetZExtValue(c) : LLVMConstIntGetSExtValue(c);
}

static bool int_form(struct form *f, LLVMValueRef v, enum widen how, int64_t m, unsigned depth)
{
    if (m == 0)
        return true;
    if (LLVMIsAConstantInt(v)) {
        int64_t c;
        return mul_ok(const_value(v, how), m, &c) && !__builtin_add_overflow(f->constant, c, &f->constant);
    }
    if (depth > MAX_DEPTH || !LLVMIsAInstruction(v))
        return add_term(f, v, how, m);
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    /* an operation in a narrower type than the address distributes only if it cannot wrap */
    bool exact = how == AS_IS && bits >= 64;
    bool nsw = false, nuw = false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMShl) {
        nsw = LLVMGetNSW(v);
        nuw = LLVMGetNUW(v);
    }
    bool keeps = exact || (how == SEXT && nsw) || (how == ZEXT && nuw);
    LLVMValueRef a = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    switch (op) {
    case LLVMAdd:
        if (keeps)
            return int_form(f, a, how, m, depth + 1) && int_form(f, b, how, m, depth + 1);
        break;
    case LLVMOr:
        if ((exact || how != AS_IS) && LLVMGetIsDisjoint(v))
            return int_form(f, a, how, m, depth + 1) && int_form(f, b, how, m, depth + 1);
        break;
    case LLVMSub:
        if (keeps)
            return int_form(f, a, how, m, depth + 1) && int_form(f, b, how, -m, depth + 1);
        break;
    case LLVMMul:
        if (keeps && LLVMIsAConstantInt(b)) {
            int64_t mm;
            return mul_ok(m, const_value(b, how), &mm) && int_form(f, a, how, mm, depth + 1);
        }
        break;
    case LLVMShl:
        if (keeps && LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) < 62) {
            int64_t mm;
            return mul_ok(m, (int64_t)1 << LLVMConstIntGetZExtValue(b), &mm) && int_form(f, a, how, mm, depth + 1);
        }
        break;
    case LLVMSExt:
        if (how != ZEXT)
            return int_form(f, a, SEXT, m, depth + 1);
        break;
    case LLVMZExt:
        if (how != SEXT || LLVMGetNNeg(v))
            return int_form(f, a, ZEXT, m, depth + 1);
        break;
    default:
        break;
    }
    return add_term(f, v, how, m);
}

static bool ptr_form(LLVMTargetDataRef td, struct form *f, LLVMValueRef p)
{
    memset(f, 0, sizeof *f);
    for (unsigned depth = 0; LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr); depth++) {
        if (depth > MAX_DEPTH)
            return false;
        LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
        unsigned n = (unsigned)LLVMGetNumOperands(p);
        for (unsigned i = 1; i < n; i++) {
            LLVMValueRef idx = LLVMGetOperand(p, i);
            if (i > 1) {
                /* the indices after the first go into the type */
                if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                    unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
                    f->constant += (int64_t)LLVMOffsetOfElement(td, t, field);
                    t = LLVMStructGetTypeAtIndex(t, field);
                    continue;
                }
                if (LLVMGetTypeKind(t) != LLVMArrayTypeKind)
                    return false;
                t = LLVMGetElementType(t);
            }
            if (LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMIntegerTypeKind)
                return false;   /* a vector index */
            int64_t size = (int64_t)LLVMABISizeOfType(td, t);
            /* GEP indices narrower than the pointer are sign-extended */
            enum widen how = LLVMGetIntTypeWidth(LLVMTypeOf(idx)) < 64 ? SEXT : AS_IS;
            if (!int_form(f, idx, how, size, 0))
                return false;
        }
        p = LLVMGetOperand(p, 0);
    }
    f->root = p;
    return true;
}

/* The terms with a coefficient, in a canonical order, for comparison. */
static int live_terms(const struct form *f, struct term *out)
{
    int n = 0;
    for (int i = 0; i < f->n; i++)
        if (f->t[i].coef)
            out[n++] = f->t[i];
    return n;
}

bool weft_linear_distance(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef q, int64_t *bytes)
{
    struct form a, b;
    if (!ptr_form(td, &a, p) || !ptr_form(td, &b, q) || a.root != b.root)
        return false;
    struct term ta[MAX_TERMS], tb[MAX_TERMS];
    int na = live_terms(&a, ta), nb = live_terms(&b, tb);
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++) {
        bool found = false;
        for (int j = 0; j < nb && !found; j++)
            found = ta[i].atom == tb[j].atom && ta[i].how == tb[j].how && ta[i].coef == tb[j].coef;
        if (!found)
            return false;
    }
    return !__builtin_sub_overflow(b.constant, a.constant, bytes);
}

bool weft_linear_coefficient(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef atom, int64_t *coef)
{
    struct form f;
    if (!ptr_form(td, &f, p))
        return false;
    *coef = 0;
    for (int i = 0; i < f.n; i++)
        if (f.t[i].atom == atom && __builtin_add_overflow(*coef, f.t[i].coef, coef))
            return false;
    return true;
}
