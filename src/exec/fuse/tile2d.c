/* exec/fuse/tile2d.c — 2-D overlapped tiles over dense row-major buffers (see fuse/tile2d.h). */
#include "exec/fuse/tile2d.h"

#include <stdio.h>
#include <stdlib.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static bool rect_empty(const struct weft_t2_rect *r)
{
    return r->r0 >= r->r1 || r->c0 >= r->c1;
}

static void rect_hull(struct weft_t2_rect *into, const struct weft_t2_rect *r)
{
    if (rect_empty(r))
        return;
    if (rect_empty(into)) {
        *into = *r;
        return;
    }
    into->r0 = min64(into->r0, r->r0);
    into->r1 = max64(into->r1, r->r1);
    into->c0 = min64(into->c0, r->c0);
    into->c1 = max64(into->c1, r->c1);
}

/* The candidate addresses of a choosing read: affine addresses such that, at every work-item,
 * the read's address is one of them. A select, min or max is one of its operands; a sum is a
 * candidate of each operand added; a product scales the candidates of one operand when the other
 * has only constant ones. At most CAND_MAX of them; false for anything else. */
#define CAND_MAX 32u

struct cands {
    unsigned n;
    struct { int64_t coef[3], c0; } x[CAND_MAX];
};

static bool all_constant(const struct cands *c)
{
    for (unsigned j = 0; j < c->n; j++)
        if (c->x[j].coef[0] || c->x[j].coef[1] || c->x[j].coef[2])
            return false;
    return true;
}

static bool candidates(const struct weft_fp_node *nodes, unsigned n, unsigned depth, struct cands *out)
{
    const struct weft_fp_node *x = &nodes[n];
    out->n = 0;
    if (depth > 64)
        return false;
    if (x->op == WEFT_FP_LEAF) {
        out->n = 1;
        for (unsigned d = 0; d < 3; d++)
            out->x[0].coef[d] = x->coef[d];
        out->x[0].c0 = x->c0;
        return true;
    }
    if (x->x >= n || x->y >= n)
        return false;
    struct cands *a = malloc(2 * sizeof *a), *b = a + 1;
    bool ok = a && candidates(nodes, x->x, depth + 1, a) && candidates(nodes, x->y, depth + 1, b);
    switch (ok ? x->op : WEFT_FP_DIV) {
    case WEFT_FP_ANY:
    case WEFT_FP_SMIN:
    case WEFT_FP_SMAX:
    case WEFT_FP_UMIN:
    case WEFT_FP_UMAX:
        ok = a->n + b->n <= CAND_MAX;
        for (unsigned i = 0; ok && i < a->n + b->n; i++)
            out->x[out->n++] = i < a->n ? a->x[i] : b->x[i - a->n];
        break;
    case WEFT_FP_ADD:
        ok = a->n * b->n <= CAND_MAX;
        for (unsigned i = 0; ok && i < a->n; i++)
            for (unsigned j = 0; j < b->n; j++, out->n++) {
                for (unsigned d = 0; d < 3; d++)
                    out->x[out->n].coef[d] = a->x[i].coef[d] + b->x[j].coef[d];
                out->x[out->n].c0 = a->x[i].c0 + b->x[j].c0;
            }
        break;
    case WEFT_FP_MUL: {
        /* the operand whose candidates are constants scales the other's */
        const bool b_const = all_constant(b);
        struct cands *v = b_const ? a : b, *k = b_const ? b : a;
        ok = (b_const || all_constant(a)) && v->n * k->n <= CAND_MAX;
        for (unsigned i = 0; ok && i < v->n; i++)
            for (unsigned j = 0; j < k->n; j++, out->n++) {
                for (unsigned d = 0; d < 3; d++)
                    out->x[out->n].coef[d] = v->x[i].coef[d] * k->x[j].c0;
                out->x[out->n].c0 = v->x[i].c0 * k->x[j].c0;
            }
        break;
    }
    default:
        ok = false;
    }
    free(a);
    return ok;
}

/* Appends to t->cand the c0 of each candidate address of access x (itself, when affine); false
 * when a choosing read has candidates that are not addresses of the layout {e, S}, or out of
 * memory. */
