/* tests/unit/test_liveness.c — SSA live-in/live-out sets (phi operands live out of their
 * incoming block), values live before an instruction, and the values live across barrier
 * blocks that barrier privatization needs (compiler/analysis/liveness.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/dominators.h"
#include "compiler/analysis/liveness.h"

/* A loop with a barrier in its body. Across the barrier: %a (used again in the next iteration),
 * %b (used after the loop), %i and %x (used after the barrier in the same block). Not across:
 * %d (dead before the loop), %c (consumed by head's branch), %i1 (defined after the barrier). */
static const char *loop_ir =
    "declare void @_Z7barrierj(i32)\n"
    "define void @k(ptr %p, i32 %n) {\n"
    "entry:\n  %a = add i32 %n, 1\n  %b = mul i32 %n, 2\n  %d = add i32 %n, 3\n"
    "  store i32 %d, ptr %p\n  br label %head\n"
    "head:\n  %i = phi i32 [ 0, %entry ], [ %i1, %bar ]\n  %x = add i32 %i, %a\n"
    "  %c = icmp slt i32 %i, %n\n  br i1 %c, label %bar, label %exit\n"
    "bar:\n  call void @_Z7barrierj(i32 1)\n  store i32 %x, ptr %p\n  %i1 = add i32 %i, 1\n"
    "  br label %head\n"
    "exit:\n  store i32 %b, ptr %p\n  ret void\n"
    "}\n";

struct built {
    struct test_ir ir;
    LLVMValueRef fn;
    struct weft_cfg *cfg;
    struct weft_liveness *live;
};

static struct built build(const char *text, const char *fn)
{
    struct built b = {.ir = test_ir_parse(text)};
    b.fn = test_ir_fn(&b.ir, fn);
    b.cfg = weft_cfg_build(b.fn);
    b.live = weft_liveness_compute(b.cfg);
    return b;
}

static void dispose(struct built *b)
{
    weft_liveness_free(b->live);
    weft_cfg_free(b->cfg);
    test_ir_dispose(&b->ir);
}

/* Checks that the live-in (in=true) or live-out set of block `bb` is exactly `names`. */
static void expect_set(struct built *b, const char *bb, bool in, const char *const *names, size_t n)
{
    LLVMBasicBlockRef block = test_ir_block(b->fn, bb);
    int bi = weft_cfg_index(b->cfg, block);
    const struct weft_bitset *set = in ? &b->live->live_in[bi] : &b->live->live_out[bi];
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef v = test_ir_value(b->fn, names[i]);
        bool got = in ? weft_liveness_is_live_in(b->live, block, v) : weft_liveness_is_live_out(b->live, block, v);
        if (!got)
            print_error("%%%s should be live-%s at %%%s\n", names[i], in ? "in" : "out", bb);
        assert_true(got);
    }
    assert_int_equal(weft_bitset_count(set), n);
}

static void test_live_sets_of_loop(void **state)
{
    struct built b = build(loop_ir, "k");
    assert_int_equal(b.live->nvalues, 7);   /* a b d i x c i1: calls and stores are void */
    expect_set(&b, "entry", true, NULL, 0);
    expect_set(&b, "entry", false, (const char *[]){"a", "b"}, 2);
    expect_set(&b, "head", true, (const char *[]){"a", "b"}, 2);   /* the phi is not live-in */
    expect_set(&b, "head", false, (const char *[]){"a", "b", "i", "x"}, 4);
    expect_set(&b, "bar", true, (const char *[]){"a", "b", "i", "x"}, 4);
    /* the phi operand %i1 is live out of bar, the incoming block */
    expect_set(&b, "bar", false, (const char *[]){"a", "b", "i1"}, 3);
    expect_set(&b, "exit", true, (const char *[]){"b"}, 1);
    expect_set(&b, "exit", false, NULL, 0);
    dispose(&b);
}

static void test_live_across_barrier_in_loop(void **state)
{
    struct built b = build(loop_ir, "k");
    LLVMBasicBlockRef cut = test_ir_block(b.fn, "bar");
    weft_value_vec across = {0};
    weft_liveness_live_across(b.live, &cut, 1, &across);
    const char *want[] = {"a", "b", "i", "x"};   /* function order */
    assert_int_equal(across.len, 4);
    for (size_t i = 0; i < 4; i++)
        assert_ptr_equal(across.data[i], test_ir_value(b.fn, want[i]));
    weft_vec_free(&across);
    dispose(&b);
}

