/* exec/variant_verify.c — WEFT_VERIFY (exec/variant_verify.h). */
#include "exec/variant_verify.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

static _Atomic unsigned mismatches;

/* bytes and sign bit of an element, per enum weft_verify_elem */
static const size_t elem_width[] = {1, 2, 4, 8};
static const unsigned elem_sign_bit[] = {7, 15, 31, 63};

bool weft_verify_setting(void)
{
    const char *e = getenv("WEFT_VERIFY");
    return e && *e && strcmp(e, "0") != 0 && strcmp(e, "off") != 0;
}

unsigned weft_verify_mismatches(void)
{
    return atomic_load(&mismatches);
}

enum weft_verify_elem weft_verify_elem_of(const char *type_name)
{
    if (!type_name)
        return WEFT_VERIFY_BYTES;
    /* the scalar type's name, then an optional vector width, then the pointer */
    static const struct {
        const char *name;
        enum weft_verify_elem elem;
    } kinds[] = {{"half", WEFT_VERIFY_HALF}, {"float", WEFT_VERIFY_FLOAT}, {"double", WEFT_VERIFY_DOUBLE}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t n = strlen(kinds[i].name);
        if (strncmp(type_name, kinds[i].name, n))
            continue;
        const char *p = type_name + n;
        while (*p >= '0' && *p <= '9')
            p++;
        if (!strcmp(p, "*"))
            return kinds[i].elem;
    }
    return WEFT_VERIFY_BYTES;
}

/* Floating-point values as integers that order like them, so that the distance in units in
 * the last place is a difference. */
static int64_t ordered64(uint64_t bits)
{
    return bits >> 63 ? -(int64_t)(bits & ~(1ull << 63)) : (int64_t)bits;
}

static uint64_t ulp_distance(uint64_t a, uint64_t b, unsigned sign_bit)
{
    int64_t x = ordered64(a << (63 - sign_bit)), y = ordered64(b << (63 - sign_bit));
    uint64_t d = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    return d >> (63 - sign_bit);
}

static bool is_nan(uint64_t bits, enum weft_verify_elem e)
{
    switch (e) {
    case WEFT_VERIFY_HALF:
        return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
    case WEFT_VERIFY_FLOAT:
        return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
    case WEFT_VERIFY_DOUBLE:
        return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0xfffffffffffffull);
    default:
        return false;
    }
}

/* The first element where `got` differs from `want` beyond the tolerance, or SIZE_MAX. */
static size_t first_difference(const unsigned char *want, const unsigned char *got, size_t size,
                               enum weft_verify_elem e)
{
    if (!memcmp(want, got, size))
        return SIZE_MAX;
    size_t w = elem_width[e];
    for (size_t off = 0; off < size; off += w) {
        size_t n = size - off < w ? size - off : w;
        if (!memcmp(want + off, got + off, n))
            continue;
        if (e == WEFT_VERIFY_BYTES || n < w)
            return off;
        uint64_t a = 0, b = 0;
        memcpy(&a, want + off, w);
        memcpy(&b, got + off, w);
        if (is_nan(a, e) && is_nan(b, e))
            continue;
        if (is_nan(a, e) || is_nan(b, e) || ulp_distance(a, b, elem_sign_bit[e]) > WEFT_VERIFY_ULPS)
            return off;
    }
    return SIZE_MAX;
}

static void report(const char *what, const struct weft_verify_buffer *b, size_t off, const unsigned char *want,
                   const unsigned char *got)
{
    size_t w = elem_width[b->elem], n = b->size - off < w ? b->size - off : w;
    uint64_t a = 0, g = 0;
    memcpy(&a, want + off, n);
    memcpy(&g, got + off, n);
    char line[512];
    snprintf(line, sizeof line, "weft: WEFT_VERIFY: %s: the variants disagree on argument %u at byte %zu "
             "(0x%llx against 0x%llx): the first is kept, final in memory and on disk\n",
             what, b->arg, off, (unsigned long long)a, (unsigned long long)g);
    fputs(line, stderr);
    const char *path = getenv("WEFT_VERIFY_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}

static void restore(const struct weft_verify_buffer *bufs, unsigned n, unsigned char *const *saved)
{
    for (unsigned i = 0; i < n; i++)
        memcpy(bufs[i].data, saved[i], bufs[i].size);
}

bool weft_verify_pair(const struct weft_launch *launch, weft_wg_fn b, const struct weft_verify_buffer *bufs,
                      unsigned nbufs, const char *what)
{
    unsigned char **before = calloc(nbufs ? nbufs : 1, sizeof *before);
    unsigned char **first = calloc(nbufs ? nbufs : 1, sizeof *first);
    bool ok = true, checked = before && first;
    for (unsigned i = 0; checked && i < nbufs; i++) {
        before[i] = malloc(bufs[i].size ? bufs[i].size : 1);
        first[i] = malloc(bufs[i].size ? bufs[i].size : 1);
        checked = before[i] && first[i];
        if (checked)
            memcpy(before[i], bufs[i].data, bufs[i].size);
    }
    if (!checked) {
        weft_log(WEFT_LOG_INFO, "%s: WEFT_VERIFY: no memory for copies of the buffers; not checked", what);
    } else {
        struct weft_launch sample = *launch;
        if (sample.total_groups > WEFT_VERIFY_SAMPLE)
            sample.total_groups = WEFT_VERIFY_SAMPLE;
        int rc = weft_pool_run(&sample);
        for (unsigned i = 0; i < nbufs; i++)
            memcpy(first[i], bufs[i].data, bufs[i].size);
        restore(bufs, nbufs, before);
        sample.fn = b;
        rc |= weft_pool_run(&sample);
        for (unsigned i = 0; rc == 0 && ok && i < nbufs; i++) {
            size_t off = first_difference(first[i], bufs[i].data, bufs[i].size, bufs[i].elem);
            if (off != SIZE_MAX) {
                report(what, &bufs[i], off, first[i], bufs[i].data);
                ok = false;
            }
        }
        restore(bufs, nbufs, before);
        if (!ok)
            atomic_fetch_add(&mismatches, 1);
        else if (rc == 0)
            weft_log(WEFT_LOG_INFO, "%s: WEFT_VERIFY: agree on %llu work-groups (%u buffers)", what,
                     (unsigned long long)sample.total_groups, nbufs);
    }
    for (unsigned i = 0; i < nbufs && before && first; i++) {
        free(before[i]);
        free(first[i]);
    }
    free(before);
    free(first);
    return ok;
}
