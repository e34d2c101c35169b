/* util/bitset.h — fixed-size bit sets for dense indices (block numbers, value numbers), with
 * the few whole-set operations data-flow analyses need. Set sizes are chosen at creation and
 * all operands of a binary operation must have the same size. */
#ifndef WEFT_UTIL_BITSET_H
#define WEFT_UTIL_BITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct weft_bitset {
    uint64_t *words;
    size_t nbits;
};

void weft_bitset_init(struct weft_bitset *b, size_t nbits);   /* all clear */
void weft_bitset_free(struct weft_bitset *b);
void weft_bitset_clear_all(struct weft_bitset *b);
static inline size_t weft_bitset_nwords(const struct weft_bitset *b) { return (b->nbits + 63) / 64; }
static inline void weft_bitset_set(struct weft_bitset *b, size_t i) { b->words[i / 64] |= (uint64_t)1 << (i % 64); }
static inline void weft_bitset_reset(struct weft_bitset *b, size_t i) { b->words[i / 64] &= ~((uint64_t)1 << (i % 64)); }
static inline bool weft_bitset_test(const struct weft_bitset *b, size_t i)
{
    return (b->words[i / 64] >> (i % 64)) & 1;
}
void weft_bitset_copy(struct weft_bitset *dst, const struct weft_bitset *src);
/* dst |= src; returns true when dst changed. */
bool weft_bitset_union(struct weft_bitset *dst, const struct weft_bitset *src);
/* dst &= ~src */
void weft_bitset_subtract(struct weft_bitset *dst, const struct weft_bitset *src);
bool weft_bitset_equal(const struct weft_bitset *a, const struct weft_bitset *b);
size_t weft_bitset_count(const struct weft_bitset *b);
/* The first set index >= from, or SIZE_MAX: for (i = next(b,0); i != SIZE_MAX; i = next(b,i+1)) */
size_t weft_bitset_next(const struct weft_bitset *b, size_t from);

#endif
