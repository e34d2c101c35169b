/* compiler/analysis/access.c — the affine global-memory access relations of a kernel
 * (analysis/access.h).
 *
 * Two small symbolic evaluators over LLVM values, each memoized per value:
 *   - integers evaluate to a polynomial (struct weft_affine, kept normalized at every step)
 *     over the get_global_{id,size,offset}(d) calls and the integer parameters, or fail
 *     naming the value that made them fail (the "culprit");
 *   - pointers evaluate to a root (a __global/__constant argument, private memory, constant
 *     program data, __local memory, or unknown) and, for an argument, the byte offset from it
 *     through GEPs and casts.
 * A value met again while it is being evaluated (a cycle through phis) fails. The summary
 * walks the kernel's instructions in layout order and stops at the first one it cannot
 * describe.
 *
 * A third kind of integer value, a choice (S_CHOICE), is an expression over polynomials with
 * select/phi/min/max nodes (access.h, struct weft_choice_node), built in the ctx's node list
 * (operands first) whenever an operand of an operation chooses; only reads may use one.
 *
 * Integer rules (the no-wrap assumption of access.h makes every cast the identity):
 *   constant, add, sub, mul (degree <= 2, at most one global id per term), shl by a constant,
 *   `or disjoint` (an add), ashr/lshr/sdiv/udiv `exact` by a constant (when every coefficient
 *   divides), `and` with a mask of the low 31 bits or more (instcombine's form of a zext of a
 *   trunc), sext/zext/trunc/freeze, phi/select whose incoming values are all the same
 *   polynomial. Choices: phis (of no cycle) and selects of different polynomials (ANY),
 *   llvm.smin/smax/umin/umax, zext/sext of an i1 (ANY of 0 and 1 or -1), and any of the rules
 *   above applied to a choice (ADD, MUL, DIV nodes). Anything else fails: loads, phis of a
 *   cycle, other calls, get_local_id.
 */
#include "compiler/analysis/access.h"

#include <llvm-c/Target.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/arglayout.h"
#include "compiler/transform/irutil.h"
#include "util/ptrmap.h"
#include "util/vec.h"

#define MAX_ACCESSES 256
#define MAX_DEPTH 256   /* evaluation recursion; deeper expressions count as not affine */
#define MAX_CHOICE_NODES 4096   /* per kernel; more count as not affine */

/* ---- polynomials ------------------------------------------------------------------------ */

static unsigned sym_key(struct weft_sym s)
{
    return (unsigned)s.kind << 8 | s.index;
}

static bool sym_is_one(struct weft_sym s)
{
    return s.kind == WEFT_SYM_ONE;
}

static int term_cmp(const struct weft_term *x, const struct weft_term *y)
{
    const struct weft_sym fx[3] = {x->a, x->b, x->c}, fy[3] = {y->a, y->b, y->c};
    for (int i = 0; i < 3; i++) {
        unsigned kx = sym_key(fx[i]), ky = sym_key(fy[i]);
        if (kx != ky)
            return kx < ky ? -1 : 1;
    }
    return 0;
}

static const struct weft_sym ONE = {.kind = WEFT_SYM_ONE, .index = 0};

