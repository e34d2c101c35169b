; A linearized partial packet starts from a mask LLVM cannot fold: the lane count (20 mod 16 =
; 4) comes back through a volatile load and the mask is lanes < count. With the constant
; <4 x true, 12 x false>, InstCombine turned the linear copy's block masks into shuffles with a
; false half, and LLVM 19's X86 backend lost that half of one kept across blocks: the tail packet
; of a local size of 48 (16 of 32 lanes) ran lanes 48..63, and its masked stores wrote past
; their slots (tools/fuzz class C, SIGSEGV). The full packet's unmasked copy needs no mask.
; RUN: weft-opt -pass=wg-loops -local-size=20 -vectorize=auto %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized tail
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         %packet.lanes = alloca i32
; CHECK:       vec.entry:
; CHECK-NOT:     packet.mask
; CHECK:       packet.tail:
; CHECK-NEXT:    store volatile i32 4, ptr %packet.lanes
; CHECK-NEXT:    [[N:%packet.lanes[0-9]*]] = load volatile i32, ptr %packet.lanes
; CHECK-NEXT:    [[I:%[0-9]+]] = insertelement <16 x i32> poison, i32 [[N]], i32 0
; CHECK-NEXT:    [[S:%[0-9]+]] = shufflevector <16 x i32> [[I]], <16 x i32> poison, <16 x i32> zeroinitializer
; CHECK-NEXT:    %packet.mask = icmp ult <16 x i32> <i32 0, i32 1, i32 2, {{.*}}, i32 15>, [[S]]
; CHECK:         store <16 x i1> %packet.mask, ptr %mask
; CHECK-NOT:     store <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 false
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %src, ptr addrspace(1) %dst) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %ps = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %l
  %x = load i32, ptr addrspace(1) %ps, align 4
  %nz = icmp ne i32 %x, 0
  br i1 %nz, label %then, label %exit

then:
  %q = urem i32 23, %x
  br label %exit

exit:
  %r = phi i32 [ %q, %then ], [ 0, %entry ]
  %pd = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %l
  store i32 %r, ptr addrspace(1) %pd, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1}
