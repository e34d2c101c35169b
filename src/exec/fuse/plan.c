/* exec/fuse/plan.c — overlapped-tiling geometry of a launch chain (see fuse/plan.h). */
#include "exec/fuse/plan.h"

#include <stdio.h>
#include <string.h>

static void hull(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t z)
{
    if (a >= z)
        return;
    if (*lo >= *hi) {
        *lo = a;
        *hi = z;
        return;
    }
    if (a < *lo)
        *lo = a;
    if (z > *hi)
        *hi = z;
}

static bool same_layout(const struct weft_fp_chain *c, const int64_t *a, const int64_t *b)
{
    for (unsigned d = 0; d < c->work_dim; d++)
        if (a[d] != b[d])
            return false;
    return true;
}

bool weft_fp_analyze(struct weft_fp_chain *c, char *why, size_t why_size)
{
    const unsigned D = weft_fp_outer(c);
    if (c->work_dim < 1 || c->work_dim > 3 || c->nstages < 2 || c->align < 1) {
        snprintf(why, why_size, "fewer than two launches");
        return false;
    }
    if (c->nbufs > WEFT_FP_MAX_BUFS) {
        snprintf(why, why_size, "more than %u buffers", WEFT_FP_MAX_BUFS);
        return false;
    }
    for (unsigned b = 0; b < c->nbufs; b++)
        c->buf[b].windowed = false;
    for (unsigned k = 0; k < c->nstages; k++)
        for (unsigned a = 0; a < c->stage[k].nacc; a++)
            if (c->stage[k].acc[a].kind & WEFT_FP_WRITE)
                c->buf[c->stage[k].acc[a].buf].windowed = true;

    bool feeds = false;
    for (unsigned b = 0; b < c->nbufs; b++) {
        struct weft_fp_buffer *B = &c->buf[b];
        if (!B->windowed)
            continue;
        const struct weft_fp_access *first = NULL, *write = NULL;
        bool written_before = false;
        uint64_t witems[3] = {1, 1, 1};
        /* the layout: of the first affine access (there is one, a write) */
        for (unsigned k = 0; k < c->nstages && !first; k++)
            for (unsigned a = 0; a < c->stage[k].nacc && !first; a++)
                if (c->stage[k].acc[a].buf == b && !c->stage[k].acc[a].node)
                    first = &c->stage[k].acc[a];
        for (unsigned k = 0; k < c->nstages; k++) {
            bool writes_here = false;
            for (unsigned a = 0; a < c->stage[k].nacc; a++) {
                const struct weft_fp_access *x = &c->stage[k].acc[a];
                if (x->buf != b)
                    continue;
                if (x->node) {   /* a choosing read: its footprint comes from its expression */
                    if (x->kind & WEFT_FP_WRITE) {
                        snprintf(why, why_size, "buffer %u is written at an address that chooses", b);
                        return false;
                    }
                    feeds = feeds || written_before;
                    continue;
                }
                if (!same_layout(c, first->coef, x->coef)) {
                    snprintf(why, why_size, "buffer %u is accessed with different strides", b);
                    return false;
                }
                if (x->kind & WEFT_FP_WRITE) {
                    for (unsigned d = 0; d < D; d++) {
                        /* the widest write of the buffer in each inner dimension */
                        uint64_t n = x->items[d] && x->items[d] < c->global[d] ? x->items[d] : c->global[d];
                        if (n > witems[d])
                            witems[d] = n;
                    }
                    if (write && (write->c0 != x->c0 || write->size != x->size)) {
                        snprintf(why, why_size, "buffer %u is written at different offsets", b);
                        return false;
                    }
                    write = x;
                    writes_here = true;
                } else if (written_before) {
                    feeds = true;
                }
            }
            written_before = written_before || writes_here;
        }
        B->stride = first->coef[D];
        B->elem = first->coef[0];
        if (B->stride <= 0) {
            snprintf(why, why_size, "buffer %u: rows of the NDRange do not move forward through it", b);
            return false;
        }
        B->wc0 = write->c0;
        B->wsize = write->size;
        B->inner_lo = B->inner_hi = B->winner_lo = B->winner_hi = 0;
        for (unsigned d = 0; d < D; d++) {
            int64_t span = first->coef[d] * (int64_t)(c->global[d] - 1);
            int64_t wspan = first->coef[d] * (int64_t)(witems[d] - 1);
            *(span < 0 ? &B->inner_lo : &B->inner_hi) += span;
            *(wspan < 0 ? &B->winner_lo : &B->winner_hi) += wspan;
        }
        if (B->winner_hi - B->winner_lo + (int64_t)B->wsize > B->stride) {
            snprintf(why, why_size, "buffer %u: one row's writes are wider than the row stride", b);
            return false;
        }
    }
    if (!feeds) {
        snprintf(why, why_size, "no launch reads what an earlier one wrote");
        return false;
    }
    return true;
}

