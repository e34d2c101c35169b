/* tests/e2e/test_kernels_packets.c — what the vectorizer does to whole packets, checked
 * against host references in every variant (CTest runs this file under each WEFT_VARIANT and
 * with WEFT_VECTORIZE=off):
 *   - accesses that step 2 to 4 elements per work-item (members of pairs and small structs)
 *     are read as contiguous vectors and a shuffle, and written with masked vector stores: the
 *     buffers here end right before a page that is not mapped, so a packet that reads or
 *     writes past its last lane's element faults, and every element a kernel must not write
 *     is checked to keep its old value;
 *   - loads through a loop counter (`for (j = start + lid; j < end; j += ls)`) run as one vector
 *     load in packets whose addresses turn out consecutive, and as gathers in the others
 *     (counters that step by several elements, rows of any length, lanes masked off);
 *   - guards on the local id after which the rest of the packet loop has nothing to do (tree
 *     reductions, `lid == k` leaders) end the loop early; guards that look alike but whose
 *     later work-items still have work (an effect after the false edge, an id that decreases,
 *     a store before the guard) must not. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_kernels_harness.h"

static const char *SRC =
    "kernel void pairs(global const float *in, global float *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float re = in[2 * i], im = in[2 * i + 1];\n"
    "    out[2 * i] = re * re - im * im;\n"
    "    out[2 * i + 1] = 2.0f * re * im;\n"
    "}\n"
    "kernel void triples(global const int *in, global int *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    out[3 * i + 2] = in[3 * i] + in[3 * i + 1] * in[3 * i + 2];\n"
    "}\n"
    "kernel void quads(global const short *in, global short *out)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    out[4 * i + 1] = (short)(in[4 * i + 3] - in[4 * i]);\n"
    "}\n"
    "kernel void tree(global const float *in, global float *partial, local float *s)\n"
    "{\n"
    "    int tid = get_local_id(0), ls = get_local_size(0);\n"
    "    s[tid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int stride = ls / 2; stride > 0; stride >>= 1) {\n"
    "        if (tid < stride)\n"
    "            s[tid] += s[tid + stride];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (tid == 0)\n"
    "        partial[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void row_sums(global const int *rowptr, global const float *val, global const int *col,\n"
    "                     global float *out, local float *part)\n"
    "{\n"
    "    int g = get_group_id(0), lid = get_local_id(0), ls = get_local_size(0);\n"
    "    float sum = 0.0f;\n"
    "    for (int j = rowptr[g] + lid; j < rowptr[g + 1]; j += ls)\n"
    "        sum += val[j] * (float)col[j];\n"
    "    part[lid] = sum;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) {\n"
    "        float t = 0.0f;\n"
    "        for (int i = 0; i < ls; i++)\n"
    "            t += part[i];\n"
    "        out[g] = t;\n"
    "    }\n"
    "}\n"
    "kernel void stepped(global const int *in, global int *out, int n, int step)\n"
    "{\n"
    "    int gid = get_global_id(0), gs = get_global_size(0), sum = 0;\n"
    "    for (int j = gid * step; j < n; j += gs * step)\n"
    "        sum += in[j];\n"
    "    out[gid] = sum;\n"
    "}\n"
    /* each guard below: the later work-items still have something to do; one kernel each,
     * so that no condition is shared across a barrier */
    "kernel void guard_else(global int *a, global int *b, int n, int k)\n"
    "{\n"
    "    int lid = get_local_id(0), gid = get_global_id(0);\n"
    "    if (lid < n)\n"
    "        a[gid] = 1;\n"
    "    else\n"
    "        b[gid] = 2;\n"                /* an effect after the false edge */
    "}\n"
    "kernel void guard_down(global int *a, global int *b, int n, int k)\n"
    "{\n"
    "    int lid = get_local_id(0), gid = get_global_id(0), ls = get_local_size(0);\n"
    "    if (ls - 1 - lid < n)\n"          /* ids decreasing: later work-items pass it */
    "        a[gid] += 10;\n"
    "}\n"
    "kernel void guard_above(global int *a, global int *b, int n, int k)\n"
    "{\n"
    "    int lid = get_local_id(0), gid = get_global_id(0);\n"
    "    if (lid > n)\n"                   /* later work-items pass it */
    "        a[gid] += 100;\n"
    "}\n"
    "kernel void guard_else_if(global int *a, global int *b, int n, int k)\n"
    "{\n"
    "    int lid = get_local_id(0), gid = get_global_id(0);\n"
    "    if (lid < n)\n"
    "        a[gid] += 1000;\n"
    "    else if (lid == k)\n"             /* a divergent effect after the false edge */
    "        b[gid] += 20;\n"
    "}\n"
    "kernel void guard_after_store(global int *a, global int *b, int n, int k)\n"
    "{\n"
    "    int lid = get_local_id(0), gid = get_global_id(0);\n"
    "    b[gid] += 200;\n"                 /* an effect before the guard */
    "    if (lid == k)\n"
    "        a[gid] += 10000;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(SRC, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* `bytes` of host memory that end where an unmapped page begins. */
