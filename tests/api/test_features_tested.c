/* tests/api/test_features_tested.c — every optional feature and extension the device reports
 * has a test: each name in CL_DEVICE_EXTENSIONS and CL_DEVICE_OPENCL_C_FEATURES must have a
 * line in tests/features.txt naming test sources that exist and mention the name. A feature
 * advertised without a test, or a manifest line pointing at nothing, fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "weft_test.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Checks the manifest line of `name`: present, with at least one test source that exists
 * and mentions the name. */
static void check_tested(const char *dir, const char *manifest, const char *name)
{
    size_t len = strlen(name);
    const char *line = manifest;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        if (ll > len && !strncmp(line, name, len) && (line[len] == ' ' || line[len] == '\t')) {
            char rest[1024];
            snprintf(rest, sizeof rest, "%.*s", (int)(ll - len), line + len);
            int tests = 0;
            for (char *save = NULL, *t = strtok_r(rest, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", dir, t);
                char *src = read_file(path);
                if (!src)
                    fail_msg("%s: test source %s does not exist", name, path);
                if (!strstr(src, name))
                    fail_msg("%s: %s never mentions it", name, t);
                free(src);
                tests++;
            }
            if (tests == 0)
                fail_msg("%s: the manifest line names no test", name);
            return;
        }
        line = end ? end + 1 : NULL;
    }
    fail_msg("the device reports %s but tests/features.txt names no test for it", name);
}

static void test_every_reported_name_has_a_test(void **state)
{
    (void)state;
    const char *dir = getenv("WEFT_TEST_SOURCE_DIR");
    assert_non_null(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/features.txt", dir);
    char *manifest = read_file(path);
    assert_non_null(manifest);

    cl_device_id d = weft_test_device();
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n), CL_SUCCESS);
    char *ext = malloc(n);
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, ext, NULL), CL_SUCCESS);
    int checked = 0;
    for (char *save = NULL, *w = strtok_r(ext, " ", &save); w; w = strtok_r(NULL, " ", &save), checked++)
        check_tested(dir, manifest, w);
    free(ext);

    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &n), CL_SUCCESS);
    cl_name_version *f = malloc(n ? n : 1);
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, n, f, NULL), CL_SUCCESS);
    for (size_t i = 0; i < n / sizeof *f; i++, checked++)
        check_tested(dir, manifest, f[i].name);
    free(f);
    free(manifest);
    assert_true(checked > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reported_name_has_a_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
