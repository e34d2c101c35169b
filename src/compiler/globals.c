/* compiler/globals.c — program-scope variables: membership, layout and initial bytes of a
 * program's global-variable block (the design is in globals.h).
 *
 * Initializers are evaluated here, from LLVM constants, into the bytes the compiled code will
 * read with the same data layout: integers, floating point (half, float, double), vectors,
 * arrays, structs, zero/undef/poison, null pointers, and pointers to members (optionally
 * through constant GEPs, bit- and address-space casts, ptrtoint/inttoptr). Anything else (an
 * initializer naming a function, an undefined variable, an integer wider than 64 bits) fails
 * the build with a line in the log rather than being guessed.
 */
#include "compiler/globals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ptrmap.h"
#include "weft/abi.h"

static bool is_candidate(LLVMValueRef g)
{
    if (LLVMIsDeclaration(g))
        return false;
    size_t n = 0;
    const char *name = LLVMGetValueName2(g, &n);
    if (n >= 5 && !strncmp(name, "llvm.", 5))
        return false;   /* llvm.used and friends */
    return LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 3;   /* __local: per work-group */
}

/* Calls `fn` for every global variable constant `c` refers to (not looking into the
 * initializers of those variables). Returns true if any call returned true. */
static bool any_global_in(LLVMValueRef c, bool (*fn)(LLVMValueRef g, void *arg), void *arg, int depth)
{
    if (!c || depth > 64)
        return false;
    if (LLVMIsAGlobalVariable(c))
        return fn(c, arg);
    if (LLVMIsAGlobalValue(c) || !LLVMIsAConstant(c))
        return false;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (any_global_in(LLVMGetOperand(c, (unsigned)i), fn, arg, depth + 1))
            return true;
    return false;
}

static bool is_member_cb(LLVMValueRef g, void *arg)
{
    return weft_ptrmap_has(arg, g);
}

struct add_state {
    struct weft_ptrmap *members;
    bool changed;
};

static bool add_member_cb(LLVMValueRef g, void *arg)
{
    struct add_state *st = arg;
    if (is_candidate(g) && !weft_ptrmap_has(st->members, g)) {
        weft_ptrmap_put(st->members, g, 1);
        st->changed = true;
    }
    return false;   /* visit all */
}

bool weft_globals_layout_compute(LLVMModuleRef m, struct weft_globals_layout *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    struct weft_ptrmap members;
    weft_ptrmap_init(&members);
    unsigned candidates = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (!is_candidate(g))
            continue;
        candidates++;
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 1)
            weft_ptrmap_put(&members, g, 1);
    }
    /* closure: what members point to, and what points to members, is stored in the block */
    struct add_state st = {&members, weft_ptrmap_count(&members) > 0};
    while (st.changed) {
        st.changed = false;
        for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
            if (!is_candidate(g))
                continue;
            LLVMValueRef init = LLVMGetInitializer(g);
            if (weft_ptrmap_has(&members, g))
                any_global_in(init, add_member_cb, &st, 0);
            else if (any_global_in(init, is_member_cb, &members, 0)) {
                weft_ptrmap_put(&members, g, 1);
                st.changed = true;
            }
        }
    }
    size_t count = weft_ptrmap_count(&members);
    bool ok = true;
    if (count) {
        out->vars = calloc(count, sizeof *out->vars);
        out->offsets = calloc(count, sizeof *out->offsets);
        if (!out->vars || !out->offsets) {
            weft_diag_error(diag, "error: out of memory laying out program-scope variables");
            ok = false;
        }
    }
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    uint64_t off = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && ok; g = LLVMGetNextGlobal(g)) {
        if (!weft_ptrmap_has(&members, g))
            continue;
        LLVMTypeRef t = LLVMGlobalGetValueType(g);
        uint64_t size = LLVMABISizeOfType(td, t);
        uint64_t align = LLVMGetAlignment(g);
        if (align < LLVMABIAlignmentOfType(td, t))
            align = LLVMABIAlignmentOfType(td, t);
        if (align > WEFT_LOCAL_ALIGN)
            align = WEFT_LOCAL_ALIGN;   /* the block's own alignment: the most we promise */
        size_t n = 0;
        const char *name = LLVMGetValueName2(g, &n);
        if (size > WEFT_MAX_GLOBAL_VARIABLE_SIZE) {
            weft_diag_error(diag, "error: program-scope variable '%s' takes %llu bytes; the device allows at "
                                  "most %llu (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE)",
                            name, (unsigned long long)size, (unsigned long long)WEFT_MAX_GLOBAL_VARIABLE_SIZE);
            ok = false;
            break;
        }
        off = weft_round_up(off, align);
        out->vars[out->n] = g;
        out->offsets[out->n] = off;
        out->n++;
        off += size;
    }
    (void)candidates;
    out->size = ok ? off : 0;
    weft_ptrmap_free(&members);
    if (!ok)
        weft_globals_layout_free(out);
    return ok;
}

