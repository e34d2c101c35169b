/* runtime/unsupported.c — the entry points of optional features the Weft device reports as
 * absent: pipes (CL_DEVICE_PIPE_SUPPORT false), shared virtual memory (CL_DEVICE_SVM_CAPABILITIES
 * 0), on-device queues and native kernels (no CL_EXEC_NATIVE_KERNEL).
 *
 * Guarantees: each entry point first validates the arguments the specification lists before
 * the feature error (invalid handles, malformed values), then fails with the code the
 * specification gives for a device without the feature, and says so under WEFT_LOG=info.
 * None of them creates an object or touches one, so nothing can leak or be corrupted; since
 * no pipe ever exists, the calls that take one report the handle invalid.
 */
#include <CL/cl.h>
#include <stdint.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/log.h"
#include "runtime/object.h"
#include "runtime/queue.h"

#define NO_PIPES "this device does not support pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE)"
#define NO_SVM "this device does not support shared virtual memory (CL_DEVICE_SVM_CAPABILITIES is 0)"

#define CHECK_QUEUE(queue)                                                                          \
    WEFT_CHECK(weft_object_is(queue, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,                     \
               "command_queue %p is not a valid command queue", (void *)(queue))


/* ---- pipes ---------------------------------------------------------------------------------- */

CL_API_ENTRY cl_mem CL_API_CALL
clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size, cl_uint pipe_max_packets,
             const cl_pipe_properties *properties, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context %p is not a valid context", (void *)context);
    return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_INVALID_OPERATION, NO_PIPES), NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size, void *param_value,
              size_t *param_value_size_ret)
{
    if (weft_object_is(pipe, WEFT_TYPE_MEM))
        return weft_error(__func__, CL_INVALID_MEM_OBJECT, "memory object %p is a buffer, not a pipe; " NO_PIPES,
                          (void *)pipe);
    return weft_error(__func__, CL_INVALID_MEM_OBJECT, "%p is not a valid pipe; " NO_PIPES, (void *)pipe);
}

/* ---- shared virtual memory ------------------------------------------------------------------ */

CL_API_ENTRY void *CL_API_CALL
clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    /* The specification's only failure report is NULL; the log says why. */
    weft_error(__func__, CL_INVALID_OPERATION, "returns NULL: " NO_SVM);
    return NULL;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer)
{
    /* No SVM pointer can exist; the spec makes clSVMFree of anything else a no-op for NULL and
     * undefined otherwise, so Weft safely does nothing. */
    if (svm_pointer)
        weft_error(__func__, CL_INVALID_VALUE, "ignored: %p is not an SVM pointer; " NO_SVM, svm_pointer);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void (CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void *[], void *),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK((num_svm_pointers == 0) == (svm_pointers == NULL), CL_INVALID_VALUE,
               "num_svm_pointers %u and svm_pointers %p disagree", num_svm_pointers, (void *)svm_pointers);
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                   const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(dst_ptr && src_ptr, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr != NULL, CL_INVALID_VALUE, "svm_ptr is NULL");
    WEFT_CHECK(pattern && pattern_size && pattern_size <= 128 && !(pattern_size & (pattern_size - 1)),
               CL_INVALID_VALUE, "pattern is NULL or pattern_size %zu is not a power of two up to 128",
               pattern_size);
    WEFT_CHECK(size % pattern_size == 0, CL_INVALID_VALUE, "size %zu is not a multiple of pattern_size %zu",
               size, pattern_size);
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr && size, CL_INVALID_VALUE, "svm_ptr is NULL or size is 0");
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr != NULL, CL_INVALID_VALUE, "svm_ptr is NULL");
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
                       const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(num_svm_pointers > 0 && svm_pointers, CL_INVALID_VALUE,
               "num_svm_pointers is 0 or svm_pointers is NULL");
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL,
               "kernel %p is not a valid kernel", (void *)kernel);
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                    const void *param_value)
{
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL,
               "kernel %p is not a valid kernel", (void *)kernel);
    WEFT_CHECK(param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS ||
                   param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
               CL_INVALID_VALUE, "param_name 0x%x is not a kernel execution info name", param_name);
    /* Both names are about SVM, which no device of the context supports: the call can never
     * succeed, so CL_INVALID_OPERATION is answered before the value is looked at (the CTS's
     * consistency_svm passes NULL/0 and expects exactly this code). */
    (void)param_value_size;
    (void)param_value;
    return weft_error(__func__, CL_INVALID_OPERATION, NO_SVM);
}

/* ---- on-device queues, native kernels, sub-groups, queue properties ------------ */

CL_API_ENTRY cl_int CL_API_CALL
clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE) && device == context->device, CL_INVALID_DEVICE,
               "device %p is not a device of the context", (void *)device);
    return weft_error(__func__, CL_INVALID_OPERATION,
               "this device does not support on-device queues (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0)");
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNativeKernel(cl_command_queue command_queue, void (CL_CALLBACK *user_func)(void *), void *args,
                      size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list,
                      const void **args_mem_loc, cl_uint num_events_in_wait_list,
                      const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(user_func != NULL, CL_INVALID_VALUE, "user_func is NULL");
    WEFT_CHECK(!(args == NULL && (cb_args > 0 || num_mem_objects > 0)), CL_INVALID_VALUE,
               "args is NULL but cb_args is %zu and num_mem_objects is %u", cb_args, num_mem_objects);
    WEFT_CHECK(!(args != NULL && cb_args == 0), CL_INVALID_VALUE, "args is given but cb_args is 0");
    WEFT_CHECK(!(num_mem_objects > 0 && (!mem_list || !args_mem_loc)), CL_INVALID_VALUE,
               "num_mem_objects is %u but mem_list or args_mem_loc is NULL", num_mem_objects);
    WEFT_CHECK(!(num_mem_objects == 0 && (mem_list || args_mem_loc)), CL_INVALID_VALUE,
               "num_mem_objects is 0 but mem_list or args_mem_loc is given");
    return weft_error(__func__, CL_INVALID_OPERATION,
               "this device does not run native kernels (CL_EXEC_NATIVE_KERNEL is not reported)");
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                          cl_bool enable, cl_command_queue_properties *old_properties)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(!(properties & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                             CL_QUEUE_PROFILING_ENABLE)),
               CL_INVALID_VALUE, "properties 0x%llx are not valid queue properties",
               (unsigned long long)properties);
    return weft_error(__func__, CL_INVALID_OPERATION,
               "queue properties cannot be changed after creation (clSetCommandQueueProperty is "
               "deprecated since OpenCL 1.1); create a queue with the properties instead");
}
