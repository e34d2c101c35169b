/* compiler/specialize.c — variants (kernel x local size) of a built program, executable
 * images, and program binaries.
 *
 * Guarantees: a variant is compiled at most once per image and local size (memory cache),
 * reused across processes through the disk cache (compiler/cache.h) when its key matches —
 * the key covers the executable bitcode, -cl-opt-disable (the one build option variants
 * depend on: a program built from source and the same program loaded from its binary share
 * their variants), the kernel, the local size, the host CPU and features, the Weft version
 * and the ABI version — and otherwise compiled in a private LLVMContext, so compiles of
 * different programs run concurrently. WEFT_DUMP=dir gets the IR after the work-group
 * function is built and after optimization.
 */
#include "compiler/specialize.h"

#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/cache.h"
#include "compiler/codegen.h"
#include "compiler/globals.h"
#include "compiler/metadata.h"
#include "compiler/narrowids.h"
#include "compiler/narrowmasks.h"
#include "compiler/printf.h"
#include "compiler/safediv.h"
#include "compiler/prefetch.h"
#include "compiler/scalarize.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/trace.h"
#include "weft/abi.h"

#ifndef WEFT_VERSION_STRING
#define WEFT_VERSION_STRING "0"
#endif

struct weft_variant_entry {
    struct weft_variant_entry *next;
    cl_uint kernel;
    struct weft_variant_spec spec;
    uint64_t local[3];
    /* PENDING while the thread that added it compiles it, outside the image's lock (a launch of
     * another variant does not wait for it; one of this variant waits on weft_image.compiled);
     * FAILED: its last compile failed (a launch that wants it compiles it again, for the log;
     * weft_image_peek_variant says so rather than "not compiled") */
    enum { PENDING, READY, FAILED } state;
    struct weft_compiled_variant v;
};

/* ---- the per-variant pipeline ---------------------------------------------------------- */

/* A work-group function named `symbol` that wraps `fn` (renamed `<symbol>.<suffix>`, internal):
 * returns the wrapper with `b` at the end of its empty entry block, for the caller to add what
 * runs before the call; wrapper_finish then calls `fn` with the wrapper's parameters. */
static LLVMValueRef wrapper_begin(LLVMModuleRef m, LLVMValueRef fn, const char *symbol, const char *suffix,
                                  LLVMBuilderRef b)
{
    char body_name[256];
    snprintf(body_name, sizeof body_name, "%s.%s", symbol, suffix);
    LLVMSetValueName2(fn, body_name, strlen(body_name));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMValueRef w = LLVMAddFunction(m, symbol, LLVMGlobalGetValueType(fn));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(LLVMGetModuleContext(m), w, "entry"));
    return w;
}

static void wrapper_call(LLVMBuilderRef b, LLVMValueRef w, LLVMValueRef fn)
{
    unsigned n = LLVMCountParams(w);
    LLVMValueRef args[8];
    for (unsigned i = 0; i < n && i < 8; i++)
        args[i] = LLVMGetParam(w, i);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* Makes a printing work-group function set the thread's printf sink first: a wrapper named
 * `symbol` calls the enter hook, then the body (`<symbol>.body`). */
static LLVMValueRef wrap_for_printf(LLVMModuleRef m, LLVMValueRef fn, const char *symbol)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef enter_ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &ptr, 1, 0);
    LLVMValueRef enter = LLVMGetNamedFunction(m, WEFT_PRINTF_ENTER_HOOK);
    if (!enter)
        enter = LLVMAddFunction(m, WEFT_PRINTF_ENTER_HOOK, enter_ty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMValueRef w = wrapper_begin(m, fn, symbol, "body", b);
    LLVMValueRef ctx_arg = LLVMGetParam(w, 1);
    LLVMBuildCall2(b, enter_ty, enter, &ctx_arg, 1, "");
    wrapper_call(b, w, fn);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return w;
}

/* -cl-denorms-are-zero: the work-group function `symbol` runs `fn` (`<symbol>.daz`) with the SSE
 * control register's DAZ (denormal inputs read as zero) and FTZ (denormal results flushed) bits
 * set, and restores the register after. The option allows flushing; programs built with it
 * expect it (piglit's amdgcn-f32-inline-immediates adds a denormal constant and wants 0), and
 * pocl flushes too. Clang drops the option for x86, so the runtime does it around each call. */
