/* tests/unit/test_path.c — util/path.h: programs are found on PATH at run time, in PATH's
 * order, only as executable regular files; the variable overrides; the build's path is the
 * fallback when PATH has nothing. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/path.h"

struct dirs {
    char a[64], b[64];
};

static void make_file(const char *dir, const char *name, mode_t mode)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    assert_int_equal(chmod(p, mode), 0);
}

static int setup(void **state)
{
    struct dirs *d = calloc(1, sizeof *d);
    snprintf(d->a, sizeof d->a, "/tmp/weft-path-a-XXXXXX");
    snprintf(d->b, sizeof d->b, "/tmp/weft-path-b-XXXXXX");
    if (!mkdtemp(d->a) || !mkdtemp(d->b))
        return -1;
    *state = d;
    return 0;
}

static int teardown(void **state)
{
    struct dirs *d = *state;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", d->a, d->b);
    int rc = system(cmd);
    free(d);
    return rc == 0 ? 0 : -1;
}

static void test_found_in_path_order_and_only_executable(void **state)
{
    struct dirs *d = *state;
    make_file(d->a, "tool", 0644);          /* not executable: skipped */
    make_file(d->b, "tool", 0755);
    make_file(d->a, "other", 0755);
    char path[300], out[300], want[300];
    snprintf(path, sizeof path, "%s:%s", d->a, d->b);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", path, 1);
    assert_true(weft_path_find_program("tool", out, sizeof out));
    snprintf(want, sizeof want, "%s/tool", d->b);
    assert_string_equal(out, want);
    assert_true(weft_path_find_program("other", out, sizeof out));
    snprintf(want, sizeof want, "%s/other", d->a);
    assert_string_equal(out, want);
    assert_false(weft_path_find_program("missing", out, sizeof out));
    assert_string_equal(out, "");
    /* a folder named like the program is no program */
    snprintf(want, sizeof want, "%s/dir", d->a);
    assert_int_equal(mkdir(want, 0755), 0);
    assert_false(weft_path_find_program("dir", out, sizeof out));
    /* a name with a slash is taken as it is */
    snprintf(want, sizeof want, "%s/tool", d->b);
    assert_true(weft_path_find_program(want, out, sizeof out));
    assert_string_equal(out, want);
    snprintf(want, sizeof want, "%s/tool", d->a);
    assert_false(weft_path_find_program(want, out, sizeof out));
    /* too small a buffer finds nothing rather than a cut path */
    assert_false(weft_path_find_program("tool", out, 8));
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    } else
        unsetenv("PATH");
}

static void test_tool_variable_then_path_then_fallback(void **state)
{
    struct dirs *d = *state;
    make_file(d->b, "fallback-tool", 0755);
    char fallback[300], out[300];
    snprintf(fallback, sizeof fallback, "%s/fallback-tool", d->b);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", d->a, 1);

    /* not on PATH: the build's path */
    static struct weft_path_tool t1 = {"WEFT_TEST_PATH_TOOL", "weft-test-tool-1", NULL};
    t1.fallback = fallback;
    assert_string_equal(weft_path_tool(&t1), fallback);
    /* the variable wins, and is read at every call */
    setenv("WEFT_TEST_PATH_TOOL", "/somewhere/else", 1);
    assert_string_equal(weft_path_tool(&t1), "/somewhere/else");
    unsetenv("WEFT_TEST_PATH_TOOL");
    assert_string_equal(weft_path_tool(&t1), fallback);

    /* on PATH: PATH's, before the build's */
    make_file(d->a, "weft-test-tool-2", 0755);
    static struct weft_path_tool t2 = {"WEFT_TEST_PATH_TOOL", "weft-test-tool-2", NULL};
    t2.fallback = fallback;
    snprintf(out, sizeof out, "%s/weft-test-tool-2", d->a);
    assert_string_equal(weft_path_tool(&t2), out);

    /* nowhere: the bare name, so that running it fails naming it */
    static struct weft_path_tool t3 = {"WEFT_TEST_PATH_TOOL", "weft-test-tool-3", "/nonexistent/tool"};
    assert_string_equal(weft_path_tool(&t3), "weft-test-tool-3");
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    } else
        unsetenv("PATH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_found_in_path_order_and_only_executable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tool_variable_then_path_then_fallback, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