/* Factor order inside a term (access.h): the symbols ascending by key, then the ONEs. */
static struct weft_term make_term3(int64_t coef, struct weft_sym a, struct weft_sym b, struct weft_sym c)
{
    struct weft_sym f[3] = {a, b, c};
    for (int i = 1; i < 3; i++)   /* insertion sort, ONE last */
        for (int j = i; j > 0; j--) {
            bool later = sym_is_one(f[j - 1]) || (!sym_is_one(f[j]) && sym_key(f[j]) < sym_key(f[j - 1]));
            if (!later)
                break;
            struct weft_sym t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    struct weft_term t;
    memset(&t, 0, sizeof t);   /* padding too: summaries may be hashed or compared bytewise */
    t.coef = coef;
    t.a = f[0];
    t.b = f[1];
    t.c = f[2];
    return t;
}

static struct weft_term make_term(int64_t coef, struct weft_sym a, struct weft_sym b)
{
    return make_term3(coef, a, b, ONE);
}

static unsigned term_degree(const struct weft_term *t)
{
    return !sym_is_one(t->a) + !sym_is_one(t->b) + !sym_is_one(t->c);
}

static unsigned term_gids(const struct weft_term *t)
{
    return (t->a.kind == WEFT_SYM_GID) + (t->b.kind == WEFT_SYM_GID) + (t->c.kind == WEFT_SYM_GID);
}

enum status {
    S_AFFINE,
    S_NOT,        /* not a polynomial of the allowed form: see culprit */
    S_TERMS,      /* a polynomial with more than WEFT_AFFINE_MAX_TERMS terms */
    S_BUSY,       /* being evaluated (memo only) */
    S_CHOICE,     /* one of several polynomials: the expression ctx->nodes[node] */
};

/* Adds t into p keeping it normalized (sorted, like terms merged, no zero coefficient).
 * Fails with S_NOT on coefficient overflow, S_TERMS when p is full. */
static enum status poly_add_term(struct weft_affine *p, struct weft_term t)
{
    if (t.coef == 0)
        return S_AFFINE;
    unsigned i = 0;
    while (i < p->nterms && term_cmp(&p->t[i], &t) < 0)
        i++;
    if (i < p->nterms && term_cmp(&p->t[i], &t) == 0) {
        int64_t c;
        if (__builtin_add_overflow(p->t[i].coef, t.coef, &c))
            return S_NOT;
        if (c) {
            p->t[i].coef = c;
        } else {
            memmove(&p->t[i], &p->t[i + 1], (p->nterms - i - 1) * sizeof p->t[0]);
            p->nterms--;
        }
        return S_AFFINE;
    }
    if (p->nterms == WEFT_AFFINE_MAX_TERMS)
        return S_TERMS;
    memmove(&p->t[i + 1], &p->t[i], (p->nterms - i) * sizeof p->t[0]);
    p->t[i] = t;
    p->nterms++;
    return S_AFFINE;
}

static bool poly_eq(const struct weft_affine *x, const struct weft_affine *y)
{
    if (x->nterms != y->nterms)
        return false;
    for (unsigned i = 0; i < x->nterms; i++)
        if (x->t[i].coef != y->t[i].coef || term_cmp(&x->t[i], &y->t[i]) != 0)
            return false;
    return true;
}


/* ---- values ----------------------------------------------------------------------------- */

/* An integer's value: status, the polynomial when S_AFFINE, else the value to blame. */
struct ival {
    enum status st;
    LLVMValueRef culprit;       /* S_CHOICE: the first instruction that chose */
    struct weft_affine p;
    unsigned node;              /* S_CHOICE */
};

/* A value the evaluators can go on with: a polynomial or a choice. */
static bool iv_ok(const struct ival *x)
{
    return x->st == S_AFFINE || x->st == S_CHOICE;
}

enum root {
    R_ARG,        /* a __global or __constant pointer argument: `arg`, offset in `off` */
    R_PRIVATE,    /* an alloca or a by-value (byval) argument */
    R_CONSTDATA,  /* a constant program-scope variable: nobody writes it */
    R_LOCAL,      /* __local memory */
    R_UNKNOWN,    /* anything else: see off.culprit */
    R_BUSY,       /* being evaluated (memo only) */
};

struct pval {
    enum root root;
    unsigned arg;
    struct ival off;
};

struct ctx {
    LLVMValueRef fn;
    LLVMTargetDataRef td;
    struct weft_arg_layout layout;
    bool have_layout;
    struct weft_ptrmap imemo;   /* integer value -> index into ivals */
    WEFT_VEC(struct ival) ivals;
    struct weft_ptrmap pmemo;   /* pointer value -> index into pvals */
    WEFT_VEC(struct pval) pvals;
    WEFT_VEC(struct weft_access) acc;
    WEFT_VEC(struct weft_choice_node) nodes;
    unsigned depth;
    bool failed;
    char reason[128];
};

static struct ival not_affine(LLVMValueRef culprit)
{
    struct ival r;
    memset(&r, 0, sizeof r);
    r.st = S_NOT;
    r.culprit = culprit;
    return r;
}

static struct ival constant(int64_t c)
{
    struct ival r;
    memset(&r, 0, sizeof r);
    r.st = S_AFFINE;
    if (c)
        r.p.t[r.p.nterms++] = make_term(c, ONE, ONE);
    return r;
}

static struct ival symbol(uint8_t kind, unsigned index, LLVMValueRef v)
{
    if (index > UINT8_MAX)
        return not_affine(v);
    struct ival r = constant(0);
    r.p.t[r.p.nterms++] = make_term(1, (struct weft_sym){.kind = kind, .index = (uint8_t)index}, ONE);
    return r;
}

/* The node of x (a new leaf for a polynomial); false when there are too many. */
static bool as_node(struct ctx *c, const struct ival *x, unsigned *out)
{
    if (x->st == S_CHOICE) {
        *out = x->node;
        return true;
    }
    if (c->nodes.len >= MAX_CHOICE_NODES)
        return false;
    struct weft_choice_node n;
    memset(&n, 0, sizeof n);
    n.op = WEFT_CHOICE_POLY;
    n.poly = x->p;
    weft_vec_push(&c->nodes, n);
    *out = (unsigned)c->nodes.len - 1;
    return true;
}

/* The choice `op`(x, y) of two values that are polynomials or choices. */
static struct ival choice(struct ctx *c, unsigned op, const struct ival *x, const struct ival *y, LLVMValueRef in)
{
    unsigned a, b;
    if (!as_node(c, x, &a) || !as_node(c, y, &b) || c->nodes.len >= MAX_CHOICE_NODES)
        return not_affine(in);
    struct weft_choice_node n;
    memset(&n, 0, sizeof n);
    n.op = op;
    n.x = a;
    n.y = b;
    weft_vec_push(&c->nodes, n);
    struct ival r;
    memset(&r, 0, sizeof r);
    r.st = S_CHOICE;
    r.node = (unsigned)c->nodes.len - 1;
    r.culprit = x->st == S_CHOICE ? x->culprit : y->st == S_CHOICE ? y->culprit : in;
    return r;
}

static struct ival iv_mul(struct ctx *c, const struct ival *x, const struct ival *y, LLVMValueRef in);

static struct ival iv_scale(struct ctx *c, const struct ival *x, int64_t k, LLVMValueRef in)
{
    struct ival f = constant(k);
    return iv_mul(c, x, &f, in);
}

/* x + sign * y; a failure of x or y passes on (x's first). */
static struct ival iv_add(struct ctx *c, struct ival x, const struct ival *y, int sign, LLVMValueRef in)
{
    if (!iv_ok(&x))
        return x;
    if (!iv_ok(y))
        return *y;
    if (x.st == S_CHOICE || y->st == S_CHOICE) {
        struct ival t = sign < 0 ? iv_scale(c, y, -1, in) : *y;
        if (!iv_ok(&t) || (x.st == S_AFFINE && x.p.nterms == 0))
            return t;   /* 0 + y: no node */
        if (t.st == S_AFFINE && t.p.nterms == 0)
            return x;
        return choice(c, WEFT_CHOICE_ADD, &x, &t, in);
    }
    for (unsigned i = 0; i < y->p.nterms; i++) {
        struct weft_term t = y->p.t[i];
        if (sign < 0 && __builtin_sub_overflow((int64_t)0, t.coef, &t.coef))
            return not_affine(in);
        enum status st = poly_add_term(&x.p, t);
        if (st != S_AFFINE) {
            x.st = st;
            x.culprit = in;
            return x;
        }
    }
    return x;
}

static struct ival iv_mul(struct ctx *c, const struct ival *x, const struct ival *y, LLVMValueRef in)
{
    if (!iv_ok(x))
        return *x;
    if (!iv_ok(y))
        return *y;
    if (x->st == S_CHOICE || y->st == S_CHOICE) {
        for (int i = 0; i < 2; i++) {   /* a choice times 1 */
            const struct ival *k = i ? x : y;
            if (k->st == S_AFFINE && k->p.nterms == 1 && term_degree(&k->p.t[0]) == 0 && k->p.t[0].coef == 1)
                return i ? *y : *x;
        }
        return choice(c, WEFT_CHOICE_MUL, x, y, in);
    }
    struct ival r = constant(0);
    for (unsigned i = 0; i < x->p.nterms; i++) {
        for (unsigned j = 0; j < y->p.nterms; j++) {
            const struct weft_term *s = &x->p.t[i], *t = &y->p.t[j];
            if (term_degree(s) + term_degree(t) > 3 || term_gids(s) + term_gids(t) > 1)
                return not_affine(in);   /* of degree 4, or the product of two global ids */
            int64_t k;
            if (__builtin_mul_overflow(s->coef, t->coef, &k))
                return not_affine(in);
            struct weft_sym f[6] = {s->a, s->b, s->c, t->a, t->b, t->c}, g[3] = {ONE, ONE, ONE};
            for (int q = 0, n = 0; q < 6; q++)
                if (!sym_is_one(f[q]))
                    g[n++] = f[q];
            enum status st = poly_add_term(&r.p, make_term3(k, g[0], g[1], g[2]));
            if (st != S_AFFINE) {
                r.st = st;
                r.culprit = in;
                return r;
            }
        }
    }
    return r;
}

/* x / d when d divides every coefficient (an exact division leaves no remainder); for a choice,
 * a DIV node (exact by the instruction's own promise). */
static struct ival iv_div_exact(struct ctx *c, struct ival x, int64_t d, LLVMValueRef in)
{
    if (!iv_ok(&x))
        return x;
    if (d <= 0)
        return not_affine(in);
    if (x.st == S_CHOICE) {
        /* (y * k) / d with d dividing k: y * (k / d) (clang's sign extension of a choice) */
        const struct weft_choice_node *n = &c->nodes.data[x.node];
        if (n->op == WEFT_CHOICE_MUL) {
            const struct weft_choice_node *k = &c->nodes.data[n->y];
            if (k->op == WEFT_CHOICE_POLY && k->poly.nterms == 1 && term_degree(&k->poly.t[0]) == 0 &&
                k->poly.t[0].coef % d == 0) {
                struct ival y;
                memset(&y, 0, sizeof y);
                y.st = S_CHOICE;
                y.node = n->x;
                y.culprit = x.culprit;
                if (c->nodes.data[n->x].op == WEFT_CHOICE_POLY) {
                    y.st = S_AFFINE;
                    y.p = c->nodes.data[n->x].poly;
                }
                return iv_scale(c, &y, k->poly.t[0].coef / d, in);
            }
        }
        struct ival k = constant(d);
        return choice(c, WEFT_CHOICE_DIV, &x, &k, in);
    }
    for (unsigned i = 0; i < x.p.nterms; i++) {
        if (x.p.t[i].coef % d)
            return not_affine(in);
        x.p.t[i].coef /= d;
    }
    return x;
}

static bool const_int(LLVMValueRef v, int64_t *out)
{
    if (!v || !LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

static int param_index(LLVMValueRef fn, LLVMValueRef p)
{
    int i = 0;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a), i++)
        if (a == p)
            return i;
    return -1;
}

static struct ival eval_int(struct ctx *c, LLVMValueRef v);

/* get_global_id / get_global_size / get_global_offset with a constant dimension. Out-of-range
 * dimensions return 0, 1 and 0 (OpenCL 3.0 6.15.1). */
static struct ival eval_wi_call(LLVMValueRef in)
{
    uint8_t kind;
    int64_t oob;
    switch (weft_wi_call_kind(in)) {
    case WEFT_WI_GLOBAL_ID: kind = WEFT_SYM_GID; oob = 0; break;
    case WEFT_WI_GLOBAL_SIZE: kind = WEFT_SYM_GSIZE; oob = 1; break;
    case WEFT_WI_GLOBAL_OFFSET: kind = WEFT_SYM_GOFFSET; oob = 0; break;
    default: return not_affine(in);
    }
    int64_t d;
    if (LLVMGetNumArgOperands(in) < 1 || !const_int(LLVMGetOperand(in, 0), &d))
        return not_affine(in);   /* which dimension is only known at run time */
    if ((uint64_t)d > 2)
        return constant(oob);
    return symbol(kind, (unsigned)d, in);
}

/* A phi or select: the common polynomial of its candidates when they all agree, else the
 * choice of any of them. */
static struct ival eval_merge(struct ctx *c, LLVMValueRef in, LLVMValueRef *cand, unsigned n)
{
    struct ival r = not_affine(in);
    for (unsigned i = 0; i < n; i++) {
        struct ival x = eval_int(c, cand[i]);
        if (!iv_ok(&x))
            return not_affine(in);
        if (i == 0 || (x.st == S_AFFINE && r.st == S_AFFINE && poly_eq(&x.p, &r.p)))
            r = i == 0 ? x : r;
        else
            r = choice(c, WEFT_CHOICE_ANY, &r, &x, in);
        if (!iv_ok(&r))
            return r;
    }
    return r;
}

/* llvm.smin/smax/umin/umax: a choice of its operands (NULL when `in` calls something else). */
static bool eval_minmax(struct ctx *c, LLVMValueRef in, struct ival *out)
{
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee) || LLVMGetNumArgOperands(in) != 2)
        return false;
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    static const struct { const char *prefix; unsigned op; } ops[] = {
        {"llvm.smin.", WEFT_CHOICE_SMIN}, {"llvm.smax.", WEFT_CHOICE_SMAX},
        {"llvm.umin.", WEFT_CHOICE_UMIN}, {"llvm.umax.", WEFT_CHOICE_UMAX},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].prefix);
        if (len < n || memcmp(name, ops[i].prefix, n))
            continue;
        struct ival a = eval_int(c, LLVMGetOperand(in, 0)), b = eval_int(c, LLVMGetOperand(in, 1));
        if (!iv_ok(&a))
            *out = a;
        else if (!iv_ok(&b))
            *out = b;
        else if (a.st == S_AFFINE && b.st == S_AFFINE && poly_eq(&a.p, &b.p))
            *out = a;
        else
            *out = choice(c, ops[i].op, &a, &b, in);
        return true;
    }
    return false;
}

