; Counted loops in which each work-item reads a row of its own are unrolled by 8
; (compiler/transform/rowunroll.c), the copies' loads of a row at consecutive addresses:
;   - @row (gesummv's shape: the header tests j < n, the body is the latch): a loop of 8 copies
;     entered while j < n and n - j > 7, then the original loop for the rest; the row's start
;     (i * n) moves out of the body, so that every copy's address shares it;
;   - @row_unsigned: the same with an unsigned test;
;   - @column: A[j * n + i] steps by a row per iteration: left alone;
;   - @close_lanes: A[i + j]: neighbouring work-items read neighbouring elements: left alone;
;   - @uniform: only x[j], the same for every work-item: left alone;
;   - @unknown_call: a call in the body: left alone;
;   - @step_two: j += 2: left alone.
; RUN: weft-opt -pass=unroll-row-walks %s | FileCheck %s

; CHECK: ; weft: unroll-row-walks unrolled 1
; CHECK: ; weft: unroll-row-walks unrolled 1
; CHECK: ; weft: unroll-row-walks unrolled 0
; CHECK: ; weft: unroll-row-walks unrolled 0
; CHECK: ; weft: unroll-row-walks unrolled 0
; CHECK: ; weft: unroll-row-walks unrolled 0
; CHECK: ; weft: unroll-row-walks unrolled 0

; CHECK-LABEL: define spir_kernel void @row(
; CHECK:       entry:
; CHECK:         %row = mul nsw i32 %i, %n
; CHECK-NEXT:    br i1 %in, label %rows.header, label %done
; CHECK:       rows.header:
; CHECK:         %[[J:rows.phi[0-9]*]] = phi i32 [ 0, %entry ], [ %{{.*}}, %rows.body ]
; CHECK:         %[[FIRST:[0-9]+]] = icmp slt i32 %[[J]], %n
; CHECK:         %rows.left = sub i32 %n, %[[J]]
; CHECK:         %[[ROOM:[0-9]+]] = icmp ugt i32 %rows.left, 7
; CHECK:         %rows.room = and i1 %[[FIRST]], %[[ROOM]]
; CHECK:         br i1 %rows.room, label %rows.body, label %loop
; CHECK:       rows.body:
; CHECK-COUNT-16: load float, ptr addrspace(1) %{{.*}}, align 4
; CHECK-NOT:     load
; CHECK:         br label %rows.header
; CHECK:       loop:
; CHECK:         %j = phi i32 [ %[[J]], %rows.header ], [ %jn, %body ]
; CHECK:         icmp slt i32 %j, %n
; CHECK:       body:
; CHECK-NOT:     = mul
; CHECK:         br label %loop

; CHECK-LABEL: define spir_kernel void @row_unsigned(
; CHECK:         icmp ult i32 %{{.*}}, %n
; CHECK:         %rows.left = sub i32 %n,
; CHECK:         icmp ugt i32 %rows.left, 7

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @row(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %in = icmp slt i32 %i, %n
  br i1 %in, label %loop, label %done
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %row = mul nsw i32 %i, %n
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %j64 = zext nneg i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %jn = add nuw nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  br label %done
done:
  ret void
}

define spir_kernel void @row_unsigned(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nuw i32 %i, %n
  br label %loop
loop:
  %sum = phi i32 [ 0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp ult i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %idx = add nuw i32 %row, %j
  %idx64 = zext i32 %idx to i64
  %pa = getelementptr inbounds i32, ptr addrspace(1) %A, i64 %idx64
  %a = load i32, ptr addrspace(1) %pa, align 4
  %s2 = add i32 %sum, %a
  %jn = add nuw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds i32, ptr addrspace(1) %y, i64 %gid
  store i32 %sum, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @column(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %col = mul nsw i32 %j, %n
  %idx = add nsw i32 %col, %i
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %sum, %a
  %jn = add nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @close_lanes(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %idx = add nsw i32 %i, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %sum, %a
  %jn = add nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @uniform(ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %loop
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = fadd float %sum, %xv
  %jn = add nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @unknown_call(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %c = call float @helper(float %a)
  %s2 = fadd float %sum, %c
  %jn = add nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @step_two(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %sum, %a
  %jn = add nsw i32 %j, 2
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %sum, ptr addrspace(1) %py, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @helper(float)
