/* tests/unit/test_shape.c — the shape analysis (compiler/analysis/shape.c): work-item
 * functions, affine arithmetic and strides, the honest answers for division and remainders,
 * phis and selects, loads, control divergence (sync dependence at joins, temporal divergence of
 * loops with divergent exits), seeds and the specialized local size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/analysis/shape.h"

#define DECLS                                                                                   \
    "declare i64 @_Z13get_global_idj(i32) nounwind readnone\n"                                  \
    "declare i64 @_Z12get_local_idj(i32) nounwind readnone\n"                                   \
    "declare i64 @_Z12get_group_idj(i32) nounwind readnone\n"                                   \
    "declare i64 @_Z14get_local_sizej(i32) nounwind readnone\n"                                 \
    "declare i64 @_Z19get_local_linear_idv() nounwind readnone\n"                               \
    "declare void @_Z7barrierj(i32)\n"                                                          \
    "declare float @llvm.sqrt.f32(float)\n"                                                     \
    "declare float @opaque(float)\n"

struct built {
    struct test_ir ir;
    LLVMValueRef fn;
    struct weft_shapes *s;
};

static struct built build(const char *text)
{
    struct built b = {.ir = test_ir_parse(text)};
    b.fn = test_ir_fn(&b.ir, "k");
    b.s = weft_shapes_compute(b.fn, NULL);
    assert_non_null(b.s);
    return b;
}

static void dispose(struct built *b)
{
    weft_shapes_free(b->s);
    test_ir_dispose(&b->ir);
}

static struct weft_shape shape(struct built *b, const char *name)
{
    return weft_shape_of(b->s, test_ir_value(b->fn, name));
}

static void expect_uniform(struct built *b, const char *name)
{
    struct weft_shape sh = shape(b, name);
    if (sh.kind != WEFT_SHAPE_UNIFORM)
        print_error("value %s: expected uniform, got kind %d\n", name, sh.kind);
    assert_int_equal(sh.kind, WEFT_SHAPE_UNIFORM);
}

static void expect_varying(struct built *b, const char *name)
{
    struct weft_shape sh = shape(b, name);
    if (sh.kind != WEFT_SHAPE_VARYING)
        print_error("value %s: expected varying, got kind %d\n", name, sh.kind);
    assert_int_equal(sh.kind, WEFT_SHAPE_VARYING);
}

static void expect_affine(struct built *b, const char *name, int dim, int64_t stride)
{
    struct weft_shape sh = shape(b, name);
    int64_t got = 0;
    if (sh.kind != WEFT_SHAPE_AFFINE)
        print_error("value %s: expected affine, got kind %d\n", name, sh.kind);
    assert_int_equal(sh.kind, WEFT_SHAPE_AFFINE);
    assert_int_equal(sh.dim, dim);
    assert_true(weft_shape_const_stride(sh, &got));
    if (got != stride)
        print_error("value %s: expected stride %lld, got %lld\n", name, (long long)stride, (long long)got);
    assert_int_equal(got, stride);
    /* the stride constant has the value's type (i64 bytes for pointers) */
    LLVMTypeRef t = LLVMTypeOf(test_ir_value(b->fn, name));
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
        assert_ptr_equal(LLVMTypeOf(sh.stride), t);
    else
        assert_int_equal(LLVMGetIntTypeWidth(LLVMTypeOf(sh.stride)), 64);
}

/* Required by the issue: get_global_id(0)*2+1 is affine in dim 0 with stride 2 — in the i64
 * form and in the form clang emits for `int i = get_global_id(0); a[2*i+1]`. */
