/* tests/unit/test_fuse_plan.c — the overlapped-tiling geometry of exec/fuse/plan.c: Zhou's
 * redundant work for a 1-D 3-point ping-pong chain with clamped boundaries (seed-notes 003-004,
 * criterion 5: K*N + (Q-1)*K*(K-1) rows), the symbolic tiles of criterion 4, owned ranges that
 * partition the buffers, 2-D row halos, the layout checks (with rows of an NDRange padded past
 * the data), the depth rule of equation 6, when
 * two levels are worth trying, and
 * reads whose address chooses (clamped neighbours: min/max and selects) planned by their
 * interval footprints, and the bytes a row touches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "exec/fuse/plan.h"

#define MAXK 64

/* A 1-D radius-1 Jacobi chain over n floats: stage k reads buffer k%2 at i-1, i, i+1 and writes
 * buffer (k+1)%2 at i. */
struct chain1d {
    struct weft_fp_access acc[MAXK][4];
    struct weft_fp_stage stage[MAXK];
    struct weft_fp_buffer buf[2];
    struct weft_fp_chain c;
};

static void make_chain1d(struct chain1d *x, uint64_t n, unsigned K, uint64_t align)
{
    memset(x, 0, sizeof *x);
    for (unsigned k = 0; k < K; k++) {
        for (int r = 0; r < 3; r++)
            x->acc[k][r] = (struct weft_fp_access){k % 2, WEFT_FP_READ, 4, {4, 0, 0}, 4 * (r - 1)};
        x->acc[k][3] = (struct weft_fp_access){(k + 1) % 2, WEFT_FP_WRITE, 4, {4, 0, 0}, 0};
        x->stage[k] = (struct weft_fp_stage){4, x->acc[k]};
    }
    x->buf[0].size = x->buf[1].size = n * 4;
    x->c = (struct weft_fp_chain){1, {n, 1, 1}, align, K, x->stage, 2, x->buf};
}

static void test_redundant_work_matches_zhou_1d(void **state)
{
    static const uint64_t sizes[] = {1000, 1024, 4099};
    static const unsigned depths[] = {2, 3, 5, 8};
    static const uint64_t tiles[] = {64, 100, 250};
    struct chain1d x;
    char why[128];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < sizeof depths / sizeof *depths; d++)
            for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
                uint64_t n = sizes[s], tile = tiles[t], K = depths[d];
                make_chain1d(&x, n, (unsigned)K, 1);
                assert_true(weft_fp_analyze(&x.c, why, sizeof why));
                uint64_t Q = (n + tile - 1) / tile;
                if (n - (Q - 1) * tile < K - 1)
                    continue;   /* the formula's premise: the last tile is at least K-1 wide */
                uint64_t expected = K * n + (Q - 1) * K * (K - 1);
                assert_int_equal(weft_fp_rows_run(&x.c, (unsigned)K, tile), expected);
            }
}

