; Packets for loops that walk a row of global memory per work-item (gesummv: sum += A[i * n + j]
; * x[j], one row per work-item). Each packet side by side adds W more rows gathered at once,
; so the packet stays W wide (@rows, @rows_const: n a constant 4096 elements), and narrower while
; the rows it walks at once reach the 32 streams a core's prefetcher follows: @two_rows walks a row
; of A and one of B (gesummv), 2 x 8 rows in a packet of 8; @same_row reads two elements of one
; row, a single stream (16 lanes). The same loop
; over contiguous elements (@columns: A[j * n + i]) or over __local memory (@local_rows) keeps
; the chains side by side that cover the FMA latency, as does a gather whose address does not
; step with the loop (@lookup: x[idx[i]] read again every iteration).
; RUN: weft-opt -pass=wg-loops -local-size=256 -vectorize=16 %s | FileCheck %s

; CHECK-DAG: ; weft-vec: rows subcfg 0: width 16 interleave 1 {{.*}}gathers=1
; CHECK-DAG: ; weft-vec: rows_const subcfg 0: width 16 interleave 1 {{.*}}gathers=1
; CHECK-DAG: ; weft-vec: two_rows subcfg 0: width 8 interleave 1 {{.*}}gathers=2
; CHECK-DAG: ; weft-vec: same_row subcfg 0: width 16 interleave 1 {{.*}}gathers=2
; CHECK-DAG: ; weft-vec: columns subcfg 0: width 16 interleave {{[248]}} vector_mem=2
; CHECK-DAG: ; weft-vec: local_rows subcfg 0: width 16 interleave {{[248]}} {{.*}}gathers=1
; CHECK-DAG: ; weft-vec: lookup subcfg 0: width 16 interleave {{[248]}} {{.*}}gathers=1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @rows(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @rows_const(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %row = shl i64 %gid, 12
  %rowp = getelementptr inbounds float, ptr addrspace(1) %A, i64 %row
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %pa = getelementptr inbounds float, ptr addrspace(1) %rowp, i64 %j
  %a = load float, ptr addrspace(1) %pa, align 4
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %jn = add nuw nsw i64 %j, 1
  %more = icmp ult i64 %jn, 4096
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @two_rows(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %sumb = phi float [ 0.0, %entry ], [ %t2, %loop ]
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %B, i64 %idx64
  %b = load float, ptr addrspace(1) %pb, align 4
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %t2 = call float @llvm.fmuladd.f32(float %b, float %xv, float %sumb)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %r = fadd float %s2, %t2
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %r, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @same_row(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %pa1 = getelementptr inbounds float, ptr addrspace(1) %pa, i64 1
  %a1 = load float, ptr addrspace(1) %pa1, align 4
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %d = fsub float %a1, %a
  %s2 = call float @llvm.fmuladd.f32(float %d, float %xv, float %sum)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @columns(ptr addrspace(1) %A, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %col = mul nsw i32 %j, %n
  %idx = add nsw i32 %col, %i
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @local_rows(ptr addrspace(3) %L, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(3) %L, i64 %idx64
  %a = load float, ptr addrspace(3) %pa, align 4
  %j64 = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %a, float %xv, float %sum)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @lookup(ptr addrspace(1) %idxs, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idxs, i64 %gid
  %k = load i32, ptr addrspace(1) %pi, align 4
  %k64 = sext i32 %k to i64
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %k64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s2 = call float @llvm.fmuladd.f32(float %xv, float %xv, float %sum)
  %jn = add nsw i32 %j, 1
  %more = icmp slt i32 %jn, %n
  br i1 %more, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { "target-cpu"="x86-64-v4" }
