/* tests/e2e/test_kernels_barriers.c — barriers everywhere OpenCL C allows them, end to end:
 * a tree reduction with the barrier inside the loop (local sizes 1..1024, 1-3 dimensions),
 * barriers inside uniform conditionals, several in sequence, inside called functions, inside
 * while/do/switch/break/continue shapes; work-item-dependent loops between barriers;
 * work-items that loop a different number of times before a barrier; private arrays and
 * values live across barriers; early return of some work-items where no barrier follows.
 * Every result is compared with a reference computed on the host. */
#include "test_kernels_harness.h"

#include <unistd.h>

/* test_kernels_opt_disable.c includes this file again with "-cl-opt-disable", so the whole
 * suite also runs on the unoptimized path of the compiler. */
#ifndef KERNELS_BUILD_OPTIONS
#define KERNELS_BUILD_OPTIONS NULL
#endif

/* Work-groups of one work-item come first in the size lists. */
#define LS1 1,
#define LS1_2D {1, 1},
#define LS1_3D {1, 1, 1},

static const char *source =
    /* Tree reduction of ints: barrier inside the loop, works for any local size. */
    "kernel void reduce_tree(global const int *in, global int *out, local int *tmp) {\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = 1; s < n; s *= 2) {\n"
    "    if (lid % (2 * s) == 0 && lid + s < n) tmp[lid] += tmp[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* Classic halving reduction with a kernel-scope __local array (power-of-two sizes). */
    "kernel void reduce_halving(global const float *in, global float *out) {\n"
    "  local float tmp[1024];\n"
    "  uint lid = get_local_id(0);\n"
    "  tmp[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) tmp[lid] += tmp[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* 2-D reduction over a whole work-group, flattened local id. */
    "kernel void reduce_2d(global const int *in, global int *out, local int *tmp) {\n"
    "  size_t lx = get_local_id(0), ly = get_local_id(1);\n"
    "  size_t w = get_local_size(0), n = w * get_local_size(1), lid = ly * w + lx;\n"
    "  tmp[lid] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = 1; s < n; s *= 2) {\n"
    "    if (lid % (2 * s) == 0 && lid + s < n) tmp[lid] += tmp[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* 3-D: each work-item writes its flattened id, then reads the mirror element of its group. */
    "kernel void mirror_3d(global int *out, local int *tmp) {\n"
    "  size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);\n"
    "  size_t sx = get_local_size(0), sy = get_local_size(1), sz = get_local_size(2);\n"
    "  size_t n = sx * sy * sz, lid = (lz * sy + ly) * sx + lx;\n"
    "  size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);\n"
    "  tmp[lid] = (int)(g * 3 + 1);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = tmp[n - 1 - lid];\n"
    "}\n"
    /* Barriers inside a uniform conditional (argument) and a group-uniform one (group id). */
    "kernel void uniform_if(global int *data, int flag) {\n"
    "  local int tmp[256];\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
    "  int v = data[g];\n"
    "  if (flag) {\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v += tmp[(lid + 1) % n];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  } else {\n"
    "    v -= 1;\n"
    "  }\n"
    "  if (get_group_id(0) % 2 == 1) {\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = tmp[n - 1 - lid] * 2;\n"
    "  } else {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = v + 1000;\n"
    "  }\n"
    "  data[g] = v;\n"
    "}\n"
    /* Three barriers in sequence, rotating values through local memory. */
    "kernel void barrier_sequence(global const int *in, global int *out) {\n"
    "  local int a[128];\n"
    "  local int b[128];\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  a[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  b[lid] = a[(lid + 1) % n] * 2;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[lid] = b[(lid + 2) % n] + 1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = a[(lid + 3) % n] - (int)lid;\n"
    "}\n"
    /* A barrier inside a called (non-kernel) function, called twice. */
    "int group_sum(local int *tmp, int v) {\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[lid] = v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (size_t i = 0; i < n; i++) s += tmp[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  return s;\n"
    "}\n"
    "kernel void barrier_in_function(global const int *in, global int *out, local int *tmp) {\n"
    "  int v = in[get_global_id(0)];\n"
    "  int s1 = group_sum(tmp, v);\n"
    "  int s2 = group_sum(tmp, v * v);\n"
    "  out[get_global_id(0)] = s1 * 1000 + s2 - v;\n"
    "}\n"
    /* Work-items loop a different number of times before the barrier. */
    "kernel void varying_loop_before_barrier(global const int *in, global int *out, local int *tmp) {\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  int acc = 0;\n"
    "  for (int i = 0; i <= (int)(lid % 7); i++) acc += in[get_global_id(0)] + i;\n"
    "  tmp[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tmp[(lid + n / 2) % n] - acc;\n"
    "}\n"
    /* A work-item-dependent loop between two barriers, inside a uniform loop. */
    "kernel void varying_loop_between_barriers(global const int *in, global int *out, local int *tmp, int rounds) {\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  int v = in[get_global_id(0)];\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int s = 0;\n"
    "    for (size_t j = 0; j <= lid; j++) s += tmp[j] & 0xff;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = s + r;\n"
    "  }\n"
    "  out[get_global_id(0)] = v;\n"
    "}\n"
    /* A private array written before and read after barriers, with an index only known at run time. */
    "kernel void private_array_across_barrier(global const int *in, global int *out, local int *tmp) {\n"
    "  int p[8];\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  int v = in[get_global_id(0)];\n"
    "  for (int i = 0; i < 8; i++) p[i] = v * (i + 1);\n"
    "  tmp[lid] = v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int k = tmp[(lid + 1) % n] & 7;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  p[k] += 1;\n"
    "  tmp[lid] = p[7 - k];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (int i = 0; i < 8; i++) s += p[i] * (i + 1);\n"
    "  out[get_global_id(0)] = s + tmp[(lid + n - 1) % n];\n"
    "}\n"
    /* Values of many types live across two barriers. */
    "kernel void values_across_barriers(global const float *in, global float *out, local float *tmp) {\n"
    "  size_t lid = get_local_id(0), g = get_global_id(0);\n"
    "  float f = in[g];\n"
    "  int i = (int)g * 7 - 3;\n"
    "  double d = (double)f * 0.5;\n"
    "  float4 v = (float4)(f, f + 1.0f, f + 2.0f, f + 3.0f);\n"
    "  char c = (char)(g & 0x3f);\n"
    "  ulong u = (ulong)g << 33;\n"
    "  tmp[lid] = f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  float nb = tmp[get_local_size(0) - 1 - lid];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  tmp[lid] = nb;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = tmp[lid] + (float)i + (float)d + v.x + v.y + v.z + v.w + (float)c + (float)(u >> 33);\n"
    "}\n"
    /* Early return where no barrier follows: guarded tail, and a return after the last barrier. */
    "kernel void early_return(global const int *in, global int *out, int n) {\n"
    "  local int tmp[64];\n"
    "  size_t lid = get_local_id(0), g = get_global_id(0);\n"
    "  tmp[lid] = g < (size_t)n ? in[g] : -1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int nb = tmp[lid ^ 1];\n"
    "  if (g >= (size_t)n) return;\n"
    "  if (lid % 3 == 2) { out[g] = -nb; return; }\n"
    "  out[g] = nb + 1;\n"
    "}\n"
    /* A plain early return with no barrier at all. */
    "kernel void guarded_copy(global const int *in, global int *out, uint n) {\n"
    "  uint g = get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  out[g] = in[g] * 2 + 1;\n"
    "}\n"
    /* Barriers in while / do-while loops with a uniform trip count, and a uniform break. */
    "kernel void loops_uniform(global int *data, int count) {\n"
    "  local int tmp[100];\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  int v = data[get_global_id(0)];\n"
    "  int r = 0;\n"
    "  while (r < count) {\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = tmp[(lid + 1) % n] + 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    r++;\n"
    "  }\n"
    "  int k = 0;\n"
    "  do {\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    v = v ^ tmp[(lid + 3) % n];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (k == count) break;\n"
    "    k++;\n"
    "  } while (1);\n"
    "  data[get_global_id(0)] = v;\n"
    "}\n"
    /* continue and switch on uniform values with barriers in the taken paths. */
    "kernel void switch_continue(global int *data, int mode) {\n"
    "  local int tmp[64];\n"
    "  size_t lid = get_local_id(0), n = get_local_size(0);\n"
    "  int v = data[get_global_id(0)];\n"
    "  for (int r = 0; r < 6; r++) {\n"
    "    if (r % 3 == 1) continue;\n"
    "    tmp[lid] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    switch ((mode + r) % 3) {\n"
    "    case 0: v = tmp[(lid + 1) % n]; break;\n"
    "    case 1: v = v + tmp[0]; break;\n"
    "    default: v = v * 3 - tmp[n - 1]; break;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  data[get_global_id(0)] = v;\n"
    "}\n"
    /* Nested uniform loops with barriers: tiled matrix-vector product y = A x. */
    "kernel void matvec_tiled(global const float *A, global const float *x, global float *y, int cols, local float *xt) {\n"
    "  size_t row = get_global_id(0), lid = get_local_id(0), ts = get_local_size(0);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < cols; t += (int)ts) {\n"
    "    if (t + (int)lid < cols) xt[lid] = x[t + lid];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int j = 0; j < (int)ts && t + j < cols; j++) acc += A[row * cols + t + j] * xt[j];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  y[row] = acc;\n"
    "}\n"
    /* Communication through global memory inside a group with a global fence. */
    "kernel void global_fence(global int *scratch, global int *out) {\n"
    "  size_t g = get_global_id(0), lid = get_local_id(0), n = get_local_size(0), base = g - lid;\n"
    "  scratch[g] = (int)(g * g);\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  out[g] = scratch[base + (lid + 1) % n] - scratch[g];\n"
    "}\n"
    /* Barrier in a loop whose trip count is uniform but read from local memory. */
    "kernel void loop_count_from_local(global const int *counts, global int *out) {\n"
    "  local int cnt;\n"
    "  local int acc[32];\n"
    "  size_t lid = get_local_id(0);\n"
    "  if (lid == 0) cnt = counts[get_group_id(0)];\n"
    "  acc[lid] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = 0; i < cnt; i++) {\n"
    "    acc[lid] += i + (int)lid;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) acc[0] += 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  out[get_global_id(0)] = acc[lid];\n"
    "}\n"
    /* printf between barriers, of a value from before them and a neighbour's from local memory. */
    "kernel void printf_between_barriers(int tag) {\n"
    "  local int t[8];\n"
    "  int i = get_global_id(0), l = get_local_id(0), n = get_local_size(0), mine = i * 10;\n"
    "  for (int r = 0; r < 2; r++) {\n"
    "    t[l] = mine + r;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    printf(\"%d r%d i%d mine%d nb%d\\n\", tag, r, i, mine, t[(l + 1) % n]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
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

