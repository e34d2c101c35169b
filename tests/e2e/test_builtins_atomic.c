/* tests/e2e/test_builtins_atomic.c — atomic functions end to end, on global memory shared by
 * all work-groups and on local memory shared inside a group: the OpenCL 1.x atomic_*
 * functions (int, uint, float xchg), the 64-bit atom_* functions, and the OpenCL C 3.0
 * C11-style functions (explicit and implicit forms, compare-exchange, atomic_flag). Every
 * check is a property that holds only if each operation was atomic: exact totals, exactly
 * one winner, the set of values seen by exchanges, counters that lose no increment.
 * Exercises cl_khr_global_int32_base_atomics, cl_khr_global_int32_extended_atomics,
 * cl_khr_local_int32_base_atomics, cl_khr_local_int32_extended_atomics, cl_khr_int64_base_atomics,
 * cl_khr_int64_extended_atomics, and the 3.0 features __opencl_c_atomic_order_acq_rel,
 * __opencl_c_atomic_order_seq_cst, __opencl_c_atomic_scope_device (the implicit-scope forms) and
 * __opencl_c_atomic_scope_all_devices.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "builtins_harness.h"

enum { G = 4096, L = 64 };

static void test_atomic_legacy_global(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(volatile global int *c, volatile global uint *u, volatile global float *f,\n"
        "              global int *seen) {\n"
        "  int i = (int)get_global_id(0);\n"
        "  atomic_add(&c[0], i);\n"
        "  atomic_sub(&c[1], i);\n"
        "  atomic_inc(&c[2]);\n"
        "  atomic_dec(&c[3]);\n"
        "  atomic_min(&c[4], i ^ 0x5a5);\n"
        "  atomic_max(&c[5], i ^ 0x5a5);\n"
        "  atomic_or(&u[0], 1u << (i % 32));\n"
        "  atomic_and(&u[1], ~(1u << (i % 31)));\n"
        "  atomic_xor(&u[2], (uint)i);\n"
        "  atomic_min(&u[3], (uint)i + 7u);\n"
        "  atomic_max(&u[4], (uint)i * 3u);\n"
        "  seen[i] = atomic_xchg(&c[6], i);\n"
        "  int old;\n"
        "  do { old = c[7]; } while (atomic_cmpxchg(&c[7], old, old + 2) != old);\n"
        "  atomic_xchg(&f[0], (float)i);\n"
        "}\n";
    int c[8] = {0, 0, 0, 1000000, INT_MAX, INT_MIN, -1, 0};
    unsigned u[5] = {0, 0xffffffffu, 0, UINT_MAX, 0};
    float f[1] = {-1.0f};
    int *seen = calloc(G, sizeof(int));
    struct bt_arg args[] = {BT_BUF(c, sizeof c), BT_BUF(u, sizeof u), BT_BUF(f, sizeof f), BT_BUF(seen, G * sizeof(int))};
    assert_int_equal(bt_run(src, NULL, "k", G, L, args, 4), CL_SUCCESS);
    long long sum = (long long)G * (G - 1) / 2;
    assert_int_equal(c[0], (int)sum);
    assert_int_equal(c[1], (int)-sum);
    assert_int_equal(c[2], G);
    assert_int_equal(c[3], 1000000 - G);
    int mn = INT_MAX, mx = INT_MIN;
    unsigned x = 0;
    for (int i = 0; i < G; i++) {
        mn = (i ^ 0x5a5) < mn ? (i ^ 0x5a5) : mn;
        mx = (i ^ 0x5a5) > mx ? (i ^ 0x5a5) : mx;
        x ^= (unsigned)i;
    }
    assert_int_equal(c[4], mn);
    assert_int_equal(c[5], mx);
    assert_int_equal(u[0], 0xffffffffu);
    assert_int_equal(u[1], 0x80000000u);
    assert_int_equal(u[2], x);
    assert_int_equal(u[3], 7u);
    assert_int_equal(u[4], (unsigned)(G - 1) * 3u);
    assert_int_equal(c[7], 2 * G);
    /* xchg: the values seen plus the final one are the initial -1 and every id, once each */
    char *hit = calloc(G + 1, 1);
    hit[c[6] + 1]++;
    for (int i = 0; i < G; i++) {
        if (seen[i] < -1 || seen[i] >= G || hit[seen[i] + 1]++)
            fail_msg("atomic_xchg: value %d seen twice or out of range", seen[i]);
    }
    free(hit);
    assert_true(f[0] >= 0.0f && f[0] < (float)G && f[0] == (float)(int)f[0]);
    free(seen);
}

