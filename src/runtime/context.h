/* runtime/context.h — contexts (one device: the Weft CPU). */
#ifndef WEFT_RUNTIME_CONTEXT_H
#define WEFT_RUNTIME_CONTEXT_H

#include <pthread.h>
#include "runtime/object.h"

struct _cl_context {
    struct weft_object obj;
    cl_device_id device;
    cl_context_properties *properties;   /* copy, zero-terminated; NULL when none given */
    size_t num_properties;               /* entries including the terminating 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    pthread_mutex_t lock;
    struct weft_context_destructor *destructors;  /* LIFO list */
};

/* Reports an error through the context's callback (when one was given). */
void weft_context_notify(cl_context ctx, const char *msg);

#endif
