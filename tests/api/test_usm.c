/* tests/api/test_usm.c — cl_intel_unified_shared_memory through the ICD loader (runtime/usm.c):
 * every entry point found by name through clGetExtensionFunctionAddressForPlatform; the device's
 * extension lists and capability queries; host, device and shared allocations with their
 * alignments, properties and clGetMemAllocInfoINTEL answers; each function's error codes in the
 * extension's order; freeing by the right API only, a blocking free that waits for queued work, a
 * free after the context's release; buffers over USM memory; the commands' effects, command types,
 * wait lists and blocking flag; clSetKernelArgMemPointerINTEL and the extension's
 * clSetKernelExecInfo names, with a launch on USM pointers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft_test.h"

/* The extension's entry points, as an application gets them: the loader exports none of them. */
#define USM_FUNCTIONS(X)                                                                            \
    X(clHostMemAllocINTEL) X(clDeviceMemAllocINTEL) X(clSharedMemAllocINTEL) X(clMemFreeINTEL)         \
    X(clMemBlockingFreeINTEL) X(clGetMemAllocInfoINTEL) X(clSetKernelArgMemPointerINTEL)              \
    X(clEnqueueMemFillINTEL) X(clEnqueueMemsetINTEL) X(clEnqueueMemcpyINTEL)                          \
    X(clEnqueueMigrateMemINTEL) X(clEnqueueMemAdviseINTEL)

static struct {
#define X(name) name##_fn name;
    USM_FUNCTIONS(X)
#undef X
} usm;

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
#define X(name) usm.name = (name##_fn)clGetExtensionFunctionAddressForPlatform(f.env.platform, #name);
    USM_FUNCTIONS(X)
#undef X
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

static cl_unified_shared_memory_type_intel alloc_type(cl_context c, const void *p)
{
    cl_unified_shared_memory_type_intel t = 0;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof t, &t, NULL), CL_SUCCESS);
    return t;
}

static void *alloc_base(cl_context c, const void *p)
{
    void *b = (void *)1;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof b, &b, NULL), CL_SUCCESS);
    return b;
}

static size_t alloc_size(cl_context c, const void *p)
{
    size_t s = 1;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_SIZE_INTEL, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

static cl_device_id alloc_device(cl_context c, const void *p)
{
    cl_device_id d = (cl_device_id)1;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_DEVICE_INTEL, sizeof d, &d, NULL), CL_SUCCESS);
    return d;
}

static cl_mem_alloc_flags_intel alloc_flags(cl_context c, const void *p)
{
    cl_mem_alloc_flags_intel fl = 99;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_FLAGS_INTEL, sizeof fl, &fl, NULL), CL_SUCCESS);
    return fl;
}

/* ---- discovery ---- */

