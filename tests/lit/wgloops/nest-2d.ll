; A kernel without barriers, local size 8x4: one loop nest, dimension 1 outside, dimension 0
; inside; each loop carries its own parallel-accesses loop id (the outer one matters when LLVM
; fully unrolls the inner one); get_local_id(d) becomes the loop variables, get_local_size(d)
; the specialized constants.
; RUN: weft-opt -pass=wg-loops -local-size=8,4 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK-NEXT:    br label %subcfg0.wi.y
; CHECK-NOT:   dispatch
; CHECK:       subcfg0.wi.y:
; CHECK-NEXT:    %lid.y = phi i64 [ 0, %alloca ], [ [[NY:%[0-9]+]], %subcfg0.latch.y ]
; CHECK-NEXT:    br label %subcfg0.wi.x
; CHECK:       subcfg0.wi.x:
; CHECK-NEXT:    %lid.x = phi i64 [ 0, %subcfg0.wi.y ], [ [[NX:%[0-9]+]], %subcfg0.latch.x ]
; CHECK-NEXT:    br label %subcfg0.entry
; CHECK:       subcfg0.entry:
; CHECK:         %row{{[.i0-9]*}} = mul i64 %lid.y, 8
; CHECK-NEXT:    %idx{{[.i0-9]*}} = add i64 %row{{[.i0-9]*}}, %lid.x
; CHECK:         store float {{.*}}, !llvm.access.group
; CHECK:       subcfg0.latch.x:
; CHECK-NEXT:    [[NX]] = add nuw i64 %lid.x, 1
; CHECK-NEXT:    [[CX:%[0-9]+]] = icmp ult i64 [[NX]], 8
; CHECK-NEXT:    br i1 [[CX]], label %subcfg0.wi.x, label %subcfg0.latch.y, !llvm.loop [[LX:![0-9]+]]
; CHECK:       subcfg0.latch.y:
; CHECK-NEXT:    [[NY]] = add nuw i64 %lid.y, 1
; CHECK-NEXT:    [[CY:%[0-9]+]] = icmp ult i64 [[NY]], 4
; CHECK-NEXT:    br i1 [[CY]], label %subcfg0.wi.y, label %exit, !llvm.loop [[LY:![0-9]+]]
; CHECK-DAG:   [[LX]] = distinct !{[[LX]], [[PA:![0-9]+]], [[NU:![0-9]+]]}
; CHECK-DAG:   [[LY]] = distinct !{[[LY]], [[PA]]}
; CHECK-DAG:   [[PA]] = !{!"llvm.loop.parallel_accesses", [[AG:![0-9]+]]}
; CHECK-DAG:   [[AG]] = !{}
; CHECK-DAG:   [[NU]] = !{!"llvm.loop.unroll.disable"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %y = call i64 @_Z12get_local_idj(i32 1)
  %w = call i64 @_Z14get_local_sizej(i32 0)
  %row = mul i64 %y, %w
  %idx = add i64 %row, %x
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  %f = uitofp i64 %idx to float
  store float %f, ptr addrspace(1) %p, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z14get_local_sizej(i32)

!0 = !{i32 1}
