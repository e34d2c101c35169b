// A loop nested in a divergent loop (shared/repros/variant-bfo): the inner loop votes
// breadth-first, but its scheduling barrier would sit inside a loop whose trip count differs
// between work-items. It may run breadth-first only when the outer loop does (-schedule=bfo
// makes the outer one a uniform skeleton); under auto, where the outer loop votes depth-first,
// both stay depth-first and no barrier is added.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o %t.ll
// RUN: weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg' %t.ll > %t1.ll
// RUN: weft-opt -schedule=auto -local-size=16 -pass=lower-workitem %t1.ll | FileCheck %s
// RUN: weft-opt -schedule=bfo -local-size=16 -pass=lower-workitem %t1.ll | FileCheck %s --check-prefix=BFO

// CHECK: ; weft-schedule: nested_break loop {{.*}} -> DFO (votes DFO)
// CHECK: ; weft-schedule: nested_break loop {{.*}} -> DFO (it is nested in a divergent loop that runs depth-first)
// CHECK-NOT: __weft_implicit_barrier()
// BFO: ; weft-schedule: nested_break loop {{.*}} -> BFO predicated
// BFO: call void @__weft_implicit_barrier()
kernel void nested_break(global const int *in, global int *out, int n)
{
    int i = get_global_id(0);
    int acc = 0;
    for (int a = 0; a < (in[i] & 7); a++) {
        for (int b = 0; b < 8; b++) {
            if (in[(i + a * b) % n] < -40)
                break;
            acc += a * b + 1;
        }
    }
    out[i] = acc;
}
