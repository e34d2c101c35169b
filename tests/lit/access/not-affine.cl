// Kernels whose global memory effects the affine relations cannot describe: the summary says
// why, naming the first offending instruction (analysis/access.h).
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// An indirect index: the address depends on a loaded value.
// CHECK: access of @indirect: not affine (load %1: address is not an argument plus an affine offset (depends on load %0))
kernel void indirect(global const float *x, global const int *idx, global float *y)
{
    int i = get_global_id(0);
    y[i] = x[idx[i]];
}

// A pointer chosen between two arguments.
// CHECK: access of @selected: not affine (store to %arrayidx: address is not an argument plus an affine offset (depends on select %b.a))
kernel void selected(global float *a, global float *b, int which)
{
    global float *p = which ? a : b;
    p[get_global_id(0)] = 1.0f;
}

// A loop whose induction variable indexes memory (a phi).
// CHECK: access of @row_sum: not affine (load %0: address is not an argument plus an affine offset (depends on phi %k.0))
kernel void row_sum(global const float *A, global float *B, int n)
{
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += A[i * n + k];
    B[i] = s;
}

// The local id is not one of the symbols.
// CHECK: access of @local_id: not affine (store to %arrayidx: address is not an argument plus an affine offset (depends on call %call to _Z12get_local_idj))
kernel void local_id(global int *A)
{
    A[get_local_id(0)] = 0;
}

// The product of two global ids.
// CHECK: access of @gid_product: not affine (store to %arrayidx: address is not an argument plus an affine offset (depends on mul %mul))
kernel void gid_product(global int *A)
{
    A[get_global_id(0) * get_global_id(1)] = 0;
}

// A barrier: work-items of a group may exchange data through global memory across it.
// CHECK: access of @with_barrier: not affine (call to _Z7barrierj: a barrier)
kernel void with_barrier(global int *A)
{
    size_t i = get_global_id(0);
    A[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    A[i + 1] += 1;
}

// __local memory.
// CHECK: access of @local_mem: not affine (store to %arrayidx: __local memory)
kernel void local_mem(local float *l, global float *g)
{
    l[get_global_id(0)] = 1.0f;
    g[get_global_id(0)] = 2.0f;
}

// A call left after inlining (here: to a builtin this test does not link).
// CHECK: access of @unlinked: not affine (call to _Z10atomic_addPU8CLglobalVii)
kernel void unlinked(global int *c, global const int *v)
{
    atomic_add(c, v[get_global_id(0)]);
}
