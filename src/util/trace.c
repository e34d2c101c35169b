/* util/trace.c — the WEFT_TRACE recorder and writer, and the registry of compiled variants
 * (util/trace.h).
 *
 * Recording is an atomic increment on one counter and a copy into the claimed entry, whose
 * `ready` word is stored last (release): the writer reads entries concurrently with recorders
 * (a flush at clFinish while a command thread runs) and skips those not ready. Entries are never
 * reused, so a ready entry never changes. Long texts (why a chain was not fused) do not fit an
 * entry: they are interned in a small table and the entry keeps the index.
 */
#define _GNU_SOURCE
#include "util/trace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/clock.h"

bool weft_trace_enabled;
bool weft_report_enabled;

/* One event: 128 bytes, two cache lines' worth of a burst of chunk slices at most. */
struct event {
    _Atomic uint32_t ready;
    uint8_t kind;
    uint32_t tid;
    uint64_t ts, dur;
    uint64_t a[4];
    char name[40];
    char detail[24];
};

static struct {
    char *path;
    bool flush_at_finish;
    uint64_t base_ns;              /* ts 0 of the trace: the library's load */
    struct event *events;
    uint64_t cap;
    _Atomic uint64_t next;         /* entries claimed (may pass cap: those are dropped) */
    _Atomic uint64_t dropped;
    pthread_mutex_t write_lock;
    /* clFinish's writes (WEFT_TRACE_FLUSH=finish) take at most a tenth of the time: each write
     * costs time in proportion to the trace so far, and a program that calls clFinish after
     * every launch would otherwise spend its life rewriting it. Under write_lock. */
    uint64_t written;              /* entries claimed when the file was last written */
    uint64_t next_flush_ns;        /* no clFinish write before this */
    /* thread names, taken when a thread first records (a thread may be gone at exit) */
    pthread_mutex_t names_lock;
    struct {
        uint32_t tid;
        char name[16];
    } names[1024];
    unsigned nnames;
    /* interned texts */
    char *texts[256];
    unsigned ntexts;
    /* the variant registry */
    struct weft_trace_variant *variants;
    unsigned nvariants, variants_cap;
} tr = {.write_lock = PTHREAD_MUTEX_INITIALIZER, .names_lock = PTHREAD_MUTEX_INITIALIZER};

static void write_at_exit(void)
{
    weft_trace_write();
}

/* Priority 101: before exec/report.c's constructor, which reads weft_report_enabled. */
__attribute__((constructor(101))) static void trace_init(void)
{
    const char *r = getenv("WEFT_REPORT");
    weft_report_enabled = r && *r && strcmp(r, "0") != 0 && strcmp(r, "off") != 0;
    const char *t = getenv("WEFT_TRACE");
    if (!t || !*t)
        return;
    uint64_t cap = WEFT_TRACE_DEFAULT_EVENTS;
    const char *n = getenv("WEFT_TRACE_EVENTS");
    if (n && *n) {
        char *end;
        unsigned long long v = strtoull(n, &end, 10);
        if (*end == 0 && v >= 1 && v <= (1ull << 26))
            cap = v;
        else
            fprintf(stderr, "weft: WEFT_TRACE_EVENTS=%s is not a count of 1 to 2^26 events; using %u\n", n,
                    WEFT_TRACE_DEFAULT_EVENTS);
    }
    const char *f = getenv("WEFT_TRACE_FLUSH");
    tr.flush_at_finish = f && strcmp(f, "finish") == 0;
    /* calloc: the pages are only touched as events fill them */
    tr.events = calloc(cap, sizeof *tr.events);
    tr.path = strdup(t);
    if (!tr.events || !tr.path) {
        fprintf(stderr, "weft: WEFT_TRACE: no memory for %llu events; tracing is off\n", (unsigned long long)cap);
        free(tr.events);
        free(tr.path);
        return;
    }
    tr.cap = cap;
    tr.base_ns = weft_now_ns();
    weft_trace_enabled = true;
    atexit(write_at_exit);
}

void weft_trace_finish(void)
{
    if (!tr.flush_at_finish)
        return;
    pthread_mutex_lock(&tr.write_lock);
    bool due = atomic_load(&tr.next) != tr.written && weft_now_ns() >= tr.next_flush_ns;
    pthread_mutex_unlock(&tr.write_lock);
    if (due)
        weft_trace_write();
}

/* ---- recording ------------------------------------------------------------------------------ */

