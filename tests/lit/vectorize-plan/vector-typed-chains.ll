; Packets for work-items that carry vectors of their own (clpeak's float16 kernel: x and y,
; float16 each, updated by dependent FMAs in a loop). The state is 32 registers' worth per W
; lanes: W lanes fill the register file exactly, with one register per component, and the
; packet is W wide. Leaving room for temporaries made it W/2 (8 lanes on AVX-512: half-width
; vectors, half the FMA rate). The work-items' float16 fills a register on either target
; (wide_items: the runtime also times the scalar work-item loops against this code).
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s --check-prefix=V4
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s --check-prefix=V3

; V4:       ; weft-vec: k subcfg 0: width 16 interleave 1 wide_items
; V4-LABEL: define internal void @weft_wi_k(
; V4:       call <256 x float> @llvm.fmuladd.v256f32(
; V3:       ; weft-vec: k subcfg 0: width 4 interleave 1 wide_items
; V3-LABEL: define internal void @weft_wi_k(
; V3:       call <64 x float> @llvm.fmuladd.v64f32(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, float %a) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %xf = uitofp i64 %x to float
  %y1 = insertelement <16 x float> poison, float %xf, i64 0
  %ys = shufflevector <16 x float> %y1, <16 x float> poison, <16 x i32> zeroinitializer
  %a1 = insertelement <16 x float> poison, float %a, i64 0
  %as = shufflevector <16 x float> %a1, <16 x float> poison, <16 x i32> zeroinitializer
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inc, %loop ]
  %xv = phi <16 x float> [ %as, %entry ], [ %x2, %loop ]
  %yv = phi <16 x float> [ %ys, %entry ], [ %y2, %loop ]
  %x1 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %yv, <16 x float> %xv, <16 x float> %yv)
  %y1b = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %x1, <16 x float> %yv, <16 x float> %x1)
  %x2 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %y1b, <16 x float> %x1, <16 x float> %y1b)
  %y2 = call <16 x float> @llvm.fmuladd.v16f32(<16 x float> %x2, <16 x float> %y1b, <16 x float> %x2)
  %inc = add i32 %i, 1
  %more = icmp slt i32 %inc, 8
  br i1 %more, label %loop, label %done
done:
  %e = extractelement <16 x float> %y2, i64 0
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %e, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare <16 x float> @llvm.fmuladd.v16f32(<16 x float>, <16 x float>, <16 x float>)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 0}
