// Affine access relations of kernels that use builtins, with Weft's builtin library linked and
// inlined as the runtime does it (compiler/link.c): vload/vstore become vector loads and
// stores through i8 GEPs, atomics become atomicrmw, max becomes llvm.smax. OpenCL C 1.2 (the
// runtime's default): its vloadn take __global pointers, not generic ones.
// RUN: %ocl_ir -cl-std=CL1.2 -O1 -Xclang -disable-llvm-passes -fno-discard-value-names \
// RUN:   -Xclang -mlink-builtin-bitcode -Xclang %builtins_bc %s -o - \
// RUN:   | weft-opt '-pass=llvm:cgscc(inline),llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// vload4/vstore4: 16 bytes at 16*i (an i8 GEP of shl i, 4).
// CHECK-LABEL: access of @vl4: affine
// CHECK-NEXT:    read  arg 0 size 16: 16*gid0
// CHECK-NEXT:    read  arg 0 size 16: 16*gid0 + 16
// CHECK-NEXT:    write arg 1 size 16: 16*gid0
// CHECK-NOT:     arg
kernel void vl4(global const float *C, global float *D)
{
    size_t i = get_global_id(0);
    vstore4(vload4(i, C) + vload4(i + 1, C), i, D);
}

// Math builtins become intrinsics that touch no memory.
// CHECK-LABEL: access of @math: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0
// CHECK-NEXT:    write arg 0 size 4: 4*gid0
kernel void math(global float *A)
{
    size_t i = get_global_id(0);
    A[i] = sqrt(fabs(A[i])) + fma(A[i], 2.0f, 1.0f);
}

// atomic_add on global memory.
// CHECK: access of @atom: not affine (atomicrmw %1 on global memory)
kernel void atom(global int *c, global const int *v)
{
    atomic_add(c, v[get_global_id(0)]);
}

// A clamped index: a read whose address chooses (llvm.smax; more in choices.cl).
// CHECK-LABEL: access of @clamped: affine
// CHECK-NEXT:    read  arg 0 size 4: smax(gid0, 1) * 4 - 4
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
kernel void clamped(global const float *A, global float *B)
{
    int i = get_global_id(0);
    B[i] = A[max(i - 1, 0)];
}
