/* tests/unit/test_subcfg_analyses.c — the CFG, dominator, post-dominator and loop analyses on a
 * sub-CFG (analysis/cfg.h's sub-CFG mode): blocks numbered in the given order, only edges
 * inside the set as successors, edges out of it as exit edges, a post-dominator tree whose
 * virtual exit stands for them, and loops whose exiting blocks include those that leave the
 * sub-CFG. (What the vectorizer builds its plan on, transform/vectorize_plan.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/loops.h"

/* A loop between two "barriers": a -> {b, c}; b leaves to bar1 or goes on to latch; c switches
 * to latch, bar1 or bar2; latch loops back to a or leaves to bar2. */
static const char *loop_ir =
    "define void @f(i1 %x, i1 %y, i32 %n) {\n"
    "entry:\n  br label %bar0\n"
    "bar0:\n  br label %a\n"
    "a:\n  %i = phi i32 [ 0, %bar0 ], [ %i1, %latch ]\n  br i1 %x, label %b, label %c\n"
    "b:\n  br i1 %y, label %bar1, label %latch\n"
    "c:\n  switch i32 %n, label %latch [\n    i32 1, label %bar1\n    i32 2, label %bar2\n    i32 3, label %bar1\n  ]\n"
    "latch:\n  %i1 = add i32 %i, 1\n  %cc = icmp slt i32 %i1, %n\n  br i1 %cc, label %a, label %bar2\n"
    "bar1:\n  br label %done\n"
    "bar2:\n  br label %done\n"
    "done:\n  ret void\n"
    "}\n";

struct built {
    struct test_ir ir;
    LLVMValueRef fn;
    struct weft_cfg *cfg;
};

/* The sub-CFG {a, c, b, latch}, in that order (not the function's). */
static struct built build_sub(void)
{
    struct built b = {.ir = test_ir_parse(loop_ir)};
    b.fn = test_ir_fn(&b.ir, "f");
    LLVMBasicBlockRef blocks[] = {test_ir_block(b.fn, "a"), test_ir_block(b.fn, "c"), test_ir_block(b.fn, "b"),
                                  test_ir_block(b.fn, "latch")};
    b.cfg = weft_cfg_build_sub(b.fn, blocks, 4);
    assert_non_null(b.cfg);
    return b;
}

static void dispose(struct built *b)
{
    weft_cfg_free(b->cfg);
    test_ir_dispose(&b->ir);
}

static int B(const struct built *b, const char *name)
{
    return weft_cfg_index(b->cfg, test_ir_block(b->fn, name));
}

static void test_sub_cfg_numbers_the_given_blocks_in_order(void **state)
{
    struct built b = build_sub();
    const struct weft_cfg *cfg = b.cfg;
    assert_true(cfg->sub);
    assert_int_equal(cfg->nblocks, 4);
    assert_int_equal(B(&b, "a"), 0);
    assert_int_equal(B(&b, "c"), 1);
    assert_int_equal(B(&b, "b"), 2);
    assert_int_equal(B(&b, "latch"), 3);
    /* blocks outside have no number, and their instructions no position */
    assert_int_equal(B(&b, "bar0"), -1);
    assert_int_equal(B(&b, "bar1"), -1);
    assert_int_equal(weft_cfg_inst_block(cfg, test_ir_value(b.fn, "i1")), 3);
    assert_int_equal(weft_cfg_inst_pos(cfg, test_ir_value(b.fn, "cc")), 1);
    dispose(&b);
}

