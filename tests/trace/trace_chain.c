/* tests/trace/trace_chain.c — the OpenCL program that tests/trace/check_trace.py runs under
 * WEFT_TRACE and WEFT_REPORT (util/trace.h, exec/report.h) and whose trace and report it checks.
 *
 * What it runs, on one in-order queue, checking every result against the host:
 *   - a buffer written (WriteBuffer), then CHAIN_REPS times a chain of CHAIN_LEN 2-D Jacobi
 *     launches (ping-pong, fusable) ended by a blocking ReadBuffer (a sync point);
 *   - DIVERGE_LAUNCHES launches of `diverge` (a loop whose trip count differs per work-item: the
 *     vectorizer runs it under lane masks, so the runtime profiles it against the scalar
 *     variant), each followed by clFinish;
 *   - LOCAL_LAUNCHES launches of `scale_local` (uses its local id and a barrier: not fusable).
 * Usage: trace_chain [--exit-after-finish]: with it, the program ends with _exit(0) right after
 * the first chain and a clFinish, so that only a trace written at clFinish
 * (WEFT_TRACE_FLUSH=finish) exists. Prints "ok" and exits 0 when every result matched. */
#include <CL/cl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft_test.h"

#define W 256
#define H 128
#define CHAIN_LEN 10
#define CHAIN_REPS 3
#define DIVERGE_N 65536
#define DIVERGE_LAUNCHES 4
#define LOCAL_N 4096
#define LOCAL_LAUNCHES 3

static const char *source =
    "kernel void jacobi2d(global const float *a, global float *b, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), i = y * w + x;\n"
    "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
    "    b[i] = 0.2f * (a[i] + a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);\n"
    "  else b[i] = a[i];\n"
    "}\n"
    "kernel void diverge(global const float *a, global float *b) {\n"
    "  int i = get_global_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < (i & 15); k++) s += a[(i + k) & 1023];\n"
    "  b[i] = s;\n"
    "}\n"
    "kernel void scale_local(global float *a, local float *t) {\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = a[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(0)] = 2.0f * t[n - 1 - l];\n"
    "}\n";

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "trace_chain: %s failed (%d)\n", what, err);
    return 1;
}

static void jacobi_host(const float *a, float *b)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            b[i] = x > 0 && y > 0 && x < W - 1 && y < H - 1
                       ? 0.2f * (a[i] + a[i - 1] + a[i + 1] + a[i - W] + a[i + W])
                       : a[i];
        }
}

static int run_chain(struct weft_test_env *e, cl_kernel k, cl_mem buf[2], const float *init, bool exit_after)
{
    size_t bytes = (size_t)W * H * sizeof(float);
    float *ref = malloc(bytes), *tmp = malloc(bytes), *got = malloc(bytes);
    if (!ref || !tmp || !got)
        return fail("malloc", 0);
    memcpy(ref, init, bytes);
    for (int i = 0; i < CHAIN_LEN; i++) {
        jacobi_host(ref, tmp);
        memcpy(ref, tmp, bytes);
    }
    int w = W, h = H;
    for (int r = 0; r < CHAIN_REPS; r++) {
        cl_int err = clEnqueueWriteBuffer(e->queue, buf[0], CL_FALSE, 0, bytes, init, 0, NULL, NULL);
        if (err)
            return fail("clEnqueueWriteBuffer", err);
        for (int i = 0; i < CHAIN_LEN; i++) {
            clSetKernelArg(k, 0, sizeof(cl_mem), &buf[i & 1]);
            clSetKernelArg(k, 1, sizeof(cl_mem), &buf[(i + 1) & 1]);
            clSetKernelArg(k, 2, sizeof w, &w);
            clSetKernelArg(k, 3, sizeof h, &h);
            size_t global[2] = {W, H}, local[2] = {64, 1};
            err = clEnqueueNDRangeKernel(e->queue, k, 2, NULL, global, local, 0, NULL, NULL);
            if (err)
                return fail("clEnqueueNDRangeKernel(jacobi2d)", err);
        }
        err = clEnqueueReadBuffer(e->queue, buf[CHAIN_LEN & 1], CL_TRUE, 0, bytes, got, 0, NULL, NULL);
        if (err)
            return fail("clEnqueueReadBuffer", err);
        for (int i = 0; i < W * H; i++)
            if (fabsf(got[i] - ref[i]) > 1e-5f * (fabsf(ref[i]) + 1.0f)) {
                fprintf(stderr, "trace_chain: jacobi2d chain %d: element %d is %g, expected %g\n", r, i, got[i],
                        ref[i]);
                return 1;
            }
        if (exit_after) {
            clFinish(e->queue);
            _exit(0);   /* no atexit handler: only what clFinish wrote remains */
        }
    }
    free(ref);
    free(tmp);
    free(got);
    return 0;
}

