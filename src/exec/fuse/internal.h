/* exec/fuse/internal.h — what the two halves of the fused run share: fuse.c plans a chain
 * and runs its tiles one per thread, fuse/hot.c runs them as level-1 tiles, each by the team of
 * threads of one cache domain. Not for other modules. */
#ifndef WEFT_EXEC_FUSE_INTERNAL_H
#define WEFT_EXEC_FUSE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/fuse/fuse.h"
#include "exec/fuse/cost.h"
#include "exec/fuse/plan.h"
#include "exec/fuse/tile2d.h"
#include "weft/abi.h"

/* What fuse.c needs of one launch, from its description (exec/launch.h). */
struct weft_fuse_stage {
    const struct weft_launch_desc *launch;   /* its kernel's ops, its memory objects */
    const struct weft_kernel_meta *meta;
    uint64_t code;                         /* names the kernel's code (weft_kernel_ops.code_key) */
    const unsigned char *block;            /* the packed argument block */
    unsigned work_dim;
    uint64_t global[3], offset[3], local[3];   /* unused dimensions: 1, 0, 1 */
    const char *name;
};

#define MAX_BUFS WEFT_FP_MAX_BUFS
#define MAX_STAGES WEFT_FUSE_MAX_CHAIN
#define MAX_PATCHES 16u

/* A tile's private copies of the windowed buffers (its windows), recycled across tiles. */
struct wset {
    char *mem[MAX_BUFS];
    size_t cap[MAX_BUFS];
    char *ptr[MAX_BUFS];        /* where byte `lo` of the buffer lives, or NULL: no window */
    uint64_t lo[MAX_BUFS];
    unsigned char *args;        /* a stage's argument block, pointers rebased onto the windows */
    size_t args_cap;
    struct wset *next;
};

/* One region of equal work-groups of a stage: which dimensions are the remainder group. */
struct fpart {
    weft_wg_fn fn;
    uint64_t local[3];
};

struct fstage {
    struct weft_fuse_stage s;
    struct weft_fp_access *acc;
    struct weft_fp_node *nodes;        /* the addresses of its choosing reads */
    unsigned npatch;
    struct { size_t offset; unsigned buf; } patch[MAX_PATCHES];   /* pointer args into windows */
    uint64_t flocal[3];                /* the enqueued local size the fused run uses */
    struct fpart part[8];              /* by mask of remainder dimensions; fn NULL: none */
    struct fpart wide;                 /* 1-D: groups of FUSED_WIDE_1D that run first from the
                                        * start of a region (fn NULL: none) */
};

/* A tile's results whose write-back waits for a neighbour to fill its windows: what the tile
 * owns of each windowed buffer, packed (its window set goes back to be reused at once; with 2-D
 * tiles dozens of tiles wait, and their windows span many rows). */
struct pending {
    uint64_t tile;
    unsigned mask;          /* the windowed buffers packed, by index */
    char *data;
    size_t cap;
    struct pending *next;
};

struct weft_fusion {
    struct fstage st[MAX_STAGES];      /* chain.nstages of them */
    struct weft_fp_stage fpst[MAX_STAGES];
    struct weft_fp_buffer buf[MAX_BUFS];
    char *base[MAX_BUFS];
    struct weft_fp_chain chain;
    struct weft_cost_key key;          /* what its runs are measured under (fuse/cost.h) */
    uint64_t t_prepare;                /* when weft_fuse_prepare began planning it (weft_now_ns) */
    uint64_t tile, tiles, reach;       /* rows per tile, tiles, neighbours a window may reach */
    bool cols;                         /* 2-D tiles of `tile` rows and `ctile` columns (t2) */
    uint64_t ctile;
    struct weft_t2 t2;
    uint64_t row_items;                /* work-items per row */
    /* per windowed buffer: how far other tiles' windows reach into what a tile owns (rows from
     * its top and bottom, bytes from its sides); only that part of a tile's results waits */
    int64_t margin_rows[MAX_BUFS], margin_bytes[MAX_BUFS];
    size_t args_max, scratch;
    atomic_uchar *copied;              /* per tile: its windows are filled */
    pthread_mutex_t lock;
    struct pending *deferred;          /* tiles whose write-back waits for a neighbour */
    struct pending *spare;             /* packed copies to reuse */
    _Atomic uint64_t items_run;
    atomic_bool failed;
    /* hierarchical overlapped tiling (fuse/hot.c): with teams > 0, tiles are level-1 tiles run
     * each by the team of one cache domain, claimed in order from next_tile */
    unsigned teams;
    struct fuse_team *team;
    _Atomic uint64_t next_tile;
};

