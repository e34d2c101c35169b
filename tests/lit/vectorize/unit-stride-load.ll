; Memory by the shape of its address across work-items: in[x] (unit stride) is one vector load
; from lane 0's address, in[5x] a gather (strides of 2 to 4 elements: strided-access.ll), in[0]
; (uniform) one scalar load for the packet, and out[x] one vector store.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=32 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=32 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 vector_mem=2 scalar_mem=1 gathers=1
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 vector_mem=2 scalar_mem=1 gathers=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         %p{{[.i0-9]*}} = getelementptr inbounds float, ptr addrspace(1) %0, i64 %lid.x.packet
; V3:            %v{{[.i0-9]*}}.v = load <8 x float>, ptr addrspace(1) %p{{[.i0-9]*}}, align 4
; V4:            %v{{[.i0-9]*}}.v = load <16 x float>, ptr addrspace(1) %p{{[.i0-9]*}}, align 4
; V3:            %w{{[.i0-9]*}}.v = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %q{{[.i0-9]*}}.v, i32 4, <8 x i1> <i1 true,
; V4:            %w{{[.i0-9]*}}.v = call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %q{{[.i0-9]*}}.v, i32 4, <16 x i1> <i1 true,
; CHECK:         %u{{[.i0-9]*}} = load float, ptr addrspace(1) %0, align 4
; V3:            store <8 x float> %s{{[.i0-9]*}}.v, ptr addrspace(1) %o{{[.i0-9]*}}, align 4
; V4:            store <16 x float> %s{{[.i0-9]*}}.v, ptr addrspace(1) %o{{[.i0-9]*}}, align 4

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %v = load float, ptr addrspace(1) %p, align 4
  %x2 = mul i64 %x, 5
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x2
  %w = load float, ptr addrspace(1) %q, align 4
  %u = load float, ptr addrspace(1) %in, align 4
  %t = fadd float %v, %w
  %s = fadd float %t, %u
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %s, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1}
