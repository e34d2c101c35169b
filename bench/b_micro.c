/* bench/b_micro.c — microbenchmarks: empty-kernel launch latency, STREAM copy/scale/triad in
 * float and float4, and clpeak's mad chains in float, double and int, widths 1 to 16.
 * The native references do the same arithmetic per element; the mad chains are written in
 * blocks of lanes so that gcc vectorizes across elements, as an OpenCL compiler should. */
#include "runner.h"

#include <omp.h>
#include <stdlib.h>
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

/* clpeak's compute kernels in float, double and int (uint arithmetic), each in widths 1, 2, 4,
 * 8, 16 (kernels/mad.cl): the width is the name's numeric suffix (none: 1), the element type
 * the descriptor's out_type. Every width computes the same N elements, so a run is the same
 * work and the reference is one native function per type. */
#define MAD_PER_ITEM 1024 /* 64 iterations x 16 mads, per element */

static int mad_setup(struct bench *b, enum bench_size s)
{
    size_t n = s == BENCH_SMALL ? (size_t)1 << 16 : s == BENCH_DEFAULT ? (size_t)1 << 19 : (size_t)4 << 20;
    const char *name = b->d->name, *w = name + strlen(name);
    while (w > name && w[-1] >= '0' && w[-1] <= '9')
        w--;
    b->p[0] = n;
    b->p[1] = *w ? strtoul(w, NULL, 10) : 1;       /* lanes per work-item */
    b->p[2] = b->d->out_type == BT_DOUBLE ? 8 : 4; /* bytes per element */
    b->work = (double)n * MAD_PER_ITEM * 2 * 1e-9; /* 2 ops (mul, add) per mad per lane */
    b->out_count = n;
    snprintf(b->size_desc, sizeof b->size_desc, "N=%zuK x %d mad", n >> 10, MAD_PER_ITEM);
    return 0;
}

/* Element i's chain, for a block of 512 bytes of elements at once, so that gcc vectorizes across
 * elements as an OpenCL compiler should across work-items: 8 vector registers of x and 8 of y
 * in 512-bit vectors (gcc prefers 256-bit ones on some AVX-512 parts, which halves the peak),
 * enough independent FMAs to cover latency x pipes. */
#if defined(__GNUC__) && !defined(__clang__)
#define WIDE_VECTORS __attribute__((target("prefer-vector-width=512")))
#else
#define WIDE_VECTORS
#endif
#define CHAIN(T, X0, Y0, OUT)                                                           \
    do {                                                                                \
        enum { L = 512 / (int)sizeof(T) };                                              \
        long n = (long)b->p[0];                                                         \
        _Pragma("omp parallel for schedule(static)") for (long i0 = 0; i0 < n; i0 += L) \
        {                                                                               \
            T x[L], y[L];                                                               \
            for (int l = 0; l < L; l++) {                                               \
                long i = i0 + l;                                                        \
                x[l] = X0;                                                              \
                y[l] = Y0;                                                              \
            }                                                                           \
            for (int k = 0; k < MAD_PER_ITEM / 2; k++)                                  \
                for (int l = 0; l < L; l++) {                                           \
                    x[l] = y[l] * x[l] + y[l];                                          \
                    y[l] = x[l] * y[l] + x[l];                                          \
                }                                                                       \
            for (int l = 0; l < L; l++)                                                 \
                OUT;                                                                    \
        }                                                                               \
    } while (0)

WIDE_VECTORS static void madf_native(struct bench *b, void *out)
{
    float *o = out;
    CHAIN(float, -0.25f - 0.0005f * (float)(i & 1023), -1.0f - x[l], o[i0 + l] = x[l] + y[l]);
}

WIDE_VECTORS static void madd_native(struct bench *b, void *out)
{
    double *o = out;
    CHAIN(double, -0.25 - 0.0005 * (double)(i & 1023), -1.0 - x[l], o[i0 + l] = x[l] + y[l]);
}

WIDE_VECTORS static void madi_native(struct bench *b, void *out)
{
    uint32_t *o = out;
    CHAIN(uint32_t, (uint32_t)i, ~(uint32_t)i, o[i0 + l] = x[l] ^ y[l]);
}

static int mad_init(struct bench *b, struct bench_cl *c)
{
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, b->p[0] * b->p[2], NULL))
        return -1;
    int err = bench_kernel(b, c, 0, b->d->name);
    return err ? err : bench_args(b, c, 0, 1, BUF(c, 0));
}

static int mad_run(struct bench *b, struct bench_cl *c)
{
    size_t g = b->p[0] / b->p[1];
    return bench_launch(b, c, 0, 1, &g, NULL);
}

static int mad_read(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->p[0] * b->p[2], out);
}

#define STREAM(name) \
    {name, "stream", BU_GBS, BT_FLOAT, 1e-6, stream_setup, stream_native, stream_init, stream_run, read0}
#define MAD(name, unit, type, tol, native) \
    {name, "mad", unit, type, tol, mad_setup, native, mad_init, mad_run, mad_read}
#define MAD_WIDTHS(base, ...)                                                      \
    MAD(base, __VA_ARGS__), MAD(base "2", __VA_ARGS__), MAD(base "4", __VA_ARGS__), \
        MAD(base "8", __VA_ARGS__), MAD(base "16", __VA_ARGS__)

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
    MAD_WIDTHS("mad_float", BU_GFLOPS, BT_FLOAT, 1e-4, madf_native),
    MAD_WIDTHS("mad_double", BU_GFLOPS_DP, BT_DOUBLE, 1e-9, madd_native),
    MAD_WIDTHS("mad_int", BU_GIOPS, BT_INT, 0, madi_native),
    {0},
};
