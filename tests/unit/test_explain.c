/* tests/unit/test_explain.c — compiler/explain.h: the decisions it reports for small kernels
 * whose right answers are known from the source: how many sub-CFGs barriers make, that a
 * per-work-item value live across barriers gets an array, the shape of simple accesses, one
 * work-item loop per dimension used (Weft's vectorizer off, so that LLVM gets them), what
 * Weft's vectorizer did per sub-CFG, and errors for a missing kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/compiler.h"
#include "compiler/explain.h"

static const char source[] =
    "__kernel void smooth(__global float *data, __local float *tile, int steps)\n"      /* 1 */
    "{\n"                                                                               /* 2 */
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"                          /* 3 */
    "    size_t g = get_global_id(0);\n"                                                /* 4 */
    "    float v = data[g];\n"                                                          /* 5 */
    "    for (int s = 0; s < steps; s++) {\n"                                           /* 6 */
    "        tile[l] = v;\n"                                                            /* 7 */
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"                                           /* 8 */
    "        v = 0.5f * (v + tile[(l + 1) % n]);\n"                                     /* 9 */
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"                                           /* 10 */
    "    }\n"                                                                           /* 11 */
    "    data[g] = v;\n"                                                                /* 12 */
    "}\n"                                                                               /* 13 */
    "__kernel void scale(__global const float *x, __global float *y, float a)\n"        /* 14 */
    "{\n"
    "    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "    y[i] = a * x[i];\n"
    "}\n";

static struct weft_bitcode exe;

static int build(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    cl_int err = weft_options_parse("-g", WEFT_OPTIONS_COMPILE, &o, &d);
    if (err == CL_SUCCESS) {
        err = weft_build_executable(source, "-g", &o, &exe, &d);
        weft_options_free(&o);
    }
    if (err != CL_SUCCESS)
        fprintf(stderr, "build failed: %s\n", d.text ? d.text : "");
    weft_diag_free(&d);
    return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    weft_bitcode_free(&exe);
    return 0;
}

static void test_kernel_names(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    char **names = NULL;
    unsigned n = 0;
    assert_true(weft_explain_kernel_names(&exe, &names, &n, &d));
    assert_int_equal(n, 2);
    bool smooth = false, scale = false;
    for (unsigned i = 0; i < n; i++) {
        smooth |= !strcmp(names[i], "smooth");
        scale |= !strcmp(names[i], "scale");
        free(names[i]);
    }
    free(names);
    assert_true(smooth && scale);
    weft_diag_free(&d);
}

static void test_barrier_in_loop(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_explain_kernel k;
    const uint64_t local[3] = {64, 1, 1};
    assert_int_equal(weft_explain_kernel(&exe, "smooth", local, &k, &d), CL_SUCCESS);

    /* entry, after the first barrier, after the second */
    assert_int_equal(k.nsubcfgs, 3);
    assert_int_equal(k.subcfgs[0].barrier_line, 0);
    assert_int_equal(k.subcfgs[1].barrier_line, 8);
    assert_int_equal(k.subcfgs[2].barrier_line, 10);
    for (unsigned i = 0; i < k.nsubcfgs; i++)
        assert_true(k.subcfgs[i].nblocks >= 1);

    /* v differs per work-item and lives across both barriers: a float array */
    bool v_array = false;
    for (unsigned i = 0; i < k.nprivates; i++) {
        const struct weft_explain_private *p = &k.privates[i];
        assert_true(__builtin_popcountll(p->subcfg_mask) >= 2);
        if (p->kind == WEFT_EXPLAIN_PRIV_ARRAY && !strcmp(p->type, "float") && p->bytes == 4)
            v_array = true;
    }
    assert_true(v_array);
    assert_true(k.scratch_size >= 64 * 4);
    /* explain's reading of privatization agrees with the pass's own counters */
    for (unsigned i = 0; i < k.nremarks; i++)
        assert_null(strstr(k.remarks[i], "privatization counted"));

    /* data[g] unit stride in global memory; tile[(l + 1) % n] has no affine shape */
    bool global_unit = false, local_varying = false;
    for (unsigned i = 0; i < k.naccesses; i++) {
        const struct weft_explain_access *a = &k.accesses[i];
        if (a->addrspace == 1 && !strcmp(a->op, "load") && a->line == 5)
            global_unit = a->cls == WEFT_ACCESS_UNIT && a->stride == 4 && a->subcfg == 0;
        if (a->addrspace == 3 && !strcmp(a->op, "load") && a->line == 9)
            local_varying = a->cls == WEFT_ACCESS_VARYING;
    }
    assert_true(global_unit);
    assert_true(local_varying);

    /* one work-item loop (dimension 0) per sub-CFG */
    assert_int_equal(k.nloops, 3);
    for (unsigned i = 0; i < k.nloops; i++) {
        assert_int_equal(k.loops[i].dim, 0);
        assert_true(k.loops[i].innermost);
    }
    weft_explain_kernel_free(&k);
    weft_diag_free(&d);
}

