; An atomic add at a varying address, under a divergent branch: it runs lane by lane, lane 0
; first (work-item order), each lane only when its mask bit is set; the old values come back
; as a vector for the lanes that ran.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=8 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; CHECK:       ; weft-vec: k subcfg 0: width {{8|16}} interleave 1 linearized {{.*}} serialized=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.hit{{[.i0-9]*}}:
; CHECK:         [[B0:%[0-9]+]] = extractelement <[[W:8|16]] x i1> [[M:%mask[0-9]+]], i32 0
; CHECK-NEXT:    br i1 [[B0]], label %lane, label %lane.next
; CHECK:       lane:
; CHECK-NEXT:    [[P0:%[0-9]+]] = extractelement <[[W]] x ptr addrspace(1)> [[PTRS:%[^,]+]], i32 0
; CHECK-NEXT:    [[R0:%[0-9]+]] = atomicrmw add ptr addrspace(1) [[P0]], i32 1 seq_cst
; CHECK:       lane.next:
; CHECK-NEXT:    {{%[0-9]+}} = phi i32 [ [[R0]], %lane ], [ poison, %run.hit{{[.i0-9]*}} ]
; CHECK-NEXT:    [[B1:%[0-9]+]] = extractelement <[[W]] x i1> [[M]], i32 1
; CHECK-NEXT:    br i1 [[B1]], label %lane{{[0-9]+}}, label %lane.next{{[0-9]+}}
; CHECK:         extractelement <[[W]] x ptr addrspace(1)> [[PTRS]], i32 1
; CHECK-NEXT:    atomicrmw add
; V3:            extractelement <8 x ptr addrspace(1)> [[PTRS]], i32 7
; V4:            extractelement <16 x ptr addrspace(1)> [[PTRS]], i32 15
; CHECK-NEXT:    atomicrmw add
; CHECK:         %old{{[.i0-9]*}}.v = insertelement <[[W]] x i32>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %bins, ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %p, align 4
  %odd = trunc i32 %v to i1
  br i1 %odd, label %hit, label %done
hit:
  %bin = and i32 %v, 7
  %bp = getelementptr inbounds i32, ptr addrspace(1) %bins, i32 %bin
  %old = atomicrmw add ptr addrspace(1) %bp, i32 1 seq_cst
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %old, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1, i32 1}
