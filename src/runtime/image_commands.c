/* runtime/image_commands.c — the image commands: read, write, copy, fill, copy to and from
 * buffers, map (unmap is clEnqueueUnmapMemObject in mem_commands.c, which serves every memory
 * object).
 *
 * Guarantees:
 *   - Arguments are validated in the order of the OpenCL 3.0 error lists before anything is
 *     enqueued; origin and region are checked per image type (a dimension the type lacks must
 *     have origin 0 and region 1; an array's layers are checked against its array size), so
 *     no command reaches outside an image or buffer.
 *   - Commands are made and enqueued through runtime/queue.h and hold the objects they touch
 *     until they complete. None of them may join a fused launch chain: like every command
 *     without WEFT_COMMAND_FUSABLE, enqueueing one releases the launches an in-order queue
 *     held back (queue.c), so they are sync points.
 *   - Every transfer is a box of rows: each side gives a base address and byte pitches for its
 *     y and z steps; a 1D array's layers are its y (at the slice pitch), a 2D array's its z.
 *     Map is zero copy: the returned pointer is the image's storage at the origin, with the
 *     storage's pitches.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/image.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/queue.h"

struct img_cmd {
    cl_mem held[2];                     /* first: weft_mem_command_new holds them */
    char *dst;
    const char *src;                    /* NULL for a fill */
    size_t row_bytes, rows, slices;
    size_t src_p1, src_p2, dst_p1, dst_p2;
    size_t elem;                        /* fill: bytes of `pixel` */
    unsigned char pixel[16];
};

static cl_int run_box(struct weft_command *cmd)
{
    struct img_cmd *p = cmd->payload;
    for (size_t z = 0; z < p->slices; z++)
        for (size_t y = 0; y < p->rows; y++) {
            char *d = p->dst + z * p->dst_p2 + y * p->dst_p1;
            if (p->src) {
                const char *s = p->src + z * p->src_p2 + y * p->src_p1;
                if (d != s)
                    memmove(d, s, p->row_bytes);
            } else {
                for (size_t x = 0; x < p->row_bytes; x += p->elem)
                    memcpy(d + x, p->pixel, p->elem);
            }
        }
    return CL_SUCCESS;
}

/* A command with an img_cmd payload that holds `a` and `b` (either may be NULL). */
static struct weft_command *new_img_cmd(cl_command_queue q, cl_command_type type, cl_uint n,
                                        const cl_event *wl, cl_int (*run)(struct weft_command *),
                                        cl_mem a, cl_mem b)
{
    return weft_mem_command_new(q, type, n, wl, sizeof(struct img_cmd), run, a, b);
}

/* ---- validation ----------------------------------------------------------------------- */

/* origin/region inside the image, per its type; on success the byte offset of origin. */
static cl_int check_box(const char *func, const char *what, cl_mem image, const size_t *origin,
                        const size_t *region, size_t *offset)
{
    const struct weft_mem_image *img = image->image;
    if (!origin || !region)
        return weft_error(func, CL_INVALID_VALUE, "%s origin or region is NULL", what);
    for (int d = 0; d < 3; d++) {
        if (region[d] == 0)
            return weft_error(func, CL_INVALID_VALUE, "region {%zu, %zu, %zu} has a zero element",
                              region[0], region[1], region[2]);
        if (origin[d] > img->extent[d] || region[d] > img->extent[d] - origin[d])
            return weft_error(func, CL_INVALID_VALUE,
                              "%s origin {%zu, %zu, %zu} + region {%zu, %zu, %zu} is outside the image "
                              "(%zu x %zu x %zu; absent dimensions need origin 0 and region 1)",
                              what, origin[0], origin[1], origin[2], region[0], region[1], region[2],
                              img->extent[0], img->extent[1], img->extent[2]);
    }
    *offset = origin[0] * img->pitch[0] + origin[1] * img->pitch[1] + origin[2] * img->pitch[2];
    return CL_SUCCESS;
}

