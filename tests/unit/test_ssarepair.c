/* tests/unit/test_ssarepair.c — weft_ssa_repair (transform/ssarepair.h) on hand-written IR
 * whose CFG was rewired so that a value no longer dominates its uses, as schedule.c leaves it:
 * after the repair the function verifies, and values that already dominated stay as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/transform/ssarepair.h"

/* How many uses `v` has left. */
static unsigned direct_uses(LLVMValueRef v)
{
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        n++;
    return n;
}

static void expect_valid(LLVMValueRef fn)
{
    if (LLVMVerifyFunction(fn, LLVMReturnStatusAction)) {
        char *text = LLVMPrintValueToString(fn);
        print_error("not valid after the repair:\n%s\n", text);
        LLVMDisposeMessage(text);
        fail();
    }
}

/* The definition in %a does not dominate %join's successors. Its uses: a phi that holds it
 * twice (a switch's default and one case go to the same block) and one more instruction. The
 * phi's two uses are one user: rewriting it took both off the use list, and a repair that
 * walked the list while rewriting never reached %w (tools/fuzz seed 681, breadth-first). */
static const char phi_twice[] =
    "define i32 @f(i1 %c, i32 %s) {\n"
    "entry:\n"
    "  br i1 %c, label %a, label %join\n"
    "a:\n"
    "  %v = add i32 %s, 1\n"
    "  br label %join\n"
    "join:\n"
    "  switch i32 %s, label %x [ i32 0, label %x\n"
    "                           i32 2, label %y ]\n"
    "y:\n"
    "  %w = xor i32 %v, 3\n"
    "  br label %x\n"
    "x:\n"
    "  %p = phi i32 [ %v, %join ], [ %v, %join ], [ %w, %y ]\n"
    "  ret i32 %p\n"
    "}\n";

static void test_value_used_twice_by_one_phi(void **state)
{
    (void)state;
    /* the IR is invalid on purpose: parse it without test_ir_parse's verification */
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(phi_twice, strlen(phi_twice), "t.ll");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    assert_false(LLVMParseIRInContext(ctx, buf, &m, &msg));
    LLVMValueRef fn = LLVMGetNamedFunction(m, "f");
    assert_true(LLVMVerifyFunction(fn, LLVMReturnStatusAction));   /* broken before */
    assert_int_equal(weft_ssa_repair(fn), 1);
    expect_valid(fn);
    /* %v is stored to its slot and nothing else: every use reads the slot */
    LLVMValueRef v = NULL;
    for (LLVMValueRef i = LLVMGetFirstInstruction(test_ir_block(fn, "a")); i; i = LLVMGetNextInstruction(i))
        if (strcmp(LLVMGetValueName(i), "v") == 0)
            v = i;
    assert_non_null(v);
    assert_int_equal(direct_uses(v), 1);
    assert_non_null(LLVMIsAStoreInst(LLVMGetUser(LLVMGetFirstUse(v))));
    /* the phi's two entries from %join carry one value, as LLVM requires */
    LLVMValueRef phi = LLVMGetFirstInstruction(test_ir_block(fn, "x"));
    assert_ptr_equal(LLVMGetIncomingValue(phi, 0), LLVMGetIncomingValue(phi, 1));
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Nothing to repair: a diamond whose values dominate their uses keeps them. */
static void test_valid_function_unchanged(void **state)
{
    (void)state;
    struct test_ir ir = test_ir_parse("define i32 @g(i1 %c, i32 %s) {\n"
                                      "entry:\n"
                                      "  %v = add i32 %s, 1\n"
                                      "  br i1 %c, label %a, label %b\n"
                                      "a:\n"
                                      "  %w = mul i32 %v, 3\n"
                                      "  br label %b\n"
                                      "b:\n"
                                      "  %p = phi i32 [ %v, %entry ], [ %w, %a ]\n"
                                      "  ret i32 %p\n"
                                      "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "g");
    assert_int_equal(weft_ssa_repair(fn), 0);
    expect_valid(fn);
    assert_null(LLVMIsAAllocaInst(LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn))));
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_used_twice_by_one_phi),
        cmocka_unit_test(test_valid_function_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
