/* runtime/subdevice.c — sub-devices: clCreateSubDevices, clRetainDevice, clReleaseDevice, the
 * partition queries of clGetDeviceInfo, and the worker pool each sub-device runs on.
 *
 * Guarantees:
 *   - A device's compute units are the cores its launches run on (device->unit_core). The root
 *     device has one per worker thread (WEFT_NUM_THREADS, else one per core of the process's
 *     binding). clCreateSubDevices splits them (exec/partition.h) equally, by counts, or by
 *     the NUMA nodes or caches (L4 .. L1) their cores share, as hwloc shows them; a sub-device
 *     may be partitioned again.
 *   - CL_DEVICE_PARTITION_AFFINITY_DOMAIN lists the levels that split the device in two parts
 *     or more (and NEXT_PARTITIONABLE when one does); BY_AFFINITY_DOMAIN is listed in
 *     CL_DEVICE_PARTITION_PROPERTIES only then. A level hwloc does not show is CL_INVALID_VALUE;
 *     one that leaves every unit in one part is CL_DEVICE_PARTITION_FAILED.
 *   - A sub-device's launches run on its own cores: its pool (exec/pool.h) has a worker pinned
 *     to each of its units but the first; the thread that runs a launch takes the first unit's
 *     share. That thread is the queue's command thread, bound to the sub-device's cores for
 *     good, or an application thread that enqueues or waits while it runs on one of those
 *     cores (runtime/queue.c); an application thread elsewhere only waits. The pool is made
 *     with the sub-device's first queue, and stopped when the sub-device is freed.
 *   - A sub-device is reference counted (the root device is not: retaining or releasing it
 *     does nothing). It holds its parent; contexts and queues hold their devices, so a
 *     sub-device the application released lives until its last queue is gone.
 */
#include "runtime/device.h"

#include <stdlib.h>
#include <string.h>

#include "exec/partition.h"
#include "exec/pool.h"
#include "exec/topology.h"
#include "runtime/info.h"
#include "runtime/log.h"

/* The CL_DEVICE_AFFINITY_DOMAIN_* bit of each level is 1 << level (exec/topology.h's order is
 * OpenCL's: NUMA, L4, L3, L2, L1). */
_Static_assert(CL_DEVICE_AFFINITY_DOMAIN_NUMA == 1u << WEFT_AFFINITY_NUMA &&
                   CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE == 1u << WEFT_AFFINITY_L4 &&
                   CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE == 1u << WEFT_AFFINITY_L3 &&
                   CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE == 1u << WEFT_AFFINITY_L2 &&
                   CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE == 1u << WEFT_AFFINITY_L1,
               "affinity levels follow OpenCL's bits");

