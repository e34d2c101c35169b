// The shapes of a real kernel as clang -O2 emits it (value names kept): the int index `2*i+1`
// is affine with stride 2 and its float address 8 bytes; x[i], whose index clang sign-extends
// with `ashr exact (shl i, 32), 30` straight into a byte offset, keeps a 4-byte stride; the
// loads are varying and the branch on the global id is divergent.
// RUN: %ocl_ir -O2 -fno-discard-value-names %s -o - | weft-opt -pass=print-shapes - | FileCheck %s

// CHECK-LABEL: shapes of @saxpy2:
// CHECK-NEXT:    %call: affine(dim 0, stride 1)
// CHECK-NEXT:    %conv: affine(dim 0, stride 1)
// CHECK-NEXT:    %cmp: varying
// CHECK-NEXT:    entry: branch divergent
// CHECK:         %arrayidx: affine(dim 0, stride 4)
// CHECK-NEXT:    %{{[0-9]+}}: varying
// CHECK-NEXT:    %mul2: affine(dim 0, stride 2)
// CHECK-NEXT:    %add: affine(dim 0, stride 2)
// CHECK-NEXT:    %idxprom3: affine(dim 0, stride 2)
// CHECK-NEXT:    %arrayidx4: affine(dim 0, stride 8)
kernel void saxpy2(global float *y, global const float *x, float a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[2 * i + 1] = a * x[i] + y[2 * i + 1];
}

// A tree reduction: the loop counter `s` and everything derived from it stay uniform although
// the loop body branches on the local id; the final `lid == 0` branch is divergent.
// CHECK-LABEL: shapes of @reduce:
// CHECK:         %arrayidx2: affine(dim 0, stride 4)
// CHECK:         for.cond.cleanup: branch divergent
// CHECK-NEXT:    %s.027.in: uniform
// CHECK-NEXT:    %s.027: uniform
// CHECK-NEXT:    %cmp4: varying
// CHECK-NEXT:    for.body: branch divergent
// CHECK:         %cmp.not: uniform
// CHECK-NEXT:    if.end: branch uniform
kernel void reduce(global float *in, global float *out, local float *tmp)
{
    size_t lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tmp[lid] += tmp[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tmp[0];
}
