/* builtins/image.cl — 6.15.15 image read, write and query functions, for every image type
 * (1D, 1D buffer, 1D array, 2D, 2D array, 3D) and every sampler (OpenCL 3.0 spec, 8.2
 * "image addressing and filtering", 8.3 "conversion rules").
 *
 * An image argument is the address of the runtime's struct weft_image_desc and a sampler is
 * its CLK_* bits (include/weft/abi.h). Everything funnels into a few internal functions that
 * take the descriptor and coordinates padded to four components: `nd` spatial dimensions,
 * and for arrays the layer in component `nd` (a 1D array's layers are rows, a 2D array's
 * slices). Sampler-less reads behave as an unnormalized, nearest sampler; reads outside the
 * image with CLK_ADDRESS_NONE (undefined in the specification) return the border colour and
 * writes outside the image are dropped, so no coordinate ever touches memory outside it.
 */
#include "weft_builtins.h"

/* Mirrors struct weft_image_desc (include/weft/abi.h). */
struct weft_image_desc {
    global uchar *data;
    ulong row_pitch;
    ulong slice_pitch;
    int width, height, depth;
    int array_size;
    int channel_order;
    int channel_data_type;
    int elem_size;
    int num_channels;
    int type;
    int comp_size;
    int swizzle[4];
    int store_from[4];
};
typedef const global struct weft_image_desc *desc_t;

/* cl_mem_object_type values of the array images (CL/cl.h; OpenCL C has no names for them). */
#define IMAGE1D_ARRAY 0x10F5
#define IMAGE2D_ARRAY 0x10F3

#define DESC(i) ((desc_t)__builtin_astype((i), global void *))
#define SMP(s) ((uint)(ulong)__builtin_astype((s), __constant void *))

/* A sampler written in kernel code (`const sampler_t s = CLK_...;`): clang calls this with the
 * initializer's bits; the value is the bits themselves, as for a host sampler. */
__constant char *__translate_sampler_initializer(int bits)
{
    return (__constant char *)(ulong)(uint)bits;
}

/* ---- texel access ------------------------------------------------------------------------ */

INLINE global uchar *texel_ptr(desc_t d, int x, int y, int z)
{
    return d->data + (ulong)x * (ulong)d->elem_size + (ulong)y * d->row_pitch + (ulong)z * d->slice_pitch;
}

/* The extents the three addressing components may take: width, then height or a 1D array's
 * layers, then depth or a 2D array's layers. */
INLINE int extent(desc_t d, int k)
{
    if (k == 0)
        return d->width;
    if (k == 1)
        return d->type == IMAGE1D_ARRAY ? d->array_size : d->height;
    return d->type == IMAGE2D_ARRAY ? d->array_size : d->depth;
}

INLINE bool inside(desc_t d, int x, int y, int z)
{
    return (uint)x < (uint)extent(d, 0) && (uint)y < (uint)extent(d, 1) && (uint)z < (uint)extent(d, 2);
}

/* Component k of the texel at p as a float (normalized and float formats; integer formats
 * give their value, which the specification leaves undefined for read_imagef). */
INLINE float comp_f(global const uchar *p, int k, int t)
{
    switch (t) {
    case CLK_UNORM_INT8: return (float)p[k] / 255.0f;
    case CLK_UNORM_INT16: return (float)((global const ushort *)p)[k] / 65535.0f;
    case CLK_SNORM_INT8: return fmax(-1.0f, (float)((global const char *)p)[k] / 127.0f);
    case CLK_SNORM_INT16: return fmax(-1.0f, (float)((global const short *)p)[k] / 32767.0f);
    case CLK_HALF_FLOAT: return vload_half(k, (global const half *)p);
    case CLK_FLOAT: return ((global const float *)p)[k];
    case CLK_SIGNED_INT8: return (float)((global const char *)p)[k];
    case CLK_SIGNED_INT16: return (float)((global const short *)p)[k];
    case CLK_SIGNED_INT32: return (float)((global const int *)p)[k];
    case CLK_UNSIGNED_INT8: return (float)p[k];
    case CLK_UNSIGNED_INT16: return (float)((global const ushort *)p)[k];
    default: return (float)((global const uint *)p)[k];
    }
}

