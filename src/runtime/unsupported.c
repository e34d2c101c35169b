/* runtime/unsupported.c — the entry points of optional features the Weft device reports as
 * absent: pipes (CL_DEVICE_PIPE_SUPPORT false), on-device queues and native kernels (no
 * CL_EXEC_NATIVE_KERNEL). Shared virtual memory is supported (runtime/svm.c).
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

/* ---- on-device queues, native kernels, sub-groups, queue properties ------------ */

CL_API_ENTRY cl_int CL_API_CALL
clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue command_queue)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT,
               "context %p is not a valid context", (void *)context);
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE) && weft_context_has_device(context, device), CL_INVALID_DEVICE,
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
