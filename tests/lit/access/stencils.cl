// Affine access relations (analysis/access.h) of stencil-like kernels, as the executable
// pipeline sees them (sroa, early-cse, instcombine, simplifycfg after clang): instcombine
// leaves i8 GEPs, `ashr exact (shl x, 32), 32` for sign extensions and `and x, 0xffffffff`
// for zero extensions, which must all come out as the source's index times the element size.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// 1-D 3-point Jacobi with a boundary guard: both branches' accesses, in instruction order.
// A[i-1] is an i8 GEP of ashr exact ((gid << 32) - (1 << 32)), 30.
// CHECK-LABEL: access of @jacobi1d: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 - 4
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NOT:     arg
kernel void jacobi1d(global const float *A, global float *B, int n)
{
    int i = get_global_id(0);
    if (i > 0 && i < n - 1)
        B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0f;
    else
        B[i] = A[i];
}

// 2-D 5-point Poisson/Jacobi with the row width an int argument (arg 2): quadratic terms
// gid1*arg2. The x-1 / x+1 neighbours are an i8 GEP of +-4 on a float GEP.
// Every access sits behind the guard, whose `x < w - 1 && y < h - 1` bound the global ids.
// CHECK-LABEL: access of @poisson2d: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg2 - 4*arg2 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1)
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg2 + 4*arg2 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1)
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg2 - 4 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1)
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg2 + 4 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1)
// CHECK-NEXT:    write arg 1 size 4: 4*gid0 + 4*gid1*arg2 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1)
// CHECK-NOT:     arg
kernel void poisson2d(global const float *A, global float *B, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
        B[y * w + x] = 0.25f * (A[(y - 1) * w + x] + A[(y + 1) * w + x] + A[y * w + x - 1] + A[y * w + x + 1]);
}

// 2-D with get_global_size(0) as the row width, size_t arithmetic.
// CHECK-LABEL: access of @gsize2d: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*gsize0
// CHECK-NEXT:    write arg 1 size 4: 4*gid0 + 4*gid1*gsize0
kernel void gsize2d(global const float *A, global float *B)
{
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    B[y * w + x] = 2.0f * A[y * w + x];
}

// Global offsets and sizes in the other dimensions: a column-major 2-D copy relative to the
// launch's origin, with a 2-element halo above (short elements).
// CHECK-LABEL: access of @offsets: affine
// CHECK-NEXT:    read  arg 0 size 2: 2*gid0*gsize1 + 2*gid1 - 2*gsize1*goff0 - 2*goff1 - 4
// CHECK-NEXT:    write arg 1 size 2: 2*gid0*gsize1 + 2*gid1 - 2*gsize1*goff0 - 2*goff1
kernel void offsets(global const short *A, global short *B)
{
    long x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
    long h = get_global_size(1);
    B[x * h + y] = A[x * h + y - 2];
}

// An unsigned index: zext of (trunc gid + off), and `and gid, 0xffffffff`.
// CHECK-LABEL: access of @uindex: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*arg2
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
kernel void uindex(global const float *A, global float *B, uint off)
{
    uint i = get_global_id(0);
    B[i] = A[i + off];
}

// Vectors count fully (16 bytes); a float3 steps by 16 but accesses 12, and clang reads and
// writes all of it to change one component.
// CHECK-LABEL: access of @vectors: affine
// CHECK-NEXT:    read  arg 0 size 16: 16*gid0
// CHECK-NEXT:    write arg 1 size 16: 16*gid0
// CHECK-NEXT:    read  arg 2 size 12: 16*gid0
// CHECK-NEXT:    write arg 2 size 12: 16*gid0
kernel void vectors(global const float4 *A, global float4 *B, global float3 *C)
{
    size_t i = get_global_id(0);
    B[i] = A[i] * 2.0f;
    C[i].z = C[i].x + C[i].y;
}

// Fields of an array of structs (sizeof(struct P) = 20: x at 0, tag at 4, y[] at 8).
// CHECK-LABEL: access of @fields: affine
// CHECK-NEXT:    read  arg 0 size 4: 20*gid0
// CHECK-NEXT:    read  arg 0 size 4: 20*gid0 + 16
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NEXT:    write arg 0 size 4: 20*gid0 + 4
struct P { float x; int tag; float y[3]; };
kernel void fields(global struct P *p, global float *o)
{
    size_t i = get_global_id(0);
    o[i] = p[i].x + p[i].y[2];
    p[i].tag = 1;
}

// __constant arguments count; private arrays and constant program data do not.
// CHECK-LABEL: access of @constants: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*arg2
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NOT:     arg
constant float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
kernel void constants(constant float *c, global float *out, int k)
{
    size_t i = get_global_id(0);
    float priv[4];
    for (int j = 0; j < 4; j++)
        priv[j] = weights[j] * (float)j;
    out[i] = c[i + k] + priv[k & 3];
}

// FDTD-2D's first update: under `i == 0` clang folds ey[i * ny + j] into ey[j]. Those accesses
// run only in row 0 and are marked pinned to it (the fusion plan then gives them the row step
// of the other accesses of ey); `i != 3` pins the else branch of its comparison, `i > 0` does
// not pin.
// CHECK-LABEL: access of @fdtd_ey: affine
// CHECK-NEXT:    read  arg 2 size 4: 4*arg5 (only where gid1 == 0)
// CHECK-NEXT:    write arg 0 size 4: 4*gid0 (only where gid1 == 0)
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg4{{$}}
// CHECK-NEXT:    read  arg 1 size 4: 4*gid0 + 4*gid1*arg4{{$}}
// CHECK-NEXT:    read  arg 1 size 4: 4*gid0 + 4*gid1*arg4 - 4*arg4{{$}}
// CHECK-NEXT:    write arg 0 size 4: 4*gid0 + 4*gid1*arg4{{$}}
// CHECK-LABEL: access of @pins: affine
// CHECK-NEXT:    write arg 0 size 4: 4*gid0{{$}}
// CHECK-NEXT:    write arg 0 size 4: 4*gid0 + 4*gid1*arg1 (only where gid1 == 3)
kernel void fdtd_ey(global float *ey, global const float *hz, global const float *fict, int nx, int ny, int t)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i == 0)
        ey[i * ny + j] = fict[t];
    else
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

kernel void pins(global float *a, int n)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i > 0)
        a[j] = 1.0f;
    if (i != 3)
        return;
    a[i * n + j] = 2.0f;
}