/* Component k as integer bits (signed formats sign-extended, unsigned zero-extended). */
INLINE int comp_i(global const uchar *p, int k, int t)
{
    switch (t) {
    case CLK_SIGNED_INT8: return ((global const char *)p)[k];
    case CLK_SIGNED_INT16: return ((global const short *)p)[k];
    case CLK_UNSIGNED_INT8: return p[k];
    case CLK_UNSIGNED_INT16: return ((global const ushort *)p)[k];
    case CLK_SIGNED_INT32:
    case CLK_UNSIGNED_INT32: return ((global const int *)p)[k];
    default: return convert_int_sat(comp_f(p, k, t));
    }
}

/* The value of r, g, b or a given the stored components (swizzle: component, -1 = 0, -2 = 1).
 * Selects, not a variable vector index: the swizzle is uniform, the texel is not, and Weft's
 * vectorizer widens selects but not variable-index extracts. */
INLINE float pick_f(float4 c, int s)
{
    return s == 0 ? c.x : s == 1 ? c.y : s == 2 ? c.z : s == 3 ? c.w : s == -1 ? 0.0f : 1.0f;
}

INLINE int pick_i(int4 c, int s)
{
    return s == 0 ? c.x : s == 1 ? c.y : s == 2 ? c.z : s == 3 ? c.w : s == -1 ? 0 : 1;
}

/* The per-component loops below stay loops (their body is a switch on the format) and index
 * the texel with the loop variable. That keeps Weft's vectorizer out of image code on purpose
 * ("a varying vector element with a variable index": scalar work-item loops): written without
 * loops the kernels do widen, but the format switches are uniform only in fact, not to the
 * shape analysis (they load from the descriptor), so the whole conversion is linearized under
 * masks and an image copy kernel took ten times longer to compile (32 s against 3 s measured
 * under load); its run time was not measured. */
INLINE float4 texel_f(desc_t d, int x, int y, int z)
{
    global const uchar *p = texel_ptr(d, x, y, z);
    int t = d->channel_data_type, n = d->num_channels;
    float4 c = 0.0f;
    for (int k = 0; k < 4; k++)
        if (k < n)
            c[k] = comp_f(p, k, t);
    return (float4)(pick_f(c, d->swizzle[0]), pick_f(c, d->swizzle[1]), pick_f(c, d->swizzle[2]),
                    pick_f(c, d->swizzle[3]));
}

INLINE int4 texel_i(desc_t d, int x, int y, int z)
{
    global const uchar *p = texel_ptr(d, x, y, z);
    int t = d->channel_data_type, n = d->num_channels;
    int4 c = 0;
    for (int k = 0; k < 4; k++)
        if (k < n)
            c[k] = comp_i(p, k, t);
    return (int4)(pick_i(c, d->swizzle[0]), pick_i(c, d->swizzle[1]), pick_i(c, d->swizzle[2]),
                  pick_i(c, d->swizzle[3]));
}

/* The border colour of CLK_ADDRESS_CLAMP: (0,0,0,0) when the format has alpha, else (0,0,0,1). */
INLINE float4 border_f(desc_t d)
{
    return (float4)(0.0f, 0.0f, 0.0f, d->swizzle[3] == -2 ? 1.0f : 0.0f);
}

INLINE int4 border_i(desc_t d)
{
    return (int4)(0, 0, 0, d->swizzle[3] == -2 ? 1 : 0);
}

/* ---- writes (8.3: float to normalized rounds to nearest even and saturates) ------------- */

INLINE void store_comp_f(global uchar *p, int k, int t, float v)
{
    switch (t) {
    case CLK_UNORM_INT8: p[k] = convert_uchar_sat_rte(v * 255.0f); break;
    case CLK_UNORM_INT16: ((global ushort *)p)[k] = convert_ushort_sat_rte(v * 65535.0f); break;
    case CLK_SNORM_INT8: ((global char *)p)[k] = convert_char_sat_rte(v * 127.0f); break;
    case CLK_SNORM_INT16: ((global short *)p)[k] = convert_short_sat_rte(v * 32767.0f); break;
    case CLK_HALF_FLOAT: vstore_half_rte(v, k, (global half *)p); break;
    case CLK_FLOAT: ((global float *)p)[k] = v; break;
    /* integer formats: undefined for write_imagef; store the saturated integer */
    case CLK_SIGNED_INT8: ((global char *)p)[k] = convert_char_sat_rte(v); break;
    case CLK_SIGNED_INT16: ((global short *)p)[k] = convert_short_sat_rte(v); break;
    case CLK_SIGNED_INT32: ((global int *)p)[k] = convert_int_sat_rte(v); break;
    case CLK_UNSIGNED_INT8: p[k] = convert_uchar_sat_rte(v); break;
    case CLK_UNSIGNED_INT16: ((global ushort *)p)[k] = convert_ushort_sat_rte(v); break;
    default: ((global uint *)p)[k] = convert_uint_sat_rte(v); break;
    }
}