static void test_global_id_times_two_plus_one(void **state)
{
    struct built b = build(DECLS
        "define void @k(ptr addrspace(1) %a) {\n"
        "entry:\n"
        "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %mul = mul i64 %gid, 2\n"
        "  %add = add i64 %mul, 1\n"
        "  %conv = trunc i64 %gid to i32\n"
        "  %shl = shl nsw i32 %conv, 1\n"
        "  %or = or disjoint i32 %shl, 1\n"
        "  %idx = sext i32 %or to i64\n"
        "  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idx\n"
        "  store float 0.0, ptr addrspace(1) %p\n"
        /* clang -O2's sign extension of an int index: (x << 32) >>exact 32 */
        "  %hi = shl i64 %mul, 32\n"
        "  %sx = ashr exact i64 %hi, 32\n"
        "  %inexact = ashr i64 %hi, 32\n"
        "  ret void\n"
        "}\n");
    expect_affine(&b, "gid", 0, 1);
    expect_affine(&b, "mul", 0, 2);
    expect_affine(&b, "add", 0, 2);
    expect_affine(&b, "conv", 0, 1);
    expect_affine(&b, "shl", 0, 2);
    expect_affine(&b, "or", 0, 2);
    expect_affine(&b, "idx", 0, 2);
    expect_affine(&b, "p", 0, 8);   /* 2 floats per work-item = 8 bytes */
    expect_affine(&b, "hi", 0, (int64_t)2 << 32);
    expect_affine(&b, "sx", 0, 2);
    expect_varying(&b, "inexact");
    dispose(&b);
}

/* Required by the issue: get_local_id(0)/32. Work-items 0..31 share one value, 32..63 the next:
 * no (base + stride * lid) form describes that, so the honest answer is varying — as for the
 * shift, remainder and mask forms of the same idea. Its use as an index is a gather. */
static void test_local_id_div_32_is_varying(void **state)
{
    struct built b = build(DECLS
        "define void @k() {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %div = udiv i64 %lid, 32\n"
        "  %sh = lshr i64 %lid, 5\n"
        "  %rem = urem i64 %lid, 32\n"
        "  %and = and i64 %lid, 31\n"
        "  %n = call i64 @_Z14get_local_sizej(i32 0)\n"
        "  %ndiv = udiv i64 %n, 32\n"
        "  %exact = udiv exact i64 %lid, 32\n"
        "  ret void\n"
        "}\n");
    expect_affine(&b, "lid", 0, 1);
    expect_varying(&b, "div");
    expect_varying(&b, "sh");
    expect_varying(&b, "rem");
    expect_varying(&b, "and");
    expect_uniform(&b, "ndiv");   /* division of uniform values stays uniform */
    /* `exact` promises no remainder, which stride 1 / 32 contradicts: still varying */
    expect_varying(&b, "exact");
    dispose(&b);
}

/* Required by the issue: a phi of a uniform and an affine value is varying; phis of equal
 * shapes at a uniform join keep the shape. */
static void test_phi_of_uniform_and_affine(void **state)
{
    struct built b = build(DECLS
        "define void @k(i32 %n, i1 %uc) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %n64 = zext i32 %n to i64\n"
        "  br i1 %uc, label %l, label %r\n"
        "l:\n  %u1 = add i64 %n64, 1\n  br label %j\n"
        "r:\n  %u2 = add i64 %n64, 2\n  br label %j\n"
        "j:\n"
        "  %mixed = phi i64 [ %n64, %l ], [ %lid, %r ]\n"
        "  %unif = phi i64 [ %u1, %l ], [ %u2, %r ]\n"
        "  %aff = phi i64 [ %lid, %l ], [ %gid, %r ]\n"
        "  ret void\n"
        "}\n");
    assert_false(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "entry")));
    expect_varying(&b, "mixed");
    expect_uniform(&b, "unif");
    expect_affine(&b, "aff", 0, 1);
    dispose(&b);
}

/* Required by the issue: a value defined under a divergent branch is varying after the join,
 * though it is uniform where it is defined. */
