; Masked loads and stores whose mask is a constant run of lanes [a, a + k), k a power of two below
; the lane count, become plain loads and stores of just those lanes (compiler/narrowmasks.h):
; x86 forwards those to the next step of a tree reduction, not the masked ones. Other masks stay.
; RUN: weft-opt -pass=narrow-masked-memops %s | FileCheck %s

; Seven of the calls below are rewritten (3 + 2 + 2), none of @kept's.
; CHECK: ; weft: narrow-masked-memops 7

; The first 8 of 16 lanes, the pass-through unused: an <8 x float> load widened with poison.
; CHECK-LABEL: define spir_kernel void @prefix8(
; CHECK: %[[L:.*]] = load <8 x float>, ptr addrspace(3) %p, align 4
; CHECK: shufflevector <8 x float> %[[L]], <8 x float> poison, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 poison,
; CHECK: load <8 x float>, ptr addrspace(3) %q, align 4
; CHECK: %[[S:.*]] = fadd <16 x float>
; CHECK: %[[P:.*]] = shufflevector <16 x float> %[[S]], <16 x float> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
; CHECK: store <8 x float> %[[P]], ptr addrspace(3) %p, align 4
; CHECK-NOT: llvm.masked
; CHECK: ret void
define spir_kernel void @prefix8(ptr addrspace(3) %p) {
  %q = getelementptr inbounds float, ptr addrspace(3) %p, i64 8
  %a = call <16 x float> @llvm.masked.load.v16f32.p3(ptr addrspace(3) %p, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>, <16 x float> poison)
  %b = call <16 x float> @llvm.masked.load.v16f32.p3(ptr addrspace(3) %q, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>, <16 x float> poison)
  %s = fadd <16 x float> %a, %b
  call void @llvm.masked.store.v16f32.p3(<16 x float> %s, ptr addrspace(3) %p, i32 4, <16 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>)
  ret void
}

; One lane: a scalar load put into the pass-through value, a scalar store of that lane.
; CHECK-LABEL: define spir_kernel void @one_lane(
; CHECK: %[[L:.*]] = load i32, ptr addrspace(1) %p, align 16
; CHECK: %[[V:.*]] = insertelement <4 x i32> %pass, i32 %[[L]], i32 0
; CHECK: %[[E:.*]] = extractelement <4 x i32> %v, i32 0
; CHECK: store i32 %[[E]], ptr addrspace(1) %p, align 16
; CHECK: store <4 x i32> %[[V]], ptr %out
define spir_kernel void @one_lane(ptr addrspace(1) %p, <4 x i32> %pass, <4 x i32> %v, ptr %out) {
  %a = call <4 x i32> @llvm.masked.load.v4i32.p1(ptr addrspace(1) %p, i32 16, <4 x i1> <i1 true, i1 false, i1 false, i1 false>, <4 x i32> %pass)
  call void @llvm.masked.store.v4i32.p1(<4 x i32> %v, ptr addrspace(1) %p, i32 16, <4 x i1> <i1 true, i1 false, i1 false, i1 false>)
  store <4 x i32> %a, ptr %out
  ret void
}

; A run in the middle, lanes 4-7 of 8 doubles: 32 bytes in, the alignment what that offset
; keeps of 64; the pass-through's other lanes kept by a second shuffle.
; CHECK-LABEL: define spir_kernel void @middle(
; CHECK: %[[Q:.*]] = getelementptr inbounds i8, ptr %p, i64 32
; CHECK: %[[L:.*]] = load <4 x double>, ptr %[[Q]], align 32
; CHECK: %[[W:.*]] = shufflevector <4 x double> %[[L]], <4 x double> poison, <8 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 0, i32 1, i32 2, i32 3>
; CHECK: shufflevector <8 x double> %[[W]], <8 x double> zeroinitializer, <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 4, i32 5, i32 6, i32 7>
; CHECK: %[[P:.*]] = shufflevector <8 x double> %v, <8 x double> poison, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
; CHECK: %[[R:.*]] = getelementptr inbounds i8, ptr %p, i64 32
; CHECK: store <4 x double> %[[P]], ptr %[[R]], align 32
define spir_kernel void @middle(ptr %p, <8 x double> %v, ptr %out) {
  %a = call <8 x double> @llvm.masked.load.v8f64.p0(ptr %p, i32 64, <8 x i1> <i1 false, i1 false, i1 false, i1 false, i1 true, i1 true, i1 true, i1 true>, <8 x double> zeroinitializer)
  call void @llvm.masked.store.v8f64.p0(<8 x double> %v, ptr %p, i32 64, <8 x i1> <i1 false, i1 false, i1 false, i1 false, i1 true, i1 true, i1 true, i1 true>)
  store <8 x double> %a, ptr %out
  ret void
}

; Left alone: a mask with a gap, a run of three, every lane, a mask that is not a constant, an
; undefined lane, and elements of less than a byte.
; CHECK-LABEL: define spir_kernel void @kept(
; CHECK-COUNT-5: call <8 x float> @llvm.masked.load.v8f32.p0(
; CHECK: call void @llvm.masked.store.v8i1.p0(
define spir_kernel void @kept(ptr %p, <8 x i1> %m, <8 x i1> %bits) {
  %gap = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> <i1 true, i1 false, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false>, <8 x float> poison)
  %three = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false>, <8 x float> poison)
  %all = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> poison)
  %var = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> %m, <8 x float> poison)
  %und = call <8 x float> @llvm.masked.load.v8f32.p0(ptr %p, i32 4, <8 x i1> <i1 true, i1 undef, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>, <8 x float> poison)
  call void @llvm.masked.store.v8i1.p0(<8 x i1> %bits, ptr %p, i32 1, <8 x i1> <i1 true, i1 true, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>)
  ret void
}

declare <16 x float> @llvm.masked.load.v16f32.p3(ptr addrspace(3), i32, <16 x i1>, <16 x float>)
declare void @llvm.masked.store.v16f32.p3(<16 x float>, ptr addrspace(3), i32, <16 x i1>)
declare <4 x i32> @llvm.masked.load.v4i32.p1(ptr addrspace(1), i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p1(<4 x i32>, ptr addrspace(1), i32, <4 x i1>)
declare <8 x double> @llvm.masked.load.v8f64.p0(ptr, i32, <8 x i1>, <8 x double>)
declare void @llvm.masked.store.v8f64.p0(<8 x double>, ptr, i32, <8 x i1>)
declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.store.v8i1.p0(<8 x i1>, ptr, i32, <8 x i1>)
