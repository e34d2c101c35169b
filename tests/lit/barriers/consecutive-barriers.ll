; Two barriers in a row, and a kernel that starts with a barrier: an empty block separates
; barrier blocks, so every sub-CFG has a block of its own.
; RUN: weft-opt -pass=canonicalize-barriers %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK:       barrier.entry:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NEXT:    br label %[[M0:between.barriers[0-9]*]]
; CHECK:       [[M0]]:
; CHECK-NEXT:    br label %entry
; CHECK:       entry:
; CHECK-NEXT:    call void @_Z7barrierj(i32 1)
; CHECK-NEXT:    br label %[[M1:between.barriers[0-9]*]]
; CHECK:       [[M1]]:
; CHECK-NEXT:    br label %[[B2:after.barrier[0-9]*]]
; CHECK:       [[B2]]:
; CHECK-NEXT:    call void @_Z18work_group_barrierj(i32 2)
; CHECK-NEXT:    br label %[[M2:after.barrier[0-9]*]]
; CHECK:       [[M2]]:
; CHECK-NEXT:    br label %barrier.exit
define spir_kernel void @k() {
entry:
  call void @_Z7barrierj(i32 1)
  call void @_Z18work_group_barrierj(i32 2)
  ret void
}

declare void @_Z7barrierj(i32)
declare void @_Z18work_group_barrierj(i32)
