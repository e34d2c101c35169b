/* tests/e2e/test_kernels_schedule.c — work-item schedules end to end (Kim ch. 3-4, 7): kernels
 * whose loops vote breadth-first (column-major sgemv under a guard, and its row-major form whose
 * work-items walk rows of their own, sgemm NT, a JDS-like loop
 * with per-work-item trip counts, a uniform counter around a barrier, a private array living
 * around a barrier loop, a loop under a uniform else-if of a divergent branch, uniform loops nested
 * in predicated ones) give the host's results
 * under WEFT_SCHEDULE=dfo, bfo and auto, with WEFT_PROFILE=async, sync and off, at local sizes
 * that do and do not fill vectors. Every launch also counts, per work-group, the work-items
 * that ran: under runtime profiling (several launches, so that decisions are taken and then
 * reused) every work-group runs exactly once with all its work-items. The decision cache is a
 * fresh directory, so profiling really happens on every run of the test. */
#include <stdlib.h>
#include <unistd.h>

#include "test_kernels_harness.h"

static const char *source =
    /* column-major A (m x n), one work-item per row, guard for the ragged last group */
    "kernel void sgemv(global const float *A, global const float *x, global float *y, int m, int n,\n"
    "                  global int *ran) {\n"
    "  int i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) atomic_add(&ran[get_group_id(0)], (int)get_local_size(0));\n"
    "  if (i < m) {\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < n; j++) s += A[i + j * m] * x[j];\n"
    "    y[i] = s;\n"
    "  }\n"
    "}\n"
    /* row-major A (PolyBench's gesummv layout): each work-item walks a row of its own, a gather
     * per step, and the vectorizer keeps one packet of W lanes (vectorize_plan.c, row_streams) */
    "kernel void gemv_rows(global const float *A, global const float *x, global float *y, int m, int n,\n"
    "                      global int *ran) {\n"
    "  int i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) atomic_add(&ran[get_group_id(0)], (int)get_local_size(0));\n"
    "  if (i < m) {\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];\n"
    "    y[i] = s;\n"
    "  }\n"
    "}\n"
    /* a row of each of two matrices per work-item (gesummv): with 16 lanes, one packet of 8 */
    "kernel void gemv2_rows(global const float *A, global const float *B, global const float *x,\n"
    "                       global float *y, int m, int n, global int *ran) {\n"
    "  int i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) atomic_add(&ran[get_group_id(0)], (int)get_local_size(0));\n"
    "  if (i < m) {\n"
    "    float s = 0.0f, t = 0.0f;\n"
    "    for (int j = 0; j < n; j++) {\n"
    "      s += A[i * n + j] * x[j];\n"
    "      t += B[i * n + j] * x[j];\n"
    "    }\n"
    "    y[i] = s + t;\n"
    "  }\n"
    "}\n"
    /* rows of integers and of doubles per work-item: row groups of other element types */
    "kernel void rows_mixed(global const int *IA, global const double *DA, global long *ys,\n"
    "                       global double *yd, int m, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < m) {\n"
    "    long s = 0; double d = 0.0;\n"
    "    for (int j = 0; j < n; j++) { s += (long)IA[i * n + j] * (j + 1); d += DA[i * n + j]; }\n"
    "    ys[i] = s; yd[i] = d;\n"
    "  }\n"
    "}\n"
    /* straight-line reads of a work-item's own 16 and 4 consecutive elements: row groups of 16
     * and of 4 loads (vectorize_rows.c), without a loop */
    "kernel void rows_straight(global const float *A, global const int *B, global float *y,\n"
    "                          global int *z, int m) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < m) {\n"
    "    int r = i * 16, q = i * 4;\n"
    "    y[i] = ((((A[r] - A[r + 1]) * A[r + 2] + A[r + 3]) * A[r + 4] - A[r + 5]) * A[r + 6] + A[r + 7])\n"
    "           * A[r + 8] - A[r + 9] * A[r + 10] + A[r + 11] * A[r + 12] - A[r + 13] + A[r + 14] * A[r + 15];\n"
    "    z[i] = ((B[q] * 3 + B[q + 1]) * 5 - B[q + 2]) * 7 + B[q + 3];\n"
    "  }\n"
    "}\n"
    /* a grid-stride loop (compiler/prefetch.h: a prefetch 8 strides ahead, past the end of the
     * data for the last iterations) feeding a __local histogram, as the corpus's histogram */
    "kernel void grid_hist(global const uchar *data, int n, global uint *bins, local uint *lbins) {\n"
    "  int tid = get_local_id(0), ls = get_local_size(0);\n"
    "  for (int b = tid; b < 64; b += ls) lbins[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    atomic_inc(&lbins[data[i] & 63]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int b = tid; b < 64; b += ls) atomic_add(&bins[b], lbins[b]);\n"
    "}\n"
    /* sgemm NT, two dimensions */
    "kernel void sgemm_nt(global const float *A, int lda, global const float *B, int ldb,\n"
    "                     global float *C, int ldc, int k) {\n"
    "  int m = get_global_id(0), n = get_global_id(1);\n"
    "  float c = 0.0f;\n"
    "  for (int i = 0; i < k; i++) c += A[m + i * lda] * B[n + i * ldb];\n"
    "  C[m + n * ldc] = c;\n"
    "}\n"
    /* jagged diagonals: per-row trip counts, rows sorted by length (Parboil spmv JDS) */
    "kernel void jds(global float *y, global const float *data, global const int *index,\n"
    "                global const float *x, int dim, global const int *jd_ptr, global const int *rowlen) {\n"
    "  int ix = get_global_id(0);\n"
    "  if (ix < dim) {\n"
    "    float sum = 0.0f;\n"
    "    int bound = rowlen[ix];\n"
    "    for (int k = 0; k < bound; k++) {\n"
    "      int j = jd_ptr[k] + ix;\n"
    "      sum += data[j] * x[index[j]];\n"
    "    }\n"
    "    y[ix] = sum;\n"
    "  }\n"
    "}\n"
    /* a uniform counter carried around a barrier, and a neighbour exchange through __local */
    "kernel void rounds(global int *data, local int *t, int n) {\n"
    "  int l = get_local_id(0), ls = get_local_size(0), g = get_global_id(0);\n"
    "  int v = data[g];\n"
    "  for (int r = 0; r < n; r++) {\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v += t[(l + r + 1) % ls] * (r + 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  data[g] = v;\n"
    "}\n"
    /* a private array kept in memory (data-dependent index), used after a barrier inside a loop
     * and carried from one iteration to the next: it must stay per work-item (privatize.c; the
     * case where every use is in the one sub-CFG that runs again is e2e-bfo's private_hist) */
    "kernel void private_loop(global int *out, local int *t, int n) {\n"
    "  int l = get_local_id(0), ls = get_local_size(0);\n"
    "  int acc[4];\n"
    "  t[l] = l;\n"
    "  for (int r = 0; r < n; r++) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (r == 0) { for (int i = 0; i < 4; i++) acc[i] = l * 10 + i; }\n"
    "    int v = t[(r & 1) * ls + (l + 1) % ls];\n"
    "    acc[(v + r) & 3] += v;\n"
    "    t[((r + 1) & 1) * ls + l] = acc[r & 3];\n"
    "    if (r == n - 1) out[get_global_id(0)] = acc[0] + 2 * acc[1] + 3 * acc[2] + 4 * acc[3];\n"
    "  }\n"
    "}\n"
    /* a loop that votes breadth-first inside a divergent loop that votes depth-first, with a
     * data-dependent break (shared/repros/variant-bfo): the inner loop must stay depth-first
     * unless the outer one is scheduled too, or work-items wait at different barriers and the
     * final store of some is lost. The variable index into an int2 keeps the vectorizer out. */
    "kernel void nested_break(global const int *in, global int *out, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  int acc = 0;\n"
    "  int2 v = (int2)(in[i], 1);\n"
    "  for (int a = 0; a < (in[i] & 7); a++) {\n"
    "    for (int b = 0; b < 8; b++) {\n"
    "      if (in[(i + a * b) % n] < -40) break;\n"
    "      acc += a * b + v[b & 1];\n"
    "    }\n"
    "  }\n"
    "  out[i] = acc;\n"
    "}\n"
    /* a loop under a uniform branch under a divergent one (tools/fuzz class D, seed 288): the
     * divergent branch's other side joined the skeleton, while the work-items of groups >= 2
     * on this side passed by it: work-items waited at different barriers and some came out
     * with the other side's v + 1 */
    "kernel void else_if_loop(global const uint *in, global uint *out, uint n) {\n"
    "  uint lid = get_local_id(0), gid = get_global_id(0);\n"
    "  uint v = in[gid];\n"
    "  if (in[lid + 100u] <= v) {\n"
    "    v += 1u;\n"
    "  } else if (get_group_id(0) < 2u) {\n"
    "    for (uint i = 0u; i < 3u; i++) v += in[(gid + i) % n] & 7u;\n"
    "  }\n"
    "  out[gid] = v;\n"
    "}\n"
    /* loops with uniform trip counts nested in a do-while with per-work-item ones (tools/fuzz
     * class E, seed 246), and a guarded outer loop whose body starts with the inner one (the
     * shape of kmeans): the inner loop's guard side is the outer loop's header, whose exit test
     * passed the inner skeleton by while inactive work-items waited at its barrier */
    "kernel void nested_in_do_while(global const uint *in, global uint *out, uint n, uint p1, uint p2) {\n"
    "  uint gid = get_global_id(0), v = get_local_id(0), i0 = 0u;\n"
    "  do {\n"
    "    for (uint i1 = 0u; i1 < p1; i1++)\n"
    "      for (uint i2 = 0u; i2 < p2; i2++) v = in[v % n] + i0;\n"
    "  } while (i0++ < in[gid] % 8u);\n"
    "  out[gid] = v;\n"
    "}\n"
    "kernel void guarded_nest(global const uint *in, global uint *out, uint n, uint m, uint nc, uint nf) {\n"
    "  uint gid = get_global_id(0), v = 0u;\n"
    "  if (gid < m) {\n"
    "    for (uint c = 0u; c < nc; c++) {\n"
    "      uint d = 0u;\n"
    "      for (uint f = 0u; f < nf; f++) d += in[(f * m + gid) % n];\n"
    "      v = v * 3u + d;\n"
    "    }\n"
    "  }\n"
    "  out[gid] = v;\n"
    "}\n"
    /* a value of a predicated do-while read after it by a switch: once by the case that falls
     * through and twice by the join's phi (tools/fuzz seed 681: SSA repair after the skeleton
     * left the first use unrepaired, and bfo read another iteration's value) */
    "kernel void loop_value_in_switch(global const uint *in, global uint *out, uint n) {\n"
    "  uint lid = get_local_id(0), gid = get_global_id(0), v0 = 0x25u, v1 = gid >> 4, i0 = 0u;\n"
    "  uint a[4];\n"
    "  for (uint t = 0u; t < 4u; t++) a[t] = in[(gid + t * 34u) % n] ^ t;\n"
    "  do {\n"
    "    v0 ^= 1u;\n"
    "  } while (i0++ < ((gid + v1) & 7u));\n"
    "  switch (a[lid % 4u] & 3u) {\n"
    "  case 0u:\n"
    "    break;\n"
    "  case 2u:\n"
    "    v0 ^= lid;\n"
    "  default:\n"
    "    v1 = 0u;\n"
    "  }\n"
    "  out[gid] = v0 * 0x01000193u ^ v1;\n"
    "}\n";