static void test_value_under_divergent_branch_is_varying_after_join(void **state)
{
    struct built b = build(DECLS
        "define void @k(i32 %n, ptr addrspace(1) %out) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %c = icmp ult i64 %lid, 16\n"
        "  br i1 %c, label %then, label %join\n"
        "then:\n  %u = add i32 %n, 1\n  br label %join\n"
        "join:\n"
        "  %p = phi i32 [ %u, %then ], [ 0, %entry ]\n"
        "  %after = add i32 %n, 5\n"
        "  store i32 %p, ptr addrspace(1) %out\n"
        "  ret void\n"
        "}\n");
    assert_true(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "entry")));
    expect_varying(&b, "c");
    expect_uniform(&b, "u");
    expect_varying(&b, "p");
    expect_uniform(&b, "after");   /* computed after reconvergence from uniform values */
    dispose(&b);
}

/* Diamonds nested in a divergent region: the inner uniform join keeps its uniform phi; only the
 * outer join, where the divergent paths meet, is varying. Also the bounds-check pattern
 * `if (gid < n) for (i < m)`: the loop counter stays uniform inside the region. */
static void test_joins_inside_divergent_region(void **state)
{
    struct built b = build(DECLS
        "define void @k(i32 %n, i32 %m, i1 %uc, ptr addrspace(1) %out) {\n"
        "entry:\n"
        "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %n64 = zext i32 %n to i64\n"
        "  %in = icmp ult i64 %gid, %n64\n"
        "  br i1 %in, label %body, label %exit\n"
        "body:\n  br i1 %uc, label %a, label %b\n"
        "a:\n  br label %inner\n"
        "b:\n  br label %inner\n"
        "inner:\n  %q = phi i32 [ 1, %a ], [ 2, %b ]\n  br label %loop\n"
        "loop:\n"
        "  %i = phi i32 [ 0, %inner ], [ %i1, %loop ]\n"
        "  %i1 = add i32 %i, 1\n"
        "  %lc = icmp slt i32 %i1, %m\n"
        "  br i1 %lc, label %loop, label %exit\n"
        "exit:\n"
        "  %r = phi i32 [ 0, %entry ], [ %q, %loop ]\n"
        "  store i32 %r, ptr addrspace(1) %out\n"
        "  ret void\n"
        "}\n");
    assert_true(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "entry")));
    assert_false(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "body")));
    assert_false(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "loop")));
    expect_uniform(&b, "q");
    expect_uniform(&b, "i");
    expect_uniform(&b, "lc");
    expect_varying(&b, "r");
    dispose(&b);
}

/* A divergent branch whose paths meet again only at the loop header (two latches): the header
 * phi merging the latches is a join; a phi receiving the same value from both is not. */
static void test_divergent_branch_reconverging_at_loop_header(void **state)
{
    struct built b = build(DECLS
        "define void @k(i32 %n) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  br label %h\n"
        "h:\n"
        "  %x = phi i32 [ 0, %entry ], [ 1, %l1 ], [ 2, %l2 ]\n"
        "  %i = phi i32 [ 0, %entry ], [ %i1, %l1 ], [ %i1, %l2 ]\n"
        "  %i1 = add i32 %i, 1\n"
        "  %c = icmp ult i32 %i1, %n\n"
        "  br i1 %c, label %body, label %exit\n"
        "body:\n"
        "  %d = icmp eq i64 %lid, 0\n"
        "  br i1 %d, label %l1, label %l2\n"
        "l1:\n  br label %h\n"
        "l2:\n  br label %h\n"
        "exit:\n  ret void\n"
        "}\n");
    assert_true(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "body")));
    assert_false(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "h")));
    expect_varying(&b, "x");
    expect_uniform(&b, "i");
    expect_uniform(&b, "c");
    dispose(&b);
}

/* A loop whose exit depends on the local id: work-items leave in different iterations. The
 * counter is uniform among the work-items still inside, but whatever escapes the loop is
 * varying (temporal divergence). */
