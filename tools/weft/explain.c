/* tools/weft/explain.c — `weft explain`: builds a .cl file with the kernel compiler (with -g
 * for source lines) and prints, per kernel, what compiler/explain.h reports: sub-CFGs,
 * privatization, memory-access shapes and vectorization of the work-item loops.
 * With --chain, it prints instead the fusion decision for a chain of launches of the file's
 * kernels (explain_chain.h).
 * Exit status 0 on success, 1 when the build or a kernel's compilation fails, 2 for a usage
 * error. LLVM's loop-vectorize remarks are enabled for this process only. */
#include <errno.h>
#include <llvm-c/Support.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compiler/compiler.h"
#include "compiler/explain.h"
#include "explain_chain.h"
#include "exec/fuse/fuse.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: weft explain FILE.cl [--kernel NAME] [--local X[,Y[,Z]]] [--options \"BUILD OPTIONS\"]\n"
               "\n"
               "Prints, for each kernel (or NAME), the compiler's decisions for one local size\n"
               "(default: the kernel's reqd_work_group_size, else 64): the barrier-free sub-CFGs,\n"
               "what was privatized across barriers and how, the shape of every memory access,\n"
               "and whether each work-item loop was vectorized.\n"
               "\n"
               "       weft explain FILE.cl --chain 'KERNEL(ARG, ...), ...' --global X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
               "                    [--repeat N] [--depth K] [--tile ROWS] [--ratio R] [--threads N] [--options ...]\n"
               "\n"
               "Prints the fusion decision the runtime would take for that chain of launches on an\n"
               "in-order queue (WEFT_FUSE=auto): which launches are fused, the depth K by Zhou's\n"
               "equation 6, the tiles and the redundant work. A pointer argument is a buffer name\n"
               "(the same name: the same buffer), svm:NAME for an SVM pointer (clSetKernelArgSVMPointer;\n"
               "never fused), a scalar a number; --repeat repeats the list.\n"
               "--ratio is equation 6's t_s/t_c - 1, which the runtime measures (default %.1f, its value\n"
               "before any measurement); --depth and --tile force K and the tile rows like\n"
               "WEFT_FUSE_DEPTH and WEFT_FUSE_TILE. --local defaults to 64 in dimension 0.\n",
            WEFT_FUSE_FIRST_RATIO);
}

static bool parse_sizes(const char *s, uint64_t out[3], unsigned *dims, uint64_t max)
{
    out[0] = out[1] = out[2] = 1;
    for (unsigned d = 0; d < 3; d++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || v == 0 || v > max)
            return false;
        out[d] = v;
        if (dims)
            *dims = d + 1;
        if (!*end)
            return true;
        if (*end != ',' && *end != 'x')
            return false;
        s = end + 1;
    }
    return false;
}

static bool parse_local(const char *s, uint64_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int d = 0; d < 3; d++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return false;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || v == 0 || v > 4096)
            return false;
        out[d] = v;
        if (!*end)
            return true;
        if (*end != ',')
            return false;
        s = end + 1;
    }
    return false;
}