/* Integer writes: write_imagei saturates to a signed format, write_imageui to an unsigned one
 * (6.15.15.2); `is_unsigned` says which the value is. */
INLINE void store_comp_i(global uchar *p, int k, int t, int v, bool is_unsigned)
{
    uint u = (uint)v;
    switch (t) {
    case CLK_SIGNED_INT8: ((global char *)p)[k] = is_unsigned ? convert_char_sat(u) : convert_char_sat(v); break;
    case CLK_SIGNED_INT16: ((global short *)p)[k] = is_unsigned ? convert_short_sat(u) : convert_short_sat(v); break;
    case CLK_SIGNED_INT32: ((global int *)p)[k] = is_unsigned ? convert_int_sat(u) : v; break;
    case CLK_UNSIGNED_INT8: p[k] = is_unsigned ? convert_uchar_sat(u) : convert_uchar_sat(v); break;
    case CLK_UNSIGNED_INT16: ((global ushort *)p)[k] = is_unsigned ? convert_ushort_sat(u) : convert_ushort_sat(v); break;
    case CLK_UNSIGNED_INT32: ((global uint *)p)[k] = is_unsigned ? u : convert_uint_sat(v); break;
    default: store_comp_f(p, k, t, is_unsigned ? (float)u : (float)v); break;
    }
}

INLINE void write_f(desc_t d, int4 c, float4 v)
{
    if (!inside(d, c.x, c.y, c.z))
        return;
    global uchar *p = texel_ptr(d, c.x, c.y, c.z);
    int t = d->channel_data_type, n = d->num_channels;
    for (int k = 0; k < 4; k++)
        if (k < n)
            store_comp_f(p, k, t, pick_f(v, d->store_from[k]));
}

INLINE void write_i(desc_t d, int4 c, int4 v, bool is_unsigned)
{
    if (!inside(d, c.x, c.y, c.z))
        return;
    global uchar *p = texel_ptr(d, c.x, c.y, c.z);
    int t = d->channel_data_type, n = d->num_channels;
    for (int k = 0; k < 4; k++)
        if (k < n)
            store_comp_i(p, k, t, pick_i(v, d->store_from[k]), is_unsigned);
}

/* ---- addressing (8.2) ------------------------------------------------------------------- */

#define ADDR(smp) ((smp) & 0xeu)

/* floor(u) as an int, kept in [-2, n + 1] so later arithmetic cannot overflow (anything
 * beyond is outside the image either way). */
INLINE int floor_index(float u, int n)
{
    float f = floor(u);
    f = fmax(f, -2.0f);
    f = fmin(f, (float)n + 1.0f);
    return isnan(f) ? 0 : (int)f;
}

/* Nearest filtering in one dimension; sets *border when CLAMP or NONE addressing falls out. */
INLINE int nearest_1(float s, int n, uint smp, bool *border)
{
    uint am = ADDR(smp);
    if (am == CLK_ADDRESS_REPEAT) {
        int i = floor_index((s - floor(s)) * (float)n, n);
        if (i > n - 1)
            i -= n;
        return clamp(i, 0, n - 1);
    }
    if (am == CLK_ADDRESS_MIRRORED_REPEAT) {
        float sp = fabs(s - 2.0f * rint(0.5f * s));
        int i = floor_index(sp * (float)n, n);
        return clamp(i, 0, n - 1);
    }
    float u = (smp & CLK_NORMALIZED_COORDS_TRUE) ? s * (float)n : s;
    int i = floor_index(u, n);
    if (am == CLK_ADDRESS_CLAMP_TO_EDGE)
        return clamp(i, 0, n - 1);
    if (i < 0 || i >= n)
        *border = true;
    return i;
}

/* Linear filtering in one dimension: the two texel indices, the weight of the second, and
 * whether each is outside (CLAMP / NONE addressing). */
