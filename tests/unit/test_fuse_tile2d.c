/* tests/unit/test_fuse_tile2d.c — the 2-D tile geometry of exec/fuse/tile2d.c: the redundant
 * work of a 5-point chain against the closed formula (interior tiles) and against a count of the
 * linear sets the regions stand for (every tile, rows that wrap at the NDRange's sides), pieces
 * that are disjoint and cover their region, owned bytes that partition each buffer, windows
 * that hold every byte the pieces touch and stay bands of the tile's columns, the layout
 * checks, and choosing reads by their candidates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "exec/fuse/tile2d.h"

#define MAXK 24

/* A 5-point Jacobi chain of K stages on a w x h grid of floats: stage k reads buffer k%2 at
 * i, i +- 1 and i +- w, and writes buffer (k+1)%2 at i. */
struct chain {
    struct weft_fp_access acc[MAXK][6];
    struct weft_fp_stage stage[MAXK];
    struct weft_fp_buffer buf[2];
    struct weft_fp_chain c;
};

static void make_chain(struct chain *x, int64_t w, int64_t h, unsigned K)
{
    static const int64_t dx[5] = {0, -1, 1, 0, 0}, dy[5] = {0, 0, 0, -1, 1};
    memset(x, 0, sizeof *x);
    for (unsigned k = 0; k < K; k++) {
        for (int r = 0; r < 5; r++)
            x->acc[k][r] = (struct weft_fp_access){k % 2, WEFT_FP_READ, 4, {4, 4 * w, 0}, 4 * (dx[r] + dy[r] * w), NULL, 0};
        x->acc[k][5] = (struct weft_fp_access){(k + 1) % 2, WEFT_FP_WRITE, 4, {4, 4 * w, 0}, 0, NULL, 0};
        x->stage[k] = (struct weft_fp_stage){6, x->acc[k]};
    }
    x->buf[0].size = x->buf[1].size = (uint64_t)(w * h * 4);
    x->c = (struct weft_fp_chain){2, {(uint64_t)w, (uint64_t)h, 1}, 1, K, x->stage, 2, x->buf};
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Work-items in the linear set rows [r0, r1) x columns [c0, c1) of a w x h NDRange, rounded up
 * to g columns as a stage runs it (from its first column; from its last at the right side;
 * aligned where it wraps), counted row by row. */
static uint64_t linear_count(int64_t w, int64_t h, int64_t g, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
    const int64_t width = weft_fp_ceil_div(c1 - c0, g) * g, q = weft_fp_floor_div(c0, w);
    if (width < w && c0 - q * w + width <= w) {
        c1 = c0 + width;
    } else if (width < w && c1 - q * w <= w && c1 - q * w - width >= 0) {
        c0 = c1 - width;
    } else {
        c0 = weft_fp_floor_div(c0, g) * g;
        c1 = weft_fp_ceil_div(c1, g) * g;
    }
    if (c1 - c0 >= w) {   /* whole rows */
        int64_t a = max64(r0 * w + c0, 0), z = min64((r1 - 1) * w + c1, w * h);
        a = weft_fp_floor_div(a, w) * w;
        z = weft_fp_ceil_div(z, w) * w;
        return z > a ? (uint64_t)(min64(z, w * h) - max64(a, 0)) : 0;
    }
    uint64_t n = 0;
    for (int64_t i = r0; i < r1; i++) {
        int64_t a = max64(i * w + c0, 0), z = min64(i * w + c1, w * h);
        n += z > a ? (uint64_t)(z - a) : 0;
    }
    return n;
}

static void test_redundant_work_matches_formula(void **state)
{
    (void)state;
    static const struct { int64_t w, h, th, tw, g; unsigned K; } cases[] = {
        {64, 40, 7, 16, 1, 4}, {96, 50, 9, 32, 16, 6}, {128, 128, 16, 16, 16, 8}, {48, 33, 5, 48, 16, 9},
        {256, 100, 20, 64, 1, 12}, {80, 17, 3, 16, 16, 3},
    };
    struct chain x;
    char why[128];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const int64_t w = cases[c].w, h = cases[c].h, th = cases[c].th, tw = cases[c].tw, g = cases[c].g;
        const unsigned K = cases[c].K;
        make_chain(&x, w, h, K);
        assert_true(weft_fp_analyze(&x.c, why, sizeof why));
        struct weft_t2 t;
        assert_true(weft_t2_init(&t, &x.c, (uint64_t)g, why, sizeof why));
        /* stage k of every tile needs the tile grown by K-1-k rows and columns: as a linear set,
         * clamped to the NDRange, its columns wrapping at the sides */
        uint64_t expect = 0, tiles = weft_t2_tiles(&t, (uint64_t)th, (uint64_t)tw);
        for (uint64_t n = 0; n < tiles; n++) {
            struct weft_t2_rect tile;
            weft_t2_tile(&t, (uint64_t)th, (uint64_t)tw, n, &tile);
            for (unsigned k = 0; k < K; k++) {
                int64_t j = (int64_t)(K - 1 - k);
                expect += linear_count(w, h, g, tile.r0 - j, tile.r1 + j, tile.c0 - j, tile.c1 + j);
            }
        }
        assert_int_equal(weft_t2_items_run(&t, K, (uint64_t)th, (uint64_t)tw), expect);
        /* an interior tile without rounding: sum over j < K of (th + 2j)(tw + 2j) */
        if (g == 1 && (uint64_t)h > 2 * (uint64_t)th + 2 * K && (uint64_t)w > 2 * (uint64_t)tw + 2 * K) {
            struct weft_t2_rect tile = {h / 2, h / 2 + th, w / 2, w / 2 + tw}, reg[MAXK], p[2];
            weft_t2_regions(&t, K, &tile, reg);
            uint64_t run = 0, formula = 0;
            for (unsigned k = 0; k < K; k++) {
                unsigned np = weft_t2_pieces(&t, &reg[k], p);
                assert_int_equal(np, 1);
                run += (uint64_t)((p[0].r1 - p[0].r0) * (p[0].c1 - p[0].c0));
                formula += (uint64_t)((th + 2 * (int64_t)k) * (tw + 2 * (int64_t)k));
            }
            assert_int_equal(run, formula);
        }
        weft_t2_free(&t);
    }
}

