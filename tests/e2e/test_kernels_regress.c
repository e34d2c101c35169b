/* tests/e2e/test_kernels_regress.c — minimized kernels of bugs found by running other people's
 * kernels (CLSmith's random programs, Rodinia), one test per bug, each checked against a
 * reference computed on the host:
 *   - gathers and scatters through per-work-item pointers in a partly filled packet, under a
 *     lane mask (LLVM's X86 backend gave an all-undef index half of an AVX-512 gather the
 *     destination's register: SIGILL);
 *   - a masked unit-stride load at the left border of a guarded range, where the packet's first
 *     lane is outside the guard (Rodinia's pathfinder: LLVM's `zext nneg` of the first lane's
 *     negative index addressed 16 GiB past the buffer: SIGSEGV);
 *   - a loop that only counts down from 2^63 next to a divergent branch (LLVM deletes it from
 *     the scalar work-item loops; the vectorizer's linearized copy ran every iteration);
 *   - kernels whose vectorized work-group function grew until LLVM took minutes over it (many
 *     atomics and volatile accesses unrolled lane by lane, now lane loops; and a kernel past the
 *     size bound, which runs the scalar work-item loops);
 *   - a private int[7] table initialized from a constant: the vectorizer put the lanes' copies
 *     28 bytes apart while their accesses claimed 16-byte alignment (SIGSEGV, CLSmith
 *     default_102016);
 *   - a division by the local id guarded by `lid != 0` (tools/fuzz, random differential runs):
 *     the vectorizer's masked divisor select (m, lid, 1) had a constant zero in lane 0, and
 *     InstSimplify, threading the division over the select's arms, took that lane for undefined
 *     behaviour of the whole vector (every quotient 0 in a partial packet; with two packets
 *     side by side, work-items 8, 15, 22, 29 got work-item 1's quotient);
 *   - a do-while whose counter's last value is read after the loop (tools/fuzz seed 1710): the
 *     vectorized copies stored the next iteration's value before the exit branch;
 *   - a guarded remainder stored to __local after a uniform loop, local size 48 (a linearized
 *     tail packet of 16 in 32 lanes): with the tail's mask a constant, LLVM's X86 backend kept
 *     lanes 48..63 of a derived mask active and the packet's masked stores wrote past their
 *     slots (SIGSEGV in a scatter after the barrier).
 * CTest runs this file vectorized (e2e/), with WEFT_VECTORIZE=off (e2e-novec/) and breadth-first
 * (e2e-bfo/). A hang fails the test through an alarm that names the kernel. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_kernels_harness.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *source =
    /* 1. A pointer chosen per work-item (no common base), kept across a divergent branch and
     * loaded and stored through under its mask. */
    "kernel void pointer_gather(global const int *a, global int *b, global int *out, int n) {\n"
    "  int x = (int)get_global_id(0);\n"
    "  if (x >= n) return;\n"
    "  global int *p = (a[x] & 1) ? b + x : b + n + 2 * x;\n"
    "  int v = -1;\n"
    "  if (a[x] > 2) {\n"
    "    v = *p;\n"
    "    *p = v + x;\n"
    "  }\n"
    "  out[x] = v;\n"
    "}\n"
    /* 2. Pathfinder's left border: work-item t reads src[t - shift] when that is inside
     * [0, n), so the first lanes of the first packets are outside the guard. */
    "kernel void border_load(global const int *src, global int *dst, int shift, int n) {\n"
    "  int x = (int)get_global_id(0) - shift;\n"
    "  if (x >= 0 && x < n)\n"
    "    dst[x] = src[x] * 3 + 1;\n"
    "}\n"
    /* 3. CLSmith's `lbl: --x; if (x) goto lbl;`: 2^63 iterations that compute nothing. */
    "kernel void dead_counting_loop(global const int *a, global int *b, global int *out) {\n"
    "  int x = (int)get_global_id(0);\n"
    "  int v = a[x];\n"
    "  if (v & 1)\n"
    "    b[x] = v * 3;\n"
    "  ulong c = 0x80D0E101EAE88378UL;\n"
    "lbl:\n"
    "  --c;\n"
    "  if (c)\n"
    "    goto lbl;\n"
    "  out[x] = v + 1;\n"
    "}\n"
    /* 4. Nine atomics at a varying address under a divergent branch, and a private volatile
     * array: more serialized operations than the vectorizer unrolls lane by lane. */
    "kernel void many_atomics(global const int *in, global int *cnt, global int *flag) {\n"
    "  int x = (int)get_global_id(0);\n"
    "  int v = in[x], s = 0;\n"
    "  if (v > 10) {\n"
    "    global int *c = cnt + (v & 7);\n"
    "    s |= atomic_add(c, 1) >= 0; s |= atomic_add(c, 2) >= 0; s |= atomic_add(c, 3) >= 0;\n"
    "    s |= atomic_add(c, 4) >= 0; s |= atomic_add(c, 5) >= 0; s |= atomic_add(c, 6) >= 0;\n"
    "    s |= atomic_add(c, 7) >= 0; s |= atomic_add(c, 8) >= 0; s |= atomic_add(c, 9) >= 0;\n"
    "  }\n"
    "  flag[x] = s;\n"
    "}\n"
    "kernel void volatile_private(global const int *in, global int *out) {\n"
    "  volatile int t[4];\n"
    "  int x = (int)get_global_id(0);\n"
    "  t[0] = in[x]; t[1] = t[0] * 3; t[2] = t[1] + x; t[3] = t[2] ^ 5;\n"
    "  if (in[x] & 1) t[0] = t[3] - t[1];\n"
    "  out[x] = t[0] + t[1] + t[2] + t[3];\n"
    "}\n"
    /* 5. 256 rounds of a hash with a divergent branch each: vectorized, past the size bound. */
    "#define R(i) v = (v ^ (v >> 3)) * 0x9E3779B1u + (uint)(i); \\\n"
    "  if (v & 0x100u) acc += in[(v >> 7) & 63u]; else acc -= v;\n"
    "#define R4(i) R(i) R(i + 1) R(i + 2) R(i + 3)\n"
    "#define R16(i) R4(i) R4(i + 4) R4(i + 8) R4(i + 12)\n"
    "#define R64(i) R16(i) R16(i + 16) R16(i + 32) R16(i + 48)\n"
    "kernel void hash_rounds(global const uint *in, global uint *out) {\n"
    "  uint x = (uint)get_global_id(0), v = x, acc = 0;\n"
    "  R64(0) R64(64) R64(128) R64(192)\n"
    "  out[x] = acc ^ v;\n"
    "}\n"
    /* 6. A private table of 28 bytes (clang aligns it to 16) indexed by data. */
    "kernel void private_table(global const int *in, global int *out) {\n"
    "  int x = (int)get_global_id(0);\n"
    "  int t[7] = {7, 0, 7, 7, 0, 7, 7};\n"
    "  t[in[x] % 7] += x;\n"
    "  out[x] = t[(in[x] + 1) % 7] + t[in[x] % 7];\n"
    "}\n"
    /* 7. A division by the local id under `lid != 0`, from a private array (a partial packet)
     * and under a divergent branch (two packets side by side). */
    "kernel void guarded_div_by_lid(global const uint *in, global uint *out, uint p) {\n"
    "  uint lid = (uint)get_local_id(0), g = (uint)get_global_id(0);\n"
    "  uint a[16];\n"
    "  for (uint t = 0u; t < 16u; t++) a[t] = in[g + t] ^ t;\n"
    "  uint x = a[in[g] % 16u];\n"
    "  uint r = lid != 0u ? x % lid : 5u;\n"
    "  uint q = lid != 0u ? x / lid : 6u;\n"
    "  uint v = p;\n"
    "  if (lid % 7u == 1u) v ^= lid != 0u ? p / lid : 9u;\n"
    "  out[3u * g] = r; out[3u * g + 1u] = q; out[3u * g + 2u] = v;\n"
    "}\n"
    /* 8b. The same with constant dividends: in a group of one packet the local ids are
     * constant lanes <0, 1, ...>, and the hoisted division folded, zero lane and all, into
     * poison: every lane read 0 (tools/fuzz seed 2384; vectorize_values.c, safediv.h). */
    "kernel void const_div_by_lid(global uint *out) {\n"
    "  uint lid = (uint)get_local_id(0), g = (uint)get_global_id(0);\n"
    "  int s = (int)lid - 3;\n"
    "  out[3u * g] = lid != 0u ? 20u % lid : 5u;\n"
    "  out[3u * g + 1u] = lid != 0u ? 100u / lid : 6u;\n"
    "  out[3u * g + 2u] = (uint)(s != 0 ? -77 / s : 4);\n"
    "}\n"
    /* 9. A uniform remainder (group id % n) in a divergent block between barriers: LLVM's
     * loop vectorizer, on the scalar work-item loop, computed it under lane 0's predicate only
     * (tools/fuzz class A). */
    "kernel void uniform_rem_in_divergent_branch(global const uint *in, global uint *out, uint n) {\n"
    "  local uint lm[256];\n"
    "  uint lid = (uint)get_local_id(0), gid = (uint)get_global_id(0), grp = (uint)get_group_id(0);\n"
    "  uint v = grp + 0x80000000u;\n"
    "  lm[lid] = in[gid % n];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (((gid == 0xbbu ? in[grp % n] : 0u) & 7u) == 2u) v ^= lm[lid];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[gid] = v;\n"
    "}\n"
    /* 10. A private array a kernel loop fills (bfo/lc keep it in scratch), then an element
     * zeroed through a variable index and another read: LLVM's loop vectorizer read a[0]
     * before the store of the same work-item (tools/fuzz seed 690). */
    "kernel void private_store_then_load(global const uint *in, global uint *out, uint n, uint g) {\n"
    "  uint oid = (uint)get_global_id(0);\n"
    "  uint a[3];\n"
    "  for (uint t = 0u; t < 3u; t++) a[t] = in[(oid + t * 24u) % n] ^ t;\n"
    "  a[1] ^= 1u;\n"
    "  a[(g | 1u) % 3u] = 0u;\n"
    "  out[oid] = a[0];\n"
    "}\n"
    /* 11. A do-while whose counter's value of the last iteration is read after the loop, with
     * a divergent and a uniform trip count: the vectorized copies had stored the next
     * iteration's value into the counter's slot before the loop's exit branch (tools/fuzz seed
     * 1710). */
    "kernel void counter_after_do_while(global uint *out, uint n) {\n"
    "  uint lid = (uint)get_local_id(0), g = (uint)get_global_id(0);\n"
    "  uint v = 77u, w = 77u, i = 0u, j = 0u;\n"
    "  do { v = i; } while (i++ < lid % 4u);\n"
    "  do { w = j; } while (j++ < n % 4u);\n"
    "  out[2u * g] = v; out[2u * g + 1u] = w;\n"
    "}\n"
    /* 8. A guarded remainder into __local after a uniform `if` around a uniform loop. */
    "kernel void guarded_rem_to_local(global const uint *in, global uint *out, uint n, uint m, uint f,\n"
    "                                 local uint *dl) {\n"
    "  uint lid = (uint)get_local_id(0), g = (uint)get_global_id(0), L = (uint)get_local_size(0);\n"
    "  uint v = in[(lid * 4u + 23u) % n];\n"
    "  if ((f >> 12u & 1u) == 0u) {\n"
    "    for (uint i = 0u; i < m; i++)\n"
    "      if ((f & 3u) != 2u) v ^= in[i];\n"
    "  }\n"
    "  uint x = in[lid];\n"
    "  dl[lid] = x != 0u ? 23u % x : 0u;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[2u * g] = v; out[2u * g + 1u] = dl[(lid + 1u) % L];\n"
    "}\n"
    /* 9. A loop whose header branches back to itself (`continue`) or on to the block that tests
     * the exit, which reads the header's counter: the unmasked copy stored the back edge's
     * next counter before the branch, so the exit test saw it one iteration early (lanes with
     * lim == 3 left the loop at i == 2). */
    "#define COMMA ,\n"
    "#define CONTINUE_SHAPE(NAME, PARAMS, BEFORE) \\\n"
    "kernel void NAME(global int *out, global const int *lims PARAMS) { \\\n"
    "  int g = get_global_id(0); \\\n"
    "  int i = 0, acc = 0, lim = lims[g] % 7 + 1; \\\n"
    "  while (1) { \\\n"
    "    i++; \\\n"
    "    BEFORE \\\n"
    "    if (i & 1) continue; \\\n"
    "    acc += i; \\\n"
    "    if (i >= lim) break; \\\n"
    "  } \\\n"
    "  out[g] = acc * 100 + i; \\\n"
    "}\n"
    "CONTINUE_SHAPE(continue_before_exit_test, , )\n"
    /* 10. The same with the `continue` inside a divergent `if` (wrong before as well). */
    "kernel void nested_continue_before_exit_test(global int *out, global const int *xs) {\n"
    "  int g = get_global_id(0), x = xs[g], i = 0, acc = 0;\n"
    "  while (1) {\n"
    "    i++;\n"
    "    if (i & 1) { if ((x >> i) & 1) continue; acc -= 1; }\n"
    "    acc += i;\n"
    "    if (i >= (x & 7) + 1) break;\n"
    "  }\n"
    "  out[g] = acc * 100 + i;\n"
    "}\n"
    /* 11. The first shape with many atomics in the block that branches: they run as a loop over
     * the lanes, which ends the body in a block of its own; the branch and its edge stores must
     * go there (placed at the end of the block's first copy, they made invalid IR: the verifier
     * crashed on e2e/test_builtins_math's kernel). */
    "#define A4 atomic_inc(count); atomic_inc(count); atomic_inc(count); atomic_inc(count);\n"
    "CONTINUE_SHAPE(continue_after_lane_loop, COMMA global int *count, A4 A4 A4 A4 A4 A4 A4 A4 A4)\n"
    /* 12. Loops whose carried state is a work-item's own uint4, uint8 or uint16 pair (clpeak's
     * chain shape): the vectorizer's packets for them are as wide as the register file holds
     * exactly (with AVX-512 and a local size of 128: 64, 32 and 16 work-items). */
    "#define M4(x, y) x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + x;\n"
    "#define M16(x, y) M4(x, y) M4(x, y) M4(x, y) M4(x, y)\n"
    "#define CHAIN(T, N, NAME) \\\n"
    "kernel void NAME(global uint *out, global const uint *init) { \\\n"
    "  T x = vload##N(0, init) + (T)((uint)get_global_id(0) & 3u); \\\n"
    "  T y = (T)(uint)get_global_id(0); \\\n"
    "  for (int i = 0; i < 8; i++) { M16(x, y) } \\\n"
    "  vstore##N(x ^ (y << 1), get_global_id(0), out); \\\n"
    "}\n"
    "CHAIN(uint4, 4, chains_u4)\n"
    "CHAIN(uint8, 8, chains_u8)\n"
    "CHAIN(uint16, 16, chains_u16)\n";

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

