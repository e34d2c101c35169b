/* runtime/context.c — contexts: clCreateContext, clCreateContextFromType, clRetainContext,
 * clReleaseContext, clGetContextInfo, clSetContextDestructorCallback, weft_context_notify.
 *
 * Guarantees: a context holds its devices (the Weft device, or sub-devices of it and their
 * parents; duplicates in the application's list are dropped) for its whole life; CL_CONTEXT_PROPERTIES
 * returns the application's list exactly as given (size 0 when it gave NULL); when the last
 * reference and the last runtime hold are gone, the destructor callbacks run in the reverse
 * order of their registration, then the context is freed.
 */
#include "runtime/context.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/device.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/platform.h"

struct weft_context_destructor {
    void (CL_CALLBACK *fn)(cl_context, void *);
    void *data;
    struct weft_context_destructor *next;
};

typedef void (CL_CALLBACK *weft_notify_fn)(const char *, const void *, size_t, void *);

static void context_destroy(struct weft_object *obj)
{
    cl_context ctx = (cl_context)obj;
    /* The list is LIFO (pushed at the head), so walking it runs the most recently registered
     * callback first, as the specification requires. */
    struct weft_context_destructor *d = ctx->destructors;
    while (d) {
        struct weft_context_destructor *next = d->next;
        d->fn(ctx, d->data);
        free(d);
        d = next;
    }
    for (cl_uint i = 0; i < ctx->num_devices; i++)
        weft_object_unhold(&ctx->devices[i]->obj);
    free(ctx->devices);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->properties);
    free(ctx);
}

/* Checks a context property list (spec order: platform, then property errors) and counts
 * its entries including the terminating 0. */
