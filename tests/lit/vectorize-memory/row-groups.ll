; Row groups (compiler/transform/vectorize_rows.c): a loop that each work-item runs over a row of
; its own, unrolled by 8 (rowunroll.c), has 8 loads of a row at consecutive addresses per copy;
; in a full unmasked packet they become one 8-element load per lane and a transposition:
;   - @two_rows (gesummv: a row of A and one of B): two groups; with 8 lanes, 8 loads of
;     <8 x float> per group and the 8x8 transposition x86 does in 256-bit registers (unpack and
;     shuffle within 128-bit halves, then exchange halves: 3 rounds of 8 shuffles);
;     with 4 lanes (4 < 8: each row split in two 4x4 squares, transposed by interleaving
;     whole vectors: rows.lo/rows.hi) the same groups;
;   - @one_row (one row per work-item: a packet of 16 with 16 lanes, more lanes than elements:
;     two 8x8 squares, each column joined from the two halves);
;   - @straight16, @straight4: 16 and 4 consecutive loads of a work-item's own elements without
;     a loop: a group of 16 (8 lanes: two 8x8 squares per row, sliced) and one of 4 (8 lanes:
;     two 4x4 squares, their columns joined);
;   - @stored_between: a store between the copies' loads ends each group before it has 4
;     loads: no group, the gathers stay.
; RUN: weft-opt -pass=wg-loops -local-size=64 -vectorize=8 %s | FileCheck %s --check-prefix=P8
; RUN: weft-opt -pass=wg-loops -local-size=64 -vectorize=16 %s | FileCheck %s --check-prefix=P16
; RUN: weft-opt -pass=wg-loops -local-size=64 -vectorize=4 %s | FileCheck %s --check-prefix=P4

