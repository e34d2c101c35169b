/* tests/unit/test_cache.c — the disk cache of compiled variants: entries round-trip, and
 * every kind of bad entry (corrupt payload, truncated, foreign file, another key's entry,
 * wrong header version, a FIFO, a symbolic link, another user's or a world-writable file, a
 * header claiming 8 GiB) reads as a miss, without blocking, and is replaced by the next
 * store; a cache directory others can write is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "weft/abi.h"

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

/* After a test that changes the environment: a failure midway must not leave the next tests
 * another directory or limit. */
static int reset_env(void **state)
{
    setenv("WEFT_CACHE_DIR", dir, 1);
    unsetenv("WEFT_CACHE_MAX_MB");
    return 0;
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

static void test_build_identity(void **state)
{
    /* stable within a process and not the "unknown" value for a normal build */
    uint64_t a = weft_cache_build_identity(), b = weft_cache_build_identity();
    assert_true(a == b);
    assert_true(a != 0);
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

/* Bytes of the .wobj entries in directory d. */
static uint64_t entries_bytes(const char *d)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "cat '%s'/*.wobj 2>/dev/null | wc -c", d);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    unsigned long long n = 0;
    assert_int_equal(fscanf(f, "%llu", &n), 1);
    pclose(f);
    return n;
}

/* The store counts the cache's bytes as it goes (one directory scan per process, another
 * when the count crosses the limit): entries another process wrote since are over the limit
 * only until that next scan, which prunes them (the oldest) too; then the limit holds; a
 * switch of WEFT_CACHE_DIR starts a new count. */
static void test_size_limit_holds_over_many_stores(void **state)
{
    char sub[300], other[300];
    snprintf(sub, sizeof sub, "%s/many", dir);
    snprintf(other, sizeof other, "%s/many/../other", dir);
    setenv("WEFT_CACHE_DIR", sub, 1);
    setenv("WEFT_CACHE_MAX_MB", "1", 1);
    size_t n = 100 * 1024;
    char *blob = malloc(n);
    memset(blob, 'm', n);
    assert_true(weft_cache_store(100, blob, n));
    /* another process's 600 KB, unseen until the count crosses the limit */
    for (int i = 0; i < 6; i++) {
        char path[400];
        snprintf(path, sizeof path, "%s/%016x.wobj", sub, 0x7000 + i);
        write_raw(path, blob, n);
    }
    for (uint64_t k = 101; k < 140; k++) {
        assert_true(weft_cache_store(k, blob, n));
        assert_true(entries_bytes(sub) <= (1u << 20) + 7 * (n + 64));
    }
    assert_true(entries_bytes(sub) <= (1u << 20) + n + 64);
    void *p;
    size_t sz;
    assert_true(weft_cache_load(139, &p, &sz));   /* the newest entry stays */
    free(p);
    char path[400];
    snprintf(path, sizeof path, "%s/%016x.wobj", sub, 0x7000);
    assert_int_equal(access(path, F_OK), -1);       /* the other process's, older: pruned */
    setenv("WEFT_CACHE_DIR", other, 1);
    for (uint64_t k = 200; k < 220; k++)
        assert_true(weft_cache_store(k, blob, n));
    assert_true(entries_bytes(other) <= (1u << 20));
    free(blob);
    unsetenv("WEFT_CACHE_MAX_MB");
    setenv("WEFT_CACHE_DIR", dir, 1);
}

