/* compiler/link.c — links a program's objects, and for an executable the builtin library,
 * then flattens and checks the result.
 *
 * Guarantees for an executable: every function but the kernels is internal and inlined into
 * the kernels (so barriers are visible in the kernel bodies, as transform/wgfunction.h
 * assumes), unused code is gone, and a conservative simplification has run (sroa, early-cse,
 * instcombine, simplifycfg: none duplicates a convergent call; no loop pass runs here). The
 * build fails, with one clear line per problem in the log, for: calls to functions that are
 * defined nowhere (other than the work-item functions and barriers, printf, and C library
 * functions the process provides), recursion (a cycle in the call graph), and kernel
 * arguments that cannot be passed. Only the builtins a program uses are linked (they are
 * made linkonce_odr first, which the IR linker pulls in on demand).
 */
#define _GNU_SOURCE
#include "compiler/compiler.h"

#include <dlfcn.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/arglayout.h"
#include "compiler/codegen.h"
#include "compiler/metadata.h"
#include "compiler/printf.h"
#include "compiler/transform/subgroup.h"
#include "compiler/transform/wgcollective.h"

extern const char weft_builtins_bc_start[], weft_builtins_bc_end[];

/* Functions the work-group transformation and the runtime provide. */
static const char *const provided[] = {
    "_Z13get_global_idj", "_Z12get_local_idj", "_Z12get_group_idj", "_Z14get_local_sizej",
    "_Z15get_global_sizej", "_Z14get_num_groupsj", "_Z12get_work_dimv", "_Z17get_global_offsetj",
    "_Z23get_enqueued_local_sizej", "_Z20get_global_linear_idv", "_Z19get_local_linear_idv",
    "_Z7barrierj", "_Z18work_group_barrierj", "_Z18work_group_barrierj12memory_scope", "printf",
    WEFT_PRINTF_HOOK,
    /* generic address space queries (transform/workitem.c) */
    "__to_global", "__to_local", "__to_private", "_Z9get_fencePU9CLgenericv", "_Z9get_fencePU9CLgenericKv",
};

static bool is_provided(const char *name)
{
    for (size_t i = 0; i < sizeof provided / sizeof provided[0]; i++)
        if (!strcmp(name, provided[i]))
            return true;
    /* the sub-group built-ins are lowered by the work-group passes (transform/subgroup.h) */
    if (weft_subgroup_by_name(name, strlen(name)).kind != WEFT_SG_NONE)
        return true;
    /* and so are the work-group collectives (transform/wgcollective.c) */
    if (weft_wg_collective_by_name(name, strlen(name)).kind != WEFT_SG_NONE)
        return true;
    if (!strncmp(name, "llvm.", 5))
        return true;
    /* C library functions (libm) the builtins call: resolvable in this process. Mangled
     * OpenCL names never are, so a missing builtin is still reported. */
    if (!strncmp(name, "_Z", 2))
        return false;
    if (dlsym(RTLD_DEFAULT, name))
        return true;
    /* libweft may be dlopen'ed RTLD_LOCAL (by the ICD loader): its libm is then not in the
     * global scope, but the JIT resolves through it explicitly (codegen.c). */
    void *libm = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
    bool found = libm && dlsym(libm, name);
    if (libm)
        dlclose(libm);
    return found;
}

static const char *fn_name(LLVMValueRef f)
{
    size_t n;
    return LLVMGetValueName2(f, &n);
}

static LLVMValueRef called_function(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    return callee && LLVMIsAFunction(callee) ? callee : NULL;
}

/* ---- recursion --------------------------------------------------------------------------- */

enum { WHITE = 0, GREY = 1, BLACK = 2 };

struct dfs {
    LLVMValueRef *fns;     /* defined functions */
    unsigned char *color;
    size_t n;
    LLVMValueRef *stack;
    size_t depth;
    bool found;
    struct weft_diag *diag;
};

static size_t fn_index(struct dfs *d, LLVMValueRef f)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->fns[i] == f)
            return i;
    return (size_t)-1;
}