struct fenced {
    void *map;
    size_t map_size;
    void *p;
};

static void *fenced_new(struct fenced *f, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = round_up(bytes, page);
    f->map_size = body + page;
    f->map = mmap(NULL, f->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f->map != MAP_FAILED);
    assert_int_equal(mprotect((char *)f->map + body, page, PROT_NONE), 0);
    f->p = (char *)f->map + body - bytes;
    return f->p;
}

static void fenced_free(struct fenced *f)
{
    munmap(f->map, f->map_size);
}

static cl_mem buf_on(void *host, size_t size)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* A host pointer of a USE_HOST_PTR buffer holds the kernel's results once the buffer is read
 * back (or mapped): read it back into itself, as the specification allows. */
static void sync_back(cl_mem m, size_t size, void *host)
{
    buf_read(m, size, host);
}

static void test_pairs(void **state)
{
    (void)state;
    /* full packets only, a tail packet, a local size under one packet */
    static const size_t sizes[][2] = {{4096, 64}, {1000, 40}, {999, 9}, {512, 256}};
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        size_t n = sizes[c][0], l = sizes[c][1];
        struct fenced fi, fo;
        float *in = fenced_new(&fi, 2 * n * sizeof *in), *out = fenced_new(&fo, 2 * n * sizeof *out);
        for (size_t i = 0; i < 2 * n; i++) {
            in[i] = (float)(rng_next() % 1000) / 16.0f;
            out[i] = -1.0f;
        }
        cl_mem bi = buf_on(in, 2 * n * sizeof *in), bo = buf_on(out, 2 * n * sizeof *out);
        assert_int_equal(launch("pairs", 1, NULL, &n, &l, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        sync_back(bo, 2 * n * sizeof *out, out);
        for (size_t i = 0; i < n; i++) {
            float re = in[2 * i], im = in[2 * i + 1];
            assert_true(close_f(out[2 * i], re * re - im * im, 1e-6));
            assert_true(close_f(out[2 * i + 1], 2.0f * re * im, 1e-6));
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        fenced_free(&fi);
        fenced_free(&fo);
    }
}

static void test_triples_and_quads(void **state)
{
    (void)state;
    static const size_t sizes[][2] = {{2048, 32}, {999, 37}, {64, 64}};
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        size_t n = sizes[c][0], l = sizes[c][1];
        struct fenced fi, fo, fs, ft;
        int *in = fenced_new(&fi, 3 * n * sizeof *in), *out = fenced_new(&fo, 3 * n * sizeof *out);
        short *sin = fenced_new(&fs, 4 * n * sizeof *sin), *sout = fenced_new(&ft, 4 * n * sizeof *sout);
        for (size_t i = 0; i < 3 * n; i++) {
            in[i] = (int)(rng_next() % 2001) - 1000;
            out[i] = 0x5a5a5a5a;
        }
        for (size_t i = 0; i < 4 * n; i++) {
            sin[i] = (short)(rng_next() % 20001 - 10000);
            sout[i] = 0x1234;
        }
        cl_mem bi = buf_on(in, 3 * n * sizeof *in), bo = buf_on(out, 3 * n * sizeof *out);
        cl_mem si = buf_on(sin, 4 * n * sizeof *sin), so = buf_on(sout, 4 * n * sizeof *sout);
        assert_int_equal(launch("triples", 1, NULL, &n, &l, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        assert_int_equal(launch("quads", 1, NULL, &n, &l, KARGS(KARG(si), KARG(so))), CL_SUCCESS);
        sync_back(bo, 3 * n * sizeof *out, out);
        sync_back(so, 4 * n * sizeof *sout, sout);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(out[3 * i], 0x5a5a5a5a);
            assert_int_equal(out[3 * i + 1], 0x5a5a5a5a);
            assert_int_equal(out[3 * i + 2], in[3 * i] + in[3 * i + 1] * in[3 * i + 2]);
            for (int j = 0; j < 4; j++)
                assert_int_equal(sout[4 * i + j], j == 1 ? (short)(sin[4 * i + 3] - sin[4 * i]) : 0x1234);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        clReleaseMemObject(si);
        clReleaseMemObject(so);
        fenced_free(&fi);
        fenced_free(&fo);
        fenced_free(&fs);
        fenced_free(&ft);
    }
}

static void test_tree_reductions(void **state)
{
    (void)state;
    /* powers of two (the tree's own), and 48: its halving strides 24, 12, 6, 3, 1 leave
     * elements out, which the host reference below follows */
    static const size_t locals[] = {256, 128, 64, 16, 48, 8};
    for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
        size_t l = locals[c], groups = 37, n = l * groups;
        float *in = malloc(n * sizeof *in), *part = malloc(groups * sizeof *part), *s = malloc(l * sizeof *s);
        assert_non_null(in);
        assert_non_null(part);
        assert_non_null(s);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 64);
        cl_mem bi = buf_new(n * sizeof *in, in), bp = buf_poisoned(groups * sizeof *part);
        assert_int_equal(launch("tree", 1, NULL, &n, &l, KARGS(KARG(bi), KARG(bp), KLOCAL(l * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bp, groups * sizeof *part, part);
        for (size_t g = 0; g < groups; g++) {
            memcpy(s, in + g * l, l * sizeof *s);
            for (size_t stride = l / 2; stride > 0; stride >>= 1)
                for (size_t t = 0; t < stride; t++)
                    s[t] += s[t + stride];
            assert_true(close_f(part[g], s[0], 0));   /* small integers: exact */
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bp);
        free(in);
        free(part);
        free(s);
    }
}

static void test_loop_counters(void **state)
{
    (void)state;
    /* rows of 0 to 70 elements: packets whose lanes all, partly or never run the loop */
    enum { ROWS = 61 };
    int rowptr[ROWS + 1];
    rowptr[0] = 0;
    for (int r = 0; r < ROWS; r++)
        rowptr[r + 1] = rowptr[r] + (int)(rng_next() % 71);
    int nnz = rowptr[ROWS];
    float *val = malloc((size_t)nnz * sizeof *val), out[ROWS];
    int *col = malloc((size_t)nnz * sizeof *col);
    assert_non_null(val);
    assert_non_null(col);
    for (int j = 0; j < nnz; j++) {
        val[j] = (float)(rng_next() % 9) - 4.0f;
        col[j] = (int)(rng_next() % 5);
    }
    cl_mem br = buf_new(sizeof rowptr, rowptr), bv = buf_new((size_t)nnz * sizeof *val, val),
           bc = buf_new((size_t)nnz * sizeof *col, col), bo = buf_poisoned(sizeof out);
    static const size_t locals[] = {16, 32, 48, 5};
    for (size_t c = 0; c < sizeof locals / sizeof *locals; c++) {
        size_t l = locals[c], g = ROWS * l;
        assert_int_equal(launch("row_sums", 1, NULL, &g, &l,
                                KARGS(KARG(br), KARG(bv), KARG(bc), KARG(bo), KLOCAL(l * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (int r = 0; r < ROWS; r++) {
            float want = 0;   /* small integers: exact in any order */
            for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
                want += val[j] * (float)col[j];
            if (out[r] != want)
                fail_msg("local %zu row %d: %g, want %g", l, r, out[r], want);
        }
    }
    clReleaseMemObject(br);
    clReleaseMemObject(bv);
    clReleaseMemObject(bc);
    clReleaseMemObject(bo);
    free(val);
    free(col);

    /* a grid-stride loop over a buffer that ends at an unmapped page, stepping 1 to 3 elements */
    for (int step = 1; step <= 3; step++) {
        int n = 4093;
        size_t l = 16, g = 64;
        struct fenced fi;
        int *in = fenced_new(&fi, (size_t)n * sizeof *in), sums[64];
        for (int i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100);
        cl_mem bi = buf_on(in, (size_t)n * sizeof *in), bs = buf_poisoned(sizeof sums);
        assert_int_equal(launch("stepped", 1, NULL, &g, &l, KARGS(KARG(bi), KARG(bs), KARG(n), KARG(step))),
                         CL_SUCCESS);
        buf_read(bs, sizeof sums, sums);
        for (int t = 0; t < 64; t++) {
            int want = 0;
            for (int j = t * step; j < n; j += 64 * step)
                want += in[j];
            if (sums[t] != want)
                fail_msg("step %d work-item %d: %d, want %d", step, t, sums[t], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bs);
        fenced_free(&fi);
    }
}

static void test_guards_with_later_work(void **state)
{
    (void)state;
    static const int cases[][3] = {/* local size, n, k */
                                   {64, 20, 40}, {64, 0, 0}, {64, 64, 63}, {256, 100, 200}, {48, 17, 33}, {32, 31, 5}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t l = (size_t)cases[c][0], n = 3 * l;
        int lim = cases[c][1], k = cases[c][2];
        int *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        assert_non_null(a);
        assert_non_null(b);
        memset(a, 0, n * sizeof *a);
        memset(b, 0, n * sizeof *b);
        cl_mem ba = buf_new(n * sizeof *a, a), bb = buf_new(n * sizeof *b, b);
        static const char *const kernels[] = {"guard_else", "guard_down", "guard_above", "guard_else_if",
                                              "guard_after_store"};
        for (size_t g = 0; g < sizeof kernels / sizeof *kernels; g++)
            assert_int_equal(launch(kernels[g], 1, NULL, &n, &l, KARGS(KARG(ba), KARG(bb), KARG(lim), KARG(k))),
                             CL_SUCCESS);
        buf_read(ba, n * sizeof *a, a);
        buf_read(bb, n * sizeof *b, b);
        for (size_t i = 0; i < n; i++) {
            int lid = (int)(i % l), ls = (int)l;
            int wa = 0, wb = 0;
            if (lid < lim)
                wa = 1;
            else
                wb = 2;
            if (ls - 1 - lid < lim)
                wa += 10;
            if (lid > lim)
                wa += 100;
            if (lid < lim)
                wa += 1000;
            else if (lid == k)
                wb += 20;
            wb += 200;
            if (lid == k)
                wa += 10000;
            if (a[i] != wa || b[i] != wb)
                fail_msg("local %zu n %d k %d: work-item %zu: a %d (want %d), b %d (want %d)", l, lim, k, i, a[i], wa,
                         b[i], wb);
        }
        clReleaseMemObject(ba);
        clReleaseMemObject(bb);
        free(a);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_triples_and_quads),
        cmocka_unit_test(test_tree_reductions),
        cmocka_unit_test(test_loop_counters),
        cmocka_unit_test(test_guards_with_later_work),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
