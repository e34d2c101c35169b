/* tests/e2e/test_kernels_divergence.c — kernels whose work-items take different paths, the
 * shapes the vectorizer across work-items (compiler/transform/vectorize.c) linearizes under lane
 * masks: a Mandelbrot while loop with data-dependent trip counts, a binomial option pricer with
 * divergent updates between barriers, a bitonic sort's conditional compare-and-swap, early
 * returns (also from inside a loop), if/else chains with different stores per branch, divergent
 * ifs nested in a uniform loop, loops left by divergent breaks, global and local atomics and
 * atomic compaction under divergence, a private array indexed by data, math builtins on
 * divergent arms, a uniform loop carrying varying floating-point chains, and loads from one of
 * two places chosen per item (clamped neighbours, a choice of two arrays).
 *
 * Every kernel runs at local sizes 1, 3, 7, 17, 64, 100 and 256 with several work-groups, and is
 * checked against a reference computed independently on the host. A guarded kernel (one that
 * does nothing for items >= n) runs twice per local size > 1, with n = the global size and
 * n = global - local/2, on output buffers pre-filled with a marker that must survive past n.
 * CTest runs this file vectorized (e2e/) and with WEFT_VECTORIZE=off (e2e-novec/). */
#include "test_kernels_harness.h"

static const char *source =
    /* The Mandelbrot test compares iteration counts exactly: no a*b+c fused anywhere. */
    "#pragma OPENCL FP_CONTRACT OFF\n"
    /* 1. A while loop whose trip count depends on the pixel, leaving through either condition. */
    "kernel void mandelbrot(global int *out, int w, int n, float x0, float y0, float dx, float dy, int maxit) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int px = g % w, py = g / w;\n"
    "  float cr = x0 + (float)px * dx, ci = y0 + (float)py * dy;\n"
    "  float zr = 0.0f, zi = 0.0f, zr2 = 0.0f, zi2 = 0.0f;\n"
    "  int it = 0;\n"
    "  while (it < maxit && zr2 + zi2 <= 4.0f) {\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = zr2 - zi2 + cr;\n"
    "    zr2 = zr * zr;\n"
    "    zi2 = zi * zi;\n"
    "    it++;\n"
    "  }\n"
    "  out[g] = it;\n"
    "}\n"
    /* 2. SDK-style binomial pricer of European calls: one work-group per option, the tree in
     * local memory, a divergent strided loop for the leaves and `if (k < i)` updates between
     * barriers. */
    "kernel void binomial_option(global const float *spot, global const float *strike, global const float *years,\n"
    "                            float rate, float vol, int steps, global float *price,\n"
    "                            local float *call, local float *next) {\n"
    "  int l = (int)get_local_id(0), ls = (int)get_local_size(0), o = (int)get_group_id(0);\n"
    "  float s = spot[o], x = strike[o], t = years[o];\n"
    "  float dt = t / (float)steps;\n"
    "  float vdt = vol * sqrt(dt), rdt = rate * dt;\n"
    "  float pu = (expm1(rdt) - expm1(-vdt)) / (expm1(vdt) - expm1(-vdt));\n"
    "  float df = exp(-rdt);\n"
    "  float pu_df = pu * df, pd_df = (1.0f - pu) * df;\n"
    "  for (int i = l; i <= steps; i += ls) {\n"
    "    float leaf = s * exp(vdt * (float)(2 * i - steps)) - x;\n"
    "    if (leaf > 0.0f) call[i] = leaf; else call[i] = 0.0f;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = steps; i > 0; i--) {\n"
    "    for (int k = l; k <= steps; k += ls)\n"
    "      if (k < i) next[k] = pu_df * call[k + 1] + pd_df * call[k];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = l; k < i; k += ls)\n"
    "      call[k] = next[k];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) price[o] = call[0];\n"
    "}\n"
    /* 3. One (stage, pass) of a bitonic sort: a compare-and-swap taken by some lanes. */
    "kernel void bitonic_step(global int *a, uint stage, uint pass, uint pairs, uint ascending) {\n"
    "  uint g = (uint)get_global_id(0);\n"
    "  if (g >= pairs) return;\n"
    "  uint dist = 1u << (stage - pass);\n"
    "  uint left = g % dist + g / dist * 2u * dist, right = left + dist;\n"
    "  int lv = a[left], rv = a[right];\n"
    "  uint up = ((g >> stage) & 1u) ? !ascending : ascending;\n"
    "  if ((lv > rv) == (up != 0u)) {\n"
    "    a[left] = rv;\n"
    "    a[right] = lv;\n"
    "  }\n"
    "}\n"
    /* 4. Returns in some lanes, after a store and between stores. */
    "kernel void early_return(global const int *in, global int *first, global int *second, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  first[g] = v + g;\n"
    "  if (v % 3 == 0) return;\n"
    "  int w = v * 7 - g;\n"
    "  if (v & 1) { second[g] = w; return; }\n"
    "  first[g] = w ^ 0x5A5A;\n"
    "  second[g] = -w;\n"
    "}\n"
    /* 5. A return inside a loop: lanes leave at different iterations, others finish the loop. */
    "kernel void return_in_loop(global const int *in, global int *acc_out, global int *exit_at, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g], t = v % 61, acc = 0;\n"
    "  for (int i = 0; i < 20; i++) {\n"
    "    acc += ((v >> (i & 7)) & 3) + 1;\n"
    "    if (acc >= t) { acc_out[g] = acc * 100 + i; exit_at[g] = i; return; }\n"
    "  }\n"
    "  acc_out[g] = -acc;\n"
    "  exit_at[g] = 20;\n"
    "}\n"
    /* 6. An if/else chain: different buffers stored per branch, a value defined per branch
     * used after the join. */
    "kernel void if_else_chain(global const int *in, global int *a, global int *b, global int *c,\n"
    "                          global int *res, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g], r;\n"
    "  float f;\n"
    "  if (v < 100) { a[g] = v; r = v * 2; f = 0.5f; }\n"
    "  else if (v < 300) { b[g] = v - 100; r = v ^ 0x55; f = -1.25f; }\n"
    "  else if (v < 600) { c[g] = -v; r = v / 7; f = (float)v; }\n"
    "  else { a[g] = v; b[g] = v + 1; r = 1000 - v; f = 3.0f; }\n"
    "  res[g] = r * 3 + g + (int)(f * 4.0f);\n"
    "}\n"
    /* 7. Divergent ifs, nested two deep, inside a loop with a uniform trip count. */
    "kernel void nested_if_uniform_loop(global const int *in, global int *out, int n, int rounds) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g], acc = 0;\n"
    "  for (int r = 0; r < rounds; r++) {\n"
    "    if ((v >> r) & 1) {\n"
    "      if (v % (r + 2) == 0) acc += r * v; else acc -= r;\n"
    "    } else {\n"
    "      if ((g + r) & 2) acc ^= v << (r & 7);\n"
    "    }\n"
    "  }\n"
    "  out[g] = acc;\n"
    "}\n"
    /* 8a. A capped Collatz loop with two breaks (reached 1, hit the cap). */
    "kernel void collatz(global const uint *in, global int *steps, global uint *peak, int n, int cap) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  uint x = in[g], pk = x;\n"
    "  int s = 0;\n"
    "  while (1) {\n"
    "    if (x == 1u) break;\n"
    "    if (s == cap) { s = -s; break; }\n"
    "    x = (x & 1u) ? 3u * x + 1u : x / 2u;\n"
    "    pk = max(pk, x);\n"
    "    s++;\n"
    "  }\n"
    "  steps[g] = s;\n"
    "  peak[g] = pk;\n"
    "}\n"
    /* 8b. A linear search leaving its loop by a divergent break. */
    "kernel void linear_search(global const int *hay, int len, global const int *keys, global int *pos, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int k = keys[g], p = -1;\n"
    "  for (int i = 0; i < len; i++)\n"
    "    if (hay[i] == k) { p = i; break; }\n"
    "  pos[g] = p;\n"
    "}\n"
    /* 9. Global atomics taken by some lanes: a ticket counter, a sum, a 32-bin histogram. */
    "kernel void atomics_divergent(global const int *in, global int *counter, global int *sum, global int *hist,\n"
    "                              global int *ticket, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  if (v & 1) {\n"
    "    ticket[g] = atomic_inc(counter);\n"
    "    atomic_add(sum, v);\n"
    "  }\n"
    "  if (v % 5 != 0) atomic_inc(&hist[(v >> 3) & 31]);\n"
    "}\n"
    /* 10. Stream compaction: out[atomic_inc(&count)] = value in some lanes. */
    "kernel void compact(global const int *in, global int *out, global int *count, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int v = in[g];\n"
    "  if (v % 7 < 3) out[atomic_inc(count)] = v * 2 + 1;\n"
    "}\n"
    /* 11. Local atomics under divergence between barriers (a per-group histogram and ticket
     * counter); every item reaches the barriers, the guard is a condition. */
    "kernel void local_atomics(global const int *in, global int *hist_out, global int *count_out,\n"
    "                          global int *ticket, int n) {\n"
    "  local int lh[16];\n"
    "  local int cnt;\n"
    "  int l = (int)get_local_id(0), ls = (int)get_local_size(0), g = (int)get_global_id(0);\n"
    "  int grp = (int)get_group_id(0);\n"
    "  for (int i = l; i < 16; i += ls) lh[i] = 0;\n"
    "  if (l == 0) cnt = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = g < n ? in[g] : -1;\n"
    "  if (v >= 0) {\n"
    "    if (v & 1) { atomic_inc(&lh[v & 15]); ticket[g] = atomic_inc(&cnt); }\n"
    "    else atomic_add(&lh[(v >> 4) & 15], 2);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = l; i < 16; i += ls) hist_out[grp * 16 + i] = lh[i];\n"
    "  if (l == ls - 1) count_out[grp] = cnt;\n"
    "}\n"
    /* 12. A private array with a data-dependent index and trip count. */
    "kernel void private_hist(global const uint *in, global int *out, global int *pick, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  uint v = in[g], x = v;\n"
    "  int hist[8];\n"
    "  for (int i = 0; i < 8; i++) hist[i] = 0;\n"
    "  int trips = (int)(v % 23u);\n"
    "  for (int i = 0; i < trips; i++) {\n"
    "    x = x * 1103515245u + 12345u;\n"
    "    hist[(x >> 16) & 7u] += i + 1;\n"
    "  }\n"
    "  for (int i = 0; i < 8; i++) out[g * 8 + i] = hist[i];\n"
    "  pick[g] = hist[v & 7u] - hist[(v >> 3) & 7u];\n"
    "}\n"
    /* 13. Math builtins on three divergent arms. */
    "kernel void math_divergent(global const float *in, global float *out, global int *arm, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  float x = in[g];\n"
    "  if (x < -1.0f) { out[g] = sin(x); arm[g] = 0; }\n"
    "  else if (x < 2.0f) { out[g] = exp(x); arm[g] = 1; }\n"
    "  else { out[g] = sqrt(x) + exp(-x); arm[g] = 2; }\n"
    "}\n"
    /* 14. A loop with a uniform trip count carrying two varying mad chains (clpeak-like). */
    "kernel void mad_chain(global const float *in, global float *out, float a, float b, int iters) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  float x = in[g], y = 1.0f - in[g];\n"
    "  for (int i = 0; i < iters; i++) {\n"
    "    x = mad(x, a, b);\n"
    "    y = mad(y, a, b);\n"
    "  }\n"
    "  out[2 * g] = x;\n"
    "  out[2 * g + 1] = y;\n"
    "}\n"
    /* 15. Lanes that agree for a while and then part ways: per-item trip counts and branch
     * choices that are equal across whole blocks of items, equal except one item, or random,
     * so that the vectorizer's unmasked fast path runs, finishes, or hands packets over to the
     * masked copy at the outer loop's exit, at the if, and inside the inner loop. */
    "kernel void agree_then_split(global const int *trip, global const int *sel, global int *out, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int acc = g & 1, t = trip[g], s = sel[g];\n"
    "  for (int i = 0; i < t; i++) {\n"
    "    if (s & (1 << (i & 7))) acc += i * 3; else acc -= i;\n"
    "    for (int j = 0; j < (i & 3) + ((s >> 8) & 1); j++) acc ^= j + i;\n"
    "  }\n"
    "  out[g] = acc;\n"
    "}\n"
    /* 16. Loads from one of two places chosen per item, both contiguous across neighbouring
     * items: HotSpot's clamped neighbours (the vectorizer loads both places under the lanes
     * that choose each, since in[n] lies past the end) and a choice between two arrays. */
    "kernel void clamped_neighbours(global const int *in, global const int *alt, global int *out, int n) {\n"
    "  int g = (int)get_global_id(0);\n"
    "  if (g >= n) return;\n"
    "  int e = in[g == n - 1 ? g : g + 1], w = in[g == 0 ? g : g - 1];\n"
    "  global const int *p = (in[g] & 4) ? alt + g : in + g;\n"
    "  out[g] = 3 * e - w + 7 * *p;\n"
    "}\n"
    /* 17. Branches on comparisons of affine ids with uniform values, which a full packet
     * decides from its first and last lanes: equalities, ranges, a decreasing id, an unsigned
     * id that wraps around inside a packet and a signed one that overflows there (global offset
     * near INT_MAX). Each branch guards a store, so none becomes a select. The wrapping ones
     * come first, so that a packet reaches them on the unmasked fast path (after a disagreement
     * the rest of a packet runs masked). */
    "kernel void border_tests(global int *out, int n, uint base) {\n"
    "  size_t g = get_global_id(0);\n"
    "  int i = (int)(g - get_global_offset(0)), j = n - 1 - i, s = (int)g;\n"
    "  uint u = (uint)g + base;\n"
    "  global int *o = out + 8 * i;\n"
    "  if (u < 8u) o[3] = 4;\n"
    "  if (s < 0) o[6] = 7;\n"
    "  if (s > 0x7FFFFFF8) o[7] = 8;\n"
    "  if (i == 0 || i == n - 1) o[0] = 1;\n"
    "  if (j < 5) o[1] = 2;\n"
    "  if (i >= 17 && i <= 40) o[2] = 3;\n"
    "  if (!(i != 33)) o[4] = 5;\n"
    "  if (i > n - 3 || u >= 0xFFFFFFF8u) o[5] = 6;\n"
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

