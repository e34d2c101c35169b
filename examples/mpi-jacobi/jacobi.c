/* examples/mpi-jacobi/jacobi.c — a 2-D Jacobi solver on MPI ranks, each with its own OpenCL
 * context on Weft: how an application that outgrows one node uses Weft (README, "MPI").
 *
 * The grid is ny x nx floats with fixed borders (initial(): a ramp along the top row, a
 * pseudo-random pattern elsewhere). Each rank owns a band of consecutive rows and keeps it on
 * its device in two buffers (ping-pong) with one halo row above and one below. Every iteration:
 *   1. the band's first and last rows are read from the device, exchanged with the neighbours
 *      (MPI_Sendrecv; the first and last rank have MPI_PROC_NULL on their outer side), and the
 *      rows received are written into the halo rows;
 *   2. one launch computes the next iterate of the band: every interior point becomes the mean
 *      of its four neighbours, border points keep their value.
 * At the end every band is gathered on rank 0, which runs the same iterations serially on the
 * host and compares: the maximum absolute difference must be below the tolerance, or every
 * rank exits with status 1. Both sides compute 0.25f * (((up + down) + left) + right) in float,
 * so they agree to rounding.
 *
 *   mpirun -np 2 ./mpi-jacobi [--nx N] [--ny N] [--iters N] [--platform NAME]
 *
 * The platform is picked by name (default "Weft"), never by position: other CPU platforms
 * (pocl) may be registered too.
 */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *kernel_source =
    "kernel void jacobi_step(global const float *in, global float *out, int nx, int ny,\n"
    "                        int first_row)\n"
    "{\n"
    "    int x = get_global_id(0), r = get_global_id(1);  /* r: row of the band, 0-based */\n"
    "    int g = first_row + r;                             /* the row in the whole grid */\n"
    "    size_t i = (size_t)(r + 1) * nx + x;               /* +1: the halo row above */\n"
    "    if (g == 0 || g == ny - 1 || x == 0 || x == nx - 1)\n"
    "        out[i] = in[i];\n"
    "    else\n"
    "        out[i] = 0.25f * (((in[i - nx] + in[i + nx]) + in[i - 1]) + in[i + 1]);\n"
    "}\n";

static int rank = 0;

