/* runtime/device.c — the Weft CPU device: clGetDeviceIDs, clGetDeviceInfo,
 * clGetDeviceAndHostTimer, clGetHostTimer. Sub-devices and their queries: runtime/subdevice.c.
 *
 * Guarantees: the device is a process-wide singleton built once from the machine (exec/
 * topology.h, the ISA seen by __builtin_cpu_supports) and never freed; clGetDeviceInfo answers
 * every OpenCL 3.0 device query, reporting only what Weft actually does (pipes,
 * and device-side enqueue are reported as absent, and their entry
 * points fail as the specification says, see unsupported.c). The extensions and OpenCL C
 * features come from runtime/features.h, the list the frontend also gives to clang.
 */
#include "runtime/device.h"

#include <CL/cl_ext.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/spirv.h"
#include "compiler/globals.h"
#include "exec/topology.h"
#include "runtime/features.h"
#include "runtime/image.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/platform.h"
#include "runtime/svm.h"
#include "runtime/usm.h"

#define KiB ((cl_ulong)1024)
#define MiB (KiB * 1024)

/* Kernel-visible limits Weft enforces (kernel.c / ndrange.c check against the fields). */
#define WEFT_MAX_WORK_GROUP_SIZE 4096
#define WEFT_LOCAL_MEM_SIZE (64 * KiB)
#define WEFT_MAX_CONSTANT_BUFFER (64 * KiB)
#define WEFT_MAX_CONSTANT_ARGS 8
#define WEFT_MAX_PARAMETER_SIZE 1024
#define WEFT_PRINTF_BUFFER_SIZE (1 * MiB)

enum { VW_CHAR, VW_SHORT, VW_INT, VW_LONG, VW_FLOAT, VW_DOUBLE };

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct _cl_device_id the_device;

/* The entries of the lists below that hold on this CPU (weft_feature_present). */
static cl_name_version present_extensions[64], present_features[64];
static size_t num_present_extensions, num_present_features;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

/* The extension list in both forms, from the one X-macro list. */
static const cl_name_version device_extensions[] = {
#define X(name, maj, min, pat) {CL_MAKE_VERSION(maj, min, pat), #name},
    WEFT_DEVICE_EXTENSIONS(X)
#undef X
};
static const cl_name_version opencl_c_features[] = {
#define X(name, maj, min, pat) {CL_MAKE_VERSION(maj, min, pat), #name},
    WEFT_OPENCL_C_FEATURES(X)
#undef X
};
static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/* Vector register width in bytes for each element type, from the ISA the process runs on.
 * Byte and word lanes need AVX-512BW (or AVX2) for full-width integer arithmetic; dword,
 * qword and floating-point lanes need AVX-512F (or AVX for floats, AVX2 for integers). */
static void detect_vector_widths(struct _cl_device_id *d)
{
    __builtin_cpu_init();
    cl_uint fp = 16, i32 = 16, i8 = 16;
    if (__builtin_cpu_supports("avx"))
        fp = 32;
    if (__builtin_cpu_supports("avx2"))
        fp = i32 = i8 = 32;
    if (__builtin_cpu_supports("avx512f"))
        fp = i32 = 64;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        i8 = 64;
    d->simd_bytes = fp > i8 ? fp : i8;
    d->vector_width[VW_CHAR] = i8 / 1;
    d->vector_width[VW_SHORT] = i8 / 2;
    d->vector_width[VW_INT] = i32 / 4;
    d->vector_width[VW_LONG] = i32 / 8;
    d->vector_width[VW_FLOAT] = fp / 4;
    d->vector_width[VW_DOUBLE] = fp / 8;
}