static void test_tiles_are_symbolic_tiles(void **state)
{
    /* Tile_k = [s - (K-1-k), s + len + (K-1-k)) clamped to [0, N) */
    struct chain1d x;
    char why[128];
    const unsigned K = 6;
    make_chain1d(&x, 500, K, 1);
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    uint64_t rlo[K], rhi[K];
    const uint64_t s = 200, len = 50;
    weft_fp_regions(&x.c, K, s, s + len, rlo, rhi);
    for (unsigned k = 0; k < K; k++) {
        assert_int_equal(rlo[k], s - (K - 1 - k));
        assert_int_equal(rhi[k], s + len + (K - 1 - k));
    }
    weft_fp_regions(&x.c, K, 0, 3, rlo, rhi);
    for (unsigned k = 0; k < K; k++) {
        assert_int_equal(rlo[k], 0);
        assert_int_equal(rhi[k], 3 + (K - 1 - k));
    }
    weft_fp_regions(&x.c, K, 498, 500, rlo, rhi);
    for (unsigned k = 0; k < K; k++) {
        assert_int_equal(rlo[k], 498 - (K - 1 - k));
        assert_int_equal(rhi[k], 500);
    }
    /* the windows hold everything read: one element beyond stage 0's rows on each side */
    uint64_t lo, hi;
    weft_fp_regions(&x.c, K, s, s + len, rlo, rhi);
    assert_true(weft_fp_window(&x.c, K, rlo, rhi, 0, &lo, &hi));
    assert_int_equal(lo, 4 * (s - K));
    assert_int_equal(hi, 4 * (s + len + K));
    /* with an alignment of 16 rows, regions start and end on multiples of 16 (or at N) */
    make_chain1d(&x, 500, K, 16);
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    weft_fp_regions(&x.c, K, 208, 256, rlo, rhi);
    for (unsigned k = 0; k < K; k++) {
        assert_int_equal(rlo[k] % 16, 0);
        assert_true(rhi[k] % 16 == 0 || rhi[k] == 500);
        assert_true(rlo[k] <= 208 - (K - 1 - k) && rhi[k] >= 256 + (K - 1 - k));
    }
}

static void test_owned_ranges_partition(void **state)
{
    struct chain1d x;
    char why[128];
    make_chain1d(&x, 1001, 4, 1);
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    uint64_t next = 0;
    for (uint64_t t = 0; t < 1001; t += 128) {
        uint64_t lo, hi, end = t + 128 < 1001 ? t + 128 : 1001;
        weft_fp_owned(&x.c, 1, t, end, &lo, &hi);
        assert_int_equal(lo, next);
        assert_int_equal(hi, 4 * end);
        next = hi;
    }
    assert_int_equal(next, 4 * 1001);
}

/* 2-D 5-point stencil on a w x h grid of floats with rows `pitch` floats apart. */
/* The margins a tile's results wait on: a K-stage 3-point chain's window of the buffer stage 0
 * reads reaches K items beyond the tile (stage 0 runs K-1 beyond it and reads one further), of
 * the buffer stage 0 writes K-1; and no other tile's window reads further into a tile. */
static void test_margins_bound_the_neighbours_windows(void **state)
{
    (void)state;
    struct chain1d x;
    char why[128];
    const uint64_t n = 5000, tile = 400;
    for (unsigned K = 2; K <= 9; K++) {
        make_chain1d(&x, n, K, 1);
        assert_true(weft_fp_analyze(&x.c, why, sizeof why));
        assert_int_equal(weft_fp_margin(&x.c, K, tile, 0), 4 * K);
        assert_int_equal(weft_fp_margin(&x.c, K, tile, 1), 4 * (K - 1));
        /* every tile's window against every other tile's owned range */
        uint64_t rlo[MAXK], rhi[MAXK];
        for (unsigned b = 0; b < 2; b++)
            for (uint64_t t = 0; t < n; t += tile) {
                uint64_t lo, hi;
                weft_fp_regions(&x.c, K, t, t + tile < n ? t + tile : n, rlo, rhi);
                if (!weft_fp_window(&x.c, K, rlo, rhi, b, &lo, &hi))
                    continue;
                for (uint64_t u = 0; u < n; u += tile) {
                    uint64_t olo, ohi;
                    if (u == t)
                        continue;
                    weft_fp_owned(&x.c, b, u, u + tile < n ? u + tile : n, &olo, &ohi);
                    int64_t m = weft_fp_margin(&x.c, K, tile, b);
                    /* the window meets only the first or last m bytes of u's range */
                    if (lo < ohi && hi > olo)
                        assert_true((int64_t)hi <= (int64_t)olo + m || (int64_t)lo >= (int64_t)ohi - m);
                }
            }
    }
}

