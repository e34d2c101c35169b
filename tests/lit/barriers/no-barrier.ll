; A kernel without barriers gets only the implicit entry and exit barriers; its blocks and
; allocas are otherwise left alone (the allocas move to the new entry block).
; RUN: weft-opt -pass=canonicalize-barriers %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define spir_kernel void @saxpy(
; CHECK-NEXT:  alloca:
; CHECK-NEXT:    %tmp = alloca float, align 4
; CHECK-NEXT:    br label %barrier.entry
; CHECK:       barrier.entry:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NEXT:    br label %entry
; CHECK:       entry:
; CHECK-NEXT:    %i = call i64 @_Z13get_global_idj(i32 0)
; CHECK-NOT:     barrier
; CHECK:         br label %barrier.exit
; CHECK:       barrier.exit:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
define spir_kernel void @saxpy(ptr addrspace(1) %y, ptr addrspace(1) %x, float %a) !kernel_arg_addr_space !0 {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %tmp = alloca float, align 4
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xv = load float, ptr addrspace(1) %xp, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %yv = load float, ptr addrspace(1) %yp, align 4
  %m = fmul float %a, %xv
  store float %m, ptr %tmp, align 4
  %t = load float, ptr %tmp, align 4
  %r = fadd float %t, %yv
  store float %r, ptr addrspace(1) %yp, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)

!0 = !{i32 1, i32 1, i32 0}
