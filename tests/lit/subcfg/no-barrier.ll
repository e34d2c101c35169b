; A kernel without barriers is one sub-CFG: nothing is demoted to stack slots.
; RUN: weft-opt -pass=form-subcfgs -local-size=64 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_saxpy(
; CHECK-NEXT:  alloca:
; CHECK-NEXT:    br label %barrier0
; CHECK:       barrier0:
; CHECK-NOT:     .slot
; CHECK-NOT:     barrier1
; CHECK:       barrier.exit:
; CHECK-NOT:     .slot

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @saxpy(ptr addrspace(1) %y, ptr addrspace(1) %x, float %a) !kernel_arg_addr_space !0 {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %small = icmp ult i64 %i, 1000
  br i1 %small, label %body, label %done

body:
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xv = load float, ptr addrspace(1) %xp, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %yv = load float, ptr addrspace(1) %yp, align 4
  %r = call float @llvm.fmuladd.f32(float %a, float %xv, float %yv)
  store float %r, ptr addrspace(1) %yp, align 4
  br label %done

done:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)

!0 = !{i32 1, i32 1, i32 0}