static void test_2d_rows_and_layout_checks(void **state)
{
    const int64_t w = 30, h = 40, pitch = 32;
    struct weft_fp_access acc[2][6];
    struct weft_fp_stage stage[2];
    struct weft_fp_buffer buf[2];
    memset(buf, 0, sizeof buf);
    buf[0].size = buf[1].size = (uint64_t)(pitch * h * 4);
    const int64_t offs[5] = {-4 * pitch, -4, 0, 4, 4 * pitch};
    for (unsigned k = 0; k < 2; k++) {
        for (int r = 0; r < 5; r++)
            acc[k][r] = (struct weft_fp_access){k, WEFT_FP_READ, 4, {4, 4 * pitch, 0}, offs[r]};
        acc[k][5] = (struct weft_fp_access){1 - k, WEFT_FP_WRITE, 4, {4, 4 * pitch, 0}, 0};
        stage[k] = (struct weft_fp_stage){6, acc[k]};
    }
    struct weft_fp_chain c = {2, {(uint64_t)w, (uint64_t)h, 1}, 1, 2, stage, 2, buf};
    char why[128] = "";
    bool ok = weft_fp_analyze(&c, why, sizeof why);
    if (!ok)
        fail_msg("%s", why);
    assert_int_equal(buf[1].stride, 4 * pitch);
    uint64_t rlo[2], rhi[2];
    weft_fp_regions(&c, 2, 10, 20, rlo, rhi);
    assert_int_equal(rlo[0], 9);
    assert_int_equal(rhi[0], 21);
    /* both stages write buffer 1, the second one element further */
    acc[1][5].buf = 1;
    acc[1][5].c0 = 4;
    assert_false(weft_fp_analyze(&c, why, sizeof why));
    assert_non_null(strstr(why, "different offsets"));
    acc[1][5].buf = 0;
    acc[1][5].c0 = 0;
    assert_true(weft_fp_analyze(&c, why, sizeof why));
    /* rows wider than their stride: the owned ranges of tiles would overlap */
    c.global[0] = (uint64_t)pitch + 1;
    assert_false(weft_fp_analyze(&c, why, sizeof why));
    c.global[0] = (uint64_t)w;
    /* different strides on one buffer */
    acc[0][2].coef[1] = 4 * pitch + 4;
    assert_false(weft_fp_analyze(&c, why, sizeof why));
    acc[0][2].coef[1] = 4 * pitch;
    /* a chain where nothing feeds anything */
    acc[1][0].buf = acc[1][1].buf = acc[1][2].buf = acc[1][3].buf = acc[1][4].buf = 0;
    acc[1][5].buf = 0;
    acc[1][5].kind = WEFT_FP_READ;
    assert_false(weft_fp_analyze(&c, why, sizeof why));
}

/* A 2-D NDRange padded past the data: 48 work-items per row over rows of w = 33 floats (groups
 * of 16), the work-items past the data returning at a guard, so every access counts only 33 of
 * them (items[0]). The writes' band is then one row; reads and windows keep the NDRange's band;
 * the owned ranges of tiles partition the buffer. Without the guard's count the rows would be
 * wider than their stride. */