static struct ival eval_inst(struct ctx *c, LLVMValueRef in)
{
    if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMIntegerTypeKind)
        return not_affine(in);
    LLVMValueRef x = LLVMGetNumOperands(in) > 0 ? LLVMGetOperand(in, 0) : NULL;
    LLVMValueRef y = LLVMGetNumOperands(in) > 1 ? LLVMGetOperand(in, 1) : NULL;
    int64_t k;
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMAdd: {
        struct ival b = eval_int(c, y);
        return iv_add(c, eval_int(c, x), &b, 1, in);
    }
    case LLVMSub: {
        struct ival b = eval_int(c, y);
        return iv_add(c, eval_int(c, x), &b, -1, in);
    }
    case LLVMOr:
        if (LLVMGetIsDisjoint(in)) {   /* no common bits: the sum */
            struct ival b = eval_int(c, y);
            return iv_add(c, eval_int(c, x), &b, 1, in);
        }
        return not_affine(in);
    case LLVMMul: {
        struct ival a = eval_int(c, x), b = eval_int(c, y);
        return iv_mul(c, &a, &b, in);
    }
    case LLVMShl:
        if (const_int(y, &k) && k >= 0 && k < 63) {
            struct ival a = eval_int(c, x);
            return iv_scale(c, &a, (int64_t)1 << k, in);
        }
        return not_affine(in);
    case LLVMAShr:
    case LLVMLShr:
        /* clang's sign extension `ashr exact (shl x, 32), 32` and the like */
        if (LLVMGetExact(in) && const_int(y, &k) && k >= 0 && k < 63)
            return iv_div_exact(c, eval_int(c, x), (int64_t)1 << k, in);
        return not_affine(in);
    case LLVMSDiv:
    case LLVMUDiv:
        if (LLVMGetExact(in) && const_int(y, &k) && k > 0)
            return iv_div_exact(c, eval_int(c, x), k, in);
        return not_affine(in);
    case LLVMAnd:
        /* x & (2^n - 1), n >= 31: instcombine's zext(trunc x) to i32 (or of a value it knows
         * non-negative); the identity under the no-wrap assumption */
        for (int i = 0; i < 2; i++) {
            LLVMValueRef m = i ? x : y;
            if (LLVMIsAConstantInt(m) && LLVMGetIntTypeWidth(LLVMTypeOf(m)) <= 64) {
                uint64_t u = LLVMConstIntGetZExtValue(m);
                unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(m));
                uint64_t all = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
                if ((u & (u + 1)) == 0 && (u >= 0x7fffffffu || u == all))
                    return eval_int(c, i ? y : x);
            }
        }
        return not_affine(in);
    case LLVMZExt:
        if (const_int(x, &k))   /* a constant keeps its unsigned value */
            return constant((int64_t)LLVMConstIntGetZExtValue(x));
        /* fall through */
    case LLVMSExt:
        if (LLVMGetIntTypeWidth(LLVMTypeOf(x)) == 1 && !LLVMIsAConstantInt(x)) {
            /* a comparison's 0 or 1 (-1): the select instcombine made of `cond ? i : i + 1` */
            struct ival zero = constant(0), one = constant(LLVMGetInstructionOpcode(in) == LLVMZExt ? 1 : -1);
            return choice(c, WEFT_CHOICE_ANY, &zero, &one, in);
        }
        return eval_int(c, x);
    case LLVMTrunc:
    case LLVMFreeze:
        return eval_int(c, x);
    case LLVMCall: {
        struct ival r;
        return eval_minmax(c, in, &r) ? r : eval_wi_call(in);
    }
    case LLVMPHI: {
        unsigned n = LLVMCountIncoming(in);
        LLVMValueRef *v = malloc((n ? n : 1) * sizeof *v);
        if (!v)
            return not_affine(in);
        for (unsigned i = 0; i < n; i++)
            v[i] = LLVMGetIncomingValue(in, i);
        struct ival r = n ? eval_merge(c, in, v, n) : not_affine(in);
        free(v);
        return r;
    }
    case LLVMSelect: {
        LLVMValueRef v[2] = {LLVMGetOperand(in, 1), LLVMGetOperand(in, 2)};
        return eval_merge(c, in, v, 2);
    }
    default:
        return not_affine(in);
    }
}