int64_t weft_globals_offset_of(const struct weft_globals_layout *l, LLVMValueRef v)
{
    for (unsigned i = 0; i < l->n; i++)
        if (l->vars[i] == v)
            return (int64_t)l->offsets[i];
    return -1;
}

void weft_globals_layout_free(struct weft_globals_layout *l)
{
    free(l->vars);
    free(l->offsets);
    memset(l, 0, sizeof *l);
}

/* ---- initial values ---------------------------------------------------------------------- */

struct init_state {
    LLVMTargetDataRef td;
    const struct weft_globals_layout *l;
    unsigned char *block;
    struct weft_diag *diag;
    const char *var;        /* the variable being initialized, for messages */
};

static bool fail(struct init_state *s, const char *what)
{
    weft_diag_error(s->diag, "error: the initializer of program-scope variable '%s' is not supported: %s",
                    s->var, what);
    return false;
}

static void put_le(unsigned char *dst, uint64_t v, uint64_t n)
{
    for (uint64_t i = 0; i < n && i < 8; i++)
        dst[i] = (unsigned char)(v >> (8 * i));
}

/* The integer value of constant `c` (a pointer: its address once the block is placed). */
static bool const_value(struct init_state *s, LLVMValueRef c, uint64_t *v, int depth)
{
    if (depth > 64)
        return fail(s, "expression too deep");
    if (LLVMIsAConstantInt(c)) {
        if (LLVMGetIntTypeWidth(LLVMTypeOf(c)) > 64)
            return fail(s, "an integer wider than 64 bits");
        *v = LLVMConstIntGetZExtValue(c);
        return true;
    }
    if (LLVMIsAConstantPointerNull(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantAggregateZero(c)) {
        *v = 0;
        return true;
    }
    if (LLVMIsAGlobalVariable(c)) {
        int64_t off = weft_globals_offset_of(s->l, c);
        if (off < 0)
            return fail(s, "a pointer to a variable outside the program's global storage");
        *v = (uint64_t)(uintptr_t)s->block + (uint64_t)off;
        return true;
    }
    if (!LLVMIsAConstantExpr(c))
        return fail(s, LLVMIsAFunction(c) ? "a function address" : "an unknown kind of constant");
    switch (LLVMGetConstOpcode(c)) {
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
        return const_value(s, LLVMGetOperand(c, 0), v, depth + 1);
    case LLVMGetElementPtr: {
        uint64_t base;
        if (!const_value(s, LLVMGetOperand(c, 0), &base, depth + 1))
            return false;
        LLVMTypeRef t = LLVMGetGEPSourceElementType(c);
        int n = LLVMGetNumOperands(c);
        int64_t off = 0;
        for (int i = 1; i < n; i++) {
            LLVMValueRef ix = LLVMGetOperand(c, (unsigned)i);
            if (!LLVMIsAConstantInt(ix))
                return fail(s, "a non-constant index");
            int64_t k = LLVMConstIntGetSExtValue(ix);
            if (i == 1) {
                off += k * (int64_t)LLVMABISizeOfType(s->td, t);
            } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
                off += (int64_t)LLVMOffsetOfElement(s->td, t, (unsigned)k);
                t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
            } else {
                t = LLVMGetElementType(t);
                off += k * (int64_t)LLVMABISizeOfType(s->td, t);
            }
        }
        *v = base + (uint64_t)off;
        return true;
    }
    case LLVMAdd:
    case LLVMSub: {
        uint64_t a, b;
        if (!const_value(s, LLVMGetOperand(c, 0), &a, depth + 1) || !const_value(s, LLVMGetOperand(c, 1), &b, depth + 1))
            return false;
        *v = LLVMGetConstOpcode(c) == LLVMAdd ? a + b : a - b;
        return true;
    }
    default:
        return fail(s, "a constant expression it cannot evaluate");
    }
}