static char cache_dir[] = "/tmp/weft-schedule-test-XXXXXX";

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(cache_dir))
        return -1;
    setenv("WEFT_CACHE_DIR", cache_dir, 1);
    return harness_open(source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[80];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
    int rc = system(cmd);
    (void)rc;
    return harness_close();
}

/* The (schedule, profile) settings each check runs under; the launch reads them every time. */
static const char *const settings[][2] = {
    {"dfo", "off"}, {"bfo", "off"}, {"auto", "async"}, {"auto", "sync"}, {"auto", "off"},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

static void use_setting(size_t s)
{
    setenv("WEFT_SCHEDULE", settings[s][0], 1);
    setenv("WEFT_PROFILE", settings[s][1], 1);
}

static void restore_env(void)
{
    unsetenv("WEFT_SCHEDULE");
    unsetenv("WEFT_PROFILE");
}

static float frand(void)
{
    return (float)(rng_next() % 2001) / 1000.0f - 1.0f;
}

/* y = A x with one work-item per row of A (m x n), column-major (`sgemv`) or row-major
 * (`gemv_rows`), under every setting, at local sizes that do and do not fill vectors. Row
 * lengths: a multiple of the row loops' unrolling (rowunroll.c), one with a remainder, and one
 * shorter than a single unrolled step. */
static void check_gemv(const char *kernel, bool row_major, bool two)
{
    const int ns[] = {96, 101, 5};
    const size_t locals[] = {16, 64, 7};
    for (size_t ci = 0; ci < 3 * 3; ci++) {
        const int n = ns[ci / 3];
        size_t local = locals[ci % 3];
        int m = (int)(local * 40 - 3);   /* 40 groups (profiled), a ragged last one */
        size_t global = round_up((size_t)m, local), groups = global / local;
        float *A = malloc(sizeof(float) * (size_t)m * n * 2), *x = malloc(sizeof(float) * n);
        float *want = malloc(sizeof(float) * (size_t)m), *got = malloc(sizeof(float) * (size_t)m);
        int *ran = malloc(sizeof(int) * groups);
        for (int i = 0; i < 2 * m * n; i++)   /* A, then gemv2_rows' B */
            A[i] = frand();
        for (int j = 0; j < n; j++)
            x[j] = frand();
        const float *B = A + (size_t)m * n;
        for (int i = 0; i < m; i++) {
            float s = 0.0f, t = 0.0f;
            for (int j = 0; j < n; j++) {
                s = fmaf(A[row_major ? i * n + j : i + j * m], x[j], s);
                t = fmaf(B[i * n + j], x[j], t);
            }
            want[i] = two ? s + t : s;
        }
        cl_mem bA = buf_new(sizeof(float) * (size_t)m * n, A), bx = buf_new(sizeof(float) * n, x);
        cl_mem bB = buf_new(sizeof(float) * (size_t)m * n, B);
        cl_mem by = buf_new(sizeof(float) * (size_t)m, NULL), bran = buf_new(sizeof(int) * groups, NULL);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {   /* profiled twice, then decided */
                int zero = 0;
                assert_int_equal(clEnqueueFillBuffer(env.queue, bran, &zero, sizeof zero, 0, sizeof(int) * groups, 0,
                                                     NULL, NULL),
                                 CL_SUCCESS);
                cl_int err = two ? launch(kernel, 1, NULL, &global, &local,
                                          KARGS(KARG(bA), KARG(bB), KARG(bx), KARG(by), KARG(m), KARG(n), KARG(bran)))
                                 : launch(kernel, 1, NULL, &global, &local,
                                          KARGS(KARG(bA), KARG(bx), KARG(by), KARG(m), KARG(n), KARG(bran)));
                assert_int_equal(err, CL_SUCCESS);
                buf_read(by, sizeof(float) * (size_t)m, got);
                buf_read(bran, sizeof(int) * groups, ran);
                for (size_t g = 0; g < groups; g++)
                    if (ran[g] != (int)local) {
                        fprintf(stderr, "%s/%s local %zu launch %d: group %zu ran %d work-items\n", settings[s][0],
                                settings[s][1], local, rep, g, ran[g]);
                        fail();
                    }
                for (int i = 0; i < m; i++)
                    if (!close_f(got[i], want[i], 1e-4)) {
                        fprintf(stderr, "%s/%s local %zu n %d: y[%d] = %g, want %g\n", settings[s][0],
                                settings[s][1], local, n, i, got[i], want[i]);
                        fail();
                    }
            }
        }
        clReleaseMemObject(bA);
        clReleaseMemObject(bB);
        clReleaseMemObject(bx);
        clReleaseMemObject(by);
        clReleaseMemObject(bran);
        free(A);
        free(x);
        free(want);
        free(got);
        free(ran);
    }
    restore_env();
}

