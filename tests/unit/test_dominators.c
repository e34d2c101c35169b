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

/* ---- random CFGs against the textbook definition ------------------------------------------
 * dom(entry) = {entry}, dom(b) = {b} + intersection of dom(p) over reachable predecessors p,
 * iterated to the fixed point; idom(b) is the strict dominator with the largest dom set. The same
 * on the reverse graph for post-dominators, when every reachable block reaches a return. */

static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

static LLVMValueRef random_function(LLVMModuleRef m, LLVMContextRef c, int n, int idx)
{
    LLVMTypeRef params[2] = {LLVMInt1TypeInContext(c), LLVMInt32TypeInContext(c)};
    char name[32];
    snprintf(name, sizeof name, "r%d", idx);
    LLVMValueRef fn = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0));
    LLVMBasicBlockRef bb[64];
    for (int i = 0; i < n; i++)
        bb[i] = LLVMAppendBasicBlockInContext(c, fn, "");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (int i = 0; i < n; i++) {
        LLVMPositionBuilderAtEnd(b, bb[i]);
        /* targets are never the entry block (it may not have predecessors) */
        LLVMBasicBlockRef t1 = bb[1 + rnd((uint32_t)n - 1)], t2 = bb[1 + rnd((uint32_t)n - 1)];
        switch (rnd(7)) {
        case 0:
            LLVMBuildRetVoid(b);
            break;
        case 1:
        case 2:
            LLVMBuildBr(b, t1);
            break;
        case 3: {
            LLVMValueRef sw = LLVMBuildSwitch(b, LLVMGetParam(fn, 1), t1, 3);
            for (int k = 0; k < 3; k++)
                LLVMAddCase(sw, LLVMConstInt(params[1], (unsigned long long)k, 0), bb[1 + rnd((uint32_t)n - 1)]);
            break;
        }
        default:
            LLVMBuildCondBr(b, LLVMGetParam(fn, 0), t1, t2);
            break;
        }
    }
    LLVMDisposeBuilder(b);
    return fn;
}

/* Naive (post-)dominator sets as n x n booleans; returns the idom array (-1 root/unreachable,
 * n = virtual exit for post). */
static void naive_idoms(const struct weft_cfg *cfg, bool post, int *idom)
{
    size_t n = cfg->nblocks;
    bool *dom = calloc(n * n, sizeof(bool));
    for (size_t b = 0; b < n; b++)
        for (size_t d = 0; d < n; d++)
            dom[b * n + d] = weft_cfg_reachable(cfg, b);
    for (size_t b = 0; b < n; b++)
        if (weft_cfg_reachable(cfg, b) && (post ? weft_cfg_nsucc(cfg, b) == 0 : b == 0)) {
            for (size_t d = 0; d < n; d++)
                dom[b * n + d] = d == b;
        }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t b = 0; b < n; b++) {
            if (!weft_cfg_reachable(cfg, b) || (post ? weft_cfg_nsucc(cfg, b) == 0 : b == 0))
                continue;
            size_t np = post ? weft_cfg_nsucc(cfg, b) : weft_cfg_npred(cfg, b);
            const uint32_t *ps = post ? weft_cfg_succs(cfg, b) : weft_cfg_preds(cfg, b);
            for (size_t d = 0; d < n; d++) {
                bool v = true;
                bool any = false;
                for (size_t k = 0; k < np; k++)
                    if (weft_cfg_reachable(cfg, ps[k])) {
                        any = true;
                        v = v && dom[ps[k] * n + d];
                    }
                v = d == b || (any && v);
                if (dom[b * n + d] != v) {
                    dom[b * n + d] = v;
                    changed = true;
                }
            }
        }
    }
    for (size_t b = 0; b < n; b++) {
        idom[b] = -1;
        if (!weft_cfg_reachable(cfg, b))
            continue;
        size_t best = 0;
        for (size_t d = 0; d < n; d++) {
            if (d == b || !dom[b * n + d])
                continue;
            size_t size = 0;
            for (size_t e = 0; e < n; e++)
                size += dom[d * n + e];
            if (size > best) {
                best = size;
                idom[b] = (int)d;
            }
        }
        if (post && idom[b] < 0)
            idom[b] = (int)n;   /* post-dominated by nothing but the virtual exit */
    }
    free(dom);
}

static bool all_reach_exit(const struct weft_cfg *cfg)
{
    size_t n = cfg->nblocks;
    bool *r = calloc(n, sizeof(bool));
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t b = 0; b < n; b++) {
            bool v = weft_cfg_nsucc(cfg, b) == 0;
            for (size_t k = 0; k < weft_cfg_nsucc(cfg, b); k++)
                v = v || r[weft_cfg_succs(cfg, b)[k]];
            if (v && !r[b]) {
                r[b] = true;
                changed = true;
            }
        }
    }
    bool ok = true;
    for (size_t b = 0; b < n; b++)
        ok = ok && (!weft_cfg_reachable(cfg, b) || r[b]);
    free(r);
    return ok;
}

static void test_random_cfgs_match_the_definition(void **state)
{
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("random", c);
    int checked_post = 0;
    for (int iter = 0; iter < 300; iter++) {
        int n = 2 + (int)rnd(30);
        LLVMValueRef fn = random_function(m, c, n, iter);
        struct weft_cfg *cfg = weft_cfg_build(fn);
        struct weft_domtree *dom = weft_dom_compute(cfg);
        int want[64];
        naive_idoms(cfg, false, want);
        for (int b = 0; b < n; b++) {
            if (weft_dom_idom(dom, b) != want[b])
                print_error("function r%d block %d: idom %d, expected %d\n", iter, b, weft_dom_idom(dom, b), want[b]);
            assert_int_equal(weft_dom_idom(dom, b), want[b]);
            /* the O(1) query agrees with walking the idom chain */
            for (int a = 0; a < n; a++) {
                bool walk = false;
                for (int x = b; x >= 0 && weft_cfg_reachable(cfg, (size_t)a); x = weft_dom_idom(dom, x))
                    walk = walk || x == a;
                assert_int_equal(weft_dom_dominates(dom, a, b), walk && weft_cfg_reachable(cfg, (size_t)b));
            }
        }
        if (all_reach_exit(cfg)) {
            struct weft_domtree *pdom = weft_postdom_compute(cfg);
            naive_idoms(cfg, true, want);
            for (int b = 0; b < n; b++) {
                if (!weft_cfg_reachable(cfg, (size_t)b))
                    continue;
                if (weft_dom_idom(pdom, b) != want[b])
                    print_error("function r%d block %d: ipdom %d, expected %d\n", iter, b, weft_dom_idom(pdom, b), want[b]);
                assert_int_equal(weft_dom_idom(pdom, b), want[b]);
            }
            weft_dom_free(pdom);
            checked_post++;
        }
        weft_dom_free(dom);
        weft_cfg_free(cfg);
    }
    assert_true(checked_post > 50);   /* the generator must exercise post-dominators too */
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
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
        cmocka_unit_test(test_random_cfgs_match_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
