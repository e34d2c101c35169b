// Loads from program-scope variables (compiler/globals.h) are shaped like loads from __global
// buffers: shared memory, so a uniform address reads a uniform value (a work-item that wrote
// it without a barrier races, which OpenCL leaves undefined), and an address indexed by the
// local id is affine. A store does not make the variable private: every work-item still sees
// the one storage.
// RUN: %ocl_ir -O2 -fno-discard-value-names %s -o - | weft-opt -pass=print-shapes - | FileCheck %s

global int scale_by;
global float table[256];

// CHECK-LABEL: shapes of @scaled:
// CHECK-NEXT:    %call: affine(dim 0, stride 1)
// CHECK-NEXT:    %0: uniform
// CHECK-NEXT:    %conv: affine(dim 0, stride 1)
// CHECK-NEXT:    %mul: affine(dim 0, stride %0)
// CHECK-NEXT:    %arrayidx: affine(dim 0, stride 4)
// CHECK-NEXT:    %1: varying
kernel void scaled(global int *out)
{
    size_t i = get_global_id(0);
    out[i] = scale_by * (int)i + (int)table[i];
    if (i == 0)
        scale_by++;
}
