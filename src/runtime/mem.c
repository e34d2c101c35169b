/* runtime/mem.c — buffer and sub-buffer objects.
 *
 * Guarantees:
 *   - clCreateBuffer(WithProperties) and clCreateSubBuffer validate every argument in the order
 *     of the OpenCL 3.0 error lists and never crash on a huge size (the allocation fails with
 *     CL_MEM_OBJECT_ALLOCATION_FAILURE instead).
 *   - Storage Weft allocates (runtime/storage.c) is zeroed and WEFT_MEM_ALIGN-byte aligned so
 *     kernels' vector loads align;
 *     CL_MEM_USE_HOST_PTR buffers use the application's memory directly (the device is the host,
 *     so that is zero copy and the host pointer always holds the latest bits); a sub-buffer's
 *     storage is its parent's storage plus the origin.
 *   - A buffer holds its context, a sub-buffer holds its parent; pending commands hold the
 *     buffers they use (mem_commands.c). The object is destroyed when the last of those goes:
 *     then the destructor callbacks run, most recently registered first, and only then is the
 *     storage freed.
 *   - Active mappings are recorded on the storage-owning (root) buffer, so overlapping mappings
 *     for writing are detected across a buffer and its sub-buffers, and an unmap of a pointer
 *     that was not mapped is recognised.
 */
#include "runtime/mem.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/storage.h"
#include "runtime/svm.h"

struct weft_mem_destructor {
    void (CL_CALLBACK *fn)(cl_mem, void *);
    void *user_data;
    struct weft_mem_destructor *next;   /* LIFO: head is the most recent registration */
};

struct weft_mem_mapping {
    cl_mem mem;             /* the object the application mapped (root or sub-buffer) */
    void *ptr;              /* the pointer clEnqueueMapBuffer returned */
    size_t start, size;     /* range in the root buffer's storage */
    cl_map_flags flags;
    struct weft_mem_mapping *next;
};

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define BUFFER_FLAGS (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS)

/* At most one bit of `mask` is set in `flags`. */
static bool at_most_one(cl_mem_flags flags, cl_mem_flags mask)
{
    cl_mem_flags f = flags & mask;
    return (f & (f - 1)) == 0;
}

/* The flag rules shared by buffers and sub-buffers (the Memory Flags table); returns a
 * message describing the violation or NULL. */
static const char *flags_violation(cl_mem_flags flags)
{
    if (flags & ~(cl_mem_flags)BUFFER_FLAGS)
        return "flags contain bits that are not buffer memory flags";
    if (!at_most_one(flags, ACCESS_FLAGS))
        return "CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive";
    if (!at_most_one(flags, HOST_ACCESS_FLAGS))
        return "CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are "
               "mutually exclusive";
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return "CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR";
    return NULL;
}

bool weft_mem_is_buffer(const void *p)
{
    return weft_object_is(p, WEFT_TYPE_MEM) && ((const struct _cl_mem *)p)->type == CL_MEM_OBJECT_BUFFER;
}

bool weft_mem_is_image(const void *p)
{
    return weft_object_is(p, WEFT_TYPE_MEM) && ((const struct _cl_mem *)p)->image != NULL;
}

cl_mem weft_mem_root(cl_mem m)
{
    return m->parent ? m->parent : m;
}

static void mem_destroy(struct weft_object *obj)
{
    cl_mem m = (cl_mem)obj;

    /* The application may free or reuse a USE_HOST_PTR region in these callbacks, so they run
     * before anything else and the storage is never touched afterwards. No lock: nobody else
     * can reach the object any more. */
    for (struct weft_mem_destructor *d = m->destructors, *next; d; d = next) {
        next = d->next;
        d->fn(m, d->user_data);
        free(d);
    }

    if (m->parent) {
        /* Forget mappings the application never unmapped, so the root's list keeps no
         * pointer to this object. */
        cl_mem root = m->parent;
        pthread_mutex_lock(&root->lock);
        for (struct weft_mem_mapping **pp = &root->mappings; *pp;) {
            struct weft_mem_mapping *map = *pp;
            if (map->mem == m) {
                *pp = map->next;
                free(map);
            } else {
                pp = &map->next;
            }
        }
        pthread_mutex_unlock(&root->lock);
        weft_object_unhold(WEFT_OBJ(root));
    } else {
        if (!(m->flags & CL_MEM_USE_HOST_PTR))
            weft_storage_free(m->data, m->size);
        for (struct weft_mem_mapping *map = m->mappings, *next; map; map = next) {
            next = map->next;
            free(map);
        }
    }
    cl_context ctx = m->context;
    if (m->image) {
        if (m->image->buffer)
            weft_object_unhold(WEFT_OBJ(m->image->buffer));
        free(m->image);
    }
    free(m->properties);
    pthread_mutex_destroy(&m->lock);
    free(m);
    weft_object_unhold(WEFT_OBJ(ctx));
}

