/* tests/e2e/test_kernels_generic.c — the generic address space (OpenCL C 3.0,
 * __opencl_c_generic_address_space) end to end: to_global / to_local / to_private / get_fence
 * on pointers into a buffer, a program-scope variable, static and argument __local memory,
 * private variables (also one privatized across a barrier), and NULL; functions taking
 * unqualified (generic) pointers called with __global, __local and private pointers; a tree
 * reduction through a generic pointer to __local memory across barriers; a generic pointer
 * that points to __local memory in some work-items and to __global memory in others; C11
 * atomics and math/vload builtins through generic pointers; the feature macro agreeing with
 * the device queries. Registered as an e2e test, so CTest runs it vectorized, with
 * WEFT_VECTORIZE=off and with WEFT_SCHEDULE=bfo. Every expected value is computed on the host. */
#include "test_kernels_harness.h"

#include <string.h>

/* Bits per pointer: 1 global, 2 local, 4 private; 8 if the pointer comes back unchanged;
 * get_fence << 4 (CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2). */
static const char *source =
    "global int gvar[4];\n"
    "int classify(int *p) {\n"
    "  global int *g = to_global(p);\n"
    "  local int *l = to_local(p);\n"
    "  private int *q = to_private(p);\n"
    "  int r = (g != 0) | (l != 0) << 1 | (q != 0) << 2;\n"
    "  int same = (g == 0 || (int *)g == p) && (l == 0 || (int *)l == p) && (q == 0 || (int *)q == p);\n"
    "  return r | same << 3 | (int)get_fence(p) << 4;\n"
    "}\n"
    "kernel void spaces(global int *buf, global int *out, local int *larg) {\n"
    "  local int lstat[64];\n"
    "  int priv[4];\n"
    "  int across[4];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  for (int k = 0; k < 4; k++) { priv[k] = (int)i + k; across[k] = (int)i * k; }\n"
    "  lstat[l] = (int)l; larg[l] = (int)l;\n"
    "  int *pa = across + (i & 3);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int *o = (int *)out + i * 8;\n"
    "  o[0] = classify(buf + i);\n"
    "  o[1] = classify(&gvar[i & 3]);\n"
    "  o[2] = classify(&lstat[l]);\n"
    "  o[3] = classify(larg + l);\n"
    "  o[4] = classify(&priv[i & 3]);\n"
    "  o[5] = classify(pa);\n"
    "  o[6] = classify((int *)0);\n"
    "  o[7] = *pa + lstat[(l + 1) % get_local_size(0)] + priv[3];\n"
    "}\n"
    "int sum(const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }\n"
    "void scale(int *p, int n, int f) { for (int k = 0; k < n; k++) p[k] *= f; }\n"
    "kernel void helpers(global int *in, global int *out) {\n"
    "  local int t[16];\n"
    "  int p[3];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0), L = get_local_size(0);\n"
    "  t[l] = in[i];\n"
    "  for (int k = 0; k < 3; k++) p[k] = (int)i + k;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int sl = sum(t, (int)L);\n"
    "  scale(p, 3, 2);\n"
    "  int sp = sum(p, 3);\n"
    "  int sg = sum(in + i, 1);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) scale(t, (int)L, 3);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[i * 4] = sl; out[i * 4 + 1] = sp; out[i * 4 + 2] = sg; out[i * 4 + 3] = t[l];\n"
    "}\n"
    "kernel void reduce(global const float *in, global float *out, local float *scratch) {\n"
    "  float *s = scratch;\n"
    "  size_t l = get_local_id(0), L = get_local_size(0);\n"
    "  s[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t st = L / 2; st > 0; st >>= 1) {\n"
    "    if (l < st) s[l] += s[l + st];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void mixed(global int *g, global int *out) {\n"
    "  local int t[64];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  int *p = (l & 1) ? (int *)&t[l] : (int *)&g[i];\n"
    "  *p = (int)i * 10;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
    "  out[i] = *p + (to_local(p) != 0) * 1000;\n"
    "}\n"
    "kernel void atomics(global atomic_int *gsum, global int *out) {\n"
    "  local atomic_int lsum;\n"
    "  size_t l = get_local_id(0);\n"
    "  atomic_int *pl = &lsum, *pg = gsum;\n"
    "  if (l == 0) atomic_init(pl, 0);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_fetch_add(pl, (int)l + 1);\n"
    "  atomic_fetch_add_explicit(pg, 1, memory_order_relaxed);\n"
    "  int expected = 0;\n"
    "  int *pe = &expected;\n"
    "  atomic_compare_exchange_strong(pg + 1, pe, 7);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) out[get_group_id(0)] = atomic_load(pl);\n"
    "}\n"
    "kernel void builtins(global const float *x, global float *out, global float *ip) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float whole;\n"
    "  float *pw = &whole, *pg = ip + i;\n"
    "  float f1 = fract(x[i], pw);\n"
    "  float f2 = fract(x[i], pg);\n"
    "  float4 v = vload4(i, x);\n"
    "  float *o = out + i * 8;\n"
    "  vstore4(v * 2.0f, 1, o);\n"
    "  o[0] = f1; o[1] = whole; o[2] = f2; o[3] = 0.0f;\n"
    "}\n"
    "kernel void feature(global int *out) {\n"
    "#ifdef __opencl_c_generic_address_space\n"
    "  out[0] = 1;\n"
    "#else\n"
    "  out[0] = 0;\n"
    "#endif\n"
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

