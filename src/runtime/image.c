/* runtime/image.c — image objects: clCreateImage(WithProperties), the deprecated
 * clCreateImage2D/3D, clGetImageInfo, clGetSupportedImageFormats, and the format knowledge
 * the image commands and kernels share (element sizes, the kernel-side descriptor, packing
 * a fill colour).
 *
 * Guarantees:
 *   - Arguments are checked in the order of the OpenCL 3.0 error lists: a format that names no
 *     valid order/type pair is CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, a valid pair Weft does not
 *     implement is CL_IMAGE_FORMAT_NOT_SUPPORTED, malformed descriptors are
 *     CL_INVALID_IMAGE_DESCRIPTOR and dimensions above the device limits CL_INVALID_IMAGE_SIZE.
 *     Size arithmetic is overflow-checked.
 *   - Storage Weft allocates is WEFT_MEM_ALIGN-aligned with tight pitches; a
 *     CL_MEM_USE_HOST_PTR image is the application's memory with the application's pitches (zero
 *     copy); a 1D buffer image is its buffer's storage and holds the buffer.
 *   - Every image carries the struct weft_image_desc its kernel arguments point at; it never
 *     changes while the image lives.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/image.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/storage.h"

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

/* ---- formats -------------------------------------------------------------------------- */

static const cl_channel_order orders[] = {CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA,
                                          CL_ARGB, CL_ABGR, CL_INTENSITY, CL_LUMINANCE};
static const cl_channel_type types[] = {
    CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_SIGNED_INT8,
    CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
    CL_HALF_FLOAT, CL_FLOAT,
};

