/* tests/e2e/test_kernels_images.c — images and samplers in kernels, checked against a host
 * implementation of the OpenCL 3.0 rules (8.2 addressing and filtering, 8.3 conversions):
 *   - a copy kernel per supported 2D format (read_image{f,i,ui} -> write_image{f,i,ui}) keeps
 *     every pixel's bytes, and the values read match the host's conversion of the bytes;
 *   - every addressing x filter x normalized combination on a small RGBA float image with float
 *     coordinates (LINEAR within a small tolerance), a sampler declared in kernel code, and
 *     integer coordinates with a sampler;
 *   - 1D, 1D array, 2D array and 3D images written and read by kernels (trilinear on 3D);
 *   - a 1D image over a buffer, a read_write image, and the image queries. */
#include "test_kernels_harness.h"

#include <string.h>

static const char *source =
    /* the 3.0 feature macros the device reports for images are what kernels see */
    "#if !defined(__opencl_c_images) || !defined(__opencl_c_read_write_images) || \\\n"
    "    !defined(__opencl_c_3d_image_writes) || !defined(cl_khr_3d_image_writes)\n"
    "#error the image feature macros are not defined\n"
    "#endif\n"
    "kernel void copy_f(read_only image2d_t src, write_only image2d_t dst, global float4 *vals) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float4 v = read_imagef(src, p);\n"
    "  vals[p.y * get_image_width(src) + p.x] = v;\n"
    "  write_imagef(dst, p, v);\n"
    "}\n"
    "kernel void copy_i(read_only image2d_t src, write_only image2d_t dst, global int4 *vals) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  int4 v = read_imagei(src, p);\n"
    "  vals[p.y * get_image_width(src) + p.x] = v;\n"
    "  write_imagei(dst, p, v);\n"
    "}\n"
    "kernel void copy_ui(read_only image2d_t src, write_only image2d_t dst, global uint4 *vals) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  uint4 v = read_imageui(src, p);\n"
    "  vals[p.y * get_image_width(src) + p.x] = v;\n"
    "  write_imageui(dst, p, v);\n"
    "}\n"
    "kernel void sample2d(read_only image2d_t img, sampler_t s, global const float2 *c, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "kernel void sample2d_int(read_only image2d_t img, sampler_t s, global const int2 *c, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "constant sampler_t ksmp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;\n"
    "kernel void sample2d_const(read_only image2d_t img, global const float2 *c, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, ksmp, c[i]);\n"
    "}\n"
    "kernel void write1d(write_only image1d_t img) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imagef(img, x, (float4)(x, 2 * x, 0.5f, 1.0f));\n"
    "}\n"
    "kernel void write1da(write_only image1d_array_t img) {\n"
    "  int x = get_global_id(0), l = get_global_id(1);\n"
    "  write_imagei(img, (int2)(x, l), (int4)(x, l, -x, x * l));\n"
    "}\n"
    "kernel void write2da(write_only image2d_array_t img) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);\n"
    "  write_imageui(img, (int4)(x, y, l, 0), (uint4)(x, y, l, 7));\n"
    "}\n"
    "kernel void write3d(write_only image3d_t img) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  write_imagef(img, (int4)(x, y, z, 0), (float4)(x, y, z, x + 10 * y + 100 * z));\n"
    "}\n"
    "kernel void read1d(read_only image1d_t img, sampler_t s, global const float *c, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "kernel void read1da(read_only image1d_array_t img, sampler_t s, global const float2 *c, global int4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagei(img, s, c[i]);\n"
    "}\n"
    "kernel void read2da(read_only image2d_array_t img, global const int4 *c, global uint4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imageui(img, c[i]);\n"
    "}\n"
    "kernel void read3d(read_only image3d_t img, sampler_t s, global const float4 *c, global float4 *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = read_imagef(img, s, c[i]);\n"
    "}\n"
    "kernel void buf_image(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) {\n"
    "  int x = get_global_id(0);\n"
    "  write_imageui(dst, x, read_imageui(src, x) * 3u + (uint4)(1, 2, 3, 4));\n"
    "}\n"
    "kernel void rw_inc(read_write image2d_t img) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imagei(img, p, read_imagei(img, p) + (int4)(1, 2, 3, 4));\n"
    "}\n"
    "kernel void queries(read_only image2d_t a, write_only image3d_t b, read_only image2d_array_t c,\n"
    "                    read_only image1d_array_t d, global int *out) {\n"
    "  out[0] = get_image_width(a); out[1] = get_image_height(a);\n"
    "  int2 da = get_image_dim(a); out[2] = da.x; out[3] = da.y;\n"
    "  out[4] = get_image_channel_data_type(a); out[5] = get_image_channel_order(a);\n"
    "  int4 db = get_image_dim(b); out[6] = db.x; out[7] = db.y; out[8] = db.z; out[9] = db.w;\n"
    "  out[10] = get_image_depth(b); out[11] = (int)get_image_array_size(c);\n"
    "  out[12] = (int)get_image_array_size(d); out[13] = get_image_width(d);\n"
    "  out[14] = get_image_channel_order(b); out[15] = get_image_channel_data_type(c);\n"
    "}\n"
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "kernel void half_rw(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  write_imageh(dst, p, read_imageh(src, p) * (half)2 + read_imageh(src, s, p));\n"
    "}\n"
    "#endif\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, "-cl-std=CL3.0");
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

static cl_mem image_new(cl_mem_object_type type, cl_channel_order o, cl_channel_type t, size_t w, size_t h,
                        size_t d, size_t layers, cl_mem_flags flags, void *host)
{
    cl_image_format f = {o, t};
    cl_image_desc desc = {.image_type = type, .image_width = w, .image_height = h, .image_depth = d,
                          .image_array_size = layers};
    cl_int err;
    cl_mem m = clCreateImage(env.context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &desc, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static cl_sampler sampler_new(cl_bool norm, cl_addressing_mode a, cl_filter_mode f)
{
    cl_int err;
    cl_sampler s = clCreateSampler(env.context, norm, a, f, &err);
    assert_int_equal(err, CL_SUCCESS);
    return s;
}

/* ---- host conversions (8.3) --------------------------------------------------------------- */

static size_t comp_bytes(cl_channel_type t)
{
    switch (t) {
    case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
    default: return 2;
    }
}

static unsigned channels(cl_channel_order o)
{
    return o == CL_R ? 1 : o == CL_RG ? 2 : 4;
}

static float half_to_float(uint16_t h)
{
    _Float16 f;
    memcpy(&f, &h, 2);
    return (float)f;
}

/* Stored component k of a pixel as the float read_imagef gives. */
static double comp_float(const unsigned char *p, unsigned k, cl_channel_type t)
{
    switch (t) {
    case CL_UNORM_INT8: return p[k] / 255.0;
    case CL_UNORM_INT16: return ((const uint16_t *)p)[k] / 65535.0;
    case CL_SNORM_INT8: return fmax(-1.0, ((const int8_t *)p)[k] / 127.0);
    case CL_SNORM_INT16: return fmax(-1.0, ((const int16_t *)p)[k] / 32767.0);
    case CL_HALF_FLOAT: return half_to_float(((const uint16_t *)p)[k]);
    default: return ((const float *)p)[k];
    }
}

static int64_t comp_int(const unsigned char *p, unsigned k, cl_channel_type t)
{
    switch (t) {
    case CL_SIGNED_INT8: return ((const int8_t *)p)[k];
    case CL_SIGNED_INT16: return ((const int16_t *)p)[k];
    case CL_SIGNED_INT32: return ((const int32_t *)p)[k];
    case CL_UNSIGNED_INT8: return p[k];
    case CL_UNSIGNED_INT16: return ((const uint16_t *)p)[k];
    default: return ((const uint32_t *)p)[k];
    }
}

/* r, g, b, a from stored components per channel order (missing: 0, alpha 1). */
static void swizzle(cl_channel_order o, const double c[4], double one, double out[4])
{
    out[0] = out[1] = out[2] = 0;
    out[3] = one;
    if (o == CL_R) {
        out[0] = c[0];
    } else if (o == CL_RG) {
        out[0] = c[0], out[1] = c[1];
    } else if (o == CL_BGRA) {
        out[0] = c[2], out[1] = c[1], out[2] = c[0], out[3] = c[3];
    } else {
        for (int i = 0; i < 4; i++)
            out[i] = c[i];
    }
}

/* Random pixel bytes that are valid for a lossless round trip through the format. */
static void random_component(unsigned char *p, unsigned k, cl_channel_type t)
{
    uint32_t r = rng_next();
    switch (t) {
    case CL_SNORM_INT8: ((int8_t *)p)[k] = (int8_t)(r % 255 - 127); break;
    case CL_SNORM_INT16: ((int16_t *)p)[k] = (int16_t)(r % 65535 - 32767); break;
    case CL_HALF_FLOAT: {
        _Float16 h = (_Float16)((float)(r % 20000) / 37.0f - 270.0f);
        memcpy((uint16_t *)p + k, &h, 2);
        break;
    }
    case CL_FLOAT: ((float *)p)[k] = (float)(int32_t)r / 1024.0f; break;
    default: memcpy(p + k * comp_bytes(t), &r, comp_bytes(t)); break;
    }
}

static void test_copy_every_format(void **state)
{
    (void)state;
    static const cl_channel_type types[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16,
                                            CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                            CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
    static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA, CL_BGRA};
    enum { W = 13, H = 7 };
    for (size_t oi = 0; oi < sizeof orders / sizeof orders[0]; oi++)
        for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
            cl_channel_order o = orders[oi];
            cl_channel_type t = types[ti];
            if (o == CL_BGRA && t != CL_UNORM_INT8)
                continue;
            size_t cb = comp_bytes(t), n = channels(o), elem = cb * n;
            unsigned char src[W * H * 16], dst[W * H * 16];
            for (size_t i = 0; i < (size_t)W * H; i++)
                for (unsigned k = 0; k < n; k++)
                    random_component(src + i * elem, k, t);
            cl_mem a = image_new(CL_MEM_OBJECT_IMAGE2D, o, t, W, H, 0, 0, CL_MEM_READ_ONLY, src);
            cl_mem b = image_new(CL_MEM_OBJECT_IMAGE2D, o, t, W, H, 0, 0, CL_MEM_WRITE_ONLY, NULL);
            cl_mem vals = buf_new(W * H * 16, NULL);
            bool is_int = t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
            bool is_uint = t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
            const char *k = is_int ? "copy_i" : is_uint ? "copy_ui" : "copy_f";
            size_t g[2] = {W, H};
            assert_int_equal(launch(k, 2, NULL, g, NULL, KARGS(KARG(a), KARG(b), KARG(vals))), CL_SUCCESS);
            size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
            assert_int_equal(clEnqueueReadImage(env.queue, b, CL_TRUE, origin, region, 0, 0, dst, 0, NULL, NULL),
                             CL_SUCCESS);
            if (memcmp(src, dst, (size_t)W * H * elem) != 0)
                fail_msg("order 0x%x type 0x%x: the copied image differs", o, t);
            unsigned char v[W * H * 16];
            buf_read(vals, sizeof v, v);
            for (size_t i = 0; i < (size_t)W * H; i++) {
                double c[4] = {0, 0, 0, 0}, want[4];
                for (unsigned q = 0; q < n; q++)
                    c[q] = (is_int || is_uint) ? (double)comp_int(src + i * elem, q, t)
                                               : comp_float(src + i * elem, q, t);
                swizzle(o, c, 1.0, want);
                for (int q = 0; q < 4; q++) {
                    double got = is_int ? ((int32_t *)v)[i * 4 + q]
                                 : is_uint ? ((uint32_t *)v)[i * 4 + q] : ((float *)v)[i * 4 + q];
                    if (fabs(got - want[q]) > 1e-6 * fabs(want[q]))
                        fail_msg("order 0x%x type 0x%x pixel %zu channel %d: read %g, expected %g", o, t, i, q,
                                 got, want[q]);
                }
            }
            clReleaseMemObject(a);
            clReleaseMemObject(b);
            clReleaseMemObject(vals);
        }
}

/* ---- host sampling (8.2) --------------------------------------------------------------- */

struct himg {
    int w, h, d;            /* d: depth (1 for 2D) */
    const float *px;        /* RGBA float */
    bool alpha_border;      /* RGBA: border (0,0,0,0) */
};

static void texel(const struct himg *im, int x, int y, int z, bool out, float r[4])
{
    if (out) {
        r[0] = r[1] = r[2] = r[3] = 0.0f;
        return;
    }
    memcpy(r, im->px + 4 * ((size_t)z * im->w * im->h + (size_t)y * im->w + x), 16);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int nearest(float s, int n, bool norm, cl_addressing_mode a, bool *out)
{
    if (a == CL_ADDRESS_REPEAT) {
        int i = (int)floorf((s - floorf(s)) * (float)n);
        if (i > n - 1)
            i -= n;
        return i;
    }
    if (a == CL_ADDRESS_MIRRORED_REPEAT) {
        float sp = fabsf(s - 2.0f * rintf(0.5f * s));
        return clampi((int)floorf(sp * (float)n), 0, n - 1);
    }
    float u = norm ? s * (float)n : s;
    int i = (int)floorf(u);
    if (a == CL_ADDRESS_CLAMP_TO_EDGE)
        return clampi(i, 0, n - 1);
    if (i < 0 || i >= n)
        *out = true;
    return i;
}

static void linear(float s, int n, bool norm, cl_addressing_mode a, int *i0, int *i1, float *w, bool *o0, bool *o1)
{
    float u;
    if (a == CL_ADDRESS_REPEAT)
        u = (s - floorf(s)) * (float)n;
    else if (a == CL_ADDRESS_MIRRORED_REPEAT)
        u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
    else
        u = norm ? s * (float)n : s;
    float f = floorf(u - 0.5f);
    *w = (u - 0.5f) - f;
    *i0 = (int)f;
    *i1 = *i0 + 1;
    *o0 = *o1 = false;
    if (a == CL_ADDRESS_REPEAT) {
        if (*i0 < 0)
            *i0 += n;
        if (*i1 > n - 1)
            *i1 -= n;
    } else if (a == CL_ADDRESS_MIRRORED_REPEAT || a == CL_ADDRESS_CLAMP_TO_EDGE) {
        *i0 = clampi(*i0, 0, n - 1);
        *i1 = clampi(*i1, 0, n - 1);
    } else {
        *o0 = *i0 < 0 || *i0 >= n;
        *o1 = *i1 < 0 || *i1 >= n;
    }
}

/* read_imagef with a sampler at float coordinates (nd = 2 or 3). */
static void host_sample(const struct himg *im, int nd, const float *c, bool norm, cl_addressing_mode a,
                        cl_filter_mode f, float r[4])
{
    int n[3] = {im->w, im->h, im->d};
    if (f == CL_FILTER_NEAREST) {
        bool out = false;
        int i[3] = {0, 0, 0};
        for (int k = 0; k < nd; k++)
            i[k] = nearest(c[k], n[k], norm, a, &out);
        texel(im, i[0], i[1], i[2], out, r);
        return;
    }
    int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    float w[3] = {0, 0, 0};
    bool o0[3] = {0, 0, 0}, o1[3] = {0, 0, 0};
    for (int k = 0; k < nd; k++)
        linear(c[k], n[k], norm, a, &i0[k], &i1[k], &w[k], &o0[k], &o1[k]);
    r[0] = r[1] = r[2] = r[3] = 0.0f;
    for (int corner = 0; corner < (1 << nd); corner++) {
        float wt = 1.0f, t[4];
        int idx[3] = {0, 0, 0};
        bool out = false;
        for (int k = 0; k < nd; k++) {
            bool hi = (corner >> k) & 1;
            wt *= hi ? w[k] : 1.0f - w[k];
            idx[k] = hi ? i1[k] : i0[k];
            out |= hi ? o1[k] : o0[k];
        }
        texel(im, idx[0], idx[1], idx[2], out, t);
        for (int q = 0; q < 4; q++)
            r[q] += wt * t[q];
    }
}

static void test_sampler_modes_2d(void **state)
{
    (void)state;
    enum { W = 5, H = 4, N = 256 };
    float px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        px[i] = (float)(rng_next() % 1000) / 10.0f;
    struct himg im = {W, H, 1, px, true};
    cl_mem img = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, CL_MEM_READ_ONLY, px);
    cl_mem out = buf_new(N * 16, NULL);
    static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                               CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
    for (int norm = 0; norm < 2; norm++)
        for (size_t mi = 0; mi < 5; mi++)
            for (int filt = 0; filt < 2; filt++) {
                cl_addressing_mode a = modes[mi];
                if (!norm && (a == CL_ADDRESS_REPEAT || a == CL_ADDRESS_MIRRORED_REPEAT))
                    continue;
                cl_filter_mode f = filt ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
                float c[N * 2];
                for (int i = 0; i < N; i++) {
                    float u = (float)(rng_next() % 100000) / 100000.0f, v = (float)(rng_next() % 100000) / 100000.0f;
                    /* ADDRESS_NONE: only coordinates whose every texel is inside the image */
                    float lo = a == CL_ADDRESS_NONE ? (filt ? 0.5f : 0.0f) : -2.5f;
                    float hw = a == CL_ADDRESS_NONE ? (filt ? W - 0.5f : W - 0.001f) : W + 2.5f;
                    float hh = a == CL_ADDRESS_NONE ? (filt ? H - 0.5f : H - 0.001f) : H + 2.5f;
                    c[2 * i] = lo + u * (hw - lo);
                    c[2 * i + 1] = lo + v * (hh - lo);
                    if (norm) {
                        c[2 * i] /= W;
                        c[2 * i + 1] /= H;
                    }
                }
                cl_mem cb = buf_new(sizeof c, c);
                cl_sampler s = sampler_new(norm, a, f);
                assert_int_equal(launch("sample2d", 1, NULL, (size_t[]){N}, NULL,
                                        KARGS(KARG(img), KARG(s), KARG(cb), KARG(out))),
                                 CL_SUCCESS);
                float got[N * 4];
                buf_read(out, sizeof got, got);
                for (int i = 0; i < N; i++) {
                    float want[4];
                    host_sample(&im, 2, c + 2 * i, norm, a, f, want);
                    for (int q = 0; q < 4; q++) {
                        double tol = f == CL_FILTER_LINEAR ? 1e-3 * 100.0 * 2 / 256 + 1e-4 : 0.0;
                        if (fabs(got[i * 4 + q] - want[q]) > tol)
                            fail_msg("norm %d addressing 0x%x filter 0x%x coord (%g, %g) channel %d: got %g, "
                                     "expected %g", norm, a, f, c[2 * i], c[2 * i + 1], q, got[i * 4 + q], want[q]);
                    }
                }
                clReleaseSampler(s);
                clReleaseMemObject(cb);
            }
    clReleaseMemObject(img);
    clReleaseMemObject(out);
}

static void test_kernel_sampler_and_int_coords(void **state)
{
    (void)state;
    enum { W = 6, H = 3, N = 64 };
    float px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        px[i] = (float)(rng_next() % 1000) / 7.0f;
    struct himg im = {W, H, 1, px, true};
    cl_mem img = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, CL_MEM_READ_ONLY, px);
    cl_mem out = buf_new(N * 16, NULL);
    float c[N * 2];
    for (int i = 0; i < 2 * N; i++)
        c[i] = (float)(int)(rng_next() % 8000) / 1000.0f - 4.0f;
    cl_mem cb = buf_new(sizeof c, c);
    assert_int_equal(launch("sample2d_const", 1, NULL, (size_t[]){N}, NULL, KARGS(KARG(img), KARG(cb), KARG(out))),
                     CL_SUCCESS);
    float got[N * 4];
    buf_read(out, sizeof got, got);
    for (int i = 0; i < N; i++) {
        float want[4];
        host_sample(&im, 2, c + 2 * i, true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, want);
        for (int q = 0; q < 4; q++)
            if (fabs(got[i * 4 + q] - want[q]) > 2e-3)
                fail_msg("kernel sampler at (%g, %g) channel %d: got %g, expected %g", c[2 * i], c[2 * i + 1], q,
                         got[i * 4 + q], want[q]);
    }
    /* integer coordinates: CLAMP_TO_EDGE clamps, CLAMP gives the border colour outside */
    int ic[N * 2];
    for (int i = 0; i < 2 * N; i++)
        ic[i] = (int)(rng_next() % 14) - 4;
    cl_mem icb = buf_new(sizeof ic, ic);
    static const cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP};
    for (int mi = 0; mi < 2; mi++) {
        cl_sampler s = sampler_new(CL_FALSE, modes[mi], CL_FILTER_NEAREST);
        assert_int_equal(launch("sample2d_int", 1, NULL, (size_t[]){N}, NULL,
                                KARGS(KARG(img), KARG(s), KARG(icb), KARG(out))),
                         CL_SUCCESS);
        buf_read(out, sizeof got, got);
        for (int i = 0; i < N; i++) {
            int x = ic[2 * i], y = ic[2 * i + 1];
            bool outside = x < 0 || x >= W || y < 0 || y >= H;
            float want[4];
            if (modes[mi] == CL_ADDRESS_CLAMP_TO_EDGE)
                texel(&im, clampi(x, 0, W - 1), clampi(y, 0, H - 1), 0, false, want);
            else
                texel(&im, x, y, 0, outside, want);
            for (int q = 0; q < 4; q++)
                if (got[i * 4 + q] != want[q])
                    fail_msg("int coords (%d, %d) addressing 0x%x channel %d: got %g, expected %g", x, y,
                             modes[mi], q, got[i * 4 + q], want[q]);
        }
        clReleaseSampler(s);
    }
    /* the border colour of a format without alpha is (0, 0, 0, 1) */
    float r1[W * H];
    for (int i = 0; i < W * H; i++)
        r1[i] = (float)i;
    cl_mem rimg = image_new(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, W, H, 0, 0, CL_MEM_READ_ONLY, r1);
    cl_sampler s = sampler_new(CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    assert_int_equal(launch("sample2d_int", 1, NULL, (size_t[]){N}, NULL,
                            KARGS(KARG(rimg), KARG(s), KARG(icb), KARG(out))),
                     CL_SUCCESS);
    buf_read(out, sizeof got, got);
    for (int i = 0; i < N; i++) {
        int x = ic[2 * i], y = ic[2 * i + 1];
        bool outside = x < 0 || x >= W || y < 0 || y >= H;
        float want[4] = {outside ? 0.0f : r1[y * W + x], 0.0f, 0.0f, 1.0f};
        for (int q = 0; q < 4; q++)
            if (got[i * 4 + q] != want[q])
                fail_msg("CL_R border at (%d, %d) channel %d: got %g, expected %g", x, y, q, got[i * 4 + q], want[q]);
    }
    clReleaseSampler(s);
    clReleaseMemObject(rimg);
    clReleaseMemObject(icb);
    clReleaseMemObject(cb);
    clReleaseMemObject(img);
    clReleaseMemObject(out);
}

static void test_1d_and_arrays(void **state)
{
    (void)state;
    enum { W = 19, L = 5, H = 3, N = 64 };
    /* 1D: written by a kernel, read back by the host and by a sampled read */
    cl_mem i1 = image_new(CL_MEM_OBJECT_IMAGE1D, CL_RGBA, CL_FLOAT, W, 0, 0, 0, CL_MEM_READ_WRITE, NULL);
    assert_int_equal(launch("write1d", 1, NULL, (size_t[]){W}, NULL, KARGS(KARG(i1))), CL_SUCCESS);
    float px[W * 4];
    size_t o[3] = {0, 0, 0}, r[3] = {W, 1, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, i1, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
    for (int x = 0; x < W; x++)
        if (px[4 * x] != x || px[4 * x + 1] != 2 * x || px[4 * x + 2] != 0.5f || px[4 * x + 3] != 1.0f)
            fail_msg("1D pixel %d is (%g, %g, %g, %g)", x, px[4 * x], px[4 * x + 1], px[4 * x + 2], px[4 * x + 3]);
    float c1[N];
    for (int i = 0; i < N; i++)
        c1[i] = (float)(rng_next() % 10000) / 10000.0f * 1.4f - 0.2f;
    cl_mem cb = buf_new(sizeof c1, c1);
    cl_mem out = buf_new(N * 16, NULL);
    cl_sampler s = sampler_new(CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    assert_int_equal(launch("read1d", 1, NULL, (size_t[]){N}, NULL, KARGS(KARG(i1), KARG(s), KARG(cb), KARG(out))),
                     CL_SUCCESS);
    float got[N * 4];
    buf_read(out, sizeof got, got);
    struct himg h1 = {W, 1, 1, px, true};
    for (int i = 0; i < N; i++) {
        float want[4];
        host_sample(&h1, 1, c1 + i, true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, want);
        for (int q = 0; q < 4; q++)
            if (fabs(got[4 * i + q] - want[q]) > 1e-3)
                fail_msg("1D linear at %g channel %d: got %g, expected %g", c1[i], q, got[4 * i + q], want[q]);
    }
    clReleaseSampler(s);
    clReleaseMemObject(cb);

    /* 1D array of int: layers are rows; the layer coordinate is rounded and clamped */
    cl_mem ia = image_new(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_SIGNED_INT16, W, 0, 0, L, CL_MEM_READ_WRITE, NULL);
    assert_int_equal(launch("write1da", 2, NULL, (size_t[]){W, L}, NULL, KARGS(KARG(ia))), CL_SUCCESS);
    int16_t ap[L][W][4];
    size_t ra[3] = {W, L, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, ia, CL_TRUE, o, ra, 0, 0, ap, 0, NULL, NULL), CL_SUCCESS);
    for (int l = 0; l < L; l++)
        for (int x = 0; x < W; x++)
            if (ap[l][x][0] != x || ap[l][x][1] != l || ap[l][x][2] != -x || ap[l][x][3] != x * l)
                fail_msg("1D array layer %d pixel %d wrong", l, x);
    float c2[N * 2];
    for (int i = 0; i < N; i++) {
        c2[2 * i] = (float)(rng_next() % (W * 100)) / 100.0f;
        c2[2 * i + 1] = (float)(rng_next() % 900) / 100.0f - 2.0f;
    }
    cb = buf_new(sizeof c2, c2);
    s = sampler_new(CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    assert_int_equal(launch("read1da", 1, NULL, (size_t[]){N}, NULL, KARGS(KARG(ia), KARG(s), KARG(cb), KARG(out))),
                     CL_SUCCESS);
    int32_t gi[N * 4];
    buf_read(out, sizeof gi, gi);
    for (int i = 0; i < N; i++) {
        int x = (int)floorf(c2[2 * i]);
        int l = clampi((int)rintf(c2[2 * i + 1]), 0, L - 1);
        for (int q = 0; q < 4; q++)
            if (gi[4 * i + q] != ap[l][x][q])
                fail_msg("1D array read at (%g, %g) channel %d: got %d, expected %d", c2[2 * i], c2[2 * i + 1], q,
                         gi[4 * i + q], ap[l][x][q]);
    }
    clReleaseSampler(s);
    clReleaseMemObject(cb);

    /* 2D array of uint: written by a kernel, read sampler-less with int4 coordinates */
    cl_mem i2 = image_new(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, L, CL_MEM_READ_WRITE, NULL);
    assert_int_equal(launch("write2da", 3, NULL, (size_t[]){W, H, L}, NULL, KARGS(KARG(i2))), CL_SUCCESS);
    int32_t c4[N * 4];
    for (int i = 0; i < N; i++) {
        c4[4 * i] = (int)(rng_next() % W);
        c4[4 * i + 1] = (int)(rng_next() % H);
        c4[4 * i + 2] = (int)(rng_next() % L);
        c4[4 * i + 3] = 0;
    }
    cb = buf_new(sizeof c4, c4);
    assert_int_equal(launch("read2da", 1, NULL, (size_t[]){N}, NULL, KARGS(KARG(i2), KARG(cb), KARG(out))), CL_SUCCESS);
    uint32_t gu[N * 4];
    buf_read(out, sizeof gu, gu);
    for (int i = 0; i < N; i++) {
        uint32_t want[4] = {(uint32_t)c4[4 * i], (uint32_t)c4[4 * i + 1], (uint32_t)c4[4 * i + 2], 7};
        for (int q = 0; q < 4; q++)
            if (gu[4 * i + q] != want[q])
                fail_msg("2D array read at (%d, %d, %d) channel %d: got %u, expected %u", c4[4 * i], c4[4 * i + 1],
                         c4[4 * i + 2], q, gu[4 * i + q], want[q]);
    }
    clReleaseMemObject(cb);
    clReleaseMemObject(i1);
    clReleaseMemObject(ia);
    clReleaseMemObject(i2);
    clReleaseMemObject(out);
}

static void test_3d_trilinear(void **state)
{
    (void)state;
    enum { W = 4, H = 3, D = 5, N = 128 };
    cl_mem img = image_new(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_FLOAT, W, H, D, 0, CL_MEM_READ_WRITE, NULL);
    assert_int_equal(launch("write3d", 3, NULL, (size_t[]){W, H, D}, NULL, KARGS(KARG(img))), CL_SUCCESS);
    float px[D][H][W][4];
    size_t o[3] = {0, 0, 0}, r[3] = {W, H, D};
    assert_int_equal(clEnqueueReadImage(env.queue, img, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_SUCCESS);
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                if (px[z][y][x][0] != x || px[z][y][x][1] != y || px[z][y][x][2] != z ||
                    px[z][y][x][3] != x + 10 * y + 100 * z)
                    fail_msg("3D pixel (%d, %d, %d) wrong", x, y, z);
    float c[N * 4];
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++)
            c[4 * i + k] = (float)(rng_next() % 10000) / 10000.0f * 1.6f - 0.3f;
        c[4 * i + 3] = 0;
    }
    cl_mem cb = buf_new(sizeof c, c);
    cl_mem out = buf_new(N * 16, NULL);
    struct himg im = {W, H, D, &px[0][0][0][0], true};
    static const cl_addressing_mode modes[] = {CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT};
    for (int mi = 0; mi < 2; mi++)
        for (int filt = 0; filt < 2; filt++) {
            cl_filter_mode f = filt ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
            cl_sampler s = sampler_new(CL_TRUE, modes[mi], f);
            assert_int_equal(launch("read3d", 1, NULL, (size_t[]){N}, NULL,
                                    KARGS(KARG(img), KARG(s), KARG(cb), KARG(out))),
                             CL_SUCCESS);
            float got[N * 4];
            buf_read(out, sizeof got, got);
            for (int i = 0; i < N; i++) {
                float want[4];
                host_sample(&im, 3, c + 4 * i, true, modes[mi], f, want);
                for (int q = 0; q < 4; q++)
                    if (fabs(got[4 * i + q] - want[q]) > (filt ? 1e-3 * (1 + fabs(want[q])) : 0.0))
                        fail_msg("3D addressing 0x%x filter 0x%x at (%g, %g, %g) channel %d: got %g, expected %g",
                                 modes[mi], f, c[4 * i], c[4 * i + 1], c[4 * i + 2], q, got[4 * i + q], want[q]);
            }
            clReleaseSampler(s);
        }
    clReleaseMemObject(cb);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
}

static void test_image_from_buffer(void **state)
{
    (void)state;
    enum { W = 100 };
    uint16_t data[W * 4];
    for (int i = 0; i < W * 4; i++)
        data[i] = (uint16_t)(rng_next() % 20000);
    cl_mem sb = buf_new(sizeof data, data), db = buf_new(sizeof data, NULL);
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT16};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = W, .buffer = sb};
    cl_int err;
    cl_mem si = clCreateImage(env.context, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    d.buffer = db;
    cl_mem di = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &f, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(launch("buf_image", 1, NULL, (size_t[]){W}, NULL, KARGS(KARG(si), KARG(di))), CL_SUCCESS);
    uint16_t got[W * 4];
    buf_read(db, sizeof got, got);
    for (int i = 0; i < W * 4; i++) {
        uint32_t want = data[i] * 3u + (uint32_t)(i % 4 + 1);
        if (want > 65535)
            want = 65535;
        if (got[i] != want)
            fail_msg("1D buffer image element %d: got %u, expected %u", i, got[i], want);
    }
    clReleaseMemObject(si);
    clReleaseMemObject(di);
    clReleaseMemObject(sb);
    clReleaseMemObject(db);
}

static void test_read_write_image_and_queries(void **state)
{
    (void)state;
    enum { W = 9, H = 4 };
    int32_t px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        px[i] = (int32_t)rng_next() / 4;
    cl_mem img = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SIGNED_INT32, W, H, 0, 0, CL_MEM_READ_WRITE, px);
    assert_int_equal(launch("rw_inc", 2, NULL, (size_t[]){W, H}, NULL, KARGS(KARG(img))), CL_SUCCESS);
    int32_t got[W * H * 4];
    size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < W * H * 4; i++)
        assert_int_equal(got[i], px[i] + i % 4 + 1);

    cl_mem b = image_new(CL_MEM_OBJECT_IMAGE3D, CL_RG, CL_HALF_FLOAT, 7, 6, 5, 0, CL_MEM_WRITE_ONLY, NULL);
    cl_mem c = image_new(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_UNORM_INT16, 3, 2, 0, 11, CL_MEM_READ_ONLY, NULL);
    cl_mem d = image_new(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RGBA, CL_FLOAT, 8, 0, 0, 12, CL_MEM_READ_ONLY, NULL);
    cl_mem out = buf_new(16 * sizeof(int), NULL);
    assert_int_equal(launch("queries", 1, NULL, (size_t[]){1}, NULL,
                            KARGS(KARG(img), KARG(b), KARG(c), KARG(d), KARG(out))),
                     CL_SUCCESS);
    int q[16];
    buf_read(out, sizeof q, q);
    const int want[16] = {W, H, W, H, CL_SIGNED_INT32, CL_RGBA, 7, 6, 5, 0, 5, 11, 12, 8, CL_RG, CL_UNORM_INT16};
    for (int i = 0; i < 16; i++)
        if (q[i] != want[i])
            fail_msg("query %d: got %d (0x%x), expected %d (0x%x)", i, q[i], q[i], want[i], want[i]);
    clReleaseMemObject(img);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(d);
    clReleaseMemObject(out);
}

