; A lane-by-lane atomic on __local memory whose address comes from __global data
; (vectorize_lanes.c, remat_lane): in @hist (a histogram's atomic_inc(&bins[data[x]]), x the
; local id) each lane reloads its own byte of data from lane 0's address plus the lane and
; indexes the bins with it, instead of extracting its address from a vector of pointers. In
; @stored a store to global memory comes between the load and the atomic, so the byte could
; differ from the one the vector load read: the lanes extract their addresses as before.
; (At this stage the atomics are already the plain volatile read-modify-writes of
; localatomics.c.)
; RUN: weft-opt -pass=wg-loops -local-size=4 -vectorize=4 %s | FileCheck %s

; CHECK-DAG:   ; weft-vec: hist subcfg 0: width 4 interleave 1 {{.*}} serialized=1 {{.*}} remat=1
; CHECK-DAG:   ; weft-vec: stored subcfg 0: width 4 interleave 1 {{.*}} serialized=1 {{.*}} remat=0
; CHECK-LABEL: define internal void @weft_wi_hist(
; CHECK:         [[BASE:%pd[.a-z0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %0, i64 %lid.x.packet
; CHECK:         [[A0:%[0-9]+]] = getelementptr i8, ptr addrspace(1) [[BASE]], i64 0
; CHECK-NEXT:    [[D0:%[0-9]+]] = load i8, ptr addrspace(1) [[A0]], align 1
; CHECK-NEXT:    [[Z0:%[0-9]+]] = zext i8 [[D0]] to i64
; CHECK-NEXT:    [[P0:%[0-9]+]] = getelementptr inbounds i32, ptr addrspace(3) %1, i64 [[Z0]]
; CHECK-NEXT:    [[O0:%[0-9]+]] = load volatile i32, ptr addrspace(3) [[P0]]
; CHECK:         [[A3:%[0-9]+]] = getelementptr i8, ptr addrspace(1) [[BASE]], i64 3
; CHECK-NEXT:    [[D3:%[0-9]+]] = load i8, ptr addrspace(1) [[A3]], align 1
; CHECK-NEXT:    [[Z3:%[0-9]+]] = zext i8 [[D3]] to i64
; CHECK-NEXT:    [[P3:%[0-9]+]] = getelementptr inbounds i32, ptr addrspace(3) %1, i64 [[Z3]]
; CHECK-NEXT:    [[O3:%[0-9]+]] = load volatile i32, ptr addrspace(3) [[P3]]
; CHECK-NOT:     extractelement <4 x ptr addrspace(3)>
; CHECK-LABEL: define internal void @weft_wi_stored(
; CHECK:         [[Q0:%[0-9]+]] = extractelement <4 x ptr addrspace(3)> [[PV:%pb[.a-z0-9]+]], i32 0
; CHECK-NEXT:    load volatile i32, ptr addrspace(3) [[Q0]]
; CHECK:         [[Q3:%[0-9]+]] = extractelement <4 x ptr addrspace(3)> [[PV]], i32 3
; CHECK-NEXT:    load volatile i32, ptr addrspace(3) [[Q3]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @hist(ptr addrspace(1) %data, ptr addrspace(3) %bins) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pd = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %x
  %d = load i8, ptr addrspace(1) %pd, align 1
  %z = zext i8 %d to i64
  %pb = getelementptr inbounds i32, ptr addrspace(3) %bins, i64 %z
  %old = atomicrmw volatile add ptr addrspace(3) %pb, i32 1 seq_cst, align 4
  ret void
}

define spir_kernel void @stored(ptr addrspace(1) %data, ptr addrspace(3) %bins) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pd = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %x
  %d = load i8, ptr addrspace(1) %pd, align 1
  %z = zext i8 %d to i64
  %pw = getelementptr inbounds i8, ptr addrspace(1) %data, i64 7
  store i8 0, ptr addrspace(1) %pw, align 1
  %pb = getelementptr inbounds i32, ptr addrspace(3) %bins, i64 %z
  %old = atomicrmw volatile add ptr addrspace(3) %pb, i32 1 seq_cst, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 3}
