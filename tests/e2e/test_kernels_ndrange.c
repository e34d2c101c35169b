/* tests/e2e/test_kernels_ndrange.c — NDRange geometry end to end: every work-item function
 * (global/local/group ids, sizes, number of groups, offsets, work dimension) recorded by each
 * work-item of 1-, 2- and 3-dimensional launches, with and without global offsets, with chosen
 * local sizes (1, 3, 7, 64, 100, 256, 1024 in various shapes) and with a NULL local size;
 * reqd_work_group_size honoured when the runtime picks the local size; clEnqueueTask; a
 * kernel launched twice with different sizes (variants per local size); a kernel that cannot
 * tell its work-groups apart (the runtime runs neighbouring groups as one) still runs every
 * work-item exactly once, at its global id, with offsets and in two dimensions, and so do
 * its few long groups split into more (CTest also runs this file with WEFT_NUM_THREADS=16). */
#include "test_kernels_harness.h"

enum { REC = 16 }; /* values recorded per work-item */

static const char *source =
    "kernel void record(global uint *out) {\n"
    "  uint d = get_work_dim();\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  size_t flat = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "  global uint *r = out + flat * 16;\n"
    "  r[0] = d;\n"
    "  for (uint k = 0; k < 3; k++) {\n"
    "    r[1 + k] = get_global_id(k);\n"
    "    r[4 + k] = get_local_id(k);\n"
    "    r[7 + k] = get_group_id(k);\n"
    "  }\n"
    "  r[10] = get_local_size(0) * 10000 + get_local_size(1) * 100 + get_local_size(2);\n"
    "  r[11] = get_num_groups(0) * 10000 + get_num_groups(1) * 100 + get_num_groups(2);\n"
    "  r[12] = get_global_size(0) * 10000 + get_global_size(1) * 100 + get_global_size(2);\n"
    "  r[13] = get_global_offset(0) * 10000 + get_global_offset(1) * 100 + get_global_offset(2);\n"
    "  r[14] = get_global_id(3) + get_local_id(5) * 10 + get_local_size(3) * 100 + get_num_groups(4) * 1000;\n"
    "  r[15] = 0xC0DE;\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 4, 1)))\n"
    "kernel void reqd(global uint *out) {\n"
    "  size_t f = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  out[f] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2);\n"
    "}\n"
    "kernel void blind(global uint *out, global uint *hits) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t f = y * get_global_size(0) + x;\n"
    "  out[f] = (uint)(get_global_id(0) * 3 + get_global_id(1) * 100000);\n"
    "  atomic_inc(&hits[f]);\n"
    "}\n"
    "kernel void blind_long(global uint *out, global uint *hits, uint n) {\n"
    "  size_t f = get_global_id(0) - get_global_offset(0);\n"
    "  uint h = (uint)get_global_id(0);\n"
    "  for (uint k = 0; k < n; k++) h = h * 1664525u + 1013904223u + k;\n"
    "  out[f] = h;\n"
    "  atomic_inc(&hits[f]);\n"
    "}\n"
    "kernel void sighted(global uint *out) {\n"
    "  out[get_global_id(0)] = (uint)(get_local_size(0) * 1000 + get_local_id(0));\n"
    "}\n"
    "kernel void ints(global long *out) {\n"
    "  int i = get_global_id(0);\n"
    "  size_t f = get_global_id(0) - get_global_offset(0);\n"
    "  out[3 * f] = (long)i;\n"
    "  out[3 * f + 1] = (long)(i + 1);\n"
    "  out[3 * f + 2] = (long)(i - 5);\n"
    "}\n"
    "kernel void task(global int *out, int n) {\n"
    "  int s = 0;\n"
    "  for (int i = 0; i < n; i++) { s += i * i; out[i] = s; }\n"
    "  out[n] = (int)(get_global_size(0) * 100 + get_local_size(0) * 10 + get_work_dim());\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* Launches `record` and checks every work-item's record. `local` may be NULL (runtime's choice,
 * which must then divide the global size); sizes are small so the record fits in one buffer. */
