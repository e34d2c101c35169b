/* bench/b_patterns.c — Jacobi 1-D 3-point and 2-D 5-point chains of K ping-pong launches on an
 * in-order queue (Zhou), tree reduction, three-phase prefix sum, local-memory transpose, and a
 * 256-bin histogram with local atomics. Each native reference computes the same result (the
 * reduction the same per-work-group partial sums; the scan and histogram exactly). */
#include "bands.h"
#include "runner.h"

#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define JACOBI_STEPS 10       /* even: the result ends in the input buffer */
#define JACOBI_LONG_STEPS 64  /* the _long chains: where fusing launches has the most to save */

/* ---- Jacobi chains ------------------------------------------------------------------------ */

static int j1_setup_steps(struct bench *b, enum bench_size s, int steps)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 20 : s == BENCH_DEFAULT ? (size_t)16 << 20 : (size_t)64 << 20;
    b->p[0] = n;
    b->p[2] = (size_t)steps;
    b->work = 8.0 * n * steps * 1e-9; /* one read and one write per point and step */
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM, K=%d", n >> 20, steps);
    bench_fill_float(bench_alloc(b, 0, n * 4), n, 61, 0, 1);
    bench_alloc(b, 1, n * 4); /* the native chain's second buffer */
    return 0;
}

static int j1_setup(struct bench *b, enum bench_size s) { return j1_setup_steps(b, s, JACOBI_STEPS); }
static int j1_setup_long(struct bench *b, enum bench_size s) { return j1_setup_steps(b, s, JACOBI_LONG_STEPS); }

static void j1_native(struct bench *b, void *out)
{
    long n = (long)b->p[0];
    float *a = out, *t = b->in[1];
    /* the first step reads the input in place: no copy, as in the OpenCL chain */
    for (int k = 0; k < (int)b->p[2]; k++) {
        const float *in = k == 0 ? b->in[0] : k % 2 ? t : a;
        float *o = k % 2 ? a : t;
#pragma omp parallel for schedule(static)
        for (long i = 1; i < n - 1; i++)
            o[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0f / 3.0f);
        o[0] = in[0];
        o[n - 1] = in[n - 1];
    }
}

/* nx columns (n less `short_by`) by n rows */
static int j2_setup_steps(struct bench *b, enum bench_size s, int steps, size_t short_by)
{
    size_t n = s == BENCH_SMALL ? 512 : s == BENCH_DEFAULT ? 2048 : 8192, nx = n - short_by;
    b->p[0] = nx;
    b->p[1] = n;
    b->p[2] = (size_t)steps;
    b->work = 8.0 * nx * n * steps * 1e-9;
    b->out_count = nx * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu, K=%d", nx, n, steps);
    bench_fill_float(bench_alloc(b, 0, nx * n * 4), nx * n, 62, 0, 1);
    bench_alloc(b, 1, nx * n * 4);
    return 0;
}

static int j2_setup(struct bench *b, enum bench_size s) { return j2_setup_steps(b, s, JACOBI_STEPS, 0); }
static int j2_setup_long(struct bench *b, enum bench_size s) { return j2_setup_steps(b, s, JACOBI_LONG_STEPS, 0); }
/* Rows that are not a multiple of the work-group's 64 columns: the NDRange is rounded up and the
 * work-items past the data return at the kernel's guard, as applications size their launches. */
static int j2_setup_padded(struct bench *b, enum bench_size s) { return j2_setup_steps(b, s, JACOBI_STEPS, 48); }

/* One row of the 2-D sweep: `r` the input row (its neighbours at -nx and +nx), `w` the output. */
static void j2_row(const float *r, float *w, long nx, int edge_row)
{
    if (edge_row) {
        memcpy(w, r, (size_t)nx * 4);
        return;
    }
    w[0] = r[0];
    w[nx - 1] = r[nx - 1];
    for (long x = 1; x < nx - 1; x++)
        w[x] = 0.2f * (r[x] + r[x - 1] + r[x + 1] + r[x - nx] + r[x + nx]);
}

/* j2_row as a bands.h row function */
static void j2_band_row(const void *ctx, long y, const float *up, const float *mid, const float *down, float *out)
{
    (void)y;
    j2_row(mid, out, *(const long *)ctx, !up || !down);   /* ctx: the row width */
}