static void test_live_before_instruction(void **state)
{
    struct built b = build(loop_ir, "k");
    struct weft_bitset s;
    weft_bitset_init(&s, b.live->nvalues);
    /* before `%i1 = add %i, 1` in bar: %i (its operand), %a and %b (live out); not %x (last used
     * by the store above) */
    weft_liveness_live_before(b.live, test_ir_value(b.fn, "i1"), &s);
    assert_int_equal(weft_bitset_count(&s), 3);
    assert_true(weft_bitset_test(&s, (size_t)weft_liveness_index(b.live, test_ir_value(b.fn, "i"))));
    assert_false(weft_bitset_test(&s, (size_t)weft_liveness_index(b.live, test_ir_value(b.fn, "x"))));
    /* before %c in head: %i, %x, %a, %b */
    weft_liveness_live_before(b.live, test_ir_value(b.fn, "c"), &s);
    assert_int_equal(weft_bitset_count(&s), 4);
    weft_bitset_free(&s);
    dispose(&b);
}

static void test_phi_of_barrier_block_crosses_the_barrier(void **state)
{
    struct built b = build(
        "declare void @_Z7barrierj(i32)\n"
        "define void @m(ptr %p, i1 %c, i32 %n) {\n"
        "entry:\n  br i1 %c, label %l, label %r\n"
        "l:\n  %v1 = add i32 %n, 1\n  br label %bar\n"
        "r:\n  %v2 = add i32 %n, 2\n  %unused = add i32 %n, 9\n  br label %bar\n"
        "bar:\n  %m = phi i32 [ %v1, %l ], [ %v2, %r ]\n  %dead = phi i32 [ 0, %l ], [ 1, %r ]\n"
        "  call void @_Z7barrierj(i32 1)\n  store i32 %m, ptr %p\n  ret void\n"
        "}\n", "m");
    LLVMBasicBlockRef cut = test_ir_block(b.fn, "bar");
    weft_value_vec across = {0};
    weft_liveness_live_across(b.live, &cut, 1, &across);
    /* %m is defined (on the incoming edge) before the barrier and used after it; %v1 and %v2
     * die in the phi, %dead is never used */
    assert_int_equal(across.len, 1);
    assert_ptr_equal(across.data[0], test_ir_value(b.fn, "m"));
    expect_set(&b, "l", false, (const char *[]){"v1"}, 1);
    expect_set(&b, "r", false, (const char *[]){"v2"}, 1);
    expect_set(&b, "bar", true, NULL, 0);
    weft_vec_free(&across);
    dispose(&b);
}

static void test_two_barriers_in_sequence(void **state)
{
    struct built b = build(
        "declare void @_Z7barrierj(i32)\n"
        "define void @t(ptr %p, i32 %n) {\n"
        "entry:\n  %a = add i32 %n, 1\n  %z = add i32 %n, 7\n  br label %b1\n"
        "b1:\n  call void @_Z7barrierj(i32 1)\n  %y = add i32 %a, 1\n  br label %b2\n"
        "b2:\n  call void @_Z7barrierj(i32 1)\n  store i32 %y, ptr %p\n  store i32 %z, ptr %p\n"
        "  ret void\n"
        "}\n", "t");
    LLVMBasicBlockRef cuts[2] = {test_ir_block(b.fn, "b1"), test_ir_block(b.fn, "b2")};
    weft_value_vec across = {0};
    weft_liveness_live_across(b.live, cuts, 2, &across);
    /* %a crosses b1; %z crosses both (listed once); %y crosses b2 */
    assert_int_equal(across.len, 3);
    assert_ptr_equal(across.data[0], test_ir_value(b.fn, "a"));
    assert_ptr_equal(across.data[1], test_ir_value(b.fn, "z"));
    assert_ptr_equal(across.data[2], test_ir_value(b.fn, "y"));
    weft_vec_free(&across);
    dispose(&b);
}

