/* tools/weft/run.c — `weft run`: builds one OpenCL C file on the Weft platform through the cl*
 * API, runs one kernel on generated or file inputs, and prints a checksum of every buffer and
 * the time per launch.
 *
 * Guarantees:
 *   - every --arg SPEC is checked before anything runs: its syntax, its kind against the
 *     kernel's argument (buffer specs go to __global/__constant pointers, local: to __local
 *     pointers, scalars to by-value arguments) and the count of specs against the kernel's
 *     argument count; a failed build prints the build log. Exit status 0 on success, 1 when
 *     the build or the run fails, 2 for a usage error.
 *   - generated inputs are deterministic and documented (usage text): element i of
 *     buf:T:N is (i mod 97) for integer types and (i mod 97) * 0.5 for float/double, so a
 *     test can compute the expected checksum by itself.
 *   - every buffer is reset to its initial contents before each launch, so the checksums
 *     printed after the run are those of one launch whatever --repeat says.
 *   - checksums: `sum` (in index order, in double for float/double, in 64-bit integers
 *     otherwise, printed %.17g / %lld / %llu) and `fnv64`, the 64-bit FNV-1a hash of the
 *     buffer's bytes.
 *   - timing: one untimed first launch (it compiles the variant for the local size), then
 *     --repeat timed launches, each clEnqueueNDRangeKernel + clFinish on the host clock;
 *     the median, min and max are printed. Timings are information, never a result.
 */
#include <CL/cl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "runtime/log.h"

/* ---- element types ------------------------------------------------------------------------ */

enum elem_class { ELEM_SIGNED, ELEM_UNSIGNED, ELEM_FLOAT };

struct elem_type {
    const char *name;
    size_t size;
    enum elem_class cls;
};

static const struct elem_type elem_types[] = {
    {"char", 1, ELEM_SIGNED},  {"uchar", 1, ELEM_UNSIGNED}, {"short", 2, ELEM_SIGNED},
    {"ushort", 2, ELEM_UNSIGNED}, {"int", 4, ELEM_SIGNED},  {"uint", 4, ELEM_UNSIGNED},
    {"long", 8, ELEM_SIGNED},  {"ulong", 8, ELEM_UNSIGNED}, {"float", 4, ELEM_FLOAT},
    {"double", 8, ELEM_FLOAT},
};

static const struct elem_type *find_type(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++)
        if (strlen(elem_types[i].name) == len && !strncmp(elem_types[i].name, name, len))
            return &elem_types[i];
    return NULL;
}

/* ---- argument specs ----------------------------------------------------------------------- */

enum spec_kind { SPEC_BUF, SPEC_OUT, SPEC_LOCAL, SPEC_SCALAR };