INLINE void linear_1(float s, int n, uint smp, int *i0, int *i1, float *a, bool *b0, bool *b1)
{
    uint am = ADDR(smp);
    float u;
    if (am == CLK_ADDRESS_REPEAT)
        u = (s - floor(s)) * (float)n;
    else if (am == CLK_ADDRESS_MIRRORED_REPEAT)
        u = fabs(s - 2.0f * rint(0.5f * s)) * (float)n;
    else
        u = (smp & CLK_NORMALIZED_COORDS_TRUE) ? s * (float)n : s;
    float f = floor(u - 0.5f);
    *a = (u - 0.5f) - f;
    if (isnan(*a))
        *a = 0.0f;
    int j0 = floor_index(u - 0.5f, n), j1 = j0 + 1;
    *b0 = *b1 = false;
    if (am == CLK_ADDRESS_REPEAT) {
        if (j0 < 0)
            j0 += n;
        if (j1 > n - 1)
            j1 -= n;
        j0 = clamp(j0, 0, n - 1);
        j1 = clamp(j1, 0, n - 1);
    } else if (am == CLK_ADDRESS_MIRRORED_REPEAT || am == CLK_ADDRESS_CLAMP_TO_EDGE) {
        j0 = clamp(j0, 0, n - 1);
        j1 = clamp(j1, 0, n - 1);
    } else {
        *b0 = j0 < 0 || j0 >= n;
        *b1 = j1 < 0 || j1 >= n;
    }
    *i0 = j0;
    *i1 = j1;
}

/* The layer of an array image for a float coordinate: rint, clamped to the layers. */
INLINE int layer_f(desc_t d, float c)
{
    float r = rint(c);
    r = isnan(r) ? 0.0f : fmin(fmax(r, 0.0f), (float)(d->array_size - 1));
    return (int)r;
}

INLINE int layer_i(desc_t d, int c)
{
    return clamp(c, 0, d->array_size - 1);
}

/* Integer texel indices of a nearest-filtered float coordinate; returns whether the result is
 * the border colour. */
INLINE bool nearest_index(desc_t d, uint smp, float4 c, int nd, bool arrayed, int4 *idx)
{
    bool border = false;
    int4 i = 0;
    for (int k = 0; k < nd; k++)
        i[k] = nearest_1(c[k], extent(d, k), smp, &border);
    if (arrayed)
        i[nd] = layer_f(d, c[nd]);
    *idx = i;
    return border;
}

/* Integer coordinates with a sampler (unnormalized, nearest by definition): CLAMP_TO_EDGE
 * clamps, the other modes give the border colour outside the image. */
INLINE bool int_index(desc_t d, uint smp, int4 c, int nd, bool arrayed, int4 *idx)
{
    bool border = false;
    int4 i = 0;
    for (int k = 0; k < nd; k++) {
        int n = extent(d, k);
        if (ADDR(smp) == CLK_ADDRESS_CLAMP_TO_EDGE)
            i[k] = clamp(c[k], 0, n - 1);
        else {
            i[k] = c[k];
            border |= c[k] < 0 || c[k] >= n;
        }
    }
    if (arrayed)
        i[nd] = layer_i(d, c[nd]);
    *idx = i;
    return border;
}

INLINE float4 read_f_float(desc_t d, uint smp, float4 c, int nd, bool arrayed)
{
    if (!(smp & CLK_FILTER_LINEAR)) {
        int4 i;
        if (nearest_index(d, smp, c, nd, arrayed, &i))
            return border_f(d);
        return texel_f(d, i.x, i.y, i.z);
    }
    int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    float a[3] = {0.0f, 0.0f, 0.0f};
    bool b0[3] = {false, false, false}, b1[3] = {false, false, false};
    for (int k = 0; k < nd; k++)
        linear_1(c[k], extent(d, k), smp, &i0[k], &i1[k], &a[k], &b0[k], &b1[k]);
    if (arrayed) {
        i0[nd] = i1[nd] = layer_f(d, c[nd]);
    }
    float4 sum = 0.0f;
    float4 border = border_f(d);
    for (int corner = 0; corner < (1 << nd); corner++) {
        float w = 1.0f;
        int idx[3] = {i0[0], i0[1], i0[2]};
        bool out = false;
        for (int k = 0; k < nd; k++) {
            bool hi = (corner >> k) & 1;
            w *= hi ? a[k] : 1.0f - a[k];
            idx[k] = hi ? i1[k] : i0[k];
            out |= hi ? b1[k] : b0[k];
        }
        float4 t = out ? border : texel_f(d, idx[0], idx[1], idx[2]);
        sum += w * t;
    }
    return sum;
}