static void test_sgemv(void **state)
{
    (void)state;
    check_gemv("sgemv", false, false);
}

static void test_gemv_rows(void **state)
{
    (void)state;
    check_gemv("gemv_rows", true, false);
}

static void test_gemv2_rows(void **state)
{
    (void)state;
    check_gemv("gemv2_rows", true, true);
}

/* Integer and double rows (the row groups' other element types) against the host, exactly:
 * each work-item's sums in its own order. */
static void test_rows_mixed(void **state)
{
    (void)state;
    const int ns[] = {37, 8, 3};
    const size_t locals[] = {16, 7};
    for (size_t ci = 0; ci < 3 * 2; ci++) {
        const int n = ns[ci / 2];
        size_t local = locals[ci % 2];
        int m = (int)(local * 20 - 1);
        size_t global = round_up((size_t)m, local);
        int *IA = malloc(sizeof(int) * (size_t)m * n);
        double *DA = malloc(sizeof(double) * (size_t)m * n), *wd = malloc(sizeof(double) * m), *gd = malloc(sizeof(double) * m);
        long long *ws = malloc(sizeof(long long) * m), *gs = malloc(sizeof(long long) * m);
        for (int k = 0; k < m * n; k++) {
            IA[k] = (int)(rng_next() % 20001) - 10000;
            DA[k] = (double)frand() * 1e3;
        }
        for (int i = 0; i < m; i++) {
            long long sum = 0;
            double d = 0.0;
            for (int j = 0; j < n; j++) {
                sum += (long long)IA[i * n + j] * (j + 1);
                d += DA[i * n + j];
            }
            ws[i] = sum;
            wd[i] = d;
        }
        cl_mem bi = buf_new(sizeof(int) * (size_t)m * n, IA), bd = buf_new(sizeof(double) * (size_t)m * n, DA);
        cl_mem bs = buf_new(sizeof(long long) * m, NULL), bo = buf_new(sizeof(double) * m, NULL);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {
                assert_int_equal(launch("rows_mixed", 1, NULL, &global, &local,
                                        KARGS(KARG(bi), KARG(bd), KARG(bs), KARG(bo), KARG(m), KARG(n))),
                                 CL_SUCCESS);
                buf_read(bs, sizeof(long long) * m, gs);
                buf_read(bo, sizeof(double) * m, gd);
                for (int i = 0; i < m; i++)
                    if (gs[i] != ws[i] || gd[i] != wd[i]) {
                        fprintf(stderr, "%s/%s local %zu n %d: row %d = %lld %.17g, want %lld %.17g\n", settings[s][0],
                                settings[s][1], local, n, i, gs[i], gd[i], ws[i], wd[i]);
                        fail();
                    }
            }
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bd);
        clReleaseMemObject(bs);
        clReleaseMemObject(bo);
        free(IA);
        free(DA);
        free(wd);
        free(gd);
        free(ws);
        free(gs);
    }
    restore_env();
}

