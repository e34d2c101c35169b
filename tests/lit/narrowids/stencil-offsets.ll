; Narrow ids (compiler/narrowids.h): a variant that assumes global ids below 2^31 - 2^24 turns
; LLVM's shifted form of sext(trunc(gid) + k), ashr((gid << 32) + (k << 32), S), into
; (gid + k) * 2^(32 - S), so that neighbour loads share one base. Offsets k of 2^24 and more,
; shifts other than 32 and shifts of other values are left alone.
; RUN: weft-opt -pass=narrow-ids %s | FileCheck %s

declare i64 @_Z13get_global_idj(i32)

; CHECK: ; weft: narrow-ids rewrote 4
; CHECK-LABEL: define spir_kernel void @jacobi(
; CHECK: %gid = call i64 @_Z13get_global_idj(i32 0)
; CHECK: %[[L:.*]] = add nsw i64 %gid, -1
; CHECK: %[[LS:.*]] = mul nsw i64 %[[L]], 4
; CHECK: getelementptr inbounds i8, ptr %in, i64 %[[LS]]
; CHECK: getelementptr inbounds float, ptr %in, i64 %gid
; CHECK: %[[R:.*]] = add nsw i64 %gid, 1
; CHECK: %[[RS:.*]] = mul nsw i64 %[[R]], 4
; CHECK: getelementptr inbounds i8, ptr %in, i64 %[[RS]]
; CHECK-NOT: ashr
; CHECK: ret void
define spir_kernel void @jacobi(ptr %in, ptr %out) {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %s0 = shl i64 %gid, 32
  %m = add i64 %s0, -4294967296
  %mi = ashr exact i64 %m, 30
  %pm = getelementptr inbounds i8, ptr %in, i64 %mi
  %a = load float, ptr %pm
  %c = ashr exact i64 %s0, 32
  %pc = getelementptr inbounds float, ptr %in, i64 %c
  %b = load float, ptr %pc
  %p = add i64 %s0, 4294967296
  %pi = ashr exact i64 %p, 30
  %pp = getelementptr inbounds i8, ptr %in, i64 %pi
  %d = load float, ptr %pp
  %s1 = fadd float %a, %b
  %s2 = fadd float %s1, %d
  %po = getelementptr inbounds float, ptr %out, i64 %c
  store float %s2, ptr %po
  ret void
}

; CHECK-LABEL: define spir_kernel void @value(
; CHECK: %[[V:.*]] = add nsw i64 %gid, 16777215
; CHECK: store i64 %[[V]], ptr %out
define spir_kernel void @value(ptr %out) {
  %gid = call i64 @_Z13get_global_idj(i32 1)
  %s = shl i64 %gid, 32
  %k = add i64 %s, 72057589742960640   ; (2^24 - 1) << 32
  %v = ashr i64 %k, 32
  store i64 %v, ptr %out
  ret void
}

; CHECK-LABEL: define spir_kernel void @left_alone(
; CHECK: %big = ashr i64 %k, 32
; CHECK: %wide = ashr i64 %s, 33
; CHECK: %low = ashr i64 %j, 30
; CHECK: %other = ashr i64 %t, 32
define spir_kernel void @left_alone(ptr %out, i64 %x) {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %s = shl i64 %gid, 32
  %k = add i64 %s, 72057594037927936   ; 2^24 << 32: past the margin
  %big = ashr i64 %k, 32
  %wide = ashr i64 %s, 33
  %j = add i64 %s, 5                    ; not a multiple of 2^32
  %low = ashr i64 %j, 30
  %t = shl i64 %x, 32
  %other = ashr i64 %t, 32
  %r1 = add i64 %big, %wide
  %r2 = add i64 %r1, %low
  %r3 = add i64 %r2, %other
  store i64 %r3, ptr %out
  ret void
}
