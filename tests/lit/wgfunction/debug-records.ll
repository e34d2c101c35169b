; A kernel built with -g: the work function keeps the source locations (!dbg) but none of the
; debug variable records (#dbg_value), neither the kernel's nor those of the functions inlined
; into it; the kernel keeps its own. The passes after it clone and delete blocks: a record in
; front of a terminator that wgloops erased outlived its deleted block in the LLVMContext and
; turned up on whatever block was allocated at the same address next (the ABI wrapper's loop
; header: "PHI Node must not have any attached DbgRecords"), depending on malloc.
; RUN: weft-opt -pass=work-function %s | FileCheck %s
; RUN: weft-opt -pass=wg-function -local-size=8 %s | FileCheck %s --check-prefix=WG

; CHECK-LABEL: define spir_kernel void @k(
; CHECK:         #dbg_value(float %x, [[X:![0-9]+]], !DIExpression(),
; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK-NOT:     #dbg_
; CHECK:         uitofp i64 {{%[^ ]+}} to float, !dbg
; CHECK-NOT:     #dbg_
; CHECK:         fmul float {{%[^ ]+}}, 2.000000e+00, !dbg
; CHECK-NOT:     #dbg_
; CHECK:         ret void
; CHECK-NEXT:  }
; CHECK-NOT:   declare void @llvm.dbg

; WG-LABEL:    define void @weft_wg_k(
; WG-NOT:        #dbg_
; WG:          group:
; WG-NEXT:       %g = phi i64
; WG-NOT:        #dbg_
; WG:            ret void
; WG-NEXT:     }

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %out, float %a) !dbg !5 !kernel_arg_addr_space !20 {
entry:
    #dbg_value(ptr addrspace(1) %out, !8, !DIExpression(), !12)
  %gid = call i64 @_Z13get_global_idj(i32 0), !dbg !13
  %x = uitofp i64 %gid to float, !dbg !13
    #dbg_value(float %x, !9, !DIExpression(), !12)
  br label %loop, !dbg !14

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %v = phi float [ %x, %entry ], [ %v1, %loop ]
    #dbg_value(float %v, !9, !DIExpression(), !12)
  %v1 = call float @twice(float %v), !dbg !14
  %i1 = add nuw nsw i32 %i, 1, !dbg !14
  %done = icmp eq i32 %i1, 16, !dbg !14
    #dbg_value(i32 %i1, !10, !DIExpression(), !12)
    #dbg_value(float %v1, !9, !DIExpression(), !12)
  br i1 %done, label %store, label %loop, !dbg !14

store:
  call void @_Z7barrierj(i32 1), !dbg !15
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid, !dbg !15
  %y = fadd float %v1, %a, !dbg !15
    #dbg_value(float %y, !9, !DIExpression(), !12)
  store float %y, ptr addrspace(1) %p, align 4, !dbg !15
  ret void, !dbg !15
}

define internal float @twice(float %t) !dbg !16 {
entry:
    #dbg_value(float %t, !17, !DIExpression(), !18)
  %r = fmul float %t, 2.000000e+00, !dbg !18
    #dbg_value(float %r, !17, !DIExpression(), !18)
  ret float %r, !dbg !18
}

declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "weft lit", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "debug-records.cl", directory: "/tmp")
!2 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocalVariable(name: "out", arg: 1, scope: !5, file: !1, line: 1, type: !11)
!9 = !DILocalVariable(name: "x", scope: !5, file: !1, line: 3, type: !2)
!10 = !DILocalVariable(name: "i", scope: !5, file: !1, line: 4, type: !19)
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !2, size: 64)
!12 = !DILocation(line: 0, scope: !5)
!13 = !DILocation(line: 3, column: 15, scope: !5)
!14 = !DILocation(line: 4, column: 9, scope: !5)
!15 = !DILocation(line: 6, column: 5, scope: !5)
!16 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 9, type: !6, scopeLine: 9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DILocalVariable(name: "t", arg: 1, scope: !16, file: !1, line: 9, type: !2)
!18 = !DILocation(line: 9, column: 30, scope: !16)
!19 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !{i32 1, i32 0}
