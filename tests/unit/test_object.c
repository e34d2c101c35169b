/* tests/unit/test_object.c — the object model of runtime/object.c: reference counts (application
 * references and runtime holds), destruction exactly once when the last of either goes, the
 * live-object registry (rejects NULL, garbage, interior, released and wrong-type pointers), live
 * counts, registry growth, and concurrent use from several threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/object.h"

/* Objects of a type no other part of the runtime creates in this process, so live counts are
 * exact. A test object records how often it was destroyed. */
#define TEST_TYPE WEFT_TYPE_SAMPLER

struct test_obj {
    struct weft_object obj;
    atomic_int *destroyed;
};

static void test_obj_destroy(struct weft_object *o)
{
    struct test_obj *t = (struct test_obj *)o;
    atomic_fetch_add(t->destroyed, 1);
    free(t);
}

static struct test_obj *test_obj_new(atomic_int *destroyed)
{
    struct test_obj *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->destroyed = destroyed;
    weft_object_init(&t->obj, TEST_TYPE, test_obj_destroy);
    return t;
}

static void test_new_object_is_live_with_one_reference(void **state)
{
    atomic_int destroyed = 0;
    struct test_obj *t = test_obj_new(&destroyed);
    assert_ptr_equal(t->obj.dispatch, &weft_dispatch);
    assert_int_equal(weft_object_refcount(&t->obj), 1);
    assert_true(weft_object_is(t, TEST_TYPE));
    /* the type tag is checked: the same pointer is not a live object of another type */
    assert_false(weft_object_is(t, WEFT_TYPE_CONTEXT));
    assert_false(weft_object_is(t, WEFT_TYPE_MEM));
    weft_object_release(&t->obj);
    assert_int_equal(destroyed, 1);
}

static void test_retain_release_counts_and_destroys_once(void **state)
{
    atomic_int destroyed = 0;
    struct test_obj *t = test_obj_new(&destroyed);
    weft_object_retain(&t->obj);
    weft_object_retain(&t->obj);
    assert_int_equal(weft_object_refcount(&t->obj), 3);
    weft_object_release(&t->obj);
    assert_int_equal(weft_object_refcount(&t->obj), 2);
    assert_true(weft_object_is(t, TEST_TYPE));
    weft_object_release(&t->obj);
    assert_int_equal(destroyed, 0);
    assert_true(weft_object_is(t, TEST_TYPE));
    weft_object_release(&t->obj);
    assert_int_equal(destroyed, 1);
    /* the freed pointer is no longer in the registry: validation must not dereference it */
    assert_false(weft_object_is(t, TEST_TYPE));
}

static void test_hold_outlives_application_references(void **state)
{
    atomic_int destroyed = 0;
    struct test_obj *t = test_obj_new(&destroyed);
    weft_object_hold(&t->obj);   /* e.g. a pending command holding its buffer */
    weft_object_hold(&t->obj);
    weft_object_release(&t->obj);
    /* the application's last reference is gone: the handle is invalid for the application... */
    assert_false(weft_object_is(t, TEST_TYPE));
    /* ...but the runtime's holds keep the memory alive */
    assert_int_equal(destroyed, 0);
    assert_int_equal(weft_object_refcount(&t->obj), 0);
    weft_object_unhold(&t->obj);
    assert_int_equal(destroyed, 0);
    weft_object_unhold(&t->obj);
    assert_int_equal(destroyed, 1);
}

static void test_unhold_before_release_keeps_object(void **state)
{
    atomic_int destroyed = 0;
    struct test_obj *t = test_obj_new(&destroyed);
    weft_object_hold(&t->obj);
    weft_object_unhold(&t->obj);
    assert_int_equal(destroyed, 0);
    assert_true(weft_object_is(t, TEST_TYPE));
    assert_int_equal(weft_object_refcount(&t->obj), 1);
    weft_object_release(&t->obj);
    assert_int_equal(destroyed, 1);
}

static void test_registry_rejects_non_objects(void **state)
{
    atomic_int destroyed = 0;
    struct test_obj *t = test_obj_new(&destroyed);
    assert_false(weft_object_is(NULL, TEST_TYPE));
    /* a fake header with the right dispatch, type and counts is still not a registered object */
    struct test_obj fake;
    memcpy(&fake, t, sizeof fake);
    assert_false(weft_object_is(&fake, TEST_TYPE));
    /* interior pointers and arbitrary integers */
    assert_false(weft_object_is((char *)t + 8, TEST_TYPE));
    assert_false(weft_object_is((void *)(uintptr_t)0x1, TEST_TYPE));
    assert_false(weft_object_is((void *)(uintptr_t)0xdeadbeef, TEST_TYPE));
    assert_false(weft_object_is((void *)UINTPTR_MAX, TEST_TYPE));
    weft_object_release(&t->obj);
}

/* The registry marks released slots with the value 1: the handle (void *)1 must not match such
 * a tombstone (it did, and was dereferenced). Many released objects leave tombstones on most
 * probe paths, whatever addresses malloc hands out. */
