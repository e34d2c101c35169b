/* tests/e2e/test_kernels_nonuniform.c — non-uniform work-groups (OpenCL 3.0 §3.2.1, the
 * clEnqueueNDRangeKernel rules) end to end, for a program built with -cl-std=CL3.0:
 *   - every work-item function recorded by each work-item of 1-, 2- and 3-dimensional NDRanges
 *     whose global size is not a multiple of the local size in one, several or all dimensions,
 *     with and without a global offset, against values computed here: the last work-group of a
 *     dimension has global % local items (get_local_size), get_enqueued_local_size is the
 *     local size given, get_num_groups rounds up, ids and linear ids as the specification says;
 *   - a per-group reduction with barriers in __local memory (an argument, and a static array)
 *     over non-uniform ranges: each group, remainder groups included, sums exactly its items;
 *   - a kernel whose loop votes breadth-first (column-major sgemv): under WEFT_SCHEDULE=auto the
 *     full groups are profiled between two schedules and the remainder group runs as well;
 *     every group runs once with all its work-items, launch after launch;
 *   - a NULL local size with prime global sizes: the runtime's choice is consistent everywhere,
 *     and along dimension 0 a multiple of CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE;
 *   - reqd_work_group_size with a global size that it does not divide;
 *   - one command and one event for a whole non-uniform NDRange (profiling info in order);
 *   - CL_INVALID_WORK_GROUP_SIZE where uniform work-groups are required: OpenCL C 1.x programs
 *     (-cl-std=CL1.2, and no -cl-std at all), -cl-uniform-work-group-size at compile time and
 *     when building from a binary, a link of an OpenCL C 1.2 object. */
#include "test_kernels_harness.h"

#include <stdlib.h>
#include <string.h>

enum { REC = 24 }; /* values recorded per work-item */

static const char *source =
    "#define ALL3(i, f) r[i] = (uint)f(0); r[(i) + 1] = (uint)f(1); r[(i) + 2] = (uint)f(2);\n"
    "kernel void record(global uint *out) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  global uint *r = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 24;\n"
    "  ALL3(0, get_global_id)\n"
    "  ALL3(3, get_local_id)\n"
    "  ALL3(6, get_group_id)\n"
    "  ALL3(9, get_local_size)\n"
    "  ALL3(12, get_enqueued_local_size)\n"
    "  ALL3(15, get_num_groups)\n"
    "  r[18] = (uint)get_global_linear_id();\n"
    "  r[19] = (uint)get_local_linear_id();\n"
    "  r[20] = get_work_dim();\n"
    "  r[21] = (uint)(get_local_size(3) + get_enqueued_local_size(4) * 10 + get_num_groups(5) * 100 +\n"
    "                 get_group_id(3) * 1000);\n"
    /* a dimension that is not a constant (the selects of the lowering) */
    "  uint acc = 0;\n"
    "  for (uint k = 0; k < get_work_dim(); k++)\n"
    "    acc += (uint)(get_local_size(k) * (k + 1) + get_enqueued_local_size(k) * 1000 * (k + 1));\n"
    "  r[22] = acc;\n"
    "  r[23] = 0xC0DE;\n"
    "}\n"
    /* Tree reduction of each work-group's items (the group's real size, also for remainder
     * groups) through __local memory, one result per group in group-linear order. */
    "#define GROUP_SUM(tmp)                                                              \\\n"
    "  uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));       \\\n"
    "  uint lid = (uint)get_local_linear_id();                                           \\\n"
    "  tmp[lid] = in[get_global_linear_id()];                                            \\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);                                                     \\\n"
    "  for (uint s = 1; s < n; s <<= 1) {                                                \\\n"
    "    if ((lid & (2 * s - 1)) == 0 && lid + s < n) tmp[lid] += tmp[lid + s];          \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                   \\\n"
    "  }                                                                                 \\\n"
    "  size_t g = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)); \\\n"
    "  if (lid == 0) { out[2 * g] = tmp[0]; out[2 * g + 1] = (int)n; }\n"
    "kernel void group_sum(global const int *in, global int *out, local int *tmp) { GROUP_SUM(tmp) }\n"
    "kernel void group_sum_static(global const int *in, global int *out) {\n"
    "  local int tmp[256];\n"
    "  GROUP_SUM(tmp)\n"
    "}\n"
    /* column-major sgemv, no guard: a loop that votes breadth-first, so under WEFT_SCHEDULE=auto
     * the full groups are profiled between two schedules while the remainder group runs too */
    "kernel void sgemv(global const float *A, global const float *x, global float *y, int n,\n"
    "                  global int *ran) {\n"
    "  size_t i = get_global_id(0), m = get_global_size(0);\n"
    "  atomic_inc(&ran[get_group_id(0)]);\n"
    "  float s = 0.0f;\n"
    "  for (int j = 0; j < n; j++) s += A[i + j * m] * x[j];\n"
    "  y[i] = s;\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 4, 1)))\n"
    "kernel void reqd(global uint *out) {\n"
    "  size_t f = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[f] = (uint)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_enqueued_local_size(0) * 10000 +\n"
    "                  get_enqueued_local_size(1) * 1000);\n"
    "}\n";