static void test_loop_with_divergent_exit(void **state)
{
    struct built b = build(DECLS
        "define void @k(i32 %n, ptr addrspace(1) %out) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %lid32 = trunc i64 %lid to i32\n"
        "  br label %loop\n"
        "loop:\n"
        "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
        "  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]\n"
        "  %t = phi i32 [ 0, %entry ], [ %t1, %loop ]\n"
        "  %s1 = add i32 %s, %n\n"
        "  %t1 = add i32 %t, 2\n"
        "  %i1 = add i32 %i, 1\n"
        "  %c = icmp slt i32 %i1, %lid32\n"
        "  br i1 %c, label %loop, label %done\n"
        "done:\n"
        "  %lcssa = phi i32 [ %s1, %loop ]\n"
        "  store i32 %lcssa, ptr addrspace(1) %out\n"
        "  store i32 %t1, ptr addrspace(1) %out\n"
        "  ret void\n"
        "}\n");
    assert_true(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "loop")));
    expect_uniform(&b, "i");
    expect_uniform(&b, "s");
    expect_uniform(&b, "s1");      /* leaves the loop only through the LCSSA phi... */
    expect_varying(&b, "lcssa");   /* ...which sees different iterations' values */
    expect_varying(&b, "t1");      /* used directly after the loop: varying as a whole */
    expect_varying(&b, "t");       /* (and so is the phi it feeds: shapes are per value) */
    expect_varying(&b, "c");
    dispose(&b);
}

/* Cancelling strides, uniform-by-definition values, a symbolic stride, different dimensions,
 * pointer strides through GEPs, quadratic terms. */
static void test_affine_arithmetic(void **state)
{
    struct built b = build(DECLS
        "%struct.P = type { i32, [4 x float] }\n"
        "define void @k(i64 %n, ptr addrspace(1) %a) {\n"
        "entry:\n"
        "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %lid1 = call i64 @_Z12get_local_idj(i32 1)\n"
        "  %grp = call i64 @_Z12get_group_idj(i32 0)\n"
        "  %base = sub i64 %gid, %lid\n"
        "  %neg = sub i64 %n, %lid\n"
        "  %sym = mul i64 %lid, %n\n"
        "  %symoff = add i64 %sym, %grp\n"
        "  %twod = add i64 %lid, %lid1\n"
        "  %sq = mul i64 %lid, %lid\n"
        "  %dbl = add i64 %lid, %gid\n"
        "  %row = mul i64 %lid1, 4\n"
        "  %pf = getelementptr inbounds %struct.P, ptr addrspace(1) %a, i64 %lid, i32 1, i64 2\n"
        "  %pn = getelementptr inbounds float, ptr addrspace(1) %a, i64 %sym\n"
        "  %pb = getelementptr inbounds i8, ptr addrspace(1) %a, i64 %sym\n"
        "  ret void\n"
        "}\n");
    expect_uniform(&b, "base");
    expect_affine(&b, "neg", 0, -1);
    expect_affine(&b, "dbl", 0, 2);
    expect_affine(&b, "lid1", 1, 1);
    expect_affine(&b, "row", 1, 4);
    expect_varying(&b, "twod");
    expect_varying(&b, "sq");
    expect_affine(&b, "pf", 0, 20);   /* sizeof(struct P) = 4 + 16 */
    struct weft_shape sym = shape(&b, "sym"), symoff = shape(&b, "symoff");
    assert_int_equal(sym.kind, WEFT_SHAPE_AFFINE);
    assert_ptr_equal(sym.stride, test_ir_value(b.fn, "n"));   /* the uniform value itself */
    assert_int_equal(symoff.kind, WEFT_SHAPE_AFFINE);
    assert_ptr_equal(symoff.stride, test_ir_value(b.fn, "n"));
    expect_varying(&b, "pn");   /* 4*n is not a value of the IR: conservatively varying */
    struct weft_shape pb = shape(&b, "pb");
    assert_int_equal(pb.kind, WEFT_SHAPE_AFFINE);
    assert_ptr_equal(pb.stride, test_ir_value(b.fn, "n"));
    dispose(&b);
}

