/* tools/weft/bench_scaling.c — see bench_scaling.h.
 *
 * Every (benchmark, thread count, side) is its own runner process with the thread count in its
 * environment, so the pool and OpenMP size themselves once, as in an application. Speedups are
 * each side's median at the first count over its median at this one: the question is whether
 * Weft gains from cores what a native OpenMP program gains, not which is faster (the main
 * table says that). */
#include "bench_scaling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNTS 16

/* The median (seconds) of the runner's result line in `out`, or -1 when it did not verify. */
static double median_of(const char *out)
{
    const char *line = out ? strstr(out, "{\"bench\"") : NULL;
    if (!line || !strstr(line, "\"verified\":true"))
        return -1;
    const char *m = strstr(line, "\"median\":");
    return m ? strtod(m + 9, NULL) : -1;
}

static void print_time(double s)
{
    if (s < 0)
        printf(" %11s", "failed");
    else if (s < 1e-3)
        printf(" %9.1f us", s * 1e6);
    else
        printf(" %9.2f ms", s * 1e3);
}

int weft_bench_scaling(const char *runner, const char *threads, char (*names)[64], int n, const char *size,
                       const char *repeat, const char *timeout, char *(*capture)(char *const argv[], int *status))
{
    char counts[MAX_COUNTS][16];
    int nc = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", threads);
    for (char *save, *t = strtok_r(list, ",", &save); t && nc < MAX_COUNTS; t = strtok_r(NULL, ",", &save))
        if (atoi(t) > 0)
            snprintf(counts[nc++], sizeof counts[0], "%d", atoi(t));
    if (nc == 0) {
        fprintf(stderr, "weft bench: --threads wants a list of thread counts, e.g. 1,2,4,8,16\n");
        return 2;
    }
    printf("thread scaling, size %s: medians; speedup = the side's time at %s thread(s) / its time at N\n\n",
           size, counts[0]);
    printf("%-18s %7s %12s %12s %9s %9s\n", "benchmark", "threads", "Weft", "native", "Weft x", "native x");
    int rc = 0;
    for (int b = 0; b < n; b++) {
        double base[2] = {-1, -1};
        for (int c = 0; c < nc; c++) {
            double t[2];
            for (int side = 0; side < 2; side++) {
                char exact[80];
                snprintf(exact, sizeof exact, "=%s", names[b]);
                char *argv[16];
                int k = 0;
                argv[k++] = (char *)runner;
                if (side == 0) {
                    argv[k++] = "--platform";
                    argv[k++] = "Weft";
                } else {
                    argv[k++] = "--native";
                }
                char *rest[] = {"--filter", exact, "--size", (char *)size, "--repeat", (char *)repeat,
                                "--timeout", (char *)timeout, "--quiet", NULL};
                for (int i = 0; rest[i]; i++)
                    argv[k++] = rest[i];
                argv[k] = NULL;
                setenv("WEFT_NUM_THREADS", counts[c], 1);
                setenv("OMP_NUM_THREADS", counts[c], 1);
                int st;
                char *out = capture(argv, &st);
                t[side] = median_of(out);
                free(out);
                if (t[side] < 0)
                    rc = 1;
                if (c == 0)
                    base[side] = t[side];
            }
            printf("%-18s %7s", c == 0 ? names[b] : "", counts[c]);
            print_time(t[0]);
            print_time(t[1]);
            for (int side = 0; side < 2; side++)
                if (t[side] > 0 && base[side] > 0)
                    printf(" %8.2fx", base[side] / t[side]);
                else
                    printf(" %9s", "-");
            printf("\n");
            fflush(stdout);
        }
    }
    unsetenv("WEFT_NUM_THREADS");
    unsetenv("OMP_NUM_THREADS");
    return rc;
}
