/* tests/api/test_svm.c — shared virtual memory through the ICD loader (runtime/svm.c): clSVMAlloc's
 * flags, sizes and alignments; clSVMFree; CL_MEM_USES_SVM_POINTER and clCreateBuffer's size rule on
 * SVM pointers; each SVM command's error codes in the specification's order, its command type, its
 * effect, its wait list and blocking flag; clSetKernelArgSVMPointer and clSetKernelExecInfo; an
 * allocation that outlives the application's last reference to its context. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "weft_test.h"

struct fixture {
    struct weft_test_env env;
    cl_program program;
    cl_kernel kernel;   /* k(global int *p, int v, local int *l, constant int *c) */
};

static int group_setup(void **state)
{
    static struct fixture f;
    if (weft_test_env_open(&f.env, 0) != 0)
        return -1;
    f.program = weft_test_build(&f.env,
                                "kernel void k(global int *p, int v, local int *l, constant int *c) {\n"
                                "  size_t i = get_global_id(0);\n"
                                "  p[i] = v + (int)i + c[0];\n"
                                "}\n",
                                "");
    if (!f.program)
        return -1;
    cl_int err;
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
    weft_test_env_close(&f->env);
    return 0;
}

static cl_command_type command_type(cl_event ev)
{
    cl_command_type t = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    return t;
}

static cl_int event_status(cl_event ev)
{
    cl_int s = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

/* An SVM pointer of the context that clEnqueueSVMMigrateMem accepts a range of: observes that an
 * allocation is (still) recorded without touching its memory. */
static bool is_allocation(cl_command_queue q, const void *p, size_t size)
{
    const void *ptrs[1] = {p};
    size_t sizes[1] = {size};
    return clEnqueueSVMMigrateMem(q, 1, ptrs, sizes, 0, 0, NULL, NULL) == CL_SUCCESS && clFinish(q) == CL_SUCCESS;
}

/* ---- clSVMAlloc / clSVMFree ---- */

static void test_alloc_flags_and_alignment(void **state)
{
    struct fixture *f = *state;
    static const cl_svm_mem_flags ok[] = {
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
        CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
        CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
    };
    static const cl_uint aligns[] = {0, 1, 4, 64, 128, 256, 4096, 1u << 21};
    for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
        for (size_t j = 0; j < ARRAY_LEN(aligns); j++) {
            size_t size = 1000 + 37 * j;
            unsigned char *p = clSVMAlloc(f->env.context, ok[i], size, aligns[j]);
            if (!p)
                fail_msg("flags 0x%llx alignment %u: NULL", (unsigned long long)ok[i], aligns[j]);
            size_t want = aligns[j] ? aligns[j] : 128;   /* default: long16 */
            if ((uintptr_t)p % want)
                fail_msg("flags 0x%llx alignment %u: %p is misaligned", (unsigned long long)ok[i], aligns[j],
                         (void *)p);
            memset(p, 0xa5, size);   /* host-writable, all of it */
            assert_int_equal(p[size - 1], 0xa5);
            assert_true(is_allocation(f->env.queue, p, size));
            assert_false(is_allocation(f->env.queue, p, size + 1));
            clSVMFree(f->env.context, p);
            assert_false(is_allocation(f->env.queue, p, 1));
        }
    }
}

static void test_alloc_failures(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_ulong max_alloc = 0;
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
                     CL_SUCCESS);
    assert_null(clSVMAlloc(NULL, 0, 64, 0));
    assert_null(clSVMAlloc((cl_context)f->env.queue, 0, 64, 0));
    assert_null(clSVMAlloc(c, CL_MEM_SVM_ATOMICS, 64, 0));                          /* atomics need fine grain */
    assert_null(clSVMAlloc(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0));       /* exclusive */
    assert_null(clSVMAlloc(c, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, 0));
    assert_null(clSVMAlloc(c, CL_MEM_USE_HOST_PTR, 64, 0));                         /* no SVM flag */
    assert_null(clSVMAlloc(c, (cl_svm_mem_flags)1 << 40, 64, 0));
    assert_null(clSVMAlloc(c, 0, 0, 0));                                           /* size 0 */
    assert_null(clSVMAlloc(c, 0, (size_t)max_alloc + 1, 0));
    assert_null(clSVMAlloc(c, 0, SIZE_MAX, 0));
    assert_null(clSVMAlloc(c, 0, 64, 3));                                          /* not a power of two */
    assert_null(clSVMAlloc(c, 0, 64, 96));
    assert_null(clSVMAlloc(c, 0, 64, 1u << 31));                                   /* beyond what is supported */
}

