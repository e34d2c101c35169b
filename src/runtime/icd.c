/* runtime/icd.c — the ICD dispatch table and the loader-facing entry points.
 *
 * The ocl-icd loader calls clIcdGetPlatformIDsKHR to enumerate our platform, then calls every
 * other entry point through the dispatch pointer at the start of each object. The table
 * holds every OpenCL 3.0 core entry point (and the deprecated 1.x ones); the GL/D3D/EGL
 * sharing slots stay NULL since Weft offers none of those extensions.
 */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <string.h>

#include "runtime/log.h"
#include "runtime/object.h"
#include "runtime/platform.h"

const struct _cl_icd_dispatch weft_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = clCreatePipe,
    .clGetPipeInfo = clGetPipeInfo,
    .clSVMAlloc = clSVMAlloc,
    .clSVMFree = clSVMFree,
    .clEnqueueSVMFree = clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = clEnqueueSVMMemFill,
    .clEnqueueSVMMap = clEnqueueSVMMap,
    .clEnqueueSVMUnmap = clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = clSetKernelExecInfo,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
};

/* The loader's enumeration entry point answers exactly as clGetPlatformIDs does. */
CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* Extension entry points this platform offers, by name. */
static const struct {
    const char *name;
    void *fn;
} extension_functions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},
    /* cl_intel_unified_shared_memory (runtime/usm.c) */
    {"clHostMemAllocINTEL", (void *)clHostMemAllocINTEL},
    {"clDeviceMemAllocINTEL", (void *)clDeviceMemAllocINTEL},
    {"clSharedMemAllocINTEL", (void *)clSharedMemAllocINTEL},
    {"clMemFreeINTEL", (void *)clMemFreeINTEL},
    {"clMemBlockingFreeINTEL", (void *)clMemBlockingFreeINTEL},
    {"clGetMemAllocInfoINTEL", (void *)clGetMemAllocInfoINTEL},
    {"clSetKernelArgMemPointerINTEL", (void *)clSetKernelArgMemPointerINTEL},
    {"clEnqueueMemFillINTEL", (void *)clEnqueueMemFillINTEL},
    {"clEnqueueMemsetINTEL", (void *)clEnqueueMemsetINTEL},
    {"clEnqueueMemcpyINTEL", (void *)clEnqueueMemcpyINTEL},
    {"clEnqueueMigrateMemINTEL", (void *)clEnqueueMigrateMemINTEL},
    {"clEnqueueMemAdviseINTEL", (void *)clEnqueueMemAdviseINTEL},
};

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
    if (!weft_object_is(platform, WEFT_TYPE_PLATFORM) || !func_name)
        return NULL;
    for (size_t i = 0; i < sizeof extension_functions / sizeof extension_functions[0]; i++)
        if (!strcmp(extension_functions[i].name, func_name))
            return extension_functions[i].fn;
    return NULL;
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name)
{
    return clGetExtensionFunctionAddressForPlatform(weft_platform_get(), func_name);
}