/* The same kernel name for the programs that must require uniform work-groups (OpenCL C 1.x
 * has neither get_enqueued_local_size nor the linear ids): records the local size where
 * `record` records the enqueued one. */
static const char *source_cl12 =
    "kernel void record(global uint *out) {\n"
    "  out[(get_global_id(0) - get_global_offset(0)) * 24 + 12] = (uint)get_local_size(0);\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, "-cl-std=CL3.0");
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* The size of the work-group that holds index `i` of a dimension of global size g, local l. */
static size_t group_size_at(size_t i, size_t g, size_t l)
{
    return i / l < g / l ? l : g % l;
}

/* Launches `record` and checks every work-item's record against the specification's values.
 * `local` NULL: the runtime's choice, read back from the first record (its enqueued local
 * size), then checked for consistency everywhere; returns the enqueued local size used. */
static void check_record(cl_uint dim, const size_t *offset, const size_t *global, const size_t *local,
                         size_t used[3])
{
    size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    for (cl_uint k = 0; k < dim; k++) {
        g[k] = global[k];
        o[k] = offset ? offset[k] : 0;
    }
    size_t n = g[0] * g[1] * g[2];
    cl_uint *out = malloc(n * REC * sizeof *out);
    cl_mem bo = buf_poisoned(n * REC * sizeof *out);
    assert_int_equal(launch("record", dim, offset, global, local, KARGS(KARG(bo))), CL_SUCCESS);
    buf_read(bo, n * REC * sizeof *out, out);
    for (cl_uint k = 0; k < 3; k++)
        l[k] = local && k < dim ? local[k] : out[12 + k];
    for (cl_uint k = 0; k < 3; k++) {
        if (l[k] == 0 || (k >= dim && l[k] != 1))
            fail_msg("dim %u: enqueued local size %zu", k, l[k]);
        if (used)
            used[k] = l[k];
    }
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                const cl_uint *r = out + ((z * g[1] + y) * g[0] + x) * REC;
                size_t id[3] = {x, y, z}, ls[3], lid[3];
                cl_uint want[REC];
                cl_uint acc = 0;
                for (int k = 0; k < 3; k++) {
                    ls[k] = group_size_at(id[k], g[k], l[k]);
                    lid[k] = id[k] % l[k];
                    want[k] = (cl_uint)(id[k] + o[k]);
                    want[3 + k] = (cl_uint)lid[k];
                    want[6 + k] = (cl_uint)(id[k] / l[k]);
                    want[9 + k] = (cl_uint)ls[k];
                    want[12 + k] = (cl_uint)l[k];
                    want[15 + k] = (cl_uint)((g[k] + l[k] - 1) / l[k]);
                    if ((cl_uint)k < dim)
                        acc += (cl_uint)(ls[k] * (k + 1) + l[k] * 1000 * (k + 1));
                }
                want[18] = (cl_uint)(x + g[0] * (y + g[1] * z));
                want[19] = (cl_uint)(lid[0] + ls[0] * (lid[1] + ls[1] * lid[2]));
                want[20] = dim;
                want[21] = 1 + 1 * 10 + 1 * 100 + 0 * 1000; /* out-of-range dimensions */
                want[22] = acc;
                want[23] = 0xC0DE;
                for (int k = 0; k < REC; k++)
                    if (r[k] != want[k])
                        fail_msg("dim %u global %zux%zux%zu local %zux%zux%zu offset %zu,%zu,%zu at (%zu,%zu,%zu): "
                                 "value %d = %u, want %u",
                                 dim, g[0], g[1], g[2], l[0], l[1], l[2], o[0], o[1], o[2], x, y, z, k, r[k], want[k]);
            }
    clReleaseMemObject(bo);
    free(out);
}