/* ---- shared helpers ------------------------------------------------------------------------ */

static const size_t LOCAL_SIZES[] = {1, 3, 7, 17, 64, 100, 256};

/* The word buf_poisoned leaves in every 32-bit element. */
#define MARK ((int32_t)0xA5A5A5A5u)

/* One launch of a guarded kernel: `global` items in groups of `ls`, items >= n do nothing. */
struct shape {
    size_t ls, global;
    cl_int n;
};

/* The launches of a guarded kernel at local size ls with `groups` work-groups: n = global, and
 * for ls > 1 also n = global - ls/2 (a ragged last group). Returns how many. */
static size_t guarded_shapes(size_t ls, size_t groups, struct shape out[2])
{
    size_t global = ls * groups;
    out[0] = (struct shape){ls, global, (cl_int)global};
    if (ls == 1)
        return 1;
    out[1] = (struct shape){ls, global, (cl_int)(global - ls / 2)};
    return 2;
}

#define FAIL_AT(kname, sh, item, fmt, ...)                                                                             \
    fail_msg("%s: local %zu, n %d, item %zu: " fmt, (kname), (sh)->ls, (int)(sh)->n, (size_t)(item), __VA_ARGS__)

static void check_int(const char *kname, const struct shape *sh, const char *what, size_t item, long long input,
                      int32_t got, int32_t want)
{
    if (got != want)
        fail_msg("%s: local %zu, n %d, item %zu, input %lld: %s got %d, want %d", kname, sh->ls, (int)sh->n, item,
                 input, what, got, want);
}

