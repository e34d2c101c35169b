/* bench/b_chains.c — stencil launch chains beyond Jacobi, for fusion (Zhou; issue 10): Poisson
 * with a right-hand side, Rodinia's HotSpot (clamped borders: reads whose address chooses),
 * PolyBench's FDTD-2D (three kernels a time step, one argument changing per step) and a 3-D
 * 7-point heat stencil (untiled reference only). Each native
 * reference runs the same sweeps with OpenMP, in the same operation order: untiled, and tiled
 * the way a careful OpenMP programmer tiles a chain that does not fit in the cache (bands of
 * rows with a halo as deep as the chain, run through every step in private buffers, as the
 * Jacobi references of b_patterns.c do). */
#include "bands.h"
#include "runner.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_STEPS 20   /* even: ping-pong chains end in the input buffer */
#define FDTD_STEPS 10    /* 30 launches */

static size_t grid_side(enum bench_size s)
{
    return s == BENCH_SMALL ? 512 : s == BENCH_DEFAULT ? 2048 : 4096;
}

static int read_out(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->out_count * 4, out);
}

/* ---- Poisson -------------------------------------------------------------------------------- */

#define POISSON_HH 0.01f

static int poisson_setup(struct bench *b, enum bench_size s)
{
    size_t n = grid_side(s);
    b->p[0] = b->p[1] = n;
    b->p[2] = CHAIN_STEPS;
    b->work = 12.0 * n * n * CHAIN_STEPS * 1e-9;   /* u, f read, v written per point and step */
    b->out_count = n * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu, K=%d", n, n, CHAIN_STEPS);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 81, 0, 1);
    bench_alloc(b, 1, n * n * 4);
    bench_fill_float(bench_alloc(b, 2, n * n * 4), n * n, 82, -1, 1);
    return 0;
}

struct grid_rhs {
    long w;
    const float *rhs;   /* a w-wide grid read by every step */
};

static void poisson_row(const void *ctx, long y, const float *up, const float *u, const float *down, float *v)
{
    const struct grid_rhs *g = ctx;
    long w = g->w;
    if (!up || !down) {
        memcpy(v, u, (size_t)w * 4);
        return;
    }
    const float *f = g->rhs + y * w;
    v[0] = u[0];
    v[w - 1] = u[w - 1];
    for (long x = 1; x < w - 1; x++)
        v[x] = 0.25f * (u[x - 1] + u[x + 1] + up[x] + down[x] - POISSON_HH * f[x]);
}

/* The native chain of Poisson or HotSpot: p[0] x p[1] grid, p[2] steps, from in[0] through
 * in[1] (untiled ping-pong) into out, in[2] the grid every step reads. */
static void rhs_chain(struct bench *b, void *out, bench_row_fn row, bool tiled)
{
    struct grid_rhs g = {(long)b->p[0], b->in[2]};
    if (tiled)
        bench_rows_tiled(g.w, (long)b->p[1], (long)b->p[2], b->in[0], out, row, &g);
    else
        bench_rows_untiled(g.w, (long)b->p[1], (long)b->p[2], b->in[0], out, b->in[1], row, &g);
}

static void poisson_native(struct bench *b, void *out) { rhs_chain(b, out, poisson_row, false); }
static void poisson_native_tiled(struct bench *b, void *out) { rhs_chain(b, out, poisson_row, true); }

static int poisson_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = b->out_count * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, bytes, b->in[0]) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_WRITE, bytes, NULL) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, bytes, b->in[2]))
        return -1;
    int w = (int)b->p[0], h = (int)b->p[1];
    float hh = POISSON_HH;
    for (int k = 0; k < 2; k++) {
        int err = bench_kernel(b, c, k, "poisson");
        if (!err)
            err = bench_args(b, c, k, 6, BUF(c, k), BUF(c, 1 - k), BUF(c, 2), ARG(w), ARG(h), ARG(hh));
        if (err)
            return err;
    }
    return 0;
}

