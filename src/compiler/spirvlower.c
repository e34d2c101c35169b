/* compiler/spirvlower.c — llvm-spirv-15's LLVM module (SPIR target) made into what the OpenCL
 * C frontend (frontend.c) would have produced, so that linking, metadata, specialization and
 * the JIT treat SPIR-V programs exactly like OpenCL C ones.
 *
 * What differs and is lowered here (checked on llvm-spirv-15 --spirv-target-env=CL1.2 output):
 *   - triple spir64-unknown-unknown and SPIR's data layout: x86-64 and the builtin library's
 *     layout (same sizes and alignments for every OpenCL type);
 *   - spir_func on functions and calls: the C convention the builtin library uses (a call
 *     whose convention differs from its callee's is undefined behaviour, and LLVM drops it);
 *   - printf's variadic float and half scalars: OpenCL C promotes them to double (C's default
 *     argument promotions) and the printf runtime reads a double, but the translator passes
 *     the OpExtInst printf operand as it is; they are widened with fpext here;
 *   - builtin names: the SPIR mangler spells address spaces U3AS1/2/3/4 and leaves private
 *     pointers unqualified, clang (the builtin library) spells CLglobal/CLconstant/CLlocal/
 *     CLgeneric/CLprivate, and the two differ in which types are substitution candidates;
 *     names are matched through a canonical form (weft_spirv_canonical_name).
 * What needs nothing: address spaces (SPIR's 1 global, 2 constant, 3 local, 4 generic are
 * clang's -ffake-address-space-map numbers), the !kernel_arg_* metadata (llvm-spirv emits
 * clang's nodes), work-item functions and barriers (get_global_id, barrier, ... by their
 * OpenCL C names), module-scope Workgroup variables (addrspace(3) globals like clang's).
 */
#define _GNU_SOURCE
#include "compiler/spirvlower.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen.h"

extern const char weft_builtins_bc_start[], weft_builtins_bc_end[];

#define TRIPLE "x86_64-unknown-linux-gnu"

/* ---- a string builder -------------------------------------------------------------------- */

struct sb {
    char *s;
    size_t n, cap;
    bool oom;
};