/* Interval arithmetic over a choosing read's expression; values beyond +-2^62 give up. */
struct ival {
    __int128 lo, hi;
};

#define IVAL_LIMIT ((__int128)1 << 62)

static bool ival_fits(struct ival v)
{
    return v.lo >= -IVAL_LIMIT && v.hi <= IVAL_LIMIT && v.lo <= v.hi;
}

static __int128 min128(__int128 a, __int128 b) { return a < b ? a : b; }
static __int128 max128(__int128 a, __int128 b) { return a > b ? a : b; }

static __int128 floor_div128(__int128 a, __int128 b)
{
    __int128 q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The value range of node n over the work-items whose index lies in box [blo[d], bhi[d]]. */
static bool node_range(const struct weft_fp_node *nodes, unsigned n, const int64_t blo[3], const int64_t bhi[3],
                       unsigned depth, struct ival *out)
{
    const struct weft_fp_node *x = &nodes[n];
    struct ival a, b;
    if (depth > 256)
        return false;
    if (x->op == WEFT_FP_LEAF) {
        a.lo = a.hi = x->c0;
        for (unsigned d = 0; d < 3; d++) {
            __int128 p = (__int128)x->coef[d] * blo[d], q = (__int128)x->coef[d] * bhi[d];
            a.lo += min128(p, q);
            a.hi += max128(p, q);
        }
        *out = a;
        return ival_fits(a);
    }
    if (x->x >= n || x->y >= n)   /* operands come first: no cycles */
        return false;
    if (!node_range(nodes, x->x, blo, bhi, depth + 1, &a) || !node_range(nodes, x->y, blo, bhi, depth + 1, &b))
        return false;
    switch (x->op) {
    case WEFT_FP_ADD:
        out->lo = a.lo + b.lo;
        out->hi = a.hi + b.hi;
        break;
    case WEFT_FP_MUL: {
        __int128 p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        out->lo = out->hi = p[0];
        for (int i = 1; i < 4; i++) {
            out->lo = min128(out->lo, p[i]);
            out->hi = max128(out->hi, p[i]);
        }
        break;
    }
    case WEFT_FP_DIV:
        if (b.lo != b.hi || b.lo <= 0)
            return false;
        out->lo = floor_div128(a.lo, b.lo);
        out->hi = -floor_div128(-a.hi, b.lo);
        break;
    case WEFT_FP_SMIN:
        out->lo = min128(a.lo, b.lo);
        out->hi = min128(a.hi, b.hi);
        break;
    case WEFT_FP_SMAX:
        out->lo = max128(a.lo, b.lo);
        out->hi = max128(a.hi, b.hi);
        break;
    case WEFT_FP_UMIN:
    case WEFT_FP_UMAX:
        if (a.lo >= 0 && b.lo >= 0) {   /* both non-negative: as signed */
            out->lo = x->op == WEFT_FP_UMIN ? min128(a.lo, b.lo) : max128(a.lo, b.lo);
            out->hi = x->op == WEFT_FP_UMIN ? min128(a.hi, b.hi) : max128(a.hi, b.hi);
            break;
        }
        /* else it is one of the two, whichever: as ANY */
        __attribute__((fallthrough));
    case WEFT_FP_ANY:
        out->lo = min128(a.lo, b.lo);
        out->hi = max128(a.hi, b.hi);
        break;
    default:
        return false;
    }
    return ival_fits(*out);
}

void weft_fp_access_range(const struct weft_fp_chain *c, unsigned b, const struct weft_fp_access *x, uint64_t a,
                          uint64_t z, int64_t *lo, int64_t *hi)
{
    const struct weft_fp_buffer *B = &c->buf[b];
    if (!x->node) {
        *lo = x->c0 + B->stride * (int64_t)a + B->inner_lo;
        *hi = x->c0 + B->stride * (int64_t)(z - 1) + B->inner_hi + (int64_t)x->size;
        return;
    }
    const unsigned D = weft_fp_outer(c);
    int64_t blo[3] = {0, 0, 0}, bhi[3] = {0, 0, 0};
    for (unsigned d = 0; d < c->work_dim; d++) {
        blo[d] = d == D ? (int64_t)a : 0;
        bhi[d] = d == D ? (int64_t)z - 1 : (int64_t)c->global[d] - 1;
    }
    struct ival v;
    if (!node_range(x->node, x->root, blo, bhi, 0, &v)) {
        *lo = 0;
        *hi = (int64_t)B->size;
        return;
    }
    *lo = (int64_t)v.lo;
    *hi = (int64_t)v.hi + (int64_t)x->size;
}

/* Bytes [lo, hi) access x of buffer b touches over rows [a, z) (z > a). */
static void access_range(const struct weft_fp_chain *c, unsigned b, const struct weft_fp_access *x, uint64_t a,
                         uint64_t z, int64_t *lo, int64_t *hi)
{
    weft_fp_access_range(c, b, x, a, z, lo, hi);
}

/* Rows [*a, *z) of buffer B's layout whose writes meet bytes [lo, hi), clamped to the NDRange. */
static void rows_of(const struct weft_fp_chain *c, const struct weft_fp_buffer *B, int64_t lo, int64_t hi,
                    uint64_t *a, uint64_t *z)
{
    int64_t rmin = weft_fp_floor_div(lo - B->wc0 - B->inner_hi - (int64_t)B->wsize, B->stride) + 1;
    int64_t rend = weft_fp_ceil_div(hi - B->wc0 - B->inner_lo, B->stride);
    int64_t rows = (int64_t)weft_fp_rows(c);
    if (rmin < 0)
        rmin = 0;
    if (rend > rows)
        rend = rows;
    if (rend <= rmin) {
        *a = *z = 0;
        return;
    }
    *a = (uint64_t)rmin;
    *z = (uint64_t)rend;
}

void weft_fp_regions(const struct weft_fp_chain *c, unsigned K, uint64_t t_lo, uint64_t t_hi, uint64_t *rlo,
                     uint64_t *rhi)
{
    /* The rows each stage must run (nlo/nhi) grow from the rows later stages must run, not from
     * the rows they run once rounded out to `align`: rounding each stage's successor again
     * would add `align` rows per stage and side (1-D Jacobi, K=64, groups of 256: 16 % of
     * redundant rows instead of 0.1 %). The rows a stage runs beyond those it must are
     * computed from inputs nobody produced for them, and nobody reads what they write: every
     * read of a row a stage must run is produced by a row its writers must run. */
    /* Every earlier writer of a buffer grows by what later stages read of it: going backwards,
     * read[b] holds the rows read of buffer b by the stages after the one at hand, so a stage
     * takes them in for each buffer it writes (one pass, where growing every earlier writer at
     * each read took K^2 steps per tile: 1.6-2.8 ms planning a K=64 chain). */
    const uint64_t rows = weft_fp_rows(c);
    uint64_t nlo[WEFT_FP_MAX_STAGES], nhi[WEFT_FP_MAX_STAGES];
    uint64_t read_lo[WEFT_FP_MAX_BUFS] = {0}, read_hi[WEFT_FP_MAX_BUFS] = {0};
    for (unsigned k = 0; k < K; k++)
        nlo[k] = nhi[k] = 0;
    nlo[K - 1] = t_lo;
    nhi[K - 1] = t_hi;
    for (unsigned k = K; k-- > 0;) {
        if (k + 1 < K)
            hull(&nlo[k], &nhi[k], nlo[k + 1], nhi[k + 1]);
        for (unsigned b = 0; b < c->nbufs && b < WEFT_FP_MAX_BUFS; b++)
            if (weft_fp_stage_writes(c, k, b))
                hull(&nlo[k], &nhi[k], read_lo[b], read_hi[b]);
        if (nhi[k] > rows)
            nhi[k] = rows;
        rlo[k] = nlo[k] / c->align * c->align;
        rhi[k] = (nhi[k] + c->align - 1) / c->align * c->align;
        if (rhi[k] > rows)
            rhi[k] = rows;
        if (nlo[k] >= nhi[k]) {
            rlo[k] = rhi[k] = 0;
            continue;
        }
        for (unsigned i = 0; i < c->stage[k].nacc; i++) {
            const struct weft_fp_access *x = &c->stage[k].acc[i];
            const struct weft_fp_buffer *B = &c->buf[x->buf];
            if (!B->windowed || !(x->kind & WEFT_FP_READ))
                continue;
            int64_t lo, hi;
            access_range(c, x->buf, x, nlo[k], nhi[k], &lo, &hi);
            uint64_t a, z;
            rows_of(c, B, lo, hi, &a, &z);
            if (x->buf < WEFT_FP_MAX_BUFS)
                hull(&read_lo[x->buf], &read_hi[x->buf], a, z);
        }
    }
}

bool weft_fp_window(const struct weft_fp_chain *c, unsigned K, const uint64_t *rlo, const uint64_t *rhi, unsigned b,
                    uint64_t *lo_out, uint64_t *hi_out)
{
    const struct weft_fp_buffer *B = &c->buf[b];
    bool any = false;
    int64_t lo = 0, hi = 0;
    for (unsigned k = 0; k < K; k++) {
        if (rlo[k] >= rhi[k])
            continue;
        for (unsigned i = 0; i < c->stage[k].nacc; i++) {
            const struct weft_fp_access *x = &c->stage[k].acc[i];
            if (x->buf != b)
                continue;
            int64_t l, h;
            access_range(c, b, x, rlo[k], rhi[k], &l, &h);
            if (!any || l < lo)
                lo = l;
            if (!any || h > hi)
                hi = h;
            any = true;
        }
    }
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)B->size)
        hi = (int64_t)B->size;
    if (!any || lo >= hi)
        return false;
    *lo_out = (uint64_t)lo;
    *hi_out = (uint64_t)hi;
    return true;
}