/* Weft's vectorizer at 8 lanes on local size 20: every sub-CFG vectorized, a masked tail of 4,
 * the accesses counted by kind; with the vectorizer off the report is empty. */
static void test_vectorizer_report(void **state)
{
    (void)state;
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_explain_kernel k;
    const uint64_t local[3] = {20, 1, 1};
    setenv("WEFT_VECTORIZE", "8", 1);
    assert_int_equal(weft_explain_kernel(&exe, "smooth", local, &k, &d), CL_SUCCESS);
    assert_int_equal(k.nvec, 3);
    for (unsigned i = 0; i < k.nvec; i++) {
        assert_true(k.vec[i].vectorized);
        assert_int_equal(k.vec[i].width, 8);
        assert_true(k.vec[i].tail);
        assert_string_equal(k.vec[i].reason, "");
    }
    /* sub-CFG 1 reads tile[(l + 1) % n]: a gather */
    assert_int_equal(k.vec[1].gathers, 1);
    weft_explain_kernel_free(&k);
    setenv("WEFT_VECTORIZE", "off", 1);
    assert_int_equal(weft_explain_kernel(&exe, "smooth", local, &k, &d), CL_SUCCESS);
    assert_int_equal(k.nvec, 0);
    assert_null(k.vec);
    weft_explain_kernel_free(&k);
    weft_diag_free(&d);
}

static void test_no_barrier_2d(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_explain_kernel k;
    const uint64_t local[3] = {16, 4, 1};
    assert_int_equal(weft_explain_kernel(&exe, "scale", local, &k, &d), CL_SUCCESS);
    assert_int_equal(k.nsubcfgs, 1);
    assert_int_equal(k.nprivates, 0);
    assert_int_equal(k.scratch_size, 0);
    /* x[i] and y[i] are contiguous along dimension 0 */
    unsigned unit = 0;
    for (unsigned i = 0; i < k.naccesses; i++)
        if (k.accesses[i].addrspace == 1)
            unit += k.accesses[i].cls == WEFT_ACCESS_UNIT && k.accesses[i].dim == 0 && k.accesses[i].stride == 4;
    assert_int_equal(unit, 2);
    /* a loop over y around the innermost loop over x */
    assert_int_equal(k.nloops, 2);
    bool x_inner = false, y_outer = false;
    for (unsigned i = 0; i < k.nloops; i++) {
        x_inner |= k.loops[i].dim == 0 && k.loops[i].innermost;
        y_outer |= k.loops[i].dim == 1 && !k.loops[i].innermost;
        if (k.loops[i].vectorized)
            assert_true(k.loops[i].width >= 2);
    }
    assert_true(x_inner && y_outer);
    weft_explain_kernel_free(&k);
    weft_diag_free(&d);
}

static void test_missing_kernel(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_explain_kernel k;
    const uint64_t local[3] = {8, 1, 1};
    assert_int_equal(weft_explain_kernel(&exe, "nope", local, &k, &d), CL_INVALID_KERNEL_NAME);
    assert_non_null(d.text);
    assert_non_null(strstr(d.text, "nope"));
    weft_explain_kernel_free(&k);
    weft_diag_free(&d);
}

int main(void)
{
    setenv("WEFT_VECTORIZE", "off", 1);   /* LLVM's loop vectorizer gets the work-item loops */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_barrier_in_loop),
        cmocka_unit_test(test_no_barrier_2d),
        cmocka_unit_test(test_vectorizer_report),
        cmocka_unit_test(test_missing_kernel),
    };
    return cmocka_run_group_tests(tests, build, teardown);
}
