; The generic address space's queries become range tests against the launch context
; (transform/workitem.c): __local is [local_mem (field 5), + local_mem_size (13)), __private
; the thread's stack [stack_lo (15), stack_hi (16)) or the scratch [scratch (6), +
; scratch_size (14)), __global everything else; each to_* gives the pointer cast to its space
; or NULL, get_fence CLK_LOCAL_MEM_FENCE (1) for __local and CLK_GLOBAL_MEM_FENCE (2) otherwise.
; A call of another function with a generic pointer is left alone.
; RUN: weft-opt -pass=lower-workitem -local-size=8 %s | FileCheck %s

; CHECK-LABEL: define internal void @weft_wi_k(
; to_local
; CHECK:         [[P:%[0-9]+]] = ptrtoint ptr addrspace(4) %p.i to i64
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 5
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 13
; CHECK:         [[LO:%[0-9]+]] = ptrtoint ptr %{{[0-9]+}} to i64
; CHECK-NEXT:    [[D:%[0-9]+]] = sub i64 [[P]], [[LO]]
; CHECK-NEXT:    [[IN:%[0-9]+]] = icmp ult i64 [[D]], %{{[0-9]+}}
; CHECK-NEXT:    [[C:%[0-9]+]] = addrspacecast ptr addrspace(4) %p.i to ptr addrspace(3)
; CHECK-NEXT:    select i1 [[IN]], ptr addrspace(3) [[C]], ptr addrspace(3) null
; to_private: stack or scratch
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 15
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 16
; CHECK:         icmp ult
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 6
; CHECK:         getelementptr inbounds {{.*}}, ptr %ctx, i32 0, i32 14
; CHECK:         [[PRIV:%[0-9]+]] = or i1
; CHECK-NEXT:    [[PC:%[0-9]+]] = addrspacecast ptr addrspace(4) %p.i to ptr
; CHECK-NEXT:    select i1 [[PRIV]], ptr [[PC]], ptr null
; to_global: neither
; CHECK:         [[EITHER:%[0-9]+]] = or i1
; CHECK:         [[NEITHER:%[0-9]+]] = xor i1 %{{[0-9]+}}, true
; CHECK-NEXT:    [[GC:%[0-9]+]] = addrspacecast ptr addrspace(4) %p.i to ptr addrspace(1)
; CHECK-NEXT:    select i1 [[NEITHER]], ptr addrspace(1) [[GC]], ptr addrspace(1) null
; get_fence
; CHECK:         %fence = select i1 %{{[0-9]+}}, i32 1, i32 2
; CHECK:         call i32 @other(ptr addrspace(4) %p.i)
; CHECK-NOT:     call {{.*}} @__to_
; CHECK-NOT:     call {{.*}} @_Z9get_fence

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) !kernel_arg_addr_space !0 {
entry:
  %p = addrspacecast ptr addrspace(1) %in to ptr addrspace(4)
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %p)
  store ptr addrspace(3) %l, ptr addrspace(1) %out, align 8
  %q = call ptr @__to_private(ptr addrspace(4) %p)
  store ptr %q, ptr addrspace(1) %out, align 8
  %g = call ptr addrspace(1) @__to_global(ptr addrspace(4) %p)
  store ptr addrspace(1) %g, ptr addrspace(1) %out, align 8
  %f = call i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4) %p)
  store i32 %f, ptr addrspace(1) %out, align 4
  %o = call i32 @other(ptr addrspace(4) %p)
  store i32 %o, ptr addrspace(1) %out, align 4
  ret void
}

declare ptr addrspace(3) @__to_local(ptr addrspace(4))
declare ptr @__to_private(ptr addrspace(4))
declare ptr addrspace(1) @__to_global(ptr addrspace(4))
declare i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4))
declare i32 @other(ptr addrspace(4))

!0 = !{i32 1, i32 1}
