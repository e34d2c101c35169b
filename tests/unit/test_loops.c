/* tests/unit/test_loops.c — natural loops: bodies, nesting and depth, latches, exiting and exit
 * blocks, merged back edges, and irreducible cycles (compiler/analysis/loops.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/loops.h"

struct built {
    struct test_ir ir;
    LLVMValueRef fn;
    struct weft_cfg *cfg;
    struct weft_domtree *dom;
    struct weft_loops *loops;
};

static struct built build(const char *text, const char *fn)
{
    struct built b = {.ir = test_ir_parse(text)};
    b.fn = test_ir_fn(&b.ir, fn);
    b.cfg = weft_cfg_build(b.fn);
    b.dom = weft_dom_compute(b.cfg);
    b.loops = weft_loops_compute(b.cfg, b.dom);
    return b;
}

static void dispose(struct built *b)
{
    weft_loops_free(b->loops);
    weft_dom_free(b->dom);
    weft_cfg_free(b->cfg);
    test_ir_dispose(&b->ir);
}

static int B(const struct built *b, const char *name)
{
    return weft_cfg_index(b->cfg, test_ir_block(b->fn, name));
}

/* for (i) { for (j) { if (x) break-inner; } }  — the inner loop has two exits */
static const char *nest_ir =
    "define void @f(i32 %n, i1 %x) {\n"
    "entry:\n  br label %outer\n"
    "outer:\n  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]\n  br label %inner\n"
    "inner:\n  %j = phi i32 [ 0, %outer ], [ %j1, %ibody ]\n  br i1 %x, label %olatch, label %ibody\n"
    "ibody:\n  %j1 = add i32 %j, 1\n  %cj = icmp slt i32 %j1, %n\n  br i1 %cj, label %inner, label %olatch\n"
    "olatch:\n  %i1 = add i32 %i, 1\n  %ci = icmp slt i32 %i1, %n\n  br i1 %ci, label %outer, label %done\n"
    "done:\n  ret void\n"
    "}\n";

static void test_nested_loops(void **state)
{
    struct built b = build(nest_ir, "f");
    assert_false(b.loops->irreducible);
    assert_int_equal(b.loops->count, 2);
    const struct weft_loop *o = &b.loops->loops[0], *in = &b.loops->loops[1];
    /* outer first (header earlier in RPO) */
    assert_int_equal(o->header, B(&b, "outer"));
    assert_int_equal(in->header, B(&b, "inner"));
    assert_int_equal(o->parent, -1);
    assert_int_equal(in->parent, 0);
    assert_int_equal(o->depth, 1);
    assert_int_equal(in->depth, 2);
    /* bodies: header first, RPO order */
    assert_int_equal(o->nblocks, 4);
    assert_int_equal(o->blocks[0], B(&b, "outer"));
    assert_int_equal(in->nblocks, 2);
    assert_int_equal(in->blocks[0], B(&b, "inner"));
    assert_int_equal(in->blocks[1], B(&b, "ibody"));
    assert_true(weft_loop_contains(b.loops, 0, B(&b, "ibody")));
    assert_false(weft_loop_contains(b.loops, 1, B(&b, "olatch")));
    assert_false(weft_loop_contains(b.loops, 0, B(&b, "done")));
    /* latches, exiting, exits */
    assert_int_equal(o->nlatches, 1);
    assert_int_equal(o->latches[0], B(&b, "olatch"));
    assert_int_equal(in->nlatches, 1);
    assert_int_equal(in->latches[0], B(&b, "ibody"));
    assert_int_equal(in->nexiting, 2);
    assert_int_equal(in->exiting[0], B(&b, "inner"));
    assert_int_equal(in->exiting[1], B(&b, "ibody"));
    assert_int_equal(in->nexits, 1);
    assert_int_equal(in->exits[0], B(&b, "olatch"));
    assert_int_equal(o->nexits, 1);
    assert_int_equal(o->exits[0], B(&b, "done"));
    /* depths and innermost loops per block */
    assert_int_equal(weft_loops_depth(b.loops, B(&b, "entry")), 0);
    assert_int_equal(weft_loops_depth(b.loops, B(&b, "olatch")), 1);
    assert_int_equal(weft_loops_depth(b.loops, B(&b, "ibody")), 2);
    assert_int_equal(b.loops->innermost[B(&b, "inner")], 1);
    assert_int_equal(weft_loops_with_header(b.loops, B(&b, "outer")), 0);
    assert_int_equal(weft_loops_with_header(b.loops, B(&b, "ibody")), -1);
    dispose(&b);
}

static void test_two_back_edges_make_one_loop(void **state)
{
    /* a `continue` gives the header two latches */
    struct built b = build(
        "define void @g(i1 %x, i1 %y) {\n"
        "entry:\n  br label %h\n"
        "h:\n  br i1 %x, label %l1, label %l2\n"
        "l1:\n  br label %h\n"
        "l2:\n  br i1 %y, label %h, label %out\n"
        "out:\n  ret void\n"
        "}\n", "g");
    assert_int_equal(b.loops->count, 1);
    const struct weft_loop *l = &b.loops->loops[0];
    assert_int_equal(l->nlatches, 2);
    assert_int_equal(l->latches[0], B(&b, "l1"));
    assert_int_equal(l->latches[1], B(&b, "l2"));
    assert_int_equal(l->nblocks, 3);
    assert_int_equal(l->nexiting, 1);
    assert_int_equal(l->exiting[0], B(&b, "l2"));
    dispose(&b);
}