static void test_atomic_legacy_local_histogram(void **state)
{
    (void)state;
    static const char *src =
        "kernel void hist(global const uchar *in, global uint *out, local uint *h, global int *stats) {\n"
        "  size_t l = get_local_id(0), g = get_group_id(0), ls = get_local_size(0);\n"
        "  for (size_t b = l; b < 256; b += ls) h[b] = 0;\n"
        "  local int mn, mx, cnt;\n"
        "  if (l == 0) { mn = INT_MAX; mx = INT_MIN; cnt = 0; }\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  uchar v = in[get_global_id(0)];\n"
        "  atomic_inc(&h[v]);\n"
        "  atomic_min(&mn, (int)v - 100);\n"
        "  atomic_max(&mx, (int)v - 100);\n"
        "  atom_add(&cnt, 2);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (size_t b = l; b < 256; b += ls) atomic_add(&out[b], h[b]);\n"
        "  if (l == 0) { stats[3 * g] = mn; stats[3 * g + 1] = mx; stats[3 * g + 2] = cnt; }\n"
        "}\n";
    enum { NG = G / L };
    unsigned char *in = malloc(G);
    unsigned out[256] = {0}, want[256] = {0};
    int stats[3 * NG];
    uint64_t seed = 42;
    for (int i = 0; i < G; i++) {
        in[i] = (unsigned char)(bt_rand(&seed) % (i % 3 ? 256 : 7)); /* some hot bins */
        want[in[i]]++;
    }
    struct bt_arg args[] = {BT_BUF(in, G), BT_BUF(out, sizeof out), BT_LOCAL(256 * sizeof(unsigned)), BT_BUF(stats, sizeof stats)};
    assert_int_equal(bt_run(src, NULL, "hist", G, L, args, 4), CL_SUCCESS);
    for (int b = 0; b < 256; b++)
        if (out[b] != want[b])
            fail_msg("histogram bin %d = %u, want %u", b, out[b], want[b]);
    for (int g = 0; g < NG; g++) {
        int mn = INT_MAX, mx = INT_MIN;
        for (int i = g * L; i < (g + 1) * L; i++) {
            mn = in[i] - 100 < mn ? in[i] - 100 : mn;
            mx = in[i] - 100 > mx ? in[i] - 100 : mx;
        }
        if (stats[3 * g] != mn || stats[3 * g + 1] != mx || stats[3 * g + 2] != 2 * L)
            fail_msg("group %d: local min/max/count %d %d %d, want %d %d %d", g, stats[3 * g],
                     stats[3 * g + 1], stats[3 * g + 2], mn, mx, 2 * L);
    }
    free(in);
}

