/* compiler/cache.c — the disk cache of compiled variants (see cache.h), and the 64-bit hash
 * used for its keys.
 *
 * Guarantees: a payload is returned only when its header matches (magic, format and ABI
 * version, the requested key, the exact length) and its checksum verifies; anything else is
 * a miss, and the caller rebuilds and overwrites the entry. Entries are written to a unique
 * temporary file in the same directory and renamed, so concurrent writers (threads or
 * processes) and readers never see partial files.
 *
 * The entries are native code that the JIT maps and runs, so only what this user wrote is
 * trusted: the directory must be ours and writable by no one else (else the disk cache is
 * off, and WEFT_LOG=info says why), and an entry must be a regular file of ours that no one
 * else may write, no larger than WEFT_CACHE_ENTRY_MAX (or the size limit), whatever its
 * header claims. Entries are opened relative to the checked directory, never through a
 * symbolic link, and never in a way that blocks (a FIFO put in an entry's place is a miss,
 * not a hang).
 */
#define _GNU_SOURCE
#include "compiler/cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "util/log.h"
#include "weft/abi.h"

#define CACHE_MAGIC "WEFTOBJ\x01"
#define CACHE_FORMAT 1u

struct entry_header {
    char magic[8];
    uint32_t format;
    uint32_t abi;
    uint64_t key;
    uint64_t length;
    uint64_t checksum;
};

/* ---- hash: 8 bytes per step with a strong finalizer (not cryptographic; collisions would
 * need ~2^32 entries) -------------------------------------------------------------------- */

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

uint64_t weft_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ULL);
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t k;
        memcpy(&k, p + i, 8);
        k *= c1;
        k = rotl64(k, 31);
        k *= c2;
        h ^= k;
        h = rotl64(h, 27) * 5 + 0x52dce729;
    }
    uint64_t k = 0;
    for (size_t s = 0; i < n; i++, s += 8)
        k |= (uint64_t)p[i] << s;
    k *= c1;
    k = rotl64(k, 31);
    k *= c2;
    h ^= k;
    return fmix64(h ^ n);
}

/* ---- build identity ------------------------------------------------------------------------ */

struct find_build_id {
    uintptr_t addr;       /* an address inside our code */
    uint64_t id;
    bool found;
};

static int phdr_callback(struct dl_phdr_info *info, size_t size, void *data)
{
    struct find_build_id *f = data;
    bool ours = false;
    for (int i = 0; i < info->dlpi_phnum && !ours; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= start && f->addr < start + ph->p_memsz)
            ours = true;
    }
    if (!ours)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const char *name = p + sizeof *n;
            const char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                f->id = weft_hash64(desc, n->n_descsz, 0x6964);
                f->found = true;
                return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1;
}

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static uint64_t identity;

static void compute_identity(void)
{
    struct find_build_id f = {(uintptr_t)&weft_cache_build_identity, 0, false};
    dl_iterate_phdr(phdr_callback, &f);
    if (f.found) {
        identity = f.id;
        return;
    }
    Dl_info info;
    struct stat st;
    if (dladdr((void *)&weft_cache_build_identity, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
        uint64_t v[3] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec};
        identity = weft_hash64(v, sizeof v, 0x6d74);
        return;
    }
    identity = 0;   /* unknown: keys still cover the version and ABI */
}

uint64_t weft_cache_build_identity(void)
{
    pthread_once(&identity_once, compute_identity);
    return identity;
}

/* ---- directory ----------------------------------------------------------------------------- */

/* The home directory of this process's account from the user database, read once (it does
 * not change while the process runs; HOME may, and is read each time); "" when unknown. */
static char account_home[1024];
static pthread_once_t account_home_once = PTHREAD_ONCE_INIT;

static void read_account_home(void)
{
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &found) == 0 && found && found->pw_dir &&
        found->pw_dir[0] == '/' && strcmp(found->pw_dir, "/") != 0)
        snprintf(account_home, sizeof account_home, "%s", found->pw_dir);
}