static void test_free_is_safe(void **state)
{
    struct fixture *f = *state;
    clSVMFree(f->env.context, NULL);   /* a no-op */
    char local[16];
    clSVMFree(f->env.context, local);  /* no allocation: ignored */
    char *p = clSVMAlloc(f->env.context, 0, 256, 0);
    assert_non_null(p);
    clSVMFree(f->env.context, p + 16);   /* not what clSVMAlloc returned: ignored */
    assert_true(is_allocation(f->env.queue, p, 256));
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    clSVMFree(other, p);                 /* another context's pointer: ignored */
    assert_true(is_allocation(f->env.queue, p, 256));
    clReleaseContext(other);
    clSVMFree(f->env.context, p);
    assert_false(is_allocation(f->env.queue, p, 256));
    clSVMFree(f->env.context, p);        /* twice: ignored */
}

static void CL_CALLBACK context_gone(cl_context c, void *flag)
{
    (void)c;
    *(int *)flag = 1;
}

/* The allocation holds its context: releasing the application's last reference does not free
 * either, and clSVMFree then still works and lets the context go. */
static void test_allocation_outlives_context_release(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    int gone = 0;
    assert_int_equal(clSetContextDestructorCallback(c, context_gone, &gone), CL_SUCCESS);
    int *p = clSVMAlloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    assert_non_null(p);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(gone, 0);
    p[1023] = 7;   /* still ours */
    assert_int_equal(p[1023], 7);
    clSVMFree(c, p);
    assert_int_equal(gone, 1);
}

/* ---- buffers on SVM pointers ---- */

static cl_bool uses_svm(cl_mem m)
{
    cl_bool b = 2;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof b, &b, NULL), CL_SUCCESS);
    return b;
}

