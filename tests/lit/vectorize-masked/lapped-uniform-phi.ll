; A uniform PHI of an outer loop header (%i) whose back edge is the divergent exit of an inner
; loop (fuzz seed 4738): lanes that leave the inner loop reach the outer header while the others
; still run the inner loop's body in the same lap, reading %i there. In the linear copy, a
; uniform PHI keeps one scalar that store_phis writes as soon as any lane takes the edge, so the
; lanes still inside read the next lap's %i. vectorize_plan.c (demote_lapped_phis) makes such a
; PHI varying: the back edge blends %i.next into a vector slot in the exiting lanes only, and
; the inner body reads its own lanes' %i from that slot.
; RUN: weft-opt -pass=wg-loops -local-size=4 -vectorize=4 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 4 interleave 1 linearized
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.inner{{[.i0-9]*}}:
; CHECK:         [[STOP:%[0-9]+]] = select <4 x i1> %mask{{[0-9]+}}, <4 x i1> %stop{{[.i]*}}.v, <4 x i1> zeroinitializer
; CHECK-NOT:     select i1 %any
; CHECK:         [[OLD:%[0-9]+]] = load <4 x i32>, ptr [[I:%vslot.v[0-9]*]]
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select <4 x i1> [[STOP]], <4 x i32> %{{[0-9]+}}, <4 x i32> [[OLD]]
; CHECK-NEXT:    store <4 x i32> [[NEW]], ptr [[I]]
; CHECK:       run.body{{[.i0-9]*}}:
; CHECK-NOT:     load i32
; CHECK:         [[IV:%[0-9]+]] = load <4 x i32>, ptr [[I]]
; CHECK-NOT:     load i32
; CHECK:         %r{{[.i]*}}.v = add <4 x i32> %{{[0-9]+}}, [[IV]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  %j0 = and i32 %v, 1
  br label %outer

outer:
  %i = phi i32 [ %n, %entry ], [ %i.next, %inner ]
  %acc = phi i32 [ 0, %entry ], [ %acc.in, %inner ]
  %done = icmp eq i32 %i, 0
  br i1 %done, label %exit, label %pre

pre:
  %i.next = add i32 %i, -1
  br label %inner

inner:
  %j = phi i32 [ %j0, %pre ], [ %j.next, %body ]
  %acc.in = phi i32 [ %acc, %pre ], [ %r, %body ]
  %stop = icmp eq i32 %j, 0
  br i1 %stop, label %outer, label %body

body:
  %j.next = add i32 %j, -1
  %r = add i32 %acc.in, %i
  br label %inner

exit:
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %acc, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1, i32 0}