static void sb_add(struct sb *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->oom = true;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void sb_str(struct sb *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* ---- mangled names --------------------------------------------------------------------- */

#define MAX_SUBS 64

struct demangler {
    const char *p;
    bool spir;                 /* the SPIR mangler's substitution rules, else clang's */
    char *subs[MAX_SUBS];
    size_t nsubs;
    bool bad;
};

static void add_sub(struct demangler *d, const char *canon)
{
    if (d->nsubs < MAX_SUBS && !d->bad) {
        d->subs[d->nsubs] = strdup(canon);
        if (!d->subs[d->nsubs])
            d->bad = true;
        else
            d->nsubs++;
    } else {
        d->bad = true;
    }
}

static bool parse_len(struct demangler *d, size_t *n)
{
    if (*d->p < '0' || *d->p > '9')
        return false;
    size_t v = 0;
    while (*d->p >= '0' && *d->p <= '9') {
        v = v * 10 + (size_t)(*d->p++ - '0');
        if (v > 4096)
            return false;
    }
    *n = v;
    return true;
}

/* The address space of a vendor qualifier name, or -1 when it is not one. */
static int as_of_qualifier(const char *name, size_t n)
{
    static const struct {
        const char *name;
        int as;
    } map[] = {{"AS1", 1}, {"AS2", 2}, {"AS3", 3}, {"AS4", 4}, {"AS0", 0}, {"CLglobal", 1},
               {"CLconstant", 2}, {"CLlocal", 3}, {"CLgeneric", 4}, {"CLprivate", 0}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strlen(map[i].name) == n && !memcmp(map[i].name, name, n))
            return map[i].as;
    return -1;
}

static char *parse_type(struct demangler *d);

static char *dup_sb(struct sb *b)
{
    if (b->oom) {
        free(b->s);
        return NULL;
    }
    return b->s ? b->s : strdup("");
}

static char *parse_pointer(struct demangler *d)
{
    int as = -1;
    bool quals = false;
    for (;;) {
        if (*d->p != 'U')
            break;
        const char *save = d->p;
        d->p++;
        size_t n;
        if (!parse_len(d, &n) || strnlen(d->p, n) < n) {
            d->bad = true;
            return NULL;
        }
        int q = as_of_qualifier(d->p, n);
        if (q < 0) {          /* U7_Atomic: a type, not a qualifier */
            d->p = save;
            break;
        }
        as = q;
        quals = true;
        d->p += n;
    }
    while (*d->p == 'r' || *d->p == 'V' || *d->p == 'K') {
        quals = true;
        d->p++;
    }
    char *base = parse_type(d);
    if (!base)
        return NULL;
    struct sb b = {0};
    if (base[0] == 'A') {     /* a substitution of an already qualified pointee */
        sb_str(&b, base);
    } else {
        char as_s[16];
        snprintf(as_s, sizeof as_s, "A%d", as < 0 ? 0 : as);
        sb_str(&b, as_s);
        sb_str(&b, base);
    }
    free(base);
    char *pointee = dup_sb(&b);
    if (!pointee) {
        d->bad = true;
        return NULL;
    }
    if (quals)
        add_sub(d, pointee);
    struct sb pb = {0};
    sb_str(&pb, "P");
    sb_str(&pb, pointee);
    free(pointee);
    char *ptr = dup_sb(&pb);
    if (!ptr) {
        d->bad = true;
        return NULL;
    }
    add_sub(d, ptr);
    return ptr;
}

static char *parse_type(struct demangler *d)
{
    if (d->bad)
        return NULL;
    char c = *d->p;
    if (c && strchr("vwbchastijlmxynofdegz", c)) {
        d->p++;
        char s[2] = {c, 0};
        return strdup(s);
    }
    if (c == 'D' && d->p[1] == 'h') {
        d->p += 2;
        return strdup("Dh");
    }
    if (c == 'D' && d->p[1] == 'v') {
        d->p += 2;
        size_t n;
        if (!parse_len(d, &n) || *d->p != '_') {
            d->bad = true;
            return NULL;
        }
        d->p++;
        char *elem = parse_type(d);
        if (!elem)
            return NULL;
        char *s = NULL;
        if (asprintf(&s, "Dv%zu_%s", n, elem) < 0)
            s = NULL;
        free(elem);
        if (!s) {
            d->bad = true;
            return NULL;
        }
        add_sub(d, s);
        return s;
    }
    if (c == 'P') {
        d->p++;
        return parse_pointer(d);
    }
    if (c == 'S') {
        d->p++;
        size_t idx = 0;
        if (*d->p != '_') {
            size_t v = 0;
            while ((*d->p >= '0' && *d->p <= '9') || (*d->p >= 'A' && *d->p <= 'Z')) {
                v = v * 36 + (size_t)(*d->p <= '9' ? *d->p - '0' : *d->p - 'A' + 10);
                d->p++;
                if (v > MAX_SUBS)
                    break;
            }
            idx = v + 1;
        }
        if (*d->p != '_' || idx >= d->nsubs) {
            d->bad = true;
            return NULL;
        }
        d->p++;
        return strdup(d->subs[idx]);
    }
    if (c == 'U') {   /* U7_Atomic <type> */
        d->p++;
        size_t n;
        if (!parse_len(d, &n) || n != 7 || strncmp(d->p, "_Atomic", 7)) {
            d->bad = true;
            return NULL;
        }
        d->p += 7;
        char *inner = parse_type(d);
        if (!inner)
            return NULL;
        char *s = NULL;
        if (asprintf(&s, "U7_Atomic%s", inner) < 0)
            s = NULL;
        free(inner);
        if (!s) {
            d->bad = true;
            return NULL;
        }
        if (!d->spir)
            add_sub(d, s);
        return s;
    }
    if (c >= '1' && c <= '9') {   /* a named type: 9ocl_event, 12memory_order */
        size_t n;
        if (!parse_len(d, &n) || strnlen(d->p, n) < n) {
            d->bad = true;
            return NULL;
        }
        char *s = NULL;
        if (asprintf(&s, "%zu%.*s", n, (int)n, d->p) < 0)
            s = NULL;
        d->p += n;
        if (!s) {
            d->bad = true;
            return NULL;
        }
        if (!d->spir)
            add_sub(d, s);
        return s;
    }
    d->bad = true;
    return NULL;
}

char *weft_spirv_canonical_name(const char *mangled, bool spir)
{
    if (!mangled || strncmp(mangled, "_Z", 2))
        return NULL;
    struct demangler d = {.p = mangled + 2, .spir = spir};
    size_t n;
    if (!parse_len(&d, &n) || strnlen(d.p, n) < n)
        return NULL;
    struct sb b = {0};
    sb_add(&b, d.p, n);
    sb_str(&b, "(");
    d.p += n;
    bool first = true;
    while (*d.p && !d.bad) {
        char *t = parse_type(&d);
        if (!t)
            break;
        if (!first)
            sb_str(&b, ",");
        sb_str(&b, t);
        free(t);
        first = false;
    }
    sb_str(&b, ")");
    for (size_t i = 0; i < d.nsubs; i++)
        free(d.subs[i]);
    if (d.bad || b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- the builtin library's names, once per process ------------------------------------- */

struct name_entry {
    char *canon;
    char *name;
};

static struct {
    pthread_once_t once;
    char *datalayout;
    struct name_entry *v;
    size_t n;
    char **exact;            /* the library's own names, sorted */
    size_t nexact;
} lib = {.once = PTHREAD_ONCE_INIT};

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct name_entry *)a)->canon, ((const struct name_entry *)b)->canon);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lib_load(void)
{
    LLVMContextRef ctx = LLVMContextCreate();
    size_t bsize = (size_t)(weft_builtins_bc_end - weft_builtins_bc_start);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(weft_builtins_bc_start, bsize, "weft-builtins", 0);
    LLVMModuleRef m;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &m)) {   /* lazily: names only */
        LLVMDisposeMemoryBuffer(buf);
        LLVMContextDispose(ctx);
        return;
    }
    lib.datalayout = strdup(LLVMGetDataLayoutStr(m));
    size_t cap = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        cap++;
    lib.v = calloc(cap ? cap : 1, sizeof *lib.v);
    lib.exact = calloc(cap ? cap : 1, sizeof *lib.exact);
    if (lib.v && lib.exact) {
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
            size_t len;
            const char *name = LLVMGetValueName2(f, &len);
            if (LLVMIsDeclaration(f) || strncmp(name, "_Z", 2))
                continue;
            char *copy = strdup(name);
            if (!copy)
                continue;
            lib.exact[lib.nexact++] = copy;
            char *canon = weft_spirv_canonical_name(name, false);
            if (canon)
                lib.v[lib.n++] = (struct name_entry){canon, copy};
        }
        qsort(lib.v, lib.n, sizeof *lib.v, cmp_entry);
        qsort(lib.exact, lib.nexact, sizeof *lib.exact, cmp_str);
    }
    LLVMDisposeModule(m);   /* owns the buffer */
    LLVMContextDispose(ctx);
}