static LLVMValueRef wrap_flushing_denormals(LLVMModuleRef m, LLVMValueRef fn, const char *symbol)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    static const char st_name[] = "llvm.x86.sse.stmxcsr", ld_name[] = "llvm.x86.sse.ldmxcsr";
    LLVMValueRef st = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID(st_name, sizeof st_name - 1), NULL, 0);
    LLVMValueRef ld = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID(ld_name, sizeof ld_name - 1), NULL, 0);
    LLVMTypeRef csr_ty = LLVMGlobalGetValueType(st);   /* void (ptr), as ldmxcsr's */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMValueRef w = wrapper_begin(m, fn, symbol, "daz", b);
    LLVMValueRef saved = LLVMBuildAlloca(b, i32, "mxcsr.saved"), set = LLVMBuildAlloca(b, i32, "mxcsr.daz");
    LLVMBuildCall2(b, csr_ty, st, &saved, 1, "");
    LLVMValueRef bits = LLVMBuildOr(b, LLVMBuildLoad2(b, i32, saved, ""), LLVMConstInt(i32, 0x8040, 0), "");
    LLVMBuildStore(b, bits, set);
    LLVMBuildCall2(b, csr_ty, ld, &set, 1, "");
    wrapper_call(b, w, fn);
    LLVMBuildCall2(b, csr_ty, ld, &saved, 1, "");
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return w;
}

/* spir_kernel is not a calling convention the x86 backend knows: every kernel left (and
 * each call to one) becomes a plain internal C function. */
static void demote_kernels(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMGetFunctionCallConv(f) != LLVMSPIRKERNELCallConv)
            continue;
        LLVMSetFunctionCallConv(f, LLVMCCallConv);
        if (!LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
        for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (LLVMIsACallInst(user))
                LLVMSetInstructionCallConv(user, LLVMCCallConv);
        }
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv)
            LLVMSetFunctionCallConv(f, LLVMCCallConv);
}

static bool setting_off(const char *s)
{
    return s && (!strcmp(s, "off") || !strcmp(s, "0") || !strcmp(s, "1"));
}

bool weft_vectorize_off(void)
{
    return setting_off(getenv("WEFT_VECTORIZE"));
}

bool weft_vector_parse(const char *s, LLVMValueRef kernel, unsigned *width, unsigned *interleave)
{
    *width = 0;
    *interleave = 0;
    if (setting_off(s))
        return true;
    unsigned w = 0, u = 0;
    if (s && *s && strcmp(s, "auto")) {
        if (sscanf(s, "%ux%u", &w, &u) < 1 || w < 2 || w > 64 || (w & (w - 1)))
            return false;
        *width = w;
        *interleave = u <= 16 ? u : 16;
        return true;
    }
    *width = kernel ? weft_vectorize_target_width(kernel) : 0;
    return true;
}

/* WEFT_VECTORIZE (weft_vector_parse); a value it cannot read is auto. */
void weft_vector_setting(LLVMValueRef kernel, unsigned *width, unsigned *interleave)
{
    if (!weft_vector_parse(getenv("WEFT_VECTORIZE"), kernel, width, interleave))
        weft_vector_parse("auto", kernel, width, interleave);
}

static const char *vector_setting_key(void)
{
    const char *e = getenv("WEFT_VECTORIZE");
    return e && *e ? e : "auto";
}

/* What the vectorizer across work-items did to the variant (WEFT_REPORT's "vectorized"). */
static void vector_account(const struct weft_wg_result *res, const struct weft_wg_options *wopts,
                           const struct weft_variant_spec *spec, struct weft_specialize_result *out)
{
    out->vec_total = res ? res->subcfg_count : 0;
    for (unsigned i = 0; res && res->vec && i < res->subcfg_count; i++) {
        if (res->vec[i].vectorized) {
            if (!out->vec_done++) {
                out->vec_width = res->vec[i].width;
                out->vec_interleave = res->vec[i].interleave;
            }
        } else if (!out->vec_reason[0] && res->vec[i].reason[0]) {
            snprintf(out->vec_reason, sizeof out->vec_reason, "%.119s", res->vec[i].reason);
        }
    }
    if (!out->vec_done && !out->vec_reason[0])
        snprintf(out->vec_reason, sizeof out->vec_reason, "%s",
                 spec->code == WEFT_CODE_SCALAR ? "a scalar variant"
                 : wopts->vector_width <= 1    ? "the vectorizer is off (WEFT_VECTORIZE) or has one lane here"
                                               : "no work-item loop to vectorize");
}

