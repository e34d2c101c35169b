/* exec/fuse/plan.h — the geometry of overlapped tiling for a chain of launches (Zhou et al.,
 * seed-notes 003-004 B.2.3 and B.2.9-B.2.12), with no OpenCL objects in it so that unit tests
 * can drive it with numbers.
 *
 * Model. K stages (launches) share one NDRange. Tiles cut it along its outermost dimension D
 * ("rows"; dimension 0 of a 1-D range). Every access of a stage is a byte offset into a buffer
 * that is affine in the work-item's 0-based index i: c0 + sum_d coef[d] * i[d] (global offsets
 * folded into c0). A buffer that some stage writes is "windowed": each tile works on a private
 * copy of the byte range it touches (its window), so tiles never see each other's redundant
 * work; buffers only read are read in place.
 *
 * For a windowed buffer every access must use the buffer's row layout: the same coef[] (so a
 * row of work-items touches one contiguous byte band, rows at stride S = coef[D]), every write
 * at the same c0 and size, and one row's band of writes no wider than S, so that the owned
 * ranges of different tiles never overlap. A row's band of writes counts only the work-items
 * that may write (items[]): a 2-D NDRange padded past the data writes no further than the
 * data's row; reads, windows and regions keep the whole NDRange's band (a superset).
 *
 * Regions (Zhou's symbolic tiling, Fig. 7, with clamping): the last stage runs the tile's own
 * rows; going backwards, each stage runs its successor's rows plus the rows that produce what
 * any later stage reads of a buffer it writes, rounded out to `align` rows and clamped to the
 * NDRange. Every earlier writer of a buffer is enlarged, not only the last one (conservative,
 * as in the paper).
 *
 * Choosing reads. A read whose address is a select, min or max of affine candidates (HotSpot's
 * clamped neighbours; compiler/analysis/access.h) carries its address as an expression
 * (struct weft_fp_node) instead of coef/c0. Reads need only a conservative footprint: over
 * rows [a, z) it is what interval arithmetic over the expression gives, with the work-items of
 * those rows as the box (exact for a min/max of a monotone candidate, the hull of the
 * candidates for a select). Such reads take no part in the layout rules; writes are always
 * affine. */
#ifndef WEFT_EXEC_FUSE_PLAN_H
#define WEFT_EXEC_FUSE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { WEFT_FP_READ = 1u, WEFT_FP_WRITE = 2u };

/* Operations of a choosing read's address: LEAF is c0 + sum coef[d] * i[d]; ANY is x or y (not
 * known which); DIV divides exactly by the constant leaf y. */
enum weft_fp_op {
    WEFT_FP_LEAF, WEFT_FP_ADD, WEFT_FP_MUL, WEFT_FP_DIV, WEFT_FP_ANY,
    WEFT_FP_SMIN, WEFT_FP_SMAX, WEFT_FP_UMIN, WEFT_FP_UMAX,
};

struct weft_fp_node {
    unsigned op;            /* enum weft_fp_op */
    unsigned x, y;          /* operands: indices of other nodes of the same array */
    int64_t coef[3];        /* LEAF */
    int64_t c0;
};

struct weft_fp_access {
    unsigned buf;           /* index into the chain's buffers */
    unsigned kind;          /* WEFT_FP_READ or WEFT_FP_WRITE */
    unsigned size;          /* bytes */
    int64_t coef[3];        /* bytes per step of the 0-based index in each dimension */
    int64_t c0;             /* bytes at index 0 (global offsets folded in) */
    const struct weft_fp_node *node;   /* a choosing read: its address is node[root] (coef and */
    unsigned root;                     /* c0 unused); NULL for an affine access */
    /* An affine access: only work-items whose 0-based index in dimension d is below items[d]
     * run it (a guard such as `if (x >= nx) return;` in an NDRange padded past the data;
     * analysis/access.h's below[]); 0 for every work-item of the dimension. */
    uint64_t items[3];
};

struct weft_fp_stage {
    unsigned nacc;
    const struct weft_fp_access *acc;
};

struct weft_fp_buffer {
    uint64_t size;          /* bytes of the buffer */
    /* filled by weft_fp_analyze: */
    bool windowed;          /* some stage writes it */
    int64_t stride;         /* S: bytes between rows of its layout */
    int64_t wc0;            /* the writes' c0 */
    unsigned wsize;         /* the writes' size */
    int64_t inner_lo, inner_hi;  /* bytes one row's inner dimensions span: [inner_lo, inner_hi] */
    int64_t winner_lo, winner_hi;   /* ... of the writes alone, which a guard may narrow (items[]):
                                     * what a tile owns */
    int64_t elem;           /* bytes per step of dimension 0 in its layout (its coef[0]) */
};

struct weft_fp_chain {
    unsigned work_dim;      /* 1..3 */
    uint64_t global[3];     /* work-items per dimension (1 beyond work_dim) */
    uint64_t align;         /* regions start at multiples of it and end at one or at the last row */
    unsigned nstages;
    const struct weft_fp_stage *stage;
    unsigned nbufs;
    struct weft_fp_buffer *buf;
};

/* The bytes [*lo, *hi) read x (of buffer b) may touch over rows [a, z) (z > a), unclamped; for
 * a choosing read whose interval overflows, the whole buffer. */
void weft_fp_access_range(const struct weft_fp_chain *c, unsigned b, const struct weft_fp_access *x, uint64_t a,
                          uint64_t z, int64_t *lo, int64_t *hi);

/* Integer division rounding towards minus and plus infinity (b > 0). */
static inline int64_t weft_fp_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline int64_t weft_fp_ceil_div(int64_t a, int64_t b)
{
    return -weft_fp_floor_div(-a, b);
}