struct arg_spec {
    const char *text;             /* as given, for messages */
    enum spec_kind kind;
    const struct elem_type *type; /* BUF/OUT/SCALAR */
    size_t count;                 /* BUF/OUT: elements */
    size_t bytes;                 /* BUF/OUT: buffer bytes; LOCAL: local bytes; SCALAR: size */
    const char *file;             /* BUF: input file or NULL */
    unsigned char scalar[8];      /* SCALAR: the value's bytes */
    unsigned char *init;          /* BUF/OUT: initial contents (malloc'd) */
    cl_mem mem;
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("weft run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* A decimal size_t > 0 filling all of [s, s+len) (no sign, no junk). */
static bool parse_size(const char *s, size_t len, size_t *out)
{
    if (len == 0 || len > 19)
        return false;
    size_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    *out = v;
    return v > 0;
}

static bool parse_scalar(const struct elem_type *t, const char *v, unsigned char out[8])
{
    char *end = NULL;
    errno = 0;
    if (!*v)
        return false;
    if (t->cls == ELEM_FLOAT) {
        double d = strtod(v, &end);
        if (*end || errno == ERANGE)
            return false;
        if (t->size == 4) {
            float f = (float)d;
            memcpy(out, &f, 4);
        } else {
            memcpy(out, &d, 8);
        }
        return true;
    }
    if (t->cls == ELEM_SIGNED) {
        long long x = strtoll(v, &end, 0);
        if (*end || errno == ERANGE)
            return false;
        int bits = (int)t->size * 8;
        if (bits < 64 && (x < -(1ll << (bits - 1)) || x > (1ll << (bits - 1)) - 1))
            return false;
        int8_t i8 = (int8_t)x;
        int16_t i16 = (int16_t)x;
        int32_t i32 = (int32_t)x;
        int64_t i64 = x;
        memcpy(out, t->size == 1 ? (void *)&i8 : t->size == 2 ? (void *)&i16 : t->size == 4 ? (void *)&i32 : (void *)&i64,
               t->size);
        return true;
    }
    if (*v == '-')
        return false;
    unsigned long long x = strtoull(v, &end, 0);
    if (*end || errno == ERANGE)
        return false;
    if (t->size < 8 && x >> (t->size * 8))
        return false;
    uint8_t u8 = (uint8_t)x;
    uint16_t u16 = (uint16_t)x;
    uint32_t u32 = (uint32_t)x;
    uint64_t u64 = x;
    memcpy(out, t->size == 1 ? (void *)&u8 : t->size == 2 ? (void *)&u16 : t->size == 4 ? (void *)&u32 : (void *)&u64,
           t->size);
    return true;
}

/* Element i of a generated buffer (see the header comment). */
static void generate(const struct elem_type *t, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = (unsigned)(i % 97);
        unsigned char *p = out + i * t->size;
        if (t->cls == ELEM_FLOAT) {
            if (t->size == 4) {
                float f = (float)v * 0.5f;
                memcpy(p, &f, 4);
            } else {
                double d = (double)v * 0.5;
                memcpy(p, &d, 8);
            }
        } else {
            /* small non-negative values: the same bytes little-endian for every width */
            memset(p, 0, t->size);
            p[0] = (unsigned char)v;
        }
    }
}

static bool read_file(const char *path, size_t want, unsigned char *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    size_t got = fread(out, 1, want, f);
    int extra = fgetc(f);
    fclose(f);
    if (got != want || extra != EOF) {
        snprintf(err, errlen, "'%s' must hold exactly %zu bytes (%s)", path, want,
                 got != want ? "it is shorter" : "it is longer");
        return false;
    }
    return true;
}

/* Parses SPEC into *a; returns NULL or a message (static buffer). */
static const char *parse_spec(const char *text, struct arg_spec *a)
{
    static char msg[512];
    memset(a, 0, sizeof *a);
    a->text = text;
    const char *colon = strchr(text, ':');
    if (!colon) {
        snprintf(msg, sizeof msg, "bad --arg '%s': expected KIND:..., e.g. buf:float:1024, out:int:16, "
                 "local:256, int:5, float:2.5", text);
        return msg;
    }
    size_t klen = (size_t)(colon - text);
    const char *rest = colon + 1;
    if ((klen == 3 && !strncmp(text, "buf", 3)) || (klen == 3 && !strncmp(text, "out", 3))) {
        a->kind = text[0] == 'b' ? SPEC_BUF : SPEC_OUT;
        const char *c2 = strchr(rest, ':');
        if (!c2 || !(a->type = find_type(rest, (size_t)(c2 - rest)))) {
            snprintf(msg, sizeof msg, "bad --arg '%s': expected %.*s:TYPE:N with TYPE one of char uchar short "
                     "ushort int uint long ulong float double", text, (int)klen, text);
            return msg;
        }
        const char *num = c2 + 1;
        const char *c3 = strchr(num, ':');
        size_t nlen = c3 ? (size_t)(c3 - num) : strlen(num);
        if (!parse_size(num, nlen, &a->count) || a->count > SIZE_MAX / 16) {
            snprintf(msg, sizeof msg, "bad --arg '%s': the element count must be a positive integer", text);
            return msg;
        }
        if (c3) {
            if (a->kind == SPEC_OUT || !c3[1]) {
                snprintf(msg, sizeof msg, "bad --arg '%s': %s", text,
                         a->kind == SPEC_OUT ? "out: buffers are zeroed, they take no file" : "empty file name");
                return msg;
            }
            a->file = c3 + 1;
        }
        a->bytes = a->count * a->type->size;
        a->init = calloc(a->bytes, 1);
        if (!a->init) {
            snprintf(msg, sizeof msg, "--arg '%s': out of memory", text);
            return msg;
        }
        if (a->file) {
            char err[400];
            if (!read_file(a->file, a->bytes, a->init, err, sizeof err)) {
                snprintf(msg, sizeof msg, "--arg '%s': %s", text, err);
                return msg;
            }
        } else if (a->kind == SPEC_BUF) {
            generate(a->type, a->count, a->init);
        }
        return NULL;
    }
    if (klen == 5 && !strncmp(text, "local", 5)) {
        a->kind = SPEC_LOCAL;
        if (!parse_size(rest, strlen(rest), &a->bytes)) {
            snprintf(msg, sizeof msg, "bad --arg '%s': expected local:BYTES with BYTES > 0", text);
            return msg;
        }
        return NULL;
    }
    a->kind = SPEC_SCALAR;
    a->type = find_type(text, klen);
    if (!a->type) {
        snprintf(msg, sizeof msg, "bad --arg '%s': unknown kind '%.*s' (buf, out, local, or a scalar type: "
                 "char uchar short ushort int uint long ulong float double)", text, (int)klen, text);
        return msg;
    }
    a->bytes = a->type->size;
    if (!parse_scalar(a->type, rest, a->scalar)) {
        snprintf(msg, sizeof msg, "bad --arg '%s': '%s' is not a %s value", text, rest, a->type->name);
        return msg;
    }
    return NULL;
}

static const char *spec_kind_name(const struct arg_spec *a)
{
    switch (a->kind) {
    case SPEC_BUF: return "a buffer";
    case SPEC_OUT: return "an output buffer";
    case SPEC_LOCAL: return "a local memory size";
    default: return "a scalar";
    }
}

/* ---- sizes ------------------------------------------------------------------------------- */

static bool parse_dims(const char *s, size_t out[3], cl_uint *dims)
{
    *dims = 0;
    const char *p = s;
    while (*dims < 3) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (!parse_size(p, len, &out[*dims]))
            return false;
        (*dims)++;
        if (!comma)
            return true;
        p = comma + 1;
    }
    return false;   /* a fourth dimension */
}

