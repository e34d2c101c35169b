; Integer divisions cannot trap (compiler/safediv.h): a divisor that may be 0 (or -1 for a
; signed division, with the minimum as dividend) is replaced by 1; constant divisors that are
; safe are left alone. The zero guard is umax(freeze(d), 1), never a select whose arm is d:
; LLVM threads a division over a select's arms and takes a constant zero lane of an arm for
; undefined behaviour of the whole vector.
; RUN: weft-opt -pass=guard-divisions %s | FileCheck %s
; RUN: weft-opt -pass=guard-divisions,llvm:instcombine %s | FileCheck %s --check-prefix=OPT

; CHECK-LABEL: define i32 @udiv_var(
; CHECK: %[[F:.*]] = freeze i32 %d
; CHECK: %[[S:.*]] = call i32 @llvm.umax.i32(i32 %[[F]], i32 1)
; CHECK: udiv i32 %a, %[[S]]
define i32 @udiv_var(i32 %a, i32 %d) {
  %q = udiv i32 %a, %d
  ret i32 %q
}

; CHECK-LABEL: define i32 @srem_var(
; CHECK: %[[F:.*]] = freeze i32 %d
; CHECK: %[[Z:.*]] = call i32 @llvm.umax.i32(i32 %[[F]], i32 1)
; CHECK: %[[M:.*]] = icmp eq i32 %a, -2147483648
; CHECK: %[[N:.*]] = icmp eq i32 %[[F]], -1
; CHECK: %[[O:.*]] = and i1 %[[M]], %[[N]]
; CHECK: %[[S:.*]] = select i1 %[[O]], i32 1, i32 %[[Z]]
; CHECK: srem i32 %a, %[[S]]
define i32 @srem_var(i32 %a, i32 %d) {
  %r = srem i32 %a, %d
  ret i32 %r
}

; Vectors (the vectorizer's divisions, float3-style per-work-item ones) lane by lane.
; CHECK-LABEL: define <4 x i64> @sdiv_vec(
; CHECK: %[[F:.*]] = freeze <4 x i64> %d
; CHECK: %[[Z:.*]] = call <4 x i64> @llvm.umax.v4i64(<4 x i64> %[[F]], <4 x i64> <i64 1, i64 1, i64 1, i64 1>)
; CHECK: icmp eq <4 x i64> %a, <i64 -9223372036854775808,
; CHECK: icmp eq <4 x i64> %[[F]], <i64 -1,
; CHECK: %[[S:.*]] = select <4 x i1> %{{.*}}, <4 x i64> <i64 1, i64 1, i64 1, i64 1>, <4 x i64> %[[Z]]
; CHECK: sdiv <4 x i64> %a, %[[S]]
define <4 x i64> @sdiv_vec(<4 x i64> %a, <4 x i64> %d) {
  %q = sdiv <4 x i64> %a, %d
  ret <4 x i64> %q
}

; A masked divisor whose active lanes are never 0 (the vectorizer's `lid != 0 ? x % lid`, lane
; 0 inactive): with `select (d == 0), 1, d` the first InstCombine made every quotient 0. The
; guarded division survives InstCombine (RUN line 2).
; OPT-LABEL: define <4 x i32> @masked_lid(
; OPT: urem <4 x i32> %x,
; CHECK-LABEL: define <4 x i32> @masked_lid(
; CHECK: call <4 x i32> @llvm.umax.v4i32(
define <4 x i32> @masked_lid(i1 %b, <4 x i32> %x, <4 x i32> %old) {
  %m = select i1 %b, <4 x i1> <i1 false, i1 true, i1 true, i1 true>, <4 x i1> zeroinitializer
  %d = select <4 x i1> %m, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 1, i32 1, i32 1, i32 1>
  %q = urem <4 x i32> %x, %d
  %r = select <4 x i1> %m, <4 x i32> %q, <4 x i32> %old
  ret <4 x i32> %r
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
