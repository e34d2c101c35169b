/* bench/runner.c — weft-bench-runner: runs the benchmark corpus on one OpenCL platform (chosen by
 * name through the ICD loader), or natively (C/OpenMP, all cores), or measures this machine's
 * peaks. Prints one JSON object per line per benchmark on stdout; progress goes to stderr.
 *
 * Guarantees: every OpenCL run's output, the warm-up's and each timed run's, is read back and
 * compared with the native reference (outside the timed interval) before any time is reported;
 * a wrong result in any run is printed with "verified":false, the run ("wrong_run") and no
 * times. Inputs come from a fixed seed, and every timed run starts from them (a buffer a run
 * writes in place is written again before the next). Times: warm-up runs (the first, which
 * compiles, then more until 50 ms have passed, at most 10 in all, as on the native side), then
 * --repeat timed runs; wall clock around enqueue..clFinish, device time from event profiling
 * (first START to last END).
 * A benchmark that hangs is cut off by alarm() and reported as an error line.
 *
 *   weft-bench-runner --list [--filter S]
 *   weft-bench-runner --platforms
 *   weft-bench-runner --platform NAME | --native  [--filter S] [--size small|default|large]
 *                     [--repeat N] [--timeout SECONDS] [--quiet] [--threads N,N,... [--rounds R]]
 *   weft-bench-runner --peak [--size ...]
 */
#define _GNU_SOURCE
#include "runner.h"
#include "scaling.h"

