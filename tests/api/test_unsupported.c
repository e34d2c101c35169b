/* tests/api/test_unsupported.c — the entry points of features the Weft device reports as absent
 * (images, samplers, pipes, SVM, on-device queues, built-in and native kernels,
 * clSetCommandQueueProperty), through the ICD loader: with otherwise valid
 * arguments each fails with the specification's code for a device without the feature; the
 * arguments the specification checks first are checked first; nothing is created. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "weft_test.h"

struct fake_handle {
    const void *dispatch;
    uint64_t junk[7];
};

static struct fake_handle fake_of(const void *real)
{
    struct fake_handle f = {*(const void *const *)real, {0}};
    return f;
}

struct fixture {
    struct weft_test_env env;
    cl_mem buffer;
    cl_program program;
    cl_kernel kernel;
};

static int group_setup(void **state)
{
    static struct fixture f;
    if (weft_test_env_open(&f.env, 0) != 0)
        return -1;
    cl_int err;
    f.buffer = clCreateBuffer(f.env.context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    f.program = weft_test_build(&f.env, "kernel void k(global int *p) { p[get_global_id(0)] = 1; }", "");
    if (!f.program)
        return -1;
    f.kernel = clCreateKernel(f.program, "k", &err);
    if (err != CL_SUCCESS)
        return -1;
    *state = &f;
    return 0;
}

static int group_teardown(void **state)
{
    struct fixture *f = *state;
    clReleaseKernel(f->kernel);
    clReleaseProgram(f->program);
    clReleaseMemObject(f->buffer);
    weft_test_env_close(&f->env);
    return 0;
}

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

/* ---- images ---- */