/* ---- checksums --------------------------------------------------------------------------- */

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void print_sum(const struct elem_type *t, const unsigned char *p, size_t n)
{
    if (t->cls == ELEM_FLOAT) {
        double s = 0;
        for (size_t i = 0; i < n; i++) {
            if (t->size == 4) {
                float f;
                memcpy(&f, p + i * 4, 4);
                s += (double)f;
            } else {
                double d;
                memcpy(&d, p + i * 8, 8);
                s += d;
            }
        }
        printf("sum %.17g", s);
        return;
    }
    if (t->cls == ELEM_SIGNED) {
        int64_t s = 0;   /* wraps like the hardware would; computed in unsigned to stay defined */
        uint64_t u = 0;
        for (size_t i = 0; i < n; i++) {
            const unsigned char *e = p + i * t->size;
            int64_t v;
            if (t->size == 1) { int8_t x; memcpy(&x, e, 1); v = x; }
            else if (t->size == 2) { int16_t x; memcpy(&x, e, 2); v = x; }
            else if (t->size == 4) { int32_t x; memcpy(&x, e, 4); v = x; }
            else { memcpy(&v, e, 8); }
            u += (uint64_t)v;
        }
        memcpy(&s, &u, sizeof s);
        printf("sum %" PRId64, s);
        return;
    }
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *e = p + i * t->size;
        uint64_t v = 0;
        if (t->size == 1) { uint8_t x; memcpy(&x, e, 1); v = x; }
        else if (t->size == 2) { uint16_t x; memcpy(&x, e, 2); v = x; }
        else if (t->size == 4) { uint32_t x; memcpy(&x, e, 4); v = x; }
        else { memcpy(&v, e, 8); }
        s += v;
    }
    printf("sum %" PRIu64, s);
}

/* ---- the run ------------------------------------------------------------------------------- */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_usage(FILE *f)
{
    fprintf(f,
            "usage: weft run FILE.cl --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
            "                [--arg SPEC]... [--options \"BUILD OPTIONS\"] [--repeat N]\n"
            "\n"
            "Builds FILE.cl on the Weft platform, runs kernel NAME once untimed and N times timed\n"
            "(default 10), and prints a checksum of every buffer and the time per launch.\n"
            "One --arg per kernel argument, in order:\n"
            "  buf:TYPE:N         N generated elements: i mod 97 (integers), (i mod 97)*0.5 (float, double)\n"
            "  buf:TYPE:N:FILE    N elements read from FILE (raw bytes, exactly N*sizeof(TYPE))\n"
            "  out:TYPE:N         N zeroed elements\n"
            "  local:BYTES        a __local argument of BYTES bytes\n"
            "  TYPE:VALUE         a scalar, e.g. int:5, float:2.5, ulong:0x10\n"
            "TYPE is one of char uchar short ushort int uint long ulong float double.\n"
            "Checksums: sum in index order (double for float types) and fnv64 (FNV-1a of the bytes).\n");
}