static cl_int check_image(const char *func, cl_command_queue q, cl_mem image, const char *name)
{
    if (!weft_object_is(q, WEFT_TYPE_QUEUE))
        return weft_error(func, CL_INVALID_COMMAND_QUEUE, "command_queue is not a live queue");
    if (!weft_mem_is_image(image))
        return weft_error(func, CL_INVALID_MEM_OBJECT, "%s is not a live image object", name);
    if (image->context != q->context)
        return weft_error(func, CL_INVALID_CONTEXT, "%s and command_queue belong to different contexts", name);
    return CL_SUCCESS;
}

/* The host side of a read or write: pitches (0 = tight) checked and made effective. */
static cl_int host_pitches(const char *func, cl_mem image, const size_t *region, size_t row, size_t slice,
                           size_t *p1, size_t *p2)
{
    const struct weft_mem_image *img = image->image;
    cl_mem_object_type t = image->type;
    size_t min_row = region[0] * img->elem_size;
    if (row == 0)
        row = min_row;
    if (row < min_row)
        return weft_error(func, CL_INVALID_VALUE, "row pitch %zu is less than region[0] x element size %zu",
                          row, min_row);
    bool sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                  t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (!sliced) {
        if (slice != 0)
            return weft_error(func, CL_INVALID_VALUE, "slice pitch must be 0 for a 1D or 2D image");
        *p1 = row;
        *p2 = 0;
        return CL_SUCCESS;
    }
    size_t min_slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * region[1];
    if (slice == 0)
        slice = min_slice;
    if (slice < min_slice)
        return weft_error(func, CL_INVALID_VALUE, "slice pitch %zu is less than %zu", slice, min_slice);
    *p1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    *p2 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slice;
    return CL_SUCCESS;
}

static void set_box(struct img_cmd *p, const struct weft_mem_image *img, const size_t *region)
{
    p->row_bytes = region[0] * img->elem_size;
    p->rows = region[1];
    p->slices = region[2];
}

#define TRY(expr)                        \
    do {                                 \
        cl_int err_ = (expr);            \
        if (err_ != CL_SUCCESS)          \
            return err_;                 \
    } while (0)

/* ---- read / write --------------------------------------------------------------------- */