static void dfs_visit(struct dfs *d, size_t i)
{
    if (d->found)
        return;
    d->color[i] = GREY;
    d->stack[d->depth++] = d->fns[i];
    LLVMValueRef f = d->fns[i];
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !d->found; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !d->found; in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsACallInst(in))
                continue;
            LLVMValueRef callee = called_function(in);
            if (!callee || LLVMIsDeclaration(callee))
                continue;
            size_t j = fn_index(d, callee);
            if (j == (size_t)-1)
                continue;
            if (d->color[j] == GREY) {
                /* print the cycle: from callee's position in the stack to here */
                char line[2048];
                size_t len = (size_t)snprintf(line, sizeof line, "error: recursion is not supported "
                                                                  "in OpenCL C: ");
                size_t start = 0;
                while (start < d->depth && d->stack[start] != callee)
                    start++;
                for (size_t s = start; s < d->depth && len < sizeof line - 1; s++)
                    len += (size_t)snprintf(line + len, sizeof line - len, "%s -> ", fn_name(d->stack[s]));
                if (len < sizeof line - 1)
                    snprintf(line + len, sizeof line - len, "%s", fn_name(callee));
                weft_diag_error(d->diag, "%s", line);
                d->found = true;
                return;
            }
            if (d->color[j] == WHITE)
                dfs_visit(d, j);
        }
    }
    d->depth--;
    d->color[i] = BLACK;
}

static bool check_recursion(LLVMModuleRef m, struct weft_diag *diag)
{
    struct dfs d = {.diag = diag};
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        d.n += !LLVMIsDeclaration(f);
    if (!d.n)
        return true;
    d.fns = calloc(d.n, sizeof *d.fns);
    d.color = calloc(d.n, 1);
    d.stack = calloc(d.n + 1, sizeof *d.stack);
    if (!d.fns || !d.color || !d.stack) {
        free(d.fns);
        free(d.color);
        free(d.stack);
        weft_diag_error(diag, "error: out of memory");
        return false;
    }
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            d.fns[i++] = f;
    for (i = 0; i < d.n && !d.found; i++)
        if (d.color[i] == WHITE)
            dfs_visit(&d, i);
    free(d.fns);
    free(d.color);
    free(d.stack);
    return !d.found;
}

/* ---- undefined functions ------------------------------------------------------------------ */

static bool check_undefined(LLVMModuleRef m, struct weft_diag *diag)
{
    bool ok = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f))
            continue;
        const char *name = fn_name(f);
        if (is_provided(name))
            continue;
        /* name the first caller, to point the user at the kernel */
        const char *caller = NULL;
        for (LLVMUseRef u = LLVMGetFirstUse(f); u && !caller; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (LLVMIsAInstruction(user))
                caller = fn_name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
        }
        if (caller)
            weft_diag_error(diag, "error: function '%s' (called from '%s') is not defined", name, caller);
        else
            weft_diag_error(diag, "error: function '%s' is not defined", name);
        ok = false;
    }
    /* `extern global int x;` must be defined by one of the linked programs (OpenCL C 6.8) */
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (!LLVMIsDeclaration(g) || !LLVMGetFirstUse(g))
            continue;
        weft_diag_error(diag, "error: program-scope variable '%s' is declared but defined in none of the "
                              "linked programs", fn_name(g));
        ok = false;
    }
    return ok;
}

/* ---- flattening ------------------------------------------------------------------------- */

static void prepare_inlining(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
        if (weft_is_kernel(f))
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
}

/* A kernel called from another kernel must stay a kernel (it is also enqueued) and be
 * inlined where it is called. */
static void inline_called_kernels(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!weft_is_kernel(f))
            continue;
        bool called = false;
        for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
            if (LLVMIsACallInst(LLVMGetUser(u)))
                called = true;
        if (called) {
            LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
        }
    }
}

/* Builtin definitions become linkonce_odr so the linker takes only those a program uses
 * (and a program's own definition of a same-named function wins). */
static void make_builtins_lazy(LLVMModuleRef b)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(b); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
            LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(b); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
            LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
}