void weft_fp_owned(const struct weft_fp_chain *c, unsigned b, uint64_t t_lo, uint64_t t_hi, uint64_t *lo_out,
                   uint64_t *hi_out)
{
    const struct weft_fp_buffer *B = &c->buf[b];
    int64_t lo = B->wc0 + B->stride * (int64_t)t_lo + B->winner_lo;
    int64_t hi = B->wc0 + B->stride * (int64_t)(t_hi - 1) + B->winner_hi + (int64_t)B->wsize;
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)B->size)
        hi = (int64_t)B->size;
    if (hi < lo)
        hi = lo;
    *lo_out = (uint64_t)lo;
    *hi_out = (uint64_t)hi;
}

uint64_t weft_fp_rows_run(const struct weft_fp_chain *c, unsigned K, uint64_t tile)
{
    const uint64_t rows = weft_fp_rows(c);
    uint64_t rlo[WEFT_FP_MAX_STAGES], rhi[WEFT_FP_MAX_STAGES], total = 0;
    for (uint64_t t = 0; t < rows; t += tile) {
        weft_fp_regions(c, K, t, t + tile < rows ? t + tile : rows, rlo, rhi);
        for (unsigned k = 0; k < K; k++)
            total += rhi[k] > rlo[k] ? rhi[k] - rlo[k] : 0;
    }
    return total;
}

