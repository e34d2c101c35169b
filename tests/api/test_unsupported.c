/* tests/api/test_unsupported.c — the entry points of features the Weft device reports as absent
 * (pipes, SVM, on-device queues, built-in and native kernels,
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
        cmocka_unit_test(test_pipes),
        cmocka_unit_test(test_svm),
        cmocka_unit_test(test_other_unsupported_entry_points),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