static void device_init(void)
{
    struct _cl_device_id *d = &the_device;
    const struct weft_topology *t = weft_topology_get();

    d->platform = weft_platform_get();
    d->compute_units = weft_device_worker_count();
    /* compute unit i runs on core i % cores (exec/pool.c pins worker i there); at most
     * WEFT_WORKERS_MAX units, so the list needs no allocation that could fail */
    static unsigned root_units[WEFT_WORKERS_MAX];
    d->unit_core = root_units;
    for (unsigned i = 0; i < d->compute_units; i++)
        d->unit_core[i] = i % (t->cores ? t->cores : 1);
    pthread_mutex_init(&d->pool_lock, NULL);
    d->max_work_group_size = WEFT_MAX_WORK_GROUP_SIZE;
    for (int i = 0; i < 3; i++)
        d->max_work_item_sizes[i] = WEFT_MAX_WORK_GROUP_SIZE;
    d->global_mem_size = t->total_memory;
    /* The spec's floor is max(min(1 GiB, global/4), 32 MiB); a CPU can give one buffer a
     * quarter of the machine without starving the rest. */
    cl_ulong quarter = d->global_mem_size / 4;
    d->max_mem_alloc_size = quarter > 128 * MiB ? quarter : 128 * MiB;
    if (d->max_mem_alloc_size > d->global_mem_size)
        d->max_mem_alloc_size = d->global_mem_size;
    d->local_mem_size = WEFT_LOCAL_MEM_SIZE;
    /* long16 (128 bytes) is the largest built-in type: buffers are aligned to it, which also
     * covers a 64-byte AVX-512 register. */
    d->mem_base_addr_align = 1024;
    d->max_constant_buffer_size = WEFT_MAX_CONSTANT_BUFFER;
    d->max_constant_args = WEFT_MAX_CONSTANT_ARGS;
    d->max_parameter_size = WEFT_MAX_PARAMETER_SIZE;
    d->printf_buffer_size = WEFT_PRINTF_BUFFER_SIZE;
    detect_vector_widths(d);
    d->global_mem_cache_size = t->l3_size ? t->l3_size : t->l2_size;
    d->cache_line = t->cache_line;
    d->max_clock_mhz = (cl_uint)(t->max_clock_mhz + 0.5);
    snprintf(d->name, sizeof d->name, "%s", t->cpu_name);

    _Static_assert(LEN(device_extensions) <= LEN(present_extensions), "extension list too long");
    _Static_assert(LEN(opencl_c_features) <= LEN(present_features), "feature list too long");
    for (size_t i = 0; i < LEN(device_extensions); i++)
        if (weft_feature_present(device_extensions[i].name))
            present_extensions[num_present_extensions++] = device_extensions[i];
    for (size_t i = 0; i < LEN(opencl_c_features); i++)
        if (weft_feature_present(opencl_c_features[i].name))
            present_features[num_present_features++] = opencl_c_features[i];
    d->has_fp16 = weft_feature_present("cl_khr_fp16");

    size_t len = 1;
    for (size_t i = 0; i < num_present_extensions; i++)
        len += strlen(present_extensions[i].name) + 1;
    d->extensions = calloc(len, 1);
    if (d->extensions) {
        for (size_t i = 0; i < num_present_extensions; i++) {
            if (i)
                strcat(d->extensions, " ");
            strcat(d->extensions, present_extensions[i].name);
        }
    }
    weft_object_init(&d->obj, WEFT_TYPE_DEVICE, NULL);
}

cl_device_id weft_device_get(void)
{
    pthread_once(&device_once, device_init);
    return &the_device;
}

/* The device types clGetDeviceIDs accepts; anything else is CL_INVALID_DEVICE_TYPE. */
#define KNOWN_DEVICE_TYPES                                                                  \
    (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |                     \
     CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
               cl_device_id *devices, cl_uint *num_devices)
{
    /* A NULL platform selects the implementation's own (the spec leaves it to us). */
    if (platform == NULL)
        platform = weft_platform_get();
    WEFT_CHECK(weft_object_is(platform, WEFT_TYPE_PLATFORM), CL_INVALID_PLATFORM,
               "platform %p is not the Weft platform", (void *)platform);
    WEFT_CHECK(device_type == CL_DEVICE_TYPE_ALL ||
                   (device_type != 0 && (device_type & ~(cl_device_type)KNOWN_DEVICE_TYPES) == 0),
               CL_INVALID_DEVICE_TYPE, "device_type 0x%llx is not a valid device type",
               (unsigned long long)device_type);
    WEFT_CHECK(!(num_entries == 0 && devices), CL_INVALID_VALUE,
               "num_entries is 0 but devices is not NULL");
    WEFT_CHECK(devices || num_devices, CL_INVALID_VALUE, "devices and num_devices are both NULL");
    bool match = device_type == CL_DEVICE_TYPE_ALL ||
                 (device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT));
    if (!match) {
        if (num_devices)
            *num_devices = 0;
        return weft_error(__func__, CL_DEVICE_NOT_FOUND,
                          "Weft has one device, a CPU; device_type 0x%llx does not match it",
                          (unsigned long long)device_type);
    }
    if (devices)
        devices[0] = weft_device_get();
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