/* Reach of the windows of the tile of rows [t, t + tile) in rows beyond it, on either side. */
static uint64_t tile_reach(const struct weft_fp_chain *c, unsigned K, uint64_t t, uint64_t tile, uint64_t *rlo,
                           uint64_t *rhi)
{
    const uint64_t rows = weft_fp_rows(c);
    uint64_t end = t + tile < rows ? t + tile : rows, reach = 0;
    weft_fp_regions(c, K, t, end, rlo, rhi);
    for (unsigned b = 0; b < c->nbufs; b++) {
        uint64_t lo, hi, a, z;
        if (!c->buf[b].windowed || !weft_fp_window(c, K, rlo, rhi, b, &lo, &hi))
            continue;
        rows_of(c, &c->buf[b], (int64_t)lo, (int64_t)hi, &a, &z);
        if (a < z && t > a && t - a > reach)
            reach = t - a;
        if (a < z && z > end && z - end > reach)
            reach = z - end;
    }
    return reach;
}

/* The first, a middle and the last tile: boundaries clamp, the middle one reaches furthest. */
static void probe_tiles(const struct weft_fp_chain *c, uint64_t tile, uint64_t probe[3])
{
    const uint64_t tiles = (weft_fp_rows(c) + tile - 1) / tile;
    probe[0] = 0;
    probe[1] = tiles / 2;
    probe[2] = tiles - 1;
}