static void test_self_loop_and_sibling_loops(void **state)
{
    struct built b = build(
        "define void @s(i1 %x) {\n"
        "entry:\n  br label %a\n"
        "a:\n  br i1 %x, label %a, label %mid\n"
        "mid:\n  br label %b\n"
        "b:\n  br i1 %x, label %b, label %end\n"
        "end:\n  ret void\n"
        "}\n", "s");
    assert_int_equal(b.loops->count, 2);
    assert_int_equal(b.loops->loops[0].nblocks, 1);
    assert_int_equal(b.loops->loops[0].latches[0], B(&b, "a"));
    assert_int_equal(b.loops->loops[1].parent, -1);   /* siblings, not nested */
    assert_int_equal(b.loops->loops[1].depth, 1);
    assert_int_equal(weft_loops_depth(b.loops, B(&b, "mid")), 0);
    dispose(&b);
}

static void test_irreducible_cycle_is_flagged_not_a_loop(void **state)
{
    /* a <-> b with two entries (from entry to both): no header dominates the cycle */
    struct built b = build(
        "define void @i(i1 %x) {\n"
        "entry:\n  br i1 %x, label %a, label %b\n"
        "a:\n  br i1 %x, label %b, label %out\n"
        "b:\n  br label %a\n"
        "out:\n  ret void\n"
        "}\n", "i");
    assert_true(b.loops->irreducible);
    assert_int_equal(b.loops->count, 0);
    dispose(&b);
}

static void test_preheader_and_induction_variables(void **state)
{
    struct built b = build(
        "define void @v(i32 %n, i32 %s, i1 %x) {\n"
        "entry:\n  br label %h\n"
        "h:\n"
        "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
        "  %j = phi i32 [ %n, %entry ], [ %j1, %latch ]\n"
        "  %k = phi i32 [ 1, %entry ], [ %k1, %latch ]\n"
        "  %m = phi i32 [ 0, %entry ], [ %m1, %latch ]\n"
        "  %c = icmp slt i32 %i, %n\n"
        "  br i1 %c, label %latch, label %out\n"
        "latch:\n"
        "  %i1 = add nsw i32 %i, 1\n"
        "  %j1 = sub i32 %j, %s\n"
        "  %k1 = mul i32 %k, 2\n"
        "  %m1 = add i32 %m, %i\n"
        "  br label %h\n"
        "out:\n  ret void\n"
        "}\n", "v");
    assert_int_equal(b.loops->count, 1);
    assert_int_equal(weft_loop_preheader(b.loops, 0), B(&b, "entry"));
    struct weft_induction iv;
    assert_true(weft_loop_induction(b.loops, 0, test_ir_value(b.fn, "i"), &iv));
    assert_true(LLVMIsAConstantInt(iv.start) && LLVMConstIntGetZExtValue(iv.start) == 0);
    assert_int_equal(LLVMConstIntGetZExtValue(iv.step), 1);
    assert_false(iv.down);
    assert_true(weft_loop_induction(b.loops, 0, test_ir_value(b.fn, "j"), &iv));
    assert_ptr_equal(iv.start, test_ir_value(b.fn, "n"));
    assert_ptr_equal(iv.step, test_ir_value(b.fn, "s"));
    assert_true(iv.down);
    assert_false(weft_loop_induction(b.loops, 0, test_ir_value(b.fn, "k"), &iv));   /* geometric */
    assert_false(weft_loop_induction(b.loops, 0, test_ir_value(b.fn, "m"), &iv));   /* step varies */
    assert_false(weft_loop_induction(b.loops, 0, test_ir_value(b.fn, "c"), &iv));   /* not a phi */
    assert_true(weft_loop_defined_outside(b.loops, 0, test_ir_value(b.fn, "n")));
    assert_false(weft_loop_defined_outside(b.loops, 0, test_ir_value(b.fn, "i1")));
    dispose(&b);
}

static void test_no_preheader_with_two_entries(void **state)
{
    struct built b = build(
        "define void @w(i1 %x) {\n"
        "entry:\n  br i1 %x, label %a, label %h\n"
        "a:\n  br label %h\n"
        "h:\n  br i1 %x, label %h, label %out\n"
        "out:\n  ret void\n"
        "}\n", "w");
    assert_int_equal(b.loops->count, 1);
    assert_int_equal(weft_loop_preheader(b.loops, 0), -1);
    dispose(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_two_back_edges_make_one_loop),
        cmocka_unit_test(test_self_loop_and_sibling_loops),
        cmocka_unit_test(test_irreducible_cycle_is_flagged_not_a_loop),
        cmocka_unit_test(test_preheader_and_induction_variables),
        cmocka_unit_test(test_no_preheader_with_two_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