static bool add_candidates(struct weft_t2 *t, size_t *ncand, const struct weft_fp_access *x, int64_t e, int64_t S)
{
    struct cands *c = malloc(sizeof *c);
    if (!c)
        return false;
    bool ok = true;
    if (x->node) {
        ok = candidates(x->node, x->root, 0, c);
        for (unsigned i = 0; ok && i < c->n; i++)
            ok = c->x[i].coef[0] == e && c->x[i].coef[1] == S && c->x[i].coef[2] == 0;
    } else {
        c->n = 1;
        c->x[0].c0 = x->c0;
    }
    int64_t *grown = ok ? realloc(t->cand, (*ncand + c->n) * sizeof *grown) : NULL;
    if (grown) {
        t->cand = grown;
        for (unsigned i = 0; i < c->n; i++)
            t->cand[(*ncand)++] = c->x[i].c0;
    }
    free(c);
    return grown != NULL;
}

/* Calls fn on the c0 of each candidate address of access a of stage k. */
typedef void (*cand_fn)(void *ctx, int64_t c0);

static void for_candidates(const struct weft_t2 *t, unsigned k, unsigned a, cand_fn fn, void *ctx)
{
    const unsigned i = t->first[k] + a;
    for (unsigned j = t->at[i]; j < t->at[i + 1]; j++)
        fn(ctx, t->cand[j]);
}

void weft_t2_free(struct weft_t2 *t)
{
    free(t->first);
    free(t->at);
    free(t->cand);
    t->first = t->at = NULL;
    t->cand = NULL;
}

bool weft_t2_init(struct weft_t2 *t, const struct weft_fp_chain *c, uint64_t group, char *why, size_t why_size)
{
    *t = (struct weft_t2){c, (int64_t)c->global[0], (int64_t)c->global[1], (int64_t)group, NULL, NULL, NULL};
    if (c->work_dim != 2) {
        snprintf(why, why_size, "2-D tiles need a 2-D NDRange");
        return false;
    }
    if (group == 0 || t->W % t->group != 0 || t->W < 2 * t->group) {
        snprintf(why, why_size, "2-D tiles need rows of several groups of %llu work-items", (unsigned long long)group);
        return false;
    }
    for (unsigned b = 0; b < c->nbufs; b++) {
        const struct weft_fp_buffer *B = &c->buf[b];
        if (B->windowed && (B->elem <= 0 || B->stride != B->elem * t->W || (int64_t)B->wsize > B->elem)) {
            snprintf(why, why_size, "buffer %u is not dense row-major over the NDRange", b);
            return false;
        }
    }
    unsigned total = 0;
    for (unsigned k = 0; k < c->nstages; k++)
        total += c->stage[k].nacc;
    t->first = malloc((c->nstages + 1) * sizeof *t->first);
    t->at = malloc((total + 1) * sizeof *t->at);
    if (!t->first || !t->at) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    size_t ncand = 0;
    for (unsigned k = 0, i = 0; k < c->nstages; k++) {
        t->first[k] = i;
        for (unsigned a = 0; a < c->stage[k].nacc; a++, i++) {
            const struct weft_fp_access *x = &c->stage[k].acc[a];
            const struct weft_fp_buffer *B = &c->buf[x->buf];
            t->at[i] = (unsigned)ncand;
            if (B->windowed && !add_candidates(t, &ncand, x, B->elem, B->stride)) {
                snprintf(why, why_size, "buffer %u is read at an address that is not one of its layout", x->buf);
                return false;
            }
        }
    }
    t->first[c->nstages] = total;
    t->at[total] = (unsigned)ncand;
    return true;
}

/* ---- regions ------------------------------------------------------------------------------- */

struct shift_ctx {
    const struct weft_t2 *t;
    const struct weft_fp_buffer *B;
    int64_t e;
    unsigned size;
    const struct weft_t2_rect *from;
    struct weft_t2_rect need;
};

/* The work-items whose writes meet what a read at c0 makes the work-items of ctx->from read:
 * those a linear distance [dlo, dhi] away, taken as whole rows plus a column shift. */
