/* tests/api/test_ndrange.c — clEnqueueNDRangeKernel and clEnqueueTask through the ICD loader:
 * the specification's error list (queue, kernel, context, arguments, work_dim, global size and
 * offset, local size against reqd_work_group_size / CL_KERNEL_WORK_GROUP_SIZE / uniformity
 * (required for OpenCL C 1.2; an OpenCL C 3.0 program runs the same ranges non-uniformly),
 * __local memory, wait lists), empty NDRanges that still complete their event, the automatic
 * local size (uniform, every work-item exactly once), argument snapshots taken at enqueue,
 * clEnqueueTask as a 1x1x1 NDRange, many work-groups using __local memory at once, and two
 * queues launching from two threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>

#include "weft_test.h"

static struct weft_test_env env;
static cl_context other_context;
static cl_program program;

static const char *src =
    /* counts[linear global id] += 1; info = local/num-groups facts of work-item 0 */
    "size_t lin_id(void) {\n"
    "  return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +\n"
    "          (get_global_id(1) - get_global_offset(1))) * get_global_size(0) +\n"
    "         (get_global_id(0) - get_global_offset(0));\n"
    "}\n"
    "kernel void count(global int *counts, global ulong *info) {\n"
    "  size_t lin = lin_id();\n"
    "  atomic_inc(&counts[lin]);\n"
    "  if (lin == 0) {\n"
    "    for (uint d = 0; d < 3; d++) {\n"
    "      info[d] = get_local_size(d);\n"
    "      info[3 + d] = get_num_groups(d);\n"
    "      info[6 + d] = get_global_size(d);\n"
    "    }\n"
    "    info[9] = get_work_dim();\n"
    "  }\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
    "kernel void fixed(global int *counts) {\n"
    "  atomic_inc(&counts[lin_id()]);\n"
    "  if (lin_id() == 0) counts[0] += 1000 * (int)get_local_size(0) + 100 * (int)get_local_size(1);\n"
    "}\n"
    "kernel void setval(global int *out, int v) { out[get_global_id(0)] = v; }\n"
    /* per-group tree reduction in __local memory (static and argument): wrong if two
     * threads running work-groups at once ever shared an arena */
    "kernel void groupsum(global const int *in, global int *out, local int *dyn) {\n"
    "  local int st[64];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  st[l] = in[get_global_id(0)]; dyn[l] = 2 * in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    if (l < s) { st[l] += st[l + s]; dyn[l] += dyn[l + s]; }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) { out[2 * get_group_id(0)] = st[0]; out[2 * get_group_id(0) + 1] = dyn[0]; }\n"
    "}\n"
    "kernel void withlocal(global int *out, local int *scratch) {\n"
    "  local int tmp[2048];\n"
    "  tmp[get_local_id(0)] = 1; scratch[get_local_id(0)] = 2;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tmp[0] + scratch[0];\n"
    "}\n";

static int setup(void **state)
{
    if (weft_test_env_open(&env, 0) != 0)
        return -1;
    cl_int err;
    other_context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    program = weft_test_build(&env, src, NULL);
    return program ? 0 : -1;
}

static int teardown(void **state)
{
    if (program)
        clReleaseProgram(program);
    if (other_context)
        clReleaseContext(other_context);
    weft_test_env_close(&env);
    return 0;
}

static cl_kernel make_kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(k);
    return k;
}

