; Shapes of the sub-group built-ins: the counts and the maximum size are one value for the
; work-group (uniform); the sub-group id, local id and size differ between work-items (a
; work-group holds several sub-groups, the last may be short); a reduction or broadcast agrees
; only within its sub-group, so it is varying even from a uniform operand, and so is what is
; computed from it.
; RUN: weft-opt -pass=print-shapes %s | FileCheck %s

; CHECK-LABEL: shapes of @k:
; CHECK-DAG:     %num: uniform
; CHECK-DAG:     %max: uniform
; CHECK-DAG:     %enq: uniform
; CHECK-DAG:     %id: varying
; CHECK-DAG:     %lid: varying
; CHECK-DAG:     %size: varying
; CHECK-DAG:     %red: varying
; CHECK-DAG:     %bc: varying
; CHECK-DAG:     %any: varying
; CHECK-DAG:     %sum: varying
; CHECK-DAG:     %u: uniform

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, i32 %n) {
entry:
  %num = call i32 @_Z18get_num_sub_groupsv() #0
  %max = call i32 @_Z22get_max_sub_group_sizev() #0
  %enq = call i32 @_Z27get_enqueued_num_sub_groupsv() #0
  %id = call i32 @_Z16get_sub_group_idv() #0
  %lid = call i32 @_Z22get_sub_group_local_idv() #0
  %size = call i32 @_Z18get_sub_group_sizev() #0
  %red = call i32 @_Z20sub_group_reduce_addi(i32 %n) #0
  %bc = call i32 @_Z19sub_group_broadcastij(i32 %n, i32 0) #0
  %any = call i32 @_Z13sub_group_anyi(i32 %n) #0
  %sum = add i32 %red, %bc
  %u = add i32 %num, %max
  %t = add i32 %sum, %u
  %t2 = add i32 %t, %enq
  %t3 = add i32 %t2, %id
  %t4 = add i32 %t3, %lid
  %t5 = add i32 %t4, %size
  %t6 = add i32 %t5, %any
  store i32 %t6, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @_Z18get_num_sub_groupsv()
declare i32 @_Z22get_max_sub_group_sizev()
declare i32 @_Z27get_enqueued_num_sub_groupsv()
declare i32 @_Z16get_sub_group_idv()
declare i32 @_Z22get_sub_group_local_idv()
declare i32 @_Z18get_sub_group_sizev()
declare i32 @_Z20sub_group_reduce_addi(i32)
declare i32 @_Z19sub_group_broadcastij(i32, i32)
declare i32 @_Z13sub_group_anyi(i32)

attributes #0 = { convergent nounwind }
