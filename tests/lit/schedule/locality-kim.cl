// Kim's locality classes and votes (dissertation Table 3.1, acceptance criteria 1-13) on the
// kernels of the dissertation, as the executable pipeline sees them (sroa, early-cse,
// instcombine, simplifycfg after clang; loops not rotated, not unrolled).
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-locality' - \
// RUN:   | FileCheck %s
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-locality-precise' - \
// RUN:   | FileCheck %s --check-prefix=PRECISE

// Parboil spmv (JDS), criterion 8: BFO 3 (W0L1 once, W1LX twice), DFO 0, neutral 1 (WXLX).
// Its trip count is per row and it sits under `if (ix < dim)`.
// CHECK-LABEL: locality of @spmv_jds:
// CHECK-NEXT:    loop for.cond: bfo 3 dfo 0 neutral 1 -> BFO, divergent, guarded
// CHECK-NEXT:      load %arrayidx5: L1 W0
// CHECK-NEXT:      load %arrayidx7: LX W1
// CHECK-NEXT:      load %arrayidx9: LX W1
// CHECK-NEXT:      load %arrayidx11: LX WX
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

// sgemv (Fig 6.3), criterion 9: column-major A read along a row per work-item -> BFO.
// CHECK-LABEL: locality of @sgemv:
// CHECK-NEXT:    loop for.cond: bfo 2 dfo 0 neutral 0 -> BFO, guarded
// CHECK-NEXT:      load %arrayidx: LX W1
// CHECK-NEXT:      load %arrayidx5: L1 W0
kernel void sgemv(global const float *A, global const float *x, global float *y, int m, int n)
{
    int row = get_global_id(0);
    if (row < m) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[k * m + row] * x[k];
        y[row] = s;
    }
}

// sgemm NT (Fig 6.7), criterion 10: BFO along x and along y.
// CHECK-LABEL: locality of @sgemm_nt:
// CHECK-NEXT:    loop for.cond: bfo 4 dfo 0 neutral 0 -> BFO
// CHECK-NEXT:      dim 0: bfo 2 dfo 0 neutral 0
// CHECK-NEXT:      dim 1: bfo 2 dfo 0 neutral 0
// CHECK-NEXT:      load %arrayidx: LX W1 W0
// CHECK-NEXT:      load %arrayidx7: LX W0 W1
kernel void sgemm_nt(global const float *A, int lda, global const float *B, int ldb, global float *C, int ldc,
                     int k)
{
    int m = get_global_id(0), n = get_global_id(1);
    float c = 0.0f;
    for (int i = 0; i < k; ++i)
        c += A[m + i * lda] * B[n + i * ldb];
    C[m + n * ldc] = c;
}

// Shaped like StreamCluster's pgain loop (Fig 2.3, Table 5.2 `sc`), criterion 11: two
// work-group-invariant streams along i (W0L1) and two point coordinates read column-wise
// (W1LX) -> BFO 4-0.
// CHECK-LABEL: locality of @pgain:
// CHECK-NEXT:    loop for.cond: bfo 4 dfo 0 neutral 0 -> BFO, guarded
// CHECK-NEXT:      load %arrayidx: L1 W0
// CHECK-NEXT:      load %arrayidx{{[0-9]+}}: LX W1
// CHECK-NEXT:      load %arrayidx{{[0-9]+}}: L1 W0
// CHECK-NEXT:      load %arrayidx{{[0-9]+}}: LX W1
kernel void pgain(global const float *center, global const float *coord, global const float *weight,
                  global const float *cost, global float *out, int num, int dim)
{
    int tid = get_global_id(0);
    if (tid < num) {
        float s = 0.0f;
        for (int i = 0; i < dim; i++) {
            float d = center[i] - coord[i * num + tid];
            s += d * d * weight[i] + cost[i * num + tid];
        }
        out[tid] = s;
    }
}

// The synthetic cases of criteria 1, 2 and 12 and the approximate rules of criterion 4.
// A tie (4-4) goes to DFO, criterion 7.
// CHECK-LABEL: locality of @synthetic:
// CHECK-NEXT:    loop for.cond: bfo 4 dfo 4 neutral 1 -> DFO
// CHECK-NEXT:      load %arrayidx: L1 W0
// CHECK-NEXT:      load %arrayidx3: L1 W0
// CHECK-NEXT:      load %arrayidx5: LX W0
// CHECK-NEXT:      load %arrayidx8: L0 W1
// CHECK-NEXT:      load %arrayidx14: LX W1
// CHECK-NEXT:      load %arrayidx18: L1 WX
// CHECK-NEXT:      load %arrayidx24: LX WX
// CHECK-NEXT:      load %arrayidx27: L0 W1
// CHECK-NEXT:      load %arrayidx31: L0 WX
// PRECISE-LABEL: locality of @synthetic:
// PRECISE:           load %arrayidx27: L0 WX
kernel void synthetic(global const float *arr, global const int *f, global float *out, int n, int N)
{
    int tid = get_local_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; k++) {
        s += arr[k];                 // L1W0: BFO
        s += arr[f[k]];              // f[k] L1W0: BFO; arr[f[k]] LXW0: BFO (a loaded index)
        s += arr[tid];               // L0W1: DFO
        s += arr[f[k] + tid];        // LXW1: BFO
        s += arr[tid * N + k];       // L1WX: DFO
        s += arr[2 * k + 4 * tid];   // LXWX: neutral (only strides 0 and 1 are told apart)
        s += arr[tid / 32];          // approximately W1 (precisely X), L0: DFO
        s += arr[4 * tid];           // L0WX: DFO
    }
    out[tid] = s;
}
