; A uniform value (a * b: kernel arguments) stays one scalar per packet; the varying value it
; feeds (+ the local id) becomes a vector of W lanes: 8 with AVX2 (x86-64-v3), 16 with AVX-512
; (x86-64-v4), whatever the machine running the test.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 vector_mem=1 scalar_mem=0 gathers=0 serialized=0 masked_blocks=0
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 vector_mem=1 scalar_mem=0 gathers=0 serialized=0 masked_blocks=0
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       packet:
; CHECK-NEXT:    %lid.x.packet = phi i64 [ 0, %subcfg0 ], [ {{%[0-9]+}}, %packet.latch ]
; V3:            %lid.x.lanes = add <8 x i64>
; V4:            %lid.x.lanes = add <16 x i64>
; CHECK:         %ab{{[.i0-9]*}} = fmul float %1, %2
; V3-NEXT:       %xf{{[.i0-9]*}}.v = uitofp <8 x i64> %lid.x.lanes to <8 x float>
; V4-NEXT:       %xf{{[.i0-9]*}}.v = uitofp <16 x i64> %lid.x.lanes to <16 x float>
; V3:            %f{{[.i0-9]*}}.v = fadd <8 x float>
; V4:            %f{{[.i0-9]*}}.v = fadd <16 x float>
; V3:            store <8 x float> %f{{[.i0-9]*}}.v
; V4:            store <16 x float> %f{{[.i0-9]*}}.v
; CHECK:       packet.latch:
; V3-NEXT:       [[N:%[0-9]+]] = add nuw i64 %lid.x.packet, 8
; V4-NEXT:       [[N:%[0-9]+]] = add nuw i64 %lid.x.packet, 16
; CHECK-NEXT:    {{%[0-9]+}} = icmp ult i64 [[N]], 64

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, float %a, float %b) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %ab = fmul float %a, %b
  %xf = uitofp i64 %x to float
  %f = fadd float %ab, %xf
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %f, ptr addrspace(1) %p, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 0, i32 0}
