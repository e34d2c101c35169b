; The work-group function of weft/abi.h: arguments unpacked from the packed block at the offsets
; of arglayout (global pointer 0, __local pointer 8 as an offset into ctx->local_mem, float 16,
; struct S byval 24 (12 bytes, copied to aligned stack memory), float3 40, char 56), then a loop
; over the group range with the linear group id split into (gx, gy, gz), dimension 0 fastest, by
; the (sub-)launch's groups per dimension (ctx field 10) and offset by its first group (field 9,
; nonzero in the remainder parts of a non-uniform NDRange), and the work function inlined into it.
; RUN: weft-opt -pass=wg-function -local-size=4 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=0
; CHECK-LABEL: define void @weft_wg_k(ptr noalias nocapture readonly %args, ptr noalias nocapture readonly %ctx, i64 %first_group, i64 %group_count)
; CHECK-NEXT:  entry:
; CHECK:         [[LG:%[0-9]+]] = getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 10
; CHECK-NEXT:    %launch_groups.x = load i64, ptr [[LG]]
; CHECK:         %launch_groups.y = load i64
; CHECK:         [[GB:%[0-9]+]] = getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 9
; CHECK-NEXT:    %group_base.x = load i64, ptr [[GB]]
; CHECK:         %group_base.y = load i64
; CHECK:         %group_base.z = load i64
; CHECK:         [[A0:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 0
; CHECK-NEXT:    %arg0 = load ptr addrspace(1), ptr [[A0]], align 8
; CHECK:         [[A1:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 8
; CHECK:         %local_mem = load ptr, ptr
; CHECK-NEXT:    [[OFF:%[0-9]+]] = load i64, ptr [[A1]], align 8
; CHECK-NEXT:    %arg1 = getelementptr inbounds i8, ptr %local_mem, i64 [[OFF]]
; CHECK-NEXT:    {{%[0-9]+}} = addrspacecast ptr %arg1 to ptr addrspace(3)
; CHECK:         [[A2:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 16
; CHECK-NEXT:    %arg2 = load float, ptr [[A2]], align 4
; CHECK:         [[A3:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 24
; CHECK-NEXT:    %arg3 = alloca %struct.S, align 4
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 4 %arg3, ptr align 8 [[A3]], i64 12, i1 false)
; CHECK:         [[A4:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 40
; CHECK-NEXT:    %arg4 = load <3 x float>, ptr [[A4]], align 8
; CHECK:         [[A5:%[0-9]+]] = getelementptr inbounds i8, ptr %args, i64 56
; CHECK-NEXT:    %arg5 = load i8, ptr [[A5]], align 1
; CHECK:         %end = add i64 %first_group, %group_count
; CHECK:         br i1 {{%[0-9]+}}, label %group, label %done
; CHECK:       group:
; CHECK-NEXT:    %g = phi i64 [ %first_group, %entry ], [ [[NEXT:%[0-9]+]], %[[LATCH:.*]] ]
; CHECK-NEXT:    [[RX:%[0-9]+]] = urem i64 %g, %launch_groups.x
; CHECK-NEXT:    [[T:%[0-9]+]] = udiv i64 %g, %launch_groups.x
; CHECK-NEXT:    [[RY:%[0-9]+]] = urem i64 [[T]], %launch_groups.y
; CHECK-NEXT:    [[RZ:%[0-9]+]] = udiv i64 [[T]], %launch_groups.y
; CHECK-NEXT:    %gx = add nuw i64 [[RX]], %group_base.x
; CHECK-NEXT:    %gy = add nuw i64 [[RY]], %group_base.y
; CHECK-NEXT:    %gz = add nuw i64 [[RZ]], %group_base.z
; CHECK-NOT:     call void @weft_wi_k
; CHECK:         %lid.x{{.*}} = phi i64
; CHECK:       [[LATCH]]:
; CHECK-NEXT:    [[NEXT]] = add nuw i64 %g, 1
; CHECK-NEXT:    [[MORE:%[0-9]+]] = icmp ult i64 [[NEXT]], %end
; CHECK-NEXT:    br i1 [[MORE]], label %group, label %done
; CHECK:       done:
; CHECK-NEXT:    ret void
; CHECK-NOT:   define internal void @weft_wi_k

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { float, i32, i8 }

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(3) %tmp, float %x, ptr byval(%struct.S) align 4 %s, <3 x float> %f3, i8 signext %c) !kernel_arg_addr_space !0 !kernel_arg_type !1 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %sa = load float, ptr %s, align 4
  %z = extractelement <3 x float> %f3, i64 2
  %cf = sitofp i8 %c to float
  %t0 = fadd float %sa, %z
  %t1 = fadd float %t0, %cf
  %t2 = fadd float %t1, %x
  %lp = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %lid
  store float %t2, ptr addrspace(3) %lp, align 4
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %t2, ptr addrspace(1) %op, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 3, i32 0, i32 0, i32 0, i32 0}
!1 = !{!"float*", !"float*", !"float", !"S", !"float3", !"char"}
