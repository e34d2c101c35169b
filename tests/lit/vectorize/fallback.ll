; What the vectorizer leaves alone keeps the scalar work-item loop (and LLVM's loop vectorizer
; still gets it), with the reason reported: irreducible control flow (two entries into one
; cycle), and a call through a pointer. The whole module stays valid.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s

; CHECK-DAG:   ; weft-vec: irreducible subcfg 0: scalar (irreducible control flow)
; CHECK-DAG:   ; weft-vec: indirect subcfg 0: scalar (an indirect call or inline assembly: %r{{[.i0-9]*}} = call i32 %f{{[.i0-9]*}}(i32 %v{{[.i0-9]*}}))
; CHECK-LABEL: define internal void @weft_wi_irreducible(
; CHECK:       subcfg0.wi.x:
; CHECK:       subcfg0.latch.x:
; CHECK-LABEL: define internal void @weft_wi_indirect(
; CHECK:       subcfg0.wi.x:
; CHECK:         call i32 %f{{[.i0-9]*}}(i32
; CHECK:       subcfg0.latch.x:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @irreducible(ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %o = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %x
  %odd = trunc i64 %x to i1
  br i1 %odd, label %a, label %b
a:
  %ia = phi i64 [ 0, %entry ], [ %ib2, %b ]
  %ia2 = add i64 %ia, 3
  %ca = icmp ult i64 %ia2, 20
  br i1 %ca, label %b, label %done
b:
  %ib = phi i64 [ 1, %entry ], [ %ia2, %a ]
  %ib2 = add i64 %ib, 5
  %cb = icmp ult i64 %ib2, 20
  br i1 %cb, label %a, label %done
done:
  %r = phi i64 [ %ia2, %a ], [ %ib2, %b ]
  store i64 %r, ptr addrspace(1) %o, align 8
  ret void
}

define spir_kernel void @indirect(ptr addrspace(1) %out, i32 %which) #0 !kernel_arg_addr_space !1 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %v = trunc i64 %x to i32
  %c = icmp eq i32 %which, 0
  %f = select i1 %c, ptr @twice, ptr @thrice
  %r = call i32 %f(i32 %v)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i32 @twice(i32)
declare i32 @thrice(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1}
!1 = !{i32 1, i32 0}
