; The plan's linear order (vectorize_plan.c): a divergent sub-CFG runs its blocks in a
; topological order of its CFG without back edges in which every natural loop's blocks are
; contiguous, header first (the loops come from analysis/'s loops on the sub-CFG). The blocks
; are laid out out of order here (done, latch, body before outer and inner); the linear copy's
; guards still come entry, outer, inner, body, latch, done: the inner loop [inner, body] inside
; the outer one [outer .. latch], done after it. An empty header skips its loop (inner to latch,
; outer to done); each loop's end test repeats it from its header or goes on after it.
; RUN: weft-opt -pass=wg-loops -local-size=8 -vectorize=8 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 8 interleave 1 linearized {{.*}} masked_blocks=6
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       lin.entry:
; CHECK:         br i1 %any, label %run.entry, label %[[OUTER:lin.outer[.i0-9]*]]
; CHECK:       [[OUTER]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %run.outer{{[.i0-9]*}}, label %[[DONE:lin.k.exit]]
; CHECK:       [[INNER:lin.inner[.i0-9]*]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %run.inner{{[.i0-9]*}}, label %[[LATCH:lin.latch[.i0-9]*]]
; CHECK:       lin.body{{[.i0-9]*}}:
; CHECK:         br i1 %any{{[0-9]+}}, label %run.body{{[.i0-9]*}}, label %[[INNER_END:lin.loop.end[0-9]+]]
; CHECK:       [[LATCH]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %run.latch{{[.i0-9]*}}, label %[[OUTER_END:lin.loop.end]]
; CHECK:       [[DONE]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %run.k.exit, label %lin.exit
; CHECK:       [[OUTER_END]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %[[OUTER]], label %[[DONE]]
; CHECK:       [[INNER_END]]:
; CHECK:         br i1 %any{{[0-9]+}}, label %[[INNER]], label %[[LATCH]]
; A loop header starts a new iteration with its loop's four (outer) and two (inner) block
; masks cleared.
; CHECK:       run.outer{{[.i0-9]*}}:
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NOT:     store <8 x i1> zeroinitializer
; CHECK:       run.inner{{[.i0-9]*}}:
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NEXT:    store <8 x i1> zeroinitializer, ptr %mask
; CHECK-NOT:     store <8 x i1> zeroinitializer

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %n, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pn = getelementptr inbounds i32, ptr addrspace(1) %n, i64 %x
  %nx = load i32, ptr addrspace(1) %pn, align 4
  br label %outer
done:
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %s, ptr addrspace(1) %po, align 4
  ret void
latch:
  %i1 = add i32 %i, 1
  br label %outer
body:
  %s1 = add i32 %s, %j
  %j1 = add i32 %j, 1
  br label %inner
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s2, %latch ]
  %ci = icmp slt i32 %i, %nx
  br i1 %ci, label %inner, label %done
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %body ]
  %s2 = phi i32 [ %s, %outer ], [ %s1, %body ]
  %cj = icmp slt i32 %j, %i
  br i1 %cj, label %body, label %latch
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1}