/* Over WEFT_CACHE_MAX_MB, the least recently used entries go first. */
static void test_size_limit_prunes_least_recently_used(void **state)
{
    char sub[300];
    snprintf(sub, sizeof sub, "%s/limit", dir);
    setenv("WEFT_CACHE_DIR", sub, 1);
    setenv("WEFT_CACHE_MAX_MB", "1", 1);
    assert_int_equal(weft_cache_max_bytes(), 1 << 20);
    size_t n = 300 * 1024;
    char *blob = malloc(n);
    memset(blob, 'b', n);
    struct timespec pause = {0, 20 * 1000 * 1000};   /* distinct modification times */
    assert_true(weft_cache_store(1, blob, n));
    nanosleep(&pause, NULL);
    assert_true(weft_cache_store(2, blob, n));
    nanosleep(&pause, NULL);
    assert_true(weft_cache_store(3, blob, n));
    nanosleep(&pause, NULL);
    void *p;
    size_t sz;
    assert_true(weft_cache_load(1, &p, &sz));   /* 1 is now more recent than 2 and 3 */
    free(p);
    nanosleep(&pause, NULL);
    assert_true(weft_cache_store(4, blob, n));   /* 1.2 MB > 1 MB: prune to <= 768 KB */
    assert_true(weft_cache_load(4, &p, &sz));    /* the new entry stays */
    free(p);
    assert_true(weft_cache_load(1, &p, &sz));    /* recently used: stays */
    free(p);
    assert_false(weft_cache_load(2, &p, &sz));   /* least recently used: gone */
    free(blob);
    unsetenv("WEFT_CACHE_MAX_MB");
    setenv("WEFT_CACHE_DIR", dir, 1);
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

/* Without HOME (services, containers, batch jobs) the cache lives in the account's home
 * directory: before, it was silently off and every process compiled and profiled again. */
static void test_default_dir_without_home(void **state)
{
    (void)state;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("WEFT_CACHE_DIR");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/weft-home", 1);
    char *d = weft_cache_dir();
    assert_string_equal(d, "/weft-home/.cache/weft");
    free(d);
    unsetenv("HOME");
    struct passwd *pw = getpwuid(geteuid());
    d = weft_cache_dir();
    if (pw && pw->pw_dir && pw->pw_dir[0] == '/' && strcmp(pw->pw_dir, "/") != 0) {
        char want[4096];
        snprintf(want, sizeof want, "%s/.cache/weft", pw->pw_dir);
        assert_non_null(d);
        assert_string_equal(d, want);
    }
    free(d);
    if (home)
        setenv("HOME", home, 1);
    free(home);
    setenv("WEFT_CACHE_DIR", dir, 1);
}

/* ---- entries and directories that must not be trusted ------------------------------------ */

/* The header as cache.c writes it: magic[8], format, abi (u32), key, length, checksum (u64). */
enum { HDR_SIZE = 40, HDR_KEY = 16, HDR_LENGTH = 24, HDR_CHECKSUM = 32 };

static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Stores a valid entry for `key` and returns its path; checks the header layout above. */
static void store_valid(uint64_t key, const char *payload, char *path, size_t cap)
{
    assert_true(weft_cache_entry_path(key, path, cap));
    assert_true(weft_cache_store(key, payload, strlen(payload)));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, HDR_SIZE + strlen(payload));
    expect_hit(key, payload);
}

/* weft_cache_load(key) in a child process, which the parent kills if it has not finished in
 * 10 s: a load that blocks fails the test instead of hanging it. True on a hit. */
static bool load_in_child(uint64_t key)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        void *p = NULL;
        size_t n = 0;
        _exit(weft_cache_load(key, &p, &n) ? 1 : 0);
    }
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 10) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        assert_true(r >= 0);
        if (r == pid)
            break;
        if (waited_ms >= 10000) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fail_msg("weft_cache_load of key %llx blocked for 10 s", (unsigned long long)key);
        }
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status) == 1;
}

/* A FIFO in an entry's place: opening it for reading would wait for a writer forever. */
static void test_fifo_entry_is_a_miss(void **state)
{
    const uint64_t key = 0xf1f0;
    char path[512];
    assert_true(weft_cache_entry_path(key, path, sizeof path));
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_false(load_in_child(key));
    expect_miss(key);   /* and in this process too */
    /* the next store replaces the FIFO */
    assert_true(weft_cache_store(key, "after the fifo", 14));
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    expect_hit(key, "after the fifo");
}

/* A symbolic link to a valid entry (which would hit if the link were followed) is a miss; a
 * store replaces the link, not the file it points to. */