static cl_mem make_buffer(size_t size)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, size, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_int zero = 0;
    assert_int_equal(clEnqueueFillBuffer(env.queue, m, &zero, sizeof zero, 0, size, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    return m;
}

/* A `count` kernel with fresh counts (n ints) and info (10 ulongs) buffers. */
struct count_launch {
    cl_kernel k;
    cl_mem counts, info;
    size_t n;
};

static void count_open(struct count_launch *c, size_t n)
{
    c->n = n;
    c->k = make_kernel("count");
    c->counts = make_buffer(n * sizeof(cl_int));
    c->info = make_buffer(10 * sizeof(cl_ulong));
    assert_int_equal(clSetKernelArg(c->k, 0, sizeof(cl_mem), &c->counts), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(c->k, 1, sizeof(cl_mem), &c->info), CL_SUCCESS);
}

static void count_close(struct count_launch *c)
{
    clReleaseMemObject(c->counts);
    clReleaseMemObject(c->info);
    clReleaseKernel(c->k);
}

/* Every one of the first `n` work-items ran exactly once (and nothing else was counted). */
static void assert_each_once(struct count_launch *c, size_t n)
{
    cl_int *h = malloc(c->n * sizeof(cl_int));
    assert_non_null(h);
    assert_int_equal(clEnqueueReadBuffer(env.queue, c->counts, CL_TRUE, 0, c->n * sizeof(cl_int), h, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 0; i < c->n; i++)
        if (h[i] != (i < n ? 1 : 0))
            fail_msg("work-item %zu ran %d times (expected %d)", i, h[i], i < n ? 1 : 0);
    free(h);
}

/* ---- the error list, in the specification's order ---------------------------------------- */

static void test_invalid_queue_kernel_context(void **state)
{
    struct count_launch c;
    count_open(&c, 64);
    size_t g = 64;
    assert_int_equal(clEnqueueNDRangeKernel(NULL, c.k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueNDRangeKernel((cl_command_queue)c.k, c.k, 1, NULL, &g, NULL, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, NULL, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, (cl_kernel)c.counts, 1, NULL, &g, NULL, 0, NULL, NULL),
                     CL_INVALID_KERNEL);
    assert_int_equal(clEnqueueTask(NULL, c.k, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueTask(env.queue, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);

    /* a queue of another context */
    cl_int err;
    cl_command_queue oq = clCreateCommandQueueWithProperties(other_context, env.device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(oq, c.k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueTask(oq, c.k, 0, NULL, NULL), CL_INVALID_CONTEXT);
    clReleaseCommandQueue(oq);

    /* a released kernel */
    cl_kernel dead = make_kernel("setval");
    clReleaseKernel(dead);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, dead, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    count_close(&c);
}

static void test_kernel_args_not_set(void **state)
{
    cl_kernel k = make_kernel("setval");
    size_t g = 16;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    cl_mem out = make_buffer(16 * sizeof(cl_int));
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    assert_int_equal(clEnqueueTask(env.queue, k, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    cl_int v = 5;
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void test_work_dim_and_global(void **state)
{
    struct count_launch c;
    count_open(&c, 64);
    size_t g[4] = {4, 4, 2, 2};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 0, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 4, NULL, g, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);

    /* global + offset beyond SIZE_MAX */
    size_t big_off[3] = {SIZE_MAX - 2, 0, 0};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, big_off, g, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
    size_t off2[3] = {0, SIZE_MAX, 0};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 2, off2, g, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
    /* the largest offset that still fits is fine to enqueue (the kernel is never run here:
     * the launch is empty in dimension 2) */
    size_t fits[3] = {SIZE_MAX - 4, 0, 0};
    size_t g_empty[3] = {4, 1, 0};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 3, fits, g_empty, NULL, 0, NULL, NULL), CL_SUCCESS);

    /* more work-items than a 64-bit count holds */
    size_t huge[3] = {SIZE_MAX / 2, 4, 1};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 2, NULL, huge, NULL, 0, NULL, NULL),
                     CL_INVALID_GLOBAL_WORK_SIZE);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    assert_each_once(&c, 0);
    count_close(&c);
}

static void test_local_size_errors(void **state)
{
    struct count_launch c;
    count_open(&c, 4096);
    size_t max_wg = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(c.k, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL),
                     CL_SUCCESS);
    size_t max_items[3];
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof max_items, max_items, NULL),
                     CL_SUCCESS);

    /* product above CL_KERNEL_WORK_GROUP_SIZE */
    size_t g1[1] = {(max_wg + 1) * 2}, l1[1] = {max_wg + 1};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, g1, l1, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    size_t g2[2] = {max_wg * 2, 4}, l2[2] = {max_wg, 2};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* a zero local size */
    size_t g3[2] = {16, 16}, l3[2] = {4, 0};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 2, NULL, g3, l3, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* global not a multiple of local: the device has non-uniform work-groups, but this program
     * is OpenCL C 1.2 (no -cl-std), which requires uniform ones */
    cl_bool nonuniform = CL_FALSE;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonuniform,
                                     &nonuniform, NULL), CL_SUCCESS);
    assert_int_equal(nonuniform, CL_TRUE);
    size_t g4[1] = {100}, l4[1] = {16};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, g4, l4, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    size_t g5[3] = {8, 9, 4}, l5[3] = {8, 2, 1};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 3, NULL, g5, l5, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* a dimension above CL_DEVICE_MAX_WORK_ITEM_SIZES, when the device has such a limit
     * below the work-group size (then the product check cannot fire first) */
    for (cl_uint d = 0; d < 3; d++) {
        if (max_items[d] >= max_wg)
            continue;
        size_t g6[3] = {1, 1, 1}, l6[3] = {1, 1, 1};
        l6[d] = max_items[d] + 1;
        g6[d] = l6[d];
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 3, NULL, g6, l6, 0, NULL, NULL),
                         CL_INVALID_WORK_ITEM_SIZE);
    }
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    assert_each_once(&c, 0); /* nothing ran */
    count_close(&c);
}