/* One stage's region of a tile: rows [a, b) x columns [u, v) (all columns without 2-D tiles). */
struct piece {
    uint64_t a, b, u, v;
};

/* What fuse_band_copy does with a band. */
enum fuse_copy { COPY_IN, COPY_OUT, PACK, UNPACK, MEASURE };

/* Window sets, recycled across tiles and runs (NULL when out of memory). */
struct wset *fuse_wset_get(void);
void fuse_wset_put(struct wset *w);
/* Room for `bytes` of buffer b whose first byte has the 64-byte phase of `phase_of`. */
char *fuse_wset_room(struct wset *w, unsigned b, size_t bytes, uintptr_t phase_of);
/* A window set with room for a tile's windows win[] (has[b]: buffer b has one; w->ptr[b] and
 * w->lo[b] set, the windows not filled; hi_out[b], when given, the end of buffer b's window, 0
 * without one) and for a stage's argument block (w->args); NULL when out of memory. */
struct wset *fuse_open_windows(const struct weft_fusion *f, const struct weft_t2_band *win, const bool *has,
                               uint64_t *hi_out);

/* The pieces each stage runs for tile t and the bands of its windows per windowed buffer. */
void fuse_plan_tile(const struct weft_fusion *f, uint64_t t, struct piece (*piece)[2], unsigned *npiece,
                    struct weft_t2_band *win, bool *has);
/* Copies `band` of buffer b between the buffer, the window `win` (holding byte `wlo` at its
 * start) and `packed`; returns the bytes. */
size_t fuse_band_copy(const struct weft_fusion *f, unsigned b, const struct weft_t2_band *band, char *win,
                      uint64_t wlo, char *packed, enum fuse_copy how);
/* Stage k's argument block into `args`, its buffer arguments pointed at the windows of w. */
void fuse_stage_args(const struct weft_fusion *f, const struct wset *w, unsigned k, unsigned char *args);
/* Runs rows [a, b) of stage st (columns [u, v) with 2-D tiles). */
void fuse_run_region(const struct fstage *st, const void *args, const struct weft_wg_ctx *wctx, uint64_t a,
                     uint64_t b, bool cols, uint64_t u, uint64_t v);

/* Whether every tile whose windows may reach what tile t owns has filled them. */
bool fuse_neighbours_copied(struct weft_fusion *f, uint64_t t);
/* What tile t owns of buffer b; and that split into what no other window reads (*core) and
 * the border (returned count of bands). */
void fuse_tile_owned(const struct weft_fusion *f, unsigned b, uint64_t t, struct weft_t2_band *o);
unsigned fuse_split_owned(const struct weft_fusion *f, unsigned b, uint64_t t, struct weft_t2_band *core,
                          struct weft_t2_band border[4]);
/* What tile t writes back of each windowed buffer now (now[b]; empty without a window): all it
 * owns once the neighbours whose windows reach it have filled them, else the part no other
 * window reads. True when the rest must wait (fuse_defer_border). */
bool fuse_write_now(struct weft_fusion *f, const struct wset *w, uint64_t t, struct weft_t2_band *now);
/* Packs tile t's border and queues it; writes back the queued borders whose neighbours have
 * filled their windows (all when `all`). */
void fuse_defer_border(struct weft_fusion *f, const struct wset *w, uint64_t t);
void fuse_flush_deferred(struct weft_fusion *f, bool all);

/* fuse/hot.c: allocates the teams of a plan with f->teams set (false: out of memory), frees
 * them, and the pool's work-group function of such a run (each "group" is a thread joining). */
bool fuse_hot_init(struct weft_fusion *f);
void fuse_hot_free(struct weft_fusion *f);
void fuse_hot_worker(const void *arg, const struct weft_wg_ctx *wctx, uint64_t first, uint64_t count);

#endif