static void test_symlink_entry_is_a_miss(void **state)
{
    const uint64_t key = 0x5311;
    char path[512], target[600];
    store_valid(key, "the real entry", path, sizeof path);
    snprintf(target, sizeof target, "%s.target", path);
    assert_int_equal(rename(path, target), 0);
    assert_int_equal(symlink(target, path), 0);
    expect_miss(key);
    assert_false(load_in_child(key));
    assert_true(weft_cache_store(key, "written over the link", 21));
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    expect_hit(key, "written over the link");
    size_t n;
    char *t = read_raw(target, &n);
    assert_int_equal(n, HDR_SIZE + 14);   /* the link's target is untouched */
    assert_memory_equal(t + HDR_SIZE, "the real entry", 14);
    free(t);
    unlink(target);
}

/* An entry others may write is a miss (anyone could have put code in it); one they may only
 * read is fine. */
static void test_entry_writable_by_others_is_a_miss(void **state)
{
    const uint64_t key = 0x0666;
    char path[512];
    store_valid(key, "mode bits", path, sizeof path);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);   /* what a store creates */
    static const mode_t refused[] = {0666, 0622, 0620, 0602};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(chmod(path, refused[i]), 0);
        void *p = NULL;
        size_t n = 0;
        if (weft_cache_load(key, &p, &n))
            fail_msg("an entry of mode %03o was trusted", (unsigned)refused[i]);
    }
    assert_int_equal(chmod(path, 0644), 0);
    expect_hit(key, "mode bits");
    assert_int_equal(chmod(path, 0666), 0);
    assert_true(weft_cache_store(key, "rewritten", 9));
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    expect_hit(key, "rewritten");
}

/* An entry owned by another user (uid 65534, "nobody") is a miss. Only root can give a file
 * away, so the test needs root. */
static void test_entry_of_another_user_is_a_miss(void **state)
{
    if (geteuid() != 0)
        skip();
    const uint64_t key = 0x0e4e;
    char path[512];
    store_valid(key, "not yours", path, sizeof path);
    assert_int_equal(chown(path, 65534, 65534), 0);
    expect_miss(key);
    assert_true(weft_cache_store(key, "yours again", 11));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_uid, 0);
    expect_hit(key, "yours again");
}

/* Headers that claim more than there is, or more than any entry may hold, are misses found
 * without allocating or reading the claimed bytes; so is every truncation of a valid entry. */
static void test_oversized_and_truncated_entries_are_misses(void **state)
{
    const uint64_t key = 0x8000;
    const char *payload = "eight gigabytes, it says";
    char path[512];
    store_valid(key, payload, path, sizeof path);
    size_t n;
    unsigned char *good = read_raw(path, &n);

    /* a small file whose header claims an 8 GiB payload */
    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    put_u64(bad + HDR_LENGTH, (uint64_t)8 << 30);
    write_raw(path, bad, n);
    expect_miss(key);

    /* the same header on a (sparse) file that really is that large: the length matches the
     * file, but exceeds what an entry may hold */
    int fd = open(path, O_WRONLY | O_TRUNC);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, bad, HDR_SIZE, 0), HDR_SIZE);
    assert_int_equal(ftruncate(fd, HDR_SIZE + ((off_t)8 << 30)), 0);
    close(fd);
    assert_false(load_in_child(key));

    /* a payload one byte over the bound, with everything else valid, checksum included: it
     * would load but for the bound (which WEFT_CACHE_MAX_MB lowers, so that this test need not
     * write a gigabyte) */
    setenv("WEFT_CACHE_MAX_MB", "1", 1);
    size_t big = ((size_t)1 << 20) + 1;
    unsigned char *blob = malloc(HDR_SIZE + big);
    assert_non_null(blob);
    memcpy(blob, bad, HDR_SIZE);
    memset(blob + HDR_SIZE, 'g', big);
    put_u64(blob + HDR_LENGTH, big);
    put_u64(blob + HDR_CHECKSUM, weft_hash64(blob + HDR_SIZE, big, key));
    write_raw(path, blob, HDR_SIZE + big);
    expect_miss(key);
    assert_false(weft_cache_store(key + 1, blob + HDR_SIZE, big));   /* stores obey the bound */
    put_u64(blob + HDR_LENGTH, big - 1);                              /* at the bound: a hit */
    put_u64(blob + HDR_CHECKSUM, weft_hash64(blob + HDR_SIZE, big - 1, key));
    write_raw(path, blob, HDR_SIZE + big - 1);
    void *p = NULL;
    size_t sz = 0;
    assert_true(weft_cache_load(key, &p, &sz));
    assert_int_equal(sz, big - 1);
    free(p);
    free(blob);
    unsetenv("WEFT_CACHE_MAX_MB");
    assert_false(weft_cache_store(key + 1, "", 0));

    /* every truncation of the valid entry */
    for (size_t len = 0; len < n; len++) {
        write_raw(path, good, len);
        if (weft_cache_load(key, &p, &sz))
            fail_msg("an entry truncated to %zu of %zu bytes was trusted", len, n);
    }
    assert_true(weft_cache_store(key, payload, strlen(payload)));
    expect_hit(key, payload);
    free(bad);
    free(good);
}