static cl_int check_properties(const char *func, const cl_context_properties *props, size_t *count)
{
    *count = 0;
    if (!props)
        return CL_SUCCESS;
    bool seen_platform = false, seen_sync = false;
    size_t i = 0;
    for (; props[i] != 0; i += 2) {
        switch (props[i]) {
        case CL_CONTEXT_PLATFORM:
            if (seen_platform)
                return weft_error(func, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM is given twice");
            seen_platform = true;
            if (!weft_object_is((void *)props[i + 1], WEFT_TYPE_PLATFORM))
                return weft_error(func, CL_INVALID_PLATFORM,
                                  "CL_CONTEXT_PLATFORM %p is not the Weft platform", (void *)props[i + 1]);
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (seen_sync)
                return weft_error(func, CL_INVALID_PROPERTY,
                                  "CL_CONTEXT_INTEROP_USER_SYNC is given twice");
            seen_sync = true;
            if (props[i + 1] != CL_TRUE && props[i + 1] != CL_FALSE)
                return weft_error(func, CL_INVALID_PROPERTY,
                                  "CL_CONTEXT_INTEROP_USER_SYNC value %ld is neither CL_TRUE nor CL_FALSE",
                                  (long)props[i + 1]);
            break;
        default:
            return weft_error(func, CL_INVALID_PROPERTY, "context property 0x%lx is not supported",
                              (unsigned long)props[i]);
        }
    }
    *count = i + 1;
    return CL_SUCCESS;
}

/* Makes the context once every argument has been checked. */
static cl_context context_new(const char *func, const cl_context_properties *props, size_t num_props,
                              cl_uint num_devices, const cl_device_id *devices, weft_notify_fn notify,
                              void *notify_data, cl_int *errcode_ret)
{
    cl_context ctx = calloc(1, sizeof *ctx);
    cl_context_properties *copy = NULL;
    cl_device_id *devs = malloc(sizeof *devs * num_devices);
    if (ctx && num_props) {
        copy = malloc(num_props * sizeof *copy);
        if (copy)
            memcpy(copy, props, num_props * sizeof *copy);
    }
    if (!ctx || !devs || (num_props && !copy) || pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free(copy);
        free(devs);
        free(ctx);
        return WEFT_RETURN(errcode_ret, weft_error(func, CL_OUT_OF_HOST_MEMORY,
                                                   "cannot allocate the context"), NULL);
    }
    /* "Duplicate devices specified in devices are ignored." */
    cl_uint n = 0;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_uint k = 0;
        while (k < n && devs[k] != devices[i])
            k++;
        if (k == n) {
            devs[n++] = devices[i];
            weft_object_hold(&devices[i]->obj);
        }
    }
    ctx->devices = devs;
    ctx->num_devices = n;
    ctx->device = devs[0];
    ctx->properties = copy;
    ctx->num_properties = num_props;
    ctx->notify = notify;
    ctx->notify_data = notify_data;
    ctx->destructors = NULL;
    weft_object_init(&ctx->obj, WEFT_TYPE_CONTEXT, context_destroy);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, ctx);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                const cl_device_id *devices, weft_notify_fn pfn_notify, void *user_data,
                cl_int *errcode_ret)
{
    size_t num_props;
    cl_int err = check_properties(__func__, properties, &num_props);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    WEFT_CHECK_RET(devices != NULL, CL_INVALID_VALUE, errcode_ret, NULL, "devices is NULL");
    WEFT_CHECK_RET(num_devices > 0, CL_INVALID_VALUE, errcode_ret, NULL, "num_devices is 0");
    WEFT_CHECK_RET(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret, NULL,
                   "user_data is given without pfn_notify");
    for (cl_uint i = 0; i < num_devices; i++)
        WEFT_CHECK_RET(weft_object_is(devices[i], WEFT_TYPE_DEVICE), CL_INVALID_DEVICE, errcode_ret,
                       NULL, "devices[%u] = %p is not a valid device", i, (void *)devices[i]);
    return context_new(__func__, properties, num_props, num_devices, devices, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        weft_notify_fn pfn_notify, void *user_data, cl_int *errcode_ret)
{
    size_t num_props;
    cl_int err = check_properties(__func__, properties, &num_props);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    WEFT_CHECK_RET(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret, NULL,
                   "user_data is given without pfn_notify");
    /* clGetDeviceIDs applies the device-type rules (CL_INVALID_DEVICE_TYPE,
     * CL_DEVICE_NOT_FOUND) exactly as for a device query. */
    cl_device_id dev;
    err = clGetDeviceIDs(weft_platform_get(), device_type, 1, &dev, NULL);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    return context_new(__func__, properties, num_props, 1, &dev, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    weft_object_retain(&context->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    weft_object_release(&context->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetContextInfo(cl_context context, cl_context_info param_name, size_t size, void *value,
                 size_t *size_ret)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        WEFT_INFO_VALUE(size, value, size_ret, cl_uint, weft_object_refcount(&context->obj));
    case CL_CONTEXT_NUM_DEVICES:
        WEFT_INFO_VALUE(size, value, size_ret, cl_uint, context->num_devices);
    case CL_CONTEXT_DEVICES:
        return weft_info_bytes(size, value, size_ret, context->devices,
                               context->num_devices * sizeof *context->devices);
    case CL_CONTEXT_PROPERTIES:
        return weft_info_bytes(size, value, size_ret, context->properties,
                               context->num_properties * sizeof *context->properties);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clSetContextDestructorCallback(cl_context context, void (CL_CALLBACK *pfn_notify)(cl_context, void *),
                               void *user_data)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    WEFT_CHECK(pfn_notify != NULL, CL_INVALID_VALUE, "pfn_notify is NULL");
    struct weft_context_destructor *d = malloc(sizeof *d);
    WEFT_CHECK(d != NULL, CL_OUT_OF_HOST_MEMORY, "cannot allocate the callback record");
    d->fn = pfn_notify;
    d->data = user_data;
    pthread_mutex_lock(&context->lock);
    d->next = context->destructors;
    context->destructors = d;
    pthread_mutex_unlock(&context->lock);
    return CL_SUCCESS;
}

bool weft_context_has_device(cl_context ctx, cl_device_id device)
{
    for (cl_uint i = 0; i < ctx->num_devices; i++)
        if (ctx->devices[i] == device)
            return true;
    return false;
}

void weft_context_notify(cl_context ctx, const char *msg)
{
    if (ctx && ctx->notify)
        ctx->notify(msg, NULL, 0, ctx->notify_data);
}
