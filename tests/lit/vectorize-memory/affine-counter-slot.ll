; A loop counter in a kernel with a barrier (privatize.c, affine_slot_bases): j starts at the
; local id and steps by a run-time value, so it is affine; demotion (demote.c) puts it and its
; phi in stack slots, used by one sub-CFG only, and privatize gives each a uniform base that
; every reload adds the local id back to. The vectorizer then keeps the slots scalar and loads
; val[j] as one vector per packet, where a slot of lanes made every load through j a probed
; gather (probed-load.ll). The data-dependent x[col[j]] stays a gather; no probe is left.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=16 -vectorize=auto - | FileCheck %s
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=privatize -local-size=16 -vectorize=auto - | FileCheck %s --check-prefix=PRIV

; PRIV:        ; weft: k {{.*}} recomputed=1 affine_bases=2
; PRIV-LABEL:  define internal void @weft_wi_k(
; PRIV:          [[B:%base[0-9]*]] = sub i32 %lid.i, {{%[0-9]+}}
; PRIV-NEXT:     store i32 [[B]], ptr %j.i.phi
; PRIV:          %j.i = load i32, ptr %j.i.phi
; PRIV:          [[R:%recomputed[0-9]*]] = add i32 %j.i, {{%[0-9]+}}
; PRIV:          [[B2:%base[0-9]*]] = sub i32 [[R]], {{%[0-9]+}}
; PRIV-NEXT:     store i32 [[B2]], ptr %j.i.slot

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized {{.*}}gathers=1
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK-NOT:     %lanes.consecutive
; CHECK:         call <16 x float> @llvm.masked.load.v16f32.p1(
; CHECK:         call <16 x float> @llvm.masked.gather.v16f32.v16p1(
; CHECK-NOT:     %lanes.consecutive

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %val, ptr addrspace(1) %col, ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n, i32 %step) #0 !kernel_arg_addr_space !0 {
entry:
  %l = call i64 @_Z12get_local_idj(i32 0)
  %lid = trunc i64 %l to i32
  br label %header
header:
  %j = phi i32 [ %lid, %entry ], [ %jn, %body ]
  %sum = phi float [ 0.0, %entry ], [ %s2, %body ]
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
  %jn = add nsw i32 %j, %step
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
