; A load from one of two places chosen per work-item, both contiguous across the packet
; (HotSpot's clamped neighbour in[x == n - 1 ? x : x + 1], also through clang's sign-extension
; idiom, and a select of two pointers), is two masked vector loads, each under the lanes that
; choose its place, and a blend; no gather.
; Choosing between a contiguous place and a strided one stays a gather.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=32 -vectorize=auto - | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 vector_mem=7 scalar_mem=0 gathers=1 {{.*}} choices=3
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         %[[C:[a-z0-9.]+]] = icmp eq <16 x i64> %{{.*}}, %{{.*}}
; CHECK:         %[[NC:[0-9]+]] = xor <16 x i1> %[[C]], <i1 true,
; CHECK:         %[[A:[0-9]+]] = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %{{[0-9]+}}, i32 4, <16 x i1> %[[C]], <16 x float> poison)
; CHECK:         %[[B:[0-9]+]] = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %{{[0-9]+}}, i32 4, <16 x i1> %[[NC]], <16 x float> poison)
; CHECK:         select <16 x i1> %[[C]], <16 x float> %[[A]], <16 x float> %[[B]]
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(
; CHECK:         call <16 x float> @llvm.masked.gather.v16f32.v16p1(
; CHECK:         %[[SA:[0-9]+]] = shl i64 %{{.*}}, 32
; CHECK-NEXT:    %[[BA:[0-9]+]] = ashr i64 %[[SA]], 30
; CHECK-NEXT:    %[[PA:[0-9]+]] = getelementptr i8, ptr addrspace(1) %{{[0-9a-z]+}}, i64 %[[BA]]
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %[[PA]], i32 4, <16 x i1> %[[C]],
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(
; CHECK:         store <16 x float>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %last = sub i64 %n, 1
  %atend = icmp eq i64 %x, %last
  %x1 = add i64 %x, 1
  %e = select i1 %atend, i64 %x, i64 %x1
  %pe = getelementptr inbounds float, ptr addrspace(1) %in, i64 %e
  %ve = load float, ptr addrspace(1) %pe, align 4
  %iszero = icmp eq i64 %x, 0
  %pw0 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %xm = sub i64 %x, 1
  %pw1 = getelementptr inbounds float, ptr addrspace(1) %in, i64 %xm
  %pw = select i1 %iszero, ptr addrspace(1) %pw0, ptr addrspace(1) %pw1
  %vw = load float, ptr addrspace(1) %pw, align 4
  %x2 = shl i64 %x, 1
  %s = select i1 %iszero, i64 %x, i64 %x2
  %ps = getelementptr inbounds float, ptr addrspace(1) %in, i64 %s
  %vs = load float, ptr addrspace(1) %ps, align 4
  %sx = shl i64 %e, 32
  %bx = ashr exact i64 %sx, 30
  %pb = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %bx
  %vb = load float, ptr addrspace(1) %pb, align 4
  %t = fadd float %ve, %vw
  %t2 = fadd float %t, %vb
  %u = fadd float %t2, %vs
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %u, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1, i32 0}