static void j2_native(struct bench *b, void *out)
{
    long nx = (long)b->p[0];
    bench_rows_untiled(nx, (long)b->p[1], (long)b->p[2], b->in[0], out, b->in[1], j2_band_row, &nx);
}

/* The same chains natively with overlapped tiling (Zhou's Fig. 1(c), by hand): each thread
 * takes bands of the grid, copies a band plus a halo of K points (rows) per side into two
 * private buffers, runs all K steps there while the valid part shrinks by one point (row) per
 * step and side, and writes its own band. What a careful OpenMP programmer does for a chain
 * that does not fit in the cache. */
#define J1_TILE 16384   /* points per band: two private buffers of it stay in L2 */

static void j1_native_tiled(struct bench *b, void *out)
{
    long n = (long)b->p[0], K = (long)b->p[2];
    const float *src = b->in[0];
    float *dst = out;
#pragma omp parallel
    {
        float *p = malloc((J1_TILE + 2 * K) * sizeof *p), *q = malloc((J1_TILE + 2 * K) * sizeof *q);
#pragma omp for schedule(static)
        for (long lo = 0; lo < n; lo += J1_TILE) {
            long hi = lo + J1_TILE < n ? lo + J1_TILE : n;
            long elo = lo - K > 0 ? lo - K : 0, ehi = hi + K < n ? hi + K : n;
            memcpy(p, src + elo, (size_t)(ehi - elo) * sizeof *p);
            for (long k = 0; k < K; k++) {
                long a = elo == 0 ? 0 : elo + k + 1, z = ehi == n ? n : ehi - k - 1;
                long ia = a == 0 ? 1 : a, iz = z == n ? n - 1 : z;
                if (a == 0)
                    q[-elo] = p[-elo];
                if (z == n)
                    q[n - 1 - elo] = p[n - 1 - elo];
                const float *pp = p + (ia - elo);
                float *qq = q + (ia - elo);
                for (long i = 0; i < iz - ia; i++)
                    qq[i] = (pp[i - 1] + pp[i] + pp[i + 1]) * (1.0f / 3.0f);
                float *t = p;
                p = q;
                q = t;
            }
            memcpy(dst + lo, p + (lo - elo), (size_t)(hi - lo) * sizeof *p);
        }
        free(p);
        free(q);
    }
}

static void j2_native_tiled(struct bench *b, void *out)
{
    long nx = (long)b->p[0];
    bench_rows_tiled(nx, (long)b->p[1], (long)b->p[2], b->in[0], out, j2_band_row, &nx);
}

/* buffers 0 (input, then result) and 1; kernel 0 reads 0 writes 1, kernel 1 the reverse */
static int jacobi_init(struct bench *b, struct bench_cl *c)
{
    int two = !strncmp(b->d->name, "jacobi2d", 8);
    size_t bytes = b->out_count * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, bytes, b->in[0]) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_WRITE, bytes, NULL))
        return -1;
    int nx = (int)b->p[0], ny = (int)b->p[1];
    for (int k = 0; k < 2; k++) {
        int err = bench_kernel(b, c, k, two ? "jacobi2d" : "jacobi1d");
        if (!err)
            err = two ? bench_args(b, c, k, 4, BUF(c, k), BUF(c, 1 - k), ARG(nx), ARG(ny))
                      : bench_args(b, c, k, 3, BUF(c, k), BUF(c, 1 - k), ARG(nx));
        if (err)
            return err;
    }
    return 0;
}

static int jacobi_run(struct bench *b, struct bench_cl *c)
{
    int two = !strncmp(b->d->name, "jacobi2d", 8);
    size_t g1 = b->p[0], l1 = 256;
    size_t l2[2] = {64, 4}, g2[2] = {(b->p[0] + 63) / 64 * 64, (b->p[1] + 3) / 4 * 4};
    for (int k = 0; k < (int)b->p[2]; k++) {
        int err = two ? bench_launch(b, c, k % 2, 2, g2, l2) : bench_launch(b, c, k % 2, 1, &g1, &l1);
        if (err)
            return err;
    }
    return 0;
}

static int read_out(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->out_count * 4, out);
}

/* ---- reduction ------------------------------------------------------------------------------ */

