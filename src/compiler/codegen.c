/* compiler/codegen.c — from an optimized module to a callable function.
 *
 * Guarantees: code is generated for the host CPU and its features (never clang's generic
 * "x86-64"); objects are linked by one process-wide ORC LLJIT whose symbol resolution sees
 * the process (libm, libc) and the runtime's printf hooks; a symbol that is already defined
 * (the same variant added twice) is reused, not redefined. The JIT is created on first use
 * and guarded by a lock; everything else here works on caller-owned LLVM objects only.
 */
#include "compiler/codegen.h"

#include <errno.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/printf.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char *host_cpu, *host_features;

static void init_targets(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    host_cpu = LLVMGetHostCPUName();
    host_features = LLVMGetHostCPUFeatures();
}

const char *weft_codegen_host_cpu(void)
{
    pthread_once(&init_once, init_targets);
    return host_cpu ? host_cpu : "x86-64";
}

const char *weft_codegen_host_features(void)
{
    pthread_once(&init_once, init_targets);
    return host_features ? host_features : "";
}

LLVMTargetMachineRef weft_codegen_host_tm(bool optimize, struct weft_diag *diag)
{
    pthread_once(&init_once, init_targets);
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
        weft_diag_error(diag, "error: no LLVM target for %s: %s", triple, msg ? msg : "");
        LLVMDisposeMessage(msg);
        LLVMDisposeMessage(triple);
        return NULL;
    }
    /* PIC + small code model: JITLink resolves external calls through stubs and GOT. */
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, weft_codegen_host_cpu(), weft_codegen_host_features(),
        optimize ? LLVMCodeGenLevelAggressive : LLVMCodeGenLevelLess, LLVMRelocPIC,
        LLVMCodeModelSmall);
    LLVMDisposeMessage(triple);
    if (!tm)
        weft_diag_error(diag, "error: cannot create a target machine for the host CPU '%s'",
                        weft_codegen_host_cpu());
    return tm;
}

void weft_codegen_set_host(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetDataLayout(m, dl);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);

    LLVMContextRef ctx = LLVMGetModuleContext(m);
    const char *cpu = weft_codegen_host_cpu(), *feat = weft_codegen_host_features();
    static const char *const drop[] = {"target-cpu", "target-features", "tune-cpu", "frame-pointer"};
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
            LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, drop[i],
                                             (unsigned)strlen(drop[i]));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, "target-cpu", 10, cpu, (unsigned)strlen(cpu)));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, "target-features", 15, feat,
                                                          (unsigned)strlen(feat)));
        /* x86 turns a vector fdiv that may use a reciprocal (arcp: -cl-fast-relaxed-math,
         * -cl-unsafe-math-optimizations) into rcpps and one Newton step, about 3 ulp; the
         * relaxed bound for x / y is 2.5 ulp (OpenCL-CTS math_brute_force divide, relaxed).
         * A true division, then the multiply arcp allows, stays within it. */
        static const char key[] = "reciprocal-estimates", val[] = "!divf,!vec-divf,!divd,!vec-divd";
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateStringAttribute(ctx, key, sizeof key - 1, val, sizeof val - 1));
    }
}

bool weft_codegen_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm,
                             struct weft_diag *diag)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, pipeline, tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        weft_diag_error(diag, "error: internal: pass pipeline '%s' failed: %s", pipeline, msg);
        LLVMDisposeErrorMessage(msg);
        return false;
    }
    return true;
}

bool weft_module_parse(LLVMContextRef ctx, const void *data, size_t size, LLVMModuleRef *out,
                       struct weft_diag *diag)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(data, size, "weft", 0);
    if (!buf) {
        weft_diag_error(diag, "error: out of memory reading bitcode");
        return false;
    }
    LLVMBool bad = LLVMParseBitcodeInContext2(ctx, buf, out);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        weft_diag_error(diag, "error: invalid or corrupt LLVM bitcode");
        *out = NULL;
        return false;
    }
    return true;
}

bool weft_module_write(LLVMModuleRef m, struct weft_bitcode *out)
{
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!buf)
        return false;
    size_t n = LLVMGetBufferSize(buf);
    out->data = malloc(n ? n : 1);
    if (!out->data) {
        LLVMDisposeMemoryBuffer(buf);
        return false;
    }
    memcpy(out->data, LLVMGetBufferStart(buf), n);
    out->size = n;
    LLVMDisposeMemoryBuffer(buf);
    return true;
}

/* Counts the backend's and the JIT's runs (weft_codegen_use_count). */
static _Atomic uint64_t backend_uses;

uint64_t weft_codegen_use_count(void)
{
    return backend_uses;
}

