/* tests/unit/test_dominators.c — dominator and post-dominator trees, dominance queries between
 * blocks, instructions and phi uses, and (post-)dominance frontiers
 * (compiler/analysis/dominators.c). Expected trees are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/dominators.h"

/*        entry
 *        /   \
 *       a     b
 *       |    / \
 *       |   c   |
 *       \   |  /
 *        \  | d <- (a, b)
 *         \ |/
 *           e          (preds c, d)
 */
static const char *graph_ir =
    "define void @f(i1 %p, i1 %q) {\n"
    "entry:\n  br i1 %p, label %a, label %b\n"
    "a:\n  %va = add i32 1, 2\n  br label %d\n"
    "b:\n  br i1 %q, label %c, label %d\n"
    "c:\n  br label %e\n"
    "d:\n  %phi = phi i32 [ %va, %a ], [ 0, %b ]\n  %use = add i32 %phi, 1\n  br label %e\n"
    "e:\n  ret void\n"
    "}\n";

struct fixture {
    struct test_ir ir;
    LLVMValueRef fn;
    struct weft_cfg *cfg;
    struct weft_domtree *dom, *pdom;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    f->ir = test_ir_parse(graph_ir);
    f->fn = test_ir_fn(&f->ir, "f");
    f->cfg = weft_cfg_build(f->fn);
    f->dom = weft_dom_compute(f->cfg);
    f->pdom = weft_postdom_compute(f->cfg);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    weft_dom_free(f->dom);
    weft_dom_free(f->pdom);
    weft_cfg_free(f->cfg);
    test_ir_dispose(&f->ir);
    free(f);
    return 0;
}

static int B(struct fixture *f, const char *name)
{
    return weft_cfg_index(f->cfg, test_ir_block(f->fn, name));
}

static void test_idoms(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(weft_dom_idom(f->dom, B(f, "entry")), -1);
    assert_int_equal(weft_dom_idom(f->dom, B(f, "a")), B(f, "entry"));
    assert_int_equal(weft_dom_idom(f->dom, B(f, "b")), B(f, "entry"));
    assert_int_equal(weft_dom_idom(f->dom, B(f, "c")), B(f, "b"));
    assert_int_equal(weft_dom_idom(f->dom, B(f, "d")), B(f, "entry"));
    assert_int_equal(weft_dom_idom(f->dom, B(f, "e")), B(f, "entry"));
    assert_true(weft_dom_dominates(f->dom, B(f, "b"), B(f, "c")));
    assert_true(weft_dom_dominates(f->dom, B(f, "c"), B(f, "c")));
    assert_false(weft_dom_strictly_dominates(f->dom, B(f, "c"), B(f, "c")));
    assert_false(weft_dom_dominates(f->dom, B(f, "b"), B(f, "d")));
    assert_false(weft_dom_dominates(f->dom, B(f, "a"), B(f, "e")));
    assert_int_equal(weft_dom_nearest_common(f->dom, B(f, "c"), B(f, "d")), B(f, "entry"));
    assert_int_equal(weft_dom_nearest_common(f->dom, B(f, "c"), B(f, "b")), B(f, "b"));
}

static void test_postdoms_with_virtual_exit(void **state)
{
    struct fixture *f = *state;
    int vexit = WEFT_DOM_VIRTUAL_EXIT(f->pdom);
    assert_int_equal(vexit, 6);
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "e")), vexit);
    assert_int_equal(weft_dom_idom(f->pdom, vexit), -1);
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "entry")), B(f, "e"));
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "a")), B(f, "d"));
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "b")), B(f, "e"));
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "c")), B(f, "e"));
    assert_int_equal(weft_dom_idom(f->pdom, B(f, "d")), B(f, "e"));
    assert_true(weft_dom_dominates(f->pdom, B(f, "d"), B(f, "a")));
    assert_false(weft_dom_dominates(f->pdom, B(f, "d"), B(f, "b")));
    assert_true(weft_dom_dominates(f->pdom, vexit, B(f, "entry")));
}

static void expect_frontier(const struct weft_domtree *t, int node, const int *want, size_t nwant)
{
    size_t n;
    const uint32_t *df = weft_dom_frontier(t, node, &n);
    assert_int_equal(n, nwant);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(df[i], want[i]);
}

