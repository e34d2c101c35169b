; if (in[x] > 0) out[x] = in[x]; else out[x] = -1: a branch on a varying value. The sub-CFG is
; linearized: each block runs under its lane mask (a stored <W x i1> that sroa promotes), is
; skipped when no lane is active, stores only the active lanes (masked stores), and ORs its
; edge masks into its successors'. A full packet first runs an unmasked copy (vec.*) that
; branches like uniform code while all its lanes take the same side (plain vector loads and
; stores), and where they do not, hands over to the masked copy: the two edge masks set (every
; mask was cleared where the packet starts, so a hand-over costs two masks, not one per block),
; and on at the linear position after the branching block.
; RUN: sed 's/TARGET_CPU/x86-64-v3/' %s | weft-opt -pass=wg-loops -local-size=32 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V3
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=32 -vectorize=auto - | FileCheck %s --check-prefixes=CHECK,V4

; V3:          ; weft-vec: k subcfg 0: width 8 interleave 1 linearized vector_mem=3
; V4:          ; weft-vec: k subcfg 0: width 16 interleave 1 linearized vector_mem=3
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       packet.body:
; CHECK-NEXT:    store <{{8|16}} x i1> zeroinitializer, ptr %mask,
; CHECK:         store <{{8|16}} x i1> zeroinitializer, ptr %exit.mask,
; CHECK-NEXT:    br label %vec.entry
; CHECK:       lin.entry:
; V4-NEXT:       [[M:%mask[0-9]*]] = load <16 x i1>, ptr %mask,
; V4-NEXT:       [[B:%[0-9]+]] = bitcast <16 x i1> [[M]] to i16
; V4-NEXT:       %any = icmp ne i16 [[B]], 0
; V3-NEXT:       [[M:%mask[0-9]*]] = load <8 x i1>, ptr %mask,
; V3-NEXT:       [[B:%[0-9]+]] = bitcast <8 x i1> [[M]] to i8
; V3-NEXT:       %any = icmp ne i8 [[B]], 0
; CHECK-NEXT:    br i1 %any, label %[[BODY:run.entry[.i0-9]*]], label %lin.else
; CHECK:       lin.else{{[.i0-9]*}}:
; CHECK:         br i1 %any{{[0-9]+}}, label %{{run.else[.i0-9]*}}, label %lin.then
; CHECK:       lin.then{{[.i0-9]*}}:
; CHECK:       lin.exit:
; CHECK:       [[BODY]]:
; V4:            %v{{[.i0-9]*}}.v = call <16 x float> @llvm.masked.load.v16f32.p1(ptr addrspace(1) %p{{[.i0-9]*}}, i32 4, <16 x i1> [[M]],
; V3:            %v{{[.i0-9]*}}.v = call <8 x float> @llvm.masked.load.v8f32.p1(ptr addrspace(1) %p{{[.i0-9]*}}, i32 4, <8 x i1> [[M]],
; V4:            %pos{{[.i0-9]*}}.v = fcmp ogt <16 x float>
; V3:            %pos{{[.i0-9]*}}.v = fcmp ogt <8 x float>
; V4-NEXT:       [[T:%[0-9]+]] = select <16 x i1> [[M]], <16 x i1> %pos{{[.i0-9]*}}.v, <16 x i1> zeroinitializer
; V3-NEXT:       [[T:%[0-9]+]] = select <8 x i1> [[M]], <8 x i1> %pos{{[.i0-9]*}}.v, <8 x i1> zeroinitializer
; CHECK:         or <{{8|16}} x i1> {{%[0-9]+}}, [[T]]
; V4:            call void @llvm.masked.store.v16f32.p1(<16 x float> <float -1.000000e+00,
; V3:            call void @llvm.masked.store.v8f32.p1(<8 x float> <float -1.000000e+00,
; V4:            call void @llvm.masked.store.v16f32.p1(<16 x float> {{%[0-9]+}}, ptr addrspace(1) {{%[0-9]+}}, i32 4, <16 x i1> %mask{{[0-9]+}})
; V3:            call void @llvm.masked.store.v8f32.p1(<8 x float> {{%[0-9]+}}, ptr addrspace(1) {{%[0-9]+}}, i32 4, <8 x i1> %mask{{[0-9]+}})
; CHECK:       vec.entry:
; CHECK:         %v.i.v{{[0-9]+}} = load <{{8|16}} x float>, ptr addrspace(1)
; CHECK:         %pos.i.v[[P:[0-9]+]] = fcmp ogt
; CHECK-NEXT:    [[PB:%[0-9]+]] = bitcast <{{8|16}} x i1> %pos.i.v[[P]] to i{{8|16}}
; CHECK-NEXT:    %all.lanes = icmp eq i{{8|16}} [[PB]], -1
; CHECK-NEXT:    %no.lane = icmp eq i{{8|16}} [[PB]], 0
; CHECK-NEXT:    br i1 %all.lanes, label %[[THEN:vec.then[.i0-9]*]], label %lanes.split
; CHECK:       vec.else{{[.i0-9]*}}:
; CHECK:         store <{{8|16}} x float> <float -1.000000e+00,
; CHECK:       [[THEN]]:
; CHECK:         store <{{8|16}} x float> %{{[0-9]+}}, ptr addrspace(1)
; CHECK:       lanes.split:
; CHECK-NEXT:    br i1 %no.lane, label %vec.else{{[.i0-9]*}}, label %diverge
; CHECK:       diverge:
; CHECK-NOT:     zeroinitializer, ptr %
; CHECK:         or <{{8|16}} x i1>
; CHECK-NOT:     zeroinitializer, ptr %
; CHECK:         or <{{8|16}} x i1>
; CHECK-NOT:     zeroinitializer, ptr %
; CHECK:         br label %lin.else

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 !kernel_arg_addr_space !0 {
entry:
  %x = call i64 @_Z12get_local_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %x
  %v = load float, ptr addrspace(1) %p, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  %pos = fcmp ogt float %v, 0.0
  br i1 %pos, label %then, label %else
then:
  store float %v, ptr addrspace(1) %o, align 4
  br label %done
else:
  store float -1.0, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z12get_local_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1}
