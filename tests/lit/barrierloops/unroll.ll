; Loops around barriers with a trip count the constants fix are unrolled, one copy of the body
; per trip, the exit test gone (compiler/transform/barrierloops.c):
;   - @tree: the header tests (`for (s = 256 / 2; s > 0; s >>= 1)`, the local size already a
;     constant, `ls / 2` not folded yet): 8 trips, strides 128 .. 1 as lshr of the one before;
;     the value after the loop (s = 0 at the exit) flows to the store;
;   - @rotated: the latch tests (do { ... } while (++i < 3)), one block: 3 trips; the sum
;     after the loop is the last copy's;
;   - @unknown: the trip count is an argument: left alone;
;   - @no_barrier: no barrier in the loop: left alone.
; RUN: weft-opt -pass=unroll-barrier-loops %s | FileCheck %s

; CHECK: ; weft: unroll-barrier-loops unrolled 1
; CHECK: ; weft: unroll-barrier-loops unrolled 1
; CHECK: ; weft: unroll-barrier-loops unrolled 0
; CHECK: ; weft: unroll-barrier-loops unrolled 0

; CHECK-LABEL: define spir_kernel void @tree(
; CHECK-NOT:     phi
; CHECK-COUNT-8: call void @_Z7barrierj(i32 1)
; CHECK-NOT:     call void @_Z7barrierj
; CHECK:         [[LAST:%[0-9]+]] = lshr i32 {{%[0-9]+}}, 1
; CHECK-NOT:     br label %head
; CHECK:         store i32 [[LAST]], ptr addrspace(1) %out
; CHECK:         ret void

; CHECK-LABEL: define spir_kernel void @rotated(
; CHECK-NOT:     phi
; CHECK-COUNT-3: call void @_Z7barrierj(i32 1)
; CHECK:         [[SUM:%[0-9]+]] = add i32 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK-NEXT:    add i32 {{%[0-9]+}}, 1
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    store i32 [[SUM]], ptr addrspace(1) %out

; CHECK-LABEL: define spir_kernel void @unknown(
; CHECK:         phi i32
; CHECK-COUNT-1: call void @_Z7barrierj(i32 1)
; CHECK-NOT:     call void @_Z7barrierj

; CHECK-LABEL: define spir_kernel void @no_barrier(
; CHECK:         phi i32

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @_Z7barrierj(i32)
declare i64 @_Z12get_local_idj(i32)

define spir_kernel void @tree(ptr addrspace(3) %s, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %lid64 = call i64 @_Z12get_local_idj(i32 0)
  %lid = trunc i64 %lid64 to i32
  %ls = trunc i64 256 to i32
  %half = sdiv i32 %ls, 2
  br label %head

head:
  %stride = phi i32 [ %half, %entry ], [ %next, %latch ]
  %more = icmp sgt i32 %stride, 0
  br i1 %more, label %body, label %exit

body:
  %active = icmp slt i32 %lid, %stride
  br i1 %active, label %add, label %latch

add:
  %j = add i32 %lid, %stride
  %pj = getelementptr inbounds i32, ptr addrspace(3) %s, i32 %j
  %pi = getelementptr inbounds i32, ptr addrspace(3) %s, i32 %lid
  %a = load i32, ptr addrspace(3) %pj
  %b = load i32, ptr addrspace(3) %pi
  %sum = add i32 %a, %b
  store i32 %sum, ptr addrspace(3) %pi
  br label %latch

latch:
  call void @_Z7barrierj(i32 1)
  %next = lshr i32 %stride, 1
  br label %head

exit:
  store i32 %stride, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @rotated(ptr addrspace(3) %s, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(3) %s, i32 %i
  %v = load i32, ptr addrspace(3) %p
  call void @_Z7barrierj(i32 1)
  %acc1 = add i32 %acc, %v
  %i1 = add i32 %i, 1
  %again = icmp slt i32 %i1, 3
  br i1 %again, label %loop, label %exit

exit:
  store i32 %acc1, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @unknown(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n) !kernel_arg_addr_space !1 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @_Z7barrierj(i32 1)
  %i1 = add i32 %i, 1
  %again = icmp slt i32 %i1, %n
  br i1 %again, label %loop, label %exit

exit:
  store i32 %i1, ptr addrspace(1) %out
  ret void
}

define spir_kernel void @no_barrier(ptr addrspace(3) %s, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %again = icmp slt i32 %i1, 3
  br i1 %again, label %loop, label %exit

exit:
  store i32 %i1, ptr addrspace(1) %out
  ret void
}

!0 = !{i32 3, i32 1}
!1 = !{i32 3, i32 1, i32 0}