/* A launch that never returns fails the suite after a while, naming what hung. */
static const char *running = "";
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_kernels_regress: the launch did not finish: ";
    ssize_t r = write(2, msg, sizeof msg - 1);
    r = write(2, running, strlen(running));
    r = write(2, "\n", 1);
    (void)r;
    _exit(1);
}

static cl_int launch_bounded(const char *name, const size_t *global, const size_t *local, const struct karg *args,
                             size_t nargs)
{
    running = name;
    signal(SIGALRM, on_alarm);
    alarm(300);
    cl_int err = launch(name, 1, NULL, global, local, args, nargs);
    alarm(0);
    return err;
}

static cl_mem ints_new(size_t n, const int32_t *init)
{
    return buf_new(n * sizeof(int32_t), init);
}

static int32_t *ints_read(cl_mem m, size_t n)
{
    int32_t *h = malloc(n * sizeof *h);
    assert_non_null(h);
    buf_read(m, n * sizeof *h, h);
    return h;
}

/* Local sizes that leave a packet of 4, 8 or 16 lanes partly filled (and one that does not). */
static const size_t LOCAL_SIZES[] = {1, 3, 5, 7, 9, 13, 16, 21, 33};

static void test_gather_through_pointers_in_partial_packet(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        size_t L = LOCAL_SIZES[t], G = L * 3;
        int n = (int)G;
        int32_t *a = malloc(G * sizeof *a), *b = malloc(G * 3 * sizeof *b);
        for (size_t i = 0; i < G; i++)
            a[i] = (int32_t)(rng_next() % 11);
        for (size_t i = 0; i < G * 3; i++)
            b[i] = (int32_t)(1000 + i);
        cl_mem ba = ints_new(G, a), bb = ints_new(G * 3, b), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("pointer_gather", &G, &L, KARGS(KARG(ba), KARG(bb), KARG(bo), KARG(n))),
                         CL_SUCCESS);
        int32_t *out = ints_read(bo, G), *bnew = ints_read(bb, G * 3);
        int32_t *want_b = malloc(G * 3 * sizeof *want_b);
        memcpy(want_b, b, G * 3 * sizeof *b);
        for (size_t x = 0; x < G; x++) {
            size_t at = (a[x] & 1) ? x : (size_t)n + 2 * x;
            int32_t v = -1;
            if (a[x] > 2) {
                v = b[at];
                want_b[at] = v + (int32_t)x;
            }
            if (out[x] != v)
                fail_msg("pointer_gather: local %zu, item %zu: out %d, want %d", L, x, out[x], v);
        }
        for (size_t i = 0; i < G * 3; i++)
            if (bnew[i] != want_b[i])
                fail_msg("pointer_gather: local %zu, b[%zu] = %d, want %d", L, i, bnew[i], want_b[i]);
        free(a);
        free(b);
        free(want_b);
        free(out);
        free(bnew);
        clReleaseMemObject(ba);
        clReleaseMemObject(bb);
        clReleaseMemObject(bo);
    }
}

