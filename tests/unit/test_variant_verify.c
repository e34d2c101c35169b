/* tests/unit/test_variant_verify.c — WEFT_VERIFY's comparison (exec/variant_verify.h): two
 * work-group functions that agree pass, one that drops a group's stores (the breadth-first bug
 * of shared/repros/variant-bfo) or writes another value is caught, float buffers may differ by
 * a few ulps but not more, and the buffers hold their contents from before either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exec/pool.h"
#include "exec/variant_verify.h"

#define GROUPS 40u
#define LOCAL 8u
#define N (GROUPS * LOCAL)

struct bufs {
    uint32_t in[N], out[N];   /* out: in place, out[i] += in[i] * 3 */
    float f[N];
};

static void good(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)ctx;
    struct bufs *b = (struct bufs *)args;
    for (uint64_t g = first; g < first + count; g++)
        for (unsigned l = 0; l < LOCAL; l++) {
            size_t i = g * LOCAL + l;
            b->out[i] += b->in[i] * 3;
            b->f[i] = (float)b->in[i] / 7.0f;
        }
}

/* the last work-item of every fifth group loses its store */
static void drops_stores(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)ctx;
    struct bufs *b = (struct bufs *)args;
    for (uint64_t g = first; g < first + count; g++)
        for (unsigned l = 0; l < LOCAL; l++) {
            size_t i = g * LOCAL + l;
            if (g % 5 != 3 || l != LOCAL - 1)
                b->out[i] += b->in[i] * 3;
            b->f[i] = (float)b->in[i] / 7.0f;
        }
}

static float nudge(float x, int ulps)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u += (uint32_t)ulps;
    memcpy(&x, &u, sizeof x);
    return x;
}

static void float_close(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    good(args, ctx, first, count);
    struct bufs *b = (struct bufs *)args;
    for (uint64_t i = first * LOCAL; i < (first + count) * LOCAL; i++)
        b->f[i] = nudge(b->f[i], 2);
}

static void float_far(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    good(args, ctx, first, count);
    struct bufs *b = (struct bufs *)args;
    if (first <= 17 && 17 < first + count)
        b->f[17 * LOCAL] = nudge(b->f[17 * LOCAL], 1000);
}

static struct bufs data;

static struct weft_launch launch_of(weft_wg_fn fn)
{
    struct weft_launch l;
    memset(&l, 0, sizeof l);
    l.fn = fn;
    l.args = &data;
    l.ctx.work_dim = 1;
    for (int d = 0; d < 3; d++)
        l.ctx.global_size[d] = l.ctx.local_size[d] = l.ctx.num_groups[d] = 1;
    l.ctx.global_size[0] = N;
    l.ctx.local_size[0] = LOCAL;
    l.ctx.num_groups[0] = GROUPS;
    l.total_groups = GROUPS;
    return l;
}

static bool check(weft_wg_fn a, weft_wg_fn b)
{
    for (unsigned i = 0; i < N; i++) {
        data.in[i] = i * 2654435761u;
        data.out[i] = i;
        data.f[i] = -1.0f;
    }
    struct bufs before = data;
    struct weft_verify_buffer bufs[] = {
        {data.in, sizeof data.in, weft_verify_elem_of("uint*"), 0},
        {data.out, sizeof data.out, weft_verify_elem_of("uint*"), 1},
        {data.f, sizeof data.f, weft_verify_elem_of("float*"), 2},
    };
    struct weft_launch l = launch_of(a);
    bool ok = weft_verify_pair(&l, b, bufs, 3, "test kernel");
    assert_memory_equal(&data, &before, sizeof data);   /* restored */
    return ok;
}

static void test_agreeing_variants_pass(void **state)
{
    (void)state;
    unsigned before = weft_verify_mismatches();
    assert_true(check(good, good));
    assert_true(check(good, float_close));
    assert_int_equal(weft_verify_mismatches(), before);
}

static void test_dropped_store_is_caught(void **state)
{
    (void)state;
    unsigned before = weft_verify_mismatches();
    assert_false(check(good, drops_stores));
    assert_false(check(drops_stores, good));
    assert_int_equal(weft_verify_mismatches(), before + 2);
}

static void test_float_beyond_tolerance_is_caught(void **state)
{
    (void)state;
    assert_false(check(good, float_far));
}

static void test_element_kinds(void **state)
{
    (void)state;
    assert_int_equal(weft_verify_elem_of("float*"), WEFT_VERIFY_FLOAT);
    assert_int_equal(weft_verify_elem_of("float4*"), WEFT_VERIFY_FLOAT);
    assert_int_equal(weft_verify_elem_of("double16*"), WEFT_VERIFY_DOUBLE);
    assert_int_equal(weft_verify_elem_of("half*"), WEFT_VERIFY_HALF);
    assert_int_equal(weft_verify_elem_of("int*"), WEFT_VERIFY_BYTES);
    assert_int_equal(weft_verify_elem_of("floatS*"), WEFT_VERIFY_BYTES);
    assert_int_equal(weft_verify_elem_of(NULL), WEFT_VERIFY_BYTES);
}

int main(void)
{
    unsetenv("WEFT_VERIFY_LOG");   /* the mismatches here are meant: keep them out of make test-verify's log */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agreeing_variants_pass),
        cmocka_unit_test(test_dropped_store_is_caught),
        cmocka_unit_test(test_float_beyond_tolerance_is_caught),
        cmocka_unit_test(test_element_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