static void test_1d_remainders(void **state)
{
    (void)state;
    static const size_t cases[][2] = {{10, 4}, {100, 16}, {5, 8}, {1000, 64}, {33, 32}, {257, 256}, {7, 3}};
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        size_t offset = 3 + t;
        check_record(1, NULL, &cases[t][0], &cases[t][1], NULL);
        check_record(1, &offset, &cases[t][0], &cases[t][1], NULL);
    }
}

static void test_2d_remainders(void **state)
{
    (void)state;
    /* remainder in x and y, only in y, only in x, only remainder groups */
    static const size_t cases[][4] = {{37, 23, 8, 4}, {16, 10, 16, 4}, {10, 16, 4, 16}, {5, 3, 8, 8}, {65, 3, 16, 2}};
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        size_t global[2] = {cases[t][0], cases[t][1]}, local[2] = {cases[t][2], cases[t][3]};
        size_t offset[2] = {1 + t, 2};
        check_record(2, NULL, global, local, NULL);
        check_record(2, offset, global, local, NULL);
    }
}

static void test_3d_remainders(void **state)
{
    (void)state;
    /* every combination of remainder dimensions in the first two; only z; none */
    static const size_t cases[][6] = {{13, 7, 5, 4, 2, 2}, {9, 9, 9, 4, 4, 4}, {8, 6, 5, 8, 3, 2}, {8, 6, 4, 4, 3, 2}};
    for (size_t t = 0; t < ARRAY_LEN(cases); t++) {
        size_t global[3] = {cases[t][0], cases[t][1], cases[t][2]}, local[3] = {cases[t][3], cases[t][4], cases[t][5]};
        size_t offset[3] = {4, 5 + t, 6};
        check_record(3, NULL, global, local, NULL);
        check_record(3, offset, global, local, NULL);
    }
}

/* Runs group_sum (`kernel`) over global/local and checks each group's sum and item count. */
static void check_group_sum(const char *kernel, cl_uint dim, const size_t *global, const size_t *local)
{
    size_t g[3] = {1, 1, 1}, l[3] = {1, 1, 1}, ng[3];
    for (cl_uint k = 0; k < dim; k++)
        g[k] = global[k], l[k] = local[k];
    size_t n = g[0] * g[1] * g[2], groups = 1;
    for (int k = 0; k < 3; k++) {
        ng[k] = (g[k] + l[k] - 1) / l[k];
        groups *= ng[k];
    }
    cl_int *in = malloc(n * sizeof *in), *out = malloc(groups * 2 * sizeof *out);
    long long *want = calloc(groups, sizeof *want);
    cl_int *count = calloc(groups, sizeof *count);
    for (size_t i = 0; i < n; i++)
        in[i] = (cl_int)(rng_next() % 1000) - 500;
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                size_t grp = x / l[0] + ng[0] * (y / l[1] + ng[1] * (z / l[2]));
                want[grp] += in[x + g[0] * (y + g[1] * z)];
                count[grp]++;
            }
    cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(groups * 2 * sizeof *out);
    cl_int err = strcmp(kernel, "group_sum")
                     ? launch(kernel, dim, NULL, global, local, KARGS(KARG(bi), KARG(bo)))
                     : launch(kernel, dim, NULL, global, local,
                              KARGS(KARG(bi), KARG(bo), KLOCAL(l[0] * l[1] * l[2] * sizeof(cl_int))));
    assert_int_equal(err, CL_SUCCESS);
    buf_read(bo, groups * 2 * sizeof *out, out);
    for (size_t i = 0; i < groups; i++)
        if (out[2 * i] != want[i] || out[2 * i + 1] != count[i])
            fail_msg("%s global %zux%zux%zu local %zux%zux%zu: group %zu sum %d of %d items, want %lld of %d",
                     kernel, g[0], g[1], g[2], l[0], l[1], l[2], i, out[2 * i], out[2 * i + 1], want[i], count[i]);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
    free(want);
    free(count);
}