static void test_buffer_on_svm_pointer(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_int err;
    char *p = clSVMAlloc(c, CL_MEM_READ_WRITE, 4096, 0);
    assert_non_null(p);
    cl_mem whole = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4096, p, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(uses_svm(whole), CL_TRUE);
    cl_buffer_region r = {1024, 512};
    cl_mem sub = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(uses_svm(sub), CL_TRUE);
    cl_mem middle = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1000, p + 3000, &err);   /* ends inside */
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(uses_svm(middle), CL_TRUE);
    /* the buffer's storage is the allocation: a write through it lands there */
    int v = 0x12345678;
    assert_int_equal(clEnqueueWriteBuffer(f->env.queue, middle, CL_TRUE, 8, sizeof v, &v, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(p + 3008, &v, sizeof v);
    /* larger than what is left of the allocation: CL_INVALID_BUFFER_SIZE, for USE and COPY */
    assert_null(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4097, p, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    assert_null(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1097, p + 3000, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    assert_null(clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 4097, p, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    cl_mem copy = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 4096, p, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(uses_svm(copy), CL_FALSE);   /* its own storage */
    /* plain host memory is no SVM allocation */
    char *host = malloc(4096);
    cl_mem plain = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4096, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(uses_svm(plain), CL_FALSE);
    clReleaseMemObject(plain), clReleaseMemObject(copy), clReleaseMemObject(middle);
    clReleaseMemObject(sub), clReleaseMemObject(whole);
    free(host);
    clSVMFree(c, p);
}

/* ---- clEnqueueSVMMemcpy / clEnqueueSVMMemFill ---- */

static void test_memcpy(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    int *a = clSVMAlloc(f->env.context, 0, 4096 * sizeof(int), 0);
    int *host = malloc(4096 * sizeof(int));
    assert_non_null(a);
    for (int i = 0; i < 4096; i++)
        host[i] = i * 3 + 1;
    /* host -> SVM, blocking, with an event */
    cl_event ev;
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, 4096 * sizeof(int), 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(command_type(ev), CL_COMMAND_SVM_MEMCPY);
    assert_int_equal(event_status(ev), CL_COMPLETE);
    clReleaseEvent(ev);
    assert_memory_equal(a, host, 4096 * sizeof(int));
    /* within one allocation, disjoint halves; and SVM -> host (system pointers are SVM pointers) */
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_FALSE, a + 2048, a, 2048 * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    memset(host, 0, 4096 * sizeof(int));
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, host, a, 4096 * sizeof(int), 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 4096; i++)
        if (host[i] != (i % 2048) * 3 + 1)
            fail_msg("element %d is %d", i, host[i]);
    /* a copy of nothing */
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, a, 0, 0, NULL, NULL), CL_SUCCESS);
    /* a non-blocking copy waits for its wait list */
    cl_int err;
    cl_event gate = clCreateUserEvent(f->env.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    int one = 1, target = 0;
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_FALSE, &target, &one, sizeof one, 1, &gate, &ev), CL_SUCCESS);
    assert_int_equal(target, 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    assert_int_equal(target, 1);
    clReleaseEvent(ev), clReleaseEvent(gate);
    /* a blocking copy behind a failed event fails and copies nothing */
    gate = clCreateUserEvent(f->env.context, &err);
    cl_command_queue q2 = clCreateCommandQueueWithProperties(f->env.context, f->env.device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(gate, -1), CL_SUCCESS);
    target = 0;
    assert_int_equal(clEnqueueSVMMemcpy(q2, CL_TRUE, &target, &one, sizeof one, 1, &gate, NULL),
                     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(target, 0);
    clReleaseEvent(gate);
    clReleaseCommandQueue(q2);
    /* errors, in the specification's order */
    assert_int_equal(clEnqueueSVMMemcpy((cl_command_queue)f->env.context, CL_TRUE, a, host, 4, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, host, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, 4, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event bogus = (cl_event)f->env.context;
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, host, 4, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a + 1, a, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, a + 1, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a, a, 4, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(q, CL_TRUE, a + 2, a, 8, 0, NULL, NULL), CL_SUCCESS);   /* touching */
    free(host);
    clSVMFree(f->env.context, a);
}

static void test_memfill(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    enum { N = 1 << 14 };
    unsigned char *a = clSVMAlloc(f->env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, N, 0);
    assert_non_null(a);
    unsigned char pattern[128];
    for (int i = 0; i < 128; i++)
        pattern[i] = (unsigned char)(i * 7 + 3);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        memset(a, 0xee, N);
        size_t off = ps * 3, size = ps * 40;
        cl_event ev;
        assert_int_equal(clEnqueueSVMMemFill(q, a + off, pattern, ps, size, 0, NULL, &ev), CL_SUCCESS);
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        assert_int_equal(command_type(ev), CL_COMMAND_SVM_MEMFILL);
        clReleaseEvent(ev);
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i >= off && i < off + size ? pattern[(i - off) % ps] : 0xee;
            if (a[i] != want)
                fail_msg("pattern size %zu: byte %zu is 0x%x, not 0x%x", ps, i, a[i], want);
        }
    }
    /* the pattern is copied at enqueue time */
    cl_int gate_err;
    cl_event gate = clCreateUserEvent(f->env.context, &gate_err);
    int pat = 5;
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pat, sizeof pat, 64, 1, &gate, NULL), CL_SUCCESS);
    pat = 6;
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(((int *)a)[15], 5);
    clReleaseEvent(gate);
    /* errors */
    assert_int_equal(clEnqueueSVMMemFill(NULL, a, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMemFill(q, NULL, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a + 2, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);   /* misaligned */
    assert_int_equal(clEnqueueSVMMemFill(q, a, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pat, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pat, 3, 63, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, pattern, 256, 512, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pat, 4, 62, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(q, a, &pat, 4, 64, 0, &gate, NULL), CL_INVALID_EVENT_WAIT_LIST);
    clSVMFree(f->env.context, a);
}

/* ---- map / unmap / migrate ---- */

static void test_map_unmap_migrate(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    float *a = clSVMAlloc(f->env.context, CL_MEM_READ_WRITE, 1024 * sizeof(float), 0);
    assert_non_null(a);
    cl_event ev[3];
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, a, 1024 * sizeof(float), 0, NULL, &ev[0]), CL_SUCCESS);
    assert_int_equal(event_status(ev[0]), CL_COMPLETE);
    for (int i = 0; i < 1024; i++)
        a[i] = (float)i;
    assert_int_equal(clEnqueueSVMUnmap(q, a, 0, NULL, &ev[1]), CL_SUCCESS);
    const void *ptrs[2] = {a, a + 512};
    size_t sizes[2] = {0, 512 * sizeof(float)};
    assert_int_equal(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 1, &ev[1], &ev[2]),
                     CL_SUCCESS);
    assert_int_equal(clWaitForEvents(3, ev), CL_SUCCESS);
    assert_int_equal(command_type(ev[0]), CL_COMMAND_SVM_MAP);
    assert_int_equal(command_type(ev[1]), CL_COMMAND_SVM_UNMAP);
    assert_int_equal(command_type(ev[2]), CL_COMMAND_SVM_MIGRATE_MEM);
    for (int i = 0; i < 3; i++)
        clReleaseEvent(ev[i]);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL),
                     CL_SUCCESS);
    /* a non-blocking map completes only after its wait list */
    cl_int err;
    cl_event gate = clCreateUserEvent(f->env.context, &err), map;
    assert_int_equal(clEnqueueSVMMap(q, CL_FALSE, CL_MAP_READ, a, 16, 1, &gate, &map), CL_SUCCESS);
    assert_int_equal(event_status(map) == CL_COMPLETE, 0);
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &map), CL_SUCCESS);
    assert_int_equal(clEnqueueSVMUnmap(q, a, 0, NULL, NULL), CL_SUCCESS);
    clReleaseEvent(map), clReleaseEvent(gate);
    /* map errors */
    assert_int_equal(clEnqueueSVMMap(NULL, CL_TRUE, CL_MAP_READ, a, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, NULL, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, 0x100, a, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 16, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* unmap errors */
    assert_int_equal(clEnqueueSVMUnmap((cl_command_queue)f->env.context, a, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMUnmap(q, a, 0, &gate, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* migrate errors */
    assert_int_equal(clEnqueueSVMMigrateMem(NULL, 1, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 0, ptrs, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, NULL, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0x80, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t too_big[1] = {1024 * sizeof(float) + 1};
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, too_big, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t past_end[1] = {512 * sizeof(float) + 4};
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, &ptrs[1], past_end, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    int stack_int;
    const void *not_svm[1] = {&stack_int};
    size_t four[1] = {4};
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, not_svm, four, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(q, 1, ptrs, NULL, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clSVMFree(f->env.context, a);
}

/* ---- clEnqueueSVMFree ---- */

struct free_record {
    int calls;
    cl_command_queue queue;
    cl_uint count;
    void *ptrs[4];
};

static void CL_CALLBACK record_free(cl_command_queue q, cl_uint n, void *ptrs[], void *user)
{
    struct free_record *r = user;
    r->calls++;
    r->queue = q;
    r->count = n;
    for (cl_uint i = 0; i < n && i < 4; i++)
        r->ptrs[i] = ptrs[i];
    for (cl_uint i = 0; i < n; i++)
        free(ptrs[i]);   /* system pointers: the callback frees them */
}

static void test_enqueue_free(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = f->env.queue;
    /* without a callback: Weft frees the allocations when the command runs, after its wait list */
    void *p[2] = {clSVMAlloc(f->env.context, 0, 128, 0), clSVMAlloc(f->env.context, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0)};
    assert_non_null(p[0]);
    assert_non_null(p[1]);
    cl_int err;
    cl_event gate = clCreateUserEvent(f->env.context, &err), ev;
    assert_int_equal(clEnqueueSVMFree(q, 2, p, NULL, NULL, 1, &gate, &ev), CL_SUCCESS);
    assert_int_equal(command_type(ev), CL_COMMAND_SVM_FREE);
    void *q2p[2] = {p[0], p[1]};
    p[0] = p[1] = NULL;   /* the list was copied */
    /* (an out-of-order check queue: the in-order one is blocked behind the gate) */
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue side = clCreateCommandQueueWithProperties(f->env.context, f->env.device, props, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_true(is_allocation(side, q2p[0], 128));
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    assert_false(is_allocation(side, q2p[0], 128));
    assert_false(is_allocation(side, q2p[1], 64));
    clReleaseEvent(ev), clReleaseEvent(gate), clReleaseCommandQueue(side);
    /* with a callback: it gets the queue, the list and the user data, and frees them itself */
    struct free_record r = {0};
    void *sys[3] = {malloc(10), malloc(20), malloc(30)};
    void *want[3] = {sys[0], sys[1], sys[2]};
    assert_int_equal(clEnqueueSVMFree(q, 3, sys, record_free, &r, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(r.calls, 1);
    assert_ptr_equal(r.queue, q);
    assert_int_equal(r.count, 3);
    for (int i = 0; i < 3; i++)
        assert_ptr_equal(r.ptrs[i], want[i]);
    /* an empty list is a command too */
    memset(&r, 0, sizeof r);
    assert_int_equal(clEnqueueSVMFree(q, 0, NULL, record_free, &r, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.count, 0);
    /* errors */
    void *one[1] = {NULL};
    assert_int_equal(clEnqueueSVMFree(NULL, 1, one, NULL, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMFree(q, 0, one, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMFree(q, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMFree(q, 1, one, NULL, NULL, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_event none[1] = {NULL};
    assert_int_equal(clEnqueueSVMFree(q, 1, one, NULL, NULL, 0, none, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* a NULL or foreign pointer without a callback: nothing happens to it */
    assert_int_equal(clEnqueueSVMFree(q, 1, one, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
}

/* ---- kernels ---- */

static void test_kernel_arg_svm_pointer(void **state)
{
    struct fixture *f = *state;
    cl_kernel k = f->kernel;
    cl_context c = f->env.context;
    int *out = clSVMAlloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * sizeof(int), 0);
    int *cst = clSVMAlloc(c, CL_MEM_READ_ONLY, 64, 0);
    assert_non_null(out);
    assert_non_null(cst);
    cst[0] = 1000;
    /* errors: kernel, index, an argument that is no global/constant pointer */
    assert_int_equal(clSetKernelArgSVMPointer(NULL, 0, out), CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelArgSVMPointer((cl_kernel)f->program, 0, out), CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelArgSVMPointer(k, 4, out), CL_INVALID_ARG_INDEX);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, out), CL_INVALID_ARG_VALUE);   /* int */
    assert_int_equal(clSetKernelArgSVMPointer(k, 2, out), CL_INVALID_ARG_VALUE);   /* local */
    /* a pointer into the middle of the allocation, a constant pointer */
    int v = 5;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, out + 16), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 3, cst), CL_SUCCESS);
    /* a clone keeps the SVM arguments */
    cl_int err;
    cl_kernel clone = clCloneKernel(k, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t global = 32;
    assert_int_equal(clEnqueueNDRangeKernel(f->env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->env.queue), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], i >= 16 && i < 48 ? 1005 + i - 16 : 0);
    memset(out, 0, 64 * sizeof(int));
    assert_int_equal(clEnqueueNDRangeKernel(f->env.queue, clone, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->env.queue), CL_SUCCESS);
    assert_int_equal(out[16], 1005);
    assert_int_equal(out[47], 1036);
    /* plain host memory under fine-grain system SVM */
    int *host = calloc(64, sizeof(int));
    assert_int_equal(clSetKernelArgSVMPointer(clone, 0, host), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(f->env.queue, clone, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->env.queue), CL_SUCCESS);
    assert_int_equal(host[31], 1036);
    /* clSetKernelArg with a buffer replaces the SVM pointer */
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    assert_int_equal(clSetKernelArg(clone, 0, sizeof buf, &buf), CL_SUCCESS);
    host[31] = 0;
    assert_int_equal(clEnqueueNDRangeKernel(f->env.queue, clone, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    int got = 0;
    assert_int_equal(clEnqueueReadBuffer(f->env.queue, buf, CL_TRUE, 31 * sizeof(int), sizeof got, &got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(got, 1036);
    assert_int_equal(host[31], 0);
    /* NULL is a valid pointer value */
    assert_int_equal(clSetKernelArgSVMPointer(clone, 0, NULL), CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseKernel(clone);
    free(host);
    clSVMFree(c, out);
    clSVMFree(c, cst);
}

static void test_kernel_exec_info(void **state)
{
    struct fixture *f = *state;
    cl_kernel k = f->kernel;
    void *a = clSVMAlloc(f->env.context, 0, 64, 0), *b = clSVMAlloc(f->env.context, 0, 64, 0);
    void *list[2] = {a, (char *)b + 8};
    cl_bool yes = CL_TRUE, no = CL_FALSE;
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list), CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL), CL_SUCCESS);   /* empty set */
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes), CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no), CL_SUCCESS);
    /* errors */
    assert_int_equal(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list), CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelExecInfo((cl_kernel)f->env.queue, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, list),
                     CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelExecInfo(k, 0x5555, sizeof yes, &yes), CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof list - 1, list), CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &yes), CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, NULL),
                     CL_INVALID_VALUE);
    clSVMFree(f->env.context, a);
    clSVMFree(f->env.context, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_flags_and_alignment),
        cmocka_unit_test(test_alloc_failures),
        cmocka_unit_test(test_free_is_safe),
        cmocka_unit_test(test_allocation_outlives_context_release),
        cmocka_unit_test(test_buffer_on_svm_pointer),
        cmocka_unit_test(test_memcpy),
        cmocka_unit_test(test_memfill),
        cmocka_unit_test(test_map_unmap_migrate),
        cmocka_unit_test(test_enqueue_free),
        cmocka_unit_test(test_kernel_arg_svm_pointer),
        cmocka_unit_test(test_kernel_exec_info),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
