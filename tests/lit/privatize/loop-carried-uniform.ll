; Uniform values live across a barrier in a loop (uniform_slots=3, no arrays):
;  - n is stored once before the loop and only read after: one scalar slot for all work-items;
;  - the PHI's own slot (i.i.phi) is written on every path before it is read in each sub-CFG:
;    one scalar slot too;
;  - the counter's value i is read after the barrier (sub-CFG 1 entry) and rewritten later in
;    the same sub-CFG (back at the loop header): with one slot, work-item k+1 would read
;    work-item k's next value. No sub-CFG reads it after writing it, so it is double-buffered:
;    every store goes to %uniform.next, loads keep reading %i.i.slot, and wg-loops copies one
;    into the other after each storing sub-CFG (wgloops/commit-uniform.ll);
;  - the __local pointer tp is affine: recomputed.
; RUN: weft-opt -pass=privatize -local-size=16 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=0 subcfgs=2 arrays=0 uniform_slots=3 recomputed=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK-DAG:     %i.i.phi = alloca i32
; CHECK-DAG:     %n.i.slot = alloca i32
; CHECK-DAG:     %uniform.next = alloca i32
; CHECK-DAG:     %i.i.slot = alloca i32
; CHECK:       barrier0:
; CHECK:         store i32 %n.i, ptr %n.i.slot
; CHECK:       loop.i:
; CHECK-NEXT:    %i.i = load i32, ptr %i.i.phi
; CHECK-NEXT:    store i32 %i.i, ptr %uniform.next
; CHECK:       after.barrier:
; CHECK-NOT:     store {{.*}} ptr %i.i.slot
; CHECK:         load i32, ptr %i.i.slot
; CHECK:         load i32, ptr %n.i.slot

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %t, i32 %m) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %n = mul i32 %m, 2
  %tp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  store i32 0, ptr addrspace(3) %tp, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @_Z7barrierj(i32 1)
  %v = load i32, ptr addrspace(3) %tp, align 4
  %v1 = add i32 %v, %i
  store i32 %v1, ptr addrspace(3) %tp, align 4
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done

done:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v1, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3, i32 0}
