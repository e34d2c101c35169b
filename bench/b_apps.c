/* bench/b_apps.c — application kernels: StreamCluster's pgain distance loop (Kim Fig 2.3),
 * all-pairs n-body with local-memory tiles, and the k-means assignment step. The native
 * references compute the same values (k-means: the distance to the nearest cluster, which is
 * what a correct assignment must reproduce even where two clusters tie). */
#include "runner.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- pgain ---------------------------------------------------------------------------------- */

#define PG_DIM 64

static int pgain_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)16 << 10 : s == BENCH_DEFAULT ? (size_t)256 << 10 : (size_t)1 << 20;
    b->p[0] = n;
    b->p[1] = PG_DIM;
    b->p[2] = n / 3; /* the candidate center */
    b->work = 3.0 * n * PG_DIM * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zuK pts x %d dims", n >> 10, PG_DIM);
    bench_fill_float(bench_alloc(b, 0, n * PG_DIM * 4), n * PG_DIM, 101, 0, 1);
    bench_fill_float(bench_alloc(b, 1, n * 4), n, 102, 0.5f, 2);
    bench_fill_float(bench_alloc(b, 2, n * 4), n, 103, 0, 15);
    return 0;
}

static void pgain_native(struct bench *b, void *out)
{
    const float *coord = b->in[0], *weight = b->in[1], *cost = b->in[2];
    float *gain = out;
    long n = (long)b->p[0], x = (long)b->p[2];
    enum { BLK = 256 };
#pragma omp parallel for schedule(static)
    for (long i0 = 0; i0 < n; i0 += BLK) {
        float d[BLK] = {0};
        long len = n - i0 < BLK ? n - i0 : BLK;
        for (long k = 0; k < PG_DIM; k++) {
            const float *row = coord + k * n + i0;
            float cx = coord[k * n + x];
            for (long l = 0; l < len; l++) {
                float t = row[l] - cx;
                d[l] += t * t;
            }
        }
        for (long l = 0; l < len; l++) {
            float xc = d[l] * weight[i0 + l], cur = cost[i0 + l];
            gain[i0 + l] = xc < cur ? xc - cur : 0.0f;
        }
    }
}

static int pgain_init(struct bench *b, struct bench_cl *c)
{
    size_t n = b->p[0];
    int num = (int)n, dim = PG_DIM, x = (int)b->p[2];
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, n * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, n * PG_DIM * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, n * 4, b->in[1]) ||
        !bench_buffer(b, c, 3, CL_MEM_READ_ONLY, n * 4, b->in[2]) ||
        !bench_buffer(b, c, 4, CL_MEM_WRITE_ONLY, n * 4, NULL))
        return -1;
    int err = bench_kernel(b, c, 0, "pgain");
    return err ? err
               : bench_args(b, c, 0, 8, BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 0), BUF(c, 4), ARG(num),
                            ARG(dim), ARG(x));
}

static int pgain_run(struct bench *b, struct bench_cl *c)
{
    size_t l = 128, g = bench_round_up(b->p[0], l);
    return bench_launch(b, c, 0, 1, &g, &l);
}

static int read_out(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->out_count * 4, out);
}

/* ---- n-body --------------------------------------------------------------------------------- */

static const float nbody_eps2 = 0.01f;
#define NB_LS 128

static int nbody_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 1024 : s == BENCH_DEFAULT ? 8192 : 32768;
    b->p[0] = n;
    b->work = 20.0 * n * n * 1e-9; /* the customary 20 flops per interaction */
    b->out_count = 4 * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zu bodies", n);
    float *pos = bench_alloc(b, 0, n * 16);
    bench_fill_float(pos, 4 * n, 111, -1, 1);
    for (size_t i = 0; i < n; i++)
        pos[4 * i + 3] = 0.5f + 0.5f * fabsf(pos[4 * i + 3]); /* positive masses */
    return 0;
}

static void nbody_native(struct bench *b, void *out)
{
    const float *pos = b->in[0];
    float *acc = out;
    long n = (long)b->p[0];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
        float ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
        for (long j = 0; j < n; j++) {
            float rx = pos[4 * j] - px, ry = pos[4 * j + 1] - py, rz = pos[4 * j + 2] - pz;
            float d2 = rx * rx + ry * ry + rz * rz + nbody_eps2;
            float inv = 1.0f / sqrtf(d2);
            float s = pos[4 * j + 3] * inv * inv * inv;
            ax += rx * s;
            ay += ry * s;
            az += rz * s;
        }
        acc[4 * i] = ax;
        acc[4 * i + 1] = ay;
        acc[4 * i + 2] = az;
        acc[4 * i + 3] = 0;
    }
}