/* Row groups of 16 and 4 loads in straight-line code against the host: the integers exactly,
 * the floats within a tolerance (the kernel's products may be contracted). */
static void test_rows_straight(void **state)
{
    (void)state;
    const size_t locals[] = {16, 8, 7};
    for (size_t li = 0; li < 3; li++) {
        size_t local = locals[li];
        int m = (int)(local * 20 - 3);
        size_t global = round_up((size_t)m, local);
        float *A = malloc(sizeof(float) * (size_t)m * 16), *want = malloc(sizeof(float) * m), *got = malloc(sizeof(float) * m);
        int *B = malloc(sizeof(int) * (size_t)m * 4), *wz = malloc(sizeof(int) * m), *gz = malloc(sizeof(int) * m);
        for (int k = 0; k < m * 16; k++)
            A[k] = frand();
        for (int k = 0; k < m * 4; k++)
            B[k] = (int)(rng_next() % 2001) - 1000;
        for (int i = 0; i < m; i++) {
            const float *a = A + i * 16;
            const int *b = B + i * 4;
            want[i] = ((((a[0] - a[1]) * a[2] + a[3]) * a[4] - a[5]) * a[6] + a[7]) * a[8] - a[9] * a[10] +
                      a[11] * a[12] - a[13] + a[14] * a[15];
            wz[i] = ((b[0] * 3 + b[1]) * 5 - b[2]) * 7 + b[3];
        }
        cl_mem bA = buf_new(sizeof(float) * (size_t)m * 16, A), bB = buf_new(sizeof(int) * (size_t)m * 4, B);
        cl_mem by = buf_new(sizeof(float) * m, NULL), bz = buf_new(sizeof(int) * m, NULL);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {
                assert_int_equal(launch("rows_straight", 1, NULL, &global, &local,
                                        KARGS(KARG(bA), KARG(bB), KARG(by), KARG(bz), KARG(m))),
                                 CL_SUCCESS);
                buf_read(by, sizeof(float) * m, got);
                buf_read(bz, sizeof(int) * m, gz);
                for (int i = 0; i < m; i++)
                    if (!close_f(got[i], want[i], 1e-4) || gz[i] != wz[i]) {
                        fprintf(stderr, "%s/%s local %zu: row %d = %g %d, want %g %d\n", settings[s][0],
                                settings[s][1], local, i, got[i], gz[i], want[i], wz[i]);
                        fail();
                    }
            }
        }
        clReleaseMemObject(bA);
        clReleaseMemObject(bB);
        clReleaseMemObject(by);
        clReleaseMemObject(bz);
        free(A);
        free(want);
        free(got);
        free(B);
        free(wz);
        free(gz);
    }
    restore_env();
}