enum { G = 1, L = 2, P = 4, SAME = 8, FENCE_LOCAL = 1 << 4, FENCE_GLOBAL = 2 << 4 };

static void test_address_space_queries(void **state)
{
    (void)state;
    static const size_t locals[] = {1, 4, 16, 64};
    for (size_t c = 0; c < ARRAY_LEN(locals); c++) {
        size_t n = 128, local = locals[c];
        cl_mem buf = buf_new(n * sizeof(int), NULL), out = buf_poisoned(n * 8 * sizeof(int));
        assert_int_equal(launch("spaces", 1, NULL, &n, &local,
                                KARGS(KARG(buf), KARG(out), KLOCAL(local * sizeof(int)))),
                         CL_SUCCESS);
        int *o = malloc(n * 8 * sizeof(int));
        buf_read(out, n * 8 * sizeof(int), o);
        const int want[7] = {
            G | SAME | FENCE_GLOBAL,   /* buffer */
            G | SAME | FENCE_GLOBAL,   /* program-scope variable */
            L | SAME | FENCE_LOCAL,    /* static __local */
            L | SAME | FENCE_LOCAL,    /* __local argument */
            P | SAME | FENCE_GLOBAL,   /* private array */
            P | SAME | FENCE_GLOBAL,   /* private array live across a barrier */
            SAME | FENCE_GLOBAL,       /* NULL: no space claims it */
        };
        static const char *what[7] = {"buffer", "program-scope", "static local", "local arg", "private",
                                      "private across barrier", "NULL"};
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 7; k++)
                if (o[i * 8 + k] != want[k])
                    fail_msg("local size %zu, work-item %zu, %s: got 0x%x, expected 0x%x", local, i, what[k],
                             o[i * 8 + k], want[k]);
            size_t l = i % local;
            int expect = (int)i * (int)(i & 3) + (int)((l + 1) % local) + (int)i + 3;
            if (o[i * 8 + 7] != expect)
                fail_msg("local size %zu, work-item %zu: values %d, expected %d", local, i, o[i * 8 + 7], expect);
        }
        free(o);
        clReleaseMemObject(buf);
        clReleaseMemObject(out);
    }
}