static void check_record(cl_uint dim, const size_t *offset, const size_t *global, const size_t *local)
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
    if (local)
        for (cl_uint k = 0; k < dim; k++)
            l[k] = local[k];
    else /* the runtime's choice: read it back from the first record, then check consistency */
        l[0] = out[10] / 10000, l[1] = out[10] / 100 % 100, l[2] = out[10] % 100;
    for (cl_uint k = 0; k < 3; k++)
        if (l[k] == 0 || g[k] % l[k] != 0)
            fail_msg("dim %u: local size %zu does not divide global %zu", k, l[k], g[k]);
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                const cl_uint *r = out + ((z * g[1] + y) * g[0] + x) * REC;
                size_t id[3] = {x, y, z};
                cl_uint want[REC];
                want[0] = dim;
                for (int k = 0; k < 3; k++) {
                    want[1 + k] = (cl_uint)(id[k] + o[k]);
                    want[4 + k] = (cl_uint)(id[k] % l[k]);
                    want[7 + k] = (cl_uint)(id[k] / l[k]);
                }
                want[10] = (cl_uint)(l[0] * 10000 + l[1] * 100 + l[2]);
                want[11] = (cl_uint)(g[0] / l[0] * 10000 + g[1] / l[1] * 100 + g[2] / l[2]);
                want[12] = (cl_uint)(g[0] * 10000 + g[1] * 100 + g[2]);
                want[13] = (cl_uint)(o[0] * 10000 + o[1] * 100 + o[2]);
                want[14] = 0 + 0 * 10 + 1 * 100 + 1 * 1000; /* out-of-range dimensions */
                want[15] = 0xC0DE;
                for (int k = 0; k < REC; k++)
                    if (r[k] != want[k])
                        fail_msg("dim %u global %zux%zux%zu local %zux%zux%zu at (%zu,%zu,%zu): value %d = %u, want %u",
                                 dim, g[0], g[1], g[2], l[0], l[1], l[2], x, y, z, k, r[k], want[k]);
            }
    clReleaseMemObject(bo);
    free(out);
}

static void test_1d(void **state)
{
    (void)state;
    static const size_t locals[] = {1, 3, 7, 64, 100, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t global = locals[t] * 2, offset = 5 + t;
        check_record(1, NULL, &global, &locals[t]);
        check_record(1, &offset, &global, &locals[t]);
    }
    size_t odd = 997, off = 3;
    check_record(1, NULL, &odd, NULL);
    check_record(1, &off, &odd, NULL);
}

static void test_2d(void **state)
{
    (void)state;
    static const size_t shapes[][2] = {{1, 1}, {3, 7}, {7, 3}, {8, 8}, {16, 16}, {32, 32}, {10, 10}, {1, 64}, {256, 1}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        size_t global[2] = {shapes[t][0] * 3, shapes[t][1] * 2}, offset[2] = {7, 11 + t};
        check_record(2, NULL, global, shapes[t]);
        check_record(2, offset, global, shapes[t]);
    }
    size_t odd[2] = {37, 23}, off[2] = {1, 2};
    check_record(2, off, odd, NULL);
}

static void test_3d(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {{1, 1, 1}, {3, 3, 3}, {7, 1, 3}, {4, 4, 4}, {8, 8, 16}, {10, 10, 1}, {2, 3, 5}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        size_t global[3] = {shapes[t][0] * 2, shapes[t][1] * 2, shapes[t][2] * 2}, offset[3] = {1, 2 + t, 3};
        check_record(3, NULL, global, shapes[t]);
        check_record(3, offset, global, shapes[t]);
    }
    size_t odd[3] = {13, 7, 5}, off[3] = {4, 5, 6};
    check_record(3, off, odd, NULL);
}

