; A work-item's vector arithmetic is split into its components before the vectorizer across
; work-items (compiler/scalarize.h): @diff's float3 difference and its dot product become
; scalar operations on the components (the float4 load and store stay whole), and vectorized
; each component is one vector of the packet's lanes (<16 x float> with 16 lanes), not a
; lane-by-lane <48 x float> that needs shuffles to pick the components apart. A kernel holding a
; vector of W x 32 bits (@wide: float16, a register-wide work-item) is left as it is, in the
; same module; one without vector arithmetic (@plain) has nothing to split.
; RUN: weft-opt -pass=scalarize-vector-ops -kernel=diff -vectorize=16 %s | FileCheck %s --check-prefix=SPLIT
; RUN: weft-opt -pass=scalarize-vector-ops -kernel=wide -vectorize=16 %s | FileCheck %s --check-prefix=WIDE
; RUN: weft-opt -pass=scalarize-vector-ops,wg-loops -kernel=diff -local-size=16 -vectorize=16 %s | FileCheck %s --check-prefix=VEC
; RUN: weft-opt -pass=scalarize-vector-ops -kernel=plain -vectorize=16 %s | FileCheck %s --check-prefix=PLAIN

; SPLIT:       ; weft: scalarize-vector-ops diff: split
; SPLIT-LABEL: define spir_kernel void @diff(
; SPLIT:         load <4 x float>, ptr addrspace(1)
; SPLIT-NOT:     fsub <3 x float>
; SPLIT:         fsub float
; SPLIT:         fsub float
; SPLIT:         fsub float
; SPLIT-NOT:     fmul <3 x float>
; SPLIT:         store <4 x float>

; WIDE:        ; weft: scalarize-vector-ops wide: kept (a register-wide vector)
; WIDE-LABEL:  define spir_kernel void @wide(
; WIDE:          fmul <16 x float>

; PLAIN:       ; weft: scalarize-vector-ops plain: no vector arithmetic

; VEC-LABEL:   define internal void @weft_wi_diff(
; VEC:           fsub <16 x float>
; VEC-NOT:       fsub <48 x float>
; VEC-NOT:       fmul <48 x float>

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @diff(ptr addrspace(1) %pos, ptr addrspace(1) %out, <4 x float> %c) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %pp = getelementptr inbounds <4 x float>, ptr addrspace(1) %pos, i64 %gid
  %p = load <4 x float>, ptr addrspace(1) %pp, align 16
  %p3 = shufflevector <4 x float> %p, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %c3 = shufflevector <4 x float> %c, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %r = fsub <3 x float> %c3, %p3
  %r2 = fmul <3 x float> %r, %r
  %x = extractelement <3 x float> %r2, i64 0
  %y = extractelement <3 x float> %r2, i64 1
  %z = extractelement <3 x float> %r2, i64 2
  %xy = fadd float %x, %y
  %d2 = fadd float %xy, %z
  %s = insertelement <3 x float> poison, float %d2, i64 0
  %ss = shufflevector <3 x float> %s, <3 x float> poison, <3 x i32> zeroinitializer
  %a = fmul <3 x float> %r, %ss
  %a4 = shufflevector <3 x float> %a, <3 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  %a4w = insertelement <4 x float> %a4, float 0.0, i64 3
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %gid
  store <4 x float> %a4w, ptr addrspace(1) %po, align 16
  ret void
}

define spir_kernel void @wide(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds <16 x float>, ptr addrspace(1) %in, i64 %gid
  %v = load <16 x float>, ptr addrspace(1) %pi, align 64
  %w = fmul <16 x float> %v, %v
  %po = getelementptr inbounds <16 x float>, ptr addrspace(1) %out, i64 %gid
  store <16 x float> %w, ptr addrspace(1) %po, align 64
  ret void
}

define spir_kernel void @plain(ptr addrspace(1) %out) #0 {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float 1.0, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" }