/* Elements [from, to) of a buffer of 32-bit words still hold the marker. */
static void check_untouched(const char *kname, const struct shape *sh, const char *what, const void *words,
                            size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        int32_t w;
        memcpy(&w, (const char *)words + i * 4, 4);
        if (w != MARK)
            fail_msg("%s: local %zu, n %d, item %zu: %s written (0x%08x) where it must stay untouched", kname, sh->ls,
                     (int)sh->n, i, what, (unsigned)w);
    }
}

static cl_mem ints_new(size_t count, const int32_t *init)
{
    return buf_new(count * sizeof(int32_t), init);
}

static int32_t *ints_read(cl_mem m, size_t count)
{
    int32_t *h = malloc(count * sizeof *h);
    buf_read(m, count * sizeof *h, h);
    return h;
}

static int cmp_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* A product rounded to float, never fused with a following add by the host compiler. */
static float rmul(float a, float b)
{
    volatile float r = a * b;
    return r;
}

/* ---- 1. Mandelbrot ------------------------------------------------------------------------- */

static int mandel_ref(int px, int py, float x0, float y0, float dx, float dy, int maxit)
{
    float cr = x0 + rmul((float)px, dx), ci = y0 + rmul((float)py, dy);
    float zr = 0.0f, zi = 0.0f, zr2 = 0.0f, zi2 = 0.0f;
    int it = 0;
    while (it < maxit && zr2 + zi2 <= 4.0f) {
        zi = rmul(2.0f * zr, zi) + ci;
        zr = zr2 - zi2 + cr;
        zr2 = rmul(zr, zr);
        zi2 = rmul(zi, zi);
        it++;
    }
    return it;
}

static void test_mandelbrot_divergent_while_loop(void **state)
{
    (void)state;
    static const int dims[][2] = {{61, 47}, {64, 32}};
    const int maxit = 200;
    const float x0 = -2.2f, y0 = -1.2f;
    for (size_t d = 0; d < ARRAY_LEN(dims); d++) {
        int w = dims[d][0], h = dims[d][1], n = w * h;
        float dx = 3.0f / (float)w, dy = 2.4f / (float)h;
        int *want = malloc((size_t)n * sizeof *want);
        bool seen[201] = {false};
        int distinct = 0, capped = 0;
        for (int i = 0; i < n; i++) {
            want[i] = mandel_ref(i % w, i / w, x0, y0, dx, dy, maxit);
            distinct += !seen[want[i]];
            seen[want[i]] = true;
            capped += want[i] == maxit;
        }
        /* the image really diverges: many trip counts, some pixels run to the cap */
        if (distinct <= 20 || capped == 0 || capped == n)
            fail_msg("mandelbrot %dx%d: %d distinct trip counts, %d capped pixels", w, h, distinct, capped);
        for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
            struct shape sh = {LOCAL_SIZES[t], round_up((size_t)n, LOCAL_SIZES[t]), n};
            cl_mem bo = buf_poisoned(sh.global * sizeof(int32_t));
            assert_int_equal(launch("mandelbrot", 1, NULL, &sh.global, &sh.ls,
                                    KARGS(KARG(bo), KARG(w), KARG(n), KARG(x0), KARG(y0), KARG(dx), KARG(dy),
                                          KARG(maxit))),
                             CL_SUCCESS);
            int32_t *out = ints_read(bo, sh.global);
            for (int i = 0; i < n; i++)
                if (out[i] != want[i])
                    FAIL_AT("mandelbrot", &sh, i, "image %dx%d pixel (%d,%d): got %d iterations, want %d", w, h, i % w,
                            i / w, out[i], want[i]);
            check_untouched("mandelbrot", &sh, "out", out, (size_t)n, sh.global);
            free(out);
            clReleaseMemObject(bo);
        }
        free(want);
    }
}

/* ---- 2. binomial option pricing ------------------------------------------------------------ */

static double binomial_ref(double s, double x, double t, double rate, double vol, int steps)
{
    double dt = t / steps, vdt = vol * sqrt(dt), rdt = rate * dt;
    double pu = (expm1(rdt) - expm1(-vdt)) / (expm1(vdt) - expm1(-vdt));
    double df = exp(-rdt), pu_df = pu * df, pd_df = (1.0 - pu) * df;
    double *v = malloc((size_t)(steps + 1) * sizeof *v);
    for (int i = 0; i <= steps; i++)
        v[i] = fmax(s * exp(vdt * (2 * i - steps)) - x, 0.0);
    for (int i = steps; i > 0; i--)
        for (int k = 0; k < i; k++)
            v[k] = pu_df * v[k + 1] + pd_df * v[k];
    double p = v[0];
    free(v);
    return p;
}

