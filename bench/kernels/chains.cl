/* Stencil chains beyond Jacobi, one work-item per point, each step a launch on an in-order
 * queue (Zhou): Poisson with a right-hand side, Rodinia's HotSpot (neighbours clamped at the
 * borders, without its __local pyramid), and PolyBench's FDTD-2D (three kernels a step). */

kernel void poisson(global const float *u, global float *v, global const float *f, int w, int h, float hh)
{
    int x = get_global_id(0), y = get_global_id(1), i = y * w + x;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
        v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - hh * f[i]);
    else
        v[i] = u[i];
}

/* 3-D 7-point heat stencil, indexed as 3-D codes do: (z * ny + y) * nx + x */
kernel void heat3d(global const float *u, global float *v, int nx, int ny, int nz)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int i = (z * ny + y) * nx + x;
    if (x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1)
        v[i] = 0.4f * u[i] + 0.1f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + u[i - nx * ny] + u[i + nx * ny]);
    else
        v[i] = u[i];
}

kernel void hotspot(global const float *power, global const float *src, global float *dst, int rows, int cols,
                    float cap1, float rx1, float ry1, float rz1, float amb)
{
    int c = get_global_id(0), r = get_global_id(1), idx = r * cols + c;
    int N = (r == 0) ? idx : idx - cols;
    int S = (r == rows - 1) ? idx : idx + cols;
    int W = (c == 0) ? idx : idx - 1;
    int E = (c == cols - 1) ? idx : idx + 1;
    float t = src[idx];
    dst[idx] = t + cap1 * (power[idx] + (src[S] + src[N] - 2.0f * t) * ry1 + (src[E] + src[W] - 2.0f * t) * rx1 +
                           (amb - t) * rz1);
}

kernel void fdtd_ey(global float *ey, global const float *hz, global const float *fict, int nx, int ny, int t)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i == 0)
        ey[i * ny + j] = fict[t];
    else
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

kernel void fdtd_ex(global float *ex, global const float *hz, int nx, int ny)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (j > 0)
        ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

kernel void fdtd_hz(global float *hz, global const float *ex, global const float *ey, int nx, int ny)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i < nx - 1 && j < ny - 1)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