static cl_device_affinity_domain affinity_domains(const struct _cl_device_id *d)
{
    unsigned mask = weft_partition_splitting_levels(weft_topology_get(), d->unit_core, d->compute_units);
    return mask ? (cl_device_affinity_domain)mask | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

cl_int weft_subdevice_info(const struct _cl_device_id *d, cl_device_info param_name, size_t size, void *value,
                           size_t *size_ret)
{
    switch (param_name) {
    case CL_DEVICE_PARENT_DEVICE:
        WEFT_INFO_VALUE(size, value, size_ret, cl_device_id, d->parent);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        WEFT_INFO_VALUE(size, value, size_ret, cl_uint, d->compute_units);
    case CL_DEVICE_PARTITION_PROPERTIES: {
        cl_device_partition_property props[3] = {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
                                                 CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};
        size_t n = affinity_domains(d) ? 3 : 2;
        return weft_info_bytes(size, value, size_ret, props, n * sizeof props[0]);
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        WEFT_INFO_VALUE(size, value, size_ret, cl_device_affinity_domain, affinity_domains(d));
    case CL_DEVICE_PARTITION_TYPE:
        /* a root device has no partition type: an empty answer, as the spec allows */
        return weft_info_bytes(size, value, size_ret, d->partition_type,
                               d->partition_type_len * sizeof *d->partition_type);
    default:
        return weft_error("clGetDeviceInfo", CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
    }
}

static void subdevice_destroy(struct weft_object *obj)
{
    struct _cl_device_id *d = (struct _cl_device_id *)obj;
    weft_pool_free(d->pool);
    pthread_mutex_destroy(&d->pool_lock);
    free(d->partition_type);
    free(d->unit_core);
    weft_object_unhold(&d->parent->obj);
    free(d);
}

struct weft_pool *weft_device_pool(cl_device_id device)
{
    if (!device->parent)
        return NULL;
    pthread_mutex_lock(&device->pool_lock);
    if (!device->pool) {
        device->pool = weft_pool_new(device->unit_core, device->compute_units);
        if (!device->pool)
            weft_log(WEFT_LOG_INFO, "sub-device %p: cannot start its worker pool; its launches run on the "
                     "root device's", (void *)device);
    }
    struct weft_pool *p = device->pool;
    pthread_mutex_unlock(&device->pool_lock);
    return p;
}

/* A sub-device of `parent` with the `n` units `units`, created by `type` (type_len entries, the
 * terminating 0 included). NULL when memory is short. */
static cl_device_id subdevice_new(cl_device_id parent, const unsigned *units, unsigned n,
                                  const cl_device_partition_property *type, size_t type_len)
{
    struct _cl_device_id *d = malloc(sizeof *d);
    unsigned *unit_core = malloc(sizeof *unit_core * n);
    cl_device_partition_property *copy = malloc(sizeof *copy * type_len);
    if (!d || !unit_core || !copy) {
        free(d);
        free(unit_core);
        free(copy);
        return NULL;
    }
    *d = *parent;   /* every capability is the parent's; the header is made anew below */
    memcpy(unit_core, units, sizeof *unit_core * n);
    memcpy(copy, type, sizeof *copy * type_len);
    d->compute_units = n;
    d->parent = parent;
    d->partition_type = copy;
    d->partition_type_len = type_len;
    d->unit_core = unit_core;
    d->pool = NULL;
    pthread_mutex_init(&d->pool_lock, NULL);
    weft_object_hold(&parent->obj);
    weft_object_init(&d->obj, WEFT_TYPE_DEVICE, subdevice_destroy);
    return d;
}

static cl_int partition_error(enum weft_partition_status st, const char *what)
{
    switch (st) {
    case WEFT_PARTITION_OK:
        return CL_SUCCESS;
    case WEFT_PARTITION_INVALID:
        return weft_error("clCreateSubDevices", CL_INVALID_VALUE, "%s is not a partition this device supports", what);
    case WEFT_PARTITION_BAD_COUNT:
        return weft_error("clCreateSubDevices", CL_INVALID_DEVICE_PARTITION_COUNT,
                          "%s asks for more compute units or sub-devices than the device has, or for a "
                          "sub-device of fewer than 1", what);
    case WEFT_PARTITION_FAILED:
        return weft_error("clCreateSubDevices", CL_DEVICE_PARTITION_FAILED,
                          "%s does not split this device's compute units", what);
    default:
        return weft_error("clCreateSubDevices", CL_OUT_OF_HOST_MEMORY, "cannot allocate the partition");
    }
}

/* Most counts a BY_COUNTS list may hold before its end: one per compute unit (Weft's devices
 * have at most 4096), and a list that runs on past that is refused before it is read further. */
#define MAX_COUNTS 4096u

CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                   cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret)
{
    WEFT_CHECK(weft_object_is(in_device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "in_device %p is not a valid device", (void *)in_device);
    WEFT_CHECK(properties != NULL, CL_INVALID_VALUE, "properties is NULL");
    const struct weft_topology *topo = weft_topology_get();
    struct weft_partition part;
    enum weft_partition_status st;
    const char *what;
    size_t len;   /* entries of `properties`, the terminating 0 included */
    cl_device_partition_property type[3];
    const cl_device_partition_property *recorded = properties;
    switch (properties[0]) {
    case CL_DEVICE_PARTITION_EQUALLY:
        WEFT_CHECK(properties[2] == 0, CL_INVALID_VALUE,
                   "CL_DEVICE_PARTITION_EQUALLY takes one value; properties[2] must end the list");
        WEFT_CHECK(properties[1] >= 0, CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY %lld is negative",
                   (long long)properties[1]);
        what = "CL_DEVICE_PARTITION_EQUALLY";
        st = weft_partition_equally(in_device->unit_core, in_device->compute_units, (uint64_t)properties[1], &part);
        len = 3;
        break;
    case CL_DEVICE_PARTITION_BY_COUNTS: {
        size_t n = 0;
        while (n < MAX_COUNTS + 1 && properties[1 + n] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END)
            n++;
        WEFT_CHECK(n <= MAX_COUNTS, CL_INVALID_DEVICE_PARTITION_COUNT,
                   "CL_DEVICE_PARTITION_BY_COUNTS lists more than %u counts", MAX_COUNTS);
        WEFT_CHECK(properties[2 + n] == 0, CL_INVALID_VALUE,
                   "CL_DEVICE_PARTITION_BY_COUNTS_LIST_END must be followed by the list's terminating 0");
        int64_t counts[n ? n : 1];
        for (size_t k = 0; k < n; k++)
            counts[k] = (int64_t)properties[1 + k];
        what = "CL_DEVICE_PARTITION_BY_COUNTS";
        st = weft_partition_by_counts(in_device->unit_core, in_device->compute_units, counts, (unsigned)n, &part);
        len = n + 3;
        break;
    }
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
        WEFT_CHECK(properties[2] == 0, CL_INVALID_VALUE,
                   "CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN takes one value; properties[2] must end the list");
        cl_device_partition_property dom = properties[1];
        int level = -2;
        for (int l = 0; l < WEFT_AFFINITY_LEVELS; l++)
            if (dom == (cl_device_partition_property)(1u << l))
                level = l;
        if (dom == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)
            level = -1;
        WEFT_CHECK(level != -2, CL_INVALID_VALUE, "affinity domain 0x%llx is not one of CL_DEVICE_AFFINITY_DOMAIN_*",
                   (unsigned long long)dom);
        what = "this affinity domain";
        st = weft_partition_by_domain(topo, in_device->unit_core, in_device->compute_units, level, &part);
        /* CL_DEVICE_PARTITION_TYPE names the level actually used for NEXT_PARTITIONABLE */
        type[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        type[1] = st == WEFT_PARTITION_OK ? (cl_device_partition_property)(1u << part.level) : dom;
        type[2] = 0;
        recorded = type;
        len = 3;
        break;
    }
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "partition property 0x%llx is not valid",
                          (unsigned long long)properties[0]);
    }
    cl_int err = partition_error(st, what);
    if (err != CL_SUCCESS)
        return err;
    if (out_devices && num_devices < part.parts) {
        weft_partition_free(&part);
        return weft_error(__func__, CL_INVALID_VALUE, "num_devices %u is less than the %u sub-devices", num_devices,
                          part.parts);
    }
    if (out_devices) {
        for (unsigned k = 0; k < part.parts; k++) {
            out_devices[k] = subdevice_new(in_device, part.unit + part.first[k], part.first[k + 1] - part.first[k],
                                           recorded, len);
            if (!out_devices[k]) {
                while (k-- > 0)
                    weft_object_release(&out_devices[k]->obj);
                weft_partition_free(&part);
                return weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "cannot allocate the sub-devices");
            }
        }
    }
    if (num_devices_ret)
        *num_devices_ret = part.parts;
    weft_partition_free(&part);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "device %p is not a valid device", (void *)device);
    /* A root device's reference count stays 1 (the spec: retaining it is a no-op). */
    if (device->parent)
        weft_object_retain(&device->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
    WEFT_CHECK(weft_object_is(device, WEFT_TYPE_DEVICE), CL_INVALID_DEVICE,
               "device %p is not a valid device", (void *)device);
    if (device->parent)
        weft_object_release(&device->obj);
    return CL_SUCCESS;
}
