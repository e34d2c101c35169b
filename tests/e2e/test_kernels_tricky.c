/* tests/e2e/test_kernels_tricky.c — shapes that stress the work-group transformation: a large
 * private array (doubles) live across barriers at local size 1024, barriers in nested loops
 * (inner loop trip count uniform but from a loaded value), barriers in a helper called in a
 * loop, a loop exited by a uniform break read from local memory, work-item-dependent control
 * flow with no barrier inside a loop that has one, a barrier inside a nested block, program-scope __constant tables, vload/vstore on local and private memory, many
 * arguments, many tiny work-groups, a 3-D local size of 1024, and values defined under
 * divergent branches (if/else, switch with fall-through, loops with continue/break) used after
 * a barrier.
 * Every result is compared with a reference computed on the host. */
#include "test_kernels_harness.h"

/* test_kernels_opt_disable_tricky.c includes this file again with -cl-opt-disable added. */
#ifndef KERNELS_BUILD_OPTIONS
#define KERNELS_BUILD_OPTIONS NULL
#endif

static const char *source =
    "constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
    "constant float4 weights = (float4)(0.5f, 0.25f, 0.125f, 0.125f);\n"
    /* A private double[32] written before barriers and read after, dynamically indexed. */
    "kernel void big_private(global const double *in, global double *out, local double *tmp) {\n"
    "  double p[32];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n"
    "  for (int i = 0; i < 32; i++) p[i] = in[g] + i;\n"
    "  tmp[l] = in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int k = (int)tmp[(l + 1) % n] & 31;\n"
    "  p[k] *= 2.0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  tmp[l] = p[(k + 5) & 31];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  double s = 0;\n"
    "  for (int i = 0; i < 32; i++) s += p[i];\n"
    "  out[g] = s + tmp[n - 1 - l];\n"
    "}\n"
    /* Barriers in an inner loop whose trip count is loaded (uniform per group). */
    "kernel void nested_barriers(global const int *trips, global int *out) {\n"
    "  local int acc[64];\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  acc[l] = (int)l;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int o = 0; o < 3; o++) {\n"
    "    int t = trips[get_group_id(0) * 3 + o];\n"
    "    for (int i = 0; i < t; i++) {\n"
    "      int v = acc[(l + 1) % n];\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      acc[l] = v + o;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "  }\n"
    "  out[get_global_id(0)] = acc[l];\n"
    "}\n"
    /* A helper with a barrier, called inside a loop; divergent work without barriers in between. */
    "void shift_left(local int *s, int *v) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  s[l] = *v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  *v = s[(l + 1) % n];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n"
    "kernel void helper_in_loop(global int *data, local int *s) {\n"
    "  int v = data[get_global_id(0)];\n"
    "  for (int r = 0; r < 4; r++) {\n"
    "    if (v & 1) v = 3 * v + 1; else v = v / 2;\n"
    "    for (int j = 0; j < (v & 3); j++) v += j;\n"
    "    shift_left(s, &v);\n"
    "  }\n"
    "  data[get_global_id(0)] = v;\n"
    "}\n"
    /* A loop left by a uniform break whose condition is read from local memory. */
    "kernel void uniform_break(global const int *in, global int *out) {\n"
    "  local int total;\n"
    "  local int vals[128];\n"
    "  size_t l = get_local_id(0);\n"
    "  int v = in[get_global_id(0)], rounds = 0;\n"
    "  while (1) {\n"
    "    if (l == 0) total = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_add(&total, v);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int t = total;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (t > 5000 || rounds == 20) break;\n"
    "    v = v * 2 + 1;\n"
    "    rounds++;\n"
    "  }\n"
    "  vals[l] = rounds * 100000 + v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = vals[get_local_size(0) - 1 - l];\n"
    "}\n"
    /* A barrier inside a nested block, constant tables, vload/vstore in local and private. */
    "kernel void blocks_and_constants(global const float *in, global float *out) {\n"
    "  local float4 quad[16];\n"
    "  size_t l = get_local_id(0), g = get_global_id(0);\n"
    "  float r;\n"
    "  {\n"
    "    float pv[4];\n"
    "    vstore4(vload4(g, in) * (float)table[l % 8], 0, pv);\n"
    "    vstore4(vload4(0, pv), l, (local float *)quad);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float4 q = vload4(get_local_size(0) - 1 - l, (local const float *)quad);\n"
    "    r = dot(q, weights);\n"
    "  }\n"
    "  out[g] = r;\n"
    "}\n"
    /* Many arguments of mixed kinds. */
    "kernel void many_args(global int *out, char a, short b, int c, long d, uchar e, ushort f, uint g,\n"
    "                      ulong h, float i, double j, int2 k, float3 m, local int *n, constant int *o,\n"
    "                      global const int *p, char4 q) {\n"
    "  size_t x = get_global_id(0);\n"
    "  n[get_local_id(0)] = (int)x;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  long s = a + b + c + d + e + f + g + (long)h + (long)i + (long)j + k.x + k.y + (long)(m.x + m.y + m.z)\n"
    "         + n[get_local_id(0)] + o[1] + p[x] + q.x + q.y + q.z + q.w;\n"
    "  out[x] = (int)s;\n"
    "}\n"
    /* 3-D local size of 1024 with a reduction over the whole group. */
    "kernel void reduce_3d(global const int *in, global int *out) {\n"
    "  local int tmp[1024];\n"
    "  size_t l = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);\n"
    "  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "  size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);\n"
    "  tmp[l] = in[g];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[(get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0)] = tmp[0];\n"
    "}\n"
    /* Values defined under divergent branches (if/else, switch, a varying loop with continue and
     * break) before a barrier and used after it. */
    "kernel void divergent_defs(global const int *in, global int *out, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  int v = in[get_global_id(0)], x, y = 0;\n"
    "  int arr[4] = {0, 0, 0, 0};\n"
    "  if (l & 1) { x = v * 3; arr[l % 4] = v; } else { x = v - 7; arr[(l + 1) % 4] = -v; }\n"
    "  switch (v % 4) { case 0: y = 10; break; case 1: y = x; break; case 2: y = -x; /* fall through */\n"
    "  default: y += 5; }\n"
    "  int z = 0;\n"
    "  for (int i = 0; i < v % 9; i++) { if (i == 2) continue; if (i > 5 && (l & 2)) break; z += i * i; }\n"
    "  t[l] = x;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int nb = t[(l + 1) % n];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = x + y * 3 + z * 5 + nb * 7 + arr[0] + 2 * arr[1] + 3 * arr[2] + 4 * arr[3];\n"
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

