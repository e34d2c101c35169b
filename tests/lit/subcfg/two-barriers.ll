; Two barriers in sequence give three sub-CFGs: barrier ids 0 (entry), 1 and 2, and the exit
; barrier. With more than one sub-CFG every value used outside its block goes through a stack
; slot (so blocks can be cloned), PHIs included.
; RUN: weft-opt -pass=form-subcfgs -local-size=64 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_two(
; CHECK:       alloca:
; CHECK-DAG:     %lid.i.slot = alloca i64
; CHECK-DAG:     %x.i.slot = alloca i32
; CHECK-DAG:     %a.i.slot = alloca i32
; CHECK:         br label %barrier0
; CHECK:       barrier0:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK:         %x.i = mul i32 %in.i, 3
; CHECK-NEXT:    store i32 %x.i, ptr %x.i.slot
; CHECK:       barrier1:
; CHECK-NEXT:    call void @_Z7barrierj(i32 1)
; CHECK:       barrier2:
; CHECK-NEXT:    call void @_Z7barrierj(i32 1)
; CHECK:         load i32, ptr %x.i.slot
; CHECK:       barrier.exit:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NOT:   barrier3:

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