static void test_masked_load_left_of_guarded_range(void **state)
{
    (void)state;
    static const size_t locals[] = {16, 32, 64, 100, 256};
    static const int shifts[] = {1, 4, 20, 37};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++)
        for (size_t s = 0; s < ARRAY_LEN(shifts); s++) {
            size_t L = locals[t], G = L * 4;
            int shift = shifts[s], n = (int)G - shift - 3;
            int32_t *src = malloc((size_t)n * sizeof *src);
            for (int i = 0; i < n; i++)
                src[i] = (int32_t)(rng_next() % 100000);
            cl_mem bs = ints_new((size_t)n, src), bd = buf_poisoned((size_t)n * 4);
            assert_int_equal(launch_bounded("border_load", &G, &L, KARGS(KARG(bs), KARG(bd), KARG(shift), KARG(n))),
                             CL_SUCCESS);
            int32_t *dst = ints_read(bd, (size_t)n);
            for (int i = 0; i < n; i++)
                if (dst[i] != src[i] * 3 + 1)
                    fail_msg("border_load: local %zu, shift %d, dst[%d] = %d, want %d", L, shift, i, dst[i],
                             src[i] * 3 + 1);
            free(src);
            free(dst);
            clReleaseMemObject(bs);
            clReleaseMemObject(bd);
        }
}