/* ---- random functions against a per-value backward search ---------------------------------
 * Random CFGs filled with adds whose operands dominate them and phis whose incoming values are
 * available at the end of each predecessor. Reference: v is live-out of P iff P ends a path to
 * a use of v (a successor where v is live-in, or a phi taking v along P's edge); v is live-in of
 * B iff B holds a non-phi use of v and B is not v's block, or v is live-out of B and B is not
 * v's block — computed per value by a backward search, independently of the block fixpoint. */

static uint32_t rng_state = 777;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

typedef WEFT_VEC(LLVMValueRef) valvec;

static LLVMValueRef random_function(LLVMModuleRef m, LLVMContextRef c, int n, int idx)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef params[3] = {LLVMInt1TypeInContext(c), i32, i32};
    char name[32];
    snprintf(name, sizeof name, "r%d", idx);
    LLVMValueRef fn = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, 3, 0));
    LLVMBasicBlockRef bb[40];
    for (int i = 0; i < n; i++)
        bb[i] = LLVMAppendBasicBlockInContext(c, fn, "");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (int i = 0; i < n; i++) {
        LLVMPositionBuilderAtEnd(b, bb[i]);
        LLVMBasicBlockRef t1 = bb[1 + rnd((uint32_t)n - 1)], t2 = bb[1 + rnd((uint32_t)n - 1)];
        switch (rnd(6)) {
        case 0:
            LLVMBuildRetVoid(b);
            break;
        case 1:
            LLVMBuildBr(b, t1);
            break;
        default:
            LLVMBuildCondBr(b, LLVMGetParam(fn, 0), t1, t2);
            break;
        }
    }
    /* Fill the reachable blocks, in RPO so that dominating blocks are filled first. */
    struct weft_cfg *cfg = weft_cfg_build(fn);
    struct weft_domtree *dom = weft_dom_compute(cfg);
    valvec *defs = calloc((size_t)n, sizeof(valvec));
    for (size_t r = 0; r < cfg->nreachable; r++) {
        uint32_t x = cfg->rpo[r];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb[x]);
        if (weft_cfg_npred(cfg, x) && rnd(2)) {
            LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(bb[x]));
            weft_vec_push(&defs[x], LLVMBuildPhi(b, i32, ""));
        }
        int nadd = (int)rnd(4);
        for (int k = 0; k < nadd; k++) {
            /* operands: arguments, values of strictly dominating blocks, earlier values here */
            valvec avail = {0};
            weft_vec_push(&avail, LLVMGetParam(fn, 1));
            weft_vec_push(&avail, LLVMGetParam(fn, 2));
            for (int d = 0; d < n; d++)
                if (weft_dom_dominates(dom, d, (int)x))
                    for (size_t j = 0; j < defs[d].len; j++)
                        weft_vec_push(&avail, defs[d].data[j]);
            LLVMPositionBuilderBefore(b, term);
            LLVMValueRef v = LLVMBuildAdd(b, avail.data[rnd((uint32_t)avail.len)], avail.data[rnd((uint32_t)avail.len)], "");
            weft_vec_push(&defs[x], v);
            weft_vec_free(&avail);
        }
    }
    /* phi incomings: per predecessor edge, a value available at the end of the predecessor */
    for (int x = 0; x < n; x++) {
        LLVMValueRef phi = LLVMGetFirstInstruction(bb[x]);
        if (!phi || !LLVMIsAPHINode(phi))
            continue;
        LLVMValueRef term_preds[80];
        LLVMBasicBlockRef blocks[80];
        unsigned np = 0;
        /* one incoming entry per CFG edge, as the verifier wants (a condbr to x twice counts twice) */
        for (int p = 0; p < n; p++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb[p]);
            for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++)
                if (LLVMGetSuccessor(t, s) == bb[x]) {
                    valvec avail = {0};
                    weft_vec_push(&avail, LLVMGetParam(fn, 1));
                    for (int d = 0; d < n; d++)
                        if (weft_dom_dominates(dom, d, p))
                            for (size_t j = 0; j < defs[d].len; j++)
                                weft_vec_push(&avail, defs[d].data[j]);
                    /* a repeated edge must repeat the same value */
                    LLVMValueRef v = avail.data[rnd((uint32_t)avail.len)];
                    for (unsigned q = 0; q < np; q++)
                        if (blocks[q] == bb[p])
                            v = term_preds[q];
                    term_preds[np] = v;
                    blocks[np++] = bb[p];
                    weft_vec_free(&avail);
                }
        }
        LLVMAddIncoming(phi, term_preds, blocks, np);
    }
    for (int i = 0; i < n; i++)
        weft_vec_free(&defs[i]);
    free(defs);
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    LLVMDisposeBuilder(b);
    return fn;
}