static cl_int read_write(const char *func, bool is_read, cl_command_queue q, cl_mem image, cl_bool blocking,
                         const size_t *origin, const size_t *region, size_t row, size_t slice, void *ptr,
                         cl_uint n, const cl_event *wl, cl_event *event)
{
    TRY(check_image(func, q, image, "image"));
    size_t off, p1 = 0, p2 = 0;
    TRY(check_box(func, "", image, origin, region, &off));
    TRY(host_pitches(func, image, region, row, slice, &p1, &p2));
    WEFT_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    TRY(weft_check_wait_list(q->context, n, wl));
    if (is_read)
        WEFT_CHECK(!(image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
                   "image was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
    else
        WEFT_CHECK(!(image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION,
                   "image was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
    struct weft_command *cmd = new_img_cmd(q, is_read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, n, wl,
                                           run_box, image, NULL);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct img_cmd *p = cmd->payload;
    const struct weft_mem_image *img = image->image;
    set_box(p, img, region);
    if (is_read) {
        p->src = image->data + off, p->src_p1 = img->pitch[1], p->src_p2 = img->pitch[2];
        p->dst = ptr, p->dst_p1 = p1, p->dst_p2 = p2;
    } else {
        p->dst = image->data + off, p->dst_p1 = img->pitch[1], p->dst_p2 = img->pitch[2];
        p->src = ptr, p->src_p1 = p1, p->src_p2 = p2;
    }
    return weft_command_enqueue(cmd, blocking, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                   const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch,
                   void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                   cl_event *event)
{
    return read_write(__func__, true, command_queue, image, blocking_read, origin, region, row_pitch,
                      slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                    const size_t *origin, const size_t *region, size_t input_row_pitch,
                    size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event)
{
    return read_write(__func__, false, command_queue, image, blocking_write, origin, region, input_row_pitch,
                      input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list, event);
}

/* ---- copy ----------------------------------------------------------------------------- */

static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
    for (int d = 0; d < 3; d++)
        if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
            return false;
    return true;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                   const size_t *src_origin, const size_t *dst_origin, const size_t *region,
                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    TRY(check_image(__func__, q, src_image, "src_image"));
    TRY(check_image(__func__, q, dst_image, "dst_image"));
    const struct weft_mem_image *si = src_image->image, *di = dst_image->image;
    WEFT_CHECK(si->format.image_channel_order == di->format.image_channel_order &&
                   si->format.image_channel_data_type == di->format.image_channel_data_type,
               CL_IMAGE_FORMAT_MISMATCH, "src_image and dst_image have different formats");
    size_t soff, doff;
    TRY(check_box(__func__, "source", src_image, src_origin, region, &soff));
    TRY(check_box(__func__, "destination", dst_image, dst_origin, region, &doff));
    TRY(weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    WEFT_CHECK(src_image != dst_image || !boxes_overlap(src_origin, dst_origin, region), CL_MEM_COPY_OVERLAP,
               "the source and destination regions of the same image overlap");
    struct weft_command *cmd = new_img_cmd(q, CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list,
                                           run_box, src_image, dst_image);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct img_cmd *p = cmd->payload;
    set_box(p, si, region);
    p->src = src_image->data + soff, p->src_p1 = si->pitch[1], p->src_p2 = si->pitch[2];
    p->dst = dst_image->data + doff, p->dst_p1 = di->pitch[1], p->dst_p2 = di->pitch[2];
    return weft_command_enqueue(cmd, false, event);
}

/* Bytes a tightly packed region of `img` takes in a buffer. */
static bool region_bytes(const struct weft_mem_image *img, const size_t *region, size_t *out)
{
    size_t a;
    return !__builtin_mul_overflow(region[0], img->elem_size, &a) && !__builtin_mul_overflow(a, region[1], &a) &&
           !__builtin_mul_overflow(a, region[2], out);
}

static cl_int image_buffer(const char *func, bool to_buffer, cl_command_queue q, cl_mem image, cl_mem buffer,
                           const size_t *origin, const size_t *region, size_t boff, cl_uint n,
                           const cl_event *wl, cl_event *event)
{
    TRY(check_image(func, q, image, to_buffer ? "src_image" : "dst_image"));
    WEFT_CHECK(weft_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, "%s is not a live buffer",
               to_buffer ? "dst_buffer" : "src_buffer");
    WEFT_CHECK(buffer->context == q->context, CL_INVALID_CONTEXT, "the buffer and command_queue belong to "
               "different contexts");
    size_t ioff, bytes;
    TRY(check_box(func, "image", image, origin, region, &ioff));
    const struct weft_mem_image *img = image->image;
    WEFT_CHECK(region_bytes(img, region, &bytes) && boff <= buffer->size && bytes <= buffer->size - boff,
               CL_INVALID_VALUE, "buffer offset %zu + region bytes exceeds the buffer's %zu bytes", boff,
               buffer->size);
    TRY(weft_check_wait_list(q->context, n, wl));
    struct weft_command *cmd = new_img_cmd(q, to_buffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                                           n, wl, run_box, image, buffer);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct img_cmd *p = cmd->payload;
    set_box(p, img, region);
    size_t b1 = p->row_bytes, b2 = p->row_bytes * region[1];
    if (image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        b2 = 0;
    if (to_buffer) {
        p->src = image->data + ioff, p->src_p1 = img->pitch[1], p->src_p2 = img->pitch[2];
        p->dst = buffer->data + boff, p->dst_p1 = b1, p->dst_p2 = b2;
    } else {
        p->dst = image->data + ioff, p->dst_p1 = img->pitch[1], p->dst_p2 = img->pitch[2];
        p->src = buffer->data + boff, p->src_p1 = b1, p->src_p2 = b2;
    }
    return weft_command_enqueue(cmd, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                           const size_t *src_origin, const size_t *region, size_t dst_offset,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    return image_buffer(__func__, true, command_queue, src_image, dst_buffer, src_origin, region, dst_offset,
                        num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                           size_t src_offset, const size_t *dst_origin, const size_t *region,
                           cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                           cl_event *event)
{
    return image_buffer(__func__, false, command_queue, dst_image, src_buffer, dst_origin, region, src_offset,
                        num_events_in_wait_list, event_wait_list, event);
}

/* ---- fill ----------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
                   const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    TRY(check_image(__func__, q, image, "image"));
    WEFT_CHECK(fill_color, CL_INVALID_VALUE, "fill_color is NULL");
    size_t off;
    TRY(check_box(__func__, "", image, origin, region, &off));
    TRY(weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    struct weft_command *cmd = new_img_cmd(q, CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list,
                                           run_box, image, NULL);
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct img_cmd *p = cmd->payload;
    const struct weft_mem_image *img = image->image;
    set_box(p, img, region);
    /* converted now: the application may reuse fill_color once we return */
    weft_image_pack_color(&img->format, fill_color, p->pixel);
    p->elem = img->elem_size;
    p->dst = image->data + off, p->dst_p1 = img->pitch[1], p->dst_p2 = img->pitch[2];
    return weft_command_enqueue(cmd, false, event);
}

/* ---- map ------------------------------------------------------------------------------ */

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                  cl_map_flags map_flags, const size_t *origin, const size_t *region,
                  size_t *image_row_pitch, size_t *image_slice_pitch, cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event, cl_int *errcode_ret)
{
    cl_command_queue q = command_queue;
    cl_int err = check_image(__func__, q, image, "image");
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    size_t off;
    err = check_box(__func__, "", image, origin, region, &off);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    WEFT_CHECK_RET(!(map_flags & ~known), CL_INVALID_VALUE, errcode_ret, NULL,
                   "map_flags 0x%llx has unknown bits", (unsigned long long)map_flags);
    WEFT_CHECK_RET(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
                   CL_INVALID_VALUE, errcode_ret, NULL,
                   "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    WEFT_CHECK_RET(image_row_pitch, CL_INVALID_VALUE, errcode_ret, NULL, "image_row_pitch is NULL");
    cl_mem_object_type t = image->type;
    bool sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    WEFT_CHECK_RET(!sliced || image_slice_pitch, CL_INVALID_VALUE, errcode_ret, NULL,
                   "image_slice_pitch is NULL for a 3D image or an image array");
    err = weft_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    WEFT_CHECK_RET(!((map_flags & CL_MAP_READ) && (image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))),
                   CL_INVALID_OPERATION, errcode_ret, NULL,
                   "mapping for reading an image created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
    WEFT_CHECK_RET(!((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
                     (image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))),
                   CL_INVALID_OPERATION, errcode_ret, NULL,
                   "mapping for writing an image created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");

    const struct weft_mem_image *img = image->image;
    struct weft_command *cmd = new_img_cmd(q, CL_COMMAND_MAP_IMAGE, num_events_in_wait_list, event_wait_list,
                                           weft_mem_command_run_nothing, image, NULL);
    WEFT_CHECK_RET(cmd, CL_OUT_OF_HOST_MEMORY, errcode_ret, NULL, "no memory for the command");
    void *ptr = image->data + off;
    size_t span = (region[0] - 1) * img->pitch[0] + (region[1] - 1) * img->pitch[1] +
                  (region[2] - 1) * img->pitch[2] + img->elem_size;
    err = weft_mem_map_add(image, ptr, off, span, map_flags);
    if (err != CL_SUCCESS) {
        weft_command_discard(cmd);
        return WEFT_RETURN(errcode_ret,
                           weft_error(__func__, err, err == CL_INVALID_OPERATION
                                                         ? "the region overlaps a region already mapped for writing"
                                                         : "no memory for the mapping record"),
                           NULL);
    }
    *image_row_pitch = img->row_pitch;
    if (image_slice_pitch)
        *image_slice_pitch = sliced ? img->pitch[t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : 2] : 0;
    err = weft_command_enqueue(cmd, blocking_map, event);
    if (err != CL_SUCCESS) {
        weft_mem_map_remove(image, ptr);
        return WEFT_RETURN(errcode_ret, err, NULL);
    }
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, ptr);
}