/* The same ranges from an OpenCL C 3.0 program run, with remainder work-groups: every
 * work-item exactly once, get_local_size of work-item 0 the full size, get_num_groups rounded up. */
static void test_non_uniform_ranges_run_for_cl30(void **state)
{
    (void)state;
    cl_program p30 = weft_test_build(&env, src, "-cl-std=CL3.0");
    assert_non_null(p30);
    static const struct {
        cl_uint dim;
        size_t g[3], l[3];
    } cases[] = {{1, {100, 1, 1}, {16, 1, 1}}, {3, {8, 9, 4}, {8, 2, 1}}, {2, {5, 7, 1}, {8, 4, 1}}};
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        struct count_launch c;
        count_open(&c, cases[t].g[0] * cases[t].g[1] * cases[t].g[2]);
        clReleaseKernel(c.k);
        cl_int err;
        c.k = clCreateKernel(p30, "count", &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clSetKernelArg(c.k, 0, sizeof(cl_mem), &c.counts), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(c.k, 1, sizeof(cl_mem), &c.info), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, cases[t].dim, NULL, cases[t].g, cases[t].l, 0, NULL,
                                                NULL), CL_SUCCESS);
        assert_int_equal(clFinish(env.queue), CL_SUCCESS);
        assert_each_once(&c, c.n);
        cl_ulong info[10];
        assert_int_equal(clEnqueueReadBuffer(env.queue, c.info, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int d = 0; d < 3; d++) {
            size_t g = d < (int)cases[t].dim ? cases[t].g[d] : 1, l = d < (int)cases[t].dim ? cases[t].l[d] : 1;
            /* work-item 0 is in the first group: full size unless the dimension is one remainder group */
            assert_int_equal(info[d], g < l ? g : l);
            assert_int_equal(info[3 + d], (g + l - 1) / l);
            assert_int_equal(info[6 + d], g);
        }
        assert_int_equal(info[9], cases[t].dim);
        count_close(&c);
    }
    clReleaseProgram(p30);
}

