; A reduction under a divergent branch, with two packets interleaved (8x2) and a local size of
; 20 (a full packet of 16, then a masked tail of 4): inactive lanes contribute the identity
; (select on the lane mask), each 8-lane group of the 16-lane packet is its own sub-group
; (one vector.reduce per group, the two results spread back over their lanes), and the same
; code serves the tail under its mask.
; RUN: weft-opt -pass=wg-loops -local-size=20 -vectorize=8x2 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 8 interleave 2 linearized tail
; CHECK:       ; weft-subgroups: k: size 8
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.hit{{[.i0-9]*}}:
; CHECK:         [[X:%[0-9]+]] = select <16 x i1> [[M:%mask[0-9]*]], <16 x i32> {{%[^,]+}}, <16 x i32> zeroinitializer
; CHECK-NEXT:    [[G0:%[0-9]+]] = shufflevector <16 x i32> [[X]], <16 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
; CHECK-NEXT:    [[R0:%[0-9]+]] = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> [[G0]])
; CHECK-NEXT:    [[G1:%[0-9]+]] = shufflevector <16 x i32> [[X]], <16 x i32> poison, <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
; CHECK-NEXT:    [[R1:%[0-9]+]] = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> [[G1]])
; CHECK-NEXT:    [[I0:%[0-9]+]] = insertelement <2 x i32> poison, i32 [[R0]], i32 0
; CHECK-NEXT:    [[I1:%[0-9]+]] = insertelement <2 x i32> [[I0]], i32 [[R1]], i32 1
; CHECK-NEXT:    %r{{[.i0-9]*}}.v = shufflevector <2 x i32> [[I1]], <2 x i32> poison, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1>
; CHECK:       packet.tail:
; CHECK:         select <16 x i1> {{%mask[0-9]*}}, <16 x i32> {{%[^,]+}}, <16 x i32> zeroinitializer
; CHECK:         call i32 @llvm.vector.reduce.add.v8i32
; CHECK-NOT:     call i32 @_Z20sub_group_reduce_addi

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %p, align 4
  %odd = trunc i32 %v to i1
  br i1 %odd, label %hit, label %done
hit:
  %r = call i32 @_Z20sub_group_reduce_addi(i32 %v)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i32 @_Z20sub_group_reduce_addi(i32) #1

attributes #0 = { "target-cpu"="x86-64-v3" }
attributes #1 = { convergent nounwind }
!0 = !{i32 1, i32 1}
