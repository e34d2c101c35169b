/* tools/demo/demo.c — the demo of `make run`: real OpenCL kernels through the ICD loader on
 * the Weft platform, each result checked against a host computation, with timings. */
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *source =
    "__kernel void saxpy(float a, __global const float *x, __global float *y) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) tmp[l] += tmp[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cl_int e_ = (call);                                                                 \
        if (e_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "demo: %s failed with %d (line %d)\n", #call, e_, __LINE__);    \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

static cl_platform_id find_weft(void)
{
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[128] = {0};
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strcmp(name, "Weft"))
            return ps[i];
    }
    return NULL;
}

int main(void)
{
    cl_platform_id platform = find_weft();
    if (!platform) {
        fprintf(stderr, "demo: the Weft platform is not visible (set OCL_ICD_VENDORS)\n");
        return 1;
    }
    cl_device_id dev;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &err);
    CHECK(err);

    double t0 = now_us();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "demo: build failed:\n%s\n", log);
        return 1;
    }
    printf("clBuildProgram (2 kernels): %.1f ms\n", (now_us() - t0) / 1e3);

    /* saxpy on 16M floats */
    const size_t n = 1 << 24;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ref = malloc(n * sizeof *ref);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 7);
        ref[i] = 2.5f * x[i] + y[i];
    }
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, x, &err);
    CHECK(err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, y, &err);
    CHECK(err);
    cl_kernel saxpy = clCreateKernel(prog, "saxpy", &err);
    CHECK(err);
    float a = 2.5f;
    CHECK(clSetKernelArg(saxpy, 0, sizeof a, &a));
    CHECK(clSetKernelArg(saxpy, 1, sizeof bx, &bx));
    CHECK(clSetKernelArg(saxpy, 2, sizeof by, &by));
    cl_event ev;
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &n, NULL, 0, NULL, &ev));
    CHECK(clFinish(q));
    double first = now_us() - t0;
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    clReleaseEvent(ev);
    /* a second, warm launch (the variant is compiled and cached now) */
    CHECK(clSetKernelArg(saxpy, 0, sizeof a, &(float){0.0f}));
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clFinish(q));
    double warm = now_us() - t0;
    CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, n * 4, y, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += y[i] != ref[i];
    printf("saxpy, %zu floats: %s; first launch %.2f ms (kernel %.2f ms, incl. JIT), warm launch %.2f ms = %.1f GB/s\n",
           n, bad ? "WRONG" : "correct", first / 1e3, (end - start) / 1e6, warm / 1e3,
           3.0 * n * 4 / (warm * 1e3));

    /* tree reduction with barriers in a loop and __local memory */
    const size_t local = 256, groups = 4096, m = local * groups;
    float *in = malloc(m * sizeof *in), *partial = malloc(groups * sizeof *partial);
    double expect = 0;
    for (size_t i = 0; i < m; i++) {
        in[i] = (float)((i * 7919) % 13) - 6.0f;
        expect += in[i];
    }
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * 4, in, &err);
    CHECK(err);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * 4, NULL, &err);
    CHECK(err);
    cl_kernel reduce = clCreateKernel(prog, "reduce", &err);
    CHECK(err);
    CHECK(clSetKernelArg(reduce, 0, sizeof bin, &bin));
    CHECK(clSetKernelArg(reduce, 1, sizeof bout, &bout));
    CHECK(clSetKernelArg(reduce, 2, local * sizeof(float), NULL));
    CHECK(clEnqueueNDRangeKernel(q, reduce, 1, NULL, &m, &local, 0, NULL, NULL));
    CHECK(clFinish(q));
    t0 = now_us();
    CHECK(clEnqueueNDRangeKernel(q, reduce, 1, NULL, &m, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, groups * 4, partial, 0, NULL, NULL));
    double red = now_us() - t0;
    double sum = 0;
    for (size_t g = 0; g < groups; g++)
        sum += partial[g];
    printf("tree reduction, %zu floats in groups of %zu: sum %.0f (expected %.0f) %s; %.2f ms\n",
           m, local, sum, expect, fabs(sum - expect) < 0.5 ? "correct" : "WRONG", red / 1e3);

    /* empty-ish launch latency: enqueue + finish of a 1-work-item launch */
    size_t one = 1;
    CHECK(clSetKernelArg(saxpy, 0, sizeof a, &a));
    double best = 1e30;
    for (int r = 0; r < 200; r++) {
        t0 = now_us();
        CHECK(clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &one, NULL, 0, NULL, NULL));
        CHECK(clFinish(q));
        double t = now_us() - t0;
        if (t < best)
            best = t;
    }
    printf("launch + finish of a 1-work-item kernel: best of 200 = %.1f us\n", best);

    clReleaseKernel(saxpy);
    clReleaseKernel(reduce);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(x); free(y); free(ref); free(in); free(partial);
    return bad || fabs(sum - expect) >= 0.5;
}
