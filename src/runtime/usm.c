/* runtime/usm.c — cl_intel_unified_shared_memory: clHostMemAllocINTEL, clDeviceMemAllocINTEL,
 * clSharedMemAllocINTEL, clMemFreeINTEL, clMemBlockingFreeINTEL, clGetMemAllocInfoINTEL,
 * clSetKernelArgMemPointerINTEL, clEnqueueMemFillINTEL, clEnqueueMemcpyINTEL,
 * clEnqueueMemsetINTEL, clEnqueueMigrateMemINTEL, clEnqueueMemAdviseINTEL, and the extension's
 * clSetKernelExecInfo names (weft_usm_set_exec_info, called by runtime/svm.c).
 *
 * Guarantees:
 *   - The device is the host CPU, so host, device and shared allocations are all host memory
 *     (runtime/storage.c, zeroed), reachable at the same address by the host and by kernels, with
 *     the CPU's coherent atomics: every capability query answers access, atomic access,
 *     concurrent access and concurrent atomic access (usm.h WEFT_USM_CAPABILITIES). Migration and
 *     advice move nothing; the commands only order themselves in their queue.
 *   - Allocations are recorded in runtime/svm.c's table together with clSVMAlloc's, tagged with
 *     their USM type, device and allocation flags: weft_svm_find answers for both, and
 *     clGetMemAllocInfoINTEL answers from it. Memory is freed only by the API family that made it:
 *     clMemFreeINTEL refuses a clSVMAlloc pointer (CL_INVALID_VALUE), clSVMFree ignores a USM one.
 *   - clGetMemAllocInfoINTEL reports CL_MEM_TYPE_UNKNOWN_INTEL (base NULL, size 0, device NULL)
 *     for every pointer that no USM function returned an allocation around, clSVMAlloc'd memory
 *     included, as the extension specifies for "not a USM allocation".
 *   - An allocation holds its context until it is freed; clMemFreeINTEL still frees it after the
 *     application released the context (a handle that is then invalid for every other call).
 *   - clMemBlockingFreeINTEL waits for every command enqueued so far on every queue of the
 *     context (the extension: until commands that may use the allocation have completed; a
 *     kernel may reach it through any pointer, so Weft cannot narrow the set).
 *   - Entry points validate in the order of the extension's error lists; the commands are real
 *     commands (events, wait lists, blocking flag, command types CL_COMMAND_*_INTEL) made through
 *     runtime/queue.h only.
 *   - A kernel given a USM pointer argument, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL or an
 *     CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL set to CL_TRUE reaches memory no cl_mem lists:
 *     its launches are never fused nor verified on copies (runtime/kernel.h
 *     weft_kernel_args_raw_memory).
 *   - clEnqueueMemAdviseINTEL accepts any advice value: the extension defines none of its own
 *     (they are device-specific hints, "ignored when not supported"), and on a CPU there is no
 *     placement for advice to change. Neither it nor clEnqueueMigrateMemINTEL checks its range.
 *   - Alignments up to WEFT_SVM_MAX_ALIGN (2 MiB) are honoured, as clSVMAlloc's are, beyond the
 *     extension's "largest data type" (128 bytes): SYCL's aligned_alloc_* passes page alignments
 *     straight through, and refusing them would break such programs for no gain.
 */
#include "runtime/usm.h"

#include <CL/cl_ext.h>
#include <stdint.h>
#include <string.h>

#include "compiler/compiler.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/info.h"
#include "runtime/kernel.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/object.h"
#include "runtime/queue.h"
#include "runtime/svm.h"

/* ---- allocation ------------------------------------------------------------------------------ */

#define KNOWN_ALLOC_FLAGS                                                                           \
    (CL_MEM_ALLOC_WRITE_COMBINED_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |               \
     CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL)

/* Reads the zero-terminated property list of an allocation of `type` into *flags (0 when none):
 * CL_INVALID_PROPERTY for an unknown name, a repeated name or a value that is not a valid set of
 * allocation flags for that type (the initial-placement hints are for shared allocations only,
 * and exclude each other). */
