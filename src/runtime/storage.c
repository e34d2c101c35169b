/* runtime/storage.c — the memory behind the buffers and images Weft allocates (storage.h).
 *
 * Guarantees:
 *   - Storage comes zeroed: a new buffer never shows what a released one held, in this
 *     context or another. OpenCL leaves a new buffer's contents undefined, but applications
 *     read buffers they never wrote (pyFAI's CSR integrator failed in 17 of 20 runs on a heap
 *     chunk a released buffer had used; pocl's new buffers come zeroed), and recycled memory
 *     would show one context's data to the next.
 *   - Storage of STORAGE_MAP_MIN bytes or more is mapped fresh (mmap) and unmapped when freed,
 *     never recycled by the C heap (whose mmap threshold grows after such frees): its pages are
 *     zero-filled by the kernel on first touch, by the thread that touches them first (so they
 *     land on that thread's NUMA node), with no pass over memory here. From HUGE_PAGE_MIN on it
 *     is aligned to 2 MiB and advised onto transparent huge pages: a first write then faults
 *     once per 2 MiB instead of once per 4 KiB, and kernels striding through it (a column per
 *     work-item) do not miss the TLB on almost every access.
 *   - Smaller storage comes from the C heap, WEFT_MEM_ALIGN-aligned and cleared with memset.
 *   - The size decides which kind a block is, so weft_storage_free needs only the size given to
 *     weft_storage_alloc.
 *   - NUMA placement. Pages land on the node of the thread that touches them first, so a
 *     buffer is placed by its first writer. A 1-D launch gives each thread the same part of its
 *     groups launch after launch, and the threads of a node own adjacent parts (exec/numa.h):
 *     when the kernel writes the buffer first, each node's piece of it lands on that node with
 *     nothing done here. When the host writes first (clEnqueueWriteBuffer, a fill, a copy,
 *     CL_MEM_COPY_HOST_PTR), weft_storage_write_placed has the pool's threads write the same
 *     parts of the pages, where the threads span several nodes and the write is large. What
 *     this cannot place: buffers whose launches walk them otherwise (2-D grids, which the pool
 *     hands out node-blind; transposed or indirect accesses; fewer groups than threads), host
 *     writes below WEFT_STORAGE_PLACED_MIN, and a write of part of a buffer as a launch over
 *     the whole buffer would touch it: the write is cut by its own span (only dst and size are
 *     known here), as if it were a buffer of its own. Placement itself is not tested (no
 *     multi-node machine here); the parts are, on hwloc's synthetic topologies.
 */
#define _GNU_SOURCE
#include "runtime/storage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exec/pool.h"
#include "exec/topology.h"
#include "runtime/mem.h"

#define STORAGE_MAP_MIN ((size_t)64 << 10)
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_PAGE_MIN ((size_t)4 << 20)

/* The bytes a block of `size` takes: its size rounded up to its alignment; 0 when that wraps. */
static size_t padded_size(size_t size, size_t *align)
{
    *align = size >= HUGE_PAGE_MIN ? HUGE_PAGE : size >= STORAGE_MAP_MIN ? 4096 : WEFT_MEM_ALIGN;
    size_t padded = (size + *align - 1) & ~(*align - 1);
    return padded >= size ? padded : 0;
}

void *weft_storage_alloc(size_t size)
{
    size_t align, padded = padded_size(size ? size : 1, &align);
    if (!padded)
        return NULL;
    if (size < STORAGE_MAP_MIN) {
        void *p = aligned_alloc(align, padded);
        if (p)
            memset(p, 0, padded);
        return p;
    }
    /* over-map by the alignment and trim both ends, so the block is exactly [p, p + padded) */
    size_t extra = align > 4096 ? align : 0;
    if (padded > SIZE_MAX - extra)
        return NULL;
    char *m = mmap(NULL, padded + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
    if (p > m)
        munmap(m, (size_t)(p - m));
    if (m + padded + extra > p + padded)
        munmap(p + padded, (size_t)(m + padded + extra - (p + padded)));
    if (align == HUGE_PAGE)
        madvise(p, padded, MADV_HUGEPAGE);
    return p;
}

void weft_storage_free(void *p, size_t size)
{
    if (!p)
        return;
    size_t align, padded = padded_size(size ? size : 1, &align);
    if (size < STORAGE_MAP_MIN)
        free(p);
    else
        munmap(p, padded);
}

/* ---- first writes placed by the pool's threads ----------------------------------------- */

#define PLACED_PAGE ((size_t)4096)

struct placed {
    size_t size;
    void (*piece)(const void *arg, size_t offset, size_t n);
    const void *arg;
};

/* The "work-group function" of a placed write: group g is page g. */
static void placed_pages(const void *args, const struct weft_wg_ctx *ctx, uint64_t first, uint64_t count)
{
    (void)ctx;
    const struct placed *p = args;
    size_t off = (size_t)first * PLACED_PAGE, end = (size_t)(first + count) * PLACED_PAGE;
    p->piece(p->arg, off, (end < p->size ? end : p->size) - off);
}

bool weft_storage_write_placed(size_t size, void (*piece)(const void *arg, size_t offset, size_t n), const void *arg)
{
    /* The topology first: on one node this never starts the pool. */
    if (size < WEFT_STORAGE_PLACED_MIN || weft_topology_get()->numa_nodes < 2 || weft_pool_numa_nodes() < 2)
        return false;
    struct placed p = {.size = size, .piece = piece, .arg = arg};
    uint64_t pages = (size + PLACED_PAGE - 1) / PLACED_PAGE;
    /* One row of groups, so that the pool splits it into its threads' ranges as it splits a
     * 1-D launch's (no max_chunk: that would make it one shared range). */
    struct weft_launch launch = {.fn = placed_pages, .args = &p, .ctx = {.work_dim = 1}, .total_groups = pages};
    for (int d = 0; d < 3; d++) {
        launch.ctx.global_size[d] = launch.ctx.num_groups[d] = d == 0 ? pages : 1;
        launch.ctx.local_size[d] = 1;
    }
    return weft_pool_run(&launch) == 0;   /* -1: nothing ran, the caller writes */
}

struct copy_args {
    char *dst;
    const char *src;
};

static void copy_piece(const void *arg, size_t offset, size_t n)
{
    const struct copy_args *c = arg;
    memcpy(c->dst + offset, c->src + offset, n);
}

bool weft_storage_copy_placed(void *dst, const void *src, size_t size)
{
    return weft_storage_write_placed(size, copy_piece, &(struct copy_args){dst, src});
}
