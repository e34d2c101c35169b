; A cycle entered at two blocks has no header that dominates it: flagged, not reported as a
; loop (the pipeline runs "fix-irreducible" first when a barrier is involved).
; RUN: weft-opt -pass=print-loops %s | FileCheck %s

; CHECK-LABEL: loops of @k:
; CHECK-NOT:     loop
; CHECK:         irreducible: yes

define spir_kernel void @k(i1 %x) {
entry:
  br i1 %x, label %a, label %b
a:
  br i1 %x, label %b, label %out
b:
  br label %a
out:
  ret void
}
