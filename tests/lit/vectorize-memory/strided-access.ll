; Accesses that step 2 to 4 elements per work-item (vectorize_memory.c, small_stride): the
; members of an array of pairs, in[2x] and in[2x+1], are each read as two vector loads over
; the span the packet's lanes touch and one shuffle keeping every other element, instead of a
; gather; the second load is masked so that it ends at the last lane's element (15 of 16
; lanes: the packet reads nothing past in[2*(x0+15)+1]). A store out[3x+2] is three masked
; vector stores of the lanes whose elements fall in each part, the elements between them left
; alone. Under a mask (the tail packet of a local size of 20) they stay gathers and scatters.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=20 -vectorize=auto - | FileCheck %s --check-prefix=TAIL

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 vector_mem=7 scalar_mem=0 gathers=0
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         [[A0:%[0-9a-z.]+]] = load <16 x float>, ptr addrspace(1) %pa{{[.i0-9]*}}, align 4
; CHECK-NEXT:    %strided.part = getelementptr float, ptr addrspace(1) %pa{{[.i0-9]*}}, i64 16
; CHECK-NEXT:    [[A1:%[0-9]+]] = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %strided.part, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false>, <16 x float> zeroinitializer)
; CHECK-NEXT:    [[W:%[0-9]+]] = shufflevector <16 x float> [[A0]], <16 x float> [[A1]], <32 x i32> <i32 0, i32 1,
; CHECK-NEXT:    %strided = shufflevector <32 x float> [[W]], <32 x float> poison, <16 x i32> <i32 0, i32 2, i32 4, i32 6, i32 8, i32 10, i32 12, i32 14, i32 16, i32 18, i32 20, i32 22, i32 24, i32 26, i32 28, i32 30>
; CHECK:         call void @llvm.masked.store.v16f32.p1(<16 x float> {{%[0-9]+}}, ptr addrspace(1) %po{{[.i0-9]*}}, i32 4, <16 x i1> <i1 true, i1 false, i1 false, i1 true, i1 false, i1 false, i1 true,
; CHECK:         call void @llvm.masked.store.v16f32.p1(<16 x float> {{%[0-9]+}}, ptr addrspace(1) %strided.part{{[0-9]+}}, i32 4, <16 x i1> <i1 false, i1 false, i1 true, i1 false, i1 false, i1 true,
; CHECK:         call void @llvm.masked.store.v16f32.p1(<16 x float> {{%[0-9]+}}, ptr addrspace(1) %strided.part{{[0-9]+}}, i32 4, <16 x i1> <i1 false, i1 true, i1 false, i1 false, i1 true,
; CHECK-NOT:     gather
; CHECK-NOT:     scatter
; CHECK:         ret void

; TAIL:          ; weft-vec: k subcfg 0: width 16 interleave 1 tail vector_mem=7 scalar_mem=0 gathers=0
; TAIL:        packet.tail:
; TAIL:          call {{.*}}@llvm.masked.gather.v16f32
; TAIL:          call {{.*}}@llvm.masked.gather.v16f32
; TAIL:          call {{.*}}@llvm.masked.scatter.v16f32

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %x2 = shl i64 %x, 1
  %pa = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x2
  %a = load float, ptr addrspace(1) %pa, align 4
  %x21 = or disjoint i64 %x2, 1
  %pb = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x21
  %b = load float, ptr addrspace(1) %pb, align 4
  %s = fmul float %a, %b
  %x3 = mul i64 %x, 3
  %x32 = add i64 %x3, 2
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x32
  store float %s, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1}
