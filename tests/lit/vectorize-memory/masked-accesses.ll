; A packet's loads and stores (vectorize_memory.c), each kind once, under a divergent branch so
; that the linear copy runs them under the block's mask and the fast path without one:
;   in[x], idx[x], out[x]    unit stride: a vector load or store, masked.load / masked.store;
;   tab[idx[x]]              any address: a gather, the inactive lanes' index chosen as 0;
;   odd[2x]                  stride 2: a scatter, likewise; in the fast path, without a mask,
;                            two masked vector stores of every other element (strided-access.ll);
;   *last = x                uniform address, varying value: one scalar store of the last
;                            active lane's value (ctlz of the mask; lane 7 when all run).
; Lane 0's address under a mask drops inbounds (lane 0 may be inactive: weft_vec_scalar_clone).
; RUN: weft-opt -pass=wg-loops -local-size=8 -vectorize=8 %s | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 8 interleave 1 linearized vector_mem=3 scalar_mem=1 gathers=2
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       run.then{{[.i0-9]*}}:
; CHECK:         %px{{[.i0-9]*}} = getelementptr i32, ptr addrspace(1) %{{[0-9]+}}, i64 [[X0:%[0-9]+]]
; CHECK:         %j{{[.i0-9]*}}.v = call <8 x i32> @llvm.masked.load.v8i32.p1(ptr addrspace(1) %px{{[.i0-9]*}}, i32 4, <8 x i1> [[M:%mask[0-9]+]], <8 x i32> zeroinitializer)
; CHECK:         %lane.index = select <8 x i1> [[M]], <8 x i64> %jx{{[.i0-9]*}}.v, <8 x i64> zeroinitializer
; CHECK-NEXT:    %lane.addr = getelementptr inbounds i32, ptr addrspace(1) %{{[0-9]+}}, <8 x i64> %lane.index
; CHECK-NEXT:    %t{{[.i0-9]*}}.v = call <8 x i32> @llvm.masked.gather.v8i32.v8p1(<8 x ptr addrspace(1)> %lane.addr, i32 4, <8 x i1> [[M]], <8 x i32> zeroinitializer)
; CHECK:         call void @llvm.masked.store.v8i32.p1(<8 x i32> %t{{[.i0-9]*}}.v, ptr addrspace(1) %po{{[.i0-9]*}}, i32 4, <8 x i1> [[M]])
; CHECK:         %lane.index{{[0-9]+}} = select <8 x i1> [[M]], <8 x i64> %x2{{[.i0-9]*}}.v, <8 x i64> zeroinitializer
; CHECK-NEXT:    [[A:%lane.addr[0-9]+]] = getelementptr inbounds i32, ptr addrspace(1) %{{[0-9]+}}, <8 x i64> %lane.index{{[0-9]+}}
; CHECK-NEXT:    call void @llvm.masked.scatter.v8i32.v8p1(<8 x i32> %{{[0-9]+}}, <8 x ptr addrspace(1)> [[A]], i32 4, <8 x i1> [[M]])
; CHECK:         [[MB:%[0-9]+]] = bitcast <8 x i1> [[M]] to i8
; CHECK-NEXT:    [[LZ:%[0-9]+]] = call i8 @llvm.ctlz.i8(i8 [[MB]], i1 false)
; CHECK-NEXT:    [[L:%[0-9]+]] = sub i8 7, [[LZ]]
; CHECK-NEXT:    [[LI:%[0-9]+]] = zext i8 [[L]] to i32
; CHECK-NEXT:    [[V:%[0-9]+]] = extractelement <8 x i32> %xi{{[.i0-9]*}}.v, i32 [[LI]]
; CHECK-NEXT:    store i32 [[V]], ptr addrspace(1) %{{[0-9]+}}, align 4
; The fast path: every lane runs, no mask.
; CHECK:       vec.then{{[.i0-9]*}}:
; CHECK:         %j{{[.i0-9]*}}.v{{[0-9]+}} = load <8 x i32>, ptr addrspace(1) %px{{[.i0-9]*}}, align 4
; CHECK:         call <8 x i32> @llvm.masked.gather.v8i32.v8p1(<8 x ptr addrspace(1)> %pt{{[.i0-9]*}}.v{{[0-9]*}}, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>,
; CHECK:         store <8 x i32> %t{{[.i0-9]*}}.v{{[0-9]*}}, ptr addrspace(1) %po{{[.i0-9]*}}, align 4
; CHECK:         call void @llvm.masked.store.v8i32.p1(<8 x i32> %{{[0-9]+}}, ptr addrspace(1) %pd{{[.i0-9]*}}, i32 4, <8 x i1> <i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false>)
; CHECK:         call void @llvm.masked.store.v8i32.p1(<8 x i32> %{{[0-9]+}}, ptr addrspace(1) %strided.part, i32 4, <8 x i1> <i1 true, i1 false, i1 true, i1 false, i1 true, i1 false, i1 true, i1 false>)
; CHECK:         [[V7:%[0-9]+]] = extractelement <8 x i32> %xi{{[.i0-9]*}}.v{{[0-9]*}}, i32 7
; CHECK-NEXT:    store i32 [[V7]], ptr addrspace(1) %{{[0-9]+}}, align 4

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %idx, ptr addrspace(1) %tab, ptr addrspace(1) %out, ptr addrspace(1) %odd, ptr addrspace(1) %last) !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %pi, align 4
  %c = icmp sgt i32 %v, 0
  br i1 %c, label %then, label %done
then:
  %px = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %x
  %j = load i32, ptr addrspace(1) %px, align 4
  %jx = sext i32 %j to i64
  %pt = getelementptr inbounds i32, ptr addrspace(1) %tab, i64 %jx
  %t = load i32, ptr addrspace(1) %pt, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %t, ptr addrspace(1) %po, align 4
  %x2 = shl i64 %x, 1
  %pd = getelementptr inbounds i32, ptr addrspace(1) %odd, i64 %x2
  store i32 %v, ptr addrspace(1) %pd, align 4
  %xi = trunc i64 %x to i32
  store i32 %xi, ptr addrspace(1) %last, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 1}
