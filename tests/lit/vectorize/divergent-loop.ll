; A loop whose trip count differs per work-item (while i < n[x]: i++). Linearized: the loop runs
; while any lane is still in it (its end test ORs nothing but the lanes the back edge took), each
; iteration starts with the loop's block masks cleared, and the PHI's slot is blended, so a lane
; that left keeps its last value.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 linearized
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 linearized
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       lin.loop{{[.i0-9]*}}:
; CHECK-NEXT:    [[M:%mask[0-9]+]] = load <[[W:8|16]] x i1>, ptr [[HSLOT:%mask[0-9]*]]
; CHECK:         br i1 %any{{[0-9]*}}, label %[[HEADER:run.loop[.i0-9]*]], label %[[AFTER:lin.k.exit]]
; CHECK:       lin.body{{[.i0-9]*}}:
; CHECK:         br i1 %any{{[0-9]*}}, label %{{run.body[.i0-9]*}}, label %lin.loop.end
; CHECK:       lin.loop.end:
; CHECK-NEXT:    [[H:%[0-9]+]] = load <[[W]] x i1>, ptr [[HSLOT]]
; CHECK-NEXT:    [[HB:%[0-9]+]] = bitcast <[[W]] x i1> [[H]] to i[[W]]
; CHECK-NEXT:    [[ANY:%any[0-9]*]] = icmp ne i[[W]] [[HB]], 0
; CHECK-NEXT:    br i1 [[ANY]], label %lin.loop{{[.i0-9]*}}, label %[[AFTER]]
; the header clears the masks of its loop: this iteration's lanes are in [[M]]
; CHECK:       [[HEADER]]:
; CHECK-NEXT:    store <[[W]] x i1> zeroinitializer, ptr [[HSLOT]]
; CHECK-NEXT:    store <[[W]] x i1> zeroinitializer, ptr [[BSLOT:%mask[0-9]*]]
; CHECK:         %more{{[.i0-9]*}}.v = icmp slt <[[W]] x i32> [[I:%[0-9]+]],
; CHECK:         [[TAKEN:%[0-9]+]] = select <[[W]] x i1> [[M]], <[[W]] x i1> %more{{[.i0-9]*}}.v, <[[W]] x i1> zeroinitializer
; CHECK:         or <[[W]] x i1> {{%[0-9]+}}, [[TAKEN]]
; CHECK-NEXT:    store <[[W]] x i1> {{%[0-9]+}}, ptr [[BSLOT]]
; CHECK:       run.body{{[.i0-9]*}}:
; CHECK:         %inc{{[.i0-9]*}}.v = add <[[W]] x i32>
; the PHI's slot keeps its old value in the lanes that did not take the back edge
; CHECK:         [[OLD:%[0-9]+]] = load <[[W]] x i32>, ptr [[ISLOT:%vslot.v[0-9]*]]
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select <[[W]] x i1> %mask{{[0-9]+}}, <[[W]] x i32> %inc{{[.i0-9]*}}.v, <[[W]] x i32> [[OLD]]
; CHECK-NEXT:    store <[[W]] x i32> [[NEW]], ptr [[ISLOT]]
; CHECK:         or <[[W]] x i1>
; CHECK-NEXT:    store <[[W]] x i1> {{%[0-9]+}}, ptr [[HSLOT]]
; CHECK-NEXT:    br label %lin.loop.end

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %n, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(1) %n, i64 %x
  %limit = load i32, ptr addrspace(1) %p, align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %body ]
  %more = icmp slt i32 %i, %limit
  br i1 %more, label %body, label %done
body:
  %inc = add i32 %i, 1
  br label %loop
done:
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %i, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1}
