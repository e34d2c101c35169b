; A load through a loop counter (vectorize_memory.c, emit_probed_load): j starts at the local
; id and steps by a run-time value, on one of two paths that a branch on loaded data chooses
; between, so the shape analysis cannot follow j across their join (one path per step would be
; affine: vector loads, also with a barrier, whose demoted j gets a uniform base in privatize.c;
; affine-counter-slot.ll) and the plan cannot prove its lanes consecutive; each packet compares
; its lanes' addresses with lane 0's plus the lane times 4 and, when they match (and lane 0 is
; active), loads one vector from lane 0's address under the packet's mask, else gathers. A
; data-dependent address (x[col[j]]) is a plain gather.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized {{.*}}gathers=3
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:         %lane.addr = getelementptr inbounds float, ptr addrspace(1) %0, <16 x i64> %lane.index
; CHECK-NEXT:    [[AI:%[0-9]+]] = ptrtoint <16 x ptr addrspace(1)> %lane.addr to <16 x i64>
; CHECK-NEXT:    [[A0:%[0-9]+]] = extractelement <16 x i64> [[AI]], i32 0
; CHECK:         [[WANT:%[0-9]+]] = add <16 x i64> {{%[0-9]+}}, <i64 0, i64 4, i64 8, i64 12,
; CHECK-NEXT:    [[SAME:%[0-9]+]] = icmp eq <16 x i64> [[AI]], [[WANT]]
; CHECK:         %lanes.consecutive = icmp eq i16
; CHECK-NEXT:    [[LANE0:%[0-9]+]] = extractelement <16 x i1> [[MASK:%mask[0-9]+]], i32 0
; CHECK-NEXT:    [[OK:%[0-9]+]] = and i1 %lanes.consecutive, [[LANE0]]
; CHECK-NEXT:    br i1 [[OK]], label %probe.vector, label %probe.gather
; CHECK:       probe.vector:
; CHECK-NEXT:    [[BASE:%[0-9]+]] = extractelement <16 x ptr addrspace(1)> %lane.addr, i32 0
; CHECK-NEXT:    call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) [[BASE]], i32 4, <16 x i1> [[MASK]],
; CHECK:       probe.gather:
; CHECK-NEXT:    call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> %lane.addr, i32 4, <16 x i1> [[MASK]],
; CHECK:       probe.join:
; CHECK-NEXT:    %v.i.v = phi <16 x float>
; x[col[j]]: gathered straight away
; CHECK:         [[XADDR:%lane.addr[0-9]+]] = getelementptr inbounds float, ptr addrspace(1) %2, <16 x i64>
; CHECK-NEXT:    call <16 x float> @llvm.masked.gather.v16f32.v16p1(<16 x ptr addrspace(1)> [[XADDR]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %val, ptr addrspace(1) %col, ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n, i32 %step) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %lid = trunc i64 %l to i32
  br label %header
header:
  %j = phi i32 [ %lid, %entry ], [ %jn, %latch ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %latch ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %body, label %done
body:
  %jx = sext i32 %j to i64
  %pv = getelementptr inbounds float, ptr addrspace(1) %val, i64 %jx
  %v = load float, ptr addrspace(1) %pv, align 4
  %pc = getelementptr inbounds i32, ptr addrspace(1) %col, i64 %jx
  %c = load i32, ptr addrspace(1) %pc, align 4
  %cx = sext i32 %c to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %cx
  %xv = load float, ptr addrspace(1) %px, align 4
  %m = fmul float %v, %xv
  %s2 = fadd float %sum, %m
  %neg = icmp slt i32 %c, 0
  br i1 %neg, label %left, label %right
left:
  %ja = add nsw i32 %j, %step
  br label %latch
right:
  %jb = add nsw i32 %j, %step
  br label %latch
latch:
  %jn = phi i32 [ %ja, %left ], [ %jb, %right ]
  br label %header
done:
  call void @_Z7barrierj(i32 1)
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l
  store float %sum, ptr addrspace(1) %po, align 4
  ret void
}

declare void @_Z7barrierj(i32)

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1, i32 1, i32 1, i32 0, i32 0}
