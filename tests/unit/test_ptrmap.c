/* tests/unit/test_ptrmap.c — the small containers of src/util: pointer map and set, bit set,
 * growable vector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/bitset.h"
#include "util/ptrmap.h"
#include "util/ptrset.h"
#include "util/vec.h"

/* Distinct, pointer-aligned fake keys. */
static const void *key(size_t i)
{
    return (const void *)(uintptr_t)(0x10000 + i * 16);
}

static void test_ptrmap_put_get_overwrite(void **state)
{
    struct weft_ptrmap m;
    weft_ptrmap_init(&m);
    assert_false(weft_ptrmap_has(&m, key(1)));
    assert_true(weft_ptrmap_put(&m, key(1), 11));
    assert_false(weft_ptrmap_put(&m, key(1), 12));   /* overwrite is not an insertion */
    uintptr_t v = 0;
    assert_true(weft_ptrmap_get(&m, key(1), &v));
    assert_int_equal(v, 12);
    assert_int_equal(weft_ptrmap_get_or(&m, key(2), 99), 99);
    assert_int_equal(weft_ptrmap_count(&m), 1);
    weft_ptrmap_free(&m);
}

static void test_ptrmap_many_keys_survive_growth_and_removal(void **state)
{
    struct weft_ptrmap m;
    weft_ptrmap_init(&m);
    const size_t n = 5000;
    for (size_t i = 0; i < n; i++)
        assert_true(weft_ptrmap_put(&m, key(i), i * 3));
    assert_int_equal(weft_ptrmap_count(&m), n);
    /* remove the odd keys; the even ones must still be found behind the tombstones */
    for (size_t i = 1; i < n; i += 2)
        assert_true(weft_ptrmap_remove(&m, key(i)));
    assert_false(weft_ptrmap_remove(&m, key(1)));
    assert_int_equal(weft_ptrmap_count(&m), n / 2);
    for (size_t i = 0; i < n; i++) {
        uintptr_t v;
        bool present = weft_ptrmap_get(&m, key(i), &v);
        assert_int_equal(present, i % 2 == 0);
        if (present)
            assert_int_equal(v, i * 3);
    }
    /* re-insert after removal, many times: tombstones must not fill the table */
    for (int round = 0; round < 20; round++)
        for (size_t i = 1; i < n; i += 2) {
            assert_true(weft_ptrmap_put(&m, key(i), round));
            assert_true(weft_ptrmap_remove(&m, key(i)));
        }
    assert_int_equal(weft_ptrmap_count(&m), n / 2);
    weft_ptrmap_free(&m);
}

static void test_ptrmap_iteration_visits_each_live_entry_once(void **state)
{
    struct weft_ptrmap m;
    weft_ptrmap_init(&m);
    for (size_t i = 0; i < 100; i++)
        weft_ptrmap_put(&m, key(i), i);
    for (size_t i = 0; i < 100; i += 3)
        weft_ptrmap_remove(&m, key(i));
    int seen[100] = {0};
    size_t it = 0, count = 0;
    const void *k;
    uintptr_t v;
    while (weft_ptrmap_next(&m, &it, &k, &v)) {
        size_t i = ((uintptr_t)k - 0x10000) / 16;
        assert_true(i < 100);
        assert_int_equal(v, i);
        seen[i]++;
        count++;
    }
    assert_int_equal(count, weft_ptrmap_count(&m));
    for (size_t i = 0; i < 100; i++)
        assert_int_equal(seen[i], i % 3 == 0 ? 0 : 1);
    weft_ptrmap_clear(&m);
    assert_int_equal(weft_ptrmap_count(&m), 0);
    assert_false(weft_ptrmap_has(&m, key(1)));
    weft_ptrmap_free(&m);
}

static void test_zero_initialized_map_is_empty(void **state)
{
    struct weft_ptrmap m = {0};
    assert_false(weft_ptrmap_get(&m, key(5), NULL));
    assert_false(weft_ptrmap_remove(&m, key(5)));
    size_t it = 0;
    assert_false(weft_ptrmap_next(&m, &it, NULL, NULL));
    weft_ptrmap_free(&m);
}

static void test_ptrset(void **state)
{
    struct weft_ptrset s;
    weft_ptrset_init(&s);
    assert_true(weft_ptrset_add(&s, key(7)));
    assert_false(weft_ptrset_add(&s, key(7)));
    assert_true(weft_ptrset_has(&s, key(7)));
    assert_false(weft_ptrset_has(&s, key(8)));
    assert_int_equal(weft_ptrset_count(&s), 1);
    assert_true(weft_ptrset_remove(&s, key(7)));
    assert_int_equal(weft_ptrset_count(&s), 0);
    weft_ptrset_free(&s);
}

static void test_bitset_ops(void **state)
{
    struct weft_bitset a, b;
    weft_bitset_init(&a, 130);
    weft_bitset_init(&b, 130);
    weft_bitset_set(&a, 0);
    weft_bitset_set(&a, 64);
    weft_bitset_set(&a, 129);
    assert_true(weft_bitset_test(&a, 64));
    assert_false(weft_bitset_test(&a, 63));
    assert_int_equal(weft_bitset_count(&a), 3);
    assert_int_equal(weft_bitset_next(&a, 0), 0);
    assert_int_equal(weft_bitset_next(&a, 1), 64);
    assert_int_equal(weft_bitset_next(&a, 65), 129);
    assert_int_equal(weft_bitset_next(&a, 130), SIZE_MAX);
    weft_bitset_set(&b, 5);
    assert_true(weft_bitset_union(&b, &a));
    assert_false(weft_bitset_union(&b, &a));   /* no change the second time */
    assert_int_equal(weft_bitset_count(&b), 4);
    weft_bitset_subtract(&b, &a);
    assert_int_equal(weft_bitset_count(&b), 1);
    assert_true(weft_bitset_test(&b, 5));
    weft_bitset_reset(&b, 5);
    assert_int_equal(weft_bitset_next(&b, 0), SIZE_MAX);
    weft_bitset_copy(&b, &a);
    assert_true(weft_bitset_equal(&a, &b));
    weft_bitset_free(&a);
    weft_bitset_free(&b);
}

static void test_vec_push_pop(void **state)
{
    WEFT_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++)
        weft_vec_push(&v, i * i);
    assert_int_equal(v.len, 1000);
    assert_int_equal(v.data[999], 999 * 999);
    assert_int_equal(weft_vec_last(&v), 999 * 999);
    assert_int_equal(weft_vec_pop(&v), 999 * 999);
    assert_int_equal(v.len, 999);
    for (int i = 0; i < 999; i++)
        assert_int_equal(v.data[i], i * i);
    weft_vec_free(&v);
    assert_int_equal(v.len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptrmap_put_get_overwrite),
        cmocka_unit_test(test_ptrmap_many_keys_survive_growth_and_removal),
        cmocka_unit_test(test_ptrmap_iteration_visits_each_live_entry_once),
        cmocka_unit_test(test_zero_initialized_map_is_empty),
        cmocka_unit_test(test_ptrset),
        cmocka_unit_test(test_bitset_ops),
        cmocka_unit_test(test_vec_push_pop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
