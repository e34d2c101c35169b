; A uniform counter carried around a barrier is double-buffered by privatize: the work-items
; of a sub-CFG read the slot and write %uniform.next, and once the sub-CFG's whole work-item
; loop has run, its ".commit" block copies %uniform.next into the slot, exactly once per
; work-group and sub-CFG execution (Kim's uniform update hoisted out of the work-item loop).
; Under the vectorizer the counter stays a scalar stored straight into %uniform.next.
; RUN: weft-opt -pass=wg-loops -local-size=16 %S/../privatize/loop-carried-uniform.ll | FileCheck %s
; RUN: weft-opt -pass=wg-loops -local-size=16 -vectorize=8 %S/../privatize/loop-carried-uniform.ll | FileCheck %s --check-prefix=VEC

; CHECK-LABEL: define internal void @weft_wi_k(
; CHECK:       dispatch:
; CHECK:       subcfg0.commit:
; CHECK-NEXT:    [[V0:%[0-9]+]] = load i32, ptr %uniform.next
; CHECK-NEXT:    store i32 [[V0]], ptr %i.i.slot
; CHECK-NEXT:    br label %dispatch
; CHECK:       subcfg0.latch.x:
; CHECK:         br i1 {{%[0-9]+}}, label %subcfg0.wi.x, label %subcfg0.commit
; CHECK:       subcfg1.commit:
; CHECK-NEXT:    [[V1:%[0-9]+]] = load i32, ptr %uniform.next
; CHECK-NEXT:    store i32 [[V1]], ptr %i.i.slot
; CHECK-NEXT:    br label %dispatch

; VEC: ; weft-vec: k subcfg 1: width 8 interleave 1 {{.*}}masked_blocks=0
; VEC-LABEL: define internal void @weft_wi_k(
; VEC:         store i32 %{{.*}}, ptr %uniform.next