static void test_functions_found_by_name(void **state)
{
    struct fixture *f = *state;
    /* Only through the platform: the loader routes the deprecated clGetExtensionFunctionAddress by
     * the platform's ICD suffix ("WEFT"), so it answers no *INTEL name for any vendor's ICD. */
#define X(name)                                                                                     \
    if (!usm.name)                                                                                  \
        fail_msg("clGetExtensionFunctionAddressForPlatform(\"%s\") is NULL", #name);
    USM_FUNCTIONS(X)
#undef X
    /* distinct functions, not one stub */
    assert_ptr_not_equal((void *)usm.clMemFreeINTEL, (void *)usm.clMemBlockingFreeINTEL);
    assert_ptr_not_equal((void *)usm.clHostMemAllocINTEL, (void *)usm.clSharedMemAllocINTEL);
    assert_null(clGetExtensionFunctionAddressForPlatform(f->env.platform, "clNoSuchFunctionINTEL"));
    assert_null(clGetExtensionFunctionAddressForPlatform(f->env.platform, "clHostMemAllocINTELx"));
    assert_null(clGetExtensionFunctionAddressForPlatform(f->env.platform, "clHostMemAlloc"));
}

static void test_device_reports_extension(void **state)
{
    struct fixture *f = *state;
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_EXTENSIONS, 0, NULL, &n), CL_SUCCESS);
    char *ext = calloc(n + 1, 1);
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_EXTENSIONS, n, ext, NULL), CL_SUCCESS);
    bool word = false;
    for (char *t = strtok(ext, " "); t; t = strtok(NULL, " "))
        word |= !strcmp(t, "cl_intel_unified_shared_memory");
    free(ext);
    assert_true(word);
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &n), CL_SUCCESS);
    cl_name_version *v = malloc(n);
    assert_int_equal(clGetDeviceInfo(f->env.device, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, v, NULL), CL_SUCCESS);
    bool versioned = false;
    for (size_t i = 0; i < n / sizeof *v; i++)
        versioned |= !strcmp(v[i].name, "cl_intel_unified_shared_memory") && v[i].version == CL_MAKE_VERSION(1, 0, 0);
    free(v);
    assert_true(versioned);

    static const cl_device_info caps[] = {
        CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
        CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL,
    };
    const cl_device_unified_shared_memory_capabilities_intel all =
        CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
        CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
    for (size_t i = 0; i < ARRAY_LEN(caps); i++) {
        cl_device_unified_shared_memory_capabilities_intel c = 0;
        size_t got = 0;
        assert_int_equal(clGetDeviceInfo(f->env.device, caps[i], sizeof c, &c, &got), CL_SUCCESS);
        assert_int_equal(got, sizeof c);
        if (c != all)
            fail_msg("query 0x%x answers 0x%llx", (unsigned)caps[i], (unsigned long long)c);
    }
}

/* ---- allocation ---- */

static void *alloc_kind(cl_context c, cl_device_id d, cl_unified_shared_memory_type_intel type,
                        const cl_mem_properties_intel *props, size_t size, cl_uint align, cl_int *err)
{
    switch (type) {
    case CL_MEM_TYPE_HOST_INTEL:
        return usm.clHostMemAllocINTEL(c, props, size, align, err);
    case CL_MEM_TYPE_DEVICE_INTEL:
        return usm.clDeviceMemAllocINTEL(c, d, props, size, align, err);
    default:
        return usm.clSharedMemAllocINTEL(c, d, props, size, align, err);
    }
}

static const cl_unified_shared_memory_type_intel kinds[] = {CL_MEM_TYPE_HOST_INTEL, CL_MEM_TYPE_DEVICE_INTEL,
                                                            CL_MEM_TYPE_SHARED_INTEL};