static const size_t local_sizes[] = {LS1 3, 7, 64, 100, 256, 1024};

static void test_reduce_tree_local_sizes(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], groups = ls >= 256 ? 3 : 5, n = ls * groups;
        int *in = malloc(n * sizeof *in), out[8];
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 2001) - 1000;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(groups * sizeof(int));
        assert_int_equal(launch("reduce_tree", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, groups * sizeof(int), out);
        for (size_t g = 0; g < groups; g++) {
            int want = 0;
            for (size_t i = 0; i < ls; i++)
                want += in[g * ls + i];
            if (out[g] != want)
                fail_msg("local %zu group %zu: sum %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
    }
}

static void test_reduce_halving_pow2(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 2, 64, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 4, n = ls * groups;
        float *in = malloc(n * sizeof *in), out[4];
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 64) * 0.25f; /* sums are exact in float */
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(sizeof out);
        assert_int_equal(launch("reduce_halving", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (size_t g = 0; g < groups; g++) {
            double want = 0;
            for (size_t i = 0; i < ls; i++)
                want += in[g * ls + i];
            if (out[g] != (float)want)
                fail_msg("local %zu group %zu: sum %g, want %g", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
    }
}

static void test_reduce_2d(void **state)
{
    (void)state;
    static const size_t shapes[][2] = {LS1_2D {3, 7}, {8, 8}, {16, 16}, {32, 32}, {10, 10}, {1, 64}, {256, 1}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        size_t local[2] = {shapes[t][0], shapes[t][1]}, ng[2] = {3, 2};
        size_t global[2] = {local[0] * ng[0], local[1] * ng[1]}, n = global[0] * global[1];
        int *in = malloc(n * sizeof *in), out[6];
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(sizeof out);
        assert_int_equal(launch("reduce_2d", 2, NULL, global, local,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(local[0] * local[1] * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (size_t gy = 0; gy < ng[1]; gy++)
            for (size_t gx = 0; gx < ng[0]; gx++) {
                int want = 0;
                for (size_t y = 0; y < local[1]; y++)
                    for (size_t x = 0; x < local[0]; x++)
                        want += in[(gy * local[1] + y) * global[0] + gx * local[0] + x];
                if (out[gy * ng[0] + gx] != want)
                    fail_msg("local %zux%zu group (%zu,%zu): %d, want %d", local[0], local[1], gx, gy,
                             out[gy * ng[0] + gx], want);
            }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
    }
}

static void test_mirror_3d(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {LS1_3D {2, 3, 5}, {4, 4, 4}, {8, 8, 16}, {10, 10, 1}, {1, 7, 3}, {3, 1, 1}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        size_t local[3] = {shapes[t][0], shapes[t][1], shapes[t][2]};
        size_t global[3] = {local[0] * 2, local[1] * 2, local[2] * (local[2] > 8 ? 1 : 2)};
        size_t n = global[0] * global[1] * global[2], ln = local[0] * local[1] * local[2];
        int *out = malloc(n * sizeof *out);
        cl_mem bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("mirror_3d", 3, NULL, global, local, KARGS(KARG(bo), KLOCAL(ln * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t z = 0; z < global[2]; z++)
            for (size_t y = 0; y < global[1]; y++)
                for (size_t x = 0; x < global[0]; x++) {
                    size_t lx = x % local[0], ly = y % local[1], lz = z % local[2];
                    size_t lid = (lz * local[1] + ly) * local[0] + lx, m = ln - 1 - lid;
                    size_t mx = m % local[0], my = m / local[0] % local[1], mz = m / (local[0] * local[1]);
                    size_t gx = x - lx + mx, gy = y - ly + my, gz = z - lz + mz;
                    int want = (int)(((gz * global[1] + gy) * global[0] + gx) * 3 + 1);
                    size_t g = (z * global[1] + y) * global[0] + x;
                    if (out[g] != want)
                        fail_msg("local %zux%zux%zu at (%zu,%zu,%zu): %d, want %d", local[0], local[1], local[2], x,
                                 y, z, out[g], want);
                }
        clReleaseMemObject(bo);
        free(out);
    }
}

static void test_uniform_if(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 7, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++)
        for (int flag = 0; flag < 2; flag++) {
            size_t ls = sizes[t], n = ls * 4;
            int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
            for (size_t i = 0; i < n; i++)
                in[i] = (int)(rng_next() % 1000);
            cl_mem b = buf_new(n * sizeof *in, in);
            assert_int_equal(launch("uniform_if", 1, NULL, &n, &ls, KARGS(KARG(b), KARG(flag))), CL_SUCCESS);
            buf_read(b, n * sizeof *out, out);
            for (size_t g = 0; g < n; g++) {
                size_t grp = g / ls, lid = g % ls;
                int v1[2]; /* v after the first conditional, for g and its mirror */
                size_t who[2] = {g, grp * ls + ls - 1 - lid};
                for (int w = 0; w < 2; w++) {
                    size_t l = who[w] % ls;
                    v1[w] = flag ? in[who[w]] + in[grp * ls + (l + 1) % ls] : in[who[w]] - 1;
                }
                int want = grp % 2 ? v1[1] * 2 : v1[0] + 1000;
                if (out[g] != want)
                    fail_msg("local %zu flag %d at %zu: %d, want %d", ls, flag, g, out[g], want);
            }
            clReleaseMemObject(b);
            free(in);
            free(out);
        }
}

static void test_barrier_sequence(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 64, 100, 128};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 5000);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("barrier_sequence", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, lid = g % ls;
            size_t l3 = (lid + 3) % ls, l2 = (l3 + 2) % ls, l1 = (l2 + 1) % ls;
            int want = in[base + l1] * 2 + 1 - (int)lid;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_barrier_in_function(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 7, 64, 100};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 21) - 10;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(
            launch("barrier_in_function", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)))),
            CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls;
            int s1 = 0, s2 = 0;
            for (size_t i = 0; i < ls; i++) {
                s1 += in[base + i];
                s2 += in[base + i] * in[base + i];
            }
            int want = s1 * 1000 + s2 - in[g];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_varying_loop_before_barrier(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], n = ls * 2;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *acc = malloc(n * sizeof *acc);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100);
        for (size_t i = 0; i < n; i++) {
            acc[i] = 0;
            for (int j = 0; j <= (int)(i % ls % 7); j++)
                acc[i] += in[i] + j;
        }
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("varying_loop_before_barrier", 1, NULL, &n, &ls,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, lid = g % ls;
            int want = acc[base + (lid + ls / 2) % ls] - acc[g];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
        free(acc);
    }
}

static void test_varying_loop_between_barriers(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 64, 100, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        int rounds = 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *v = malloc(n * sizeof *v),
            *nv = malloc(n * sizeof *nv);
        for (size_t i = 0; i < n; i++)
            v[i] = in[i] = (int)(rng_next() % 100000);
        for (int r = 0; r < rounds; r++) {
            for (size_t i = 0; i < n; i++) {
                size_t base = i - i % ls;
                int s = 0;
                for (size_t j = 0; j <= i % ls; j++)
                    s += v[base + j] & 0xff;
                nv[i] = s + r;
            }
            memcpy(v, nv, n * sizeof *v);
        }
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("varying_loop_between_barriers", 1, NULL, &n, &ls,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)), KARG(rounds))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++)
            if (out[g] != v[g])
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], v[g]);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
        free(v);
        free(nv);
    }
}