static bool lib_defines(const char *name)
{
    return lib.exact && bsearch(&name, lib.exact, lib.nexact, sizeof *lib.exact, cmp_str);
}

static const char *lib_find(const char *canon)
{
    if (!lib.v)
        return NULL;
    struct name_entry key = {(char *)canon, NULL};
    struct name_entry *e = bsearch(&key, lib.v, lib.n, sizeof *lib.v, cmp_entry);
    return e ? e->name : NULL;
}

/* ---- the lowering ------------------------------------------------------------------------ */

static bool has_option(const struct weft_build_options *opts, const char *opt)
{
    for (size_t i = 0; opts && i < opts->num_clang_args; i++)
        if (!strcmp(opts->clang_args[i], opt))
            return true;
    return false;
}

/* Calls of `from` go to `to` (same name, pointer parameters possibly in another address
 * space): generic pointer arguments are cast. Deletes `from`. */
static void retarget_calls(LLVMModuleRef m, LLVMValueRef from, LLVMValueRef to, LLVMTypeRef to_ty)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = LLVMCountParamTypes(to_ty);
    LLVMTypeRef *params = calloc(n ? n : 1, sizeof *params);
    LLVMValueRef *args = calloc(n ? n : 1, sizeof *args);
    if (params && args) {
        LLVMGetParamTypes(to_ty, params);
        LLVMUseRef u = LLVMGetFirstUse(from);
        while (u) {
            LLVMValueRef call = LLVMGetUser(u);
            u = LLVMGetNextUse(u);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != from ||
                (unsigned)LLVMGetNumArgOperands(call) != n)
                continue;
            LLVMPositionBuilderBefore(b, call);
            for (unsigned i = 0; i < n; i++) {
                LLVMValueRef a = LLVMGetOperand(call, i);
                args[i] = LLVMTypeOf(a) == params[i] ? a : LLVMBuildAddrSpaceCast(b, a, params[i], "");
            }
            LLVMValueRef nc = LLVMBuildCall2(b, to_ty, to, args, n, "");
            LLVMSetInstructionCallConv(nc, LLVMGetFunctionCallConv(to));
            LLVMReplaceAllUsesWith(call, nc);
            LLVMInstructionEraseFromParent(call);
        }
    }
    free(params);
    free(args);
    LLVMDisposeBuilder(b);
    if (!LLVMGetFirstUse(from))
        LLVMDeleteFunction(from);
}