/* Loads: uniform only from a uniform address of memory no work-item writes. */
static void test_loads(void **state)
{
    struct built b = build(DECLS
        "%struct.S = type { i32, i32 }\n"
        "@tbl = internal addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]\n"
        "define void @k(ptr addrspace(1) %g, ptr addrspace(2) %c, ptr byval(%struct.S) %s,"
        "               ptr byval(%struct.S) %w) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %lg = load i32, ptr addrspace(1) %g\n"
        "  %lc = load i32, ptr addrspace(2) %c\n"
        "  %pc = getelementptr inbounds i32, ptr addrspace(2) %c, i64 %lid\n"
        "  %lcv = load i32, ptr addrspace(2) %pc\n"
        "  %ps = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1\n"
        "  %ls = load i32, ptr %ps\n"
        "  store i32 7, ptr %w\n"
        "  %lw = load i32, ptr %w\n"
        "  %pt = getelementptr inbounds [4 x i32], ptr addrspace(2) @tbl, i64 0, i64 2\n"
        "  %lt = load i32, ptr addrspace(2) %pt\n"
        "  %al = alloca i32\n"
        "  store i32 1, ptr %al\n"
        "  %la = load i32, ptr %al\n"
        "  ret void\n"
        "}\n");
    expect_varying(&b, "lg");     /* __global: another work-item may have written it */
    expect_uniform(&b, "lc");
    expect_affine(&b, "pc", 0, 4);
    expect_varying(&b, "lcv");
    expect_uniform(&b, "ls");     /* read-only by-value argument */
    expect_varying(&b, "lw");     /* the kernel writes this by-value argument */
    expect_uniform(&b, "lt");
    expect_varying(&b, "al");     /* every work-item has its own private object */
    expect_varying(&b, "la");
    dispose(&b);
}

/* select, calls: pure functions of uniform values are uniform, opaque calls are not. */
static void test_select_and_calls(void **state)
{
    struct built b = build(DECLS
        "define void @k(float %x, i1 %uc, i64 %n) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  %vc = icmp eq i64 %lid, 0\n"
        "  %s1 = select i1 %uc, i64 %n, i64 7\n"
        "  %s2 = select i1 %vc, i64 %n, i64 7\n"
        "  %s3 = select i1 %uc, i64 %lid, i64 %n\n"
        "  %gid = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %s4 = select i1 %uc, i64 %lid, i64 %gid\n"
        "  %q = call float @llvm.sqrt.f32(float %x)\n"
        "  %o = call float @opaque(float %x)\n"
        "  %f = fadd float %q, 1.0\n"
        "  %lf = uitofp i64 %lid to float\n"
        "  %vc32 = zext i1 %uc to i32\n"
        "  %dyn = call i64 @_Z12get_local_idj(i32 %vc32)\n"
        "  %far = call i64 @_Z12get_local_idj(i32 5)\n"
        "  ret void\n"
        "}\n");
    expect_uniform(&b, "s1");
    expect_varying(&b, "s2");
    expect_varying(&b, "s3");
    expect_affine(&b, "s4", 0, 1);
    expect_uniform(&b, "q");
    expect_varying(&b, "o");
    expect_uniform(&b, "f");
    expect_varying(&b, "lf");
    expect_varying(&b, "dyn");    /* dimension unknown at compile time */
    expect_uniform(&b, "far");    /* dimension >= 3 reads 0 for everyone */
    dispose(&b);
}

/* Loop-carried affine values: an induction variable starting at the local id and stepping by a
 * uniform amount stays affine; accumulating the local id is not. */
static void test_loop_carried_values(void **state)
{
    struct built b = build(DECLS
        "define void @k(i64 %n) {\n"
        "entry:\n"
        "  %lid = call i64 @_Z12get_local_idj(i32 0)\n"
        "  br label %loop\n"
        "loop:\n"
        "  %j = phi i64 [ %lid, %entry ], [ %j1, %loop ]\n"
        "  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]\n"
        "  %t = phi i64 [ 0, %entry ], [ %t1, %loop ]\n"
        "  %j1 = add i64 %j, 64\n"
        "  %acc1 = add i64 %acc, %lid\n"
        "  %t1 = add i64 %t, 1\n"
        "  %c = icmp ult i64 %t1, %n\n"
        "  br i1 %c, label %loop, label %done\n"
        "done:\n  ret void\n"
        "}\n");
    expect_affine(&b, "j", 0, 1);
    expect_affine(&b, "j1", 0, 1);
    expect_varying(&b, "acc");
    expect_varying(&b, "acc1");
    expect_uniform(&b, "t");
    assert_false(weft_shapes_branch_divergent(b.s, test_ir_block(b.fn, "loop")));
    dispose(&b);
}