static void test_registry_rejects_marker_values(void **state)
{
    enum { N = 150 };
    atomic_int destroyed = 0;
    for (int round = 0; round < 8; round++) {
        struct test_obj *objs[N];
        for (int i = 0; i < N; i++)
            objs[i] = test_obj_new(&destroyed);
        for (int i = 0; i < N; i++)
            weft_object_release(&objs[i]->obj);
        assert_false(weft_object_is((void *)(uintptr_t)1, TEST_TYPE));
        assert_false(weft_object_is((void *)(uintptr_t)1, WEFT_TYPE_NONE));
    }
    assert_int_equal(destroyed, 8 * N);
}

static void test_live_counts_follow_objects(void **state)
{
    atomic_int destroyed = 0;
    size_t base = weft_object_live_count(TEST_TYPE);
    size_t base_all = weft_object_live_count(WEFT_TYPE_NONE);
    struct test_obj *a = test_obj_new(&destroyed);
    struct test_obj *b = test_obj_new(&destroyed);
    assert_int_equal(weft_object_live_count(TEST_TYPE), base + 2);
    assert_int_equal(weft_object_live_count(WEFT_TYPE_NONE), base_all + 2);
    weft_object_hold(&a->obj);
    weft_object_release(&a->obj);
    /* held but released: no longer live for the application */
    assert_int_equal(weft_object_live_count(TEST_TYPE), base + 1);
    weft_object_release(&b->obj);
    assert_int_equal(weft_object_live_count(TEST_TYPE), base);
    weft_object_unhold(&a->obj);
    assert_int_equal(destroyed, 2);
    assert_int_equal(weft_object_live_count(WEFT_TYPE_NONE), base_all);
}

static void test_registry_grows_and_keeps_every_object(void **state)
{
    enum { N = 5000 };
    atomic_int destroyed = 0;
    size_t base = weft_object_live_count(TEST_TYPE);
    struct test_obj **objs = calloc(N, sizeof *objs);
    assert_non_null(objs);
    for (int i = 0; i < N; i++)
        objs[i] = test_obj_new(&destroyed);
    assert_int_equal(weft_object_live_count(TEST_TYPE), base + N);
    for (int i = 0; i < N; i++)
        assert_true(weft_object_is(objs[i], TEST_TYPE));
    /* release every other one: the others stay valid across the tombstones */
    for (int i = 0; i < N; i += 2)
        weft_object_release(&objs[i]->obj);
    assert_int_equal(destroyed, N / 2);
    for (int i = 1; i < N; i += 2)
        assert_true(weft_object_is(objs[i], TEST_TYPE));
    assert_int_equal(weft_object_live_count(TEST_TYPE), base + N / 2);
    /* new objects reuse tombstones without losing old ones */
    for (int i = 0; i < N; i += 2)
        objs[i] = test_obj_new(&destroyed);
    for (int i = 0; i < N; i++)
        assert_true(weft_object_is(objs[i], TEST_TYPE));
    for (int i = 0; i < N; i++)
        weft_object_release(&objs[i]->obj);
    assert_int_equal(destroyed, N + N / 2);
    assert_int_equal(weft_object_live_count(TEST_TYPE), base);
    free(objs);
}

/* Several threads share one object (retain/release/validate) while each also creates and
 * destroys objects of its own: counts must come out exact and nothing destroyed twice. */
struct thread_arg {
    struct test_obj *shared;
    atomic_int *destroyed;
    int failures;
};

static void *hammer(void *p)
{
    struct thread_arg *a = p;
    for (int i = 0; i < 2000; i++) {
        weft_object_retain(&a->shared->obj);
        struct test_obj *own = test_obj_new(a->destroyed);
        if (!weft_object_is(own, TEST_TYPE) || !weft_object_is(a->shared, TEST_TYPE))
            a->failures++;
        weft_object_hold(&own->obj);
        weft_object_release(&own->obj);
        if (weft_object_is(own, TEST_TYPE))
            a->failures++;
        weft_object_unhold(&own->obj);
        weft_object_release(&a->shared->obj);
    }
    return NULL;
}

static void test_concurrent_use_is_exact(void **state)
{
    enum { THREADS = 4 };
    atomic_int destroyed = 0, shared_destroyed = 0;
    size_t base = weft_object_live_count(TEST_TYPE);
    struct test_obj *shared = test_obj_new(&shared_destroyed);
    pthread_t th[THREADS];
    struct thread_arg args[THREADS];
    for (int i = 0; i < THREADS; i++) {
        args[i] = (struct thread_arg){shared, &destroyed, 0};
        assert_int_equal(pthread_create(&th[i], NULL, hammer, &args[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    assert_int_equal(destroyed, THREADS * 2000);
    assert_int_equal(shared_destroyed, 0);
    assert_int_equal(weft_object_refcount(&shared->obj), 1);
    weft_object_release(&shared->obj);
    assert_int_equal(shared_destroyed, 1);
    assert_int_equal(weft_object_live_count(TEST_TYPE), base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_object_is_live_with_one_reference),
        cmocka_unit_test(test_retain_release_counts_and_destroys_once),
        cmocka_unit_test(test_hold_outlives_application_references),
        cmocka_unit_test(test_unhold_before_release_keeps_object),
        cmocka_unit_test(test_registry_rejects_non_objects),
        cmocka_unit_test(test_registry_rejects_marker_values),
        cmocka_unit_test(test_live_counts_follow_objects),
        cmocka_unit_test(test_registry_grows_and_keeps_every_object),
        cmocka_unit_test(test_concurrent_use_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