static int nbody_init(struct bench *b, struct bench_cl *c)
{
    size_t n = b->p[0];
    int in = (int)n;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, n * 16, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, n * 16, b->in[0]))
        return -1;
    int err = bench_kernel(b, c, 0, "nbody");
    return err ? err
               : bench_args(b, c, 0, 5, BUF(c, 1), BUF(c, 0), ARG(in), ARG(nbody_eps2), LOCAL(NB_LS * 16));
}

static int nbody_run(struct bench *b, struct bench_cl *c)
{
    size_t l = NB_LS, g = b->p[0];
    return bench_launch(b, c, 0, 1, &g, &l);
}

/* ---- k-means assignment --------------------------------------------------------------------- */

#define KM_FEATURES 16
#define KM_CLUSTERS 16

static int km_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)32 << 10 : s == BENCH_DEFAULT ? (size_t)512 << 10 : (size_t)2 << 20;
    b->p[0] = n;
    b->work = 3.0 * n * KM_FEATURES * KM_CLUSTERS * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zuK pts, %d feat, %d cl", n >> 10,
             KM_FEATURES, KM_CLUSTERS);
    bench_fill_float(bench_alloc(b, 0, n * KM_FEATURES * 4), n * KM_FEATURES, 121, 0, 1);
    bench_fill_float(bench_alloc(b, 1, KM_CLUSTERS * KM_FEATURES * 4), KM_CLUSTERS * KM_FEATURES, 122, 0, 1);
    return 0;
}

static void km_native(struct bench *b, void *out)
{
    const float *feat = b->in[0], *cl = b->in[1];
    float *best = out;
    long n = (long)b->p[0];
    enum { BLK = 256 };
#pragma omp parallel for schedule(static)
    for (long i0 = 0; i0 < n; i0 += BLK) {
        float minv[BLK];
        long len = n - i0 < BLK ? n - i0 : BLK;
        for (long l = 0; l < len; l++)
            minv[l] = FLT_MAX;
        for (int c = 0; c < KM_CLUSTERS; c++) {
            float d[BLK] = {0};
            for (int f = 0; f < KM_FEATURES; f++) {
                const float *row = feat + (long)f * n + i0;
                float cf = cl[c * KM_FEATURES + f];
                for (long l = 0; l < len; l++) {
                    float t = row[l] - cf;
                    d[l] += t * t;
                }
            }
            for (long l = 0; l < len; l++)
                minv[l] = d[l] < minv[l] ? d[l] : minv[l];
        }
        memcpy(best + i0, minv, (size_t)len * 4);
    }
}

static int km_init(struct bench *b, struct bench_cl *c)
{
    size_t n = b->p[0];
    int in = (int)n, nc = KM_CLUSTERS, nf = KM_FEATURES;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, n * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, n * KM_FEATURES * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, KM_CLUSTERS * KM_FEATURES * 4, b->in[1]) ||
        !bench_buffer(b, c, 3, CL_MEM_WRITE_ONLY, n * 4, NULL))
        return -1;
    int err = bench_kernel(b, c, 0, "kmeans_assign");
    return err ? err
               : bench_args(b, c, 0, 7, BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 0), ARG(in), ARG(nc), ARG(nf));
}

static int km_run(struct bench *b, struct bench_cl *c)
{
    size_t l = 128, g = bench_round_up(b->p[0], l);
    return bench_launch(b, c, 0, 1, &g, &l);
}

const struct bench_desc bench_apps[] = {
    {"pgain", "apps", BU_GFLOPS, BT_FLOAT, 1e-4, pgain_setup, pgain_native, pgain_init, pgain_run, read_out},
    {"nbody", "apps", BU_GFLOPS, BT_FLOAT, 1e-3, nbody_setup, nbody_native, nbody_init, nbody_run, read_out},
    {"kmeans", "apps", BU_GFLOPS, BT_FLOAT, 1e-4, km_setup, km_native, km_init, km_run, read_out},
    {0},
};