cl_int weft_specialize(const struct weft_bitcode *exe, const char *kernel, const uint64_t local_size[3],
                       bool opt_disable, bool denorms_zero, const struct weft_variant_spec *spec,
                       const char *symbol, struct weft_specialize_result *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    cl_int err = CL_OUT_OF_RESOURCES;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    LLVMTargetMachineRef tm = NULL;
    /* WEFT_DUMP's name: kernel and local size, then what sets this variant apart from the
     * default one (so that the two variants a launch profiles do not overwrite each other) */
    char tag[300];
    char vname[WEFT_VARIANT_NAME_MAX];
    snprintf(tag, sizeof tag, "%s.%llux%llux%llu.%s", kernel, (unsigned long long)local_size[0],
             (unsigned long long)local_size[1], (unsigned long long)local_size[2], weft_variant_name(spec, vname));

    if (!weft_module_parse(ctx, exe->data, exe->size, &m, diag))
        goto done;
    LLVMValueRef k = LLVMGetNamedFunction(m, kernel);
    if (!k || !weft_is_kernel(k)) {
        weft_diag_error(diag, "error: internal: kernel '%s' is missing from the program", kernel);
        goto done;
    }
    tm = weft_codegen_host_tm(!opt_disable, diag);
    if (!tm)
        goto done;
    /* The transformation and its analyses see the host's data layout and CPU. */
    weft_codegen_set_host(m, tm);

    struct weft_wg_options wopts = {0};
    memcpy(wopts.local_size, local_size, sizeof wopts.local_size);
    weft_vector_setting(k, &wopts.vector_width, &wopts.interleave);
    if (spec->code == WEFT_CODE_SCALAR)
        wopts.vector_width = 0;
    if (spec->code == WEFT_CODE_X2 && !wopts.interleave)
        wopts.interleave = 2;
    wopts.sub_group_cap = spec->sub_group_cap;
    wopts.schedule = spec->schedule;
    if (!spec->wide_ids)
        weft_narrow_ids(m);
    weft_hoist_divisions(k);   /* guarded below, with the work-group function (safediv.h) */
    weft_prefetch_grid_strides(k);   /* grid-stride loops, for every variant (prefetch.h) */
    if (wopts.vector_width > 1)
        weft_scalarize_vector_ops(m, k, wopts.vector_width);   /* lanes of components (scalarize.h) */
    struct weft_wg_result res = {0};
    struct weft_diag vdiag;
    weft_diag_init(&vdiag);
    bool built = weft_build_wg_function(m, k, &wopts, &res, wopts.vector_width > 1 ? &vdiag : diag) && res.fn;
    if (!built && wopts.vector_width > 1) {
        /* the vectorizer failed inside (a bug): the scalar work-item loops are always there to
         * fall back on (a failed build leaves the module as it was) */
        weft_log(WEFT_LOG_INFO, "%s: vectorized build failed, using scalar work-item loops: %s", tag,
                 vdiag.text ? vdiag.text : "");
        weft_wg_result_dispose(&res);
        wopts.vector_width = 0;
        built = weft_build_wg_function(m, k, &wopts, &res, diag) && res.fn;
    }
    weft_diag_free(&vdiag);
    if (built && res.schedule_fell_back)
        weft_log(WEFT_LOG_INFO, "%s: breadth-first scheduling left invalid IR (a Weft bug): built depth-first", tag);
    if (built && res.vectorization_skipped && res.vec && res.subcfg_count)
        weft_log(WEFT_LOG_INFO, "%s: %s", tag, res.vec[0].reason);
    for (unsigned i = 0; built && res.vec && i < res.subcfg_count; i++) {
        out->vec_linearized += res.vec[i].vectorized && res.vec[i].linearized;
        out->vec_wide_items += res.vec[i].vectorized && res.vec[i].wide_items;
    }
    vector_account(built ? &res : NULL, &wopts, spec, out);
    out->sub_group_width = built && res.sub_group_width ? res.sub_group_width : 1;
    weft_wg_result_dispose(&res);
    out->bfo_loops = res.schedule.bfo;
    out->votes_bfo = res.schedule.votes_bfo;
    /* a divergent loop always linearizes the vectorized sub-CFG that holds it */
    out->vec_row_walks = out->vec_linearized ? res.schedule.row_walks : 0;
    if (!built) {
        if (!diag->errors)
            weft_diag_error(diag, "error: kernel '%s' cannot be compiled for local size %llu x %llu x %llu",
                            kernel, (unsigned long long)local_size[0], (unsigned long long)local_size[1],
                            (unsigned long long)local_size[2]);
        goto done;
    }
    LLVMValueRef fn = res.fn;
    LLVMSetValueName2(fn, symbol, strlen(symbol));
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    LLVMSetFunctionCallConv(fn, LLVMCCallConv);
    demote_kernels(m);

    /* printf calls were renamed to the runtime's hook at link time (link.c); the work-group
     * function tells the hook where this launch's output goes. */
    LLVMValueRef pf = LLVMGetNamedFunction(m, WEFT_PRINTF_HOOK);
    if (pf && LLVMGetFirstUse(pf))
        fn = wrap_for_printf(m, fn, symbol);
    if (denorms_zero)
        fn = wrap_flushing_denormals(m, fn, symbol);
    /* Everything else is internal so that globaldce and the optimizer may take it apart. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (f != fn && !LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    weft_codegen_set_host(m, tm);   /* again: functions the transformation added */
    weft_guard_divisions(m);
    weft_dump_module(m, tag, "wg-function");

    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        weft_diag_error(diag, "error: internal: work-group function of '%s' is invalid: %s", kernel,
                        msg ? msg : "");
        LLVMDisposeMessage(msg);
        goto done;
    }
    LLVMDisposeMessage(msg);
    if (!weft_codegen_run_passes(m, opt_disable ? "globaldce,function(sroa,instcombine<no-verify-fixpoint>,simplifycfg)"
                                                : "globaldce,default<O3>",
                                 tm, diag))
        goto done;
    if (!opt_disable)
        weft_narrow_masked_memops(m);
    weft_dump_module(m, tag, "optimized");
    if (!weft_codegen_emit_object(tm, m, &out->object, diag))
        goto done;
    out->static_local_size = res.static_local_size;
    out->scratch_size = res.scratch_size;
    err = CL_SUCCESS;
