/* tools/weft/bench.c — `weft bench`: runs the bundled corpus (bench/) on the Weft this binary
 * was built with, on every other CPU OpenCL platform registered on the system, and natively,
 * then prints one comparison table.
 *
 * Guarantees:
 * - The Weft beside this executable (../lib/libweft.so of a build or of an installed tree) is
 *   the one measured: the ICD loader is pointed (OCL_ICD_VENDORS) at a private directory
 *   holding an .icd naming it plus copies of the .icd files of /etc/OpenCL/vendors (a Weft
 *   registered there is skipped, so the one under test is the only Weft).
 * - Each (platform, benchmark) pair runs in its own weft-bench-runner process, so a crash or a
 *   hang (cut off by the runner's timeout) costs one cell, not the run.
 * - A result that does not match the native reference is printed as WRONG and never as a time;
 *   a failure (build error, crash, timeout) as FAILED with its reason under the table.
 * - Exit status: 0 when every benchmark ran and verified on Weft, 1 otherwise, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define MAX_PLATFORMS 8
#define MAX_BENCH 64

struct cell {
    int present, ok, verified;
    double median, min, max, device, max_err, work;
    double compile, jit;               /* clBuildProgram, first-launch compile (0 if absent) */
    char unit[16], size[64], err[300];
};

struct run {
    char platforms[MAX_PLATFORMS][128]; /* [0] is Weft; the last is "native" */
    int nplat;
    char bench[MAX_BENCH][64];
    int nbench;
    struct cell cells[MAX_BENCH][MAX_PLATFORMS];
    char peak_line[1024];
    double fma_sp, fma_dp, fma_sp1, copy_gbs, triad_gbs, theo_sp;
    char theo[200];
    char blas[300];                     /* the native BLAS: OpenBLAS's build and chosen core */
    char load_start[64], load_end[64];  /* /proc/loadavg: how shared the machine was */
    char *lines;                        /* every JSON line, for --json */
    size_t lines_len;
};

/* ---- a minimal reader for the runner's flat JSON lines ---------------------------------- */

/* Finds "key": in a flat object; copies a string value (unescaped) or the raw token of a
 * number/bool into out. Returns 1 when found. */
static int json_get(const char *line, const char *key, char *out, size_t len)
{
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p || len == 0)
        return 0;
    p += strlen(pat);
    size_t n = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            if (n + 1 < len)
                out[n++] = *p;
        }
    } else {
        for (; *p && *p != ',' && *p != '}'; p++)
            if (n + 1 < len)
                out[n++] = *p;
    }
    out[n] = 0;
    return 1;
}

static double json_num(const char *line, const char *key, double dflt)
{
    char buf[64];
    return json_get(line, key, buf, sizeof buf) ? strtod(buf, NULL) : dflt;
}

/* ---- running the runner ----------------------------------------------------------------- */

/* Runs argv with stdout captured; returns the output (malloc'd) and the exit status. */
static char *capture(char *const argv[], int *status)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0)
        return NULL;
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        fprintf(stderr, "weft bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ssize_t r;
    while ((r = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)r;
        if (cap - len < 1024)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    *status = st;
    return buf;
}

static void append_line(struct run *run, const char *line)
{
    size_t n = strlen(line);
    run->lines = realloc(run->lines, run->lines_len + n + 2);
    memcpy(run->lines + run->lines_len, line, n);
    run->lines_len += n;
    run->lines[run->lines_len++] = '\n';
    run->lines[run->lines_len] = 0;
}

static int is_weft_icd(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        fclose(f);
    }
    return strstr(line, "libweft") != NULL;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[4096];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return ok ? 0 : -1;
}

/* The folder this executable lies in: the runner and libweft.so are found from there
 * (bin/ and ../lib/ of a build, an installed tree or the device bundle), never at paths
 * compiled into the build. */
static void self_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    dir[n > 0 ? n : 0] = 0;
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, len, ".");
}

/* The --plot script: ../share/weft/bench/plot.py beside this executable (an installed tree, or
 * a build, whose share/weft/bench links to the sources: bench/CMakeLists.txt), else
 * bench/plot.py under the current folder (a copy of the repository). */