static void test_big_private(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64, 1024};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 2;
        double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *tv = malloc(n * sizeof *tv),
               *sum = malloc(n * sizeof *sum);
        for (size_t i = 0; i < n; i++)
            in[i] = (double)(rng_next() % 1000);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, l = g % ls;
            double p[32];
            for (int i = 0; i < 32; i++)
                p[i] = in[g] + i;
            int k = (int)in[base + (l + 1) % ls] & 31;
            p[k] *= 2.0;
            tv[g] = p[(k + 5) & 31];
            sum[g] = 0;
            for (int i = 0; i < 32; i++)
                sum[g] += p[i];
        }
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("big_private", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(double)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t base = g - g % ls, l = g % ls;
            double want = sum[g] + tv[base + ls - 1 - l];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %g, want %g", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
        free(tv);
        free(sum);
    }
}

static void test_nested_barriers(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 64};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 4, n = ls * groups;
        int trips[12], *out = malloc(n * sizeof *out), *acc = malloc(n * sizeof *acc), *nv = malloc(n * sizeof *nv);
        for (int i = 0; i < 12; i++)
            trips[i] = (int)(rng_next() % 4);
        for (size_t g = 0; g < n; g++)
            acc[g] = (int)(g % ls);
        for (size_t grp = 0; grp < groups; grp++)
            for (int o = 0; o < 3; o++)
                for (int i = 0; i < trips[grp * 3 + o]; i++) {
                    for (size_t l = 0; l < ls; l++)
                        nv[l] = acc[grp * ls + (l + 1) % ls] + o;
                    memcpy(acc + grp * ls, nv, ls * sizeof *acc);
                }
        cl_mem bt = buf_new(sizeof trips, trips), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("nested_barriers", 1, NULL, &n, &ls, KARGS(KARG(bt), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++)
            if (out[g] != acc[g])
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], acc[g]);
        clReleaseMemObject(bt);
        clReleaseMemObject(bo);
        free(out);
        free(acc);
        free(nv);
    }
}