static void test_reqd_work_group_size_with_null_local(void **state)
{
    (void)state;
    size_t global[2] = {32, 16}, n = 32 * 16;
    cl_uint *out = malloc(n * sizeof *out);
    cl_mem bo = buf_poisoned(n * sizeof *out);
    assert_int_equal(launch("reqd", 2, NULL, global, NULL, KARGS(KARG(bo))), CL_SUCCESS);
    buf_read(bo, n * sizeof *out, out);
    for (size_t i = 0; i < n; i++)
        if (out[i] != 841)
            fail_msg("at %zu: local size %u, want 8x4x1 (841)", i, out[i]);
    size_t local[2] = {8, 4};
    assert_int_equal(launch("reqd", 2, NULL, global, local, KARGS(KARG(bo))), CL_SUCCESS);
    clReleaseMemObject(bo);
    free(out);
}

static void test_enqueue_task(void **state)
{
    (void)state;
    cl_int err, n = 50, out[51];
    cl_kernel k = clCreateKernel(prog, "task", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bo = buf_poisoned(sizeof out);
    assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    assert_int_equal(clEnqueueTask(env.queue, k, 0, NULL, NULL), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += i * i;
        assert_int_equal(out[i], s);
    }
    assert_int_equal(out[n], 111);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
}

static void test_group_blind_kernel(void **state)
{
    (void)state;
    static const struct {
        cl_uint dim;
        size_t global[2], local[2], offset[2];
    } cases[] = {
        {1, {8192, 1}, {8, 1}, {0, 0}},   /* merged up to 256 work-items per group */
        {1, {4096, 1}, {64, 1}, {5, 0}},
        {1, {1000, 1}, {8, 1}, {3, 0}},   /* 1000 = 8 x 125: merged only while it divides */
        {1, {1024, 1}, {256, 1}, {0, 0}},  /* 4 groups: split on 2 threads or more */
        {1, {4096, 1}, {256, 1}, {9, 0}},  /* 16 groups: split on 8 threads or more */
        {2, {512, 4}, {256, 1}, {0, 3}},   /* 2 x 4 groups */
        {1, {777, 1}, {7, 1}, {0, 0}},
        {2, {2048, 3}, {16, 1}, {1, 2}},
        {2, {512, 64}, {4, 4}, {0, 7}},
    };
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "blind", &err);
    assert_int_equal(err, CL_SUCCESS);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].global[0] * cases[c].global[1];
        cl_uint *out = malloc(n * sizeof *out), *hits = calloc(n, sizeof *hits);
        cl_mem bo = buf_poisoned(n * sizeof *out), bh = buf_new(n * sizeof *hits, hits);
        assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof bh, &bh), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, cases[c].dim, cases[c].offset, cases[c].global,
                                                cases[c].local, 0, NULL, NULL),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        buf_read(bh, n * sizeof *hits, hits);
        for (size_t y = 0; y < cases[c].global[1]; y++)
            for (size_t x = 0; x < cases[c].global[0]; x++) {
                size_t f = y * cases[c].global[0] + x;
                cl_uint want = (cl_uint)((x + cases[c].offset[0]) * 3 + (y + cases[c].offset[1]) * 100000);
                if (hits[f] != 1 || out[f] != want)
                    fail_msg("case %zu item (%zu, %zu): ran %u times, wrote %u, want once and %u", c, x, y,
                             hits[f], out[f], want);
            }
        free(out);
        free(hits);
        clReleaseMemObject(bo);
        clReleaseMemObject(bh);
    }
    clReleaseKernel(k);

    /* the same geometry for a kernel that reads its local id: its groups stay as enqueued */
    k = clCreateKernel(prog, "sighted", &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t g = 8192, l = 8;
    cl_uint *out = malloc(g * sizeof *out);
    cl_mem bo = buf_poisoned(g * sizeof *out);
    assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
    buf_read(bo, g * sizeof *out, out);
    for (size_t i = 0; i < g; i++)
        if (out[i] != 8000 + i % 8)
            fail_msg("sighted item %zu: %u, want %zu", i, out[i], 8000 + i % 8);
    free(out);
    clReleaseMemObject(bo);
    clReleaseKernel(k);
}