/* Renames (or retargets) declaration `f` to the library's spelling of the same builtin. */
static void map_builtin(LLVMModuleRef m, LLVMValueRef f)
{
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (strncmp(name, "_Z", 2) || lib_defines(name))
        return;
    char *canon = weft_spirv_canonical_name(name, true);
    if (!canon)
        return;
    const char *target = lib_find(canon);
    bool generic = false;
    char generic_as = '0';
    if (!target && strstr(canon, "PA4")) {
        /* No generic overload: the private one, else the global one (atomics), else the local
         * one; the CPU has one flat address space, so each reaches any object correctly. */
        static const char order[] = "013";
        size_t len_c = strlen(canon);
        bool *was_generic = calloc(len_c + 1, 1);
        if (!was_generic) {
            free(canon);
            return;
        }
        for (char *p = strstr(canon, "PA4"); p; p = strstr(p + 3, "PA4"))
            was_generic[p + 2 - canon] = true;
        for (const char *as = order; *as && !target; as++) {
            for (size_t k = 0; k < len_c; k++)
                if (was_generic[k])
                    canon[k] = *as;
            target = lib_find(canon);
            generic_as = *as;
        }
        free(was_generic);
        generic = target != NULL;
    }
    free(canon);
    if (!target)
        return;
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    LLVMValueRef existing = LLVMGetNamedFunction(m, target);
    if (!generic) {
        if (existing && LLVMGlobalGetValueType(existing) == fty) {
            LLVMReplaceAllUsesWith(f, existing);
            LLVMDeleteFunction(f);
        } else if (!existing) {
            LLVMSetValueName2(f, target, strlen(target));
        }
        return;
    }
    unsigned n = LLVMCountParamTypes(fty);
    LLVMTypeRef *params = calloc(n ? n : 1, sizeof *params);
    if (!params)
        return;
    LLVMGetParamTypes(fty, params);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned as = (unsigned)(generic_as - '0');
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetTypeKind(params[i]) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(params[i]) == 4)
            params[i] = LLVMPointerTypeInContext(ctx, as);
    LLVMTypeRef nty = LLVMFunctionType(LLVMGetReturnType(fty), params, n, LLVMIsFunctionVarArg(fty));
    free(params);
    if (!existing) {
        existing = LLVMAddFunction(m, target, nty);
        LLVMSetFunctionCallConv(existing, LLVMCCallConv);
    } else if (LLVMGlobalGetValueType(existing) != nty) {
        return;
    }
    retarget_calls(m, f, existing, nty);
}

static void set_fast_math(LLVMModuleRef m, LLVMFastMathFlags flags)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                if (LLVMCanValueUseFastMathFlags(in))
                    LLVMSetFastMathFlags(in, LLVMGetFastMathFlags(in) | flags);
}

/* Widens printf's variadic float and half scalar operands to double, as a C call would. */
static void promote_printf_operands(LLVMModuleRef m)
{
    LLVMValueRef printf_fn = LLVMGetNamedFunction(m, "printf");
    if (!printf_fn)
        return;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    unsigned fixed = LLVMCountParamTypes(LLVMGlobalGetValueType(printf_fn));
    for (LLVMUseRef u = LLVMGetFirstUse(printf_fn); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != printf_fn)
            continue;
        unsigned nargs = LLVMGetNumArgOperands(call);
        for (unsigned i = fixed; i < nargs; i++) {
            LLVMValueRef a = LLVMGetOperand(call, i);
            LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(a));
            if (k != LLVMFloatTypeKind && k != LLVMHalfTypeKind)
                continue;
            LLVMPositionBuilderBefore(b, call);
            LLVMSetOperand(call, i, LLVMBuildFPExt(b, a, LLVMDoubleTypeInContext(ctx), ""));
        }
    }
    LLVMDisposeBuilder(b);
}