static void test_supported_image_formats_is_empty(void **state)
{
    struct fixture *f = *state;
    static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                               CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE2D,
                                               CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
    for (size_t i = 0; i < ARRAY_LEN(types); i++) {
        cl_uint n = 99;
        cl_image_format fmts[4];
        assert_int_equal(clGetSupportedImageFormats(f->env.context, CL_MEM_READ_ONLY, types[i], 4, fmts, &n), CL_SUCCESS);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(clGetSupportedImageFormats(f->env.context, CL_MEM_KERNEL_READ_AND_WRITE, types[i], 0, NULL, &n),
                         CL_SUCCESS);
        assert_int_equal(n, 0);
    }
    cl_uint n;
    cl_image_format fmts[4];
    assert_int_equal(clGetSupportedImageFormats(f->env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, fmts, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(f->env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 4, fmts, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(f->env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                                CL_MEM_OBJECT_IMAGE2D, 4, fmts, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats((cl_context)f->env.device, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D,
                                                4, fmts, &n),
                     CL_INVALID_CONTEXT);
}

static void test_create_image(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 16;
    desc.image_height = 16;
    char host[16 * 16 * 4];
    cl_int err = 0;
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, &desc, host, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImageWithProperties(c, NULL, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage2D(c, CL_MEM_READ_ONLY, &rgba8, 16, 16, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage3D(c, CL_MEM_READ_ONLY, &rgba8, 16, 16, 4, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);

    /* the arguments the specification checks first */
    assert_null(clCreateImage((cl_context)f->env.device, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, NULL, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_DESCRIPTOR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &desc, host, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    const cl_mem_properties props[] = {0x4242, 1, 0};
    assert_null(clCreateImageWithProperties(c, props, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    assert_null(clCreateImage2D(c, CL_MEM_READ_ONLY, &rgba8, 0, 16, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    /* errcode_ret may be NULL */
    assert_null(clCreateImage(c, CL_MEM_READ_ONLY, &rgba8, &desc, NULL, NULL));
}

static void test_image_info_and_commands(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    cl_mem b = f->buffer;
    size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1}, n;
    char data[64];
    cl_uint fill[4] = {0};
    cl_image_format fmt;
    /* a buffer is not an image */
    assert_int_equal(clGetImageInfo(b, CL_IMAGE_FORMAT, sizeof fmt, &fmt, &n), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueReadImage(q, b, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueWriteImage(q, b, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueFillImage(q, b, fill, origin, region, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueCopyImage(q, b, b, origin, origin, region, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueCopyImageToBuffer(q, b, b, origin, region, 0, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueCopyBufferToImage(q, b, b, 0, origin, region, 0, NULL, NULL), CL_INVALID_OPERATION);
    cl_int err = 0;
    assert_null(clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ, origin, region, &n, &n, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    /* no event is made by a failed command */
    cl_event ev = NULL;
    assert_int_equal(clEnqueueReadImage(q, b, CL_FALSE, origin, region, 0, 0, data, 0, NULL, &ev), CL_INVALID_OPERATION);
    assert_null(ev);
    /* the queue is checked first */
    cl_command_queue bad = (cl_command_queue)f->env.context;
    assert_int_equal(clEnqueueReadImage(bad, b, CL_TRUE, origin, region, 0, 0, data, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueCopyImage(bad, b, b, origin, origin, region, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_null(clEnqueueMapImage(bad, b, CL_TRUE, CL_MAP_READ, origin, region, &n, &n, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_COMMAND_QUEUE);
    /* the buffer is untouched and still usable */
    int v = 7;
    assert_int_equal(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL), CL_SUCCESS);
    v = 0;
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(v, 7);
}

/* ---- samplers ---- */

static void test_samplers(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_int err = 0;
    assert_null(clCreateSampler(c, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateSampler(c, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    /* invalid values first: REPEAT needs normalized coordinates */
    assert_null(clCreateSampler(c, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, CL_TRUE, CL_ADDRESS_CLAMP, 0x9999, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(c, 5, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler((cl_context)f->env.device, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);

    const cl_sampler_properties ok[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_FILTER_MODE,
                                        CL_FILTER_LINEAR, 0};
    assert_null(clCreateSamplerWithProperties(c, ok, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateSamplerWithProperties(c, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                           CL_FILTER_LINEAR, 0};
    assert_null(clCreateSamplerWithProperties(c, twice, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const cl_sampler_properties unknown[] = {0x4321, 1, 0};
    assert_null(clCreateSamplerWithProperties(c, unknown, &err));
    assert_int_equal(err, CL_INVALID_VALUE);

    /* no sampler can exist: every handle is invalid */
    struct fake_handle fake = fake_of(c);
    cl_sampler s = (cl_sampler)&fake;
    cl_uint v;
    assert_int_equal(clRetainSampler(s), CL_INVALID_SAMPLER);
    assert_int_equal(clReleaseSampler(s), CL_INVALID_SAMPLER);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, NULL), CL_INVALID_SAMPLER);
    assert_int_equal(clRetainSampler((cl_sampler)c), CL_INVALID_SAMPLER);
    assert_int_equal(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
}

/* ---- pipes ---- */

static void test_pipes(void **state)
{
    struct fixture *f = *state;
    cl_int err = 0;
    assert_null(clCreatePipe(f->env.context, CL_MEM_READ_WRITE, 16, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreatePipe((cl_context)f->env.queue, CL_MEM_READ_WRITE, 16, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    cl_uint v;
    assert_int_equal(clGetPipeInfo(f->buffer, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    struct fake_handle fake = fake_of(f->buffer);
    assert_int_equal(clGetPipeInfo((cl_mem)&fake, CL_PIPE_PACKET_SIZE, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
}

/* ---- shared virtual memory ---- */

static void test_svm(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    assert_null(clSVMAlloc(f->env.context, CL_MEM_READ_WRITE, 4096, 0));
    clSVMFree(f->env.context, NULL); /* a no-op */
    char a[64], b[64];
    void *ptrs[1] = {a};
    int pattern = 0;
    const void *cptrs[1] = {a};
    size_t sizes[1] = {64};
    assert_int_equal(clEnqueueSVMFree(q, 1, ptrs, NULL, NULL, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, b, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pattern, sizeof pattern, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 64, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, cptrs, sizes, 0, 0, NULL, NULL), CL_INVALID_OPERATION);
    /* malformed arguments are reported as such */
    assert_int_equal(clEnqueueSVMFree(q, 0, ptrs, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, b, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pattern, 3, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pattern, sizeof pattern, 63, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 0, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    /* the queue first */
    cl_command_queue bad = (cl_command_queue)f->env.context;
    assert_int_equal(clEnqueueSVMMemcpy(bad, CL_TRUE, a, b, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMUnmap(bad, a, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);

    /* kernels cannot take SVM pointers */
    assert_int_equal(clSetKernelArgSVMPointer(f->kernel, 0, a), CL_INVALID_OPERATION);
    assert_int_equal(clSetKernelArgSVMPointer((cl_kernel)f->program, 0, a), CL_INVALID_KERNEL);
    void *list[2] = {a, b};
    cl_bool yes = CL_TRUE;
    assert_int_equal(clSetKernelExecInfo(f->kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetKernelExecInfo(f->kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetKernelExecInfo(f->kernel, 0x5555, sizeof yes, &yes), CL_INVALID_VALUE);
    /* Without SVM the call can never succeed: CL_INVALID_OPERATION comes before any check of
     * the value (OpenCL-CTS api/consistency_svm passes NULL with size 0). */
    assert_int_equal(clSetKernelExecInfo(f->kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetKernelExecInfo(f->kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &yes),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetKernelExecInfo((cl_kernel)f->env.queue, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list),
                     CL_INVALID_KERNEL);
}

/* ---- device queues, IL, built-in and native kernels, queue properties ---- */

static void CL_CALLBACK native_fn(void *args) { (void)args; }

static void test_other_unsupported_entry_points(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_device_id d = f->env.device;
    cl_command_queue q = f->env.queue;
    cl_int err = 0;

    assert_int_equal(clSetDefaultDeviceCommandQueue(c, d, q), CL_INVALID_OPERATION);
    assert_int_equal(clSetDefaultDeviceCommandQueue((cl_context)d, d, q), CL_INVALID_CONTEXT);
    assert_int_equal(clSetDefaultDeviceCommandQueue(c, (cl_device_id)c, q), CL_INVALID_DEVICE);

    /* IL programs are supported now (tests/e2e/test_spirv.c); what stays here are the checks
     * before any IL is read */
    static const unsigned char spirv[] = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00};
    assert_null(clCreateProgramWithIL(c, spirv, sizeof spirv, &err));
    assert_int_equal(err, CL_INVALID_VALUE);   /* a truncated header */
    assert_null(clCreateProgramWithIL(c, NULL, sizeof spirv, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(c, spirv, 0, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL((cl_context)q, spirv, sizeof spirv, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);

    /* no built-in kernels: any name is unsupported */
    assert_null(clCreateProgramWithBuiltInKernels(c, 1, &d, "weft_copy", &err));
    assert_int_equal(err, CL_INVALID_VALUE);

    int arg = 1;
    assert_int_equal(clEnqueueNativeKernel(q, native_fn, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueNativeKernel(q, NULL, &arg, sizeof arg, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueNativeKernel(q, native_fn, NULL, sizeof arg, 0, NULL, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueNativeKernel(q, native_fn, &arg, 0, 0, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueNativeKernel(q, native_fn, &arg, sizeof arg, 1, NULL, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueNativeKernel((cl_command_queue)c, native_fn, &arg, sizeof arg, 0, NULL, NULL, 0, NULL,
                                           NULL),
                     CL_INVALID_COMMAND_QUEUE);

    cl_command_queue_properties old = 0;
    assert_int_equal(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_INVALID_OPERATION);
    assert_int_equal(clSetCommandQueueProperty(q, (cl_command_queue_properties)1 << 40, CL_TRUE, &old),
                     CL_INVALID_VALUE);
    assert_int_equal(clSetCommandQueueProperty((cl_command_queue)c, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old),
                     CL_INVALID_COMMAND_QUEUE);
    /* the queue kept its properties */
    cl_command_queue_properties now = 99;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof now, &now, NULL), CL_SUCCESS);
    assert_int_equal(now, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_supported_image_formats_is_empty),
        cmocka_unit_test(test_create_image),
        cmocka_unit_test(test_image_info_and_commands),
        cmocka_unit_test(test_samplers),
        cmocka_unit_test(test_pipes),
        cmocka_unit_test(test_svm),
        cmocka_unit_test(test_other_unsupported_entry_points),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
