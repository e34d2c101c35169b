; A private array written before a barrier and read after it is widened into ctx->scratch
; (64 work-items x 16 bytes); a private variable used only after the barrier stays an alloca.
; Kernel @k only loads and stores whole i32 elements: its copies are interleaved element by
; element (work-item w's element e at (e * 64 + w) * 4), so that neighbouring work-items'
; copies of one element are neighbours (one vector access per packet). Kernel @bytes also
; reads the array as an i64: its copies stay one whole 16-byte copy after another.
; RUN: weft-opt -pass=privatize -local-size=64 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=1024
; CHECK:       ; weft: bytes static_local_size=0 scratch_size=1024
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK-NOT:     %arr.i = alloca
; CHECK:         %tmp.i = alloca i32, align 4
; CHECK-NOT:     %arr.i = alloca
; CHECK:       barrier0:
; element 0 (the alloca itself): the store's alignment drops from the array's 16 to the element's 4
; CHECK:         %lid.linear{{[0-9]*}} = add i64 0,
; CHECK-NEXT:    mul i64 %lid.linear{{[0-9]*}}, 4
; CHECK-NEXT:    [[O:%[0-9]+]] = add i64 {{%[0-9]+}}, 0
; CHECK-NEXT:    %arr.i.priv{{[0-9]*}} = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 [[O]]
; CHECK-NEXT:    store i32 %l.i, ptr %arr.i.priv{{[0-9]*}}, align 4
; elements 1 and 2: one row of 64 x 4 bytes further each
; CHECK:         [[O1:%[0-9]+]] = add i64 {{%[0-9]+}}, 256
; CHECK-NEXT:    %arr.i.priv{{[0-9]*}} = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 [[O1]]
; CHECK:         [[O2:%[0-9]+]] = add i64 {{%[0-9]+}}, 512
; CHECK-NEXT:    %arr.i.priv{{[0-9]*}} = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 [[O2]]
; CHECK-NEXT:    %l2.i = add i32 %l.i, 2
; CHECK-NEXT:    store i32 %l2.i, ptr %arr.i.priv{{[0-9]*}}, align 4
; CHECK:       barrier1:
; element %i after the barrier
; CHECK:         mul i64 %i.i, 1
; CHECK:         [[R:%[0-9]+]] = mul i64 {{%[0-9]+}}, 256
; CHECK-NEXT:    [[A:%[0-9]+]] = add i64 {{%[0-9]+}}, [[R]]
; CHECK-NEXT:    %arr.i.priv = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 [[A]]
; CHECK-NEXT:    %v.i = load i32, ptr %arr.i.priv, align 4
; CHECK:         store i32 {{.*}}, ptr %tmp.i
; CHECK:         load i32, ptr %tmp.i
; CHECK-LABEL: define internal void @weft_wi_bytes(
; CHECK:       barrier0:
; CHECK:         mul i64 %lid.linear{{[0-9]*}}, 16
; CHECK-NEXT:    [[B:%[0-9]+]] = add i64 {{%[0-9]+}}, 0
; CHECK-NEXT:    %arr.i.priv{{[0-9]*}} = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 [[B]]
; CHECK:       barrier1:
; CHECK:         mul i64 %lid.linear{{[0-9]*}}, 16
; CHECK:         load i64, ptr %arr.i.priv

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %arr = alloca [4 x i32], align 16
  %tmp = alloca i32, align 4
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %l = trunc i64 %lid to i32
  store i32 %l, ptr %arr, align 16
  %p1 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 1
  %l1 = add i32 %l, 1
  store i32 %l1, ptr %p1, align 4
  %p2 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 2
  %l2 = add i32 %l, 2
  store i32 %l2, ptr %p2, align 8
  %p3 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 3
  %l3 = add i32 %l, 3
  store i32 %l3, ptr %p3, align 4
  call void @_Z7barrierj(i32 1)
  %i = and i64 %lid, 3
  %pi = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 %i
  %v = load i32, ptr %pi, align 4
  store i32 %v, ptr %tmp, align 4
  %w = load i32, ptr %tmp, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %w, ptr addrspace(1) %o, align 4
  ret void
}

define spir_kernel void @bytes(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %arr = alloca [4 x i32], align 16
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %l = trunc i64 %lid to i32
  store i32 %l, ptr %arr, align 16
  %p1 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 1
  store i32 %l, ptr %p1, align 4
  call void @_Z7barrierj(i32 1)
  %v = load i64, ptr %arr, align 16
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %gid
  store i64 %v, ptr addrspace(1) %o, align 8
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1}