bool weft_codegen_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef m, struct weft_bitcode *obj,
                              struct weft_diag *diag)
{
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    LLVMBool failed = LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &buf);
    backend_uses++;
    if (failed) {
        weft_diag_error(diag, "error: internal: code generation failed: %s", msg ? msg : "");
        LLVMDisposeMessage(msg);
        return false;
    }
    size_t n = LLVMGetBufferSize(buf);
    obj->data = malloc(n ? n : 1);
    if (!obj->data) {
        LLVMDisposeMemoryBuffer(buf);
        weft_diag_error(diag, "error: out of memory");
        return false;
    }
    memcpy(obj->data, LLVMGetBufferStart(buf), n);
    obj->size = n;
    LLVMDisposeMemoryBuffer(buf);
    return true;
}

/* ---- warming up --------------------------------------------------------------------------- */

/* Vector arithmetic of the shapes the vectorizer emits: a loop over 16-wide floats and ints
 * (fused multiply-add, rotate, compare and select), and vectors wider than a register, which
 * the backend splits. */
static const char warm_up_ir[] =
    "define void @weft_warm_up(ptr %p, ptr %q, i64 %n, float %a) {\n"
    "entry:\n"
    "  %s0 = insertelement <16 x float> poison, float %a, i64 0\n"
    "  %s = shufflevector <16 x float> %s0, <16 x float> poison, <16 x i32> zeroinitializer\n"
    "  %k0 = insertelement <16 x i32> poison, i32 5, i64 0\n"
    "  %k = shufflevector <16 x i32> %k0, <16 x i32> poison, <16 x i32> zeroinitializer\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %pp = getelementptr <16 x float>, ptr %p, i64 %i\n"
    "  %v = load <16 x float>, ptr %pp, align 4\n"
    "  %qq = getelementptr <64 x i32>, ptr %q, i64 %i\n"
    "  %w = load <64 x i32>, ptr %qq, align 4\n"
    "  %f = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %v, <16 x float> %s, <16 x float> %v)\n"
    "  %w16 = shufflevector <64 x i32> %w, <64 x i32> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, "
    "i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>\n"
    "  %r = call <16 x i32> @llvm.fshl.v16i32(<16 x i32> %w16, <16 x i32> %w16, <16 x i32> %k)\n"
    "  %c = fcmp olt <16 x float> %f, %s\n"
    "  %sel = select <16 x i1> %c, <16 x float> %f, <16 x float> %v\n"
    "  %ww = add <64 x i32> %w, %w\n"
    "  store <16 x float> %sel, ptr %pp, align 4\n"
    "  store <64 x i32> %ww, ptr %qq, align 4\n"
    "  store <16 x i32> %r, ptr %qq, align 4\n"
    "  %i1 = add i64 %i, 1\n"
    "  %more = icmp ult i64 %i1, %n\n"
    "  br i1 %more, label %loop, label %exit\n"
    "exit:\n"
    "  ret void\n"
    "}\n"
    "declare <16 x float> @llvm.fmuladd.v16f32(<16 x float>, <16 x float>, <16 x float>)\n"
    "declare <16 x i32> @llvm.fshl.v16i32(<16 x i32>, <16 x i32>, <16 x i32>)\n";

