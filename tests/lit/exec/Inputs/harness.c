/* Host side of the exec tests: runs one work-group function (weft/abi.h) of kernels.cl over a
 * few work-groups, in two calls so first_group != 0 is covered, and compares every result with
 * a reference computed here. Usage: exe KERNEL LOCAL_SIZE (X or X,Y,Z). Exit 1 on a mismatch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft/abi.h"

#define WG(k) void weft_wg_##k(const void *, const struct weft_wg_ctx *, uint64_t, uint64_t) __attribute__((weak));
WG(uif) WG(two) WG(callee) WG(wiloop) WG(early) WG(meyer) WG(ids3) WG(reduce) WG(tile) WG(dep_after_barrier)

/* the helper function of kernels.cl stays in the module (not a kernel): its barrier call
 * is never executed */
void _Z7barrierj(unsigned f) { (void)f; abort(); }

static char scratch[1 << 20] __attribute__((aligned(64)));
static char local[1 << 16] __attribute__((aligned(64)));
typedef struct { float a; int b; char c; double d; } S;
static int bad;

#define EXPECT(cond, ...) do { if (!(cond) && bad++ < 5) printf(__VA_ARGS__); } while (0)

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *k = argv[1];
    int n = atoi(argv[2]);
    enum { G = 5 };
    int N = n * G;
    struct weft_wg_ctx ctx = {1, {N, 1, 1}, {n, 1, 1}, {0, 0, 0}, {G, 1, 1}, local, scratch, NULL};
    weft_wg_ctx_set_uniform(&ctx);
    static int out[1 << 14], in[1 << 14];
    for (int i = 0; i < N; i++) {
        out[i] = -1;
        in[i] = i * 7 + 3;
    }