/* Pieces are disjoint plain rectangles of whole groups that cover their region's linear set. */
static void test_pieces_cover_region(void **state)
{
    (void)state;
    const int64_t w = 64, h = 10;
    struct chain x;
    char why[128];
    make_chain(&x, w, h, 2);
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    struct weft_t2 t;
    assert_true(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    static const struct weft_t2_rect regions[] = {
        {2, 5, -3, 20}, {2, 5, 50, 70}, {-1, 3, -20, 10}, {8, 12, 60, 90}, {3, 4, -5, 62}, {0, 10, 0, 64},
        {4, 6, -64, -40}, {4, 6, 70, 100},
    };
    for (size_t i = 0; i < sizeof regions / sizeof *regions; i++) {
        const struct weft_t2_rect *r = &regions[i];
        struct weft_t2_rect p[2];
        unsigned np = weft_t2_pieces(&t, r, p);
        unsigned char seen[640] = {0};
        for (unsigned k = 0; k < np; k++) {
            assert_true(p[k].r0 >= 0 && p[k].r1 <= h && p[k].c0 >= 0 && p[k].c1 <= w);
            assert_true((p[k].c1 - p[k].c0) % 16 == 0);
            for (int64_t a = p[k].r0; a < p[k].r1; a++)
                for (int64_t b = p[k].c0; b < p[k].c1; b++)
                    assert_int_equal(seen[a * w + b]++, 0);   /* disjoint */
        }
        for (int64_t a = r->r0; a < r->r1; a++)
            for (int64_t b = r->c0; b < r->c1; b++) {
                int64_t L = a * w + b;
                if (L >= 0 && L < w * h)
                    assert_true(seen[L]);   /* covered */
            }
    }
    weft_t2_free(&t);
}

/* Owned bytes of all tiles partition the buffers; each tile's windows hold every byte its
 * pieces read or write. */
static void test_owned_partition_and_windows_cover(void **state)
{
    (void)state;
    static const struct { int64_t w, h, th, tw; unsigned K; } cases[] = {
        {64, 40, 7, 16, 5}, {96, 31, 8, 32, 9}, {48, 20, 3, 16, 20}, {32, 9, 2, 16, 6},
    };
    struct chain x;
    char why[128];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const int64_t w = cases[c].w, h = cases[c].h, S = 4 * w, size = 4 * w * h;
        const unsigned K = cases[c].K;
        make_chain(&x, w, h, K);
        assert_true(weft_fp_analyze(&x.c, why, sizeof why));
        struct weft_t2 t;
        assert_true(weft_t2_init(&t, &x.c, 16, why, sizeof why));
        unsigned char *owned = calloc((size_t)size, 1), *inwin = malloc((size_t)size);
        uint64_t tiles = weft_t2_tiles(&t, (uint64_t)cases[c].th, (uint64_t)cases[c].tw);
        for (uint64_t n = 0; n < tiles; n++) {
            struct weft_t2_rect tile, reg[MAXK], p[2];
            weft_t2_tile(&t, (uint64_t)cases[c].th, (uint64_t)cases[c].tw, n, &tile);
            for (unsigned b = 0; b < 2; b++) {
                struct weft_t2_band o;
                weft_t2_owned(&t, b, &tile, &o);
                for (int64_t i = o.r0; i < o.r1; i++)
                    for (int64_t y = i * S + o.lo; y < i * S + o.hi; y++)
                        if (b == 0)
                            owned[y]++;
            }
            weft_t2_regions(&t, K, &tile, reg);
            for (unsigned b = 0; b < 2; b++) {
                struct weft_t2_band win;
                memset(inwin, 0, (size_t)size);
                if (weft_t2_window(&t, K, reg, b, &win)) {
                    if (win.hi - win.lo >= S)
                        win = (struct weft_t2_band){0, 1, win.r0 * S + win.lo, (win.r1 - 1) * S + win.hi};
                    for (int64_t i = win.r0; i < win.r1; i++)
                        for (int64_t y = max64(i * S + win.lo, 0); y < min64(i * S + win.hi, size); y++)
                            inwin[y] = 1;
                }
                for (unsigned k = 0; k < K; k++) {
                    unsigned np = weft_t2_pieces(&t, &reg[k], p);
                    for (unsigned q = 0; q < np; q++)
                        for (unsigned a = 0; a < 6; a++) {
                            const struct weft_fp_access *acc = &x.acc[k][a];
                            if (acc->buf != b)
                                continue;
                            for (int64_t r = p[q].r0; r < p[q].r1; r++)
                                for (int64_t col = p[q].c0; col < p[q].c1; col++) {
                                    int64_t y = acc->c0 + 4 * col + S * r;
                                    if (y >= 0 && y + 4 <= size)
                                        assert_true(inwin[y] && inwin[y + 3]);
                                }
                        }
                }
            }
        }
        for (int64_t y = 0; y < size; y++)
            assert_int_equal(owned[y], 1);
        free(owned);
        free(inwin);
        weft_t2_free(&t);
    }
}

