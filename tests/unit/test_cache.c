/* tests/unit/test_cache.c — the disk cache of compiled variants: entries round-trip, and
 * every kind of bad entry (corrupt payload, truncated, foreign file, another key's entry,
 * wrong header version) reads as a miss and is replaced by the next store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"

static char dir[256];

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/weft-test-cache-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    setenv("WEFT_CACHE_DIR", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_raw(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void *read_raw(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *d = malloc(*n);
    assert_int_equal(fread(d, 1, *n, f), *n);
    fclose(f);
    return d;
}

static void expect_hit(uint64_t key, const char *want)
{
    void *p = NULL;
    size_t n = 0;
    assert_true(weft_cache_load(key, &p, &n));
    assert_int_equal(n, strlen(want));
    assert_memory_equal(p, want, n);
    free(p);
}

static void expect_miss(uint64_t key)
{
    void *p = NULL;
    size_t n = 0;
    assert_false(weft_cache_load(key, &p, &n));
    assert_null(p);
}

static void test_hash(void **state)
{
    const char a[] = "the quick brown fox jumps over the lazy dog";
    assert_true(weft_hash64(a, sizeof a, 1) == weft_hash64(a, sizeof a, 1));
    assert_true(weft_hash64(a, sizeof a, 1) != weft_hash64(a, sizeof a, 2));
    assert_true(weft_hash64(a, sizeof a, 1) != weft_hash64(a, sizeof a - 1, 1));
    char b[sizeof a];
    memcpy(b, a, sizeof a);
    for (size_t i = 0; i < sizeof a; i++) {   /* any flipped bit changes the hash */
        b[i] ^= 1;
        assert_true(weft_hash64(a, sizeof a, 7) != weft_hash64(b, sizeof b, 7));
        b[i] ^= 1;
    }
}

static void test_round_trip(void **state)
{
    expect_miss(0x1234);
    assert_true(weft_cache_store(0x1234, "payload-one", 11));
    expect_hit(0x1234, "payload-one");
    assert_true(weft_cache_store(0x1234, "payload-two!", 12));   /* overwrite */
    expect_hit(0x1234, "payload-two!");
    expect_miss(0x1235);
    /* no temporary files are left behind */
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep -v '\\.wobj$')\"", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_corrupt_entries_are_misses_and_rebuilt(void **state)
{
    const uint64_t key = 0xabcdef0012345678ull;
    const char *payload = "an object file, or so we pretend";
    char path[512];
    assert_true(weft_cache_entry_path(key, path, sizeof path));
    assert_true(weft_cache_store(key, payload, strlen(payload)));
    size_t n;
    unsigned char *good = read_raw(path, &n);

    /* a flipped payload byte: checksum mismatch */
    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    bad[n - 3] ^= 0xff;
    write_raw(path, bad, n);
    expect_miss(key);
    /* rebuilt by the next store */
    assert_true(weft_cache_store(key, payload, strlen(payload)));
    expect_hit(key, payload);

    /* truncated */
    write_raw(path, good, n - 1);
    expect_miss(key);
    /* header only */
    write_raw(path, good, 40);
    expect_miss(key);
    /* empty file */
    write_raw(path, "", 0);
    expect_miss(key);
    /* foreign file */
    write_raw(path, "\x7f" "ELF this is not ours at all, no sir", 37);
    expect_miss(key);
    /* another key's valid entry under this name */
    char other[512];
    assert_true(weft_cache_store(key + 1, payload, strlen(payload)));
    assert_true(weft_cache_entry_path(key + 1, other, sizeof other));
    size_t on;
    unsigned char *o = read_raw(other, &on);
    write_raw(path, o, on);
    expect_miss(key);
    free(o);
    /* a different format version (byte 8 of the header) */
    memcpy(bad, good, n);
    bad[8] ^= 0x7;
    write_raw(path, bad, n);
    expect_miss(key);
    /* trailing garbage: the length no longer matches */
    unsigned char *longer = malloc(n + 4);
    memcpy(longer, good, n);
    memcpy(longer + n, "junk", 4);
    write_raw(path, longer, n + 4);
    expect_miss(key);

    assert_true(weft_cache_store(key, payload, strlen(payload)));
    expect_hit(key, payload);
    free(longer);
    free(bad);
    free(good);
}

static void test_disabled_and_unwritable(void **state)
{
    setenv("WEFT_CACHE_DIR", "off", 1);
    char *d = weft_cache_dir();
    assert_null(d);
    assert_false(weft_cache_store(1, "x", 1));
    expect_miss(1);
    setenv("WEFT_CACHE_DIR", "/proc/weft-cannot-create-this", 1);
    assert_false(weft_cache_store(1, "x", 1));
    expect_miss(1);
    setenv("WEFT_CACHE_DIR", dir, 1);
    unsetenv("XDG_CACHE_HOME");
    d = weft_cache_dir();
    assert_string_equal(d, dir);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_corrupt_entries_are_misses_and_rebuilt),
        cmocka_unit_test(test_disabled_and_unwritable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