static void test_reduction_with_barriers(void **state)
{
    (void)state;
    static const char *const kernels[] = {"group_sum", "group_sum_static"};
    for (size_t t = 0; t < ARRAY_LEN(kernels); t++) {
        size_t g1 = 1000, l1 = 64, g1b = 1000, l1b = 256;
        check_group_sum(kernels[t], 1, &g1, &l1);
        check_group_sum(kernels[t], 1, &g1b, &l1b);
        size_t g2[2] = {37, 23}, l2[2] = {8, 4};
        check_group_sum(kernels[t], 2, g2, l2);
        size_t g3[3] = {13, 7, 5}, l3[3] = {4, 2, 2};
        check_group_sum(kernels[t], 3, g3, l3);
    }
}

static void test_profiled_schedules_with_remainder(void **state)
{
    (void)state;
    enum { L = 64, M = 16 * L + 37, N = 24, GROUPS = 17 };
    float *A = malloc(sizeof(float) * M * N), x[N], *y = malloc(sizeof(float) * M);
    for (int i = 0; i < M * N; i++)
        A[i] = (float)((int)(rng_next() % 17) - 8);
    for (int j = 0; j < N; j++)
        x[j] = (float)((int)(rng_next() % 9) - 4);
    cl_mem bA = buf_new(sizeof(float) * M * N, A), bx = buf_new(sizeof x, x);
    int n = N;
    size_t global = M, local = L;
    /* several launches: profiled ones and, once decided, the winner's */
    for (int rep = 0; rep < 4; rep++) {
        cl_int ran[GROUPS];
        cl_mem by = buf_poisoned(sizeof(float) * M), bran = buf_new(sizeof ran, NULL);
        cl_int zero = 0;
        assert_int_equal(clEnqueueFillBuffer(env.queue, bran, &zero, sizeof zero, 0, sizeof ran, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(launch("sgemv", 1, NULL, &global, &local, KARGS(KARG(bA), KARG(bx), KARG(by), KARG(n), KARG(bran))),
                         CL_SUCCESS);
        buf_read(by, sizeof(float) * M, y);
        buf_read(bran, sizeof ran, ran);
        for (int g = 0; g < GROUPS; g++)
            if (ran[g] != (g < GROUPS - 1 ? L : M % L))
                fail_msg("launch %d: group %d ran %d work-items, want %d", rep, g, ran[g], g < GROUPS - 1 ? L : M % L);
        for (int i = 0; i < M; i++) {
            float want = 0.0f;
            for (int j = 0; j < N; j++)
                want += A[i + j * M] * x[j];
            if (y[i] != want) /* small integers: exact in any order */
                fail_msg("launch %d: y[%d] = %g, want %g", rep, i, y[i], want);
        }
        clReleaseMemObject(by);
        clReleaseMemObject(bran);
    }
    clReleaseMemObject(bA);
    clReleaseMemObject(bx);
    free(A);
    free(y);
}

static void test_null_local_size_prime_global(void **state)
{
    (void)state;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "record", &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t multiple = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                              sizeof multiple, &multiple, NULL), CL_SUCCESS);
    clReleaseKernel(k);
    assert_true(multiple >= 1);

    size_t used[3];
    size_t p1 = 1009, off1 = 2;
    check_record(1, NULL, &p1, NULL, used);
    /* not a divisor of the prime (1 or all of it): a vector-friendly size with a remainder */
    if (used[0] <= 1 || used[0] >= p1 || used[0] % multiple != 0)
        fail_msg("NULL local size for global 1009 chose %zu (preferred multiple %zu)", used[0], multiple);
    check_record(1, &off1, &p1, NULL, used);
    size_t p2[2] = {1009, 3}, off2[2] = {3, 4};
    check_record(2, off2, p2, NULL, used);
    if (used[0] <= 1 || used[0] >= p2[0] || used[0] % multiple != 0)
        fail_msg("NULL local size for global 1009x3 chose %zux%zu (preferred multiple %zu)", used[0], used[1],
                 multiple);
    /* rows shorter than a group: whichever choice, every value must be right */
    size_t p2b[2] = {101, 53};
    check_record(2, NULL, p2b, NULL, used);
    size_t p3[3] = {13, 11, 7};
    check_record(3, NULL, p3, NULL, used);
}

