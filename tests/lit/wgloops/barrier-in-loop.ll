; A barrier in a loop: two sub-CFGs. Sub-CFG 0 runs from the kernel's start to the barrier
; (loop entered) or to the end (loop skipped); sub-CFG 1 runs from the barrier through the rest
; of the iteration and leaves either to the same barrier again (next iteration) or to the end.
; The loop's back edge is thus taken between work-item loops, once per work-group. The counter
; s is double-buffered (privatize): each nest ends in a ".commit" block before the dispatcher.
; RUN: weft-opt -pass=wg-loops -local-size=64 %s | FileCheck %s

; CHECK:       ; weft: loop_barrier {{.*}} subcfgs=2
; CHECK-LABEL: define internal void @weft_wi_loop_barrier(
; CHECK:       dispatch:
; CHECK:         switch i32 %next, label %dispatch.unreachable [
; CHECK-NEXT:      i32 0, label %subcfg0.wi.x
; CHECK-NEXT:      i32 1, label %subcfg1.wi.x
; CHECK-NEXT:      i32 -1, label %exit
; CHECK-NEXT:    ]
; CHECK:       subcfg0.to.barrier1:
; CHECK-NEXT:    store i32 1, ptr %next.barrier
; CHECK:       subcfg0.to.exit:
; CHECK-NEXT:    store i32 -1, ptr %next.barrier
; CHECK:       subcfg0.latch.x:
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg0.wi.x, label %subcfg0.commit, !llvm.loop
; CHECK:       subcfg1.wi.x:
; CHECK-NEXT:    %lid.x{{[0-9]*}} = phi i64
; CHECK-NEXT:    br label %subcfg1.after.barrier
; CHECK:       subcfg1.for.inc.i:
; CHECK:         br i1 {{%.*}}, label %subcfg1.for.end.i, label %subcfg1.for.body.i
; CHECK:       subcfg1.to.barrier1:
; CHECK-NEXT:    store i32 1, ptr %next.barrier
; CHECK:       subcfg1.to.exit:
; CHECK-NEXT:    store i32 -1, ptr %next.barrier
; CHECK:       subcfg1.latch.x:
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg1.wi.x, label %subcfg1.commit, !llvm.loop
; CHECK-NOT:     call void @_Z7barrierj

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @loop_barrier(ptr addrspace(1) %out, ptr addrspace(3) %tmp) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %in.p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  %in = load float, ptr addrspace(1) %in.p, align 4
  %t.p = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %lid
  store float %in, ptr addrspace(3) %t.p, align 4
  %ls = call i64 @_Z14get_local_sizej(i32 0)
  %half = lshr i64 %ls, 1
  %conv = trunc i64 %half to i32
  %none = icmp eq i32 %conv, 0
  br i1 %none, label %for.end, label %for.body

for.body:
  %s = phi i32 [ %shr, %for.inc ], [ %conv, %entry ]
  call void @_Z7barrierj(i32 1)
  %conv5 = zext i32 %s to i64
  %active = icmp ult i64 %lid, %conv5
  br i1 %active, label %if.then, label %for.inc

if.then:
  %o.p = getelementptr float, ptr addrspace(3) %t.p, i64 %conv5
  %a = load float, ptr addrspace(3) %o.p, align 4
  %b = load float, ptr addrspace(3) %t.p, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %t.p, align 4
  br label %for.inc

for.inc:
  %shr = lshr i32 %s, 1
  %last = icmp ult i32 %s, 2
  br i1 %last, label %for.end, label %for.body

for.end:
  %first = icmp eq i64 %lid, 0
  br i1 %first, label %if.then14, label %if.end

if.then14:
  %r = load float, ptr addrspace(3) %tmp, align 4
  %grp = call i64 @_Z12get_group_idj(i32 0)
  %out.p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %grp
  store float %r, ptr addrspace(1) %out.p, align 4
  br label %if.end

if.end:
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z12get_group_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3}
