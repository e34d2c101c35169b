; Uniform values live across a barrier: the loop bound n and the loop counter of a barrier
; loop. n is stored once before the loop and only read after: one scalar slot serves every
; work-item. The counter is updated in the same sub-CFG that reads its previous value
; (around the barrier), so a single slot would let work-item k+1 see work-item k's update:
; it gets an array like a varying value.
; RUN: weft-opt -pass=privatize -local-size=16 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=64 subcfgs=2 arrays=1 uniform_slots=2 recomputed=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK:         %n.i.slot = alloca i32
; CHECK-NOT:     %i.i.slot = alloca
; CHECK:       barrier0:
; CHECK:         store i32 %n.i, ptr %n.i.slot
; CHECK:       barrier1:
; CHECK:         %i.i.slot.priv{{[0-9]*}} = getelementptr inbounds i8
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
