; A switch on a varying value, linearized (vectorize_mask.c): the block mask M splits into one
; edge mask per case, M & (v == case), and what is left for the default, M with every case
; taken out in turn (as select (m, c, false), never `and`: inactive lanes may hold poison). Each
; successor ORs its edge mask into its mask slot; the PHI after the join takes each
; predecessor's value in the lanes of that edge only (a blend into its slot). The fast path
; hands a packet over to the linear copy at any varying switch: it cannot tell a switch's
; agreement from two tests like a branch's.
; RUN: weft-opt -pass=wg-loops -local-size=4 -vectorize=4 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 4 interleave 1 linearized {{.*}} masked_blocks=5
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.entry:
; CHECK:         %v{{[.i0-9]*}}.v = call <4 x i32> @llvm.masked.load.v4i32.p1(ptr addrspace(1) %{{[^,]+}}, i32 4, <4 x i1> [[M:%mask[0-9]+]],
; CHECK-NEXT:    [[EQ1:%[0-9]+]] = icmp eq <4 x i32> %v{{[.i0-9]*}}.v, <i32 1, i32 1, i32 1, i32 1>
; CHECK-NEXT:    [[C1:%[0-9]+]] = select <4 x i1> [[M]], <4 x i1> [[EQ1]], <4 x i1> zeroinitializer
; CHECK-NEXT:    [[N1:%[0-9]+]] = xor <4 x i1> [[EQ1]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT:    [[R1:%[0-9]+]] = select <4 x i1> [[M]], <4 x i1> [[N1]], <4 x i1> zeroinitializer
; CHECK-NEXT:    [[EQ2:%[0-9]+]] = icmp eq <4 x i32> %v{{[.i0-9]*}}.v, <i32 2, i32 2, i32 2, i32 2>
; CHECK-NEXT:    [[C2:%[0-9]+]] = select <4 x i1> [[M]], <4 x i1> [[EQ2]], <4 x i1> zeroinitializer
; CHECK-NEXT:    [[N2:%[0-9]+]] = xor <4 x i1> [[EQ2]], <i1 true, i1 true, i1 true, i1 true>
; CHECK-NEXT:    [[R2:%[0-9]+]] = select <4 x i1> [[R1]], <4 x i1> [[N2]], <4 x i1> zeroinitializer
; default (other), case 1 (one), case 2 (two), in the switch's successor order
; CHECK-NEXT:    [[O0:%[0-9]+]] = load <4 x i1>, ptr [[OTHER:%mask[0-9]+]]
; CHECK-NEXT:    [[O1:%[0-9]+]] = or <4 x i1> [[O0]], [[R2]]
; CHECK-NEXT:    store <4 x i1> [[O1]], ptr [[OTHER]]
; CHECK-NEXT:    [[A0:%[0-9]+]] = load <4 x i1>, ptr [[ONE:%mask[0-9]+]]
; CHECK-NEXT:    [[A1:%[0-9]+]] = or <4 x i1> [[A0]], [[C1]]
; CHECK-NEXT:    store <4 x i1> [[A1]], ptr [[ONE]]
; CHECK-NEXT:    [[B0:%[0-9]+]] = load <4 x i1>, ptr [[TWO:%mask[0-9]+]]
; CHECK-NEXT:    [[B1:%[0-9]+]] = or <4 x i1> [[B0]], [[C2]]
; CHECK-NEXT:    store <4 x i1> [[B1]], ptr [[TWO]]
; CHECK:       run.one{{[.i0-9]*}}:
; CHECK-NEXT:    [[OLD:%[0-9]+]] = load <4 x i32>, ptr [[PHI:%vslot.v[0-9]*]]
; CHECK-NEXT:    [[NEW:%[0-9]+]] = select <4 x i1> %mask{{[0-9]+}}, <4 x i32> <i32 10, i32 10, i32 10, i32 10>, <4 x i32> [[OLD]]
; CHECK-NEXT:    store <4 x i32> [[NEW]], ptr [[PHI]]
; CHECK:       vec.entry:
; CHECK-NOT:     switch
; CHECK:         br label %diverge
; CHECK:       diverge:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  switch i32 %v, label %other [
    i32 1, label %one
    i32 2, label %two
  ]
one:
  br label %done
two:
  br label %done
other:
  br label %done
done:
  %r = phi i32 [ 10, %one ], [ 20, %two ], [ 30, %other ]
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1}