static void plot_script(char *path, size_t len)
{
    char dir[1000];
    self_dir(dir, sizeof dir);
    snprintf(path, len, "%s/../share/weft/bench/plot.py", dir);
    if (access(path, R_OK) != 0)
        snprintf(path, len, "bench/plot.py");
}

/* The private vendor directory: the Weft beside this executable (../lib/libweft.so) plus
 * every other registered platform. */
static int make_vendor_dir(char *dir, size_t len)
{
    char lib[1100], real[PATH_MAX];
    self_dir(lib, 1000);
    strcat(lib, "/../lib/libweft.so");
    if (!realpath(lib, real)) {
        fprintf(stderr, "weft bench: cannot find %s: %s\n", lib, strerror(errno));
        return -1;
    }
    snprintf(dir, len, "/tmp/weft-bench-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char to[1200];
    snprintf(to, sizeof to, "%s/weft.icd", dir);
    FILE *icd = fopen(to, "w");
    if (!icd || fprintf(icd, "%s\n", real) < 0 || fclose(icd) != 0) {
        fprintf(stderr, "weft bench: cannot write %s\n", to);
        return -1;
    }
    DIR *d = opendir("/etc/OpenCL/vendors");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".icd"))
            continue;
        char from[1200];
        snprintf(from, sizeof from, "/etc/OpenCL/vendors/%s", e->d_name);
        if (is_weft_icd(from))
            continue;
        snprintf(to, sizeof to, "%s/other-%s", dir, e->d_name);
        copy_file(from, to);
    }
    if (d)
        closedir(d);
    return 0;
}

static void remove_vendor_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static const char *short_name(const char *platform)
{
    if (strstr(platform, "Portable Computing Language"))
        return "pocl";
    return platform;
}

static void parse_cell(struct cell *c, const char *line)
{
    c->present = 1;
    char buf[64];
    c->verified = json_get(line, "verified", buf, sizeof buf) && !strcmp(buf, "true");
    c->ok = !json_get(line, "error", c->err, sizeof c->err);
    c->median = json_num(line, "median", NAN);
    c->min = json_num(line, "min", NAN);
    c->max = json_num(line, "max", NAN);
    c->device = json_num(line, "device", NAN);
    c->max_err = json_num(line, "max_err", NAN);
    c->work = json_num(line, "work", NAN);
    c->compile = json_num(line, "compile", 0);
    c->jit = json_num(line, "jit", 0);
    json_get(line, "unit", c->unit, sizeof c->unit);
    json_get(line, "size", c->size, sizeof c->size);
    if (c->ok && !c->verified) {
        /* the runner checks the warm-up run and every timed run; "wrong_run" is the first bad */
        int run = (int)json_num(line, "wrong_run", 0);
        char which[40] = "the warm-up run";
        if (run > 0)
            snprintf(which, sizeof which, "timed run %d", run);
        snprintf(c->err, sizeof c->err, "result differs from the native reference in %s (max error %.3g)", which,
                 c->max_err);
    }
}

/* ---- the table ---------------------------------------------------------------------------- */

static int good(const struct cell *c)
{
    return c->present && c->ok && c->verified && !isnan(c->median);
}

/* Throughput in the cell's unit (us/launch for launch latency). */
static double throughput(const struct cell *c)
{
    if (!strcmp(c->unit, "us/launch"))
        return c->median / c->work * 1e6;
    return c->work / c->median;
}

static double pct_peak(const struct run *run, const struct cell *c)
{
    double t = throughput(c);
    if (!strcmp(c->unit, "GFLOP/s"))
        return run->fma_sp > 0 ? 100 * t / run->fma_sp : NAN;
    if (!strcmp(c->unit, "GFLOP/s-dp"))
        return run->fma_dp > 0 ? 100 * t / run->fma_dp : NAN;
    if (!strcmp(c->unit, "GB/s")) {
        double bw = fmax(run->copy_gbs, run->triad_gbs);
        return bw > 0 ? 100 * t / bw : NAN;
    }
    return NAN;
}

static void time_str(char *buf, size_t len, const struct cell *c)
{
    if (!c->present)
        snprintf(buf, len, "-");
    else if (!c->ok)
        snprintf(buf, len, "FAILED");
    else if (!c->verified)
        snprintf(buf, len, "WRONG");
    else if (c->median < 1e-3)
        snprintf(buf, len, "%.1f us", c->median * 1e6);
    else
        snprintf(buf, len, "%.2f ms", c->median * 1e3);
}

