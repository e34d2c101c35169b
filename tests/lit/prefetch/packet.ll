; A prefetch in a vectorized packet (transform/vectorize_values.c, emit_prefetch): lanes a few
; bytes apart share their lines, so one prefetch for the packet (@unit: 16 lanes of 4 bytes) or
; two where the packet spans a line (@span: 16 lanes of 8 bytes, lane 0 and the last lane,
; pf.last); one address for every lane, once (@uniform); lanes far apart, the first and the last
; lane's (@far: 256 bytes apart). Never one per lane, as a serialized call would be.
; RUN: weft-opt -pass=wg-loops -kernel=unit -local-size=16 -vectorize=16 %s | FileCheck %s --check-prefix=UNIT
; RUN: weft-opt -pass=wg-loops -kernel=span -local-size=16 -vectorize=16 %s | FileCheck %s --check-prefix=SPAN
; RUN: weft-opt -pass=wg-loops -kernel=uniform -local-size=16 -vectorize=16 %s | FileCheck %s --check-prefix=UNIFORM
; RUN: weft-opt -pass=wg-loops -kernel=far -local-size=16 -vectorize=16 %s | FileCheck %s --check-prefix=FAR

; UNIT-LABEL:  define {{.*}} @weft_wi_unit(
; UNIT-COUNT-1: call void @llvm.prefetch.p1(
; UNIT-NOT:     call void @llvm.prefetch.p1(
; UNIT:         ret void

; SPAN-LABEL:  define {{.*}} @weft_wi_span(
; SPAN:         %pf.last = getelementptr i8, ptr addrspace(1) %{{.*}}, i64 120
; SPAN-COUNT-2: call void @llvm.prefetch.p1(
; SPAN-NOT:     call void @llvm.prefetch.p1(
; SPAN:         ret void

; UNIFORM-LABEL:  define {{.*}} @weft_wi_uniform(
; UNIFORM-COUNT-1: call void @llvm.prefetch.p1(ptr addrspace(1) %1,
; UNIFORM-NOT:     call void @llvm.prefetch.p1(
; UNIFORM:         ret void

; FAR-LABEL:  define {{.*}} @weft_wi_far(
; FAR-COUNT-2: call void @llvm.prefetch.p1(
; FAR-NOT:     call void @llvm.prefetch.p1(
; FAR:         ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @unit(ptr addrspace(1) %a) #0 {
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %lid
  call void @llvm.prefetch.p1(ptr addrspace(1) %p, i32 0, i32 3, i32 1)
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define spir_kernel void @span(ptr addrspace(1) %a) #0 {
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds double, ptr addrspace(1) %a, i64 %lid
  call void @llvm.prefetch.p1(ptr addrspace(1) %p, i32 0, i32 3, i32 1)
  store double 1.0, ptr addrspace(1) %p, align 8
  ret void
}

define spir_kernel void @uniform(ptr addrspace(1) %a, ptr addrspace(1) %b) #0 {
  %lid = call i64 @_Z12get_local_idj(i32 0)
  call void @llvm.prefetch.p1(ptr addrspace(1) %b, i32 0, i32 3, i32 1)
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %lid
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define spir_kernel void @far(ptr addrspace(1) %a) #0 {
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %row = mul i64 %lid, 64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %row
  call void @llvm.prefetch.p1(ptr addrspace(1) %p, i32 0, i32 3, i32 1)
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare void @llvm.prefetch.p1(ptr addrspace(1), i32 immarg, i32 immarg, i32 immarg)

attributes #0 = { "target-cpu"="x86-64-v4" }
