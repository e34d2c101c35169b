; A guard `lid < n` whose false edge leaves the sub-CFG with nothing done (vectorize_rest.c):
; a full packet that finds all its lanes past n, with the work-group's last id no overflow
; away, records that the later packets are idle, and the packet loop's latch leaves there.
; @else_store stores on the false edge: its later packets still have work, so no loop ends.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         %packets.idle = alloca i1
; CHECK:         store i1 false, ptr %packets.idle
; CHECK:       vec.entry:
; CHECK:         [[NONE:%[0-9]+]] = icmp sge i32 [[I0:%[a-z0-9.]+]], [[N:%[0-9]+]]
; CHECK:         %lanes.none = and i1 {{%[0-9]+}}, [[NONE]]
; CHECK-NEXT:    [[FAR:%[0-9]+]] = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 [[I0]], i32 63)
; CHECK:         %lanes.gone = and i1 {{%[0-9]+}}, [[NONE]]
; CHECK:       lanes.not.all:
; CHECK-NEXT:    br i1 %lanes.none, label %packets.rest.idle, label %lanes.test
; CHECK:       packets.rest.idle:
; CHECK-NEXT:    [[WAS:%[0-9]+]] = load i1, ptr %packets.idle
; CHECK-NEXT:    [[NOW:%[0-9]+]] = or i1 [[WAS]], %lanes.gone
; CHECK-NEXT:    store i1 [[NOW]], ptr %packets.idle
; CHECK:       packet.latch:
; CHECK-NEXT:    %rest.idle = load i1, ptr %packets.idle
; CHECK-NEXT:    br i1 %rest.idle, label %exit, label %packet.latch.more
; CHECK:       packet.latch.more:
; CHECK-NEXT:    add nuw i64 %lid.x.packet, 16

; CHECK-LABEL: define internal void @weft_wi_else_store(
; CHECK-NOT:     packets.idle
; CHECK-NOT:     packets.rest.idle
; CHECK:         ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, i32 %n) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %lid = trunc i64 %l to i32
  %g = call i64 @_Z13get_global_idj(i32 0)
  %on = icmp slt i32 %lid, %n
  br i1 %on, label %then, label %done
then:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 1, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

define spir_kernel void @else_store(ptr addrspace(1) %out, i32 %n) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %lid = trunc i64 %l to i32
  %g = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  %on = icmp slt i32 %lid, %n
  br i1 %on, label %then, label %else
then:
  store i32 1, ptr addrspace(1) %o, align 4
  br label %done
else:
  store i32 2, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 0}