/* Black-Scholes price of a European call: a sanity check of the host reference itself. */
static double black_scholes_call(double s, double x, double t, double rate, double vol)
{
    double d1 = (log(s / x) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt(t)), d2 = d1 - vol * sqrt(t);
    return s * 0.5 * erfc(-d1 / sqrt(2.0)) - x * exp(-rate * t) * 0.5 * erfc(-d2 / sqrt(2.0));
}

static void test_binomial_option_divergent_updates_between_barriers(void **state)
{
    (void)state;
    enum { OPTIONS = 6 };
    const int steps = 254;
    const float rate = 0.02f, vol = 0.30f;
    float spot[OPTIONS], strike[OPTIONS], years[OPTIONS];
    double want[OPTIONS];
    for (int o = 0; o < OPTIONS; o++) {
        spot[o] = 20.0f + (float)(rng_next() % 4000) / 100.0f;
        strike[o] = 20.0f + (float)(rng_next() % 4000) / 100.0f;
        years[o] = 0.25f + (float)(rng_next() % 475) / 100.0f;
        want[o] = binomial_ref(spot[o], strike[o], years[o], rate, vol, steps);
        double bs = black_scholes_call(spot[o], strike[o], years[o], rate, vol);
        if (fabs(want[o] - bs) > 2e-3 * spot[o] + 1e-3)
            fail_msg("binomial host reference for option %d (S %g, X %g, T %g) is %g, Black-Scholes says %g", o,
                     spot[o], strike[o], years[o], want[o], bs);
    }
    cl_mem bs = buf_new(sizeof spot, spot), bx = buf_new(sizeof strike, strike), bt = buf_new(sizeof years, years);
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape sh = {LOCAL_SIZES[t], LOCAL_SIZES[t] * OPTIONS, OPTIONS};
        cl_mem bp = buf_poisoned(sizeof(float) * OPTIONS);
        size_t tree = (size_t)(steps + 1) * sizeof(float);
        assert_int_equal(launch("binomial_option", 1, NULL, &sh.global, &sh.ls,
                                KARGS(KARG(bs), KARG(bx), KARG(bt), KARG(rate), KARG(vol), KARG(steps), KARG(bp),
                                      KLOCAL(tree), KLOCAL(tree))),
                         CL_SUCCESS);
        float price[OPTIONS];
        buf_read(bp, sizeof price, price);
        for (int o = 0; o < OPTIONS; o++) {
            double tol = 3e-4 * want[o] + 1e-5 * strike[o];
            if (!(fabs(price[o] - want[o]) <= tol))
                FAIL_AT("binomial_option", &sh, o, "option S %g X %g T %g: got %.7g, want %.7g (tolerance %.3g)",
                        spot[o], strike[o], years[o], price[o], want[o], tol);
        }
        clReleaseMemObject(bp);
    }
    clReleaseMemObject(bs);
    clReleaseMemObject(bx);
    clReleaseMemObject(bt);
}

/* ---- 3. bitonic sort ----------------------------------------------------------------------- */

static void test_bitonic_sort_divergent_compare_and_swap(void **state)
{
    (void)state;
    enum { N = 2048, LOG_N = 11, PAD = 512 };
    const cl_uint pairs = N / 2, ascending = 1;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        /* ragged (guarded) for 3, 7, 17, 100; exact for 1, 64, 256 */
        struct shape sh = {LOCAL_SIZES[t], round_up(pairs, LOCAL_SIZES[t]), (cl_int)pairs};
        int32_t *in = malloc((N + PAD) * sizeof *in), *want = malloc(N * sizeof *want);
        for (size_t i = 0; i < N; i++)
            want[i] = in[i] = (int32_t)(rng_next() % 600) - 300; /* many duplicates */
        for (size_t i = N; i < N + PAD; i++)
            in[i] = MARK;
        qsort(want, N, sizeof *want, cmp_int);
        cl_mem ba = ints_new(N + PAD, in);
        for (cl_uint stage = 0; stage < LOG_N; stage++)
            for (cl_uint pass = 0; pass <= stage; pass++)
                assert_int_equal(launch("bitonic_step", 1, NULL, &sh.global, &sh.ls,
                                        KARGS(KARG(ba), KARG(stage), KARG(pass), KARG(pairs), KARG(ascending))),
                                 CL_SUCCESS);
        int32_t *out = ints_read(ba, N + PAD);
        for (size_t i = 0; i < N; i++)
            if (out[i] != want[i])
                FAIL_AT("bitonic_step", &sh, i, "sorted[%zu] got %d, want %d", i, out[i], want[i]);
        check_untouched("bitonic_step", &sh, "padding after the array", out, N, N + PAD);
        free(out);
        free(in);
        free(want);
        clReleaseMemObject(ba);
    }
}

/* ---- 4. early return ----------------------------------------------------------------------- */

static void test_early_return_in_some_lanes(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 10000);
            cl_mem bi = ints_new(G, in), b1 = buf_poisoned(G * 4), b2 = buf_poisoned(G * 4);
            assert_int_equal(launch("early_return", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(b1), KARG(b2), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *first = ints_read(b1, G), *second = ints_read(b2, G);
            int returned = 0;
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int v = in[g], w = v * 7 - (int)g, f, sc;
                if (v % 3 == 0) {
                    f = v + (int)g;
                    sc = MARK;
                    returned++;
                } else if (v & 1) {
                    f = v + (int)g;
                    sc = w;
                } else {
                    f = w ^ 0x5A5A;
                    sc = -w;
                }
                check_int("early_return", sh, "first", g, v, first[g], f);
                check_int("early_return", sh, "second", g, v, second[g], sc);
            }
            assert_true(returned > 0 && returned < sh->n);
            check_untouched("early_return", sh, "first", first, (size_t)sh->n, G);
            check_untouched("early_return", sh, "second", second, (size_t)sh->n, G);
            free(in);
            free(first);
            free(second);
            clReleaseMemObject(bi);
            clReleaseMemObject(b1);
            clReleaseMemObject(b2);
        }
    }
}

/* ---- 5. return inside a loop --------------------------------------------------------------- */

static void test_return_inside_loop(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 100000);
            cl_mem bi = ints_new(G, in), ba = buf_poisoned(G * 4), be = buf_poisoned(G * 4);
            assert_int_equal(launch("return_in_loop", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(ba), KARG(be), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *acc_out = ints_read(ba, G), *exit_at = ints_read(be, G);
            bool seen[21] = {false};
            int distinct = 0, finished = 0;
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int v = in[g], tgt = v % 61, acc = 0, want_acc = 0, want_exit = 20;
                for (int i = 0; i < 20; i++) {
                    acc += ((v >> (i & 7)) & 3) + 1;
                    if (acc >= tgt) {
                        want_exit = i;
                        break;
                    }
                }
                want_acc = want_exit < 20 ? acc * 100 + want_exit : -acc;
                distinct += !seen[want_exit];
                seen[want_exit] = true;
                finished += want_exit == 20;
                check_int("return_in_loop", sh, "acc", g, v, acc_out[g], want_acc);
                check_int("return_in_loop", sh, "exit iteration", g, v, exit_at[g], want_exit);
            }
            /* lanes leave at many different iterations, and some run the whole loop */
            if (sh->n >= 64 && (distinct < 6 || finished == 0))
                fail_msg("return_in_loop: local %zu, n %d: only %d distinct exits, %d finished", sh->ls, (int)sh->n,
                         distinct, finished);
            check_untouched("return_in_loop", sh, "acc", acc_out, (size_t)sh->n, G);
            check_untouched("return_in_loop", sh, "exit iteration", exit_at, (size_t)sh->n, G);
            free(in);
            free(acc_out);
            free(exit_at);
            clReleaseMemObject(bi);
            clReleaseMemObject(ba);
            clReleaseMemObject(be);
        }
    }
}