static int pingpong_run(struct bench *b, struct bench_cl *c)
{
    size_t g[2] = {b->p[0], b->p[1]}, l[2] = {64, 4};
    for (int k = 0; k < (int)b->p[2]; k++) {
        int err = bench_launch(b, c, k % 2, 2, g, l);
        if (err)
            return err;
    }
    return 0;
}

/* ---- 3-D heat (7-point Jacobi) ------------------------------------------------------------- */

#define HEAT3D_STEPS 10   /* even: the chain ends in the input buffer */

static int heat3d_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 64 : s == BENCH_DEFAULT ? 160 : 320, cells = n * n * n;
    b->p[0] = b->p[1] = b->p[2] = n;
    b->p[3] = HEAT3D_STEPS;
    b->work = 8.0 * (double)cells * HEAT3D_STEPS * 1e-9;   /* u read, v written per point and step */
    b->out_count = cells;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zux%zu, K=%d", n, n, n, HEAT3D_STEPS);
    bench_fill_float(bench_alloc(b, 0, cells * 4), cells, 91, 0, 1);
    bench_alloc(b, 1, cells * 4);
    return 0;
}

/* The sweeps with OpenMP, planes split among threads, in the kernel's operation order; the
 * last one writes `out`, the others alternate with in[1]. */
static void heat3d_native(struct bench *b, void *out)
{
    const long n = (long)b->p[0], K = (long)b->p[3], plane = n * n;
    const float *u = b->in[0];
    for (long k = 0; k < K; k++) {
        float *v = (K - 1 - k) % 2 == 0 ? out : b->in[1];
#pragma omp parallel for schedule(static)
        for (long z = 0; z < n; z++)
            for (long y = 0; y < n; y++) {
                const float *r = u + z * plane + y * n;
                float *w = v + z * plane + y * n;
                if (z == 0 || y == 0 || z == n - 1 || y == n - 1) {
                    memcpy(w, r, (size_t)n * 4);
                    continue;
                }
                w[0] = r[0];
                w[n - 1] = r[n - 1];
                for (long x = 1; x < n - 1; x++)
                    w[x] = 0.4f * r[x] + 0.1f * (r[x - 1] + r[x + 1] + r[x - n] + r[x + n] + r[x - plane] +
                                                 r[x + plane]);
            }
        u = v;
    }
}

static int heat3d_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = b->out_count * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, bytes, b->in[0]) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_WRITE, bytes, NULL))
        return -1;
    int n = (int)b->p[0];
    for (int k = 0; k < 2; k++) {
        int err = bench_kernel(b, c, k, "heat3d");
        if (!err)
            err = bench_args(b, c, k, 5, BUF(c, k), BUF(c, 1 - k), ARG(n), ARG(n), ARG(n));
        if (err)
            return err;
    }
    return 0;
}

static int heat3d_run(struct bench *b, struct bench_cl *c)
{
    size_t g[3] = {b->p[0], b->p[1], b->p[2]}, l[3] = {32, 4, 1};
    for (int k = 0; k < (int)b->p[3]; k++) {
        int err = bench_launch(b, c, k % 2, 3, g, l);
        if (err)
            return err;
    }
    return 0;
}

/* ---- HotSpot (Rodinia) ---------------------------------------------------------------------- */

/* Rodinia's constants for a 0.016 m chip (hotspot.c) as single-precision factors */
#define HS_CAP1 0.000585f   /* step / Cap */
#define HS_RX1 0.0190f
#define HS_RY1 0.0127f
#define HS_RZ1 0.0005f
#define HS_AMB 80.0f

