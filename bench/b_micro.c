/* bench/b_micro.c — microbenchmarks: empty-kernel launch latency, STREAM copy/scale/triad in
 * float and float4, and clpeak-shaped mad chains in float, float4, double and int.
 * The native references do the same arithmetic per element; the mad chains are written in
 * blocks of lanes so that gcc vectorizes across elements, as an OpenCL compiler should. */
#include "runner.h"

#include <omp.h>
#include <string.h>

/* ---- launch latency --------------------------------------------------------------------- */

static int launch_setup(struct bench *b, enum bench_size s)
{
    b->p[0] = s == BENCH_SMALL ? 100 : s == BENCH_DEFAULT ? 1000 : 5000;
    b->work = (double)b->p[0];
    b->out_count = 1;
    snprintf(b->size_desc, sizeof b->size_desc, "%zu launches", b->p[0]);
    return 0;
}

static void launch_native(struct bench *b, void *out)
{
    /* the native analogue of a launch: a fork-join of all cores */
    volatile int v = 0;
    for (size_t i = 0; i < b->p[0]; i++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0)
                v = 7;
        }
    }
    *(int *)out = v;
}

static int launch_init(struct bench *b, struct bench_cl *c)
{
    int v = 7;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, 4, NULL))
        return -1;
    int err = bench_kernel(b, c, 0, "empty");
    return err ? err : bench_args(b, c, 0, 2, BUF(c, 0), ARG(v));
}

static int launch_run(struct bench *b, struct bench_cl *c)
{
    size_t g = 1;
    for (size_t i = 0; i < b->p[0]; i++) {
        int err = bench_launch(b, c, 0, 1, &g, NULL);
        if (err)
            return err;
    }
    return 0;
}

static int read0(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->out_count * 4, out);
}

/* Launch latency as an application waiting for each launch sees it: enqueue one empty
 * work-item, then clFinish, repeated (the issue-2 figure; `launch` above measures a burst). */
static int launch_sync_run(struct bench *b, struct bench_cl *c)
{
    size_t g = 1;
    for (size_t i = 0; i < b->p[0]; i++) {
        cl_int err = clEnqueueNDRangeKernel(c->q, c->k[0], 1, NULL, &g, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(c->q);
        if (err != CL_SUCCESS)
            return bench_failf(b, err, "launch %zu failed: %d", i, err);
    }
    return 0;
}

/* ---- host <-> device transfers: blocking clEnqueueWriteBuffer + clEnqueueReadBuffer ------ */

static int transfer_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)16 << 20 : s == BENCH_DEFAULT ? (size_t)256 << 20 : (size_t)1 << 30;
    b->p[0] = n;
    b->work = 2.0 * n * 1e-9;
    b->out_count = n / 4;
    int *src = bench_alloc(b, 0, n);
    if (!src || !bench_alloc(b, 1, n))
        return -1;
    uint64_t state = 42;
    for (size_t i = 0; i < n / 4; i++)
        src[i] = (int)bench_rand(&state);
    snprintf(b->size_desc, sizeof b->size_desc, "%zu MiB each way", n >> 20);
    return 0;
}

static void transfer_native(struct bench *b, void *out)
{
    /* the same two copies the OpenCL version makes: host -> "device" -> host */
    memcpy(b->in[1], b->in[0], b->p[0]);
    memcpy(out, b->in[1], b->p[0]);
}

static int transfer_init(struct bench *b, struct bench_cl *c)
{
    /* the native reference already filled the destination: clear it, so the check below
     * sees only what the OpenCL read brought back */
    memset(b->in[1], 0, b->p[0]);
    return bench_buffer(b, c, 0, CL_MEM_READ_WRITE, b->p[0], NULL) ? 0 : -1;
}

static int transfer_run(struct bench *b, struct bench_cl *c)
{
    cl_int err = clEnqueueWriteBuffer(c->q, c->m[0], CL_TRUE, 0, b->p[0], b->in[0], 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(c->q, c->m[0], CL_TRUE, 0, b->p[0], b->in[1], 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : bench_failf(b, err, "transfer failed: %d", err);
}

static int transfer_read(struct bench *b, struct bench_cl *c, void *out)
{
    memcpy(out, b->in[1], b->p[0]);
    return 0;
}

/* ---- STREAM ---------------------------------------------------------------------------- */

static const float stream_s = 3.0f;

static int stream_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 20 : s == BENCH_DEFAULT ? (size_t)16 << 20 : (size_t)64 << 20;
    b->p[0] = n;
    int arrays = strstr(b->d->name, "triad") ? 3 : 2;
    b->work = (double)arrays * n * 4 * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuM", n >> 20);
    bench_fill_float(bench_alloc(b, 0, n * 4), n, 11, -1, 1);
    bench_fill_float(bench_alloc(b, 1, n * 4), n, 12, -1, 1);
    return 0;
}

static void stream_native(struct bench *b, void *out)
{
    const float *x = b->in[0], *y = b->in[1];
    float *o = out;
    long n = (long)b->p[0];
    if (strstr(b->d->name, "copy")) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            o[i] = x[i];
    } else if (strstr(b->d->name, "scale")) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            o[i] = stream_s * x[i];
    } else {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            o[i] = x[i] + stream_s * y[i];
    }
}

