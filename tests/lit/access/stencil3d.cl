// A 3-D 7-point stencil indexed as 3-D codes do, (z * ny + y) * nx + x: the offset has the
// degree-3 term 4*gid2*arg2*arg3 (gid2 * ny * nx), and the plane neighbours -+4*arg2*arg3.
// Terms of degree 4 or with two global ids stay not affine.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o - \
// RUN:   | weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// CHECK-LABEL: access of @heat3d: affine
// CHECK:         write arg 1 size 4: 4*gid0 + 4*gid1*arg2 + 4*gid2*arg2*arg3 (only where gid0 < arg2 - 1) (only where gid1 < arg3 - 1) (only where gid2 < arg4 - 1)
kernel void heat3d(global const float *a, global float *b, int nx, int ny, int nz)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
        return;
    int i = (z * ny + y) * nx + x;
    b[i] = a[i] + a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - nx * ny] + a[i + nx * ny];
}

// CHECK-LABEL: access of @degree4: not affine
kernel void degree4(global float *b, int nx, int ny, int nz, int nw)
{
    int x = get_global_id(0), w = get_global_id(1);
    b[((w * nz) * ny) * nx + x] = 1.0f;
}

// CHECK-LABEL: access of @twoids: not affine
kernel void twoids(global float *b, int nx)
{
    int x = get_global_id(0), y = get_global_id(1);
    b[x * y * nx] = 1.0f;
}