static int hotspot_setup(struct bench *b, enum bench_size s)
{
    size_t n = grid_side(s);
    b->p[0] = b->p[1] = n;   /* cols, rows */
    b->p[2] = CHAIN_STEPS;
    b->work = 12.0 * n * n * CHAIN_STEPS * 1e-9;   /* temperature and power read, written */
    b->out_count = n * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu, K=%d", n, n, CHAIN_STEPS);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 83, 320, 340);
    bench_alloc(b, 1, n * n * 4);
    bench_fill_float(bench_alloc(b, 2, n * n * 4), n * n, 84, 0, 0.1f);
    return 0;
}

static void hotspot_row(const void *ctx, long r, const float *up, const float *row, const float *down, float *out)
{
    const struct grid_rhs *g = ctx;
    long cols = g->w;
    const float *power = g->rhs + r * cols;
    up = up ? up : row;   /* clamped borders */
    down = down ? down : row;
    for (long x = 0; x < cols; x++) {
        float t = row[x], w = row[x > 0 ? x - 1 : x], e = row[x < cols - 1 ? x + 1 : x];
        out[x] = t + HS_CAP1 * (power[x] + (down[x] + up[x] - 2.0f * t) * HS_RY1 + (e + w - 2.0f * t) * HS_RX1 +
                                (HS_AMB - t) * HS_RZ1);
    }
}

static void hotspot_native(struct bench *b, void *out) { rhs_chain(b, out, hotspot_row, false); }
static void hotspot_native_tiled(struct bench *b, void *out) { rhs_chain(b, out, hotspot_row, true); }

static int hotspot_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = b->out_count * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, bytes, b->in[0]) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_WRITE, bytes, NULL) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, bytes, b->in[2]))
        return -1;
    int cols = (int)b->p[0], rows = (int)b->p[1];
    float cap1 = HS_CAP1, rx1 = HS_RX1, ry1 = HS_RY1, rz1 = HS_RZ1, amb = HS_AMB;
    for (int k = 0; k < 2; k++) {
        int err = bench_kernel(b, c, k, "hotspot");
        if (!err)
            err = bench_args(b, c, k, 10, BUF(c, 2), BUF(c, k), BUF(c, 1 - k), ARG(rows), ARG(cols), ARG(cap1),
                             ARG(rx1), ARG(ry1), ARG(rz1), ARG(amb));
        if (err)
            return err;
    }
    return 0;
}

/* ---- FDTD-2D (PolyBench) -------------------------------------------------------------------- */

static int fdtd_setup(struct bench *b, enum bench_size s)
{
    size_t n = grid_side(s), cells = n * n;
    b->p[0] = b->p[1] = n;   /* nx (rows), ny (columns) */
    b->p[2] = FDTD_STEPS;
    b->work = 4.0 * 11 * cells * FDTD_STEPS * 1e-9;   /* 4 + 3 + 4 floats read, written per step */
    b->out_count = 3 * cells;                         /* ex, ey, hz */
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu, T=%d", n, n, FDTD_STEPS);
    float *ex = bench_alloc(b, 0, cells * 4), *ey = bench_alloc(b, 1, cells * 4), *hz = bench_alloc(b, 2, cells * 4);
    float *fict = bench_alloc(b, 3, FDTD_STEPS * 4);
    for (size_t i = 0; i < n; i++)   /* PolyBench's init_array */
        for (size_t j = 0; j < n; j++) {
            ex[i * n + j] = ((float)i * (float)(j + 1)) / (float)n;
            ey[i * n + j] = ((float)i * (float)(j + 2)) / (float)n;
            hz[i * n + j] = ((float)i * (float)(j + 3)) / (float)n;
        }
    for (int t = 0; t < FDTD_STEPS; t++)
        fict[t] = (float)t;
    bench_alloc(b, 4, 3 * cells * 4);   /* the native run's working copy */
    return 0;
}

/* Row i of each update; ey, ex and hz point at the row, a row is ny wide. */
static void fdtd_ey_row(float *ey, const float *hz, long i, long ny, float fict_t)
{
    for (long j = 0; j < ny; j++)
        ey[j] = i == 0 ? fict_t : ey[j] - 0.5f * (hz[j] - hz[j - ny]);
}