/* read_imageh/write_imageh (cl_khr_fp16): a HALF_FLOAT image read as half4 (with and without
 * a sampler), tripled in half arithmetic (rounded once), written to a FLOAT image. */
static void test_half_images(void **state)
{
    (void)state;
    char ext[4096] = {0};
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "half_rw", &err);
    if (!strstr(ext, "cl_khr_fp16")) {
        assert_int_equal(err, CL_INVALID_KERNEL_NAME); /* compiled out with the extension */
        return;
    }
    assert_int_equal(err, CL_SUCCESS);
    clReleaseKernel(k);
    enum { W = 6, H = 5 };
    uint16_t px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        px[i] = (uint16_t)(0x3c00 + (i * 37) % 0x800); /* 1 ... 4, then negated every 5th */
    for (int i = 0; i < W * H * 4; i += 5)
        px[i] |= 0x8000;
    cl_mem src = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_HALF_FLOAT, W, H, 0, 0, CL_MEM_READ_ONLY, px);
    cl_mem dst = image_new(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, CL_MEM_WRITE_ONLY, NULL);
    cl_sampler s = sampler_new(CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST);
    assert_int_equal(launch("half_rw", 2, NULL, (size_t[]){W, H}, NULL, KARGS(KARG(src), KARG(dst), KARG(s))),
                     CL_SUCCESS);
    float got[W * H * 4];
    size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    assert_int_equal(clEnqueueReadImage(env.queue, dst, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < W * H * 4; i++) {
        float want = (float)(_Float16)(3.0f * half_to_float(px[i])); /* 2x + x, rounded once to half */
        if (got[i] != want)
            fail_msg("component %d: got %a, want %a", i, got[i], want);
    }
    clReleaseSampler(s);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_every_format),
        cmocka_unit_test(test_sampler_modes_2d),
        cmocka_unit_test(test_kernel_sampler_and_int_coords),
        cmocka_unit_test(test_1d_and_arrays),
        cmocka_unit_test(test_3d_trilinear),
        cmocka_unit_test(test_image_from_buffer),
        cmocka_unit_test(test_read_write_image_and_queries),
        cmocka_unit_test(test_half_images),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