char *weft_cache_dir(void)
{
    const char *env = getenv("WEFT_CACHE_DIR");
    char buf[4096];
    if (env) {
        if (!*env || !strcmp(env, "off") || !strcmp(env, "0"))
            return NULL;
        snprintf(buf, sizeof buf, "%s", env);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        /* Without HOME (services, containers and batch jobs often start without one) the
         * account's home directory; the cache was silently off there before, and every
         * process compiled and profiled again (the 16-core device machine's runs) */
        if (!home || !*home) {
            pthread_once(&account_home_once, read_account_home);
            home = account_home;
        }
        if (xdg && *xdg)
            snprintf(buf, sizeof buf, "%s/weft", xdg);
        else if (home && *home)
            snprintf(buf, sizeof buf, "%s/.cache/weft", home);
        else
            return NULL;
    }
    return strdup(buf);
}

/* Creates the directories of `dir` that are missing, private to this user: what Weft
 * creates, no one else may list or fill. Existing ones are left as they are. */
static bool mkdir_p(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    }
    return mkdir(tmp, 0700) == 0 || errno == EEXIST;
}

/* The last refusal logged, so that a process says why once, not at every load. */
static pthread_mutex_t refused_lock = PTHREAD_MUTEX_INITIALIZER;
static char *refused_line;

static void refuse(const char *dir, const char *why)
{
    char line[4400];
    snprintf(line, sizeof line, "disk cache off: %s %s", dir, why);
    pthread_mutex_lock(&refused_lock);
    if (!refused_line || strcmp(refused_line, line)) {
        weft_log(WEFT_LOG_INFO, "%s", line);
        free(refused_line);
        refused_line = strdup(line);
    }
    pthread_mutex_unlock(&refused_lock);
}

/* Opens the cache directory (created first when `create`) and checks that it is a directory
 * of this user that no one else may write: another user who can put files there could put
 * code there that this process would run. Returns its descriptor, or -1 (a miss). A symbolic
 * link to such a directory is fine (a cache moved to another disk); what counts is the
 * directory reached, and everything after goes through its descriptor. */
static int open_cache_dir(const char *dir, bool create)
{
    if (create && !mkdir_p(dir))
        return -1;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    struct stat st;
    if (fstat(dfd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        close(dfd);
        return -1;
    }
    char why[128];
    if (st.st_uid != geteuid())
        snprintf(why, sizeof why, "is owned by uid %u, not by this user (uid %u)", (unsigned)st.st_uid,
                 (unsigned)geteuid());
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, sizeof why, "is writable by its group or by others (mode %03o)", (unsigned)(st.st_mode & 07777));
    else
        return dfd;
    refuse(dir, why);
    close(dfd);
    return -1;
}

static void entry_name(uint64_t key, char *name, size_t cap)
{
    snprintf(name, cap, "%016llx.wobj", (unsigned long long)key);
}

bool weft_cache_entry_path(uint64_t key, char *path, size_t cap)
{
    char *dir = weft_cache_dir();
    if (!dir)
        return false;
    int n = snprintf(path, cap, "%s/%016llx.wobj", dir, (unsigned long long)key);
    free(dir);
    return n > 0 && (size_t)n < cap;
}

/* ---- load/store -------------------------------------------------------------------------- */

static bool read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* The largest payload an entry may hold: WEFT_CACHE_ENTRY_MAX, or less when the whole
 * cache is limited to less (an entry the limit cannot hold is not kept). */
static uint64_t entry_max(void)
{
    uint64_t limit = weft_cache_max_bytes();
    return limit < WEFT_CACHE_ENTRY_MAX ? limit : WEFT_CACHE_ENTRY_MAX;
}

/* Whether `st` is an entry this process may trust: a regular file of this user that no one
 * else may write, with room for a header and a payload of at most entry_max(). */
static bool trusted_entry(const struct stat *st)
{
    return S_ISREG(st->st_mode) && st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH)) &&
           (uint64_t)st->st_size > sizeof(struct entry_header) &&
           (uint64_t)st->st_size - sizeof(struct entry_header) <= entry_max();
}

