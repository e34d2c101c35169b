; Shapes of index arithmetic: get_global_id(0)*2+1 is affine with stride 2 (and the float
; pointer built from it 8 bytes), gid - lid is uniform, get_local_id(0)/32 is varying (equal
; for runs of 32 work-items: no affine form describes it), and loads through __constant and
; __global pointers at a uniform address are uniform (even after the kernel stored to that
; buffer: work-items reading one address alike could only disagree through a data race).
; RUN: weft-opt -pass=print-shapes %s | FileCheck %s

; CHECK-LABEL: shapes of @k:
; CHECK-NEXT:    %gid: affine(dim 0, stride 1)
; CHECK-NEXT:    %lid: affine(dim 0, stride 1)
; CHECK-NEXT:    %mul: affine(dim 0, stride 2)
; CHECK-NEXT:    %add: affine(dim 0, stride 2)
; CHECK-NEXT:    %p: affine(dim 0, stride 8)
; CHECK-NEXT:    %base: uniform
; CHECK-NEXT:    %div: varying
; CHECK-NEXT:    %lc: uniform
; CHECK-NEXT:    %lg: uniform
; CHECK-NEXT:    %ly: affine(dim 1, stride 1)
; CHECK-NEXT:    %row: affine(dim 1, stride %n)

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)

define spir_kernel void @k(ptr addrspace(1) %a, ptr addrspace(2) %c, i64 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %mul = mul i64 %gid, 2
  %add = add i64 %mul, 1
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %add
  store float 1.0, ptr addrspace(1) %p
  %base = sub i64 %gid, %lid
  %div = udiv i64 %lid, 32
  %lc = load i64, ptr addrspace(2) %c
  %lg = load i64, ptr addrspace(1) %a
  %ly = call i64 @_Z12get_local_idj(i32 1)
  %row = mul i64 %n, %ly
  ret void
}
