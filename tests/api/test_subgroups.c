/* tests/api/test_subgroups.c — the sub-group queries, clGetKernelSubGroupInfo (and the refused
 * clGetKernelSubGroupInfoKHR), through the ICD loader: every error the specification lists, in
 * its order, and values that agree with each other and with what a launch then sees
 * (get_sub_group_size). The sub-group size is
 * whatever the device reports (the vectorizer's W lanes, or 1 with WEFT_VECTORIZE=off), so
 * the checks are relations, not constants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <CL/cl_ext.h>

#include "weft_test.h"

static const char *src =
    "kernel void sg(global uint *out) {\n"
    "  out[get_global_id(0)] = get_sub_group_size() * 1000 + sub_group_reduce_add(1u);\n"
    "}\n"
    "__attribute__((reqd_work_group_size(32, 1, 1)))\n"
    "kernel void sg_fixed(global uint *out) { out[get_global_id(0)] = get_num_sub_groups(); }\n"
    /* a varying vector element at a varying index: the vectorizer keeps this kernel scalar,
     * so its sub-groups are one work-item whatever the local size (an int16, which is never
     * split into components before the vectorizer: compiler/scalarize.h; split, the index
     * would become selects, which vectorize) */
    "kernel void sg_scalar(global int *out, global const int *in) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int16 v = vload16(g, in);\n"
    "  out[g] = v[in[g] & 15] + sub_group_reduce_add(1) * 1000;\n"
    "}\n";

struct env {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel sg, fixed, scalar;
};

static int setup(void **state)
{
    static struct env e;
    cl_int err;
    e.device = weft_test_device();
    if (!e.device)
        return -1;
    e.context = clCreateContext(NULL, 1, &e.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    e.queue = clCreateCommandQueueWithProperties(e.context, e.device, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    e.program = clCreateProgramWithSource(e.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS || clBuildProgram(e.program, 0, NULL, "-cl-std=CL3.0", NULL, NULL) != CL_SUCCESS)
        return -1;
    e.sg = clCreateKernel(e.program, "sg", &err);
    e.fixed = clCreateKernel(e.program, "sg_fixed", &err);
    e.scalar = clCreateKernel(e.program, "sg_scalar", &err);
    if (!e.sg || !e.fixed || !e.scalar)
        return -1;
    *state = &e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    clReleaseKernel(e->sg);
    clReleaseKernel(e->fixed);
    clReleaseKernel(e->scalar);
    clReleaseProgram(e->program);
    clReleaseCommandQueue(e->queue);
    clReleaseContext(e->context);
    return 0;
}

static size_t query(cl_kernel k, cl_kernel_sub_group_info q, size_t nlocal, const size_t *local)
{
    size_t v = 0, ret = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, NULL, q, nlocal * sizeof(size_t), local, sizeof v, &v, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, sizeof v);
    return v;
}

static void test_errors(void **state)
{
    struct env *e = *state;
    size_t local[4] = {64, 1, 1, 1}, v = 0, three[3];
    cl_kernel_sub_group_info q = CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE;
    assert_int_equal(clGetKernelSubGroupInfo((cl_kernel)e->program, e->device, q, sizeof(size_t), local, sizeof v, &v,
                                             NULL),
                     CL_INVALID_KERNEL);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, (cl_device_id)e->context, q, sizeof(size_t), local, sizeof v, &v,
                                             NULL),
                     CL_INVALID_DEVICE);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, 0x1234, 0, NULL, sizeof v, &v, NULL), CL_INVALID_VALUE);
    /* the NDRange queries: 1 to 3 size_t, non-NULL, no zero, within the work-group limit */
    for (int k = 0; k < 2; k++) {
        q = k ? CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE : CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE;
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof(size_t), NULL, sizeof v, &v, NULL),
                         CL_INVALID_VALUE);
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, 0, local, sizeof v, &v, NULL), CL_INVALID_VALUE);
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, 5, local, sizeof v, &v, NULL), CL_INVALID_VALUE);
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, 4 * sizeof(size_t), local, sizeof v, &v, NULL),
                         CL_INVALID_VALUE);
        size_t zero[2] = {64, 0};
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof zero, zero, sizeof v, &v, NULL),
                         CL_INVALID_VALUE);
        size_t huge[2] = {4096, 4096};
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof huge, huge, sizeof v, &v, NULL),
                         CL_INVALID_VALUE);
        /* the required work-group size limits the fixed kernel */
        size_t more[1] = {64};
        assert_int_equal(clGetKernelSubGroupInfo(e->fixed, e->device, q, sizeof more, more, sizeof v, &v, NULL),
                         CL_INVALID_VALUE);
        /* a result that does not fit */
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof(size_t), local, sizeof v - 1, &v, NULL),
                         CL_INVALID_VALUE);
    }
    /* CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: one size_t in, 1 to 3 size_t out */
    q = CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT;
    size_t n = 2;
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof n, NULL, sizeof three, three, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, 2 * sizeof n, &n, sizeof three, three, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof n, &n, 4 * sizeof(size_t), local, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, q, sizeof n, &n, sizeof n + 1, three, NULL),
                     CL_INVALID_VALUE);
    /* the other two: a result that does not fit */
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 4, &v, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, e->device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, 4, &v, NULL),
                     CL_INVALID_VALUE);
    /* sizes alone */
    size_t ret = 0;
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, 0, NULL, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, sizeof(size_t));
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof n, &n,
                                             2 * sizeof(size_t), three, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, 2 * sizeof(size_t));
}

