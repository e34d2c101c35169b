; Values affine in the local id that live across a barrier keep one uniform base, v - stride*lid,
; that every reload adds stride*lid back to: right only if v really is affine. h = (uint)gid * K
; is, modulo 2^32. Its extensions z and w are affine only to the shape analysis' assumption that
; index arithmetic does not wrap inside one work-group, and with K this large h wraps in every
; group (|K| * 15 > 2^32): zext(h) - K*lid differs from work-item to work-item by multiples of
; 2^32, and one base gave most work-items a wrong z (tools/fuzz seed 4383 under bfo: mad_sat(x,
; h, y) widens h to i64). analysis/shape.c calls such extensions varying (span_wraps), so z, w
; and the GEP p (h as a 32-bit index, sign-extended) get per-work-item arrays. An extension of a
; progression that spans little, q = sext((int)lid * 4), keeps its base; gid, h and q are
; recomputed.
; RUN: weft-opt -pass=privatize -local-size=16 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=0 scratch_size=384 subcfgs=2 arrays=3 uniform_slots=0 recomputed=3
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK-NEXT:    %gid.slot = alloca i64
; CHECK-NEXT:    %h.i.slot = alloca i32
; CHECK-NEXT:    %q.i.slot = alloca i64
; CHECK-NOT:     = alloca
; CHECK:       entry:
; CHECK:         %base{{[0-9]*}} = sub i32 %h.i, {{%[0-9]+}}
; CHECK-NEXT:    store i32 %base{{[0-9]*}}, ptr %h.i.slot
; CHECK:         %z.i = zext i32 %h.i to i64
; CHECK:         store i64 %z.i, ptr %z.i.slot.priv
; CHECK:         %w.i = sext i32 %h.i to i64
; CHECK:         store i64 %w.i, ptr %w.i.slot.priv
; CHECK:         store ptr addrspace(1) %p.i, ptr %p.i.slot.priv
; CHECK:         %base{{[0-9]*}} = sub i64 %q.i, {{%[0-9]+}}
; CHECK-NEXT:    store i64 %base{{[0-9]*}}, ptr %q.i.slot
; CHECK:       after.barrier:
; CHECK:         %z.i.slot.priv = getelementptr
; CHECK:         %w.i.slot.priv = getelementptr
; CHECK:         [[B:%[0-9]+]] = load i32, ptr %h.i.slot
; CHECK:         %recomputed{{[0-9]*}} = add i32 [[B]],
; CHECK:         %p.i.slot.priv = getelementptr
; CHECK:         [[Q:%[0-9]+]] = load i64, ptr %q.i.slot
; CHECK:         %recomputed{{[0-9]*}} = add i64 [[Q]],

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %g = trunc i64 %gid to i32
  %h = mul i32 %g, -1640531527
  %z = zext i32 %h to i64
  %w = sext i32 %h to i64
  %p = getelementptr i8, ptr addrspace(1) %out, i32 %h
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %l = trunc i64 %lid to i32
  %l4 = mul nsw i32 %l, 4
  %q = sext i32 %l4 to i64
  call void @_Z7barrierj(i32 1)
  %op = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %gid
  %s = add i64 %z, %w
  %h64 = zext i32 %h to i64
  %t = add i64 %s, %h64
  store i64 %t, ptr addrspace(1) %op, align 8
  store i8 0, ptr addrspace(1) %p, align 1
  %oq = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %q
  store i64 %q, ptr addrspace(1) %oq, align 8
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 1}