static void test_atom_64bit(void **state)
{
    (void)state;
    static const char *src =
        "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
        "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
        "kernel void k(volatile global long *a, volatile global ulong *u) {\n"
        "  long i = (long)get_global_id(0);\n"
        "  local long lsum;\n"
        "  if (get_local_id(0) == 0) lsum = 0;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  atom_add(&a[0], i << 33);\n"
        "  atom_sub(&a[1], 3L);\n"
        "  atom_min(&a[2], -(i << 40));\n"
        "  atom_max(&u[0], (ulong)i << 50);\n"
        "  atom_or(&u[1], 1UL << (i % 64));\n"
        "  atom_inc(&u[2]);\n"
        "  long old;\n"
        "  do { old = a[3]; } while (atom_cmpxchg(&a[3], old, old + (1L << 34)) != old);\n"
        "  atom_add(&lsum, i);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (get_local_id(0) == 0) atom_add(&a[4], lsum);\n"
        "}\n";
    long long a[5] = {0, 0, 0, 0, 0};
    unsigned long long u[3] = {0, 0, 0};
    struct bt_arg args[] = {BT_BUF(a, sizeof a), BT_BUF(u, sizeof u)};
    assert_int_equal(bt_run(src, NULL, "k", G, L, args, 2), CL_SUCCESS);
    long long sum = (long long)G * (G - 1) / 2;
    assert_true(a[0] == (sum << 33));
    assert_true(a[1] == -3LL * G);
    assert_true(a[2] == -((long long)(G - 1) << 40));
    assert_true(u[0] == (unsigned long long)(G - 1) << 50);
    assert_true(u[1] == ~0ULL);
    assert_true(u[2] == (unsigned long long)G);
    assert_true(a[3] == (long long)G << 34);
    assert_true(a[4] == sum);
}

