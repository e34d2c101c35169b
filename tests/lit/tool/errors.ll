; weft-opt reports errors on stderr with exit status 1: an unknown pass, a bad local size, a
; missing kernel, and a kernel the transformation must refuse (recursion).
; RUN: not weft-opt -pass=no-such-pass %s 2>&1 | FileCheck %s --check-prefix=PASS
; RUN: not weft-opt -pass=wg-function -local-size=0 %s 2>&1 | FileCheck %s --check-prefix=SIZE
; RUN: not weft-opt -pass=wg-function -kernel=nope %s 2>&1 | FileCheck %s --check-prefix=KERNEL
; RUN: not weft-opt -pass=wg-function -kernel=rec %s 2>&1 | FileCheck %s --check-prefix=REC
; RUN: not weft-opt -pass=llvm:no-such-llvm-pass %s 2>&1 | FileCheck %s --check-prefix=LLVM
; PASS:   weft-opt: unknown pass 'no-such-pass'
; SIZE:   weft-opt: bad -local-size '0'
; KERNEL: weft-opt: no kernel named nope in
; REC:    weft-opt: function fact is recursive: recursion is not allowed in OpenCL C
; LLVM:   weft-opt: llvm pipeline 'no-such-llvm-pass':

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @fact(i32 %n) {
entry:
  %small = icmp sle i32 %n, 1
  br i1 %small, label %one, label %more

one:
  ret i32 1

more:
  %m = sub i32 %n, 1
  %r = call i32 @fact(i32 %m)
  %p = mul i32 %n, %r
  ret i32 %p
}

define spir_kernel void @rec(ptr addrspace(1) %out) !kernel_arg_addr_space !0 {
entry:
  %v = load i32, ptr addrspace(1) %out, align 4
  %f = call i32 @fact(i32 %v)
  store i32 %f, ptr addrspace(1) %out, align 4
  ret void
}

!0 = !{i32 1}