/* The grid-stride histogram against the host under every setting, at local sizes that do and do
 * not fill a packet; n not a multiple of the global size, so the last stride is partial. */
static void test_grid_hist(void **state)
{
    (void)state;
    const int n = 100003;
    unsigned char *data = malloc((size_t)n);
    uint32_t want[64] = {0}, got[64];
    for (int i = 0; i < n; i++) {
        data[i] = (unsigned char)(rng_next() & 255);
        want[data[i] & 63]++;
    }
    cl_mem bd = buf_new((size_t)n, data), bb = buf_new(sizeof got, NULL);
    const size_t locals[] = {16, 64, 7};
    for (size_t li = 0; li < sizeof locals / sizeof locals[0]; li++) {
        size_t local = locals[li], global = local * 40;   /* 40 groups: profiled */
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {
                uint32_t zero = 0;
                assert_int_equal(clEnqueueFillBuffer(env.queue, bb, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL),
                                 CL_SUCCESS);
                assert_int_equal(launch("grid_hist", 1, NULL, &global, &local,
                                        KARGS(KARG(bd), KARG(n), KARG(bb), KLOCAL(sizeof got))),
                                 CL_SUCCESS);
                buf_read(bb, sizeof got, got);
                for (int b = 0; b < 64; b++)
                    if (got[b] != want[b]) {
                        fprintf(stderr, "%s/%s local %zu: bin %d = %u, want %u\n", settings[s][0], settings[s][1],
                                local, b, got[b], want[b]);
                        fail();
                    }
            }
        }
    }
    restore_env();
    clReleaseMemObject(bd);
    clReleaseMemObject(bb);
    free(data);
}

static void test_sgemm_nt(void **state)
{
    (void)state;
    const int M = 64, N = 48, K = 37;
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * N * K);
    float *want = malloc(sizeof(float) * M * N), *got = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * K; i++)
        A[i] = frand();
    for (int i = 0; i < N * K; i++)
        B[i] = frand();
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++) {
            float c = 0.0f;
            for (int i = 0; i < K; i++)
                c = fmaf(A[m + i * M], B[n + i * N], c);
            want[m + n * M] = c;
        }
    cl_mem bA = buf_new(sizeof(float) * M * K, A), bB = buf_new(sizeof(float) * N * K, B);
    cl_mem bC = buf_new(sizeof(float) * M * N, NULL);
    const size_t global[2] = {M, N}, local[2] = {16, 4};
    for (size_t s = 0; s < NSETTINGS; s++) {
        use_setting(s);
        for (int rep = 0; rep < 3; rep++) {
            int lda = M, ldb = N, ldc = M, k = K;
            assert_int_equal(launch("sgemm_nt", 2, NULL, global, local,
                                    KARGS(KARG(bA), KARG(lda), KARG(bB), KARG(ldb), KARG(bC), KARG(ldc), KARG(k))),
                             CL_SUCCESS);
            buf_read(bC, sizeof(float) * M * N, got);
            for (int i = 0; i < M * N; i++)
                if (!close_f(got[i], want[i], 1e-4)) {
                    fprintf(stderr, "%s/%s: C[%d] = %g, want %g\n", settings[s][0], settings[s][1], i, got[i], want[i]);
                    fail();
                }
        }
    }
    restore_env();
    clReleaseMemObject(bA);
    clReleaseMemObject(bB);
    clReleaseMemObject(bC);
    free(A);
    free(B);
    free(want);
    free(got);
}

