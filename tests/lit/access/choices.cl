// Reads whose address chooses among polynomials (analysis/access.h, "Reads whose address
// chooses"): HotSpot's clamped neighbours as selects, as min/max builtins (llvm.smin/smax
// once inlined), as a select of pointers into one argument, and a comparison's 0 or 1 added to
// an index. A read is listed with the choice as an expression; a write whose address chooses
// keeps the summary not affine. Builtins linked and inlined as the runtime does it.
// RUN: %ocl_ir -cl-std=CL1.2 -O1 -Xclang -disable-llvm-passes -fno-discard-value-names \
// RUN:   -Xclang -mlink-builtin-bitcode -Xclang %builtins_bc %s -o - \
// RUN:   | weft-opt '-pass=llvm:cgscc(inline),llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg,print-access' - \
// RUN:   | FileCheck %s

// Rodinia's `(r == 0) ? idx : idx - cols` (cols is arg 4): each neighbour is any of two rows.
// CHECK-LABEL: access of @hotspot_select: affine
// CHECK-NEXT:    read  arg 1 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NEXT:    read  arg 1 size 4: any(gid0 + gid1*arg4, gid0 + gid1*arg4 + arg4) * 4
// CHECK-NEXT:    read  arg 1 size 4: any(gid0 + gid1*arg4, gid0 + gid1*arg4 - arg4) * 4
// CHECK-NEXT:    read  arg 1 size 4: any(gid0 + gid1*arg4, gid0 + gid1*arg4 + 1) * 4
// CHECK-NEXT:    read  arg 1 size 4: any(gid0 + gid1*arg4, gid0 + gid1*arg4 - 1) * 4
// CHECK-NEXT:    write arg 2 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NOT:     arg
kernel void hotspot_select(global const float *power, global const float *src, global float *dst,
                           int rows, int cols, float cap, float rx, float ry)
{
    int c = get_global_id(0), r = get_global_id(1), idx = r * cols + c;
    int N = (r == 0) ? idx : idx - cols;
    int S = (r == rows - 1) ? idx : idx + cols;
    int W = (c == 0) ? idx : idx - 1;
    int E = (c == cols - 1) ? idx : idx + 1;
    float t = src[idx];
    dst[idx] = t + cap * (power[idx] + (src[S] + src[N] - 2.0f * t) * ry + (src[E] + src[W] - 2.0f * t) * rx);
}

// Clamped row and column indices (min/max): the min or max stays in the expression, under the
// multiplication by the row width.
// CHECK-LABEL: access of @hotspot_clamp: affine
// CHECK-NEXT:    read  arg 1 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NEXT:    read  arg 1 size 4: (smin(gid1 + 1, arg3 - 1) * arg4 + gid0) * 4
// CHECK-NEXT:    read  arg 1 size 4: ((smax(gid1, 1) - 1) * arg4 + gid0) * 4
// CHECK-NEXT:    read  arg 1 size 4: (gid1*arg4 + smin(gid0 + 1, arg4 - 1)) * 4
// CHECK-NEXT:    read  arg 1 size 4: (gid1*arg4 + smax(gid0, 1) - 1) * 4
// CHECK-NEXT:    write arg 2 size 4: 4*gid0 + 4*gid1*arg4
// CHECK-NOT:     arg
kernel void hotspot_clamp(global const float *power, global const float *src, global float *dst,
                          int rows, int cols, float cap, float rx, float ry)
{
    int c = get_global_id(0), r = get_global_id(1);
    int rn = max(r - 1, 0), rs = min(r + 1, rows - 1), cw = max(c - 1, 0), ce = min(c + 1, cols - 1);
    float t = src[r * cols + c];
    dst[r * cols + c] = t + cap * (power[r * cols + c] + (src[rs * cols + c] + src[rn * cols + c] - 2.0f * t) * ry +
                                   (src[r * cols + ce] + src[r * cols + cw] - 2.0f * t) * rx);
}

// clamp() of a 1-D index: a max inside a min.
// CHECK-LABEL: access of @clamped_1d: affine
// CHECK-NEXT:    read  arg 0 size 4: smin(smax(gid0, 2) - 2, arg2 - 1) * 4
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NOT:     arg
kernel void clamped_1d(global const float *a, global float *b, int n)
{
    int i = get_global_id(0);
    b[i] = a[clamp(i - 2, 0, n - 1)];
}

// A select of two pointers into the same argument, and a comparison added to an index.
// CHECK-LABEL: access of @pointer_select: affine
// CHECK-NEXT:    read  arg 0 size 4: any(4*gid0 + 4, 4*gid0)
// CHECK-NEXT:    read  arg 0 size 4: (gid0 + any(0, 1)) * 4
// CHECK-NEXT:    write arg 1 size 4: 4*gid0
// CHECK-NOT:     arg
kernel void pointer_select(global const float *a, global float *b, int n)
{
    int i = get_global_id(0);
    global const float *p = i + 1 < n ? &a[i + 1] : &a[i];
    int j = i + (i > 0);
    b[i] = *p + a[j];
}

// A write whose address chooses stays refused: fusion needs exact owned ranges.
// CHECK: access of @clamped_store: not affine (store to %{{[a-z0-9.]+}}: a write whose address chooses (depends on call %{{.*}}))
kernel void clamped_store(global const float *a, global float *b, int n)
{
    int i = get_global_id(0);
    b[min(i, n - 1)] = a[i];
}