static cl_int parse_properties(const char *func, cl_uint type, const cl_mem_properties_intel *props,
                               cl_bitfield *flags)
{
    *flags = 0;
    bool seen_flags = false;
    for (size_t i = 0; props && props[i]; i += 2) {
        if (props[i] != CL_MEM_ALLOC_FLAGS_INTEL)
            return weft_error(func, CL_INVALID_PROPERTY, "property 0x%llx is not a USM allocation property",
                              (unsigned long long)props[i]);
        if (seen_flags)
            return weft_error(func, CL_INVALID_PROPERTY, "CL_MEM_ALLOC_FLAGS_INTEL is given twice");
        seen_flags = true;
        cl_bitfield f = (cl_bitfield)props[i + 1];
        if (f & ~(cl_bitfield)KNOWN_ALLOC_FLAGS)
            return weft_error(func, CL_INVALID_PROPERTY, "CL_MEM_ALLOC_FLAGS_INTEL 0x%llx has unknown bits",
                              (unsigned long long)f);
        const cl_bitfield placement = CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
        if ((f & placement) && type != CL_MEM_TYPE_SHARED_INTEL)
            return weft_error(func, CL_INVALID_PROPERTY,
                              "CL_MEM_ALLOC_INITIAL_PLACEMENT_*_INTEL is valid for shared allocations only");
        if ((f & placement) == placement)
            return weft_error(func, CL_INVALID_PROPERTY,
                              "CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL and _HOST_INTEL are mutually exclusive");
        *flags = f;
    }
    return CL_SUCCESS;
}

/* The common path of the three allocation functions, after the context (and device) checks. */
static void *usm_alloc(const char *func, cl_context context, cl_device_id device, cl_uint type,
                       const cl_mem_properties_intel *properties, size_t size, cl_uint alignment, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(!(alignment & (alignment - 1)), CL_INVALID_VALUE, errcode_ret, NULL,
                   "alignment %u is not 0 or a power of two", alignment);
    WEFT_CHECK_RET(alignment <= WEFT_SVM_MAX_ALIGN, CL_INVALID_VALUE, errcode_ret, NULL,
                   "alignment %u is larger than the %zu bytes Weft supports", alignment, WEFT_SVM_MAX_ALIGN);
    cl_bitfield flags;
    cl_int err = parse_properties(func, type, properties, &flags);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    cl_ulong max_alloc = context->device->max_mem_alloc_size;
    WEFT_CHECK_RET(size != 0 && size <= max_alloc, CL_INVALID_BUFFER_SIZE, errcode_ret, NULL,
                   "size %zu is 0 or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu", size,
                   (unsigned long long)max_alloc);
    struct weft_svm_range r = {.flags = CL_MEM_READ_WRITE, .usm_type = type, .device = device, .usm_flags = flags};
    void *p = weft_svm_record_alloc(context, size, alignment, &r, &err);
    if (!p)
        return WEFT_RETURN(errcode_ret, weft_error(func, err, "cannot allocate %zu bytes", size), NULL);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, p);
}

#define CHECK_CONTEXT_RET(c)                                                                        \
    WEFT_CHECK_RET(weft_object_is(c, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,      \
                   "context %p is not a valid context", (void *)(c))

/* A device of the context. */
static bool context_has_device(cl_context context, cl_device_id device)
{
    return weft_object_is(device, WEFT_TYPE_DEVICE) && weft_context_has_device(context, device);
}

CL_API_ENTRY void *CL_API_CALL
clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel *properties, size_t size, cl_uint alignment,
                    cl_int *errcode_ret)
{
    CHECK_CONTEXT_RET(context);
    return usm_alloc(__func__, context, NULL, CL_MEM_TYPE_HOST_INTEL, properties, size, alignment, errcode_ret);
}

CL_API_ENTRY void *CL_API_CALL
clDeviceMemAllocINTEL(cl_context context, cl_device_id device, const cl_mem_properties_intel *properties,
                      size_t size, cl_uint alignment, cl_int *errcode_ret)
{
    CHECK_CONTEXT_RET(context);
    WEFT_CHECK_RET(context_has_device(context, device), CL_INVALID_DEVICE, errcode_ret, NULL,
                   "device %p is not a device of the context", (void *)device);
    return usm_alloc(__func__, context, device, CL_MEM_TYPE_DEVICE_INTEL, properties, size, alignment, errcode_ret);
}

CL_API_ENTRY void *CL_API_CALL
clSharedMemAllocINTEL(cl_context context, cl_device_id device, const cl_mem_properties_intel *properties,
                      size_t size, cl_uint alignment, cl_int *errcode_ret)
{
    CHECK_CONTEXT_RET(context);
    /* NULL: a shared allocation associated with no particular device */
    WEFT_CHECK_RET(!device || context_has_device(context, device), CL_INVALID_DEVICE, errcode_ret, NULL,
                   "device %p is not NULL nor a device of the context", (void *)device);
    return usm_alloc(__func__, context, device, CL_MEM_TYPE_SHARED_INTEL, properties, size, alignment, errcode_ret);
}