static void test_private_array_across_barrier(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(local_sizes); t++) {
        size_t ls = local_sizes[t], n = ls * 2;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *tmpv = malloc(n * sizeof *tmpv),
            *sum = malloc(n * sizeof *sum);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 1000);
        for (size_t i = 0; i < n; i++) {
            size_t base = i - i % ls, lid = i % ls;
            int p[8];
            for (int j = 0; j < 8; j++)
                p[j] = in[i] * (j + 1);
            int k = in[base + (lid + 1) % ls] & 7;
            p[k] += 1;
            tmpv[i] = p[7 - k];
            sum[i] = 0;
            for (int j = 0; j < 8; j++)
                sum[i] += p[j] * (j + 1);
        }
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("private_array_across_barrier", 1, NULL, &n, &ls,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, lid = g % ls;
            int want = sum[g] + tmpv[base + (lid + ls - 1) % ls];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
        free(tmpv);
        free(sum);
    }
}

static void test_values_across_barriers(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 7, 64, 100, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(rng_next() % 256) * 0.5f;
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(
            launch("values_across_barriers", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(float)))),
            CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, lid = g % ls;
            float f = in[g];
            float want = in[base + ls - 1 - lid] + (float)((int)g * 7 - 3) + (float)((double)f * 0.5) + f +
                         (f + 1.0f) + (f + 2.0f) + (f + 3.0f) + (float)(g & 0x3f) + (float)g;
            if (!close_f(out[g], want, 1e-6))
                fail_msg("local %zu at %zu: %g, want %g", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_early_return(void **state)
{
    (void)state;
    static const size_t sizes[] = {2, 8, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3 - 1, global = round_up(n, ls);
        int *in = malloc(global * sizeof *in), *out = malloc(global * sizeof *out);
        for (size_t i = 0; i < global; i++)
            in[i] = (int)(rng_next() % 1000);
        cl_mem bi = buf_new(global * sizeof *in, in), bo = buf_new(global * sizeof *out, NULL);
        int sentinel = 0x7777;
        assert_int_equal(clEnqueueFillBuffer(env.queue, bo, &sentinel, sizeof sentinel, 0, global * sizeof *out, 0,
                                             NULL, NULL),
                         CL_SUCCESS);
        int ni = (int)n;
        assert_int_equal(launch("early_return", 1, NULL, &global, &ls, KARGS(KARG(bi), KARG(bo), KARG(ni))), CL_SUCCESS);
        buf_read(bo, global * sizeof *out, out);
        for (size_t g = 0; g < global; g++) {
            size_t lid = g % ls, nbg = g - lid + (lid ^ 1);
            int nb = nbg < n ? in[nbg] : -1;
            int want = g >= n ? sentinel : lid % 3 == 2 ? -nb : nb + 1;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_guarded_copy(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 7, 64, 100, 256, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], global = ls * 3;
        cl_uint n = (cl_uint)(global - ls / 2 - 1);
        int *in = malloc(global * sizeof *in), *out = malloc(global * sizeof *out);
        for (size_t i = 0; i < global; i++)
            in[i] = (int)i - 50;
        cl_mem bi = buf_new(global * sizeof *in, in), bo = buf_poisoned(global * sizeof *out);
        assert_int_equal(launch("guarded_copy", 1, NULL, &global, &ls, KARGS(KARG(bi), KARG(bo), KARG(n))), CL_SUCCESS);
        buf_read(bo, global * sizeof *out, out);
        for (size_t g = 0; g < global; g++) {
            int want = g < n ? in[g] * 2 + 1 : (int)0xA5A5A5A5;
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_loops_uniform(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 7, 64, 100};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++)
        for (int count = 0; count < 4; count += 3) {
            size_t ls = sizes[t], n = ls * 2;
            int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *v = malloc(n * sizeof *v),
                *nv = malloc(n * sizeof *nv);
            for (size_t i = 0; i < n; i++)
                v[i] = in[i] = (int)(rng_next() % 1000);
            for (int r = 0; r < count; r++) {
                for (size_t i = 0; i < n; i++)
                    nv[i] = v[i - i % ls + (i % ls + 1) % ls] + 1;
                memcpy(v, nv, n * sizeof *v);
            }
            for (int k = 0; k <= count; k++) {
                for (size_t i = 0; i < n; i++)
                    nv[i] = v[i] ^ v[i - i % ls + (i % ls + 3) % ls];
                memcpy(v, nv, n * sizeof *v);
            }
            cl_mem b = buf_new(n * sizeof *in, in);
            assert_int_equal(launch("loops_uniform", 1, NULL, &n, &ls, KARGS(KARG(b), KARG(count))), CL_SUCCESS);
            buf_read(b, n * sizeof *out, out);
            for (size_t g = 0; g < n; g++)
                if (out[g] != v[g])
                    fail_msg("local %zu count %d at %zu: %d, want %d", ls, count, g, out[g], v[g]);
            clReleaseMemObject(b);
            free(in);
            free(out);
            free(v);
            free(nv);
        }
}

static void test_switch_continue(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 7, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++)
        for (int mode = 0; mode < 3; mode++) {
            size_t ls = sizes[t], n = ls * 2;
            int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *v = malloc(n * sizeof *v),
                *nv = malloc(n * sizeof *nv);
            for (size_t i = 0; i < n; i++)
                v[i] = in[i] = (int)(rng_next() % 100);
            for (int r = 0; r < 6; r++) {
                if (r % 3 == 1)
                    continue;
                for (size_t i = 0; i < n; i++) {
                    size_t base = i - i % ls, lid = i % ls;
                    switch ((mode + r) % 3) {
                    case 0: nv[i] = v[base + (lid + 1) % ls]; break;
                    case 1: nv[i] = v[i] + v[base]; break;
                    default: nv[i] = v[i] * 3 - v[base + ls - 1]; break;
                    }
                }
                memcpy(v, nv, n * sizeof *v);
            }
            cl_mem b = buf_new(n * sizeof *in, in);
            assert_int_equal(launch("switch_continue", 1, NULL, &n, &ls, KARGS(KARG(b), KARG(mode))), CL_SUCCESS);
            buf_read(b, n * sizeof *out, out);
            for (size_t g = 0; g < n; g++)
                if (out[g] != v[g])
                    fail_msg("local %zu mode %d at %zu: %d, want %d", ls, mode, g, out[g], v[g]);
            clReleaseMemObject(b);
            free(in);
            free(out);
            free(v);
            free(nv);
        }
}

static void test_matvec_tiled(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 7, 64, 100};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], rows = ls * 2;
        int cols = 150;
        float *A = malloc(rows * cols * sizeof *A), *x = malloc(cols * sizeof *x), *y = malloc(rows * sizeof *y);
        for (size_t i = 0; i < rows * (size_t)cols; i++)
            A[i] = (float)(rng_next() % 9) - 4.0f;
        for (int j = 0; j < cols; j++)
            x[j] = (float)(rng_next() % 5);
        cl_mem bA = buf_new(rows * cols * sizeof *A, A), bx = buf_new(cols * sizeof *x, x),
               by = buf_poisoned(rows * sizeof *y);
        assert_int_equal(launch("matvec_tiled", 1, NULL, &rows, &ls,
                                KARGS(KARG(bA), KARG(bx), KARG(by), KARG(cols), KLOCAL(ls * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(by, rows * sizeof *y, y);
        for (size_t r = 0; r < rows; r++) {
            float want = 0.0f;
            for (int j = 0; j < cols; j++)
                want += A[r * cols + j] * x[j];
            if (y[r] != want)
                fail_msg("local %zu row %zu: %g, want %g", ls, r, y[r], want);
        }
        clReleaseMemObject(bA);
        clReleaseMemObject(bx);
        clReleaseMemObject(by);
        free(A);
        free(x);
        free(y);
    }
}

static void test_global_fence(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 7, 64, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 4;
        int *out = malloc(n * sizeof *out);
        cl_mem bs = buf_poisoned(n * sizeof *out), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("global_fence", 1, NULL, &n, &ls, KARGS(KARG(bs), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t nb = g - g % ls + (g % ls + 1) % ls;
            int want = (int)(nb * nb) - (int)(g * g);
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bs);
        clReleaseMemObject(bo);
        free(out);
    }
}

static void test_loop_count_from_local(void **state)
{
    (void)state;
    static const size_t sizes[] = {LS1 3, 32};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 5, n = ls * groups;
        int counts[5] = {0, 1, 4, 2, 7}, *out = malloc(n * sizeof *out);
        cl_mem bc = buf_new(sizeof counts, counts), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("loop_count_from_local", 1, NULL, &n, &ls, KARGS(KARG(bc), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            int lid = (int)(g % ls), c = counts[g / ls], want = 0;
            for (int i = 0; i < c; i++)
                want += i + lid + (lid == 0);
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bc);
        clReleaseMemObject(bo);
        free(out);
    }
}

/* Runs `printf_between_barriers` with stdout redirected to a temporary file; returns the text. */
static char *capture_printf(int tag, size_t global, size_t local)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    FILE *tmp = tmpfile();
    assert_true(saved >= 0 && tmp);
    assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
    cl_int err = launch("printf_between_barriers", 1, NULL, &global, &local, KARGS(KARG(tag)));
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    assert_int_equal(err, CL_SUCCESS);
    fseek(tmp, 0, SEEK_END);
    long size = ftell(tmp);
    rewind(tmp);
    char *text = calloc((size_t)size + 1, 1);
    assert_int_equal(fread(text, 1, (size_t)size, tmp), (size_t)size);
    fclose(tmp);
    return text;
}

static void test_printf_between_barriers(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 8};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        int tag = 4242 + (int)t;
        char *text = capture_printf(tag, n, ls);
        size_t lines = 0;
        for (const char *c = text; *c; c++)
            lines += *c == '\n';
        if (lines != 2 * n)
            fail_msg("local %zu: %zu lines, want %zu:\n%s", ls, lines, 2 * n, text);
        for (int r = 0; r < 2; r++)
            for (size_t i = 0; i < n; i++) {
                char line[96];
                size_t nb = i - i % ls + (i % ls + 1) % ls;
                snprintf(line, sizeof line, "%d r%d i%zu mine%zu nb%zu\n", tag, r, i, i * 10, nb * 10 + (size_t)r);
                if (!strstr(text, line))
                    fail_msg("local %zu: missing \"%.*s\" in:\n%s", ls, (int)strlen(line) - 1, line, text);
            }
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_tree_local_sizes),
        cmocka_unit_test(test_reduce_halving_pow2),
        cmocka_unit_test(test_reduce_2d),
        cmocka_unit_test(test_mirror_3d),
        cmocka_unit_test(test_uniform_if),
        cmocka_unit_test(test_barrier_sequence),
        cmocka_unit_test(test_barrier_in_function),
        cmocka_unit_test(test_varying_loop_before_barrier),
        cmocka_unit_test(test_varying_loop_between_barriers),
        cmocka_unit_test(test_private_array_across_barrier),
        cmocka_unit_test(test_values_across_barriers),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_guarded_copy),
        cmocka_unit_test(test_loops_uniform),
        cmocka_unit_test(test_switch_continue),
        cmocka_unit_test(test_matvec_tiled),
        cmocka_unit_test(test_global_fence),
        cmocka_unit_test(test_loop_count_from_local),
        cmocka_unit_test(test_printf_between_barriers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