bool weft_cache_load(uint64_t key, void **payload, size_t *size)
{
    char *dir = weft_cache_dir();
    if (!dir)
        return false;
    int dfd = open_cache_dir(dir, false);
    free(dir);
    if (dfd < 0)
        return false;
    char name[64];
    entry_name(key, name, sizeof name);
    /* Checked before opening, so that a FIFO or a device is never opened at all, and again on
     * the descriptor, which is what is read: the name may have changed in between. O_NONBLOCK
     * keeps an open of a FIFO swapped in meanwhile from waiting for a writer. */
    struct stat st;
    int fd = -1;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && trusted_entry(&st))
        fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    close(dfd);
    if (fd < 0)
        return false;
    struct entry_header h;
    bool ok = fstat(fd, &st) == 0 && trusted_entry(&st) && read_all(fd, &h, sizeof h) &&
              !memcmp(h.magic, CACHE_MAGIC, 8) && h.format == CACHE_FORMAT &&
              h.abi == WEFT_ABI_VERSION && h.key == key &&
              h.length > 0 && (uint64_t)st.st_size - sizeof h == h.length;
    void *data = NULL;
    if (ok) {
        data = malloc((size_t)h.length);
        ok = data && read_all(fd, data, (size_t)h.length) &&
             weft_hash64(data, (size_t)h.length, key) == h.checksum;
    }
    if (ok)
        futimens(fd, NULL);   /* recently used: pruning removes the least recently used first */
    close(fd);
    if (!ok) {
        free(data);
        return false;
    }
    *payload = data;
    *size = (size_t)h.length;
    return true;
}

/* ---- size limit --------------------------------------------------------------------------- */

uint64_t weft_cache_max_bytes(void)
{
    const char *env = getenv("WEFT_CACHE_MAX_MB");
    if (env && *env) {
        char *end;
        unsigned long long mb = strtoull(env, &end, 10);
        if (*end == 0)
            return (uint64_t)mb << 20;
    }
    return (uint64_t)1024 << 20;
}

struct entry_age {
    char name[64];
    time_t mtime;
    long nsec;
    uint64_t size;
};

static int by_age(const void *a, const void *b)
{
    const struct entry_age *x = a, *y = b;
    if (x->mtime != y->mtime)
        return x->mtime < y->mtime ? -1 : 1;
    return (x->nsec > y->nsec) - (x->nsec < y->nsec);
}

/* When the entries of directory `dfd` exceed the limit, removes the least recently used down
 * to 3/4 of it (never `keep`, the entry just written). Returns the bytes left. Names are
 * looked at, never followed: a link counts as itself and is what gets removed. */
static uint64_t prune(int dfd, const char *keep)
{
    uint64_t max = weft_cache_max_bytes(), total = 0;
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    rewinddir(d);
    struct entry_age *v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || len >= sizeof v->name || strcmp(de->d_name + len - 5, ".wobj"))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            struct entry_age *nv = realloc(v, cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        snprintf(v[n].name, sizeof v[n].name, "%s", de->d_name);
        v[n].mtime = st.st_mtim.tv_sec;
        v[n].nsec = st.st_mtim.tv_nsec;
        v[n].size = (uint64_t)st.st_size;
        total += v[n].size;
        n++;
    }
    if (total > max) {
        qsort(v, n, sizeof *v, by_age);
        for (size_t i = 0; i < n && total > max / 4 * 3; i++) {
            if (!strcmp(v[i].name, keep))
                continue;
            if (unlinkat(dirfd(d), v[i].name, 0) == 0)
                total -= v[i].size;
        }
    }
    closedir(d);
    free(v);
    return total;
}

/* The cache's bytes as this process last counted them, so that a store scans the directory
 * once per process and again only when the count crosses the limit, not once per entry: the
 * OpenCL-CTS leaves ~15,000 entries, and a scan per store then cost more than the build.
 * Other processes' stores are seen at the next scan. */
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static char *tally_dir;
static uint64_t tally_bytes;

static void account_store(const char *dir, int dfd, const char *name, uint64_t bytes)
{
    pthread_mutex_lock(&tally_lock);
    if (!tally_dir || strcmp(tally_dir, dir) || tally_bytes + bytes > weft_cache_max_bytes()) {
        free(tally_dir);
        tally_dir = strdup(dir);
        tally_bytes = prune(dfd, name);
    } else {
        tally_bytes += bytes;
    }
    pthread_mutex_unlock(&tally_lock);
}

/* Creates a new temporary file in `dfd` (its name in `tmp`), private to this user. Names
 * start with '.', so that neither pruning nor a reader takes them for entries. */