static void test_dead_counting_loop_beside_divergence(void **state)
{
    (void)state;
    static const size_t locals[] = {3, 16, 40};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 2;
        int32_t *a = malloc(G * sizeof *a);
        for (size_t i = 0; i < G; i++)
            a[i] = (int32_t)(rng_next() % 1000);
        cl_mem ba = ints_new(G, a), bb = buf_poisoned(G * 4), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("dead_counting_loop", &G, &L, KARGS(KARG(ba), KARG(bb), KARG(bo))), CL_SUCCESS);
        int32_t *b = ints_read(bb, G), *out = ints_read(bo, G);
        for (size_t x = 0; x < G; x++) {
            if (out[x] != a[x] + 1)
                fail_msg("dead_counting_loop: local %zu, out[%zu] = %d, want %d", L, x, out[x], a[x] + 1);
            if ((a[x] & 1) && b[x] != a[x] * 3)
                fail_msg("dead_counting_loop: local %zu, b[%zu] = %d, want %d", L, x, b[x], a[x] * 3);
        }
        free(a);
        free(b);
        free(out);
        clReleaseMemObject(ba);
        clReleaseMemObject(bb);
        clReleaseMemObject(bo);
    }
}

static void test_many_serialized_operations(void **state)
{
    (void)state;
    static const size_t locals[] = {5, 17, 64};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 6;
        int32_t *in = malloc(G * sizeof *in), zero[8] = {0};
        for (size_t i = 0; i < G; i++)
            in[i] = (int32_t)(rng_next() % 40);
        cl_mem bi = ints_new(G, in), bc = ints_new(8, zero), bf = buf_poisoned(G * 4), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("many_atomics", &G, &L, KARGS(KARG(bi), KARG(bc), KARG(bf))), CL_SUCCESS);
        assert_int_equal(launch_bounded("volatile_private", &G, &L, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        int32_t *cnt = ints_read(bc, 8), *flag = ints_read(bf, G), *out = ints_read(bo, G);
        int32_t want_cnt[8] = {0};
        for (size_t x = 0; x < G; x++) {
            int32_t v = in[x];
            if (v > 10)
                want_cnt[v & 7] += 45;
            if (flag[x] != (v > 10))
                fail_msg("many_atomics: local %zu, flag[%zu] = %d, want %d", L, x, flag[x], v > 10);
            int32_t t0 = v, t1 = t0 * 3, t2 = t1 + (int32_t)x, t3 = t2 ^ 5;
            if (v & 1)
                t0 = t3 - t1;
            if (out[x] != t0 + t1 + t2 + t3)
                fail_msg("volatile_private: local %zu, out[%zu] = %d, want %d", L, x, out[x], t0 + t1 + t2 + t3);
        }
        for (int b = 0; b < 8; b++)
            if (cnt[b] != want_cnt[b])
                fail_msg("many_atomics: local %zu, cnt[%d] = %d, want %d", L, b, cnt[b], want_cnt[b]);
        free(in);
        free(cnt);
        free(flag);
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bc);
        clReleaseMemObject(bf);
        clReleaseMemObject(bo);
    }
}