static void add_shift(void *p, int64_t c0)
{
    struct shift_ctx *x = p;
    const int64_t W = x->t->W, d = c0 - x->B->wc0;
    int64_t dlo = weft_fp_floor_div(d - (int64_t)x->B->wsize, x->e) + 1, dhi = weft_fp_ceil_div(d + (int64_t)x->size, x->e) - 1;
    if (dlo > dhi)
        return;
    int64_t q = weft_fp_floor_div(weft_fp_floor_div(dlo + dhi, 2) + W / 2, W);
    struct weft_t2_rect r = {x->from->r0 + q, x->from->r1 + q, x->from->c0 + dlo - q * W, x->from->c1 + dhi - q * W};
    rect_hull(&x->need, &r);
}

void weft_t2_regions(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *tile, struct weft_t2_rect *reg)
{
    const struct weft_fp_chain *c = t->c;
    for (unsigned k = 0; k < K; k++)
        reg[k] = (struct weft_t2_rect){0, 0, 0, 0};
    reg[K - 1] = *tile;
    for (unsigned k = K; k-- > 0;) {
        if (k + 1 < K)
            rect_hull(&reg[k], &reg[k + 1]);
        if (rect_empty(&reg[k]))
            continue;
        for (unsigned i = 0; i < c->stage[k].nacc; i++) {
            const struct weft_fp_access *x = &c->stage[k].acc[i];
            const struct weft_fp_buffer *B = &c->buf[x->buf];
            if (!B->windowed || !(x->kind & WEFT_FP_READ))
                continue;
            struct shift_ctx sc = {t, B, B->elem, x->size, &reg[k], {0, 0, 0, 0}};
            for_candidates(t, k, i, add_shift, &sc);
            for (unsigned j = 0; j < k; j++)
                if (weft_fp_stage_writes(c, j, x->buf))
                    rect_hull(&reg[j], &sc.need);
        }
    }
}

/* What a stage runs for region r, in r's frame: a whole number of groups from its first column
 * (or ending at its last, at the right side of the NDRange); aligned to groups where it wraps
 * into the next row, so that both pieces are whole groups; whole rows (rows grown to cover the
 * wrapped ends) once that is a row wide. */
static struct weft_t2_rect run_set(const struct weft_t2 *t, const struct weft_t2_rect *r)
{
    struct weft_t2_rect x = *r;
    if (rect_empty(&x))
        return x;
    const int64_t W = t->W, g = t->group, width = weft_fp_ceil_div(x.c1 - x.c0, g) * g, q = weft_fp_floor_div(x.c0, W);
    if (width < W && x.c0 - q * W + width <= W) {
        x.c1 = x.c0 + width;
    } else if (width < W && x.c1 - q * W <= W && x.c1 - q * W - width >= 0) {
        x.c0 = x.c1 - width;
    } else {
        x.c0 = weft_fp_floor_div(x.c0, g) * g;
        x.c1 = weft_fp_ceil_div(x.c1, g) * g;
    }
    if (x.c1 - x.c0 >= W) {
        x.r0 += weft_fp_floor_div(x.c0, W);
        x.r1 += weft_fp_ceil_div(x.c1, W) - 1;
        x.c0 = 0;
        x.c1 = W;
    }
    return x;
}

static bool clamp_rows(const struct weft_t2 *t, struct weft_t2_rect *r)
{
    r->r0 = max64(r->r0, 0);
    r->r1 = min64(r->r1, t->R);
    return !rect_empty(r);
}

unsigned weft_t2_pieces(const struct weft_t2 *t, const struct weft_t2_rect *r, struct weft_t2_rect out[2])
{
    struct weft_t2_rect x = run_set(t, r);
    if (rect_empty(&x))
        return 0;
    const int64_t q = weft_fp_floor_div(x.c0, t->W);
    x.r0 += q;
    x.r1 += q;
    x.c0 -= q * t->W;
    x.c1 -= q * t->W;
    unsigned n = 0;
    struct weft_t2_rect a = {x.r0, x.r1, x.c0, min64(x.c1, t->W)};
    if (clamp_rows(t, &a))
        out[n++] = a;
    if (x.c1 > t->W) {   /* the ends that wrap into the next row */
        struct weft_t2_rect b = {x.r0 + 1, x.r1 + 1, 0, x.c1 - t->W};
        if (clamp_rows(t, &b))
            out[n++] = b;
    }
    return n;
}

