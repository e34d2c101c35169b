/* bench/scaling.h — weft-bench-runner --threads: the runner's benchmarks at several thread
 * counts, one runner process per count (scaling.c). */
#ifndef WEFT_BENCH_SCALING_H
#define WEFT_BENCH_SCALING_H

/* Runs this runner again (argv without its "--threads LIST" and "--rounds N") once per thread
 * count of the comma list `counts`, with WEFT_NUM_THREADS, OMP_NUM_THREADS and
 * OPENBLAS_NUM_THREADS set to it, the whole list `rounds` times over, and prints per benchmark
 * and count one line: the round with the lowest verified median (any round that failed or did
 * not verify instead), with "threads", "rounds" and, where both verified, "speedup": the
 * benchmark's median at the first count over its median at this one. Returns 0 when every
 * process succeeded, 1 when one failed, 2 on a bad list. */
int bench_scaling(int argc, char **argv, const char *counts, int rounds);

#endif
