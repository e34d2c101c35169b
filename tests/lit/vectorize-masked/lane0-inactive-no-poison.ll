; Under a lane mask, the first lane of an affine value may belong to a work-item that does not
; run the block, yet the active lanes' addresses are computed from it: its scalar copy must be
; the plain arithmetic, never poison. if (x >= 0 && x < n) dst[x] = src[x] with x = lid - shift
; (Rodinia's pathfinder at its left border): LLVM made the sext of x a `zext nneg`, which for a
; negative first lane the backend zero-extends, 2^32 elements past the packet. The masked copy
; sign-extends and drops inbounds; the unmasked copy (all lanes inside the guard) keeps both.
; RUN: weft-opt -pass=wg-loops -local-size=32 -vectorize=auto %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized vector_mem=2
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.then{{[.i0-9]*}}:
; CHECK-NOT:     zext nneg i32
; CHECK:         [[I:%i[.i0-9]*]] = sext i32 %{{[0-9]+}} to i64
; CHECK:         [[PS:%ps[.i0-9]*]] = getelementptr i32, ptr addrspace(1) %0, i64 [[I]]
; CHECK:         call <16 x i32> @llvm.masked.load.v16i32.p1(ptr addrspace(1) [[PS]], i32 4,
; CHECK:         [[PD:%pd[.i0-9]*]] = getelementptr i32, ptr addrspace(1) %1, i64 [[I]]
; CHECK:         call void @llvm.masked.store.v16i32.p1(<16 x i32> %{{[^,]+}}, ptr addrspace(1) [[PD]], i32 4,
; CHECK:       vec.then{{[.i0-9]*}}:
; CHECK:         [[J:%i[.i0-9]*]] = zext nneg i32 %{{[0-9]+}} to i64
; CHECK:         getelementptr inbounds i32, ptr addrspace(1) %0, i64 [[J]]
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %shift, i32 %n) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %t = trunc i64 %l to i32
  %x = sub nsw i32 %t, %shift
  %ge = icmp sgt i32 %x, -1
  %lt = icmp slt i32 %x, %n
  %in = and i1 %ge, %lt
  br i1 %in, label %then, label %exit

then:
  %i = zext nneg i32 %x to i64
  %ps = getelementptr inbounds i32, ptr addrspace(1) %src, i64 %i
  %v = load i32, ptr addrspace(1) %ps, align 4
  %pd = getelementptr inbounds i32, ptr addrspace(1) %dst, i64 %i
  store i32 %v, ptr addrspace(1) %pd, align 4
  br label %exit

exit:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1, i32 0, i32 0}