; P8-DAG: ; weft-vec: two_rows subcfg 0: width 8 {{.*}} row_groups=2
; P8-DAG: ; weft-vec: stored_between subcfg 0: width 8 {{.*}} row_groups=0
; P8-DAG: ; weft-vec: straight16 subcfg 0: width 8 {{.*}} row_groups=1
; P8-DAG: ; weft-vec: straight4 subcfg 0: width 8 {{.*}} row_groups=1
; P8-LABEL: define internal void @weft_wi_two_rows(
; P8-COUNT-8:  %rows.row{{[0-9]*}} = load <8 x float>, ptr addrspace(1) %{{.*}}, align 4
; P8-COUNT-8:  %rows.unpack{{[0-9]*}} = shufflevector <8 x float>
; P8-COUNT-8:  %rows.shuf{{[0-9]*}} = shufflevector <8 x float>
; P8-COUNT-8:  %rows.halves{{[0-9]*}} = shufflevector <8 x float>
; P8-COUNT-8:  %rows.row{{[0-9]*}} = load <8 x float>, ptr addrspace(1) %{{.*}}, align 4
; P8-COUNT-8:  %rows.unpack{{[0-9]*}} = shufflevector <8 x float>
; P8-LABEL: define internal void @weft_wi_one_row(
; P8-LABEL: define internal void @weft_wi_stored_between(
; P8-NOT: rows.row

; P16-DAG: ; weft-vec: one_row subcfg 0: width 16 interleave 1 {{.*}} row_groups=1
; P16-LABEL: define internal void @weft_wi_one_row(
; P16-COUNT-16: %rows.row{{[0-9]*}} = load <8 x float>
; P16-COUNT-16: %rows.halves{{[0-9]*}} = shufflevector <8 x float>
; P16-COUNT-8:  shufflevector <8 x float> %rows.halves{{[0-9]*}}, <8 x float> %rows.halves{{[0-9]*}}, <16 x i32> <i32 0, i32 1, {{.*}}, i32 15>

; P4-DAG: ; weft-vec: two_rows subcfg 0: width 4 {{.*}} row_groups=2
; P4-LABEL: define internal void @weft_wi_two_rows(
; P4-COUNT-8: %rows.row{{[0-9]*}} = load <8 x float>
; P4: shufflevector <8 x float> %rows.row{{[0-9]*}}, <8 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
; P4: shufflevector <8 x float> %rows.row{{[0-9]*}}, <8 x float> poison, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
; P4: %rows.lo{{[0-9]*}} = shufflevector <4 x float>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @two_rows(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %s = phi float [ 0.0, %entry ], [ %s2, %body ]
  %t = phi float [ 0.0, %entry ], [ %t2, %body ]
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
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %s)
  %pb = getelementptr inbounds float, ptr addrspace(1) %B, i64 %idx64
  %b = load float, ptr addrspace(1) %pb, align 4
  %t2 = call float @llvm.fmuladd.f32(float %b, float %xv, float %t)
  %jn = add nuw nsw i32 %j, 1
  br label %loop
out:
  %r = fadd float %s, %t
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %r, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @one_row(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %s = phi float [ 0.0, %entry ], [ %s2, %body ]
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
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %s)
  %jn = add nuw nsw i32 %j, 1
  br label %loop
out:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @straight16(ptr addrspace(1) %A, ptr addrspace(1) %y) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 4
  %row = getelementptr inbounds float, ptr addrspace(1) %A, i64 %base
  %q0 = getelementptr inbounds float, ptr addrspace(1) %row, i64 0
  %a0 = load float, ptr addrspace(1) %q0, align 4
  %q1 = getelementptr inbounds float, ptr addrspace(1) %row, i64 1
  %a1 = load float, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr inbounds float, ptr addrspace(1) %row, i64 2
  %a2 = load float, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr inbounds float, ptr addrspace(1) %row, i64 3
  %a3 = load float, ptr addrspace(1) %q3, align 4
  %q4 = getelementptr inbounds float, ptr addrspace(1) %row, i64 4
  %a4 = load float, ptr addrspace(1) %q4, align 4
  %q5 = getelementptr inbounds float, ptr addrspace(1) %row, i64 5
  %a5 = load float, ptr addrspace(1) %q5, align 4
  %q6 = getelementptr inbounds float, ptr addrspace(1) %row, i64 6
  %a6 = load float, ptr addrspace(1) %q6, align 4
  %q7 = getelementptr inbounds float, ptr addrspace(1) %row, i64 7
  %a7 = load float, ptr addrspace(1) %q7, align 4
  %q8 = getelementptr inbounds float, ptr addrspace(1) %row, i64 8
  %a8 = load float, ptr addrspace(1) %q8, align 4
  %q9 = getelementptr inbounds float, ptr addrspace(1) %row, i64 9
  %a9 = load float, ptr addrspace(1) %q9, align 4
  %q10 = getelementptr inbounds float, ptr addrspace(1) %row, i64 10
  %a10 = load float, ptr addrspace(1) %q10, align 4
  %q11 = getelementptr inbounds float, ptr addrspace(1) %row, i64 11
  %a11 = load float, ptr addrspace(1) %q11, align 4
  %q12 = getelementptr inbounds float, ptr addrspace(1) %row, i64 12
  %a12 = load float, ptr addrspace(1) %q12, align 4
  %q13 = getelementptr inbounds float, ptr addrspace(1) %row, i64 13
  %a13 = load float, ptr addrspace(1) %q13, align 4
  %q14 = getelementptr inbounds float, ptr addrspace(1) %row, i64 14
  %a14 = load float, ptr addrspace(1) %q14, align 4
  %q15 = getelementptr inbounds float, ptr addrspace(1) %row, i64 15
  %a15 = load float, ptr addrspace(1) %q15, align 4
  %s0 = fadd float %a0, 0.0
  %s1 = fadd float %s0, %a1
  %s2 = fadd float %s1, %a2
  %s3 = fadd float %s2, %a3
  %s4 = fadd float %s3, %a4
  %s5 = fadd float %s4, %a5
  %s6 = fadd float %s5, %a6
  %s7 = fadd float %s6, %a7
  %s8 = fadd float %s7, %a8
  %s9 = fadd float %s8, %a9
  %s10 = fadd float %s9, %a10
  %s11 = fadd float %s10, %a11
  %s12 = fadd float %s11, %a12
  %s13 = fadd float %s12, %a13
  %s14 = fadd float %s13, %a14
  %s15 = fadd float %s14, %a15
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s15, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @straight4(ptr addrspace(1) %A, ptr addrspace(1) %y) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %base = mul i64 %gid, 12
  %row = getelementptr inbounds i32, ptr addrspace(1) %A, i64 %base
  %q0 = getelementptr inbounds i32, ptr addrspace(1) %row, i64 0
  %a0 = load i32, ptr addrspace(1) %q0, align 4
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %row, i64 1
  %a1 = load i32, ptr addrspace(1) %q1, align 4
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %row, i64 2
  %a2 = load i32, ptr addrspace(1) %q2, align 4
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %row, i64 3
  %a3 = load i32, ptr addrspace(1) %q3, align 4
  %s0 = xor i32 %a0, 0
  %s1 = xor i32 %s0, %a1
  %s2 = xor i32 %s1, %a2
  %s3 = xor i32 %s2, %a3
  %py = getelementptr inbounds i32, ptr addrspace(1) %y, i64 %gid
  store i32 %s3, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @stored_between(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  br label %loop
loop:
  %s = phi float [ 0.0, %entry ], [ %s2, %body ]
  %j = phi i32 [ 0, %entry ], [ %jn, %body ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %out
body:
  %row = mul nsw i32 %i, %n
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %s, %a
  store float %s2, ptr addrspace(1) %py, align 4
  %jn = add nuw nsw i32 %j, 1
  br label %loop
out:
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { "target-cpu"="sapphirerapids" }
