/* bench/b_linalg.c — dense linear algebra: saxpy, column-major sgemv (Kim Fig 6.3), PolyBench's
 * row-major gesummv, naive and Parboil-tiled sgemm NT (Kim Fig 6.7), Stratton's MatMul. The
 * native references of sgemv and of the three matrix products are OpenBLAS (cblas_sgemv,
 * cblas_sgemm), what a C programmer calls for them, with as many threads as OpenMP has; saxpy
 * and gesummv are OpenMP loops. */
#include "runner.h"

#include <cblas.h>
#include <omp.h>

/* OpenBLAS keeps a thread pool of its own (Debian's default libopenblas0-pthread); it is sized
 * like OpenMP's before every call, so that OMP_NUM_THREADS (and `weft bench --threads`) sets
 * the thread count of every native reference, BLAS or not. */
static void blas_threads(void)
{
    openblas_set_num_threads(omp_get_max_threads());
}

/* ---- saxpy ----------------------------------------------------------------------------- */

static const float saxpy_a = 2.5f;

static int saxpy_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 20 : s == BENCH_DEFAULT ? (size_t)16 << 20 : (size_t)64 << 20;
    b->p[0] = n;
    b->work = 12.0 * n * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM", n >> 20);
    bench_fill_float(bench_alloc(b, 0, n * 4), n, 21, -1, 1);
    bench_fill_float(bench_alloc(b, 1, n * 4), n, 22, -1, 1);
    return 0;
}

static void saxpy_native(struct bench *b, void *out)
{
    const float *x = b->in[0], *y = b->in[1];
    float *z = out;
    long n = (long)b->p[0];
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        z[i] = saxpy_a * x[i] + y[i];
}

static int saxpy_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = b->p[0] * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, bytes, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, bytes, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, bytes, b->in[1]))
        return -1;
    int err = bench_kernel(b, c, 0, "saxpy");
    return err ? err : bench_args(b, c, 0, 4, BUF(c, 1), BUF(c, 2), BUF(c, 0), ARG(saxpy_a));
}

static int saxpy_run(struct bench *b, struct bench_cl *c)
{
    return bench_launch(b, c, 0, 1, &b->p[0], NULL);
}

static int read_out(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->out_count * 4, out);
}

/* ---- sgemv (column-major) ---------------------------------------------------------------- */

static int sgemv_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 1024 : s == BENCH_DEFAULT ? 4096 : 8192;
    b->p[0] = n; /* rows */
    b->p[1] = n; /* columns */
    b->work = 2.0 * n * n * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu", n, n);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 31, -1, 1);
    bench_fill_float(bench_alloc(b, 1, n * 4), n, 32, -1, 1);
    return 0;
}

static void sgemv_native(struct bench *b, void *out)
{
    int m = (int)b->p[0], n = (int)b->p[1];
    blas_threads();
    cblas_sgemv(CblasColMajor, CblasNoTrans, m, n, 1.0f, b->in[0], m, b->in[1], 1, 0.0f, out, 1);
}

static int sgemv_init(struct bench *b, struct bench_cl *c)
{
    int m = (int)b->p[0], n = (int)b->p[1];
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, (size_t)m * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, (size_t)m * n * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, (size_t)n * 4, b->in[1]))
        return -1;
    int err = bench_kernel(b, c, 0, "sgemv");
    return err ? err : bench_args(b, c, 0, 5, BUF(c, 1), BUF(c, 2), BUF(c, 0), ARG(m), ARG(n));
}

static int sgemv_run(struct bench *b, struct bench_cl *c)
{
    size_t g = b->p[0], l = 64;
    return bench_launch(b, c, 0, 1, &g, &l);
}

/* ---- gesummv (row-major, PolyBench/GPU) -------------------------------------------------- */

static const float gesummv_alpha = 1.5f, gesummv_beta = 1.2f;

static int gesummv_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 1024 : s == BENCH_DEFAULT ? 4096 : 8192;
    b->p[0] = n;
    b->work = 4.0 * n * n * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zux%zu", n, n);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 33, -1, 1);
    bench_fill_float(bench_alloc(b, 1, n * n * 4), n * n, 34, -1, 1);
    bench_fill_float(bench_alloc(b, 2, n * 4), n, 35, -1, 1);
    return 0;
}

/* rows over the threads, each row's two dot products an `omp simd` reduction: one pass over x
 * per row (2-core Sapphire Rapids VM at 4096: 5.9-7.0 ms, two cblas_sgemv calls 8.5) */
static void gesummv_native(struct bench *b, void *out)
{
    const long n = (long)b->p[0];
    const float *A = b->in[0], *B = b->in[1], *x = b->in[2];
    float *y = out;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const float *a = A + i * n, *bb = B + i * n;
        float t = 0.0f, s = 0.0f;
#pragma omp simd reduction(+ : t, s)
        for (long j = 0; j < n; j++) {
            t += a[j] * x[j];
            s += bb[j] * x[j];
        }
        y[i] = gesummv_alpha * t + gesummv_beta * s;
    }
}

