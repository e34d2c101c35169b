; Local size 20 is not a multiple of the packet: the full packets run unmasked, then one tail
; packet runs the same code with a constant mask of the 20 mod W work-items left (4 with 8 or 16
; lanes), and it continues where the loop would (the kernel exit here).
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=20 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=20 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 tail vector_mem=2
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 tail vector_mem=2
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       vec.entry:
; V3:            load <8 x float>, ptr addrspace(1) %p
; V4:            load <16 x float>, ptr addrspace(1) %p
; CHECK:       packet.latch:
; V3:            [[C:%[0-9]+]] = icmp ult i64 {{%[0-9]+}}, 16
; V4:            [[C:%[0-9]+]] = icmp ult i64 {{%[0-9]+}}, 16
; CHECK-NEXT:    br i1 [[C]], label %packet, label %packet.tail
; CHECK:       packet.tail:
; CHECK:       vec.entry{{[0-9]+}}:
; V3:            %p{{[.i0-9]*}} = getelementptr inbounds float, ptr addrspace(1) %0, i64 16
; V4:            %p{{[.i0-9]*}} = getelementptr inbounds float, ptr addrspace(1) %0, i64 16
; V3:            call <8 x float> @llvm.masked.load.v8f32.p1(ptr addrspace(1) %p{{[.i0-9]*}}, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false>,
; V4:            call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %p{{[.i0-9]*}}, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 false,
; V3:            call void @llvm.masked.store.v8f32.p1(<8 x float> {{%[^,]+}}, ptr addrspace(1) {{%[^,]+}}, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 false,
; V4:            call void @llvm.masked.store.v16f32.p1(<16 x float> {{%[^,]+}}, ptr addrspace(1) {{%[^,]+}}, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 false,
; CHECK:         br label %exit

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %v = load float, ptr addrspace(1) %p, align 4
  %d = fmul float %v, 2.0
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %d, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1}