/* Few, long work-groups of a group-blind kernel: the first launches are timed, later ones split
 * into more groups once the kernel is known to be slow (runtime/group_split.h); every work-item
 * runs once, with its own global id, whatever the split. */
static void test_group_blind_split(void **state)
{
    (void)state;
    static const struct { size_t global, local, offset; } cases[] = {
        {256, 256, 0},     /* one group */
        {1024, 256, 7},    /* 4 groups */
        {96, 96, 0},       /* splits once (96 -> 48) */
        {240, 48, 1},      /* 5 groups of a size that does not halve */
    };
    const cl_uint n = 20000;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "blind_long", &err);
    assert_int_equal(err, CL_SUCCESS);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t g = cases[c].global;
        cl_uint *out = malloc(g * sizeof *out), *hits = calloc(g, sizeof *hits);
        cl_mem bo = buf_poisoned(g * sizeof *out), bh = buf_new(g * sizeof *hits, hits);
        assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof bh, &bh), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 2, sizeof n, &n), CL_SUCCESS);
        for (int launch = 0; launch < 3; launch++)
            assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, &cases[c].offset, &g, &cases[c].local, 0,
                                                    NULL, NULL),
                             CL_SUCCESS);
        buf_read(bo, g * sizeof *out, out);
        buf_read(bh, g * sizeof *hits, hits);
        for (size_t f = 0; f < g; f++) {
            cl_uint h = (cl_uint)(f + cases[c].offset);
            for (cl_uint i = 0; i < n; i++)
                h = h * 1664525u + 1013904223u + i;
            if (hits[f] != 3 || out[f] != h)
                fail_msg("case %zu item %zu: ran %u times in 3 launches, wrote %u, want %u", c, f, hits[f], out[f], h);
        }
        free(out);
        free(hits);
        clReleaseMemObject(bo);
        clReleaseMemObject(bh);
    }
    clReleaseKernel(k);
}

/* `int i = get_global_id(0)` wraps past 2^31 - 1, and so does i + k: variants assume ids below
 * 2^31 - 2^24 and fold (long)(i + k) into id + k (compiler/narrowids.h) only for launches whose
 * ids stay there; launches past it get the variant that keeps the wrap. */
static void test_int_ids_wrap_past_2_31(void **state)
{
    (void)state;
    static const struct { size_t offset, global; } cases[] = {
        {5, 100},
        {(1ull << 31) - (1ull << 24) - 70, 70},   /* the last ids the assumption covers */
        {(1ull << 31) - 64, 62},                  /* past it, below 2^31 */
        {(1ull << 31) + 8, 64},                   /* i negative */
        {(1ull << 32) + 3, 40},                   /* i small again */
    };
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "ints", &err);
    assert_int_equal(err, CL_SUCCESS);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].global, l = 2;
        cl_long *out = malloc(3 * n * sizeof *out);
        cl_mem bo = buf_poisoned(3 * n * sizeof *out);
        assert_int_equal(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, &cases[c].offset, &n, &l, 0, NULL, NULL),
                         CL_SUCCESS);
        buf_read(bo, 3 * n * sizeof *out, out);
        for (size_t f = 0; f < n; f++) {
            const int32_t i = (int32_t)(uint32_t)(cases[c].offset + f);
            const cl_long want[3] = {i, (cl_long)i + 1, (cl_long)i - 5};
            for (int j = 0; j < 3; j++)
                if (out[3 * f + j] != want[j])
                    fail_msg("offset %zu item %zu value %d: %lld, want %lld", cases[c].offset, f, j,
                             (long long)out[3 * f + j], (long long)want[j]);
        }
        free(out);
        clReleaseMemObject(bo);
    }
    clReleaseKernel(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1d),
        cmocka_unit_test(test_2d),
        cmocka_unit_test(test_3d),
        cmocka_unit_test(test_reqd_work_group_size_with_null_local),
        cmocka_unit_test(test_enqueue_task),
        cmocka_unit_test(test_group_blind_kernel),
        cmocka_unit_test(test_group_blind_split),
        cmocka_unit_test(test_int_ids_wrap_past_2_31),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