/* Runs fn with stderr going to a file; returns what was written (malloc'd). */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    size_t n;
    char *text = read_raw(path, &n);
    char *s = realloc(text, n + 1);
    s[n] = 0;
    unlink(path);
    return s;
}

static void store_and_expect_refused(void *arg)
{
    uint64_t key = *(const uint64_t *)arg;
    assert_false(weft_cache_store(key + 1, "refused", 7));
    expect_miss(key);
}

/* The directory: created 0700 (whatever the umask); refused, with one WEFT_LOG line, when it
 * is writable by its group or others, or belongs to another user. */
static void test_cache_dir_private_or_refused(void **state)
{
    char sub[300], parent[300];
    snprintf(parent, sizeof parent, "%s/made", dir);
    snprintf(sub, sizeof sub, "%s/made/weft", dir);
    setenv("WEFT_CACHE_DIR", sub, 1);
    mode_t old_mask = umask(0);
    const uint64_t key = 0xd1d1;
    assert_true(weft_cache_store(key, "in a private dir", 16));
    umask(old_mask);
    struct stat st;
    assert_int_equal(stat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(stat(parent, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    expect_hit(key, "in a private dir");

    static const mode_t refused[] = {0777, 0770, 0702, 01777};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(chmod(sub, refused[i]), 0);
        uint64_t k = key;
        char *err = capture_stderr(store_and_expect_refused, &k);
        if (!strstr(err, "disk cache off") || !strstr(err, sub) || !strstr(err, "writable by its group or by others"))
            fail_msg("mode %03o: no WEFT_LOG line for the refused directory: '%s'", (unsigned)refused[i], err);
        free(err);
        err = capture_stderr(store_and_expect_refused, &k);   /* said once, not at every access */
        if (strstr(err, "disk cache off"))
            fail_msg("mode %03o: the refusal was logged again: '%s'", (unsigned)refused[i], err);
        free(err);
    }
    assert_int_equal(chmod(sub, 0755), 0);   /* readable by others is fine */
    expect_hit(key, "in a private dir");

    if (geteuid() == 0) {   /* another user's directory: only root can make one */
        assert_int_equal(chown(sub, 65534, 65534), 0);
        uint64_t k = key;
        char *err = capture_stderr(store_and_expect_refused, &k);
        if (!strstr(err, "owned by uid 65534"))
            fail_msg("no WEFT_LOG line for another user's directory: '%s'", err);
        free(err);
        assert_int_equal(chown(sub, 0, 0), 0);
        expect_hit(key, "in a private dir");
    }
    setenv("WEFT_CACHE_DIR", dir, 1);
}

/* ---- a compiled variant through the cache ---------------------------------------------- */

static struct weft_image *build_saxpy(void)
{
    const char *src = "kernel void saxpy(float a, global const float *x, global float *y) {\n"
                      "  size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n";
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    assert_int_equal(weft_options_parse(NULL, WEFT_OPTIONS_COMPILE, &o, &d), CL_SUCCESS);
    struct weft_bitcode obj, exe;
    assert_int_equal(weft_frontend_compile(src, &o, NULL, 0, &obj, &d), CL_SUCCESS);
    assert_int_equal(weft_link(&obj, 1, true, &o, &exe, &d), CL_SUCCESS);
    struct weft_image *img = NULL;
    assert_int_equal(weft_image_create(&exe, "", false, false, &img, &d), CL_SUCCESS);
    weft_bitcode_free(&obj);
    weft_bitcode_free(&exe);
    weft_options_free(&o);
    weft_diag_free(&d);
    return img;
}

static void run_saxpy(struct weft_image *img)
{
    const uint64_t local[3] = {16, 1, 1};
    struct weft_compiled_variant v;
    struct weft_diag d;
    weft_diag_init(&d);
    cl_int err = weft_image_get_variant(img, 0, local, &(struct weft_variant_spec){0}, &v, &d);
    if (err != CL_SUCCESS)
        fail_msg("variant: %d %s", err, d.text ? d.text : "");
    weft_diag_free(&d);
    enum { N = 64 };
    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    unsigned char args[24] = {0};
    float a = 3.0f;
    void *px = x, *py = y;
    memcpy(args, &a, 4);
    memcpy(args + 8, &px, 8);
    memcpy(args + 16, &py, 8);
    struct weft_wg_ctx ctx = {1, {N, 1, 1}, {16, 1, 1}, {0, 0, 0}, {N / 16, 1, 1}, NULL, NULL, NULL};
    weft_wg_ctx_set_uniform(&ctx);
    ctx.local_mem = aligned_alloc(64, 4096);
    ctx.scratch = aligned_alloc(64, v.scratch_size + 64);
    v.fn(args, &ctx, 0, N / 16);
    free(ctx.local_mem);
    free(ctx.scratch);
    for (int i = 0; i < N; i++)
        if (y[i] != 3.0f * i + 1.0f)
            fail_msg("y[%d] = %g", i, y[i]);
}

/* The one .wobj entry of the cache directory. */
static void only_entry(char *path, size_t cap)
{
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int found = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        size_t n = strlen(de->d_name);
        if (n > 5 && !strcmp(de->d_name + n - 5, ".wobj")) {
            snprintf(path, cap, "%s/%s", dir, de->d_name);
            found++;
        }
    }
    closedir(dp);
    assert_int_equal(found, 1);
}

static void test_variant_corrupt_entry_rebuilt(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*.wobj", dir);
    assert_int_equal(system(cmd), 0);
    struct weft_image *img = build_saxpy();
    run_saxpy(img);              /* compiled and stored */
    weft_image_free(img);
    char path[512];
    only_entry(path, sizeof path);
    size_t n;
    unsigned char *good = read_raw(path, &n);
    assert_true(n > 100);

    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    for (size_t i = n / 2; i < n / 2 + 16; i++)
        bad[i] ^= 0x5a;          /* garbage in the middle of the object */
    write_raw(path, bad, n);
    img = build_saxpy();         /* a fresh image: no memory cache */
    run_saxpy(img);              /* must not trust the entry: rebuilt, and it runs */
    weft_image_free(img);
    size_t m;
    unsigned char *now = read_raw(path, &m);
    /* the entry was rewritten (codegen need not be byte-identical, so compare to the bad one) */
    assert_true(m != n || memcmp(now, bad, n) != 0);

    write_raw(path, good, n / 3);        /* truncated */
    img = build_saxpy();
    run_saxpy(img);
    weft_image_free(img);
    free(now);
    now = read_raw(path, &m);
    assert_true(m > n / 3);
    free(now);
    free(bad);
    free(good);
}

/* WEFT_DUMP=dir writes the IR after each stage of a build and of a variant. */
static void test_dump_stages(void **state)
{
    char dump[300], cmd[700];
    snprintf(dump, sizeof dump, "%s/dump", dir);
    setenv("WEFT_DUMP", dump, 1);
    /* the cache stays on: with WEFT_DUMP it is not read, so the stages run and are dumped */
    struct weft_image *img = build_saxpy();
    run_saxpy(img);
    weft_image_free(img);
    unsetenv("WEFT_DUMP");
    setenv("WEFT_CACHE_DIR", dir, 1);
    static const char *const stages[] = {"frontend", "linked", "wg-function", "optimized"};
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        snprintf(cmd, sizeof cmd, "ls '%s'/*.%s.ll >/dev/null 2>&1", dump, stages[i]);
        if (system(cmd) != 0)
            fail_msg("no IR dumped for stage %s", stages[i]);
    }
    snprintf(cmd, sizeof cmd, "grep -q 'define .*@weft_wg_' '%s'/saxpy.16x1x1.dfo.optimized.ll", dump);
    assert_int_equal(system(cmd), 0);
}

