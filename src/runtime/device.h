/* runtime/device.h — the one CPU device (a singleton, like the platform). Its capabilities
 * are read once from the machine (exec/topology.h, the ISA) and reported by clGetDeviceInfo. */
#ifndef WEFT_RUNTIME_DEVICE_H
#define WEFT_RUNTIME_DEVICE_H

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
};

cl_device_id weft_device_get(void);

#endif
