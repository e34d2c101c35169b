; A load whose address is a select made in another block (vectorize_memory.c, choice_places):
; `r[x > 1 ? i - 2 : i]` loaded only under a data-dependent branch, with the select left above
; the branch. Only the select crosses into the branch's block (through its slot); its arms and
; condition do not, so in @k the two places cannot be rebuilt there and the load is a gather
; (before, the vectorizer failed with "internal: no vector form" and the kernel fell back to
; its scalar work-item loops; fuzz/chains.py found it). In @crossing the arm and the condition
; are used in that block too, so they reach it and the load is the two masked vector loads.
; RUN: weft-opt -pass=wg-loops -local-size=32 -vectorize=auto %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 {{.*}} gathers=1 {{.*}} choices=0
; CHECK:       ; weft-vec: crossing subcfg 0: width 16 {{.*}} gathers=0 {{.*}} choices=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         call <16 x float> @llvm.masked.gather.v16f32.v16p1(
; CHECK-LABEL: define internal void @weft_wi_crossing(
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %flag) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pos = icmp sgt i64 %x, 1
  %xm = sub i64 %x, 2
  %e = select i1 %pos, i64 %xm, i64 %x
  %pf = getelementptr inbounds i32, ptr addrspace(1) %flag, i64 %x
  %f = load i32, ptr addrspace(1) %pf, align 4
  %go = icmp ne i32 %f, 0
  br i1 %go, label %then, label %done

then:
  %pe = getelementptr inbounds float, ptr addrspace(1) %in, i64 %e
  %ve = load float, ptr addrspace(1) %pe, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %ve, ptr addrspace(1) %o, align 4
  br label %done

done:
  ret void
}

define spir_kernel void @crossing(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %flag) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pos = icmp sgt i64 %x, 1
  %xm = sub i64 %x, 2
  %e = select i1 %pos, i64 %xm, i64 %x
  %pf = getelementptr inbounds i32, ptr addrspace(1) %flag, i64 %x
  %f = load i32, ptr addrspace(1) %pf, align 4
  %go = icmp ne i32 %f, 0
  br i1 %go, label %then, label %done

then:
  %pe = getelementptr inbounds float, ptr addrspace(1) %in, i64 %e
  %ve = load float, ptr addrspace(1) %pe, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xm
  %keep = zext i1 %pos to i32
  %ok = getelementptr inbounds i32, ptr addrspace(1) %flag, i64 %x
  store i32 %keep, ptr addrspace(1) %ok, align 4
  store float %ve, ptr addrspace(1) %o, align 4
  br label %done

done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1, i32 1}