static void test_reqd_work_group_size_remainder(void **state)
{
    (void)state;
    size_t global[2] = {20, 10}, n = 20 * 10;
    size_t good[2] = {8, 4}, bad[2] = {4, 4};
    cl_uint *out = malloc(n * sizeof *out);
    for (int pass = 0; pass < 2; pass++) {
        cl_mem bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("reqd", 2, NULL, global, pass ? good : NULL, KARGS(KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t y = 0; y < 10; y++)
            for (size_t x = 0; x < 20; x++) {
                cl_uint want = (cl_uint)(group_size_at(x, 20, 8) * 100 + group_size_at(y, 10, 4) * 10 + 8 * 10000 +
                                         4 * 1000);
                if (out[y * 20 + x] != want)
                    fail_msg("reqd (%s local) at (%zu,%zu): %u, want %u", pass ? "given" : "NULL", x, y,
                             out[y * 20 + x], want);
            }
        clReleaseMemObject(bo);
    }
    cl_mem bo = buf_new(n * sizeof *out, NULL);
    assert_int_equal(launch("reqd", 2, NULL, global, bad, KARGS(KARG(bo))), CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(bo);
    free(out);
}

static void test_one_event_per_ndrange(void **state)
{
    (void)state;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "record", &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t global[3] = {13, 7, 5}, local[3] = {4, 2, 2}, n = 13 * 7 * 5;
    cl_uint *out = malloc(n * REC * sizeof *out);
    cl_mem bo = buf_poisoned(n * REC * sizeof *out);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS); /* the poison, before the kernel on `q` */
    assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
    cl_event ev = NULL;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 3, NULL, global, local, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    cl_int status = -1;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_int_equal(status, CL_COMPLETE);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_NDRANGE_KERNEL);
    cl_ulong t[4];
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        assert_int_equal(clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
    assert_true(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
    /* when the event completed, every work-item of every part had run */
    assert_int_equal(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, n * REC * sizeof *out, out, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i < n; i++)
        if (out[i * REC + 23] != 0xC0DE)
            fail_msg("work-item %zu did not run", i);
    clReleaseEvent(ev);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    free(out);
}

/* Launches `record` of program `p` with global/local over one dimension; returns the error. */
static cl_int launch_in(cl_program p, size_t global, const size_t *local)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "record", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bo = buf_new(global * REC * sizeof(cl_uint), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
    err = clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, local, 0, NULL, NULL);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    if (err == CL_SUCCESS && !local) {
        /* the runtime's own choice must then be uniform: read it back */
        cl_uint r[REC];
        assert_int_equal(clEnqueueReadBuffer(env.queue, bo, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL), CL_SUCCESS);
        if (r[12] == 0 || global % r[12] != 0)
            fail_msg("NULL local size chose %u for global %zu where uniform work-groups are required", r[12], global);
    }
    clReleaseMemObject(bo);
    clReleaseKernel(k);
    return err;
}

/* A program that requires uniform work-groups: non-uniform ranges fail, uniform ones run. */
static void check_uniform_required(cl_program p, const char *what)
{
    size_t four = 4;
    cl_int err = launch_in(p, 10, &four);
    if (err != CL_INVALID_WORK_GROUP_SIZE)
        fail_msg("%s: global 10 local 4 = %d, want CL_INVALID_WORK_GROUP_SIZE", what, err);
    assert_int_equal(launch_in(p, 12, &four), CL_SUCCESS);
    assert_int_equal(launch_in(p, 1009, NULL), CL_SUCCESS);
}

static void test_uniform_required_errors(void **state)
{
    (void)state;
    static const char *const options[] = {"-cl-std=CL3.0 -cl-uniform-work-group-size", "-cl-std=CL1.2", NULL,
                                          "-cl-uniform-work-group-size -cl-std=CL3.0", "-cl-std=CL1.1"};
    for (size_t i = 0; i < ARRAY_LEN(options); i++) {
        cl_program p = weft_test_build(&env, i == 0 || i == 3 ? source : source_cl12, options[i]);
        assert_non_null(p);
        check_uniform_required(p, options[i] ? options[i] : "(no options)");
        clReleaseProgram(p);
    }
    /* and the suite's own CL3.0 program accepts the same non-uniform range */
    size_t four = 4;
    assert_int_equal(launch_in(prog, 10, &four), CL_SUCCESS);
}

static void test_uniform_required_from_binary(void **state)
{
    (void)state;
    size_t size = 0;
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
    unsigned char *bin = malloc(size);
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    size_t four = 4;
    for (int uniform = 0; uniform < 2; uniform++) {
        cl_int err, status;
        const unsigned char *b = bin;
        cl_program p = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &b, &status, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clBuildProgram(p, 1, &env.device, uniform ? "-cl-uniform-work-group-size" : NULL, NULL, NULL),
                         CL_SUCCESS);
        if (uniform)
            check_uniform_required(p, "binary built with -cl-uniform-work-group-size");
        else
            assert_int_equal(launch_in(p, 10, &four), CL_SUCCESS);
        clReleaseProgram(p);
    }
    free(bin);
}