static cl_int usm_free(const char *func, cl_context context, void *ptr, bool blocking)
{
    struct weft_svm_range r;
    bool ours = ptr && weft_svm_find(context, ptr, &r) && r.usm_type && r.base == (char *)ptr;
    /* An allocation holds its context, so after the application released its last reference the
     * context is still there, only no longer a valid handle: the allocation is freed all the same
     * (as clSVMFree does) instead of leaking; any other invalid context is refused. */
    WEFT_CHECK(ours || weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    if (!ptr)
        return CL_SUCCESS;   /* the extension: freeing NULL does nothing */
    WEFT_CHECK(ours, CL_INVALID_VALUE,
               "%p is not a pointer a USM allocation function returned for this context (or it was freed)", ptr);
    if (blocking && !weft_queue_finish_context(context))
        return weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory to list the context's queues");
    /* two threads freeing the same pointer at once: the table answers for one of them */
    WEFT_CHECK(weft_svm_record_free(func, context, ptr, true), CL_INVALID_VALUE, "%p was freed meanwhile", ptr);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clMemFreeINTEL(cl_context context, void *ptr)
{
    return usm_free(__func__, context, ptr, false);
}

CL_API_ENTRY cl_int CL_API_CALL clMemBlockingFreeINTEL(cl_context context, void *ptr)
{
    return usm_free(__func__, context, ptr, true);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMemAllocInfoINTEL(cl_context context, const void *ptr, cl_mem_info_intel param_name, size_t param_value_size,
                       void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, "context %p is not a valid context",
               (void *)context);
    struct weft_svm_range r;
    if (!weft_svm_find(context, ptr, &r) || !r.usm_type)
        r = (struct weft_svm_range){.usm_type = CL_MEM_TYPE_UNKNOWN_INTEL};
    size_t size = param_value_size;
    void *value = param_value;
    size_t *size_ret = param_value_size_ret;
    switch (param_name) {
    case CL_MEM_ALLOC_TYPE_INTEL:
        WEFT_INFO_VALUE(size, value, size_ret, cl_unified_shared_memory_type_intel, r.usm_type);
    case CL_MEM_ALLOC_BASE_PTR_INTEL:
        WEFT_INFO_VALUE(size, value, size_ret, void *, (void *)r.base);
    case CL_MEM_ALLOC_SIZE_INTEL:
        WEFT_INFO_VALUE(size, value, size_ret, size_t, r.size);
    case CL_MEM_ALLOC_DEVICE_INTEL:
        WEFT_INFO_VALUE(size, value, size_ret, cl_device_id, r.device);
    case CL_MEM_ALLOC_FLAGS_INTEL:
        WEFT_INFO_VALUE(size, value, size_ret, cl_mem_alloc_flags_intel, r.usm_flags);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not a USM allocation query",
                          (unsigned)param_name);
    }
}

/* ---- kernels --------------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL, "kernel %p is not a valid kernel",
               (void *)kernel);
    const struct weft_kernel_meta *m = weft_kernel_meta_of(kernel);
    WEFT_CHECK(arg_index < m->num_args, CL_INVALID_ARG_INDEX, "arg_index %u but kernel '%s' has %u arguments",
               arg_index, m->name, m->num_args);
    const struct weft_arg_meta *a = &m->args[arg_index];
    /* The device supports shared system allocations, so any pointer value is valid (the
     * extension's rule), for an argument that is a pointer to global or constant memory. */
    WEFT_CHECK(!a->image_type && !a->is_sampler && (a->kind == WEFT_ARG_GLOBAL_PTR || a->kind == WEFT_ARG_CONSTANT_PTR),
               CL_INVALID_ARG_VALUE, "argument %u of kernel '%s' (%s) is not a pointer to __global or __constant "
               "memory", arg_index, m->name, a->type_name);
    return weft_kernel_set_arg_pointer(kernel, arg_index, arg_value);
}

