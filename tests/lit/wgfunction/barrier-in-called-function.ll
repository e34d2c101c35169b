; A barrier inside a function the kernel calls: the callee is inlined into the work function
; first, so its barrier splits the kernel into two sub-CFGs like any other.
; RUN: weft-opt -pass=wg-function -local-size=32 %s | FileCheck %s

; lid crosses the barrier but is recomputed from the loop variable: no scratch needed
; CHECK:       ; weft: k static_local_size=0 scratch_size=0
; CHECK-LABEL: define void @weft_wg_k(
; CHECK-NOT:     call {{.*}}@helper
; CHECK:         switch i32 %next.i, label %dispatch.unreachable.i [
; CHECK-NEXT:      i32 0, label %subcfg0.wi.x.i
; CHECK-NEXT:      i32 1, label %subcfg1.wi.x.i
; CHECK-NEXT:      i32 -1, label %weft_wi_k.exit
; CHECK-NEXT:    ]
; CHECK-NOT:     call {{.*}}@helper
; CHECK-NOT:     call void @_Z7barrierj
; CHECK:       }

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @helper(ptr addrspace(3) %t, i64 %lid) noinline {
entry:
  %p = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  %v = trunc i64 %lid to i32
  %w = shl i32 %v, 1
  store i32 %w, ptr addrspace(3) %p, align 4
  call void @_Z7barrierj(i32 1)
  ret void
}

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %t) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  call void @helper(ptr addrspace(3) %t, i64 %lid)
  %rev = sub i64 31, %lid
  %q = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %rev
  %v = load i32, ptr addrspace(3) %q, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3}
