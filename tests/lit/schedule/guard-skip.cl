// A guarded loop that the guard's side can still pass by (tools/fuzz classes D and E): a
// uniform branch between the divergent guard and the loop (else_if_loop: groups >= 2 skip it),
// or the exit test of an enclosing predicated loop whose body starts with this loop (nested:
// the outer header is the inner loop's guard side). The predicated form sends only the guard's
// other side through the skeleton, so those work-items passed by it while the others waited
// at its barrier (wrong results in bfo, bfo.x2, bfo.scalar). The form needs a side that the
// loop's header post-dominates: these loops stay depth-first, with the reason; the outer loop
// and a loop its side always enters are still predicated.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o %t.ll
// RUN: weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg' %t.ll > %t1.ll
// RUN: weft-opt -schedule=bfo -local-size=17 -pass=lower-workitem %t1.ll | FileCheck %s

// CHECK: ; weft-schedule: else_if_loop loop {{.*}} -> DFO (a branch between the divergent branch around it and the loop can skip the loop)
// CHECK: ; weft-schedule: else_loop loop {{.*}} -> BFO predicated
// CHECK: ; weft-schedule: nested loop for.cond.i: {{.*}} -> BFO predicated
// CHECK: ; weft-schedule: nested loop for.cond{{[0-9]+}}.i: {{.*}} -> DFO (a branch between the divergent branch around it and the loop can skip the loop)
// CHECK-LABEL: define internal void @weft_wi_else_if_loop(
// CHECK-NOT:   __weft_implicit_barrier()
// CHECK-LABEL: define internal void @weft_wi_else_loop(
// CHECK:       call void @__weft_implicit_barrier()
kernel void else_if_loop(global const uint *in, global uint *out, uint n)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    uint v = in[gid];
    if (in[lid + 100u] <= v) {
        v += 1u;
    } else if (get_group_id(0) < 2u) {
        for (uint i = 0u; i < 3u; i++)
            v += in[(gid + i) % n] & 7u;
    }
    out[gid] = v;
}

kernel void else_loop(global const uint *in, global uint *out, uint n)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    uint v = in[gid];
    if (in[lid + 100u] <= v) {
        v += 1u;
    } else {
        for (uint i = 0u; i < 3u; i++)
            v += in[(gid + i) % n] & 7u;
    }
    out[gid] = v;
}

kernel void nested(global const uint *in, global uint *out, uint m, uint nc, uint nf)
{
    uint gid = get_global_id(0);
    uint v = 0u;
    if (gid < m) {
        for (uint c = 0u; c < nc; c++) {
            for (uint f = 0u; f < nf; f++)
                v += in[f * m + gid];
            v = v * 3u + c;
        }
    }
    out[gid] = v;
}
