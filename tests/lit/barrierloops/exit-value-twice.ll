; A value of the loop used after it by a phi that names it on two incoming edges, and by a
; plain instruction elsewhere (tools/fuzz seed 3168 under bfo: the scheduling barrier made a
; `do { v = v * 3 + 1; } while (++i < 4)` a barrier loop; `if (c) v *= 3; else if (..) ..`
; after it). Every use outside the loop must name the last copy's value: rewriting the phi's
; two operands at once used to move the walk onto the new value's use list, and the `mul`
; kept the first copy's value (compiler/transform/barrierloops.c).
; RUN: weft-opt -pass=unroll-barrier-loops %s | FileCheck %s

; CHECK: ; weft: unroll-barrier-loops unrolled 1
; CHECK-LABEL: define spir_kernel void @twice(
; CHECK-COUNT-4: call void @_Z7barrierj(i32 1)
; CHECK:         [[LAST:%[0-9]+]] = add i32 {{%[0-9]+}}, 1
; CHECK-NEXT:    add i32 {{%[0-9]+}}, 1
; CHECK-NEXT:    br label %exit
; CHECK:       then:
; CHECK-NEXT:    %t = mul i32 [[LAST]], 3
; CHECK:       join:
; CHECK-NEXT:    phi i32 [ %t, %then ], [ [[LAST]], %a ], [ [[LAST]], %b ]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @_Z7barrierj(i32)

define spir_kernel void @twice(ptr addrspace(1) %out, i32 %x, i1 %c, i1 %d) !kernel_arg_addr_space !0 {
entry:
  br label %loop

loop:
  %v = phi i32 [ %x, %entry ], [ %v1, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @_Z7barrierj(i32 1)
  %m = mul i32 %v, 3
  %v1 = add i32 %m, 1
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 4
  br i1 %more, label %loop, label %exit

exit:
  br i1 %c, label %then, label %a

then:
  %t = mul i32 %v1, 3
  br label %join

a:
  br i1 %d, label %join, label %b

b:
  br label %join

join:
  %r = phi i32 [ %t, %then ], [ %v1, %a ], [ %v1, %b ]
  store i32 %r, ptr addrspace(1) %out
  ret void
}

!0 = !{i32 1, i32 0, i32 0, i32 0}