static char *read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    for (size_t got; s && (got = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

int weft_cli_explain(int argc, char **argv)
{
    const char *file = NULL, *kernel = NULL, *options = "";
    uint64_t local[3] = {0, 0, 0};
    bool have_local = false, have_global = false;
    struct weft_explain_chain_args chain = {.ratio = WEFT_FUSE_FIRST_RATIO};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--chain") || !strcmp(a, "--global") || !strcmp(a, "--repeat") || !strcmp(a, "--depth") ||
            !strcmp(a, "--tile") || !strcmp(a, "--ratio") || !strcmp(a, "--threads")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "weft explain: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end;
            errno = 0;
            bool ok = true;
            if (!strcmp(a, "--chain")) {
                chain.spec = v;
            } else if (!strcmp(a, "--global")) {
                ok = parse_sizes(v, chain.global, &chain.work_dim, (uint64_t)1 << 40);
                have_global = ok;
            } else if (!strcmp(a, "--ratio")) {
                chain.ratio = strtod(v, &end);
                ok = !errno && end != v && !*end && chain.ratio >= 0;
            } else {
                unsigned long long x = strtoull(v, &end, 10);
                ok = !errno && end != v && !*end && x > 0 && x <= ((uint64_t)1 << 40);
                if (!strcmp(a, "--tile")) {
                    chain.tile = x;
                } else {
                    ok = ok && x <= (!strcmp(a, "--threads") ? 4096 : WEFT_FUSE_MAX_CHAIN);
                    unsigned *to = !strcmp(a, "--repeat") ? &chain.repeat
                                   : !strcmp(a, "--depth") ? &chain.depth : &chain.threads;
                    *to = (unsigned)x;
                }
            }
            if (!ok) {
                fprintf(stderr, "weft explain: bad %s '%s'\n", a, v);
                return 2;
            }
            continue;
        }
        if (!strcmp(a, "--kernel") || !strcmp(a, "--local") || !strcmp(a, "--options")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "weft explain: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--kernel")) {
                kernel = v;
            } else if (!strcmp(a, "--options")) {
                options = v;
            } else if (!parse_local(v, local)) {
                fprintf(stderr, "weft explain: bad --local '%s': expected X[,Y[,Z]] with sizes from 1 to 4096\n", v);
                return 2;
            } else {
                have_local = true;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "weft explain: unknown option '%s' (see weft explain --help)\n", a);
            return 2;
        } else if (!file) {
            file = a;
        } else {
            fprintf(stderr, "weft explain: more than one input file ('%s' and '%s')\n", file, a);
            return 2;
        }
    }
    if (!file) {
        usage(stderr);
        return 2;
    }
    if (chain.spec && !have_global) {
        fprintf(stderr, "weft explain: --chain needs --global X[,Y[,Z]]\n");
        return 2;
    }
    if (!chain.spec && (have_global || chain.repeat || chain.depth || chain.tile || chain.threads)) {
        fprintf(stderr, "weft explain: --global, --repeat, --depth, --tile and --threads go with --chain\n");
        return 2;
    }
    char *source = read_source(file);
    if (!source) {
        fprintf(stderr, "weft explain: cannot read '%s': %s\n", file, strerror(errno));
        return 1;
    }
    /* LLVM's own account of each loop it vectorized or did not (this process only) */
    const char *llvm_args[] = {"weft", "-pass-remarks=loop-vectorize|slp-vectorizer",
                               "-pass-remarks-missed=loop-vectorize", "-pass-remarks-analysis=loop-vectorize"};
    LLVMParseCommandLineOptions(4, llvm_args, NULL);

    /* -g: source lines for blocks, values and accesses */
    size_t olen = strlen(options) + 8;
    char *opts = malloc(olen);
    if (!opts) {
        free(source);
        return 1;
    }
    snprintf(opts, olen, "%s%s-g", options, *options ? " " : "");
    int rc = 1;
    struct weft_diag diag;
    weft_diag_init(&diag);
    struct weft_build_options bo;
    memset(&bo, 0, sizeof bo);
    struct weft_bitcode exe = {0};
    struct weft_image *img = NULL;
    cl_int err = weft_options_parse(opts, WEFT_OPTIONS_COMPILE, &bo, &diag);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "weft explain: bad --options '%s':\n%s", options, diag.text ? diag.text : "");
        rc = 2;
        goto out;
    }
    err = weft_build_executable(source, opts, &bo, &exe, &diag);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "weft explain: building '%s' failed; build log:\n%s", file, diag.text ? diag.text : "");
        goto out;
    }
    /* kernel metadata (reqd_work_group_size) through the same image the runtime uses */
    struct weft_bitcode copy = {malloc(exe.size), exe.size};
    if (!copy.data)
        goto out;
    memcpy(copy.data, exe.data, exe.size);
    weft_diag_free(&diag);
    weft_diag_init(&diag);
    err = weft_image_create(&copy, opts, false, bo.opt_disable, &img, &diag);
    if (err != CL_SUCCESS) {
        weft_bitcode_free(&copy);
        fprintf(stderr, "weft explain: cannot read the built program:\n%s", diag.text ? diag.text : "");
        goto out;
    }
    if (kernel && weft_image_find_kernel(img, kernel) < 0) {
        fprintf(stderr, "weft explain: no kernel '%s' in '%s'; kernels:", kernel, file);
        for (cl_uint i = 0; i < img->num_kernels; i++)
            fprintf(stderr, " %s", img->kernels[i].name);
        fprintf(stderr, "%s\n", img->num_kernels ? "" : " (none)");
        goto out;
    }
    if (chain.spec) {
        for (unsigned d = 0; d < 3; d++)
            chain.local[d] = have_local ? local[d] : d == 0 && chain.global[0] >= 64 ? 64 : 1;
        if (have_local && local[0] > chain.global[0]) {
            fprintf(stderr, "weft explain: --local is larger than --global\n");
            rc = 2;
            goto out;
        }
        rc = weft_cli_explain_chain(img, &chain);
        goto out;
    }
    rc = 0;
    for (cl_uint i = 0; i < img->num_kernels; i++) {
        const struct weft_kernel_meta *km = &img->kernels[i];
        if (kernel && strcmp(kernel, km->name))
            continue;
        uint64_t ls[3] = {64, 1, 1};
        if (have_local)
            memcpy(ls, local, sizeof ls);
        else if (km->reqd_work_group_size[0])
            for (int d = 0; d < 3; d++)
                ls[d] = km->reqd_work_group_size[d] ? km->reqd_work_group_size[d] : 1;
        struct weft_explain_kernel ek;
        weft_diag_free(&diag);
        weft_diag_init(&diag);
        err = weft_explain_kernel(&exe, km->name, ls, &ek, &diag);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "weft explain: kernel '%s' (local size %llux%llux%llu) cannot be compiled:\n%s",
                    km->name, (unsigned long long)ls[0], (unsigned long long)ls[1], (unsigned long long)ls[2],
                    diag.text ? diag.text : "");
            rc = 1;
        } else {
            weft_explain_print(stdout, &ek);
        }
        weft_explain_kernel_free(&ek);
        if (i + 1 < img->num_kernels && !kernel)
            printf("\n");
    }
out:
    weft_image_free(img);
    weft_bitcode_free(&exe);
    weft_options_free(&bo);
    weft_diag_free(&diag);
    free(opts);
    free(source);
    return rc;
}