done:
    if (tm)
        LLVMDisposeTargetMachine(tm);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return err;
}

/* With WEFT_DUMP the stages must run to be dumped: cache entries are written, not read. */
static bool dumping(void)
{
    const char *d = getenv("WEFT_DUMP");
    return d && *d;
}

/* ---- whole builds ------------------------------------------------------------------------ */


/* Disk cache of builds: compiler/cache.h (weft_cache_load_build). */
cl_int weft_build_executable(const char *source, const char *options, const struct weft_build_options *opts,
                             struct weft_bitcode *exe, struct weft_diag *diag)
{
    memset(exe, 0, sizeof *exe);
    /* "include" also catches "# include"; __DATE__/__TIME__ change between builds. */
    bool cacheable = !strstr(source, "include") && !strstr(source, "__DATE__") && !strstr(source, "__TIME__") &&
                     !strstr(options ? options : "", "-I");
    uint64_t key = 0;
    if (cacheable) {
        key = weft_hash64(source, strlen(source), 0x6275696c64ull);
        key = weft_hash64(options ? options : "", options ? strlen(options) + 1 : 1, key);
        key = weft_cache_build_key(key, weft_frontend_clang_path());
        if (weft_cache_load_build(key, exe, diag))
            return CL_SUCCESS;
    }
    struct weft_bitcode obj = {0};
    cl_int err = weft_frontend_compile(source, opts, NULL, 0, &obj, diag);
    if (err != CL_SUCCESS)
        return err;
    err = weft_link(&obj, 1, true, opts, exe, diag);
    weft_bitcode_free(&obj);
    if (err != CL_SUCCESS || !cacheable)
        return err;
    weft_cache_store_build(key, exe, diag);
    return CL_SUCCESS;
}

/* ---- images ----------------------------------------------------------------------------- */

/* The program-scope variables' block of `img` (compiler/globals.h), laid out under the host's
 * data layout exactly as weft_specialize's module sees it when transform/locals.c computes the
 * same layout. */
static cl_int create_globals(struct weft_image *img, LLVMModuleRef m, struct weft_diag *diag)
{
    LLVMTargetMachineRef tm = weft_codegen_host_tm(false, diag);
    if (!tm)
        return CL_OUT_OF_HOST_MEMORY;
    weft_codegen_set_host(m, tm);
    LLVMDisposeTargetMachine(tm);
    struct weft_globals_layout l;
    if (!weft_globals_layout_compute(m, &l, diag))
        return CL_LINK_PROGRAM_FAILURE;
    cl_int err = CL_SUCCESS;
    if (l.size) {
        size_t cap = (size_t)weft_round_up(l.size, WEFT_LOCAL_ALIGN);
        img->globals = aligned_alloc(WEFT_LOCAL_ALIGN, cap);
        if (!img->globals) {
            weft_diag_error(diag, "error: out of memory for %llu bytes of program-scope variables",
                            (unsigned long long)l.size);
            err = CL_OUT_OF_HOST_MEMORY;
        } else {
            memset(img->globals, 0, cap);
            img->globals_size = l.size;
            if (!weft_globals_init(m, &l, img->globals, diag)) {
                free(img->globals);
                img->globals = NULL;
                img->globals_size = 0;
                err = CL_LINK_PROGRAM_FAILURE;
            }
        }
    }
    weft_globals_layout_free(&l);
    return err;
}

/* Whether the options string holds `opt` as a whole word. */
static bool has_option(const char *options, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(options, opt); p; p = strstr(p + 1, opt))
        if ((p == options || p[-1] == ' ' || p[-1] == '\t') && (p[n] == 0 || p[n] == ' ' || p[n] == '\t'))
            return true;
    return false;
}