uint32_t weft_trace_tid(void)
{
    static _Thread_local uint32_t tid;
    if (tid)
        return tid;
    tid = (uint32_t)syscall(SYS_gettid);
    char name[16] = "";
    pthread_getname_np(pthread_self(), name, sizeof name);
    pthread_mutex_lock(&tr.names_lock);
    if (tr.nnames < sizeof tr.names / sizeof tr.names[0]) {
        tr.names[tr.nnames].tid = tid;
        memcpy(tr.names[tr.nnames].name, name, sizeof name);
        tr.nnames++;
    }
    pthread_mutex_unlock(&tr.names_lock);
    return tid;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strnlen(src, cap - 1) : 0;
    memcpy(dst, src ? src : "", n);
    dst[n] = 0;
}

static struct event *claim(void)
{
    uint64_t i = atomic_fetch_add_explicit(&tr.next, 1, memory_order_relaxed);
    if (i >= tr.cap) {
        atomic_fetch_add_explicit(&tr.dropped, 1, memory_order_relaxed);
        return NULL;
    }
    return &tr.events[i];
}

void weft_trace_record(enum weft_trace_kind kind, uint32_t tid, uint64_t ts, uint64_t dur, const char *name,
                       const char *detail, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    if (!tid)
        tid = weft_trace_tid();
    struct event *e = claim();
    if (!e)
        return;
    e->kind = (uint8_t)kind;
    e->tid = tid;
    e->ts = ts;
    e->dur = dur;
    e->a[0] = a0;
    e->a[1] = a1;
    e->a[2] = a2;
    e->a[3] = a3;
    copy_str(e->name, sizeof e->name, name);
    copy_str(e->detail, sizeof e->detail, detail);
    atomic_store_explicit(&e->ready, 1, memory_order_release);
}

/* The index of `text` in the interned texts; the last slot stands for every text past the table. */
static unsigned intern(const char *text)
{
    const unsigned max = sizeof tr.texts / sizeof tr.texts[0];
    pthread_mutex_lock(&tr.names_lock);
    unsigned i = 0;
    for (; i < tr.ntexts; i++)
        if (!strcmp(tr.texts[i], text))
            break;
    if (i == tr.ntexts) {
        char *copy = i < max - 1 ? strdup(text) : NULL;
        if (copy)
            tr.texts[tr.ntexts++] = copy;
        else
            i = max;   /* "(reason not kept: too many different ones)" */
    }
    pthread_mutex_unlock(&tr.names_lock);
    return i;
}

void weft_trace_record_text(enum weft_trace_kind kind, uint64_t ts, const char *name, const char *text)
{
    weft_trace_record(kind, 0, ts, 0, name, NULL, intern(text ? text : ""), 0, 0, 0);
}

/* ---- the variant registry ------------------------------------------------------------------- */

void weft_trace_note_variant(const struct weft_trace_variant *v)
{
    pthread_mutex_lock(&tr.names_lock);
    unsigned i = 0;
    while (i < tr.nvariants && tr.variants[i].fn != v->fn)
        i++;
    if (i == tr.nvariants && tr.nvariants == tr.variants_cap) {
        unsigned cap = tr.variants_cap ? 2 * tr.variants_cap : 64;
        struct weft_trace_variant *grown = realloc(tr.variants, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&tr.names_lock);
            return;   /* the variant goes unnamed */
        }
        tr.variants = grown;
        tr.variants_cap = cap;
    }
    tr.variants[i] = *v;
    if (i == tr.nvariants)
        tr.nvariants++;
    pthread_mutex_unlock(&tr.names_lock);
}

bool weft_trace_variant_of(const void *fn, struct weft_trace_variant *out)
{
    bool found = false;
    pthread_mutex_lock(&tr.names_lock);
    for (unsigned i = 0; i < tr.nvariants && !found; i++)
        if (tr.variants[i].fn == fn) {
            *out = tr.variants[i];
            found = true;
        }
    pthread_mutex_unlock(&tr.names_lock);
    return found;
}

/* ---- writing -------------------------------------------------------------------------------- */

/* A JSON string (quoted). */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static double us(uint64_t ns)
{
    return (double)ns / 1000.0;
}

/* Microseconds since the trace's base (events recorded before it: 0). */
static double ts_us(uint64_t ns)
{
    return ns > tr.base_ns ? us(ns - tr.base_ns) : 0.0;
}

/* The name of the variant whose function is fn, or "?". */
static const char *variant_name(uint64_t fn, char buf[32])
{
    struct weft_trace_variant v;
    if (weft_trace_variant_of((const void *)(uintptr_t)fn, &v))
        snprintf(buf, 32, "%s", v.variant);
    else
        snprintf(buf, 32, "?");
    return buf;
}

