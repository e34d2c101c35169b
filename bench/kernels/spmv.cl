/* Sparse matrix-vector product y = A x in three GPU forms. */

/* JDS (Kim, Fig 3.6; Parboil): rows sorted by length, stored diagonal by diagonal, so that
 * consecutive work-items read consecutive entries of each jagged diagonal. */
kernel void spmv_jds(global float *y, global const float *data, global const int *index,
                     global const int *perm, global const float *x, int dim,
                     global const int *jd_ptr, global const int *rowlen)
{
    int ix = get_global_id(0);
    if (ix < dim) {
        float sum = 0.0f;
        int bound = rowlen[ix];
        for (int k = 0; k < bound; k++) {
            int j = jd_ptr[k] + ix;
            sum += data[j] * x[index[j]];
        }
        y[perm[ix]] = sum;
    }
}

/* CSR scalar: one work-item per row. */
kernel void spmv_csr_scalar(global float *y, global const int *rowptr, global const int *col,
                            global const float *val, global const float *x, int rows)
{
    int row = get_global_id(0);
    if (row < rows) {
        float sum = 0.0f;
        for (int j = rowptr[row]; j < rowptr[row + 1]; j++)
            sum += val[j] * x[col[j]];
        y[row] = sum;
    }
}

/* CSR vector: one work-group per row; the work-items stride over the row and reduce their
 * partial sums in local memory. */
kernel void spmv_csr_vector(global float *y, global const int *rowptr, global const int *col,
                            global const float *val, global const float *x, int rows,
                            local float *partial)
{
    int row = get_group_id(0), lid = get_local_id(0), ls = get_local_size(0);
    float sum = 0.0f;
    for (int j = rowptr[row] + lid; j < rowptr[row + 1]; j += ls)
        sum += val[j] * x[col[j]];
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        y[row] = partial[0];
}