static void test_sub_cfg_edges_inside_and_exit_edges(void **state)
{
    struct built b = build_sub();
    const struct weft_cfg *cfg = b.cfg;
    /* a: terminator order, b then c */
    assert_int_equal(weft_cfg_nsucc(cfg, 0), 2);
    assert_int_equal(weft_cfg_succs(cfg, 0)[0], B(&b, "b"));
    assert_int_equal(weft_cfg_succs(cfg, 0)[1], B(&b, "c"));
    assert_int_equal(weft_cfg_nexit(cfg, 0), 0);
    /* the entry's predecessor outside (bar0) is not one */
    assert_int_equal(weft_cfg_npred(cfg, 0), 1);
    assert_int_equal(weft_cfg_preds(cfg, 0)[0], B(&b, "latch"));
    /* exits in discovery order: c (number 1) finds bar1, then bar2 */
    assert_int_equal(cfg->nexits, 2);
    assert_ptr_equal(cfg->exits[0], test_ir_block(b.fn, "bar1"));
    assert_ptr_equal(cfg->exits[1], test_ir_block(b.fn, "bar2"));
    assert_int_equal(weft_cfg_exit_index(cfg, test_ir_block(b.fn, "bar2")), 1);
    assert_int_equal(weft_cfg_exit_index(cfg, test_ir_block(b.fn, "a")), -1);
    /* c: one edge inside (latch), two exit edges, the repeated case to bar1 counted once */
    int c = B(&b, "c");
    assert_int_equal(weft_cfg_nsucc(cfg, c), 1);
    assert_int_equal(weft_cfg_succs(cfg, c)[0], B(&b, "latch"));
    assert_int_equal(weft_cfg_nexit(cfg, c), 2);
    assert_int_equal(weft_cfg_exit_edges(cfg, c)[0], 0);
    assert_int_equal(weft_cfg_exit_edges(cfg, c)[1], 1);
    /* b and latch leave through one exit edge each */
    assert_int_equal(weft_cfg_nexit(cfg, B(&b, "b")), 1);
    assert_int_equal(weft_cfg_exit_edges(cfg, B(&b, "b"))[0], 0);
    assert_int_equal(weft_cfg_nexit(cfg, B(&b, "latch")), 1);
    assert_int_equal(weft_cfg_exit_edges(cfg, B(&b, "latch"))[0], 1);
    /* reverse post-order from the sub-CFG's entry covers it */
    assert_int_equal(cfg->nreachable, 4);
    assert_int_equal(cfg->rpo[0], 0);
    assert_true(cfg->rpo_index[B(&b, "b")] < cfg->rpo_index[B(&b, "latch")]);
    assert_true(cfg->rpo_index[B(&b, "c")] < cfg->rpo_index[B(&b, "latch")]);
    dispose(&b);
}

