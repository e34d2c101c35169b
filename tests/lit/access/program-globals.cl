// Kernels that touch program-scope variables (compiler/globals.h) are not affine: the fused
// launch chains of exec/fuse/fuse.c copy only kernel-argument buffers into their windows, so a
// kernel writing (or reading what another writes in) the program's storage must never be
// fused or reordered. A kernel reading only __constant data stays affine.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

global float acc[1024];
global int calls;
constant float weights[3] = {0.25f, 0.5f, 0.25f};

// CHECK: access of @writes_global: not affine
kernel void writes_global(global const float *x)
{
    int i = get_global_id(0);
    acc[i] = x[i];
}

// CHECK: access of @reads_global: not affine
kernel void reads_global(global float *y)
{
    int i = get_global_id(0);
    y[i] = acc[i];
}

// CHECK: access of @counts: not affine
kernel void counts(global float *y)
{
    int i = get_global_id(0);
    y[i] = 1.0f;
    calls++;
}

// CHECK: access of @constant_table: affine
kernel void constant_table(global const float *x, global float *y)
{
    int i = get_global_id(0) + 1;
    y[i] = weights[0] * x[i - 1] + weights[1] * x[i] + weights[2] * x[i + 1];
}
