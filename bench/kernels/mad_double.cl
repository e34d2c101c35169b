/* clpeak-shaped double-precision compute kernel (see mad.cl). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define MAD16(x, y, a, b) \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
    x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b);

kernel void mad_double(global double *out, double a, double b)
{
    size_t i = get_global_id(0);
    double x = (double)(i & 1023) * 0.001, y = 1.0 - x;
    for (int k = 0; k < 64; k++) {
        MAD16(x, y, a, b)
    }
    out[i] = x + y;
}
