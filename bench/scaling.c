/* bench/scaling.c — weft-bench-runner --threads 1,2,4,...: thread scaling of one platform (or of
 * the native references), as JSON lines.
 *
 * Each thread count runs in a process of its own: Weft sizes its pool from WEFT_NUM_THREADS
 * when the library initializes, OpenMP reads OMP_NUM_THREADS when libgomp loads, and OpenBLAS
 * follows omp_get_max_threads() (b_linalg.c; OPENBLAS_NUM_THREADS is set too, for its pool's
 * first size). The speedup is the benchmark's own: its median at the first count over its
 * median at this count, so a Weft line and a native line say how much each side gains from
 * cores, not which is faster.
 *
 * --rounds R goes through the list R times and keeps each count's fastest round: on the 16-core
 * device machine one-thread runs are bimodal on both sides (mad_float natively 7.1 or 11.4-11.9
 * ms, on Weft 7.4 or 11.2-12.5 ms, from process to process, in one call), so a single round's
 * speedup said more about which state its first count caught than about either side. */
#define _GNU_SOURCE
#include "scaling.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_COUNTS = 16, MAX_BENCH = 128 };

/* The string value of "key" in a flat JSON line (no escapes in benchmark names), or "". */
static void json_text(const char *line, const char *key, char *out, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(line, pat);
    size_t n = 0;
    if (p)
        for (p += strlen(pat); *p && *p != '"' && n + 1 < len; p++)
            out[n++] = *p;
    out[n] = 0;
}

/* The number value of "key", or -1 when absent. */
static double json_number(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1;
}

/* Runs argv with `count` threads, stdout into a malloc'd string; *status is waitpid's. */
static char *run_with_threads(char **argv, const char *count, int *status)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return NULL;
    if (pid == 0) {
        setenv("WEFT_NUM_THREADS", count, 1);
        setenv("OMP_NUM_THREADS", count, 1);
        setenv("OPENBLAS_NUM_THREADS", count, 1);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "weft-bench-runner: cannot run itself again: %s\n", strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ssize_t r;
    while (buf && (r = read(fd[0], buf + len, cap - len - 1)) > 0) {
        len += (size_t)r;
        if (cap - len < 1024)
            buf = realloc(buf, cap *= 2);
    }
    if (buf)
        buf[len] = 0;
    close(fd[0]);
    waitpid(pid, status, 0);
    return buf;
}

/* Whether a kept line should give way to `line` (median `median`, <0 when it did not verify):
 * a failed round always shows (a wrong answer is never hidden behind a faster round), else the
 * fastest round does. */
static int replaces(const char *kept, double kept_median, double median)
{
    if (!kept)
        return 1;
    if (kept_median < 0)
        return 0;
    return median < 0 || median < kept_median;
}

int bench_scaling(int argc, char **argv, const char *counts, int rounds)
{
    char list[256], count[MAX_COUNTS][16];
    int nc = 0;
    snprintf(list, sizeof list, "%s", counts);
    for (char *save, *t = strtok_r(list, ",", &save); t && nc < MAX_COUNTS; t = strtok_r(NULL, ",", &save)) {
        if (atoi(t) < 1) {
            fprintf(stderr, "weft-bench-runner: --threads wants thread counts, e.g. 1,2,4,8: '%s'\n", t);
            return 2;
        }
        snprintf(count[nc++], sizeof count[0], "%d", atoi(t));
    }
    if (nc == 0) {
        fprintf(stderr, "weft-bench-runner: --threads wants thread counts, e.g. 1,2,4,8\n");
        return 2;
    }
    if (rounds < 1)
        rounds = 1;
    /* the same arguments without --threads LIST and --rounds N */
    char **child = calloc((size_t)argc + 1, sizeof *child);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && (!strcmp(argv[i], "--threads") || !strcmp(argv[i], "--rounds"))) {
            i++;
            continue;
        }
        child[n++] = argv[i];
    }
    child[n] = NULL;

    static char names[MAX_BENCH][64];
    static char *kept[MAX_BENCH][MAX_COUNTS];     /* each benchmark's line at each count */
    static double median[MAX_BENCH][MAX_COUNTS];  /* its median; <0: did not verify */
    int nb = 0, rc = 0;
    /* Rounds go through the whole list in turn (1,2,4,1,2,4,...), so that a slow spell of the
     * machine falls on every count alike rather than on one count's runs. */
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < nc; c++) {
            int st = 0;
            char *out = run_with_threads(child, count[c], &st);
            if (!out || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
                rc = 1;
            for (char *save, *l = strtok_r(out ? out : "", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
                size_t len = strlen(l);
                if (strncmp(l, "{\"bench\"", 8) || l[len - 1] != '}') {
                    puts(l);
                    continue;
                }
                char name[64];
                json_text(l, "bench", name, sizeof name);
                double m = strstr(l, "\"verified\":true") ? json_number(l, "median") : -1;
                int b = 0;
                while (b < nb && strcmp(names[b], name))
                    b++;
                if (b == nb) {
                    if (nb == MAX_BENCH)
                        continue;
                    snprintf(names[nb++], sizeof names[0], "%s", name);
                }
                if (replaces(kept[b][c], median[b][c], m)) {
                    free(kept[b][c]);
                    kept[b][c] = strdup(l);
                    median[b][c] = m;
                }
            }
            free(out);
        }
    /* each line with the thread count, and the speedup over the first count, before its brace */
    for (int c = 0; c < nc; c++)
        for (int b = 0; b < nb; b++) {
            const char *l = kept[b][c];
            if (!l)
                continue;
            printf("%.*s,\"threads\":%s,\"rounds\":%d", (int)(strlen(l) - 1), l, count[c], rounds);
            if (median[b][0] > 0 && median[b][c] > 0)
                printf(",\"speedup\":%.4g", median[b][0] / median[b][c]);
            printf("}\n");
        }
    fflush(stdout);
    for (int b = 0; b < nb; b++)
        for (int c = 0; c < nc; c++)
            free(kept[b][c]);
    free(child);
    return rc;
}