static void test_padded_rows_count_the_guarded_items(void **state)
{
    (void)state;
    const int64_t w = 33, h = 20, W = 48;
    struct weft_fp_access acc[2][4];
    struct weft_fp_stage stage[2];
    struct weft_fp_buffer buf[2];
    memset(buf, 0, sizeof buf);
    memset(acc, 0, sizeof acc);
    buf[0].size = buf[1].size = (uint64_t)(w * h * 4);
    const int64_t offs[3] = {-4 * w, 0, 4 * w};
    for (unsigned k = 0; k < 2; k++) {
        for (int r = 0; r < 3; r++)
            acc[k][r] = (struct weft_fp_access){k, WEFT_FP_READ, 4, {4, 4 * w, 0}, offs[r], .items = {(uint64_t)w, 0, 0}};
        acc[k][3] = (struct weft_fp_access){1 - k, WEFT_FP_WRITE, 4, {4, 4 * w, 0}, 0, .items = {(uint64_t)w, 0, 0}};
        stage[k] = (struct weft_fp_stage){4, acc[k]};
    }
    struct weft_fp_chain c = {2, {(uint64_t)W, (uint64_t)h, 1}, 1, 2, stage, 2, buf};
    char why[128] = "";
    if (!weft_fp_analyze(&c, why, sizeof why))
        fail_msg("%s", why);
    assert_int_equal(buf[1].winner_hi - buf[1].winner_lo, 4 * (w - 1));
    assert_int_equal(buf[1].inner_hi - buf[1].inner_lo, 4 * (W - 1));
    uint64_t prev_hi = 0;
    for (uint64_t t = 0; t < (uint64_t)h; t += 3) {
        uint64_t lo, hi;
        weft_fp_owned(&c, 1, t, t + 3 < (uint64_t)h ? t + 3 : (uint64_t)h, &lo, &hi);
        assert_int_equal(lo, prev_hi);
        prev_hi = hi;
    }
    assert_int_equal(prev_hi, buf[1].size);
    /* a write without the guard: its work-items reach into the next row */
    acc[1][3].items[0] = 0;
    assert_false(weft_fp_analyze(&c, why, sizeof why));
    assert_non_null(strstr(why, "wider than the row stride"));
}

/* The 1-D chain of 32 stages over 2^20 rows, analyzed. */
static void chain1d_32(struct chain1d *x)
{
    char why[128];
    make_chain1d(x, 1 << 20, 32, 1);
    assert_true(weft_fp_analyze(&x->c, why, sizeof why));
}

static void test_depth_follows_equation_6(void **state)
{
    struct chain1d x;
    chain1d_32(&x);
    unsigned K;
    uint64_t tile;
    /* nothing to gain per row: never fuse */
    weft_fp_choose(&x.c, 8, 256 << 10, 2, 0.0, &K, &tile);
    assert_int_equal(K, 1);
    /* a large saving: every stage of the chain */
    weft_fp_choose(&x.c, 8, 256 << 10, 2, 1.0, &K, &tile);
    assert_int_equal(K, 32);
    /* rows of 8 bytes: the tile (and its reach of 32 rows each side) fills half the budget */
    assert_int_equal(tile, (128 << 10) / 8 - 2 * 32);
    /* equation 6 on an interior tile: dRC(k) = 2(k-1) rows; stop once 2(k-1) >= tile * ratio */
    assert_int_equal(weft_fp_depth(&x.c, 1000, 20.0 / 1000), 10);   /* 2*(11-1) = 20 trips at k = 11 */
    assert_int_equal(weft_fp_depth(&x.c, 1000, 19.5 / 1000), 10);
    assert_int_equal(weft_fp_depth(&x.c, 1000, 20.5 / 1000), 11);
    assert_int_equal(weft_fp_depth(&x.c, 1000, 1.0 / 1000), 1);
}

/* Two levels are worth measuring only where the one-level plan leaves work they could save: a
 * depth below the chain's stages, or 3 % of its rows or more redone. */
static void test_two_levels_only_where_one_level_redoes_work(void **state)
{
    (void)state;
    struct chain1d x;
    chain1d_32(&x);
    unsigned K;
    uint64_t tile;
    /* the plan weft_fp_choose makes: all 32 stages, tiles of 16320 rows each redoing 32 x 31
     * rows over the 32 stages, 0.2 % of theirs: nothing left for two levels */
    weft_fp_choose(&x.c, 8, 256 << 10, 2, 1.0, &K, &tile);
    assert_int_equal(K, 32);
    assert_false(weft_fp_two_levels_may_pay(&x.c, K, tile));
    /* an interior tile redoes K (K - 1) rows over K stages: (K - 1) / tile of its own; tiles of
     * 2048 rows 1.5 %, of 1024 3.0 %, of 512 6 % */
    assert_true(fabs(weft_fp_redundant_share(&x.c, 32, 2048) - 31.0 / 2048) < 1e-12);
    assert_false(weft_fp_two_levels_may_pay(&x.c, 32, 2048));
    assert_true(weft_fp_two_levels_may_pay(&x.c, 32, 1024));
    assert_true(weft_fp_two_levels_may_pay(&x.c, 32, 512));
    /* a depth below the chain's: the stages beyond it are left */
    assert_true(weft_fp_two_levels_may_pay(&x.c, 16, tile));
    /* one tile: nothing redone */
    assert_false(weft_fp_two_levels_may_pay(&x.c, 32, 1 << 20));
}

