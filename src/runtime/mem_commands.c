/* runtime/mem_commands.c — the buffer commands: read, write, copy, fill (and their Rect
 * forms), map/unmap and migrate.
 *
 * Guarantees:
 *   - Every entry point validates its arguments in the order of the OpenCL 3.0 error lists
 *     before anything is enqueued; range checks are overflow-safe (`size <= total - offset`),
 *     so no combination of offsets, pitches and regions can reach outside a buffer.
 *   - Commands are made and enqueued only through runtime/queue.h. A command holds the buffers
 *     it touches (weft_object_hold) until it has completed or was discarded, so releasing a
 *     buffer with commands pending is safe.
 *   - A sub-buffer's origin is applied once, through its data pointer (parent data + origin).
 *   - The device is the host CPU: read/write/copy are memcpy (glibc picks non-temporal stores
 *     for large sizes), fill replicates the pattern into an L1-resident block that is then
 *     copied, and large transfers are split into 1 MiB pieces that the worker pool's threads
 *     claim one at a time, since one core alone cannot saturate the memory bus; where the
 *     pool's threads span several NUMA nodes, each writes its own part instead (storage.h).
 *     Map/unmap/migrate move no data at all: a mapping is the buffer's own storage plus the
 *     offset (for CL_MEM_USE_HOST_PTR buffers, host_ptr + offset).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exec/pool.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/queue.h"
#include "runtime/storage.h"

/* ---- payloads and run functions ------------------------------------------------------------ */

struct mem_cmd {
    cl_mem held[2];             /* buffers this command holds (NULL when unused); first, see
                                 * weft_mem_command_new */
    char *dst;
    const char *src;
    size_t size;                /* linear commands: bytes */
    size_t region[3];           /* rect commands: bytes x rows x slices */
    size_t src_row, src_slice, dst_row, dst_slice;
    size_t pattern_size;        /* fill */
    unsigned char pattern[128];
};

struct migrate_cmd {
    cl_uint count;
    cl_mem mems[];              /* held */
};

/* Copies n bytes; the source and the destination may be the same (reading a USE_HOST_PTR
 * buffer into its own host_ptr is allowed) or, for distinct buffers sharing host memory,
 * overlap, which the specification leaves undefined but must not corrupt memory. */
static void copy_bytes(char *dst, const char *src, size_t n)
{
    if (dst != src && n)
        memmove(dst, src, n);
}

/* ---- bulk transfers: split over the worker pool ---------------------------------------- */

#define BULK_PIECE ((size_t)1 << 20)    /* bytes per piece; a multiple of every pattern size */
#define BULK_MIN ((size_t)8 << 20)      /* below this, waking the workers costs more than it buys */

struct bulk {
    char *dst;
    const char *src;                    /* copy; NULL for a fill */
    size_t size;
    const unsigned char *block;         /* fill: whole patterns, block_size bytes */
    size_t block_size;
    atomic_size_t *next_piece;          /* pieces are claimed one at a time from here */
};

/* Fills n bytes (a multiple of the pattern size) with copies of `block`. */
static void fill_block(char *dst, size_t n, const unsigned char *block, size_t block_size)
{
    size_t done = 0;
    while (n - done >= block_size) {
        memcpy(dst + done, block, block_size);
        done += block_size;
    }
    memcpy(dst + done, block, n - done);
}

static void bulk_piece(const struct bulk *b, size_t off, size_t n)
{
    if (b->src)
        memcpy(b->dst + off, b->src + off, n);
    else
        fill_block(b->dst + off, n, b->block, b->block_size);
}

/* The "work-group function" of a bulk launch. A launch has one group per pool thread, and each
 * group claims 1 MiB pieces one at a time from a shared counter until none is left. So a
 * thread that is slow to wake, or shares its core with another process, holds up at most one
 * piece at the end, instead of a large chunk the pool's guided schedule would have handed it. */
static void bulk_range(const void *args, const struct weft_wg_ctx *ctx, uint64_t first,
                       uint64_t count)
{
    (void)ctx;
    (void)first;
    const struct bulk *b = args;
    size_t pieces = (b->size + BULK_PIECE - 1) / BULK_PIECE;
    for (uint64_t i = 0; i < count; i++) {
        size_t g;
        while ((g = atomic_fetch_add_explicit(b->next_piece, 1, memory_order_relaxed)) < pieces) {
            size_t off = g * BULK_PIECE;
            bulk_piece(b, off, b->size - off < BULK_PIECE ? b->size - off : BULK_PIECE);
        }
    }
}