static int run_diverge(struct weft_test_env *e, cl_kernel k, cl_mem a, cl_mem b, const float *init)
{
    float *got = malloc(DIVERGE_N * sizeof(float));
    if (!got)
        return fail("malloc", 0);
    cl_int err = clEnqueueWriteBuffer(e->queue, a, CL_TRUE, 0, 1024 * sizeof(float), init, 0, NULL, NULL);
    if (err)
        return fail("clEnqueueWriteBuffer(diverge)", err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &a);
    clSetKernelArg(k, 1, sizeof(cl_mem), &b);
    for (int r = 0; r < DIVERGE_LAUNCHES; r++) {
        size_t global = DIVERGE_N, local = 64;
        err = clEnqueueNDRangeKernel(e->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (!err)
            err = clFinish(e->queue);
        if (err)
            return fail("diverge", err);
    }
    err = clEnqueueReadBuffer(e->queue, b, CL_TRUE, 0, DIVERGE_N * sizeof(float), got, 0, NULL, NULL);
    if (err)
        return fail("clEnqueueReadBuffer(diverge)", err);
    for (int i = 0; i < DIVERGE_N; i++) {
        float s = 0.0f;
        for (int j = 0; j < (i & 15); j++)
            s += init[(i + j) & 1023];
        if (fabsf(got[i] - s) > 1e-4f * (fabsf(s) + 1.0f)) {
            fprintf(stderr, "trace_chain: diverge: element %d is %g, expected %g\n", i, got[i], s);
            return 1;
        }
    }
    free(got);
    return 0;
}

static int run_local(struct weft_test_env *e, cl_kernel k, cl_mem a)
{
    float host[LOCAL_N], got[LOCAL_N];
    for (int i = 0; i < LOCAL_N; i++)
        host[i] = (float)(i % 97);
    cl_int err = clEnqueueWriteBuffer(e->queue, a, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
    if (err)
        return fail("clEnqueueWriteBuffer(scale_local)", err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &a);
    clSetKernelArg(k, 1, 64 * sizeof(float), NULL);
    for (int r = 0; r < LOCAL_LAUNCHES; r++) {
        size_t global = LOCAL_N, local = 64;
        err = clEnqueueNDRangeKernel(e->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (!err)
            err = clFinish(e->queue);
        if (err)
            return fail("scale_local", err);
        float next[LOCAL_N];
        for (int i = 0; i < LOCAL_N; i++)
            next[i] = 2.0f * host[(i / 64) * 64 + 63 - i % 64];
        memcpy(host, next, sizeof host);
    }
    err = clEnqueueReadBuffer(e->queue, a, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    if (err)
        return fail("clEnqueueReadBuffer(scale_local)", err);
    for (int i = 0; i < LOCAL_N; i++)
        if (got[i] != host[i]) {
            fprintf(stderr, "trace_chain: scale_local: element %d is %g, expected %g\n", i, got[i], host[i]);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    bool exit_after = argc > 1 && !strcmp(argv[1], "--exit-after-finish");
    struct weft_test_env e;
    if (weft_test_env_open(&e, 0) != 0)
        return fail("opening the Weft device", 0);
    cl_program p = weft_test_build(&e, source, NULL);
    if (!p)
        return 1;
    cl_int err;
    cl_kernel jacobi = clCreateKernel(p, "jacobi2d", &err), diverge = clCreateKernel(p, "diverge", &err),
              local = clCreateKernel(p, "scale_local", &err);
    if (!jacobi || !diverge || !local)
        return fail("clCreateKernel", err);
    size_t bytes = (size_t)W * H * sizeof(float);
    float *init = malloc(bytes);
    if (!init)
        return fail("malloc", 0);
    for (int i = 0; i < W * H; i++)
        init[i] = (float)((i * 7919) % 1000) * 0.001f;
    cl_mem buf[2], small = clCreateBuffer(e.context, CL_MEM_READ_WRITE, LOCAL_N * sizeof(float), NULL, &err);
    for (int i = 0; i < 2; i++)
        buf[i] = clCreateBuffer(e.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem out = clCreateBuffer(e.context, CL_MEM_READ_WRITE, DIVERGE_N * sizeof(float), NULL, &err);
    if (!buf[0] || !buf[1] || !small || !out)
        return fail("clCreateBuffer", err);
    if (run_chain(&e, jacobi, buf, init, exit_after) || run_diverge(&e, diverge, buf[0], out, init) ||
        run_local(&e, local, small))
        return 1;
    clReleaseMemObject(buf[0]);
    clReleaseMemObject(buf[1]);
    clReleaseMemObject(small);
    clReleaseMemObject(out);
    clReleaseKernel(jacobi);
    clReleaseKernel(diverge);
    clReleaseKernel(local);
    clReleaseProgram(p);
    weft_test_env_close(&e);
    free(init);
    printf("ok\n");
    return 0;
}
