/* tests/common/weft_test.h — helpers shared by the API and end-to-end tests (header only).
 * Tests go through the ICD loader and pick the Weft platform by name, so they run the same
 * whether or not other platforms (pocl) are installed. */
#ifndef WEFT_TEST_H
#define WEFT_TEST_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#endif