/* buffers: 0 = output, 1 = first input, 2 = second input */
static int stream_init(struct bench *b, struct bench_cl *c)
{
    size_t bytes = b->p[0] * 4;
    if (!bench_buffer(b, c, 0, CL_MEM_READ_WRITE, bytes, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, bytes, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, bytes, b->in[1]))
        return -1;
    const char *name = strchr(b->d->name, '_') + 1; /* "stream_copy4" -> "copy4" */
    int err = bench_kernel(b, c, 0, name);
    if (err)
        return err;
    if (strstr(name, "copy"))
        return bench_args(b, c, 0, 2, BUF(c, 1), BUF(c, 0));
    if (strstr(name, "scale"))
        return bench_args(b, c, 0, 3, BUF(c, 1), BUF(c, 0), ARG(stream_s));
    return bench_args(b, c, 0, 4, BUF(c, 1), BUF(c, 2), BUF(c, 0), ARG(stream_s));
}

static int stream_run(struct bench *b, struct bench_cl *c)
{
    size_t g = strchr(b->d->name, '4') ? b->p[0] / 4 : b->p[0];
    return bench_launch(b, c, 0, 1, &g, NULL);
}

/* ---- mad chains ------------------------------------------------------------------------- */

#define MAD_PER_ITEM 1024 /* 64 iterations x 16 mads, per element */

static int mad_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 16 : s == BENCH_DEFAULT ? (size_t)1 << 19 : (size_t)4 << 20;
    b->p[0] = n;
    b->work = (double)n * MAD_PER_ITEM * 2 * 1e-9;
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuK x %d mad", n >> 10, MAD_PER_ITEM);
    return 0;
}

#define LANES 64
#define CHAIN(T, X0, Y0, A, B, OUT)                                                         \
    do {                                                                                    \
        long n = (long)b->p[0];                                                             \
        _Pragma("omp parallel for schedule(static)") for (long i0 = 0; i0 < n; i0 += LANES) \
        {                                                                                   \
            T x[LANES], y[LANES];                                                           \
            for (int l = 0; l < LANES; l++) {                                               \
                long i = i0 + l;                                                            \
                x[l] = X0;                                                                  \
                y[l] = Y0;                                                                  \
            }                                                                               \
            for (int k = 0; k < MAD_PER_ITEM / 2; k++)                                      \
                for (int l = 0; l < LANES; l++) {                                           \
                    x[l] = x[l] * (A) + (B);                                                \
                    y[l] = y[l] * (A) + (B);                                                \
                }                                                                           \
            for (int l = 0; l < LANES; l++)                                                 \
                OUT;                                                                        \
        }                                                                                   \
    } while (0)

static const float madf_a = 0.999f, madf_b = 0.001f;
static const double madd_a = 0.999, madd_b = 0.001;
static const uint32_t madi_a = 1664525u, madi_b = 1013904223u;

static void madf_native(struct bench *b, void *out)
{
    float *o = out;
    CHAIN(float, (float)(i & 1023) * 0.001f, 1.0f - x[l], madf_a, madf_b, o[i0 + l] = x[l] + y[l]);
}

static void madd_native(struct bench *b, void *out)
{
    double *o = out;
    CHAIN(double, (double)(i & 1023) * 0.001, 1.0 - x[l], madd_a, madd_b, o[i0 + l] = x[l] + y[l]);
}

static void madi_native(struct bench *b, void *out)
{
    uint32_t *o = out;
    CHAIN(uint32_t, (uint32_t)i, ~(uint32_t)i, madi_a, madi_b, o[i0 + l] = x[l] ^ y[l]);
}

static int mad_init(struct bench *b, struct bench_cl *c)
{
    int dbl = strstr(b->d->name, "double") != NULL;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, b->p[0] * (dbl ? 8 : 4), NULL))
        return -1;
    int err = bench_kernel(b, c, 0, b->d->name);
    if (err)
        return err;
    if (dbl)
        return bench_args(b, c, 0, 3, BUF(c, 0), ARG(madd_a), ARG(madd_b));
    if (strstr(b->d->name, "int"))
        return bench_args(b, c, 0, 3, BUF(c, 0), ARG(madi_a), ARG(madi_b));
    return bench_args(b, c, 0, 3, BUF(c, 0), ARG(madf_a), ARG(madf_b));
}

static int mad_run(struct bench *b, struct bench_cl *c)
{
    size_t g = strchr(b->d->name, '4') ? b->p[0] / 4 : b->p[0];
    return bench_launch(b, c, 0, 1, &g, NULL);
}

static int mad_read(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->p[0] * (strstr(b->d->name, "double") ? 8 : 4), out);
}

#define STREAM(name) \
    {name, "stream", BU_GBS, BT_FLOAT, 1e-6, stream_setup, stream_native, stream_init, stream_run, read0}

const struct bench_desc bench_micro[] = {
    {"launch", "launch", BU_LAUNCH, BT_INT, 0, launch_setup, launch_native, launch_init, launch_run, read0},
    {"launch_sync", "launch", BU_LAUNCH, BT_INT, 0, launch_setup, launch_native, launch_init, launch_sync_run, read0},
    {"transfer", "launch", BU_GBS, BT_INT, 0, transfer_setup, transfer_native, transfer_init, transfer_run, transfer_read},
    STREAM("stream_copy"),
    STREAM("stream_scale"),
    STREAM("stream_triad"),
    STREAM("stream_copy4"),
    STREAM("stream_scale4"),
    STREAM("stream_triad4"),
    {"mad_float", "mad", BU_GFLOPS, BT_FLOAT, 1e-4, mad_setup, madf_native, mad_init, mad_run, mad_read},
    {"mad_float4", "mad", BU_GFLOPS, BT_FLOAT, 1e-4, mad_setup, madf_native, mad_init, mad_run, mad_read},
    {"mad_double", "mad_double", BU_GFLOPS_DP, BT_DOUBLE, 1e-9, mad_setup, madd_native, mad_init, mad_run, mad_read},
    {"mad_int", "mad", BU_GIOPS, BT_INT, 0, mad_setup, madi_native, mad_init, mad_run, mad_read},
    {0},
};