static void bulk_placed_piece(const void *arg, size_t off, size_t n)
{
    bulk_piece(arg, off, n);   /* off is a multiple of 4 KiB, so of a fill's block */
}

static void bulk_run(struct bulk *b)
{
    /* Pieces must not depend on each other: a copy whose ranges overlap (distinct buffers over
     * the same host memory; the specification leaves the result undefined) stays sequential
     * and uses memmove. */
    bool overlap = b->src && b->dst < b->src + b->size && b->src < b->dst + b->size;
    if (overlap) {
        if (b->dst != b->src)
            memmove(b->dst, b->src, b->size);
        return;
    }
    /* Where the pool spans several NUMA nodes, each thread writes the part of the pages its
     * node owns in 1-D launches, placing fresh pages there (runtime/storage.h). */
    if (weft_storage_write_placed(b->size, bulk_placed_piece, b))
        return;
    unsigned threads = b->size >= BULK_MIN ? weft_pool_concurrency() : 1;
    if (threads > 1) {
        atomic_size_t next = 0;
        b->next_piece = &next;
        struct weft_launch launch = {
            .fn = bulk_range,
            .args = b,
            .ctx = {.work_dim = 1},
            .total_groups = threads,
            .name = "bulk copy",   /* WEFT_TRACE's chunk slices */
        };
        for (int d = 0; d < 3; d++) {
            launch.ctx.global_size[d] = launch.ctx.num_groups[d] = d == 0 ? threads : 1;
            launch.ctx.local_size[d] = 1;
        }
        if (weft_pool_run(&launch) == 0)
            return;
        /* The pool could not set up its arenas: do the work here instead. */
    }
    bulk_piece(b, 0, b->size);
}

static cl_int run_copy(struct weft_command *cmd)
{
    struct mem_cmd *p = cmd->payload;
    bulk_run(&(struct bulk){.dst = p->dst, .src = p->src, .size = p->size});
    return CL_SUCCESS;
}

static cl_int run_copy_rect(struct weft_command *cmd)
{
    struct mem_cmd *p = cmd->payload;
    for (size_t z = 0; z < p->region[2]; z++)
        for (size_t y = 0; y < p->region[1]; y++)
            copy_bytes(p->dst + z * p->dst_slice + y * p->dst_row,
                       p->src + z * p->src_slice + y * p->src_row, p->region[0]);
    return CL_SUCCESS;
}

void weft_mem_fill_bytes(void *dst, size_t size, const void *pattern, size_t pattern_size)
{
    /* A 4 KiB block of whole patterns (pattern sizes are powers of two up to 128, so they tile
     * it exactly), copied over and over: the source stays in L1 and memcpy streams the stores. */
    _Alignas(64) unsigned char block[4096];
    if (pattern_size == 1) {
        memset(block, *(const unsigned char *)pattern, sizeof block);
    } else {
        for (size_t i = 0; i < sizeof block; i += pattern_size)
            memcpy(block + i, pattern, pattern_size);
    }
    bulk_run(&(struct bulk){.dst = dst, .size = size, .block = block, .block_size = sizeof block});
}

void weft_mem_copy_bytes(void *dst, const void *src, size_t size)
{
    bulk_run(&(struct bulk){.dst = dst, .src = src, .size = size});
}

static cl_int run_fill(struct weft_command *cmd)
{
    struct mem_cmd *p = cmd->payload;
    weft_mem_fill_bytes(p->dst, p->size, p->pattern, p->pattern_size);
    return CL_SUCCESS;
}

/* Map, unmap and migrate: the device works on the host's memory, so there is nothing to move;
 * the command still orders itself in the queue and completes its event. */
cl_int weft_mem_command_run_nothing(struct weft_command *cmd)
{
    (void)cmd;
    return CL_SUCCESS;
}

static void release_held(struct weft_command *cmd)
{
    cl_mem *held = cmd->payload;   /* every such payload begins with cl_mem held[2] */
    for (int i = 0; i < 2; i++)
        if (held[i])
            weft_object_unhold(WEFT_OBJ(held[i]));
}

static void release_migrate(struct weft_command *cmd)
{
    struct migrate_cmd *p = cmd->payload;
    for (cl_uint i = 0; i < p->count; i++)
        weft_object_unhold(WEFT_OBJ(p->mems[i]));
}