/* The 1-D chain with its neighbours clamped: a[max(i-1, 0)], a[i], a[min(i+1, n-1)] (HotSpot's
 * borders) as choosing reads. Clamping is exact, so regions and redundant work are those of
 * the affine chain; a write whose address chooses is refused. */
static void test_clamped_reads_plan_like_affine_ones(void **state)
{
    const uint64_t n = 1000;
    const unsigned K = 5;
    struct chain1d x, y;
    char why[128];
    make_chain1d(&x, n, K, 1);
    make_chain1d(&y, n, K, 1);
    /* 0: i - 1, 1: 0, 2: smax, 3: 4 (bytes), 4: smax * 4; 5: i + 1, 6: n - 1, 7: smin, 8: smin * 4;
     * 9: i, 10: any(i - 1, i) (a select), 11: * 4 */
    const struct weft_fp_node nodes[] = {
        {WEFT_FP_LEAF, 0, 0, {1, 0, 0}, -1}, {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, 0},
        {WEFT_FP_SMAX, 0, 1, {0, 0, 0}, 0},  {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, 4},
        {WEFT_FP_MUL, 2, 3, {0, 0, 0}, 0},   {WEFT_FP_LEAF, 0, 0, {1, 0, 0}, 1},
        {WEFT_FP_LEAF, 0, 0, {0, 0, 0}, (int64_t)n - 1}, {WEFT_FP_SMIN, 5, 6, {0, 0, 0}, 0},
        {WEFT_FP_MUL, 7, 3, {0, 0, 0}, 0},   {WEFT_FP_LEAF, 0, 0, {1, 0, 0}, 0},
        {WEFT_FP_ANY, 0, 9, {0, 0, 0}, 0},   {WEFT_FP_MUL, 10, 3, {0, 0, 0}, 0},
    };
    for (unsigned k = 0; k < K; k++) {
        x.acc[k][0].node = x.acc[k][2].node = nodes;
        x.acc[k][0].root = 4;
        x.acc[k][2].root = 8;
    }
    assert_true(weft_fp_analyze(&x.c, why, sizeof why));
    assert_true(weft_fp_analyze(&y.c, why, sizeof why));
    for (uint64_t tile = 50; tile <= 250; tile += 100) {
        uint64_t Q = (n + tile - 1) / tile;
        assert_int_equal(weft_fp_rows_run(&x.c, K, tile), K * n + (Q - 1) * K * (K - 1));
    }
    uint64_t rlo[K], rhi[K], ylo[K], yhi[K], lo, hi;
    const uint64_t probes[][2] = {{0, 3}, {200, 250}, {990, 1000}};
    for (int p = 0; p < 3; p++) {
        weft_fp_regions(&x.c, K, probes[p][0], probes[p][1], rlo, rhi);
        weft_fp_regions(&y.c, K, probes[p][0], probes[p][1], ylo, yhi);
        assert_memory_equal(rlo, ylo, sizeof rlo);
        assert_memory_equal(rhi, yhi, sizeof rhi);
    }
    /* interior window: one element beyond stage 0's rows; at the borders the clamps stay inside */
    weft_fp_regions(&x.c, K, 200, 250, rlo, rhi);
    assert_true(weft_fp_window(&x.c, K, rlo, rhi, 0, &lo, &hi));
    assert_int_equal(lo, 4 * (200 - K));
    assert_int_equal(hi, 4 * (250 + K));
    int64_t l, h;
    weft_fp_access_range(&x.c, 0, &x.acc[0][0], 0, 10, &l, &h);
    assert_int_equal(l, 0);    /* max(i - 1, 0) over i in [0, 10): [0, 8], bytes [0, 36) */
    assert_int_equal(h, 36);
    weft_fp_access_range(&x.c, 0, &x.acc[0][2], 990, 1000, &l, &h);
    assert_int_equal(l, 4 * 991);
    assert_int_equal(h, 4 * 1000);
    /* a select of i and i - 1: the hull of both */
    x.acc[0][0].root = 11;
    weft_fp_access_range(&x.c, 0, &x.acc[0][0], 100, 110, &l, &h);
    assert_int_equal(l, 4 * 99);
    assert_int_equal(h, 4 * 110);
    /* operands after their user (malformed): the whole buffer, never less */
    const struct weft_fp_node bad[] = {{WEFT_FP_ANY, 0, 1, {0, 0, 0}, 0}, {WEFT_FP_LEAF, 0, 0, {1, 0, 0}, 0}};
    x.acc[0][0].node = bad;
    x.acc[0][0].root = 0;
    weft_fp_access_range(&x.c, 0, &x.acc[0][0], 100, 110, &l, &h);
    assert_int_equal(l, 0);
    assert_int_equal(h, 4 * n);
    /* writes must be affine */
    x.acc[1][3].node = nodes;
    x.acc[1][3].root = 4;
    assert_false(weft_fp_analyze(&x.c, why, sizeof why));
    assert_non_null(strstr(why, "chooses"));
}

