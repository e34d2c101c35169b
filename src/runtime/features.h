/* runtime/features.h — the optional OpenCL C features and extensions Weft supports, written
 * once: the device queries report exactly these, and the frontend passes exactly these to
 * clang (-cl-ext=-all,+...), so a kernel sees the same truth the host does. */
#ifndef WEFT_RUNTIME_FEATURES_H
#define WEFT_RUNTIME_FEATURES_H

#include <stdbool.h>
#include <string.h>

/* OpenCL C 3.0 feature macros (CL_DEVICE_OPENCL_C_FEATURES). */
#define WEFT_OPENCL_C_FEATURES(X)            \
    X(__opencl_c_int64, 3, 0, 0)             \
    X(__opencl_c_fp64, 3, 0, 0)              \
    X(__opencl_c_atomic_order_acq_rel, 3, 0, 0) \
    X(__opencl_c_atomic_order_seq_cst, 3, 0, 0) \
    X(__opencl_c_atomic_scope_device, 3, 0, 0)  \
    X(__opencl_c_atomic_scope_all_devices, 3, 0, 0) \
    X(__opencl_c_subgroups, 3, 0, 0)         \
    X(__opencl_c_images, 3, 0, 0)            \
    X(__opencl_c_read_write_images, 3, 0, 0) \
    X(__opencl_c_3d_image_writes, 3, 0, 0) \
    X(__opencl_c_program_scope_global_variables, 3, 0, 0) \
    X(__opencl_c_generic_address_space, 3, 0, 0) \
    X(__opencl_c_work_group_collective_functions, 3, 0, 0)

/* Device extensions (CL_DEVICE_EXTENSIONS / _WITH_VERSION). Not cl_khr_subgroups: it requires
 * independent forward progress of sub-groups, which packets run one after another cannot
 * give; sub-groups are the OpenCL C 3.0 feature __opencl_c_subgroups and the core API. */
#define WEFT_DEVICE_EXTENSIONS(X)                     \
    X(cl_khr_byte_addressable_store, 1, 0, 0)         \
    X(cl_khr_fp64, 1, 0, 0)                           \
    X(cl_khr_fp16, 1, 0, 0)          /* with F16C */  \
    X(cl_khr_global_int32_base_atomics, 1, 0, 0)      \
    X(cl_khr_global_int32_extended_atomics, 1, 0, 0)  \
    X(cl_khr_local_int32_base_atomics, 1, 0, 0)       \
    X(cl_khr_local_int32_extended_atomics, 1, 0, 0)   \
    X(cl_khr_int64_base_atomics, 1, 0, 0)             \
    X(cl_khr_int64_extended_atomics, 1, 0, 0)         \
    X(cl_khr_icd, 1, 0, 0)                            \
    X(cl_khr_3d_image_writes, 1, 0, 0)                \
    X(cl_intel_unified_shared_memory, 1, 0, 0)   /* host API only (runtime/usm.c); clang ignores it */

/* Whether an entry of the lists above holds on the CPU this process runs on. The builtin
 * library always carries the code; the device reports (and the frontend enables) an entry
 * only where it is true. cl_khr_fp16 needs F16C: half <-> float conversions are then one
 * instruction, and half arithmetic runs in float lanes. */
static inline bool weft_feature_present(const char *name)
{
    if (!strcmp(name, "cl_khr_fp16"))
        return __builtin_cpu_supports("f16c");
    return true;
}

#endif