static void test_uniform_required_after_link(void **state)
{
    (void)state;
    size_t four = 4;
    static const char *const std[] = {"-cl-std=CL1.2", "-cl-std=CL3.0"};
    for (int i = 0; i < 2; i++) {
        cl_int err;
        cl_program obj = clCreateProgramWithSource(env.context, 1, i == 0 ? &source_cl12 : &source, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clCompileProgram(obj, 1, &env.device, std[i], 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
        cl_program exe = clLinkProgram(env.context, 1, &env.device, NULL, 1, &obj, NULL, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        if (i == 0)
            check_uniform_required(exe, "linked OpenCL C 1.2 object");
        else
            assert_int_equal(launch_in(exe, 10, &four), CL_SUCCESS);
        clReleaseProgram(exe);
        clReleaseProgram(obj);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1d_remainders),
        cmocka_unit_test(test_2d_remainders),
        cmocka_unit_test(test_3d_remainders),
        cmocka_unit_test(test_reduction_with_barriers),
        cmocka_unit_test(test_profiled_schedules_with_remainder),
        cmocka_unit_test(test_null_local_size_prime_global),
        cmocka_unit_test(test_reqd_work_group_size_remainder),
        cmocka_unit_test(test_one_event_per_ndrange),
        cmocka_unit_test(test_uniform_required_errors),
        cmocka_unit_test(test_uniform_required_from_binary),
        cmocka_unit_test(test_uniform_required_after_link),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
