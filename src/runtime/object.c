/* runtime/object.c — object headers, reference counts and the live-object registry. */
#include "runtime/object.h"

#include <pthread.h>
#include <stdlib.h>

/* Open-addressing hash set of live handles. Small and lock-protected: validation of a
 * handle costs one short critical section, which buys safety against garbage pointers. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *registry_slots;   /* 0 = empty, 1 = tombstone, else the pointer */
static size_t registry_cap;          /* power of two */
static size_t registry_used;         /* live + tombstones */
static size_t registry_live;

#define SLOT_EMPTY ((uintptr_t)0)
#define SLOT_TOMB ((uintptr_t)1)

static size_t hash_ptr(uintptr_t p)
{
    uint64_t x = (uint64_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static size_t registry_find(uintptr_t p)
{
    /* The markers are not handles: (cl_mem)1 would otherwise match a tombstone. */
    if (!registry_cap || p <= SLOT_TOMB)
        return SIZE_MAX;
    size_t mask = registry_cap - 1;
    for (size_t i = hash_ptr(p) & mask, n = 0; n < registry_cap; i = (i + 1) & mask, n++) {
        if (registry_slots[i] == p)
            return i;
        if (registry_slots[i] == SLOT_EMPTY)
            return SIZE_MAX;
    }
    return SIZE_MAX;
}

static void registry_insert_raw(uintptr_t *slots, size_t cap, uintptr_t p)
{
    size_t mask = cap - 1;
    size_t i = hash_ptr(p) & mask;
    while (slots[i] != SLOT_EMPTY && slots[i] != SLOT_TOMB)
        i = (i + 1) & mask;
    slots[i] = p;
}

static bool registry_grow(void)
{
    size_t cap = registry_cap ? registry_cap * 2 : 256;
    while (registry_live * 2 >= cap)
        cap *= 2;
    uintptr_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < registry_cap; i++)
        if (registry_slots[i] > SLOT_TOMB)
            registry_insert_raw(slots, cap, registry_slots[i]);
    free(registry_slots);
    registry_slots = slots;
    registry_cap = cap;
    registry_used = registry_live;
    return true;
}

static void registry_add(uintptr_t p)
{
    pthread_mutex_lock(&registry_lock);
    if ((registry_used + 1) * 4 >= registry_cap * 3)
        registry_grow();
    if (registry_cap) {
        size_t mask = registry_cap - 1;
        size_t i = hash_ptr(p) & mask;
        while (registry_slots[i] > SLOT_TOMB)
            i = (i + 1) & mask;
        if (registry_slots[i] == SLOT_EMPTY)
            registry_used++;
        registry_slots[i] = p;
        registry_live++;
    }
    pthread_mutex_unlock(&registry_lock);
}

static void registry_remove(uintptr_t p)
{
    pthread_mutex_lock(&registry_lock);
    size_t i = registry_find(p);
    if (i != SIZE_MAX) {
        registry_slots[i] = SLOT_TOMB;
        registry_live--;
    }
    pthread_mutex_unlock(&registry_lock);
}

void weft_object_init(struct weft_object *obj, enum weft_type type, weft_destroy_fn destroy)
{
    obj->dispatch = &weft_dispatch;
    obj->type = type;
    atomic_init(&obj->refs, 1);
    atomic_init(&obj->total, 1);
    obj->destroy = destroy;
    registry_add((uintptr_t)obj);
}

bool weft_object_is(const void *p, enum weft_type type)
{
    if (!p)
        return false;
    bool ok = false;
    pthread_mutex_lock(&registry_lock);
    if (registry_find((uintptr_t)p) != SIZE_MAX) {
        const struct weft_object *obj = p;
        ok = obj->type == type && atomic_load(&obj->refs) > 0;
    }
    pthread_mutex_unlock(&registry_lock);
    return ok;
}

void weft_object_retain(struct weft_object *obj)
{
    atomic_fetch_add(&obj->refs, 1);
    atomic_fetch_add(&obj->total, 1);
}

void weft_object_hold(struct weft_object *obj)
{
    atomic_fetch_add(&obj->total, 1);
}

bool weft_object_try_hold(struct weft_object *obj)
{
    unsigned n = atomic_load(&obj->total);
    while (n && !atomic_compare_exchange_weak(&obj->total, &n, n + 1))
        ;
    return n != 0;
}

void weft_object_unhold(struct weft_object *obj)
{
    if (atomic_fetch_sub(&obj->total, 1) == 1 && obj->destroy)
        obj->destroy(obj);
}

void weft_object_release(struct weft_object *obj)
{
    if (atomic_fetch_sub(&obj->refs, 1) == 1)
        registry_remove((uintptr_t)obj);
    weft_object_unhold(obj);
}

cl_uint weft_object_refcount(const struct weft_object *obj)
{
    return atomic_load(&obj->refs);
}

size_t weft_object_live_count(enum weft_type type)
{
    size_t n = 0;
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < registry_cap; i++) {
        if (registry_slots[i] > SLOT_TOMB &&
            (type == WEFT_TYPE_NONE || ((struct weft_object *)registry_slots[i])->type == type))
            n++;
    }
    pthread_mutex_unlock(&registry_lock);
    return n;
}
