; __local variables of the kernel are laid out in ctx->local_mem in order of first use, each at
; its alignment (a 100-byte array then a 16-aligned float4 array at 112; total 176 rounded up to
; 256 = 2 x WEFT_LOCAL_ALIGN so __local arguments can follow). Uses inside constant
; expressions are rewritten too; a __local variable of another kernel is left alone.
; RUN: weft-opt -pass=layout-locals -kernel=k -local-size=16 %s | FileCheck %s

; CHECK:       ; weft: k static_local_size=256 scratch_size=0
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       alloca:
; CHECK-NEXT:    [[P:%[0-9]+]] = getelementptr inbounds { i64, [3 x i64], [3 x i64], [3 x i64], [3 x i64], ptr, ptr, ptr, [3 x i64], [3 x i64], [3 x i64], [3 x i64], ptr, i64, i64, ptr, ptr }, ptr %ctx, i32 0, i32 5
; CHECK-NEXT:    [[BASE:%[0-9]+]] = load ptr, ptr [[P]], align 8, !invariant.load
; CHECK-NEXT:    [[A:%k.bytes]] = getelementptr inbounds i8, ptr [[BASE]], i64 0
; CHECK-NEXT:    [[AC:%[0-9]+]] = addrspacecast ptr [[A]] to ptr addrspace(3)
; CHECK-NEXT:    [[V:%k.vecs]] = getelementptr inbounds i8, ptr [[BASE]], i64 112
; CHECK-NEXT:    [[VC:%[0-9]+]] = addrspacecast ptr [[V]] to ptr addrspace(3)
; CHECK-NEXT:    br label %barrier.entry
; CHECK:         getelementptr inbounds [100 x i8], ptr addrspace(3) [[AC]], i64 0, i64 %lid
; CHECK:         [[CE:%[0-9]+]] = getelementptr inbounds [4 x <4 x float>], ptr addrspace(3) [[VC]], i64 0, i64 2
; CHECK-NEXT:    store <4 x float> {{.*}}, ptr addrspace(3) [[CE]]
; CHECK-NOT:     @k.bytes
; RUN: weft-opt -pass=layout-locals -kernel=k -local-size=16 %s | FileCheck %s --check-prefix=OTHER
; OTHER-LABEL: define spir_kernel void @other(
; OTHER-NEXT:  entry:
; OTHER-NEXT:    store i32 0, ptr addrspace(3) @other.t

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@k.bytes = internal addrspace(3) global [100 x i8] undef, align 1
@k.vecs = internal addrspace(3) global [4 x <4 x float>] undef, align 16
@other.t = internal addrspace(3) global [8 x i32] undef, align 4

define spir_kernel void @k(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %b = getelementptr inbounds [100 x i8], ptr addrspace(3) @k.bytes, i64 0, i64 %lid
  store i8 1, ptr addrspace(3) %b, align 1
  store <4 x float> zeroinitializer, ptr addrspace(3) getelementptr inbounds ([4 x <4 x float>], ptr addrspace(3) @k.vecs, i64 0, i64 2), align 16
  ret void
}

define spir_kernel void @other(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  store i32 0, ptr addrspace(3) @other.t, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)

!0 = !{i32 1}
