; IR shapes of the access relations (analysis/access.h) that OpenCL C rarely produces at this
; stage: `or disjoint`, exact shifts and divisions, masks, phis and selects of one polynomial,
; memory intrinsics, program-scope variables, by-value structs, atomic loads, calls by their
; memory effects. Kernels without !kernel_arg_addr_space take the kind from the address space.
; RUN: weft-opt -pass=print-access %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { i32, [2 x i64] }

@table = internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@counter = internal addrspace(1) global i32 0

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z15get_global_sizej(i32)
declare void @llvm.memcpy.p0.p1.i64(ptr, ptr addrspace(1), i64, i1)
declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1), ptr, i64, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare float @pure_fn(float) memory(none)
declare float @reads_arg(ptr addrspace(1)) memory(argmem: read)

; or disjoint is an add; ashr/lshr/sdiv exact divide every coefficient; a 31+ bit mask is a
; zext of a trunc. Out-of-range dimensions are constants (id 0, size 1).
; CHECK-LABEL: access of @arith: affine
; CHECK-NEXT:    read  arg 0 size 4: 8*gid0 + 4
; CHECK-NEXT:    read  arg 0 size 4: 2*gid0 + 2*arg1
; CHECK-NEXT:    read  arg 0 size 4: 4*gid0 + 4
; CHECK-NEXT:    write arg 0 size 4: 12*gid1 - 12*gsize0
define spir_kernel void @arith(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %two = shl i64 %g, 1
  %odd = or disjoint i64 %two, 1
  %p0 = getelementptr i32, ptr addrspace(1) %a, i64 %odd
  %v0 = load i32, ptr addrspace(1) %p0
  %n64 = sext i32 %n to i64
  %s = add i64 %g, %n64
  %s4 = shl i64 %s, 3
  %h = ashr exact i64 %s4, 2
  %p1 = getelementptr i8, ptr addrspace(1) %a, i64 %h
  %v1 = load i32, ptr addrspace(1) %p1
  %g1 = add i64 %g, 1
  %m = and i64 %g1, 4294967295
  %q = udiv exact i64 %m, 1
  %p2 = getelementptr i32, ptr addrspace(1) %a, i64 %q
  %v2 = load i32, ptr addrspace(1) %p2
  %y = call i64 @_Z13get_global_idj(i32 1)
  %w = call i64 @_Z15get_global_sizej(i32 0)
  %z = call i64 @_Z13get_global_idj(i32 7)
  %one = call i64 @_Z15get_global_sizej(i32 3)
  %d = sub i64 %y, %w
  %d2 = add i64 %d, %z
  %d3 = mul i64 %d2, %one
  %p3 = getelementptr [3 x i32], ptr addrspace(1) %a, i64 %d3
  store i32 %v0, ptr addrspace(1) %p3
  ret void
}

; Shifts and divisions that drop bits are not affine.
; CHECK: access of @inexact: not affine (load %v: address is not an argument plus an affine offset (depends on ashr %h))
define spir_kernel void @inexact(ptr addrspace(1) %a) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %s = shl i64 %g, 1
  %h = ashr exact i64 %s, 2
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %h
  %v = load i32, ptr addrspace(1) %p
  ret void
}

; A phi or select whose incoming values are one polynomial is that polynomial, for integers and
; for pointers; struct fields add their offsets.
; CHECK-LABEL: access of @merges: affine
; CHECK-NEXT:    write arg 0 size 8: 24*gid0 + 16
; CHECK-NEXT:    write arg 0 size 4: 8*gid0 + 8
define spir_kernel void @merges(ptr addrspace(1) %a, i1 %c) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  %i1 = add i64 %g, 1
  %i2 = add i64 1, %g
  %pe = getelementptr inbounds i8, ptr addrspace(1) %a, i64 0
  %pj = getelementptr %struct.S, ptr addrspace(1) %pe, i64 %g, i32 1, i64 1
  br i1 %c, label %then, label %join
then:
  %pt = getelementptr %struct.S, ptr addrspace(1) %a, i64 %g, i32 1, i64 1
  br label %join
join:
  %i = phi i64 [ %i1, %entry ], [ %i2, %then ]
  %p = phi ptr addrspace(1) [ %pj, %entry ], [ %pt, %then ]
  store i64 0, ptr addrspace(1) %p
  %j = select i1 %c, i64 %i, i64 %i2
  %q = getelementptr i64, ptr addrspace(1) %a, i64 %j
  store i32 0, ptr addrspace(1) %q
  ret void
}

