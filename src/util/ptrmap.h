/* util/ptrmap.h — open-addressing hash map from pointers (LLVMValueRef, LLVMBasicBlockRef, any
 * non-NULL pointer) to uintptr_t values (an index, a flag word, or a pointer cast to uintptr_t).
 *
 * Guarantees: keys are compared by address; NULL is not a valid key; lookups and insertions are
 * O(1) expected (linear probing, load factor kept under 1/2, tombstones for removal); iteration
 * with weft_ptrmap_next visits every live entry exactly once, in an order that depends only on
 * the keys and the insertion history (not on time), so output derived from it is repeatable for
 * the same process, but callers that print must sort or iterate in IR order instead.
 * A zero-initialized map is empty and valid.
 */
#ifndef WEFT_UTIL_PTRMAP_H
#define WEFT_UTIL_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct weft_ptrmap {
    uintptr_t *keys;   /* 0 = empty, 1 = tombstone, else the key */
    uintptr_t *vals;
    size_t cap;        /* power of two, or 0 */
    size_t live;       /* entries present */
    size_t used;       /* live + tombstones */
};

void weft_ptrmap_init(struct weft_ptrmap *m);
void weft_ptrmap_free(struct weft_ptrmap *m);
void weft_ptrmap_clear(struct weft_ptrmap *m);
/* Inserts or overwrites; returns true when the key was not present before. */
bool weft_ptrmap_put(struct weft_ptrmap *m, const void *key, uintptr_t val);
/* Returns true and stores the value in *val (if val is not NULL) when the key is present. */
bool weft_ptrmap_get(const struct weft_ptrmap *m, const void *key, uintptr_t *val);
/* The value for key, or `dflt` when absent. */
uintptr_t weft_ptrmap_get_or(const struct weft_ptrmap *m, const void *key, uintptr_t dflt);
bool weft_ptrmap_has(const struct weft_ptrmap *m, const void *key);
/* Removes the key; returns true when it was present. */
bool weft_ptrmap_remove(struct weft_ptrmap *m, const void *key);
static inline size_t weft_ptrmap_count(const struct weft_ptrmap *m) { return m->live; }
/* Iteration: start with *it = 0; returns false when done.
 *     size_t it = 0; const void *k; uintptr_t v;
 *     while (weft_ptrmap_next(&m, &it, &k, &v)) ...
 * Do not insert while iterating (removing the current key is allowed). */
bool weft_ptrmap_next(const struct weft_ptrmap *m, size_t *it, const void **key, uintptr_t *val);

#endif
