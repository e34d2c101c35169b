/* bench/b_chains.c — stencil launch chains beyond Jacobi, for fusion (Zhou; issue 10): Poisson
 * with a right-hand side, Rodinia's HotSpot (clamped borders: reads whose address chooses) and
 * PolyBench's FDTD-2D (three kernels a time step, one argument changing per step). Each native
 * reference runs the same sweeps untiled with OpenMP, in the same operation order. */
#include "runner.h"

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

static void poisson_native(struct bench *b, void *out)
{
    long w = (long)b->p[0], h = (long)b->p[1];
    float *a = out, *t = b->in[1];
    const float *f = b->in[2];
    for (int k = 0; k < (int)b->p[2]; k++) {
        const float *u = k == 0 ? b->in[0] : k % 2 ? t : a;
        float *v = k % 2 ? a : t;
#pragma omp parallel for schedule(static)
        for (long y = 0; y < h; y++) {
            if (y == 0 || y == h - 1) {
                memcpy(v + y * w, u + y * w, (size_t)w * 4);
                continue;
            }
            v[y * w] = u[y * w];
            v[y * w + w - 1] = u[y * w + w - 1];
            for (long x = 1; x < w - 1; x++) {
                long i = y * w + x;
                v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - POISSON_HH * f[i]);
            }
        }
    }
}

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

static void hotspot_native(struct bench *b, void *out)
{
    long cols = (long)b->p[0], rows = (long)b->p[1];
    float *a = out, *tmp = b->in[1];
    const float *power = b->in[2];
    for (int k = 0; k < (int)b->p[2]; k++) {
        const float *src = k == 0 ? b->in[0] : k % 2 ? tmp : a;
        float *dst = k % 2 ? a : tmp;
#pragma omp parallel for schedule(static)
        for (long r = 0; r < rows; r++) {
            const float *up = src + (r > 0 ? r - 1 : r) * cols, *row = src + r * cols;
            const float *down = src + (r < rows - 1 ? r + 1 : r) * cols;
            for (long x = 0; x < cols; x++) {
                float t = row[x], w = row[x > 0 ? x - 1 : x], e = row[x < cols - 1 ? x + 1 : x];
                dst[r * cols + x] = t + HS_CAP1 * (power[r * cols + x] + (down[x] + up[x] - 2.0f * t) * HS_RY1 +
                                                   (e + w - 2.0f * t) * HS_RX1 + (HS_AMB - t) * HS_RZ1);
            }
        }
    }
}

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
            for (long j = 0; j < ny; j++)
                ey[i * ny + j] = i == 0 ? fict[t] : ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nx; i++)
            for (long j = 1; j < ny; j++)
                ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nx - 1; i++)
            for (long j = 0; j < ny - 1; j++)
                hz[i * ny + j] = hz[i * ny + j] -
                                 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
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
    {0},
};
