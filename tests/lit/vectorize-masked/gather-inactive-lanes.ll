; Gathers under a lane mask choose an address for the lanes that do not run: inactive lanes of
; an address vector may be undef (a value slot keeps undef in the lanes a partly filled packet
; never runs; here 11 of 16 with local size 5), and when a register's worth of the index is
; undef, LLVM 19's X86 backend may give the gather's index and destination one register
; (vpgatherqd (,%zmm0), %ymm0: SIGILL). Pointers chosen per work-item (%p: no common base) are
; selected against null; a GEP of a uniform base with one varying index keeps that form, its
; index selected against 0, so the backend still folds the base into the gather.
; RUN: weft-opt -pass=wg-loops -local-size=5 -vectorize=auto %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized tail {{.*}} gathers=2
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       lin.then{{[.i0-9]*}}:
; CHECK-NEXT:    [[M:%mask[0-9]+]] = load <16 x i1>, ptr %mask
; CHECK:       run.then{{[.i0-9]*}}:
; CHECK-NEXT:    [[P:%[0-9]+]] = load <16 x ptr addrspace(1)>, ptr %vslot
; CHECK:         %lane.addr = select <16 x i1> [[M]], <16 x ptr addrspace(1)> [[P]], <16 x ptr addrspace(1)> zeroinitializer
; CHECK-NEXT:    call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> %lane.addr, i32 4, <16 x i1> [[M]],
; CHECK:         %lane.index = select <16 x i1> [[M]], <16 x i64> %i{{[.i0-9]*}}.v, <16 x i64> zeroinitializer
; CHECK-NEXT:    [[A:%lane.addr[0-9]+]] = getelementptr inbounds i32, ptr addrspace(1) %{{[0-9]+}}, <16 x i64> %lane.index
; CHECK-NEXT:    call <16 x i32> @llvm.masked.gather.v16i32.v16p1(<16 x ptr addrspace(1)> [[A]], i32 4, <16 x i1> [[M]],
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pa = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %x
  %v = load i32, ptr addrspace(1) %pa, align 4
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  %p = select i1 %isodd, ptr addrspace(1) %a, ptr addrspace(1) %b
  %c = icmp sgt i32 %v, 2
  br i1 %c, label %then, label %join

then:
  %w = load i32, ptr addrspace(1) %p, align 4
  %i = sext i32 %v to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %b, i64 %i
  %u = load i32, ptr addrspace(1) %q, align 4
  %s = add i32 %w, %u
  br label %join

join:
  %r = phi i32 [ %s, %then ], [ -1, %entry ]
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1, i32 1}
