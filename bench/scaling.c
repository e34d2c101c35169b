/* bench/scaling.c — weft-bench-runner --threads 1,2,4,...: thread scaling of one platform (or of
 * the native references), as JSON lines.
 *
 * Each thread count runs in a process of its own: Weft sizes its pool from WEFT_NUM_THREADS
 * when the library initializes, OpenMP reads OMP_NUM_THREADS when libgomp loads, and OpenBLAS
 * follows omp_get_max_threads() (b_linalg.c; OPENBLAS_NUM_THREADS is set too, for its pool's
 * first size). The speedup is the benchmark's own: its median at the first count over its
 * median at this count, so a Weft line and a native line say how much each side gains from
 * cores, not which is faster. */
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

int bench_scaling(int argc, char **argv, const char *counts)
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
    /* the same arguments without --threads LIST */
    char **child = calloc((size_t)argc + 1, sizeof *child);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--threads")) {
            i++;
            continue;
        }
        child[n++] = argv[i];
    }
    child[n] = NULL;

    static char names[MAX_BENCH][64];
    static double base[MAX_BENCH];   /* each benchmark's median at the first count; <0: none */
    int nb = 0, rc = 0;
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
            int verified = strstr(l, "\"verified\":true") != NULL;
            double median = verified ? json_number(l, "median") : -1;
            int b = 0;
            while (b < nb && strcmp(names[b], name))
                b++;
            if (b == nb && nb < MAX_BENCH) {
                snprintf(names[nb], sizeof names[0], "%s", name);
                base[nb++] = c == 0 ? median : -1;
            }
            /* the line, with the thread count and the speedup before its closing brace */
            printf("%.*s,\"threads\":%s", (int)(len - 1), l, count[c]);
            if (b < nb && base[b] > 0 && median > 0)
                printf(",\"speedup\":%.4g", base[b] / median);
            printf("}\n");
        }
        fflush(stdout);
        free(out);
    }
    free(child);
    return rc;
}
