/* tools/weft-opt — runs Weft's compiler passes on one .ll/.bc file and prints the module (what
 * the lit tests drive, like LLVM's opt).
 *
 *   weft-opt -pass=NAME[,NAME...] [-local-size=X[,Y[,Z]]] [-kernel=NAME] [-vectorize=V]
 *            [-schedule=S] in.ll|in.bc
 *
 * -vectorize=off (default) | auto | W | WxU: the vectorizer across work-items (vectorize.h) for
 * the wg-loops and wg-function stages; auto takes W from the kernel's target-cpu/-features
 * attributes. A "; weft-vec:" line per sub-CFG says what it did, a "; weft-subgroups:" line the
 * sub-group size of a kernel that calls sub-group built-ins (transform/subgroup.h).
 * -schedule=dfo (default) | auto | bfo: which loops run breadth-first (transform/schedule.h),
 * from the lower-workitem stage on; a "; weft-schedule:" line per loop says what it decided.
 *
 * Passes, applied in the order given, each to the selected kernels (every function with
 * !kernel_arg_addr_space metadata or the spir_kernel convention, or the one -kernel= names):
 *   canonicalize-barriers   on the kernel itself
 *   unroll-barrier-loops    on the kernel itself (trip counts must be constants already)
 *   unroll-row-walks        on the kernel itself (loops in which each work-item reads a row)
 *   form-subcfgs, privatize, wg-loops, layout-locals, lower-wg-collectives, lower-workitem,
 *   work-function
 *                           the work-group pipeline up to and including that stage; the
 *                           intermediate work function weft_wi_<kernel> is left in the module
 *   wg-function             the whole pipeline: weft_wg_<kernel> per weft/abi.h
 *   drop-kernels            deletes every kernel (what the driver does afterwards)
 *   guard-divisions         integer divisions that cannot trap, on the module (safediv.h)
 *   hoist-divisions         each kernel's divisions moved to their operands' definitions (safediv.h)
 *   scalarize-vector-ops    a work-item's vector arithmetic split into components, on the module,
 *                           unless a kernel holds a vector of -vectorize's W x 32 bits (scalarize.h;
 *                           nothing with -vectorize=off)
 *   prefetch-grid-strides   software prefetches for each kernel's grid-stride loops (prefetch.h)
 *   narrow-masked-memops    masked loads and stores of a constant run of lanes as plain ones, on the
 *                           module (narrowmasks.h: what the driver does after optimizing)
 *   llvm:<pipeline>         LLVMRunPasses with that pipeline string, on the module
 *   print-<analysis>        analysis/print.h dump of the selected kernels (cfg, dominators,
 *                           loops, liveness, shapes, locality, locality-precise, access);
 *                           when last, only the dumps are printed
 *   print-subcfg-<analysis> the same dump (cfg, dominators, loops) of each barrier-free
 *                           sub-CFG of the kernel (analysis/cfg.h's sub-CFG mode), after
 *                           canonicalize-barriers; it names the barrier blocks barrier<i>
 * The result goes to stdout; errors to stderr, exit status 1. After the wg-function stages a
 * comment line "; weft: <kernel> static_local_size=N scratch_size=M [subcfgs=.. arrays=..
 * uniform_slots=.. recomputed=.. affine_bases=..]" is printed first (the counts from form-subcfgs on).
 */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/analysis/print.h"
#include "compiler/diag.h"
#include "compiler/narrowids.h"
#include "compiler/narrowmasks.h"
#include "compiler/safediv.h"
#include "compiler/prefetch.h"
#include "compiler/scalarize.h"
#include "compiler/specialize.h"
#include "compiler/transform/passes.h"
#include "compiler/transform/wgfunction.h"

static void usage(void)
{
    fprintf(stderr, "usage: weft-opt -pass=NAME[,NAME...] [-local-size=X,Y,Z] [-kernel=NAME] in.ll|in.bc\n"
                    "passes: canonicalize-barriers unroll-barrier-loops unroll-row-walks work-function lower-workitem layout-locals form-subcfgs\n"
                    "        privatize wg-loops wg-function drop-kernels guard-divisions hoist-divisions narrow-ids\n"
                    "        scalarize-vector-ops prefetch-grid-strides narrow-masked-memops llvm:<pipeline>\n"
                    "        print-<analysis>\n"
                    "analyses: cfg dominators loops liveness shapes locality locality-precise access\n");
}

static bool is_kernel(LLVMValueRef f)
{
    if (LLVMIsDeclaration(f))
        return false;
    if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv)
        return true;
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    unsigned kind = LLVMGetMDKindIDInContext(c, "kernel_arg_addr_space", 21);
    size_t n = 0;
    LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(f, &n);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found |= LLVMValueMetadataEntriesGetKind(e, (unsigned)i) == kind;
    if (e)
        LLVMDisposeValueMetadataEntries(e);
    return found;
}