struct weft_command *weft_mem_command_new(cl_command_queue queue, cl_command_type type, cl_uint num_events,
                                          const cl_event *wait_list, size_t payload_size,
                                          cl_int (*run)(struct weft_command *), cl_mem a, cl_mem b)
{
    struct weft_command *cmd = weft_command_new(queue, type, num_events, wait_list, payload_size);
    if (!cmd)
        return NULL;
    cl_mem *held = cmd->payload;
    cmd->run = run;
    cmd->release = release_held;
    held[0] = a;
    held[1] = b;
    if (a)
        weft_object_hold(WEFT_OBJ(a));
    if (b)
        weft_object_hold(WEFT_OBJ(b));
    return cmd;
}

/* A command with a mem_cmd payload that holds `a` and `b` (either may be NULL). */
static struct weft_command *new_mem_cmd(cl_command_queue queue, cl_command_type type,
                                        cl_uint num_events, const cl_event *wait_list,
                                        cl_int (*run)(struct weft_command *), cl_mem a, cl_mem b)
{
    return weft_mem_command_new(queue, type, num_events, wait_list, sizeof(struct mem_cmd), run, a, b);
}

/* ---- shared validation --------------------------------------------------------------------- */

/* A sub-buffer's origin must suit the queue's device. Sub-buffers are validated against the
 * (only) device when they are made, so this cannot fail today; it keeps the specified check in
 * place should more devices appear. */
static bool origin_aligned(cl_command_queue queue, cl_mem m)
{
    size_t align = queue->device->mem_base_addr_align / 8;
    return !m->parent || align == 0 || m->origin % align == 0;
}

/* The host-access flags a buffer was created with forbid reads (HOST_WRITE_ONLY, NO_ACCESS)
 * or writes (HOST_READ_ONLY, NO_ACCESS) by the host: CL_INVALID_OPERATION. */