/* ---- 6. if/else chain ---------------------------------------------------------------------- */

static void test_divergent_if_else_chain(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 1000);
            cl_mem bi = ints_new(G, in), ba = buf_poisoned(G * 4), bb = buf_poisoned(G * 4), bc = buf_poisoned(G * 4),
                   br = buf_poisoned(G * 4);
            assert_int_equal(launch("if_else_chain", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(ba), KARG(bb), KARG(bc), KARG(br), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *a = ints_read(ba, G), *b = ints_read(bb, G), *c = ints_read(bc, G), *res = ints_read(br, G);
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int v = in[g], wa = MARK, wb = MARK, wc = MARK, r;
                float f;
                if (v < 100) {
                    wa = v;
                    r = v * 2;
                    f = 0.5f;
                } else if (v < 300) {
                    wb = v - 100;
                    r = v ^ 0x55;
                    f = -1.25f;
                } else if (v < 600) {
                    wc = -v;
                    r = v / 7;
                    f = (float)v;
                } else {
                    wa = v;
                    wb = v + 1;
                    r = 1000 - v;
                    f = 3.0f;
                }
                check_int("if_else_chain", sh, "a", g, v, a[g], wa);
                check_int("if_else_chain", sh, "b", g, v, b[g], wb);
                check_int("if_else_chain", sh, "c", g, v, c[g], wc);
                check_int("if_else_chain", sh, "res", g, v, res[g], r * 3 + (int)g + (int)(f * 4.0f));
            }
            check_untouched("if_else_chain", sh, "a", a, (size_t)sh->n, G);
            check_untouched("if_else_chain", sh, "b", b, (size_t)sh->n, G);
            check_untouched("if_else_chain", sh, "c", c, (size_t)sh->n, G);
            check_untouched("if_else_chain", sh, "res", res, (size_t)sh->n, G);
            free(in);
            free(a);
            free(b);
            free(c);
            free(res);
            clReleaseMemObject(bi);
            clReleaseMemObject(ba);
            clReleaseMemObject(bb);
            clReleaseMemObject(bc);
            clReleaseMemObject(br);
        }
    }
}

/* ---- 7. nested divergent ifs in a uniform loop --------------------------------------------- */

static void test_nested_divergent_if_in_uniform_loop(void **state)
{
    (void)state;
    const cl_int rounds = 12;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 65536);
            cl_mem bi = ints_new(G, in), bo = buf_poisoned(G * 4);
            assert_int_equal(launch("nested_if_uniform_loop", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bo), KARG(sh->n), KARG(rounds))),
                             CL_SUCCESS);
            int32_t *out = ints_read(bo, G);
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int v = in[g], acc = 0;
                for (int r = 0; r < rounds; r++) {
                    if ((v >> r) & 1) {
                        if (v % (r + 2) == 0)
                            acc += r * v;
                        else
                            acc -= r;
                    } else if (((int)g + r) & 2) {
                        acc ^= v << (r & 7);
                    }
                }
                check_int("nested_if_uniform_loop", sh, "out", g, v, out[g], acc);
            }
            check_untouched("nested_if_uniform_loop", sh, "out", out, (size_t)sh->n, G);
            free(in);
            free(out);
            clReleaseMemObject(bi);
            clReleaseMemObject(bo);
        }
    }
}

/* ---- 8. loops left by divergent breaks ----------------------------------------------------- */

static void test_divergent_loop_with_break(void **state)
{
    (void)state;
    const cl_int cap = 80, len = 300;
    int32_t hay[300];
    for (int i = 0; i < len; i++)
        hay[i] = (int32_t)(rng_next() % 1000);
    cl_mem bh = ints_new((size_t)len, hay);
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            /* Collatz: inputs below 10000 peak below 2^32 */
            uint32_t *cin = malloc(G * sizeof *cin);
            int32_t *keys = malloc(G * sizeof *keys);
            for (size_t i = 0; i < G; i++) {
                cin[i] = 1 + rng_next() % 9999;
                keys[i] = (int32_t)(rng_next() % 1500); /* about half of them in hay */
            }
            cl_mem bc = buf_new(G * 4, cin), bs = buf_poisoned(G * 4), bp = buf_poisoned(G * 4);
            assert_int_equal(launch("collatz", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bc), KARG(bs), KARG(bp), KARG(sh->n), KARG(cap))),
                             CL_SUCCESS);
            int32_t *steps = ints_read(bs, G), *peak = ints_read(bp, G);
            int reached_one = 0, capped = 0;
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                uint32_t x = cin[g], pk = x;
                int st = 0;
                for (;;) {
                    if (x == 1)
                        break;
                    if (st == cap) {
                        st = -st;
                        break;
                    }
                    x = (x & 1) ? 3 * x + 1 : x / 2;
                    pk = pk > x ? pk : x;
                    st++;
                }
                reached_one += st >= 0;
                capped += st < 0;
                check_int("collatz", sh, "steps", g, cin[g], steps[g], st);
                check_int("collatz", sh, "peak", g, cin[g], peak[g], (int32_t)pk);
            }
            if (sh->n >= 64 && (reached_one == 0 || capped == 0))
                fail_msg("collatz: local %zu, n %d: %d reached 1, %d capped: both breaks must happen", sh->ls,
                         (int)sh->n, reached_one, capped);
            check_untouched("collatz", sh, "steps", steps, (size_t)sh->n, G);
            check_untouched("collatz", sh, "peak", peak, (size_t)sh->n, G);

            cl_mem bk = ints_new(G, keys), bpos = buf_poisoned(G * 4);
            assert_int_equal(launch("linear_search", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bh), KARG(len), KARG(bk), KARG(bpos), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *pos = ints_read(bpos, G);
            int found = 0;
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int p = -1;
                for (int i = 0; i < len; i++)
                    if (hay[i] == keys[g]) {
                        p = i;
                        break;
                    }
                found += p >= 0;
                check_int("linear_search", sh, "position", g, keys[g], pos[g], p);
            }
            if (sh->n >= 64 && (found == 0 || found == sh->n))
                fail_msg("linear_search: local %zu, n %d: %d keys found: want some found, some not", sh->ls,
                         (int)sh->n, found);
            check_untouched("linear_search", sh, "position", pos, (size_t)sh->n, G);
            free(cin);
            free(keys);
            free(steps);
            free(peak);
            free(pos);
            clReleaseMemObject(bc);
            clReleaseMemObject(bs);
            clReleaseMemObject(bp);
            clReleaseMemObject(bk);
            clReleaseMemObject(bpos);
        }
    }
    clReleaseMemObject(bh);
}