static size_t comp_size(cl_channel_type t)
{
    switch (t) {
    case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
        return 1;
    case CL_UNORM_INT16: case CL_SNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
        return 2;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static unsigned num_channels(cl_channel_order o)
{
    switch (o) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE:
        return 1;
    case CL_RG: case CL_RA:
        return 2;
    default:
        return 4;
    }
}

static bool eight_bit(cl_channel_type t)
{
    return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
}

static bool normalized_or_float(cl_channel_type t)
{
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
           t == CL_HALF_FLOAT || t == CL_FLOAT;
}

bool weft_image_format_supported(const cl_image_format *f)
{
    if (!comp_size(f->image_channel_data_type))
        return false;
    switch (f->image_channel_order) {
    case CL_R: case CL_A: case CL_RG: case CL_RA: case CL_RGBA:
        return true;
    case CL_BGRA: case CL_ARGB: case CL_ABGR:
        return eight_bit(f->image_channel_data_type);
    case CL_INTENSITY: case CL_LUMINANCE:
        return normalized_or_float(f->image_channel_data_type);
    default:
        return false;
    }
}

/* Whether the pair is a format the specification defines at all (the channel order / data
 * type combinations of the Image Format Descriptor section), supported or not. */
static bool format_valid(const cl_image_format *f)
{
    cl_channel_order o = f->image_channel_order;
    cl_channel_type t = f->image_channel_data_type;
    bool packed = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
    bool known_type = comp_size(t) || packed || t == CL_UNORM_INT_101010_2 || t == CL_UNORM_INT24;
    if (!known_type)
        return false;
    switch (o) {
    case CL_R: case CL_A: case CL_RG: case CL_RA: case CL_Rx: case CL_RGx:
        return comp_size(t) != 0;
    case CL_RGBA:
        return comp_size(t) != 0 || t == CL_UNORM_INT_101010_2;
    case CL_RGB: case CL_RGBx:
        return packed;
    case CL_BGRA: case CL_ARGB: case CL_ABGR:
        return eight_bit(t);
    case CL_INTENSITY: case CL_LUMINANCE:
        return normalized_or_float(t);
    case CL_sRGB: case CL_sRGBx: case CL_sRGBA: case CL_sBGRA:
        return t == CL_UNORM_INT8;
    case CL_DEPTH:
        return t == CL_UNORM_INT16 || t == CL_FLOAT;
    case CL_DEPTH_STENCIL:
        return t == CL_UNORM_INT24 || t == CL_FLOAT;
    default:
        return false;
    }
}

size_t weft_image_elem_size(const cl_image_format *f)
{
    return comp_size(f->image_channel_data_type) * num_channels(f->image_channel_order);
}

/* For r, g, b, a: the stored component that holds it, -1 for 0, -2 for 1 (reads); and for
 * stored component k: which of r, g, b, a it takes (writes). */
static void swizzles(cl_channel_order o, int32_t read[4], int32_t store[4])
{
    static const struct { cl_channel_order o; int32_t read[4], store[4]; } t[] = {
        {CL_R, {0, -1, -1, -2}, {0, 0, 0, 0}},
        {CL_A, {-1, -1, -1, 0}, {3, 0, 0, 0}},
        {CL_RG, {0, 1, -1, -2}, {0, 1, 0, 0}},
        {CL_RA, {0, -1, -1, 1}, {0, 3, 0, 0}},
        {CL_RGBA, {0, 1, 2, 3}, {0, 1, 2, 3}},
        {CL_BGRA, {2, 1, 0, 3}, {2, 1, 0, 3}},
        {CL_ARGB, {1, 2, 3, 0}, {3, 0, 1, 2}},
        {CL_ABGR, {3, 2, 1, 0}, {3, 2, 1, 0}},
        {CL_INTENSITY, {0, 0, 0, 0}, {0, 0, 0, 0}},
        {CL_LUMINANCE, {0, 0, 0, -2}, {0, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].o == o) {
            memcpy(read, t[i].read, sizeof t[i].read);
            memcpy(store, t[i].store, sizeof t[i].store);
            return;
        }
}

/* float to half, round to nearest even (the conversion rule of write_imagef). */
static uint16_t to_half(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

static int64_t clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* float to an integer with saturation and round to nearest even (NaN gives 0). */
static int64_t sat_rte(float v, int64_t lo, int64_t hi)
{
    if (isnan(v))
        return 0;
    if (v <= (float)lo)
        return lo;
    if (v >= (float)hi)
        return hi;
    return clamp_i64((int64_t)nearbyintf(v), lo, hi);
}

void weft_image_pack_color(const cl_image_format *f, const void *color, void *out)
{
    int32_t read[4], store[4];
    swizzles(f->image_channel_order, read, store);
    const float *cf = color;
    const int32_t *ci = color;
    const uint32_t *cu = color;
    unsigned char *p = out;
    for (unsigned k = 0; k < num_channels(f->image_channel_order); k++) {
        int s = store[k];
        switch (f->image_channel_data_type) {
        case CL_UNORM_INT8: p[k] = (uint8_t)sat_rte(cf[s] * 255.0f, 0, 255); break;
        case CL_UNORM_INT16: ((uint16_t *)p)[k] = (uint16_t)sat_rte(cf[s] * 65535.0f, 0, 65535); break;
        case CL_SNORM_INT8: ((int8_t *)p)[k] = (int8_t)sat_rte(cf[s] * 127.0f, -128, 127); break;
        case CL_SNORM_INT16: ((int16_t *)p)[k] = (int16_t)sat_rte(cf[s] * 32767.0f, -32768, 32767); break;
        case CL_HALF_FLOAT: ((uint16_t *)p)[k] = to_half(cf[s]); break;
        case CL_FLOAT: ((float *)p)[k] = cf[s]; break;
        case CL_SIGNED_INT8: ((int8_t *)p)[k] = (int8_t)clamp_i64(ci[s], -128, 127); break;
        case CL_SIGNED_INT16: ((int16_t *)p)[k] = (int16_t)clamp_i64(ci[s], -32768, 32767); break;
        case CL_SIGNED_INT32: ((int32_t *)p)[k] = ci[s]; break;
        case CL_UNSIGNED_INT8: p[k] = (uint8_t)(cu[s] > 255 ? 255 : cu[s]); break;
        case CL_UNSIGNED_INT16: ((uint16_t *)p)[k] = (uint16_t)(cu[s] > 65535 ? 65535 : cu[s]); break;
        case CL_UNSIGNED_INT32: ((uint32_t *)p)[k] = cu[s]; break;
        default: break;
        }
    }
}

/* ---- creation ------------------------------------------------------------------------- */

static bool is_image_type(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
           t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
           t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

static const char *flags_violation(cl_mem_flags flags)
{
    if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE))
        return "flags contain bits that are not memory flags";
    cl_mem_flags a = flags & ACCESS_FLAGS, h = flags & HOST_ACCESS_FLAGS;
    if (a & (a - 1))
        return "CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive";
    if (h & (h - 1))
        return "CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS are "
               "mutually exclusive";
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return "CL_MEM_USE_HOST_PTR excludes CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR";
    if (flags & CL_MEM_KERNEL_READ_AND_WRITE)
        return "CL_MEM_KERNEL_READ_AND_WRITE is only for clGetSupportedImageFormats";
    return NULL;
}

/* The flags of an image made from a buffer: the buffer's access and host-access qualifiers
 * bound what the image may ask for, and are inherited when it asks for none. */
static const char *buffer_flags_violation(cl_mem_flags flags, cl_mem_flags bf)
{
    if (flags & HOST_PTR_FLAGS)
        return "an image made from a buffer cannot take CL_MEM_USE/ALLOC/COPY_HOST_PTR";
    if ((bf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
        return "the buffer is CL_MEM_WRITE_ONLY; the image cannot be READ_WRITE or READ_ONLY";
    if ((bf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
        return "the buffer is CL_MEM_READ_ONLY; the image cannot be READ_WRITE or WRITE_ONLY";
    if ((bf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY))
        return "the buffer is CL_MEM_HOST_WRITE_ONLY; the image cannot be HOST_READ_ONLY";
    if ((bf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY))
        return "the buffer is CL_MEM_HOST_READ_ONLY; the image cannot be HOST_WRITE_ONLY";
    if ((bf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
        return "the buffer is CL_MEM_HOST_NO_ACCESS; the image cannot allow host access";
    return NULL;
}

static cl_int image_limits(const char *func, cl_device_id dev, const cl_image_desc *d)
{
    size_t w = d->image_width, h = d->image_height, z = d->image_depth, a = d->image_array_size;
    bool ok = true;
    switch (d->image_type) {
    case CL_MEM_OBJECT_IMAGE1D: ok = w <= WEFT_IMAGE2D_MAX; break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: ok = w <= weft_image_max_buffer_size(dev); break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: ok = w <= WEFT_IMAGE2D_MAX && a <= WEFT_IMAGE_MAX_ARRAY; break;
    case CL_MEM_OBJECT_IMAGE2D: ok = w <= WEFT_IMAGE2D_MAX && h <= WEFT_IMAGE2D_MAX; break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        ok = w <= WEFT_IMAGE2D_MAX && h <= WEFT_IMAGE2D_MAX && a <= WEFT_IMAGE_MAX_ARRAY;
        break;
    default: ok = w <= WEFT_IMAGE3D_MAX && h <= WEFT_IMAGE3D_MAX && z <= WEFT_IMAGE3D_MAX; break;
    }
    if (!ok)
        return weft_error(func, CL_INVALID_IMAGE_SIZE,
                          "image size %zux%zux%zu (array %zu) exceeds the device's image limits", w, h, z, a);
    return CL_SUCCESS;
}

static cl_mem create_image(const char *func, cl_context context, const cl_mem_properties *props,
                           size_t num_props, cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    const char *why = flags_violation(flags);
    WEFT_CHECK_RET(!why, CL_INVALID_VALUE, errcode_ret, NULL, "flags 0x%llx: %s", (unsigned long long)flags, why);
    WEFT_CHECK_RET(format && format_valid(format), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, errcode_ret, NULL,
                   "image_format is NULL or names no valid channel order / data type pair");
    WEFT_CHECK_RET(desc && is_image_type(desc->image_type), CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                   "image_desc is NULL or its image_type is not an image type");
    cl_mem_object_type type = desc->image_type;
    bool is3d = type == CL_MEM_OBJECT_IMAGE3D;
    bool has_h = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || is3d;
    bool arr = type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    WEFT_CHECK_RET(desc->image_width > 0 && (!has_h || desc->image_height > 0) &&
                       (!is3d || desc->image_depth > 0) && (!arr || desc->image_array_size > 0),
                   CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                   "a dimension the image type uses is 0 (width %zu height %zu depth %zu array %zu)",
                   desc->image_width, desc->image_height, desc->image_depth, desc->image_array_size);
    WEFT_CHECK_RET(desc->num_mip_levels == 0 && desc->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                   errcode_ret, NULL, "num_mip_levels and num_samples must be 0 (no mipmaps or MSAA)");
    cl_mem buffer = desc->mem_object;
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        WEFT_CHECK_RET(weft_mem_is_buffer(buffer), CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                       "a 1D buffer image needs a live buffer in image_desc->mem_object");
        WEFT_CHECK_RET(buffer->context == context, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                       "image_desc->mem_object belongs to another context");
    } else if (type == CL_MEM_OBJECT_IMAGE2D) {
        /* the specification's code for a device without 2D images from buffers */
        WEFT_CHECK_RET(buffer == NULL, CL_INVALID_OPERATION, errcode_ret, NULL,
                       "2D images from buffers (cl_khr_image2d_from_buffer) are not supported");
    } else {
        WEFT_CHECK_RET(buffer == NULL, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                       "image_desc->mem_object must be NULL for this image type");
    }
    size_t elem = weft_image_elem_size(format);
    size_t w = desc->image_width;
    size_t h = has_h ? desc->image_height : 1;
    size_t depth = is3d ? desc->image_depth : 1;
    size_t layers = arr ? desc->image_array_size : 1;
    size_t min_row;
    WEFT_CHECK_RET(!__builtin_mul_overflow(w, elem ? elem : 1, &min_row), CL_INVALID_IMAGE_SIZE,
                   errcode_ret, NULL, "image row size overflows");
    size_t row = desc->image_row_pitch, slice = desc->image_slice_pitch;
    /* Pitches describe host memory, or the buffer an image is made from: a 1D buffer image
     * has one row, and its row pitch may be given (as the OpenCL-CTS does) if it is valid. */
    WEFT_CHECK_RET(host_ptr || ((row == 0 || buffer) && slice == 0), CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret,
                   NULL, "image_row_pitch %zu / image_slice_pitch %zu must be 0 when host_ptr is NULL", row,
                   slice);
    if (row == 0)
        row = min_row;
    WEFT_CHECK_RET(elem == 0 || (row >= min_row && row % elem == 0), CL_INVALID_IMAGE_DESCRIPTOR,
                   errcode_ret, NULL, "image_row_pitch %zu is less than width x element size %zu or "
                   "not a multiple of the element size", row, min_row);
    size_t min_slice = 0;
    bool sliced = is3d || arr;
    if (sliced) {
        size_t rows = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : h;
        WEFT_CHECK_RET(!__builtin_mul_overflow(row, rows, &min_slice), CL_INVALID_IMAGE_SIZE, errcode_ret,
                       NULL, "image slice size overflows");
        if (slice == 0)
            slice = min_slice;
        WEFT_CHECK_RET(slice >= min_slice && slice % row == 0, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                       "image_slice_pitch %zu is less than %zu or not a multiple of the row pitch %zu",
                       slice, min_slice, row);
    } else {
        slice = 0;
    }
    cl_int err = image_limits(func, context->device, desc);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    size_t total;
    bool ok = sliced ? !__builtin_mul_overflow(slice, is3d ? depth : layers, &total)
                     : !__builtin_mul_overflow(row, h, &total);
    WEFT_CHECK_RET(ok && total <= context->device->max_mem_alloc_size, CL_INVALID_IMAGE_SIZE, errcode_ret,
                   NULL, "the image needs more than CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes");
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        WEFT_CHECK_RET(min_row <= buffer->size, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, NULL,
                       "the image needs %zu bytes but the buffer has %zu", min_row, buffer->size);
    bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    WEFT_CHECK_RET(wants_ptr == (host_ptr != NULL), CL_INVALID_HOST_PTR, errcode_ret, NULL,
                   "host_ptr must be given exactly when CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set");
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        why = buffer_flags_violation(flags, buffer->flags);
        WEFT_CHECK_RET(!why, CL_INVALID_VALUE, errcode_ret, NULL, "flags 0x%llx: %s", (unsigned long long)flags, why);
    }
    WEFT_CHECK_RET(weft_image_format_supported(format), CL_IMAGE_FORMAT_NOT_SUPPORTED, errcode_ret, NULL,
                   "channel order 0x%x with data type 0x%x is not supported",
                   format->image_channel_order, format->image_channel_data_type);

    cl_mem m = weft_mem_new(context);
    struct weft_mem_image *img = m ? calloc(1, sizeof *img) : NULL;
    if (m && !img) {
        weft_mem_free_unpublished(m);
        m = NULL;
    }
    if (!m)
        return WEFT_RETURN(errcode_ret, weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory for the image"), NULL);
    m->image = img;
    if (num_props) {
        m->properties = calloc(num_props, sizeof *m->properties);
        if (!m->properties) {
            weft_mem_free_unpublished(m);
            return WEFT_RETURN(errcode_ret, weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory"), NULL);
        }
        memcpy(m->properties, props, num_props * sizeof *props);
        m->num_properties = num_props;
    }
    m->type = type;
    img->format = *format;
    img->desc = *desc;
    img->elem_size = elem;
    img->extent[0] = w;
    img->extent[1] = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layers : h;
    img->extent[2] = type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? layers : depth;

    /* Storage pitches: the application's for USE_HOST_PTR, else tight. */
    size_t srow = min_row, sslice = sliced ? min_slice : 0;
    if (sliced && type != CL_MEM_OBJECT_IMAGE1D_ARRAY)
        sslice = min_row * h;
    else if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        sslice = min_row;
    if (flags & CL_MEM_USE_HOST_PTR) {
        srow = row;
        sslice = slice;
    }
    img->row_pitch = srow;
    img->slice_pitch = sslice;
    size_t size = sliced ? sslice * (is3d ? depth : layers) : srow * h;
    m->flags = flags;
    m->size = size;
    if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        cl_mem root = weft_mem_root(buffer);
        if (!(flags & ACCESS_FLAGS))
            m->flags |= buffer->flags & ACCESS_FLAGS;
        if (!(flags & HOST_ACCESS_FLAGS))
            m->flags |= buffer->flags & HOST_ACCESS_FLAGS;
        m->flags |= buffer->flags & HOST_PTR_FLAGS;
        m->parent = root;
        m->origin = buffer->origin;
        m->data = buffer->data;
        m->host_ptr = buffer->host_ptr;
        img->buffer = buffer;
        img->desc.buffer = buffer;
        weft_object_hold(WEFT_OBJ(root));
        weft_object_hold(WEFT_OBJ(buffer));
    } else if (flags & CL_MEM_USE_HOST_PTR) {
        m->data = host_ptr;
        m->host_ptr = host_ptr;
    } else {
        m->data = weft_storage_alloc(size);   /* freed by mem.c with m->size */
        if (!m->data) {
            weft_mem_free_unpublished(m);
            return WEFT_RETURN(errcode_ret, weft_error(func, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                                       "cannot allocate %zu bytes of image storage", size),
                               NULL);
        }
        if (flags & CL_MEM_COPY_HOST_PTR) {
            m->host_ptr = host_ptr;
            /* from the application's pitches into tight storage */
            size_t hp1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
            size_t hp2 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : slice;
            size_t sp1 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sslice : srow;
            size_t sp2 = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : sslice;
            for (size_t z = 0; z < img->extent[2]; z++)
                for (size_t y = 0; y < img->extent[1]; y++)
                    memcpy(m->data + z * sp2 + y * sp1, (const char *)host_ptr + z * hp2 + y * hp1, min_row);
        }
    }
    img->pitch[0] = elem;
    img->pitch[1] = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? sslice : srow;
    img->pitch[2] = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : sslice;
    img->desc.image_row_pitch = srow;
    img->desc.image_slice_pitch = sslice;

    struct weft_image_desc *k = &img->kdesc;
    k->data = m->data;
    k->row_pitch = img->pitch[1];
    k->slice_pitch = img->pitch[2];
    k->width = (int32_t)w;
    k->height = (int32_t)h;
    k->depth = (int32_t)depth;
    k->array_size = arr ? (int32_t)layers : 0;
    k->channel_order = (int32_t)format->image_channel_order;
    k->channel_data_type = (int32_t)format->image_channel_data_type;
    k->elem_size = (int32_t)elem;
    k->num_channels = (int32_t)num_channels(format->image_channel_order);
    k->type = (int32_t)type;
    k->comp_size = (int32_t)comp_size(format->image_channel_data_type);
    swizzles(format->image_channel_order, k->swizzle, k->store_from);
    weft_mem_publish(m);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, m);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, const cl_image_format *image_format,
                            const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    /* OpenCL 3.0 defines no image properties: only the empty list {0} is valid. */
    WEFT_CHECK_RET(!properties || properties[0] == 0, CL_INVALID_PROPERTY, errcode_ret, NULL,
                   "memory property 0x%llx is not supported for images",
                   (unsigned long long)(properties ? properties[0] : 0));
    return create_image(__func__, context, properties, properties ? 1 : 0, flags, image_format,
                        image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
              const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
    return create_image(__func__, context, NULL, 0, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                size_t image_width, size_t image_height, size_t image_row_pitch, void *host_ptr,
                cl_int *errcode_ret)
{
    /* OpenCL 1.1 reports zero or too large sizes as CL_INVALID_IMAGE_SIZE */
    WEFT_CHECK_RET(image_width > 0 && image_height > 0, CL_INVALID_IMAGE_SIZE, errcode_ret, NULL,
                   "image_width %zu and image_height %zu must be non-zero", image_width, image_height);
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = image_width,
                       .image_height = image_height, .image_row_pitch = image_row_pitch};
    return create_image(__func__, context, NULL, 0, flags, image_format, &d, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
                size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch,
                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(image_width > 0 && image_height > 0 && image_depth > 1, CL_INVALID_IMAGE_SIZE,
                   errcode_ret, NULL, "image size %zux%zux%zu is not a valid 3D image size",
                   image_width, image_height, image_depth);
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = image_width,
                       .image_height = image_height, .image_depth = image_depth,
                       .image_row_pitch = image_row_pitch, .image_slice_pitch = image_slice_pitch};
    return create_image(__func__, context, NULL, 0, flags, image_format, &d, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                           cl_uint num_entries, cl_image_format *image_formats,
                           cl_uint *num_image_formats)
{
    WEFT_CHECK(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, "context is not a live context");
    const char *why = flags_violation(flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE);
    WEFT_CHECK(!why, CL_INVALID_VALUE, "flags 0x%llx: %s", (unsigned long long)flags, why);
    WEFT_CHECK(is_image_type(image_type), CL_INVALID_VALUE, "image_type 0x%x is not an image type", image_type);
    WEFT_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE,
               "num_entries is 0 but image_formats is not NULL");
    /* Every format works for every image type and access (the builtins convert per format). */
    cl_uint n = 0;
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            cl_image_format f = {orders[o], types[t]};
            if (!weft_image_format_supported(&f))
                continue;
            if (image_formats && n < num_entries)
                image_formats[n] = f;
            n++;
        }
    if (num_image_formats)
        *num_image_formats = n;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void *param_value,
               size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_mem_is_image(image), CL_INVALID_MEM_OBJECT, "image is not a live image object");
    const struct weft_mem_image *img = image->image;
    const cl_image_desc *d = &img->desc;
    size_t sz = param_value_size, *ret = param_value_size_ret;
    void *v = param_value;
    cl_mem_object_type t = image->type;
    bool is3d = t == CL_MEM_OBJECT_IMAGE3D;
    bool has_h = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || is3d;
    bool arr = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    switch (param_name) {
    case CL_IMAGE_FORMAT:
        WEFT_INFO_VALUE(sz, v, ret, cl_image_format, img->format);
    case CL_IMAGE_ELEMENT_SIZE:
        WEFT_INFO_VALUE(sz, v, ret, size_t, img->elem_size);
    case CL_IMAGE_ROW_PITCH:
        WEFT_INFO_VALUE(sz, v, ret, size_t, img->row_pitch);
    case CL_IMAGE_SLICE_PITCH:
        WEFT_INFO_VALUE(sz, v, ret, size_t, (is3d || arr) ? img->slice_pitch : 0);
    case CL_IMAGE_WIDTH:
        WEFT_INFO_VALUE(sz, v, ret, size_t, d->image_width);
    case CL_IMAGE_HEIGHT:
        WEFT_INFO_VALUE(sz, v, ret, size_t, has_h ? d->image_height : 0);
    case CL_IMAGE_DEPTH:
        WEFT_INFO_VALUE(sz, v, ret, size_t, is3d ? d->image_depth : 0);
    case CL_IMAGE_ARRAY_SIZE:
        WEFT_INFO_VALUE(sz, v, ret, size_t, arr ? d->image_array_size : 0);
    case CL_IMAGE_BUFFER:
        WEFT_INFO_VALUE(sz, v, ret, cl_mem, img->buffer);
    case CL_IMAGE_NUM_MIP_LEVELS:
        WEFT_INFO_VALUE(sz, v, ret, cl_uint, 0);
    case CL_IMAGE_NUM_SAMPLES:
        WEFT_INFO_VALUE(sz, v, ret, cl_uint, 0);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not an image query", (unsigned)param_name);
    }
}

size_t weft_image_max_buffer_size(cl_device_id dev)
{
    size_t n = (size_t)(dev->max_mem_alloc_size / 16);
    if (n > ((size_t)1 << 27))
        n = (size_t)1 << 27;
    return n < 65536 ? 65536 : n;
}
