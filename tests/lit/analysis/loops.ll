; Natural loops: a nest where the inner loop has a break (two exiting blocks), then a sibling
; loop with two latches (a `continue`). Blocks are listed header first, in reverse post-order;
; latches, exiting and exit blocks in function order.
; RUN: weft-opt -pass=print-loops %s | FileCheck %s

; CHECK-LABEL: loops of @k:
; CHECK-NEXT:    loop outer: depth 1 parent - blocks [outer, inner, ibody, olatch] latches [olatch] exiting [olatch] exits [mid]
; CHECK-NEXT:    loop inner: depth 2 parent outer blocks [inner, ibody] latches [ibody] exiting [inner, ibody] exits [olatch]
; CHECK-NEXT:    loop h2: depth 1 parent - blocks [h2, l2, l1] latches [l1, l2] exiting [l2] exits [done]
; CHECK-NEXT:    irreducible: no

define spir_kernel void @k(i32 %n, i1 %x) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %ibody ]
  br i1 %x, label %olatch, label %ibody
ibody:
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %inner, label %olatch
olatch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %mid
mid:
  br label %h2
h2:
  br i1 %x, label %l1, label %l2
l1:
  br label %h2
l2:
  br i1 %x, label %h2, label %done
done:
  ret void
}