/* Builds and variants in several threads at once: every compile has its own LLVMContext,
 * the JIT is shared. Each thread checks its own results (cmocka asserts stay on the main
 * thread). */
struct job {
    int id;
    int failures;
};

static void *compile_job(void *arg)
{
    struct job *j = arg;
    char src[256];
    snprintf(src, sizeof src, "kernel void k(global int *y) { y[get_global_id(0)] = %d * (int)get_global_id(0); }\n",
             j->id);
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    struct weft_bitcode obj = {0}, exe = {0};
    struct weft_image *img = NULL;
    if (weft_options_parse(NULL, WEFT_OPTIONS_COMPILE, &o, &d) != CL_SUCCESS ||
        weft_frontend_compile(src, &o, NULL, 0, &obj, &d) != CL_SUCCESS ||
        weft_link(&obj, 1, true, &o, &exe, &d) != CL_SUCCESS ||
        weft_image_create(&exe, "", false, false, &img, &d) != CL_SUCCESS) {
        j->failures++;
        goto out;
    }
    for (uint64_t ls = 1; ls <= 8; ls *= 2) {
        const uint64_t local[3] = {ls, 1, 1};
        struct weft_compiled_variant v;
        if (weft_image_get_variant(img, 0, local, &(struct weft_variant_spec){0}, &v, &d) != CL_SUCCESS) {
            j->failures++;
            continue;
        }
        int y[32] = {0};
        void *py = y;
        unsigned char args[8];
        memcpy(args, &py, 8);
        struct weft_wg_ctx ctx = {1, {32, 1, 1}, {ls, 1, 1}, {0, 0, 0}, {32 / ls, 1, 1}, NULL, NULL, NULL};
        weft_wg_ctx_set_uniform(&ctx);
        ctx.local_mem = aligned_alloc(64, 4096);
        ctx.scratch = aligned_alloc(64, v.scratch_size + 64);
        v.fn(args, &ctx, 0, 32 / ls);
        free(ctx.local_mem);
        free(ctx.scratch);
        for (int i = 0; i < 32; i++)
            if (y[i] != j->id * i)
                j->failures++;
    }
out:
    weft_image_free(img);
    weft_bitcode_free(&obj);
    weft_bitcode_free(&exe);
    weft_options_free(&o);
    weft_diag_free(&d);
    return NULL;
}