/* ---- windows and owned bytes ---------------------------------------------------------------- */

struct band_ctx {
    const struct weft_t2_rect *run;
    int64_t e, S;
    unsigned size;
    bool any;
    struct weft_t2_band band;
};

/* The band an access at c0 touches over x->run: the rows of the run moved by the whole rows in
 * c0 (a read of the row above is the band of the row above, not a band a row wider). */
static void add_band(void *p, int64_t c0)
{
    struct band_ctx *x = p;
    const int64_t q = weft_fp_floor_div(c0 + x->S / 2, x->S), r = c0 - q * x->S;
    struct weft_t2_band b = {x->run->r0 + q, x->run->r1 + q, r + x->e * x->run->c0,
                             r + x->e * (x->run->c1 - 1) + (int64_t)x->size};
    if (!x->any) {
        x->band = b;
        x->any = true;
        return;
    }
    x->band.r0 = min64(x->band.r0, b.r0);
    x->band.r1 = max64(x->band.r1, b.r1);
    x->band.lo = min64(x->band.lo, b.lo);
    x->band.hi = max64(x->band.hi, b.hi);
}

bool weft_t2_window(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *reg, unsigned b,
                    struct weft_t2_band *w)
{
    const struct weft_fp_chain *c = t->c;
    struct band_ctx bc = {NULL, c->buf[b].elem, c->buf[b].stride, 0, false, {0, 0, 0, 0}};
    for (unsigned k = 0; k < K; k++) {
        /* in the frame of the tile (not split into pieces), so that the bands of all stages
         * line up; rows beyond the NDRange fall outside the buffer and are clamped away */
        struct weft_t2_rect run = run_set(t, &reg[k]);
        if (rect_empty(&run))
            continue;
        bc.run = &run;
        for (unsigned i = 0; i < c->stage[k].nacc; i++) {
            const struct weft_fp_access *x = &c->stage[k].acc[i];
            if (x->buf != b)
                continue;
            bc.size = x->size;
            for_candidates(t, k, i, add_band, &bc);
        }
    }
    if (!bc.any)
        return false;
    *w = bc.band;
    uint64_t lo, hi;
    return weft_t2_band_range(w, c->buf[b].stride, c->buf[b].size, &lo, &hi);
}

void weft_t2_owned(const struct weft_t2 *t, unsigned b, const struct weft_t2_rect *tile, struct weft_t2_band *o)
{
    const struct weft_fp_buffer *B = &t->c->buf[b];
    const int64_t e = B->elem;
    *o = (struct weft_t2_band){tile->r0, tile->r1, B->wc0 + e * tile->c0, B->wc0 + e * (tile->c1 - 1) + (int64_t)B->wsize};
}

bool weft_t2_band_range(const struct weft_t2_band *band, int64_t stride, uint64_t size, uint64_t *lo, uint64_t *hi)
{
    if (band->r0 >= band->r1 || band->lo >= band->hi)
        return false;
    int64_t l = max64(band->r0 * stride + band->lo, 0), h = min64((band->r1 - 1) * stride + band->hi, (int64_t)size);
    if (l >= h)
        return false;
    *lo = (uint64_t)l;
    *hi = (uint64_t)h;
    return true;
}

/* ---- tiles ------------------------------------------------------------------------------------ */

uint64_t weft_t2_tiles(const struct weft_t2 *t, uint64_t th, uint64_t tw)
{
    return (((uint64_t)t->R + th - 1) / th) * (((uint64_t)t->W + tw - 1) / tw);
}

void weft_t2_tile(const struct weft_t2 *t, uint64_t th, uint64_t tw, uint64_t n, struct weft_t2_rect *tile)
{
    const uint64_t nc = ((uint64_t)t->W + tw - 1) / tw, ri = n / nc, ci = n % nc;
    tile->r0 = (int64_t)(ri * th);
    tile->r1 = min64((int64_t)((ri + 1) * th), t->R);
    tile->c0 = (int64_t)(ci * tw);
    tile->c1 = min64((int64_t)((ci + 1) * tw), t->W);
}