uint64_t weft_fp_reach(const struct weft_fp_chain *c, unsigned K, uint64_t tile)
{
    uint64_t rlo[WEFT_FP_MAX_STAGES], rhi[WEFT_FP_MAX_STAGES], reach = 0, probe[3];
    probe_tiles(c, tile, probe);
    for (int i = 0; i < 3; i++) {
        uint64_t r = tile_reach(c, K, probe[i] * tile, tile, rlo, rhi);
        if (r > reach)
            reach = r;
    }
    return reach;
}

int64_t weft_fp_margin(const struct weft_fp_chain *c, unsigned K, uint64_t tile, unsigned b)
{
    const uint64_t rows = weft_fp_rows(c);
    uint64_t rlo[WEFT_FP_MAX_STAGES], rhi[WEFT_FP_MAX_STAGES], probe[3];
    int64_t margin = 0;
    probe_tiles(c, tile, probe);
    for (int i = 0; i < 3; i++) {
        uint64_t t = probe[i] * tile, end = t + tile < rows ? t + tile : rows, lo, hi, olo, ohi;
        weft_fp_regions(c, K, t, end, rlo, rhi);
        if (!weft_fp_window(c, K, rlo, rhi, b, &lo, &hi))
            continue;
        weft_fp_owned(c, b, t, end, &olo, &ohi);
        if (olo > lo && (int64_t)(olo - lo) > margin)
            margin = (int64_t)(olo - lo);
        if (hi > ohi && (int64_t)(hi - ohi) > margin)
            margin = (int64_t)(hi - ohi);
    }
    return margin;
}

/* Redundant rows of one interior tile of `tile` rows at depth K: sum of its regions less K * tile. */
static uint64_t tile_redundancy(const struct weft_fp_chain *c, unsigned K, uint64_t tile, uint64_t *rlo,
                                uint64_t *rhi)
{
    const uint64_t rows = weft_fp_rows(c);
    uint64_t tiles = (rows + tile - 1) / tile, t = tiles / 2 * tile;
    uint64_t end = t + tile < rows ? t + tile : rows, run = 0;
    weft_fp_regions(c, K, t, end, rlo, rhi);
    for (unsigned k = 0; k < K; k++)
        run += rhi[k] > rlo[k] ? rhi[k] - rlo[k] : 0;
    return run > K * (end - t) ? run - K * (end - t) : 0;
}

unsigned weft_fp_depth(const struct weft_fp_chain *c, uint64_t tile, double ratio)
{
    uint64_t rlo[WEFT_FP_MAX_STAGES], rhi[WEFT_FP_MAX_STAGES];
    unsigned best = 1;
    uint64_t prev = 0;
    for (unsigned k = 2; k <= c->nstages && k <= WEFT_FP_MAX_STAGES; k++) {
        uint64_t rc = tile_redundancy(c, k, tile, rlo, rhi);
        double delta = (double)(rc > prev ? rc - prev : 0);
        if (delta >= (double)tile * ratio)
            break;
        best = k;
        prev = rc;
    }
    return best;
}