; A loop-carried value is not one polynomial, however its incoming values look.
; CHECK: access of @recurrence: not affine (store to %p: address is not an argument plus an affine offset (depends on phi %i))
define spir_kernel void @recurrence(ptr addrspace(1) %a) {
entry:
  %g = call i64 @_Z13get_global_idj(i32 0)
  br label %loop
loop:
  %i = phi i64 [ %g, %entry ], [ %i, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %i
  store i32 0, ptr addrspace(1) %p
  br i1 false, label %loop, label %exit
exit:
  ret void
}

; memcpy/memset of a constant length: a read and a write of that many bytes; private memory,
; constant program data and by-value structs do not count; calls that touch no memory pass.
; CHECK-LABEL: access of @memory: affine
; CHECK-NEXT:    read  arg 0 size 24: 24*gid0
; CHECK-NEXT:    write arg 0 size 24: 24*gid0 + 24
; CHECK-NEXT:    write arg 0 size 16: 0
; CHECK-NOT:     arg
define spir_kernel void @memory(ptr addrspace(1) %a, ptr byval(%struct.S) %s, i64 %k) {
entry:
  %priv = alloca %struct.S
  %g = call i64 @_Z13get_global_idj(i32 0)
  %src = getelementptr %struct.S, ptr addrspace(1) %a, i64 %g
  call void @llvm.memcpy.p0.p1.i64(ptr %priv, ptr addrspace(1) %src, i64 24, i1 false)
  %g1 = add i64 %g, 1
  %dst = getelementptr %struct.S, ptr addrspace(1) %a, i64 %g1
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) %dst, ptr %priv, i64 24, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) %a, i8 0, i64 16, i1 false)
  %t = getelementptr [4 x i32], ptr addrspace(2) @table, i64 0, i64 %k
  %tv = load i32, ptr addrspace(2) %t
  %sv = load i32, ptr %s
  %pv = getelementptr i8, ptr %priv, i64 %k
  store i32 %sv, ptr %pv
  %f = call float @pure_fn(float 1.0)
  ret void
}

; A memcpy of a variable length on global memory.
; CHECK: access of @memcpy_variable: not affine (call to llvm.memcpy.p1.p0.i64: a variable length on global memory)
define spir_kernel void @memcpy_variable(ptr addrspace(1) %a, i64 %n) {
entry:
  %priv = alloca [16 x i8]
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) %a, ptr %priv, i64 %n, i1 false)
  ret void
}

; A call that may read memory.
; CHECK: access of @reads: not affine (call to reads_arg)
define spir_kernel void @reads(ptr addrspace(1) %a) {
entry:
  %f = call float @reads_arg(ptr addrspace(1) %a)
  ret void
}

; A program-scope variable that is not constant.
; CHECK: access of @program_global: not affine (load %0: address is not an argument plus an affine offset (depends on global @counter))
define spir_kernel void @program_global(ptr addrspace(1) %a) {
entry:
  %0 = load i32, ptr addrspace(1) @counter
  ret void
}

; Atomic loads, cmpxchg; unnamed values are named by their slot numbers.
; CHECK: access of @atomic_load: not affine (atomic load %1 on global memory)
define spir_kernel void @atomic_load(ptr addrspace(1) %a) {
entry:
  %0 = call i64 @_Z13get_global_idj(i32 0)
  %1 = load atomic i32, ptr addrspace(1) %a seq_cst, align 4
  ret void
}
; CHECK: access of @cas: not affine (cmpxchg %2 on global memory)
define spir_kernel void @cas(ptr addrspace(1) %0) {
entry:
  %1 = alloca i32
  %2 = cmpxchg ptr addrspace(1) %0, i32 0, i32 1 seq_cst seq_cst
  ret void
}

; A pointer from an integer.
; CHECK: access of @from_int: not affine (store to %p: address is not an argument plus an affine offset (depends on inttoptr %p))
define spir_kernel void @from_int(i64 %x) {
entry:
  %p = inttoptr i64 %x to ptr addrspace(1)
  store i32 0, ptr addrspace(1) %p
  ret void
}

; More terms than a weft_affine holds.
; CHECK: access of @many_terms: not affine (store to %p: offset has more than 8 terms)
define spir_kernel void @many_terms(ptr addrspace(1) %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %h,
                                    i64 %i, i64 %j) {
entry:
  %s1 = add i64 %b, %c
  %s2 = add i64 %s1, %d
  %s3 = add i64 %s2, %e
  %s4 = add i64 %s3, %f
  %s5 = add i64 %s4, %h
  %s6 = add i64 %s5, %i
  %s7 = add i64 %s6, %j
  %s8 = add i64 %s7, 1
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %s8
  store i32 0, ptr addrspace(1) %p
  ret void
}

; No memory at all: affine, nothing listed.
; CHECK-LABEL: access of @nothing: affine
; CHECK-NOT:     arg
define spir_kernel void @nothing(i32 %x) {
entry:
  ret void
}