static void test_generic_helpers(void **state)
{
    (void)state;
    enum { N = 64, LS = 16 };
    int in[N], out[N * 4];
    for (int i = 0; i < N; i++)
        in[i] = (int)(rng_next() % 100) - 50;
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    size_t n = N, local = LS;
    assert_int_equal(launch("helpers", 1, NULL, &n, &local, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < N; i++) {
        int g0 = i / LS * LS, sl = 0;
        for (int k = 0; k < LS; k++)
            sl += in[g0 + k];
        int sp = 2 * (3 * i + 3);
        if (out[i * 4] != sl || out[i * 4 + 1] != sp || out[i * 4 + 2] != in[i] || out[i * 4 + 3] != 3 * in[i])
            fail_msg("work-item %d: %d %d %d %d, expected %d %d %d %d", i, out[i * 4], out[i * 4 + 1], out[i * 4 + 2],
                     out[i * 4 + 3], sl, sp, in[i], 3 * in[i]);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

static void test_reduction_through_generic_local_pointer(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 8, 64, 256};
    enum { GROUPS = 37 };
    for (size_t c = 0; c < ARRAY_LEN(sizes); c++) {
        size_t local = sizes[c], n = local * GROUPS;
        float *in = malloc(n * sizeof *in), out[GROUPS];
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(int)(rng_next() % 64);   /* integers: every order sums exactly */
        cl_mem bi = buf_new(n * sizeof *in, in), bo = buf_poisoned(sizeof out);
        assert_int_equal(launch("reduce", 1, NULL, &n, &local,
                                KARGS(KARG(bi), KARG(bo), KLOCAL(local * sizeof(float)))),
                         CL_SUCCESS);
        buf_read(bo, sizeof out, out);
        for (size_t g = 0; g < GROUPS; g++) {
            float want = 0;
            for (size_t k = 0; k < local; k++)
                want += in[g * local + k];
            if (out[g] != want)
                fail_msg("local size %zu, group %zu: %g, expected %g", local, g, out[g], want);
        }
        free(in);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_pointer_to_local_or_global(void **state)
{
    (void)state;
    enum { N = 256 };
    int out[N], g[N];
    cl_mem bg = buf_poisoned(sizeof g), bo = buf_poisoned(sizeof out);
    size_t n = N, local = 64;
    assert_int_equal(launch("mixed", 1, NULL, &n, &local, KARGS(KARG(bg), KARG(bo))), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    buf_read(bg, sizeof g, g);
    for (int i = 0; i < N; i++) {
        int want = i * 10 + ((i % 64) & 1 ? 1000 : 0);
        if (out[i] != want)
            fail_msg("work-item %d: %d, expected %d", i, out[i], want);
        if (!((i % 64) & 1) && g[i] != i * 10)
            fail_msg("g[%d] = %d, expected %d", i, g[i], i * 10);
    }
    clReleaseMemObject(bg);
    clReleaseMemObject(bo);
}

static void test_atomics_through_generic_pointers(void **state)
{
    (void)state;
    enum { GROUPS = 16, LS = 32 };
    int zero[2] = {0, 0}, out[GROUPS], sums[2];
    cl_mem bs = buf_new(sizeof zero, zero), bo = buf_poisoned(sizeof out);
    size_t n = GROUPS * LS, local = LS;
    assert_int_equal(launch("atomics", 1, NULL, &n, &local, KARGS(KARG(bs), KARG(bo))), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    buf_read(bs, sizeof sums, sums);
    for (int g = 0; g < GROUPS; g++)
        assert_int_equal(out[g], LS * (LS + 1) / 2);
    assert_int_equal(sums[0], GROUPS * LS);
    assert_int_equal(sums[1], 7);
    clReleaseMemObject(bs);
    clReleaseMemObject(bo);
}

static void test_builtins_through_generic_pointers(void **state)
{
    (void)state;
    enum { N = 32 };
    float x[N * 4], out[N * 8], ip[N];
    for (int i = 0; i < N * 4; i++)
        x[i] = (float)i * 0.75f - 20.0f;
    cl_mem bx = buf_new(sizeof x, x), bo = buf_poisoned(sizeof out), bip = buf_poisoned(sizeof ip);
    size_t n = N;
    assert_int_equal(launch("builtins", 1, NULL, &n, NULL, KARGS(KARG(bx), KARG(bo), KARG(bip))), CL_SUCCESS);
    buf_read(bo, sizeof out, out);
    buf_read(bip, sizeof ip, ip);
    for (int i = 0; i < N; i++) {
        float fl = floorf(x[i]), fr = x[i] - fl;
        assert_true(out[i * 8] == fr && out[i * 8 + 1] == fl && out[i * 8 + 2] == fr && ip[i] == fl);
        for (int k = 0; k < 4; k++)
            assert_true(out[i * 8 + 4 + k] == 2.0f * x[i * 4 + k]);
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(bo);
    clReleaseMemObject(bip);
}

static void test_feature_macro_matches_device(void **state)
{
    (void)state;
    int reported = weft_test_device_has_feature(env.device, "__opencl_c_generic_address_space");
    assert_int_not_equal(reported, -1);
    cl_bool support = CL_FALSE;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof support, &support,
                                     NULL),
                     CL_SUCCESS);
    cl_mem out = buf_new(sizeof(int), NULL);
    size_t one = 1;
    assert_int_equal(launch("feature", 1, NULL, &one, &one, KARGS(KARG(out))), CL_SUCCESS);
    int seen = -1;
    buf_read(out, sizeof seen, &seen);
    assert_int_equal(seen, reported);
    assert_int_equal(support, (cl_bool)reported);
    assert_int_equal(reported, 1);
    clReleaseMemObject(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_address_space_queries),
        cmocka_unit_test(test_generic_helpers),
        cmocka_unit_test(test_reduction_through_generic_local_pointer),
        cmocka_unit_test(test_pointer_to_local_or_global),
        cmocka_unit_test(test_atomics_through_generic_pointers),
        cmocka_unit_test(test_builtins_through_generic_pointers),
        cmocka_unit_test(test_feature_macro_matches_device),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