static void test_kernel_past_the_size_bound(void **state)
{
    (void)state;
    static const size_t locals[] = {17, 64};
    uint32_t in[64];
    for (int i = 0; i < 64; i++)
        in[i] = rng_next();
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 3;
        cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("hash_rounds", &G, &L, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G);
        for (size_t x = 0; x < G; x++) {
            uint32_t v = (uint32_t)x, acc = 0;
            for (uint32_t i = 0; i < 256; i++) {
                v = (v ^ (v >> 3)) * 0x9E3779B1u + i;
                if (v & 0x100u)
                    acc += in[(v >> 7) & 63u];
                else
                    acc -= v;
            }
            if (out[x] != (acc ^ v))
                fail_msg("hash_rounds: local %zu, out[%zu] = %u, want %u", L, x, out[x], acc ^ v);
        }
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_private_table_copies_keep_alignment(void **state)
{
    (void)state;
    static const size_t locals[] = {3, 16, 32, 100};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 2;
        int32_t *in = malloc(G * sizeof *in);
        for (size_t i = 0; i < G; i++)
            in[i] = (int32_t)(rng_next() % 1000);
        cl_mem bi = ints_new(G, in), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("private_table", &G, &L, KARGS(KARG(bi), KARG(bo))), CL_SUCCESS);
        int32_t *out = ints_read(bo, G);
        for (size_t x = 0; x < G; x++) {
            int32_t tab[7] = {7, 0, 7, 7, 0, 7, 7};
            tab[in[x] % 7] += (int32_t)x;
            int32_t want = tab[(in[x] + 1) % 7] + tab[in[x] % 7];
            if (out[x] != want)
                fail_msg("private_table: local %zu, out[%zu] = %d, want %d", L, x, out[x], want);
        }
        free(in);
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_division_guarded_by_local_id(void **state)
{
    (void)state;
    static const size_t locals[] = {5, 7, 16, 32, 33, 48};
    const uint32_t p = 1516513847u;
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 3;
        uint32_t *in = malloc((G + 16) * sizeof *in);
        for (size_t i = 0; i < G + 16; i++)
            in[i] = rng_next();
        cl_mem bi = buf_new((G + 16) * sizeof *in, in), bo = buf_poisoned(G * 3 * 4);
        assert_int_equal(launch_bounded("guarded_div_by_lid", &G, &L, KARGS(KARG(bi), KARG(bo), KARG(p))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G * 3);
        for (size_t g = 0; g < G; g++) {
            uint32_t lid = (uint32_t)(g % L), a[16];
            for (uint32_t k = 0; k < 16; k++)
                a[k] = in[g + k] ^ k;
            uint32_t x = a[in[g] % 16u];
            uint32_t r = lid ? x % lid : 5u, q = lid ? x / lid : 6u, v = p;
            if (lid % 7u == 1u)
                v ^= p / lid;
            if (out[3 * g] != r || out[3 * g + 1] != q || out[3 * g + 2] != v)
                fail_msg("guarded_div_by_lid: local %zu, item %zu: %u %u %u, want %u %u %u", L, g, out[3 * g],
                         out[3 * g + 1], out[3 * g + 2], r, q, v);
        }
        free(in);
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_constant_division_by_local_id(void **state)
{
    (void)state;
    static const size_t locals[] = {12, 16, 7, 5, 40};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 3;
        cl_mem bo = buf_poisoned(G * 3 * 4);
        assert_int_equal(launch_bounded("const_div_by_lid", &G, &L, KARGS(KARG(bo))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G * 3);
        for (size_t g = 0; g < G; g++) {
            uint32_t lid = (uint32_t)(g % L);
            int32_t s = (int32_t)lid - 3;
            uint32_t r = lid ? 20u % lid : 5u, q = lid ? 100u / lid : 6u, d = (uint32_t)(s ? -77 / s : 4);
            if (out[3 * g] != r || out[3 * g + 1] != q || out[3 * g + 2] != d)
                fail_msg("const_div_by_lid: local %zu, item %zu: %u %u %u, want %u %u %u", L, g, out[3 * g],
                         out[3 * g + 1], out[3 * g + 2], r, q, d);
        }
        free(out);
        clReleaseMemObject(bo);
    }
}

static void test_guarded_remainder_to_local_in_tail_packet(void **state)
{
    (void)state;
    static const size_t locals[] = {48, 40, 20, 33};
    const uint32_t n = 256, m = 3, f = 1560429572u;
    uint32_t in[256];
    for (size_t i = 0; i < 256; i++)
        in[i] = i % 5 ? (uint32_t)(rng_next() % 97) : 0;
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 4;
        cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(G * 2 * 4);
        assert_int_equal(launch_bounded("guarded_rem_to_local", &G, &L,
                                        KARGS(KARG(bi), KARG(bo), KARG(n), KARG(m), KARG(f), KLOCAL(L * 4))),
                         CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G * 2);
        for (size_t g = 0; g < G; g++) {
            uint32_t lid = (uint32_t)(g % L), v = in[(lid * 4u + 23u) % n];
            if ((f >> 12u & 1u) == 0u)
                for (uint32_t i = 0; i < m; i++)
                    if ((f & 3u) != 2u)
                        v ^= in[i];
            uint32_t x = in[(lid + 1u) % L], d = x ? 23u % x : 0u;
            if (out[2 * g] != v || out[2 * g + 1] != d)
                fail_msg("guarded_rem_to_local: local %zu, item %zu: %u %u, want %u %u", L, g, out[2 * g],
                         out[2 * g + 1], v, d);
        }
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_uniform_remainder_in_divergent_branch(void **state)
{
    (void)state;
    static const size_t locals[] = {200, 64, 256};
    const uint32_t n = 1024;
    uint32_t in[1024];
    for (size_t i = 0; i < n; i++)
        in[i] = i < 4 ? 2u | (uint32_t)rng_next() << 3 : (uint32_t)rng_next();
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t L = locals[t], G = L * 4;
        cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("uniform_rem_in_divergent_branch", &G, &L, KARGS(KARG(bi), KARG(bo), KARG(n))),
                         CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G);
        for (size_t g = 0; g < G; g++) {
            uint32_t grp = (uint32_t)(g / L), v = grp + 0x80000000u;
            if (((g == 0xbb ? in[grp % n] : 0u) & 7u) == 2u)
                v ^= in[g % n];
            if (out[g] != v)
                fail_msg("uniform_rem_in_divergent_branch: local %zu, item %zu: %u, want %u", L, g, out[g], v);
        }
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_private_store_then_load(void **state)
{
    (void)state;
    const uint32_t n = 100;
    uint32_t in[100];
    for (size_t i = 0; i < n; i++)
        in[i] = (uint32_t)rng_next();
    static const uint32_t gs[] = {0, 1, 2, 5};
    for (size_t t = 0; t < ARRAY_LEN(gs); t++) {
        size_t L = 48, G = L * 8;
        uint32_t g = gs[t];
        cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("private_store_then_load", &G, &L, KARGS(KARG(bi), KARG(bo), KARG(n), KARG(g))),
                         CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G);
        for (size_t o = 0; o < G; o++) {
            uint32_t a[3];
            for (uint32_t k = 0; k < 3; k++)
                a[k] = in[(o + k * 24u) % n] ^ k;
            a[1] ^= 1u;
            a[(g | 1u) % 3u] = 0u;
            uint32_t want = a[0];
            if (out[o] != want)
                fail_msg("private_store_then_load: g %u, item %zu: %u, want %u", g, o, out[o], want);
        }
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_counter_after_do_while(void **state)
{
    (void)state;
    static const uint32_t ns[] = {0, 2, 7};
    for (size_t t = 0; t < ARRAY_LEN(ns); t++) {
        size_t L = 32, G = L * 4;
        uint32_t n = ns[t];
        cl_mem bo = buf_poisoned(G * 8);
        assert_int_equal(launch_bounded("counter_after_do_while", &G, &L, KARGS(KARG(bo), KARG(n))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, 2 * G);
        for (size_t o = 0; o < G; o++) {
            uint32_t v = (uint32_t)(o % L) % 4u, w = n % 4u;
            if (out[2 * o] != v || out[2 * o + 1] != w)
                fail_msg("counter_after_do_while: n %u, item %zu: %u %u, want %u %u", n, o, out[2 * o],
                         out[2 * o + 1], v, w);
        }
        free(out);
        clReleaseMemObject(bo);
    }
}

/* The host's continue_before_exit_test (and continue_after_lane_loop): its result for `lim`,
 * and the iterations it ran in *iterations. */
static uint32_t continue_ref(uint32_t lim, uint32_t *iterations)
{
    uint32_t i = 0, acc = 0;
    for (;;) {
        i++;
        if (i & 1u)
            continue;
        acc += i;
        if (i >= lim)
            break;
    }
    *iterations = i;
    return acc * 100u + i;
}

static void test_continue_before_exit_test(void **state)
{
    (void)state;
    /* every packet with lanes of each limit, and packets of one limit only (3: uniform in the
     * packet, the unmasked copy alone) */
    for (int pattern = 0; pattern < 2; pattern++) {
        size_t L = 64, G = L * 8;
        uint32_t *lims = malloc(G * sizeof *lims);
        assert_non_null(lims);
        for (size_t o = 0; o < G; o++)
            lims[o] = pattern ? 2u : (uint32_t)(o * 5u + o / 7u);
        cl_mem bl = ints_new(G, (const int32_t *)lims), bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("continue_before_exit_test", &G, &L, KARGS(KARG(bo), KARG(bl))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G);
        for (size_t o = 0; o < G; o++) {
            uint32_t lim = lims[o] % 7u + 1u, n, want = continue_ref(lim, &n);
            if (out[o] != want)
                fail_msg("continue_before_exit_test: item %zu, limit %u: %u, want %u", o, lim, out[o], want);
        }
        free(out);
        clReleaseMemObject(bo);
        /* the nested form, on the same inputs */
        bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("nested_continue_before_exit_test", &G, &L, KARGS(KARG(bo), KARG(bl))),
                         CL_SUCCESS);
        out = (uint32_t *)ints_read(bo, G);
        for (size_t o = 0; o < G; o++) {
            int32_t x = (int32_t)lims[o], i = 0, acc = 0;
            for (;;) {
                i++;
                if (i & 1) {
                    if ((x >> i) & 1)
                        continue;
                    acc -= 1;
                }
                acc += i;
                if (i >= (x & 7) + 1)
                    break;
            }
            if ((int32_t)out[o] != acc * 100 + i)
                fail_msg("nested_continue_before_exit_test: item %zu, x %d: %d, want %d", o, x, (int32_t)out[o],
                         acc * 100 + i);
        }
        free(out);
        clReleaseMemObject(bo);
        /* with a loop over the lanes in the branching block: 36 increments per iteration */
        int32_t zero = 0;
        cl_mem bc = ints_new(1, &zero);
        bo = buf_poisoned(G * 4);
        assert_int_equal(launch_bounded("continue_after_lane_loop", &G, &L, KARGS(KARG(bo), KARG(bl), KARG(bc))),
                         CL_SUCCESS);
        out = (uint32_t *)ints_read(bo, G);
        uint32_t *count = (uint32_t *)ints_read(bc, 1), iterations = 0;
        for (size_t o = 0; o < G; o++) {
            uint32_t lim = lims[o] % 7u + 1u, n, want = continue_ref(lim, &n);
            iterations += n;
            if (out[o] != want)
                fail_msg("continue_after_lane_loop: item %zu, limit %u: %u, want %u", o, lim, out[o], want);
        }
        assert_int_equal(count[0], 36u * iterations);
        free(count);
        free(out);
        free(lims);
        clReleaseMemObject(bc);
        clReleaseMemObject(bo);
        clReleaseMemObject(bl);
    }
}

/* Vector-typed chains (kernel 12) in packets of 64, 32 and 16 work-items: every component of
 * every work-item, against the host's wrapping arithmetic. */
static void test_vector_typed_chains(void **state)
{
    (void)state;
    static const char *names[] = {"chains_u4", "chains_u8", "chains_u16"};
    static const unsigned widths[] = {4, 8, 16};
    const size_t L = 128, G = L * 4;
    int32_t init[16];
    for (int c = 0; c < 16; c++)
        init[c] = (int32_t)(0x9e3779b9u * (uint32_t)(c + 1));
    cl_mem bi = ints_new(16, init);
    for (int k = 0; k < 3; k++) {
        unsigned n = widths[k];
        cl_mem bo = buf_poisoned(G * n * 4);
        assert_int_equal(launch_bounded(names[k], &G, &L, KARGS(KARG(bo), KARG(bi))), CL_SUCCESS);
        uint32_t *out = (uint32_t *)ints_read(bo, G * n);
        for (size_t g = 0; g < G; g++)
            for (unsigned c = 0; c < n; c++) {
                uint32_t x = (uint32_t)init[c] + ((uint32_t)g & 3u), y = (uint32_t)g;
                for (int step = 0; step < 8 * 8; step++) {   /* 8 iterations of M16: 4 x M4, each two pairs */
                    x = y * x + y;
                    y = x * y + x;
                }
                uint32_t want = x ^ (y << 1);
                if (out[g * n + c] != want)
                    fail_msg("%s: item %zu, component %u: %u, want %u", names[k], g, c, out[g * n + c], want);
            }
        free(out);
        clReleaseMemObject(bo);
    }
    clReleaseMemObject(bi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_through_pointers_in_partial_packet),
        cmocka_unit_test(test_masked_load_left_of_guarded_range),
        cmocka_unit_test(test_dead_counting_loop_beside_divergence),
        cmocka_unit_test(test_many_serialized_operations),
        cmocka_unit_test(test_kernel_past_the_size_bound),
        cmocka_unit_test(test_private_table_copies_keep_alignment),
        cmocka_unit_test(test_division_guarded_by_local_id),
        cmocka_unit_test(test_constant_division_by_local_id),
        cmocka_unit_test(test_guarded_remainder_to_local_in_tail_packet),
        cmocka_unit_test(test_uniform_remainder_in_divergent_branch),
        cmocka_unit_test(test_private_store_then_load),
        cmocka_unit_test(test_counter_after_do_while),
        cmocka_unit_test(test_continue_before_exit_test),
        cmocka_unit_test(test_vector_typed_chains),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