/* ---- 9-11. atomics ------------------------------------------------------------------------- */

/* tickets[i] for the items with taken[i] hold exactly 0 .. count-1. */
static void check_tickets(const char *kname, const struct shape *sh, const int32_t *tickets, const bool *taken,
                          size_t from, size_t to, int count)
{
    bool *seen = calloc((size_t)count + 1, 1);
    for (size_t g = from; g < to; g++) {
        if (!taken[g])
            continue;
        if (tickets[g] < 0 || tickets[g] >= count || seen[tickets[g]])
            FAIL_AT(kname, sh, g, "ticket %d out of range or duplicated (%d taken)", tickets[g], count);
        seen[tickets[g]] = true;
    }
    free(seen);
}

static void test_atomics_under_divergence(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 5, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in), zero[34] = {0};
            bool *taken = calloc(G, 1);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 10000);
            cl_mem bi = ints_new(G, in), bcount = ints_new(1, zero), bsum = ints_new(1, zero), bh = ints_new(32, zero),
                   bt = buf_poisoned(G * 4);
            assert_int_equal(launch("atomics_divergent", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bcount), KARG(bsum), KARG(bh), KARG(bt), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t count, sum, hist[32], *tickets = ints_read(bt, G);
            buf_read(bcount, 4, &count);
            buf_read(bsum, 4, &sum);
            buf_read(bh, sizeof hist, hist);
            int32_t want_count = 0, want_sum = 0, want_hist[32] = {0};
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int v = in[g];
                if (v & 1) {
                    want_count++;
                    want_sum += v;
                    taken[g] = true;
                } else {
                    check_int("atomics_divergent", sh, "ticket (not taken)", g, v, tickets[g], MARK);
                }
                if (v % 5 != 0)
                    want_hist[(v >> 3) & 31]++;
            }
            if (count != want_count || sum != want_sum)
                fail_msg("atomics_divergent: local %zu, n %d: counter %d sum %d, want %d and %d", sh->ls, (int)sh->n,
                         count, sum, want_count, want_sum);
            for (int b = 0; b < 32; b++)
                if (hist[b] != want_hist[b])
                    fail_msg("atomics_divergent: local %zu, n %d: histogram bin %d got %d, want %d", sh->ls,
                             (int)sh->n, b, hist[b], want_hist[b]);
            check_tickets("atomics_divergent", sh, tickets, taken, 0, (size_t)sh->n, count);
            check_untouched("atomics_divergent", sh, "ticket", tickets, (size_t)sh->n, G);
            free(in);
            free(taken);
            free(tickets);
            clReleaseMemObject(bi);
            clReleaseMemObject(bcount);
            clReleaseMemObject(bsum);
            clReleaseMemObject(bh);
            clReleaseMemObject(bt);
        }
    }
}

static void test_atomic_compaction_under_divergence(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 5, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            int32_t *in = malloc(G * sizeof *in), *want = malloc(G * sizeof *want), zero = 0;
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 100000);
            cl_mem bi = ints_new(G, in), bo = buf_poisoned(G * 4), bcount = ints_new(1, &zero);
            assert_int_equal(launch("compact", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bo), KARG(bcount), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t count, *out = ints_read(bo, G);
            buf_read(bcount, 4, &count);
            int want_count = 0;
            for (size_t g = 0; g < (size_t)sh->n; g++)
                if (in[g] % 7 < 3)
                    want[want_count++] = in[g] * 2 + 1;
            if (count != want_count)
                fail_msg("compact: local %zu, n %d: count %d, want %d", sh->ls, (int)sh->n, count, want_count);
            qsort(out, (size_t)count, sizeof *out, cmp_int);
            qsort(want, (size_t)want_count, sizeof *want, cmp_int);
            for (int i = 0; i < count; i++)
                if (out[i] != want[i])
                    fail_msg("compact: local %zu, n %d: sorted output [%d] got %d, want %d (multisets differ)",
                             sh->ls, (int)sh->n, i, out[i], want[i]);
            check_untouched("compact", sh, "out past count", out, (size_t)count, G);
            free(in);
            free(want);
            free(out);
            clReleaseMemObject(bi);
            clReleaseMemObject(bo);
            clReleaseMemObject(bcount);
        }
    }
}

static void test_local_atomics_under_divergence_between_barriers(void **state)
{
    (void)state;
    enum { GROUPS = 5 };
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], GROUPS, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global, ls = sh->ls;
            int32_t *in = malloc(G * sizeof *in);
            bool *taken = calloc(G, 1);
            for (size_t i = 0; i < G; i++)
                in[i] = (int32_t)(rng_next() % 10000);
            cl_mem bi = ints_new(G, in), bh = buf_poisoned(GROUPS * 16 * 4), bc = buf_poisoned(GROUPS * 4),
                   bt = buf_poisoned(G * 4);
            assert_int_equal(launch("local_atomics", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bh), KARG(bc), KARG(bt), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t hist[GROUPS * 16], counts[GROUPS], *tickets = ints_read(bt, G);
            buf_read(bh, sizeof hist, hist);
            buf_read(bc, sizeof counts, counts);
            for (size_t grp = 0; grp < GROUPS; grp++) {
                int32_t want_hist[16] = {0}, want_count = 0;
                for (size_t g = grp * ls; g < (grp + 1) * ls && g < (size_t)sh->n; g++) {
                    int v = in[g];
                    if (v & 1) {
                        want_hist[v & 15]++;
                        want_count++;
                        taken[g] = true;
                    } else {
                        want_hist[(v >> 4) & 15] += 2;
                        check_int("local_atomics", sh, "ticket (not taken)", g, v, tickets[g], MARK);
                    }
                }
                for (int b = 0; b < 16; b++)
                    if (hist[grp * 16 + b] != want_hist[b])
                        fail_msg("local_atomics: local %zu, n %d: group %zu bin %d got %d, want %d", ls, (int)sh->n,
                                 grp, b, hist[grp * 16 + b], want_hist[b]);
                if (counts[grp] != want_count)
                    fail_msg("local_atomics: local %zu, n %d: group %zu count %d, want %d", ls, (int)sh->n, grp,
                             counts[grp], want_count);
                size_t end = (grp + 1) * ls < (size_t)sh->n ? (grp + 1) * ls : (size_t)sh->n;
                if (grp * ls < end)
                    check_tickets("local_atomics", sh, tickets, taken, grp * ls, end, want_count);
            }
            check_untouched("local_atomics", sh, "ticket", tickets, (size_t)sh->n, G);
            free(in);
            free(taken);
            free(tickets);
            clReleaseMemObject(bi);
            clReleaseMemObject(bh);
            clReleaseMemObject(bc);
            clReleaseMemObject(bt);
        }
    }
}

