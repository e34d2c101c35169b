/* runtime/platform.c — the Weft platform: clGetPlatformIDs, clGetPlatformInfo. */
#include "runtime/platform.h"

#include <pthread.h>
#include <string.h>

#include "runtime/info.h"
#include "runtime/log.h"

#define WEFT_PLATFORM_EXTENSIONS "cl_khr_icd"

static struct _cl_platform_id the_platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_init(void)
{
    weft_object_init(&the_platform.obj, WEFT_TYPE_PLATFORM, NULL);
}

cl_platform_id weft_platform_get(void)
{
    pthread_once(&platform_once, platform_init);
    return &the_platform;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms)
{
    WEFT_CHECK(!(num_entries == 0 && platforms), CL_INVALID_VALUE,
               "num_entries is 0 but platforms is not NULL");
    WEFT_CHECK(platforms || num_platforms, CL_INVALID_VALUE,
               "platforms and num_platforms are both NULL");
    if (platforms)
        platforms[0] = weft_platform_get();
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t size,
                  void *value, size_t *size_ret)
{
    /* The spec lets a NULL platform select the implementation-defined one. */
    if (platform == NULL)
        platform = weft_platform_get();
    WEFT_CHECK(weft_object_is(platform, WEFT_TYPE_PLATFORM), CL_INVALID_PLATFORM,
               "platform %p is not the Weft platform", (void *)platform);
    static const cl_name_version extensions[] = {
        {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
    };
    switch (param_name) {
    case CL_PLATFORM_PROFILE:
        return weft_info_string(size, value, size_ret, "FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        return weft_info_string(size, value, size_ret, "OpenCL 3.0 Weft " WEFT_VERSION_STRING);
    case CL_PLATFORM_NAME:
        return weft_info_string(size, value, size_ret, "Weft");
    case CL_PLATFORM_VENDOR:
        return weft_info_string(size, value, size_ret, "The Weft project");
    case CL_PLATFORM_EXTENSIONS:
        return weft_info_string(size, value, size_ret, WEFT_PLATFORM_EXTENSIONS);
    case CL_PLATFORM_ICD_SUFFIX_KHR:
        return weft_info_string(size, value, size_ret, "WEFT");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: {
        cl_ulong ns = 1;
        return weft_info_bytes(size, value, size_ret, &ns, sizeof ns);
    }
    case CL_PLATFORM_NUMERIC_VERSION: {
        cl_version v = CL_MAKE_VERSION(3, 0, 0);
        return weft_info_bytes(size, value, size_ret, &v, sizeof v);
    }
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
        return weft_info_bytes(size, value, size_ret, extensions, sizeof extensions);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
    }
}
