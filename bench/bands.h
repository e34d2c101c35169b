/* bench/bands.h — native references for ping-pong chains of a stencil that reads one row up
 * and one row down (2-D Jacobi, Poisson, HotSpot): every step over the whole grid, or the chain
 * tiled in bands of rows the way a careful OpenMP programmer tiles a chain that does not fit
 * in the cache (Zhou's Fig. 1(c) by hand). Both run the same row function, so their results
 * are bit-identical. */
#ifndef WEFT_BENCH_BANDS_H
#define WEFT_BENCH_BANDS_H

/* One step of the stencil on row y of an h-row grid: `up`/`down` are rows y-1 and y+1, NULL
 * beyond the grid (they lie right before and after `mid` in memory otherwise), `out` the new
 * row. */
typedef void (*bench_row_fn)(const void *ctx, long y, const float *up, const float *mid, const float *down,
                             float *out);

/* K steps from src (w x h) ping-ponging between tmp and dst, every step over the whole grid
 * (OpenMP over rows): the result is in dst for an even K (tmp for an odd one). */
void bench_rows_untiled(long w, long h, long K, const float *src, float *dst, float *tmp, bench_row_fn row,
                        const void *ctx);

/* Rows per band for a chain of K steps: max(4K, 16), so that halos stay a fraction of a band. */
long bench_band_rows(long K);

/* The same K steps in bands of bench_band_rows(K) rows: each band copies itself and K rows either side
 * into a private buffer, runs every step on the rows whose inputs are still valid, and writes
 * back its own rows. */
void bench_rows_tiled(long w, long h, long K, const float *src, float *dst, bench_row_fn row, const void *ctx);

#endif
