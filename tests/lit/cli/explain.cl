// `weft explain` shows, per kernel, the barrier-free sub-CFGs, what lives across barriers and
// how it was privatized, the shape of each memory access, and the work-item loops' vectorization.
// With Weft's vectorizer off, LLVM's loop vectorizer gets the work-item loops:
// RUN: env WEFT_VECTORIZE=off %weft explain %s | FileCheck %s
// RUN: env WEFT_VECTORIZE=off %weft explain %s --kernel scale --local 32 | FileCheck %s --check-prefix=ONE
// With it on (8 lanes, whatever the machine), explain says what it did per sub-CFG:
// RUN: env WEFT_VECTORIZE=8 %weft explain %s --local 20 | FileCheck %s --check-prefix=VEC
// RUN: not %weft explain %s --kernel nope 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not %weft explain %s --local 0 2>&1 | FileCheck %s --check-prefix=LOCAL

// A barrier inside a loop: the kernel splits into sub-CFGs (entry, after each barrier), and `v`
// (different per work-item, live across both barriers) needs a work-item-indexed array.
__kernel void smooth(__global float *data, __local float *tile, int steps)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    size_t g = get_global_id(0);
    float v = data[g];
    for (int s = 0; s < steps; s++) {
        tile[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = 0.5f * (v + tile[(l + 1) % n]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    data[g] = v;
}
// CHECK-LABEL: kernel smooth  (local size 64x1x1)
// CHECK:       sub-CFGs: 3 (barrier-free regions
// CHECK:         sub-CFG 0  from the kernel entry, lines [[#@LINE-13]]-{{[0-9]+}}
// CHECK:         sub-CFG 1  after barrier 1 (line [[#@LINE-9]])
// CHECK:         sub-CFG 2  after barrier 2 (line [[#@LINE-8]])
// CHECK:       privatized (live across barriers; scratch {{[0-9]+}} bytes per work-group):
// CHECK:         {{%[^ ]+}}  float  value of line {{[0-9]+}}, used in sub-CFGs {{[0-9,]+}}
// CHECK-NEXT:      -> array: 4 bytes x 64 work-items in scratch
// CHECK:       memory accesses
// CHECK:         line [[#@LINE-18]]:15  load global float  sub-CFG 0  unit stride along x (4 bytes
// CHECK:         line [[#@LINE-17]]:17  store local float  sub-CFG {{[0-9]}}  unit stride along x
// CHECK:         line [[#@LINE-16]]:25  load local float  sub-CFG 1  varying
// CHECK:       work-item loops (after LLVM's O3):
// CHECK:         sub-CFG 0 loop over local id x (innermost):
// CHECK:         sub-CFG 1 loop over local id x (innermost):
// CHECK:         sub-CFG 2 loop over local id x (innermost):

// No barrier: one sub-CFG, nothing privatized, contiguous accesses, a vectorized loop.
__kernel void scale(__global const float *x, __global float *y, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i];
}
// CHECK-LABEL: kernel scale  (local size 64x1x1)
// CHECK:       sub-CFGs: 1
// CHECK:       privatized: nothing (no barrier
// CHECK:       load global float  sub-CFG 0  unit stride along x (4 bytes
// CHECK:       store global float  sub-CFG 0  unit stride along x (4 bytes
// CHECK:       sub-CFG 0 loop over local id x (innermost): vectorized, width {{[0-9]+}}

// VEC-LABEL:   kernel smooth  (local size 20x1x1)
// VEC:         Weft's vectorizer
// VEC-NEXT:      sub-CFG 0: vectorized, width 8 x interleave 1 (8 work-items per packet), uniform control flow kept as branches, masked tail packet of 4
// VEC:           sub-CFG 1: vectorized, width 8
// VEC:           memory: {{.*}} 1 gather/scatter
// VEC:           sub-CFG 2: vectorized, width 8
// VEC-LABEL:   kernel scale  (local size 20x1x1)
// VEC:           sub-CFG 0: vectorized, width 8 x interleave 1 (8 work-items per packet), uniform control flow kept as branches, masked tail packet of 4
// VEC-NEXT:        memory: 2 vector, 1 scalar (uniform address), 0 gather/scatter; 0 lane by lane

// ONE-NOT:     kernel smooth
// ONE:         kernel scale  (local size 32x1x1)
// ONE:         sub-CFG 0 loop over local id x (innermost):
// NAME:        weft explain: no kernel 'nope' in '{{.*}}explain.cl'; kernels: smooth scale
// LOCAL:       weft explain: bad --local '0'
