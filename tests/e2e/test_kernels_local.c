/* tests/e2e/test_kernels_local.c — __local memory and atomics end to end: a local-memory
 * transpose (2-D tiles), work-group prefix sums (Hillis-Steele for any local size, Blelloch
 * for powers of two), a histogram with local atomics, loop counters stepping by the group's or
 * the grid's size around barriers, 1-D and 2-D stencils with halos in local
 * memory, a tiled matrix product, a bitonic sort in local memory, several __local arguments of
 * mixed types next to kernel-scope __local variables (layout and alignment), local and global
 * atomics of every 1.x kind, 64-bit global atomics and a compare-exchange loop.
 * Every result is compared with a reference computed on the host. */
#include "test_kernels_harness.h"

/* test_kernels_opt_disable_local.c includes this file again with -cl-opt-disable added. */
#ifndef KERNELS_BUILD_OPTIONS
#define KERNELS_BUILD_OPTIONS "-DTS=8"
#endif

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    /* Transpose through a padded local tile; the tile is a __local argument (sx x (sy+1)). */
    "kernel void transpose(global const float *in, global float *out, int w, int h, local float *tile) {\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), tx = get_local_size(0), ty = get_local_size(1);\n"
    "  int gx = get_global_id(0), gy = get_global_id(1);\n"
    "  tile[ly * (tx + 1) + lx] = in[gy * w + gx];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  /* output block is (group y, group x); work-item (lx,ly) of a square tile writes row lx */\n"
    "  int ox = get_group_id(1) * ty + ly, oy = get_group_id(0) * tx + lx;\n"
    "  out[oy * h + ox] = tile[ly * (tx + 1) + lx];\n"
    "}\n"
    /* Same, but reading the tile transposed (square tiles only), the classic coalesced form. */
    "kernel void transpose_square(global const float *in, global float *out, int w, int h) {\n"
    "  local float tile[16][17];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), t = get_local_size(0);\n"
    "  tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int ox = get_group_id(1) * t + lx, oy = get_group_id(0) * t + ly;\n"
    "  out[oy * h + ox] = tile[lx][ly];\n"
    "}\n"
    /* Inclusive scan, Hillis-Steele with double buffering; any local size. */
    "kernel void scan_inclusive(global const int *in, global int *out, local int *a, local int *b) {\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  a[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  local int *src = a, *dst = b;\n"
    "  for (size_t off = 1; off < n; off *= 2) {\n"
    "    dst[lid] = lid >= off ? src[lid] + src[lid - off] : src[lid];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    local int *t = src; src = dst; dst = t;\n"
    "  }\n"
    "  out[get_global_id(0)] = src[lid];\n"
    "}\n"
    /* Exclusive scan, Blelloch up-sweep/down-sweep, two elements per work-item. */
    "kernel void scan_blelloch(global const uint *in, global uint *out, global uint *sums, local uint *t) {\n"
    "  int lid = get_local_id(0), n = 2 * get_local_size(0);\n"
    "  size_t base = get_group_id(0) * n;\n"
    "  t[2 * lid] = in[base + 2 * lid];\n"
    "  t[2 * lid + 1] = in[base + 2 * lid + 1];\n"
    "  int off = 1;\n"
    "  for (int d = n >> 1; d > 0; d >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d) { int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1; t[bi] += t[ai]; }\n"
    "    off *= 2;\n"
    "  }\n"
    "  if (lid == 0) { sums[get_group_id(0)] = t[n - 1]; t[n - 1] = 0; }\n"
    "  for (int d = 1; d < n; d *= 2) {\n"
    "    off >>= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid < d) { int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;\n"
    "      uint x = t[ai]; t[ai] = t[bi]; t[bi] += x; }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[base + 2 * lid] = t[2 * lid];\n"
    "  out[base + 2 * lid + 1] = t[2 * lid + 1];\n"
    "}\n"
    /* Histogram: local bins with atomic_inc, merged into global bins with atomic_add. */
    "kernel void histogram(global const uchar *data, uint n, global uint *bins) {\n"
    "  local uint lb[256];\n"
    "  size_t lid = get_local_id(0), ls = get_local_size(0);\n"
    "  for (size_t i = lid; i < 256; i += ls) lb[i] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&lb[data[i]]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t i = lid; i < 256; i += ls) if (lb[i]) atomic_add(&bins[i], lb[i]);\n"
    "}\n"
    /* Loop counters stepping by the group's or the grid's size in a kernel with barriers (their
     * demoted slots get a uniform base for the vectorizer, transform/privatize.c): work-items
     * leave each loop in different laps; the first counter's last value is used after its loop;
     * one starts at a loaded offset, one steps two elements at a time, one restarts in a nested
     * loop and is skipped under a data-dependent branch. */
    "kernel void strided_counters(global const int *in, global const int *starts, int n, global int *out,\n"
    "                             local int *l) {\n"
    "  int lid = get_local_id(0), ls = get_local_size(0), g = get_group_id(0), s = 0, i, t = 0;\n"
    "  for (i = lid; i < n; i += ls) s += in[i];\n"
    "  l[lid] = s + i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int j = starts[g] + lid; j < starts[g + 1]; j += ls) t += in[j] * (lid + 1);\n"
    "  for (int k = 2 * (int)get_global_id(0); k + 1 < n; k += 2 * (int)get_global_size(0)) t += in[k] - in[k + 1];\n"
    "  for (int r = 0; r < 3; r++)\n"
    "    for (int m = lid; m < n / 3 + r; m += ls) { if (in[m] & 1) continue; t += m; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = t + l[(lid + 1) % ls];\n"
    "}\n"
    /* 1-D 3-point stencil with a halo of one element on each side in local memory. */
    "kernel void stencil_1d(global const float *in, global float *out, int n, local float *s) {\n"
    "  int g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);\n"
    "  s[l + 1] = in[g];\n"
    "  if (l == 0) s[0] = g > 0 ? in[g - 1] : 0.0f;\n"
    "  if (l == ls - 1) s[ls + 1] = g + 1 < n ? in[g + 1] : 0.0f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = 0.25f * s[l] + 0.5f * s[l + 1] + 0.25f * s[l + 2];\n"
    "}\n"
    /* 2-D 5-point stencil with a local tile and halo loaded cooperatively (clamped borders). */
    "kernel void stencil_2d(global const float *in, global float *out, int w, int h, local float *tile) {\n"
    "  int lx = get_local_id(0), ly = get_local_id(1), tx = get_local_size(0), ty = get_local_size(1);\n"
    "  int ox = get_group_id(0) * tx - 1, oy = get_group_id(1) * ty - 1, tw = tx + 2, th = ty + 2;\n"
    "  for (int y = ly; y < th; y += ty)\n"
    "    for (int x = lx; x < tw; x += tx) {\n"
    "      int gx = clamp(ox + x, 0, w - 1), gy = clamp(oy + y, 0, h - 1);\n"
    "      tile[y * tw + x] = in[gy * w + gx];\n"
    "    }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int x = lx + 1, y = ly + 1;\n"
    "  out[get_global_id(1) * w + get_global_id(0)] = tile[y * tw + x] * 4.0f - tile[y * tw + x - 1]\n"
    "      - tile[y * tw + x + 1] - tile[(y - 1) * tw + x] - tile[(y + 1) * tw + x];\n"
    "}\n"
    /* Tiled matrix product C = A B with two kernel-scope local tiles (TS x TS, TS from -D). */
    "kernel void matmul_tiled(global const float *A, global const float *B, global float *C, int M, int N, int K) {\n"
    "  local float As[TS][TS];\n"
    "  local float Bs[TS][TS];\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < K; t += TS) {\n"
    "    As[ly][lx] = A[row * K + t + lx];\n"
    "    Bs[ly][lx] = B[(t + ly) * N + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < TS; k++) acc += As[ly][k] * Bs[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * N + col] = acc;\n"
    "}\n"
    /* Bitonic sort of one work-group's block (2 elements per work-item), barriers in nested loops. */
    "kernel void bitonic_local(global int *data, local int *s) {\n"
    "  uint lid = get_local_id(0), n = 2 * get_local_size(0);\n"
    "  global int *d = data + get_group_id(0) * n;\n"
    "  s[lid] = d[lid];\n"
    "  s[lid + n / 2] = d[lid + n / 2];\n"
    "  for (uint k = 2; k <= n; k <<= 1)\n"
    "    for (uint j = k >> 1; j > 0; j >>= 1) {\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      uint i = 2 * lid - (lid & (j - 1));\n"
    "      uint p = i + j;\n"
    "      bool up = (i & k) == 0;\n"
    "      int a = s[i], b = s[p];\n"
    "      if ((a > b) == up) { s[i] = b; s[p] = a; }\n"
    "    }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  d[lid] = s[lid];\n"
    "  d[lid + n / 2] = s[lid + n / 2];\n"
    "}\n"
    /* Mixed __local arguments and kernel-scope __local variables of several types. */
    "kernel void local_mix(global long *out, local char *c, local double *d, local short4 *s, local int *i1) {\n"
    "  local uchar kb[3];\n"
    "  local double2 kd[8];\n"
    "  local int ki;\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  c[l] = (char)(l * 3);\n"
    "  d[l] = (double)l * 0.5;\n"
    "  s[l] = (short4)((short)l, (short)-l, (short)(2 * l), 7);\n"
    "  i1[l] = (int)(l * l);\n"
    "  if (l < 3) kb[l] = (uchar)(200 + l);\n"
    "  if (l < 8) kd[l] = (double2)((double)l, -(double)l);\n"
    "  if (l == 0) ki = 12345;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  size_t m = n - 1 - l;\n"
    "  short4 v = s[m];\n"
    "  double2 e = kd[l % 8 < n ? l % 8 : 0];\n"
    "  long r = c[m] + (long)(d[m] * 4.0) + v.x + v.y * 2 + v.z * 3 + v.w + i1[m] + kb[l % 3] + ki + (long)(e.x - e.y);\n"
    "  out[get_global_id(0)] = r + ((((size_t)d) & 7) == 0 ? 0 : 1000000) + ((((size_t)kd) & 15) == 0 ? 0 : 2000000)\n"
    "      + ((((size_t)s) & 7) == 0 ? 0 : 4000000);\n"
    "}\n"
    /* Local atomics of every 1.x kind on a few shared words. */
    "kernel void local_atomics(global const int *in, global int *out) {\n"
    "  local int w[8];\n"
    "  size_t l = get_local_id(0);\n"
    "  if (l == 0) { w[0] = 0; w[1] = 0; w[2] = 0x7fffffff; w[3] = -0x7fffffff; w[4] = 0; w[5] = -1; w[6] = 0; w[7] = -1; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = in[get_global_id(0)];\n"
    "  atomic_add(&w[0], v);\n"
    "  atomic_sub(&w[1], v);\n"
    "  atomic_min(&w[2], v);\n"
    "  atomic_max(&w[3], v);\n"
    "  atomic_or(&w[4], 1 << (v & 31));\n"
    "  atomic_and(&w[5], ~(1 << (v & 31)));\n"
    "  atomic_xor(&w[6], v);\n"
    "  atomic_inc(&w[7]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < 8) out[get_group_id(0) * 8 + l] = w[l];\n"
    "}\n"
    /* Global atomics: counters, min/max, xchg, and a float add by compare-exchange. */
    "kernel void global_atomics(global const int *in, global int *w, global float *fsum) {\n"
    "  int v = in[get_global_id(0)];\n"
    "  atomic_add(&w[0], v);\n"
    "  atomic_inc(&w[1]);\n"
    "  atomic_dec(&w[2]);\n"
    "  atomic_min(&w[3], v);\n"
    "  atomic_max(&w[4], v);\n"
    "  atomic_xchg(&w[5], 7);\n"
    "  atom_add(&w[6], 2);\n"
    "  union { float f; int i; } old, nw;\n"
    "  do {\n"
    "    old.f = *fsum;\n"
    "    nw.f = old.f + (float)(v & 15);\n"
    "  } while (atomic_cmpxchg((volatile global int *)fsum, old.i, nw.i) != old.i);\n"
    "}\n"
    /* Unique slot allocation with a global atomic counter (each work-item writes one slot). */
    "kernel void atomic_compact(global const int *in, global int *out, global uint *count) {\n"
    "  int v = in[get_global_id(0)];\n"
    "  if (v % 3 == 0) out[atomic_inc(count)] = v;\n"
    "}\n"
    /* 64-bit global atomics. */
    "kernel void atomics64(global const long *in, global long *w) {\n"
    "  long v = in[get_global_id(0)];\n"
    "  atom_add(&w[0], v);\n"
    "  atom_max(&w[1], v);\n"
    "  atom_min(&w[2], v);\n"
    "  atom_xor(&w[3], v);\n"
    "  atom_inc((global ulong *)&w[4]);\n"
    "}\n"
    /* async_work_group_copy into local memory, scaled, and copied back out. */
    "kernel void async_copy(global const float *in, global float *out) {\n"
    "  local float buf[64];\n"
    "  size_t n = get_local_size(0), base = get_group_id(0) * n;\n"
    "  event_t e = async_work_group_copy(buf, in + base, n, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  buf[get_local_id(0)] *= 2.0f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  e = async_work_group_copy(out + base, buf, n, 0);\n"
    "  wait_group_events(1, &e);\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, KERNELS_BUILD_OPTIONS);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