bool weft_codegen_warm_up(void)
{
    struct weft_diag diag = {0};
    LLVMTargetMachineRef tm = weft_codegen_host_tm(true, &diag);
    if (!tm) {
        weft_diag_free(&diag);
        return false;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    /* the parser takes the buffer; the text is copied so that it need not outlive the call */
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(warm_up_ir, sizeof warm_up_ir - 1, "warm-up");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    bool ok = buf && !LLVMParseIRInContext(ctx, buf, &m, &msg);
    LLVMDisposeMessage(msg);
    struct weft_bitcode obj = {0};
    if (ok) {
        weft_codegen_set_host(m, tm);
        ok = weft_codegen_run_passes(m, "default<O3>", tm, &diag) && weft_codegen_emit_object(tm, m, &obj, &diag);
    }
    free(obj.data);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetMachine(tm);
    weft_diag_free(&diag);
    return ok;
}

/* ---- the JIT ----------------------------------------------------------------------------- */

static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef jit;

static void diag_llvm_error(struct weft_diag *diag, const char *what, LLVMErrorRef err)
{
    char *msg = LLVMGetErrorMessage(err);
    weft_diag_error(diag, "error: internal: %s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
}

/* Called with jit_lock held. */
static bool jit_create(struct weft_diag *diag)
{
    if (jit)
        return true;
    pthread_once(&init_once, init_targets);
    LLVMOrcLLJITRef j;
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&j, NULL);
    if (err) {
        diag_llvm_error(diag, "cannot create the JIT", err);
        return false;
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j);
    LLVMOrcDefinitionGeneratorRef gen;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(j),
                                                               NULL, NULL);
    if (err) {
        diag_llvm_error(diag, "cannot create the process symbol generator", err);
        LLVMOrcDisposeLLJIT(j);
        return false;
    }
    LLVMOrcJITDylibAddGenerator(jd, gen);
    /* libm explicitly: when libweft is dlopen'ed RTLD_LOCAL (the ICD loader does), its libm
     * is not visible through the process's global scope. */
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(&gen, "libm.so.6", LLVMOrcLLJITGetGlobalPrefix(j),
                                                            NULL, NULL);
    if (err)
        LLVMConsumeError(err);
    else
        LLVMOrcJITDylibAddGenerator(jd, gen);

    /* The runtime hooks that kernels call: not exported from libweft.so, so given as
     * absolute addresses. */
    struct {
        const char *name;
        void *addr;
    } hooks[] = {
        {WEFT_PRINTF_HOOK, (void *)weft_printf_hook},
        {WEFT_PRINTF_ENTER_HOOK, (void *)weft_printf_hook_enter},
    };
    LLVMOrcCSymbolMapPair pairs[2];
    for (size_t i = 0; i < 2; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j, hooks[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)hooks[i].addr;
        pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, 2);
    err = LLVMOrcJITDylibDefine(jd, mu);
    if (err) {
        diag_llvm_error(diag, "cannot define the runtime hooks", err);
        LLVMOrcDisposeLLJIT(j);
        return false;
    }
    jit = j;
    return true;
}

/* A lookup of a symbol that may not exist; consumes the error. Called with jit_lock held. */
static void *jit_lookup(const char *symbol)
{
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef err = LLVMOrcLLJITLookup(jit, &addr, symbol);
    if (err) {
        LLVMConsumeError(err);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

/* Symbols defined in the JIT so far (a lookup of an unknown symbol would go to the process
 * generator and dlsym, so we remember our own). */
static char **jit_symbols;
static size_t jit_nsymbols, jit_capsymbols;

static bool jit_has(const char *symbol)
{
    for (size_t i = 0; i < jit_nsymbols; i++)
        if (!strcmp(jit_symbols[i], symbol))
            return true;
    return false;
}

bool weft_jit_add_object(const void *obj, size_t size, const char *symbol, void **addr,
                         struct weft_diag *diag)
{
    pthread_mutex_lock(&jit_lock);
    bool ok = false;
    if (!jit_create(diag))
        goto out;
    if (jit_has(symbol)) {
        *addr = jit_lookup(symbol);
        ok = *addr != NULL;
        if (!ok)
            weft_diag_error(diag, "error: internal: JIT symbol '%s' vanished", symbol);
        goto out;
    }
    if (jit_nsymbols == jit_capsymbols) {
        size_t cap = jit_capsymbols ? jit_capsymbols * 2 : 64;
        char **v = realloc(jit_symbols, cap * sizeof *v);
        if (!v) {
            weft_diag_error(diag, "error: out of memory");
            goto out;
        }
        jit_symbols = v;
        jit_capsymbols = cap;
    }
    char *name = strdup(symbol);
    if (!name) {
        weft_diag_error(diag, "error: out of memory");
        goto out;
    }
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, symbol);
    LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), buf);
    backend_uses++;   /* and the lookup below links it */
    if (err) {
        diag_llvm_error(diag, "cannot add the object to the JIT", err);
        free(name);
        goto out;
    }
    jit_symbols[jit_nsymbols++] = name;
    LLVMOrcExecutorAddress a = 0;
    err = LLVMOrcLLJITLookup(jit, &a, symbol);
    if (err) {
        /* Typically an unresolved external symbol of the object. */
        diag_llvm_error(diag, "cannot link the compiled kernel", err);
        goto out;
    }
    *addr = (void *)(uintptr_t)a;
    ok = true;
out:
    pthread_mutex_unlock(&jit_lock);
    return ok;
}

/* ---- WEFT_DUMP ---------------------------------------------------------------------------- */

void weft_dump_module(LLVMModuleRef m, const char *tag, const char *stage)
{
    const char *dir = getenv("WEFT_DUMP");
    if (!dir || !*dir)
        return;
    mkdir(dir, 0755);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s.ll", dir, tag, stage);
    char *msg = NULL;
    if (LLVMPrintModuleToFile(m, path, &msg))
        fprintf(stderr, "weft: WEFT_DUMP: cannot write %s: %s\n", path, msg ? msg : "");
    LLVMDisposeMessage(msg);
}