static void test_jds(void **state)
{
    (void)state;
    const int dim = 1000, cols = 300, maxlen = 24;
    int *rowlen = malloc(sizeof(int) * dim), *jd_ptr = malloc(sizeof(int) * (maxlen + 1));
    /* rows sorted by decreasing length, some empty */
    for (int r = 0; r < dim; r++)
        rowlen[r] = maxlen - (r * (maxlen + 1)) / dim;
    int nnz = 0;
    for (int k = 0; k < maxlen; k++) {
        jd_ptr[k] = nnz;
        for (int r = 0; r < dim; r++)
            nnz += rowlen[r] > k;
    }
    jd_ptr[maxlen] = nnz;
    /* padded so that jd_ptr[k] + ix stays in bounds for every row that reads diagonal k */
    float *data = malloc(sizeof(float) * (size_t)(nnz + dim)), *x = malloc(sizeof(float) * cols);
    int *index = malloc(sizeof(int) * (size_t)(nnz + dim));
    for (int i = 0; i < nnz + dim; i++) {
        data[i] = frand();
        index[i] = (int)(rng_next() % cols);
    }
    for (int c = 0; c < cols; c++)
        x[c] = frand();
    float *want = malloc(sizeof(float) * dim), *got = malloc(sizeof(float) * dim);
    for (int r = 0; r < dim; r++) {
        float s = 0.0f;
        for (int k = 0; k < rowlen[r]; k++) {
            int j = jd_ptr[k] + r;
            s = fmaf(data[j], x[index[j]], s);
        }
        want[r] = s;
    }
    cl_mem bd = buf_new(sizeof(float) * (size_t)(nnz + dim), data), bi = buf_new(sizeof(int) * (size_t)(nnz + dim), index);
    cl_mem bx = buf_new(sizeof(float) * cols, x), bj = buf_new(sizeof(int) * (maxlen + 1), jd_ptr);
    cl_mem br = buf_new(sizeof(int) * dim, rowlen), by = buf_new(sizeof(float) * dim, NULL);
    const size_t locals[] = {32, 17};
    for (size_t li = 0; li < 2; li++) {
        size_t local = locals[li], global = round_up(dim, local);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {
                int d = dim;
                assert_int_equal(launch("jds", 1, NULL, &global, &local,
                                        KARGS(KARG(by), KARG(bd), KARG(bi), KARG(bx), KARG(d), KARG(bj), KARG(br))),
                                 CL_SUCCESS);
                buf_read(by, sizeof(float) * dim, got);
                for (int r = 0; r < dim; r++)
                    if (!close_f(got[r], want[r], 1e-4)) {
                        fprintf(stderr, "%s/%s local %zu: y[%d] = %g, want %g\n", settings[s][0], settings[s][1],
                                local, r, got[r], want[r]);
                        fail();
                    }
            }
        }
    }
    restore_env();
    cl_mem all[] = {bd, bi, bx, bj, br, by};
    for (size_t i = 0; i < 6; i++)
        clReleaseMemObject(all[i]);
    free(rowlen);
    free(jd_ptr);
    free(data);
    free(index);
    free(x);
    free(want);
    free(got);
}

static void test_counter_around_barrier(void **state)
{
    (void)state;
    const size_t locals[] = {1, 5, 16, 64};
    for (size_t li = 0; li < 4; li++) {
        size_t local = locals[li], global = local * 20;
        int *in = malloc(sizeof(int) * global), *want = malloc(sizeof(int) * global), *got = malloc(sizeof(int) * global);
        int *t = malloc(sizeof(int) * local), *v = malloc(sizeof(int) * global);
        for (size_t i = 0; i < global; i++)
            in[i] = (int)(rng_next() % 100);
        const int n = 7;
        for (size_t g0 = 0; g0 < global; g0 += local) {
            for (size_t l = 0; l < local; l++)
                v[g0 + l] = in[g0 + l];
            for (int r = 0; r < n; r++) {
                for (size_t l = 0; l < local; l++)
                    t[l] = v[g0 + l];
                for (size_t l = 0; l < local; l++)
                    v[g0 + l] += t[(l + (size_t)r + 1) % local] * (r + 1);
            }
            for (size_t l = 0; l < local; l++)
                want[g0 + l] = v[g0 + l];
        }
        cl_mem b = buf_new(sizeof(int) * global, NULL);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            for (int rep = 0; rep < 3; rep++) {
                assert_int_equal(clEnqueueWriteBuffer(env.queue, b, CL_TRUE, 0, sizeof(int) * global, in, 0, NULL, NULL),
                                 CL_SUCCESS);
                int nn = n;
                assert_int_equal(launch("rounds", 1, NULL, &global, &local,
                                        KARGS(KARG(b), KLOCAL(sizeof(int) * local), KARG(nn))),
                                 CL_SUCCESS);
                buf_read(b, sizeof(int) * global, got);
                assert_memory_equal(got, want, sizeof(int) * global);
            }
        }
        clReleaseMemObject(b);
        free(in);
        free(want);
        free(got);
        free(t);
        free(v);
    }
    restore_env();
}

