/* tests/api/test_kernel.c — kernel objects through the ICD loader: clCreateKernel(s),
 * clCloneKernel, clSetKernelArg's table of invalid cases, clGetKernelInfo,
 * clGetKernelArgInfo (with and without -cl-kernel-arg-info) and clGetKernelWorkGroupInfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "weft_test.h"

struct env {
    cl_device_id device;
    cl_context context;
    cl_context other_context;
    cl_program program;          /* built with -cl-kernel-arg-info */
    cl_program program_noinfo;
};

static const char *src =
    "typedef struct { float a; int b; char c; } S;\n"
    "__attribute__((reqd_work_group_size(16, 2, 1)))\n"
    "kernel void fixed(global float *restrict out, constant int *c, local float *l, S s, float4 v,\n"
    "                  const uchar ch) {\n"
    "  local int tmp[32];\n"
    "  tmp[get_local_id(0)] = c[0];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = s.a + v.x + l[0] + tmp[0] + ch;\n"
    "}\n"
    "__attribute__((work_group_size_hint(64, 1, 1)))\n"
    "kernel void plain(global int *x, int n) { x[get_global_id(0)] = n; }\n";

static int setup(void **state)
{
    static struct env e;
    cl_int err;
    e.device = weft_test_device();
    if (!e.device)
        return -1;
    e.context = clCreateContext(NULL, 1, &e.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    e.other_context = clCreateContext(NULL, 1, &e.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    e.program = clCreateProgramWithSource(e.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS || clBuildProgram(e.program, 0, NULL, "-cl-kernel-arg-info", NULL, NULL) != CL_SUCCESS)
        return -1;
    e.program_noinfo = clCreateProgramWithSource(e.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS || clBuildProgram(e.program_noinfo, 0, NULL, NULL, NULL, NULL) != CL_SUCCESS)
        return -1;
    *state = &e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    if (!e)
        return 0;
    clReleaseProgram(e->program);
    clReleaseProgram(e->program_noinfo);
    clReleaseContext(e->other_context);
    clReleaseContext(e->context);
    return 0;
}

static void test_create_kernel(void **state)
{
    struct env *e = *state;
    cl_int err;
    assert_null(clCreateKernel(NULL, "plain", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM);
    assert_null(clCreateKernel(e->program, "no_such_kernel", &err));
    assert_int_equal(err, CL_INVALID_KERNEL_NAME);
    assert_null(clCreateKernel(e->program, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const char *s = "kernel void k() {}";
    cl_program unbuilt = clCreateProgramWithSource(e->context, 1, &s, NULL, &err);
    assert_null(clCreateKernel(unbuilt, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    cl_uint n = 9;
    assert_int_equal(clCreateKernelsInProgram(unbuilt, 0, NULL, &n), CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(unbuilt);

    cl_kernel k = clCreateKernel(e->program, "plain", &err);
    assert_int_equal(err, CL_SUCCESS);
    char name[64];
    cl_uint nargs = 0, refs = 0;
    cl_context ctx;
    cl_program prog;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
    assert_string_equal(name, "plain");
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
    assert_int_equal(nargs, 2);
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, e->context);
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL), CL_SUCCESS);
    assert_ptr_equal(prog, e->program);
    assert_int_equal(clRetainKernel(k), CL_SUCCESS);
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
    char attrs[128];
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL), CL_SUCCESS);
    assert_string_equal(attrs, "work_group_size_hint(64,1,1)");
    assert_int_equal(clGetKernelInfo(k, 0x7777, sizeof attrs, attrs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 2, name, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
    assert_int_equal(clReleaseKernel(NULL), CL_INVALID_KERNEL);
    assert_int_equal(clRetainKernel(NULL), CL_INVALID_KERNEL);

    cl_kernel ks[4] = {0};
    assert_int_equal(clCreateKernelsInProgram(e->program, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(clCreateKernelsInProgram(e->program, 1, ks, &n), CL_INVALID_VALUE);
    assert_int_equal(clCreateKernelsInProgram(e->program, 4, ks, &n), CL_SUCCESS);
    assert_int_equal(clGetKernelInfo(ks[0], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
    assert_string_equal(name, "fixed");
    assert_int_equal(clGetKernelInfo(ks[1], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
    assert_string_equal(name, "plain");
    clReleaseKernel(ks[0]);
    clReleaseKernel(ks[1]);
}

static void test_kernel_keeps_program(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->context, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "plain", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
    /* the kernel still works: its program lives on */
    char name[64];
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL), CL_SUCCESS);
    assert_string_equal(name, "plain");
    int n = 3;
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
}

static void CL_CALLBACK count_destruction(cl_mem m, void *user_data)
{
    (void)m;
    ++*(int *)user_data;
}

/* Setting a buffer as an argument is not a reference: releasing the application's last
 * reference destroys it at once (destructor callback runs) although the kernel still names it,
 * and a later launch refuses the stale argument instead of touching freed memory
 * (OpenCL-CTS api/retain_mem_object_set_kernel_arg). */
static void test_kernel_arg_does_not_retain_buffer(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, "plain", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem buf = clCreateBuffer(e->context, CL_MEM_READ_WRITE, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    int destroyed = 0;
    assert_int_equal(clSetMemObjectDestructorCallback(buf, count_destruction, &destroyed), CL_SUCCESS);
    int n = 1;
    assert_int_equal(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    cl_kernel clone = clCloneKernel(k, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(buf), CL_SUCCESS);
    assert_int_equal(destroyed, 1);
    cl_command_queue q = clCreateCommandQueueWithProperties(e->context, e->device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t gws = 16;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    assert_int_equal(clEnqueueNDRangeKernel(q, clone, 1, NULL, &gws, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    clReleaseCommandQueue(q);
    clReleaseKernel(clone);
    clReleaseKernel(k);
}

static void test_set_kernel_arg_table(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, "fixed", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem buf = clCreateBuffer(e->context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem foreign = clCreateBuffer(e->other_context, CL_MEM_READ_WRITE, 1024, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem null_mem = NULL;
    struct { float a; int b; char c; } s = {1, 2, 3};
    cl_float4 v = {{1, 2, 3, 4}};
    cl_uchar ch = 7;
    int not_a_mem = 5;
    void *garbage = &not_a_mem;

    static const struct {
        const char *what;
        cl_uint index;
        int size_kind;   /* 0: exact below, else special */
        size_t size;
        int value_kind;  /* 0 NULL, 1 buf, 2 foreign, 3 null_mem, 4 s, 5 v, 6 ch, 7 garbage */
        cl_int want;
    } cases[] = {
        {"index past the end", 6, 0, 4, 6, CL_INVALID_ARG_INDEX},
        {"global: wrong size", 0, 0, 4, 1, CL_INVALID_ARG_SIZE},
        {"global: foreign context", 0, 0, sizeof(cl_mem), 2, CL_INVALID_MEM_OBJECT},
        {"global: not a mem object", 0, 0, sizeof(cl_mem), 7, CL_INVALID_MEM_OBJECT},
        {"global: valid", 0, 0, sizeof(cl_mem), 1, CL_SUCCESS},
        {"global: NULL value is a NULL buffer", 0, 0, sizeof(cl_mem), 0, CL_SUCCESS},
        {"global: pointer to NULL is a NULL buffer", 0, 0, sizeof(cl_mem), 3, CL_SUCCESS},
        {"constant: valid", 1, 0, sizeof(cl_mem), 1, CL_SUCCESS},
        {"constant: wrong size", 1, 0, 1, 1, CL_INVALID_ARG_SIZE},
        {"local: value must be NULL", 2, 0, 64, 1, CL_INVALID_ARG_VALUE},
        {"local: size must be > 0", 2, 0, 0, 0, CL_INVALID_ARG_SIZE},
        {"local: valid", 2, 0, 256, 0, CL_SUCCESS},
        {"struct: wrong size", 3, 0, 16, 4, CL_INVALID_ARG_SIZE},
        {"struct: NULL value", 3, 0, 12, 0, CL_INVALID_ARG_VALUE},
        {"struct: valid", 3, 0, 12, 4, CL_SUCCESS},
        {"float4: wrong size", 4, 0, 12, 5, CL_INVALID_ARG_SIZE},
        {"float4: valid", 4, 0, 16, 5, CL_SUCCESS},
        {"uchar: wrong size", 5, 0, 4, 6, CL_INVALID_ARG_SIZE},
        {"uchar: valid", 5, 0, 1, 6, CL_SUCCESS},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const void *value = NULL;
        switch (cases[i].value_kind) {
        case 1: value = &buf; break;
        case 2: value = &foreign; break;
        case 3: value = &null_mem; break;
        case 4: value = &s; break;
        case 5: value = &v; break;
        case 6: value = &ch; break;
        case 7: value = &garbage; break;
        default: break;
        }
        cl_int got = clSetKernelArg(k, cases[i].index, cases[i].size, value);
        if (got != cases[i].want)
            fail_msg("case '%s': got %d, want %d", cases[i].what, got, cases[i].want);
    }
    assert_int_equal(clSetKernelArg(NULL, 0, sizeof buf, &buf), CL_INVALID_KERNEL);

    /* __local argument sizes count in CL_KERNEL_LOCAL_MEM_SIZE, after the static 128 bytes */
    cl_ulong lm = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
    assert_int_equal(lm, 128 + 256);

    /* a clone copies the argument values */
    cl_kernel c = clCloneKernel(k, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(c, e->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
    assert_int_equal(lm, 128 + 256);
    assert_null(clCloneKernel(NULL, &err));
    assert_int_equal(err, CL_INVALID_KERNEL);
    /* the buffer outlives the application's reference while set as an argument */
    clReleaseMemObject(buf);
    clReleaseKernel(c);
    clReleaseKernel(k);
    clReleaseMemObject(foreign);
}

static void test_arg_info(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, "fixed", &err);
    assert_int_equal(err, CL_SUCCESS);
    char s[64];
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_access_qualifier acc;
    cl_kernel_arg_type_qualifier tq;
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "out");
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "float*");
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL), CL_SUCCESS);
    assert_int_equal(tq, CL_KERNEL_ARG_TYPE_RESTRICT);
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL), CL_SUCCESS);
    assert_int_equal(acc, CL_KERNEL_ARG_ACCESS_NONE);
    assert_int_equal(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_CONSTANT);
    assert_int_equal(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
    assert_int_equal(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "S");
    assert_int_equal(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "float4");
    assert_int_equal(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
    assert_int_equal(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "ch");
    assert_int_equal(clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_INVALID_ARG_INDEX);
    assert_int_equal(clGetKernelArgInfo(k, 0, 0x1234, sizeof s, s, NULL), CL_INVALID_VALUE);
    clReleaseKernel(k);

    k = clCreateKernel(e->program_noinfo, "fixed", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
}

static void test_work_group_info(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, "fixed", &err);
    cl_kernel p = clCreateKernel(e->program, "plain", &err);
    size_t wg = 0, cwg[3] = {9, 9, 9}, mult = 0;
    cl_ulong lm = 0, pm = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
    assert_int_equal(wg, 32);
    assert_int_equal(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL), CL_SUCCESS);
    assert_int_equal(cwg[0], 16);
    assert_int_equal(cwg[1], 2);
    assert_int_equal(cwg[2], 1);
    assert_int_equal(clGetKernelWorkGroupInfo(p, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
    size_t dev_max = 0;
    clGetDeviceInfo(e->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max, &dev_max, NULL);
    assert_true(wg >= 1 && wg <= dev_max);
    assert_int_equal(clGetKernelWorkGroupInfo(p, e->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL), CL_SUCCESS);
    assert_int_equal(cwg[0] + cwg[1] + cwg[2], 0);
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
    assert_int_equal(lm, 128);   /* local int tmp[32]; the __local argument is not set yet */
    assert_int_equal(clGetKernelWorkGroupInfo(p, e->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
    assert_int_equal(lm, 0);
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult,
                                              &mult, NULL),
                     CL_SUCCESS);
    assert_true(mult == 4 || mult == 8 || mult == 16);
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL), CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(k, e->device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof cwg, cwg, NULL),
                     CL_INVALID_VALUE);
    cl_device_id bogus = (cl_device_id)&wg;
    assert_int_equal(clGetKernelWorkGroupInfo(k, bogus, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_INVALID_DEVICE);
    assert_int_equal(clGetKernelWorkGroupInfo(NULL, e->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
                     CL_INVALID_KERNEL);
    clReleaseKernel(k);
    clReleaseKernel(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_kernel),
        cmocka_unit_test(test_kernel_keeps_program),
        cmocka_unit_test(test_kernel_arg_does_not_retain_buffer),
        cmocka_unit_test(test_set_kernel_arg_table),
        cmocka_unit_test(test_arg_info),
        cmocka_unit_test(test_work_group_info),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