static void test_concurrent_compiles(void **state)
{
    enum { T = 4 };
    pthread_t th[T];
    struct job jobs[T];
    for (int i = 0; i < T; i++) {
        jobs[i] = (struct job){i + 2, 0};
        assert_int_equal(pthread_create(&th[i], NULL, compile_job, &jobs[i]), 0);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        if (jobs[i].failures)
            fail_msg("thread %d: %d failures", i, jobs[i].failures);
    }
}

int main(void)
{
    /* read once per process: the refused-directory test checks the line it prints */
    setenv("WEFT_LOG", "info", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_build_identity),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_corrupt_entries_are_misses_and_rebuilt),
        cmocka_unit_test(test_size_limit_prunes_least_recently_used),
        cmocka_unit_test(test_default_dir_without_home),
        cmocka_unit_test(test_size_limit_holds_over_many_stores),
        cmocka_unit_test(test_disabled_and_unwritable),
        cmocka_unit_test_teardown(test_fifo_entry_is_a_miss, reset_env),
        cmocka_unit_test_teardown(test_symlink_entry_is_a_miss, reset_env),
        cmocka_unit_test_teardown(test_entry_writable_by_others_is_a_miss, reset_env),
        cmocka_unit_test_teardown(test_entry_of_another_user_is_a_miss, reset_env),
        cmocka_unit_test_teardown(test_oversized_and_truncated_entries_are_misses, reset_env),
        cmocka_unit_test_teardown(test_cache_dir_private_or_refused, reset_env),
        cmocka_unit_test(test_variant_corrupt_entry_rebuilt),
        cmocka_unit_test(test_dump_stages),
        cmocka_unit_test(test_concurrent_compiles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
