/* tests/unit/test_variant.c — variant names (compiler/variant.h): every choice has a name that
 * parses back to it, names that are not variants are refused, and WEFT_VARIANT forces only a
 * name it can parse; the static cost rule that takes scalar code over a vectorized row walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compiler/variant.h"

static void test_every_choice_round_trips(void **state)
{
    (void)state;
    char name[WEFT_VARIANT_NAME_MAX];
    for (unsigned i = 0; i < WEFT_VARIANT_CHOICES; i++)
        for (int wide = 0; wide < 2; wide++) {
            struct weft_variant_spec v, back;
            weft_variant_choice(i, &v);
            v.wide_ids = wide;
            weft_variant_name(&v, name);
            assert_true(weft_variant_parse(name, &back));
            assert_true(weft_variant_equal(&v, &back));
            for (unsigned j = 0; j < i; j++) {   /* and no two choices share a name */
                struct weft_variant_spec o;
                char other[WEFT_VARIANT_NAME_MAX];
                weft_variant_choice(j, &o);
                o.wide_ids = wide;
                assert_string_not_equal(weft_variant_name(&o, other), name);
            }
        }
}

static void test_names(void **state)
{
    (void)state;
    char name[WEFT_VARIANT_NAME_MAX];
    struct weft_variant_spec v = {WEFT_SCHEDULE_AUTO, WEFT_CODE_SCALAR, true, 0};
    assert_string_equal(weft_variant_name(&v, name), "lc.scalar.wide");
    v = (struct weft_variant_spec){WEFT_SCHEDULE_DFO, WEFT_CODE_X2, false, 8};
    assert_string_equal(weft_variant_name(&v, name), "dfo.x2.sg8");
    v = (struct weft_variant_spec){WEFT_SCHEDULE_BFO, WEFT_CODE_VECTOR, false, 0};
    assert_string_equal(weft_variant_name(&v, name), "bfo");
}

static void test_refused_names(void **state)
{
    (void)state;
    static const char *const bad[] = {"", "auto", "dfo.", "dfo.scalar.x2", "dfo.wide.scalar", "lc.sg8",
                                      "bfox", "dfo.scalarx", "DFO", ".scalar", "dfo.wide.wide"};
    struct weft_variant_spec v;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (weft_variant_parse(bad[i], &v))
            fail_msg("'%s' parsed as a variant", bad[i]);
}

/* The static cost rule takes scalar code for vectorized variants with a row walk under masks,
 * keeps the rest of the variant, and leaves scalar and two-packet variants alone; the scalar
 * variant then has no scalar alternative, only the breadth-first one when a loop votes for it. */
static void test_static_scalar(void **state)
{
    (void)state;
    struct weft_variant_spec v = {WEFT_SCHEDULE_DFO, WEFT_CODE_VECTOR, true, 0}, out, alt[2];
    assert_false(weft_variant_static_scalar(&v, 0, &out));
    assert_true(weft_variant_static_scalar(&v, 2, &out));
    assert_int_equal(out.code, WEFT_CODE_SCALAR);
    assert_int_equal(out.schedule, WEFT_SCHEDULE_DFO);
    assert_true(out.wide_ids);
    assert_int_equal(weft_variant_alternatives(&out, false, false, false, alt), 0);
    assert_int_equal(weft_variant_alternatives(&out, false, true, true, alt), 0);
    assert_int_equal(weft_variant_alternatives(&out, true, false, false, alt), 1);
    assert_int_equal(alt[0].schedule, WEFT_SCHEDULE_AUTO);
    assert_int_equal(alt[0].code, WEFT_CODE_SCALAR);
    struct weft_variant_spec scalar = {WEFT_SCHEDULE_DFO, WEFT_CODE_SCALAR, false, 0};
    struct weft_variant_spec x2 = {WEFT_SCHEDULE_DFO, WEFT_CODE_X2, false, 0};
    assert_false(weft_variant_static_scalar(&scalar, 1, &out));
    assert_false(weft_variant_static_scalar(&x2, 1, &out));
}

/* The alternatives of a vectorized variant, in the order the runtime tries them: breadth-first
 * before scalar code for divergent code, scalar code first when the work-items' own vectors fill
 * a register, nothing when no reason holds. */
static void test_alternatives(void **state)
{
    (void)state;
    struct weft_variant_spec v = {WEFT_SCHEDULE_DFO, WEFT_CODE_VECTOR, false, 0}, alt[2];
    assert_int_equal(weft_variant_alternatives(&v, false, false, false, alt), 0);
    assert_int_equal(weft_variant_alternatives(&v, true, true, false, alt), 2);
    assert_int_equal(alt[0].schedule, WEFT_SCHEDULE_AUTO);
    assert_int_equal(alt[0].code, WEFT_CODE_VECTOR);
    assert_int_equal(alt[1].schedule, WEFT_SCHEDULE_DFO);
    assert_int_equal(alt[1].code, WEFT_CODE_SCALAR);
    assert_int_equal(weft_variant_alternatives(&v, true, true, true, alt), 2);
    assert_int_equal(alt[0].schedule, WEFT_SCHEDULE_DFO);
    assert_int_equal(alt[0].code, WEFT_CODE_SCALAR);
    assert_int_equal(alt[1].schedule, WEFT_SCHEDULE_AUTO);
    assert_int_equal(alt[1].code, WEFT_CODE_VECTOR);
    assert_int_equal(weft_variant_alternatives(&v, false, false, true, alt), 1);
    assert_int_equal(alt[0].code, WEFT_CODE_SCALAR);
}

static void test_forced(void **state)
{
    (void)state;
    struct weft_variant_spec v;
    unsetenv("WEFT_VARIANT");
    assert_false(weft_variant_forced(&v));
    setenv("WEFT_VARIANT", "auto", 1);
    assert_false(weft_variant_forced(&v));
    setenv("WEFT_VARIANT", "no-such-variant", 1);
    assert_false(weft_variant_forced(&v));
    setenv("WEFT_VARIANT", "bfo.x2", 1);
    assert_true(weft_variant_forced(&v));
    assert_int_equal(v.schedule, WEFT_SCHEDULE_BFO);
    assert_int_equal(v.code, WEFT_CODE_X2);
    assert_false(v.wide_ids);
    unsetenv("WEFT_VARIANT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_choice_round_trips),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_refused_names),
        cmocka_unit_test(test_alternatives),
        cmocka_unit_test(test_forced),
        cmocka_unit_test(test_static_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
