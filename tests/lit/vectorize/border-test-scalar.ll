; A stencil's border test, `if (i == 0 || i == n - 1) out[i] = in[i]; else out[i] = 2 * in[i]`
; with i the (int) global id: a full packet decides the branch from its first and last lanes
; (i0 and i0 + W-1, when that does not overflow) before any vector of lane ids is built. Each
; equality is "no lane" when its value lies outside [i0, i0 + W-1], the `or` (clang's select
; form) when both are; "every lane" is never true for an equality. Only where the scalars do
; not decide (`lanes.test`) are the lanes compared, from lane ids built there: the ids are not
; computed on the path the scalars decided.
; RUN: sed 's/TARGET_CPU/x86-64-v4/' %s | weft-opt -pass=wg-loops -local-size=64 -vectorize=auto - | FileCheck %s

; CHECK:       ; weft-vec: k subcfg 0: width 16 interleave 1 linearized
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       vec.entry:
; CHECK:         [[R:%[0-9]+]] = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 [[I0:%[a-z0-9.]+]], i32 15)
; CHECK-NEXT:    %last.lane = extractvalue { i32, i1 } [[R]], 0
; CHECK:         icmp ugt i32 0, %last.lane
; CHECK-NEXT:    icmp ult i32 0, [[I0]]
; CHECK:         %lanes.none = and i1
; CHECK:         icmp ugt i32 %nm1{{[.i0-9]*}}, %last.lane{{[0-9]+}}
; CHECK-NEXT:    icmp ult i32 %nm1{{[.i0-9]*}}, [[I0]]
; CHECK:         %lanes.none{{[0-9]+}} = and i1
; CHECK-NEXT:    [[NONE:%[0-9]+]] = and i1 %lanes.none, %lanes.none{{[0-9]+}}
; CHECK-NEXT:    br i1 false, label %vec.then{{.*}}, label %lanes.not.all
; CHECK:       lanes.not.all:
; CHECK-NEXT:    br i1 [[NONE]], label %vec.else{{.*}}, label %lanes.test
; CHECK:       lanes.test:
; CHECK:         add <16 x i32>
; CHECK:         icmp eq <16 x i32>
; CHECK:         %all.lanes = icmp eq i16
; CHECK-NEXT:    %no.lane = icmp eq i16

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 !kernel_arg_addr_space !0 {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %g to i32
  %first = icmp eq i32 %i, 0
  %nm1 = add nsw i32 %n, -1
  %last = icmp eq i32 %i, %nm1
  %border = select i1 %first, i1 true, i1 %last
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  br i1 %border, label %then, label %else
then:
  store float %v, ptr addrspace(1) %o, align 4
  br label %done
else:
  %d = fmul float %v, 2.0
  store float %d, ptr addrspace(1) %o, align 4
  br label %done
done:
  ret void
}

declare i64 @_Z13get_global_idj(i32)

attributes #0 = { "target-cpu"="TARGET_CPU" }
!0 = !{i32 1, i32 1, i32 0}