static cl_int check_host_access(const char *func, cl_mem buffer, bool is_read)
{
    if (is_read && (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return weft_error(func, CL_INVALID_OPERATION,
                          "buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
    if (!is_read && (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
        return weft_error(func, CL_INVALID_OPERATION,
                          "buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
    return CL_SUCCESS;
}

static bool mul_ok(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static bool add_ok(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

/* Rect geometry for one side of a rect command: applies the pitch defaults (row pitch 0 means
 * region[0], slice pitch 0 means region[1] * row pitch), checks the pitch rules, and computes
 * the byte offset of the origin and the extent of the region. */
struct rect_side {
    size_t row, slice;      /* effective pitches */
    size_t start;           /* byte offset of origin */
    size_t extent;          /* bytes from start to one past the last byte touched */
};

static cl_int rect_side(const char *func, const char *name, const size_t origin[3],
                        const size_t region[3], size_t row, size_t slice, struct rect_side *out)
{
    if (row == 0)
        row = region[0];
    if (row < region[0])
        return weft_error(func, CL_INVALID_VALUE, "%s row pitch %zu is less than region[0] %zu",
                          name, row, region[0]);
    size_t min_slice;
    if (!mul_ok(region[1], row, &min_slice))
        return weft_error(func, CL_INVALID_VALUE, "%s region[1] x row pitch overflows", name);
    if (slice == 0)
        slice = min_slice;
    if (slice < min_slice)
        return weft_error(func, CL_INVALID_VALUE,
                          "%s slice pitch %zu is less than region[1] x row pitch %zu", name, slice,
                          min_slice);
    if (slice % row != 0)
        return weft_error(func, CL_INVALID_VALUE,
                          "%s slice pitch %zu is not a multiple of the row pitch %zu", name, slice,
                          row);
    size_t a, b, start, extent;
    bool ok = mul_ok(origin[2], slice, &a) && mul_ok(origin[1], row, &b) && add_ok(a, b, &start) &&
              add_ok(start, origin[0], &start) && mul_ok(region[2] - 1, slice, &a) &&
              mul_ok(region[1] - 1, row, &b) && add_ok(a, b, &extent) &&
              add_ok(extent, region[0], &extent) && add_ok(start, extent, &a);
    if (!ok)
        return weft_error(func, CL_INVALID_VALUE, "%s origin and region overflow the address space",
                          name);
    *out = (struct rect_side){row, slice, start, extent};
    return CL_SUCCESS;
}

static cl_int check_region(const char *func, const size_t region[3])
{
    if (region[0] == 0 || region[1] == 0 || region[2] == 0)
        return weft_error(func, CL_INVALID_VALUE, "region {%zu, %zu, %zu} has a zero element",
                          region[0], region[1], region[2]);
    return CL_SUCCESS;
}

static bool rect_inside(const struct rect_side *s, size_t total)
{
    return s->start <= total && s->extent <= total - s->start;
}

/* Overlap of two rect regions with the same pitches in one storage, given as linear start
 * offsets. Follows the definition the specification gives (appendix "Checking for Memory Copy
 * Overlap"): the regions overlap unless their byte spans are disjoint, or one region's rows fit
 * in the gaps between the other's rows, or one region's slices fit in the gaps between the
 * other's slices. */
static bool rect_overlap_same_pitch(size_t s0, size_t d0, const size_t region[3], size_t row,
                                    size_t slice)
{
    size_t slice_bytes = (region[1] - 1) * row + region[0];
    size_t block = (region[2] - 1) * slice + slice_bytes;
    if (d0 + block <= s0 || s0 + block <= d0)
        return false;
    size_t sx = s0 % row, dx = d0 % row;
    if ((dx >= sx + region[0] && dx + region[0] <= sx + row) ||
        (sx >= dx + region[0] && sx + region[0] <= dx + row))
        return false;
    size_t sy = s0 % slice, dy = d0 % slice;
    if ((dy >= sy + slice_bytes && dy + slice_bytes <= sy + slice) ||
        (sy >= dy + slice_bytes && sy + slice_bytes <= dy + slice))
        return false;
    return true;
}

/* Overlap of two rect regions with different pitches (distinct sub-buffers of one parent):
 * every source row is an interval [a, a + w); for each destination slice the destination rows
 * that could meet it form a contiguous range of row indices, found by division. Very large
 * regions fall back to comparing the byte spans, which can only over-report. */
static bool rect_overlap_any_pitch(size_t s0, const struct rect_side *s, size_t d0,
                                   const struct rect_side *d, const size_t region[3])
{
    size_t w = region[0];
    if (d0 + d->extent <= s0 || s0 + s->extent <= d0)
        return false;
    if ((double)region[1] * region[2] * region[2] > (double)(1u << 24))
        return true;
    for (size_t sz = 0; sz < region[2]; sz++) {
        for (size_t sy = 0; sy < region[1]; sy++) {
            size_t a = s0 + sz * s->slice + sy * s->row;
            for (size_t dz = 0; dz < region[2]; dz++) {
                size_t base = d0 + dz * d->slice;
                /* rows y with base + y*row in (a - w, a + w) */
                if (base >= a + w)
                    continue;
                size_t lo = 0;
                if (a + 1 > base + w)
                    lo = (a + 1 - w - base + d->row - 1) / d->row;
                size_t hi = (a + w - 1 - base) / d->row;
                if (hi >= region[1])
                    hi = region[1] - 1;
                if (lo <= hi)
                    return true;
            }
        }
    }
    return false;
}

/* ---- read / write -------------------------------------------------------------------------- */

static cl_int enqueue_rw(const char *func, bool is_read, cl_command_queue queue, cl_mem buffer,
                         cl_bool blocking, size_t offset, size_t size, void *ptr,
                         cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!weft_object_is(queue, WEFT_TYPE_QUEUE))
        return weft_error(func, CL_INVALID_COMMAND_QUEUE, "command_queue is not a live queue");
    if (!weft_mem_is_buffer(buffer))
        return weft_error(func, CL_INVALID_MEM_OBJECT, "buffer is not a live buffer object");
    if (buffer->context != queue->context)
        return weft_error(func, CL_INVALID_CONTEXT, "buffer and command_queue belong to different contexts");
    if (!(offset <= buffer->size && size <= buffer->size - offset))
        return weft_error(func, CL_INVALID_VALUE, "range offset %zu size %zu exceeds the buffer's %zu bytes",
                          offset, size, buffer->size);
    if (!ptr)
        return weft_error(func, CL_INVALID_VALUE, "ptr is NULL");
    cl_int err = weft_check_wait_list(queue->context, num_events, wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (!origin_aligned(queue, buffer))
        return weft_error(func, CL_MISALIGNED_SUB_BUFFER_OFFSET, "sub-buffer origin is misaligned for the device");
    err = check_host_access(func, buffer, is_read);
    if (err != CL_SUCCESS)
        return err;

    struct weft_command *cmd =
        new_mem_cmd(queue, is_read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER, num_events,
                    wait_list, run_copy, buffer, NULL);
    if (!cmd)
        return weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct mem_cmd *p = cmd->payload;
    if (is_read) {
        p->dst = ptr;
        p->src = buffer->data + offset;
    } else {
        p->dst = buffer->data + offset;
        p->src = ptr;
    }
    p->size = size;
    cmd->bytes = size;
    return weft_command_enqueue(cmd, blocking, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                    size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_rw(__func__, true, command_queue, buffer, blocking_read, offset, size, ptr,
                      num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                     size_t offset, size_t size, const void *ptr, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event)
{
    return enqueue_rw(__func__, false, command_queue, buffer, blocking_write, offset, size,
                      (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

static cl_int enqueue_rw_rect(const char *func, bool is_read, cl_command_queue queue,
                              cl_mem buffer, cl_bool blocking, const size_t *buffer_origin,
                              const size_t *host_origin, const size_t *region,
                              size_t buffer_row_pitch, size_t buffer_slice_pitch,
                              size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                              cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!weft_object_is(queue, WEFT_TYPE_QUEUE))
        return weft_error(func, CL_INVALID_COMMAND_QUEUE, "command_queue is not a live queue");
    if (!weft_mem_is_buffer(buffer))
        return weft_error(func, CL_INVALID_MEM_OBJECT, "buffer is not a live buffer object");
    if (buffer->context != queue->context)
        return weft_error(func, CL_INVALID_CONTEXT, "buffer and command_queue belong to different contexts");
    if (!buffer_origin || !host_origin || !region)
        return weft_error(func, CL_INVALID_VALUE, "buffer_origin, host_origin or region is NULL");
    cl_int err = check_region(func, region);
    if (err != CL_SUCCESS)
        return err;
    struct rect_side b, h;
    err = rect_side(func, "buffer", buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &b);
    if (err != CL_SUCCESS)
        return err;
    err = rect_side(func, "host", host_origin, region, host_row_pitch, host_slice_pitch, &h);
    if (err != CL_SUCCESS)
        return err;
    if (!rect_inside(&b, buffer->size))
        return weft_error(func, CL_INVALID_VALUE,
                          "the region (bytes %zu to %zu) is out of the buffer's %zu bytes", b.start,
                          b.start + b.extent, buffer->size);
    if (!ptr)
        return weft_error(func, CL_INVALID_VALUE, "ptr is NULL");
    err = weft_check_wait_list(queue->context, num_events, wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (!origin_aligned(queue, buffer))
        return weft_error(func, CL_MISALIGNED_SUB_BUFFER_OFFSET, "sub-buffer origin is misaligned for the device");
    err = check_host_access(func, buffer, is_read);
    if (err != CL_SUCCESS)
        return err;

    struct weft_command *cmd =
        new_mem_cmd(queue, is_read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
                    num_events, wait_list, run_copy_rect, buffer, NULL);
    if (!cmd)
        return weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct mem_cmd *p = cmd->payload;
    char *dev = buffer->data + b.start;
    char *host = (char *)ptr + h.start;
    memcpy(p->region, region, sizeof p->region);
    if (is_read) {
        p->dst = host, p->dst_row = h.row, p->dst_slice = h.slice;
        p->src = dev, p->src_row = b.row, p->src_slice = b.slice;
    } else {
        p->dst = dev, p->dst_row = b.row, p->dst_slice = b.slice;
        p->src = host, p->src_row = h.row, p->src_slice = h.slice;
    }
    cmd->bytes = region[0] * region[1] * region[2];
    return weft_command_enqueue(cmd, blocking, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                        const size_t *buffer_origin, const size_t *host_origin,
                        const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                        size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                        cl_event *event)
{
    return enqueue_rw_rect(__func__, true, command_queue, buffer, blocking_read, buffer_origin,
                           host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                           host_row_pitch, host_slice_pitch, ptr, num_events_in_wait_list,
                           event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                         const size_t *buffer_origin, const size_t *host_origin,
                         const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                         size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                         cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                         cl_event *event)
{
    return enqueue_rw_rect(__func__, false, command_queue, buffer, blocking_write, buffer_origin,
                           host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                           host_row_pitch, host_slice_pitch, (void *)ptr, num_events_in_wait_list,
                           event_wait_list, event);
}

/* ---- copy ---------------------------------------------------------------------------------- */

/* The checks clEnqueueCopyBuffer and clEnqueueCopyBufferRect share, in the spec's order: a live
 * queue, two live buffers of the queue's context, sub-buffer origins aligned for the device. */
static cl_int check_copy_pair(const char *func, cl_command_queue q, cl_mem src_buffer, cl_mem dst_buffer)
{
    if (!weft_object_is(q, WEFT_TYPE_QUEUE))
        return weft_error(func, CL_INVALID_COMMAND_QUEUE, "command_queue is not a live queue");
    if (!weft_mem_is_buffer(src_buffer))
        return weft_error(func, CL_INVALID_MEM_OBJECT, "src_buffer is not a live buffer object");
    if (!weft_mem_is_buffer(dst_buffer))
        return weft_error(func, CL_INVALID_MEM_OBJECT, "dst_buffer is not a live buffer object");
    if (src_buffer->context != q->context)
        return weft_error(func, CL_INVALID_CONTEXT, "src_buffer and command_queue belong to different contexts");
    if (dst_buffer->context != q->context)
        return weft_error(func, CL_INVALID_CONTEXT, "dst_buffer and command_queue belong to different contexts");
    if (!origin_aligned(q, src_buffer) || !origin_aligned(q, dst_buffer))
        return weft_error(func, CL_MISALIGNED_SUB_BUFFER_OFFSET, "sub-buffer origin is misaligned for the device");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                    size_t src_offset, size_t dst_offset, size_t size,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event)
{
    cl_command_queue q = command_queue;
    cl_int err = check_copy_pair(__func__, q, src_buffer, dst_buffer);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(src_offset <= src_buffer->size && size <= src_buffer->size - src_offset,
               CL_INVALID_VALUE, "source range offset %zu size %zu exceeds src_buffer's %zu bytes",
               src_offset, size, src_buffer->size);
    WEFT_CHECK(dst_offset <= dst_buffer->size && size <= dst_buffer->size - dst_offset,
               CL_INVALID_VALUE, "destination range offset %zu size %zu exceeds dst_buffer's %zu bytes",
               dst_offset, size, dst_buffer->size);
    err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (weft_mem_root(src_buffer) == weft_mem_root(dst_buffer)) {
        /* Same storage (one buffer, or sub-buffers of one parent): compare absolute ranges. */
        size_t a = src_buffer->origin + src_offset, b = dst_buffer->origin + dst_offset;
        WEFT_CHECK(size == 0 || a >= b + size || b >= a + size, CL_MEM_COPY_OVERLAP,
                   "source bytes [%zu, %zu) and destination bytes [%zu, %zu) of the same storage "
                   "overlap", a, a + size, b, b + size);
    }

    struct weft_command *cmd = new_mem_cmd(q, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list,
                                           event_wait_list, run_copy, src_buffer, dst_buffer);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct mem_cmd *p = cmd->payload;
    p->src = src_buffer->data + src_offset;
    p->dst = dst_buffer->data + dst_offset;
    p->size = size;
    cmd->bytes = size;
    return weft_command_enqueue(cmd, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                        const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                        size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                        size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    cl_int err = check_copy_pair(__func__, q, src_buffer, dst_buffer);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(src_origin && dst_origin && region, CL_INVALID_VALUE,
               "src_origin, dst_origin or region is NULL");
    err = check_region(__func__, region);
    if (err != CL_SUCCESS)
        return err;
    struct rect_side s, d;
    err = rect_side(__func__, "source", src_origin, region, src_row_pitch, src_slice_pitch, &s);
    if (err != CL_SUCCESS)
        return err;
    err = rect_side(__func__, "destination", dst_origin, region, dst_row_pitch, dst_slice_pitch, &d);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(rect_inside(&s, src_buffer->size), CL_INVALID_VALUE,
               "the source region (bytes %zu to %zu) is out of src_buffer's %zu bytes", s.start,
               s.start + s.extent, src_buffer->size);
    WEFT_CHECK(rect_inside(&d, dst_buffer->size), CL_INVALID_VALUE,
               "the destination region (bytes %zu to %zu) is out of dst_buffer's %zu bytes", d.start,
               d.start + d.extent, dst_buffer->size);
    WEFT_CHECK(src_buffer != dst_buffer || (s.row == d.row && s.slice == d.slice), CL_INVALID_VALUE,
               "copying within one buffer needs equal source and destination pitches "
               "(rows %zu/%zu, slices %zu/%zu)", s.row, d.row, s.slice, d.slice);
    err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    if (weft_mem_root(src_buffer) == weft_mem_root(dst_buffer)) {
        size_t s0 = src_buffer->origin + s.start, d0 = dst_buffer->origin + d.start;
        bool overlap = (s.row == d.row && s.slice == d.slice)
                           ? rect_overlap_same_pitch(s0, d0, region, s.row, s.slice)
                           : rect_overlap_any_pitch(s0, &s, d0, &d, region);
        WEFT_CHECK(!overlap, CL_MEM_COPY_OVERLAP,
                   "the source and destination regions overlap in the same storage");
    }

    struct weft_command *cmd = new_mem_cmd(q, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list,
                                           event_wait_list, run_copy_rect, src_buffer, dst_buffer);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct mem_cmd *p = cmd->payload;
    memcpy(p->region, region, sizeof p->region);
    p->src = src_buffer->data + s.start, p->src_row = s.row, p->src_slice = s.slice;
    p->dst = dst_buffer->data + d.start, p->dst_row = d.row, p->dst_slice = d.slice;
    cmd->bytes = region[0] * region[1] * region[2];
    return weft_command_enqueue(cmd, false, event);
}

/* ---- fill ---------------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void *pattern,
                    size_t pattern_size, size_t offset, size_t size,
                    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                    cl_event *event)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a live queue");
    WEFT_CHECK(weft_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, "buffer is not a live buffer object");
    WEFT_CHECK(buffer->context == q->context, CL_INVALID_CONTEXT,
               "buffer and command_queue belong to different contexts");
    WEFT_CHECK(offset <= buffer->size && size <= buffer->size - offset, CL_INVALID_VALUE,
               "range offset %zu size %zu exceeds the buffer's %zu bytes", offset, size, buffer->size);
    WEFT_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    WEFT_CHECK(pattern_size != 0 && (pattern_size & (pattern_size - 1)) == 0 && pattern_size <= 128,
               CL_INVALID_VALUE, "pattern_size %zu is not a power of two from 1 to 128", pattern_size);
    WEFT_CHECK(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
               "offset %zu and size %zu must be multiples of pattern_size %zu", offset, size,
               pattern_size);
    cl_int err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(origin_aligned(q, buffer), CL_MISALIGNED_SUB_BUFFER_OFFSET,
               "sub-buffer origin is misaligned for the device");

    struct weft_command *cmd = new_mem_cmd(q, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list,
                                           event_wait_list, run_fill, buffer, NULL);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct mem_cmd *p = cmd->payload;
    /* The pattern is copied now: the application may reuse its memory once we return. */
    memcpy(p->pattern, pattern, pattern_size);
    p->pattern_size = pattern_size;
    p->dst = buffer->data + offset;
    p->size = size;
    cmd->bytes = size;
    return weft_command_enqueue(cmd, false, event);
}

/* ---- map / unmap --------------------------------------------------------------------------- */

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                   cl_map_flags map_flags, size_t offset, size_t size,
                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event, cl_int *errcode_ret)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK_RET(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE, errcode_ret, NULL,
                   "command_queue is not a live queue");
    WEFT_CHECK_RET(weft_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, errcode_ret, NULL,
                   "buffer is not a live buffer object");
    WEFT_CHECK_RET(buffer->context == q->context, CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "buffer and command_queue belong to different contexts");
    WEFT_CHECK_RET(offset <= buffer->size && size <= buffer->size - offset, CL_INVALID_VALUE,
                   errcode_ret, NULL, "range offset %zu size %zu exceeds the buffer's %zu bytes",
                   offset, size, buffer->size);
    WEFT_CHECK_RET(size != 0, CL_INVALID_VALUE, errcode_ret, NULL, "size is 0");
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    WEFT_CHECK_RET(!(map_flags & ~known), CL_INVALID_VALUE, errcode_ret, NULL,
                   "map_flags 0x%llx has unknown bits", (unsigned long long)map_flags);
    WEFT_CHECK_RET(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                     (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    cl_int err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    WEFT_CHECK_RET(origin_aligned(q, buffer), CL_MISALIGNED_SUB_BUFFER_OFFSET, errcode_ret, NULL,
                   "sub-buffer origin is misaligned for the device");
    WEFT_CHECK_RET(!((map_flags & CL_MAP_READ) &&
                     (buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))),
                   CL_INVALID_OPERATION, errcode_ret, NULL,
                   "mapping for reading a buffer created with CL_MEM_HOST_WRITE_ONLY or "
                   "CL_MEM_HOST_NO_ACCESS");
    WEFT_CHECK_RET(!((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                     (buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))),
                   CL_INVALID_OPERATION, errcode_ret, NULL,
                   "mapping for writing a buffer created with CL_MEM_HOST_READ_ONLY or "
                   "CL_MEM_HOST_NO_ACCESS");

    struct weft_command *cmd = new_mem_cmd(q, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list,
                                           event_wait_list, weft_mem_command_run_nothing, buffer, NULL);
    WEFT_CHECK_RET(cmd, CL_OUT_OF_HOST_MEMORY, errcode_ret, NULL, "no memory for the command");
    /* Zero copy: the mapping is the storage itself (host_ptr + offset for USE_HOST_PTR). */
    void *ptr = buffer->data + offset;
    err = weft_mem_map_add(buffer, ptr, offset, size, map_flags);
    if (err != CL_SUCCESS) {
        weft_command_discard(cmd);
        return WEFT_RETURN(errcode_ret,
                           weft_error(__func__, err, err == CL_INVALID_OPERATION
                                                         ? "the region overlaps a region already "
                                                           "mapped for writing"
                                                         : "no memory for the mapping record"),
                           NULL);
    }
    cmd->bytes = size;   /* mapped, not moved: zero copy */
    err = weft_command_enqueue(cmd, blocking_map, event);
    if (err != CL_SUCCESS) {
        /* The map failed: the application gets no pointer and will not unmap it. */
        weft_mem_map_remove(buffer, ptr);
        return WEFT_RETURN(errcode_ret, err, NULL);
    }
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, ptr);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void *mapped_ptr,
                        cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                        cl_event *event)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a live queue");
    WEFT_CHECK(weft_object_is(memobj, WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
               "memobj is not a live memory object");
    WEFT_CHECK(memobj->context == q->context, CL_INVALID_CONTEXT,
               "memobj and command_queue belong to different contexts");
    WEFT_CHECK(mapped_ptr && weft_mem_map_has(memobj, mapped_ptr), CL_INVALID_VALUE,
               "mapped_ptr %p is not a pointer currently mapped from memobj", mapped_ptr);
    cl_int err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;

    struct weft_command *cmd = new_mem_cmd(q, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                                           event_wait_list, weft_mem_command_run_nothing, memobj, NULL);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    /* Forgotten at enqueue time, so a second unmap of the same pointer is rejected at once
     * (another thread may have won the race since the check above). */
    if (!weft_mem_map_remove(memobj, mapped_ptr)) {
        weft_command_discard(cmd);
        return weft_error(__func__, CL_INVALID_VALUE, "mapped_ptr %p was unmapped concurrently",
                          mapped_ptr);
    }
    return weft_command_enqueue(cmd, false, event);
}

/* ---- migrate ------------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                           const cl_mem *mem_objects, cl_mem_migration_flags flags,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a live queue");
    WEFT_CHECK(num_mem_objects != 0 && mem_objects, CL_INVALID_VALUE,
               "num_mem_objects is 0 or mem_objects is NULL");
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        WEFT_CHECK(weft_object_is(mem_objects[i], WEFT_TYPE_MEM), CL_INVALID_MEM_OBJECT,
                   "mem_objects[%u] is not a live memory object", i);
        WEFT_CHECK(mem_objects[i]->context == q->context, CL_INVALID_CONTEXT,
                   "mem_objects[%u] and command_queue belong to different contexts", i);
    }
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST |
                                         CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    WEFT_CHECK(!(flags & ~known), CL_INVALID_VALUE, "flags 0x%llx has unknown migration bits",
               (unsigned long long)flags);
    cl_int err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;

    struct weft_command *cmd =
        weft_command_new(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
                         event_wait_list, sizeof(struct migrate_cmd) + num_mem_objects * sizeof(cl_mem));
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    /* Host and device memory are one: migration moves nothing, but the command still orders
     * itself after its dependencies and holds the objects until it completes. */
    struct migrate_cmd *p = cmd->payload;
    cmd->run = weft_mem_command_run_nothing;
    cmd->release = release_migrate;
    p->count = num_mem_objects;
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        p->mems[i] = mem_objects[i];
        weft_object_hold(WEFT_OBJ(mem_objects[i]));
    }
    return weft_command_enqueue(cmd, false, event);
}