uint64_t weft_fp_row_bytes(const struct weft_fp_chain *c)
{
    uint64_t row_bytes = 0;
    for (unsigned b = 0; b < c->nbufs; b++) {
        if (c->buf[b].windowed) {
            row_bytes += (uint64_t)c->buf[b].stride;
            continue;
        }
        /* a buffer only read: once, at its largest row step (every stage that reads it reads
         * the same rows of it, Poisson's right-hand side by all twenty) */
        int64_t step = 0;
        for (unsigned k = 0; k < c->nstages; k++)
            for (unsigned i = 0; i < c->stage[k].nacc; i++) {
                const struct weft_fp_access *x = &c->stage[k].acc[i];
                if (x->buf == b && !x->node && x->coef[weft_fp_outer(c)] > step)
                    step = x->coef[weft_fp_outer(c)];
            }
        row_bytes += (uint64_t)step;
    }
    return row_bytes;
}

void weft_fp_choose(const struct weft_fp_chain *c, uint64_t row_bytes, uint64_t budget, unsigned threads,
                    double ratio, unsigned *depth, uint64_t *tile_out)
{
    const uint64_t rows = weft_fp_rows(c);
    unsigned K = c->nstages;
    uint64_t tile = rows;
    if (row_bytes == 0) {
        *depth = 1;
        *tile_out = rows;
        return;
    }
    for (int round = 0; round < 2 && K > 1; round++) {
        /* the tile: its rows plus the windows' reach on both sides fit the budget */
        uint64_t reach = weft_fp_reach(c, K, c->align);
        uint64_t fit = budget / row_bytes;
        tile = fit > 2 * reach ? fit - 2 * reach : 1;
        /* A tile many reaches long (narrow rows: 1-D chains) fills half the budget: its halo
         * costs nothing, and the other half is left to what the prefetchers bring in ahead (a
         * 1-D Jacobi on the 2-core Sapphire Rapids VM, 2 MiB L2: tiles filling it 42 ms for
         * K=10, 160 ms for K=64; half of it 35 and 138). Where that would leave fewer than 6
         * reaches (wide rows), the tile keeps the whole budget, since there the halo is what
         * costs. */
        uint64_t half = budget / 2 / row_bytes;
        if (half > 2 * reach && half - 2 * reach >= 6 * reach)
            tile = half - 2 * reach;
        /* Rows too wide for the cache budget leave a tile mostly halo. Then the tile takes at
         * least 6 reaches (redundant rows about 15 % of the useful ones) while its working set
         * stays within 8 budgets, spilling to the shared cache, else at least 3 reaches (a
         * 2-core EPYC, 1 MiB L2: Poisson, HotSpot and FDTD-2D on 4096² 10-15 % faster at 6 than
         * at 3; 2-D Jacobi 8192² K=64 1.7x slower at 6, a 32 MiB working set) */
        if (tile < 6 * reach && (8 * reach) * row_bytes <= 8 * budget)
            tile = 6 * reach;
        else if (tile < 3 * reach)
            tile = 3 * reach;   /* past the cache rather than mostly halo */
        uint64_t balance = (rows + 2ull * threads - 1) / (2ull * threads);   /* >= 2 tiles per thread */
        if (tile > balance)
            tile = balance;
        tile = (tile + c->align - 1) / c->align * c->align;
        if (tile < c->align)
            tile = c->align;
        K = weft_fp_depth(c, tile, ratio);
    }
    *depth = K;
    *tile_out = tile;
}

double weft_fp_redundant_share(const struct weft_fp_chain *c, unsigned depth, uint64_t tile)
{
    uint64_t rlo[WEFT_FP_MAX_STAGES], rhi[WEFT_FP_MAX_STAGES];
    const uint64_t rows = weft_fp_rows(c);
    const uint64_t own = tile < rows ? tile : rows;
    return own && depth ? (double)tile_redundancy(c, depth, tile, rlo, rhi) / ((double)depth * (double)own) : 0.0;
}

bool weft_fp_two_levels_may_pay(const struct weft_fp_chain *c, unsigned depth, uint64_t tile)
{
    return depth < c->nstages || weft_fp_redundant_share(c, depth, tile) >= WEFT_FP_TWO_LEVELS_MIN_REDUNDANT;
}
