; Liveness around a barrier in a loop: what must survive the barrier is exactly the live-in set
; of the barrier block — %a (needed by the next iteration), %b (needed after the loop), %i and
; %x (needed right after the barrier). %d dies before the loop; the phi operand %i1 is live out
; of its incoming block only.
; RUN: weft-opt -pass=print-liveness %s | FileCheck %s

; CHECK-LABEL: liveness of @k:
; CHECK-NEXT:    entry: in [] out [%a, %b]
; CHECK-NEXT:    head: in [%a, %b] out [%a, %b, %i, %x]
; CHECK-NEXT:    bar: in [%a, %b, %i, %x] out [%a, %b, %i1]
; CHECK-NEXT:    exit: in [%b] out []

declare void @_Z7barrierj(i32)

define spir_kernel void @k(ptr addrspace(1) %p, i32 %n) {
entry:
  %a = add i32 %n, 1
  %b = mul i32 %n, 2
  %d = add i32 %n, 3
  store i32 %d, ptr addrspace(1) %p
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %bar ]
  %x = add i32 %i, %a
  %c = icmp slt i32 %i, %n
  br i1 %c, label %bar, label %exit
bar:
  call void @_Z7barrierj(i32 1)
  store i32 %x, ptr addrspace(1) %p
  %i1 = add i32 %i, 1
  br label %head
exit:
  store i32 %b, ptr addrspace(1) %p
  ret void
}
