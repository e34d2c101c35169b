; Nine atomics at a varying address under a divergent branch: past a few lane copies
; (SERIAL_UNROLL_MAX), each serialized operation runs as a loop over the packet's lanes, in
; work-item order and only for lanes whose mask bit is set, instead of P unrolled copies in
; every copy of the sub-CFG (CLSmith kernels with hundreds of volatile accesses grew 17-26x and
; took minutes in LLVM's backend). The loop's lane picks the operands out of their vectors and
; puts the result into its place; LLVM is told not to unroll it again. The unmasked copy (all
; lanes agree) runs the same loop without the mask test.
; RUN: weft-opt -pass=wg-loops -local-size=16 -vectorize=auto %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized {{.*}} serialized=9
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.then{{[.i0-9]*}}:
; CHECK:         br label %lanes
; CHECK:       lanes:
; CHECK-NEXT:    %lane = phi i32 [ 0, %run.then{{[.i0-9]*}} ], [ [[NEXT:%[0-9]+]], %lanes.next ]
; CHECK-NEXT:    [[ACC:%[0-9]+]] = phi <16 x i32> [ poison, %run.then{{[.i0-9]*}} ], [ [[AFTER:%o0[.i0-9]*.v]], %lanes.next ]
; CHECK-NEXT:    [[BIT:%[0-9]+]] = extractelement <16 x i1> [[M:%mask[0-9]+]], i32 %lane
; CHECK-NEXT:    br i1 [[BIT]], label %lanes.run, label %lanes.next
; CHECK:       lanes.run:
; CHECK-NEXT:    [[P:%[0-9]+]] = extractelement <16 x ptr addrspace(1)> %{{[0-9]+}}, i32 %lane
; CHECK-NEXT:    [[OLD:%[0-9]+]] = atomicrmw add ptr addrspace(1) [[P]], i32 1 seq_cst
; CHECK-NEXT:    [[INS:%[0-9]+]] = insertelement <16 x i32> [[ACC]], i32 [[OLD]], i32 %lane
; CHECK-NEXT:    br label %lanes.next
; CHECK:       lanes.next:
; CHECK-NEXT:    [[AFTER]] = phi <16 x i32> [ [[INS]], %lanes.run ], [ [[ACC]], %lanes ]
; CHECK-NEXT:    [[NEXT]] = add nuw i32 %lane, 1
; CHECK-NEXT:    [[MORE:%[0-9]+]] = icmp ult i32 [[NEXT]], 16
; CHECK-NEXT:    br i1 [[MORE]], label %lanes, label %lanes.done, !llvm.loop [[LOOP:![0-9]+]]
; CHECK:         atomicrmw add ptr addrspace(1) %{{[0-9]+}}, i32 9 seq_cst
; CHECK-NOT:     atomicrmw
; CHECK:       vec.then{{[.i0-9]*}}:
; CHECK:       lanes{{[0-9]+}}:
; CHECK-NEXT:    %lane{{[0-9]+}} = phi i32
; CHECK-NEXT:    phi <16 x i32>
; CHECK-NEXT:    extractelement <16 x ptr addrspace(1)>
; CHECK-NEXT:    atomicrmw add ptr addrspace(1) %{{[0-9]+}}, i32 1 seq_cst
; CHECK:       [[LOOP]] = distinct !{[[LOOP]], [[DIS:![0-9]+]]}
; CHECK:       [[DIS]] = !{!"llvm.loop.unroll.disable"}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %cnt, ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  %b = and i32 %v, 7
  %bx = zext i32 %b to i64
  %c = getelementptr inbounds i32, ptr addrspace(1) %cnt, i64 %bx
  %hit = icmp sgt i32 %v, 10
  br i1 %hit, label %then, label %done

then:
  %o0 = atomicrmw add ptr addrspace(1) %c, i32 1 seq_cst, align 4
  %s0 = add i32 0, %o0
  %o1 = atomicrmw add ptr addrspace(1) %c, i32 2 seq_cst, align 4
  %s1 = add i32 %s0, %o1
  %o2 = atomicrmw add ptr addrspace(1) %c, i32 3 seq_cst, align 4
  %s2 = add i32 %s1, %o2
  %o3 = atomicrmw add ptr addrspace(1) %c, i32 4 seq_cst, align 4
  %s3 = add i32 %s2, %o3
  %o4 = atomicrmw add ptr addrspace(1) %c, i32 5 seq_cst, align 4
  %s4 = add i32 %s3, %o4
  %o5 = atomicrmw add ptr addrspace(1) %c, i32 6 seq_cst, align 4
  %s5 = add i32 %s4, %o5
  %o6 = atomicrmw add ptr addrspace(1) %c, i32 7 seq_cst, align 4
  %s6 = add i32 %s5, %o6
  %o7 = atomicrmw add ptr addrspace(1) %c, i32 8 seq_cst, align 4
  %s7 = add i32 %s6, %o7
  %o8 = atomicrmw add ptr addrspace(1) %c, i32 9 seq_cst, align 4
  %s8 = add i32 %s7, %o8
  br label %done

done:
  %r = phi i32 [ %s8, %then ], [ -1, %entry ]
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
!0 = !{i32 1, i32 1, i32 1}
