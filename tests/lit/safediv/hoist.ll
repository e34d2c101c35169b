; Divisions the guard will make safe move up to right after their operands' definitions, out of
; conditional blocks (compiler/safediv.h): LLVM 19 speculates only divisions by constants, and
; its loop vectorizer predicated a uniform remainder left in a divergent block on lane 0 alone
; (tools/fuzz class A). Divisions by safe constants stay where they are.
; RUN: weft-opt -pass=hoist-divisions %s | FileCheck %s
; RUN: weft-opt -pass=guard-divisions %s | FileCheck %s --check-prefix=GUARD

; CHECK-LABEL: define void @k(
; CHECK: entry:
; CHECK-NEXT: %grp = call i64 @_Z12get_group_idj(i32 0)
; CHECK-NEXT: %g32 = trunc i64 %grp to i32
; CHECK-NEXT: %r = urem i32 %g32, %n
; CHECK: then:
; CHECK-NEXT: %x = load i32
; CHECK-NEXT: %y = sdiv i32 %x, %m
; CHECK-NEXT: %c = udiv i32 %x, 3
; CHECK: phi:
; CHECK-NEXT: %p = phi i32
; CHECK-NEXT: %z = udiv i32 %p, %n
; GUARD-LABEL: define void @k(
; GUARD: %[[F:.*]] = freeze i32 %n
; GUARD-NEXT: %[[S:.*]] = call i32 @llvm.umax.i32(i32 %[[F]], i32 1)
; GUARD-NEXT: %r = urem i32 %g32, %[[S]]
; GUARD: then:
define void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n, i32 %m) !kernel_arg_addr_space !0 {
entry:
  %grp = call i64 @_Z12get_group_idj(i32 0)
  %g32 = trunc i64 %grp to i32
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %c0 = icmp eq i64 %lid, 187
  br i1 %c0, label %then, label %phi

then:
  %r = urem i32 %g32, %n
  %x = load i32, ptr addrspace(1) %in
  %y = sdiv i32 %x, %m
  %c = udiv i32 %x, 3
  %s = add i32 %r, %y
  %t = add i32 %s, %c
  br label %phi

phi:
  %p = phi i32 [ %t, %then ], [ 1, %entry ]
  br i1 %c0, label %last, label %done

last:
  %z = udiv i32 %p, %n
  store i32 %z, ptr addrspace(1) %out
  br label %done

done:
  ret void
}

declare i64 @_Z12get_group_idj(i32)
declare i64 @_Z12get_local_idj(i32)

!opencl.kernels = !{}
!0 = !{i32 1, i32 1, i32 0, i32 0}
