/* util/ptrset.h — a set of pointers, as a thin layer over util/ptrmap.h (same guarantees). */
#ifndef WEFT_UTIL_PTRSET_H
#define WEFT_UTIL_PTRSET_H

#include "util/ptrmap.h"

struct weft_ptrset {
    struct weft_ptrmap map;
};

static inline void weft_ptrset_init(struct weft_ptrset *s) { weft_ptrmap_init(&s->map); }
static inline void weft_ptrset_free(struct weft_ptrset *s) { weft_ptrmap_free(&s->map); }
static inline void weft_ptrset_clear(struct weft_ptrset *s) { weft_ptrmap_clear(&s->map); }
/* Returns true when p was not in the set before. */
static inline bool weft_ptrset_add(struct weft_ptrset *s, const void *p) { return weft_ptrmap_put(&s->map, p, 1); }
static inline bool weft_ptrset_has(const struct weft_ptrset *s, const void *p) { return weft_ptrmap_has(&s->map, p); }
static inline bool weft_ptrset_remove(struct weft_ptrset *s, const void *p) { return weft_ptrmap_remove(&s->map, p); }
static inline size_t weft_ptrset_count(const struct weft_ptrset *s) { return s->map.live; }
static inline bool weft_ptrset_next(const struct weft_ptrset *s, size_t *it, const void **p)
{
    return weft_ptrmap_next(&s->map, it, p, NULL);
}

#endif