/* ---- 12. private array --------------------------------------------------------------------- */

static void test_private_array_data_dependent_index(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            uint32_t *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = rng_next();
            cl_mem bi = buf_new(G * 4, in), bo = buf_poisoned(G * 8 * 4), bp = buf_poisoned(G * 4);
            assert_int_equal(launch("private_hist", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bo), KARG(bp), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *out = ints_read(bo, G * 8), *pick = ints_read(bp, G);
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                uint32_t v = in[g], x = v;
                int32_t hist[8] = {0};
                int trips = (int)(v % 23u);
                for (int i = 0; i < trips; i++) {
                    x = x * 1103515245u + 12345u;
                    hist[(x >> 16) & 7u] += i + 1;
                }
                for (int i = 0; i < 8; i++)
                    if (out[g * 8 + i] != hist[i])
                        FAIL_AT("private_hist", sh, g, "input %u: hist[%d] got %d, want %d", v, i, out[g * 8 + i],
                                hist[i]);
                check_int("private_hist", sh, "pick", g, v, pick[g], hist[v & 7u] - hist[(v >> 3) & 7u]);
            }
            check_untouched("private_hist", sh, "hist", out, (size_t)sh->n * 8, G * 8);
            check_untouched("private_hist", sh, "pick", pick, (size_t)sh->n, G);
            free(in);
            free(out);
            free(pick);
            clReleaseMemObject(bi);
            clReleaseMemObject(bo);
            clReleaseMemObject(bp);
        }
    }
}

/* ---- 13. math builtins on divergent arms ---------------------------------------------------- */

/* One float ulp at the magnitude of v (the larger one at a power of two). */
static double ulpf(double v)
{
    float f = (float)fabs(v);
    return (double)nextafterf(f, INFINITY) - (double)f;
}

static void test_math_builtins_under_divergent_branch(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 4, shapes);
        for (size_t s = 0; s < ns; s++) {
            const struct shape *sh = &shapes[s];
            size_t G = sh->global;
            float *in = malloc(G * sizeof *in);
            for (size_t i = 0; i < G; i++)
                in[i] = -10.0f + (float)(rng_next() % 2000001) / 100000.0f;
            cl_mem bi = buf_new(G * 4, in), bo = buf_poisoned(G * 4), ba = buf_poisoned(G * 4);
            assert_int_equal(launch("math_divergent", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(bo), KARG(ba), KARG(sh->n))),
                             CL_SUCCESS);
            float *out = malloc(G * sizeof *out);
            buf_read(bo, G * 4, out);
            int32_t *arm = ints_read(ba, G);
            int arms[3] = {0, 0, 0};
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                double x = in[g], want, tol;
                int a;
                if (x < -1.0) {
                    a = 0;
                    want = sin(x);
                    tol = 4 * ulpf(want); /* sin: 4 ulp */
                } else if (x < 2.0) {
                    a = 1;
                    want = exp(x);
                    tol = 3 * ulpf(want); /* exp: 3 ulp */
                } else {
                    a = 2;
                    double sq = sqrt(x), ex = exp(-x);
                    want = sq + ex;
                    /* sqrt and exp within 3 ulp each, then the float sum rounds once */
                    tol = 3 * ulpf(sq) + 3 * ulpf(ex) + 0.5 * ulpf(want);
                }
                arms[a]++;
                check_int("math_divergent", sh, "arm", g, (long long)g, arm[g], a);
                if (!(fabs((double)out[g] - want) <= tol))
                    FAIL_AT("math_divergent", sh, g, "arm %d input %.9g: got %.9g, want %.9g (tolerance %.3g)", a, x,
                            out[g], want, tol);
            }
            if (sh->n >= 64 && (!arms[0] || !arms[1] || !arms[2]))
                fail_msg("math_divergent: local %zu, n %d: arms taken %d/%d/%d, want all three", sh->ls, (int)sh->n,
                         arms[0], arms[1], arms[2]);
            check_untouched("math_divergent", sh, "out", out, (size_t)sh->n, G);
            check_untouched("math_divergent", sh, "arm", arm, (size_t)sh->n, G);
            free(in);
            free(out);
            free(arm);
            clReleaseMemObject(bi);
            clReleaseMemObject(bo);
            clReleaseMemObject(ba);
        }
    }
}

/* ---- 14. uniform loop carrying varying chains ---------------------------------------------- */

/* The chain as OpenCL's mad may compute it: fused (fmaf) or as a rounded product then a sum. */
static float mad_chain_ref(float x, float a, float b, int iters, bool fused)
{
    for (int i = 0; i < iters; i++)
        x = fused ? fmaf(x, a, b) : rmul(x, a) + b;
    return x;
}

static void test_uniform_loop_with_varying_chain(void **state)
{
    (void)state;
    const float a = 0.999f, b = 0.013f;
    const cl_int iters = 256;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape sh = {LOCAL_SIZES[t], LOCAL_SIZES[t] * 4, (cl_int)(LOCAL_SIZES[t] * 4)};
        size_t G = sh.global;
        float *in = malloc(G * sizeof *in), *out = malloc(2 * G * sizeof *out);
        for (size_t i = 0; i < G; i++)
            in[i] = -100.0f + (float)(rng_next() % 2000001) / 10000.0f;
        cl_mem bi = buf_new(G * 4, in), bo = buf_poisoned(2 * G * 4);
        assert_int_equal(launch("mad_chain", 1, NULL, &sh.global, &sh.ls,
                                KARGS(KARG(bi), KARG(bo), KARG(a), KARG(b), KARG(iters))),
                         CL_SUCCESS);
        buf_read(bo, 2 * G * 4, out);
        for (size_t g = 0; g < G; g++) {
            float start[2] = {in[g], 1.0f - in[g]};
            for (int c = 0; c < 2; c++) {
                double got = out[2 * g + c];
                double fused = mad_chain_ref(start[c], a, b, iters, true);
                double split = mad_chain_ref(start[c], a, b, iters, false);
                /* either form, exactly, up to a couple of ulp of slack */
                double tol = 2 * ulpf(fused);
                if (!(fabs(got - fused) <= tol || fabs(got - split) <= tol))
                    FAIL_AT("mad_chain", &sh, g, "%s from %.9g: got %.9g, want %.9g (fma) or %.9g (mul+add)",
                            c ? "y" : "x", start[c], got, fused, split);
            }
        }
        free(in);
        free(out);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
}

