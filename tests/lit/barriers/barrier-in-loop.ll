; A barrier inside a loop with a uniform trip count (tree reduction): canonicalization puts the
; barrier alone in its block, adds the entry and exit barriers, and moves nothing else.
; RUN: weft-opt -pass=canonicalize-barriers %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define spir_kernel void @loop_barrier(
; CHECK:       alloca:
; CHECK-NEXT:    br label %barrier.entry
; CHECK:       barrier.entry:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NEXT:    br label %entry
; CHECK:       for.body:
; CHECK-NEXT:    %s = phi i32
; CHECK-NEXT:    br label %[[B:barrier.block[0-9]*]]
; CHECK:       [[B]]:
; CHECK-NEXT:    call void @_Z7barrierj(i32 1)
; CHECK-NEXT:    br label %[[AFTER:[0-9a-z.]+]]
; CHECK:       [[AFTER]]:
; CHECK-NEXT:    %conv5 = zext i32 %s to i64
; CHECK:       if.end:
; CHECK-NEXT:    br label %barrier.exit
; CHECK:       barrier.exit:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK-NEXT:    br label %exit
; CHECK:       exit:
; CHECK-NEXT:    ret void
; CHECK-NOT:   ret void
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