static void fdtd_ex_row(float *ex, const float *hz, long ny)
{
    for (long j = 1; j < ny; j++)
        ex[j] = ex[j] - 0.5f * (hz[j] - hz[j - 1]);
}

static void fdtd_hz_row(float *hz, const float *ex, const float *ey, long ny)
{
    for (long j = 0; j < ny - 1; j++)
        hz[j] = hz[j] - 0.7f * (ex[j + 1] - ex[j] + ey[j + ny] - ey[j]);
}

static void fdtd_native(struct bench *b, void *out)
{
    long nx = (long)b->p[0], ny = (long)b->p[1];
    size_t cells = (size_t)nx * (size_t)ny;
    float *ex = out, *ey = ex + cells, *hz = ey + cells;
    const float *fict = b->in[3];
    memcpy(ex, b->in[0], cells * 4);
    memcpy(ey, b->in[1], cells * 4);
    memcpy(hz, b->in[2], cells * 4);
    for (int t = 0; t < (int)b->p[2]; t++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nx; i++)
            fdtd_ey_row(ey + i * ny, hz + i * ny, i, ny, fict[t]);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nx; i++)
            fdtd_ex_row(ex + i * ny, hz + i * ny, ny);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nx - 1; i++)
            fdtd_hz_row(hz + i * ny, ex + i * ny, ey + i * ny, ny);
    }
}

/* Bands of rows with a halo of T rows either side, each run through every time step in private
 * copies of ex, ey and hz. Rows stay valid while their inputs are: each step, ey's row i needs
 * hz's row i - 1 and hz's row i needs ey's row i + 1, so the valid rows shrink by one at each
 * end of the band that is not an end of the grid. */
static void fdtd_native_tiled(struct bench *b, void *out)
{
    long nx = (long)b->p[0], ny = (long)b->p[1], T = (long)b->p[2];
    long band = bench_band_rows(T);
    size_t cells = (size_t)nx * (size_t)ny;
    const float *fict = b->in[3];
#pragma omp parallel
    {
        size_t cap = (size_t)(band + 2 * T) * (size_t)ny;
        float *f[3];
        for (int a = 0; a < 3; a++)
            f[a] = malloc(cap * sizeof *f[a]);
        float *ex = f[0], *ey = f[1], *hz = f[2];
#pragma omp for schedule(static)
        for (long lo = 0; lo < nx; lo += band) {
            long hi = lo + band < nx ? lo + band : nx;
            long elo = lo - T > 0 ? lo - T : 0, ehi = hi + T < nx ? hi + T : nx;
            for (int a = 0; a < 3; a++)
                memcpy(f[a], (const float *)b->in[a] + elo * ny, (size_t)((ehi - elo) * ny) * sizeof *f[a]);
            long vlo = elo, vhi = ehi;   /* rows valid in all three */
            for (long t = 0; t < T; t++) {
                long a = vlo == 0 ? 0 : vlo + 1;
                for (long i = a; i < vhi; i++)
                    fdtd_ey_row(ey + (i - elo) * ny, hz + (i - elo) * ny, i, ny, fict[t]);
                for (long i = vlo; i < vhi; i++)
                    fdtd_ex_row(ex + (i - elo) * ny, hz + (i - elo) * ny, ny);
                long z = vhi == nx ? nx - 1 : vhi - 1;
                for (long i = a; i < z; i++)
                    fdtd_hz_row(hz + (i - elo) * ny, ex + (i - elo) * ny, ey + (i - elo) * ny, ny);
                vlo = a;
                vhi = vhi == nx ? nx : vhi - 1;
            }
            for (int a = 0; a < 3; a++)
                memcpy((float *)out + (size_t)a * cells + lo * ny, f[a] + (lo - elo) * ny,
                       (size_t)((hi - lo) * ny) * sizeof *f[a]);
        }
        for (int a = 0; a < 3; a++)
            free(f[a]);
    }
}

