; Work-group collectives (local size 4x2, N = 8 work-items): each call stores its value into
; in[lid] at the start of ctx->scratch (field 6), meets a barrier, lets the leader (linear
; local id 0) fold in[0..8) in local-id order, meets a second barrier and loads its result:
; res (at byte 32, after eight i32 slots) for reductions and broadcasts, in[lid] for scans,
; which the leader rewrote in place. The scratch reserves those 40 bytes, rounded to 64 (with
; N = 11: res at 44 rounded to 48, 56 bytes, rounded to 64).
; RUN: weft-opt -pass=lower-wg-collectives -local-size=4,2 %s | FileCheck %s
; With N = 11 the chains take in[0..8) and in[8], in[9], in[10] follow one by one.
; RUN: weft-opt -pass=lower-wg-collectives -local-size=11 %s | FileCheck %s --check-prefix=TAIL
; With N = 64 the leader folds vectors: four accumulators of 16 lanes take in[0..64) (lane j
; of accumulator a the element 16a + j), fold pairwise (a with a + 2, then the two), then the
; lanes by halves (8, 4, 2, 1) to lane 0.
; RUN: weft-opt -pass=lower-wg-collectives -local-size=64 %s | FileCheck %s --check-prefix=VEC
; VEC:           wg.leader.loop:
; VEC-COUNT-4:     phi <16 x i32> [ <i32 -2147483648,
; VEC:             load <16 x i32>, ptr %wg.in{{[0-9]+}}, align 4
; VEC:             add i64 %wg.i, 48
; VEC:             add i64 %wg.i, 64
; VEC-NEXT:        icmp ult i64 {{%[0-9]+}}, 64
; VEC:           wg.leader.done:
; VEC-COUNT-3:     select <16 x i1>
; VEC:             shufflevector <16 x i32> {{%[0-9]+}}, <16 x i32> poison, <8 x i32> <i32 0,
; VEC:             shufflevector <16 x i32> {{%[0-9]+}}, <16 x i32> poison, <8 x i32> <i32 8,
; VEC:             shufflevector <2 x i32> {{%[0-9]+}}, <2 x i32> poison, <1 x i32> <i32 1>
; VEC:             extractelement <1 x i32> {{%[0-9]+}}, i64 0
; VEC-NEXT:        %wg.res = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 256
; The exclusive scan (uint add) in vectors of 16: each scanned in four shifted adds (the
; identity, 0, shifted in), then the carry of the vectors before it added, then moved up a lane
; with the carry in lane 0; the next carry is the inclusive vector's lane 15 in every lane.
; VEC:             %wg.carry = phi <16 x i32> [ zeroinitializer, %wg.leader{{[0-9]+}} ]
; VEC:             [[V:%[0-9]+]] = load <16 x i32>, ptr [[P:%wg.in[0-9]+]], align 4
; VEC-NEXT:        shufflevector <16 x i32> [[V]], <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 0, i32 1,
; VEC:             shufflevector <16 x i32> {{%[0-9]+}}, <16 x i32> zeroinitializer, <16 x i32> <i32 16, i32 17, i32 18, i32 19, i32 20, i32 21, i32 22, i32 23, i32 0,
; VEC-NEXT:        [[S:%[0-9]+]] = add <16 x i32>
; VEC-NEXT:        [[I:%[0-9]+]] = add <16 x i32> [[S]], %wg.carry
; VEC-NEXT:        [[E:%[0-9]+]] = shufflevector <16 x i32> [[I]], <16 x i32> %wg.carry, <16 x i32> <i32 16, i32 0, i32 1,
; VEC-NEXT:        store <16 x i32> [[E]], ptr [[P]], align 4
; VEC-NEXT:        shufflevector <16 x i32> [[I]], <16 x i32> poison, <16 x i32> <i32 15, i32 15,
; VEC:             icmp ult i64 {{%[0-9]+}}, 64
; The work-item loops: the sub-CFG between a collective's barriers (the leader) gets no loop
; nest; it runs once per group, as work-item 0. The others loop over x and y.
; RUN: weft-opt -pass=wg-loops -local-size=4,2 %s | FileCheck %s --check-prefix=LOOPS
; LOOPS:       subcfg0.wi.y:
; LOOPS:       subcfg0.wi.x:
; LOOPS:       subcfg1:
; LOOPS-NOT:   subcfg1.wi
; LOOPS:       subcfg1.wg.leader:
; LOOPS:       subcfg2.wi.y:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK:       ; weft: k static_local_size=0 scratch_size=64
; TAIL:        ; weft: k static_local_size=0 scratch_size=64
; TAIL:        wg.leader.done:
; TAIL-COUNT-7:  icmp sgt i32
; TAIL:          getelementptr inbounds i32, ptr {{%[0-9]+}}, i64 8
; TAIL:          getelementptr inbounds i32, ptr {{%[0-9]+}}, i64 9
; TAIL:          getelementptr inbounds i32, ptr {{%[0-9]+}}, i64 10
; TAIL-NEXT:     load i32
; TAIL-NEXT:     icmp sgt i32
; TAIL-NEXT:     select
; TAIL-NEXT:     %wg.res = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 48
; CHECK-LABEL: define internal void @weft_wi_k(
; reduce_max (signed): in[lid] = x, barrier, then the leader folds in[] in eight chains from
; the identity (the smallest int), then pairwise (7 more compares)
; CHECK:         %lid.linear = add i64
; CHECK:         [[S0:%[0-9]+]] = load ptr, ptr {{%[0-9]+}}, align 8, !invariant.load
; CHECK-NEXT:    %wg.in = getelementptr inbounds i32, ptr [[S0]], i64 %lid.linear
; CHECK-NEXT:    store i32 {{%[0-9]+}}, ptr %wg.in
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK:       wg.collective:
; CHECK:         %wg.is.leader = icmp eq i64 %lid.linear{{[0-9]+}}, 0
; CHECK-NEXT:    br i1 %wg.is.leader, label %wg.leader, label %wg.join
; CHECK:       wg.leader.loop:
; CHECK-NEXT:    %wg.i = phi i64 [ 0, %wg.leader ]
; CHECK-COUNT-8: phi i32 [ -2147483648, %wg.leader ]
; CHECK-COUNT-8: icmp sgt i32
; CHECK:         icmp ult i64 {{%[0-9]+}}, 8
; CHECK:       wg.leader.done:
; CHECK-COUNT-7: icmp sgt i32
; CHECK:         %wg.res = getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 32
; CHECK-NEXT:    store i32 {{%[0-9]+}}, ptr %wg.res
; CHECK:       wg.join:
; CHECK-NEXT:    call void @__weft_implicit_barrier()
; CHECK:         %wg.result = load i32, ptr %wg.res{{[0-9]+}}
; exclusive scan (unsigned add): in[0] becomes 0, in[i] the sum before it; the result is in[lid]
; CHECK:       wg.leader{{[0-9]+}}:
; CHECK:         %wg.acc{{[0-9]+}} = load i32, ptr [[FIRST:%wg.in[0-9]+]]
; CHECK-NEXT:    store i32 0, ptr [[FIRST]]
; CHECK:         [[SUM:%[0-9]+]] = add i32 [[ACC:%wg.acc[0-9]+]], {{%[0-9]+}}
; CHECK-NEXT:    store i32 [[ACC]], ptr
; CHECK:         call void @__weft_implicit_barrier()
; CHECK:         %wg.in{{[0-9]+}} = getelementptr inbounds i32, ptr {{%[0-9]+}}, i64 %lid.linear
; CHECK-NEXT:    %wg.result{{[0-9]+}} = load i32
; broadcast of work-item (1, 1): linear id 1 + 1 * 4 = 5 (inside the group: read as it is)
; CHECK:         %wg.in{{[0-9]+}} = getelementptr inbounds i32, ptr {{%[0-9]+}}, i64 5
; float min: llvm.minnum, in float slots
; CHECK:         call float @llvm.minnum.f32(
; all: the predicate as 0/1, and-ed
; CHECK:         [[NZ:%[0-9]+]] = icmp ne i32 {{%[0-9]+}}, 0
; CHECK-NEXT:    zext i1 [[NZ]] to i32
; CHECK:         and i32
; CHECK-NOT:     call {{.*}}@_Z{{[0-9]+}}work_group_
; CHECK:         ret void

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %fout, i32 %x, float %f, i32 %p) !kernel_arg_addr_space !0 {
  %r = call i32 @_Z21work_group_reduce_maxi(i32 %x)
  %s = call i32 @_Z29work_group_scan_exclusive_addj(i32 %x)
  %b = call i32 @_Z20work_group_broadcastimm(i32 %x, i64 1, i64 1)
  %m = call float @_Z21work_group_reduce_minf(float %f)
  %a = call i32 @_Z14work_group_alli(i32 %p)
  %t0 = add i32 %r, %s
  %t1 = add i32 %t0, %b
  %t2 = add i32 %t1, %a
  store i32 %t2, ptr addrspace(1) %out
  store float %m, ptr addrspace(1) %fout
  ret void
}

declare i32 @_Z21work_group_reduce_maxi(i32) #0
declare i32 @_Z29work_group_scan_exclusive_addj(i32) #0
declare i32 @_Z20work_group_broadcastimm(i32, i64, i64) #0
declare float @_Z21work_group_reduce_minf(float) #0
declare i32 @_Z14work_group_alli(i32) #0

attributes #0 = { convergent nounwind }

!0 = !{i32 1, i32 1, i32 0, i32 0, i32 0}
