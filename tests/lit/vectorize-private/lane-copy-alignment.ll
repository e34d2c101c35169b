; Each lane's copy of a private variable keeps the variable's alignment, which its accesses
; claim: clang aligns private arrays of 16 bytes or more to 16, and int lut[7] = {...} takes 28
; bytes, so copies back to back put lane 1's at 28, where the initializer's memcpy (as aligned
; 16-byte stores) faulted. The copies are padded to 32 bytes.
; RUN: weft-opt -pass=wg-loops -local-size=32 -vectorize=16 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         [[W:%priv.lanes[0-9]*]] = alloca [16 x { [7 x i32], [4 x i8] }], align 16
; CHECK-NEXT:    %priv.lane.ptrs = getelementptr inbounds [16 x { [7 x i32], [4 x i8] }], ptr [[W]], i64 0, <16 x i64> <i64 0, i64 1,
; CHECK:         call void @llvm.memcpy.p0.p2.i64(ptr align 16 %{{[0-9]+}}, ptr addrspace(2) align 16 @lut, i64 28, i1 false)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@lut = internal addrspace(2) constant [7 x i32] [i32 7, i32 0, i32 7, i32 7, i32 0, i32 7, i32 7], align 16

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %t = alloca [7 x i32], align 16
  %x = call i64 @_Z12get_local_idj(i32 0)
  call void @llvm.memcpy.p0.p2.i64(ptr align 16 %t, ptr addrspace(2) align 16 @lut, i64 28, i1 false)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  %r = urem i32 %v, 7
  %ri = zext i32 %r to i64
  %pt = getelementptr inbounds [7 x i32], ptr %t, i64 0, i64 %ri
  %e = load i32, ptr %pt, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %e, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare void @llvm.memcpy.p0.p2.i64(ptr, ptr addrspace(2), i64, i1)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1}
