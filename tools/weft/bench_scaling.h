/* tools/weft/bench_scaling.h — `weft bench --threads`: Weft's and the native references'
 * speedups over thread counts, side by side. */
#ifndef WEFT_BENCH_SCALING_H
#define WEFT_BENCH_SCALING_H

/* Runs each benchmark of `names` (n of them) at every thread count of `threads` (a comma list,
 * the first the baseline) on Weft (WEFT_NUM_THREADS) and natively (OMP_NUM_THREADS) through
 * `runner`, with the other options passed on; prints the table. `capture` runs a command and
 * returns its output (freed by the caller). Returns 0, or 1 when a run failed. */
int weft_bench_scaling(const char *runner, const char *threads, char (*names)[64], int n, const char *size,
                       const char *repeat, const char *timeout, char *(*capture)(char *const argv[], int *status));

#endif
