; A loop whose trip count depends on the work-item, between two barriers: it stays an ordinary
; loop inside the work-item loop of its sub-CFG; its result, live across the second barrier and
; varying, becomes a scratch array (32 x i32 = 128 bytes).
; RUN: weft-opt -pass=wg-loops -local-size=32 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=128
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       subcfg1.wi.x:
; CHECK-NEXT:    %lid.x{{[0-9]*}} = phi i64 [ 0, %dispatch ]
; CHECK-NEXT:    br label %subcfg1.after.barrier
; CHECK:       subcfg1.after.barrier:
; the loop's initial values, stored on the edge from the barrier, stay in the sub-CFG
; CHECK-NEXT:    store i64 0, ptr %i.i.phi
; CHECK-NEXT:    store i32 0, ptr %acc.i.phi
; CHECK-NEXT:    br label %subcfg1.loop.i
; CHECK:       subcfg1.loop.i:
; CHECK:         br i1 {{%.*}}, label %subcfg1.loop.i, label %subcfg1.k.exit
; CHECK:       subcfg1.k.exit:
; CHECK:         %s.i.slot.priv{{[0-9]*}} = getelementptr inbounds i8
; CHECK:       subcfg1.to.barrier2:
; CHECK-NEXT:    store i32 2, ptr %next.barrier
; CHECK:       subcfg1.latch.x:
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg1.wi.x, label %dispatch, !llvm.loop
; CHECK:       subcfg2.wi.x:
; CHECK:         %s.i.slot.priv{{[0-9]*}} = getelementptr inbounds i8
; CHECK-NOT:   subcfg3

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %t) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %tp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  store i32 1, ptr addrspace(3) %tp, align 4
  call void @_Z7barrierj(i32 1)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %i
  %v = load i32, ptr addrspace(3) %p, align 4
  %acc1 = add i32 %acc, %v
  %i1 = add i64 %i, 1
  %more = icmp ule i64 %i1, %lid
  br i1 %more, label %loop, label %done

done:
  %s = mul i32 %acc1, 3
  call void @_Z7barrierj(i32 1)
  store i32 %s, ptr addrspace(3) %tp, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3}
