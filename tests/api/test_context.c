/* tests/api/test_context.c — contexts through the ICD loader: clCreateContext and
 * clCreateContextFromType (success and every specified error), clGetContextInfo (sizes, values,
 * properties returned exactly as given), reference counts, destructor callbacks (run once, at
 * destruction, most recent first), invalid and released handles, and concurrent creation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdbool.h>

#include "weft_test.h"

struct fake_handle {
    const void *dispatch;
    uint64_t junk[7];
};

static struct fake_handle fake_of(const void *real)
{
    struct fake_handle f = {*(const void *const *)real, {0}};
    return f;
}

/* The library's own table, to reach it with handles the loader cannot route (released ones:
 * their memory may be gone, so the loader must not read their dispatch word). */
static const struct _cl_icd_dispatch *weft_table(void)
{
    return *(const struct _cl_icd_dispatch *const *)weft_test_device();
}

static cl_context make(const cl_context_properties *props)
{
    cl_device_id d = weft_test_device();
    cl_int err = -1;
    cl_context c = clCreateContext(props, 1, &d, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(c);
    return c;
}

static cl_uint refcount(cl_context c)
{
    cl_uint n = 0;
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

static void test_create_and_query(void **state)
{
    cl_device_id d = weft_test_device();
    assert_non_null(d);
    cl_context c = make(NULL);
    size_t n = 0;
    assert_int_equal(refcount(c), 1);
    cl_uint num = 0;
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof num, &num, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_uint));
    assert_int_equal(num, 1);
    cl_device_id got[2] = {NULL, NULL};
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof got, got, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_device_id));
    assert_ptr_equal(got[0], d);
    /* no properties given: size 0 */
    n = 99;
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    /* too small, unknown */
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(cl_device_id) - 1, got, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, 2, &num, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetContextInfo(c, 0x7777, sizeof num, &num, NULL), CL_INVALID_VALUE);
    /* errcode_ret may be NULL */
    cl_context c2 = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
    assert_non_null(c2);
    assert_int_equal(clReleaseContext(c2), CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

static void check_properties_round_trip(const cl_context_properties *props, size_t count)
{
    cl_context c = make(props);
    size_t n = 0;
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, count * sizeof(cl_context_properties));
    cl_context_properties got[8];
    memset(got, 0x55, sizeof got);
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, NULL), CL_SUCCESS);
    assert_memory_equal(got, props, n);
    if (n > 0)
        assert_int_equal(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, n - 1, got, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

static void test_properties_round_trip(void **state)
{
    cl_context_properties p = (cl_context_properties)weft_test_platform();
    const cl_context_properties only_platform[] = {CL_CONTEXT_PLATFORM, p, 0};
    check_properties_round_trip(only_platform, 3);
    /* the order the application chose is kept */
    const cl_context_properties both[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, CL_CONTEXT_PLATFORM, p, 0};
    check_properties_round_trip(both, 5);
    const cl_context_properties sync_false[] = {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
    check_properties_round_trip(sync_false, 5);
}

static void test_create_errors(void **state)
{
    cl_device_id d = weft_test_device();
    cl_context_properties p = (cl_context_properties)weft_test_platform();
    cl_int err;
    struct {
        const char *what;
        cl_context_properties props[8];
        cl_int expected;
    } cases[] = {
        {"unknown property", {CL_CONTEXT_PLATFORM, p, 0x7fff, 1, 0}, CL_INVALID_PROPERTY},
        {"platform twice", {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0}, CL_INVALID_PROPERTY},
        {"sync twice", {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE,
                        CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0}, CL_INVALID_PROPERTY},
        {"sync not a bool", {CL_CONTEXT_PLATFORM, p, CL_CONTEXT_INTEROP_USER_SYNC, 7, 0}, CL_INVALID_PROPERTY},
        {"device as platform", {CL_CONTEXT_PLATFORM, (cl_context_properties)d, 0}, CL_INVALID_PLATFORM},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        err = 0;
        cl_context c = clCreateContext(cases[i].props, 1, &d, NULL, NULL, &err);
        if (c != NULL || err != cases[i].expected)
            fail_msg("clCreateContext with %s: got %d, expected %d", cases[i].what, err, cases[i].expected);
        err = 0;
        c = clCreateContextFromType(cases[i].props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
        if (c != NULL || err != cases[i].expected)
            fail_msg("clCreateContextFromType with %s: got %d, expected %d", cases[i].what, err,
                     cases[i].expected);
    }
    const cl_context_properties ok[] = {CL_CONTEXT_PLATFORM, p, 0};
    int data = 0;
    assert_null(clCreateContext(ok, 0, &d, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateContext(ok, 1, NULL, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateContext(ok, 1, &d, NULL, &data, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateContextFromType(ok, CL_DEVICE_TYPE_CPU, NULL, &data, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* a list with a non-device (the loader routes on the first entry, ours) */
    cl_device_id bad[2] = {d, (cl_device_id)weft_test_platform()};
    assert_null(clCreateContext(ok, 2, bad, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    struct fake_handle f = fake_of(d);
    bad[1] = (cl_device_id)&f;
    assert_null(clCreateContext(ok, 2, bad, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
}

static void test_duplicate_devices_are_ignored(void **state)
{
    cl_device_id d = weft_test_device();
    cl_device_id twice[3] = {d, d, d};
    cl_int err;
    cl_context c = clCreateContext(NULL, 3, twice, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint num = 0;
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof num, &num, NULL), CL_SUCCESS);
    assert_int_equal(num, 1);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

static void test_from_type(void **state)
{
    static const cl_device_type ok[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL};
    cl_context_properties p = (cl_context_properties)weft_test_platform();
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, p, 0};
    for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
        cl_int err = -1;
        cl_context c = clCreateContextFromType(props, ok[i], NULL, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        cl_device_id got = NULL;
        assert_int_equal(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof got, &got, NULL), CL_SUCCESS);
        assert_ptr_equal(got, weft_test_device());
        size_t n = 0;
        assert_int_equal(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
        assert_int_equal(n, sizeof props);
        assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    }
    cl_int err = 0;
    assert_null(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err));
    assert_int_equal(err, CL_DEVICE_NOT_FOUND);
    assert_null(clCreateContextFromType(props, CL_DEVICE_TYPE_ACCELERATOR, NULL, NULL, &err));
    assert_int_equal(err, CL_DEVICE_NOT_FOUND);
    assert_null(clCreateContextFromType(props, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE_TYPE);
}

static void test_retain_release_counts(void **state)
{
    cl_context c = make(NULL);
    assert_int_equal(clRetainContext(c), CL_SUCCESS);
    assert_int_equal(clRetainContext(c), CL_SUCCESS);
    assert_int_equal(refcount(c), 3);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(refcount(c), 2);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(refcount(c), 1);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

/* Destructor callbacks: each records its position in a shared log. */
struct cb_log {
    int order[8];
    int count;
    cl_context seen;
};
struct cb_arg {
    struct cb_log *log;
    int id;
};

static void CL_CALLBACK record_destruction(cl_context c, void *user_data)
{
    struct cb_arg *a = user_data;
    a->log->order[a->log->count++] = a->id;
    a->log->seen = c;
}

static void test_destructor_callbacks_run_last_first(void **state)
{
    struct cb_log log = {{0}, 0, NULL};
    struct cb_arg args[4] = {{&log, 1}, {&log, 2}, {&log, 3}, {&log, 4}};
    cl_context c = make(NULL);
    for (int i = 0; i < 4; i++)
        assert_int_equal(clSetContextDestructorCallback(c, record_destruction, &args[i]), CL_SUCCESS);
    assert_int_equal(clRetainContext(c), CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(log.count, 0); /* not destroyed yet */
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(log.count, 4);
    assert_int_equal(log.order[0], 4);
    assert_int_equal(log.order[1], 3);
    assert_int_equal(log.order[2], 2);
    assert_int_equal(log.order[3], 1);
    assert_ptr_equal(log.seen, c);
}

static void test_destructor_callback_errors(void **state)
{
    cl_context c = make(NULL);
    assert_int_equal(clSetContextDestructorCallback(c, NULL, NULL), CL_INVALID_VALUE);
    cl_device_id d = weft_test_device();
    assert_int_equal(clSetContextDestructorCallback((cl_context)d, record_destruction, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

static void test_invalid_handles(void **state)
{
    cl_device_id d = weft_test_device();
    cl_uint v;
    /* wrong type */
    assert_int_equal(clGetContextInfo((cl_context)d, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clRetainContext((cl_context)d), CL_INVALID_CONTEXT);
    assert_int_equal(clReleaseContext((cl_context)d), CL_INVALID_CONTEXT);
    /* NULL */
    assert_int_equal(clRetainContext(NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clReleaseContext(NULL), CL_INVALID_CONTEXT);
    /* garbage behind a valid dispatch word */
    struct fake_handle f = fake_of(d);
    assert_int_equal(clGetContextInfo((cl_context)&f, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clReleaseContext((cl_context)&f), CL_INVALID_CONTEXT);
    /* released: rejected without touching the freed memory (called through the library's
     * own table, since the loader would read the handle's first word) */
    const struct _cl_icd_dispatch *t = weft_table();
    cl_context c = make(NULL);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(t->clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(t->clRetainContext(c), CL_INVALID_CONTEXT);
    assert_int_equal(t->clReleaseContext(c), CL_INVALID_CONTEXT);
    assert_int_equal(t->clSetContextDestructorCallback(c, record_destruction, NULL), CL_INVALID_CONTEXT);
}

static void *create_release_loop(void *arg)
{
    cl_device_id d = arg;
    for (int i = 0; i < 200; i++) {
        cl_int err;
        cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            return (void *)1;
        if (clRetainContext(c) != CL_SUCCESS || clReleaseContext(c) != CL_SUCCESS ||
            clReleaseContext(c) != CL_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

static void test_concurrent_create_release(void **state)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&th[i], NULL, create_release_loop, weft_test_device()), 0);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        assert_null(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_query),
        cmocka_unit_test(test_properties_round_trip),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_duplicate_devices_are_ignored),
        cmocka_unit_test(test_from_type),
        cmocka_unit_test(test_retain_release_counts),
        cmocka_unit_test(test_destructor_callbacks_run_last_first),
        cmocka_unit_test(test_destructor_callback_errors),
        cmocka_unit_test(test_invalid_handles),
        cmocka_unit_test(test_concurrent_create_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