/* "; weft-vec: k subcfg 0: width 16 interleave 1 tail linearized wide_items vector_mem=2 ..." */
static void print_vec_report(FILE *f, const char *kn, size_t n, unsigned s, const struct weft_vec_report *v)
{
    fprintf(f, "; weft-vec: %.*s subcfg %u: ", (int)n, kn, s);
    if (!v->vectorized) {
        fprintf(f, "scalar (%s)\n", v->reason);
        return;
    }
    fprintf(f, "width %u interleave %u%s%s%s vector_mem=%u scalar_mem=%u gathers=%u serialized=%u masked_blocks=%u choices=%u"
               " row_groups=%u remat=%u\n",
            v->width, v->interleave, v->linearized ? " linearized" : "", v->tail ? " tail" : "",
            v->wide_items ? " wide_items" : "", v->vector_mem,
            v->scalar_mem, v->gathers, v->serialized, v->masked_blocks, v->choices, v->row_groups, v->remat);
}

/* "; weft-schedule: k loop for.cond: bfo 3 dfo 0 neutral 1 -> BFO predicated" */
static void print_schedule(FILE *f, const char *kn, size_t n, const struct weft_schedule_loop *l)
{
    fprintf(f, "; weft-schedule: %.*s loop %s: bfo %u dfo %u neutral %u -> %s%s%s%s%s\n", (int)n, kn, l->header,
            l->votes_bfo, l->votes_dfo, l->votes_neutral, l->bfo ? "BFO" : "DFO", l->predicated ? " predicated" : "",
            l->note ? " (" : "", l->note ? l->note : "", l->note ? ")" : "");
}

static const struct {
    const char *name;
    enum weft_wg_stage stage;
} stages[] = {
    {"work-function", WEFT_WG_STAGE_WORKFN},   {"lower-workitem", WEFT_WG_STAGE_WORKITEM},
    {"lower-wg-collectives", WEFT_WG_STAGE_COLLECTIVES},
    {"layout-locals", WEFT_WG_STAGE_LOCALS},   {"form-subcfgs", WEFT_WG_STAGE_SUBCFGS},
    {"privatize", WEFT_WG_STAGE_PRIVATIZE},    {"wg-loops", WEFT_WG_STAGE_WGLOOPS},
    {"wg-function", WEFT_WG_STAGE_ALL},
};

