// A loop under a uniform branch under a divergent one (tools/fuzz class D): the divergent
// branch's side that leads towards the loop may still skip it (here in groups >= 2), so that
// side's work-items would pass by the skeleton while the other side's wait at its barrier.
// The predicated form needs a side the loop's header post-dominates: the loop stays
// depth-first, with the reason. Without the uniform branch the same loop is predicated.
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o %t.ll
// RUN: weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg' %t.ll > %t1.ll
// RUN: weft-opt -schedule=bfo -local-size=17 -pass=lower-workitem %t1.ll | FileCheck %s

// CHECK: ; weft-schedule: else_if_loop loop {{.*}} -> DFO (a branch between the divergent branch around it and the loop can skip the loop)
// CHECK: ; weft-schedule: else_loop loop {{.*}} -> BFO predicated
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