cl_int weft_image_create(struct weft_bitcode *bc, const char *options, bool kernel_arg_info,
                         bool opt_disable, struct weft_image **out, struct weft_diag *diag)
{
    struct weft_image *img = calloc(1, sizeof *img);
    if (!img)
        return CL_OUT_OF_HOST_MEMORY;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m;
    if (!weft_module_parse(ctx, bc->data, bc->size, &m, diag)) {
        LLVMContextDispose(ctx);
        free(img);
        return CL_INVALID_BINARY;
    }
    bool ok = weft_metadata_read(m, kernel_arg_info, &img->kernels, &img->num_kernels, diag);
    cl_int gerr = ok ? create_globals(img, m, diag) : CL_SUCCESS;
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    if (!ok || gerr != CL_SUCCESS) {
        if (ok)
            weft_metadata_free(img->kernels, img->num_kernels);
        free(img);
        return ok ? gerr : CL_INVALID_BINARY;
    }
    img->options = strdup(options ? options : "");
    img->compile_ms = calloc(img->num_kernels ? img->num_kernels : 1, sizeof *img->compile_ms);
    if (!img->options || !img->compile_ms) {
        weft_metadata_free(img->kernels, img->num_kernels);
        free(img->globals);
        free(img->options);
        free(img->compile_ms);
        free(img);
        return CL_OUT_OF_HOST_MEMORY;
    }
    img->bitcode = *bc;
    img->opt_disable = opt_disable;
    img->denorms_zero = has_option(img->options, "-cl-denorms-are-zero");
    img->bitcode_hash = weft_hash64(bc->data, bc->size, 0x77656674);
    pthread_mutex_init(&img->lock, NULL);
    pthread_cond_init(&img->compiled, NULL);
    bc->data = NULL;
    bc->size = 0;
    *out = img;
    return CL_SUCCESS;
}

void weft_image_free(struct weft_image *img)
{
    if (!img)
        return;
    /* JIT'd code stays mapped for the process: another program may share a variant. */
    for (struct weft_variant_entry *e = img->variants, *n; e; e = n) {
        n = e->next;
        free(e);
    }
    weft_metadata_free(img->kernels, img->num_kernels);
    free(img->globals);
    weft_bitcode_free(&img->bitcode);
    free(img->options);
    pthread_mutex_destroy(&img->lock);
    pthread_cond_destroy(&img->compiled);
    free(img->compile_ms);
    free(img);
}

int weft_image_find_kernel(const struct weft_image *img, const char *name)
{
    for (cl_uint i = 0; i < img->num_kernels; i++)
        if (!strcmp(img->kernels[i].name, name))
            return (int)i;
    return -1;
}

static uint64_t variant_key(const struct weft_image *img, const char *kernel, const uint64_t local[3],
                            const struct weft_variant_spec *spec)
{
    uint64_t h = img->bitcode_hash;
    /* the fields one by one: the struct's padding is not part of the name */
    uint32_t fields[4] = {(uint32_t)spec->schedule, (uint32_t)spec->code, spec->wide_ids, spec->sub_group_cap};
    h = weft_hash64(fields, sizeof fields, h);
    /* Of the build options only -cl-opt-disable reaches the variant's compile (the others are in
     * the bitcode already): the options' text would set apart the variants of one executable
     * built from source and then loaded from its binary with other options (hashcat links with
     * none, then builds the binary with its compile options), so a binary would never find
     * the variants its source build left in the disk cache. */
    uint8_t opt_disable = img->opt_disable, denorms_zero = img->denorms_zero;
    h = weft_hash64(&opt_disable, sizeof opt_disable, h);
    if (denorms_zero)   /* hashed only when set: the other variants keep their keys */
        h = weft_hash64(&denorms_zero, sizeof denorms_zero, h);
    h = weft_hash64(kernel, strlen(kernel) + 1, h);
    h = weft_hash64(local, 3 * sizeof local[0], h);
    const char *vec = vector_setting_key();
    h = weft_hash64(vec, strlen(vec) + 1, h);
    const char *cpu = weft_codegen_host_cpu(), *feat = weft_codegen_host_features();
    h = weft_hash64(cpu, strlen(cpu) + 1, h);
    h = weft_hash64(feat, strlen(feat) + 1, h);
    h = weft_hash64(WEFT_VERSION_STRING, sizeof WEFT_VERSION_STRING, h);
    uint32_t abi = WEFT_ABI_VERSION;
    h = weft_hash64(&abi, sizeof abi, h);
    uint64_t id = weft_cache_build_identity();
    h = weft_hash64(&id, sizeof id, h);
    return h;
}

