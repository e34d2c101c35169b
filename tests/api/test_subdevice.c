/* tests/api/test_subdevice.c — sub-devices through the ICD loader: clCreateSubDevices equally,
 * by counts and by affinity domain, with the error codes the specification gives; the
 * sub-devices' queries, reference counts and further partitions; contexts of several
 * sub-devices and their parent (programs built for the parent run on the sub-devices, CL_
 * PROGRAM_DEVICES and binaries per device); launches and fused chains on sub-device queues
 * checked against host references; a sub-device released while its queue still runs; and,
 * on the real machine, that a sub-device's threads are pinned to its cores and an
 * application thread keeps its binding, whether it is on a sub-device's core (and runs its
 * commands) or not (and waits for the queue's thread).
 *
 * The process asks for 4 compute units (WEFT_NUM_THREADS, unless set). CTest also runs it on
 * a synthetic topology (api/subdevice_synthetic, WEFT_HWLOC_SYNTHETIC=SYNTHETIC_SHAPE), where
 * the affinity domains are known exactly and nothing is pinned. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <CL/cl_ext.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "weft_test.h"

#define NUM_UNITS 4
/* 2 packages of one NUMA node each, 2 L2 caches of one core per node: 4 cores */
#define SYNTHETIC_SHAPE "pack:2 numa:1 l2:2 core:1 pu:1"

static bool synthetic(void)
{
    const char *s = getenv("WEFT_HWLOC_SYNTHETIC");
    return s && *s;
}

static cl_device_id root(void)
{
    cl_device_id d = weft_test_device();
    assert_non_null(d);
    return d;
}

static cl_uint units_of(cl_device_id d)
{
    cl_uint cu = 0;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL), CL_SUCCESS);
    return cu;
}

/* Creates the sub-devices `props` asks for (asking for their number first, as applications
 * do); returns how many, or fails the test unless the call returns `expect`. */
static cl_uint make_subdevices(cl_device_id parent, const cl_device_partition_property *props, cl_device_id *out,
                               cl_uint room)
{
    cl_uint n = 0;
    assert_int_equal(clCreateSubDevices(parent, props, 0, NULL, &n), CL_SUCCESS);
    assert_true(n >= 1 && n <= room);
    cl_uint again = 0;
    assert_int_equal(clCreateSubDevices(parent, props, n, out, &again), CL_SUCCESS);
    assert_int_equal(again, n);
    return n;
}

static void release_all(cl_device_id *d, cl_uint n)
{
    for (cl_uint i = 0; i < n; i++)
        assert_int_equal(clReleaseDevice(d[i]), CL_SUCCESS);
}

/* CL_DEVICE_PARTITION_TYPE of `d` equals want[0 .. n-1]. */
static void assert_partition_type(cl_device_id d, const cl_device_partition_property *want, size_t n)
{
    cl_device_partition_property got[16];
    size_t size = 0;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_PARTITION_TYPE, sizeof got, got, &size), CL_SUCCESS);
    assert_int_equal(size, n * sizeof got[0]);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("partition type entry %zu is 0x%llx, not 0x%llx", i, (unsigned long long)got[i],
                     (unsigned long long)want[i]);
}

/* ---- partitions ---- */

