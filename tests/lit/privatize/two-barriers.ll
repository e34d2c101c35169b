; Which values live across barriers become arrays: x (loaded from memory) and a (loaded from
; __local memory) are varying, so each gets a 64-element array in ctx->scratch indexed by the
; linear local id; lid and the pointer op are affine in the local id, so their slots keep a
; uniform base (stored as value - stride*lid) and every reload adds stride*lid back.
; RUN: weft-opt -pass=privatize -local-size=64 %s | FileCheck %s

; x: 64 x i32 at 0, a: 64 x i32 at 256 (each array 64-byte aligned)
; CHECK:       ; weft: two static_local_size=0 scratch_size=512 subcfgs=3 arrays=2 uniform_slots=0 recomputed=2
; CHECK-LABEL: define internal void @weft_wi_two(
; CHECK:       alloca:
; CHECK-NEXT:    %lid.i.slot = alloca i64
; CHECK-NEXT:    %op.i.slot = alloca ptr addrspace(1)
; CHECK-NOT:     %x.i.slot = alloca
; CHECK-NOT:     %a.i.slot = alloca
; CHECK:         [[SCRATCH:%[0-9]+]] = load ptr, ptr {{%[0-9]+}}, align 8, !invariant.load
; CHECK:       barrier0:
; CHECK:         [[L:%[0-9]+]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT:    [[OFF:%[0-9]+]] = mul i64 [[L]], 1
; CHECK-NEXT:    %base = sub i64 %lid.i, [[OFF]]
; CHECK-NEXT:    store i64 %base, ptr %lid.i.slot
; CHECK:         %base{{[0-9]*}} = getelementptr i8, ptr addrspace(1) %op.i
; CHECK:         %x.i = mul i32 %in.i, 3
; CHECK:         [[XL:%lid.linear[0-9]*]] = add i64 0, {{%[0-9]+}}
; CHECK-NEXT:    [[XM:%[0-9]+]] = mul i64 [[XL]], 4
; CHECK-NEXT:    [[XO:%[0-9]+]] = add i64 [[XM]], 0
; CHECK-NEXT:    %x.i.slot.priv{{[0-9]*}} = getelementptr inbounds i8, ptr [[SCRATCH]], i64 [[XO]]
; CHECK-NEXT:    store i32 %x.i, ptr %x.i.slot.priv
; CHECK:       barrier1:
; CHECK:         %recomputed = add i64
; CHECK:         %a.i = load i32
; CHECK:         add i64 {{%[0-9]+}}, 256
; CHECK-NEXT:    %a.i.slot.priv{{[0-9]*}} = getelementptr inbounds i8, ptr [[SCRATCH]]
; CHECK-NEXT:    store i32 %a.i, ptr %a.i.slot.priv
; CHECK:       barrier2:
; CHECK:         %s.i = add i32
; CHECK:         %recomputed{{[0-9]*}} = getelementptr i8, ptr addrspace(1)
; CHECK-NEXT:    store i32 %s.i, ptr addrspace(1) %recomputed

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @two(ptr addrspace(1) %out, ptr addrspace(3) %t) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %n = call i64 @_Z14get_local_sizej(i32 0)
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  %in = load i32, ptr addrspace(1) %op, align 4
  %x = mul i32 %in, 3
  %tp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %lid
  %lid32 = trunc i64 %lid to i32
  store i32 %lid32, ptr addrspace(3) %tp, align 4
  call void @_Z7barrierj(i32 1)
  %last = sub i64 %n, 1
  %rev = sub i64 %last, %lid
  %rp = getelementptr inbounds i32, ptr addrspace(3) %t, i64 %rev
  %a = load i32, ptr addrspace(3) %rp, align 4
  call void @_Z7barrierj(i32 1)
  %s = add i32 %a, %x
  store i32 %s, ptr addrspace(1) %op, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1, i32 3}