static void test_dominance_frontiers(void **state)
{
    struct fixture *f = *state;
    /* DF(a) = {d}; DF(b) = {d, e}; DF(c) = {e}; DF(d) = {e}; DF(entry) = DF(e) = {} */
    expect_frontier(f->dom, B(f, "a"), (int[]){B(f, "d")}, 1);
    expect_frontier(f->dom, B(f, "b"), (int[]){B(f, "d"), B(f, "e")}, 2);
    expect_frontier(f->dom, B(f, "c"), (int[]){B(f, "e")}, 1);
    expect_frontier(f->dom, B(f, "d"), (int[]){B(f, "e")}, 1);
    expect_frontier(f->dom, B(f, "entry"), NULL, 0);
}

static void test_postdominance_frontiers_are_deciding_branches(void **state)
{
    struct fixture *f = *state;
    /* d runs or not depending on entry's branch (via b) and on b's branch */
    expect_frontier(f->pdom, B(f, "d"), (int[]){B(f, "entry"), B(f, "b")}, 2);
    expect_frontier(f->pdom, B(f, "c"), (int[]){B(f, "b")}, 1);
    expect_frontier(f->pdom, B(f, "a"), (int[]){B(f, "entry")}, 1);
    expect_frontier(f->pdom, B(f, "b"), (int[]){B(f, "entry")}, 1);
    expect_frontier(f->pdom, B(f, "e"), NULL, 0);
}

static void test_instruction_and_phi_use_dominance(void **state)
{
    struct fixture *f = *state;
    LLVMValueRef va = test_ir_value(f->fn, "va"), phi = test_ir_value(f->fn, "phi");
    LLVMValueRef use = test_ir_value(f->fn, "use");
    assert_true(weft_dom_dominates_inst(f->dom, phi, use));
    assert_false(weft_dom_dominates_inst(f->dom, use, phi));
    assert_false(weft_dom_dominates_inst(f->dom, va, use));   /* a does not dominate d */
    /* but va dominates its use in the phi, which happens at the end of a */
    assert_true(weft_dom_dominates_use(f->dom, va, phi, 0));
    assert_true(weft_dom_dominates_use(f->dom, LLVMGetParam(f->fn, 0), use, 0));
}

static void test_postdom_of_infinite_loop(void **state)
{
    struct test_ir ir = test_ir_parse(
        "define void @g(i1 %p) {\n"
        "entry:\n  br i1 %p, label %spin, label %out\n"
        "spin:\n  br label %spin2\n"
        "spin2:\n  br label %spin\n"
        "out:\n  ret void\n"
        "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "g");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    struct weft_domtree *pdom = weft_postdom_compute(cfg);
    int vexit = WEFT_DOM_VIRTUAL_EXIT(pdom);
    int entry = 0, spin = 1, spin2 = 2, out = 3;
    /* every reachable block gets a post-dominator even though spin never reaches a return */
    assert_int_equal(weft_dom_idom(pdom, out), vexit);
    assert_int_equal(weft_dom_idom(pdom, entry), vexit);
    assert_int_equal(weft_dom_idom(pdom, spin2), vexit);   /* the loop's chosen root */
    assert_int_equal(weft_dom_idom(pdom, spin), spin2);
    weft_dom_free(pdom);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_unreachable_blocks_are_outside_the_trees(void **state)
{
    struct test_ir ir = test_ir_parse(
        "define void @h() {\n"
        "entry:\n  ret void\n"
        "dead:\n  br label %entry2\n"
        "entry2:\n  ret void\n"
        "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "h");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    struct weft_domtree *dom = weft_dom_compute(cfg), *pdom = weft_postdom_compute(cfg);
    assert_int_equal(weft_dom_idom(dom, 1), -1);
    assert_false(weft_dom_dominates(dom, 0, 1));
    assert_false(weft_dom_dominates(dom, 1, 2));
    assert_false(weft_dom_dominates(pdom, 2, 1));
    weft_dom_free(dom);
    weft_dom_free(pdom);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_idoms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_postdoms_with_virtual_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dominance_frontiers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_postdominance_frontiers_are_deciding_branches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_instruction_and_phi_use_dominance, setup, teardown),
        cmocka_unit_test(test_postdom_of_infinite_loop),
        cmocka_unit_test(test_unreachable_blocks_are_outside_the_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