/* Margins of a 5-point chain without rounding: the window of the buffer stage 0 reads reaches K
 * rows and K columns beyond the tile; no other tile's window reads deeper into a tile. */
static void test_margins_bound_the_neighbours_windows(void **state)
{
    (void)state;
    const int64_t w = 96, h = 60, th = 12, tw = 24;
    struct chain x;
    char why[128];
    for (unsigned K = 2; K <= 6; K++) {
        make_chain(&x, w, h, K);
        assert_true(weft_fp_analyze(&x.c, why, sizeof why));
        struct weft_t2 t;
        assert_true(weft_t2_init(&t, &x.c, 1, why, sizeof why));
        int64_t rows, bytes;
        weft_t2_margin(&t, K, th, tw, 0, &rows, &bytes);
        assert_int_equal(rows, K);
        assert_int_equal(bytes, 4 * K);
        for (unsigned b = 0; b < 2; b++) {
            weft_t2_margin(&t, K, th, tw, b, &rows, &bytes);
            uint64_t tiles = weft_t2_tiles(&t, th, tw);
            for (uint64_t n = 0; n < tiles; n++) {
                struct weft_t2_rect tile, reg[MAXK];
                struct weft_t2_band win;
                weft_t2_tile(&t, th, tw, n, &tile);
                weft_t2_regions(&t, K, &tile, reg);
                if (!weft_t2_window(&t, K, reg, b, &win))
                    continue;
                for (uint64_t m = 0; m < tiles; m++) {
                    struct weft_t2_rect other;
                    if (m == n)
                        continue;
                    weft_t2_tile(&t, th, tw, m, &other);
                    /* the inside of the other tile, beyond the margins, is outside the window */
                    for (int64_t r = other.r0 + rows; r < other.r1 - rows; r++)
                        for (int64_t y = 4 * (r * w + other.c0) + bytes; y < 4 * (r * w + other.c1) - bytes; y++) {
                            bool inside = false;
                            for (int64_t rr = win.r0; rr < win.r1 && !inside; rr++)
                                inside = y >= rr * 4 * w + win.lo && y < rr * 4 * w + win.hi;
                            assert_false(inside);
                        }
                }
            }
        }
        weft_t2_free(&t);
    }
}

