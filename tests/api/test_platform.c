/* tests/api/test_platform.c — the Weft platform through the ICD loader: clGetPlatformIDs,
 * every clGetPlatformInfo query (consistent sizes, NUL-terminated strings, too-small buffers),
 * the invalid-handle errors, and the extension-function lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <CL/cl_icd.h>
#include <stdbool.h>

#include "weft_test.h"

/* A handle the loader accepts (its first word is our dispatch table) but that is not an object:
 * validation must reject it without dereferencing anything else. */
struct fake_handle {
    const void *dispatch;
    uint64_t junk[7];
};

static struct fake_handle fake_of(const void *real)
{
    struct fake_handle f;
    f.dispatch = *(const void *const *)real;
    for (int i = 0; i < 7; i++)
        f.junk[i] = 0x5a5a5a5a5a5a5a5aull;
    return f;
}

static void test_platform_ids(void **state)
{
    cl_uint n = 0;
    assert_int_equal(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
    assert_true(n >= 1);
    cl_platform_id p = weft_test_platform();
    assert_non_null(p);
    cl_platform_id ps[4];
    assert_int_equal(clGetPlatformIDs(0, ps, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

static const struct {
    cl_platform_info param;
    const char *name;
    bool is_string;
    size_t fixed_size; /* 0: variable */
} platform_queries[] = {
    {CL_PLATFORM_PROFILE, "PROFILE", true, 0},
    {CL_PLATFORM_VERSION, "VERSION", true, 0},
    {CL_PLATFORM_NAME, "NAME", true, 0},
    {CL_PLATFORM_VENDOR, "VENDOR", true, 0},
    {CL_PLATFORM_EXTENSIONS, "EXTENSIONS", true, 0},
    {CL_PLATFORM_HOST_TIMER_RESOLUTION, "HOST_TIMER_RESOLUTION", false, sizeof(cl_ulong)},
    {CL_PLATFORM_NUMERIC_VERSION, "NUMERIC_VERSION", false, sizeof(cl_version)},
    {CL_PLATFORM_EXTENSIONS_WITH_VERSION, "EXTENSIONS_WITH_VERSION", false, 0},
};

static void test_every_query_answers_consistently(void **state)
{
    cl_platform_id p = weft_test_platform();
    for (size_t i = 0; i < ARRAY_LEN(platform_queries); i++) {
        size_t n = 0;
        cl_int err = clGetPlatformInfo(p, platform_queries[i].param, 0, NULL, &n);
        if (err != CL_SUCCESS)
            fail_msg("query %s failed: %d", platform_queries[i].name, err);
        if (platform_queries[i].fixed_size && n != platform_queries[i].fixed_size)
            fail_msg("query %s: size %zu, expected %zu", platform_queries[i].name, n,
                     platform_queries[i].fixed_size);
        char *buf = malloc(n + 16);
        assert_non_null(buf);
        memset(buf, 0x7f, n + 16);
        size_t n2 = 0;
        assert_int_equal(clGetPlatformInfo(p, platform_queries[i].param, n + 16, buf, &n2), CL_SUCCESS);
        assert_int_equal(n2, n);
        /* nothing written past the answer */
        assert_int_equal((unsigned char)buf[n], 0x7f);
        if (platform_queries[i].is_string) {
            assert_true(n >= 1);
            assert_int_equal(buf[n - 1], '\0');
            assert_int_equal(strlen(buf) + 1, n);
        }
        if (n > 0) {
            /* one byte too small is CL_INVALID_VALUE */
            if (clGetPlatformInfo(p, platform_queries[i].param, n - 1, buf, NULL) != CL_INVALID_VALUE)
                fail_msg("query %s accepted a buffer one byte too small", platform_queries[i].name);
        }
        free(buf);
    }
}

static void test_values(void **state)
{
    cl_platform_id p = weft_test_platform();
    char s[1024];
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_PROFILE, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "FULL_PROFILE");
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof s, s, NULL), CL_SUCCESS);
    assert_true(strncmp(s, "OpenCL 3.0 ", 11) == 0);
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "Weft");
    cl_version v = 0;
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL), CL_SUCCESS);
    assert_int_equal(CL_VERSION_MAJOR(v), 3);
    assert_int_equal(CL_VERSION_MINOR(v), 0);
    cl_ulong res = 0;
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL), CL_SUCCESS);
    assert_true(res > 0);

    /* the extension string and the versioned list name the same extensions */
    char ext[1024];
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    assert_non_null(strstr(ext, "cl_khr_icd"));
    size_t n = 0;
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n % sizeof(cl_name_version), 0);
    cl_name_version list[32];
    assert_true(n <= sizeof list);
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, list, NULL), CL_SUCCESS);
    size_t words = 0;
    char copy[1024];
    strcpy(copy, ext);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        words++;
        bool found = false;
        for (size_t i = 0; i < n / sizeof list[0]; i++)
            found |= strcmp(list[i].name, w) == 0;
        if (!found)
            fail_msg("extension %s is missing from CL_PLATFORM_EXTENSIONS_WITH_VERSION", w);
    }
    assert_int_equal(words, n / sizeof list[0]);
}

static void test_invalid_queries(void **state)
{
    cl_platform_id p = weft_test_platform();
    size_t n;
    assert_int_equal(clGetPlatformInfo(p, 0x12345, 0, NULL, &n), CL_INVALID_VALUE);
    /* a device handle is not a platform */
    cl_device_id d = weft_test_device();
    assert_non_null(d);
    assert_int_equal(clGetPlatformInfo((cl_platform_id)d, CL_PLATFORM_NAME, 0, NULL, &n), CL_INVALID_PLATFORM);
    /* a fake handle (our dispatch table, but not an object) */
    struct fake_handle f = fake_of(p);
    assert_int_equal(clGetPlatformInfo((cl_platform_id)&f, CL_PLATFORM_NAME, 0, NULL, &n), CL_INVALID_PLATFORM);
    /* NULL selects the platform (implementation-defined; the loader's default is Weft here) */
    char s[64];
    assert_int_equal(clGetPlatformInfo(NULL, CL_PLATFORM_NAME, sizeof s, s, NULL), CL_SUCCESS);
}

static void test_extension_function_lookup(void **state)
{
    cl_platform_id p = weft_test_platform();
    assert_non_null(clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR"));
    assert_null(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionWEFT"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_platform_ids),
        cmocka_unit_test(test_every_query_answers_consistently),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_invalid_queries),
        cmocka_unit_test(test_extension_function_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