static int create_temporary(int dfd, uint64_t key, char *tmp, size_t cap)
{
    static _Atomic uint64_t counter;
    for (int attempt = 0; attempt < 64; attempt++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t v[4] = {(uint64_t)getpid(), (uint64_t)ts.tv_nsec, (uint64_t)ts.tv_sec, counter++};
        snprintf(tmp, cap, ".%016llx.%08llx", (unsigned long long)key,
                 (unsigned long long)(weft_hash64(v, sizeof v, key) & 0xffffffffu));
        int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

bool weft_cache_store(uint64_t key, const void *payload, size_t size)
{
    if (size == 0 || size > entry_max())
        return false;   /* a load would refuse it */
    char *dir = weft_cache_dir();
    if (!dir) {
        const char *env = getenv("WEFT_CACHE_DIR");
        if (!env)   /* not turned off: say why nothing is kept */
            refuse("(none)", "found: no WEFT_CACHE_DIR, XDG_CACHE_HOME, HOME or home directory of this user");
        return false;
    }
    int dfd = open_cache_dir(dir, true);
    if (dfd < 0) {
        free(dir);
        return false;
    }
    char name[64], tmp[64];
    entry_name(key, name, sizeof name);
    int fd = create_temporary(dfd, key, tmp, sizeof tmp);
    if (fd < 0) {
        close(dfd);
        free(dir);
        return false;
    }
    struct entry_header h;
    memset(&h, 0, sizeof h);   /* the padding too: the bytes go to disk */
    memcpy(h.magic, CACHE_MAGIC, 8);
    h.format = CACHE_FORMAT;
    h.abi = WEFT_ABI_VERSION;
    h.key = key;
    h.length = size;
    h.checksum = weft_hash64(payload, size, key);
    bool ok = write_all(fd, &h, sizeof h) && write_all(fd, payload, size);
    ok = (close(fd) == 0) && ok;
    /* rename replaces whatever has the entry's name (a link, a FIFO, a foreign file) without
     * following it */
    if (ok)
        ok = renameat(dfd, tmp, dfd, name) == 0;
    if (!ok)
        unlinkat(dfd, tmp, 0);
    else
        account_store(dir, dfd, name, sizeof h + size);
    close(dfd);
    free(dir);
    return ok;
}

/* ---- built programs ------------------------------------------------------------------------ */

extern const char weft_builtins_bc_start[], weft_builtins_bc_end[];

uint64_t weft_cache_build_key(uint64_t key, const char *tool)
{
    key = weft_hash64(tool, strlen(tool) + 1, key);
    struct stat st;
    if (stat(tool, &st) == 0) {
        uint64_t v[2] = {(uint64_t)st.st_size, (uint64_t)st.st_mtime};
        key = weft_hash64(v, sizeof v, key);
    }
    key = weft_hash64(weft_builtins_bc_start, (size_t)(weft_builtins_bc_end - weft_builtins_bc_start), key);
    key = weft_hash64(WEFT_VERSION_STRING, sizeof WEFT_VERSION_STRING, key);
    uint64_t id = weft_cache_build_identity();
    return weft_hash64(&id, sizeof id, key);
}

/* payload: u64 log length, the log, the bitcode */
bool weft_cache_load_build(uint64_t key, struct weft_bitcode *exe, struct weft_diag *diag)
{
    const char *dump = getenv("WEFT_DUMP");
    void *payload = NULL;
    size_t size = 0;
    uint64_t log_len;
    bool hit = false;
    if (!(dump && *dump) && weft_cache_load(key, &payload, &size) && size > sizeof log_len) {
        memcpy(&log_len, payload, sizeof log_len);
        if (log_len < size - sizeof log_len) {
            size_t bc_len = size - sizeof log_len - (size_t)log_len;
            exe->data = malloc(bc_len);
            if (exe->data) {
                memcpy(exe->data, (char *)payload + sizeof log_len + log_len, bc_len);
                exe->size = bc_len;
                weft_diag_append(diag, (char *)payload + sizeof log_len, (size_t)log_len);
                hit = true;
            }
        }
    }
    free(payload);
    return hit;
}

void weft_cache_store_build(uint64_t key, const struct weft_bitcode *exe, const struct weft_diag *diag)
{
    uint64_t log_len = diag->len;
    unsigned char *p = malloc(sizeof log_len + diag->len + exe->size);
    if (!p)
        return;
    memcpy(p, &log_len, sizeof log_len);
    if (diag->len)
        memcpy(p + sizeof log_len, diag->text, diag->len);
    memcpy(p + sizeof log_len + diag->len, exe->data, exe->size);
    weft_cache_store(key, p, sizeof log_len + diag->len + exe->size);
    free(p);
}
