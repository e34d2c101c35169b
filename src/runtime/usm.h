/* runtime/usm.h — cl_intel_unified_shared_memory (runtime/usm.c): what other modules ask of it.
 * The allocations themselves live in runtime/svm.c's table (svm.h weft_svm_find answers for
 * both kinds). */
#ifndef WEFT_RUNTIME_USM_H
#define WEFT_RUNTIME_USM_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdbool.h>

/* What the device reports for every CL_DEVICE_*_MEM_CAPABILITIES_INTEL query: host, device and
 * shared allocations, and any system allocation, are all host memory of one address space that
 * kernels reach concurrently with the host, with the CPU's coherent atomics. */
#define WEFT_USM_CAPABILITIES                                                                       \
    (CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |          \
     CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL)

/* clSetKernelExecInfo's cl_intel_unified_shared_memory names (runtime/svm.c asks first): false
 * when `param_name` is none of them; else true with the call's result in *err. */
bool weft_usm_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                            const void *param_value, cl_int *err);

#endif