static void test_helper_in_loop(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 100, 256};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *v = malloc(n * sizeof *v),
            *nv = malloc(n * sizeof *nv);
        for (size_t i = 0; i < n; i++)
            v[i] = in[i] = (int)(rng_next() % 10000);
        for (int r = 0; r < 4; r++) {
            for (size_t i = 0; i < n; i++) {
                int x = v[i];
                x = (x & 1) ? 3 * x + 1 : x / 2;
                for (int j = 0; j < (x & 3); j++)
                    x += j;
                v[i] = x;
            }
            for (size_t i = 0; i < n; i++)
                nv[i] = v[i - i % ls + (i % ls + 1) % ls];
            memcpy(v, nv, n * sizeof *v);
        }
        cl_mem b = buf_new(n * sizeof *in, in);
        assert_int_equal(launch("helper_in_loop", 1, NULL, &n, &ls, KARGS(KARG(b), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(b, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++)
            if (out[g] != v[g])
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], v[g]);
        clReleaseMemObject(b);
        free(in);
        free(out);
        free(v);
        free(nv);
    }
}

static void test_uniform_break(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 64, 128};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], groups = 3, n = ls * groups;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out), *fin = malloc(n * sizeof *fin);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 10);
        for (size_t grp = 0; grp < groups; grp++) {
            int *v = fin + grp * ls, rounds = 0;
            memcpy(v, in + grp * ls, ls * sizeof *v);
            for (;;) {
                int total = 0;
                for (size_t l = 0; l < ls; l++)
                    total += v[l];
                if (total > 5000 || rounds == 20)
                    break;
                for (size_t l = 0; l < ls; l++)
                    v[l] = v[l] * 2 + 1;
                rounds++;
            }
            for (size_t l = 0; l < ls; l++)
                v[l] += rounds * 100000;
        }
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("uniform_break", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            int want = fin[g - g % ls + ls - 1 - g % ls];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
        free(fin);
    }
}