static void test_layout_checks(void **state)
{
    (void)state;
    struct chain x;
    char why[128];
    struct weft_t2 t;
    /* a 1-D range; a width that is not a multiple of the group */
    make_chain(&x, 64, 10, 3);
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    assert_false(weft_t2_init(&t, &x.c, 48, why, sizeof why));
    weft_t2_free(&t);
    assert_true(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    weft_t2_free(&t);
    x.c.work_dim = 1;
    assert_false(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    weft_t2_free(&t);
    /* padded rows: 64 columns, rows 80 floats apart */
    make_chain(&x, 64, 10, 3);
    for (unsigned k = 0; k < 3; k++)
        for (unsigned a = 0; a < 6; a++) {
            x.acc[k][a].coef[1] = 4 * 80;
            if (x.acc[k][a].c0 == 4 * 64 || x.acc[k][a].c0 == -4 * 64)
                x.acc[k][a].c0 = x.acc[k][a].c0 / 64 * 80;
        }
    x.buf[0].size = x.buf[1].size = 4 * 80 * 10;
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    assert_false(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    assert_non_null(strstr(why, "dense"));
    weft_t2_free(&t);
}

/* A choosing read: HotSpot's north neighbour `r == 0 ? idx : idx - cols`, as clang may fold it
 * (idx + (r == 0 ? 0 : -cols) * 4 bytes), and a clamped row `max(r - 1, 0) * cols + c`. */
static void test_choosing_reads_by_candidates(void **state)
{
    (void)state;
    const int64_t w = 64, h = 20;
    struct chain x;
    char why[128];
    struct weft_t2 t;
    make_chain(&x, w, h, 4);
    /* leaf idx (bytes), ANY of the constants 0 and -4w, their sum */
    const struct weft_fp_node sel[4] = {
        {WEFT_FP_LEAF, 0, 0, {4, 4 * w, 0}, 0},
        {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, 0},
        {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, -4 * w},
        {WEFT_FP_ADD, 0, 0, {0, 0, 0}, 0},
    };
    struct weft_fp_node nodes[5];
    memcpy(nodes, sel, sizeof sel);
    nodes[3] = (struct weft_fp_node){WEFT_FP_ANY, 1, 2, {0, 0, 0}, 0};
    nodes[4] = (struct weft_fp_node){WEFT_FP_ADD, 0, 3, {0, 0, 0}, 0};
    for (unsigned k = 0; k < 4; k++) {
        x.acc[k][3].node = nodes;   /* the i - w read */
        x.acc[k][3].root = 4;
    }
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    assert_true(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    /* the same regions as the affine chain: the candidates are idx and idx - w */
    struct chain y;
    make_chain(&y, w, h, 4);
    assert_true(weft_fp_analyze(&y.c, why, sizeof why));
    struct weft_t2 u;
    assert_true(weft_t2_init(&u, &y.c, 16, why, sizeof why));
    assert_int_equal(weft_t2_items_run(&t, 4, 5, 16), weft_t2_items_run(&u, 4, 5, 16));
    weft_t2_free(&t);
    weft_t2_free(&u);
    /* max(r - 1, 0) * 4w + 4c: the candidate 4c is not an address of the layout */
    struct weft_fp_node clamp[6] = {
        {WEFT_FP_LEAF, 0, 0, {0, 1, 0}, -1},        /* r - 1 */
        {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, 0},         /* 0 */
        {WEFT_FP_SMAX, 0, 1, {0, 0, 0}, 0},
        {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, 4 * w},     /* 4w */
        {WEFT_FP_MUL, 2, 3, {0, 0, 0}, 0},
        {WEFT_FP_LEAF, 0, 0, {4, 0, 0}, 0},         /* 4c */
    };
    struct weft_fp_node clamped[7];
    memcpy(clamped, clamp, sizeof clamp);
    clamped[6] = (struct weft_fp_node){WEFT_FP_ADD, 4, 5, {0, 0, 0}, 0};
    for (unsigned k = 0; k < 4; k++) {
        x.acc[k][3].node = clamped;
        x.acc[k][3].root = 6;
    }
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    assert_false(weft_t2_init(&t, &x.c, 16, why, sizeof why));
    weft_t2_free(&t);
}

/* An interior tile's windows on a wide grid: its rows and halo, each a band a little wider than
 * the tile (reads of the rows above and below are rows of the band, not a band a row wider). */
static void test_windows_are_bands_of_the_tile(void **state)
{
    (void)state;
    struct chain *x = malloc(sizeof *x);
    char why[128];
    struct weft_t2 t;
    const unsigned K = 10;
    const uint64_t th = 200, tw = 256;
    make_chain(x, 8192, 4096, K);
    assert_true(weft_fp_analyze(&x->c, why, sizeof why));
    assert_true(weft_t2_init(&t, &x->c, 16, why, sizeof why));
    struct weft_t2_rect tile, reg[MAXK];
    weft_t2_tile(&t, th, tw, weft_t2_tiles(&t, th, tw) / 2 + 1, &tile);
    weft_t2_regions(&t, K, &tile, reg);
    for (unsigned b = 0; b < 2; b++) {
        struct weft_t2_band w;
        assert_true(weft_t2_window(&t, K, reg, b, &w));
        assert_true(w.r1 - w.r0 <= (int64_t)(th + 2 * K));
        assert_true(w.hi - w.lo <= 4 * (int64_t)(tw + 2 * K + 16));
    }
    weft_t2_free(&t);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redundant_work_matches_formula),
        cmocka_unit_test(test_pieces_cover_region),
        cmocka_unit_test(test_owned_partition_and_windows_cover),
        cmocka_unit_test(test_margins_bound_the_neighbours_windows),
        cmocka_unit_test(test_layout_checks),
        cmocka_unit_test(test_choosing_reads_by_candidates),
        cmocka_unit_test(test_windows_are_bands_of_the_tile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
