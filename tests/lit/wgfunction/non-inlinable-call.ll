; A call the inliner refuses (a varargs function using va_start) that reaches no barrier and no
; work-item function stays a call inside the work-item loop; one that does reach get_local_id
; is an error.
; RUN: weft-opt -pass=wg-function -local-size=8 -kernel=k %s | FileCheck %s
; RUN: not weft-opt -pass=wg-function -local-size=8 -kernel=bad %s 2>&1 | FileCheck %s --check-prefix=BAD
; CHECK-LABEL: define void @weft_wg_k(
; CHECK:         %lid.x{{.*}} = phi i64
; CHECK:         call i32 (i32, ...) @sum(i32 1, i64 %lid.x
; BAD: weft-opt: function sumid uses barriers or work-item functions but cannot be inlined

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @sum(i32 %n, ...) {
entry:
  %ap = alloca [24 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret i32 %n
}

define i32 @sumid(i32 %n, ...) {
entry:
  %ap = alloca [24 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  %l = call i64 @_Z12get_local_idj(i32 0)
  %t = trunc i64 %l to i32
  %r = add i32 %n, %t
  ret i32 %r
}

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %s = call i32 (i32, ...) @sum(i32 1, i64 %lid)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}

define spir_kernel void @bad(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %s = call i32 (i32, ...) @sumid(i32 1)
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)

!0 = !{i32 1}
