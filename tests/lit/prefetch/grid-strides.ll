; Software prefetches for grid-stride loops (compiler/prefetch.h). @hist is the corpus's
; histogram loop as clang leaves it: `i += get_global_size(0)` on an int, so the counter comes
; back through sext(trunc(i)) (shl 32, ashr exact 32) and the step is a query left in the latch.
; The prefetch reads data[i + 8 * global size], built before the load (the query again in the
; header, the address again without inbounds: a prefetch may name any address). Left alone: @column (A[i + j*m],
; a column walk whose other work-items' rows read it from the cache), @repeat (the grid-stride
; loop inside a loop that reads the same elements again), @unit (a row walked element by
; element). Vectorized (16 lanes), @hist's prefetch is the first and the last lane's address, not
; sixteen.
; RUN: weft-opt -pass=prefetch-grid-strides %s | FileCheck %s
; RUN: weft-opt -pass=prefetch-grid-strides,wg-loops -kernel=hist -local-size=256 -vectorize=16 %s | FileCheck %s --check-prefix=VEC

; CHECK: ; weft: prefetch-grid-strides hist: 1
; CHECK: ; weft: prefetch-grid-strides column: 0
; CHECK: ; weft: prefetch-grid-strides repeat: 0
; CHECK: ; weft: prefetch-grid-strides unit: 0
; CHECK-LABEL: define spir_kernel void @hist(
; CHECK:       loop:
; CHECK:         %pf.step = call i64 @_Z15get_global_sizej(i32 0)
; CHECK-NEXT:    %pf.dist = mul i64 %pf.step, 8
; CHECK-NEXT:    %pf.iv = add i64 %i, %pf.dist
; CHECK:       body:
; CHECK:         %pf = shl i64 %pf.iv, 32
; CHECK-NEXT:    %pf1 = ashr {{(exact )?}}i64 %pf, 32
; CHECK-NEXT:    %pf2 = getelementptr {{(nusw )?}}i8, ptr addrspace(1) %data, i64 %pf1
; CHECK-NEXT:    call void @llvm.prefetch.p1(ptr addrspace(1) %pf2, i32 0, i32 3, i32 1)
; CHECK-NEXT:    %v = load i8, ptr addrspace(1) %p
; CHECK-LABEL: define spir_kernel void @column(
; CHECK-NOT:     llvm.prefetch
; CHECK-LABEL: define spir_kernel void @repeat(
; CHECK-NOT:     llvm.prefetch
; CHECK-LABEL: define spir_kernel void @unit(
; CHECK-NOT:     llvm.prefetch
; CHECK-LABEL: declare

; VEC-LABEL: define {{.*}} @weft_wi_hist(
; VEC-COUNT-2: call void @llvm.prefetch.p1(
; VEC-NOT:     call void @llvm.prefetch.p1(
; VEC:         ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @hist(ptr addrspace(1) %data, i32 %n, ptr addrspace(1) %bins) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %loop
loop:
  %i = phi i64 [ %gid, %entry ], [ %next, %body ]
  %i32 = trunc i64 %i to i32
  %more = icmp slt i32 %i32, %n
  br i1 %more, label %body, label %done
body:
  %sh = shl i64 %i, 32
  %idx = ashr exact i64 %sh, 32
  %p = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %idx
  %v = load i8, ptr addrspace(1) %p, align 1
  %b = zext i8 %v to i64
  %pb = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %b
  %old = atomicrmw add ptr addrspace(1) %pb, i32 1 seq_cst, align 4
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  %next = add i64 %idx, %gs
  br label %loop
done:
  ret void
}

define spir_kernel void @column(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %m, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %row = mul nsw i32 %j, %m
  %idx = add nsw i32 %row, %i
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %s, %a
  %jn = add nsw i32 %j, 1
  %c = icmp slt i32 %jn, %n
  br i1 %c, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

define spir_kernel void @repeat(ptr addrspace(1) %data, i64 %n, i32 %passes, ptr addrspace(1) %out) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %gs = call i64 @_Z15get_global_sizej(i32 0)
  br label %outer
outer:
  %k = phi i32 [ 0, %entry ], [ %kn, %inner.done ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %inner.done ]
  br label %inner
inner:
  %i = phi i64 [ %gid, %outer ], [ %in, %inner ]
  %a = phi i32 [ %acc, %outer ], [ %a2, %inner ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %i
  %v = load i32, ptr addrspace(1) %p, align 4
  %a2 = add i32 %a, %v
  %in = add i64 %i, %gs
  %c = icmp ult i64 %in, %n
  br i1 %c, label %inner, label %inner.done
inner.done:
  %acc2 = phi i32 [ %a2, %inner ]
  %kn = add i32 %k, 1
  %ck = icmp slt i32 %kn, %passes
  br i1 %ck, label %outer, label %done
done:
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %acc2, ptr addrspace(1) %po, align 4
  ret void
}

define spir_kernel void @unit(ptr addrspace(1) %A, ptr addrspace(1) %y, i32 %n) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %gid to i32
  %row = mul nsw i32 %i, %n
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s2, %loop ]
  %idx = add nsw i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %A, i64 %idx64
  %a = load float, ptr addrspace(1) %pa, align 4
  %s2 = fadd float %s, %a
  %jn = add nsw i32 %j, 1
  %c = icmp slt i32 %jn, %n
  br i1 %c, label %loop, label %done
done:
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid
  store float %s2, ptr addrspace(1) %py, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
