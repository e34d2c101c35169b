/* tests/common/weft_test.h — helpers shared by the API and end-to-end tests (header only).
 * Tests go through the ICD loader and pick the Weft platform by name, so they run the same
 * whether or not other platforms (pocl) are installed. */
#ifndef WEFT_TEST_H
#define WEFT_TEST_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static inline cl_platform_id weft_test_platform(void)
{
    cl_platform_id ps[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = {0};
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strcmp(name, "Weft"))
            return ps[i];
    }
    return NULL;
}

static inline cl_device_id weft_test_device(void)
{
    cl_platform_id p = weft_test_platform();
    cl_device_id d = NULL;
    if (p && clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS)
        return NULL;
    return d;
}

/* Whether the device lists `name` in CL_DEVICE_OPENCL_C_FEATURES: 1 yes, 0 no, -1 the query failed. */
static inline int weft_test_device_has_feature(cl_device_id d, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) != CL_SUCCESS)
        return -1;
    cl_name_version *v = malloc(size ? size : 1);
    if (!v || clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, size, v, NULL) != CL_SUCCESS) {
        free(v);
        return -1;
    }
    int found = 0;
    for (size_t i = 0; i < size / sizeof *v; i++)
        found |= !strcmp(v[i].name, name);
    free(v);
    return found;
}

/* A context and in-order queue on the Weft device; aborts the test program if impossible. */
struct weft_test_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
};

static inline int weft_test_env_open(struct weft_test_env *e, cl_command_queue_properties qprops)
{
    cl_int err;
    e->platform = weft_test_platform();
    e->device = weft_test_device();
    if (!e->device)
        return -1;
    e->context = clCreateContext(NULL, 1, &e->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, qprops, 0};
    e->queue = clCreateCommandQueueWithProperties(e->context, e->device, props, &err);
    return err == CL_SUCCESS ? 0 : -1;
}

static inline void weft_test_env_close(struct weft_test_env *e)
{
    if (e->queue)
        clReleaseCommandQueue(e->queue);
    if (e->context)
        clReleaseContext(e->context);
}

/* Builds `src` for the Weft device; on failure prints the build log and returns NULL. */
static inline cl_program weft_test_build(struct weft_test_env *e, const char *src, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    err = clBuildProgram(p, 1, &e->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = calloc(n + 1, 1);
        clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* Runs `k` over `global` work-items on q with stdout redirected to a file, and returns what
 * was printed (malloc'd), or NULL when the launch or the redirection failed. */
static inline char *weft_test_capture_launch(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    char path[] = "/tmp/weft-printf-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, NULL);
    cl_int fin = clFinish(q);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    off_t n = lseek(fd, 0, SEEK_END);
    char *text = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    if (text && pread(fd, text, (size_t)n, 0) != n) {
        free(text);
        text = NULL;
    }
    close(fd);
    if (err != CL_SUCCESS || fin != CL_SUCCESS) {
        free(text);
        return NULL;
    }
    return text;
}

#endif