#define RED_LS 256

static int red_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 20 : s == BENCH_DEFAULT ? (size_t)32 << 20 : (size_t)128 << 20;
    b->p[0] = n;
    b->work = 4.0 * n * 1e-9;
    b->out_count = n / (2 * RED_LS);
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM", n >> 20);
    bench_fill_float(bench_alloc(b, 0, n * 4), n, 71, 0, 1);
    return 0;
}

static void red_native(struct bench *b, void *out)
{
    const float *in = b->in[0];
    float *p = out;
    long groups = (long)b->out_count;
    /* each group's sum in vector lanes (omp simd may reassociate; the tolerance allows it, as
     * the OpenCL tree sums in its own order too) */
#pragma omp parallel for schedule(static)
    for (long g = 0; g < groups; g++) {
        const float *x = in + g * 2 * RED_LS;
        float s = 0;
#pragma omp simd reduction(+ : s)
        for (long i = 0; i < 2 * RED_LS; i++)
            s += x[i];
        p[g] = s;
    }
}

/* The buffers (0: partial sums, 1: input) and kernel `name` of a reduction; with `local`,
 * its tree's __local scratch. */
static int red_kernel(struct bench *b, struct bench_cl *c, const char *name, bool local)
{
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, b->out_count * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, b->p[0] * 4, b->in[0]))
        return -1;
    int err = bench_kernel(b, c, 0, name);
    if (err)
        return err;
    return local ? bench_args(b, c, 0, 3, BUF(c, 1), BUF(c, 0), LOCAL(RED_LS * 4))
                 : bench_args(b, c, 0, 2, BUF(c, 1), BUF(c, 0));
}

static int red_init(struct bench *b, struct bench_cl *c) { return red_kernel(b, c, "reduce", true); }

/* The same partial sums with the OpenCL C 3.0 work-group collective instead of the tree. */
static int red_wg_init(struct bench *b, struct bench_cl *c) { return red_kernel(b, c, "reduce_wg", false); }

static int red_run(struct bench *b, struct bench_cl *c)
{
    size_t g = b->p[0] / 2, l = RED_LS;
    return bench_launch(b, c, 0, 1, &g, &l);
}

/* ---- prefix sum ----------------------------------------------------------------------------- */

#define SCAN_LS 256

static int scan_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 20 : s == BENCH_DEFAULT ? (size_t)16 << 20 : (size_t)64 << 20;
    b->p[0] = n;
    b->work = 8.0 * n * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM int", n >> 20);
    int *x = bench_alloc(b, 0, n * 4);
    uint64_t seed = 72;
    for (size_t i = 0; i < n; i++)
        x[i] = (int)(bench_rand(&seed) % 16);
    return 0;
}

/* Inclusive scan in one contiguous part per thread: each thread sums its part (vector lanes),
 * the parts' offsets are scanned once, then each thread scans its part from its offset. Two
 * reads of the input and one write of the output, no pass over the output. */
static void scan_native(struct bench *b, void *out)
{
    const int *restrict in = b->in[0];
    int *restrict o = out;
    long n = (long)b->p[0];
    int *off = calloc((size_t)omp_get_max_threads() + 1, sizeof *off);
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        long lo = n * t / nt, hi = n * (t + 1) / nt;
        int s = 0;
#pragma omp simd reduction(+ : s)
        for (long i = lo; i < hi; i++)
            s += in[i];
        off[t + 1] = s;
#pragma omp barrier
#pragma omp single
        for (int k = 1; k <= nt; k++)
            off[k] += off[k - 1];
        int run = off[t];
        for (long i = lo; i < hi; i++)
            o[i] = run += in[i];
    }
    free(off);
}

/* The buffers (0: out, 1: in, 2: block sums) and the three kernels of a prefix sum; with
 * `local`, the phases that take a __local scratch of SCAN_LS ints get one. */