/* The reference answer for one value: fills in[] and out[] per block. */
static void naive_liveness(const struct weft_cfg *cfg, LLVMValueRef v, bool *in, bool *out)
{
    size_t n = cfg->nblocks;
    int d = weft_cfg_inst_block(cfg, v);
    memset(in, 0, n * sizeof(bool));
    memset(out, 0, n * sizeof(bool));
    WEFT_VEC(uint32_t) work = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int ub = weft_cfg_inst_block(cfg, user);
        if (ub < 0 || !weft_cfg_reachable(cfg, (size_t)ub))
            continue;
        if (LLVMIsAPHINode(user)) {
            unsigned np = LLVMCountIncoming(user);
            for (unsigned q = 0; q < np; q++)
                if (LLVMGetIncomingValue(user, q) == v) {
                    int pb = weft_cfg_index(cfg, LLVMGetIncomingBlock(user, q));
                    if (weft_cfg_reachable(cfg, (size_t)pb) && !out[pb]) {
                        out[pb] = true;
                        if (pb != d && !in[pb]) {
                            in[pb] = true;
                            weft_vec_push(&work, (uint32_t)pb);
                        }
                    }
                }
        } else if (ub != d && !in[ub]) {
            in[ub] = true;
            weft_vec_push(&work, (uint32_t)ub);
        }
    }
    while (work.len) {
        uint32_t x = weft_vec_pop(&work);
        for (size_t k = 0; k < weft_cfg_npred(cfg, x); k++) {
            uint32_t p = weft_cfg_preds(cfg, x)[k];
            if (!weft_cfg_reachable(cfg, p))
                continue;
            out[p] = true;
            if ((int)p != d && !in[p]) {
                in[p] = true;
                weft_vec_push(&work, p);
            }
        }
    }
    weft_vec_free(&work);
}

static void test_random_functions_match_the_definition(void **state)
{
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("random", c);
    size_t checked = 0;
    for (int iter = 0; iter < 200; iter++) {
        int n = 2 + (int)rnd(25);
        LLVMValueRef fn = random_function(m, c, n, iter);
        char *msg = NULL;
        if (LLVMVerifyFunction(fn, LLVMReturnStatusAction)) {
            LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
            print_error("generated function r%d is invalid: %s\n", iter, msg);
            fail();
        }
        struct weft_cfg *cfg = weft_cfg_build(fn);
        struct weft_liveness *l = weft_liveness_compute(cfg);
        bool in[40], out[40];
        for (size_t k = 0; k < l->nvalues; k++) {
            naive_liveness(cfg, l->values[k], in, out);
            for (size_t x = 0; x < cfg->nblocks; x++) {
                bool gi = weft_bitset_test(&l->live_in[x], k), go = weft_bitset_test(&l->live_out[x], k);
                if (gi != in[x] || go != out[x])
                    print_error("r%d value %zu block %zu: in %d/%d out %d/%d (got/expected)\n", iter, k, x, gi,
                                in[x], go, out[x]);
                assert_int_equal(gi, in[x]);
                assert_int_equal(go, out[x]);
                checked += in[x];
            }
        }
        weft_liveness_free(l);
        weft_cfg_free(cfg);
    }
    assert_true(checked > 500);   /* the generator must produce values that live across blocks */
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_sets_of_loop),
        cmocka_unit_test(test_live_across_barrier_in_loop),
        cmocka_unit_test(test_live_before_instruction),
        cmocka_unit_test(test_phi_of_barrier_block_crosses_the_barrier),
        cmocka_unit_test(test_two_barriers_in_sequence),
        cmocka_unit_test(test_random_functions_match_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
