/* bench/b_sparse.c — SpMV in JDS (Kim Fig 3.6), CSR scalar and CSR vector forms over one
 * fixed-seed matrix: 1..48 entries per row, columns scattered within a band around the
 * diagonal (the locality of a mesh-like matrix). The native reference is CSR, one row per
 * iteration, OpenMP over rows; it sums each row in the same order as the JDS and CSR scalar
 * kernels. */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROW 48
#define BAND 4096

/* in[0] rowptr, in[1] col, in[2] val, in[3] x; JDS only: in[4] data, in[5] index, in[6] perm,
 * in[7] jd_ptr (MAX_ROW ints) followed by rowlen (rows ints) */
static int spmv_setup(struct bench *b, enum bench_size s)
{
    size_t rows = s == BENCH_SMALL ? (size_t)16 << 10 : s == BENCH_DEFAULT ? (size_t)256 << 10 : (size_t)1 << 20;
    uint64_t seed = 51;
    int *rowptr = bench_alloc(b, 0, (rows + 1) * 4);
    rowptr[0] = 0;
    for (size_t r = 0; r < rows; r++)
        rowptr[r + 1] = rowptr[r] + 1 + (int)(bench_rand(&seed) % MAX_ROW);
    size_t nnz = (size_t)rowptr[rows];
    int *col = bench_alloc(b, 1, nnz * 4);
    for (size_t r = 0; r < rows; r++)
        for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
            long c = (long)r + (long)(bench_rand(&seed) % (2 * BAND)) - BAND;
            col[j] = (int)((c % (long)rows + (long)rows) % (long)rows);
        }
    bench_fill_float(bench_alloc(b, 2, nnz * 4), nnz, 52, -1, 1);
    bench_fill_float(bench_alloc(b, 3, rows * 4), rows, 53, -1, 1);
    b->p[0] = rows;
    b->p[1] = nnz;
    b->work = 2.0 * nnz * 1e-9;
    b->out_count = rows;
    snprintf(b->size_desc, sizeof b->size_desc, "%zuK rows, %zuK nnz", rows >> 10, nnz >> 10);
    if (strcmp(b->d->name, "spmv_jds"))
        return 0;

    /* JDS: sort rows by length, longest first (counting sort: lengths are 1..MAX_ROW) */
    int *perm = bench_alloc(b, 6, rows * 4);
    int *meta = bench_alloc(b, 7, (MAX_ROW + rows) * 4);
    int *jd_ptr = meta, *rowlen = meta + MAX_ROW;
    size_t pos = 0;
    for (int len = MAX_ROW; len >= 1; len--)
        for (size_t r = 0; r < rows; r++)
            if (rowptr[r + 1] - rowptr[r] == len) {
                perm[pos] = (int)r;
                rowlen[pos++] = len;
            }
    float *data = bench_alloc(b, 4, nnz * 4);
    int *index = bench_alloc(b, 5, nnz * 4);
    const float *val = b->in[2];
    size_t off = 0;
    for (int k = 0; k < MAX_ROW; k++) {
        jd_ptr[k] = (int)off;
        /* rows still long enough for diagonal k are a prefix of the sorted order */
        for (size_t i = 0; i < rows && rowlen[i] > k; i++) {
            int src = rowptr[perm[i]] + k;
            data[off] = val[src];
            index[off++] = col[src];
        }
    }
    return 0;
}

static void spmv_native(struct bench *b, void *out)
{
    const int *rowptr = b->in[0], *col = b->in[1];
    const float *val = b->in[2], *x = b->in[3];
    float *y = out;
    long rows = (long)b->p[0];
#pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; r++) {
        float sum = 0;
        for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
            sum += val[j] * x[col[j]];
        y[r] = sum;
    }
}

static int csr_init(struct bench *b, struct bench_cl *c)
{
    size_t rows = b->p[0], nnz = b->p[1];
    int irows = (int)rows;
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, rows * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, (rows + 1) * 4, b->in[0]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, nnz * 4, b->in[1]) ||
        !bench_buffer(b, c, 3, CL_MEM_READ_ONLY, nnz * 4, b->in[2]) ||
        !bench_buffer(b, c, 4, CL_MEM_READ_ONLY, rows * 4, b->in[3]))
        return -1;
    int err = bench_kernel(b, c, 0, b->d->name);
    if (err)
        return err;
    if (!strcmp(b->d->name, "spmv_csr_scalar"))
        return bench_args(b, c, 0, 6, BUF(c, 0), BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 4), ARG(irows));
    return bench_args(b, c, 0, 7, BUF(c, 0), BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 4), ARG(irows),
                      LOCAL(32 * sizeof(float)));
}

static int jds_init(struct bench *b, struct bench_cl *c)
{
    size_t rows = b->p[0], nnz = b->p[1];
    int irows = (int)rows;
    const int *meta = b->in[7];
    if (!bench_buffer(b, c, 0, CL_MEM_WRITE_ONLY, rows * 4, NULL) ||
        !bench_buffer(b, c, 1, CL_MEM_READ_ONLY, nnz * 4, b->in[4]) ||
        !bench_buffer(b, c, 2, CL_MEM_READ_ONLY, nnz * 4, b->in[5]) ||
        !bench_buffer(b, c, 3, CL_MEM_READ_ONLY, rows * 4, b->in[6]) ||
        !bench_buffer(b, c, 4, CL_MEM_READ_ONLY, rows * 4, b->in[3]) ||
        !bench_buffer(b, c, 5, CL_MEM_READ_ONLY, MAX_ROW * 4, meta) ||
        !bench_buffer(b, c, 6, CL_MEM_READ_ONLY, rows * 4, meta + MAX_ROW))
        return -1;
    int err = bench_kernel(b, c, 0, "spmv_jds");
    return err ? err
               : bench_args(b, c, 0, 8, BUF(c, 0), BUF(c, 1), BUF(c, 2), BUF(c, 3), BUF(c, 4), ARG(irows),
                            BUF(c, 5), BUF(c, 6));
}

static int scalar_run(struct bench *b, struct bench_cl *c)
{
    size_t l = 64, g = bench_round_up(b->p[0], l);
    return bench_launch(b, c, 0, 1, &g, &l);
}

static int vector_run(struct bench *b, struct bench_cl *c)
{
    size_t l = 32, g = b->p[0] * l; /* one work-group per row */
    return bench_launch(b, c, 0, 1, &g, &l);
}

static int spmv_read(struct bench *b, struct bench_cl *c, void *out)
{
    return bench_read(b, c, 0, b->p[0] * 4, out);
}

const struct bench_desc bench_sparse[] = {
    {"spmv_jds", "spmv", BU_GFLOPS, BT_FLOAT, 1e-4, spmv_setup, spmv_native, jds_init, scalar_run, spmv_read},
    {"spmv_csr_scalar", "spmv", BU_GFLOPS, BT_FLOAT, 1e-4, spmv_setup, spmv_native, csr_init, scalar_run, spmv_read},
    {"spmv_csr_vector", "spmv", BU_GFLOPS, BT_FLOAT, 1e-4, spmv_setup, spmv_native, csr_init, vector_run, spmv_read},
    {0},
};