INLINE float4 read_f_int(desc_t d, uint smp, int4 c, int nd, bool arrayed)
{
    int4 i;
    if (int_index(d, smp, c, nd, arrayed, &i))
        return border_f(d);
    return texel_f(d, i.x, i.y, i.z);
}

INLINE int4 read_i_float(desc_t d, uint smp, float4 c, int nd, bool arrayed)
{
    int4 i;
    if (nearest_index(d, smp, c, nd, arrayed, &i))
        return border_i(d);
    return texel_i(d, i.x, i.y, i.z);
}

INLINE int4 read_i_int(desc_t d, uint smp, int4 c, int nd, bool arrayed)
{
    int4 i;
    if (int_index(d, smp, c, nd, arrayed, &i))
        return border_i(d);
    return texel_i(d, i.x, i.y, i.z);
}

/* ---- coordinate padding ------------------------------------------------------------------ */

OVL INLINE float4 f4(float c) { return (float4)(c, 0.0f, 0.0f, 0.0f); }
OVL INLINE float4 f4(float2 c) { return (float4)(c, 0.0f, 0.0f); }
OVL INLINE float4 f4(float4 c) { return c; }
OVL INLINE int4 i4(int c) { return (int4)(c, 0, 0, 0); }
OVL INLINE int4 i4(int2 c) { return (int4)(c, 0, 0); }
OVL INLINE int4 i4(int4 c) { return c; }

/* ---- the overloads ---------------------------------------------------------------------- */

/* read_imageh/write_imageh (cl_khr_fp16): the float read rounded to half, the half colour
 * written exactly as a float one (half -> float is exact). */
#ifdef cl_khr_fp16
#define H_READS_PLAIN(Q, T, CI, ND, ARR)                                                          \
    OVL half4 read_imageh(Q T img, CI c) { return convert_half4(read_f_int(DESC(img), 0u, i4(c), ND, ARR)); }
#define H_READS_SAMPLER(T, CI, CF, ND, ARR)                                                       \
    OVL half4 read_imageh(read_only T img, sampler_t s, CF c)                                   \
    { return convert_half4(read_f_float(DESC(img), SMP(s), f4(c), ND, ARR)); }                  \
    OVL half4 read_imageh(read_only T img, sampler_t s, CI c)                                   \
    { return convert_half4(read_f_int(DESC(img), SMP(s), i4(c), ND, ARR)); }
#define H_WRITES(Q, T, CI)                                                                      \
    OVL void write_imageh(Q T img, CI c, half4 v) { write_f(DESC(img), i4(c), convert_float4(v)); }
#else
#define H_READS_PLAIN(Q, T, CI, ND, ARR)
#define H_READS_SAMPLER(T, CI, CF, ND, ARR)
#define H_WRITES(Q, T, CI)
#endif

/* Sampler-less reads of image type T with access Q (read_only or read_write). */
#define READS_PLAIN(Q, T, CI, ND, ARR)                                                            \
    OVL float4 read_imagef(Q T img, CI c) { return read_f_int(DESC(img), 0u, i4(c), ND, ARR); } \
    OVL int4 read_imagei(Q T img, CI c) { return read_i_int(DESC(img), 0u, i4(c), ND, ARR); }   \
    OVL uint4 read_imageui(Q T img, CI c) { return as_uint4(read_i_int(DESC(img), 0u, i4(c), ND, ARR)); } \
    H_READS_PLAIN(Q, T, CI, ND, ARR)

/* Reads with a sampler (read_only images only). */
#define READS_SAMPLER(T, CI, CF, ND, ARR)                                                        \
    OVL float4 read_imagef(read_only T img, sampler_t s, CF c)                                  \
    { return read_f_float(DESC(img), SMP(s), f4(c), ND, ARR); }                                 \
    OVL float4 read_imagef(read_only T img, sampler_t s, CI c)                                  \
    { return read_f_int(DESC(img), SMP(s), i4(c), ND, ARR); }                                   \
    OVL int4 read_imagei(read_only T img, sampler_t s, CF c)                                    \
    { return read_i_float(DESC(img), SMP(s), f4(c), ND, ARR); }                                 \
    OVL int4 read_imagei(read_only T img, sampler_t s, CI c)                                    \
    { return read_i_int(DESC(img), SMP(s), i4(c), ND, ARR); }                                   \
    OVL uint4 read_imageui(read_only T img, sampler_t s, CF c)                                  \
    { return as_uint4(read_i_float(DESC(img), SMP(s), f4(c), ND, ARR)); }                       \
    OVL uint4 read_imageui(read_only T img, sampler_t s, CI c)                                  \
    { return as_uint4(read_i_int(DESC(img), SMP(s), i4(c), ND, ARR)); }                         \
    H_READS_SAMPLER(T, CI, CF, ND, ARR)