static void read_loadavg(char *buf, size_t len)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double a = 0, b = 0, c = 0;
    if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
        snprintf(buf, len, "%.2f %.2f %.2f", a, b, c);
    else
        snprintf(buf, len, "unknown");
    if (f)
        fclose(f);
}

static void print_table(FILE *f, const struct run *run, const char *size)
{
    char cpu[256] = "unknown CPU";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    char line[1024];
    while (ci && fgets(line, sizeof line, ci))
        if (!strncmp(line, "model name", 10)) {
            char *v = strchr(line, ':');
            snprintf(cpu, sizeof cpu, "%.200s", v ? v + 2 : line);
            cpu[strcspn(cpu, "\n")] = 0;
            break;
        }
    if (ci)
        fclose(ci);
    fprintf(f, "\nweft bench — %s, %ld cpus, size %s\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), size);
    fprintf(f, "peak (measured): FMA %.1f GFLOP/s sp (one thread alone %.1f), %.1f GFLOP/s dp; "
               "stream copy %.1f GB/s, triad %.1f GB/s\n",
            run->fma_sp, run->fma_sp1, run->fma_dp, run->copy_gbs, run->triad_gbs);
    fprintf(f, "peak (theoretical): %.1f GFLOP/s sp = %s\n", run->theo_sp, run->theo);
    fprintf(f, "native references: C/OpenMP, sgemv and sgemm %s\n", run->blas[0] ? run->blas : "OpenBLAS");
    fprintf(f, "load average (1, 5, 15 min) at start: %s, at end: %s\n", run->load_start, run->load_end);
    fprintf(f, "times are medians of wall clock per run; speedup = other's time / Weft's time (>1: Weft faster)\n\n");

    fprintf(f, "%-16s %-26s", "benchmark", "size");
    for (int p = 0; p < run->nplat; p++)
        fprintf(f, " %11s", short_name(run->platforms[p]));
    fprintf(f, " %18s %7s %9s", "Weft throughput", "Weft%pk", "native%pk");
    for (int p = 1; p < run->nplat; p++) {
        char h[40];
        snprintf(h, sizeof h, "vs %s", short_name(run->platforms[p]));
        fprintf(f, " %10s", h);
    }
    fprintf(f, "\n");
    for (int b = 0; b < run->nbench; b++) {
        const struct cell *row = run->cells[b];
        const char *sz = "";
        for (int p = 0; p < run->nplat; p++)
            if (row[p].present && row[p].size[0]) {
                sz = row[p].size;
                break;
            }
        fprintf(f, "%-16s %-26s", run->bench[b], sz);
        for (int p = 0; p < run->nplat; p++) {
            char t[32];
            time_str(t, sizeof t, &row[p]);
            fprintf(f, " %11s", t);
        }
        const struct cell *w = &row[0], *nat = &row[run->nplat - 1];
        char thr[40] = "-", pk[16] = "-", npk[16] = "-";
        if (good(w)) {
            snprintf(thr, sizeof thr, "%.2f %s", throughput(w), w->unit);
            double pp = pct_peak(run, w);
            if (!isnan(pp))
                snprintf(pk, sizeof pk, "%.1f%%", pp);
        }
        if (good(nat)) {
            double pp = pct_peak(run, nat);
            if (!isnan(pp))
                snprintf(npk, sizeof npk, "%.1f%%", pp);
        }
        fprintf(f, " %18s %7s %9s", thr, pk, npk);
        for (int p = 1; p < run->nplat; p++) {
            char s[24] = "-";
            if (good(w) && good(&row[p]))
                snprintf(s, sizeof s, "%.2fx", row[p].median / w->median);
            fprintf(f, " %10s", s);
        }
        fprintf(f, "\n");
    }
    /* a throughput above the measured peak means the peak loop missed what the machine does */
    for (int b = 0; b < run->nbench; b++)
        for (int p = 0; p < run->nplat; p++) {
            const struct cell *c = &run->cells[b][p];
            double pp = good(c) ? pct_peak(run, c) : NAN;
            if (!isnan(pp) && pp > 100)
                fprintf(f, "note: %s on %s reached %.0f%% of the measured peak\n", run->bench[b],
                        short_name(run->platforms[p]), pp);
        }
    /* every benchmark builds its program in its own process, with the disk cache off (runner) */
    double build = 0, jit = 0;
    int built = 0;
    for (int b = 0; b < run->nbench; b++)
        if (run->cells[b][0].present && run->cells[b][0].compile > 0) {
            build += run->cells[b][0].compile;
            jit += run->cells[b][0].jit;
            built++;
        }
    if (built)
        fprintf(f, "\ncompile time (Weft, all programs): %.2f s (%d builds: clBuildProgram %.2f s + "
                   "first-launch JIT %.2f s)\n", build + jit, built, build, jit);
    int problems = 0;
    for (int b = 0; b < run->nbench; b++)
        for (int p = 0; p < run->nplat; p++) {
            const struct cell *c = &run->cells[b][p];
            if (c->present && (!c->ok || !c->verified)) {
                if (!problems++)
                    fprintf(f, "\nproblems:\n");
                fprintf(f, "  %s on %s: %s%s\n", run->bench[b], short_name(run->platforms[p]),
                        c->verified || !c->ok ? "" : "WRONG RESULT: ", c->err);
            }
        }
}

/* ---- the command ----------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f, "usage: weft bench [--filter S[,S...]] [--repeat N] [--size small|default|large]\n"
               "                  [--json FILE] [--plot FILE.png] [--timeout SECONDS]\n"
               "                  [--threads N,N... [--rounds R]]\n"
               "Runs the bench/ corpus on this build's Weft, every other CPU OpenCL platform and\n"
               "natively (C/OpenMP); prints medians, throughput, %% of peak and Weft's speedups.\n"
               "--threads 1,2,4,...: instead, Weft and native at each thread count, with each side's\n"
               "speedup over the first count (WEFT_NUM_THREADS; OMP_NUM_THREADS, OpenBLAS's too);\n"
               "--rounds R: the count list R times over, each count's fastest round kept.\n");
}

/* Runs benchmark `bench` on `platform` ("native": the C/OpenMP reference) in a runner process of
 * its own and fills its cell; returns the runner's result line, or, for a runner that died
 * without one, a line saying so (malloc'd). */
/* The runner's command line for one benchmark (`exact`: "=name") on `platform` ("native" for
 * the references), at every count of `threads` when not NULL (the runner's --threads), the list
 * `rounds` times over. */
static void runner_args(char *args[20], const char *runner, const char *platform, const char *exact,
                        const char *size, const char *repeat, const char *timeout, const char *threads,
                        const char *rounds)
{
    int n = 0;
    args[n++] = (char *)runner;
    if (!strcmp(platform, "native")) {
        args[n++] = "--native";
    } else {
        args[n++] = "--platform";
        args[n++] = (char *)platform;
    }
    if (threads) {
        args[n++] = "--threads";
        args[n++] = (char *)threads;
        args[n++] = "--rounds";
        args[n++] = (char *)rounds;
    }
    char *rest[] = {"--filter", (char *)exact, "--size", (char *)size, "--repeat", (char *)repeat,
                    "--timeout", (char *)timeout, "--quiet", NULL};
    for (int i = 0; rest[i]; i++)
        args[n++] = rest[i];
    args[n] = NULL;
}

static char *run_cell(const char *runner, const char *platform, const char *bench, const char *size,
                      const char *repeat, const char *timeout, struct cell *c)
{
    char exact[80];
    snprintf(exact, sizeof exact, "=%s", bench);
    char *args[20];
    runner_args(args, runner, platform, exact, size, repeat, timeout, NULL, NULL);
    int st;
    char *out = capture(args, &st);
    char *line = out ? strstr(out, "{\"bench\"") : NULL;
    if (line) {
        line[strcspn(line, "\n")] = 0;
        parse_cell(c, line);
        line = strdup(line);
        free(out);
        return line;
    }
    free(out);
    c->present = 1;
    if (WIFSIGNALED(st))
        snprintf(c->err, sizeof c->err, "runner killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(c->err, sizeof c->err, "runner exited with status %d and no result",
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    char synth[512];
    snprintf(synth, sizeof synth, "{\"bench\":\"%s\",\"platform\":\"%s\",\"verified\":false,\"error\":\"%s\"}",
             bench, platform, c->err);
    return strdup(synth);
}

/* One side's results for `bench` at each of the `nc` counts, from one runner run with --threads
 * `list` (which starts a process per count, with WEFT_NUM_THREADS, OMP_NUM_THREADS and
 * OPENBLAS_NUM_THREADS set: the pool and OpenMP size themselves once, as in an application). A
 * count the runner gave no result for gets a cell that says so. */
static void run_side(const char *runner, const char *side, const char *bench, const char *list,
                     const char *rounds, const char *size, const char *repeat, const char *timeout,
                     const int *counts, int nc, struct cell *cells)
{
    char exact[80];
    snprintf(exact, sizeof exact, "=%s", bench);
    char *args[20];
    runner_args(args, runner, side, exact, size, repeat, timeout, list, rounds);
    int st;
    char *out = capture(args, &st);
    memset(cells, 0, (size_t)nc * sizeof *cells);
    for (char *save, *l = strtok_r(out ? out : "", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "{\"bench\"", 8))
            continue;
        int t = (int)json_num(l, "threads", 0);
        for (int c = 0; c < nc; c++)
            if (counts[c] == t && !cells[c].present)
                parse_cell(&cells[c], l);
    }
    free(out);
    for (int c = 0; c < nc; c++)
        if (!cells[c].present) {
            cells[c].present = 1;
            snprintf(cells[c].err, sizeof cells[c].err, "runner gave no result at %d thread(s)", counts[c]);
        }
}

/* weft bench --threads: each benchmark on Weft and natively at every thread count of the comma
 * list `threads` (the runner's --threads, run_side), with each side's speedup over its own time
 * at the first count: whether Weft gains from cores what a native OpenMP program gains, not
 * which is faster (the main table says that). Returns 1 when a run failed. */
static int scaling(const char *runner, const char *threads, const char *rounds, const struct run *run,
                   const char *size, const char *repeat, const char *timeout)
{
    enum { MAX_COUNTS = 16 };
    int counts[MAX_COUNTS], nc = 0;
    char list[256], clean[256] = "";
    snprintf(list, sizeof list, "%s", threads);
    for (char *save, *t = strtok_r(list, ",", &save); t && nc < MAX_COUNTS; t = strtok_r(NULL, ",", &save))
        if (atoi(t) > 0) {
            counts[nc] = atoi(t);
            snprintf(clean + strlen(clean), sizeof clean - strlen(clean), "%s%d", nc ? "," : "", counts[nc]);
            nc++;
        }
    if (nc == 0) {
        fprintf(stderr, "weft bench: --threads wants a list of thread counts, e.g. 1,2,4,8,16\n");
        return 2;
    }
    static const char *const sides[2] = {"Weft", "native"};
    printf("thread scaling, size %s: medians (each count's fastest of %s round(s)); speedup = the side's "
           "time at %d thread(s) / its time at N\n\n",
           size, rounds, counts[0]);
    printf("%-18s %7s %12s %12s %9s %9s\n", "benchmark", "threads", "Weft", "native", "Weft x", "native x");
    int rc = 0;
    for (int b = 0; b < run->nbench; b++) {
        struct cell cells[2][MAX_COUNTS];
        for (int side = 0; side < 2; side++) {
            run_side(runner, sides[side], run->bench[b], clean, rounds, size, repeat, timeout, counts, nc,
                     cells[side]);
            for (int c = 0; c < nc; c++)
                rc |= !good(&cells[side][c]);
        }
        for (int c = 0; c < nc; c++) {
            printf("%-18s %7d", c == 0 ? run->bench[b] : "", counts[c]);
            for (int side = 0; side < 2; side++) {
                char t[32];
                time_str(t, sizeof t, &cells[side][c]);
                printf(" %12s", t);
            }
            for (int side = 0; side < 2; side++)
                if (good(&cells[side][c]) && good(&cells[side][0]))
                    printf(" %8.2fx", cells[side][0].median / cells[side][c].median);
                else
                    printf(" %9s", "-");
            printf("\n");
        }
        fflush(stdout);
    }
    return rc;
}

/* Runs the runner's --peak and keeps, field by field, the best value seen so far. */
static void measure_peak(struct run *run, char *runner, const char *size)
{
    char *const argv[] = {runner, "--peak", "--size", (char *)size, NULL};
    int st;
    char *out = capture(argv, &st);
    if (out && !strncmp(out, "{\"peak\"", 7)) {
        out[strcspn(out, "\n")] = 0;
        run->fma_sp = fmax(run->fma_sp, json_num(out, "fma_sp_gflops", 0));
        run->fma_dp = fmax(run->fma_dp, json_num(out, "fma_dp_gflops", 0));
        run->fma_sp1 = fmax(run->fma_sp1, json_num(out, "fma_sp_1thread_gflops", 0));
        run->copy_gbs = fmax(run->copy_gbs, json_num(out, "copy_gbs", 0));
        run->triad_gbs = fmax(run->triad_gbs, json_num(out, "triad_gbs", 0));
        run->theo_sp = json_num(out, "theoretical_sp_gflops", 0);
        json_get(out, "theoretical", run->theo, sizeof run->theo);
        json_get(out, "blas", run->blas, sizeof run->blas);
        /* the --json record holds the best values, the ones the table uses */
        snprintf(run->peak_line, sizeof run->peak_line,
                 "{\"peak\":true,\"fma_sp_gflops\":%.2f,\"fma_dp_gflops\":%.2f,"
                 "\"fma_sp_1thread_gflops\":%.2f,\"copy_gbs\":%.2f,\"triad_gbs\":%.2f,"
                 "\"theoretical_sp_gflops\":%.1f,\"theoretical\":\"%s\",\"blas\":\"%s\"}",
                 run->fma_sp, run->fma_dp, run->fma_sp1, run->copy_gbs, run->triad_gbs, run->theo_sp,
                 run->theo, run->blas);
    } else {
        fprintf(stderr, "weft bench: the peak measurement failed\n");
    }
    free(out);
}

static int write_json(const struct run *run, const char *path, const char *size)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "weft bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\"size\":\"%s\",\"platforms\":[", size);
    for (int p = 0; p < run->nplat; p++)
        fprintf(f, "%s\"%s\"", p ? "," : "", run->platforms[p]);
    fprintf(f, "],\n\"peak\":%s,\n\"results\":[\n", run->peak_line[0] ? run->peak_line : "null");
    const char *s = run->lines ? run->lines : "";
    int first = 1;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && strncmp(s, "{\"peak\"", 7)) {
            fprintf(f, "%s%.*s", first ? "" : ",\n", (int)n, s);
            first = 0;
        }
        s += n + (e != NULL);
    }
    fprintf(f, "\n]}\n");
    fclose(f);
    return 0;
}