static void test_private_array_around_barrier(void **state)
{
    (void)state;
    const size_t locals[] = {1, 3, 16, 64};
    const int n = 9;
    for (size_t li = 0; li < 4; li++) {
        size_t local = locals[li], groups = 18, global = local * groups;
        int *want = malloc(sizeof(int) * global), *got = malloc(sizeof(int) * global);
        int *t = malloc(sizeof(int) * 2 * local), *acc = malloc(sizeof(int) * 4 * local), *v = malloc(sizeof(int) * local);
        for (size_t g0 = 0; g0 < global; g0 += local) {
            for (size_t l = 0; l < local; l++)
                t[l] = (int)l;
            for (int r = 0; r < n; r++) {
                for (size_t l = 0; l < local; l++) {
                    if (r == 0)
                        for (int i = 0; i < 4; i++)
                            acc[l * 4 + (size_t)i] = (int)l * 10 + i;
                    v[l] = t[(size_t)(r & 1) * local + (l + 1) % local];
                }
                for (size_t l = 0; l < local; l++) {
                    acc[l * 4 + (size_t)((v[l] + r) & 3)] += v[l];
                    t[(size_t)((r + 1) & 1) * local + l] = acc[l * 4 + (size_t)(r & 3)];
                }
            }
            for (size_t l = 0; l < local; l++)
                want[g0 + l] = acc[l * 4] + 2 * acc[l * 4 + 1] + 3 * acc[l * 4 + 2] + 4 * acc[l * 4 + 3];
        }
        cl_mem b = buf_new(sizeof(int) * global, NULL);
        for (size_t s = 0; s < NSETTINGS; s++) {
            use_setting(s);
            int nn = n;
            assert_int_equal(launch("private_loop", 1, NULL, &global, &local,
                                    KARGS(KARG(b), KLOCAL(sizeof(int) * 2 * local), KARG(nn))),
                             CL_SUCCESS);
            buf_read(b, sizeof(int) * global, got);
            assert_memory_equal(got, want, sizeof(int) * global);
        }
        clReleaseMemObject(b);
        free(want);
        free(got);
        free(t);
        free(acc);
        free(v);
    }
    restore_env();
}

/* Launches `kernel`, whose 32-bit results land in `bo`, three times under every setting and
 * checks each run against `want`. */
static void check_every_setting(const char *kernel, const struct karg *args, size_t nargs, cl_mem bo, size_t global,
                                size_t local, const cl_uint *want)
{
    cl_uint *got = malloc(sizeof(cl_uint) * global);
    for (size_t s = 0; s < NSETTINGS; s++) {
        use_setting(s);
        for (int rep = 0; rep < 3; rep++) {
            memset(got, 0x7f, sizeof(cl_uint) * global);
            assert_int_equal(clEnqueueWriteBuffer(env.queue, bo, CL_TRUE, 0, sizeof(cl_uint) * global, got, 0, NULL, NULL),
                             CL_SUCCESS);
            assert_int_equal(launch(kernel, 1, NULL, &global, &local, args, nargs), CL_SUCCESS);
            buf_read(bo, sizeof(cl_uint) * global, got);
            for (size_t i = 0; i < global; i++)
                if (got[i] != want[i])
                    fail_msg("%s %s/%s local %zu rep %d: out[%zu] = %d, want %d", kernel, settings[s][0],
                             settings[s][1], local, rep, i, (int)got[i], (int)want[i]);
        }
    }
    free(got);
}

static void test_nested_divergent_loops(void **state)
{
    (void)state;
    const size_t locals[] = {16, 64};
    for (size_t li = 0; li < 2; li++) {
        size_t local = locals[li], global = local * 25;   /* enough groups to profile */
        int n = (int)global;
        int *in = malloc(sizeof(int) * global), *want = malloc(sizeof(int) * global);
        for (size_t i = 0; i < global; i++)
            in[i] = (int)(rng_next() % 101) - 50;
        for (int i = 0; i < n; i++) {
            int acc = 0, v[2] = {in[i], 1};
            for (int a = 0; a < (in[i] & 7); a++)
                for (int b = 0; b < 8; b++) {
                    if (in[(i + a * b) % n] < -40)
                        break;
                    acc += a * b + v[b & 1];
                }
            want[i] = acc;
        }
        cl_mem bi = buf_new(sizeof(int) * global, in), bo = buf_new(sizeof(int) * global, NULL);
        check_every_setting("nested_break", KARGS(KARG(bi), KARG(bo), KARG(n)), bo, global, local, (const cl_uint *)want);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(want);
    }
    restore_env();
}

