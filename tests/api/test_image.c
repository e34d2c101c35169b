/* tests/api/test_image.c — image and sampler objects and the image commands through the ICD
 * loader: creation of every image type with USE/COPY/ALLOC_HOST_PTR and pitches, the
 * format/descriptor/size error codes in the specification's order, clGetImageInfo and
 * clGetMemObjectInfo, clGetSupportedImageFormats (the 3.0 minimum list), read/write with
 * pitches, copy, fill (colour conversion), image<->buffer copies, map/unmap (zero copy, pitches),
 * origin/region validation per image type, samplers, and image/sampler kernel arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "weft_test.h"

static struct weft_test_env env;
static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

static int group_setup(void **state)
{
    (void)state;
    return weft_test_env_open(&env, 0) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    weft_test_env_close(&env);
    return 0;
}

static cl_mem image2d(cl_mem_flags flags, const cl_image_format *f, size_t w, size_t h, size_t row, void *host,
                      cl_int *err)
{
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                       .image_row_pitch = row};
    return clCreateImage(env.context, flags, f, &d, host, err);
}

static size_t image_info(cl_mem m, cl_image_info p)
{
    size_t v = 12345;
    assert_int_equal(clGetImageInfo(m, p, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static void test_create_errors_in_order(void **state)
{
    (void)state;
    cl_context c = env.context;
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 16};
    char host[16 * 16 * 4];
    cl_int err = 0;
    assert_null(clCreateImage((cl_context)env.device, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateImage(c, CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, NULL, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const cl_image_format bad_pair = {CL_BGRA, CL_FLOAT}, bad_order = {0x1234, CL_FLOAT},
                          rgb_float = {CL_RGB, CL_FLOAT};
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &bad_pair, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &bad_order, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgb_float, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    /* valid formats Weft does not implement */
    const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8}, depth = {CL_DEPTH, CL_FLOAT},
                          r565 = {CL_RGB, CL_UNORM_SHORT_565};
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &srgba, &desc, NULL, &err));
    assert_int_equal(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &depth, &desc, NULL, &err));
    assert_int_equal(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &r565, &desc, NULL, &err));
    assert_int_equal(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    /* descriptors */
    cl_image_desc d = desc;
    d.image_type = CL_MEM_OBJECT_BUFFER;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc, d.image_width = 0;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc, d.num_mip_levels = 2;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc, d.image_row_pitch = 64;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));   /* pitch without host_ptr */
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc, d.image_row_pitch = 60;                                          /* less than 16 x 4 */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d = desc, d.image_row_pitch = 66;                                          /* not a multiple of 4 */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    d = desc, d.mem_object = buf;                                              /* no image2d_from_buffer */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);   /* the spec's code for that (OpenCL-CTS api) */
    d = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16};
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));   /* no buffer */
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d.mem_object = buf, d.image_width = 2048;                                  /* 8 KiB > 4 KiB buffer */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d.image_width = 16;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_mem wo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, 4096, NULL, &err);
    d.mem_object = wo;                                                         /* buffer WRITE_ONLY */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    clReleaseMemObject(wo);
    /* sizes above the device limits */
    size_t max2d = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL), CL_SUCCESS);
    d = desc, d.image_width = max2d + 1;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    d = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 4,
                        .image_array_size = (size_t)1 << 40};
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    /* host pointers */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &desc, host, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    const cl_mem_properties props[] = {0x4242, 1, 0};
    assert_null(clCreateImageWithProperties(c, props, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    assert_null(clCreateImage2D(c, CL_MEM_READ_ONLY, &rgba8, 0, 16, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    assert_null(clCreateImage3D(c, CL_MEM_READ_ONLY, &rgba8, 4, 4, 1, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    clReleaseMemObject(buf);
}

/* The deprecated 1.1 entry points make the same images as clCreateImage. */
static void test_create_image2d_3d(void **state)
{
    (void)state;
    cl_int err;
    uint32_t host[4 * 3 * 2];
    for (int i = 0; i < 24; i++)
        host[i] = (uint32_t)i * 0x01010101u;
    cl_mem a = clCreateImage2D(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, 4, 3, 16, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem_object_type t;
    assert_int_equal(clGetMemObjectInfo(a, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_MEM_OBJECT_IMAGE2D);
    cl_mem b = clCreateImage3D(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &rgba8, 4, 3, 2, 0, 0, host,
                               &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_info(b, CL_IMAGE_DEPTH), 2);
    assert_int_equal(image_info(b, CL_IMAGE_SLICE_PITCH), 48);
    uint32_t got[24];
    size_t o[3] = {0, 0, 0}, r[3] = {4, 3, 2};
    assert_int_equal(clEnqueueReadImage(env.queue, b, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(got, host, sizeof got);
    r[2] = 1;
    assert_int_equal(clEnqueueReadImage(env.queue, a, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(got, host, 48);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

static void test_supported_formats(void **state)
{
    (void)state;
    static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    static const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE};
    static const cl_channel_type all[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16,
                                          CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                          CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
    for (size_t ti = 0; ti < 6; ti++)
        for (size_t fi = 0; fi < 3; fi++) {
            cl_uint n = 0;
            assert_int_equal(clGetSupportedImageFormats(env.context, flags[fi], types[ti], 0, NULL, &n), CL_SUCCESS);
            cl_image_format *f = calloc(n, sizeof *f);
            cl_uint n2 = 0;
            assert_int_equal(clGetSupportedImageFormats(env.context, flags[fi], types[ti], n, f, &n2), CL_SUCCESS);
            assert_int_equal(n, n2);
            /* the 3.0 minimum list: R, RG, RGBA with every type, BGRA UNORM_INT8 */
            static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
            for (size_t o = 0; o < 4; o++)
                for (size_t t = 0; t < 12; t++) {
                    if (o == 3 && t > 0)
                        break;
                    cl_image_format want = {o == 3 ? CL_BGRA : orders[o], all[t]};
                    bool found = false;
                    for (cl_uint i = 0; i < n; i++)
                        found |= f[i].image_channel_order == want.image_channel_order &&
                                 f[i].image_channel_data_type == want.image_channel_data_type;
                    if (!found)
                        fail_msg("type 0x%x flags 0x%llx: format 0x%x/0x%x missing", types[ti],
                                 (unsigned long long)flags[fi], want.image_channel_order, want.image_channel_data_type);
                }
            free(f);
        }
    cl_image_format f[2];
    cl_uint n;
    assert_int_equal(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 2, f, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, f, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats((cl_context)env.device, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 2,
                                                f, &n),
                     CL_INVALID_CONTEXT);
}

static void test_info_per_type(void **state)
{
    (void)state;
    cl_int err;
    const cl_image_format rg16 = {CL_RG, CL_UNSIGNED_INT16};   /* 4-byte pixels */
    struct {
        cl_image_desc d;
        size_t w, h, depth, arr, row, slice;
    } cases[] = {
        {{.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 10}, 10, 0, 0, 0, 40, 0},
        {{.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 10, .image_array_size = 3}, 10, 0, 0, 3, 40, 40},
        {{.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 10, .image_height = 5}, 10, 5, 0, 0, 40, 0},
        {{.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 10, .image_height = 5, .image_array_size = 3},
         10, 5, 0, 3, 40, 200},
        {{.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 10, .image_height = 5, .image_depth = 4},
         10, 5, 4, 0, 40, 200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_mem m = clCreateImage(env.context, CL_MEM_READ_WRITE, &rg16, &cases[i].d, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        cl_image_format f;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, NULL), CL_SUCCESS);
        assert_int_equal(f.image_channel_order, CL_RG);
        assert_int_equal(f.image_channel_data_type, CL_UNSIGNED_INT16);
        assert_int_equal(image_info(m, CL_IMAGE_ELEMENT_SIZE), 4);
        assert_int_equal(image_info(m, CL_IMAGE_WIDTH), cases[i].w);
        assert_int_equal(image_info(m, CL_IMAGE_HEIGHT), cases[i].h);
        assert_int_equal(image_info(m, CL_IMAGE_DEPTH), cases[i].depth);
        assert_int_equal(image_info(m, CL_IMAGE_ARRAY_SIZE), cases[i].arr);
        assert_int_equal(image_info(m, CL_IMAGE_ROW_PITCH), cases[i].row);
        assert_int_equal(image_info(m, CL_IMAGE_SLICE_PITCH), cases[i].slice);
        cl_uint u = 9;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL), CL_SUCCESS);
        assert_int_equal(u, 0);
        cl_mem_object_type t;
        assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
        assert_int_equal(t, cases[i].d.image_type);
        size_t size;
        assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
        assert_true(size >= cases[i].w * 4 * (cases[i].h ? cases[i].h : 1) * (cases[i].depth ? cases[i].depth : 1) *
                                (cases[i].arr ? cases[i].arr : 1));
        assert_int_equal(clGetImageInfo(m, 0x4242, sizeof size, &size, NULL), CL_INVALID_VALUE);
        assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    }
    /* a buffer is not an image */
    cl_mem b = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 64, NULL, &err);
    size_t v;
    assert_int_equal(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    /* a 1D buffer image names its buffer */
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16, .buffer = b};
    cl_mem ib = clCreateImage(env.context, 0, &rg16, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem assoc = NULL, ibuf = NULL;
    assert_int_equal(clGetMemObjectInfo(ib, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL), CL_SUCCESS);
    assert_ptr_equal(assoc, b);
    assert_int_equal(clGetImageInfo(ib, CL_IMAGE_BUFFER, sizeof ibuf, &ibuf, NULL), CL_SUCCESS);
    assert_ptr_equal(ibuf, b);
    cl_mem_flags fl;
    assert_int_equal(clGetMemObjectInfo(ib, CL_MEM_FLAGS, sizeof fl, &fl, NULL), CL_SUCCESS);
    assert_true(fl & CL_MEM_READ_WRITE);   /* inherited from the buffer */
    /* the image keeps the buffer alive */
    /* its row pitch may be given when valid (OpenCL-CTS kernel_image_methods 1Dbuffer passes
     * width x element size); the slice pitch may not */
    d.image_row_pitch = 16 * 4;
    cl_mem ip = clCreateImage(env.context, 0, &rg16, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_info(ip, CL_IMAGE_ROW_PITCH), 16 * 4);
    clReleaseMemObject(ip);
    d.image_row_pitch = 16 * 4 + 2;
    assert_null(clCreateImage(env.context, 0, &rg16, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d.image_row_pitch = 0;
    d.image_slice_pitch = 64;
    assert_null(clCreateImage(env.context, 0, &rg16, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(b);
    uint32_t px[16];
    size_t o[3] = {0, 0, 0}, r[3] = {16, 1, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, ib, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(ib);
}

static void test_host_ptr_and_pitches(void **state)
{
    (void)state;
    enum { W = 5, H = 3, ROW = 32 };   /* 20 bytes of pixels per 32-byte row */
    unsigned char host[ROW * H];
    for (int i = 0; i < ROW * H; i++)
        host[i] = (unsigned char)i;
    cl_int err;
    /* USE_HOST_PTR: the application's memory with its pitch, zero copy */
    cl_mem u = image2d(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &rgba8, W, H, ROW, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_info(u, CL_IMAGE_ROW_PITCH), ROW);
    void *hp = NULL;
    assert_int_equal(clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_ptr_equal(hp, host);
    size_t o[3] = {1, 1, 0}, r[3] = {3, 2, 1}, row = 0, slice = 99;
    unsigned char *p = clEnqueueMapImage(env.queue, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &row, &slice, 0,
                                         NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_ptr_equal(p, host + ROW + 4);
    assert_int_equal(row, ROW);
    assert_int_equal(slice, 0);
    p[ROW] = 200;   /* pixel (1, 2), red */
    cl_uint count = 0;
    assert_int_equal(clGetMemObjectInfo(u, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_equal(clEnqueueUnmapMemObject(env.queue, u, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(env.queue, u, p, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    /* COPY_HOST_PTR with a pitch: stored tightly, read back with another pitch */
    cl_mem c = image2d(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &rgba8, W, H, ROW, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_info(c, CL_IMAGE_ROW_PITCH), W * 4);
    unsigned char back[24 * H];
    size_t o0[3] = {0, 0, 0}, all[3] = {W, H, 1};
    memset(back, 0xEE, sizeof back);
    assert_int_equal(clEnqueueReadImage(env.queue, c, CL_TRUE, o0, all, 24, 0, back, 0, NULL, NULL), CL_SUCCESS);
    for (int y = 0; y < H; y++) {
        assert_memory_equal(back + y * 24, host + y * ROW, W * 4);
        assert_int_equal(back[y * 24 + 20], 0xEE);   /* the pitch gap is not written */
    }
    assert_int_equal(back[24 + 24 + 4], 200);
    /* ALLOC_HOST_PTR: write then read a sub-region with pitches */
    cl_mem a = image2d(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, &rgba8, W, H, 0, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueWriteImage(env.queue, a, CL_TRUE, o0, all, ROW, 0, host, 0, NULL, NULL), CL_SUCCESS);
    unsigned char sub[3 * 4 * 2];
    assert_int_equal(clEnqueueReadImage(env.queue, a, CL_TRUE, o, r, 0, 0, sub, 0, NULL, NULL), CL_SUCCESS);
    for (int y = 0; y < 2; y++)
        assert_memory_equal(sub + y * 12, host + (1 + y) * ROW + 4, 12);
    /* pitch rules of read/write */
    assert_int_equal(clEnqueueReadImage(env.queue, a, CL_TRUE, o0, all, 8, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(env.queue, a, CL_TRUE, o0, all, 0, 64, back, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(env.queue, a, CL_TRUE, o0, all, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(u);
    clReleaseMemObject(c);
    clReleaseMemObject(a);
}

static void test_region_validation_per_type(void **state)
{
    (void)state;
    cl_int err;
    char data[4096];
    cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 8};
    cl_image_desc d1a = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 8, .image_array_size = 4};
    cl_image_desc d2a = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 8, .image_height = 4,
                         .image_array_size = 3};
    cl_mem i1 = clCreateImage(env.context, 0, &rgba8, &d1, NULL, &err);
    cl_mem i1a = clCreateImage(env.context, 0, &rgba8, &d1a, NULL, &err);
    cl_mem i2a = clCreateImage(env.context, 0, &rgba8, &d2a, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    struct { cl_mem m; size_t o[3], r[3]; cl_int want; } cases[] = {
        {i1, {0, 0, 0}, {8, 1, 1}, CL_SUCCESS},
        {i1, {1, 0, 0}, {8, 1, 1}, CL_INVALID_VALUE},
        {i1, {0, 1, 0}, {1, 1, 1}, CL_INVALID_VALUE},
        {i1, {0, 0, 0}, {1, 2, 1}, CL_INVALID_VALUE},
        {i1, {0, 0, 0}, {0, 1, 1}, CL_INVALID_VALUE},
        {i1a, {0, 3, 0}, {8, 1, 1}, CL_SUCCESS},
        {i1a, {0, 3, 0}, {8, 2, 1}, CL_INVALID_VALUE},
        {i1a, {0, 0, 1}, {8, 1, 1}, CL_INVALID_VALUE},
        {i2a, {0, 0, 2}, {8, 4, 1}, CL_SUCCESS},
        {i2a, {0, 0, 2}, {8, 4, 2}, CL_INVALID_VALUE},
        {i2a, {0, 1, 0}, {8, 4, 1}, CL_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_int got = clEnqueueReadImage(env.queue, cases[i].m, CL_TRUE, cases[i].o, cases[i].r, 0, 0, data, 0, NULL,
                                        NULL);
        if (got != cases[i].want)
            fail_msg("case %zu: read returned %d, expected %d", i, got, cases[i].want);
        uint32_t fill[4] = {0};
        got = clEnqueueFillImage(env.queue, cases[i].m, fill, cases[i].o, cases[i].r, 0, NULL, NULL);
        if (got != cases[i].want)
            fail_msg("case %zu: fill returned %d, expected %d", i, got, cases[i].want);
    }
    /* a 1D array's slice pitch is the distance between its layers */
    assert_int_equal(image_info(i1a, CL_IMAGE_SLICE_PITCH), 32);
    size_t o[3] = {0, 0, 0}, r[3] = {8, 4, 1}, row = 0, slice = 0;
    void *p = clEnqueueMapImage(env.queue, i1a, CL_TRUE, CL_MAP_READ, o, r, &row, &slice, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(row, 32);
    assert_int_equal(slice, 32);
    assert_int_equal(clEnqueueUnmapMemObject(env.queue, i1a, p, 0, NULL, NULL), CL_SUCCESS);
    /* arrays and 3D images need image_slice_pitch */
    assert_null(clEnqueueMapImage(env.queue, i2a, CL_TRUE, CL_MAP_READ, o, (size_t[]){8, 4, 1}, &row, NULL, 0, NULL,
                                  NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clEnqueueMapImage(env.queue, i1, CL_TRUE, CL_MAP_READ, o, (size_t[]){8, 1, 1}, NULL, NULL, 0, NULL,
                                  NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_int_equal(clFinish(env.queue), CL_SUCCESS);
    clReleaseMemObject(i1);
    clReleaseMemObject(i1a);
    clReleaseMemObject(i2a);
}

static void test_copy_fill_and_buffers(void **state)
{
    (void)state;
    enum { W = 6, H = 4, D = 3 };
    cl_int err;
    cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = W, .image_height = H, .image_depth = D};
    const cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    unsigned char src[D][H][W][4];
    for (size_t i = 0; i < sizeof src; i++)
        ((unsigned char *)src)[i] = (unsigned char)(i * 7);
    cl_mem a = clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &f, &d3, src, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem b = image2d(0, &f, W, H, 0, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    /* copy slice 2 of the 3D image into the 2D image, rows 1..3 to rows 0..2 */
    size_t so[3] = {0, 1, 2}, dof[3] = {0, 0, 0}, r[3] = {W, 3, 1};
    assert_int_equal(clEnqueueCopyImage(env.queue, a, b, so, dof, r, 0, NULL, NULL), CL_SUCCESS);
    unsigned char got[H][W][4];
    size_t o0[3] = {0, 0, 0}, all2[3] = {W, H, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, b, CL_TRUE, o0, (size_t[]){W, 3, 1}, 0, 0, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int y = 0; y < 3; y++)
        assert_memory_equal(got[y], src[2][y + 1], W * 4);
    /* errors: mismatched formats, overlap within one image */
    const cl_image_format f16 = {CL_RGBA, CL_UNORM_INT16};
    cl_mem c16 = image2d(0, &f16, W, H, 0, NULL, &err);
    assert_int_equal(clEnqueueCopyImage(env.queue, b, c16, o0, o0, r, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
    assert_int_equal(clEnqueueCopyImage(env.queue, b, b, o0, (size_t[]){1, 1, 0}, (size_t[]){2, 2, 1}, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueCopyImage(env.queue, b, b, o0, (size_t[]){0, 3, 0}, (size_t[]){W, 1, 1}, 0, NULL, NULL),
                     CL_SUCCESS);
    /* fill converts the colour: 0.5 * 255 = 127.5 rounds to even 128; out of range saturates */
    float color[4] = {0.5f, 1.5f, -0.25f, 0.2f};
    assert_int_equal(clEnqueueFillImage(env.queue, b, color, (size_t[]){1, 1, 0}, (size_t[]){2, 2, 1}, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(env.queue, b, CL_TRUE, o0, all2, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    for (int y = 1; y < 3; y++)
        for (int x = 1; x < 3; x++) {
            assert_int_equal(got[y][x][0], 128);
            assert_int_equal(got[y][x][1], 255);
            assert_int_equal(got[y][x][2], 0);
            assert_int_equal(got[y][x][3], 51);
        }
    assert_memory_equal(got[0][0], src[2][1][0], 4);   /* outside the fill region: unchanged */
    /* fill of an integer format takes an int colour; BGRA stores blue first */
    const cl_image_format si16 = {CL_RG, CL_SIGNED_INT16}, bgra = {CL_BGRA, CL_UNORM_INT8};
    cl_mem s = image2d(0, &si16, 2, 2, 0, NULL, &err);
    int32_t icolor[4] = {-40000, 1234, 0, 0};
    assert_int_equal(clEnqueueFillImage(env.queue, s, icolor, o0, (size_t[]){2, 2, 1}, 0, NULL, NULL), CL_SUCCESS);
    int16_t sg[2][2][2];
    assert_int_equal(clEnqueueReadImage(env.queue, s, CL_TRUE, o0, (size_t[]){2, 2, 1}, 0, 0, sg, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(sg[1][1][0], -32768);
    assert_int_equal(sg[1][1][1], 1234);
    cl_mem bg = image2d(0, &bgra, 1, 1, 0, NULL, &err);
    float c2[4] = {1.0f, 0.0f, 0.2f, 1.0f};
    assert_int_equal(clEnqueueFillImage(env.queue, bg, c2, o0, (size_t[]){1, 1, 1}, 0, NULL, NULL), CL_SUCCESS);
    unsigned char px[4];
    assert_int_equal(clEnqueueReadImage(env.queue, bg, CL_TRUE, o0, (size_t[]){1, 1, 1}, 0, 0, px, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(px[0], 51);
    assert_int_equal(px[2], 255);
    assert_int_equal(clEnqueueFillImage(env.queue, bg, NULL, o0, (size_t[]){1, 1, 1}, 0, NULL, NULL), CL_INVALID_VALUE);
    /* image <-> buffer: a 3D box to a tight buffer and back into another place */
    cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    size_t box_o[3] = {1, 1, 1}, box[3] = {3, 2, 2};
    assert_int_equal(clEnqueueCopyImageToBuffer(env.queue, a, buf, box_o, box, 16, 0, NULL, NULL), CL_SUCCESS);
    unsigned char lin[3 * 2 * 2 * 4];
    assert_int_equal(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 16, sizeof lin, lin, 0, NULL, NULL), CL_SUCCESS);
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            assert_memory_equal(lin + (z * 2 + y) * 12, src[1 + z][1 + y][1], 12);
    assert_int_equal(clEnqueueCopyBufferToImage(env.queue, buf, b, 16, o0, (size_t[]){3, 2, 1}, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(env.queue, b, CL_TRUE, o0, all2, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(got[1][0], src[1][2][1], 12);
    assert_int_equal(clEnqueueCopyImageToBuffer(env.queue, a, buf, box_o, box, 1000, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyImageToBuffer(env.queue, a, a, box_o, box, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueCopyBufferToImage(env.queue, buf, buf, 0, o0, box, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    /* a buffer is not an image for the image commands */
    assert_int_equal(clEnqueueReadImage(env.queue, buf, CL_TRUE, o0, r, 0, 0, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    /* host access flags */
    cl_mem ro = image2d(CL_MEM_HOST_WRITE_ONLY, &f, W, H, 0, NULL, &err);
    assert_int_equal(clEnqueueReadImage(env.queue, ro, CL_TRUE, o0, all2, 0, 0, got, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueWriteImage(env.queue, ro, CL_TRUE, o0, all2, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(ro);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c16);
    clReleaseMemObject(s);
    clReleaseMemObject(bg);
    clReleaseMemObject(buf);
}

static void test_samplers(void **state)
{
    (void)state;
    cl_context c = env.context;
    cl_int err = 0;
    cl_sampler s = clCreateSampler(c, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_bool b;
    cl_addressing_mode a;
    cl_filter_mode f;
    cl_uint rc;
    cl_context ctx;
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof b, &b, NULL), CL_SUCCESS);
    assert_int_equal(b, CL_TRUE);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof a, &a, NULL), CL_SUCCESS);
    assert_int_equal(a, CL_ADDRESS_REPEAT);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof f, &f, NULL), CL_SUCCESS);
    assert_int_equal(f, CL_FILTER_LINEAR);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, c);
    assert_int_equal(clRetainSampler(s), CL_SUCCESS);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, NULL), CL_SUCCESS);
    assert_int_equal(rc, 2);
    size_t n = 7;
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(clGetSamplerInfo(s, 0x4242, sizeof rc, &rc, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseSampler(s), CL_SUCCESS);
    assert_int_equal(clReleaseSampler(s), CL_SUCCESS);

    /* REPEAT needs normalized coordinates; unknown values */
    assert_null(clCreateSampler(c, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, CL_TRUE, CL_ADDRESS_CLAMP, 0x9999, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, 5, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler((cl_context)env.device, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);

    const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE,
                                           CL_FILTER_LINEAR, 0};
    s = clCreateSamplerWithProperties(c, props, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof a, &a, NULL), CL_SUCCESS);
    assert_int_equal(a, CL_ADDRESS_CLAMP);   /* the default */
    cl_sampler_properties back[5];
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof props);
    assert_memory_equal(back, props, sizeof props);
    clReleaseSampler(s);
    const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                           CL_FILTER_LINEAR, 0};
    assert_null(clCreateSamplerWithProperties(c, twice, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const cl_sampler_properties unknown[] = {0x4321, 1, 0};
    assert_null(clCreateSamplerWithProperties(c, unknown, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_int_equal(clRetainSampler((cl_sampler)c), CL_INVALID_SAMPLER);
    assert_int_equal(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
}

static const char *kernel_src =
    "kernel void k(read_only image2d_t a, write_only image3d_t b, read_write image1d_t c, sampler_t s,\n"
    "              global uint *out) {\n"
    "  out[0] = read_imageui(a, s, (int2)(1, 0)).x;\n"
    "}\n"
    "kernel void fill(global uchar4 *p) { p[get_global_id(0)] = (uchar4)(get_global_id(0) + 5, 1, 2, 3); }\n";

static void test_kernel_arguments(void **state)
{
    (void)state;
    cl_program p = weft_test_build(&env, kernel_src, "-cl-std=CL3.0 -cl-kernel-arg-info");
    assert_non_null(p);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    static const struct { cl_kernel_arg_access_qualifier acc; const char *type; cl_kernel_arg_address_qualifier as; }
        want[] = {{CL_KERNEL_ARG_ACCESS_READ_ONLY, "image2d_t", CL_KERNEL_ARG_ADDRESS_GLOBAL},
                  {CL_KERNEL_ARG_ACCESS_WRITE_ONLY, "image3d_t", CL_KERNEL_ARG_ADDRESS_GLOBAL},
                  {CL_KERNEL_ARG_ACCESS_READ_WRITE, "image1d_t", CL_KERNEL_ARG_ADDRESS_GLOBAL},
                  {CL_KERNEL_ARG_ACCESS_NONE, "sampler_t", CL_KERNEL_ARG_ADDRESS_PRIVATE}};
    for (cl_uint i = 0; i < 4; i++) {
        cl_kernel_arg_access_qualifier acc;
        cl_kernel_arg_address_qualifier as;
        char name[64];
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL), CL_SUCCESS);
        assert_int_equal(acc, want[i].acc);
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL), CL_SUCCESS);
        assert_string_equal(name, want[i].type);
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof as, &as, NULL), CL_SUCCESS);
        assert_int_equal(as, want[i].as);
    }
    cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 256, NULL, &err);
    const cl_image_format u8 = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_mem a = image2d(0, &u8, 4, 4, 0, NULL, &err);
    cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4, .image_depth = 2};
    cl_mem b = clCreateImage(env.context, 0, &rgba8, &d3, NULL, &err);
    cl_sampler s = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    assert_int_equal(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);     /* a buffer */
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_INVALID_ARG_VALUE);          /* a 3D image */
    assert_int_equal(clSetKernelArg(k, 0, 4, &a), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 0, sizeof a, NULL), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof buf, &buf), CL_INVALID_SAMPLER);
    assert_int_equal(clSetKernelArg(k, 3, 4, &s), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 3, sizeof s, &s), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 4, sizeof a, &a), CL_INVALID_MEM_OBJECT);         /* image as buffer */
    clReleaseSampler(s);   /* the argument keeps the sampler's value, not the object */
    assert_int_equal(clSetKernelArg(k, 1, sizeof b, &b), CL_SUCCESS);
    cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 4};
    cl_mem c = clCreateImage(env.context, 0, &rgba8, &d1, NULL, &err);
    assert_int_equal(clSetKernelArg(k, 2, sizeof c, &c), CL_SUCCESS);
    /* an image the host created write-only cannot be a read_only argument, nor a read-only
     * one a write_only argument (OpenCL-CTS api negative_set_read_write_image_arg) */
    cl_mem a_wo = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &rgba8,
                                &(cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4,
                                                 .image_height = 4}, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem b_ro = clCreateImage(env.context, CL_MEM_READ_ONLY, &rgba8, &d3, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof a_wo, &a_wo), CL_INVALID_ARG_VALUE);
    assert_int_equal(clSetKernelArg(k, 1, sizeof b_ro, &b_ro), CL_INVALID_ARG_VALUE);
    clReleaseMemObject(a_wo);
    clReleaseMemObject(b_ro);
    assert_int_equal(clSetKernelArg(k, 4, sizeof buf, &buf), CL_SUCCESS);

    /* image commands are sync points for held-back launches: a buffer written by a launch is
     * then copied into the image, whose pixel the kernel reads */
    cl_kernel fk = clCreateKernel(p, "fill", &err);
    assert_int_equal(clSetKernelArg(fk, 0, sizeof buf, &buf), CL_SUCCESS);
    size_t g = 16;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, fk, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
    assert_int_equal(clEnqueueCopyBufferToImage(env.queue, buf, a, 0, o, r, 0, NULL, NULL), CL_SUCCESS);
    g = 1;
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_uint v = 99;
    assert_int_equal(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(v, 6);   /* pixel (1, 0) red = work-item 1's first byte */
    /* a released image set as an argument is refused at launch */
    clReleaseMemObject(c);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    clReleaseKernel(fk);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(buf);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_errors_in_order),
        cmocka_unit_test(test_create_image2d_3d),
        cmocka_unit_test(test_supported_formats),
        cmocka_unit_test(test_info_per_type),
        cmocka_unit_test(test_host_ptr_and_pitches),
        cmocka_unit_test(test_region_validation_per_type),
        cmocka_unit_test(test_copy_fill_and_buffers),
        cmocka_unit_test(test_samplers),
        cmocka_unit_test(test_kernel_arguments),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