static bool check_kernel_args(LLVMModuleRef m, struct weft_diag *diag)
{
    bool ok = true;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!weft_is_kernel(f))
            continue;
        struct weft_arg_layout layout;
        if (!weft_arglayout_compute(f, &layout, diag)) {
            ok = false;
            continue;
        }
        weft_arglayout_free(&layout);
    }
    return ok;
}

cl_int weft_link(const struct weft_bitcode *inputs, size_t n, bool executable,
                 const struct weft_build_options *opts, struct weft_bitcode *out,
                 struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, weft_diag_llvm_handler, diag);
    LLVMModuleRef dst = NULL;
    cl_int err = CL_LINK_PROGRAM_FAILURE;

    for (size_t i = 0; i < n; i++) {
        LLVMModuleRef m;
        if (!weft_module_parse(ctx, inputs[i].data, inputs[i].size, &m, diag))
            goto done;
        if (!dst) {
            dst = m;
            continue;
        }
        if (LLVMLinkModules2(dst, m)) {   /* m is destroyed either way */
            if (!diag->errors)
                weft_diag_error(diag, "error: linking the program's objects failed");
            goto done;
        }
    }
    if (!dst) {
        dst = LLVMModuleCreateWithNameInContext("weft-empty", ctx);
        LLVMSetTarget(dst, "x86_64-unknown-linux-gnu");
    }
    char tag[64];
    snprintf(tag, sizeof tag, "program-%016llx",
             (unsigned long long)(n ? weft_hash64(inputs[0].data, inputs[0].size, n) : 0));
    if (executable) {
        weft_dump_module(dst, tag, "frontend");
        /* Lazily: only the bodies the linker pulls in are read from the (large) library. */
        LLVMModuleRef b;
        size_t bsize = (size_t)(weft_builtins_bc_end - weft_builtins_bc_start);
        LLVMMemoryBufferRef bbuf = LLVMCreateMemoryBufferWithMemoryRange(weft_builtins_bc_start, bsize,
                                                                         "weft-builtins", 0);
        if (LLVMGetBitcodeModuleInContext2(ctx, bbuf, &b)) {
            LLVMDisposeMemoryBuffer(bbuf);
            weft_diag_error(diag, "error: internal: the builtin library cannot be read");
            goto done;
        }
        make_builtins_lazy(b);
        if (LLVMLinkModules2(dst, b)) {
            if (!diag->errors)
                weft_diag_error(diag, "error: linking the builtin library failed");
            goto done;
        }
        /* printf becomes the runtime's hook now, before any pass: LLVM's library-call
         * simplification would otherwise turn printf("x\n") into puts/putchar, which write
         * to stdout directly (unordered, outside the launch) and drop the address space. */
        LLVMValueRef pf = LLVMGetNamedFunction(dst, "printf");
        if (pf && LLVMIsDeclaration(pf))
            LLVMSetValueName2(pf, WEFT_PRINTF_HOOK, strlen(WEFT_PRINTF_HOOK));
        prepare_inlining(dst);
        inline_called_kernels(dst);
        /* drop what no kernel reaches before judging it */
        if (!weft_codegen_run_passes(dst, "globaldce", NULL, diag))
            goto done;
        bool ok = check_recursion(dst, diag);
        ok = check_undefined(dst, diag) && ok;
        ok = check_kernel_args(dst, diag) && ok;
        if (!ok)
            goto done;
        if (!weft_codegen_run_passes(dst, "always-inline,globaldce", NULL, diag))
            goto done;
        if (!weft_codegen_run_passes(dst, "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)", NULL, diag))
            goto done;
        weft_dump_module(dst, tag, "linked");
    }
    char *msg = NULL;
    if (LLVMVerifyModule(dst, LLVMReturnStatusAction, &msg)) {
        weft_diag_error(diag, "error: internal: the linked program is invalid: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        goto done;
    }
    LLVMDisposeMessage(msg);
    if (!weft_module_write(dst, out)) {
        err = CL_OUT_OF_HOST_MEMORY;
        goto done;
    }
    err = CL_SUCCESS;
done:
    if (dst)
        LLVMDisposeModule(dst);
    LLVMContextDispose(ctx);
    (void)opts;
    return err;
}
