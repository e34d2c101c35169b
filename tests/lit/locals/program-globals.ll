; Program-scope variables (compiler/globals.h) become ctx->program_globals + offset (weft/abi.h
; field 12), at the offsets of the program's layout: module order, each at its alignment
; (@counter at 0, @table 16-aligned at 16, @cp at 48, then @lut at 56: a __constant variable
; pointed to by a member joins the block). A __constant array
; nobody points to (@kc) stays a constant of the variant; __local variables still go to
; ctx->local_mem. Uses inside constant expressions are rewritten too.
; RUN: weft-opt -pass=layout-locals -kernel=k -local-size=16 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK:         [[P:%[0-9]+]] = getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 12
; CHECK-NEXT:    [[BASE:%[0-9]+]] = load ptr, ptr [[P]], align 8, !invariant.load
; CHECK-NEXT:    [[C:%counter]] = getelementptr inbounds i8, ptr [[BASE]], i64 0
; CHECK-NEXT:    [[CC:%[0-9]+]] = addrspacecast ptr [[C]] to ptr addrspace(1)
; CHECK:         [[T:%table]] = getelementptr inbounds i8, ptr [[BASE]], i64 16
; CHECK-NEXT:    [[TC:%[0-9]+]] = addrspacecast ptr [[T]] to ptr addrspace(1)
; CHECK:         [[CP:%cp]] = getelementptr inbounds i8, ptr [[BASE]], i64 48
; CHECK:         br label %barrier.entry
; CHECK:         load i32, ptr addrspace(1) [[CC]]
; CHECK:         store i32 {{.*}}, ptr addrspace(1) [[CC]]
; CHECK:         getelementptr inbounds [8 x i32], ptr addrspace(1) [[TC]], i64 0, i64 %lid
; CHECK:         getelementptr inbounds [8 x i32], ptr addrspace(1) [[TC]], i64 0, i64 3
; CHECK:         load ptr addrspace(2), ptr addrspace(1)
; CHECK:         getelementptr inbounds [4 x i32], ptr addrspace(2) @kc, i64 0, i64 %lid
; CHECK:         ptr addrspace(3)
; CHECK-NOT:     @counter
; CHECK-NOT:     @table

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@counter = internal addrspace(1) global i32 5, align 4
@table = internal addrspace(1) global [8 x i32] zeroinitializer, align 16
@cp = internal addrspace(1) global ptr addrspace(2) @lut, align 8
@lut = internal addrspace(2) constant [2 x i32] [i32 1, i32 2], align 4
@kc = internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
@k.tmp = internal addrspace(3) global [16 x i32] undef, align 4

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %c = load i32, ptr addrspace(1) @counter, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr addrspace(1) @counter, align 4
  %t = getelementptr inbounds [8 x i32], ptr addrspace(1) @table, i64 0, i64 %lid
  store i32 %c, ptr addrspace(1) %t, align 4
  %t3 = load i32, ptr addrspace(1) getelementptr inbounds ([8 x i32], ptr addrspace(1) @table, i64 0, i64 3), align 4
  %p = load ptr addrspace(2), ptr addrspace(1) @cp, align 8
  %v = load i32, ptr addrspace(2) %p, align 4
  %kk = getelementptr inbounds [4 x i32], ptr addrspace(2) @kc, i64 0, i64 %lid
  %kv = load i32, ptr addrspace(2) %kk, align 4
  %l = getelementptr inbounds [16 x i32], ptr addrspace(3) @k.tmp, i64 0, i64 %lid
  store i32 %kv, ptr addrspace(3) %l, align 4
  %s = add i32 %t3, %v
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1}