static void test_lanes_agree_then_split(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 6, shapes);
        for (size_t si = 0; si < ns; si++) {
            const struct shape *sh = &shapes[si];
            size_t G = sh->global;
            int32_t *trip = malloc(G * sizeof *trip), *sel = malloc(G * sizeof *sel);
            /* blocks of 32 items: 0 all alike, 1 alike but one item, 2 random */
            for (size_t b = 0; b < G; b += 32) {
                int kind = (int)((b / 32) % 3);
                int32_t t0 = 10 + (int32_t)(rng_next() % 20), s0 = (int32_t)(rng_next() % 512);
                size_t odd = b + rng_next() % 32;
                for (size_t i = b; i < b + 32 && i < G; i++) {
                    trip[i] = kind == 2 ? (int32_t)(rng_next() % 30) : t0 + (kind == 1 && i == odd ? 3 : 0);
                    sel[i] = kind == 2 ? (int32_t)(rng_next() % 512) : s0 ^ (kind == 1 && i == odd ? 0x105 : 0);
                }
            }
            cl_mem bt = ints_new(G, trip), bs = ints_new(G, sel), bo = buf_poisoned(G * 4);
            assert_int_equal(launch("agree_then_split", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bt), KARG(bs), KARG(bo), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *out = ints_read(bo, G);
            for (size_t g = 0; g < (size_t)sh->n; g++) {
                int32_t acc = (int32_t)(g & 1);
                for (int32_t i = 0; i < trip[g]; i++) {
                    if (sel[g] & (1 << (i & 7)))
                        acc += i * 3;
                    else
                        acc -= i;
                    for (int32_t j = 0; j < (i & 3) + ((sel[g] >> 8) & 1); j++)
                        acc ^= j + i;
                }
                check_int("agree_then_split", sh, "acc", g, trip[g], out[g], acc);
            }
            check_untouched("agree_then_split", sh, "acc", out, (size_t)sh->n, G);
            free(trip);
            free(sel);
            free(out);
            clReleaseMemObject(bt);
            clReleaseMemObject(bs);
            clReleaseMemObject(bo);
        }
    }
}

/* ---- 16. loads from one of two places ------------------------------------------------------ */

static void test_loads_from_one_of_two_places(void **state)
{
    (void)state;
    for (size_t t = 0; t < ARRAY_LEN(LOCAL_SIZES); t++) {
        struct shape shapes[2];
        size_t ns = guarded_shapes(LOCAL_SIZES[t], 5, shapes);
        for (size_t si = 0; si < ns; si++) {
            const struct shape *sh = &shapes[si];
            size_t G = sh->global, n = (size_t)sh->n;
            /* exactly n elements: a load of in[n] would read past the buffer */
            int32_t *in = malloc(n * sizeof *in), *alt = malloc(n * sizeof *alt);
            for (size_t i = 0; i < n; i++) {
                in[i] = (int32_t)(rng_next() % 1000);
                alt[i] = -(int32_t)(rng_next() % 1000);
            }
            cl_mem bi = ints_new(n, in), ba = ints_new(n, alt), bo = buf_poisoned(G * 4);
            assert_int_equal(launch("clamped_neighbours", 1, NULL, &sh->global, &sh->ls,
                                    KARGS(KARG(bi), KARG(ba), KARG(bo), KARG(sh->n))),
                             CL_SUCCESS);
            int32_t *out = ints_read(bo, G);
            for (size_t g = 0; g < n; g++) {
                int32_t e = in[g == n - 1 ? g : g + 1], w = in[g == 0 ? g : g - 1];
                int32_t chosen = (in[g] & 4) ? alt[g] : in[g];
                check_int("clamped_neighbours", sh, "out", g, in[g], out[g], 3 * e - w + 7 * chosen);
            }
            check_untouched("clamped_neighbours", sh, "out", out, n, G);
            free(in);
            free(alt);
            free(out);
            clReleaseMemObject(bi);
            clReleaseMemObject(ba);
            clReleaseMemObject(bo);
        }
    }
}

/* ---- 17. branches on affine ids against uniform values ----------------------------------- */

static void test_branches_on_affine_ids_with_wraparound(void **state)
{
    (void)state;
    /* offsets 0 and just below INT_MAX (the signed id overflows inside a packet); bases that
     * make the unsigned id wrap inside a packet, or never */
    const size_t offsets[] = {0, 0x7FFFFFFFu - 40};
    const uint32_t bases[] = {0xFFFFFFFFu - 20, 5};
    const size_t locals[] = {1, 16, 64};
    for (size_t oi = 0; oi < ARRAY_LEN(offsets); oi++)
        for (size_t bi = 0; bi < ARRAY_LEN(bases); bi++)
            for (size_t li = 0; li < ARRAY_LEN(locals); li++) {
                const size_t G = 192, L = locals[li];
                const int32_t n = 150;
                int32_t *zero = calloc(G * 8, sizeof *zero);
                cl_mem bo = ints_new(G * 8, zero);
                uint32_t base = bases[bi];
                assert_int_equal(launch("border_tests", 1, &offsets[oi], &G, &L,
                                        KARGS(KARG(bo), KARG(n), KARG(base))),
                                 CL_SUCCESS);
                int32_t *out = ints_read(bo, G * 8);
                for (size_t x = 0; x < G; x++) {
                    int32_t i = (int32_t)x, j = n - 1 - i;
                    int32_t s = (int32_t)(uint32_t)(x + offsets[oi]);
                    uint32_t u = (uint32_t)(x + offsets[oi]) + base;
                    const int32_t want[8] = {
                        i == 0 || i == n - 1 ? 1 : 0, j < 5 ? 2 : 0, i >= 17 && i <= 40 ? 3 : 0, u < 8u ? 4 : 0,
                        i == 33 ? 5 : 0, i > n - 3 || u >= 0xFFFFFFF8u ? 6 : 0, s < 0 ? 7 : 0,
                        s > 0x7FFFFFF8 ? 8 : 0,
                    };
                    for (int c = 0; c < 8; c++)
                        if (out[x * 8 + (size_t)c] != want[c])
                            fail_msg("border_tests: offset %zu, base %u, local %zu, item %zu, branch %d: %d, want %d",
                                     offsets[oi], base, L, x, c, out[x * 8 + (size_t)c], want[c]);
                }
                free(zero);
                free(out);
                clReleaseMemObject(bo);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mandelbrot_divergent_while_loop),
        cmocka_unit_test(test_binomial_option_divergent_updates_between_barriers),
        cmocka_unit_test(test_bitonic_sort_divergent_compare_and_swap),
        cmocka_unit_test(test_early_return_in_some_lanes),
        cmocka_unit_test(test_return_inside_loop),
        cmocka_unit_test(test_divergent_if_else_chain),
        cmocka_unit_test(test_nested_divergent_if_in_uniform_loop),
        cmocka_unit_test(test_divergent_loop_with_break),
        cmocka_unit_test(test_atomics_under_divergence),
        cmocka_unit_test(test_atomic_compaction_under_divergence),
        cmocka_unit_test(test_local_atomics_under_divergence_between_barriers),
        cmocka_unit_test(test_private_array_data_dependent_index),
        cmocka_unit_test(test_math_builtins_under_divergent_branch),
        cmocka_unit_test(test_uniform_loop_with_varying_chain),
        cmocka_unit_test(test_lanes_agree_then_split),
        cmocka_unit_test(test_branches_on_affine_ids_with_wraparound),
        cmocka_unit_test(test_loads_from_one_of_two_places),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