static const char *text_of(uint64_t i)
{
    pthread_mutex_lock(&tr.names_lock);
    const char *t = i < tr.ntexts ? tr.texts[i] : "(reason not kept: too many different ones)";
    pthread_mutex_unlock(&tr.names_lock);
    return t;   /* texts are never freed */
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Common fields of an event: name, cat, ph, ts, pid, tid. */
static void head(FILE *f, const char *name, const char *cat, const char *ph, double ts, int pid, uint32_t tid)
{
    fputs(",\n{\"name\":", f);
    put_str(f, name);
    fprintf(f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"ts\":%.3f,\"pid\":%d,\"tid\":%u", cat, ph, ts, pid, tid);
}

static void write_event(FILE *f, const struct event *e, uint64_t index, int pid)
{
    char buf[96], v0[32], v1[32];
    const double ts = ts_us(e->ts), dur = us(e->dur);
    switch ((enum weft_trace_kind)e->kind) {
    case WEFT_TRACE_COMMAND:
        head(f, e->name, "command", "X", ts, pid, e->tid);
        fprintf(f, ",\"dur\":%.3f,\"args\":{\"command\":", dur);
        put_str(f, e->detail);
        if (e->a[1])
            fprintf(f, ",\"bytes\":%llu", (unsigned long long)e->a[1]);
        fprintf(f, ",\"queued_us\":%.3f,\"status\":%lld}}", e->ts > e->a[0] ? us(e->ts - e->a[0]) : 0.0,
                (long long)(int64_t)e->a[2]);
        /* from enqueue to end: commands of a burst overlap, which only async slices may */
        snprintf(buf, sizeof buf, "%s (enqueue to end)", e->name);
        head(f, buf, "enqueue", "b", ts_us(e->a[0]), pid, e->tid);
        fprintf(f, ",\"id\":%llu,\"args\":{\"queue\":%llu}}", (unsigned long long)index, (unsigned long long)e->a[3]);
        head(f, buf, "enqueue", "e", ts_us(e->ts + e->dur), pid, e->tid);
        fprintf(f, ",\"id\":%llu}", (unsigned long long)index);
        break;
    case WEFT_TRACE_CHUNK:
        head(f, e->name, "work-groups", "X", ts, pid, e->tid);
        fprintf(f, ",\"dur\":%.3f,\"args\":{\"first_group\":%llu,\"groups\":%llu}}", dur, (unsigned long long)e->a[0],
                (unsigned long long)e->a[1]);
        break;
    case WEFT_TRACE_COMPILE:
        snprintf(buf, sizeof buf, "compile %s %s", e->name, e->detail);
        head(f, buf, "compile", "X", ts, pid, e->tid);
        fprintf(f, ",\"dur\":%.3f,\"args\":{\"kernel\":", dur);
        put_str(f, e->name);
        fputs(",\"variant\":", f);
        put_str(f, e->detail);
        fprintf(f, ",\"local_size\":\"%llux%llux%llu\",\"source\":\"%s\"}}", (unsigned long long)e->a[0],
                (unsigned long long)e->a[1], (unsigned long long)e->a[2], e->a[3] ? "disk cache" : "jit");
        break;
    case WEFT_TRACE_PROFILE:
        snprintf(buf, sizeof buf, "profile %s", variant_name(e->a[0], v0));
        head(f, buf, "profile", "X", ts, pid, e->tid);
        fprintf(f, ",\"dur\":%.3f,\"args\":{\"kernel\":", dur);
        put_str(f, e->name);
        fprintf(f, ",\"variant\":\"%s\",\"of_pair\":\"%s\",\"groups\":%llu}}", v0, e->a[2] ? "second" : "first",
                (unsigned long long)e->a[1]);
        break;
    case WEFT_TRACE_DECIDE:
        variant_name(e->a[0], v0);
        variant_name(e->a[1], v1);
        snprintf(buf, sizeof buf, "%s: chose %s", e->name, e->a[2] ? v1 : v0);
        head(f, buf, "profile", "i", ts, pid, e->tid);
        fputs(",\"s\":\"t\",\"args\":{\"kernel\":", f);
        put_str(f, e->name);
        fprintf(f, ",\"first\":\"%s\",\"second\":\"%s\",\"chosen\":\"%s\",\"ns_per_group_first\":%llu,"
                   "\"ns_per_group_second\":%llu,\"mode\":",
                v0, v1, e->a[2] ? v1 : v0, (unsigned long long)(e->a[3] >> 32),
                (unsigned long long)(e->a[3] & 0xffffffffu));
        put_str(f, e->detail);
        fputs("}}", f);
        break;
    case WEFT_TRACE_FUSED:
        snprintf(buf, sizeof buf, "fused %s K=%llu", e->name, (unsigned long long)e->a[0]);
        head(f, buf, "fusion", "X", ts, pid, e->tid);
        fprintf(f, ",\"dur\":%.3f,\"args\":{\"kernel\":", dur);
        put_str(f, e->name);
        fputs(",\"kernels\":", f);
        put_str(f, e->detail[0] ? e->detail : e->name);
        fprintf(f, ",\"K\":%llu,\"tiles\":%llu,\"tile_rows\":%llu,\"teams\":%llu}}", (unsigned long long)e->a[0],
                (unsigned long long)e->a[1], (unsigned long long)e->a[2], (unsigned long long)e->a[3]);
        break;
    case WEFT_TRACE_NOT_FUSED:
        snprintf(buf, sizeof buf, "not fused: %s", e->name);
        head(f, buf, "fusion", "i", ts, pid, e->tid);
        fputs(",\"s\":\"t\",\"args\":{\"kernel\":", f);
        put_str(f, e->name);
        fputs(",\"reason\":", f);
        put_str(f, text_of(e->a[0]));
        fputs("}}", f);
        break;
    default:
        break;
    }
}

/* The track's name: "queue N", the thread's own name when it had one, else "thread TID". */
static void track_name(uint32_t tid, char *buf, size_t n)
{
    if (tid > WEFT_TRACE_QUEUE_TID) {
        snprintf(buf, n, "queue %u", tid - WEFT_TRACE_QUEUE_TID);
        return;
    }
    snprintf(buf, n, "thread %u", tid);
    for (unsigned i = 0; i < tr.nnames; i++)
        if (tr.names[i].tid == tid && tr.names[i].name[0])
            snprintf(buf, n, "%s (%u)", tr.names[i].name, tid);
}

static void write_file(FILE *f)
{
    const int pid = (int)getpid();
    uint64_t claimed = atomic_load(&tr.next), n = claimed < tr.cap ? claimed : tr.cap;
    uint64_t dropped = atomic_load(&tr.dropped);
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"weft %s\",\"events_recorded\":%llu,"
               "\"events_dropped\":%llu,\"events_capacity\":%llu},\n\"traceEvents\":[\n",
            WEFT_VERSION_STRING, (unsigned long long)n, (unsigned long long)dropped, (unsigned long long)tr.cap);
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":\"weft (pid %d)\"}}",
            pid, pid);
    if (dropped) {
        fprintf(f, ",\n{\"name\":\"process_labels\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"args\":{\"labels\":"
                   "\"trace buffer full (WEFT_TRACE_EVENTS=%llu): %llu events dropped\"}}",
                pid, (unsigned long long)tr.cap, (unsigned long long)dropped);
    }
    /* every track that has an event, named; queues first */
    uint32_t *tids = malloc((n ? n : 1) * sizeof *tids);
    uint64_t ntids = 0;
    for (uint64_t i = 0; tids && i < n; i++)
        if (atomic_load_explicit(&tr.events[i].ready, memory_order_acquire))
            tids[ntids++] = tr.events[i].tid;
    if (tids)
        qsort(tids, ntids, sizeof *tids, cmp_u32);
    pthread_mutex_lock(&tr.names_lock);   /* names and texts */
    for (uint64_t i = 0; i < ntids; i++) {
        if (i && tids[i] == tids[i - 1])
            continue;
        char name[48];
        track_name(tids[i], name, sizeof name);
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":", pid, tids[i]);
        put_str(f, name);
        fputs("}}", f);
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"sort_index\":%d}}",
                pid, tids[i], tids[i] > WEFT_TRACE_QUEUE_TID ? (int)(tids[i] - WEFT_TRACE_QUEUE_TID) : 1000);
    }
    free(tids);
    pthread_mutex_unlock(&tr.names_lock);
    for (uint64_t i = 0; i < n; i++) {
        const struct event *e = &tr.events[i];
        if (!atomic_load_explicit(&e->ready, memory_order_acquire))
            continue;   /* still being written (a flush while commands run) */
        write_event(f, e, i, pid);
    }
    fputs("\n]}\n", f);
}

void weft_trace_write(void)
{
    if (!weft_trace_enabled)
        return;
    pthread_mutex_lock(&tr.write_lock);
    const uint64_t t0 = weft_now_ns();
    tr.written = atomic_load(&tr.next);
    size_t len = strlen(tr.path);
    char *tmp = malloc(len + 5);
    FILE *f = NULL;
    if (tmp) {
        memcpy(tmp, tr.path, len);
        memcpy(tmp + len, ".tmp", 5);
        f = fopen(tmp, "w");
    }
    if (!f) {
        fprintf(stderr, "weft: WEFT_TRACE: cannot write %s\n", tr.path);
    } else {
        write_file(f);
        if (fclose(f) != 0 || rename(tmp, tr.path) != 0)
            fprintf(stderr, "weft: WEFT_TRACE: cannot write %s\n", tr.path);
    }
    free(tmp);
    const uint64_t t1 = weft_now_ns();
    tr.next_flush_ns = t1 + 9 * (t1 - t0);
    pthread_mutex_unlock(&tr.write_lock);
}
