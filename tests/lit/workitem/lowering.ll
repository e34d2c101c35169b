; Work-item functions in the work function (local size 8x2): group ids become the group-id
; parameters, local sizes the specialized constants, global sizes / offsets / numbers of groups
; / enqueued local sizes / work_dim loads from the launch context (!invariant.load), global ids
; group*L + get_local_id + global_id_base (field 11: the offset, corrected in the remainder
; parts of a non-uniform NDRange), the global linear id from global ids less the offsets;
; get_local_id(d) stays as the placeholder the loops replace, and is 0 in a dimension of local
; size 1; out-of-range dimensions get the defaults.
; RUN: weft-opt -pass=lower-workitem -local-size=8,2 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(ptr addrspace(1) %0, ptr %ctx, i64 %group.x, i64 %group.y, i64 %group.z)
; group id 1 and local size 0
; CHECK:         store i64 %group.y, ptr addrspace(1)
; CHECK:         store i64 8, ptr addrspace(1)
; global size 1 (field 1, element 1)
; CHECK:         [[F1:%[0-9]+]] = getelementptr inbounds { i64, [3 x i64], [3 x i64], [3 x i64], [3 x i64], ptr, ptr, ptr, [3 x i64], [3 x i64], [3 x i64], [3 x i64], ptr, i64, i64, ptr, ptr }, ptr %ctx, i32 0, i32 1
; CHECK-NEXT:    [[E1:%[0-9]+]] = getelementptr inbounds [3 x i64], ptr [[F1]], i64 0, i64 1
; CHECK-NEXT:    [[GS:%[0-9]+]] = load i64, ptr [[E1]], align 8, !invariant.load
; CHECK-NEXT:    store i64 [[GS]], ptr addrspace(1)
; global id 0: group.x * 8 + get_local_id(0) + global_id_base[0]
; CHECK:         [[F11:%[0-9]+]] = getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 11
; CHECK-NEXT:    [[E11:%[0-9]+]] = getelementptr inbounds [3 x i64], ptr [[F11]], i64 0, i64 0
; CHECK-NEXT:    [[OFF:%[0-9]+]] = load i64, ptr [[E11]], align 8, !invariant.load
; CHECK-NEXT:    [[G:%[0-9]+]] = mul i64 %group.x, 8
; CHECK-NEXT:    [[L:%[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT:    [[R:%[0-9]+]] = add i64 [[G]], [[L]]
; CHECK-NEXT:    %gid = add i64 [[R]], [[OFF]]
; CHECK-NEXT:    store i64 %gid, ptr addrspace(1)
; local id 2 (local size 1 there) and local size 5 (out of range)
; CHECK-NEXT:    store i64 0, ptr addrspace(1)
; CHECK-NEXT:    store i64 1, ptr addrspace(1)
; work_dim is a 32-bit value
; CHECK:         [[WD:%[0-9]+]] = load i64, ptr {{%[0-9]+}}, align 8, !invariant.load
; CHECK-NEXT:    [[WD32:%[0-9]+]] = trunc i64 [[WD]] to i32
; CHECK-NEXT:    store i32 [[WD32]], ptr addrspace(1)
; enqueued local size 1 (field 8, element 1): not the specialized constant, which is the size of
; a remainder group in a remainder part
; CHECK-NEXT:    [[F8:%[0-9]+]] = getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 8
; CHECK-NEXT:    [[E8:%[0-9]+]] = getelementptr inbounds [3 x i64], ptr [[F8]], i64 0, i64 1
; CHECK-NEXT:    [[EL:%[0-9]+]] = load i64, ptr [[E8]], align 8, !invariant.load
; CHECK-NEXT:    store i64 [[EL]], ptr addrspace(1)
; global linear id, dimension 0 term: group.x * 8 + lid + (global_id_base[0] - offset[0])
; CHECK:         mul i64 %group.y, 2
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 3
; CHECK-NEXT:    getelementptr inbounds [3 x i64], ptr {{%[0-9]+}}, i64 0, i64 0
; CHECK-NEXT:    [[O0:%[0-9]+]] = load i64, ptr {{%[0-9]+}}, align 8, !invariant.load
; CHECK-NEXT:    getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 11
; CHECK-NEXT:    getelementptr inbounds [3 x i64], ptr {{%[0-9]+}}, i64 0, i64 0
; CHECK-NEXT:    [[B0:%[0-9]+]] = load i64, ptr {{%[0-9]+}}, align 8, !invariant.load
; CHECK-NEXT:    [[S0:%[0-9]+]] = sub i64 [[B0]], [[O0]]
; CHECK-NEXT:    [[M0:%[0-9]+]] = mul i64 %group.x, 8
; CHECK-NEXT:    [[L0:%[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT:    [[R0:%[0-9]+]] = add i64 [[M0]], [[L0]]
; CHECK-NEXT:    [[X0:%[0-9]+]] = add i64 [[R0]], [[S0]]
; CHECK-NEXT:    %gid.linear = add i64 {{%[0-9]+}}, [[X0]]
; CHECK-NOT:     call i64 @_Z13get_global_idj
; CHECK-NOT:     call i64 @_Z12get_group_idj

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %g1 = call i64 @_Z12get_group_idj(i32 1)
  store i64 %g1, ptr addrspace(1) %out, align 8
  %ls0 = call i64 @_Z14get_local_sizej(i32 0)
  store i64 %ls0, ptr addrspace(1) %out, align 8
  %gs1 = call i64 @_Z15get_global_sizej(i32 1)
  store i64 %gs1, ptr addrspace(1) %out, align 8
  %gid = call i64 @_Z13get_global_idj(i32 0)
  store i64 %gid, ptr addrspace(1) %out, align 8
  %l2 = call i64 @_Z12get_local_idj(i32 2)
  store i64 %l2, ptr addrspace(1) %out, align 8
  %ls5 = call i64 @_Z14get_local_sizej(i32 5)
  store i64 %ls5, ptr addrspace(1) %out, align 8
  %wd = call i32 @_Z12get_work_dimv()
  store i32 %wd, ptr addrspace(1) %out, align 4
  %el1 = call i64 @_Z23get_enqueued_local_sizej(i32 1)
  store i64 %el1, ptr addrspace(1) %out, align 8
  %glin = call i64 @_Z20get_global_linear_idv()
  store i64 %glin, ptr addrspace(1) %out, align 8
  ret void
}

declare i64 @_Z12get_group_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare i32 @_Z12get_work_dimv()
declare i64 @_Z23get_enqueued_local_sizej(i32)
declare i64 @_Z20get_global_linear_idv()

!0 = !{i32 1}