static void test_values(void **state)
{
    struct env *e = *state;
    size_t l64[1] = {64};
    size_t m = query(e->sg, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 1, l64);
    assert_true(m >= 1 && m <= 64 && (m & (m - 1)) == 0);
    const char *vec = getenv("WEFT_VECTORIZE");
    if (vec && !strcmp(vec, "off"))
        assert_int_equal(m, 1);
    assert_int_equal(query(e->sg, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 1, l64), 64 / m);
    /* a 2-D size whose rows are not whole sub-groups has sub-groups of one work-item */
    size_t l2[2] = {m > 1 ? m + m / 2 : 3, 4};
    size_t m2 = query(e->sg, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 2, l2);
    assert_true(m2 == 1 || l2[0] % m2 == 0);
    assert_int_equal(query(e->sg, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 2, l2), (l2[0] * 4 + m2 - 1) / m2);
    /* a 1-D size that is not a multiple: the last sub-group is short */
    size_t l1[1] = {m * 2 + 1};
    assert_int_equal(query(e->sg, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 1, l1), m == 1 ? 1 : m);
    assert_int_equal(query(e->sg, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 1, l1), m == 1 ? l1[0] : 3);

    /* a local size for 3 sub-groups, in 1, 2 and 3 dimensions: the count it gives back is 3 */
    for (size_t dims = 1; dims <= 3; dims++) {
        size_t want = 3, out[3] = {0, 0, 0}, ret = 0;
        assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof want,
                                                 &want, dims * sizeof(size_t), out, &ret),
                         CL_SUCCESS);
        assert_int_equal(ret, dims * sizeof(size_t));
        assert_int_equal(out[0], 3 * m);
        for (size_t d = 1; d < dims; d++)
            assert_int_equal(out[d], 1);
        assert_int_equal(query(e->sg, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, dims, out), 3);
    }
    /* more sub-groups than work-items fit: zeros */
    size_t too_many = 4097, out2[2] = {7, 7};
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof too_many,
                                             &too_many, sizeof out2, out2, NULL),
                     CL_SUCCESS);
    assert_int_equal(out2[0], 0);
    assert_int_equal(out2[1], 0);

    /* limits: any work-group size for sg (sub-groups of one are possible), the required one's
     * count for sg_fixed */
    size_t wg = 0, v = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(e->sg, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                     CL_SUCCESS);
    assert_int_equal(v, wg);
    cl_uint dev_max = 0;
    assert_int_equal(clGetDeviceInfo(e->device, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof dev_max, &dev_max, NULL), CL_SUCCESS);
    assert_true(v <= dev_max);
    size_t l32[1] = {32};
    size_t mf = query(e->fixed, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 1, l32);
    assert_int_equal(clGetKernelSubGroupInfo(e->fixed, NULL, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                     CL_SUCCESS);
    assert_int_equal(v, 32 / mf);
    assert_int_equal(clGetKernelSubGroupInfo(e->sg, NULL, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof v, &v, NULL),
                     CL_SUCCESS);
    assert_int_equal(v, 0);

    /* a kernel the vectorizer cannot widen: sub-groups of one */
    assert_int_equal(query(e->scalar, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 1, l64), 1);
}

/* What was reported is what the launch uses. */
static void test_launch_agrees(void **state)
{
    struct env *e = *state;
    static const size_t sizes[] = {64, 20, 7};
    cl_int err;
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t l[1] = {sizes[t]}, g[1] = {sizes[t] * 3};
        size_t m = query(e->sg, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 1, l);
        cl_mem out = clCreateBuffer(e->context, CL_MEM_READ_WRITE, g[0] * sizeof(cl_uint), NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clSetKernelArg(e->sg, 0, sizeof out, &out), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(e->queue, e->sg, 1, NULL, g, l, 0, NULL, NULL), CL_SUCCESS);
        cl_uint *o = malloc(g[0] * sizeof *o);
        assert_int_equal(clEnqueueReadBuffer(e->queue, out, CL_TRUE, 0, g[0] * sizeof *o, o, 0, NULL, NULL), CL_SUCCESS);
        for (size_t i = 0; i < g[0]; i++) {
            size_t lin = i % l[0], first = lin / m * m, size = l[0] - first < m ? l[0] - first : m;
            if (o[i] != size * 1000 + size)
                fail_msg("local %zu, M %zu: work-item %zu got %u, want %zu", l[0], m, i, o[i], size * 1001);
        }
        free(o);
        clReleaseMemObject(out);
    }
    /* the scalar kernel reports 1 and runs sub-groups of one */
    size_t l[1] = {64}, g[1] = {64};
    cl_mem out = clCreateBuffer(e->context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
    int in[64 * 16];
    for (int i = 0; i < 64 * 16; i++)
        in[i] = i;
    cl_mem bin = clCreateBuffer(e->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    assert_int_equal(clSetKernelArg(e->scalar, 0, sizeof out, &out), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(e->scalar, 1, sizeof bin, &bin), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(e->queue, e->scalar, 1, NULL, g, l, 0, NULL, NULL), CL_SUCCESS);
    int o[64];
    assert_int_equal(clEnqueueReadBuffer(e->queue, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(o[i], in[16 * i + (in[i] & 15)] + 1000);
    clReleaseMemObject(out);
    clReleaseMemObject(bin);
}

/* The device does not report cl_khr_subgroups (no independent forward progress): its entry
 * point, which the ICD loader offers for every platform, refuses. */
static void test_khr_entry_point_refused(void **state)
{
    struct env *e = *state;
    size_t l[1] = {64}, v = 0;
    assert_int_equal(clGetKernelSubGroupInfoKHR(e->sg, e->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
                                                sizeof l, l, sizeof v, &v, NULL),
                     CL_INVALID_OPERATION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_launch_agrees),
        cmocka_unit_test(test_khr_entry_point_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
