// Bounds on global ids from the guards around accesses (analysis/access.h, below[]): the
// runtime's fusion counts only the work-items that may write a row (exec/fuse/plan.h,
// items[]), so an NDRange padded past the data keeps one row's writes within the row's stride.
// Signed and unsigned comparisons, `||` that must fail and `&&` that must hold, ids shifted by
// the global offset or a constant; no bound from a comparison of two ids or of a scaled id.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// CHECK-LABEL: access of @padded: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg2 (only where gid0 < arg2) (only where gid1 < arg3)
// CHECK-NEXT:    write arg 1 size 4: 4*gid0 + 4*gid1*arg2 (only where gid0 < arg2) (only where gid1 < arg3)
kernel void padded(global const float *a, global float *b, int nx, int ny)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= nx || y >= ny)
        return;
    int i = y * nx + x;
    b[i] = a[i] * 0.5f;
}

// x = gid0 - goff0 < nx: gid0 < goff0 + nx; y = gid1 - 3 <= ny - 1: gid1 < ny + 3.
// CHECK-LABEL: access of @shifted: affine
// CHECK-NEXT:    read  arg 0 size 4: {{.*}} (only where gid0 < goff0 + arg2) (only where gid1 < arg3 + 3)
// CHECK-NEXT:    write arg 1 size 4: {{.*}} (only where gid0 < goff0 + arg2) (only where gid1 < arg3 + 3)
kernel void shifted(global const uint *a, global uint *b, int nx, int ny)
{
    int x = (int)(get_global_id(0) - get_global_offset(0));
    int y = (int)get_global_id(1) - 3;
    if (x < nx && y <= ny - 1)
        b[y * nx + x] = a[y * nx + x];
}

// CHECK-LABEL: access of @unsigned_guard: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 (only where gid0 <u arg2)
// CHECK-NEXT:    write arg 1 size 4: 4*gid0 (only where gid0 <u arg2)
kernel void unsigned_guard(global const uint *a, global uint *b, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        b[i] = a[i] + 1;
}

// CHECK-LABEL: access of @no_bound: affine
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0{{$}}
// CHECK-NEXT:    write arg 1 size 4: 4*gid0{{$}}
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0{{$}}
// CHECK-NEXT:    write arg 1 size 4: 4*gid0 + 4{{$}}
kernel void no_bound(global const uint *a, global uint *b, int n)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x + y < n)
        b[x] = a[x];
    if (2 * x < n)
        b[x + 1] = a[x];
}
