/* Dense linear algebra, written as GPU programmers write it: one work-item per output element,
 * dimension 0 along contiguous memory. Matrices of sgemv/sgemm are column-major. */

kernel void saxpy(global const float *x, global const float *y, global float *z, float a)
{
    size_t i = get_global_id(0);
    z[i] = a * x[i] + y[i];
}

/* sgemv, column-major A (m x n): one work-item per row, a loop over columns (Kim, Fig 6.3).
 * Neighbouring work-items read neighbouring elements of each column. */
kernel void sgemv(global const float *A, global const float *x, global float *y, int m, int n)
{
    int i = get_global_id(0);
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
        sum += A[i + j * m] * x[j];
    y[i] = sum;
}

/* gesummv (PolyBench/GPU): y = alpha A x + beta B x, row-major A and B (n x n), one work-item
 * per row. Each work-item walks a row of its own: neighbouring work-items read elements n apart. */
kernel void gesummv(global const float *A, global const float *B, global const float *x,
                    global float *y, global float *tmp, float alpha, float beta, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float t = 0.0f, s = 0.0f;
        for (int j = 0; j < n; j++) {
            t += A[i * n + j] * x[j];
            s += B[i * n + j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * s;
    }
}

/* Naive sgemm NT (Kim, Fig 6.7): C(m x n) = A(m x k) * B(n x k)^T, all column-major; one
 * work-item per element of C, dimension 0 along the columns of A and C. */
kernel void sgemm_naive(global const float *A, int lda, global const float *B, int ldb,
                        global float *C, int ldc, int k)
{
    int m = get_global_id(0), n = get_global_id(1);
    float c = 0.0f;
    for (int i = 0; i < k; i++)
        c += A[m + i * lda] * B[n + i * ldb];
    C[m + n * ldc] = c;
}

/* Register- and local-memory-tiled sgemm NT in the Parboil style: a work-group of
 * TILE_N x TILE_TB_HEIGHT work-items computes a TILE_M x TILE_N block of C; each work-item
 * keeps one row segment of TILE_N results in registers and the group shares a tile of B. */
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

kernel void sgemm_tiled(global const float *A, int lda, global const float *B, int ldb,
                        global float *C, int ldc, int k)
{
    local float b_s[TILE_TB_HEIGHT][TILE_N];
    float c[TILE_N];
    for (int j = 0; j < TILE_N; j++)
        c[j] = 0.0f;
    int lx = get_local_id(0), ly = get_local_id(1);
    int m = get_group_id(0) * TILE_M + ly * TILE_N + lx;
    int n = get_group_id(1) * TILE_N + lx;
    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        b_s[ly][lx] = B[n + (i + ly) * ldb];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            float a = A[m + (i + j) * lda];
            for (int t = 0; t < TILE_N; t++)
                c[t] += a * b_s[j][t];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int n0 = get_group_id(1) * TILE_N;
    for (int t = 0; t < TILE_N; t++)
        C[m + (n0 + t) * ldc] = c[t];
}

/* Stratton's MatMul (MCUDA, Fig 1): row-major C = A * B with BLOCK x BLOCK tiles of A and B in
 * local memory; wA is A's width, wB is B's width. */
#define BLOCK 16
kernel void matmul(global float *C, global const float *A, global const float *B, int wA, int wB)
{
    local float As[BLOCK][BLOCK];
    local float Bs[BLOCK][BLOCK];
    int bx = get_group_id(0), by = get_group_id(1);
    int tx = get_local_id(0), ty = get_local_id(1);
    int aBegin = wA * BLOCK * by, aEnd = aBegin + wA - 1, aStep = BLOCK;
    int bBegin = BLOCK * bx, bStep = BLOCK * wB;
    float Csub = 0.0f;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BLOCK; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[wB * BLOCK * by + BLOCK * bx + wB * ty + tx] = Csub;
}