static void test_loop_under_uniform_else_if(void **state)
{
    (void)state;
    const size_t locals[] = {17, 16};
    for (size_t li = 0; li < 2; li++) {
        size_t local = locals[li], global = local * 20, n = global + 128;
        cl_uint *in = malloc(sizeof(cl_uint) * n), *want = malloc(sizeof(cl_uint) * global);
        for (size_t i = 0; i < n; i++)
            in[i] = (cl_uint)(rng_next() % 64);
        for (size_t g = 0; g < global; g++) {
            cl_uint v = in[g];
            if (in[g % local + 100] <= v)
                v += 1;
            else if (g / local < 2)
                for (size_t i = 0; i < 3; i++)
                    v += in[(g + i) % n] & 7;
            want[g] = v;
        }
        cl_uint nn = (cl_uint)n;
        cl_mem bi = buf_new(sizeof(cl_uint) * n, in), bo = buf_new(sizeof(cl_uint) * global, NULL);
        check_every_setting("else_if_loop", KARGS(KARG(bi), KARG(bo), KARG(nn)), bo, global, local, want);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(want);
    }
    restore_env();
}

static void test_uniform_loops_nested_in_predicated_ones(void **state)
{
    (void)state;
    const size_t locals[] = {64, 24};
    for (size_t li = 0; li < 2; li++) {
        size_t local = locals[li], global = local * 20, n = global;
        cl_uint *in = malloc(sizeof(cl_uint) * n), *want = malloc(sizeof(cl_uint) * global);
        for (size_t i = 0; i < n; i++)
            in[i] = (cl_uint)rng_next();
        cl_uint nn = (cl_uint)n, p1 = 4, p2 = 2, m = (cl_uint)(global - local / 3), nc = 4, nf = 3;
        cl_mem bi = buf_new(sizeof(cl_uint) * n, in), bo = buf_new(sizeof(cl_uint) * global, NULL);
        for (int kernel = 0; kernel < 2; kernel++) {
            for (size_t g = 0; g < global; g++) {
                cl_uint v = 0;
                if (kernel == 0) {
                    cl_uint i0 = 0;
                    v = (cl_uint)(g % local);
                    do {
                        for (cl_uint i1 = 0; i1 < p1; i1++)
                            for (cl_uint i2 = 0; i2 < p2; i2++)
                                v = in[v % nn] + i0;
                    } while (i0++ < in[g] % 8u);
                } else if (g < m) {
                    for (cl_uint c = 0; c < nc; c++) {
                        cl_uint d = 0;
                        for (cl_uint f = 0; f < nf; f++)
                            d += in[(f * m + (cl_uint)g) % nn];
                        v = v * 3u + d;
                    }
                }
                want[g] = v;
            }
            if (kernel == 0)
                check_every_setting("nested_in_do_while", KARGS(KARG(bi), KARG(bo), KARG(nn), KARG(p1), KARG(p2)), bo,
                                    global, local, want);
            else
                check_every_setting("guarded_nest", KARGS(KARG(bi), KARG(bo), KARG(nn), KARG(m), KARG(nc), KARG(nf)),
                                    bo, global, local, want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(want);
    }
    restore_env();
}

static void test_loop_value_read_by_a_switch(void **state)
{
    (void)state;
    const size_t locals[] = {24, 16};
    for (size_t li = 0; li < 2; li++) {
        size_t local = locals[li], global = local * 32, n = 64;
        cl_uint *in = malloc(sizeof(cl_uint) * n), *want = malloc(sizeof(cl_uint) * global);
        for (size_t i = 0; i < n; i++)
            in[i] = (cl_uint)rng_next();
        for (size_t g = 0; g < global; g++) {
            cl_uint lid = (cl_uint)(g % local), gid = (cl_uint)g, v0 = 0x25u, v1 = gid >> 4;
            for (cl_uint i0 = 0; i0 <= ((gid + v1) & 7u); i0++)
                v0 ^= 1u;
            cl_uint sel = (in[(gid + (lid % 4u) * 34u) % n] ^ (lid % 4u)) & 3u;
            if (sel == 2u)
                v0 ^= lid;
            if (sel != 0u)
                v1 = 0u;
            want[g] = v0 * 0x01000193u ^ v1;
        }
        cl_uint nn = (cl_uint)n;
        cl_mem bi = buf_new(sizeof(cl_uint) * n, in), bo = buf_new(sizeof(cl_uint) * global, NULL);
        check_every_setting("loop_value_in_switch", KARGS(KARG(bi), KARG(bo), KARG(nn)), bo, global, local, want);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(want);
    }
    restore_env();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemv),
        cmocka_unit_test(test_gemv_rows),
        cmocka_unit_test(test_gemv2_rows),
        cmocka_unit_test(test_rows_mixed),
        cmocka_unit_test(test_rows_straight),
        cmocka_unit_test(test_grid_hist),
        cmocka_unit_test(test_sgemm_nt),
        cmocka_unit_test(test_jds),
        cmocka_unit_test(test_counter_around_barrier),
        cmocka_unit_test(test_private_array_around_barrier),
        cmocka_unit_test(test_nested_divergent_loops),
        cmocka_unit_test(test_loop_under_uniform_else_if),
        cmocka_unit_test(test_uniform_loops_nested_in_predicated_ones),
        cmocka_unit_test(test_loop_value_read_by_a_switch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