static struct ival eval_int(struct ctx *c, LLVMValueRef v)
{
    int64_t k;
    if (LLVMIsAConstantInt(v))
        return const_int(v, &k) ? constant(k) : not_affine(v);
    if (LLVMIsAArgument(v)) {
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
            return not_affine(v);
        return symbol(WEFT_SYM_ARG, (unsigned)param_index(c->fn, v), v);
    }
    if (!LLVMIsAInstruction(v))
        return not_affine(v);   /* undef, poison, constant expressions, globals */
    uintptr_t slot;
    if (weft_ptrmap_get(&c->imemo, v, &slot)) {
        struct ival r = c->ivals.data[slot];
        return r.st == S_BUSY ? not_affine(v) : r;
    }
    if (c->depth >= MAX_DEPTH)
        return not_affine(v);
    slot = c->ivals.len;
    struct ival busy = not_affine(v);
    busy.st = S_BUSY;
    weft_vec_push(&c->ivals, busy);
    weft_ptrmap_put(&c->imemo, v, slot);
    c->depth++;
    struct ival r = eval_inst(c, v);
    c->depth--;
    c->ivals.data[slot] = r;   /* re-read the vector: evaluation may have grown it */
    return r;
}

/* ---- pointers --------------------------------------------------------------------------- */

static struct pval proot(enum root root, LLVMValueRef culprit)
{
    struct pval r;
    memset(&r, 0, sizeof r);
    r.root = root;
    r.off = root == R_UNKNOWN ? not_affine(culprit) : constant(0);
    return r;
}

static struct pval eval_ptr(struct ctx *c, LLVMValueRef p);

static struct pval eval_param(struct ctx *c, LLVMValueRef p)
{
    int i = param_index(c->fn, p);
    enum weft_arg_kind kind;
    if (c->have_layout && i >= 0 && (unsigned)i < c->layout.count) {
        kind = c->layout.args[i].kind;
    } else {   /* no layout: the pointer's own address space tells (fake map numbering) */
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
        kind = as == 1 ? WEFT_ARG_GLOBAL_PTR : as == 2 ? WEFT_ARG_CONSTANT_PTR : as == 3 ? WEFT_ARG_LOCAL_PTR
                                                                                         : WEFT_ARG_BY_VALUE;
    }
    switch (kind) {
    case WEFT_ARG_GLOBAL_PTR:
    case WEFT_ARG_CONSTANT_PTR: {
        struct pval r = proot(R_ARG, NULL);
        r.arg = (unsigned)i;
        return r;
    }
    case WEFT_ARG_LOCAL_PTR:
        return proot(R_LOCAL, p);
    default:
        return proot(R_PRIVATE, p);   /* a struct passed by value: the work-item's own copy */
    }
}

/* base + the GEP's indices scaled by the sizes of the types they step over. */
static struct pval eval_gep(struct ctx *c, LLVMValueRef gep)
{
    if (LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMPointerTypeKind)
        return proot(R_UNKNOWN, gep);   /* a vector of pointers */
    struct pval r = eval_ptr(c, LLVMGetOperand(gep, 0));
    if (r.root != R_ARG || !iv_ok(&r.off))
        return r;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    int n = LLVMGetNumOperands(gep);
    for (int i = 1; i < n && iv_ok(&r.off); i++) {
        LLVMValueRef idx = LLVMGetOperand(gep, i);
        if (i > 1) {
            if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                int64_t f;
                if (!const_int(idx, &f))
                    return proot(R_UNKNOWN, gep);
                struct ival o = constant((int64_t)LLVMOffsetOfElement(c->td, t, (unsigned)f));
                r.off = iv_add(c, r.off, &o, 1, gep);
                t = LLVMStructGetTypeAtIndex(t, (unsigned)f);
                continue;
            }
            t = LLVMGetElementType(t);
        }
        struct ival x = eval_int(c, idx);
        struct ival scaled = iv_scale(c, &x, (int64_t)LLVMABISizeOfType(c->td, t), gep);
        r.off = iv_add(c, r.off, &scaled, 1, gep);
    }
    return r;
}

/* A phi or select of pointers: one root, and for an argument one offset or the choice of the
 * candidates' offsets; else unknown. */
static struct pval eval_ptr_merge(struct ctx *c, LLVMValueRef in, LLVMValueRef *cand, unsigned n)
{
    struct pval r = proot(R_UNKNOWN, in);
    for (unsigned i = 0; i < n; i++) {
        struct pval x = eval_ptr(c, cand[i]);
        if (x.root == R_UNKNOWN)
            return proot(R_UNKNOWN, in);
        if (i && (x.root != r.root || (x.root == R_ARG && (x.arg != r.arg || !iv_ok(&x.off) || !iv_ok(&r.off)))))
            return proot(R_UNKNOWN, in);
        if (i && x.root == R_ARG &&
            !(x.off.st == S_AFFINE && r.off.st == S_AFFINE && poly_eq(&x.off.p, &r.off.p))) {
            r.off = choice(c, WEFT_CHOICE_ANY, &r.off, &x.off, in);
            if (!iv_ok(&r.off))
                return proot(R_UNKNOWN, in);
            continue;
        }
        r = x;
    }
    return r;
}

static struct pval eval_ptr_uncached(struct ctx *c, LLVMValueRef p)
{
    if (LLVMIsAAllocaInst(p))
        return proot(R_PRIVATE, p);
    if (LLVMIsAGetElementPtrInst(p))
        return eval_gep(c, p);
    if (LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p))
        return eval_ptr(c, LLVMGetOperand(p, 0));
    if (LLVMIsAPHINode(p)) {
        unsigned n = LLVMCountIncoming(p);
        LLVMValueRef *v = malloc((n ? n : 1) * sizeof *v);
        if (!v || !n) {
            free(v);
            return proot(R_UNKNOWN, p);
        }
        for (unsigned i = 0; i < n; i++)
            v[i] = LLVMGetIncomingValue(p, i);
        struct pval r = eval_ptr_merge(c, p, v, n);
        free(v);
        return r;
    }
    if (LLVMIsASelectInst(p)) {
        LLVMValueRef v[2] = {LLVMGetOperand(p, 1), LLVMGetOperand(p, 2)};
        return eval_ptr_merge(c, p, v, 2);
    }
    return proot(R_UNKNOWN, p);   /* a loaded pointer, inttoptr, a call's result */
}

static struct pval eval_ptr(struct ctx *c, LLVMValueRef p)
{
    if (LLVMIsAArgument(p))
        return eval_param(c, p);
    if (LLVMIsAGlobalVariable(p)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 3)
            return proot(R_LOCAL, p);
        return proot(LLVMIsGlobalConstant(p) ? R_CONSTDATA : R_UNKNOWN, p);
    }
    if (LLVMIsAConstantExpr(p)) {
        LLVMOpcode op = LLVMGetConstOpcode(p);
        if (op == LLVMGetElementPtr)
            return eval_gep(c, p);
        if (op == LLVMBitCast || op == LLVMAddrSpaceCast)
            return eval_ptr(c, LLVMGetOperand(p, 0));
        return proot(R_UNKNOWN, p);
    }
    if (!LLVMIsAInstruction(p))
        return proot(R_UNKNOWN, p);   /* null, undef, poison */
    uintptr_t slot;
    if (weft_ptrmap_get(&c->pmemo, p, &slot)) {
        struct pval r = c->pvals.data[slot];
        return r.root == R_BUSY ? proot(R_UNKNOWN, p) : r;
    }
    if (c->depth >= MAX_DEPTH)
        return proot(R_UNKNOWN, p);
    slot = c->pvals.len;
    struct pval busy = proot(R_BUSY, p);
    weft_vec_push(&c->pvals, busy);
    weft_ptrmap_put(&c->pmemo, p, slot);
    c->depth++;
    struct pval r = eval_ptr_uncached(c, p);
    c->depth--;
    c->pvals.data[slot] = r;
    return r;
}