bool weft_spirv_lower(LLVMModuleRef m, const struct weft_build_options *opts, struct weft_diag *diag)
{
    pthread_once(&lib.once, lib_load);
    if (!lib.datalayout || !lib.v) {
        weft_diag_error(diag, "error: internal: the builtin library cannot be read");
        return false;
    }
    LLVMSetTarget(m, TRIPLE);
    LLVMSetDataLayout(m, lib.datalayout);

    /* Calling conventions: definitions and declarations first, then every call follows its
     * callee (kernels keep spir_kernel, which specialize.c demotes at codegen). */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv)
            LLVMSetFunctionCallConv(f, LLVMCCallConv);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!LLVMIsACallInst(in))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(in);
                if (callee && LLVMIsAFunction(callee))
                    LLVMSetInstructionCallConv(in, LLVMGetFunctionCallConv(callee));
                else if (LLVMGetInstructionCallConv(in) == LLVMSPIRFUNCCallConv)
                    LLVMSetInstructionCallConv(in, LLVMCCallConv);
            }

    promote_printf_operands(m);

    /* Builtin names (collect first: mapping may delete declarations). */
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n += LLVMIsDeclaration(f);
    LLVMValueRef *decls = calloc(n ? n : 1, sizeof *decls);
    if (!decls) {
        weft_diag_error(diag, "error: out of memory");
        return false;
    }
    n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMIsDeclaration(f))
            decls[n++] = f;
    for (size_t i = 0; i < n; i++)
        map_builtin(m, decls[i]);
    free(decls);

    /* Build options that the OpenCL C frontend would have turned into IR. */
    bool uniform = has_option(opts, "-cl-uniform-work-group-size");
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv || LLVMIsDeclaration(f))
            continue;
        static const char key[] = "uniform-work-group-size";
        const char *v = uniform ? "true" : "false";
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, key, sizeof key - 1, v, (unsigned)strlen(v)));
    }
    LLVMFastMathFlags fm = 0;
    if (has_option(opts, "-cl-fast-relaxed-math"))
        fm |= LLVMFastMathAll;
    if (has_option(opts, "-cl-unsafe-math-optimizations"))
        fm |= LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros | LLVMFastMathAllowReciprocal |
              LLVMFastMathAllowContract | LLVMFastMathApproxFunc;
    if (has_option(opts, "-cl-finite-math-only"))
        fm |= LLVMFastMathNoNaNs | LLVMFastMathNoInfs;
    if (has_option(opts, "-cl-no-signed-zeros"))
        fm |= LLVMFastMathNoSignedZeros;
    if (has_option(opts, "-cl-mad-enable"))
        fm |= LLVMFastMathAllowContract;
    if (fm)
        set_fast_math(m, fm);
    return true;
}

cl_int weft_spirv_lower_bitcode(const struct weft_bitcode *in, const struct weft_build_options *opts,
                                struct weft_bitcode *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, weft_diag_llvm_handler, diag);
    LLVMModuleRef m = NULL;
    cl_int err = CL_COMPILE_PROGRAM_FAILURE;
    if (!weft_module_parse(ctx, in->data, in->size, &m, diag))
        goto done;
    if (!weft_spirv_lower(m, opts, diag)) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }
    /* What OpenCL C cannot express on this device either: refuse it here, with a reason,
     * rather than run it wrongly. (Program-scope CrossWorkgroup variables are addrspace(1)
     * globals like clang's and go through compiler/globals.h with them.) */
    bool refused = false;
    static const char *const structors[] = {"llvm.global_ctors", "llvm.global_dtors"};
    for (size_t i = 0; i < 2; i++) {
        LLVMValueRef g = LLVMGetNamedGlobal(m, structors[i]);
        if (g && LLVMGetInitializer(g) && !LLVMIsNull(LLVMGetInitializer(g))) {
            weft_diag_error(diag, "error: the module has program-scope %s, which the device does not support",
                            i ? "destructors" : "constructors (Initializer execution modes)");
            refused = true;
        }
    }
    if (refused)
        goto done;
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        weft_diag_error(diag, "error: the translated SPIR-V module is not valid LLVM IR: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        goto done;
    }
    LLVMDisposeMessage(msg);
    err = weft_module_write(m, out) ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
done:
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return err;
}
