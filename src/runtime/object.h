/* runtime/object.h — what every OpenCL object has in common.
 *
 * Every cl_* handle points at a struct whose first member is a struct weft_object, whose
 * first member is the ICD dispatch pointer (the loader requires that). Objects are
 * reference counted atomically with two counts:
 *   - refs: the application's references (clRetainX and clReleaseX, CL_X_REFERENCE_COUNT);
 *   - total: refs plus the runtime's own holds (a pending command holds its buffers, a kernel
 *     its program, ...). The object is destroyed when total reaches zero.
 * When refs reaches zero the handle leaves the live-object registry, so any later use of it
 * by the application is rejected with the type's CL_INVALID_* code, even while the runtime
 * still holds the object. Validation looks the raw pointer up in the registry before
 * dereferencing it, so a garbage or freed handle never crashes the library.
 */
#ifndef WEFT_RUNTIME_OBJECT_H
#define WEFT_RUNTIME_OBJECT_H

#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum weft_type {
    WEFT_TYPE_NONE = 0,
    WEFT_TYPE_PLATFORM,
    WEFT_TYPE_DEVICE,
    WEFT_TYPE_CONTEXT,
    WEFT_TYPE_QUEUE,
    WEFT_TYPE_MEM,
    WEFT_TYPE_PROGRAM,
    WEFT_TYPE_KERNEL,
    WEFT_TYPE_EVENT,
    WEFT_TYPE_SAMPLER,
};

struct weft_object;
typedef void (*weft_destroy_fn)(struct weft_object *obj);

struct weft_object {
    const struct _cl_icd_dispatch *dispatch; /* must stay first */
    enum weft_type type;
    atomic_uint refs;
    atomic_uint total;
    weft_destroy_fn destroy;
};

extern const struct _cl_icd_dispatch weft_dispatch;

/* Initializes the header with refs = total = 1 and registers the handle as live. */
void weft_object_init(struct weft_object *obj, enum weft_type type, weft_destroy_fn destroy);
/* True when `p` is a live (registered, refs > 0) object of `type`. Never dereferences a
 * pointer that is not registered. */
bool weft_object_is(const void *p, enum weft_type type);
void weft_object_retain(struct weft_object *obj);          /* application reference */
void weft_object_release(struct weft_object *obj);         /* may unregister and destroy */
void weft_object_hold(struct weft_object *obj);            /* runtime reference */
void weft_object_unhold(struct weft_object *obj);          /* may destroy */
/* A hold, unless the object's destruction has begun (total already 0): for objects found through
 * a list that their destructor removes them from. */
bool weft_object_try_hold(struct weft_object *obj);
cl_uint weft_object_refcount(const struct weft_object *obj);
/* Number of live registered objects of `type` (WEFT_TYPE_NONE: all); for leak tests. */
size_t weft_object_live_count(enum weft_type type);

#define WEFT_OBJ(x) ((struct weft_object *)(x))

#endif
