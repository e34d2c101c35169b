; Dominator and post-dominator trees with frontiers: an if/else whose else-side may skip the
; join, and a loop. The post-dominance frontier of a block lists the branches deciding whether
; it runs (what control divergence builds on).
; RUN: weft-opt -pass=print-dominators %s | FileCheck %s

; CHECK-LABEL: dominators of @k:
; CHECK-NEXT:    entry: idom - frontier []
; CHECK-NEXT:    a: idom entry frontier [d]
; CHECK-NEXT:    b: idom entry frontier [d, e]
; CHECK-NEXT:    c: idom b frontier [e]
; CHECK-NEXT:    d: idom entry frontier [e]
; CHECK-NEXT:    e: idom entry frontier [e]
; CHECK-NEXT:    f: idom e frontier []
; CHECK-NEXT:    dead: unreachable
; CHECK-LABEL: post-dominators of @k:
; CHECK-NEXT:    entry: ipdom e frontier []
; CHECK-NEXT:    a: ipdom d frontier [entry]
; CHECK-NEXT:    b: ipdom e frontier [entry]
; CHECK-NEXT:    c: ipdom e frontier [b]
; CHECK-NEXT:    d: ipdom e frontier [entry, b]
; CHECK-NEXT:    e: ipdom f frontier [e]
; CHECK-NEXT:    f: ipdom <exit> frontier []
; CHECK-NEXT:    dead: unreachable
; CHECK-NOT:   {{.}}

define spir_kernel void @k(i1 %p, i1 %q) {
entry:
  br i1 %p, label %a, label %b
a:
  br label %d
b:
  br i1 %q, label %c, label %d
c:
  br label %e
d:
  br label %e
e:
  br i1 %q, label %e, label %f
f:
  ret void
dead:
  br label %f
}