static void test_equally(void **state)
{
    cl_device_id r = root(), sub[8];
    assert_int_equal(units_of(r), NUM_UNITS);
    const cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    cl_uint n = make_subdevices(r, two, sub, 8);
    assert_int_equal(n, 2);
    char root_name[256], name[256];
    assert_int_equal(clGetDeviceInfo(r, CL_DEVICE_NAME, sizeof root_name, root_name, NULL), CL_SUCCESS);
    for (cl_uint i = 0; i < n; i++) {
        assert_ptr_not_equal(sub[i], r);
        assert_int_equal(units_of(sub[i]), 2);
        cl_device_id parent = NULL;
        assert_int_equal(clGetDeviceInfo(sub[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL), CL_SUCCESS);
        assert_ptr_equal(parent, r);
        assert_partition_type(sub[i], two, 3);
        cl_uint v = 0;
        assert_int_equal(clGetDeviceInfo(sub[i], CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof v, &v, NULL), CL_SUCCESS);
        assert_int_equal(v, 2);
        assert_int_equal(clGetDeviceInfo(sub[i], CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
        assert_string_equal(name, root_name);
        cl_device_type type = 0;
        assert_int_equal(clGetDeviceInfo(sub[i], CL_DEVICE_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
        assert_int_equal(type, CL_DEVICE_TYPE_CPU);
    }
    /* reference counts are real for sub-devices */
    cl_uint refs = 0;
    assert_int_equal(clRetainDevice(sub[0]), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(sub[0], CL_DEVICE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseDevice(sub[0]), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(sub[0], CL_DEVICE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);
    /* a sub-device partitions again; its sub-devices name it as their parent */
    const cl_device_partition_property one[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subsub[4];
    assert_int_equal(make_subdevices(sub[1], one, subsub, 4), 2);
    for (int i = 0; i < 2; i++) {
        cl_device_id parent = NULL;
        assert_int_equal(clGetDeviceInfo(subsub[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL),
                         CL_SUCCESS);
        assert_ptr_equal(parent, sub[1]);
        assert_int_equal(units_of(subsub[i]), 1);
    }
    /* the parent goes first: its handle is no longer valid, but its children hold it (a freed
     * handle cannot be passed at all: the ICD loader reads it before Weft does) */
    release_all(sub, n);
    cl_device_id parent = NULL;
    assert_int_equal(clGetDeviceInfo(subsub[0], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL), CL_SUCCESS);
    assert_ptr_equal(parent, sub[1]);
    assert_int_equal(clGetDeviceInfo(sub[1], CL_DEVICE_NAME, sizeof name, name, NULL), CL_INVALID_DEVICE);
    /* one unit cannot be partitioned further */
    assert_int_equal(clCreateSubDevices(subsub[0], one, 4, sub, NULL), CL_DEVICE_PARTITION_FAILED);
    release_all(subsub, 2);
    /* three of four units: one sub-device, the last unit unused */
    const cl_device_partition_property three[] = {CL_DEVICE_PARTITION_EQUALLY, 3, 0};
    assert_int_equal(make_subdevices(r, three, sub, 8), 1);
    assert_int_equal(units_of(sub[0]), 3);
    release_all(sub, 1);
}

static void test_equally_errors(void **state)
{
    cl_device_id r = root(), sub[8];
    cl_uint n = 77;
    const cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    const cl_device_partition_property negative[] = {CL_DEVICE_PARTITION_EQUALLY, -2, 0};
    const cl_device_partition_property whole[] = {CL_DEVICE_PARTITION_EQUALLY, NUM_UNITS, 0};
    const cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_EQUALLY, NUM_UNITS + 1, 0};
    const cl_device_partition_property unterminated[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 5, 0};
    const cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    assert_int_equal(clCreateSubDevices(r, zero, 8, sub, &n), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(r, negative, 8, sub, &n), CL_INVALID_VALUE);
    /* the whole device again is no partition; more units than it has is a bad count (both as
     * the OpenCL-CTS's api negative_create_sub_devices reads the specification) */
    assert_int_equal(clCreateSubDevices(r, whole, 8, sub, &n), CL_DEVICE_PARTITION_FAILED);
    assert_int_equal(clCreateSubDevices(r, too_many, 8, sub, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_int_equal(clCreateSubDevices(r, unterminated, 8, sub, &n), CL_INVALID_VALUE);
    /* room for fewer sub-devices than the partition makes */
    assert_int_equal(clCreateSubDevices(r, two, 1, sub, &n), CL_INVALID_VALUE);
    assert_int_equal(n, 77);
}

static void test_by_counts(void **state)
{
    cl_device_id r = root(), sub[8];
    const cl_device_partition_property one_three[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 3,
                                                      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    assert_int_equal(make_subdevices(r, one_three, sub, 8), 2);
    assert_int_equal(units_of(sub[0]), 1);
    assert_int_equal(units_of(sub[1]), 3);
    assert_partition_type(sub[1], one_three, 5);
    release_all(sub, 2);
    cl_uint n = 77;
    static const cl_device_partition_property bad_counts[][8] = {
        {CL_DEVICE_PARTITION_BY_COUNTS, 2, -1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
        {CL_DEVICE_PARTITION_BY_COUNTS, 3, 2, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
        {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 1, 1, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad_counts); i++)
        if (clCreateSubDevices(r, bad_counts[i], 8, sub, &n) != CL_INVALID_DEVICE_PARTITION_COUNT)
            fail_msg("bad count list %zu is not CL_INVALID_DEVICE_PARTITION_COUNT", i);
    /* CL_DEVICE_PARTITION_BY_COUNTS_LIST_END is 0: a count of 0 ends the list */
    const cl_device_partition_property empty[] = {CL_DEVICE_PARTITION_BY_COUNTS,
                                                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property unterminated[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                         CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 7, 0};
    assert_int_equal(clCreateSubDevices(r, empty, 8, sub, &n), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(r, unterminated, 8, sub, &n), CL_INVALID_VALUE);
    assert_int_equal(n, 77);
}

static const cl_device_affinity_domain levels[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

/* Every level the device reports splits it, into parts whose units add up to the device's;
 * every level it does not report is refused; next-partitionable picks the first reported. */
static void test_by_affinity_domain(void **state)
{
    cl_device_id r = root(), sub[NUM_UNITS + 1];
    cl_device_affinity_domain mask = 0;
    assert_int_equal(clGetDeviceInfo(r, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof mask, &mask, NULL), CL_SUCCESS);
    if (synthetic())   /* SYNTHETIC_SHAPE: two NUMA nodes, four L2 caches */
        assert_int_equal(mask, CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE |
                                   CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);
    cl_device_affinity_domain first = 0;
    for (size_t i = 0; i < ARRAY_LEN(levels); i++) {
        const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                      (cl_device_partition_property)levels[i], 0};
        if (!(mask & levels[i])) {
            cl_uint n = 0;
            cl_int err = clCreateSubDevices(r, props, NUM_UNITS + 1, sub, &n);
            if (err != CL_INVALID_VALUE && err != CL_DEVICE_PARTITION_FAILED)
                fail_msg("level 0x%llx is not reported but partitions (%d)", (unsigned long long)levels[i], err);
            continue;
        }
        first = first ? first : levels[i];
        cl_uint n = make_subdevices(r, props, sub, NUM_UNITS + 1), total = 0;
        assert_true(n >= 2);
        for (cl_uint k = 0; k < n; k++) {
            total += units_of(sub[k]);
            assert_partition_type(sub[k], props, 3);
        }
        assert_int_equal(total, NUM_UNITS);
        if (synthetic())
            assert_int_equal(n, levels[i] == CL_DEVICE_AFFINITY_DOMAIN_NUMA ? 2 : 4);
        release_all(sub, n);
    }
    const cl_device_partition_property next[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                 CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    if (!mask) {
        cl_uint n = 0;
        assert_int_equal(clCreateSubDevices(r, next, NUM_UNITS + 1, sub, &n), CL_DEVICE_PARTITION_FAILED);
        return;
    }
    cl_uint n = make_subdevices(r, next, sub, NUM_UNITS + 1);
    /* CL_DEVICE_PARTITION_TYPE names the level used */
    const cl_device_partition_property used[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                 (cl_device_partition_property)first, 0};
    assert_partition_type(sub[0], used, 3);
    release_all(sub, n);
    const cl_device_partition_property two_levels[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                       CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0};
    assert_int_equal(clCreateSubDevices(r, two_levels, NUM_UNITS + 1, sub, &n), CL_INVALID_VALUE);
}

/* ---- running on sub-devices ---- */

static const char *kernels_src =
    "__kernel void triple(__global int *d) { d[get_global_id(0)] *= 3; }\n"
    "__kernel void inc(__global int *d) { d[get_global_id(0)]++; }\n"
    "__kernel void saxpy(__global float *y, __global const float *x, float a) {\n"
    "    size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n"
    "__kernel void smooth(__global float *out, __global const float *in, int n) {\n"
    "    int i = get_global_id(0);\n"
    "    float l = i > 0 ? in[i - 1] : in[i], r = i < n - 1 ? in[i + 1] : in[i];\n"
    "    out[i] = 0.25f * l + 0.5f * in[i] + 0.25f * r; }\n";

/* A context of both halves of the device and the device itself (listed twice: duplicates are
 * dropped); a program built for the parent alone runs on the halves, the way the CTS does it. */
static void test_context_of_subdevices_and_parent(void **state)
{
    cl_device_id r = root(), sub[2];
    const cl_device_partition_property two[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    assert_int_equal(make_subdevices(r, two, sub, 2), 2);
    cl_device_id list[4] = {sub[0], sub[1], r, sub[0]};
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 4, list, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint num = 0;
    cl_device_id devs[4] = {0};
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof num, &num, NULL), CL_SUCCESS);
    assert_int_equal(num, 3);
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, NULL), CL_SUCCESS);
    assert_ptr_equal(devs[0], sub[0]);
    assert_ptr_equal(devs[1], sub[1]);
    assert_ptr_equal(devs[2], r);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernels_src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(prog, 1, &r, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof num, &num, NULL), CL_SUCCESS);
    assert_int_equal(num, 3);
    cl_device_id pdevs[3];
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_DEVICES, sizeof pdevs, pdevs, NULL), CL_SUCCESS);
    for (int i = 0; i < 3; i++) {
        assert_ptr_equal(pdevs[i], devs[i]);
        cl_build_status st = CL_BUILD_NONE;
        assert_int_equal(clGetProgramBuildInfo(prog, pdevs[i], CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
                         CL_SUCCESS);
        assert_int_equal(st, CL_BUILD_SUCCESS);
    }
    size_t sizes[3] = {0}, size_ret = 0;
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, &size_ret), CL_SUCCESS);
    assert_int_equal(size_ret, sizeof sizes);
    assert_true(sizes[0] > 0 && sizes[1] == sizes[0] && sizes[2] == sizes[0]);
    unsigned char *bins[3] = {malloc(sizes[0]), NULL, malloc(sizes[0])};   /* NULL: skip that device */
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(void *) * 2, bins, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL), CL_SUCCESS);
    assert_memory_equal(bins[0], bins[2], sizes[0]);
    free(bins[0]);
    free(bins[2]);

    cl_kernel k[2] = {clCreateKernel(prog, "triple", &err), NULL};
    assert_int_equal(err, CL_SUCCESS);
    k[1] = clCreateKernel(prog, "inc", &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t wg = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k[0], NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
                     CL_INVALID_DEVICE);   /* several devices: NULL is ambiguous */
    for (int i = 0; i < 3; i++)
        assert_int_equal(clGetKernelWorkGroupInfo(k[0], devs[i], CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
                         CL_SUCCESS);

    enum { N = 512 };
    int data[N], expect[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = expect[i] = i * 7 - 100;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int i = 0; i < 2; i++)
        assert_int_equal(clSetKernelArg(k[i], 0, sizeof buf, &buf), CL_SUCCESS);
    cl_command_queue q[3];
    for (int i = 0; i < 3; i++) {
        q[i] = clCreateCommandQueueWithProperties(ctx, devs[i], NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        cl_device_id qd = NULL;
        assert_int_equal(clGetCommandQueueInfo(q[i], CL_QUEUE_DEVICE, sizeof qd, &qd, NULL), CL_SUCCESS);
        assert_ptr_equal(qd, devs[i]);
    }
    /* the queues take turns on one buffer, each finishing before the next starts */
    size_t global = N, local = 64;
    for (int round = 0; round < 12; round++) {
        int which = (round * 5 + round / 3) % 2;
        assert_int_equal(clEnqueueNDRangeKernel(q[round % 3], k[which], 1, NULL, &global, &local, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clFinish(q[round % 3]), CL_SUCCESS);
        for (int i = 0; i < N; i++)
            expect[i] = which ? expect[i] + 1 : expect[i] * 3;
    }
    for (int i = 0; i < 3; i++) {
        memset(out, 0, sizeof out);
        assert_int_equal(clEnqueueReadBuffer(q[i], buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
        assert_memory_equal(out, expect, sizeof out);
    }
    /* a device outside the context */
    cl_device_id other[2];
    const cl_device_partition_property one[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    assert_int_equal(make_subdevices(sub[0], one, other, 2), 2);
    assert_null(clCreateCommandQueueWithProperties(ctx, other[0], NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    assert_int_equal(clBuildProgram(prog, 1, &other[0], NULL, NULL, NULL), CL_INVALID_DEVICE);
    release_all(other, 2);

    for (int i = 0; i < 3; i++)
        clReleaseCommandQueue(q[i]);
    clReleaseMemObject(buf);
    clReleaseKernel(k[0]);
    clReleaseKernel(k[1]);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    release_all(sub, 2);
}

/* Many work-groups on a sub-device of three units (its workers take part), a chain of stencil
 * launches on an in-order queue (which the runtime may fuse), on a sub-device the application
 * released before it used it: the queue holds the sub-device. */
static void test_launches_on_a_subdevice(void **state)
{
    cl_device_id r = root(), sub[2];
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 3, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    assert_int_equal(make_subdevices(r, counts, sub, 2), 2);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 2, sub, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, sub[0], NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    release_all(sub, 2);   /* the context and the queue keep them */
    char name[64];
    assert_int_equal(clGetDeviceInfo(sub[0], CL_DEVICE_NAME, sizeof name, name, NULL), CL_INVALID_DEVICE);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernels_src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);

    enum { N = 1 << 20, M = 4096, STEPS = 9 };
    float *x = malloc(sizeof *x * N), *y = malloc(sizeof *y * N), *got = malloc(sizeof *got * N);
    assert_true(x && y && got);
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 77);
    }
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof *x * N, x, &err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof *y * N, y, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel saxpy = clCreateKernel(prog, "saxpy", &err);
    assert_int_equal(err, CL_SUCCESS);
    float a = 3.0f;
    clSetKernelArg(saxpy, 0, sizeof by, &by);
    clSetKernelArg(saxpy, 1, sizeof bx, &bx);
    clSetKernelArg(saxpy, 2, sizeof a, &a);
    size_t global = N, local = 64;
    assert_int_equal(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof *got * N, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (got[i] != a * x[i] + y[i])
            fail_msg("saxpy[%d] = %g, not %g", i, got[i], a * x[i] + y[i]);

    /* the stencil chain, ping-ponging between two buffers */
    float *ref = malloc(sizeof *ref * M), *tmp = malloc(sizeof *tmp * M);
    for (int i = 0; i < M; i++)
        ref[i] = (float)((i * 37) % 101);
    cl_mem b[2] = {clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof *ref * M, ref, &err),
                   clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof *ref * M, NULL, &err)};
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel smooth = clCreateKernel(prog, "smooth", &err);
    assert_int_equal(err, CL_SUCCESS);
    int m = M;
    global = M;
    for (int s = 0; s < STEPS; s++) {
        clSetKernelArg(smooth, 0, sizeof b[0], &b[(s + 1) % 2]);
        clSetKernelArg(smooth, 1, sizeof b[0], &b[s % 2]);
        clSetKernelArg(smooth, 2, sizeof m, &m);
        assert_int_equal(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        for (int i = 0; i < M; i++) {
            float l = i > 0 ? ref[i - 1] : ref[i], rr = i < M - 1 ? ref[i + 1] : ref[i];
            tmp[i] = 0.25f * l + 0.5f * ref[i] + 0.25f * rr;
        }
        memcpy(ref, tmp, sizeof *ref * M);
    }
    assert_int_equal(clEnqueueReadBuffer(q, b[STEPS % 2], CL_TRUE, 0, sizeof *got * M, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < M; i++)
        if (fabsf(got[i] - ref[i]) > 1e-4f * (1.0f + fabsf(ref[i])))
            fail_msg("stencil[%d] = %g, not %g", i, got[i], ref[i]);

    free(x);
    free(y);
    free(got);
    free(ref);
    free(tmp);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(b[0]);
    clReleaseMemObject(b[1]);
    clReleaseKernel(saxpy);
    clReleaseKernel(smooth);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* ---- placement (real machine only) ---- */

/* The number of CPUs in a thread's Cpus_allowed_list (from /proc), and the list itself. */
static int allowed_cpus(const char *status_path, char *list, size_t room)
{
    FILE *f = fopen(status_path, "r");
    if (!f)
        return -1;
    char line[512];
    int count = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
            continue;
        char *p = line + 18;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\n")] = 0;
        size_t len = strlen(p) < room ? strlen(p) : room - 1;
        memcpy(list, p, len);
        list[len] = 0;
        count = 0;
        for (char *tok = strtok(p, ","); tok; tok = strtok(NULL, ",")) {
            int lo, hi;
            if (sscanf(tok, "%d-%d", &lo, &hi) == 2)
                count += hi - lo + 1;
            else
                count++;
        }
    }
    fclose(f);
    return count;
}

/* How many of this process's threads whose name starts with `prefix` are allowed exactly one
 * CPU, and how many such threads there are. */
static void pinned_threads(const char *prefix, int *pinned, int *total)
{
    *pinned = *total = 0;
    DIR *dir = opendir("/proc/self/task");
    assert_non_null(dir);
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[600], comm[64] = "", list[256];
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (!fgets(comm, sizeof comm, f))
            comm[0] = 0;
        fclose(f);
        if (strncmp(comm, prefix, strlen(prefix)) != 0)
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        (*total)++;
        if (allowed_cpus(path, list, sizeof list) == 1)
            (*pinned)++;
    }
    closedir(dir);
}

/* pinned_threads, once `total` threads named `prefix` are left (up to 10 s): a sub-device's
 * workers go with its last holder, which may be the runtime's own for a moment after the
 * application let go (a compile on the background thread holds its kernel, and through it the
 * program, the context and its sub-devices; runtime/compile_ahead.h). */
static void pinned_threads_settled(const char *prefix, int total_wanted, int *pinned, int *total)
{
    for (int tries = 0; tries < 1000; tries++) {
        pinned_threads(prefix, pinned, total);
        if (*total == total_wanted)
            return;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static void test_threads_are_pinned_to_the_subdevice(void **state)
{
    char before[256], after[256];
    int cpus = allowed_cpus("/proc/thread-self/status", before, sizeof before);
    if (synthetic() || cpus < 2) {
        print_message("skipped: %s\n", synthetic() ? "synthetic topology" : "fewer than 2 CPUs");
        skip();
    }
    /* two sub-devices of one unit each, and one of two units (a worker of its own) */
    cl_device_id r = root(), sub[3];
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 2,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    assert_int_equal(make_subdevices(r, counts, sub, 3), 3);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 3, sub, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernels_src, NULL, &err);
    assert_int_equal(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel inc = clCreateKernel(prog, "inc", &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { N = 1 << 16 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int) * N, NULL, &err);
    int zero = 0;
    cl_command_queue q[3];
    for (int i = 0; i < 3; i++) {
        q[i] = clCreateCommandQueueWithProperties(ctx, sub[i], NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    assert_int_equal(clEnqueueFillBuffer(q[0], buf, &zero, sizeof zero, 0, sizeof(int) * N, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q[0]), CL_SUCCESS);
    clSetKernelArg(inc, 0, sizeof buf, &buf);
    size_t global = N, local = 64;
    for (int round = 0; round < 6; round++) {
        /* clFinish runs the launch on this thread, or waits for the queue's thread */
        assert_int_equal(clEnqueueNDRangeKernel(q[round % 3], inc, 1, NULL, &global, &local, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clFinish(q[round % 3]), CL_SUCCESS);
        assert_int_equal(allowed_cpus("/proc/thread-self/status", after, sizeof after), cpus);
        assert_string_equal(after, before);   /* the application thread's binding is its own again */
    }
    /* an application thread on one CPU: on a sub-device's core it runs the sub-device's
     * commands itself, elsewhere it waits for the queue's thread; either way it stays where it
     * is, and every launch runs once */
    cpu_set_t mine, one;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    int tried = 0, launches = 6;
    for (int cpu = 0; cpu < CPU_SETSIZE && tried < 2; cpu++) {
        if (!CPU_ISSET(cpu, &mine))
            continue;
        tried++;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
        for (int round = 0; round < 20; round++, launches++) {
            assert_int_equal(clEnqueueNDRangeKernel(q[round % 2], inc, 1, NULL, &global, &local, 0, NULL, NULL),
                             CL_SUCCESS);
            assert_int_equal(clFinish(q[round % 2]), CL_SUCCESS);
        }
        assert_int_equal(allowed_cpus("/proc/thread-self/status", after, sizeof after), 1);
        assert_int_equal(atoi(after), cpu);
        assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    }
    int *out = malloc(sizeof(int) * N);
    assert_int_equal(clEnqueueReadBuffer(q[2], buf, CL_TRUE, 0, sizeof(int) * N, out, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (out[i] != launches)
            fail_msg("out[%d] = %d, not %d", i, out[i], launches);
    free(out);
    /* the queues' threads bind themselves to their sub-device's cores when they start (those
     * of the one-unit sub-devices to one CPU); the two-unit sub-device has one worker, pinned */
    int pinned = 0, total = 0;
    for (int tries = 0; tries < 200; tries++) {
        pinned_threads("weft-queue-", &pinned, &total);
        if (pinned >= 2)
            break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    assert_true(pinned >= 2);
    pinned_threads_settled("weft-sub-", 1, &pinned, &total);   /* the earlier tests' are gone */
    assert_int_equal(total, 1);
    assert_int_equal(pinned, 1);
    for (int i = 0; i < 3; i++)
        clReleaseCommandQueue(q[i]);
    clReleaseMemObject(buf);
    clReleaseKernel(inc);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    release_all(sub, 3);
    /* the sub-devices are gone with their queues: so are their workers */
    pinned_threads_settled("weft-sub-", 0, &pinned, &total);
    assert_int_equal(total, 0);
}

int main(void)
{
    setenv("WEFT_NUM_THREADS", "4", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equally),
        cmocka_unit_test(test_equally_errors),
        cmocka_unit_test(test_by_counts),
        cmocka_unit_test(test_by_affinity_domain),
        cmocka_unit_test(test_context_of_subdevices_and_parent),
        cmocka_unit_test(test_launches_on_a_subdevice),
        cmocka_unit_test(test_threads_are_pinned_to_the_subdevice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