/* ---- reasons ---------------------------------------------------------------------------- */

/* How the IR names v: "%name", "@name", a constant's value, or "%N" for an unnamed value
 * (LLVM's slot number, from the printer). */
static void label(LLVMValueRef v, char *buf, size_t size)
{
    size_t len = 0;
    const char *name = v ? LLVMGetValueName2(v, &len) : NULL;
    int64_t k;
    if (!v) {
        snprintf(buf, size, "?");
    } else if (len) {
        snprintf(buf, size, "%s%.*s", LLVMIsAGlobalValue(v) ? "@" : "%", (int)len, name);
    } else if (const_int(v, &k)) {
        snprintf(buf, size, "%lld", (long long)k);
    } else if (LLVMIsAInstruction(v) || LLVMIsAArgument(v)) {
        char *s = LLVMPrintValueToString(v);
        const char *pct = s ? strchr(s, '%') : NULL;
        size_t n = pct ? strcspn(pct, " ,)") : 0;
        snprintf(buf, size, "%.*s", (int)n, pct ? pct : "");
        LLVMDisposeMessage(s);
        if (!n)
            snprintf(buf, size, "a value");
    } else {
        snprintf(buf, size, "a constant expression");
    }
}

static void fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records why the kernel is not affine (the first reason only). */
static void fail(struct ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->reason, sizeof c->reason, fmt, ap);
    va_end(ap);
}

/* What kind of value v is, for "depends on <kind> <label>". */
static const char *kind_of(LLVMValueRef v)
{
    if (!v)
        return "value";
    if (LLVMIsAArgument(v))
        return "argument";
    if (LLVMIsAGlobalValue(v))
        return "global";
    if (!LLVMIsAInstruction(v))
        return "constant";
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMLoad: return "load";
    case LLVMPHI: return "phi";
    case LLVMSelect: return "select";
    case LLVMCall: return "call";
    case LLVMAdd: return "add";
    case LLVMSub: return "sub";
    case LLVMMul: return "mul";
    case LLVMShl: return "shl";
    case LLVMAShr: return "ashr";
    case LLVMLShr: return "lshr";
    case LLVMSDiv: return "sdiv";
    case LLVMUDiv: return "udiv";
    case LLVMSRem: return "srem";
    case LLVMURem: return "urem";
    case LLVMAnd: return "and";
    case LLVMOr: return "or";
    case LLVMXor: return "xor";
    case LLVMGetElementPtr: return "getelementptr";
    case LLVMPtrToInt: return "ptrtoint";
    case LLVMIntToPtr: return "inttoptr";
    default: return "instruction";
    }
}

/* ---- the walk --------------------------------------------------------------------------- */

static const char *root_memory(enum root r)
{
    switch (r) {
    case R_ARG: return "global";
    case R_PRIVATE: return "private";
    case R_CONSTDATA: return "constant";
    case R_LOCAL: return "__local";
    default: return "unknown";
    }
}

/* How a reason names memory instruction `in`: "load %x", "store to %p", "call to f". Only on
 * failure: naming an unnamed value prints the function. */
static void describe(LLVMValueRef in, char *buf, size_t size)
{
    char lb[64];
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    if (op == LLVMLoad || op == LLVMStore) {
        bool load = op == LLVMLoad;
        label(load ? in : LLVMGetOperand(in, 1), lb, sizeof lb);
        snprintf(buf, size, "%s%s%s %s", LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic ? "atomic " : "",
                 load ? "load" : "store", load ? "" : " to", lb);
        return;
    }
    LLVMValueRef callee = op == LLVMCall ? LLVMGetCalledValue(in) : NULL;
    if (callee && LLVMIsAFunction(callee)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(callee, &len);
        snprintf(buf, size, "call to %.*s", (int)len, name);
        return;
    }
    label(in, lb, sizeof lb);
    snprintf(buf, size, "instruction %s", lb);
}

/* The one predecessor of bb, or NULL when it has none or several (or one that reaches it by two
 * edges: then no edge condition holds in bb). */
static LLVMBasicBlockRef single_predecessor(LLVMBasicBlockRef bb)
{
    LLVMValueRef term = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        if (term || !LLVMIsATerminatorInst(LLVMGetUser(u)))
            return NULL;   /* a second edge (from anywhere), or a use that is no edge */
        term = LLVMGetUser(u);
    }
    return term ? LLVMGetInstructionParent(term) : NULL;
}

/* Whether x is exactly get_global_id(d). */
static bool is_gid(const struct ival *x, unsigned *d)
{
    if (x->st != S_AFFINE || x->p.nterms != 1 || x->p.t[0].coef != 1 || x->p.t[0].a.kind != WEFT_SYM_GID ||
        !sym_is_one(x->p.t[0].b))
        return false;
    *d = x->p.t[0].a.index;
    return true;
}

/* When block bb runs only in work-items whose get_global_id(d) is the constant C (every path to
 * it takes the edge of `br (icmp eq gid(d), C)` on which the comparison holds, found through
 * up to 8 blocks of single predecessors, like `if (i == 0) a[i * n + j] = ...` where clang
 * folds i to 0 in the address): d and C. */
static bool pinned_gid(struct ctx *c, LLVMBasicBlockRef bb, unsigned *dim, int64_t *gid)
{
    for (int depth = 0; depth < 8; depth++) {
        LLVMBasicBlockRef pred = single_predecessor(bb);
        if (!pred)
            return false;
        LLVMValueRef br = LLVMGetBasicBlockTerminator(pred);
        if (LLVMIsABranchInst(br) && LLVMIsConditional(br) && LLVMIsAICmpInst(LLVMGetCondition(br))) {
            LLVMValueRef cmp = LLVMGetCondition(br);
            LLVMIntPredicate pr = LLVMGetICmpPredicate(cmp);
            bool holds = (pr == LLVMIntEQ && LLVMGetSuccessor(br, 0) == bb) ||
                         (pr == LLVMIntNE && LLVMGetSuccessor(br, 1) == bb);
            if (holds) {
                struct ival x = eval_int(c, LLVMGetOperand(cmp, 0)), y = eval_int(c, LLVMGetOperand(cmp, 1));
                int64_t k;
                if (is_gid(&x, dim) && const_int(LLVMGetOperand(cmp, 1), &k)) {
                    *gid = k;
                    return true;
                }
                if (is_gid(&y, dim) && const_int(LLVMGetOperand(cmp, 0), &k)) {
                    *gid = k;
                    return true;
                }
            }
        }
        bb = pred;
    }
    return false;
}

/* ---- bounds from guards -------------------------------------------------------------------- */

/* x with no global id, or x = gid(d) + such a polynomial: *d and the rest (-1 / false else). */
static bool split_gid(const struct ival *x, int *d, struct weft_affine *rest)
{
    *d = -1;
    memset(rest, 0, sizeof *rest);
    if (x->st != S_AFFINE)
        return false;
    for (unsigned i = 0; i < x->p.nterms; i++) {
        const struct weft_term *t = &x->p.t[i];
        if (term_gids(t) == 0) {
            rest->t[rest->nterms++] = *t;   /* still sorted: a subsequence */
            continue;
        }
        if (*d >= 0 || t->coef != 1 || term_degree(t) != 1)
            return false;   /* two gid terms, a scaled gid or gid times a symbol */
        *d = t->a.index;
    }
    return true;
}

/* Notes `a < b` (a <= b when or_equal) in access x where a is gid(d) + k and b has no global id:
 * gid(d) < b - k (+ 1). The first bound found for a dimension stays. */
