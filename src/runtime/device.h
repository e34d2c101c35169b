/* runtime/device.h — the one CPU device (a singleton, like the platform). Its capabilities
 * are read once from the machine (exec/topology.h, the ISA) and reported by clGetDeviceInfo. */
#ifndef WEFT_RUNTIME_DEVICE_H
#define WEFT_RUNTIME_DEVICE_H

#include "exec/workers.h"
#include "runtime/object.h"

struct _cl_device_id {
    struct weft_object obj;
    cl_platform_id platform;
    cl_uint compute_units;          /* worker threads = cores used */
    size_t max_work_group_size;     /* 4096 */
    size_t max_work_item_sizes[3];
    cl_ulong global_mem_size;
    cl_ulong max_mem_alloc_size;
    cl_ulong local_mem_size;        /* per work-group arena size */
    cl_uint mem_base_addr_align;    /* bits */
    /* helpers may add fields below */
    cl_ulong max_constant_buffer_size;  /* bytes; the runtime rejects larger __constant args */
    cl_uint max_constant_args;
    size_t max_parameter_size;          /* bytes of kernel arguments */
    size_t printf_buffer_size;          /* bytes */
    cl_uint simd_bytes;                 /* widest vector register of the ISA: 16, 32 or 64 */
    cl_uint vector_width[6];            /* native = preferred widths: char short int long float double */
    cl_ulong global_mem_cache_size;     /* last-level cache (L3, else L2), bytes */
    cl_uint cache_line;                 /* bytes */
    cl_uint max_clock_mhz;
    char name[128];                     /* the CPU model */
    char *extensions;                   /* space-separated WEFT_DEVICE_EXTENSIONS present here */
    bool has_fp16;                      /* cl_khr_fp16 is reported (the CPU has F16C) */
};

cl_device_id weft_device_get(void);
/* The number of worker threads, weft_device_worker_count(), is exec/workers.h's: it equals
 * CL_DEVICE_MAX_COMPUTE_UNITS. */

#endif