/* OpenCL C 3.0: the _explicit forms with an explicit scope, on global and local objects. */
static void test_atomic_c11_explicit(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(volatile global atomic_int *g, volatile global atomic_long *gl,\n"
        "              volatile global atomic_flag *flags, global int *first, global int *out) {\n"
        "  int i = (int)get_global_id(0);\n"
        "  local atomic_int la;\n"
        "  if (get_local_id(0) == 0) atomic_init(&la, 100);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  atomic_fetch_add_explicit(&g[0], 1, memory_order_relaxed, memory_scope_device);\n"
        "  atomic_fetch_sub_explicit(&g[1], 2, memory_order_acq_rel, memory_scope_device);\n"
        "  atomic_fetch_or_explicit(&g[2], 1 << (i % 31), memory_order_seq_cst, memory_scope_device);\n"
        "  atomic_fetch_max_explicit(&g[3], i, memory_order_relaxed, memory_scope_device);\n"
        "  atomic_fetch_min_explicit(&g[4], -i, memory_order_relaxed, memory_scope_work_group);\n"
        "  atomic_fetch_xor_explicit(&g[5], i, memory_order_relaxed, memory_scope_all_devices);\n"
        "  atomic_fetch_and_explicit(&g[6], ~(1 << (i % 31)), memory_order_relaxed, memory_scope_device);\n"
        "  int e = atomic_load_explicit(&g[7], memory_order_relaxed, memory_scope_device);\n"
        "  while (!atomic_compare_exchange_weak_explicit(&g[7], &e, e + 3, memory_order_acq_rel,\n"
        "                                                memory_order_relaxed, memory_scope_device)) ;\n"
        "  atomic_fetch_add_explicit(&gl[0], (long)i << 32, memory_order_relaxed, memory_scope_device);\n"
        "  atomic_fetch_add_explicit(&la, 1, memory_order_relaxed, memory_scope_work_group);\n"
        "  if (!atomic_flag_test_and_set_explicit(&flags[i % 16], memory_order_acq_rel, memory_scope_device))\n"
        "    first[i % 16] += 1;\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (get_local_id(0) == 0) {\n"
        "    out[get_group_id(0)] = atomic_load_explicit(&la, memory_order_relaxed, memory_scope_work_group);\n"
        "    atomic_store_explicit(&g[8], 77, memory_order_release, memory_scope_device);\n"
        "  }\n"
        "}\n";
    int g[9] = {0, 0, 0, INT_MIN, 0, 0, -1, 5, 0};
    long long gl[1] = {0};
    int flags[16] = {0}, first[16] = {0};
    enum { NG = G / L };
    int out[NG];
    struct bt_arg args[] = {BT_BUF(g, sizeof g), BT_BUF(gl, sizeof gl), BT_BUF(flags, sizeof flags),
                            BT_BUF(first, sizeof first), BT_BUF(out, sizeof out)};
    assert_int_equal(bt_run(src, "-cl-std=CL3.0", "k", G, L, args, 5), CL_SUCCESS);
    int x = 0;
    for (int i = 0; i < G; i++)
        x ^= i;
    assert_int_equal(g[0], G);
    assert_int_equal(g[1], -2 * G);
    assert_int_equal(g[2], 0x7fffffff);
    assert_int_equal(g[3], G - 1);
    assert_int_equal(g[4], -(G - 1));
    assert_int_equal(g[5], x);
    assert_int_equal(g[6], (int)0x80000000);
    assert_int_equal(g[7], 5 + 3 * G);
    assert_int_equal(g[8], 77);
    long long sum = (long long)G * (G - 1) / 2;
    assert_true(gl[0] == sum << 32);
    for (int f = 0; f < 16; f++) {
        if (first[f] != 1 || flags[f] == 0)
            fail_msg("atomic_flag %d: %d work-items saw it clear (flag now %d)", f, first[f], flags[f]);
    }
    for (int i = 0; i < NG; i++)
        assert_int_equal(out[i], 100 + L);
}

/* OpenCL C 3.0: the implicit forms (seq_cst, device scope), which need the device-scope and
 * seq_cst features declared to the kernel's compilation. */
static void test_atomic_c11_implicit(void **state)
{
    (void)state;
    static const char *src =
        "kernel void k(volatile global atomic_int *g, volatile global atomic_uint *u,\n"
        "              volatile global atomic_flag *flag, global int *winners) {\n"
        "  int i = (int)get_global_id(0);\n"
        "  local atomic_int la;\n"
        "  if (get_local_id(0) == 0) atomic_init(&la, 0);\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  atomic_fetch_add(&g[0], 2);\n"
        "  atomic_fetch_sub(&g[1], 1);\n"
        "  atomic_fetch_max(&u[0], (uint)i * 5u);\n"
        "  int e = 0;\n"
        "  if (atomic_compare_exchange_strong(&g[2], &e, i + 1)) winners[0] += 1;\n"
        "  atomic_fetch_add(&la, 1);\n"
        "  int prev = atomic_exchange(&g[3], i);\n"
        "  if (prev < -1 || prev >= (int)get_global_size(0)) winners[1] = 1;\n"
        "  if (!atomic_flag_test_and_set(flag)) winners[2] += 1;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  if (get_local_id(0) == 0) { atomic_fetch_add(&g[4], atomic_load(&la)); atomic_store(&g[5], 9); }\n"
        "}\n";
    int g[6] = {0, 0, 0, -1, 0, 0};
    unsigned u[1] = {0};
    int flag[1] = {0}, winners[3] = {0, 0, 0};
    struct bt_arg args[] = {BT_BUF(g, sizeof g), BT_BUF(u, sizeof u), BT_BUF(flag, sizeof flag), BT_BUF(winners, sizeof winners)};
    assert_int_equal(bt_run(src, "-cl-std=CL3.0", "k", G, L, args, 4), CL_SUCCESS);
    assert_int_equal(g[0], 2 * G);
    assert_int_equal(g[1], -G);
    assert_int_equal(u[0], (unsigned)(G - 1) * 5u);
    assert_int_equal(winners[0], 1);
    assert_true(g[2] >= 1 && g[2] <= G);
    assert_int_equal(winners[1], 0);
    assert_int_equal(winners[2], 1);
    assert_int_equal(g[4], G);
    assert_int_equal(g[5], 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_legacy_global),
        cmocka_unit_test(test_atomic_legacy_local_histogram),
        cmocka_unit_test(test_atom_64bit),
        cmocka_unit_test(test_atomic_c11_explicit),
        cmocka_unit_test(test_atomic_c11_implicit),
    };
    return cmocka_run_group_tests(tests, bt_setup, bt_teardown);
}
