/* runtime/mem.h — buffer objects (images and pipes are not supported by this device). */
#ifndef WEFT_RUNTIME_MEM_H
#define WEFT_RUNTIME_MEM_H

#include <pthread.h>
#include <stddef.h>

#include "runtime/object.h"

#include "weft/abi.h"

struct weft_mem_destructor;
struct weft_mem_mapping;

/* What an image has besides a buffer's fields (runtime/image.c). Storage is addressed per
 * dimension: x * elem_size + y * pitch[1] + z * pitch[2], where a 1D array's layers are y (at
 * the slice pitch) and a 2D array's layers are z. */
struct weft_mem_image {
    cl_image_format format;
    cl_image_desc desc;                 /* as created (pitches: the storage's, see below) */
    size_t elem_size;
    size_t row_pitch, slice_pitch;      /* CL_IMAGE_ROW_PITCH / CL_IMAGE_SLICE_PITCH */
    size_t pitch[3];                    /* bytes per step in x, y, z (see above) */
    size_t extent[3];                   /* pixels in x, y, z (layers for arrays), 1 if absent */
    cl_mem buffer;                      /* 1D buffer images: the buffer given (held), else NULL */
    struct weft_image_desc kdesc;       /* what kernels receive (include/weft/abi.h) */
};

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
    pthread_mutex_t lock;               /* guards destructors and, on a root buffer, mappings */
    struct weft_mem_mapping *mappings;  /* root buffers only: active maps of it and its sub-buffers */
    struct weft_mem_image *image;           /* images only (type != CL_MEM_OBJECT_BUFFER), owned */
};

/* Storage alignment of every buffer Weft allocates (bytes); also CL_DEVICE_MEM_BASE_ADDR_ALIGN/8
 * is expected to divide it, so sub-buffer storage keeps the kernels' vector alignment. */
#define WEFT_MEM_ALIGN 128

/* True when `p` is a live buffer object (the only kind of cl_mem this device makes). */
bool weft_mem_is_buffer(const void *p);
/* True when `p` is a live image object. */
bool weft_mem_is_image(const void *p);
/* A new memory object of `context` (refs 0, unpublished) and its publication; for image.c.
 * weft_mem_free_unpublished undoes weft_mem_new. */
cl_mem weft_mem_new(cl_context context);
void weft_mem_publish(cl_mem m);
void weft_mem_free_unpublished(cl_mem m);
/* The buffer that owns the storage: the parent of a sub-buffer, else `m` itself. */
cl_mem weft_mem_root(cl_mem m);

/* A command whose payload (payload_size bytes) begins with `cl_mem held[2]`: a and b (either
 * may be NULL) are stored there and held until the command is released. For the buffer and
 * image commands (mem_commands.c, image_commands.c). */
struct weft_command;
struct weft_command *weft_mem_command_new(cl_command_queue queue, cl_command_type type, cl_uint num_events,
                                          const cl_event *wait_list, size_t payload_size,
                                          cl_int (*run)(struct weft_command *), cl_mem a, cl_mem b);
/* The run of a command with nothing to move (map, unmap, migrate): it only orders itself. */
cl_int weft_mem_command_run_nothing(struct weft_command *cmd);

/* The buffer commands' transfers, for the SVM commands (runtime/svm.c): copy `size` bytes (the
 * ranges must not overlap) or fill them with a pattern (a power of two up to 128 bytes that
 * divides `size`), large ones split over the worker pool (mem_commands.c). */
void weft_mem_copy_bytes(void *dst, const void *src, size_t size);
void weft_mem_fill_bytes(void *dst, size_t size, const void *pattern, size_t pattern_size);

/* Records an active mapping of [offset, offset+size) of `m` (offset relative to `m`) returned as
 * `ptr`, and increments m->map_count. Fails with CL_INVALID_OPERATION when a mapping for
 * writing would overlap another active mapping for writing of the same storage (the buffer, its
 * parent or sibling sub-buffers), and with CL_OUT_OF_HOST_MEMORY. */
cl_int weft_mem_map_add(cl_mem m, void *ptr, size_t offset, size_t size, cl_map_flags flags);
/* True when `ptr` is currently mapped from `m` (an unmap of it would be valid). */
bool weft_mem_map_has(cl_mem m, void *ptr);
/* Forgets one active mapping of `m` returned as `ptr` and decrements m->map_count; false when
 * `ptr` is not a pointer currently mapped from `m`. */
bool weft_mem_map_remove(cl_mem m, void *ptr);

#endif