/* Writes constant `c` of type `t` at `dst`. */
static bool write_const(struct init_state *s, LLVMValueRef c, unsigned char *dst, int depth)
{
    if (depth > 64)
        return fail(s, "nesting too deep");
    LLVMTypeRef t = LLVMTypeOf(c);
    if (LLVMIsAConstantAggregateZero(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantPointerNull(c))
        return true;   /* the block is zeroed */
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMPointerTypeKind: {
        uint64_t v;
        if (!const_value(s, c, &v, depth))
            return false;
        put_le(dst, v, LLVMStoreSizeOfType(s->td, t));
        return true;
    }
    case LLVMHalfTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind: {
        if (!LLVMIsAConstantFP(c))
            return fail(s, "a floating-point constant expression");
        LLVMBool loses = 0;
        double d = LLVMConstRealGetDouble(c, &loses);
        if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind) {
            memcpy(dst, &d, 8);
        } else if (LLVMGetTypeKind(t) == LLVMFloatTypeKind) {
            float f = (float)d;
            memcpy(dst, &f, 4);
        } else {
            _Float16 h = (_Float16)d;
            memcpy(dst, &h, 2);
        }
        return true;
    }
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind: {
        bool array = LLVMGetTypeKind(t) == LLVMArrayTypeKind;
        LLVMTypeRef et = LLVMGetElementType(t);
        uint64_t n = array ? LLVMGetArrayLength2(t) : LLVMGetVectorSize(t);
        /* array elements are ABI-size apart; vector elements are packed at their store size */
        uint64_t stride = array ? LLVMABISizeOfType(s->td, et) : LLVMStoreSizeOfType(s->td, et);
        if (!array && LLVMSizeOfTypeInBits(s->td, et) % 8)
            return fail(s, "a vector of sub-byte elements");
        for (uint64_t i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, (unsigned)i);
            if (!e)
                return fail(s, "an aggregate element it cannot read");
            if (!write_const(s, e, dst + i * stride, depth + 1))
                return false;
        }
        return true;
    }
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, i);
            if (!e)
                return fail(s, "a struct field it cannot read");
            if (!write_const(s, e, dst + LLVMOffsetOfElement(s->td, t, i), depth + 1))
                return false;
        }
        return true;
    }
    default:
        return fail(s, "a value of an unsupported type");
    }
}

bool weft_globals_init(LLVMModuleRef m, const struct weft_globals_layout *l, unsigned char *block,
                       struct weft_diag *diag)
{
    struct init_state s = {LLVMGetModuleDataLayout(m), l, block, diag, NULL};
    for (unsigned i = 0; i < l->n; i++) {
        size_t n = 0;
        s.var = LLVMGetValueName2(l->vars[i], &n);
        LLVMValueRef init = LLVMGetInitializer(l->vars[i]);
        if (init && !write_const(&s, init, block + l->offsets[i], 0))
            return false;
    }
    return true;
}