static void note_less(struct ctx *c, LLVMValueRef av, LLVMValueRef bv, bool or_equal, bool is_unsigned,
                      struct weft_access *x)
{
    struct ival a = eval_int(c, av), b = eval_int(c, bv);
    int da, db;
    struct weft_affine k, rest;
    if (!split_gid(&a, &da, &k) || !split_gid(&b, &db, &rest) || da < 0 || db >= 0 || da > 2 ||
        (x->below_mask >> da & 1))
        return;
    struct ival bound = b, kk = {.st = S_AFFINE, .p = k};
    bound = iv_add(c, bound, &kk, -1, NULL);
    if (or_equal) {
        struct ival one = constant(1);
        bound = iv_add(c, bound, &one, 1, NULL);
    }
    if (bound.st != S_AFFINE)
        return;
    /* term by term, padding and unused terms zero: summaries are compared bytewise */
    memset(&x->below[da], 0, sizeof x->below[da]);
    x->below[da].nterms = bound.p.nterms;
    for (unsigned i = 0; i < bound.p.nterms; i++)
        x->below[da].t[i] = make_term3(bound.p.t[i].coef, bound.p.t[i].a, bound.p.t[i].b, bound.p.t[i].c);
    x->below_mask |= (uint8_t)(1u << da);
    if (is_unsigned)
        x->below_unsigned |= (uint8_t)(1u << da);
}

/* What condition `cond` says when it is `holds` (true or false), for access x; depth-limited
 * through and/or (also as LLVM's logical selects). */
static void note_condition(struct ctx *c, LLVMValueRef cond, bool holds, struct weft_access *x, int depth)
{
    if (depth > 4 || !LLVMIsAInstruction(cond))
        return;
    LLVMValueRef ops[2];
    bool is_and = false, is_or = false;
    if (LLVMIsABinaryOperator(cond) && LLVMGetTypeKind(LLVMTypeOf(cond)) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(LLVMTypeOf(cond)) == 1) {
        LLVMOpcode op = LLVMGetInstructionOpcode(cond);
        is_and = op == LLVMAnd;
        is_or = op == LLVMOr;
        ops[0] = LLVMGetOperand(cond, 0);
        ops[1] = LLVMGetOperand(cond, 1);
    } else if (LLVMIsASelectInst(cond) && LLVMGetTypeKind(LLVMTypeOf(cond)) == LLVMIntegerTypeKind) {
        int64_t k;
        ops[0] = LLVMGetOperand(cond, 0);
        if (const_int(LLVMGetOperand(cond, 1), &k) && k != 0) {          /* a ? true : b */
            is_or = true;
            ops[1] = LLVMGetOperand(cond, 2);
        } else if (const_int(LLVMGetOperand(cond, 2), &k) && k == 0) {   /* a ? b : false */
            is_and = true;
            ops[1] = LLVMGetOperand(cond, 1);
        }
    }
    if ((is_and && holds) || (is_or && !holds)) {
        note_condition(c, ops[0], holds, x, depth + 1);
        note_condition(c, ops[1], holds, x, depth + 1);
        return;
    }
    if (!LLVMIsAICmpInst(cond))
        return;
    LLVMIntPredicate pr = LLVMGetICmpPredicate(cond);
    if (!holds) {   /* the inverse predicate */
        switch (pr) {
        case LLVMIntSLT: pr = LLVMIntSGE; break;
        case LLVMIntSLE: pr = LLVMIntSGT; break;
        case LLVMIntSGT: pr = LLVMIntSLE; break;
        case LLVMIntSGE: pr = LLVMIntSLT; break;
        case LLVMIntULT: pr = LLVMIntUGE; break;
        case LLVMIntULE: pr = LLVMIntUGT; break;
        case LLVMIntUGT: pr = LLVMIntULE; break;
        case LLVMIntUGE: pr = LLVMIntULT; break;
        default: return;
        }
    }
    LLVMValueRef l = LLVMGetOperand(cond, 0), r = LLVMGetOperand(cond, 1);
    switch (pr) {
    case LLVMIntSLT: note_less(c, l, r, false, false, x); break;
    case LLVMIntSLE: note_less(c, l, r, true, false, x); break;
    case LLVMIntSGT: note_less(c, r, l, false, false, x); break;
    case LLVMIntSGE: note_less(c, r, l, true, false, x); break;
    case LLVMIntULT: note_less(c, l, r, false, true, x); break;
    case LLVMIntULE: note_less(c, l, r, true, true, x); break;
    case LLVMIntUGT: note_less(c, r, l, false, true, x); break;
    case LLVMIntUGE: note_less(c, r, l, true, true, x); break;
    default: break;
    }
}

/* The bounds on global ids that hold wherever block bb runs (access.h, below[]): the edge
 * conditions into it through up to 8 blocks of single predecessors. */
static void guard_bounds(struct ctx *c, LLVMBasicBlockRef bb, struct weft_access *x)
{
    for (int depth = 0; depth < 8; depth++) {
        LLVMBasicBlockRef pred = single_predecessor(bb);
        if (!pred)
            return;
        LLVMValueRef br = LLVMGetBasicBlockTerminator(pred);
        if (LLVMIsABranchInst(br) && LLVMIsConditional(br) && LLVMGetSuccessor(br, 0) != LLVMGetSuccessor(br, 1))
            note_condition(c, LLVMGetCondition(br), LLVMGetSuccessor(br, 0) == bb, x, 0);
        bb = pred;
    }
}

/* Records one access of `size` bytes through pointer `ptr` by instruction `in`. */
static void record(struct ctx *c, LLVMValueRef in, unsigned kind, LLVMValueRef ptr, uint64_t size)
{
    if (c->failed)
        return;
    struct pval p = eval_ptr(c, ptr);
    char what[96], lb[64];
    if (p.root != R_PRIVATE && p.root != R_CONSTDATA &&
        (p.root != R_ARG || p.off.st != S_AFFINE || (p.off.st == S_CHOICE && kind == WEFT_ACCESS_WRITE)))
        describe(in, what, sizeof what);
    if (p.root == R_PRIVATE || p.root == R_CONSTDATA)
        return;   /* the work-item's own memory, or data nobody writes */
    if (p.root == R_LOCAL) {
        fail(c, "%s: __local memory", what);
        return;
    }
    if (p.root == R_ARG && p.off.st == S_TERMS) {
        fail(c, "%s: offset has more than %d terms", what, WEFT_AFFINE_MAX_TERMS);
        return;
    }
    if (p.root == R_ARG && p.off.st == S_CHOICE && kind == WEFT_ACCESS_WRITE) {
        label(p.off.culprit, lb, sizeof lb);
        fail(c, "%s: a write whose address chooses (depends on %s %s)", what, kind_of(p.off.culprit), lb);
        return;
    }
    if (p.root != R_ARG || !iv_ok(&p.off)) {
        label(p.off.culprit, lb, sizeof lb);
        LLVMValueRef callee =
            p.off.culprit && LLVMIsACallInst(p.off.culprit) ? LLVMGetCalledValue(p.off.culprit) : NULL;
        size_t n = 0;
        const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : "";
        fail(c, "%s: address is not an argument plus an affine offset (depends on %s %s%s%.*s)", what,
             kind_of(p.off.culprit), lb, n ? " to " : "", (int)n, name);
        return;
    }
    if (size > UINT32_MAX) {
        describe(in, what, sizeof what);
        fail(c, "%s: %llu bytes", what, (unsigned long long)size);
        return;
    }
    if (c->acc.len == MAX_ACCESSES) {
        fail(c, "more than %d global memory accesses", MAX_ACCESSES);
        return;
    }
    struct weft_access a;
    memset(&a, 0, sizeof a);   /* padding and unused terms zero: bytewise comparable */
    a.arg = p.arg;
    a.kind = kind;
    a.size = (unsigned)size;
    if (p.off.st == S_CHOICE) {
        a.chooses = true;
        a.root = p.off.node;
        weft_vec_push(&c->acc, a);
        return;
    }
    a.offset.nterms = p.off.p.nterms;
    for (unsigned i = 0; i < p.off.p.nterms; i++) {
        const struct weft_term *t = &p.off.p.t[i];
        a.offset.t[i] = make_term3(t->coef, t->a, t->b, t->c);
    }
    unsigned d;
    int64_t gid;
    if (pinned_gid(c, LLVMGetInstructionParent(in), &d, &gid)) {
        a.pinned = true;
        a.pin_dim = (uint8_t)d;
        a.pin_gid = gid;
    }
    guard_bounds(c, LLVMGetInstructionParent(in), &a);
    weft_vec_push(&c->acc, a);
}