static void test_function_cfg_has_no_exit_edges(void **state)
{
    struct test_ir ir = test_ir_parse(loop_ir);
    struct weft_cfg *cfg = weft_cfg_build(test_ir_fn(&ir, "f"));
    assert_false(cfg->sub);
    assert_int_equal(cfg->nexits, 0);
    for (size_t i = 0; i < cfg->nblocks; i++)
        assert_int_equal(weft_cfg_nexit(cfg, i), 0);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_sub_cfg_dominators_from_its_entry(void **state)
{
    struct built b = build_sub();
    struct weft_domtree *dom = weft_dom_compute(b.cfg);
    assert_int_equal(weft_dom_idom(dom, 0), -1);   /* the entry is the root, whatever is above it */
    assert_int_equal(weft_dom_idom(dom, B(&b, "b")), 0);
    assert_int_equal(weft_dom_idom(dom, B(&b, "c")), 0);
    assert_int_equal(weft_dom_idom(dom, B(&b, "latch")), 0);
    assert_true(weft_dom_dominates_inst(dom, test_ir_value(b.fn, "i"), test_ir_value(b.fn, "i1")));
    weft_dom_free(dom);
    dispose(&b);
}

static void test_sub_cfg_post_dominators_count_exit_edges(void **state)
{
    struct built b = build_sub();
    struct weft_domtree *pdom = weft_postdom_compute(b.cfg);
    int vexit = WEFT_DOM_VIRTUAL_EXIT(pdom);
    /* b may leave the sub-CFG: latch does not post-dominate it (in the sub-CFG without its exit
     * edges latch would), and nothing but the virtual exit post-dominates a */
    assert_int_equal(weft_dom_idom(pdom, B(&b, "b")), vexit);
    assert_int_equal(weft_dom_idom(pdom, B(&b, "c")), vexit);
    assert_int_equal(weft_dom_idom(pdom, B(&b, "latch")), vexit);
    assert_int_equal(weft_dom_idom(pdom, 0), vexit);
    assert_false(weft_dom_dominates(pdom, B(&b, "latch"), B(&b, "b")));
    weft_dom_free(pdom);
    dispose(&b);
}

static void test_sub_cfg_loops_exit_through_exit_edges(void **state)
{
    struct built b = build_sub();
    struct weft_domtree *dom = weft_dom_compute(b.cfg);
    struct weft_loops *loops = weft_loops_compute(b.cfg, dom);
    assert_false(loops->irreducible);
    assert_int_equal(loops->count, 1);
    const struct weft_loop *l = &loops->loops[0];
    assert_int_equal(l->header, 0);
    assert_int_equal(l->nblocks, 4);
    assert_int_equal(l->nlatches, 1);
    assert_int_equal(l->latches[0], B(&b, "latch"));
    /* every way out leaves the sub-CFG: exiting blocks, but no exit block inside it */
    assert_int_equal(l->nexiting, 3);
    assert_int_equal(l->exiting[0], B(&b, "c"));
    assert_int_equal(l->exiting[1], B(&b, "b"));
    assert_int_equal(l->exiting[2], B(&b, "latch"));
    assert_int_equal(l->nexits, 0);
    assert_int_equal(loops->innermost[B(&b, "b")], 0);
    weft_loops_free(loops);
    weft_dom_free(dom);
    dispose(&b);
}

/* A cycle that the block set cuts is no loop: in the sub-CFG {latch, a} (entry latch) the edge
 * latch -> a goes forward, and the way from a back to latch (through b or c) lies outside. */
static void test_sub_cfg_loop_cut_by_the_block_set(void **state)
{
    struct test_ir ir = test_ir_parse(loop_ir);
    LLVMValueRef fn = test_ir_fn(&ir, "f");
    LLVMBasicBlockRef blocks[] = {test_ir_block(fn, "latch"), test_ir_block(fn, "a")};
    struct weft_cfg *cfg = weft_cfg_build_sub(fn, blocks, 2);
    struct weft_domtree *dom = weft_dom_compute(cfg);
    struct weft_loops *loops = weft_loops_compute(cfg, dom);
    assert_int_equal(loops->count, 0);
    assert_int_equal(cfg->nexits, 3);   /* bar2 from latch, then b and c from a */
    assert_ptr_equal(cfg->exits[0], test_ir_block(fn, "bar2"));
    assert_ptr_equal(cfg->exits[1], test_ir_block(fn, "b"));
    assert_ptr_equal(cfg->exits[2], test_ir_block(fn, "c"));
    weft_loops_free(loops);
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

static void test_empty_sub_cfg_is_null(void **state)
{
    struct test_ir ir = test_ir_parse(loop_ir);
    assert_null(weft_cfg_build_sub(test_ir_fn(&ir, "f"), NULL, 0));
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sub_cfg_numbers_the_given_blocks_in_order),
        cmocka_unit_test(test_sub_cfg_edges_inside_and_exit_edges),
        cmocka_unit_test(test_function_cfg_has_no_exit_edges),
        cmocka_unit_test(test_sub_cfg_dominators_from_its_entry),
        cmocka_unit_test(test_sub_cfg_post_dominators_count_exit_edges),
        cmocka_unit_test(test_sub_cfg_loops_exit_through_exit_edges),
        cmocka_unit_test(test_sub_cfg_loop_cut_by_the_block_set),
        cmocka_unit_test(test_empty_sub_cfg_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