static char *read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        size_t got = fread(s + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            } else {
                s = t;
            }
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

static int cl_fail(const char *what, cl_int err)
{
    fprintf(stderr, "weft run: %s failed: %s\n", what, weft_error_name(err));
    return 1;
}

static char *kernel_arg_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what)
{
    size_t n = 0;
    if (clGetKernelArgInfo(k, i, what, 0, NULL, &n) != CL_SUCCESS)
        return NULL;
    char *s = calloc(n + 1, 1);
    if (s && clGetKernelArgInfo(k, i, what, n, s, NULL) != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    return s;
}

static const char *address_name(cl_kernel_arg_address_qualifier aq)
{
    switch (aq) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL: return "__global ";
    case CL_KERNEL_ARG_ADDRESS_CONSTANT: return "__constant ";
    case CL_KERNEL_ARG_ADDRESS_LOCAL: return "__local ";
    default: return "";
    }
}

int weft_cli_run(int argc, char **argv)
{
    const char *file = NULL, *kernel_name = NULL, *global_s = NULL, *local_s = NULL, *options = "";
    long repeat = 10;
    struct arg_spec *specs = calloc((size_t)argc + 1, sizeof *specs);
    cl_uint nspecs = 0;
    int rc = 2;
    if (!specs)
        return 1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_usage(stdout);
            free(specs);
            return 0;
        } else if (!strcmp(a, "--kernel") || !strcmp(a, "--global") || !strcmp(a, "--local") ||
                   !strcmp(a, "--arg") || !strcmp(a, "--options") || !strcmp(a, "--repeat")) {
            if (!has_value) {
                rc = usage_error("%s needs a value", a);
                goto out;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--kernel"))
                kernel_name = v;
            else if (!strcmp(a, "--global"))
                global_s = v;
            else if (!strcmp(a, "--local"))
                local_s = v;
            else if (!strcmp(a, "--options"))
                options = v;
            else if (!strcmp(a, "--repeat")) {
                char *end;
                errno = 0;
                repeat = strtol(v, &end, 10);
                if (*end || !*v || errno || repeat < 1 || repeat > 1000000) {
                    rc = usage_error("bad --repeat '%s': expected a count from 1 to 1000000", v);
                    goto out;
                }
            } else {
                const char *msg = parse_spec(v, &specs[nspecs]);
                nspecs++;
                if (msg) {
                    rc = usage_error("%s", msg);
                    goto out;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error("unknown option '%s' (see weft run --help)", a);
            goto out;
        } else if (!file) {
            file = a;
        } else {
            rc = usage_error("more than one input file ('%s' and '%s')", file, a);
            goto out;
        }
    }
    if (!file || !kernel_name || !global_s) {
        print_usage(stderr);
        rc = usage_error("FILE, --kernel and --global are required");
        goto out;
    }
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    cl_uint dims = 0, ldims = 0;
    if (!parse_dims(global_s, global, &dims)) {
        rc = usage_error("bad --global '%s': expected X[,Y[,Z]] with positive integers", global_s);
        goto out;
    }
    if (local_s) {
        if (!parse_dims(local_s, local, &ldims)) {
            rc = usage_error("bad --local '%s': expected X[,Y[,Z]] with positive integers", local_s);
            goto out;
        }
        if (ldims != dims) {
            rc = usage_error("--local has %u dimension(s) but --global has %u", ldims, dims);
            goto out;
        }
        for (cl_uint d = 0; d < dims; d++)
            if (global[d] % local[d]) {
                /* OpenCL C 2.0+ allows non-uniform work-groups, OpenCL C 1.x (the default
                 * without -cl-std) does not; say what will happen */
                bool cl1x = !strstr(options, "-cl-std=CL3") && !strstr(options, "-cl-std=CL2");
                fprintf(stderr, "weft run: note: global size %zu is not a multiple of local size %zu in "
                        "dimension %u: %s\n", global[d], local[d], d,
                        cl1x ? "OpenCL C 1.x requires uniform work-groups (build with --options "
                               "-cl-std=CL3.0 for a remainder work-group)"
                             : "the last work-group of that dimension has the remaining work-items");
            }
    }

    char *source = read_source(file);
    if (!source) {
        fprintf(stderr, "weft run: cannot read '%s': %s\n", file, strerror(errno));
        rc = 1;
        goto out;
    }
    rc = 1;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err != CL_SUCCESS) {
        free(source);
        rc = cl_fail("clGetPlatformIDs", err);
        goto out;
    }
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) {
        free(source);
        rc = cl_fail("clGetDeviceIDs", err);
        goto out;
    }
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!ctx) {
        free(source);
        rc = cl_fail("clCreateContext", err);
        goto out;
    }
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    double *times = NULL;
    if (!q) {
        rc = cl_fail("clCreateCommandQueueWithProperties", err);
        goto release;
    }
    const char *src = source;
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (!prog) {
        rc = cl_fail("clCreateProgramWithSource", err);
        goto release;
    }
    /* argument info lets the argument checks name types and address spaces */
    size_t olen = strlen(options) + 32;
    char *opts = malloc(olen);
    if (!opts)
        goto release;
    snprintf(opts, olen, "%s%s-cl-kernel-arg-info", options, *options ? " " : "");
    double t0 = now_us();
    err = clBuildProgram(prog, 1, &device, opts, NULL, NULL);
    double build_us = now_us() - t0;
    free(opts);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        char *log = NULL;
        if (clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS &&
            (log = calloc(n + 1, 1)))
            clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        fprintf(stderr, "weft run: building '%s' failed (%s); build log:\n%s%s", file, weft_error_name(err),
                log ? log : "", log && n > 1 && log[strlen(log) - 1] != '\n' ? "\n" : "");
        free(log);
        goto release;
    }
    k = clCreateKernel(prog, kernel_name, &err);
    if (!k) {
        size_t n = 0;
        char *names = NULL;
        if (clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n) == CL_SUCCESS && (names = calloc(n + 1, 1)))
            clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, n, names, NULL);
        fprintf(stderr, "weft run: no kernel '%s' in '%s' (%s); kernels: %s\n", kernel_name, file,
                weft_error_name(err), names && *names ? names : "(none)");
        free(names);
        goto release;
    }
    cl_uint nargs = 0;
    err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (err != CL_SUCCESS) {
        rc = cl_fail("clGetKernelInfo", err);
        goto release;
    }
    if (nargs != nspecs) {
        fprintf(stderr, "weft run: kernel '%s' takes %u argument%s but %u --arg %s given\n", kernel_name, nargs,
                nargs == 1 ? "" : "s", nspecs, nspecs == 1 ? "was" : "were");
        for (cl_uint i = 0; i < nargs; i++) {
            char *tn = kernel_arg_string(k, i, CL_KERNEL_ARG_TYPE_NAME);
            char *an = kernel_arg_string(k, i, CL_KERNEL_ARG_NAME);
            cl_kernel_arg_address_qualifier aq = CL_KERNEL_ARG_ADDRESS_PRIVATE;
            clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
            fprintf(stderr, "  arg %u: %s%s %s\n", i, address_name(aq), tn ? tn : "?", an ? an : "");
            free(tn);
            free(an);
        }
        goto release;
    }
    /* each spec against its argument, then create and set */
    for (cl_uint i = 0; i < nargs; i++) {
        struct arg_spec *a = &specs[i];
        cl_kernel_arg_address_qualifier aq = CL_KERNEL_ARG_ADDRESS_PRIVATE;
        bool known = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) == CL_SUCCESS;
        char *tn = kernel_arg_string(k, i, CL_KERNEL_ARG_TYPE_NAME);
        bool is_ptr = tn && strchr(tn, '*');
        const char *want = NULL;
        if (known) {
            if (a->kind == SPEC_BUF || a->kind == SPEC_OUT) {
                if (!is_ptr || (aq != CL_KERNEL_ARG_ADDRESS_GLOBAL && aq != CL_KERNEL_ARG_ADDRESS_CONSTANT))
                    want = "a __global or __constant pointer";
            } else if (a->kind == SPEC_LOCAL) {
                if (aq != CL_KERNEL_ARG_ADDRESS_LOCAL)
                    want = "a __local pointer";
            } else if (is_ptr) {
                want = "a by-value argument";
            }
        }
        if (want) {
            fprintf(stderr, "weft run: --arg '%s' (%s) is for argument %u, which is '%s%s', not %s\n", a->text,
                    spec_kind_name(a), i, address_name(aq), tn ? tn : "?", want);
            free(tn);
            goto release;
        }
        free(tn);
        switch (a->kind) {
        case SPEC_BUF:
        case SPEC_OUT:
            a->mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, a->bytes, NULL, &err);
            if (!a->mem) {
                rc = cl_fail("clCreateBuffer", err);
                goto release;
            }
            err = clSetKernelArg(k, i, sizeof a->mem, &a->mem);
            break;
        case SPEC_LOCAL:
            err = clSetKernelArg(k, i, a->bytes, NULL);
            break;
        case SPEC_SCALAR:
            err = clSetKernelArg(k, i, a->bytes, a->scalar);
            break;
        }
        if (err != CL_SUCCESS) {
            fprintf(stderr, "weft run: argument %u ('%s'): clSetKernelArg failed: %s%s\n", i, a->text,
                    weft_error_name(err),
                    err == CL_INVALID_ARG_SIZE ? " (the value's type does not have the argument's size)" : "");
            goto release;
        }
    }

    times = malloc((size_t)repeat * sizeof *times);
    if (!times)
        goto release;
    for (long r = 0; r <= repeat; r++) {
        for (cl_uint i = 0; i < nargs; i++)
            if (specs[i].mem) {
                err = clEnqueueWriteBuffer(q, specs[i].mem, CL_TRUE, 0, specs[i].bytes, specs[i].init, 0, NULL, NULL);
                if (err != CL_SUCCESS) {
                    rc = cl_fail("clEnqueueWriteBuffer", err);
                    goto release;
                }
            }
        double s = now_us();
        err = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local_s ? local : NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(q);
        double e = now_us();
        if (err != CL_SUCCESS) {
            rc = cl_fail("clEnqueueNDRangeKernel", err);
            goto release;
        }
        if (r > 0)
            times[r - 1] = e - s;
        else
            t0 = e - s;
    }

    printf("kernel %s  global %zu", kernel_name, global[0]);
    for (cl_uint d = 1; d < dims; d++)
        printf(",%zu", global[d]);
    if (local_s) {
        printf("  local %zu", local[0]);
        for (cl_uint d = 1; d < dims; d++)
            printf(",%zu", local[d]);
    } else {
        printf("  local (chosen by Weft)");
    }
    printf("\n");
    for (cl_uint i = 0; i < nargs; i++) {
        struct arg_spec *a = &specs[i];
        printf("arg %u  %s", i, a->text);
        if (a->mem) {
            unsigned char *data = malloc(a->bytes);
            if (!data)
                goto release;
            err = clEnqueueReadBuffer(q, a->mem, CL_TRUE, 0, a->bytes, data, 0, NULL, NULL);
            if (err != CL_SUCCESS) {
                free(data);
                printf("\n");
                rc = cl_fail("clEnqueueReadBuffer", err);
                goto release;
            }
            printf("  ");
            print_sum(a->type, data, a->count);
            printf("  fnv64 0x%016" PRIx64, fnv1a64(data, a->bytes));
            free(data);
        }
        printf("\n");
    }
    qsort(times, (size_t)repeat, sizeof *times, cmp_double);
    double median = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
    printf("build %.1f ms  first launch %.1f us (compiles the variant)\n", build_us / 1e3, t0);
    printf("time per launch: median %.2f us  min %.2f us  max %.2f us  (%ld launches)\n", median, times[0],
           times[repeat - 1], repeat);
    fflush(stdout);
    rc = 0;

release:
    free(times);
    for (cl_uint i = 0; i < nspecs; i++)
        if (specs[i].mem)
            clReleaseMemObject(specs[i].mem);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (q)
        clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(source);
out:
    for (cl_uint i = 0; i < nspecs; i++)
        free(specs[i].init);
    free(specs);
    return rc;
}
