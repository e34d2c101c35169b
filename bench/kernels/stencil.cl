/* Jacobi stencils, one work-item per point, run as a chain of ping-pong launches (Zhou). */

kernel void jacobi1d(global const float *in, global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (i == 0 || i == n - 1)
        out[i] = in[i];
    else
        out[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0f / 3.0f);
}

kernel void jacobi2d(global const float *in, global float *out, int nx, int ny)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= nx || y >= ny)
        return;
    int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
        out[i] = in[i];
    else
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
