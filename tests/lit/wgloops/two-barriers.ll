; Continuation-based synchronization: one work-item loop per sub-CFG (local size 64: one
; dimension), a dispatcher switch on the next barrier id, and exits that store the id of the
; barrier they reach (-1 = the kernel's end). Every loop carries llvm.loop.parallel_accesses.
; RUN: weft-opt -pass=wg-loops -local-size=64 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_two(
; CHECK:       alloca:
; CHECK-NEXT:    %next.barrier = alloca i32
; CHECK:         store i32 0, ptr %next.barrier
; CHECK-NEXT:    br label %dispatch
; CHECK:       dispatch:
; CHECK-NEXT:    %next = load i32, ptr %next.barrier
; CHECK-NEXT:    switch i32 %next, label %dispatch.unreachable [
; CHECK-NEXT:      i32 0, label %subcfg0.wi.x
; CHECK-NEXT:      i32 1, label %subcfg1.wi.x
; CHECK-NEXT:      i32 2, label %subcfg2.wi.x
; CHECK-NEXT:      i32 -1, label %exit
; CHECK-NEXT:    ]
; CHECK:       subcfg0.wi.x:
; CHECK-NEXT:    %lid.x = phi i64 [ 0, %dispatch ], [ [[N0:%[0-9]+]], %subcfg0.latch.x ]
; CHECK:         %tp.i{{[0-9]*}} = getelementptr inbounds i32, ptr addrspace(3) %1, i64 %lid.x
; CHECK:       subcfg0.to.barrier1:
; CHECK-NEXT:    store i32 1, ptr %next.barrier
; CHECK-NEXT:    br label %subcfg0.latch.x
; CHECK:       subcfg0.latch.x:
; CHECK-NEXT:    [[N0]] = add nuw i64 %lid.x, 1
; CHECK-NEXT:    [[C0:%[0-9]+]] = icmp ult i64 [[N0]], 64
; CHECK-NEXT:    br i1 [[C0]], label %subcfg0.wi.x, label %dispatch, !llvm.loop [[L0:![0-9]+]]
; CHECK:       subcfg1.wi.x:
; CHECK:       subcfg1.to.barrier2:
; CHECK-NEXT:    store i32 2, ptr %next.barrier
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg1.wi.x, label %dispatch, !llvm.loop [[L1:![0-9]+]]
; CHECK:       subcfg2.wi.x:
; CHECK:         store i32 %s.i{{[0-9]*}}, ptr addrspace(1) {{.*}}, !llvm.access.group [[AG:![0-9]+]]
; CHECK:       subcfg2.to.exit:
; CHECK-NEXT:    store i32 -1, ptr %next.barrier
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg2.wi.x, label %dispatch, !llvm.loop [[L2:![0-9]+]]
; CHECK:       exit:
; CHECK-NEXT:    ret void
; CHECK-NOT:     call void @_Z7barrierj
; CHECK:       [[AG]] = !{}
; CHECK:       [[L0]] = distinct !{[[L0]], [[PA:![0-9]+]], [[NU:![0-9]+]]}
; CHECK-NEXT:  [[PA]] = !{!"llvm.loop.parallel_accesses", [[AG]]}
; CHECK-NEXT:  [[NU]] = !{!"llvm.loop.unroll.disable"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @two(ptr addrspace(1) %out, ptr addrspace(3) %t) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %n = call i64 @_Z14get_local_sizej(i32 0)
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  %in = load i32, ptr addrspace(1) %op, align 4
  %x = mul i32 %in, 3
  %tp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  %lid32 = trunc i64 %lid to i32
  store i32 %lid32, ptr addrspace(3) %tp, align 4
  call void @_Z7barrierj(i32 1)
  %last = sub i64 %n, 1
  %rev = sub i64 %last, %lid
  %rp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %rev
  %a = load i32, ptr addrspace(3) %rp, align 4
  call void @_Z7barrierj(i32 1)
  %s = add i32 %a, %x
  store i32 %s, ptr addrspace(1) %op, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3}