#define RUN(fn, a) do { if (!fn) return 3; fn(a, &ctx, 0, 2); fn(a, &ctx, 2, G - 2); } while (0)
    if (!strcmp(k, "uif")) {
        for (int flag = 0; flag < 2; flag++) {
            struct { int *o; int32_t f; } a = {out, flag};
            RUN(weft_wg_uif, &a);
            for (int i = 0; i < N; i++) {
                int l = i % n, e = l + 1 + (flag ? (l + 1) % n + 1 : 0);
                EXPECT(out[i] == e, "uif flag %d item %d: %d, want %d\n", flag, i, out[i], e);
            }
        }
    } else if (!strcmp(k, "two")) {
        struct { int *o; } a = {out};
        RUN(weft_wg_two, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = (n - 1 - (l + 1) % n) * 10 + (n - 1 - l);
            EXPECT(out[i] == e, "two item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "callee")) {
        struct { int *o; } a = {out};
        RUN(weft_wg_callee, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = 2 * (n - 1 - l);
            EXPECT(out[i] == e, "callee item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "wiloop")) {
        struct { int *o; uint64_t loc; } a = {out, 0};
        RUN(weft_wg_wiloop, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = 0;
            for (int j = 0; j <= l % 5; j++) {
                int q = (l + j) % n;
                e += q * (q - 1) / 2;
            }
            EXPECT(out[i] == e, "wiloop item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "early")) {
        struct { int *o; int *in; } a = {out, in};
        RUN(weft_wg_early, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = l % 3 == 0 ? -1 : in[i - l + n - 1 - l];
            EXPECT(out[i] == e, "early item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "meyer")) {
        for (int i = 0; i < N; i++)
            out[i] = in[i];
        struct { int *o; uint64_t loc; } a = {out, 0};
        RUN(weft_wg_meyer, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = in[i] + (l + 1) * (l + 2) / 2;
            EXPECT(out[i] == e, "meyer item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "dep_after_barrier")) {
        struct { int *o; uint64_t loc; } a = {out, 0};
        RUN(weft_wg_dep_after_barrier, &a);
        for (int i = 0; i < N; i++) {
            int l = i % n, e = 3 * (l + 1) * (l + 2) / 2;
            EXPECT(out[i] == e, "dep_after_barrier item %d: %d, want %d\n", i, out[i], e);
        }
    } else if (!strcmp(k, "reduce")) {
        static float fin[1 << 14], fout[G];
        for (int i = 0; i < N; i++)
            fin[i] = (float)(i % 13);
        struct { const float *in; float *out; uint64_t loc; } a = {fin, fout, 0};
        RUN(weft_wg_reduce, &a);
        for (int g = 0; g < G; g++) {
            float e = 0;
            for (int i = 0; i < n; i++)
                e += fin[g * n + i];
            EXPECT(fout[g] == e, "reduce group %d: %f, want %f\n", g, fout[g], e);
        }
    } else if (!strcmp(k, "tile")) {   /* local size 16,16 */
        enum { W = 64, H = 32 };
        static float fin[W * H], fout[W * H];
        for (int i = 0; i < W * H; i++)
            fin[i] = (float)i;
        struct weft_wg_ctx c2 = {2, {W, H, 1}, {16, 16, 1}, {0, 0, 0}, {W / 16, H / 16, 1}, local, scratch, NULL};
        weft_wg_ctx_set_uniform(&c2);
        struct { const float *in; float *out; } a = {fin, fout};
        if (!weft_wg_tile)
            return 3;
        weft_wg_tile(&a, &c2, 0, 3);
        weft_wg_tile(&a, &c2, 3, (W / 16) * (H / 16) - 3);
        for (int gy = 0; gy < H; gy++)
            for (int gx = 0; gx < W; gx++) {
                int x = gx % 16, y = gy % 16;
                float e = fin[(gy - y + x) * W + gx - x + y] + fin[gy * W + gx] * (x & 3);
                EXPECT(fout[gy * W + gx] == e, "tile %d,%d: %f, want %f\n", gx, gy, fout[gy * W + gx], e);
            }
    } else if (!strcmp(k, "ids3")) {   /* local size 3,2,2, offsets 1,2,3 */
        enum { L0 = 3, L1 = 2, L2 = 2, N0 = 2, N1 = 3, N2 = 2 };
        uint64_t gs[3] = {L0 * N0, L1 * N1, L2 * N2}, off[3] = {1, 2, 3};
        struct weft_wg_ctx c3 = {3, {gs[0], gs[1], gs[2]}, {L0, L1, L2}, {off[0], off[1], off[2]}, {N0, N1, N2}, local,
                                 scratch, NULL};
        weft_wg_ctx_set_uniform(&c3);
        static uint64_t o[4096];
        /* packed block: ulong* at 0, S at 8 (24 bytes), float3 at 32, char at 48, local ptr at 56 */
        static unsigned char blk[64] __attribute__((aligned(8)));
        S s = {1.5f, 10, 3, 100.25};
        float f3[4] = {0, 0, 7, 0};
        char c = -2;
        uint64_t *op = o, loc = 0;
        memcpy(blk + 0, &op, 8);
        memcpy(blk + 8, &s, sizeof s);
        memcpy(blk + 32, f3, 16);
        memcpy(blk + 48, &c, 1);
        memcpy(blk + 56, &loc, 8);
        if (!weft_wg_ids3)
            return 3;
        weft_wg_ids3(blk, &c3, 0, 5);
        weft_wg_ids3(blk, &c3, 5, N0 * N1 * N2 - 5);
        for (uint64_t z = 0; z < gs[2]; z++)
            for (uint64_t y = 0; y < gs[1]; y++)
                for (uint64_t x = 0; x < gs[0]; x++) {
                    uint64_t i = z * gs[0] * gs[1] + y * gs[0] + x;
                    uint64_t e[4] = {(x + off[0]) + 1000 * (y + off[1]) + 1000000 * (z + off[2]),
                                     (x % L0) + L0 * ((y % L1) + L1 * (z % L2)) + 1000 * (z / L2) + 100000 * 3,
                                     (uint64_t)(1.5f + 10 + 3 + 100.25 + 7 + -2),
                                     N0 + 10 * N1 + 100 * N2 + 1000 * off[1] + 10000 * L1 + 100000 * gs[2]};
                    for (int j = 0; j < 4; j++)
                        EXPECT(o[i * 4 + j] == e[j], "ids3 %lu,%lu,%lu field %d: %lu, want %lu\n", (unsigned long)x,
                               (unsigned long)y, (unsigned long)z, j, (unsigned long)o[i * 4 + j], (unsigned long)e[j]);
                }
    } else {
        printf("unknown kernel %s\n", k);
        return 2;
    }
    if (bad)
        printf("FAIL %s local size %d: %d mismatches\n", k, n, bad);
    return bad != 0;
}