static int gesummv_init(struct bench *b, struct bench_cl *c)
{
    int n = (int)b->p[0];
    size_t nn = (size_t)n * n * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, (size_t)n * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, nn, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, nn, b->in[1]) ||
        !bench_buffer(b, c, 3, CL_MEM_READ_ONLY, (size_t)n * 4, b->in[2]) ||
        !bench_buffer(b, c, 4, CL_MEM_READ_WRITE, (size_t)n * 4, NULL))
        return -1;
    int err = bench_kernel(b, c, 0, "gesummv");
    return err ? err
               : bench_args(b, c, 0, 8, BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 0), BUF(c, 4),
                            ARG(gesummv_alpha), ARG(gesummv_beta), ARG(n));
}

/* PolyBench/GPU's 256 work-items per group */
static int gesummv_run(struct bench *b, struct bench_cl *c)
{
    size_t g = b->p[0], l = 256;
    return bench_launch(b, c, 0, 1, &g, &l);
}

/* ---- sgemm NT (naive and tiled) -------------------------------------------------------- */

static int sgemm_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? 256 : s == BENCH_DEFAULT ? 1024 : 2048;
    b->p[0] = b->p[1] = b->p[2] = n; /* m, n, k */
    b->work = 2.0 * n * n * n * 1e-9;
    b->out_count = n * n;
    snprintf(b->size_desc, sizeof b->size_desc, "%zu^3", n);
    bench_fill_float(bench_alloc(b, 0, n * n * 4), n * n, 41, -1, 1);
    bench_fill_float(bench_alloc(b, 1, n * n * 4), n * n, 42, -1, 1);
    return 0;
}

/* C(m x n) = A(m x k) * B(n x k)^T, column-major: the reference of both OpenCL forms */
static void sgemm_native(struct bench *b, void *out)
{
    int m = (int)b->p[0], n = (int)b->p[1], k = (int)b->p[2];
    blas_threads();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, b->in[0], m, b->in[1], n, 0.0f,
                out, m);
}

static int sgemm_init(struct bench *b, struct bench_cl *c)
{
    int m = (int)b->p[0], n = (int)b->p[1], k = (int)b->p[2];
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, (size_t)m * n * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, (size_t)m * k * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, (size_t)n * k * 4, b->in[1]))
        return -1;
    int err = bench_kernel(b, c, 0, b->d->name);
    return err ? err
               : bench_args(b, c, 0, 7, BUF(c, 1), ARG(m), BUF(c, 2), ARG(n), BUF(c, 0), ARG(m), ARG(k));
}

static int sgemm_naive_run(struct bench *b, struct bench_cl *c)
{
    size_t g[2] = {b->p[0], b->p[1]}, l[2] = {16, 16};
    return bench_launch(b, c, 0, 2, g, l);
}

static int sgemm_tiled_run(struct bench *b, struct bench_cl *c)
{
    /* work-group (16, 8) computes a 128 x 16 block of C */
    size_t g[2] = {b->p[0] / 128 * 16, b->p[1] / 16 * 8}, l[2] = {16, 8};
    return bench_launch(b, c, 0, 2, g, l);
}

/* ---- Stratton MatMul (row-major, 16x16 tiles) -------------------------------------------- */

/* row-major C = A * B, all n x n */
static void matmul_native(struct bench *b, void *out)
{
    int n = (int)b->p[0];
    blas_threads();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, b->in[0], n, b->in[1], n, 0.0f,
                out, n);
}

static int matmul_init(struct bench *b, struct bench_cl *c)
{
    int n = (int)b->p[0];
    size_t bytes = (size_t)n * n * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, bytes, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, bytes, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, bytes, b->in[1]))
        return -1;
    int err = bench_kernel(b, c, 0, "matmul");
    return err ? err : bench_args(b, c, 0, 5, BUF(c, 0), BUF(c, 1), BUF(c, 2), ARG(n), ARG(n));
}

static int matmul_run(struct bench *b, struct bench_cl *c)
{
    size_t g[2] = {b->p[0], b->p[0]}, l[2] = {16, 16};
    return bench_launch(b, c, 0, 2, g, l);
}

const struct bench_desc bench_linalg[] = {
    {"saxpy", "linalg", BU_GBS, BT_FLOAT, 1e-6, saxpy_setup, saxpy_native, saxpy_init, saxpy_run, read_out},
    {"sgemv", "linalg", BU_GFLOPS, BT_FLOAT, 1e-3, sgemv_setup, sgemv_native, sgemv_init, sgemv_run, read_out},
    {"gesummv", "linalg", BU_GFLOPS, BT_FLOAT, 1e-3, gesummv_setup, gesummv_native, gesummv_init, gesummv_run, read_out},
    {"sgemm_naive", "linalg", BU_GFLOPS, BT_FLOAT, 1e-3, sgemm_setup, sgemm_native, sgemm_init, sgemm_naive_run, read_out},
    {"sgemm_tiled", "linalg", BU_GFLOPS, BT_FLOAT, 1e-3, sgemm_setup, sgemm_native, sgemm_init, sgemm_tiled_run, read_out},
    {"matmul", "linalg", BU_GFLOPS, BT_FLOAT, 1e-3, sgemm_setup, matmul_native, matmul_init, matmul_run, read_out},
    {0},
};