static void test_transpose_tiles(void **state)
{
    (void)state;
    static const size_t tiles[][2] = {{1, 1}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, {3, 3}, {7, 7}, {10, 10}};
    for (size_t t = 0; t < ARRAY_LEN(tiles); t++) {
        size_t local[2] = {tiles[t][0], tiles[t][1]};
        int w = (int)(local[0] * 3), h = (int)(local[1] * 2);
        size_t global[2] = {(size_t)w, (size_t)h}, n = (size_t)(w * h);
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)i;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("transpose", 2, NULL, global, local,
                                KARGS(KARG(bi), KARG(bo), KARG(w), KARG(h),
                                      KLOCAL(local[1] * (local[0] + 1) * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (out[x * h + y] != in[y * w + x])
                    fail_msg("tile %zux%zu: out[%d][%d] = %g, want %g", local[0], local[1], x, y, out[x * h + y],
                             in[y * w + x]);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_transpose_square_coalesced(void **state)
{
    (void)state;
    static const size_t ts[] = {1, 8, 16};
    for (size_t t = 0; t < ARRAY_LEN(ts); t++) {
        size_t local[2] = {ts[t], ts[t]};
        int w = (int)(ts[t] * 4), h = (int)(ts[t] * 3);
        size_t global[2] = {(size_t)w, (size_t)h}, n = (size_t)(w * h);
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 100000);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("transpose_square", 2, NULL, global, local, KARGS(KARG(bi), KARG(bo), KARG(w), KARG(h))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (out[x * h + y] != in[y * w + x])
                    fail_msg("tile %zu: out[%d][%d] = %g, want %g", ts[t], x, y, out[x * h + y], in[y * w + x]);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_scan_inclusive(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 7, 64, 100, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 201) - 100;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("scan_inclusive", 1, NULL, &n, &ls,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        int run = 0;
        for (size_t g = 0; g < n; g++) {
            run = (g % ls == 0 ? 0 : run) + in[g];
            if (out[g] != run)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], run);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_scan_blelloch(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 64, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 3, block = 2 * ls, n = block * groups, global = ls * groups;
        cl_uint *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), sums[3];
        for (size_t i = 0; i < n; i++)
            in[i] = rng_next() % 1000;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out), bs = buf_poisoned(sizeof sums);
        assert_int_equal(launch("scan_blelloch", 1, NULL, &global, &ls,
                                KARGS(KARG(bi), KARG(bo), KARG(bs), KLOCAL(block * sizeof(cl_uint)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        buf_read(bs, sizeof sums, sums);
        for (size_t g = 0; g < groups; g++) {
            cl_uint run = 0;
            for (size_t i = 0; i < block; i++) {
                if (out[g * block + i] != run)
                    fail_msg("local %zu group %zu at %zu: %u, want %u", ls, g, i, out[g * block + i], run);
                run += in[g * block + i];
            }
            if (sums[g] != run)
                fail_msg("local %zu group %zu: total %u, want %u", ls, g, sums[g], run);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        clReleaseMemObject(bs);
        free(in);
        free(out);
    }
}

static void test_histogram_local_atomics(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64, 100, 256, 1024};
    enum { N = 50000 };
    unsigned char *data = malloc(N);
    for (size_t i = 0; i < N; i++) /* skewed so some bins are hot */
        data[i] = (unsigned char)(rng_next() % 7 == 0 ? 42 : rng_next() % 256);
    cl_uint want[256] = {0}, got[256];
    for (size_t i = 0; i < N; i++)
        want[data[i]]++;
    cl_mem bd = buf_new(N, data);
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], global = ls * 4;
        cl_uint n = N;
        cl_mem bb = buf_new(sizeof got, NULL);
        cl_uint zero = 0;
        assert_int_equal(clEnqueueFillBuffer(env.queue, bb, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(launch("histogram", 1, NULL, &global, &ls, KARGS(KARG(bd), KARG(n), KARG(bb))), CL_SUCCESS);
        buf_read(bb, sizeof got, got);
        for (int b = 0; b < 256; b++)
            if (got[b] != want[b])
                fail_msg("local %zu: bin %d = %u, want %u", ls, b, got[b], want[b]);
        clReleaseMemObject(bb);
    }
    clReleaseMemObject(bd);
    free(data);
}

static void test_strided_counters(void **state)
{
    (void)state;
    enum { N = 1000, G = 3 };
    static const size_t sizes[] = {1, 5, 16, 33, 64, 100};
    cl_int in[N], starts[G + 1] = {0, 170, 171, 900};
    for (int i = 0; i < N; i++)
        in[i] = (cl_int)(rng_next() % 1000) - 500;
    cl_mem bi = buf_new(sizeof in, in), bs = buf_new(sizeof starts, starts);
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        int ls = (int)sizes[t], gsz = ls * G;
        size_t local = (size_t)ls, global = (size_t)gsz;
        cl_int n = N, *want = calloc((size_t)gsz, sizeof *want), *got = calloc((size_t)gsz, sizeof *got),
               *lv = calloc((size_t)ls, sizeof *lv);
        for (int g = 0; g < G; g++) {
            for (int lid = 0; lid < ls; lid++) {
                int s = 0, i;
                for (i = lid; i < n; i += ls)
                    s += in[i];
                lv[lid] = s + i;
            }
            for (int lid = 0; lid < ls; lid++) {
                int gid = g * ls + lid, acc = 0;
                for (int j = starts[g] + lid; j < starts[g + 1]; j += ls)
                    acc += in[j] * (lid + 1);
                for (int k = 2 * gid; k + 1 < n; k += 2 * gsz)
                    acc += in[k] - in[k + 1];
                for (int r = 0; r < 3; r++)
                    for (int m = lid; m < n / 3 + r; m += ls)
                        if (!(in[m] & 1))
                            acc += m;
                want[gid] = acc + lv[(lid + 1) % ls];
            }
        }
        cl_mem bo = buf_new((size_t)gsz * sizeof *got, NULL);
        assert_int_equal(launch("strided_counters", 1, NULL, &global, &local,
                                KARGS(KARG(bi), KARG(bs), KARG(n), KARG(bo), KLOCAL(local * sizeof(cl_int)))),
                         CL_SUCCESS);
        buf_read(bo, (size_t)gsz * sizeof *got, got);
        for (int x = 0; x < gsz; x++)
            if (got[x] != want[x])
                fail_msg("local %d: work-item %d = %d, want %d", ls, x, got[x], want[x]);
        clReleaseMemObject(bo);
        free(want);
        free(got);
        free(lv);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bs);
}

static void test_stencil_1d(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 7, 64, 100, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int ni = (int)n;
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 1000);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("stencil_1d", 1, NULL, &n, &ls,
                                KARGS(KARG(bi), KARG(bo), KARG(ni), KLOCAL((ls + 2) * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            float l = g > 0 ? in[g - 1] : 0.0f, r = g + 1 < n ? in[g + 1] : 0.0f;
            float want = 0.25f * l + 0.5f * in[g] + 0.25f * r;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %g, want %g", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_stencil_2d(void **state)
{
    (void)state;
    static const size_t tiles[][2] = {{1, 1}, {3, 7}, {8, 8}, {16, 16}, {32, 32}, {64, 1}, {10, 10}};
    for (size_t t = 0; t < ARRAY_LEN(tiles); t++) {
        size_t local[2] = {tiles[t][0], tiles[t][1]};
        int w = (int)(local[0] * 3), h = (int)(local[1] * 2);
        size_t global[2] = {(size_t)w, (size_t)h}, n = (size_t)(w * h);
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 64);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("stencil_2d", 2, NULL, global, local,
                                KARGS(KARG(bi), KARG(bo), KARG(w), KARG(h),
                                      KLOCAL((local[0] + 2) * (local[1] + 2) * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
#define AT(x, y) in[((y) < 0 ? 0 : (y) >= h ? h - 1 : (y)) * w + ((x) < 0 ? 0 : (x) >= w ? w - 1 : (x))]
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float want = AT(x, y) * 4.0f - AT(x - 1, y) - AT(x + 1, y) - AT(x, y - 1) - AT(x, y + 1);
                if (out[y * w + x] != want)
                    fail_msg("tile %zux%zu at (%d,%d): %g, want %g", local[0], local[1], x, y, out[y * w + x], want);
            }
#undef AT
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_matmul_tiled(void **state)
{
    (void)state;
    enum { TS = 8, M = 24, N = 40, K = 32 };
    float *A = malloc(M * K * sizeof *A), *B = malloc(K * N * sizeof *B), *C = malloc(M * N * sizeof *C);
    for (int i = 0; i < M * K; i++)
        A[i] = (float)(rng_next() % 7) - 3.0f;
    for (int i = 0; i < K * N; i++)
        B[i] = (float)(rng_next() % 5) - 2.0f;
    cl_mem bA = buf_new(M * K * sizeof *A, A), bB = buf_new(K * N * sizeof *B, B), bC = buf_poisoned(M * N * sizeof *C);
    int m = M, n = N, k = K;
    size_t global[2] = {N, M}, local[2] = {TS, TS};
    assert_int_equal(launch("matmul_tiled", 2, NULL, global, local,
                            KARGS(KARG(bA), KARG(bB), KARG(bC), KARG(m), KARG(n), KARG(k))),
                     CL_SUCCESS);
    buf_read(bC, M * N * sizeof *C, C);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float want = 0.0f;
            for (int j = 0; j < K; j++)
                want += A[r * K + j] * B[j * N + c];
            if (C[r * N + c] != want)
                fail_msg("C[%d][%d] = %g, want %g", r, c, C[r * N + c], want);
        }
    clReleaseMemObject(bA);
    clReleaseMemObject(bB);
    clReleaseMemObject(bC);
    free(A);
    free(B);
    free(C);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void test_bitonic_local(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 4, 64, 512};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 3, block = 2 * ls, n = block * groups, global = ls * groups;
        int *data = malloc(n * sizeof *data), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            data[i] = (int)(rng_next() % 2000) - 1000;
        cl_mem b = buf_new(n * sizeof *data, data);
        assert_int_equal(launch("bitonic_local", 1, NULL, &global, &ls, KARGS(KARG(b), KLOCAL(block * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(b, n * sizeof *out, out);
        for (size_t g = 0; g < groups; g++)
            qsort(data + g * block, block, sizeof *data, cmp_int);
        for (size_t i = 0; i < n; i++)
            if (out[i] != data[i])
                fail_msg("local %zu at %zu: %d, want %d", ls, i, out[i], data[i]);
        clReleaseMemObject(b);
        free(data);
        free(out);
    }
}

static void test_local_mix(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 8, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        cl_long *out = malloc(n * sizeof *out);
        cl_mem bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("local_mix", 1, NULL, &n, &ls,
                                KARGS(KARG(bo), KLOCAL(ls), KLOCAL(ls * sizeof(cl_double)),
                                      KLOCAL(ls * sizeof(cl_short4)), KLOCAL(ls * sizeof(cl_int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            long l = (long)(g % ls), m = (long)ls - 1 - l;
            long e = l % 8 < (long)ls ? l % 8 : 0;
            long want = (signed char)(m * 3) + (long)((double)m * 0.5 * 4.0) + m + (-m) * 2 + (2 * m) * 3 + 7 +
                        m * m + (200 + l % 3) + 12345 + 2 * e;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %ld, want %ld (a value >= 1000000 means a misaligned local)", ls, g,
                         (long)out[g], want);
        }
        clReleaseMemObject(bo);
        free(out);
    }
}

static void test_local_atomics(void **state)
{
    (void)state;
    static const size_t sizes[] = {8, 9, 64, 100, 256}; /* >= 8: each group writes back 8 words */
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 3, n = ls * groups;
        int *in = malloc(n * sizeof *in), out[3 * 8];
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 20001) - 10000;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(sizeof out);
        assert_int_equal(launch("local_atomics", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (size_t g = 0; g < groups; g++) {
            int w[8] = {0, 0, 0x7fffffff, -0x7fffffff, 0, -1, 0, -1};
            for (size_t i = 0; i < ls; i++) {
                int v = in[g * ls + i];
                w[0] += v;
                w[1] -= v;
                w[2] = v < w[2] ? v : w[2];
                w[3] = v > w[3] ? v : w[3];
                w[4] |= (int)(1u << (v & 31));
                w[5] &= ~(int)(1u << (v & 31));
                w[6] ^= v;
                w[7]++;
            }
            for (int j = 0; j < 8; j++)
                if (out[g * 8 + j] != w[j])
                    fail_msg("local %zu group %zu word %d: %d, want %d", ls, g, j, out[g * 8 + j], w[j]);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
    }
}

static void test_global_atomics(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 5;
        int *in = malloc(n * sizeof *in);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 2001) - 1000;
        int w[7] = {5, 0, 100, 0x7fffffff, -0x7fffffff, 0, 0};
        float fs = 0.5f, got_f;
        cl_mem bi = buf_new(n * sizeof *in, in), bw = buf_new(sizeof w, w), bf = buf_new(sizeof fs, &fs);
        assert_int_equal(launch("global_atomics", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bw), KARG(bf))), CL_SUCCESS);
        int got[7];
        buf_read(bw, sizeof got, got);
        buf_read(bf, sizeof got_f, &got_f);
        float fwant = fs;
        for (size_t i = 0; i < n; i++) {
            w[0] += in[i];
            w[1]++;
            w[2]--;
            w[3] = in[i] < w[3] ? in[i] : w[3];
            w[4] = in[i] > w[4] ? in[i] : w[4];
            w[6] += 2;
            fwant += (float)(in[i] & 15); /* integers: exact in any order */
        }
        w[5] = 7;
        for (int j = 0; j < 7; j++)
            if (got[j] != w[j])
                fail_msg("local %zu word %d: %d, want %d", ls, j, got[j], w[j]);
        if (got_f != fwant)
            fail_msg("local %zu: cmpxchg float sum %g, want %g", ls, got_f, fwant);
        clReleaseMemObject(bi);
        clReleaseMemObject(bw);
        clReleaseMemObject(bf);
        free(in);
    }
}

static void test_atomic_compact(void **state)
{
    (void)state;
    size_t n = 3000, ls = 100;
    int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)i;
    cl_uint count = 0;
    cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out), bc = buf_new(sizeof count, &count);
    assert_int_equal(launch("atomic_compact", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KARG(bc))), CL_SUCCESS);
    buf_read(bc, sizeof count, &count);
    assert_int_equal(count, 1000);
    buf_read(bo, n * sizeof *out, out);
    qsort(out, count, sizeof *out, cmp_int);
    for (cl_uint i = 0; i < count; i++)
        if (out[i] != (int)(3 * i))
            fail_msg("slot %u: %d, want %d (lost or duplicated slot)", i, out[i], (int)(3 * i));
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseMemObject(bc);
    free(in);
    free(out);
}

static void test_atomics64(void **state)
{
    (void)state;
    size_t n = 777, ls = 7;
    cl_long *in = malloc(n * sizeof *in);
    for (size_t i = 0; i < n; i++)
        in[i] = ((cl_long)(rng_next() % 100000) - 50000) * 1000000007LL;
    cl_long w[5] = {1LL << 40, INT64_MIN, INT64_MAX, 0, 0}, got[5];
    cl_mem bi = buf_new(n * sizeof *in, in), bw = buf_new(sizeof w, w);
    assert_int_equal(launch("atomics64", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bw))), CL_SUCCESS);
    buf_read(bw, sizeof got, got);
    for (size_t i = 0; i < n; i++) {
        w[0] += in[i];
        w[1] = in[i] > w[1] ? in[i] : w[1];
        w[2] = in[i] < w[2] ? in[i] : w[2];
        w[3] ^= in[i];
        w[4]++;
    }
    for (int j = 0; j < 5; j++)
        if (got[j] != w[j])
            fail_msg("word %d: %lld, want %lld", j, (long long)got[j], (long long)w[j]);
    clReleaseMemObject(bi);
    clReleaseMemObject(bw);
    free(in);
}

static void test_async_copy(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 4;
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)i - 3.5f;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("async_copy", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t i = 0; i < n; i++)
            if (out[i] != in[i] * 2.0f)
                fail_msg("local %zu at %zu: %g, want %g", ls, i, out[i], in[i] * 2.0f);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose_tiles),
        cmocka_unit_test(test_transpose_square_coalesced),
        cmocka_unit_test(test_scan_inclusive),
        cmocka_unit_test(test_scan_blelloch),
        cmocka_unit_test(test_histogram_local_atomics),
        cmocka_unit_test(test_strided_counters),
        cmocka_unit_test(test_stencil_1d),
        cmocka_unit_test(test_stencil_2d),
        cmocka_unit_test(test_matmul_tiled),
        cmocka_unit_test(test_bitonic_local),
        cmocka_unit_test(test_local_mix),
        cmocka_unit_test(test_local_atomics),
        cmocka_unit_test(test_global_atomics),
        cmocka_unit_test(test_atomic_compact),
        cmocka_unit_test(test_atomics64),
        cmocka_unit_test(test_async_copy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
