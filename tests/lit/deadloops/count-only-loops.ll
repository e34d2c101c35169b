; Loops that only count to their end are deleted when the work function is made, so that the
; vectorizer never linearizes them (LLVM deletes them from the scalar work-item loops, but not
; from masked loops whose trip test reads lane masks). Deleted: a count-down from 2^63
; (CLSmith's `lbl: --x; if (x) goto lbl;`), and a loop nest: the inner loop counts to a bound
; the outer one loads, and the outer one is left with nothing once the inner one is gone. Kept:
; a loop that stores, one whose step (2) may never reach its bound, one whose counter is used
; after it, one bounded by `ule -1` (never false: it may not end).
; RUN: weft-opt -pass=work-function %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_dead(
; CHECK-NOT:     phi
; CHECK:         store i32 %{{[^,]+}}, ptr addrspace(1)
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; CHECK-LABEL: define internal void @weft_wi_nest(
; CHECK-NOT:     phi
; CHECK:         ret void
; CHECK-NEXT:  }

; CHECK-LABEL: define internal void @weft_wi_stores(
; CHECK:         phi i64
; CHECK:         store i32 0
; CHECK-LABEL: define internal void @weft_wi_even_step(
; CHECK:         phi i64
; CHECK-LABEL: define internal void @weft_wi_used_after(
; CHECK:         phi i64
; CHECK-LABEL: define internal void @weft_wi_never_false(
; CHECK:         phi i32

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @dead(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop
loop:
  %c = phi i64 [ -9164577843346635912, %entry ], [ %c.next, %loop ]
  %c.next = add i64 %c, -1
  %done = icmp eq i64 %c.next, 0
  br i1 %done, label %exit, label %loop
exit:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %t = trunc i64 %x to i32
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %t, ptr addrspace(1) %p, align 4
  ret void
}

define spir_kernel void @nest(ptr addrspace(1) %in, i32 %n) !kernel_arg_addr_space !1 {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %v = load i32, ptr addrspace(1) %in, align 4
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %j.next = add i32 %j, 1
  %more = icmp ne i32 %j.next, %v
  br i1 %more, label %inner, label %outer.latch
outer.latch:
  %i.next = add i32 %i, 1
  %again = icmp ne i32 %i.next, %n
  br i1 %again, label %outer, label %exit
exit:
  ret void
}

define spir_kernel void @stores(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop
loop:
  %c = phi i64 [ 100, %entry ], [ %c.next, %loop ]
  store i32 0, ptr addrspace(1) %out, align 4
  %c.next = add i64 %c, -1
  %done = icmp eq i64 %c.next, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define spir_kernel void @even_step(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop
loop:
  %c = phi i64 [ 101, %entry ], [ %c.next, %loop ]
  %c.next = add i64 %c, -2
  %done = icmp eq i64 %c.next, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define spir_kernel void @used_after(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop
loop:
  %c = phi i64 [ 100, %entry ], [ %c.next, %loop ]
  %c.next = add i64 %c, -1
  %done = icmp eq i64 %c.next, 7
  br i1 %done, label %exit, label %loop
exit:
  %t = trunc i64 %c to i32
  store i32 %t, ptr addrspace(1) %out, align 4
  ret void
}

define spir_kernel void @never_false(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  br label %loop
loop:
  %c = phi i32 [ 0, %entry ], [ %c.next, %loop ]
  %c.next = add i32 %c, 1
  %more = icmp ule i32 %c.next, -1
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1}
!1 = !{i32 1, i32 0}
