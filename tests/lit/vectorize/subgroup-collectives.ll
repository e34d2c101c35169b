; Sub-group collectives in a full packet: the sub-group is the packet's W lanes, so a reduction
; is one horizontal vector.reduce splatted back, an inclusive scan log2(W) shifted combines
; (Hillis-Steele; the shifted-in lanes are the identity, INT_MAX for min), a broadcast from a
; uniform lane one extract (wrapped into the group, frozen: another lane is undefined). No mask:
; every lane is active, so nothing is selected away.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 vector_mem=2
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 vector_mem=2
; V3:          ; weft-subgroups: k: size 8
; V4:          ; weft-subgroups: k: size 16
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       vec.entry:
; CHECK:         [[V:%v[.i0-9]*\.v]] = load <[[W:8|16]] x i32>
; CHECK-NOT:     select
; CHECK-NEXT:    [[R:%[0-9]+]] = call i32 @llvm.vector.reduce.add.v[[W]]i32(<[[W]] x i32> [[V]])
; CHECK:         %r{{[.i0-9]*}}.v = shufflevector <[[W]] x i32> {{%[0-9]+}}, <[[W]] x i32> poison, <[[W]] x i32> zeroinitializer
; V3-NEXT:       [[S1:%[0-9]+]] = shufflevector <8 x i32> [[V]], <8 x i32> <i32 2147483647, {{.*}}>, <8 x i32> <i32 8, i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6>
; V3-NEXT:       [[C1:%[0-9]+]] = call <8 x i32> @llvm.smin.v8i32(<8 x i32> [[V]], <8 x i32> [[S1]])
; V3-NEXT:       [[S2:%[0-9]+]] = shufflevector <8 x i32> [[C1]], {{.*}} <8 x i32> <i32 8, i32 9, i32 0, i32 1,
; V3-NEXT:       [[C2:%[0-9]+]] = call <8 x i32> @llvm.smin.v8i32(<8 x i32> [[C1]], <8 x i32> [[S2]])
; V3-NEXT:       [[S3:%[0-9]+]] = shufflevector <8 x i32> [[C2]], {{.*}} <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 0,
; V3-NEXT:       %s{{[.i0-9]*}}.v = call <8 x i32> @llvm.smin.v8i32(<8 x i32> [[C2]], <8 x i32> [[S3]])
; V4-COUNT-4:    call <16 x i32> @llvm.smin.v16i32
; CHECK-NEXT:    [[E:%[0-9]+]] = extractelement <[[W]] x i32> [[V]], i32 3
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze i32 [[E]]
; CHECK:         %b{{[.i0-9]*}}.v = shufflevector
; CHECK-NOT:     call i32 @_Z

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %p, align 4
  %r = call i32 @_Z20sub_group_reduce_addi(i32 %v)
  %s = call i32 @_Z28sub_group_scan_inclusive_mini(i32 %v)
  %b = call i32 @_Z19sub_group_broadcastij(i32 %v, i32 3)
  %t = add i32 %r, %s
  %u = add i32 %t, %b
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %u, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i32 @_Z20sub_group_reduce_addi(i32) #1
declare i32 @_Z28sub_group_scan_inclusive_mini(i32) #1
declare i32 @_Z19sub_group_broadcastij(i32, i32) #1

attributes #0 = { "target-cpu"="TARGET_CPU" }
attributes #1 = { convergent nounwind }
!0 = !{i32 1, i32 1}