/* Poisson-like 2-D chain of K stages on rows of w floats: stage k reads buffer k%2 at the row
 * and its neighbours and buffer 2 (the right-hand side, only read) at the row, and writes
 * buffer (k+1)%2 at the row. A row touches the two windowed rows and one row of buffer 2, however
 * many stages read it. */
static void test_row_bytes_count_a_read_buffer_once(void **state)
{
    (void)state;
    enum { K = 5, W = 100, H = 50 };
    struct weft_fp_access acc[K][4];
    struct weft_fp_stage stage[K];
    struct weft_fp_buffer buf[3];
    memset(buf, 0, sizeof buf);
    for (unsigned k = 0; k < K; k++) {
        acc[k][0] = (struct weft_fp_access){k % 2, WEFT_FP_READ, 4, {4, 4 * W, 0}, -4 * W};
        acc[k][1] = (struct weft_fp_access){k % 2, WEFT_FP_READ, 4, {4, 4 * W, 0}, 4 * W};
        acc[k][2] = (struct weft_fp_access){2, WEFT_FP_READ, 4, {4, 4 * W, 0}, 0};
        acc[k][3] = (struct weft_fp_access){(k + 1) % 2, WEFT_FP_WRITE, 4, {4, 4 * W, 0}, 0};
        stage[k] = (struct weft_fp_stage){4, acc[k]};
    }
    for (int b = 0; b < 3; b++)
        buf[b].size = 4 * W * H;
    struct weft_fp_chain c = {2, {W, H, 1}, 1, K, stage, 3, buf};
    char why[128];
    assert_true(weft_fp_analyze(&c, why, sizeof why));
    assert_int_equal(weft_fp_row_bytes(&c), 3 * 4 * W);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redundant_work_matches_zhou_1d),
        cmocka_unit_test(test_tiles_are_symbolic_tiles),
        cmocka_unit_test(test_owned_ranges_partition),
        cmocka_unit_test(test_margins_bound_the_neighbours_windows),
        cmocka_unit_test(test_2d_rows_and_layout_checks),
        cmocka_unit_test(test_padded_rows_count_the_guarded_items),
        cmocka_unit_test(test_depth_follows_equation_6),
        cmocka_unit_test(test_two_levels_only_where_one_level_redoes_work),
        cmocka_unit_test(test_clamped_reads_plan_like_affine_ones),
        cmocka_unit_test(test_row_bytes_count_a_read_buffer_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