/* Ends every rank: an error on one rank must not leave the others waiting in MPI. */
static void die(const char *what, cl_int err)
{
    fprintf(stderr, "mpi-jacobi rank %d: %s failed (%d)\n", rank, what, err);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

#define CHECK(call)                    \
    do {                               \
        cl_int e_ = (call);            \
        if (e_ != CL_SUCCESS)          \
            die(#call, e_);            \
    } while (0)

/* The initial grid, borders included (they keep these values): a ramp along the top row, and
 * everywhere else a deterministic pattern in [0, 1) that differs from row to row, so that the
 * rows next to a band's edge change from the first iteration on and a halo that was not (or
 * wrongly) exchanged shows in the result at once. */
static float initial(int g, int x, int nx)
{
    if (g == 0)
        return (float)x / (float)(nx - 1);
    unsigned h = (unsigned)g * 2654435761u ^ (unsigned)x * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)(h & 0xffff) / 65536.0f;
}

/* The same iterations on the host, over the whole grid: the reference. */
static float *serial_jacobi(int nx, int ny, int iters)
{
    float *a = malloc(sizeof(float) * nx * ny), *b = malloc(sizeof(float) * nx * ny);
    if (!a || !b)
        die("malloc", CL_OUT_OF_HOST_MEMORY);
    for (int g = 0; g < ny; g++)
        for (int x = 0; x < nx; x++)
            a[(size_t)g * nx + x] = initial(g, x, nx);
    memcpy(b, a, sizeof(float) * nx * ny);
    for (int it = 0; it < iters; it++) {
        for (int g = 1; g < ny - 1; g++)
            for (int x = 1; x < nx - 1; x++) {
                size_t i = (size_t)g * nx + x;
                b[i] = 0.25f * (((a[i - nx] + a[i + nx]) + a[i - 1]) + a[i + 1]);
            }
        float *t = a;
        a = b;
        b = t;
    }
    free(b);
    return a;
}

/* The device of the platform called `name` (CL_DEVICE_TYPE_ALL: Weft's is a CPU device). */
static cl_device_id find_device(const char *name, cl_platform_id *platform)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(16, ids, &n));
    for (cl_uint p = 0; p < n && p < 16; p++) {
        char pname[256] = "";
        clGetPlatformInfo(ids[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (strcmp(pname, name) != 0)
            continue;
        cl_device_id dev;
        CHECK(clGetDeviceIDs(ids[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
        *platform = ids[p];
        return dev;
    }
    fprintf(stderr, "mpi-jacobi rank %d: no OpenCL platform named '%s' (OCL_ICD_VENDORS?)\n", rank, name);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    int nx = 512, ny = 512, iters = 200;
    const char *platform_name = "Weft";
    double tolerance = 1e-5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--nx") && i + 1 < argc)
            nx = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ny") && i + 1 < argc)
            ny = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--platform") && i + 1 < argc)
            platform_name = argv[++i];
        else {
            if (rank == 0)
                fprintf(stderr, "usage: mpi-jacobi [--nx N] [--ny N] [--iters N] [--platform NAME]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (nx < 3 || ny < ranks || ny < 3 || iters < 0) {
        if (rank == 0)
            fprintf(stderr, "mpi-jacobi: need nx >= 3, ny >= 3 and >= ranks (%d), iters >= 0\n", ranks);
        MPI_Finalize();
        return 2;
    }

    /* This rank's band: rows [first, first + rows), the remainder spread over the first ranks. */
    int rows = ny / ranks + (rank < ny % ranks), first = rank * (ny / ranks) + (rank < ny % ranks ? rank : ny % ranks);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;

    cl_platform_id platform;
    cl_device_id dev = find_device(platform_name, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "mpi-jacobi rank %d: build failed:\n%s\n", rank, log);
        die("clBuildProgram", CL_BUILD_PROGRAM_FAILURE);
    }
    cl_kernel k = clCreateKernel(prog, "jacobi_step", &err);
    CHECK(err);

    /* The band with its two halo rows, initial values everywhere (halo rows of the outer ranks
     * are never read: their neighbours there are border rows, which keep their value). */
    size_t row_bytes = sizeof(float) * nx, band_bytes = row_bytes * (rows + 2);
    float *band = calloc(rows + 2, row_bytes);
    if (!band)
        die("calloc", CL_OUT_OF_HOST_MEMORY);
    for (int r = 0; r < rows; r++)
        for (int x = 0; x < nx; x++)
            band[(size_t)(r + 1) * nx + x] = initial(first + r, x, nx);
    cl_mem buf[2];
    for (int i = 0; i < 2; i++) {
        buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, band_bytes, band, &err);
        CHECK(err);
    }

    char dname[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    cl_uint units = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    printf("rank %d/%d: rows %d..%d of %d on %s (%s, %u compute units)\n", rank, ranks, first,
           first + rows - 1, ny, platform_name, dname, units);
    fflush(stdout);

    float *send_up = malloc(row_bytes), *send_down = malloc(row_bytes);
    float *recv_up = malloc(row_bytes), *recv_down = malloc(row_bytes);
    if (!send_up || !send_down || !recv_up || !recv_down)
        die("malloc", CL_OUT_OF_HOST_MEMORY);
    size_t global[2] = {(size_t)nx, (size_t)rows};
    double t0 = now(), halo_time = 0;
    int cur = 0;
    for (int it = 0; it < iters; it++) {
        /* 1. halos: the band's outer rows out, the neighbours' rows in. The blocking reads wait
         *    for the previous launch (in-order queue). */
        double h0 = now();
        CHECK(clEnqueueReadBuffer(q, buf[cur], CL_TRUE, row_bytes, row_bytes, send_up, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, buf[cur], CL_TRUE, row_bytes * rows, row_bytes, send_down, 0, NULL, NULL));
        MPI_Sendrecv(send_up, nx, MPI_FLOAT, up, 0, recv_down, nx, MPI_FLOAT, down, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(send_down, nx, MPI_FLOAT, down, 1, recv_up, nx, MPI_FLOAT, up, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (up != MPI_PROC_NULL)
            CHECK(clEnqueueWriteBuffer(q, buf[cur], CL_FALSE, 0, row_bytes, recv_up, 0, NULL, NULL));
        if (down != MPI_PROC_NULL)
            CHECK(clEnqueueWriteBuffer(q, buf[cur], CL_FALSE, row_bytes * (rows + 1), row_bytes, recv_down, 0,
                                       NULL, NULL));
        halo_time += now() - h0;
        /* 2. one step of the band. The non-blocking writes above are ordered before it (in-order
         *    queue); the receive buffers are not touched again before the next blocking read. */
        CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf[cur]));
        CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &buf[1 - cur]));
        CHECK(clSetKernelArg(k, 2, sizeof(int), &nx));
        CHECK(clSetKernelArg(k, 3, sizeof(int), &ny));
        CHECK(clSetKernelArg(k, 4, sizeof(int), &first));
        CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL));
        cur = 1 - cur;
    }
    CHECK(clEnqueueReadBuffer(q, buf[cur], CL_TRUE, row_bytes, row_bytes * rows, band + nx, 0, NULL, NULL));
    double elapsed = now() - t0;
    printf("rank %d: %d iterations in %.3f s (halo exchange %.3f s)\n", rank, iters, elapsed, halo_time);
    fflush(stdout);

    /* Gather the bands on rank 0 and compare with the serial run there. */
    int *counts = NULL, *displs = NULL;
    float *whole = NULL;
    if (rank == 0) {
        counts = malloc(sizeof(int) * ranks);
        displs = malloc(sizeof(int) * ranks);
        whole = malloc(sizeof(float) * nx * ny);
        if (!counts || !displs || !whole)
            die("malloc", CL_OUT_OF_HOST_MEMORY);
        for (int r = 0; r < ranks; r++) {
            int rr = ny / ranks + (r < ny % ranks), rf = r * (ny / ranks) + (r < ny % ranks ? r : ny % ranks);
            counts[r] = rr * nx;
            displs[r] = rf * nx;
        }
    }
    MPI_Gatherv(band + nx, rows * nx, MPI_FLOAT, whole, counts, displs, MPI_FLOAT, 0, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        float *ref = serial_jacobi(nx, ny, iters);
        double max_diff = 0;
        size_t worst = 0;
        for (size_t i = 0; i < (size_t)nx * ny; i++) {
            double d = fabs((double)whole[i] - (double)ref[i]);
            if (!(d <= max_diff)) {   /* also catches NaN */
                max_diff = isnan(d) ? INFINITY : d;
                worst = i;
            }
        }
        status = max_diff <= tolerance ? 0 : 1;
        printf("mpi-jacobi: %d ranks, %dx%d grid, %d iterations: max |MPI+OpenCL - serial| = %.3g at (%zu, %zu) "
               "(tolerance %.0e): %s\n",
               ranks, nx, ny, iters, max_diff, worst / nx, worst % nx, tolerance, status ? "MISMATCH" : "ok");
        free(ref);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

    free(send_up);
    free(send_down);
    free(recv_up);
    free(recv_down);
    free(band);
    free(whole);
    free(counts);
    free(displs);
    clReleaseMemObject(buf[0]);
    clReleaseMemObject(buf[1]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    MPI_Finalize();
    return status;
}
