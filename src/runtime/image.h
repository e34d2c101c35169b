/* runtime/image.h — image formats, limits and helpers shared by image objects (image.c),
 * image commands (image_commands.c), kernel arguments and the device queries. */
#ifndef WEFT_RUNTIME_IMAGE_H
#define WEFT_RUNTIME_IMAGE_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* Device image limits (the full-profile minimums of OpenCL 3.0 for a device with images, or
 * more): pixels per dimension, layers per array. */
#define WEFT_IMAGE2D_MAX 16384u
#define WEFT_IMAGE3D_MAX 2048u
#define WEFT_IMAGE_MAX_ARRAY 2048u
#define WEFT_MAX_READ_IMAGE_ARGS 128u
#define WEFT_MAX_WRITE_IMAGE_ARGS 64u
#define WEFT_MAX_READ_WRITE_IMAGE_ARGS 64u
#define WEFT_MAX_SAMPLERS 16u

/* CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: pixels of a 1D buffer image (the widest pixel is 16 bytes,
 * and get_image_width returns an int). */
size_t weft_image_max_buffer_size(cl_device_id dev);
bool weft_image_format_supported(const cl_image_format *f);
size_t weft_image_elem_size(const cl_image_format *f);
/* One pixel of format `f` from a fill colour (float[4] for normalized and float formats,
 * int32[4] / uint32[4] for the integer ones), with write_image*'s conversion rules. */
void weft_image_pack_color(const cl_image_format *f, const void *color, void *out);

#endif
