; A barrier in a uniform conditional, first in its block: the rest of the block moves to a new
; block after the barrier, and the PHI after the conditional now comes from that block.
; RUN: weft-opt -pass=canonicalize-barriers %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@if_barrier.t = internal addrspace(3) global [64 x i32] undef, align 16

; CHECK-LABEL: define spir_kernel void @if_barrier(
; CHECK:       if.then:
; CHECK-NEXT:    call void @_Z7barrierj(i32 1)
; CHECK-NEXT:    br label %[[AFTER:after.barrier[0-9]*]]
; CHECK:       [[AFTER]]:
; CHECK-NEXT:    %and = and i32 %add, 63
; CHECK:       if.end:
; CHECK-NEXT:    %v = phi i32 [ %add5, %[[AFTER]] ], [ %add, %entry ]
; CHECK:         br label %barrier.exit
define spir_kernel void @if_barrier(ptr addrspace(1) %out, i32 %flag) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %conv = trunc i64 %lid to i32
  %add = add nsw i32 %conv, 1
  %p = getelementptr inbounds [64 x i32], ptr addrspace(3) @if_barrier.t, i64 0, i64 %lid
  store i32 %add, ptr addrspace(3) %p, align 4
  %cmp = icmp sgt i32 %flag, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  call void @_Z7barrierj(i32 1)
  %and = and i32 %add, 63
  %idx = zext i32 %and to i64
  %q = getelementptr inbounds [64 x i32], ptr addrspace(3) @if_barrier.t, i64 0, i64 %idx
  %n = load i32, ptr addrspace(3) %q, align 4
  %add5 = add nsw i32 %n, %add
  br label %if.end

if.end:
  %v = phi i32 [ %add5, %if.then ], [ %add, %entry ]
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 0}