/* Disk payload: this header (what the variant's build found), then the object. */
struct payload_header {
    uint64_t static_local_size;
    uint64_t scratch_size;
    uint32_t bfo_loops, votes_bfo, vec_linearized, sub_group_width;
    uint32_t vec_row_walks;
    uint32_t vec;          /* VEC_KNOWN | sub-CFGs vectorized | all << 8 | lanes << 16 | packets << 24,
                              for WEFT_REPORT (0: not known) */
    uint32_t compile_ms;   /* what compiling it took (0: not known) */
    uint32_t vec_wide_items;
};

/* What compiling one of the kernel's variants costs, from one compile (weft_image_compile_ms):
 * a variant of one work-item vectorizes nothing, so what vectorizing the kernel would cost is
 * counted as ONE_ITEM_FACTOR times its compile (hashcat's MD5 compiled in 214 ms at one
 * work-item, 146 ms as scalar code at 16, 5.2 s vectorized at 16, on the 2-core Sapphire Rapids
 * VM): without it the kernel counted as quick to compile until its first vectorized compile,
 * which its launch then waited for. */
#define ONE_ITEM_FACTOR 8u

static uint32_t compile_estimate(uint32_t compile_ms, const uint64_t local_size[3],
                                 const struct weft_variant_spec *spec)
{
    bool one_item = local_size[0] * local_size[1] * local_size[2] == 1;
    uint64_t est = (uint64_t)compile_ms * (one_item && spec->code == WEFT_CODE_VECTOR ? ONE_ITEM_FACTOR : 1);
    return est > UINT32_MAX ? UINT32_MAX : (uint32_t)est;
}

#define VEC_KNOWN 0x80000000u

static uint32_t vec_pack(const struct weft_specialize_result *r)
{
    uint32_t c = (r->vec_done > 255 ? 255 : r->vec_done) | (r->vec_total > 255 ? 255 : r->vec_total) << 8;
    return VEC_KNOWN | c | (r->vec_width & 0xffu) << 16 | (r->vec_interleave & 0x7fu) << 24;
}

/* The registry of compiled variants (util/trace.h): WEFT_TRACE and WEFT_REPORT name code by it. */
static void note_variant(const struct weft_image *img, cl_uint k, const uint64_t local[3],
                         const struct weft_variant_spec *spec, const void *fn, uint32_t vec, const char *reason)
{
    struct weft_trace_variant v;
    memset(&v, 0, sizeof v);
    v.fn = fn;
    snprintf(v.kernel, sizeof v.kernel, "%s", img->kernels[k].name);
    weft_variant_name(spec, v.variant);
    memcpy(v.local, local, sizeof v.local);
    v.vec_known = vec & VEC_KNOWN;
    v.vec_done = vec & 0xffu;
    v.vec_total = vec >> 8 & 0xffu;
    v.vec_width = vec >> 16 & 0xffu;
    v.vec_interleave = vec >> 24 & 0x7fu;
    snprintf(v.vec_reason, sizeof v.vec_reason, "%s", reason ? reason : "");
    weft_trace_note_variant(&v);
}

bool weft_variant_needs_wide_ids(unsigned work_dim, const uint64_t offset[3], const uint64_t global[3])
{
    for (unsigned d = 0; d < work_dim && d < 3; d++)
        if (offset[d] > WEFT_NARROW_ID_LIMIT || global[d] > WEFT_NARROW_ID_LIMIT - offset[d])
            return true;
    return false;
}

static struct weft_variant_entry *find_entry(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                                             const struct weft_variant_spec *spec)
{
    for (struct weft_variant_entry *e = img->variants; e; e = e->next)
        if (e->kernel == k && weft_variant_equal(&e->spec, spec) && !memcmp(e->local, local_size, sizeof e->local))
            return e;
    return NULL;
}

/* Called with img->lock held: unlinks the pending entry `e` (it was not in the disk cache and
 * compiling was not allowed) and wakes the launches that waited for it. */
