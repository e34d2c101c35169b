// The work-items' private copies (privatize.c, in ctx->scratch) stay out of the work-item loop's
// parallel access group; global memory is in it. LLVM 19's loop vectorizer takes the group for
// "no dependence at all": in the scalar variant of a kernel whose private array a kernel loop
// fills (bfo/lc schedule it across the work-items, so the array lives in scratch), it moved the
// load of a[0] (an interleaved group with a[1]) above `a[i] = 0` of the same work-item
// (tools/fuzz seed 690: lc.scalar and bfo.scalar returned a[0] before it was zeroed).
// RUN: %ocl_ir -O1 -Xclang -disable-llvm-passes -fno-discard-value-names %s -o %t.ll
// RUN: weft-opt '-pass=llvm:sroa,llvm:early-cse,llvm:instcombine<no-verify-fixpoint>,llvm:simplifycfg' %t.ll > %t1.ll
// RUN: weft-opt -schedule=bfo -local-size=48 -pass=wg-loops %t1.ll | FileCheck %s

// CHECK-LABEL: define internal void @weft_wi_k(
// CHECK:      subcfg1.k.exit:
// CHECK:        %[[A1:.*]] = getelementptr inbounds i8, ptr %a.i.priv{{[0-9]+}}, i64 4
// CHECK-NEXT:   %[[V:.*]] = load i32, ptr %[[A1]], align 4, !tbaa !{{[0-9]+}}{{$}}
// CHECK:        store i32 %{{.*}}, ptr %[[A1]], align 4, !tbaa !{{[0-9]+}}{{$}}
// CHECK:        %[[AI:.*]] = getelementptr inbounds [3 x i32], ptr %a.i.priv{{[0-9]+}}, i64 0, i64 %idxprom
// CHECK-NEXT:   store i32 0, ptr %[[AI]], align 4, !tbaa !{{[0-9]+}}{{$}}
// CHECK:        %[[A0:.*]] = load i32, ptr %a.i.priv{{[0-9]+}}, align 4, !tbaa !{{[0-9]+}}{{$}}
// CHECK:        store i32 %[[A0]], ptr addrspace(1) %{{.*}}, align 4, !tbaa !{{[0-9]+}}, !llvm.access.group
kernel void k(global const uint *in, global uint *out, uint n, uint g) {
  uint oid = (uint)get_global_id(0);
  uint a[3];
  for (uint t = 0u; t < 3u; t++) a[t] = in[(oid + t * 24u) % n] ^ t;
  a[1] ^= 1u;
  a[(g | 1u) % 3u] = 0u;
  out[oid] = a[0];
}