bool weft_usm_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                            const void *param_value, cl_int *err)
{
    const char *func = "clSetKernelExecInfo";
    unsigned bit;
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
        bit = 1;
        break;
    case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
        bit = 2;
        break;
    case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL:
        bit = 4;
        break;
    case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
        /* an empty set (size 0) says no USM allocation is reached beyond the arguments */
        if (param_value_size % sizeof(void *) != 0) {
            *err = weft_error(func, CL_INVALID_VALUE, "param_value_size %zu is not a multiple of sizeof(void *)",
                              param_value_size);
            return true;
        }
        weft_kernel_set_usm_ptrs(kernel, param_value_size / sizeof(void *));
        *err = CL_SUCCESS;
        return true;
    default:
        return false;
    }
    if (!param_value || param_value_size != sizeof(cl_bool)) {
        *err = weft_error(func, CL_INVALID_VALUE, "CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL takes a cl_bool "
                          "(%zu bytes), not %zu bytes", sizeof(cl_bool), param_value_size);
        return true;
    }
    weft_kernel_set_usm_indirect(kernel, bit, *(const cl_bool *)param_value != CL_FALSE);
    *err = CL_SUCCESS;
    return true;
}

/* ---- commands -------------------------------------------------------------------------------- */

#define CHECK_QUEUE(q)                                                                              \
    WEFT_CHECK(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,                         \
               "command_queue %p is not a valid command queue", (void *)(q))

static bool is_pow2(size_t v)
{
    return v && !(v & (v - 1));
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemFillINTEL(cl_command_queue command_queue, void *dst_ptr, const void *pattern, size_t pattern_size,
                      size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(dst_ptr, CL_INVALID_VALUE, "dst_ptr is NULL");
    WEFT_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    WEFT_CHECK(is_pow2(pattern_size) && pattern_size <= 128, CL_INVALID_VALUE,
               "pattern_size %zu is not a power of two from 1 to 128", pattern_size);
    WEFT_CHECK((uintptr_t)dst_ptr % pattern_size == 0, CL_INVALID_VALUE,
               "dst_ptr %p is not aligned to pattern_size %zu", dst_ptr, pattern_size);
    WEFT_CHECK(size % pattern_size == 0, CL_INVALID_VALUE, "size %zu is not a multiple of pattern_size %zu", size,
               pattern_size);
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_MEMFILL_INTEL, false, dst_ptr, NULL, pattern,
                            pattern_size, size, num_events_in_wait_list, event_wait_list, event);
}

/* Deprecated by the extension in favour of clEnqueueMemFillINTEL, still called by older code: a
 * fill with the one-byte pattern (unsigned char)value, reported as CL_COMMAND_MEMFILL_INTEL. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemsetINTEL(cl_command_queue command_queue, void *dst_ptr, cl_int value, size_t size,
                     cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(dst_ptr, CL_INVALID_VALUE, "dst_ptr is NULL");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    unsigned char byte = (unsigned char)value;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_MEMFILL_INTEL, false, dst_ptr, NULL, &byte, 1, size,
                            num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking, void *dst_ptr, const void *src_ptr,
                     size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(dst_ptr, CL_INVALID_VALUE, "dst_ptr is NULL");
    WEFT_CHECK(src_ptr, CL_INVALID_VALUE, "src_ptr is NULL");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    /* overflow-safe: the distance between the two starts is at least size */
    uintptr_t d = (uintptr_t)dst_ptr, s = (uintptr_t)src_ptr;
    WEFT_CHECK(size == 0 || (d > s ? d - s : s - d) >= size, CL_MEM_COPY_OVERLAP, "[%p, +%zu) and [%p, +%zu) overlap",
               dst_ptr, size, src_ptr, size);
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_MEMCPY_INTEL, blocking != CL_FALSE, dst_ptr,
                            src_ptr, NULL, 0, size, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void *ptr, size_t size, cl_mem_migration_flags flags,
                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    WEFT_CHECK(flags && !(flags & ~known), CL_INVALID_VALUE, "flags 0x%llx is zero or has unknown migration bits",
               (unsigned long long)flags);
    /* a hint about any range (the extension lists no error for ptr or size): host and device
     * memory are one, nothing moves */
    (void)ptr;
    (void)size;
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_MIGRATEMEM_INTEL, false, NULL, NULL, NULL, 0, 0,
                            num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void *ptr, size_t size, cl_mem_advice_intel advice,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    (void)ptr;      /* a hint about any range, with nothing to act on (see the header comment) */
    (void)size;
    (void)advice;
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_MEMADVISE_INTEL, false, NULL, NULL, NULL, 0, 0,
                            num_events_in_wait_list, event_wait_list, event);
}