static void drop_pending(struct weft_image *img, struct weft_variant_entry *e)
{
    for (struct weft_variant_entry **p = &img->variants; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    free(e);
    pthread_cond_broadcast(&img->compiled);
}

/* weft_image_get_variant and weft_image_peek_variant. The variant is compiled without the
 * image's lock (a pending entry stands for it meanwhile), so that a launch of a variant already
 * built does not wait seconds behind the compile of another (runtime/compile_ahead.h). */
static cl_int get_variant(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                          const struct weft_variant_spec *spec, bool compile, struct weft_compiled_variant *out,
                          struct weft_diag *diag)
{
    if (k >= img->num_kernels)
        return CL_INVALID_KERNEL;
    pthread_mutex_lock(&img->lock);
    struct weft_variant_entry *e;
    while ((e = find_entry(img, k, local_size, spec)) && e->state == PENDING) {
        if (!compile) {
            pthread_mutex_unlock(&img->lock);
            return WEFT_VARIANT_NOT_COMPILED;
        }
        pthread_cond_wait(&img->compiled, &img->lock);
    }
    if (e && (e->state == READY || !compile)) {
        cl_int r = e->state == READY ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
        if (r == CL_SUCCESS)
            *out = e->v;
        pthread_mutex_unlock(&img->lock);
        return r;
    }
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e) {
            pthread_mutex_unlock(&img->lock);
            return CL_OUT_OF_HOST_MEMORY;
        }
        e->kernel = k;
        e->spec = *spec;
        memcpy(e->local, local_size, sizeof e->local);
        e->next = img->variants;
        img->variants = e;
    }
    e->state = PENDING;
    pthread_mutex_unlock(&img->lock);

    const char *name = img->kernels[k].name;
    uint64_t key = variant_key(img, name, local_size, spec);
    char symbol[64];
    snprintf(symbol, sizeof symbol, "weft_wg_%016llx", (unsigned long long)key);

    const uint64_t t_compile = weft_trace_enabled ? weft_now_ns() : 0;
    bool from_disk = false;
    struct payload_header ph;
    void *payload = NULL;
    size_t psize = 0;
    const void *obj = NULL;
    size_t obj_size = 0;
    cl_int err = CL_SUCCESS;
    struct weft_specialize_result sr = {0};
    void *addr = NULL;
    if (!dumping() && weft_cache_load(key, &payload, &psize) && psize > sizeof ph) {
        memcpy(&ph, payload, sizeof ph);
        obj = (const char *)payload + sizeof ph;
        obj_size = psize - sizeof ph;
        from_disk = true;
    } else if (!compile) {
        err = WEFT_VARIANT_NOT_COMPILED;
        goto done;
    } else {
        free(payload);
        payload = NULL;
        uint64_t t0 = weft_now_ns();
        err = weft_specialize(&img->bitcode, name, local_size, img->opt_disable, img->denorms_zero, spec, symbol,
                              &sr, diag);
        if (err != CL_SUCCESS)
            goto done;
        memset(&ph, 0, sizeof ph);
        ph.static_local_size = sr.static_local_size;
        ph.scratch_size = sr.scratch_size;
        ph.bfo_loops = sr.bfo_loops;
        ph.votes_bfo = sr.votes_bfo;
        ph.vec_linearized = sr.vec_linearized;
        ph.vec_row_walks = sr.vec_row_walks;
        ph.vec_wide_items = sr.vec_wide_items;
        ph.sub_group_width = sr.sub_group_width;
        ph.vec = vec_pack(&sr);
        uint64_t ms = (weft_now_ns() - t0) / 1000000u;
        ph.compile_ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
        char vname[WEFT_VARIANT_NAME_MAX];
        weft_log(WEFT_LOG_DEBUG, "%s: compiled %s for local size %llux%llux%llu in %llu ms", name,
                 weft_variant_name(spec, vname), (unsigned long long)local_size[0],
                 (unsigned long long)local_size[1], (unsigned long long)local_size[2], (unsigned long long)ms);
        obj = sr.object.data;
        obj_size = sr.object.size;
        payload = malloc(sizeof ph + obj_size);
        if (payload) {
            memcpy(payload, &ph, sizeof ph);
            memcpy((char *)payload + sizeof ph, obj, obj_size);
            weft_cache_store(key, payload, sizeof ph + obj_size);
        }
    }
    if (!weft_jit_add_object(obj, obj_size, symbol, &addr, diag))
        err = CL_OUT_OF_RESOURCES;
done:
    pthread_mutex_lock(&img->lock);
    if (err == WEFT_VARIANT_NOT_COMPILED) {
        drop_pending(img, e);
    } else if (err != CL_SUCCESS) {
        e->state = FAILED;
        pthread_cond_broadcast(&img->compiled);
    } else {
        e->v.fn = (void (*)(const void *, const void *, uint64_t, uint64_t))addr;
        e->v.static_local_size = ph.static_local_size;
        e->v.scratch_size = ph.scratch_size;
        e->v.bfo_loops = ph.bfo_loops;
        e->v.votes_bfo = ph.votes_bfo;
        e->v.vec_linearized = ph.vec_linearized;
        e->v.vec_row_walks = ph.vec_row_walks;
        e->v.vec_wide_items = ph.vec_wide_items;
        e->v.sub_group_width = ph.sub_group_width ? ph.sub_group_width : 1;
        e->v.key = key;
        e->state = READY;
        uint32_t est = compile_estimate(ph.compile_ms, local_size, spec);
        if (est > img->compile_ms[k])   /* raised under the lock, read without it */
            img->compile_ms[k] = est;
        *out = e->v;
        pthread_cond_broadcast(&img->compiled);
    }
    pthread_mutex_unlock(&img->lock);
    if (err == CL_SUCCESS && (weft_trace_enabled || weft_report_enabled))
        note_variant(img, k, local_size, spec, addr, ph.vec, from_disk ? NULL : sr.vec_reason);
    if (weft_trace_enabled && err != WEFT_VARIANT_NOT_COMPILED) {
        char vn[WEFT_VARIANT_NAME_MAX];
        weft_trace_record(WEFT_TRACE_COMPILE, 0, t_compile, weft_now_ns() - t_compile, name,
                          err ? "failed" : weft_variant_name(spec, vn), local_size[0], local_size[1], local_size[2],
                          from_disk);
    }
    free(payload);
    weft_bitcode_free(&sr.object);
    return err;
}