static bool name_starts(const char *name, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(name, prefix, n) == 0;
}

/* Whether the call site or the callee says it touches no memory a kernel can see
 * (memory(none), or memory(inaccessiblemem: ...) only: bits 2-3 of MemoryEffects). */
static bool call_is_pure(LLVMValueRef call, LLVMValueRef callee)
{
    uint64_t effects;
    return weft_call_memory_effects(call, callee, &effects) && (effects & ~(uint64_t)0xc) == 0;
}

/* llvm.memcpy/memmove/memset with a constant length: a read of the source and a write of
 * the destination (private and constant memory do not count, as for loads and stores). */
static void memory_intrinsic(struct ctx *c, LLVMValueRef in, const char *what, bool set)
{
    LLVMValueRef dst = LLVMGetOperand(in, 0), src = set ? NULL : LLVMGetOperand(in, 1);
    int64_t bytes;
    if (!const_int(LLVMGetOperand(in, 2), &bytes) || bytes < 0) {
        struct pval d = eval_ptr(c, dst), s = src ? eval_ptr(c, src) : proot(R_PRIVATE, NULL);
        if (d.root != R_PRIVATE)
            fail(c, "%s: a variable length on %s memory", what, root_memory(d.root));
        else if (s.root != R_PRIVATE && s.root != R_CONSTDATA)
            fail(c, "%s: a variable length on %s memory", what, root_memory(s.root));
        return;
    }
    if (bytes == 0)
        return;
    if (src)
        record(c, in, WEFT_ACCESS_READ, src, (uint64_t)bytes);
    record(c, in, WEFT_ACCESS_WRITE, dst, (uint64_t)bytes);
}

static void visit_call(struct ctx *c, LLVMValueRef in)
{
    enum weft_wi_kind wi = weft_wi_call_kind(in);
    if (wi != WEFT_WI_NONE && !weft_wi_is_barrier_kind(wi))
        return;   /* work-item functions read the launch, never memory */
    LLVMValueRef callee = LLVMGetCalledValue(in);
    char what[96];
    if (!callee || !LLVMIsAFunction(callee)) {
        label(in, what, sizeof what);
        fail(c, "call %s: indirect call or inline assembly", what);
        return;
    }
    size_t len = 0;
    const char *name = LLVMGetValueName2(callee, &len);
    snprintf(what, sizeof what, "call to %.*s", (int)len, name);
    if (wi != WEFT_WI_NONE) {
        /* work-items of a group may exchange data through global memory across a barrier,
         * which tiles of other shapes would break */
        fail(c, "%s: a barrier", what);
        return;
    }
    if (LLVMGetIntrinsicID(callee)) {
        bool set = name_starts(name, len, "llvm.memset");
        if ((set || name_starts(name, len, "llvm.memcpy") || name_starts(name, len, "llvm.memmove")) &&
            !name_starts(name, len, "llvm.memcpy.element") && !name_starts(name, len, "llvm.memmove.element") &&
            !name_starts(name, len, "llvm.memset.element") && LLVMGetNumArgOperands(in) >= 3) {
            memory_intrinsic(c, in, what, set);
            return;
        }
        static const char *const harmless[] = {"llvm.lifetime.", "llvm.dbg.", "llvm.assume",
                                               "llvm.experimental.noalias.scope.decl", "llvm.prefetch",
                                               "llvm.invariant.", "llvm.sideeffect", "llvm.pseudoprobe"};
        for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++)
            if (name_starts(name, len, harmless[i]))
                return;
    }
    if (!call_is_pure(in, callee))   /* math intrinsics, readnone library functions pass */
        fail(c, "%s", what);
}

static void visit(struct ctx *c, LLVMValueRef in)
{
    char what[96], lb[64];
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    switch (op) {
    case LLVMLoad:
    case LLVMStore: {
        bool load = op == LLVMLoad;
        LLVMValueRef ptr = LLVMGetOperand(in, load ? 0 : 1);
        if (LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic) {
            struct pval p = eval_ptr(c, ptr);
            if (p.root != R_PRIVATE && p.root != R_CONSTDATA) {
                describe(in, what, sizeof what);
                fail(c, "%s on %s memory", what, root_memory(p.root));
            }
            return;
        }
        LLVMTypeRef t = load ? LLVMTypeOf(in) : LLVMTypeOf(LLVMGetOperand(in, 0));
        record(c, in, load ? WEFT_ACCESS_READ : WEFT_ACCESS_WRITE, ptr, LLVMStoreSizeOfType(c->td, t));
        return;
    }
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg: {
        struct pval p = eval_ptr(c, LLVMGetOperand(in, 0));
        if (p.root == R_PRIVATE)
            return;
        label(in, lb, sizeof lb);
        fail(c, "%s %s on %s memory", op == LLVMAtomicRMW ? "atomicrmw" : "cmpxchg", lb, root_memory(p.root));
        return;
    }
    case LLVMCall:
        visit_call(c, in);
        return;
    case LLVMInvoke:
    case LLVMCallBr:
    case LLVMVAArg:
        label(in, lb, sizeof lb);
        fail(c, "instruction %s", lb);
        return;
    default:
        return;   /* arithmetic, control flow, fences: no memory a kernel shares */
    }
}

void weft_access_summarize(LLVMValueRef fn, struct weft_access_summary *out)
{
    memset(out, 0, sizeof *out);
    if (!fn || LLVMIsDeclaration(fn)) {
        snprintf(out->reason, sizeof out->reason, "a declaration has no body");
        return;
    }
    struct ctx c;
    memset(&c, 0, sizeof c);
    c.fn = fn;
    c.td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    struct weft_diag diag;
    weft_diag_init(&diag);
    c.have_layout = weft_arglayout_compute(fn, &c.layout, &diag);
    weft_diag_free(&diag);
    weft_ptrmap_init(&c.imemo);
    weft_ptrmap_init(&c.pmemo);

    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !c.failed; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !c.failed; in = LLVMGetNextInstruction(in))
            visit(&c, in);

    if (c.failed) {
        memcpy(out->reason, c.reason, sizeof out->reason);
    } else {
        out->affine = true;
        out->count = (unsigned)c.acc.len;
        bool any_choice = false;
        for (size_t i = 0; i < c.acc.len; i++)
            any_choice = any_choice || c.acc.data[i].chooses;
        if (any_choice) {
            out->choice = malloc(c.nodes.len * sizeof *out->choice);
            if (out->choice) {
                memcpy(out->choice, c.nodes.data, c.nodes.len * sizeof *out->choice);
                out->nchoice = (unsigned)c.nodes.len;
            } else {
                c.acc.len = 0;
                out->count = 0;
                out->affine = false;
                snprintf(out->reason, sizeof out->reason, "out of memory");
            }
        }
        if (c.acc.len) {
            out->acc = malloc(c.acc.len * sizeof *out->acc);
            if (out->acc) {
                memcpy(out->acc, c.acc.data, c.acc.len * sizeof *out->acc);
            } else {
                out->affine = false;
                out->count = 0;
                snprintf(out->reason, sizeof out->reason, "out of memory");
            }
        }
    }
    weft_vec_free(&c.acc);
    weft_vec_free(&c.nodes);
    weft_vec_free(&c.ivals);
    weft_vec_free(&c.pvals);
    weft_ptrmap_free(&c.imemo);
    weft_ptrmap_free(&c.pmemo);
    if (c.have_layout)
        weft_arglayout_free(&c.layout);
}

