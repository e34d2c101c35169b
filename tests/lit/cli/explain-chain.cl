// `weft explain --chain`: the fusion decision the runtime would take for a chain of launches
// (exec/fuse/fuse.h): which launches, the depth K (forced, or by Zhou's equation 6), the tiles and
// the rows run. For a 1-D radius-1 Jacobi ping-pong chain over N points in Q tiles, the rows run
// are Zhou's K*N + (Q-1)*K*(K-1) (seed-notes 003-004, criterion 5): checked here as a formula
// over the printed K and Q, not as constants.
// RUN: %weft explain %s --chain 'jacobi1d(A, B, 1000), jacobi1d(B, A, 1000)' --repeat 3 --global 1000 --local 1 --depth 5 --tile 100 | FileCheck %s --check-prefix=FORCED
// RUN: %weft explain %s --chain 'jacobi1d(A,B,1009),jacobi1d(B,A,1009)' --repeat 4 --global 1009 --local 1 --depth 8 --tile 100 | FileCheck %s --check-prefix=ODD
// RUN: %weft explain %s --chain 'jacobi1d(A,B,1000),jacobi1d(B,A,1000)' --repeat 3 --global 1000 --local 1 --ratio 0.05 --tile 100 | FileCheck %s --check-prefix=EQ6
// RUN: %weft explain %s --chain 'hotspot(P, T0, T1, 64, 80), hotspot(P, T1, T0, 64, 80)' --repeat 3 --global 80,64 --depth 6 --tile 8 | FileCheck %s --check-prefix=HOTSPOT
// RUN: %weft explain %s --chain 'scale(A,100),jacobi1d(B,C,100)' --global 100 | FileCheck %s --check-prefix=NOFEED
// RUN: env WEFT_FUSE_LEVELS=1 %weft explain %s --chain 'jacobi1d(A,B,1000),jacobi1d(B,A,1000)' --repeat 3 --global 1000 --local 1 --depth 5 --tile 100 | FileCheck %s --check-prefix=ONELEVEL
// RUN: env WEFT_FUSE_DOMAINS=1 %weft explain %s --chain 'jacobi1d(A,B,1000),jacobi1d(B,A,1000)' --repeat 3 --global 1000 --local 1 --depth 5 --tile 100 | FileCheck %s --check-prefix=TWOLEVELS
// RUN: %weft explain %s --chain 'jacobi1d(A,B,1000),jacobi1d(B,svm:C,1000),jacobi1d(C,A,1000)' --global 1000 --depth 3 | FileCheck %s --check-prefix=SVM
// RUN: not %weft explain %s --chain 'jacobi1d(A,B)' --global 100 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not %weft explain %s --chain 'jacobi1d(A,B,100)' 2>&1 | FileCheck %s --check-prefix=GLOBAL

kernel void jacobi1d(global const float *a, global float *b, int n)
{
    int i = get_global_id(0);
    if (i > 0 && i < n - 1)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);
    else
        b[i] = a[i];
}

// Rodinia's HotSpot borders: reads whose address chooses (a select of two rows).
kernel void hotspot(global const float *power, global const float *src, global float *dst, int rows, int cols)
{
    int c = get_global_id(0), r = get_global_id(1), idx = r * cols + c;
    int N = (r == 0) ? idx : idx - cols;
    int S = (r == rows - 1) ? idx : idx + cols;
    dst[idx] = src[idx] + 0.1f * (power[idx] + src[N] + src[S] - 2.0f * src[idx]);
}

// With jacobi1d on other buffers, nothing reads what an earlier launch wrote: nothing to fuse.
kernel void scale(global float *x, int n)
{
    int i = get_global_id(0);
    x[i] = 2.0f * x[i];
}

// FORCED:      chain of 6 launches, NDRange 1000, local size 1
// FORCED:      launch 5   jacobi1d(B, A, 1000)
// FORCED:      buffers: A ({{.*}}windowed{{.*}}), B ({{.*}}windowed{{.*}})
// FORCED:      fused: launches 0-4 (5 of 6); launch 5 is planned again
// FORCED-NEXT: depth K = [[#K:]] (forced by --depth)
// FORCED-NEXT: tiles: [[#Q:]] of 100 rows
// FORCED-NEXT: rows run: [[#add(mul(K,1000),mul(mul(Q-1,K),K-1))]] = K*N [[#mul(K,1000)]] + redundant [[#mul(mul(Q-1,K),K-1)]]
// FORCED:      fuse: 5 launches (jacobi1d) fused into 10 tiles of 100 rows: K=5, redundant rows 180 of 5000 (3.6%)

// Q = 11 tiles, the last one 9 rows (at least K-1 wide, the formula's premise).
// ODD:      depth K = [[#K:]] (forced by --depth)
// ODD-NEXT: tiles: [[#Q:]] of 100 rows
// ODD-NEXT: rows run: [[#add(mul(K,1009),mul(mul(Q-1,K),K-1))]] = K*N [[#mul(K,1009)]] + redundant [[#mul(mul(Q-1,K),K-1)]]
// ODD:      K=8, redundant rows 560 of 8072

// Equation 6 at t_s/t_c - 1 = 0.05 with tiles of 100 rows: adding launch k costs 2(k-1) more
// redundant rows per tile; it pays while 2(k-1) < 100 * 0.05, so K = 3.
// EQ6:      fused: launches 0-2 (3 of 6); launches 3-5 are planned again as a chain of their own
// EQ6-NEXT: depth K = [[#K:3]] (equation 6 at t_s/t_c - 1 = 0.05 and tiles of 100 rows)
// EQ6-NEXT: tiles: [[#Q:10]] of 100 rows
// EQ6-NEXT: rows run: [[#add(mul(K,1000),mul(mul(Q-1,K),K-1))]] = K*N 3000 + redundant [[#mul(mul(Q-1,K),K-1)]]
// EQ6:      the runtime would not fuse it: it needs K >= 4

// 2-D, rows of 80 floats: the power buffer is read in place, the temperatures are windowed;
// each stage reaches one row further on both sides of the next (the select's hull).
// HOTSPOT:      buffers: P ({{.*}}only read: in place), T0 ({{.*}}windowed, rows 320 bytes apart), T1 ({{.*}}windowed, rows 320 bytes apart)
// HOTSPOT:      depth K = 6 (forced by --depth)
// HOTSPOT-NEXT: tiles: 8 of 8 rows (the outermost NDRange dimension, 64 rows; regions round to 1)
// HOTSPOT-NEXT: rows run: 594 = K*N 384 + redundant 210
// HOTSPOT-NEXT: regions of tile 4 (rows 32-39): 27-44 28-43 29-42 30-41 31-40 32-39

// NOFEED: not fused: no launch reads what an earlier one wrote

// SVM:      launch 1   jacobi1d(B, svm:C, 1000)
// SVM:      not fused: launch 1 (jacobi1d) is not held back for fusion: argument 1 is an SVM pointer
// ARITY:  weft explain: jacobi1d takes 3 arguments, the chain gives 2
// GLOBAL: weft explain: --chain needs --global

// ONELEVEL: levels: 1: each tile is run by one thread
// TWOLEVELS: rows run:
// TWOLEVELS: levels: 2 (hierarchical overlapped tiling): teams: 1 (the threads of a last-level cache domain each)