int weft_cli_bench(int argc, char **argv)
{
    const char *filter = "", *size = "default", *json = NULL, *plot = NULL, *repeat = "5",
               *timeout = "300", *threads = NULL, *rounds = "1";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--filter") && v)
            filter = argv[++i];
        else if (!strcmp(a, "--repeat") && v && atoi(v) > 0)
            repeat = argv[++i];
        else if (!strcmp(a, "--timeout") && v && atoi(v) > 0)
            timeout = argv[++i];
        else if (!strcmp(a, "--size") && v &&
                 (!strcmp(v, "small") || !strcmp(v, "default") || !strcmp(v, "large")))
            size = argv[++i];
        else if (!strcmp(a, "--json") && v)
            json = argv[++i];
        else if (!strcmp(a, "--plot") && v)
            plot = argv[++i];
        else if (!strcmp(a, "--threads") && v)
            threads = argv[++i];
        else if (!strcmp(a, "--rounds") && v && atoi(v) > 0)
            rounds = argv[++i];
        else {
            fprintf(stderr, "weft bench: bad option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    const char *runner_env = getenv("WEFT_BENCH_RUNNER");
    char runner[1024];
    if (runner_env) {
        snprintf(runner, sizeof runner, "%s", runner_env);
    } else {
        self_dir(runner, 1000);
        strcat(runner, "/weft-bench-runner");
    }
    if (access(runner, X_OK) != 0) {
        fprintf(stderr, "weft bench: %s is missing (build the weft-bench-runner target)\n", runner);
        return 1;
    }
    char vdir[256];
    if (make_vendor_dir(vdir, sizeof vdir) != 0)
        return 1;
    setenv("OCL_ICD_VENDORS", vdir, 1);

    static struct run run;
    int st;
    /* platforms: Weft first, then the others in the loader's order, native last */
    char *const plat_argv[] = {runner, "--platforms", NULL};
    char *out = capture(plat_argv, &st);
    int have_weft = 0;
    for (char *save, *l = strtok_r(out ? out : "", "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (!strcmp(l, "Weft"))
            have_weft = 1;
    if (!have_weft) {
        fprintf(stderr, "weft bench: the loader does not list this build's Weft (vendor dir %s)\n", vdir);
        free(out);
        remove_vendor_dir(vdir);
        return 1;
    }
    snprintf(run.platforms[run.nplat++], 128, "Weft");
    free(out);
    out = capture(plat_argv, &st);
    for (char *save, *l = strtok_r(out ? out : "", "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (strcmp(l, "Weft") && run.nplat < MAX_PLATFORMS - 1)
            snprintf(run.platforms[run.nplat++], 128, "%s", l);
    free(out);
    snprintf(run.platforms[run.nplat++], 128, "native");

    char *const list_argv[] = {runner, "--list", "--filter", (char *)filter, NULL};
    out = capture(list_argv, &st);
    for (char *save, *l = strtok_r(out ? out : "", "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (run.nbench < MAX_BENCH)
            snprintf(run.bench[run.nbench++], 64, "%s", l);
    free(out);
    if (run.nbench == 0) {
        fprintf(stderr, "weft bench: no benchmark matches '%s'\n", filter);
        remove_vendor_dir(vdir);
        return 2;
    }

    if (threads) {
        int rc = scaling(runner, threads, rounds, &run, size, repeat, timeout);
        remove_vendor_dir(vdir);
        return rc;
    }
    fprintf(stderr, "weft bench: %d benchmarks on", run.nbench);
    for (int p = 0; p < run.nplat; p++)
        fprintf(stderr, "%s %s", p ? "," : "", short_name(run.platforms[p]));
    fprintf(stderr, " (size %s, %s runs each)\nmeasuring peaks ...\n", size, repeat);
    measure_peak(&run, runner, size);

    read_loadavg(run.load_start, sizeof run.load_start);
    int total = run.nbench * run.nplat, done = 0;
    for (int p = 0; p < run.nplat; p++)
        for (int b = 0; b < run.nbench; b++) {
            fprintf(stderr, "[%3d/%d] %-8s %-18s ", ++done, total, short_name(run.platforms[p]), run.bench[b]);
            struct cell *c = &run.cells[b][p];
            char *line = run_cell(runner, run.platforms[p], run.bench[b], size, repeat, timeout, c);
            append_line(&run, line);
            free(line);
            char t[32];
            time_str(t, sizeof t, c);
            fprintf(stderr, "%s\n", t);
        }
    /* measured again at the end, keeping the better of the two: on a shared machine one of
     * them may have had a core taken by someone else */
    fprintf(stderr, "measuring peaks again ...\n");
    measure_peak(&run, runner, size);
    remove_vendor_dir(vdir);
    read_loadavg(run.load_end, sizeof run.load_end);

    print_table(stdout, &run, size);
    fflush(stdout);

    int rc = 0;
    for (int b = 0; b < run.nbench; b++)
        if (!good(&run.cells[b][0]))
            rc = 1;
    if (rc)
        fprintf(stderr, "weft bench: some benchmarks did not run or verify on Weft (see problems)\n");

    char tmpjson[64] = "";
    if (plot && !json) {
        snprintf(tmpjson, sizeof tmpjson, "/tmp/weft-bench-XXXXXX.json");
        int fd = mkstemps(tmpjson, 5);
        if (fd >= 0)
            close(fd);
        json = tmpjson;
    }
    if (json && write_json(&run, json, size) != 0)
        rc = 1;
    if (plot) {
        char script[1100];
        plot_script(script, sizeof script);
        char *const py[] = {"/usr/bin/python3", script, (char *)json, (char *)plot, NULL};
        char *o = capture(py, &st);
        if (o && *o)
            fputs(o, stderr);
        free(o);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "weft bench: plotting failed (is python3-matplotlib installed?)\n");
            rc = 1;
        } else
            fprintf(stderr, "weft bench: wrote %s\n", plot);
    }
    if (tmpjson[0])
        unlink(tmpjson);
    free(run.lines);
    return rc;
}