/* Whether stage k writes buffer b. */
static inline bool weft_fp_stage_writes(const struct weft_fp_chain *c, unsigned k, unsigned b)
{
    for (unsigned a = 0; a < c->stage[k].nacc; a++)
        if (c->stage[k].acc[a].buf == b && (c->stage[k].acc[a].kind & WEFT_FP_WRITE))
            return true;
    return false;
}

/* The outermost dimension (rows) and the number of rows. */
static inline unsigned weft_fp_outer(const struct weft_fp_chain *c) { return c->work_dim - 1; }
static inline uint64_t weft_fp_rows(const struct weft_fp_chain *c) { return c->global[c->work_dim - 1]; }

/* Checks the layout rules above and fills the buffers' layout fields. False with a reason when
 * the chain cannot be tiled. A chain where no stage reads what an earlier one wrote has nothing
 * to gain and is refused too. */
bool weft_fp_analyze(struct weft_fp_chain *c, char *why, size_t why_size);

/* The most stages the functions below take. */
#define WEFT_FP_MAX_STAGES 64u
/* ... and at most this many buffers (weft_fp_analyze refuses more) */
#define WEFT_FP_MAX_BUFS 16u

/* The rows [rlo[k], rhi[k]) each of the first `nstages` (<= WEFT_FP_MAX_STAGES) stages runs for
 * the tile of rows [t_lo, t_hi) of the last of them. */
void weft_fp_regions(const struct weft_fp_chain *c, unsigned nstages, uint64_t t_lo, uint64_t t_hi,
                     uint64_t *rlo, uint64_t *rhi);
/* The bytes [*lo, *hi) of windowed buffer b the stages touch in those regions (clamped to the
 * buffer); false when they touch none. */
bool weft_fp_window(const struct weft_fp_chain *c, unsigned nstages, const uint64_t *rlo, const uint64_t *rhi,
                    unsigned b, uint64_t *lo, uint64_t *hi);
/* The bytes [*lo, *hi) of windowed buffer b that the tile of rows [t_lo, t_hi) owns: what its
 * rows write (clamped to the buffer). Tiles that partition the rows own disjoint ranges. */
void weft_fp_owned(const struct weft_fp_chain *c, unsigned b, uint64_t t_lo, uint64_t t_hi, uint64_t *lo,
                   uint64_t *hi);
/* Rows run over all tiles and the first `nstages` stages when tiles are `tile` rows
 * (the last one shorter): K * rows + the redundant rows. */
uint64_t weft_fp_rows_run(const struct weft_fp_chain *c, unsigned nstages, uint64_t tile);
/* How many rows beyond its own a tile's windows reach, at most, on either side (in tiles of
 * `tile` rows: the neighbours whose owned ranges a tile's windows may overlap). */
uint64_t weft_fp_reach(const struct weft_fp_chain *c, unsigned nstages, uint64_t tile);

/* How many bytes beyond what it owns of windowed buffer b, at most, a tile's window reaches on
 * either side: what a tile owns further than that from its ends, no other tile's window reads. */
int64_t weft_fp_margin(const struct weft_fp_chain *c, unsigned nstages, uint64_t tile, unsigned b);

/* Zhou's equation 6 on one interior tile of `tile` rows: the largest K <= c->nstages such that
 * adding each stage up to K cost fewer extra redundant rows per tile (dRC(k)/Q) than
 * tile * ratio. */
unsigned weft_fp_depth(const struct weft_fp_chain *c, uint64_t tile, double ratio);

/* Bytes one row touches across the buffers (after weft_fp_analyze): the row stride of every
 * windowed buffer plus, once per other buffer, the largest row step of its affine reads. */
uint64_t weft_fp_row_bytes(const struct weft_fp_chain *c);

/* Tiling choice. `row_bytes`: bytes one row touches across the windowed and read buffers;
 * `budget`: bytes a tile's working set may take (a share of the cache); `threads`. `ratio`:
 * t_s/t_c of Zhou's equation 6 per row: what one stage of one row costs streamed from memory
 * over what it costs in cache, minus one (the saving of one fused stage per row). Chooses the
 * depth K <= c->nstages (Zhou's rule: stop adding stages once the extra redundant rows per tile
 * times the in-cache cost reach what the stage saves: dRC(k)/Q >= tile * ratio) and the tile
 * rows: what fits the budget with its halo (half the budget when that still leaves 6 reaches
 * of the windows), but at least 6 reaches when that stays within 8 budgets (else 3), and at
 * least two tiles per thread. K = 1 means: do not fuse. */
void weft_fp_choose(const struct weft_fp_chain *c, uint64_t row_bytes, uint64_t budget, unsigned threads,
                    double ratio, unsigned *depth, uint64_t *tile);

/* The two-level form (one tile per team in a shared cache, fuse/hot.c) saves what the one-level
 * plan's small tiles redo: their redundant rows, and the stages beyond their depth. Where the
 * one-level plan (`depth`, `tile`: weft_fp_choose's) fuses all of c's stages and redoes less
 * than this share of its rows, two levels can only add their per-stage barriers (16-core Xeon,
 * 1-D Jacobi K=64, one level redoing 0.4 %: 23.8 ms a chain with one level, 32.6 with two). */
#define WEFT_FP_TWO_LEVELS_MIN_REDUNDANT 0.03
/* Whether two levels may pay over that one-level plan (so that measuring them is worth runs). */
bool weft_fp_two_levels_may_pay(const struct weft_fp_chain *c, unsigned depth, uint64_t tile);
/* The rows an interior tile of `tile` rows redoes over `depth` stages, as a share of the rows it
 * owns times the depth (equation 6's dRC(K) / (K Q)). */
double weft_fp_redundant_share(const struct weft_fp_chain *c, unsigned depth, uint64_t tile);

#endif