static void test_alloc_kinds_and_info(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    static const cl_uint aligns[] = {0, 1, 8, 64, 256, 4096, 1u << 21};
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
        for (size_t j = 0; j < ARRAY_LEN(aligns); j++) {
            size_t size = 1000 + 37 * j;
            cl_int err = 1;
            unsigned char *p = alloc_kind(c, f->env.device, kinds[k], NULL, size, aligns[j], &err);
            if (!p || err != CL_SUCCESS)
                fail_msg("type 0x%x alignment %u: %p, error %d", kinds[k], aligns[j], (void *)p, err);
            size_t want = aligns[j] ? aligns[j] : 128;
            if ((uintptr_t)p % want)
                fail_msg("type 0x%x alignment %u: %p is misaligned", kinds[k], aligns[j], (void *)p);
            for (size_t i = 0; i < size; i++)   /* zeroed and host-writable, every kind */
                assert_int_equal(p[i], 0);
            memset(p, 0x5a, size);
            assert_int_equal(alloc_type(c, p), kinds[k]);
            assert_int_equal(alloc_type(c, p + size - 1), kinds[k]);   /* any pointer inside */
            assert_ptr_equal(alloc_base(c, p + size / 2), p);
            assert_int_equal(alloc_size(c, p + 1), size);
            assert_ptr_equal(alloc_device(c, p), kinds[k] == CL_MEM_TYPE_HOST_INTEL ? NULL : f->env.device);
            assert_int_equal(alloc_flags(c, p), 0);
            /* just past the end is not the allocation */
            assert_int_equal(alloc_type(c, p + size), CL_MEM_TYPE_UNKNOWN_INTEL);
            assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
            assert_int_equal(alloc_type(c, p), CL_MEM_TYPE_UNKNOWN_INTEL);
            assert_null(alloc_base(c, p));
            assert_int_equal(alloc_size(c, p), 0);
        }
    }
    /* a shared allocation for no particular device */
    cl_int err;
    void *s = usm.clSharedMemAllocINTEL(c, NULL, NULL, 64, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(alloc_type(c, s), CL_MEM_TYPE_SHARED_INTEL);
    assert_null(alloc_device(c, s));
    assert_int_equal(usm.clMemFreeINTEL(c, s), CL_SUCCESS);
    /* properties: the allocation flags are kept and reported */
    const cl_mem_properties_intel props[] = {CL_MEM_ALLOC_FLAGS_INTEL, CL_MEM_ALLOC_WRITE_COMBINED_INTEL, 0};
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
        void *p = alloc_kind(c, f->env.device, kinds[k], props, 100, 0, NULL);   /* errcode_ret may be NULL */
        assert_non_null(p);
        assert_int_equal(alloc_flags(c, p), props[1]);
        assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
    }
    /* the initial-placement hints, on a shared allocation */
    static const cl_mem_alloc_flags_intel hints[] = {CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL,
                                                     CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL |
                                                         CL_MEM_ALLOC_WRITE_COMBINED_INTEL};
    for (size_t h = 0; h < ARRAY_LEN(hints); h++) {
        const cl_mem_properties_intel hp[] = {CL_MEM_ALLOC_FLAGS_INTEL, hints[h], 0};
        void *p = usm.clSharedMemAllocINTEL(c, NULL, hp, 100, 0, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(alloc_flags(c, p), hints[h]);
        assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
    }
    const cl_mem_properties_intel empty[] = {0};
    void *p = usm.clHostMemAllocINTEL(c, empty, 16, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
}

/* Every failure returns NULL and its code; with errcode_ret NULL it still returns NULL. */
#define EXPECT_FAIL(call, code)                                                                     \
    do {                                                                                            \
        cl_int err_ = 1;                                                                            \
        void *p_ = (call);                                                                          \
        if (p_ != NULL || err_ != (code))                                                           \
            fail_msg("%s: got %p / %d, want NULL / %d", #call, p_, err_, (code));                    \
    } while (0)

static void test_alloc_errors(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_device_id d = f->env.device;
    cl_ulong max_alloc = 0;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL), CL_SUCCESS);
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
        cl_unified_shared_memory_type_intel t = kinds[k];
        EXPECT_FAIL(alloc_kind(NULL, d, t, NULL, 64, 0, &err_), CL_INVALID_CONTEXT);
        EXPECT_FAIL(alloc_kind((cl_context)f->env.queue, d, t, NULL, 64, 0, &err_), CL_INVALID_CONTEXT);
        /* the context is checked before everything else */
        EXPECT_FAIL(alloc_kind(NULL, d, t, NULL, 0, 3, &err_), CL_INVALID_CONTEXT);
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, 64, 3, &err_), CL_INVALID_VALUE);        /* not a power of two */
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, 64, 96, &err_), CL_INVALID_VALUE);
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, 64, 1u << 31, &err_), CL_INVALID_VALUE); /* beyond what is supported */
        const cl_mem_properties_intel unknown[] = {0x4242, 0, 0};
        EXPECT_FAIL(alloc_kind(c, d, t, unknown, 64, 0, &err_), CL_INVALID_PROPERTY);
        const cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0, CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
        EXPECT_FAIL(alloc_kind(c, d, t, twice, 64, 0, &err_), CL_INVALID_PROPERTY);
        const cl_mem_properties_intel bad_bits[] = {CL_MEM_ALLOC_FLAGS_INTEL, 1u << 7, 0};
        EXPECT_FAIL(alloc_kind(c, d, t, bad_bits, 64, 0, &err_), CL_INVALID_PROPERTY);
        const cl_mem_properties_intel both[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                                CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                                    CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL,
                                                0};
        EXPECT_FAIL(alloc_kind(c, d, t, both, 64, 0, &err_), CL_INVALID_PROPERTY);
        /* the placement hints are for shared allocations only */
        const cl_mem_properties_intel placed[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                                  t == CL_MEM_TYPE_DEVICE_INTEL ? CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL
                                                                                : CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL,
                                                  0};
        if (t != CL_MEM_TYPE_SHARED_INTEL)
            EXPECT_FAIL(alloc_kind(c, d, t, placed, 64, 0, &err_), CL_INVALID_PROPERTY);
        /* the properties are checked before the size */
        EXPECT_FAIL(alloc_kind(c, d, t, unknown, 0, 0, &err_), CL_INVALID_PROPERTY);
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, 0, 0, &err_), CL_INVALID_BUFFER_SIZE);
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, (size_t)max_alloc + 1, 0, &err_), CL_INVALID_BUFFER_SIZE);
        EXPECT_FAIL(alloc_kind(c, d, t, NULL, SIZE_MAX, 0, &err_), CL_INVALID_BUFFER_SIZE);
        assert_null(alloc_kind(c, d, t, NULL, 0, 0, NULL));
    }
    /* the device: required for a device allocation, optional for a shared one */
    EXPECT_FAIL(usm.clDeviceMemAllocINTEL(c, NULL, NULL, 64, 0, &err_), CL_INVALID_DEVICE);
    EXPECT_FAIL(usm.clDeviceMemAllocINTEL(c, (cl_device_id)c, NULL, 64, 0, &err_), CL_INVALID_DEVICE);
    EXPECT_FAIL(usm.clSharedMemAllocINTEL(c, (cl_device_id)f->env.queue, NULL, 64, 0, &err_), CL_INVALID_DEVICE);
    /* the device is checked before the size */
    EXPECT_FAIL(usm.clDeviceMemAllocINTEL(c, NULL, NULL, 0, 0, &err_), CL_INVALID_DEVICE);
}