static void test_blocks_and_constants(void **state)
{
    (void)state;
    static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    static const float w[4] = {0.5f, 0.25f, 0.125f, 0.125f};
    static const size_t sizes[] = {1, 3, 16};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 4;
        float *in = malloc(n * 4 * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n * 4; i++)
            in[i] = (float)(rng_next() % 64);
        cl_mem bi = buf_new(n * 4 * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("blocks_and_constants", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t m = g - g % ls + ls - 1 - g % ls; /* the mirror work-item */
            float want = 0;
            for (int j = 0; j < 4; j++)
                want += in[m * 4 + j] * (float)table[m % ls % 8] * w[j];
            if (!close_f(out[g], want, 1e-6))
                fail_msg("local %zu at %zu: %g, want %g", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

static void test_many_args(void **state)
{
    (void)state;
    enum { N = 24 };
    cl_char a = -3;
    cl_short b = -300;
    cl_int c = 70000;
    cl_long d = 1LL << 33;
    cl_uchar e = 250;
    cl_ushort f = 65000;
    cl_uint g = 4000000000u;
    cl_ulong h = 5;
    cl_float i = 2.75f;
    cl_double j = -8.5;
    cl_int2 k = {{11, -12}};
    cl_float3 m = {{1.5f, 2.5f, 3.0f}};
    cl_char4 q = {{1, 2, 3, -4}};
    int o[2] = {100, 200}, p[N], out[N];
    for (int x = 0; x < N; x++)
        p[x] = x * x;
    cl_mem bo = buf_poisoned(sizeof out), bc = buf_new(sizeof o, o), bp = buf_new(sizeof p, p);
    size_t global = N, local = 6;
    assert_int_equal(launch("many_args", 1, NULL, &global, &local,
                            KARGS(KARG(bo), KARG(a), KARG(b), KARG(c), KARG(d), KARG(e), KARG(f), KARG(g), KARG(h),
                                  KARG(i), KARG(j), KARG(k), KARG(m), KLOCAL(local * sizeof(int)), KARG(bc), KARG(bp),
                                  KARG(q))),
                     CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    for (int x = 0; x < N; x++) {
        int64_t s = a + b + c + d + e + f + (int64_t)g + (int64_t)h + (int64_t)i + (int64_t)j + k.s[0] + k.s[1] +
                    (int64_t)(m.s[0] + m.s[1] + m.s[2]) + x + o[1] + p[x] + q.s[0] + q.s[1] + q.s[2] + q.s[3];
        if (out[x] != (int)s)
            fail_msg("item %d: %d, want %d", x, out[x], (int)s);
    }
    clReleaseMemObject(bo);
    clReleaseMemObject(bc);
    clReleaseMemObject(bp);
}

static void test_many_tiny_groups(void **state)
{
    (void)state;
    /* 20000 work-groups of one work-item each, through a kernel with barriers */
    size_t n = 20000, ls = 1;
    int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)i;
    cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
    assert_int_equal(launch("uniform_break", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
    buf_read(bo, n * sizeof *out, out);
    for (size_t g = 0; g < n; g++) {
        int v = (int)g, rounds = 0;
        while (!(v > 5000 || rounds == 20)) {
            v = v * 2 + 1;
            rounds++;
        }
        if (out[g] != rounds * 100000 + v)
            fail_msg("group %zu: %d, want %d", g, out[g], rounds * 100000 + v);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    free(in);
    free(out);
}

static void test_reduce_3d_1024(void **state)
{
    (void)state;
    static const size_t shapes[][3] = {{4, 16, 16}, {16, 8, 8}, {1, 32, 32}, {8, 8, 1}, {2, 2, 2}};
    for (size_t t = 0; t < ARRAY_LEN(shapes); t++) {
        const size_t *l = shapes[t];
        size_t global[3] = {l[0] * 2, l[1], l[2] * 2}, n = global[0] * global[1] * global[2];
        int *in = malloc(n * sizeof *in), out[4];
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(sizeof out);
        assert_int_equal(launch("reduce_3d", 3, NULL, global, l, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (size_t gz = 0; gz < 2; gz++)
            for (size_t gx = 0; gx < 2; gx++) {
                int want = 0;
                for (size_t z = gz * l[2]; z < (gz + 1) * l[2]; z++)
                    for (size_t y = 0; y < l[1]; y++)
                        for (size_t x = gx * l[0]; x < (gx + 1) * l[0]; x++)
                            want += in[(z * global[1] + y) * global[0] + x];
                if (out[gz * 2 + gx] != want)
                    fail_msg("local %zux%zux%zu group (%zu,0,%zu): %d, want %d", l[0], l[1], l[2], gx, gz,
                             out[gz * 2 + gx], want);
            }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
    }
}

static int divergent_x(int v, size_t l)
{
    return (l & 1) ? v * 3 : v - 7;
}

static void test_divergent_defs(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 3, 7, 64, 100};
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 1000);
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(n * sizeof *out);
        assert_int_equal(launch("divergent_defs", 1, NULL, &n, &ls, KARGS(KARG(bi), KARG(bo), KLOCAL(ls * sizeof(int)))),
                         CL_SUCCESS);
        buf_read(bo, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            size_t l = g % ls, nbg = g - l + (l + 1) % ls;
            int v = in[g], x = divergent_x(v, l), y = 0, z = 0, arr[4] = {0, 0, 0, 0};
            if (l & 1)
                arr[l % 4] = v;
            else
                arr[(l + 1) % 4] = -v;
            switch (v % 4) {
            case 0: y = 10; break;
            case 1: y = x; break;
            case 2: y = -x; /* fall through */
            default: y += 5;
            }
            for (int i = 0; i < v % 9; i++) {
                if (i == 2)
                    continue;
                if (i > 5 && (l & 2))
                    break;
                z += i * i;
            }
            int want = x + y * 3 + z * 5 + divergent_x(in[nbg], nbg % ls) * 7 + arr[0] + 2 * arr[1] + 3 * arr[2] +
                       4 * arr[3];
            if (out[g] != want)
                fail_msg("local %zu at %zu: %d, want %d", ls, g, out[g], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_private),
        cmocka_unit_test(test_nested_barriers),
        cmocka_unit_test(test_helper_in_loop),
        cmocka_unit_test(test_uniform_break),
        cmocka_unit_test(test_blocks_and_constants),
        cmocka_unit_test(test_many_args),
        cmocka_unit_test(test_many_tiny_groups),
        cmocka_unit_test(test_reduce_3d_1024),
        cmocka_unit_test(test_divergent_defs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
