/* clpeak-shaped compute kernels: two long dependent chains of mad per work-item. Only
 * vectorizing and interleaving across work-items can keep the FMA pipes full. 64 x 16 = 1024
 * mads per work-item (per lane for float4). */
#define MAD16(x, y, a, b) \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b);

kernel void mad_float(global float *out, float a, float b)
{
    size_t i = get_global_id(0);
    float x = (float)(i & 1023) * 0.001f, y = 1.0f - x;
    for (int k = 0; k < 64; k++) {
        MAD16(x, y, a, b)
    }
    out[i] = x + y;
}

kernel void mad_float4(global float4 *out, float a, float b)
{
    size_t i = get_global_id(0);
    float4 x = (float4)((float)((4 * i) & 1023), (float)((4 * i + 1) & 1023),
                        (float)((4 * i + 2) & 1023), (float)((4 * i + 3) & 1023)) * 0.001f;
    float4 y = 1.0f - x;
    for (int k = 0; k < 64; k++) {
        MAD16(x, y, a, b)
    }
    out[i] = x + y;
}

/* integer multiply-add wraps around (unsigned), as clpeak's integer kernel does */
#define IMAD16(x, y, a, b) \
    x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b; \
    x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b; \
    x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b; \
    x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b;

kernel void mad_int(global uint *out, uint a, uint b)
{
    size_t i = get_global_id(0);
    uint x = (uint)i, y = ~(uint)i;
    for (int k = 0; k < 64; k++) {
        IMAD16(x, y, a, b)
    }
    out[i] = x ^ y;
}
