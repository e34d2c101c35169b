; Control divergence: a value defined under a branch on the local id is uniform where it is
; defined but varying at the join; inside `if (gid < n)` a uniform loop keeps a uniform
; counter; a loop left after a work-item-dependent number of iterations keeps a uniform counter
; inside but its LCSSA result is varying.
; RUN: weft-opt -pass=print-shapes %s | FileCheck %s

; CHECK-LABEL: shapes of @k:
; CHECK:         entry: branch divergent
; CHECK:         %u: uniform
; CHECK:         %p: varying
; CHECK:         %i: uniform
; CHECK:         %i1: uniform
; CHECK:         loop: branch uniform
; CHECK-NEXT:    loop: loop uniform
; CHECK:         %t: uniform
; CHECK:         %t1: uniform
; CHECK:         dloop: branch divergent
; CHECK-NEXT:    dloop: loop divergent
; CHECK:         %res: varying

declare i64 @_Z12get_local_idj(i32)

define spir_kernel void @k(i32 %n, i32 %m, ptr addrspace(1) %out) {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %lid32 = trunc i64 %lid to i32
  %c = icmp ult i32 %lid32, 16
  br i1 %c, label %then, label %join
then:
  %u = add i32 %n, 1
  br label %join
join:
  %p = phi i32 [ %u, %then ], [ 0, %entry ]
  br label %loop
loop:
  %i = phi i32 [ 0, %join ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %lc = icmp slt i32 %i1, %m
  br i1 %lc, label %loop, label %pre
pre:
  br label %dloop
dloop:
  %t = phi i32 [ 0, %pre ], [ %t1, %dloop ]
  %t1 = add i32 %t, %n
  %dc = icmp slt i32 %t1, %lid32
  br i1 %dc, label %dloop, label %done
done:
  %res = phi i32 [ %t1, %dloop ]
  store i32 %res, ptr addrspace(1) %out
  store i32 %p, ptr addrspace(1) %out
  ret void
}
