/* runtime/device.h — the CPU device (the root device, a singleton like the platform) and its
 * sub-devices (runtime/subdevice.c). The root's capabilities are read once from the machine
 * (exec/topology.h, the ISA) and reported by clGetDeviceInfo; a sub-device has its parent's,
 * but for its compute units. */
#ifndef WEFT_RUNTIME_DEVICE_H
#define WEFT_RUNTIME_DEVICE_H

#include <pthread.h>

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
    /* Partitioning (runtime/subdevice.c). */
    cl_device_id parent;                /* NULL for the root device */
    cl_device_partition_property *partition_type;   /* a sub-device's, 0-terminated; NULL: root */
    size_t partition_type_len;          /* its entries, the terminating 0 included */
    unsigned *unit_core;                /* per compute unit, the core it runs on */
    struct weft_pool *pool;             /* a sub-device's worker pool, made by its first launch;
                                           NULL: the root pool (exec/pool.h) */
    pthread_mutex_t pool_lock;
};

/* The root device. */
cl_device_id weft_device_get(void);
/* The pool `device`'s launches run on (NULL: the root pool); a sub-device's is made at its
 * first call. NULL as well when a sub-device's pool cannot be made: its launches then run on
 * the root pool (logged). */
struct weft_pool *weft_device_pool(cl_device_id device);
/* The partition queries of clGetDeviceInfo (CL_DEVICE_PARENT_DEVICE, CL_DEVICE_PARTITION_*). */
cl_int weft_subdevice_info(const struct _cl_device_id *d, cl_device_info param_name, size_t size, void *value,
                           size_t *size_ret);
/* The number of worker threads, weft_device_worker_count(), is exec/workers.h's: it equals
 * CL_DEVICE_MAX_COMPUTE_UNITS. */

#endif