/* A zeroed cl_mem of the given context with refs = 1, holding the context. */
static cl_mem mem_alloc(cl_context context)
{
    cl_mem m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        free(m);
        return NULL;
    }
    m->context = context;
    m->type = CL_MEM_OBJECT_BUFFER;
    atomic_init(&m->map_count, 0);
    return m;
}

static void mem_publish(cl_mem m)
{
    weft_object_hold(WEFT_OBJ(m->context));
    weft_object_init(&m->obj, WEFT_TYPE_MEM, mem_destroy);
}

cl_mem weft_mem_new(cl_context context)
{
    return mem_alloc(context);
}

void weft_mem_publish(cl_mem m)
{
    mem_publish(m);
}

void weft_mem_free_unpublished(cl_mem m)
{
    free(m->image);
    free(m->properties);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* Validates a buffer property list: core OpenCL defines no buffer property, so only the empty
 * list {0} is valid. Returns the number of entries including the terminating 0. */
static cl_int check_properties(const cl_mem_properties *properties, size_t *count)
{
    *count = 0;
    if (!properties)
        return CL_SUCCESS;
    if (properties[0] != 0)
        return weft_error("clCreateBufferWithProperties", CL_INVALID_PROPERTY,
                          "buffer property 0x%llx is not supported (OpenCL defines none)",
                          (unsigned long long)properties[0]);
    *count = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBufferWithProperties(cl_context context, const cl_mem_properties *properties,
                             cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    size_t num_props;
    cl_int err = check_properties(properties, &num_props);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    const char *why = flags_violation(flags);
    WEFT_CHECK_RET(!why, CL_INVALID_VALUE, errcode_ret, NULL, "flags 0x%llx: %s",
                   (unsigned long long)flags, why);
    cl_ulong max_alloc = context->device->max_mem_alloc_size;
    WEFT_CHECK_RET(size != 0 && size <= max_alloc, CL_INVALID_BUFFER_SIZE, errcode_ret, NULL,
                   "size %zu is 0 or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu", size,
                   (unsigned long long)max_alloc);
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    WEFT_CHECK_RET(!wants_ptr || host_ptr, CL_INVALID_HOST_PTR, errcode_ret, NULL,
                   "host_ptr is NULL but CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set");
    WEFT_CHECK_RET(wants_ptr || !host_ptr, CL_INVALID_HOST_PTR, errcode_ret, NULL,
                   "host_ptr is given but neither CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR is set");
    struct weft_svm_range svm;
    WEFT_CHECK_RET(!wants_ptr || !weft_svm_find(context, host_ptr, &svm) ||
                       size <= svm.size - (size_t)((char *)host_ptr - svm.base),
                   CL_INVALID_BUFFER_SIZE, errcode_ret, NULL,
                   "size %zu reaches past the end of the SVM allocation host_ptr %p lies in (%zu bytes from %p)",
                   size, host_ptr, svm.size, (void *)svm.base);

    cl_mem m = mem_alloc(context);
    if (!m)
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_HOST_MEMORY,
                                                   "no memory for the buffer object"), NULL);
    if (num_props) {
        m->properties = calloc(num_props, sizeof *m->properties);
        if (!m->properties) {
            pthread_mutex_destroy(&m->lock);
            free(m);
            return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_HOST_MEMORY,
                                                       "no memory for the property list"), NULL);
        }
        memcpy(m->properties, properties, num_props * sizeof *properties);
        m->num_properties = num_props;
    }
    m->flags = flags;
    m->size = size;
    m->host_ptr = wants_ptr ? host_ptr : NULL;
    if (flags & CL_MEM_USE_HOST_PTR) {
        /* The device is the host CPU: the application's memory is the storage. */
        m->data = host_ptr;
    } else {
        m->data = weft_storage_alloc(size);   /* zeroed, fresh pages (storage.c) */
        if (!m->data) {
            free(m->properties);
            pthread_mutex_destroy(&m->lock);
            free(m);
            return WEFT_RETURN(errcode_ret,
                               weft_error(__func__, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                          "cannot allocate %zu bytes of buffer storage", size),
                               NULL);
        }
        /* placed per NUMA node where there are several (storage.h) */
        if ((flags & CL_MEM_COPY_HOST_PTR) && !weft_storage_copy_placed(m->data, host_ptr, size))
            memcpy(m->data, host_ptr, size);
    }
    mem_publish(m);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, m);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
               cl_int *errcode_ret)
{
    return clCreateBufferWithProperties(context, NULL, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                  const void *buffer_create_info, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, errcode_ret, NULL,
                   "buffer is not a live buffer object");
    WEFT_CHECK_RET(!buffer->parent, CL_INVALID_MEM_OBJECT, errcode_ret, NULL,
                   "buffer is itself a sub-buffer");
    const char *why = flags_violation(flags);
    WEFT_CHECK_RET(!why, CL_INVALID_VALUE, errcode_ret, NULL, "flags 0x%llx: %s",
                   (unsigned long long)flags, why);
    cl_mem_flags pf = buffer->flags;
    WEFT_CHECK_RET(!((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "the parent is CL_MEM_WRITE_ONLY; the sub-buffer cannot be READ_WRITE or READ_ONLY");
    WEFT_CHECK_RET(!((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "the parent is CL_MEM_READ_ONLY; the sub-buffer cannot be READ_WRITE or WRITE_ONLY");
    WEFT_CHECK_RET(!((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "the parent is CL_MEM_HOST_WRITE_ONLY; the sub-buffer cannot be HOST_READ_ONLY");
    WEFT_CHECK_RET(!((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "the parent is CL_MEM_HOST_READ_ONLY; the sub-buffer cannot be HOST_WRITE_ONLY");
    WEFT_CHECK_RET(!((pf & CL_MEM_HOST_NO_ACCESS) &&
                     (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "the parent is CL_MEM_HOST_NO_ACCESS; the sub-buffer cannot allow host access");
    WEFT_CHECK_RET(!(flags & HOST_PTR_FLAGS), CL_INVALID_VALUE, errcode_ret, NULL,
                   "USE_HOST_PTR, ALLOC_HOST_PTR and COPY_HOST_PTR are inherited, not given, "
                   "for sub-buffers");
    WEFT_CHECK_RET(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
                   errcode_ret, NULL, "buffer_create_type 0x%x is not CL_BUFFER_CREATE_TYPE_REGION",
                   (unsigned)buffer_create_type);
    WEFT_CHECK_RET(buffer_create_info, CL_INVALID_VALUE, errcode_ret, NULL,
                   "buffer_create_info is NULL");
    const cl_buffer_region *r = buffer_create_info;
    WEFT_CHECK_RET(r->origin <= buffer->size && r->size <= buffer->size - r->origin,
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "region origin %zu size %zu exceeds the parent's %zu bytes", r->origin, r->size,
                   buffer->size);
    WEFT_CHECK_RET(r->size != 0, CL_INVALID_BUFFER_SIZE, errcode_ret, NULL,
                   "region size is 0");
    size_t align = buffer->context->device->mem_base_addr_align / 8;
    WEFT_CHECK_RET(align == 0 || r->origin % align == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                   errcode_ret, NULL, "origin %zu is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN "
                   "(%zu bytes)", r->origin, align);

    cl_mem m = mem_alloc(buffer->context);
    if (!m)
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_HOST_MEMORY,
                                                   "no memory for the sub-buffer object"), NULL);
    /* Access and host-access qualifiers not given are inherited; host-pointer flags always. */
    cl_mem_flags f = flags | (pf & HOST_PTR_FLAGS);
    if (!(flags & ACCESS_FLAGS))
        f |= pf & ACCESS_FLAGS;
    if (!(flags & HOST_ACCESS_FLAGS))
        f |= pf & HOST_ACCESS_FLAGS;
    m->flags = f;
    m->size = r->size;
    m->origin = r->origin;
    m->parent = buffer;
    m->data = buffer->data + r->origin;
    m->host_ptr = buffer->host_ptr ? (char *)buffer->host_ptr + r->origin : NULL;
    weft_object_hold(WEFT_OBJ(buffer));
    mem_publish(m);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, m);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainMemObject(cl_mem memobj)
{
    WEFT_CHECK(weft_object_is(memobj, WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
               "memobj is not a live memory object");
    weft_object_retain(WEFT_OBJ(memobj));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseMemObject(cl_mem memobj)
{
    WEFT_CHECK(weft_object_is(memobj, WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
               "memobj is not a live memory object");
    weft_object_release(WEFT_OBJ(memobj));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem memobj, void (CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                 void *user_data)
{
    WEFT_CHECK(weft_object_is(memobj, WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
               "memobj is not a live memory object");
    WEFT_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    struct weft_mem_destructor *d = malloc(sizeof *d);
    WEFT_CHECK(d, CL_OUT_OF_HOST_MEMORY, "no memory for the callback record");
    d->fn = pfn_notify;
    d->user_data = user_data;
    pthread_mutex_lock(&memobj->lock);
    d->next = memobj->destructors;
    memobj->destructors = d;
    pthread_mutex_unlock(&memobj->lock);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_object_is(memobj, WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
               "memobj is not a live memory object");
    size_t sz = param_value_size;
    void *v = param_value;
    size_t *ret = param_value_size_ret;
    switch (param_name) {
    case CL_MEM_TYPE:
        WEFT_INFO_VALUE(sz, v, ret, cl_mem_object_type, memobj->type);
    case CL_MEM_FLAGS:
        WEFT_INFO_VALUE(sz, v, ret, cl_mem_flags, memobj->flags);
    case CL_MEM_SIZE:
        WEFT_INFO_VALUE(sz, v, ret, size_t, memobj->size);
    case CL_MEM_HOST_PTR:
        /* Only USE_HOST_PTR buffers (and their sub-buffers) report a host pointer. */
        WEFT_INFO_VALUE(sz, v, ret, void *,
                        (memobj->flags & CL_MEM_USE_HOST_PTR) ? memobj->host_ptr : NULL);
    case CL_MEM_MAP_COUNT:
        WEFT_INFO_VALUE(sz, v, ret, cl_uint, atomic_load(&memobj->map_count));
    case CL_MEM_REFERENCE_COUNT:
        WEFT_INFO_VALUE(sz, v, ret, cl_uint, weft_object_refcount(WEFT_OBJ(memobj)));
    case CL_MEM_CONTEXT:
        WEFT_INFO_VALUE(sz, v, ret, cl_context, memobj->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT:
        /* an image made from a buffer names that buffer; other images none */
        WEFT_INFO_VALUE(sz, v, ret, cl_mem, memobj->image ? memobj->image->buffer : memobj->parent);
    case CL_MEM_OFFSET:
        WEFT_INFO_VALUE(sz, v, ret, size_t, memobj->image ? 0 : memobj->origin);
    case CL_MEM_USES_SVM_POINTER: {
        /* a USE_HOST_PTR buffer (or a sub-buffer of one) whose host_ptr lies in an SVM
         * allocation of its context (never an image); the allocation outlives the buffer (the
         * specification requires the buffer to be released before the pointer is freed) */
        cl_mem root = weft_mem_root(memobj);
        bool svm = !memobj->image && (root->flags & CL_MEM_USE_HOST_PTR) &&
                   weft_svm_find(root->context, root->host_ptr, NULL);
        WEFT_INFO_VALUE(sz, v, ret, cl_bool, svm ? CL_TRUE : CL_FALSE);
    }
    case CL_MEM_PROPERTIES:
        return weft_info_bytes(sz, v, ret, memobj->properties,
                               memobj->num_properties * sizeof *memobj->properties);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not a memory object query",
                          (unsigned)param_name);
    }
}

cl_int weft_mem_map_add(cl_mem m, void *ptr, size_t offset, size_t size, cl_map_flags flags)
{
    cl_mem root = weft_mem_root(m);
    size_t start = m->origin + offset;
    bool writes = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
    struct weft_mem_mapping *map = malloc(sizeof *map);
    if (!map)
        return CL_OUT_OF_HOST_MEMORY;
    *map = (struct weft_mem_mapping){m, ptr, start, size, flags, NULL};
    pthread_mutex_lock(&root->lock);
    if (writes) {
        for (struct weft_mem_mapping *o = root->mappings; o; o = o->next) {
            bool other_writes = o->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
            if (other_writes && start < o->start + o->size && o->start < start + size) {
                pthread_mutex_unlock(&root->lock);
                free(map);
                return CL_INVALID_OPERATION;
            }
        }
    }
    map->next = root->mappings;
    root->mappings = map;
    atomic_fetch_add(&m->map_count, 1);
    pthread_mutex_unlock(&root->lock);
    return CL_SUCCESS;
}

bool weft_mem_map_has(cl_mem m, void *ptr)
{
    cl_mem root = weft_mem_root(m);
    bool found = false;
    pthread_mutex_lock(&root->lock);
    for (struct weft_mem_mapping *map = root->mappings; map && !found; map = map->next)
        found = map->mem == m && map->ptr == ptr;
    pthread_mutex_unlock(&root->lock);
    return found;
}

bool weft_mem_map_remove(cl_mem m, void *ptr)
{
    cl_mem root = weft_mem_root(m);
    bool found = false;
    pthread_mutex_lock(&root->lock);
    for (struct weft_mem_mapping **pp = &root->mappings; *pp; pp = &(*pp)->next) {
        struct weft_mem_mapping *map = *pp;
        if (map->mem == m && map->ptr == ptr) {
            *pp = map->next;
            free(map);
            atomic_fetch_sub(&m->map_count, 1);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&root->lock);
    return found;
}