int main(int argc, char **argv)
{
    const char *passes = NULL, *kernel_name = NULL, *input = NULL, *vectorize = "off";
    enum weft_schedule_mode schedule = WEFT_SCHEDULE_DFO;
    struct weft_wg_options opts = {.local_size = {1, 1, 1}};
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-pass=", 6) == 0 || strncmp(argv[i], "--pass=", 7) == 0)
            passes = strchr(argv[i], '=') + 1;
        else if (strncmp(argv[i], "-kernel=", 8) == 0)
            kernel_name = argv[i] + 8;
        else if (strncmp(argv[i], "-vectorize=", 11) == 0)
            vectorize = argv[i] + 11;
        else if (strcmp(argv[i], "-schedule=auto") == 0)
            schedule = WEFT_SCHEDULE_AUTO;
        else if (strcmp(argv[i], "-schedule=bfo") == 0)
            schedule = WEFT_SCHEDULE_BFO;
        else if (strcmp(argv[i], "-schedule=dfo") == 0)
            schedule = WEFT_SCHEDULE_DFO;
        else if (strncmp(argv[i], "-local-size=", 12) == 0) {
            char *p = argv[i] + 12;
            for (int d = 0; d < 3 && *p; d++) {
                char *end;
                unsigned long long v = strtoull(p, &end, 10);
                if (end == p || v == 0) {
                    fprintf(stderr, "weft-opt: bad -local-size '%s'\n", argv[i] + 12);
                    return 1;
                }
                opts.local_size[d] = v;
                p = *end == ',' ? end + 1 : end;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage();
            return 1;
        } else
            input = argv[i];
    }
    if (!passes || !input) {
        usage();
        return 1;
    }

    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (strcmp(input, "-") == 0 ? LLVMCreateMemoryBufferWithSTDIN(&buf, &msg)
                                : LLVMCreateMemoryBufferWithContentsOfFile(input, &buf, &msg)) {
        fprintf(stderr, "weft-opt: %s: %s\n", input, msg ? msg : "cannot read");
        return 1;
    }
    LLVMModuleRef m = NULL;
    size_t blen = LLVMGetBufferSize(buf);
    const char *bstart = LLVMGetBufferStart(buf);
    if (blen >= 4 && memcmp(bstart, "BC\xC0\xDE", 4) == 0) {
        if (LLVMParseBitcodeInContext2(c, buf, &m)) {
            fprintf(stderr, "weft-opt: %s: invalid bitcode\n", input);
            return 1;
        }
        LLVMDisposeMemoryBuffer(buf);
    } else if (LLVMParseIRInContext(c, buf, &m, &msg)) {   /* takes the buffer */
        fprintf(stderr, "weft-opt: %s: %s\n", input, msg);
        return 1;
    }

    /* the kernels to work on, collected before passes add functions */
    unsigned nk = 0;
    LLVMValueRef kernels[256];
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && nk < 256; f = LLVMGetNextFunction(f)) {
        size_t n = 0;
        const char *name = LLVMGetValueName2(f, &n);
        if (kernel_name ? (!LLVMIsDeclaration(f) && strlen(kernel_name) == n && memcmp(name, kernel_name, n) == 0)
                        : is_kernel(f))
            kernels[nk++] = f;
    }
    if (nk == 0) {
        fprintf(stderr, "weft-opt: no kernel%s%s in %s\n", kernel_name ? " named " : "", kernel_name ? kernel_name : "",
                input);
        return 1;
    }

    struct weft_diag diag;
    weft_diag_init(&diag);
    char *header = NULL;
    size_t header_len = 0;
    FILE *hs = open_memstream(&header, &header_len);
    char *list = strdup(passes);
    bool ok = true, last_was_print = false;
    for (char *save = NULL, *p = strtok_r(list, ",", &save); p && ok; p = strtok_r(NULL, ",", &save)) {
        if (strncmp(p, "llvm:", 5) == 0) {
            LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
            LLVMErrorRef e = LLVMRunPasses(m, p + 5, NULL, o);
            LLVMDisposePassBuilderOptions(o);
            if (e) {
                char *em = LLVMGetErrorMessage(e);
                weft_diag_error(&diag, "llvm pipeline '%s': %s", p + 5, em);
                LLVMDisposeErrorMessage(em);
                ok = false;
            }
            continue;
        }
        last_was_print = false;
        if (strncmp(p, "print-", 6) == 0 && weft_analysis_has_printer(p + 6)) {
            /* analysis dumps of the selected kernels (analysis/print.h), in pass order */
            fflush(hs);
            for (unsigned k = 0; k < nk; k++)
                weft_analysis_print(p + 6, kernels[k], hs);
            last_was_print = true;
            continue;
        }
        if (strncmp(p, "print-subcfg-", 13) == 0 && weft_analysis_has_subcfg_printer(p + 13)) {
            /* the same dumps of each sub-CFG (subcfg.c forms them as the pipeline does) */
            fflush(hs);
            for (unsigned k = 0; k < nk && ok; k++) {
                struct weft_subcfgs subs;
                ok = weft_subcfgs_form(kernels[k], &subs, &diag);
                for (unsigned s = 0; ok && s < subs.count; s++)
                    weft_analysis_print_subcfg(p + 13, kernels[k], subs.s[s].blocks, subs.s[s].nblocks, hs);
                if (ok)
                    weft_subcfgs_free(&subs);
            }
            last_was_print = true;
            continue;
        }
        if (strcmp(p, "drop-kernels") == 0) {
            /* what the driver does after building the work-group functions */
            for (LLVMValueRef f = LLVMGetFirstFunction(m), nx; f; f = nx) {
                nx = LLVMGetNextFunction(f);
                if (is_kernel(f))
                    LLVMDeleteFunction(f);
            }
            nk = 0;
            continue;
        }
        if (strcmp(p, "narrow-ids") == 0) {
            /* what the driver does before building a variant that assumes ids below 2^31 */
            fprintf(hs, "; weft: narrow-ids rewrote %u\n", weft_narrow_ids(m));
            continue;
        }
        if (strcmp(p, "scalarize-vector-ops") == 0) {
            /* what the driver does before building a vectorized variant, for -vectorize's W */
            for (unsigned k = 0; k < nk && ok; k++) {
                unsigned w, u;
                if (!weft_vector_parse(vectorize, kernels[k], &w, &u)) {
                    weft_diag_error(&diag, "bad -vectorize '%s' (auto, off, W or WxU)", vectorize);
                    ok = false;
                    break;
                }
                size_t len = 0;
                const char *name = LLVMGetValueName2(kernels[k], &len);
                enum weft_scalarize_result r = weft_scalarize_vector_ops(m, kernels[k], w);
                fprintf(hs, "; weft: scalarize-vector-ops %.*s: %s\n", (int)len, name,
                        w < 2                           ? "off (no vectorizer)"
                        : r == WEFT_SCALARIZE_SPLIT     ? "split"
                        : r == WEFT_SCALARIZE_KEPT_WIDE ? "kept (a register-wide vector)"
                                                        : "no vector arithmetic");
            }
            continue;
        }
        if (strcmp(p, "prefetch-grid-strides") == 0) {
            /* what the driver does to a kernel before building any variant */
            for (unsigned k = 0; k < nk; k++) {
                size_t len = 0;
                const char *name = LLVMGetValueName2(kernels[k], &len);
                fprintf(hs, "; weft: prefetch-grid-strides %.*s: %u\n", (int)len, name,
                        weft_prefetch_grid_strides(kernels[k]));
            }
            continue;
        }
        if (strcmp(p, "narrow-masked-memops") == 0) {
            fprintf(hs, "; weft: narrow-masked-memops %u\n", weft_narrow_masked_memops(m));
            continue;
        }
        if (strcmp(p, "hoist-divisions") == 0) {
            /* what the driver does to a kernel before building its work-group function */
            for (unsigned k = 0; k < nk; k++)
                weft_hoist_divisions(kernels[k]);
            continue;
        }
        if (strcmp(p, "guard-divisions") == 0) {
            /* what the driver does to the work-group functions before optimizing */
            weft_guard_divisions(m);
            continue;
        }
        if (strcmp(p, "unroll-barrier-loops") == 0) {
            for (unsigned k = 0; k < nk; k++)
                fprintf(hs, "; weft: unroll-barrier-loops unrolled %u\n", weft_unroll_barrier_loops(kernels[k]));
            continue;
        }
        if (strcmp(p, "unroll-row-walks") == 0) {
            for (unsigned k = 0; k < nk; k++)
                fprintf(hs, "; weft: unroll-row-walks unrolled %u\n", weft_unroll_row_walks(kernels[k], WEFT_ROW_UNROLL));
            continue;
        }
        if (strcmp(p, "canonicalize-barriers") == 0) {
            for (unsigned k = 0; k < nk && ok; k++)
                ok = weft_canonicalize_barriers(kernels[k], &diag);
            continue;
        }
        bool found = false;
        for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
            if (strcmp(p, stages[s].name) != 0)
                continue;
            found = true;
            for (unsigned k = 0; k < nk && ok; k++) {
                struct weft_wg_result r;
                if (!weft_vector_parse(vectorize, kernels[k], &opts.vector_width, &opts.interleave)) {
                    weft_diag_error(&diag, "bad -vectorize '%s' (auto, off, W or WxU)", vectorize);
                    ok = false;
                    break;
                }
                opts.schedule = schedule;
                ok = weft_build_wg_function_until(m, kernels[k], &opts, stages[s].stage, &r, &diag);
                if (ok) {
                    size_t n = 0;
                    const char *kn = LLVMGetValueName2(kernels[k], &n);
                    fprintf(hs, "; weft: %.*s static_local_size=%llu scratch_size=%llu", (int)n, kn,
                            (unsigned long long)r.static_local_size, (unsigned long long)r.scratch_size);
                    if (stages[s].stage >= WEFT_WG_STAGE_SUBCFGS)
                        fprintf(hs, " subcfgs=%u arrays=%u uniform_slots=%u recomputed=%u affine_bases=%u",
                                r.subcfg_count, r.privatized_arrays, r.uniform_slots, r.recomputed, r.affine_bases);
                    fputc('\n', hs);
                    for (unsigned l = 0; l < r.schedule.count && l < WEFT_SCHEDULE_MAX_REPORTED; l++)
                        print_schedule(hs, kn, n, &r.schedule.loop[l]);
                    for (unsigned v = 0; r.vec && v < r.subcfg_count; v++)
                        print_vec_report(hs, kn, n, v, &r.vec[v]);
                    if (r.uses_sub_groups)
                        fprintf(hs, "; weft-subgroups: %.*s: size %u\n", (int)n, kn, r.sub_group_width);
                }
                weft_wg_result_dispose(&r);
            }
        }
        if (!found) {
            weft_diag_error(&diag, "unknown pass '%s'", p);
            ok = false;
        }
    }
    free(list);
    fclose(hs);
    if (ok) {
        char *vmsg = NULL;
        if (LLVMVerifyModule(m, LLVMReturnStatusAction, &vmsg)) {
            weft_diag_error(&diag, "the resulting module is not valid:\n%s", vmsg ? vmsg : "");
            ok = false;
        }
        LLVMDisposeMessage(vmsg);
    }
    if (!ok) {
        char *t = weft_diag_take(&diag);
        fprintf(stderr, "weft-opt: %s", t);
        if (!*t || t[strlen(t) - 1] != '\n')
            fputc('\n', stderr);
        free(t);
        free(header);
        LLVMDisposeModule(m);
        LLVMContextDispose(c);
        return 1;
    }
    fputs(header ? header : "", stdout);
    if (!last_was_print) {   /* a pipeline ending in a print-* pass prints only the analysis */
        char *s = LLVMPrintModuleToString(m);
        fputs(s, stdout);
        LLVMDisposeMessage(s);
    }
    free(header);
    weft_diag_free(&diag);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
    return 0;
}