#define ANSWER(type, v) WEFT_INFO_VALUE(size, value, size_ret, type, v)

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t size, void *value,
                size_t *size_ret)
{
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "device %p is not a valid device", (void *)device);
    const struct _cl_device_id *d = device;

    /* Floating-point behaviour of the generated code: IEEE denormals, infinities and NaNs,
     * hardware FMA, and every rounding mode the FPU has: arithmetic rounds to nearest, and
     * the conversions name round to zero and to +/-infinity exactly (convert_*_rtz/rtp/rtn,
     * e2e/test_builtins_convert). That is the OpenCL 1.x minimum for doubles, which the
     * OpenCL-CTS (api min_max_double_fp_config, math_brute_force) asks of every device.
     * Division and sqrt are not promised to be correctly rounded (the builtins may use
     * faster sequences), so that bit is not reported. */
    const cl_device_fp_config fp_config = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
    const cl_device_atomic_capabilities orders =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
    const cl_device_atomic_capabilities scopes =
        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;

    switch (param_name) {
    /* ---- identity ---- */
    case CL_DEVICE_TYPE:
        ANSWER(cl_device_type, CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_VENDOR_ID:
        /* Weft has neither a PCI vendor ID nor a Khronos vendor ID: 0 says "none". */
        ANSWER(cl_uint, 0);
    case CL_DEVICE_NAME:
        return weft_info_string(size, value, size_ret, d->name);
    case CL_DEVICE_VENDOR:
        return weft_info_string(size, value, size_ret, "The Weft project");
    case CL_DRIVER_VERSION:
        return weft_info_string(size, value, size_ret, WEFT_VERSION_STRING);
    case CL_DEVICE_PROFILE:
        return weft_info_string(size, value, size_ret, "FULL_PROFILE");
    case CL_DEVICE_VERSION:
        return weft_info_string(size, value, size_ret, "OpenCL 3.0 Weft " WEFT_VERSION_STRING);
    case CL_DEVICE_NUMERIC_VERSION:
        ANSWER(cl_version, CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION:
        return weft_info_string(size, value, size_ret, "OpenCL C 1.2 Weft");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return weft_info_bytes(size, value, size_ret, opencl_c_versions, sizeof opencl_c_versions);
    case CL_DEVICE_OPENCL_C_FEATURES:
        return weft_info_bytes(size, value, size_ret, present_features,
                               num_present_features * sizeof present_features[0]);
    case CL_DEVICE_EXTENSIONS:
        return weft_info_string(size, value, size_ret, d->extensions ? d->extensions : "");
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return weft_info_bytes(size, value, size_ret, present_extensions,
                               num_present_extensions * sizeof present_extensions[0]);
    case CL_DEVICE_PLATFORM:
        ANSWER(cl_platform_id, d->platform);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        /* Weft has not passed the conformance tests; the query must still answer a
         * "vYYYY-MM-DD-XX" string, so it names a date before any OpenCL 3.0 submission. */
        return weft_info_string(size, value, size_ret, "v2000-01-01-00");
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:
    case CL_DEVICE_LINKER_AVAILABLE:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_REFERENCE_COUNT:
        ANSWER(cl_uint, weft_object_refcount(&d->obj));

    /* ---- execution ---- */
    case CL_DEVICE_MAX_COMPUTE_UNITS:
        ANSWER(cl_uint, d->compute_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
        ANSWER(cl_uint, 3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
        return weft_info_bytes(size, value, size_ret, d->max_work_item_sizes, sizeof d->max_work_item_sizes);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
        ANSWER(size_t, d->max_work_group_size);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        /* one vector of floats: work-item loops are vectorized across that many work-items */
        ANSWER(size_t, d->vector_width[VW_FLOAT]);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:
        ANSWER(cl_uint, d->max_clock_mhz);
    case CL_DEVICE_ADDRESS_BITS:
        ANSWER(cl_uint, 64);
    case CL_DEVICE_ENDIAN_LITTLE:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
        ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
        ANSWER(size_t, 1);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        /* native kernels are not offered: clEnqueueNativeKernel fails */
        ANSWER(cl_device_exec_capabilities, CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: /* == CL_DEVICE_QUEUE_PROPERTIES */
        ANSWER(cl_command_queue_properties,
               CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_BUILT_IN_KERNELS:
        return weft_info_string(size, value, size_ret, "");
    case CL_DEVICE_IL_VERSION:
        /* what llvm-spirv-15 reads (compiler/spirv.h) */
        return weft_info_string(size, value, size_ret, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
        return weft_info_bytes(size, value, size_ret, NULL, 0);
    case CL_DEVICE_ILS_WITH_VERSION: {
        cl_name_version ils[WEFT_SPIRV_MAX_MINOR + 1];
        for (int i = 0; i <= WEFT_SPIRV_MAX_MINOR; i++)
            ils[i] = (cl_name_version){CL_MAKE_VERSION(1, i, 0), "SPIR-V"};
        return weft_info_bytes(size, value, size_ret, ils, sizeof ils);
    }
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
        ANSWER(size_t, d->printf_buffer_size);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
        /* remainder work-groups run as sub-launches of their own variant (runtime/ndrange.c) */
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
        /* __opencl_c_generic_address_space (runtime/features.h; transform/workitem.c) */
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
        /* __opencl_c_work_group_collective_functions (compiler/transform/wgcollective.c) */
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        /* sub-groups of one work-group run one after another on one thread (a packet of SIMD
         * lanes each, compiler/transform/subgroup.h): none progresses while another waits */
        ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        /* a local size that is not vectorized has sub-groups of one work-item */
        ANSWER(cl_uint, (cl_uint)d->max_work_group_size);

    /* ---- vector widths (native = preferred: the ISA's widest register) ---- */
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
        ANSWER(cl_uint, d->vector_width[VW_CHAR]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
        ANSWER(cl_uint, d->vector_width[VW_SHORT]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
        ANSWER(cl_uint, d->vector_width[VW_INT]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
        ANSWER(cl_uint, d->vector_width[VW_LONG]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
        ANSWER(cl_uint, d->vector_width[VW_FLOAT]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
        ANSWER(cl_uint, d->vector_width[VW_DOUBLE]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
        /* half lanes compute in float lanes: as many as a float vector holds */
        ANSWER(cl_uint, d->has_fp16 ? d->vector_width[VW_FLOAT] : 0);

    /* ---- floating point ---- */
    case CL_DEVICE_SINGLE_FP_CONFIG:
    case CL_DEVICE_DOUBLE_FP_CONFIG: /* cl_khr_fp64 is supported */
        ANSWER(cl_device_fp_config, fp_config);
    case CL_DEVICE_HALF_FP_CONFIG:
        /* builtins/math_half.cl: subnormals, inf and NaN kept, round to nearest even, and a
         * correctly rounded fma */
        ANSWER(cl_device_fp_config, d->has_fp16 ? (CL_FP_DENORM | CL_FP_INF_NAN |
                                                   CL_FP_ROUND_TO_NEAREST | CL_FP_FMA) : 0);

    /* ---- memory ---- */
    case CL_DEVICE_GLOBAL_MEM_SIZE:
        ANSWER(cl_ulong, d->global_mem_size);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
        ANSWER(cl_ulong, d->max_mem_alloc_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        ANSWER(cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
        ANSWER(cl_uint, d->cache_line);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
        ANSWER(cl_ulong, d->global_mem_cache_size);
    case CL_DEVICE_LOCAL_MEM_TYPE:
        /* __local memory is ordinary cached memory (a per-worker arena) */
        ANSWER(cl_device_local_mem_type, CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE:
        ANSWER(cl_ulong, d->local_mem_size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        ANSWER(cl_ulong, d->max_constant_buffer_size);
    case CL_DEVICE_MAX_CONSTANT_ARGS:
        ANSWER(cl_uint, d->max_constant_args);
    case CL_DEVICE_MAX_PARAMETER_SIZE:
        ANSWER(size_t, d->max_parameter_size);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
        ANSWER(cl_uint, d->mem_base_addr_align);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
        ANSWER(cl_uint, d->mem_base_addr_align / 8);
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
        /* per variable (compiler/globals.h); the spec's minimum is 64 KB */
        ANSWER(size_t, (size_t)WEFT_MAX_GLOBAL_VARIABLE_SIZE);
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        /* a program's variables are one host allocation: any total up to memory works alike */
        ANSWER(size_t, (size_t)WEFT_MAX_GLOBAL_VARIABLE_SIZE);
    case CL_DEVICE_SVM_CAPABILITIES:
        /* one address space: coarse and fine grain, any host pointer, the CPU's atomics
         * (runtime/svm.c) */
        ANSWER(cl_device_svm_capabilities, WEFT_SVM_CAPABILITIES);
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
        /* cl_intel_unified_shared_memory: every kind is host memory (runtime/usm.c) */
        ANSWER(cl_device_unified_shared_memory_capabilities_intel, WEFT_USM_CAPABILITIES);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
        ANSWER(cl_uint, 0); /* 0: natural alignment of the atomic type */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
        ANSWER(cl_device_atomic_capabilities, orders | scopes);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        ANSWER(cl_device_atomic_capabilities, orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);

    /* ---- images (runtime/image.c, builtins/image.cl) ---- */
    case CL_DEVICE_IMAGE_SUPPORT:
        ANSWER(cl_bool, CL_TRUE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
        ANSWER(cl_uint, WEFT_MAX_READ_IMAGE_ARGS);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
        ANSWER(cl_uint, WEFT_MAX_WRITE_IMAGE_ARGS);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
        ANSWER(cl_uint, WEFT_MAX_READ_WRITE_IMAGE_ARGS);
    case CL_DEVICE_MAX_SAMPLERS:
        ANSWER(cl_uint, WEFT_MAX_SAMPLERS);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
        ANSWER(cl_uint, 0); /* 0: no 2D images from buffers (cl_khr_image2d_from_buffer) */
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
        ANSWER(size_t, WEFT_IMAGE2D_MAX);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
        ANSWER(size_t, WEFT_IMAGE3D_MAX);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
        ANSWER(size_t, weft_image_max_buffer_size(device));
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        ANSWER(size_t, WEFT_IMAGE_MAX_ARRAY);

    /* ---- pipes and device-side enqueue: not supported ---- */
    case CL_DEVICE_PIPE_SUPPORT:
        ANSWER(cl_bool, CL_FALSE);
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
        ANSWER(cl_uint, 0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
        ANSWER(cl_command_queue_properties, 0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
        ANSWER(cl_device_device_enqueue_capabilities, 0);

    /* ---- partitioning (runtime/subdevice.c) ---- */
    case CL_DEVICE_PARENT_DEVICE:
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    case CL_DEVICE_PARTITION_TYPE:
        return weft_subdevice_info(d, param_name, size, value, size_ret);

    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
    }
}

static cl_ulong monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceAndHostTimer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp)
{
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "device %p is not a valid device", (void *)device);
    WEFT_CHECK(device_timestamp && host_timestamp, CL_INVALID_VALUE,
               "device_timestamp and host_timestamp must both be non-NULL");
    /* The device is the host CPU: the device timer (the one profiling timestamps use) and the
     * host timer are the same clock, CLOCK_MONOTONIC in ns, so one reading answers both. */
    cl_ulong now = monotonic_ns();
    *device_timestamp = now;
    *host_timestamp = now;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "device %p is not a valid device", (void *)device);
    WEFT_CHECK(host_timestamp != NULL, CL_INVALID_VALUE, "host_timestamp is NULL");
    *host_timestamp = monotonic_ns();
    return CL_SUCCESS;
}
