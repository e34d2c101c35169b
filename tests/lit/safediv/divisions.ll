; Integer divisions cannot trap (compiler/safediv.h): a divisor that may be 0 (or -1 for a
; signed division, with the minimum as dividend) is replaced by 1; constant divisors that are
; safe are left alone.
; RUN: weft-opt -pass=guard-divisions %s | FileCheck %s

; CHECK-LABEL: define i32 @udiv_var(
; CHECK: %[[Z:.*]] = icmp eq i32 %d, 0
; CHECK: %[[S:.*]] = select i1 %[[Z]], i32 1, i32 %d
; CHECK: udiv i32 %a, %[[S]]
define i32 @udiv_var(i32 %a, i32 %d) {
  %q = udiv i32 %a, %d
  ret i32 %q
}

; CHECK-LABEL: define i32 @srem_var(
; CHECK: %[[Z:.*]] = icmp eq i32 %d, 0
; CHECK: %[[M:.*]] = icmp eq i32 %a, -2147483648
; CHECK: %[[N:.*]] = icmp eq i32 %d, -1
; CHECK: %[[O:.*]] = and i1 %[[M]], %[[N]]
; CHECK: %[[B:.*]] = or i1 %[[Z]], %[[O]]
; CHECK: %[[S:.*]] = select i1 %[[B]], i32 1, i32 %d
; CHECK: srem i32 %a, %[[S]]
define i32 @srem_var(i32 %a, i32 %d) {
  %r = srem i32 %a, %d
  ret i32 %r
}

; Vectors (the vectorizer's divisions, float3-style per-work-item ones) lane by lane.
; CHECK-LABEL: define <4 x i64> @sdiv_vec(
; CHECK: icmp eq <4 x i64> %d, zeroinitializer
; CHECK: icmp eq <4 x i64> %a, <i64 -9223372036854775808,
; CHECK: icmp eq <4 x i64> %d, <i64 -1,
; CHECK: %[[S:.*]] = select <4 x i1> %{{.*}}, <4 x i64> <i64 1, i64 1, i64 1, i64 1>, <4 x i64> %d
; CHECK: sdiv <4 x i64> %a, %[[S]]
define <4 x i64> @sdiv_vec(<4 x i64> %a, <4 x i64> %d) {
  %q = sdiv <4 x i64> %a, %d
  ret <4 x i64> %q
}

; Safe constants: nothing added.
; CHECK-LABEL: define i16 @constants(
; CHECK-NEXT: udiv i16 %a, 7
; CHECK-NEXT: sdiv i16 %a, -3
; CHECK-NEXT: urem i16 %a, -1
; CHECK-NEXT: srem <2 x i16> %v, <i16 5, i16 -2>
define i16 @constants(i16 %a, <2 x i16> %v) {
  %x = udiv i16 %a, 7
  %y = sdiv i16 %a, -3
  %z = urem i16 %a, -1
  %w = srem <2 x i16> %v, <i16 5, i16 -2>
  %e = extractelement <2 x i16> %w, i32 0
  %s1 = add i16 %x, %y
  %s2 = add i16 %s1, %z
  %s3 = add i16 %s2, %e
  ret i16 %s3
}

; Unsafe constants: a signed division by -1 (guarded against the minimum dividend), a vector
; with a zero lane (which the builder folds into the divisor).
; CHECK-LABEL: define i32 @unsafe_constants(
; CHECK: icmp eq i32 %a, -2147483648
; CHECK: %[[S:.*]] = select i1 %{{.*}}, i32 1, i32 -1
; CHECK: sdiv i32 %a, %[[S]]
; CHECK: udiv <2 x i32> %v, <i32 3, i32 1>
define i32 @unsafe_constants(i32 %a, <2 x i32> %v) {
  %q = sdiv i32 %a, -1
  %w = udiv <2 x i32> %v, <i32 3, i32 0>
  %e = extractelement <2 x i32> %w, i32 1
  %s = add i32 %q, %e
  ret i32 %s
}

; (weft-opt selects kernels; the pass itself works on the whole module)
define spir_kernel void @k() {
  ret void
}