void weft_access_summary_dispose(struct weft_access_summary *s)
{
    if (!s)
        return;
    free(s->acc);
    s->acc = NULL;
    s->count = 0;
    free(s->choice);
    s->choice = NULL;
    s->nchoice = 0;
}

bool weft_access_summary_copy(const struct weft_access_summary *from, struct weft_access_summary *to)
{
    *to = *from;
    to->acc = NULL;
    to->choice = NULL;
    to->nchoice = 0;
    if (from->nchoice && from->choice) {
        to->choice = malloc(from->nchoice * sizeof *to->choice);
        if (!to->choice) {
            to->count = 0;
            return false;
        }
        memcpy(to->choice, from->choice, from->nchoice * sizeof *to->choice);
        to->nchoice = from->nchoice;
    }
    if (!from->count || !from->acc) {
        to->count = 0;
        return true;
    }
    to->acc = malloc(from->count * sizeof *to->acc);
    if (!to->acc) {
        free(to->choice);
        to->choice = NULL;
        to->nchoice = 0;
        to->count = 0;
        return false;
    }
    memcpy(to->acc, from->acc, from->count * sizeof *to->acc);
    return true;
}

/* ---- text ------------------------------------------------------------------------------- */

/* Appends to buf (size bytes, NUL-terminated), truncating. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

static const char *sym_name(struct weft_sym s)
{
    switch (s.kind) {
    case WEFT_SYM_GID: return "gid";
    case WEFT_SYM_GSIZE: return "gsize";
    case WEFT_SYM_GOFFSET: return "goff";
    case WEFT_SYM_ARG: return "arg";
    default: return "?";
    }
}

void weft_affine_format(const struct weft_affine *a, char *buf, size_t size)
{
    if (!buf || !size)
        return;
    size_t len = 0;
    buf[0] = 0;
    bool first = true;
    /* the constant term sorts first but prints last, as one writes a formula */
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < a->nterms; i++) {
            const struct weft_term *t = &a->t[i];
            bool is_const = term_degree(t) == 0;
            if (is_const != (pass == 1))
                continue;
            uint64_t mag = t->coef < 0 ? 0 - (uint64_t)t->coef : (uint64_t)t->coef;
            if (first)
                put(buf, size, &len, "%s", t->coef < 0 ? "-" : "");
            else
                put(buf, size, &len, " %c ", t->coef < 0 ? '-' : '+');
            first = false;
            bool star = false;   /* "4*gid0", "gid0*arg2", "4" */
            if (is_const || mag != 1) {
                put(buf, size, &len, "%llu", (unsigned long long)mag);
                star = true;
            }
            struct weft_sym f[3] = {t->a, t->b, t->c};
            for (int k = 0; k < 3; k++) {
                if (sym_is_one(f[k]))
                    continue;
                put(buf, size, &len, "%s%s%u", star ? "*" : "", sym_name(f[k]), f[k].index);
                star = true;
            }
        }
    }
    if (first)
        put(buf, size, &len, "0");
}

/* Writes node n of a choosing offset; `paren`: inside a product, where a sum needs brackets. */
static void format_node(const struct weft_choice_node *nodes, unsigned n, bool paren, char *buf, size_t size,
                        size_t *len, unsigned depth)
{
    const struct weft_choice_node *x = &nodes[n];
    if (depth > 64) {
        put(buf, size, len, "...");
        return;
    }
    static const char *const fn[] = {[WEFT_CHOICE_ANY] = "any", [WEFT_CHOICE_SMIN] = "smin",
                                     [WEFT_CHOICE_SMAX] = "smax", [WEFT_CHOICE_UMIN] = "umin",
                                     [WEFT_CHOICE_UMAX] = "umax"};
    switch (x->op) {
    case WEFT_CHOICE_POLY: {
        char t[256];
        weft_affine_format(&x->poly, t, sizeof t);
        bool sum = x->poly.nterms > 1 || (x->poly.nterms == 1 && x->poly.t[0].coef < 0);
        put(buf, size, len, paren && sum ? "(%s)" : "%s", t);
        return;
    }
    case WEFT_CHOICE_ADD:
        put(buf, size, len, "%s", paren ? "(" : "");
        format_node(nodes, x->x, false, buf, size, len, depth + 1);
        if (nodes[x->y].op == WEFT_CHOICE_POLY && nodes[x->y].poly.nterms == 1 &&
            nodes[x->y].poly.t[0].coef < 0 && nodes[x->y].poly.t[0].coef != INT64_MIN) {
            struct weft_choice_node neg = nodes[x->y];   /* x + -k: x - k */
            neg.poly.t[0].coef = -neg.poly.t[0].coef;
            char t[256];
            weft_affine_format(&neg.poly, t, sizeof t);
            put(buf, size, len, " - %s", t);
        } else {
            put(buf, size, len, " + ");
            format_node(nodes, x->y, false, buf, size, len, depth + 1);
        }
        put(buf, size, len, "%s", paren ? ")" : "");
        return;
    case WEFT_CHOICE_MUL:
    case WEFT_CHOICE_DIV:
        format_node(nodes, x->x, true, buf, size, len, depth + 1);
        put(buf, size, len, x->op == WEFT_CHOICE_MUL ? " * " : " / ");
        format_node(nodes, x->y, true, buf, size, len, depth + 1);
        return;
    default:
        put(buf, size, len, "%s(", x->op < sizeof fn / sizeof fn[0] && fn[x->op] ? fn[x->op] : "?");
        format_node(nodes, x->x, false, buf, size, len, depth + 1);
        put(buf, size, len, ", ");
        format_node(nodes, x->y, false, buf, size, len, depth + 1);
        put(buf, size, len, ")");
        return;
    }
}

void weft_access_format(const struct weft_access_summary *s, const struct weft_access *a, char *buf, size_t size)
{
    if (!buf || !size)
        return;
    if (!a->chooses) {
        weft_affine_format(&a->offset, buf, size);
        if (a->pinned) {
            size_t len = strlen(buf);
            put(buf, size, &len, " (only where gid%u == %lld)", a->pin_dim, (long long)a->pin_gid);
        }
        for (unsigned d = 0; d < 3; d++) {
            if (!(a->below_mask >> d & 1))
                continue;
            char t[160];
            size_t len = strlen(buf);
            weft_affine_format(&a->below[d], t, sizeof t);
            put(buf, size, &len, " (only where gid%u <%s %s)", d, a->below_unsigned >> d & 1 ? "u" : "", t);
        }
        return;
    }
    size_t len = 0;
    buf[0] = 0;
    if (a->root >= s->nchoice) {
        put(buf, size, &len, "?");
        return;
    }
    format_node(s->choice, a->root, false, buf, size, &len, 0);
}
