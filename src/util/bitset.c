/* util/bitset.c — fixed-size bit sets (see bitset.h). */
#include "util/bitset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weft_bitset_init(struct weft_bitset *b, size_t nbits)
{
    b->nbits = nbits;
    /* One word even for an empty set, so `words` is never NULL and copies are uniform. */
    size_t n = weft_bitset_nwords(b) ? weft_bitset_nwords(b) : 1;
    b->words = calloc(n, sizeof(uint64_t));
    if (!b->words) {
        fprintf(stderr, "weft: out of memory for a bit set of %zu bits\n", nbits);
        abort();
    }
}

void weft_bitset_free(struct weft_bitset *b)
{
    free(b->words);
    b->words = NULL;
    b->nbits = 0;
}

void weft_bitset_clear_all(struct weft_bitset *b)
{
    memset(b->words, 0, weft_bitset_nwords(b) * sizeof(uint64_t));
}

void weft_bitset_copy(struct weft_bitset *dst, const struct weft_bitset *src)
{
    memcpy(dst->words, src->words, weft_bitset_nwords(src) * sizeof(uint64_t));
}

bool weft_bitset_union(struct weft_bitset *dst, const struct weft_bitset *src)
{
    uint64_t changed = 0;
    for (size_t i = 0, n = weft_bitset_nwords(src); i < n; i++) {
        uint64_t w = dst->words[i] | src->words[i];
        changed |= w ^ dst->words[i];
        dst->words[i] = w;
    }
    return changed != 0;
}

void weft_bitset_subtract(struct weft_bitset *dst, const struct weft_bitset *src)
{
    for (size_t i = 0, n = weft_bitset_nwords(src); i < n; i++)
        dst->words[i] &= ~src->words[i];
}

bool weft_bitset_equal(const struct weft_bitset *a, const struct weft_bitset *b)
{
    return a->nbits == b->nbits && memcmp(a->words, b->words, weft_bitset_nwords(a) * sizeof(uint64_t)) == 0;
}

size_t weft_bitset_count(const struct weft_bitset *b)
{
    size_t n = 0;
    for (size_t i = 0, w = weft_bitset_nwords(b); i < w; i++)
        n += (size_t)__builtin_popcountll(b->words[i]);
    return n;
}

size_t weft_bitset_next(const struct weft_bitset *b, size_t from)
{
    if (from >= b->nbits)
        return SIZE_MAX;
    size_t wi = from / 64;
    uint64_t w = b->words[wi] & (~(uint64_t)0 << (from % 64));
    for (;;) {
        if (w) {
            size_t i = wi * 64 + (size_t)__builtin_ctzll(w);
            return i < b->nbits ? i : SIZE_MAX;
        }
        if (++wi >= weft_bitset_nwords(b))
            return SIZE_MAX;
        w = b->words[wi];
    }
}