cl_int weft_image_get_variant(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                              const struct weft_variant_spec *spec, struct weft_compiled_variant *out,
                              struct weft_diag *diag)
{
    return get_variant(img, k, local_size, spec, true, out, diag);
}

cl_int weft_image_peek_variant(struct weft_image *img, cl_uint k, const uint64_t local_size[3],
                               const struct weft_variant_spec *spec, struct weft_compiled_variant *out)
{
    struct weft_diag diag;
    weft_diag_init(&diag);
    cl_int err = get_variant(img, k, local_size, spec, false, out, &diag);
    weft_diag_free(&diag);
    return err;
}

uint32_t weft_image_compile_ms(struct weft_image *img, cl_uint k)
{
    /* every launch asks (runtime/compile_ahead.h): one atomic load, no lock */
    return k < img->num_kernels ? img->compile_ms[k] : 0;
}

/* ---- program binaries -------------------------------------------------------------------- */

#define BINARY_MAGIC "WEFTPRG\x01"
#define BINARY_FORMAT 1u

struct binary_header {
    char magic[8];
    uint32_t format;
    uint32_t abi;
    uint32_t type;
    uint32_t options_len;
    uint64_t bitcode_len;
    uint64_t checksum;     /* of options + bitcode */
};

cl_int weft_binary_write(cl_program_binary_type type, const char *options,
                         const struct weft_bitcode *bc, unsigned char **out, size_t *out_size)
{
    size_t olen = options ? strlen(options) : 0;
    size_t n = sizeof(struct binary_header) + olen + bc->size;
    unsigned char *p = malloc(n);
    if (!p)
        return CL_OUT_OF_HOST_MEMORY;
    struct binary_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, BINARY_MAGIC, 8);
    h.format = BINARY_FORMAT;
    h.abi = WEFT_ABI_VERSION;
    h.type = (uint32_t)type;
    h.options_len = (uint32_t)olen;
    h.bitcode_len = bc->size;
    memcpy(p + sizeof h, options ? options : "", olen);
    memcpy(p + sizeof h + olen, bc->data, bc->size);
    h.checksum = weft_hash64(p + sizeof h, olen + bc->size, 0x62696e);
    memcpy(p, &h, sizeof h);
    *out = p;
    *out_size = n;
    return CL_SUCCESS;
}

cl_int weft_binary_read(const unsigned char *data, size_t size, cl_program_binary_type *type,
                        char **options, struct weft_bitcode *bc)
{
    struct binary_header h;
    if (!data || size < sizeof h)
        return CL_INVALID_BINARY;
    memcpy(&h, data, sizeof h);
    if (memcmp(h.magic, BINARY_MAGIC, 8) || h.format != BINARY_FORMAT || h.abi != WEFT_ABI_VERSION)
        return CL_INVALID_BINARY;
    if (h.type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && h.type != CL_PROGRAM_BINARY_TYPE_LIBRARY &&
        h.type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
        return CL_INVALID_BINARY;
    if ((uint64_t)size - sizeof h != (uint64_t)h.options_len + h.bitcode_len || h.bitcode_len == 0)
        return CL_INVALID_BINARY;
    if (weft_hash64(data + sizeof h, size - sizeof h, 0x62696e) != h.checksum)
        return CL_INVALID_BINARY;
    char *o = malloc(h.options_len + 1);
    unsigned char *b = malloc((size_t)h.bitcode_len);
    if (!o || !b) {
        free(o);
        free(b);
        return CL_OUT_OF_HOST_MEMORY;
    }
    memcpy(o, data + sizeof h, h.options_len);
    o[h.options_len] = 0;
    memcpy(b, data + sizeof h + h.options_len, (size_t)h.bitcode_len);
    *type = h.type;
    *options = o;
    bc->data = b;
    bc->size = (size_t)h.bitcode_len;
    return CL_SUCCESS;
}
