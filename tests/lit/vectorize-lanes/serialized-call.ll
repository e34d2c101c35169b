; A call of an unknown function runs lane by lane (vectorize_lanes.c): once per active lane, in
; work-item order, its argument taken from the lane and its results gathered into a vector.
; Under a divergent branch the linear copy tests each lane's mask bit first (an inactive lane
; calls nothing and contributes poison); the fast path, where every lane runs, calls for lanes
; 0 to 3 straight.
; RUN: weft-opt -pass=wg-loops -local-size=4 -vectorize=4 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 4 interleave 1 linearized {{.*}} serialized=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.then{{[.i0-9]*}}:
; CHECK:         [[B0:%[0-9]+]] = extractelement <4 x i1> [[M:%mask[0-9]+]], i32 0
; CHECK-NEXT:    br i1 [[B0]], label %lane, label %lane.next
; CHECK:       lane:
; CHECK-NEXT:    [[A0:%[0-9]+]] = extractelement <4 x i32> [[V:%[0-9]+]], i32 0
; CHECK-NEXT:    [[R0:%[0-9]+]] = call i32 @ext(i32 [[A0]])
; CHECK:       lane.next:
; CHECK-NEXT:    [[P0:%[0-9]+]] = phi i32 [ [[R0]], %lane ], [ poison, %run.then{{[.i0-9]*}} ]
; CHECK-NEXT:    [[B1:%[0-9]+]] = extractelement <4 x i1> [[M]], i32 1
; CHECK:         extractelement <4 x i32> [[V]], i32 1
; CHECK:         extractelement <4 x i1> [[M]], i32 2
; CHECK:         extractelement <4 x i32> [[V]], i32 2
; CHECK:         extractelement <4 x i1> [[M]], i32 3
; CHECK:         extractelement <4 x i32> [[V]], i32 3
; CHECK-NEXT:    [[R3:%[0-9]+]] = call i32 @ext(
; CHECK:         [[P3:%[0-9]+]] = phi i32 [ [[R3]], %lane{{[0-9]+}} ]
; CHECK-NEXT:    [[I0:%[0-9]+]] = insertelement <4 x i32> poison, i32 [[P0]], i32 0
; CHECK:         %r{{[.i0-9]*}}.v = insertelement <4 x i32> {{%[0-9]+}}, i32 [[P3]], i32 3
; CHECK:         call void @llvm.masked.store.v4i32.p1(<4 x i32> %r{{[.i0-9]*}}.v,
; CHECK:       vec.then{{[.i0-9]*}}:
; CHECK:         [[F0:%[0-9]+]] = extractelement <4 x i32> [[FV:%[0-9]+]], i32 0
; CHECK-NEXT:    {{%[0-9]+}} = call i32 @ext(i32 [[F0]])
; CHECK-NEXT:    [[F1:%[0-9]+]] = extractelement <4 x i32> [[FV]], i32 1
; CHECK-NEXT:    {{%[0-9]+}} = call i32 @ext(i32 [[F1]])
; CHECK-NEXT:    [[F2:%[0-9]+]] = extractelement <4 x i32> [[FV]], i32 2
; CHECK-NEXT:    {{%[0-9]+}} = call i32 @ext(i32 [[F2]])
; CHECK-NEXT:    [[F3:%[0-9]+]] = extractelement <4 x i32> [[FV]], i32 3
; CHECK-NEXT:    {{%[0-9]+}} = call i32 @ext(i32 [[F3]])
; CHECK-NOT:     call i32 @ext
; CHECK:         store <4 x i32> %r{{[.i0-9]*}}.v{{[0-9]+}}, ptr addrspace(1)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  %c = icmp sgt i32 %v, 0
  br i1 %c, label %then, label %done
then:
  %r = call i32 @ext(i32 %v)
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %po, align 4
  br label %done
done:
  ret void
}

declare i32 @ext(i32)
declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1}
