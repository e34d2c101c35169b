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
; In @reread the counter is also read after the loop header stored it (sub-CFG 0, and sub-CFG 1
; once it loops back): those loads follow this work-item's own store on every path and read
; %uniform.next (every work-item stored the same value there); the load at the start of
; sub-CFG 1 still reads the committed %i.i.slot. Still no per-work-item array.
; RUN: weft-opt -pass=privatize -local-size=16 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=0 subcfgs=2 arrays=0 uniform_slots=3 recomputed=1
; CHECK:       ; weft: reread static_local_size=0 scratch_size=0 subcfgs=2 arrays=0 uniform_slots=2
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
; CHECK-LABEL: define internal void @weft_wi_reread(
; CHECK:       loop.i:
; CHECK-NEXT:    %i.i = load i32, ptr %i.i.phi
; CHECK-NEXT:    store i32 %i.i, ptr %uniform.next
; CHECK:       body.i:
; CHECK:         [[I:%[0-9]+]] = load i32, ptr %uniform.next
; CHECK-NEXT:    %new.i = add i32 %old.i, [[I]]
; CHECK:       after.barrier:
; CHECK:         [[J:%[0-9]+]] = load i32, ptr %i.i.slot
; CHECK-NEXT:    %i1.i = add i32 [[J]], 4

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

define spir_kernel void @reread(ptr addrspace(1) %out, ptr addrspace(3) %t, i32 %n) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %tp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  store i32 0, ptr addrspace(3) %tp, align 4
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %after ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done

body:
  %old = load i32, ptr addrspace(3) %tp, align 4
  %new = add i32 %old, %i
  store i32 %new, ptr addrspace(3) %tp, align 4
  call void @_Z7barrierj(i32 1)
  br label %after

after:
  %i1 = add i32 %i, 4
  br label %loop

done:
  %v = load i32, ptr addrspace(3) %tp, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3, i32 0}