static uint64_t tile_items(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *tile,
                           struct weft_t2_rect *reg)
{
    uint64_t items = 0;
    weft_t2_regions(t, K, tile, reg);
    for (unsigned k = 0; k < K; k++) {
        struct weft_t2_rect p[2];
        unsigned n = weft_t2_pieces(t, &reg[k], p);
        for (unsigned i = 0; i < n; i++)
            items += (uint64_t)((p[i].r1 - p[i].r0) * (p[i].c1 - p[i].c0));
    }
    return items;
}

uint64_t weft_t2_items_run(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw)
{
    struct weft_t2_rect *reg = malloc(K * sizeof *reg), tile;
    uint64_t total = 0, n = weft_t2_tiles(t, th, tw);
    if (!reg)
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        weft_t2_tile(t, th, tw, i, &tile);
        total += tile_items(t, K, &tile, reg);
    }
    free(reg);
    return total;
}

/* Rows beyond tile `tile` that its windows reach, on either side (a band wider than its row
 * reaches one row further). */
static int64_t window_rows(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *tile,
                           struct weft_t2_rect *reg)
{
    int64_t reach = 0;
    weft_t2_regions(t, K, tile, reg);
    for (unsigned b = 0; b < t->c->nbufs; b++) {
        struct weft_t2_band w;
        if (!t->c->buf[b].windowed || !weft_t2_window(t, K, reg, b, &w))
            continue;
        const int64_t S = t->c->buf[b].stride;
        int64_t r0 = w.r0 + weft_fp_floor_div(w.lo, S), r1 = w.r1 - 1 + weft_fp_ceil_div(w.hi, S);
        reach = max64(reach, max64(tile->r0 - r0, r1 - tile->r1));
    }
    return reach;
}

/* The first and last tiles, and the middle tile of the first, middle and last columns: rows and
 * columns clamp at the borders, the middle reaches furthest. */
static void probe_tiles(const struct weft_t2 *t, uint64_t th, uint64_t tw, uint64_t probe[5])
{
    const uint64_t n = weft_t2_tiles(t, th, tw), nc = ((uint64_t)t->W + tw - 1) / tw, nr = n / nc;
    probe[0] = 0;
    probe[1] = n - 1;
    probe[2] = nr / 2 * nc;
    probe[3] = nr / 2 * nc + nc / 2;
    probe[4] = nr / 2 * nc + nc - 1;
}

void weft_t2_margin(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw, unsigned b, int64_t *rows,
                    int64_t *bytes)
{
    struct weft_t2_rect *reg = malloc(K * sizeof *reg), tile;
    uint64_t probe[5];
    const int64_t S = t->c->buf[b].stride;
    *rows = *bytes = 0;
    if (!reg) {
        *rows = t->R;
        *bytes = S;
        return;
    }
    probe_tiles(t, th, tw, probe);
    for (int i = 0; i < 5; i++) {
        struct weft_t2_band w, o;
        weft_t2_tile(t, th, tw, probe[i], &tile);
        weft_t2_regions(t, K, &tile, reg);
        if (!weft_t2_window(t, K, reg, b, &w))
            continue;
        weft_t2_owned(t, b, &tile, &o);
        if (w.hi - w.lo >= S) {   /* a window of whole rows: everything is near */
            *rows = t->R;
            *bytes = S;
            break;
        }
        *rows = max64(*rows, max64(o.r0 - w.r0, w.r1 - o.r1));
        *bytes = max64(*bytes, max64(o.lo - w.lo, w.hi - o.hi));
    }
    free(reg);
}

uint64_t weft_t2_reach(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw)
{
    struct weft_t2_rect *reg = malloc(K * sizeof *reg), tile;
    const uint64_t n = weft_t2_tiles(t, th, tw), nc = ((uint64_t)t->W + tw - 1) / tw;
    if (!reg)
        return n;
    uint64_t probe[5];
    probe_tiles(t, th, tw, probe);
    int64_t rows = 0;
    for (int i = 0; i < 5; i++) {
        weft_t2_tile(t, th, tw, probe[i], &tile);
        rows = max64(rows, window_rows(t, K, &tile, reg));
    }
    free(reg);
    /* a window reaching `rows` rows meets tiles up to ceil(rows / th) tile rows away, in any
     * column (the wrapped ends of rows reach the other side) */
    return ((uint64_t)rows + th - 1) / th * nc + nc - 1;
}
