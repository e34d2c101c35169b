/* tests/unit/test_linear.c — constant distances between addresses (compiler/analysis/linear.c):
 * through GEPs, sext/zext distributed over adds that cannot wrap, and not over those that can. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <llvm-c/Target.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/linear.h"

static const char *ir =
    "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\n"
    "%pair = type { i32, float }\n"
    "define void @f(ptr addrspace(1) %A, ptr addrspace(1) %B, i32 %i, i32 %n, i32 %j, i64 %k) {\n"
    "entry:\n"
    "  %row = mul nsw i32 %i, %n\n"
    /* A[row + j] and A[row + (j + 1)] with nsw: 4 bytes apart */
    "  %i0 = add nsw i32 %row, %j\n  %s0 = sext i32 %i0 to i64\n"
    "  %p0 = getelementptr inbounds float, ptr addrspace(1) %A, i64 %s0\n"
    "  %j1 = add nuw nsw i32 %j, 1\n  %i1 = add nsw i32 %row, %j1\n  %s1 = sext i32 %i1 to i64\n"
    "  %p1 = getelementptr inbounds float, ptr addrspace(1) %A, i64 %s1\n"
    /* the same without nsw: the 32-bit add may wrap, so no known distance */
    "  %w1 = add i32 %i0, 1\n  %sw = sext i32 %w1 to i64\n"
    "  %pw = getelementptr inbounds float, ptr addrspace(1) %A, i64 %sw\n"
    /* another array: different roots */
    "  %pb = getelementptr inbounds float, ptr addrspace(1) %B, i64 %s0\n"
    /* 64-bit indices, a struct field, a constant offset folded through a second GEP */
    "  %q0 = getelementptr inbounds %pair, ptr addrspace(1) %A, i64 %k, i32 1\n"
    "  %k3 = add i64 %k, 3\n"
    "  %q1 = getelementptr inbounds %pair, ptr addrspace(1) %A, i64 %k3, i32 0\n"
    "  %q2 = getelementptr inbounds i8, ptr addrspace(1) %q1, i64 -4\n"
    /* shl and mul by constants scale the term */
    "  %j2 = shl nsw i32 %j, 1\n  %t2 = sext i32 %j2 to i64\n"
    "  %r0 = getelementptr inbounds float, ptr addrspace(1) %A, i64 %t2\n"
    "  %jp = add nsw i32 %j, 3\n  %j6 = mul nsw i32 %jp, 2\n  %t6 = sext i32 %j6 to i64\n"
    "  %r1 = getelementptr inbounds float, ptr addrspace(1) %A, i64 %t6\n"
    "  ret void\n"
    "}\n";

static void test_distances(void **state)
{
    (void)state;
    struct test_ir t = test_ir_parse(ir);
    LLVMValueRef fn = test_ir_fn(&t, "f");
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    int64_t d = 0;
    assert_true(weft_linear_distance(td, test_ir_value(fn, "p0"), test_ir_value(fn, "p1"), &d));
    assert_int_equal(d, 4);
    assert_true(weft_linear_distance(td, test_ir_value(fn, "p1"), test_ir_value(fn, "p0"), &d));
    assert_int_equal(d, -4);
    assert_false(weft_linear_distance(td, test_ir_value(fn, "p0"), test_ir_value(fn, "pw"), &d));
    assert_false(weft_linear_distance(td, test_ir_value(fn, "p0"), test_ir_value(fn, "pb"), &d));
    /* { i32, float } is 8 bytes: field 1 of k is at 8k + 4, field 0 of k + 3 at 8k + 24, less 4 */
    assert_true(weft_linear_distance(td, test_ir_value(fn, "q0"), test_ir_value(fn, "q2"), &d));
    assert_int_equal(d, 16);
    /* 4 * 2j and 4 * 2(j + 3) */
    assert_true(weft_linear_distance(td, test_ir_value(fn, "r0"), test_ir_value(fn, "r1"), &d));
    assert_int_equal(d, 24);
    test_ir_dispose(&t);
}

static void test_coefficients(void **state)
{
    (void)state;
    struct test_ir t = test_ir_parse(ir);
    LLVMValueRef fn = test_ir_fn(&t, "f");
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    LLVMValueRef j = LLVMGetParam(fn, 4);
    int64_t c = 0;
    assert_true(weft_linear_coefficient(td, test_ir_value(fn, "p1"), j, &c));
    assert_int_equal(c, 4);   /* a row: one element per step of j */
    assert_true(weft_linear_coefficient(td, test_ir_value(fn, "r1"), j, &c));
    assert_int_equal(c, 8);
    /* the wrapping add hides j inside an opaque term */
    assert_true(weft_linear_coefficient(td, test_ir_value(fn, "pw"), j, &c));
    assert_int_equal(c, 0);
    test_ir_dispose(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distances),
        cmocka_unit_test(test_coefficients),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