static int scan_kernels(struct bench *b, struct bench_cl *c, const char *const names[3], bool local)
{
    size_t n = b->p[0];
    int nblocks = (int)(n / (2 * SCAN_LS));
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, n * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, n * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_WRITE, (size_t)nblocks * 4, NULL))
        return -1;
    int err = 0;
    for (int k = 0; k < 3 && !err; k++)
        err = bench_kernel(b, c, k, names[k]);
    if (!err)
        err = local ? bench_args(b, c, 0, 4, BUF(c, 1), BUF(c, 0), BUF(c, 2), LOCAL(SCAN_LS * 4))
                    : bench_args(b, c, 0, 3, BUF(c, 1), BUF(c, 0), BUF(c, 2));
    if (!err)
        err = local ? bench_args(b, c, 1, 3, BUF(c, 2), ARG(nblocks), LOCAL(SCAN_LS * 4))
                    : bench_args(b, c, 1, 2, BUF(c, 2), ARG(nblocks));
    if (!err)
        err = bench_args(b, c, 2, 2, BUF(c, 0), BUF(c, 2));
    return err;
}

static int scan_init(struct bench *b, struct bench_cl *c)
{
    static const char *const names[3] = {"scan_blocks", "scan_sums", "scan_add"};
    return scan_kernels(b, c, names, true);
}

/* The same three phases with work-group scans (kernels/collectives.cl). */
static int scan_wg_init(struct bench *b, struct bench_cl *c)
{
    static const char *const names[3] = {"scan_blocks_wg", "scan_sums_wg", "scan_add"};
    return scan_kernels(b, c, names, false);
}

static int scan_run(struct bench *b, struct bench_cl *c)
{
    size_t l = SCAN_LS, g = b->p[0] / 2, n = b->p[0], l3 = SCAN_LS;
    int err = bench_launch(b, c, 0, 1, &g, &l);
    if (!err)
        err = bench_launch(b, c, 1, 1, &l, &l);
    if (!err)
        err = bench_launch(b, c, 2, 1, &n, &l3);
    return err;
}

/* ---- transpose ------------------------------------------------------------------------------ */

static int tr_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 1024 : s == BENCH_DEFAULT ? 4096 : 8192;
    b->p[0] = b->p[1] = n;
    b->work = 8.0 * n * n * 1e-9;
    b->out_count = n * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu", n, n);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 81, -1, 1);
    return 0;
}

static void tr_native(struct bench *b, void *out)
{
    const float *restrict in = b->in[0];
    float *restrict o = out;
    long w = (long)b->p[0], h = (long)b->p[1];
    /* 16 x 16 tiles, the innermost loop along the output: every write fills one whole cache
     * line and the tile's 16 input lines stay in L1. Writing along the input instead (a store
     * every 4w bytes, all in one L1 set for a power-of-two width) was 8x slower. */
    enum { T = 16 };
#pragma omp parallel for schedule(static)
    for (long x0 = 0; x0 < w; x0 += T)
        for (long y0 = 0; y0 < h; y0 += T) {
            long xe = x0 + T < w ? x0 + T : w, ye = y0 + T < h ? y0 + T : h;
            for (long x = x0; x < xe; x++)
                for (long y = y0; y < ye; y++)
                    o[x * h + y] = in[y * w + x];
        }
}

static int tr_init(struct bench *b, struct bench_cl *c)
{
    int w = (int)b->p[0], h = (int)b->p[1];
    size_t bytes = b->out_count * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, bytes, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, bytes, b->in[0]))
        return -1;
    int err = bench_kernel(b, c, 0, "transpose");
    return err ? err : bench_args(b, c, 0, 4, BUF(c, 1), BUF(c, 0), ARG(w), ARG(h));
}

static int tr_run(struct bench *b, struct bench_cl *c)
{
    size_t g[2] = {b->p[0], b->p[1]}, l[2] = {16, 16};
    return bench_launch(b, c, 0, 2, g, l);
}

/* ---- histogram ------------------------------------------------------------------------------ */

static int hist_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)4 << 20 : s == BENCH_DEFAULT ? (size_t)64 << 20 : (size_t)256 << 20;
    b->p[0] = n;
    b->work = 1.0 * n * 1e-9;
    b->out_count = 256;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM bytes", n >> 20);
    uint8_t *d = bench_alloc(b, 0, n);
    uint64_t seed = 91;
    /* a skewed distribution (sum of two uniform bytes / 2), so that some bins are contended */
    for (size_t i = 0; i < n; i++) {
        uint32_t r = bench_rand(&seed);
        d[i] = (uint8_t)(((r & 255) + ((r >> 8) & 255)) / 2);
    }
    return 0;
}

