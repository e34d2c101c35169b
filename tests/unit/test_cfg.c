/* tests/unit/test_cfg.c — block numbering, de-duplicated edges, reverse post-order and
 * unreachable blocks (compiler/analysis/cfg.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/cfg.h"

static const char *diamond_ir =
    "define void @f(i1 %c, i32 %x) {\n"
    "entry:\n  br i1 %c, label %then, label %else\n"
    "then:\n  br label %join\n"
    "else:\n  switch i32 %x, label %join [ i32 1, label %join\n i32 2, label %then ]\n"
    "join:\n  ret void\n"
    "dead:\n  br label %join\n"
    "}\n";

static int idx(const struct weft_cfg *cfg, LLVMValueRef fn, const char *name)
{
    return weft_cfg_index(cfg, test_ir_block(fn, name));
}

static void test_cfg_numbers_blocks_in_function_order(void **state)
{
    struct test_ir ir = test_ir_parse(diamond_ir);
    LLVMValueRef fn = test_ir_fn(&ir, "f");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    assert_non_null(cfg);
    assert_int_equal(cfg->nblocks, 5);
    assert_int_equal(idx(cfg, fn, "entry"), 0);
    assert_int_equal(idx(cfg, fn, "then"), 1);
    assert_int_equal(idx(cfg, fn, "else"), 2);
    assert_int_equal(idx(cfg, fn, "join"), 3);
    assert_int_equal(idx(cfg, fn, "dead"), 4);
    assert_ptr_equal(cfg->blocks[3], test_ir_block(fn, "join"));
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_cfg_dedupes_switch_edges(void **state)
{
    struct test_ir ir = test_ir_parse(diamond_ir);
    LLVMValueRef fn = test_ir_fn(&ir, "f");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    int e = idx(cfg, fn, "else");
    /* switch default->join, 1->join, 2->then: two distinct successors, in terminator order */
    assert_int_equal(weft_cfg_nsucc(cfg, e), 2);
    assert_int_equal(weft_cfg_succs(cfg, e)[0], idx(cfg, fn, "join"));
    assert_int_equal(weft_cfg_succs(cfg, e)[1], idx(cfg, fn, "then"));
    /* join's predecessors: then, else, dead (unreachable edges are kept), in block order */
    int j = idx(cfg, fn, "join");
    assert_int_equal(weft_cfg_npred(cfg, j), 3);
    assert_int_equal(weft_cfg_preds(cfg, j)[0], idx(cfg, fn, "then"));
    assert_int_equal(weft_cfg_preds(cfg, j)[1], idx(cfg, fn, "else"));
    assert_int_equal(weft_cfg_preds(cfg, j)[2], idx(cfg, fn, "dead"));
    assert_int_equal(weft_cfg_npred(cfg, idx(cfg, fn, "then")), 2);
    assert_int_equal(weft_cfg_nsucc(cfg, j), 0);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_cfg_rpo_orders_forward_edges_and_skips_unreachable(void **state)
{
    struct test_ir ir = test_ir_parse(diamond_ir);
    LLVMValueRef fn = test_ir_fn(&ir, "f");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    assert_int_equal(cfg->nreachable, 4);
    assert_int_equal(cfg->rpo[0], 0);
    assert_false(weft_cfg_reachable(cfg, idx(cfg, fn, "dead")));
    assert_int_equal(cfg->rpo_index[idx(cfg, fn, "dead")], -1);
    /* every edge between reachable blocks of this acyclic CFG goes forward in RPO */
    for (size_t b = 0; b < cfg->nblocks; b++) {
        if (!weft_cfg_reachable(cfg, b))
            continue;
        for (size_t k = 0; k < weft_cfg_nsucc(cfg, b); k++)
            assert_true(cfg->rpo_index[b] < cfg->rpo_index[weft_cfg_succs(cfg, b)[k]]);
    }
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_cfg_rpo_with_loop_and_instruction_positions(void **state)
{
    struct test_ir ir = test_ir_parse(
        "define i32 @g(i32 %n) {\n"
        "entry:\n  br label %head\n"
        "head:\n  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n  %c = icmp slt i32 %i, %n\n"
        "  br i1 %c, label %body, label %exit\n"
        "body:\n  %i1 = add i32 %i, 1\n  br label %head\n"
        "exit:\n  ret i32 %i\n"
        "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "g");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    int h = idx(cfg, fn, "head"), b = idx(cfg, fn, "body"), x = idx(cfg, fn, "exit");
    assert_int_equal(cfg->nreachable, 4);
    assert_true(cfg->rpo_index[0] < cfg->rpo_index[h]);
    assert_true(cfg->rpo_index[h] < cfg->rpo_index[b]);
    assert_true(cfg->rpo_index[h] < cfg->rpo_index[x]);
    assert_int_equal(weft_cfg_inst_pos(cfg, test_ir_value(fn, "i")), 0);
    assert_int_equal(weft_cfg_inst_pos(cfg, test_ir_value(fn, "c")), 1);
    assert_int_equal(weft_cfg_inst_block(cfg, test_ir_value(fn, "i1")), b);
    assert_int_equal(weft_cfg_inst_block(cfg, test_ir_value(fn, "n")), -1);   /* an argument */
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_cfg_of_declaration_is_null(void **state)
{
    struct test_ir ir = test_ir_parse("declare void @d()\n");
    assert_null(weft_cfg_build(test_ir_fn(&ir, "d")));
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfg_numbers_blocks_in_function_order),
        cmocka_unit_test(test_cfg_dedupes_switch_edges),
        cmocka_unit_test(test_cfg_rpo_orders_forward_edges_and_skips_unreachable),
        cmocka_unit_test(test_cfg_rpo_with_loop_and_instruction_positions),
        cmocka_unit_test(test_cfg_of_declaration_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
