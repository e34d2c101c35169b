/* STREAM-style kernels: one work-item per element (float) or per four elements (float4). */
kernel void copy(global const float *a, global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i];
}

kernel void scale(global const float *c, global float *b, float s)
{
    size_t i = get_global_id(0);
    b[i] = s * c[i];
}

kernel void triad(global const float *b, global const float *c, global float *a, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}

kernel void copy4(global const float4 *a, global float4 *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i];
}

kernel void scale4(global const float4 *c, global float4 *b, float s)
{
    size_t i = get_global_id(0);
    b[i] = s * c[i];
}

kernel void triad4(global const float4 *b, global const float4 *c, global float4 *a, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
