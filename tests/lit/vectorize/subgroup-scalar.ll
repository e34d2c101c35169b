; Sub-groups of one work-item. A 12 x 4 work-group with 8 lanes: a packet of dimension 0 would
; hold work-items 8..11 of one row and 0..3 of the next, which are not consecutive linear ids
; (the specification's sub-group), so the whole kernel keeps the scalar work-item loops and its
; sub-groups are single work-items: the reduction is the value itself, the exclusive scan the
; identity (0), the sub-group local id the linear id modulo 1 (the optimizer's 0). A kernel without any shape problem but with
; vectorization off gets the same.
; RUN: weft-opt -pass=wg-loops -local-size=12,4 -vectorize=8 %s | FileCheck %s
; RUN: weft-opt -pass=wg-loops -local-size=16 %s | FileCheck %s
; RUN: weft-opt -pass=wg-loops -local-size=16,4 -vectorize=8 %s | FileCheck %s --check-prefix=VEC

; CHECK:       ; weft-subgroups: k: size 1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK-NOT:     @_Z20sub_group_reduce_addi
; CHECK-NOT:     @_Z28sub_group_scan_exclusive_addi
; CHECK-NOT:     @__weft_sub_group
; CHECK:         [[V:%v[.i0-9]*]] = load i32
; CHECK:         [[S:%s[.i0-9]*]] = add i32 [[V]], 0
; CHECK:         store i32 [[S]]
; CHECK:         [[ONE:%[0-9]+]] = zext i32 1 to i64
; CHECK:         urem i64 %lid.linear{{[0-9]*}}, [[ONE]]
; VEC:         ; weft-subgroups: k: size 8
; VEC:           call i32 @llvm.vector.reduce.add.v8i32

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %p, align 4
  %r = call i32 @_Z20sub_group_reduce_addi(i32 %v)
  %e = call i32 @_Z28sub_group_scan_exclusive_addi(i32 %v)
  %s = add i32 %r, %e
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %s, ptr addrspace(1) %o, align 4
  %l = call i32 @_Z22get_sub_group_local_idv() #1
  %q = getelementptr inbounds i32, ptr addrspace(1) %o, i64 1
  store i32 %l, ptr addrspace(1) %q, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i32 @_Z20sub_group_reduce_addi(i32) #1
declare i32 @_Z28sub_group_scan_exclusive_addi(i32) #1
declare i32 @_Z22get_sub_group_local_idv() #1

attributes #0 = { "target-cpu"="x86-64-v3" }
attributes #1 = { convergent nounwind }
!0 = !{i32 1, i32 1}