#define WRITES(Q, T, CI)                                                                       \
    OVL void write_imagef(Q T img, CI c, float4 v) { write_f(DESC(img), i4(c), v); }           \
    OVL void write_imagei(Q T img, CI c, int4 v) { write_i(DESC(img), i4(c), v, false); }      \
    OVL void write_imageui(Q T img, CI c, uint4 v) { write_i(DESC(img), i4(c), as_int4(v), true); } \
    H_WRITES(Q, T, CI)

#define QUERIES_COMMON(Q, T)                                                                   \
    OVL int get_image_width(Q T img) { return DESC(img)->width; }                              \
    OVL int get_image_channel_data_type(Q T img) { return DESC(img)->channel_data_type; }      \
    OVL int get_image_channel_order(Q T img) { return DESC(img)->channel_order; }

#define QUERIES_2D(Q, T)                                                                       \
    OVL int get_image_height(Q T img) { return DESC(img)->height; }                            \
    OVL int2 get_image_dim(Q T img) { return (int2)(DESC(img)->width, DESC(img)->height); }

#define QUERIES_ARRAY(Q, T)                                                                    \
    OVL size_t get_image_array_size(Q T img) { return (size_t)DESC(img)->array_size; }

#define QUERIES_3D(Q, T)                                                                       \
    OVL int get_image_height(Q T img) { return DESC(img)->height; }                            \
    OVL int get_image_depth(Q T img) { return DESC(img)->depth; }                              \
    OVL int4 get_image_dim(Q T img)                                                            \
    { return (int4)(DESC(img)->width, DESC(img)->height, DESC(img)->depth, 0); }

/* Everything an access qualifier Q allows on each image type. */
#define ALL_TYPES_QUERIES(Q)                                                                   \
    QUERIES_COMMON(Q, image1d_t) QUERIES_COMMON(Q, image1d_buffer_t)                           \
    QUERIES_COMMON(Q, image1d_array_t) QUERIES_ARRAY(Q, image1d_array_t)                       \
    QUERIES_COMMON(Q, image2d_t) QUERIES_2D(Q, image2d_t)                                      \
    QUERIES_COMMON(Q, image2d_array_t) QUERIES_2D(Q, image2d_array_t)                          \
    QUERIES_ARRAY(Q, image2d_array_t)                                                          \
    QUERIES_COMMON(Q, image3d_t) QUERIES_3D(Q, image3d_t)

#define ALL_TYPES_READS(Q)                                                                     \
    READS_PLAIN(Q, image1d_t, int, 1, false)                                                   \
    READS_PLAIN(Q, image1d_buffer_t, int, 1, false)                                            \
    READS_PLAIN(Q, image1d_array_t, int2, 1, true)                                             \
    READS_PLAIN(Q, image2d_t, int2, 2, false)                                                  \
    READS_PLAIN(Q, image2d_array_t, int4, 2, true)                                             \
    READS_PLAIN(Q, image3d_t, int4, 3, false)

#define ALL_TYPES_WRITES(Q)                                                                    \
    WRITES(Q, image1d_t, int) WRITES(Q, image1d_buffer_t, int)                                 \
    WRITES(Q, image1d_array_t, int2) WRITES(Q, image2d_t, int2)                                \
    WRITES(Q, image2d_array_t, int4) WRITES(Q, image3d_t, int4)

ALL_TYPES_QUERIES(read_only)
ALL_TYPES_QUERIES(write_only)
ALL_TYPES_READS(read_only)
READS_SAMPLER(image1d_t, int, float, 1, false)
READS_SAMPLER(image1d_array_t, int2, float2, 1, true)
READS_SAMPLER(image2d_t, int2, float2, 2, false)
READS_SAMPLER(image2d_array_t, int4, float4, 2, true)
READS_SAMPLER(image3d_t, int4, float4, 3, false)
ALL_TYPES_WRITES(write_only)

#ifdef __opencl_c_read_write_images
ALL_TYPES_QUERIES(read_write)
ALL_TYPES_READS(read_write)
ALL_TYPES_WRITES(read_write)
#endif