/* buffers 0 ex, 1 ey, 2 hz, 3 fict; kernels 0 ey, 1 ex, 2 hz. Like the Jacobi chains, later
 * runs go on from where the one before stopped (the first run is the one verified). */
static int fdtd_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = (size_t)b->p[0] * b->p[1] * 4;
    for (int i = 0; i < 3; i++)
        if (!bench_buffer(b, c, i, CL_MEM_READ_WRITE, bytes, b->in[i]))
            return -1;
    if (!bench_buffer(b, c, 3, CL_MEM_READ_ONLY, FDTD_STEPS * 4, b->in[3]))
        return -1;
    int nx = (int)b->p[0], ny = (int)b->p[1], t = 0;
    int err = bench_kernel(b, c, 0, "fdtd_ey");
    if (!err)
        err = bench_args(b, c, 0, 6, BUF(c, 1), BUF(c, 2), BUF(c, 3), ARG(nx), ARG(ny), ARG(t));
    if (!err)
        err = bench_kernel(b, c, 1, "fdtd_ex");
    if (!err)
        err = bench_args(b, c, 1, 4, BUF(c, 0), BUF(c, 2), ARG(nx), ARG(ny));
    if (!err)
        err = bench_kernel(b, c, 2, "fdtd_hz");
    if (!err)
        err = bench_args(b, c, 2, 5, BUF(c, 2), BUF(c, 0), BUF(c, 1), ARG(nx), ARG(ny));
    return err;
}

static int fdtd_run(struct bench *b, struct bench_cl *c)
{
    size_t g[2] = {b->p[1], b->p[0]}, l[2] = {64, 4};
    for (int t = 0; t < (int)b->p[2]; t++) {
        cl_int err = clSetKernelArg(c->k[0], 5, sizeof t, &t);
        if (err != CL_SUCCESS)
            return bench_failf(b, err, "clSetKernelArg(fdtd_ey, t) failed: %d", err);
        for (int k = 0; k < 3; k++) {
            int e = bench_launch(b, c, k, 2, g, l);
            if (e)
                return e;
        }
    }
    return 0;
}

static int fdtd_read(struct bench *b, struct bench_cl *c, void *out)
{
    size_t cells = (size_t)b->p[0] * b->p[1];
    for (int i = 0; i < 3; i++) {
        int err = bench_read(b, c, i, cells * 4, (float *)out + i * cells);
        if (err)
            return err;
    }
    return 0;
}

const struct bench_desc bench_chains[] = {
    {"poisson", "chains", BU_GBS, BT_FLOAT, 1e-4, poisson_setup, poisson_native, poisson_init, pingpong_run, read_out},
    {"hotspot", "chains", BU_GBS, BT_FLOAT, 1e-4, hotspot_setup, hotspot_native, hotspot_init, pingpong_run, read_out},
    {"fdtd2d", "chains", BU_GBS, BT_FLOAT, 1e-4, fdtd_setup, fdtd_native, fdtd_init, fdtd_run, fdtd_read},
    {"heat3d", "chains", BU_GBS, BT_FLOAT, 1e-4, heat3d_setup, heat3d_native, heat3d_init, heat3d_run, read_out},
    /* the same OpenCL chains against natively tiled references */
    {"poisson_tiled", "chains", BU_GBS, BT_FLOAT, 1e-4, poisson_setup, poisson_native_tiled, poisson_init, pingpong_run,
     read_out},
    {"hotspot_tiled", "chains", BU_GBS, BT_FLOAT, 1e-4, hotspot_setup, hotspot_native_tiled, hotspot_init, pingpong_run,
     read_out},
    {"fdtd2d_tiled", "chains", BU_GBS, BT_FLOAT, 1e-4, fdtd_setup, fdtd_native_tiled, fdtd_init, fdtd_run, fdtd_read},
    {0},
};
