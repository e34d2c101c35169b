/* tests/api/test_unsupported.c — the entry points of features the Weft device reports as absent
 * (pipes, on-device queues, built-in and native kernels,
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
        cmocka_unit_test(test_pipes),
        cmocka_unit_test(test_other_unsupported_entry_points),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
