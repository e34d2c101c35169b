// Which form each loop gets (transform/schedule.h): a loop every work-item enters and leaves
// together gets the scheduling barrier at the top of its header; a guarded or divergent loop
// gets the predicated skeleton. -schedule=dfo analyses the same loops and changes nothing.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o %t.ll
// RUN: weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg' %t.ll > %t1.ll
// RUN: weft-opt -schedule=auto -local-size=64 -pass=lower-workitem %t1.ll | FileCheck %s
// RUN: weft-opt -schedule=dfo -local-size=64 -pass=lower-workitem %t1.ll | FileCheck %s --check-prefix=DFO
// RUN: weft-opt -schedule=bfo -local-size=64 -pass=lower-workitem %t1.ll | FileCheck %s --check-prefix=BFO

// CHECK: ; weft-schedule: uniform loop for.cond.i: bfo 1 dfo 0 neutral 0 -> BFO
// CHECK: ; weft-schedule: guarded loop for.cond.i: bfo 2 dfo 0 neutral 0 -> BFO predicated
// CHECK: ; weft-schedule: rowwise loop for.cond.i: bfo 0 dfo 2 neutral 0 -> DFO (votes DFO)
// DFO: ; weft-schedule: uniform loop for.cond.i: bfo 1 dfo 0 neutral 0 -> DFO (votes BFO; WEFT_SCHEDULE=dfo, or auto before profiling)
// DFO-NOT: __weft_implicit_barrier()
// BFO: ; weft-schedule: rowwise loop for.cond.i: bfo 0 dfo 2 neutral 0 -> BFO predicated

// The plain form: the marker right after the header's phis.
// CHECK-LABEL: define internal void @weft_wi_uniform(
// CHECK:       for.cond.i:
// CHECK-NEXT:    phi
// CHECK-NEXT:    phi
// CHECK-NEXT:    call void @__weft_implicit_barrier()
kernel void uniform(global const float *x, global float *out, int n)
{
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += x[k];
    out[get_global_id(0)] = s;
}

// The predicated form: the barrier in the skeleton's header, the group-shared stamp read as
// uniform, the active flag guarding the body, work-items leaving through the dispatcher and
// the guard's other side joining inactive.
// CHECK-LABEL: define internal void @weft_wi_guarded(
// CHECK:       bfo.header:
// CHECK:         %bfo.iter = phi i64 [ 1, %bfo.pre ], [ %{{[0-9]+}}, %bfo.next ], [ 1, %bfo.skip ]
// CHECK-NEXT:    call void @__weft_implicit_barrier()
// CHECK-NEXT:    %bfo.stamp{{[0-9]*}} = load i64, ptr addrspace(3) @weft.bfo.lai.0, align 8, !weft.uniform
// CHECK:         %bfo.any = icmp sge i64
// CHECK:       bfo.stamp:
// CHECK-NEXT:    store i64 %bfo.iter, ptr addrspace(3) @weft.bfo.lai.0
// CHECK:       bfo.dispatch:
// CHECK-NEXT:    switch i32 %bfo.exit.0, label %bfo.skip.exit [
// CHECK:       bfo.skip:
// CHECK-NEXT:    store i64 0, ptr addrspace(3) @weft.bfo.lai.0
kernel void guarded(global const float *A, global const float *x, global float *y, int m, int n)
{
    int row = get_global_id(0);
    if (row < m) {
        float s = 0.0f;
        for (int k = 0; k < n; k++)
            s += A[k * m + row] * x[k];
        y[row] = s;
    }
}

// L1WX: each work-item walks its own row; DFO under auto, predicated under bfo (per-row
// trip counts).
kernel void rowwise(global const float *A, global const int *len, global float *y, int n)
{
    int r = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < len[r]; k++)
        s += A[r * n + k];
    y[r] = s;
}
