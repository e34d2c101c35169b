/* runtime/context.h — contexts: the Weft CPU device, or any set of its sub-devices and the
 * devices they came from. */
#ifndef WEFT_RUNTIME_CONTEXT_H
#define WEFT_RUNTIME_CONTEXT_H

#include <pthread.h>
#include <stdbool.h>
#include "runtime/object.h"

struct _cl_context {
    struct weft_object obj;
    cl_device_id device;                 /* devices[0]: every device of a context has its
                                            limits (a sub-device has its parent's) */
    cl_device_id *devices;               /* the distinct devices, in the order given */
    cl_uint num_devices;
    cl_context_properties *properties;   /* copy, zero-terminated; NULL when none given */
    size_t num_properties;               /* entries including the terminating 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    pthread_mutex_t lock;
    struct weft_context_destructor *destructors;  /* LIFO list */
};

/* True when `device` is one of the context's devices. */
bool weft_context_has_device(cl_context ctx, cl_device_id device);

/* Reports an error through the context's callback (when one was given). */
void weft_context_notify(cl_context ctx, const char *msg);

#endif
