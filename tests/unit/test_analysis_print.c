/* tests/unit/test_analysis_print.c — the text dumps behind weft-opt's -pass=print-<name>
 * (compiler/analysis/print.c): exact, stable output for a small kernel, LLVM's numbering of
 * unnamed values, and the answer to an unknown name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/print.h"

static const char *kernel_ir =
    "declare i64 @_Z12get_local_idj(i32)\n"
    "declare void @_Z7barrierj(i32)\n"
    "define void @k(ptr addrspace(1) %out, i64) {\n"
    "entry:\n"
    "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
    "  %c = icmp ult i64 %lid, %0\n"
    "  br i1 %c, label %loop, label %done\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %2 = add i64 %i, %lid\n"
    "  %i1 = add i64 %i, 1\n"
    "  %more = icmp ult i64 %i1, 8\n"
    "  br i1 %more, label %loop, label %done\n"
    "done:\n"
    "  %r = phi i64 [ 0, %entry ], [ %2, %loop ]\n"
    "  call void @_Z7barrierj(i32 1)\n"
    "  store i64 %r, ptr addrspace(1) %out\n"
    "  ret void\n"
    "}\n";

/* Runs the printer into memory and compares with the expected text. */
static void expect_print(const char *name, const char *want)
{
    struct test_ir ir = test_ir_parse(kernel_ir);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    weft_analysis_print(name, test_ir_fn(&ir, "k"), f);
    fclose(f);
    if (strcmp(buf, want) != 0)
        print_error("print-%s gave:\n%s\nexpected:\n%s\n", name, buf, want);
    assert_string_equal(buf, want);
    free(buf);
    test_ir_dispose(&ir);
}

static void test_print_cfg(void **state)
{
    expect_print("cfg",
                 "cfg of @k:\n"
                 "  entry: succs [loop, done] preds []\n"
                 "  loop: succs [loop, done] preds [entry, loop]\n"
                 "  done: succs [] preds [entry, loop]\n");
}

static void test_print_dominators(void **state)
{
    expect_print("dominators",
                 "dominators of @k:\n"
                 "  entry: idom - frontier []\n"
                 "  loop: idom entry frontier [loop, done]\n"
                 "  done: idom entry frontier []\n"
                 "post-dominators of @k:\n"
                 "  entry: ipdom done frontier []\n"
                 "  loop: ipdom done frontier [entry, loop]\n"
                 "  done: ipdom <exit> frontier []\n");
}

static void test_print_loops(void **state)
{
    expect_print("loops",
                 "loops of @k:\n"
                 "  loop loop: depth 1 parent - blocks [loop] latches [loop] exiting [loop] exits [done]\n"
                 "  irreducible: no\n");
}

static void test_print_liveness(void **state)
{
    /* the unnamed argument is %0 (not tracked: arguments are always available), the unnamed
     * add is %1 in LLVM's numbering */
    expect_print("liveness",
                 "liveness of @k:\n"
                 "  entry: in [] out [%lid]\n"
                 "  loop: in [%lid] out [%lid, %1, %i1]\n"
                 "  done: in [] out []\n");
}

static void test_print_shapes(void **state)
{
    expect_print("shapes",
                 "shapes of @k:\n"
                 "  %lid: affine(dim 0, stride 1)\n"
                 "  %c: varying\n"
                 "  entry: branch divergent\n"
                 "  %i: uniform\n"
                 "  %1: affine(dim 0, stride 1)\n"
                 "  %i1: uniform\n"
                 "  %more: uniform\n"
                 "  loop: branch uniform\n"
                 "  loop: loop uniform\n"
                 "  %r: varying\n");
}

static void test_print_unknown_name(void **state)
{
    assert_true(weft_analysis_has_printer("shapes"));
    assert_false(weft_analysis_has_printer("shape"));
    expect_print("nonsense", "unknown analysis 'nonsense'\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_cfg),
        cmocka_unit_test(test_print_dominators),
        cmocka_unit_test(test_print_loops),
        cmocka_unit_test(test_print_liveness),
        cmocka_unit_test(test_print_shapes),
        cmocka_unit_test(test_print_unknown_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