static void test_reqd_work_group_size(void **state)
{
    cl_kernel k = make_kernel("fixed");
    cl_mem counts = make_buffer(64 * sizeof(cl_int));
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &counts), CL_SUCCESS);
    size_t g[2] = {16, 4};
    size_t wrong[2] = {4, 4}, wrong1[1] = {8};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, g, wrong, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* work_dim 1 makes the local size 8x1x1, which is not 8x2x1 */
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, g, wrong1, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    assert_int_equal(clEnqueueTask(env.queue, k, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    /* NULL local size with a global size the required size does not divide */
    size_t g_bad[2] = {12, 4};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, g_bad, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);

    /* NULL local size: the runtime must use 8x2x1 */
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, g, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int h[64];
    assert_int_equal(clEnqueueReadBuffer(env.queue, counts, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(h[0], 1 + 8000 + 200);
    for (int i = 1; i < 64; i++)
        assert_int_equal(h[i], 1);
    /* the exact size is accepted */
    size_t right[2] = {8, 2};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, g, right, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clReleaseMemObject(counts);
    clReleaseKernel(k);
}

static void test_local_memory_too_large(void **state)
{
    cl_kernel k = make_kernel("withlocal");
    cl_mem out = make_buffer(64 * sizeof(cl_int));
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    cl_ulong local_mem = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL),
                     CL_SUCCESS);
    size_t g = 64, l = 16;
    /* static 8 KiB + this argument exceed the device's local memory */
    assert_int_equal(clSetKernelArg(k, 1, (size_t)local_mem, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    /* a size that fits runs */
    assert_int_equal(clSetKernelArg(k, 1, 16 * sizeof(cl_int), NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
    cl_int h[64];
    assert_int_equal(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(h[i], 3);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void test_wait_list_errors(void **state)
{
    struct count_launch c;
    count_open(&c, 16);
    size_t g = 16;
    cl_int err;
    cl_event bogus = (cl_event)c.counts;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, &g, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event ue = clCreateUserEvent(env.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, &g, NULL, 0, &ue, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, &g, NULL, 1, &bogus, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    cl_event other = clCreateUserEvent(other_context, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, &g, NULL, 1, &other, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueTask(env.queue, c.k, 1, &other, NULL), CL_INVALID_CONTEXT);
    clSetUserEventStatus(other, CL_COMPLETE);
    clReleaseEvent(other);
    clSetUserEventStatus(ue, CL_COMPLETE);
    clReleaseEvent(ue);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    assert_each_once(&c, 0);
    count_close(&c);
}

/* ---- what runs ----------------------------------------------------------------------------- */

static void test_empty_ndrange_completes(void **state)
{
    struct count_launch c;
    count_open(&c, 16);
    cl_int err;
    cl_event ue = clCreateUserEvent(env.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t zero[2] = {16, 0};
    cl_event e1, e2;
    /* waits for its dependencies, then completes without running anything */
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 2, NULL, zero, NULL, 1, &ue, &e1), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 1, NULL, NULL, NULL, 0, NULL, &e2), CL_SUCCESS);
    cl_int status = 0;
    assert_int_equal(clGetEventInfo(e1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_true(status > CL_COMPLETE); /* still waiting for the user event */
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(e1, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_NDRANGE_KERNEL);
    assert_int_equal(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e1), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e2), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_int_equal(status, CL_COMPLETE);
    assert_each_once(&c, 0);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseEvent(ue);
    count_close(&c);
}

static void test_automatic_local_size(void **state)
{
    static const struct { cl_uint dim; size_t g[3]; } cases[] = {
        {1, {1, 1, 1}},    {1, {7, 1, 1}},     {1, {97, 1, 1}},   {1, {1000, 1, 1}}, {1, {4096 * 3, 1, 1}},
        {1, {65536, 1, 1}}, {2, {33, 17, 1}},  {2, {256, 256, 1}}, {2, {1, 640, 1}}, {3, {6, 10, 14}},
        {3, {64, 2, 3}},
    };
    size_t max_wg = 0;
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        size_t n = cases[t].g[0] * cases[t].g[1] * cases[t].g[2];
        struct count_launch c;
        count_open(&c, n);
        if (!max_wg)
            assert_int_equal(clGetKernelWorkGroupInfo(c.k, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg,
                                                      &max_wg, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, cases[t].dim, NULL, cases[t].g, NULL, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_each_once(&c, n);
        cl_ulong info[10];
        assert_int_equal(clEnqueueReadBuffer(env.queue, c.info, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(info[9], cases[t].dim);
        size_t product = 1;
        for (int d = 0; d < 3; d++) {
            size_t g = d < (int)cases[t].dim ? cases[t].g[d] : 1;
            if (info[d] == 0 || g % info[d] != 0 || info[3 + d] != g / info[d] || info[6 + d] != g)
                fail_msg("case %zu dim %d: global %zu, local %llu, groups %llu", t, d, g,
                         (unsigned long long)info[d], (unsigned long long)info[3 + d]);
            product *= info[d];
        }
        assert_true(product <= max_wg);
        count_close(&c);
    }
}

static void test_explicit_sizes_and_offsets_run_once(void **state)
{
    struct count_launch c;
    count_open(&c, 24 * 8 * 2);
    size_t g[3] = {24, 8, 2}, l[3] = {8, 4, 1}, off[3] = {3, 5, 7};
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, c.k, 3, off, g, l, 0, NULL, NULL), CL_SUCCESS);
    assert_each_once(&c, 24 * 8 * 2);
    cl_ulong info[10];
    assert_int_equal(clEnqueueReadBuffer(env.queue, c.info, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(info[0], 8);
    assert_int_equal(info[1], 4);
    assert_int_equal(info[2], 1);
    assert_int_equal(info[3], 3);
    assert_int_equal(info[4], 2);
    assert_int_equal(info[5], 2);
    count_close(&c);
}

static void test_args_snapshot_at_enqueue(void **state)
{
    cl_kernel k = make_kernel("setval");
    cl_mem a = make_buffer(32 * sizeof(cl_int)), b = make_buffer(32 * sizeof(cl_int));
    cl_int err;
    cl_event gate = clCreateUserEvent(env.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_int v = 11;
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &a), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    size_t g = 32;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 1, &gate, NULL), CL_SUCCESS);
    /* change both arguments while the launch waits: it must still use a and 11 */
    v = 22;
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    cl_int ha[32], hb[32];
    assert_int_equal(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, sizeof ha, ha, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, sizeof hb, hb, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(ha[i], 11);
        assert_int_equal(hb[i], 0);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseEvent(gate);
    clReleaseKernel(k);
}

static void test_enqueue_task(void **state)
{
    struct count_launch c;
    count_open(&c, 4);
    cl_event e;
    assert_int_equal(clEnqueueTask(env.queue, c.k, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_NDRANGE_KERNEL);
    clReleaseEvent(e);
    assert_each_once(&c, 1);
    cl_ulong info[10];
    assert_int_equal(clEnqueueReadBuffer(env.queue, c.info, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL), CL_SUCCESS);
    for (int d = 0; d < 9; d++)
        assert_int_equal(info[d], 1);
    assert_int_equal(info[9], 1);
    count_close(&c);
}

static void test_many_groups_local_memory(void **state)
{
    enum { L = 64, G = 997 };
    cl_kernel k = make_kernel("groupsum");
    cl_int *in = malloc(sizeof(cl_int) * L * G), *out = malloc(sizeof(cl_int) * 2 * G);
    assert_non_null(in);
    assert_non_null(out);
    for (int i = 0; i < L * G; i++)
        in[i] = (i * 7919) % 1000 - 500;
    cl_int err;
    cl_mem din = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cl_int) * L * G, in, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem dout = make_buffer(sizeof(cl_int) * 2 * G);
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &din), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), &dout), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof(cl_int) * L, NULL), CL_SUCCESS);
    size_t g = (size_t)L * G, l = L;
    for (int rep = 0; rep < 3; rep++) {
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(env.queue, dout, CL_TRUE, 0, sizeof(cl_int) * 2 * G, out, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int grp = 0; grp < G; grp++) {
            int want = 0;
            for (int i = 0; i < L; i++)
                want += in[grp * L + i];
            if (out[2 * grp] != want || out[2 * grp + 1] != 2 * want)
                fail_msg("rep %d group %d: sums %d and %d, expected %d and %d", rep, grp, out[2 * grp],
                         out[2 * grp + 1], want, 2 * want);
        }
    }
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    free(in);
    free(out);
}

/* Two host threads, each with its own in-order queue, launch at the same time: the pool runs
 * their launches one at a time and every work-item of every launch runs exactly once. */
struct launcher {
    cl_command_queue queue;
    struct count_launch c;
    int launches;
    cl_int err;
};

static void *launcher_main(void *arg)
{
    struct launcher *L = arg;
    size_t g[2] = {40, 25};
    for (int i = 0; i < L->launches && L->err == CL_SUCCESS; i++)
        L->err = clEnqueueNDRangeKernel(L->queue, L->c.k, 2, NULL, g, NULL, 0, NULL, NULL);
    if (L->err == CL_SUCCESS)
        L->err = clFinish(L->queue);
    return NULL;
}

static void test_two_queues_launch_concurrently(void **state)
{
    struct launcher L[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        cl_int err;
        memset(&L[i], 0, sizeof L[i]);
        L[i].queue = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        count_open(&L[i].c, 1000);
        L[i].launches = 60;
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, launcher_main, &L[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(L[i].err, CL_SUCCESS);
        cl_int h[1000];
        assert_int_equal(clEnqueueReadBuffer(L[i].queue, L[i].c.counts, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int j = 0; j < 1000; j++)
            if (h[j] != L[i].launches)
                fail_msg("queue %d: work-item %d ran %d times, expected %d", i, j, h[j], L[i].launches);
        count_close(&L[i].c);
        clReleaseCommandQueue(L[i].queue);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid_queue_kernel_context),
        cmocka_unit_test(test_kernel_args_not_set),
        cmocka_unit_test(test_work_dim_and_global),
        cmocka_unit_test(test_local_size_errors),
        cmocka_unit_test(test_non_uniform_ranges_run_for_cl30),
        cmocka_unit_test(test_reqd_work_group_size),
        cmocka_unit_test(test_local_memory_too_large),
        cmocka_unit_test(test_wait_list_errors),
        cmocka_unit_test(test_empty_ndrange_completes),
        cmocka_unit_test(test_automatic_local_size),
        cmocka_unit_test(test_explicit_sizes_and_offsets_run_once),
        cmocka_unit_test(test_args_snapshot_at_enqueue),
        cmocka_unit_test(test_enqueue_task),
        cmocka_unit_test(test_many_groups_local_memory),
        cmocka_unit_test(test_two_queues_launch_concurrently),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