/* ---- freeing ---- */

static void test_free_rules(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    assert_int_equal(usm.clMemFreeINTEL(c, NULL), CL_SUCCESS);
    assert_int_equal(usm.clMemBlockingFreeINTEL(c, NULL), CL_SUCCESS);
    char *p = usm.clDeviceMemAllocINTEL(c, f->env.device, NULL, 256, 0, NULL);
    assert_non_null(p);
    assert_int_equal(usm.clMemFreeINTEL(NULL, p), CL_INVALID_CONTEXT);
    assert_int_equal(usm.clMemFreeINTEL((cl_context)f->env.queue, p), CL_INVALID_CONTEXT);
    assert_int_equal(usm.clMemFreeINTEL(c, p + 16), CL_INVALID_VALUE);   /* not what the allocation returned */
    char local[16];
    assert_int_equal(usm.clMemFreeINTEL(c, local), CL_INVALID_VALUE);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(other, p), CL_INVALID_VALUE);   /* another context's pointer */
    assert_int_equal(alloc_type(other, p), CL_MEM_TYPE_UNKNOWN_INTEL);   /* not that context's either */
    clReleaseContext(other);
    /* clSVMFree does not free USM memory, clMemFreeINTEL does not free SVM memory */
    clSVMFree(c, p);
    assert_int_equal(alloc_type(c, p), CL_MEM_TYPE_DEVICE_INTEL);
    void *svm = clSVMAlloc(c, 0, 256, 0);
    assert_non_null(svm);
    assert_int_equal(usm.clMemFreeINTEL(c, svm), CL_INVALID_VALUE);
    assert_int_equal(alloc_type(c, svm), CL_MEM_TYPE_UNKNOWN_INTEL);   /* not a USM allocation */
    clSVMFree(c, svm);
    assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, p), CL_INVALID_VALUE);   /* twice */
    assert_int_equal(usm.clMemBlockingFreeINTEL(c, p), CL_INVALID_VALUE);
}

