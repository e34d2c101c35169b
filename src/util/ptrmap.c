/* util/ptrmap.c — open-addressing pointer map (see ptrmap.h for the guarantees). */
#include "util/ptrmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_EMPTY ((uintptr_t)0)
#define SLOT_TOMB ((uintptr_t)1)

/* Pointers are aligned, so their low bits carry little entropy: mix all bits. */
static size_t hash_ptr(uintptr_t p)
{
    uint64_t x = (uint64_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (size_t)x;
}

void weft_ptrmap_init(struct weft_ptrmap *m)
{
    memset(m, 0, sizeof(*m));
}

void weft_ptrmap_free(struct weft_ptrmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}

void weft_ptrmap_clear(struct weft_ptrmap *m)
{
    if (m->cap)
        memset(m->keys, 0, m->cap * sizeof(uintptr_t));
    m->live = m->used = 0;
}

/* The slot holding key, or SIZE_MAX. */
static size_t find_slot(const struct weft_ptrmap *m, uintptr_t key)
{
    if (!m->cap)
        return SIZE_MAX;
    size_t mask = m->cap - 1;
    for (size_t i = hash_ptr(key) & mask;; i = (i + 1) & mask) {
        if (m->keys[i] == key)
            return i;
        if (m->keys[i] == SLOT_EMPTY)
            return SIZE_MAX;
    }
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "weft: out of memory growing a pointer map to %zu slots\n", n);
        abort();
    }
    return p;
}

static void rehash(struct weft_ptrmap *m, size_t cap)
{
    uintptr_t *okeys = m->keys, *ovals = m->vals;
    size_t ocap = m->cap;
    m->keys = xcalloc(cap, sizeof(uintptr_t));
    m->vals = xcalloc(cap, sizeof(uintptr_t));
    m->cap = cap;
    m->used = m->live;
    for (size_t i = 0; i < ocap; i++) {
        if (okeys[i] <= SLOT_TOMB)
            continue;
        size_t j = hash_ptr(okeys[i]) & (cap - 1);
        while (m->keys[j] != SLOT_EMPTY)
            j = (j + 1) & (cap - 1);
        m->keys[j] = okeys[i];
        m->vals[j] = ovals[i];
    }
    free(okeys);
    free(ovals);
}

bool weft_ptrmap_put(struct weft_ptrmap *m, const void *key, uintptr_t val)
{
    uintptr_t k = (uintptr_t)key;
    size_t i = find_slot(m, k);
    if (i != SIZE_MAX) {
        m->vals[i] = val;
        return false;
    }
    /* Keep (live + tombstones) under half the slots so probes stay short. */
    if ((m->used + 1) * 2 > m->cap) {
        /* Rehash (which also drops tombstones) into a table at most a quarter full. */
        size_t cap = 16;
        while ((m->live + 1) * 4 > cap)
            cap *= 2;
        rehash(m, cap);
    }
    size_t mask = m->cap - 1;
    for (i = hash_ptr(k) & mask;; i = (i + 1) & mask) {
        if (m->keys[i] <= SLOT_TOMB) {
            if (m->keys[i] == SLOT_EMPTY)
                m->used++;
            m->keys[i] = k;
            m->vals[i] = val;
            m->live++;
            return true;
        }
    }
}

bool weft_ptrmap_get(const struct weft_ptrmap *m, const void *key, uintptr_t *val)
{
    size_t i = find_slot(m, (uintptr_t)key);
    if (i == SIZE_MAX)
        return false;
    if (val)
        *val = m->vals[i];
    return true;
}

uintptr_t weft_ptrmap_get_or(const struct weft_ptrmap *m, const void *key, uintptr_t dflt)
{
    size_t i = find_slot(m, (uintptr_t)key);
    return i == SIZE_MAX ? dflt : m->vals[i];
}

bool weft_ptrmap_has(const struct weft_ptrmap *m, const void *key)
{
    return find_slot(m, (uintptr_t)key) != SIZE_MAX;
}

bool weft_ptrmap_remove(struct weft_ptrmap *m, const void *key)
{
    size_t i = find_slot(m, (uintptr_t)key);
    if (i == SIZE_MAX)
        return false;
    m->keys[i] = SLOT_TOMB;
    m->live--;
    return true;
}

bool weft_ptrmap_next(const struct weft_ptrmap *m, size_t *it, const void **key, uintptr_t *val)
{
    for (size_t i = *it; i < m->cap; i++) {
        if (m->keys[i] > SLOT_TOMB) {
            if (key)
                *key = (const void *)m->keys[i];
            if (val)
                *val = m->vals[i];
            *it = i + 1;
            return true;
        }
    }
    *it = m->cap;
    return false;
}
