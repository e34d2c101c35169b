/* bench/scaling.h — weft-bench-runner --threads: the runner's benchmarks at several thread
 * counts, one runner process per count (scaling.c). */
#ifndef WEFT_BENCH_SCALING_H
#define WEFT_BENCH_SCALING_H

/* Runs this runner again (argv without its "--threads LIST") once per thread count of the
 * comma list `counts`, with WEFT_NUM_THREADS, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set to
 * it, and prints each result line with "threads" and, where both runs verified, "speedup": the
 * benchmark's median at the first count over its median at this one. Returns 0 when every
 * process succeeded, 1 when one failed, 2 on a bad list. */
int bench_scaling(int argc, char **argv, const char *counts);

#endif