/* The allocation holds its context: the application's last release frees neither, and
 * clMemFreeINTEL still frees the memory and lets the context go. */
static void CL_CALLBACK context_gone(cl_context c, void *flag)
{
    (void)c;
    *(int *)flag = 1;
}

static void test_free_after_context_release(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    int gone = 0;
    assert_int_equal(clSetContextDestructorCallback(c, context_gone, &gone), CL_SUCCESS);
    int *p = usm.clSharedMemAllocINTEL(c, f->env.device, NULL, 4096, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(gone, 0);
    p[1023] = 7;
    assert_int_equal(p[1023], 7);
    assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
    assert_int_equal(gone, 1);
}

struct delayed_set {
    cl_event ev;
    int delay_ms;
};

static void *set_after_delay(void *arg)
{
    struct delayed_set *d = arg;
    struct timespec ts = {0, d->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    clSetUserEventStatus(d->ev, CL_COMPLETE);
    return NULL;
}

/* clMemBlockingFreeINTEL returns only once commands queued before it have run: a copy out of the
 * allocation, held back by a user event another thread completes later, has its data when the
 * free returns (a free that did not wait would return with the copy still pending). */
static void test_blocking_free_waits(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_int err;
    int *src = usm.clHostMemAllocINTEL(c, NULL, 4096 * sizeof(int), 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int i = 0; i < 4096; i++)
        src[i] = 3 * i + 1;
    int *dst = calloc(4096, sizeof(int));
    cl_event gate = clCreateUserEvent(c, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event copy;
    assert_int_equal(usm.clEnqueueMemcpyINTEL(f->env.queue, CL_FALSE, dst, src, 4096 * sizeof(int), 1, &gate, &copy),
                     CL_SUCCESS);
    struct delayed_set d = {gate, 100};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, set_after_delay, &d), 0);
    assert_int_equal(usm.clMemBlockingFreeINTEL(c, src), CL_SUCCESS);
    assert_int_equal(event_status(copy), CL_COMPLETE);
    for (int i = 0; i < 4096; i++)
        if (dst[i] != 3 * i + 1)
            fail_msg("dst[%d] = %d after the blocking free, want %d", i, dst[i], 3 * i + 1);
    pthread_join(t, NULL);
    assert_int_equal(alloc_type(c, src), CL_MEM_TYPE_UNKNOWN_INTEL);
    clReleaseEvent(copy);
    clReleaseEvent(gate);
    free(dst);
}

/* ---- clGetMemAllocInfoINTEL ---- */

static void test_alloc_info_errors(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    void *p = usm.clHostMemAllocINTEL(c, NULL, 64, 0, NULL);
    assert_non_null(p);
    cl_unified_shared_memory_type_intel t;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(NULL, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof t, &t, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(usm.clGetMemAllocInfoINTEL((cl_context)f->env.queue, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof t, &t, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, 0x4242, sizeof t, &t, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof t - 1, &t, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_SIZE_INTEL, sizeof(size_t) - 1, &t, NULL),
                     CL_INVALID_VALUE);
    size_t n = 0;
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_BASE_PTR_INTEL, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(void *));
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_TYPE_INTEL, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_unified_shared_memory_type_intel));
    assert_int_equal(usm.clGetMemAllocInfoINTEL(c, p, CL_MEM_ALLOC_FLAGS_INTEL, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_mem_alloc_flags_intel));
    /* pointers of no USM allocation: unknown, NULL base, size 0, no device */
    int on_stack;
    const void *others[] = {NULL, &on_stack, (const void *)(uintptr_t)16};
    for (size_t i = 0; i < ARRAY_LEN(others); i++) {
        assert_int_equal(alloc_type(c, others[i]), CL_MEM_TYPE_UNKNOWN_INTEL);
        assert_null(alloc_base(c, others[i]));
        assert_int_equal(alloc_size(c, others[i]), 0);
        assert_null(alloc_device(c, others[i]));
    }
    assert_int_equal(usm.clMemFreeINTEL(c, p), CL_SUCCESS);
}

