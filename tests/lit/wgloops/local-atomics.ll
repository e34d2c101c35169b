; Atomics on __local memory become plain read-modify-writes once the work-item loops exist (a
; work-group runs on one thread: compiler/transform/localatomics.c): a volatile atomic add (the
; OpenCL 1.x atomic_inc) becomes a volatile load, add and volatile store returning the old
; value; a compare-exchange becomes a load, a compare and a store of the selected value; an
; atomic load loses its ordering. The atomic on a global pointer stays atomic.
; RUN: weft-opt -pass=wg-loops -local-size=4 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK-NOT:     atomicrmw {{.*}} addrspace(3)
; CHECK:         [[OLD:%[0-9]+]] = load volatile i32, ptr addrspace(3) [[P:%[^,]+]], align 4
; CHECK-NEXT:    [[NEW:%[0-9]+]] = add i32 [[OLD]], 1
; CHECK-NEXT:    store volatile i32 [[NEW]], ptr addrspace(3) [[P]], align 4
; CHECK:         [[CUR:%[0-9]+]] = load i32, ptr addrspace(3) [[LC:%[0-9]+]], align 4
; CHECK-NEXT:    [[EQ:%[0-9]+]] = icmp eq i32 [[CUR]], 0
; CHECK-NEXT:    [[SEL:%[0-9]+]] = select i1 [[EQ]], i32 7, i32 [[CUR]]
; CHECK-NEXT:    store i32 [[SEL]], ptr addrspace(3) [[LC]], align 4
; CHECK-NEXT:    [[PAIR:%[0-9]+]] = insertvalue { i32, i1 } poison, i32 [[CUR]], 0
; CHECK-NEXT:    insertvalue { i32, i1 } [[PAIR]], i1 [[EQ]], 1
; CHECK:         %seen{{[.i0-9]*}} = load i32, ptr addrspace(3) [[LC]], align 4
; CHECK:         atomicrmw add ptr addrspace(1) {{%[^,]+}}, i32 {{%[^ ]+}} seq_cst
; CHECK-NOT:     cmpxchg

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(3) %bins, ptr addrspace(3) %lc) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %lid
  %v = load i8, ptr addrspace(1) %p, align 1
  %bin = zext i8 %v to i64
  %bp = getelementptr inbounds i32, ptr addrspace(3) %bins, i64 %bin
  %old = atomicrmw volatile add ptr addrspace(3) %bp, i32 1 seq_cst, align 4
  %pair = cmpxchg ptr addrspace(3) %lc, i32 0, i32 7 seq_cst seq_cst, align 4
  %won = extractvalue { i32, i1 } %pair, 1
  %w = zext i1 %won to i32
  %seen = load atomic i32, ptr addrspace(3) %lc seq_cst, align 4
  %sum = add i32 %old, %w
  %sum2 = add i32 %sum, %seen
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  %r = atomicrmw add ptr addrspace(1) %o, i32 %sum2 seq_cst, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1, i32 3, i32 3}