/* Seeds pin values (e.g. a work-item loop's counter); the local size makes size-1 dimensions
 * uniform and linear ids affine. */
static void test_seeds_and_local_size(void **state)
{
    struct test_ir ir = test_ir_parse(DECLS
        "define void @k(i64 %n) {\n"
        "entry:\n"
        "  %lid1 = call i64 @_Z12get_local_idj(i32 1)\n"
        "  %lin = call i64 @_Z19get_local_linear_idv()\n"
        "  %x = load i64, ptr null\n"
        "  %y = mul i64 %x, 3\n"
        "  %z = add i64 %y, %n\n"
        "  ret void\n"
        "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "k");

    struct weft_shapes *s = weft_shapes_create(fn, NULL);
    LLVMValueRef x = test_ir_value(fn, "x");
    weft_shapes_seed(s, x, (struct weft_shape){WEFT_SHAPE_AFFINE, 0, LLVMConstInt(LLVMInt64TypeInContext(ir.ctx), 1, 0)});
    weft_shapes_run(s);
    int64_t st;
    struct weft_shape z = weft_shape_of(s, test_ir_value(fn, "z"));
    assert_int_equal(z.kind, WEFT_SHAPE_AFFINE);
    assert_true(weft_shape_const_stride(z, &st));
    assert_int_equal(st, 3);
    assert_int_equal(weft_shape_of(s, test_ir_value(fn, "lid1")).kind, WEFT_SHAPE_AFFINE);
    assert_int_equal(weft_shape_of(s, test_ir_value(fn, "lin")).kind, WEFT_SHAPE_VARYING);
    weft_shapes_free(s);

    s = weft_shapes_create(fn, NULL);
    weft_shapes_set_local_size(s, (const uint64_t[3]){64, 1, 1});
    weft_shapes_run(s);
    assert_int_equal(weft_shape_of(s, test_ir_value(fn, "lid1")).kind, WEFT_SHAPE_UNIFORM);
    struct weft_shape lin = weft_shape_of(s, test_ir_value(fn, "lin"));
    assert_int_equal(lin.kind, WEFT_SHAPE_AFFINE);
    assert_int_equal(lin.dim, 0);
    assert_int_equal(weft_shape_of(s, x).kind, WEFT_SHAPE_VARYING);   /* unseeded load of a pointer */
    weft_shapes_free(s);
    test_ir_dispose(&ir);
}

/* The 2-D index `gy*w + gx` varies in two dimensions: varying for the whole group, affine with
 * stride 1 along dimension 0 (and stride w along dimension 1) in the focused views. */
static void test_focus_dim_two_dimensional_index(void **state)
{
    static const char *text = DECLS
        "define void @k(i32 %w, ptr addrspace(1) %a) {\n"
        "entry:\n"
        "  %gx = call i64 @_Z13get_global_idj(i32 0)\n"
        "  %gy = call i64 @_Z13get_global_idj(i32 1)\n"
        "  %x = trunc i64 %gx to i32\n"
        "  %y = trunc i64 %gy to i32\n"
        "  %row = mul nsw i32 %y, %w\n"
        "  %idx = add nsw i32 %row, %x\n"
        "  %c = icmp slt i32 %y, 4\n"
        "  br i1 %c, label %t, label %j\n"
        "t:\n  br label %j\n"
        "j:\n  %p = phi i32 [ 1, %t ], [ 2, %entry ]\n"
        "  %lin = call i64 @_Z19get_local_linear_idv()\n"
        "  ret void\n"
        "}\n";
    struct test_ir ir = test_ir_parse(text);
    LLVMValueRef fn = test_ir_fn(&ir, "k");
    LLVMValueRef idx = test_ir_value(fn, "idx"), p = test_ir_value(fn, "p"), lin = test_ir_value(fn, "lin");
    int64_t st;

    struct weft_shapes *s = weft_shapes_compute(fn, NULL);
    assert_int_equal(weft_shape_of(s, idx).kind, WEFT_SHAPE_VARYING);
    assert_int_equal(weft_shape_of(s, p).kind, WEFT_SHAPE_VARYING);
    weft_shapes_free(s);

    s = weft_shapes_create(fn, NULL);
    weft_shapes_set_focus_dim(s, 0);
    weft_shapes_run(s);
    struct weft_shape sh = weft_shape_of(s, idx);
    assert_int_equal(sh.kind, WEFT_SHAPE_AFFINE);
    assert_int_equal(sh.dim, 0);
    assert_true(weft_shape_const_stride(sh, &st));
    assert_int_equal(st, 1);
    /* the branch on y is uniform along x: no join there */
    assert_int_equal(weft_shape_of(s, p).kind, WEFT_SHAPE_UNIFORM);
    assert_int_equal(weft_shape_of(s, lin).kind, WEFT_SHAPE_AFFINE);
    weft_shapes_free(s);

    s = weft_shapes_create(fn, NULL);
    weft_shapes_set_focus_dim(s, 1);
    weft_shapes_set_local_size(s, (const uint64_t[3]){16, 8, 1});
    weft_shapes_run(s);
    sh = weft_shape_of(s, idx);
    assert_int_equal(sh.kind, WEFT_SHAPE_AFFINE);
    assert_int_equal(sh.dim, 1);
    assert_ptr_equal(sh.stride, test_ir_value(fn, "w"));
    assert_int_equal(weft_shape_of(s, p).kind, WEFT_SHAPE_VARYING);
    sh = weft_shape_of(s, lin);
    assert_true(weft_shape_const_stride(sh, &st));
    assert_int_equal(st, 16);
    weft_shapes_free(s);
    test_ir_dispose(&ir);
}

/* Given loops from the caller, the analysis uses them (and answers the same). */
static void test_with_caller_loops(void **state)
{
    struct test_ir ir = test_ir_parse(DECLS
        "define void @k() {\n"
        "entry:\n  %lid = call i64 @_Z12get_local_idj(i32 0)\n  %c = icmp eq i64 %lid, 3\n"
        "  br i1 %c, label %t, label %j\n"
        "t:\n  br label %j\n"
        "j:\n  %p = phi i64 [ 1, %t ], [ 2, %entry ]\n  ret void\n"
        "}\n");
    LLVMValueRef fn = test_ir_fn(&ir, "k");
    struct weft_cfg *cfg = weft_cfg_build(fn);
    struct weft_domtree *dom = weft_dom_compute(cfg);
    struct weft_loops *loops = weft_loops_compute(cfg, dom);
    struct weft_shapes *s = weft_shapes_compute(fn, loops);
    assert_int_equal(weft_shape_of(s, test_ir_value(fn, "p")).kind, WEFT_SHAPE_VARYING);
    weft_shapes_free(s);
    weft_loops_free(loops);
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_id_times_two_plus_one),
        cmocka_unit_test(test_local_id_div_32_is_varying),
        cmocka_unit_test(test_phi_of_uniform_and_affine),
        cmocka_unit_test(test_value_under_divergent_branch_is_varying_after_join),
        cmocka_unit_test(test_joins_inside_divergent_region),
        cmocka_unit_test(test_divergent_branch_reconverging_at_loop_header),
        cmocka_unit_test(test_loop_with_divergent_exit),
        cmocka_unit_test(test_affine_arithmetic),
        cmocka_unit_test(test_loads),
        cmocka_unit_test(test_select_and_calls),
        cmocka_unit_test(test_loop_carried_values),
        cmocka_unit_test(test_seeds_and_local_size),
        cmocka_unit_test(test_focus_dim_two_dimensional_index),
        cmocka_unit_test(test_with_caller_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