/* ---- buffers over USM allocations ---- */

/* A cl_mem made with CL_MEM_USE_HOST_PTR over USM memory is like one over SVM memory: it reports
 * CL_MEM_USES_SVM_POINTER, may not reach past the allocation, and shares its storage. */
static void test_buffer_over_usm(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_int err;
    int *s = usm.clSharedMemAllocINTEL(c, f->env.device, NULL, 4096, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1024, s + 512, &err);   /* the second half */
    assert_int_equal(err, CL_SUCCESS);
    cl_bool uses = CL_FALSE;
    assert_int_equal(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL), CL_SUCCESS);
    assert_int_equal(uses, CL_TRUE);
    const int v = 77;
    assert_int_equal(clEnqueueFillBuffer(f->env.queue, b, &v, sizeof v, 0, 1024, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->env.queue), CL_SUCCESS);
    for (int i = 0; i < 1024; i++)
        assert_int_equal(s[i], i >= 512 && i < 768 ? 77 : 0);
    clReleaseMemObject(b);
    assert_null(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 2049, s + 512, &err));   /* one byte past the end */
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    /* plain memory is no USM allocation */
    int *plain = calloc(256, sizeof(int));
    b = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1024, plain, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL), CL_SUCCESS);
    assert_int_equal(uses, CL_FALSE);
    clReleaseMemObject(b);
    free(plain);
    assert_int_equal(usm.clMemFreeINTEL(c, s), CL_SUCCESS);
}

/* ---- commands ---- */