#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Where the kernels' .cl files are: $WEFT_BENCH_KERNELS, ../share/weft/bench/kernels beside
 * this runner (an installed tree, or a build, whose share/weft/bench/kernels links to the
 * sources: bench/CMakeLists.txt), or bench/kernels under the current folder (a copy of the
 * repository, as on the device machine's bundle runs). Nothing of the build machine is
 * compiled in, so an installed or packaged runner finds its own kernels. */
static const char *kernel_dir(void)
{
    static char dir[1100];
    if (dir[0])
        return dir;
    const char *env = getenv("WEFT_BENCH_KERNELS");
    char installed[1100];
    ssize_t n = readlink("/proc/self/exe", installed, 1000);
    installed[n > 0 ? n : 0] = 0;
    char *slash = strrchr(installed, '/');
    if (slash)
        strcpy(slash, "/../share/weft/bench/kernels");
    const char *candidates[] = {env, slash ? installed : NULL, "bench/kernels"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
        if (candidates[i] && access(candidates[i], R_OK | X_OK) == 0) {
            snprintf(dir, sizeof dir, "%s", candidates[i]);
            return dir;
        }
    /* none: the installed location, so the error that follows names where they belong */
    snprintf(dir, sizeof dir, "%s", slash ? installed : "bench/kernels");
    return dir;
}

static const struct bench_desc *const families[] = {bench_micro, bench_linalg, bench_sparse,
                                                    bench_patterns, bench_apps, bench_chains};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- helpers for the families ------------------------------------------------------------- */

int bench_failf(struct bench *b, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return code ? code : -1;
}

void *bench_alloc(struct bench *b, int slot, size_t bytes)
{
    free(b->in[slot]);
    /* 64-byte alignment so native loops and CL_MEM_USE/COPY_HOST_PTR see aligned data */
    b->in[slot] = aligned_alloc(64, bench_round_up(bytes ? bytes : 1, 64));
    if (!b->in[slot]) {
        fprintf(stderr, "weft-bench-runner: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return b->in[slot];
}

/* splitmix64: small, fixed, and the same on every platform */
uint32_t bench_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

void bench_fill_float(float *x, size_t n, uint64_t seed, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (float)(bench_rand(&seed) >> 8) * (1.0f / 16777216.0f);
}

void bench_fill_double(double *x, size_t n, uint64_t seed, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        x[i] = lo + (hi - lo) * (double)bench_rand(&seed) * (1.0 / 4294967296.0);
}

size_t bench_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

cl_mem bench_buffer(struct bench *b, struct bench_cl *c, int slot, cl_mem_flags flags,
                    size_t bytes, const void *host)
{
    cl_int err;
    if (host)
        flags |= CL_MEM_COPY_HOST_PTR;
    c->m[slot] = clCreateBuffer(c->ctx, flags, bytes ? bytes : 4, (void *)host, &err);
    if (err != CL_SUCCESS) {
        bench_failf(b, err, "clCreateBuffer(%zu bytes) failed: %d", bytes, err);
        return NULL;
    }
    /* a kernel may write it: remembered so that every timed run starts from this data */
    c->init[slot] = host && !(flags & (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) ? host : NULL;
    c->init_bytes[slot] = bytes;
    return c->m[slot];
}

int bench_kernel(struct bench *b, struct bench_cl *c, int slot, const char *name)
{
    cl_int err;
    c->k[slot] = clCreateKernel(c->prog, name, &err);
    if (err != CL_SUCCESS)
        return bench_failf(b, err, "clCreateKernel(%s) failed: %d", name, err);
    return 0;
}

int bench_args(struct bench *b, struct bench_cl *c, int k, int nargs, ...)
{
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs; i++) {
        size_t sz = va_arg(ap, size_t);
        const void *p = va_arg(ap, const void *);
        cl_int err = clSetKernelArg(c->k[k], (cl_uint)i, sz, p);
        if (err != CL_SUCCESS) {
            va_end(ap);
            return bench_failf(b, err, "clSetKernelArg(kernel %d, arg %d) failed: %d", k, i, err);
        }
    }
    va_end(ap);
    return 0;
}

int bench_launch(struct bench *b, struct bench_cl *c, int k, int dims, const size_t *global,
                 const size_t *local)
{
    /* Keeps every event up to the array's size, then only the latest in the last slot: the
     * device time needs the first START and the last END (the queue is in order). */
    const int cap = (int)(sizeof c->ev / sizeof c->ev[0]);
    cl_event ev;
    cl_int err = clEnqueueNDRangeKernel(c->q, c->k[k], (cl_uint)dims, NULL, global, local, 0,
                                        NULL, &ev);
    if (err != CL_SUCCESS)
        return bench_failf(b, err, "clEnqueueNDRangeKernel(kernel %d) failed: %d", k, err);
    if (c->nev < cap) {
        c->ev[c->nev++] = ev;
    } else {
        clReleaseEvent(c->ev[cap - 1]);
        c->ev[cap - 1] = ev;
    }
    return 0;
}

int bench_read(struct bench *b, struct bench_cl *c, int slot, size_t bytes, void *out)
{
    cl_int err = clEnqueueReadBuffer(c->q, c->m[slot], CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_failf(b, err, "clEnqueueReadBuffer(%zu bytes) failed: %d", bytes, err);
    return 0;
}

int bench_write(struct bench *b, struct bench_cl *c, int slot, size_t bytes, const void *src)
{
    cl_int err = clEnqueueWriteBuffer(c->q, c->m[slot], CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_failf(b, err, "clEnqueueWriteBuffer(%zu bytes) failed: %d", bytes, err);
    return 0;
}

/* ---- output --------------------------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static const char *unit_name(enum bench_unit u)
{
    switch (u) {
    case BU_GFLOPS: return "GFLOP/s";
    case BU_GFLOPS_DP: return "GFLOP/s-dp";
    case BU_GIOPS: return "GIOP/s";
    case BU_GBS: return "GB/s";
    case BU_LAUNCH: return "us/launch";
    }
    return "?";
}

struct result {
    const char *platform;
    int ok;                  /* ran to completion */
    int verified;            /* every checked run matched the reference */
    int checked;             /* runs whose output was compared: the warm-up and the timed ones */
    int wrong_run;           /* the first that did not match: 0 the warm-up, i the i-th timed */
    double max_err;          /* the largest over the checked runs */
    double t_med, t_min, t_max, dev_med;
    double compile;          /* clBuildProgram, seconds; 0 when no build was attempted */
    double jit;              /* compiling at the first launch (see run_cl); <0 when unknown */
    double first;            /* the warm-up run, wall clock like t_med */
    int have_dev;
    char err[300];
};

static void emit(const struct bench *b, const struct result *r)
{
    printf("{\"bench\":");
    json_str(stdout, b->d->name);
    printf(",\"platform\":");
    json_str(stdout, r->platform);
    printf(",\"size\":");
    json_str(stdout, b->size_desc);
    printf(",\"unit\":\"%s\",\"work\":%.6g", unit_name(b->d->unit), b->work);
    if (r->ok) {
        printf(",\"verified\":%s,\"max_err\":%.3g,\"checked\":%d", r->verified ? "true" : "false",
               r->max_err, r->checked);
        if (!r->verified)
            printf(",\"wrong_run\":%d", r->wrong_run);
        if (r->verified) {
            printf(",\"median\":%.6g,\"min\":%.6g,\"max\":%.6g", r->t_med, r->t_min, r->t_max);
            if (r->have_dev)
                printf(",\"device\":%.6g", r->dev_med);
            if (r->jit >= 0)
                printf(",\"jit\":%.4g,\"first\":%.6g", r->jit, r->first);
        }
    } else {
        printf(",\"verified\":false,\"error\":");
        json_str(stdout, r->err);
    }
    if (r->compile > 0)
        printf(",\"compile\":%.4g", r->compile);
    printf("}\n");
    fflush(stdout);
}

/* A hung benchmark: report it and leave, so the caller can go on with the next one. */
static struct bench *current_bench;
static const char *current_platform = "";
static void on_alarm(int sig)
{
    (void)sig;
    /* formatted into a buffer and written with write(2): stdio may be locked by the thread
     * this signal interrupted */
    static char line[512];
    if (current_bench) {
        int n = snprintf(line, sizeof line,
                         "{\"bench\":\"%s\",\"platform\":\"%s\",\"size\":\"%s\",\"unit\":\"%s\","
                         "\"work\":%.6g,\"verified\":false,\"error\":\"timed out\"}\n",
                         current_bench->d->name, current_platform, current_bench->size_desc,
                         unit_name(current_bench->d->unit), current_bench->work);
        if (n > 0 && write(1, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            _exit(4);
    }
    _exit(3);
}

/* ---- verification ------------------------------------------------------------------------- */

/* Per element |out - ref| / (|ref| + atol), with atol a small fraction of the largest |ref| so
 * that elements near zero are judged on the output's scale. Returns the largest such error. */
static double compare(enum bench_type t, const void *out, const void *ref, size_t n)
{
    double worst = 0;
    if (t == BT_INT) {
        const int32_t *o = out, *r = ref;
        for (size_t i = 0; i < n; i++)
            if (o[i] != r[i])
                worst = fmax(worst, fabs((double)o[i] - r[i]) / (fabs((double)r[i]) + 1));
        return worst;
    }
    double scale = 0;
    for (size_t i = 0; i < n; i++)
        scale = fmax(scale, fabs(t == BT_FLOAT ? ((const float *)ref)[i] : ((const double *)ref)[i]));
    double atol = 1e-3 * scale + 1e-30;
    for (size_t i = 0; i < n; i++) {
        double o = t == BT_FLOAT ? ((const float *)out)[i] : ((const double *)out)[i];
        double r = t == BT_FLOAT ? ((const float *)ref)[i] : ((const double *)ref)[i];
        double e = fabs(o - r) / (fabs(r) + atol);
        if (!(e <= worst)) /* NaN counts as the worst error */
            worst = isnan(e) ? INFINITY : e;
    }
    return worst;
}

static size_t type_size(enum bench_type t)
{
    return t == BT_DOUBLE ? 8 : 4;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- OpenCL platform ---------------------------------------------------------------------- */

static int find_device(const char *want, cl_platform_id *pp, cl_device_id *dp, char *name, size_t len)
{
    cl_uint np = 0;
    cl_platform_id plats[16];
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np && i < 16; i++) {
        char pname[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (want && !strstr(pname, want))
            continue;
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, dp, &nd) != CL_SUCCESS || nd == 0)
            continue;
        *pp = plats[i];
        snprintf(name, len, "%s", pname);
        return 0;
    }
    return -1;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static void release_cl(struct bench_cl *c)
{
    for (int i = 0; i < c->nev; i++)
        clReleaseEvent(c->ev[i]);
    c->nev = 0;
    for (int i = 0; i < 4; i++)
        if (c->k[i])
            clReleaseKernel(c->k[i]);
    for (int i = 0; i < 8; i++)
        if (c->m[i])
            clReleaseMemObject(c->m[i]);
    if (c->prog)
        clReleaseProgram(c->prog);
    memset(c->k, 0, sizeof c->k);
    memset(c->m, 0, sizeof c->m);
    memset(c->init, 0, sizeof c->init);
    c->prog = NULL;
}

/* Device time of the recorded launches: first START to last END, in seconds; <0 if the
 * platform does not answer profiling queries. */
static double device_time(struct bench_cl *c)
{
    cl_ulong first = 0, last = 0;
    for (int i = 0; i < c->nev; i++) {
        cl_ulong s, e;
        if (clGetEventProfilingInfo(c->ev[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) != CL_SUCCESS ||
            clGetEventProfilingInfo(c->ev[i], CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) != CL_SUCCESS)
            return -1;
        if (i == 0 || s < first)
            first = s;
        if (e > last)
            last = e;
    }
    return c->nev ? (double)(last - first) * 1e-9 : -1;
}

/* Writes every writable buffer made from host data again (bench_buffer), blocking. */
static int restore_inputs(struct bench *b, struct bench_cl *c)
{
    for (int i = 0; i < 8; i++) {
        if (!c->init[i])
            continue;
        cl_int err = clEnqueueWriteBuffer(c->q, c->m[i], CL_TRUE, 0, c->init_bytes[i], c->init[i], 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return bench_failf(b, err, "restoring buffer %d before a timed run failed: %d", i, err);
    }
    return 0;
}

/* Reads run `run`'s output (0: the warm-up, i: the i-th timed run) into out and compares it with
 * the reference: r's largest error grows, and the first run that does not match makes r not
 * verified. Returns nonzero when the read fails. */
static int check_run(struct bench *b, struct bench_cl *c, void *out, const void *ref, int run, struct result *r)
{
    const struct bench_desc *d = b->d;
    int err = d->cl_read(b, c, out);
    if (err != 0)
        return err;
    /* WEFT_BENCH_CORRUPT=name damages one output element of that benchmark, so that a test can
     * check that wrong results are caught and reported as WRONG, never as a time;
     * WEFT_BENCH_CORRUPT_RUN=i damages only the i-th timed run's (0: the warm-up runs') */
    const char *corrupt = getenv("WEFT_BENCH_CORRUPT"), *corrupt_run = getenv("WEFT_BENCH_CORRUPT_RUN");
    if (corrupt && !strcmp(corrupt, d->name) && b->out_count && (!corrupt_run || atoi(corrupt_run) == run)) {
        if (d->out_type == BT_FLOAT)
            ((float *)out)[b->out_count / 2] += 1.0f;
        else if (d->out_type == BT_DOUBLE)
            ((double *)out)[b->out_count / 2] += 1.0;
        else
            ((int32_t *)out)[b->out_count / 2] += 1;
    }
    double e = compare(d->out_type, out, ref, b->out_count);
    if (r->checked == 0 || e > r->max_err || isnan(e))
        r->max_err = e;
    r->checked++;
    if (!(e <= d->tol) && r->verified) {
        r->verified = 0;
        r->wrong_run = run;
    }
    return 0;
}

/* A run after the first: the events of the one before released and the inputs restored
 * (untimed), then the launches and clFinish timed (*enq: the enqueue calls, *wall: up to
 * clFinish's return), then the output read back and compared (untimed, check_run's `run`). The
 * run's events stay for device_time. */
static int run_again(struct bench *b, struct bench_cl *c, void *out, const void *ref, int run, struct result *r,
                     double *enq, double *wall)
{
    for (int j = 0; j < c->nev; j++)
        clReleaseEvent(c->ev[j]);
    c->nev = 0;
    int err = restore_inputs(b, c);
    if (err != 0)
        return err;
    double s = now();
    if ((err = b->d->cl_run(b, c)) != 0)
        return err;
    *enq = now() - s;
    cl_int cerr = clFinish(c->q);
    if (cerr != CL_SUCCESS)
        return bench_failf(b, cerr, "clFinish failed: %d", cerr);
    *wall = now() - s;
    return check_run(b, c, out, ref, run, r);
}

static void run_cl(struct bench *b, struct bench_cl *c, const char *platform, int repeat,
                   const void *ref)
{
    struct result r = {.platform = platform, .jit = -1};
    const struct bench_desc *d = b->d;
    size_t obytes = b->out_count * type_size(d->out_type);
    void *out = calloc(1, obytes ? obytes : 1);
    char path[1400];
    snprintf(path, sizeof path, "%s/%s.cl", kernel_dir(), d->file);
    char *src = read_text(path);
    int err = 0;
    if (!src) {
        snprintf(r.err, sizeof r.err, "cannot read %.200s: %.60s", path, strerror(errno));
        goto done;
    }
    cl_int cerr;
    double t0 = now();
    c->prog = clCreateProgramWithSource(c->ctx, 1, (const char **)&src, NULL, &cerr);
    if (cerr == CL_SUCCESS) {
        /* a file that includes another finds it in the kernels' folder (only then: Weft does
         * not cache builds with -I, whose inputs it cannot see) */
        char options[2400];
        int inc = strstr(src, "#include") != NULL;
        snprintf(options, sizeof options, "%s%s%s%s", inc ? "-I " : "", inc ? kernel_dir() : "",
                 inc ? " " : "", d->options ? d->options : "");
        cerr = clBuildProgram(c->prog, 1, &c->dev, options, NULL, NULL);
    }
    r.compile = now() - t0;
    if (cerr != CL_SUCCESS) {
        char log[200] = "";
        if (c->prog)
            clGetProgramBuildInfo(c->prog, c->dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        snprintf(r.err, sizeof r.err, "build failed (%d): %.200s", cerr, log);
        goto done;
    }
    if ((err = d->cl_init(b, c)) != 0)
        goto fail;
    /* warm-up run: also the one that is verified. Its enqueue calls also compile what a
     * platform compiles at the first launch (Weft: the kernel's variant for the local size,
     * where the work-group function is built, vectorized and optimized) */
    double e0 = now();
    if ((err = d->cl_run(b, c)) != 0)
        goto fail;
    double first_enqueue = now() - e0;
    if ((cerr = clFinish(c->q)) != CL_SUCCESS) {
        err = bench_failf(b, cerr, "clFinish failed: %d", cerr);
        goto fail;
    }
    r.first = now() - e0;
    r.ok = 1;
    r.verified = 1;
    if ((err = check_run(b, c, out, ref, 0, &r)) != 0)
        goto fail;
    /* then, as the native side (run_native), untimed runs until 50 ms have passed (at most 9
     * more), each verified: the first run compiled on one thread while the other cores idled,
     * and on the 16-core device machine the launches after it took 3x, 2x, 1.4x the steady time
     * (reduction: 1.6, 1.1, 0.75, 0.6 ms, then 0.55), so one warm-up timed the platform while
     * its cores woke up, and the native side after its 50 ms */
    double w0 = now(), ignored;
    for (int i = 1; i < 10 && r.verified && now() - w0 < 0.05; i++)
        if ((err = run_again(b, c, out, ref, 0, &r, &ignored, &ignored)) != 0)
            goto fail;
    if (!r.verified)
        goto done;
    double *t = calloc((size_t)repeat, sizeof *t), *dv = calloc((size_t)repeat, sizeof *dv),
           *enq = calloc((size_t)repeat, sizeof *enq);
    r.have_dev = 1;
    for (int i = 0; i < repeat && r.verified; i++) {
        if ((err = run_again(b, c, out, ref, i + 1, &r, &enq[i], &t[i])) != 0) {
            free(t);
            free(dv);
            free(enq);
            goto fail;
        }
        dv[i] = device_time(c);
        if (dv[i] < 0)
            r.have_dev = 0;
    }
    if (!r.verified) {
        free(t);
        free(dv);
        free(enq);
        goto done;
    }
    r.t_min = r.t_max = t[0];
    for (int i = 0; i < repeat; i++) {
        r.t_min = fmin(r.t_min, t[i]);
        r.t_max = fmax(r.t_max, t[i]);
    }
    r.t_med = median(t, repeat);
    if (r.have_dev)
        r.dev_med = median(dv, repeat);
    /* the first launch's compile, where the platform does it in the enqueue call (Weft does,
     * so that the call can report a failure): what the warm-up's enqueue calls took beyond the
     * timed runs'. A platform that compiles after the call has returned (pocl 3.1) shows
     * about 0 here; for it, first - median is the estimate (run-to-run noise included). */
    r.jit = fmax(0, first_enqueue - median(enq, repeat));
    free(t);
    free(dv);
    free(enq);
    goto done;
fail:
    snprintf(r.err, sizeof r.err, "%.280s", b->err[0] ? b->err : "failed");
    r.ok = 0;
done:
    emit(b, &r);
    release_cl(c);
    free(src);
    free(out);
}

/* Before the first native benchmark of a process: every OpenMP thread busy for `seconds`
 * (floating-point work on a private MiB it writes), untimed. The first native run after the
 * device machine started was up to 6x slower than later ones: cores idle in deep sleep states
 * at a low clock, threads not yet created, memory not yet touched. */
static void native_spin(double seconds)
{
    double t0 = now(), sink = 0;
#pragma omp parallel reduction(+ : sink)
    {
        enum { N = 1 << 18 };
        float *x = malloc(N * sizeof *x);
        float acc = (float)omp_get_thread_num();
        while (x && now() - t0 < seconds)
            for (int i = 0; i < N; i++) {
                x[i] = acc;
                acc = acc * 0.999f + 1e-3f;
            }
        sink += acc;
        free(x);
    }
    if (sink == 1234.5)
        fprintf(stderr, " ");
}

static void run_native(struct bench *b, int repeat, const void *ref)
{
    struct result r = {.platform = "native", .ok = 1, .verified = 1, .jit = -1};
    size_t obytes = b->out_count * type_size(b->d->out_type);
    void *out = calloc(1, obytes ? obytes : 1);
    double *t = calloc((size_t)repeat, sizeof *t);
    /* warm-up beyond the reference's run: short benchmarks run until 50 ms have passed (up to
     * 10 runs), so that the first timed run finds its pages, caches and threads as the others */
    double w0 = now();
    for (int i = 0; i == 0 || (i < 10 && now() - w0 < 0.05); i++)
        b->d->native(b, out);
    for (int i = 0; i < repeat; i++) {
        double s = now();
        b->d->native(b, out);
        t[i] = now() - s;
        /* the reference is deterministic: every timed run must agree with it (untimed) */
        double e = compare(b->d->out_type, out, ref, b->out_count);
        r.max_err = i == 0 || isnan(e) ? e : fmax(r.max_err, e);
        r.checked++;
        if (!(e <= b->d->tol) && r.verified) {
            r.verified = 0;
            r.wrong_run = i + 1;
        }
    }
    r.t_min = r.t_max = t[0];
    for (int i = 0; i < repeat; i++) {
        r.t_min = fmin(r.t_min, t[i]);
        r.t_max = fmax(r.t_max, t[i]);
    }
    r.t_med = median(t, repeat);
    emit(b, &r);
    free(t);
    free(out);
}

/* ---- peaks ---------------------------------------------------------------------------------- */

/* The FMA peak is a loop that reaches what kernels reach, or more: an FMA peak below a
 * kernel's throughput (the 16-core Xeon read 1409 GFLOP/s while mad_float ran at 2008) makes
 * every "% of peak" wrong. So: as many independent accumulator chains as the vector registers
 * hold, beyond FMA latency x FMA pipes (2 x 4 on current x86 cores); every vector width the
 * build can target, keeping the best (a part with a single 512-bit FMA unit, or a lower clock
 * under 512-bit FMAs, does more with 256-bit vectors); the threads pinned, one per CPU, and
 * timed between two barriers, so that waking the team is not timed; the best of many trials. */
typedef float vf16 __attribute__((vector_size(64)));
typedef double vd8 __attribute__((vector_size(64)));
typedef float vf8 __attribute__((vector_size(32)));
typedef double vd4 __attribute__((vector_size(32)));

#ifdef __AVX512F__
#define PEAK_CHAINS 24 /* of 32 vector registers: the chains, the two operands, spares */
#else
#define PEAK_CHAINS 12 /* of 16 */
#endif
static volatile float peak_m = 0.999999f, peak_a = 1e-7f;
static cpu_set_t peak_cpus; /* the CPUs this process may run on (sched_getaffinity) */

/* Pins the calling thread to the t-th CPU of peak_cpus (modulo their number). */
static void pin_thread(int t)
{
    int count = CPU_COUNT(&peak_cpus), k = 0;
    for (int cpu = 0; count > 0 && cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &peak_cpus) && k++ == t % count) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof one, &one);
            return;
        }
}

/* The same loop for each element type and width: TYPE is the scalar, VT its vector of LANES.
 * Returns GFLOP/s (2 per FMA lane) of all the team's threads. */
#define PEAK_FMA(NAME, TYPE, VT, LANES)                                                     \
    static double NAME(long iters)                                                          \
    {                                                                                       \
        double t0 = 0, t1 = 1;                                                              \
        int team = 1;                                                                       \
        TYPE sink = 0;                                                                      \
        _Pragma("omp parallel reduction(+ : sink)")                                         \
        {                                                                                   \
            pin_thread(omp_get_thread_num());                                               \
            VT acc[PEAK_CHAINS];                                                            \
            /* read through volatile so the compiler cannot fold the chain */               \
            VT m = (VT){0} + peak_m, a = (VT){0} + peak_a;                                  \
            for (int j = 0; j < PEAK_CHAINS; j++)                                           \
                acc[j] = (VT){0} + (TYPE)(j + omp_get_thread_num());                        \
            _Pragma("omp barrier")                                                          \
            _Pragma("omp master")                                                           \
            {                                                                               \
                team = omp_get_num_threads();                                               \
                t0 = now();                                                                 \
            }                                                                               \
            for (long i = 0; i < iters; i++) {                                              \
                /* unrolled, so that the chains live in registers */                        \
                _Pragma("GCC unroll 32") for (int j = 0; j < PEAK_CHAINS; j++)              \
                    acc[j] = acc[j] * m + a;                                                \
            }                                                                               \
            _Pragma("omp barrier")                                                          \
            _Pragma("omp master")                                                           \
            t1 = now();                                                                     \
            for (int j = 0; j < PEAK_CHAINS; j++)                                           \
                for (int l = 0; l < LANES; l++)                                             \
                    sink += acc[j][l];                                                      \
        }                                                                                   \
        if (sink == (TYPE)1234.5)                                                           \
            fprintf(stderr, " ");                                                           \
        return (double)team * iters * PEAK_CHAINS * LANES * 2 / (t1 - t0) * 1e-9;           \
    }

#ifdef __AVX512F__
PEAK_FMA(peak_fma_float512, float, vf16, 16)
PEAK_FMA(peak_fma_double512, double, vd8, 8)
#endif
PEAK_FMA(peak_fma_float256, float, vf8, 8)
PEAK_FMA(peak_fma_double256, double, vd4, 4)

/* The best of the widths for one trial; *bits says which won. */
static double peak_fma(int dp, long iters, int *bits)
{
    double f = dp ? peak_fma_double256(iters) : peak_fma_float256(iters);
    *bits = 256;
#ifdef __AVX512F__
    /* twice the lanes per FMA: as many flops in half the iterations */
    double w = dp ? peak_fma_double512(iters / 2) : peak_fma_float512(iters / 2);
    if (w > f) {
        f = w;
        *bits = 512;
    }
#endif
    return f;
}

static double peak_stream(size_t n, int reps, int which)
{
    float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0f;
        b[i] = 2.0f;
        c[i] = 0.5f;
    }
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (which == 0) {
#pragma omp parallel for schedule(static)
            for (size_t i = 0; i < n; i++)
                c[i] = a[i];
        } else {
#pragma omp parallel for schedule(static)
            for (size_t i = 0; i < n; i++)
                a[i] = b[i] + 0.5f * c[i];
        }
        best = fmin(best, now() - t0);
    }
    free(a);
    free(b);
    free(c);
    return (which == 0 ? 2.0 : 3.0) * n * 4 / best * 1e-9;
}

/* The theoretical single-precision peak from the nominal clock and the ISA: lanes x FMA pipes x 2. */
static void theoretical(double *sp, char *desc, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[1024];
    double mhz = 0;
    int family = 0, avx512 = 0, avx2 = 0, amd = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!mhz && sscanf(line, "cpu MHz : %lf", &mhz) == 1)
            continue;
        if (!family && sscanf(line, "cpu family : %d", &family) == 1)
            continue;
        if (strstr(line, "AuthenticAMD"))
            amd = 1;
        if (!strncmp(line, "flags", 5)) {
            avx512 = strstr(line, " avx512f") != NULL;
            avx2 = strstr(line, " avx2") != NULL;
        }
    }
    if (f)
        fclose(f);
    /* Zen 4 (family 0x19) runs 512-bit FMAs on two 256-bit pipes; Intel AVX-512 parts with two
     * 512-bit FMA units do 32 FMA lanes per cycle. */
    int lanes = avx512 ? (amd && family <= 0x19 ? 16 : 32) : avx2 ? 16 : 8;
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    *sp = ncpu * mhz * 1e-3 * lanes * 2;
    snprintf(desc, len, "%d cpus x %.0f MHz x %d FMA lanes/cycle x 2 (%s)", ncpu, mhz, lanes,
             avx512 ? "AVX-512" : avx2 ? "AVX2" : "SSE");
}

static int run_peak(enum bench_size size)
{
    /* Many short trials, keeping the best: on a shared machine a long trial is preempted and
     * measures the neighbours, a few-millisecond one usually runs alone. */
    long iters = 200000;
    int trials = size == BENCH_SMALL ? 10 : 40;
    size_t n = size == BENCH_SMALL ? (size_t)4 << 20 : (size_t)32 << 20;
    if (sched_getaffinity(0, sizeof peak_cpus, &peak_cpus) != 0)
        CPU_ZERO(&peak_cpus);
    /* wake the cores up: clocks ramp up and wide-vector units power on under load, over tens
     * of milliseconds, before the first trial counts */
    int bits_sp = 0, bits_dp = 0, bits;
    for (double t0 = now(); now() - t0 < 0.2;)
        peak_fma(0, iters, &bits);
    double fs = 0, fd = 0;
    for (int i = 0; i < trials; i++) {
        double f = peak_fma(0, iters, &bits);
        if (f > fs) {
            fs = f;
            bits_sp = bits;
        }
        f = peak_fma(1, iters, &bits);
        if (f > fd) {
            fd = f;
            bits_dp = bits;
        }
    }
    /* one thread alone: how far two vCPUs are from twice one core */
    int threads = omp_get_max_threads();
    double f1 = 0;
    omp_set_num_threads(1);
    for (int i = 0; i < trials; i++)
        f1 = fmax(f1, peak_fma(0, iters, &bits));
    omp_set_num_threads(threads);
    /* the bandwidth loops run wherever the scheduler puts them, as the benchmarks do */
    #pragma omp parallel
    sched_setaffinity(0, sizeof peak_cpus, &peak_cpus);
    double bw_copy = peak_stream(n, trials / 2, 0), bw_triad = peak_stream(n, trials / 2, 1);
    double th;
    char desc[200];
    theoretical(&th, desc, sizeof desc);
    printf("{\"peak\":true,\"threads\":%d,\"fma_sp_gflops\":%.2f,\"fma_dp_gflops\":%.2f,"
           "\"fma_sp_bits\":%d,\"fma_dp_bits\":%d,\"fma_chains\":%d,"
           "\"fma_sp_1thread_gflops\":%.2f,\"copy_gbs\":%.2f,\"triad_gbs\":%.2f,"
           "\"theoretical_sp_gflops\":%.1f,\"theoretical\":",
           threads, fs, fd, bits_sp, bits_dp, PEAK_CHAINS, f1, bw_copy, bw_triad, th);
    json_str(stdout, desc);
    /* which kernels the native BLAS references run: OpenBLAS picks them from the CPU, unless
     * OPENBLAS_CORETYPE names a core (an older one can halve sgemm) */
    const char *forced = getenv("OPENBLAS_CORETYPE");
    char blas[300];
    snprintf(blas, sizeof blas, "%s%s%s", openblas_get_config(), forced ? ", OPENBLAS_CORETYPE=" : "",
             forced ? forced : "");
    printf(",\"blas\":");
    json_str(stdout, blas);
    printf("}\n");
    return 0;
}

/* ---- main ----------------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: weft-bench-runner (--list | --platforms | --peak | --native | --platform NAME)\n"
                    "         [--filter S] [--size small|default|large] [--repeat N] [--timeout S] [--quiet]\n"
                    "         [--threads N,N,... [--rounds R]]  (--native or --platform: once per thread\n"
                    "         count, the list R times over, each count's fastest round kept)\n");
}

static int matches(const char *name, const char *filter)
{
    if (!filter || !*filter)
        return 1;
    /* comma-separated substrings; "=name" matches one benchmark exactly. A copy as long as
     * the filter: a fixed buffer cut a list of every benchmark by name after the 40th */
    char *buf = strdup(filter);
    if (!buf)
        return 1;
    int found = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok && !found; tok = strtok_r(NULL, ",", &save))
        found = tok[0] == '=' ? !strcmp(name, tok + 1) : strstr(name, tok) != NULL;
    free(buf);
    return found;
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *filter = NULL, *threads = NULL;
    int native = 0, list = 0, peak = 0, platforms = 0, repeat = 5, timeout = 300, quiet = 0, rounds = 1;
    enum bench_size size = BENCH_DEFAULT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list"))
            list = 1;
        else if (!strcmp(a, "--platforms"))
            platforms = 1;
        else if (!strcmp(a, "--peak"))
            peak = 1;
        else if (!strcmp(a, "--native"))
            native = 1;
        else if (!strcmp(a, "--quiet"))
            quiet = 1;
        else if (!strcmp(a, "--platform") && v)
            platform = argv[++i];
        else if (!strcmp(a, "--filter") && v)
            filter = argv[++i];
        else if (!strcmp(a, "--threads") && v)
            threads = argv[++i];
        else if (!strcmp(a, "--repeat") && v)
            repeat = atoi(argv[++i]);
        else if (!strcmp(a, "--rounds") && v)
            rounds = atoi(argv[++i]);
        else if (!strcmp(a, "--timeout") && v)
            timeout = atoi(argv[++i]);
        else if (!strcmp(a, "--size") && v) {
            v = argv[++i];
            if (!strcmp(v, "small"))
                size = BENCH_SMALL;
            else if (!strcmp(v, "default"))
                size = BENCH_DEFAULT;
            else if (!strcmp(v, "large"))
                size = BENCH_LARGE;
            else {
                usage();
                return 2;
            }
        } else {
            usage();
            return 2;
        }
    }
    if (repeat < 1)
        repeat = 1;
    /* "compile" and "jit" are compile times only if nothing comes from the platforms' on-disk
     * caches of compiled programs (every benchmark runs in a fresh process, so with a cache all
     * but the very first build would be a lookup): off unless the caller chose otherwise.
     * POCL_KERNEL_CACHE=0 makes pocl delete what it compiled at clReleaseProgram. */
    setenv("WEFT_CACHE_DIR", "off", 0);
    setenv("POCL_KERNEL_CACHE", "0", 0);
    if (list) {
        for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
            for (const struct bench_desc *d = families[f]; d->name; d++)
                if (matches(d->name, filter))
                    printf("%s\n", d->name);
        return 0;
    }
    if (platforms) {
        cl_uint np = 0;
        cl_platform_id plats[16];
        if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
            np = 0;
        for (cl_uint i = 0; i < np && i < 16; i++) {
            char pname[256] = "";
            clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
            cl_uint nd = 0;
            cl_device_id dev;
            if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dev, &nd) == CL_SUCCESS && nd)
                printf("%s\n", pname);
        }
        return 0;
    }
    if (peak)
        return run_peak(size);
    if (!native && !platform) {
        usage();
        return 2;
    }
    if (threads)
        return bench_scaling(argc, argv, threads, rounds);

    struct bench_cl c = {0};
    char pname[256] = "native";
    if (!native) {
        cl_platform_id p;
        if (find_device(platform, &p, &c.dev, pname, sizeof pname) != 0) {
            fprintf(stderr, "weft-bench-runner: no OpenCL platform named '%s' with a device\n", platform);
            return 1;
        }
        cl_int err;
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
        c.ctx = clCreateContext(props, 1, &c.dev, NULL, NULL, &err);
        if (err == CL_SUCCESS) {
            cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
            c.q = clCreateCommandQueueWithProperties(c.ctx, c.dev, qp, &err);
        }
        if (err != CL_SUCCESS) {
            fprintf(stderr, "weft-bench-runner: cannot create a context and queue on '%s': %d\n", pname, err);
            return 1;
        }
    }
    current_platform = pname;
    if (native)
        native_spin(0.1);
    signal(SIGALRM, on_alarm);
    int failures = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const struct bench_desc *d = families[f]; d->name; d++) {
            if (!matches(d->name, filter))
                continue;
            struct bench b = {.d = d};
            if (!quiet)
                fprintf(stderr, "  %-22s %s ...\n", d->name, pname);
            current_bench = &b;
            alarm((unsigned)timeout);
            if (d->setup(&b, size) != 0) {
                struct result r = {.platform = pname};
                snprintf(r.err, sizeof r.err, "setup: %s", b.err);
                emit(&b, &r);
                failures++;
                continue;
            }
            size_t obytes = b.out_count * type_size(d->out_type);
            void *ref = calloc(1, obytes ? obytes : 1);
            d->native(&b, ref);
            if (native)
                run_native(&b, repeat, ref);
            else
                run_cl(&b, &c, pname, repeat, ref);
            alarm(0);
            current_bench = NULL;
            free(ref);
            for (int i = 0; i < 8; i++)
                free(b.in[i]);
        }
    if (c.q)
        clReleaseCommandQueue(c.q);
    if (c.ctx)
        clReleaseContext(c.ctx);
    return failures ? 1 : 0;
}
