// `weft explain` on a kernel whose loop votes breadth-first (Kim's sgemv): the votes and the
// stride class of each access, what runs (depth-first first under auto, then profiled), and
// breadth-first when forced.
// RUN: env WEFT_SCHEDULE=auto %weft explain %s --local 64 | FileCheck %s
// RUN: env WEFT_SCHEDULE=bfo %weft explain %s --local 64 | FileCheck %s --check-prefix=BFO
// RUN: env WEFT_SCHEDULE=dfo %weft explain %s --local 64 | FileCheck %s --check-prefix=DFO

// CHECK:      Work-item schedule per kernel loop (WEFT_SCHEDULE=auto
// CHECK-NEXT:   loop #1: votes bfo 2, dfo 0, neutral 0 -> depth-first; votes BFO; WEFT_SCHEDULE=dfo, or auto before profiling
// CHECK-NEXT:   stride classes of each loop's accesses
// CHECK-NEXT:     loop {{.*}}: bfo 2 dfo 0 neutral 0 -> BFO, guarded
// CHECK-NEXT:       load %{{[0-9]+}}: LX W1
// CHECK-NEXT:       load %{{[0-9]+}}: L1 W0
// CHECK-NEXT:   auto: depth-first runs first; the first two launches
// BFO:        loop #1: votes bfo 2, dfo 0, neutral 0 -> breadth-first (predicated)
// DFO:        loop #1: votes bfo 2, dfo 0, neutral 0 -> depth-first; votes BFO; WEFT_SCHEDULE=dfo
// DFO-NOT:    auto: depth-first runs first

kernel void sgemv(global const float *A, global const float *x, global float *y, int m, int n)
{
    int row = get_global_id(0);
    if (row < m) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[k * m + row] * x[k];
        y[row] = s;
    }
}
