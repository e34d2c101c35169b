; The CFG, dominator and loop analyses on each barrier-free sub-CFG (analysis/cfg.h's sub-CFG
; mode, what the vectorizer plans with): a loop around a barrier is cut by it. The sub-CFG
; after the barrier runs the rest of one iteration and the start of the next up to the barrier
; again, so the outer loop is no loop there; the inner loop is one in both. Edges to a barrier
; are exit edges, which the post-dominator tree's virtual exit stands for (inner's ipdom is
; <exit>, not a block of the sub-CFG).
; RUN: weft-opt -pass=canonicalize-barriers,print-subcfg-cfg %s | FileCheck %s --check-prefix=CFG
; RUN: weft-opt -pass=canonicalize-barriers,print-subcfg-dominators %s | FileCheck %s --check-prefix=DOM
; RUN: weft-opt -pass=canonicalize-barriers,print-subcfg-loops %s | FileCheck %s --check-prefix=LOOPS

; CFG-LABEL: cfg of @k sub-CFG entry:
; CFG-NEXT:    entry: succs [loop] preds []
; CFG-NEXT:    loop: succs [then, inner] preds [entry]
; CFG-NEXT:    inner: succs [inner] preds [loop, inner, then] exits [barrier1]
; CFG-NEXT:    then: succs [inner] preds [loop]
; CFG-LABEL: cfg of @k sub-CFG after.barrier:
; CFG-NEXT:    after.barrier: succs [latch] preds []
; CFG-NEXT:    latch: succs [loop, done] preds [after.barrier]
; CFG-NEXT:    done: succs [] preds [latch] exits [barrier.exit]
; CFG-NEXT:    loop: succs [then, inner] preds [latch]
; CFG-NEXT:    inner: succs [inner] preds [loop, inner, then] exits [barrier1]
; CFG-NEXT:    then: succs [inner] preds [loop]
; CFG-NOT:     {{.}}

; DOM-LABEL: dominators of @k sub-CFG after.barrier:
; DOM-NEXT:    after.barrier: idom - frontier []
; DOM-NEXT:    latch: idom after.barrier frontier []
; DOM-NEXT:    done: idom latch frontier []
; DOM-NEXT:    loop: idom latch frontier []
; DOM-NEXT:    inner: idom loop frontier [inner]
; DOM-NEXT:    then: idom loop frontier [inner]
; DOM-LABEL: post-dominators of @k sub-CFG after.barrier:
; DOM-NEXT:    after.barrier: ipdom latch frontier []
; DOM-NEXT:    latch: ipdom <exit> frontier []
; DOM-NEXT:    done: ipdom <exit> frontier [latch]
; DOM-NEXT:    loop: ipdom inner frontier [latch]
; DOM-NEXT:    inner: ipdom <exit> frontier [latch, inner]
; DOM-NEXT:    then: ipdom inner frontier [loop]

; LOOPS-LABEL: loops of @k sub-CFG entry:
; LOOPS-NEXT:    loop inner: depth 1 parent - blocks [inner] latches [inner] exiting [inner] exits []
; LOOPS-NEXT:    irreducible: no
; LOOPS-LABEL: loops of @k sub-CFG after.barrier:
; LOOPS-NEXT:    loop inner: depth 1 parent - blocks [inner] latches [inner] exiting [inner] exits []
; LOOPS-NEXT:    irreducible: no
; LOOPS-NOT:   {{.}}

declare void @_Z7barrierj(i32)

define spir_kernel void @k(ptr %a, i32 %n, i1 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  br i1 %x, label %then, label %inner
then:
  store i32 %i, ptr %a
  br label %inner
inner:
  %j = phi i32 [ 0, %loop ], [ 0, %then ], [ %j1, %inner ]
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %inner, label %sync
sync:
  call void @_Z7barrierj(i32 1)
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %loop, label %done
done:
  ret void
}
