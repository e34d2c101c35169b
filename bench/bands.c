/* bench/bands.c — untiled and band-tiled native stencil chains (see bands.h). */
#include "bands.h"

#include <stdlib.h>
#include <string.h>

long bench_band_rows(long K)
{
    return 4 * K > 16 ? 4 * K : 16;
}

void bench_rows_untiled(long w, long h, long K, const float *src, float *dst, float *tmp, bench_row_fn row,
                        const void *ctx)
{
    for (long k = 0; k < K; k++) {
        const float *u = k == 0 ? src : k % 2 ? tmp : dst;
        float *v = k % 2 ? dst : tmp;
#pragma omp parallel for schedule(static)
        for (long y = 0; y < h; y++)
            row(ctx, y, y > 0 ? u + (y - 1) * w : NULL, u + y * w, y < h - 1 ? u + (y + 1) * w : NULL, v + y * w);
    }
}

void bench_rows_tiled(long w, long h, long K, const float *src, float *dst, bench_row_fn row, const void *ctx)
{
    long band = bench_band_rows(K);
#pragma omp parallel
    {
        size_t cap = (size_t)(band + 2 * K) * (size_t)w;
        float *p = malloc(cap * sizeof *p), *q = malloc(cap * sizeof *q);
#pragma omp for schedule(static)
        for (long lo = 0; lo < h; lo += band) {
            long hi = lo + band < h ? lo + band : h;
            long elo = lo - K > 0 ? lo - K : 0, ehi = hi + K < h ? hi + K : h;
            memcpy(p, src + elo * w, (size_t)((ehi - elo) * w) * sizeof *p);
            for (long k = 0; k < K; k++) {
                long a = elo == 0 ? 0 : elo + k + 1, z = ehi == h ? h : ehi - k - 1;
                for (long y = a; y < z; y++) {
                    const float *m = p + (y - elo) * w;
                    row(ctx, y, y > 0 ? m - w : NULL, m, y < h - 1 ? m + w : NULL, q + (y - elo) * w);
                }
                float *t = p;
                p = q;
                q = t;
            }
            memcpy(dst + lo * w, p + (lo - elo) * w, (size_t)((hi - lo) * w) * sizeof *p);
        }
        free(p);
        free(q);
    }
}