static void test_fill_memset_memcpy(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_command_queue q = f->env.queue;
    enum { N = 4096 };
    unsigned char *dev = usm.clDeviceMemAllocINTEL(c, f->env.device, NULL, N, 0, NULL);
    unsigned char *host = usm.clHostMemAllocINTEL(c, NULL, N, 0, NULL);
    unsigned char *shared = usm.clSharedMemAllocINTEL(c, f->env.device, NULL, N, 0, NULL);
    assert_non_null(dev);
    assert_non_null(host);
    assert_non_null(shared);

    /* fills of every pattern size, into the middle of the allocation */
    static const size_t psizes[] = {1, 2, 4, 8, 16, 32, 64, 128};
    for (size_t s = 0; s < ARRAY_LEN(psizes); s++) {
        size_t ps = psizes[s];
        unsigned char pattern[128];
        for (size_t i = 0; i < ps; i++)
            pattern[i] = (unsigned char)(17 * s + 3 * i + 1);
        memset(dev, 0xee, N);
        size_t off = 256, size = 8 * ps + 256;
        cl_event ev;
        assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev + off, pattern, ps, size, 0, NULL, &ev), CL_SUCCESS);
        memset(pattern, 0, sizeof pattern);   /* the call copied it */
        assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
        assert_int_equal(command_type(ev), CL_COMMAND_MEMFILL_INTEL);
        clReleaseEvent(ev);
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i >= off && i < off + size ? (unsigned char)(17 * s + 3 * ((i - off) % ps) + 1) : 0xee;
            if (dev[i] != want)
                fail_msg("pattern size %zu: byte %zu is 0x%x, want 0x%x", ps, i, dev[i], want);
        }
    }
    /* memset: the low byte of the value */
    cl_event ev;
    assert_int_equal(usm.clEnqueueMemsetINTEL(q, shared + 3, 0x1234, 1000, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    assert_int_equal(command_type(ev), CL_COMMAND_MEMFILL_INTEL);
    clReleaseEvent(ev);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(shared[i], i >= 3 && i < 1003 ? 0x34 : 0);

    /* memcpy: host -> device -> shared, blocking, between every kind and plain memory */
    for (size_t i = 0; i < N; i++)
        host[i] = (unsigned char)(i * 7 + 5);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, host, N, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(event_status(ev), CL_COMPLETE);   /* blocking */
    assert_int_equal(command_type(ev), CL_COMMAND_MEMCPY_INTEL);
    clReleaseEvent(ev);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, shared, dev + 1, N - 1, 0, NULL, NULL), CL_SUCCESS);
    unsigned char *plain = malloc(N);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, plain, shared, N - 1, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i + 1 < N; i++)
        assert_int_equal(plain[i], (unsigned char)((i + 1) * 7 + 5));
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, host, 0, 0, NULL, NULL), CL_SUCCESS);   /* size 0 */

    /* a non-blocking copy waits for its wait list */
    cl_int err;
    cl_event gate = clCreateUserEvent(c, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(plain, 0, N);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_FALSE, plain, host, N, 1, &gate, &ev), CL_SUCCESS);
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    assert_int_not_equal(event_status(ev), CL_COMPLETE);
    assert_int_equal(plain[1], 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    assert_int_equal(plain[1], 12);
    clReleaseEvent(ev);
    clReleaseEvent(gate);

    /* errors, in the extension's order */
    int pat = 0;
    assert_int_equal(usm.clEnqueueMemFillINTEL(NULL, dev, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL((cl_command_queue)c, dev, &pat, 4, 64, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, NULL, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, NULL, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, &pat, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, &pat, 3, 63, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, host, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev + 2, &pat, 4, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, &pat, 4, 62, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, &pat, 4, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(usm.clEnqueueMemsetINTEL(NULL, dev, 0, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMemsetINTEL(q, NULL, 0, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemsetINTEL(q, dev, 0, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(NULL, CL_TRUE, dev, host, 64, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, NULL, host, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, NULL, 64, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, host, 64, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev + 10, dev, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, dev + 63, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, dev + 64, 64, 0, NULL, NULL), CL_SUCCESS);
    /* an event of another context */
    cl_context other = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    assert_int_equal(usm.clEnqueueMemcpyINTEL(q, CL_TRUE, dev, host, 64, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(usm.clEnqueueMemFillINTEL(q, dev, &pat, 4, 64, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    clReleaseEvent(foreign);
    clReleaseContext(other);

    free(plain);
    assert_int_equal(usm.clMemFreeINTEL(c, dev), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, host), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, shared), CL_SUCCESS);
}

static void test_migrate_and_advise(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_command_queue q = f->env.queue;
    int *s = usm.clSharedMemAllocINTEL(c, f->env.device, NULL, 4096, 0, NULL);
    assert_non_null(s);
    s[5] = 42;
    cl_event ev[2];
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s, 4096, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, &ev[0]),
                     CL_SUCCESS);
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s + 8, 64, CL_MIGRATE_MEM_OBJECT_HOST, 1, &ev[0], NULL),
                     CL_SUCCESS);
    assert_int_equal(usm.clEnqueueMemAdviseINTEL(q, s, 4096, 0, 1, &ev[0], &ev[1]), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(2, ev), CL_SUCCESS);
    assert_int_equal(command_type(ev[0]), CL_COMMAND_MIGRATEMEM_INTEL);
    assert_int_equal(command_type(ev[1]), CL_COMMAND_MEMADVISE_INTEL);
    assert_int_equal(s[5], 42);   /* nothing moved, nothing lost */
    clReleaseEvent(ev[0]);
    clReleaseEvent(ev[1]);
    const cl_mem_migration_flags host = CL_MIGRATE_MEM_OBJECT_HOST;
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(NULL, s, 64, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s, 64, 0, 0, NULL, NULL), CL_INVALID_VALUE);   /* flags 0 */
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s, 64, (cl_mem_migration_flags)1 << 9, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s, 64, host, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &f->env.device, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    assert_int_equal(usm.clEnqueueMigrateMemINTEL(q, s, 64, host, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(usm.clEnqueueMemAdviseINTEL(q, s, 64, 0, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    clReleaseEvent(foreign);
    clReleaseContext(other);
    assert_int_equal(usm.clEnqueueMemAdviseINTEL(NULL, s, 64, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(usm.clEnqueueMemAdviseINTEL(q, s, 64, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    /* hints: any advice value is accepted and ignored */
    assert_int_equal(usm.clEnqueueMemAdviseINTEL(q, s, 64, 0x1234, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, s), CL_SUCCESS);
}

/* ---- kernels ---- */

static void test_kernel_arg_and_exec_info(void **state)
{
    struct fixture *f = *state;
    cl_context c = f->env.context;
    cl_kernel k = f->kernel;
    int *out = usm.clDeviceMemAllocINTEL(c, f->env.device, NULL, 64 * sizeof(int), 0, NULL);
    int *cst = usm.clHostMemAllocINTEL(c, NULL, sizeof(int), 0, NULL);
    assert_non_null(out);
    assert_non_null(cst);
    *cst = 1000;
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(NULL, 0, out), CL_INVALID_KERNEL);
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL((cl_kernel)c, 0, out), CL_INVALID_KERNEL);
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 4, out), CL_INVALID_ARG_INDEX);
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 1, out), CL_INVALID_ARG_VALUE);   /* an int */
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 2, out), CL_INVALID_ARG_VALUE);   /* a local pointer */
    /* the device supports shared system allocations: any pointer, NULL too, is a valid value */
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 0, NULL), CL_SUCCESS);
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 0, out + 8), CL_SUCCESS);
    assert_int_equal(usm.clSetKernelArgMemPointerINTEL(k, 3, cst), CL_SUCCESS);
    int v = 5;
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);

    /* exec info: the three indirect-access switches take a cl_bool, USM_PTRS a pointer array */
    static const cl_kernel_exec_info indirect[] = {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                                   CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                                   CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL};
    cl_bool yes = CL_TRUE, no = CL_FALSE;
    for (size_t i = 0; i < ARRAY_LEN(indirect); i++) {
        assert_int_equal(clSetKernelExecInfo(k, indirect[i], sizeof yes, &yes), CL_SUCCESS);
        assert_int_equal(clSetKernelExecInfo(k, indirect[i], sizeof no, &no), CL_SUCCESS);
        assert_int_equal(clSetKernelExecInfo(k, indirect[i], sizeof(cl_ulong), &yes), CL_INVALID_VALUE);
        assert_int_equal(clSetKernelExecInfo(k, indirect[i], 0, NULL), CL_INVALID_VALUE);
        assert_int_equal(clSetKernelExecInfo(NULL, indirect[i], sizeof yes, &yes), CL_INVALID_KERNEL);
    }
    void *ptrs[2] = {out, cst};
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs), CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs - 1, ptrs),
                     CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, NULL), CL_INVALID_VALUE);

    /* the launch writes through the USM pointers */
    size_t global = 32;
    assert_int_equal(clEnqueueNDRangeKernel(f->env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->env.queue), CL_SUCCESS);
    for (int i = 0; i < 64; i++) {
        int want = i >= 8 && i < 40 ? 5 + (i - 8) + 1000 : 0;
        if (out[i] != want)
            fail_msg("out[%d] = %d, want %d", i, out[i], want);
    }
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, NULL), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, out), CL_SUCCESS);
    assert_int_equal(usm.clMemFreeINTEL(c, cst), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functions_found_by_name),
        cmocka_unit_test(test_device_reports_extension),
        cmocka_unit_test(test_alloc_kinds_and_info),
        cmocka_unit_test(test_alloc_errors),
        cmocka_unit_test(test_free_rules),
        cmocka_unit_test(test_free_after_context_release),
        cmocka_unit_test(test_blocking_free_waits),
        cmocka_unit_test(test_alloc_info_errors),
        cmocka_unit_test(test_buffer_over_usm),
        cmocka_unit_test(test_fill_memset_memcpy),
        cmocka_unit_test(test_migrate_and_advise),
        cmocka_unit_test(test_kernel_arg_and_exec_info),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