static void hist_native(struct bench *b, void *out)
{
    const uint8_t *d = b->in[0];
    uint32_t *bins = out;
    long n = (long)b->p[0];
    memset(bins, 0, 256 * 4);
#pragma omp parallel
    {
        uint32_t mine[256] = {0};
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++)
            mine[d[i]]++;
#pragma omp critical
        for (int k = 0; k < 256; k++)
            bins[k] += mine[k];
    }
}

static int hist_init(struct bench *b, struct bench_cl *c)
{
    int n = (int)b->p[0];
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, 256 * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, b->p[0], b->in[0]))
        return -1;
    int err = bench_kernel(b, c, 0, "histogram");
    return err ? err : bench_args(b, c, 0, 4, BUF(c, 1), ARG(n), BUF(c, 0), LOCAL(256 * 4));
}

static int hist_run(struct bench *b, struct bench_cl *c)
{
    static const uint32_t zero[256];
    /* the bins accumulate: every run starts from zero (256 words, negligible) */
    cl_int err = clEnqueueWriteBuffer(c->q, c->m[0], CL_FALSE, 0, sizeof zero, zero, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return bench_failf(b, err, "clEnqueueWriteBuffer failed: %d", err);
    size_t l = 256, g = 256 * 256; /* a fixed grid, each work-item strides over the input */
    return bench_launch(b, c, 0, 1, &g, &l);
}

const struct bench_desc bench_patterns[] = {
    {"jacobi1d", "stencil", BU_GBS, BT_FLOAT, 1e-5, j1_setup, j1_native, jacobi_init, jacobi_run, read_out},
    {"jacobi2d", "stencil", BU_GBS, BT_FLOAT, 1e-5, j2_setup, j2_native, jacobi_init, jacobi_run, read_out},
    {"jacobi2d_padded", "stencil", BU_GBS, BT_FLOAT, 1e-5, j2_setup_padded, j2_native, jacobi_init, jacobi_run,
     read_out},
    /* the same OpenCL chains against natively tiled references */
    {"jacobi1d_tiled", "stencil", BU_GBS, BT_FLOAT, 1e-5, j1_setup, j1_native_tiled, jacobi_init, jacobi_run, read_out},
    {"jacobi2d_tiled", "stencil", BU_GBS, BT_FLOAT, 1e-5, j2_setup, j2_native_tiled, jacobi_init, jacobi_run, read_out},
    /* chains of 64 launches, against natively untiled and tiled references */
    {"jacobi1d_long", "stencil", BU_GBS, BT_FLOAT, 1e-4, j1_setup_long, j1_native, jacobi_init, jacobi_run, read_out},
    {"jacobi1d_long_tiled", "stencil", BU_GBS, BT_FLOAT, 1e-4, j1_setup_long, j1_native_tiled, jacobi_init, jacobi_run,
     read_out},
    {"jacobi2d_long", "stencil", BU_GBS, BT_FLOAT, 1e-4, j2_setup_long, j2_native, jacobi_init, jacobi_run, read_out},
    {"jacobi2d_long_tiled", "stencil", BU_GBS, BT_FLOAT, 1e-4, j2_setup_long, j2_native_tiled, jacobi_init, jacobi_run,
     read_out},
    {"reduction", "patterns", BU_GBS, BT_FLOAT, 1e-5, red_setup, red_native, red_init, red_run, read_out},
    {"reduction_wg", "collectives", BU_GBS, BT_FLOAT, 1e-5, red_setup, red_native, red_wg_init, red_run, read_out,
     "-cl-std=CL3.0"},
    {"prefix_sum", "patterns", BU_GBS, BT_INT, 0, scan_setup, scan_native, scan_init, scan_run, read_out},
    {"prefix_sum_wg", "collectives", BU_GBS, BT_INT, 0, scan_setup, scan_native, scan_wg_init, scan_run, read_out,
     "-cl-std=CL3.0"},
    {"transpose", "patterns", BU_GBS, BT_FLOAT, 0, tr_setup, tr_native, tr_init, tr_run, read_out},
    {"histogram", "patterns", BU_GBS, BT_INT, 0, hist_setup, hist_native, hist_init, hist_run, read_out},
    {0},
};
