/* runtime/mem.h — buffer objects (images and pipes are not supported by this device). */
#ifndef WEFT_RUNTIME_MEM_H
#define WEFT_RUNTIME_MEM_H

#include "runtime/object.h"

struct weft_mem_destructor;

struct _cl_mem {
    struct weft_object obj;
    cl_context context;
    cl_mem_object_type type;            /* CL_MEM_OBJECT_BUFFER */
    cl_mem_flags flags;                 /* as given, with inherited bits for sub-buffers */
    size_t size;
    void *host_ptr;                     /* the application's pointer (USE/COPY_HOST_PTR) or NULL */
    char *data;                         /* device storage: host_ptr for USE_HOST_PTR, else our
                                           aligned allocation; parent->data + origin for sub-buffers */
    cl_mem parent;                      /* sub-buffers: held */
    size_t origin;
    atomic_uint map_count;
    cl_mem_properties *properties;      /* clCreateBufferWithProperties list copy or NULL */
    size_t num_properties;
    struct weft_mem_destructor *destructors;
    /* helpers may add fields below */
};

#endif
