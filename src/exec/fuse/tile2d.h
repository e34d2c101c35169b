/* exec/fuse/tile2d.h — 2-D tiles (rows x columns) for chains on 2-D NDRanges, for rows too
 * wide for row tiles (fuse/plan.h) to fit the cache: 2-D Jacobi on 8192² has 64 KiB of two
 * arrays per row, so a 1 MiB tile of rows is all halo. Used when WEFT_FUSE_COLS asks for them:
 * on the 2-core EPYC they were measured on, they ran slower than row tiles spilling to the L3
 * (docs/PERFORMANCE.md). Like fuse/plan.h it holds no OpenCL objects, so unit tests drive it
 * with numbers.
 *
 * Model. The NDRange is W columns (dimension 0) by R rows (dimension 1). Every buffer the chain
 * writes is dense row-major over it: its accesses are c0 + e * (i1 * W + i0) bytes (row stride
 * S = W * e, fuse/plan.h's layout with coef = {e, S}), and a work-item writes at most its own e
 * bytes. Then a read at byte offset d from the writes meets the writes of the work-items a fixed
 * linear distance away, whichever row they are in, and a rectangle of work-items taken in
 * row-major order ("linear rectangle": rows [r0, r1) x columns [c0, c1), column -1 of row r being
 * column W-1 of row r-1) shifted by such a distance is a linear rectangle again. Regions are
 * linear rectangles, propagated backwards from the tile as in fuse/plan.h (each stage runs its
 * successor's region plus what later stages read of buffers it writes); they are exact sets, so
 * the reads at the ends of rows that wrap into the next (a 1-D stencil over a 2-D range) are
 * planned like any other.
 *
 * A stage runs its region rounded up to whole work-groups of `group` columns, counted from its
 * first column (the rounding is not propagated: the extra work-items write nothing a later stage
 * reads or a tile owns), as at most two pieces of plain rectangles; a piece need not start at a
 * multiple of the group. Windows hold, for every row of their range, one byte band
 * at the same place in the row, so a tile's private copies take few cache lines per row whatever
 * its column. Reads whose address chooses among candidates (select, min, max) take part when
 * every candidate is an address of the layout: the read is one of them. */
#ifndef WEFT_EXEC_FUSE_TILE2D_H
#define WEFT_EXEC_FUSE_TILE2D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/fuse/plan.h"

/* Rows [r0, r1) x columns [c0, c1) of the NDRange in row-major order; empty when r0 >= r1. */
struct weft_t2_rect {
    int64_t r0, r1, c0, c1;
};

/* Bytes [i * stride + lo, i * stride + hi) of every row i in [r0, r1), clamped to the buffer
 * (a window, or what a tile owns). */
struct weft_t2_band {
    int64_t r0, r1, lo, hi;
};

struct weft_t2 {
    const struct weft_fp_chain *c;   /* analysed (weft_fp_analyze); each windowed buffer's elem is
                                      * e, its bytes per work-item */
    int64_t W, R;                    /* columns, rows */
    int64_t group;                   /* columns a stage's pieces round to */
    /* the candidate addresses (their c0) of every access to a windowed buffer, found once: those
     * of access a of stage k are cand[at[first[k] + a]] up to cand[at[first[k] + a + 1]] */
    unsigned *first, *at;
    int64_t *cand;
};

/* Whether chain c (after weft_fp_analyze) fits the model with work-groups `group` columns wide;
 * fills *t. False with a reason otherwise. Either way weft_t2_free releases *t. */
bool weft_t2_init(struct weft_t2 *t, const struct weft_fp_chain *c, uint64_t group, char *why, size_t why_size);
void weft_t2_free(struct weft_t2 *t);

/* The region each of the first K stages needs for tile `tile` (columns within [0, W)). */
void weft_t2_regions(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *tile, struct weft_t2_rect *reg);
/* The plain rectangles (at most two) a stage runs for region r: whole groups, rows clamped to
 * the NDRange. Returns how many, each with columns within [0, W). */
unsigned weft_t2_pieces(const struct weft_t2 *t, const struct weft_t2_rect *r, struct weft_t2_rect out[2]);
/* The window of windowed buffer b for regions reg[0..K): the bytes the stages' pieces touch
 * (false: none). A band at least a row wide is one contiguous range. */
bool weft_t2_window(const struct weft_t2 *t, unsigned K, const struct weft_t2_rect *reg, unsigned b,
                    struct weft_t2_band *w);
/* What tile `tile` owns of windowed buffer b: the bytes its own work-items write. */
void weft_t2_owned(const struct weft_t2 *t, unsigned b, const struct weft_t2_rect *tile, struct weft_t2_band *o);
/* The byte range [*lo, *hi) of a band, clamped to a buffer of `size` bytes with rows `stride`
 * bytes apart (false when empty). */
bool weft_t2_band_range(const struct weft_t2_band *band, int64_t stride, uint64_t size, uint64_t *lo, uint64_t *hi);

/* Tile number n of the grid of th x tw tiles, in row-major order of tiles. */
void weft_t2_tile(const struct weft_t2 *t, uint64_t th, uint64_t tw, uint64_t n, struct weft_t2_rect *tile);
uint64_t weft_t2_tiles(const struct weft_t2 *t, uint64_t th, uint64_t tw);
/* Work-items the first K stages run over all tiles (K * W * R + the redundant ones). */
uint64_t weft_t2_items_run(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw);
/* How many tiles before or after tile n (row-major order) a tile's windows may reach into. */
uint64_t weft_t2_reach(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw);
/* How far a tile's window of windowed buffer b reaches beyond what the tile owns, at most: *rows
 * rows above or below, *bytes bytes left or right in a row. What a tile owns further than that
 * from its sides, no other tile's window reads. */
void weft_t2_margin(const struct weft_t2 *t, unsigned K, uint64_t th, uint64_t tw, unsigned b, int64_t *rows,
                    int64_t *bytes);
#endif
