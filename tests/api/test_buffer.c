/* tests/api/test_buffer.c — buffer and sub-buffer objects through the ICD loader:
 * clCreateBuffer(WithProperties), clCreateSubBuffer, clRetain/ReleaseMemObject,
 * clGetMemObjectInfo and clSetMemObjectDestructorCallback, success paths and every specified
 * error code. Commands on buffers are in test_buffer_commands.c and test_map.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "weft_test.h"

struct env {
    cl_device_id device;
    cl_context context;
    cl_ulong max_alloc;
    size_t align;           /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */
};

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
    cl_uint bits = 0;
    if (clGetDeviceInfo(e.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof e.max_alloc, &e.max_alloc, NULL) ||
        clGetDeviceInfo(e.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL))
        return -1;
    e.align = bits / 8;
    if (e.align == 0)
        return -1;
    *state = &e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    if (!e)
        return 0;
    clReleaseContext(e->context);
    return 0;
}

#define CHECK_ERR(got, want, ...)                                                           \
    do {                                                                                    \
        cl_int got_ = (got), want_ = (want);                                                \
        if (got_ != want_) {                                                                \
            print_error("%s:%d: got %d, expected %d: ", __FILE__, __LINE__, got_, want_);   \
            print_error(__VA_ARGS__);                                                       \
            print_error("\n");                                                              \
            fail();                                                                         \
        }                                                                                   \
    } while (0)

/* ---- clCreateBuffer ------------------------------------------------------------------------ */

/* A new buffer reads as zeros, also where a released one of the same size was just written
 * (the heap or a kernel page cache would hand that memory back), at a heap size and at a mapped
 * one, in this context and in a new one. */
static void test_new_buffers_read_zero(void **state)
{
    struct env *e = *state;
    static const size_t sizes[] = {1000, (size_t)200 << 10, (size_t)9 << 20};
    cl_int err;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        unsigned char *host = malloc(n);
        assert_non_null(host);
        for (int round = 0; round < 2; round++) {
            cl_context ctx = round ? clCreateContext(NULL, 1, &e->device, NULL, NULL, &err) : e->context;
            if (round)
                assert_int_equal(err, CL_SUCCESS);
            cl_command_queue q = clCreateCommandQueueWithProperties(ctx, e->device, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
            memset(host, 0xab, n);
            cl_mem old = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
            assert_int_equal(clEnqueueWriteBuffer(q, old, CL_TRUE, 0, n, host, 0, NULL, NULL), CL_SUCCESS);
            assert_int_equal(clReleaseMemObject(old), CL_SUCCESS);
            cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
            assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, host, 0, NULL, NULL), CL_SUCCESS);
            size_t nonzero = 0;
            for (size_t i = 0; i < n; i++)
                nonzero += host[i] != 0;
            if (nonzero)
                print_error("a new buffer of %zu bytes holds %zu nonzero bytes\n", n, nonzero);
            assert_int_equal(nonzero, 0);
            clReleaseMemObject(m);
            clReleaseCommandQueue(q);
            if (round)
                clReleaseContext(ctx);
        }
        free(host);
    }
}


static void test_create_flags_table(void **state)
{
    struct env *e = *state;
    static char host[256];
    enum { NOPTR, PTR };
    static const struct {
        const char *name;
        cl_mem_flags flags;
        int ptr;
        cl_int want;
    } cases[] = {
        {"default (0)", 0, NOPTR, CL_SUCCESS},
        {"READ_WRITE", CL_MEM_READ_WRITE, NOPTR, CL_SUCCESS},
        {"WRITE_ONLY", CL_MEM_WRITE_ONLY, NOPTR, CL_SUCCESS},
        {"READ_ONLY", CL_MEM_READ_ONLY, NOPTR, CL_SUCCESS},
        {"READ_WRITE|WRITE_ONLY", CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, NOPTR, CL_INVALID_VALUE},
        {"READ_WRITE|READ_ONLY", CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, NOPTR, CL_INVALID_VALUE},
        {"WRITE_ONLY|READ_ONLY", CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, NOPTR, CL_INVALID_VALUE},
        {"HOST_WRITE_ONLY", CL_MEM_HOST_WRITE_ONLY, NOPTR, CL_SUCCESS},
        {"HOST_READ_ONLY", CL_MEM_HOST_READ_ONLY, NOPTR, CL_SUCCESS},
        {"HOST_NO_ACCESS", CL_MEM_HOST_NO_ACCESS, NOPTR, CL_SUCCESS},
        {"HOST_WRITE_ONLY|HOST_READ_ONLY", CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, NOPTR, CL_INVALID_VALUE},
        {"HOST_WRITE_ONLY|HOST_NO_ACCESS", CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, NOPTR, CL_INVALID_VALUE},
        {"HOST_READ_ONLY|HOST_NO_ACCESS", CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, NOPTR, CL_INVALID_VALUE},
        {"USE_HOST_PTR", CL_MEM_USE_HOST_PTR, PTR, CL_SUCCESS},
        {"COPY_HOST_PTR", CL_MEM_COPY_HOST_PTR, PTR, CL_SUCCESS},
        {"ALLOC_HOST_PTR", CL_MEM_ALLOC_HOST_PTR, NOPTR, CL_SUCCESS},
        {"ALLOC|COPY_HOST_PTR", CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, PTR, CL_SUCCESS},
        {"USE|ALLOC_HOST_PTR", CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, PTR, CL_INVALID_VALUE},
        {"USE|COPY_HOST_PTR", CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, PTR, CL_INVALID_VALUE},
        {"USE_HOST_PTR without ptr", CL_MEM_USE_HOST_PTR, NOPTR, CL_INVALID_HOST_PTR},
        {"COPY_HOST_PTR without ptr", CL_MEM_COPY_HOST_PTR, NOPTR, CL_INVALID_HOST_PTR},
        {"ptr without USE/COPY", CL_MEM_READ_WRITE, PTR, CL_INVALID_HOST_PTR},
        {"ptr with ALLOC only", CL_MEM_ALLOC_HOST_PTR, PTR, CL_INVALID_HOST_PTR},
        {"READ_ONLY|HOST_NO_ACCESS|COPY", CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_COPY_HOST_PTR, PTR, CL_SUCCESS},
        {"unknown bit 1<<20", (cl_mem_flags)1 << 20, NOPTR, CL_INVALID_VALUE},
        {"KERNEL_READ_AND_WRITE (images only)", CL_MEM_KERNEL_READ_AND_WRITE, NOPTR, CL_INVALID_VALUE},
        {"SVM_FINE_GRAIN_BUFFER (SVM only)", CL_MEM_SVM_FINE_GRAIN_BUFFER, NOPTR, CL_INVALID_VALUE},
        /* flag errors come before host_ptr errors */
        {"bad flags and missing ptr", CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, NOPTR, CL_INVALID_VALUE},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        cl_int err = 12345;
        cl_mem m = clCreateBuffer(e->context, cases[i].flags, sizeof host,
                                  cases[i].ptr == PTR ? host : NULL, &err);
        CHECK_ERR(err, cases[i].want, "case '%s'", cases[i].name);
        if (cases[i].want == CL_SUCCESS) {
            assert_non_null(m);
            cl_mem_flags got = ~(cl_mem_flags)0;
            assert_int_equal(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got, &got, NULL), CL_SUCCESS);
            if (got != cases[i].flags)
                fail_msg("case '%s': CL_MEM_FLAGS 0x%llx, created with 0x%llx", cases[i].name,
                         (unsigned long long)got, (unsigned long long)cases[i].flags);
            assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
        } else if (m) {
            fail_msg("case '%s': failed creation returned a handle", cases[i].name);
        }
    }
}

static void test_create_sizes_and_context(void **state)
{
    struct env *e = *state;
    cl_int err;
    assert_null(clCreateBuffer(e->context, 0, 0, NULL, &err));
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE, "size 0");
    assert_null(clCreateBuffer(e->context, 0, (size_t)e->max_alloc + 1, NULL, &err));
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE, "size above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    assert_null(clCreateBuffer(e->context, 0, SIZE_MAX, NULL, &err));
    CHECK_ERR(err, CL_INVALID_BUFFER_SIZE, "size SIZE_MAX");
    /* the context is checked first */
    assert_null(clCreateBuffer(NULL, 0, 0, NULL, &err));
    CHECK_ERR(err, CL_INVALID_CONTEXT, "NULL context");
    cl_mem m = clCreateBuffer(e->context, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_null(clCreateBuffer((cl_context)m, 0, 64, NULL, &err));
    CHECK_ERR(err, CL_INVALID_CONTEXT, "a buffer passed as context");
    /* errcode_ret may be NULL */
    assert_null(clCreateBuffer(e->context, 0, 0, NULL, NULL));
    cl_mem m2 = clCreateBuffer(e->context, 0, 1, NULL, NULL);
    assert_non_null(m2);
    size_t size = 0;
    assert_int_equal(clGetMemObjectInfo(m2, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    assert_int_equal(size, 1);
    clReleaseMemObject(m2);
    clReleaseMemObject(m);
}

/* An allocation the system refuses is reported as CL_MEM_OBJECT_ALLOCATION_FAILURE, never a
 * crash. The refusal is forced in a child process whose address space is limited to a little
 * more than it already uses, so the parent's memory is untouched. */
static void test_allocation_failure_reported(void **state)
{
    struct env *e = *state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1)
            _exit(10);
        fclose(f);
        size_t used = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
        size_t room = (size_t)(e->max_alloc / 4);
        struct rlimit lim = {used + room, RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(11);
        cl_int err = 0;
        cl_mem m = clCreateBuffer(e->context, 0, (size_t)e->max_alloc, NULL, &err);
        if (m || err != CL_MEM_OBJECT_ALLOCATION_FAILURE)
            _exit(12);
        /* a small buffer still works afterwards */
        m = clCreateBuffer(e->context, 0, 4096, NULL, &err);
        _exit(m && err == CL_SUCCESS ? 0 : 13);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0)
        fail_msg("child failed at step %d (12: no CL_MEM_OBJECT_ALLOCATION_FAILURE)", WEXITSTATUS(status));
}

static void test_create_with_properties(void **state)
{
    struct env *e = *state;
    cl_int err;
    const cl_mem_properties empty[] = {0};
    cl_mem m = clCreateBufferWithProperties(e->context, empty, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t n = 99;
    cl_mem_properties got[4] = {7, 7, 7, 7};
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_mem_properties));
    assert_int_equal(got[0], 0);
    clReleaseMemObject(m);

    m = clCreateBufferWithProperties(e->context, NULL, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    clReleaseMemObject(m);

    m = clCreateBuffer(e->context, 0, 64, NULL, &err);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    clReleaseMemObject(m);

    const cl_mem_properties unknown[] = {0x12345, 1, 0};
    assert_null(clCreateBufferWithProperties(e->context, unknown, 0, 64, NULL, &err));
    CHECK_ERR(err, CL_INVALID_PROPERTY, "unknown property");
    /* the property list is checked before the flags and the size */
    assert_null(clCreateBufferWithProperties(e->context, unknown, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, NULL, &err));
    CHECK_ERR(err, CL_INVALID_PROPERTY, "unknown property with bad flags");
    assert_null(clCreateBufferWithProperties(NULL, unknown, 0, 64, NULL, &err));
    CHECK_ERR(err, CL_INVALID_CONTEXT, "context before properties");
}

static void test_info_queries(void **state)
{
    struct env *e = *state;
    cl_int err;
    static _Alignas(128) char host[1024];
    cl_mem use = clCreateBuffer(e->context, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, sizeof host, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem copy = clCreateBuffer(e->context, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    assert_int_equal(err, CL_SUCCESS);

    cl_mem_object_type type = 0;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_MEM_OBJECT_BUFFER);
    void *hp = NULL;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_ptr_equal(hp, host);
    hp = host;
    assert_int_equal(clGetMemObjectInfo(copy, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_null(hp);
    cl_uint maps = 99, refs = 0;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL), CL_SUCCESS);
    assert_int_equal(maps, 0);
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);
    cl_context ctx = NULL;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, e->context);
    cl_mem assoc = use;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL), CL_SUCCESS);
    assert_null(assoc);
    size_t off = 99;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_OFFSET, sizeof off, &off, NULL), CL_SUCCESS);
    assert_int_equal(off, 0);
    cl_bool svm = CL_TRUE;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL), CL_SUCCESS);
    assert_int_equal(svm, CL_FALSE);
    size_t n = 0;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_SIZE, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(size_t));

    /* errors */
    CHECK_ERR(clGetMemObjectInfo(use, CL_MEM_SIZE, sizeof(size_t) - 1, &off, NULL), CL_INVALID_VALUE,
              "param_value_size too small");
    CHECK_ERR(clGetMemObjectInfo(use, 0x7fff, sizeof off, &off, NULL), CL_INVALID_VALUE, "unknown param_name");
    CHECK_ERR(clGetMemObjectInfo(use, CL_MEM_TYPE - 1, sizeof off, &off, NULL), CL_INVALID_VALUE,
              "param_name just below the memory queries");
    CHECK_ERR(clGetMemObjectInfo(NULL, CL_MEM_SIZE, sizeof off, &off, NULL), CL_INVALID_MEM_OBJECT, "NULL memobj");
    CHECK_ERR(clGetMemObjectInfo((cl_mem)e->context, CL_MEM_SIZE, sizeof off, &off, NULL),
              CL_INVALID_MEM_OBJECT, "a context passed as memobj");
    clReleaseMemObject(use);
    clReleaseMemObject(copy);
}

static void CL_CALLBACK cb_none(cl_mem m, void *user)
{
    (void)m;
    (void)user;
}

static void test_retain_release(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->context, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clRetainMemObject(m), CL_SUCCESS);
    assert_int_equal(clRetainMemObject(m), CL_SUCCESS);
    cl_uint refs = 0;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 3);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);

    /* A handle the application released is rejected everywhere. Through the ICD loader the
     * handle's memory must still exist (the loader reads its dispatch pointer before Weft sees
     * the call), so the released buffer is kept alive by a sub-buffer, which holds its parent. */
    cl_mem parent = clCreateBuffer(e->context, 0, 4 * e->align, NULL, &err);
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
    CHECK_ERR(clRetainMemObject(parent), CL_INVALID_MEM_OBJECT, "retain of a released buffer");
    CHECK_ERR(clReleaseMemObject(parent), CL_INVALID_MEM_OBJECT, "release of a released buffer");
    size_t size;
    CHECK_ERR(clGetMemObjectInfo(parent, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_MEM_OBJECT,
              "query of a released buffer");
    CHECK_ERR(clSetMemObjectDestructorCallback(parent, cb_none, NULL), CL_INVALID_MEM_OBJECT,
              "destructor callback on a released buffer");
    cl_mem sub_of_dead = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                           &(cl_buffer_region){0, 16}, &err);
    assert_null(sub_of_dead);
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "sub-buffer of a released buffer");
    /* the sub-buffer itself still works and still names its parent */
    cl_mem assoc = NULL;
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL), CL_SUCCESS);
    assert_ptr_equal(assoc, parent);
    assert_int_equal(clReleaseMemObject(sub), CL_SUCCESS);

    CHECK_ERR(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT, "retain NULL");
    CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT, "release NULL");
    CHECK_ERR(clReleaseMemObject((cl_mem)e->context), CL_INVALID_MEM_OBJECT, "release of a context");
}

/* ---- sub-buffers --------------------------------------------------------------------------- */

static void test_sub_buffer_basics(void **state)
{
    struct env *e = *state;
    cl_int err;
    size_t size = 8 * e->align;
    char *host = aligned_alloc(e->align < 64 ? 64 : e->align, size);
    assert_non_null(host);
    cl_mem parent = clCreateBuffer(e->context, CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY, size, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_buffer_region r = {2 * e->align, 3 * e->align};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);

    cl_mem assoc = NULL;
    size_t off = 0, sz = 0;
    void *hp = NULL;
    cl_mem_flags flags = 0;
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL), CL_SUCCESS);
    assert_ptr_equal(assoc, parent);
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, NULL), CL_SUCCESS);
    assert_int_equal(off, r.origin);
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_SUCCESS);
    assert_int_equal(sz, r.size);
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_ptr_equal(hp, host + r.origin);
    /* host-pointer and host-access flags are inherited */
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
    assert_true(flags & CL_MEM_USE_HOST_PTR);
    assert_true(flags & CL_MEM_HOST_READ_ONLY);
    cl_context ctx = NULL;
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, e->context);

    /* a sub-buffer of a sub-buffer is refused */
    cl_buffer_region r2 = {0, e->align};
    assert_null(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err));
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "sub-buffer of a sub-buffer");

    /* the whole parent as a region, and the last aligned byte range */
    cl_buffer_region whole = {0, size};
    cl_mem s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &whole, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseMemObject(s2);
    cl_buffer_region tail = {size - e->align, e->align};
    s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &tail, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseMemObject(s2);

    /* the parent outlives its application reference while a sub-buffer exists */
    assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof sz, &sz, NULL), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(sub), CL_SUCCESS);
    free(host);
}

static void test_sub_buffer_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    size_t size = 8 * e->align;
    cl_mem parent = clCreateBuffer(e->context, 0, size, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const struct {
        const char *name;
        cl_buffer_region r;
        cl_int want;
    } cases[] = {
        {"origin past the end", {size + e->align, e->align}, CL_INVALID_VALUE},
        {"region runs past the end", {size - e->align, 2 * e->align}, CL_INVALID_VALUE},
        {"size wraps around", {e->align, SIZE_MAX}, CL_INVALID_VALUE},
        {"size 0", {0, 0}, CL_INVALID_BUFFER_SIZE},
        {"misaligned origin", {1, e->align}, CL_MISALIGNED_SUB_BUFFER_OFFSET},
        {"misaligned origin half align", {e->align / 2, e->align}, CL_MISALIGNED_SUB_BUFFER_OFFSET},
        {"unaligned size is fine", {e->align, 3}, CL_SUCCESS},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        cl_mem s = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &cases[i].r, &err);
        CHECK_ERR(err, cases[i].want, "case '%s'", cases[i].name);
        if (s)
            clReleaseMemObject(s);
        if (cases[i].want != CL_SUCCESS)
            assert_null(s);
    }
    cl_buffer_region r = {0, e->align};
    assert_null(clCreateSubBuffer(parent, 0, 0x1234, &r, &err));
    CHECK_ERR(err, CL_INVALID_VALUE, "unknown buffer_create_type");
    assert_null(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err));
    CHECK_ERR(err, CL_INVALID_VALUE, "NULL buffer_create_info");
    assert_null(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "NULL buffer");
    assert_null(clCreateSubBuffer((cl_mem)e->context, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "a context passed as buffer");
    clReleaseMemObject(parent);
}

static void test_sub_buffer_flags_table(void **state)
{
    struct env *e = *state;
    cl_int err;
    static const struct {
        const char *name;
        cl_mem_flags parent, child;
        cl_int want;
        cl_mem_flags want_flags;    /* CL_MEM_FLAGS of the sub-buffer on success */
    } cases[] = {
        {"inherit READ_WRITE", CL_MEM_READ_WRITE, 0, CL_SUCCESS, CL_MEM_READ_WRITE},
        {"inherit READ_ONLY", CL_MEM_READ_ONLY, 0, CL_SUCCESS, CL_MEM_READ_ONLY},
        {"inherit WRITE_ONLY", CL_MEM_WRITE_ONLY, 0, CL_SUCCESS, CL_MEM_WRITE_ONLY},
        {"narrow RW to READ_ONLY", CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_SUCCESS, CL_MEM_READ_ONLY},
        {"narrow RW to WRITE_ONLY", CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_SUCCESS, CL_MEM_WRITE_ONLY},
        {"default parent, READ_ONLY child", 0, CL_MEM_READ_ONLY, CL_SUCCESS, CL_MEM_READ_ONLY},
        {"WRITE_ONLY parent, READ_WRITE child", CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE, 0},
        {"WRITE_ONLY parent, READ_ONLY child", CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_INVALID_VALUE, 0},
        {"READ_ONLY parent, READ_WRITE child", CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE, 0},
        {"READ_ONLY parent, WRITE_ONLY child", CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_INVALID_VALUE, 0},
        {"READ_ONLY parent, READ_ONLY child", CL_MEM_READ_ONLY, CL_MEM_READ_ONLY, CL_SUCCESS, CL_MEM_READ_ONLY},
        {"inherit HOST_READ_ONLY", CL_MEM_HOST_READ_ONLY, 0, CL_SUCCESS, CL_MEM_HOST_READ_ONLY},
        {"inherit HOST_NO_ACCESS", CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_ONLY, CL_SUCCESS,
         CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS},
        {"HOST_WRITE_ONLY parent, HOST_READ_ONLY child", CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE, 0},
        {"HOST_READ_ONLY parent, HOST_WRITE_ONLY child", CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE, 0},
        {"HOST_NO_ACCESS parent, HOST_READ_ONLY child", CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE, 0},
        {"HOST_NO_ACCESS parent, HOST_WRITE_ONLY child", CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE, 0},
        {"no host restriction parent, HOST_NO_ACCESS child", 0, CL_MEM_HOST_NO_ACCESS, CL_SUCCESS, CL_MEM_HOST_NO_ACCESS},
        {"inherit ALLOC_HOST_PTR", CL_MEM_ALLOC_HOST_PTR, 0, CL_SUCCESS, CL_MEM_ALLOC_HOST_PTR},
        {"child gives USE_HOST_PTR", 0, CL_MEM_USE_HOST_PTR, CL_INVALID_VALUE, 0},
        {"child gives ALLOC_HOST_PTR", 0, CL_MEM_ALLOC_HOST_PTR, CL_INVALID_VALUE, 0},
        {"child gives COPY_HOST_PTR", 0, CL_MEM_COPY_HOST_PTR, CL_INVALID_VALUE, 0},
        {"child READ_ONLY|WRITE_ONLY", 0, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_INVALID_VALUE, 0},
        {"child HOST_READ_ONLY|HOST_NO_ACCESS", 0, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_INVALID_VALUE, 0},
        {"child unknown bit", 0, (cl_mem_flags)1 << 30, CL_INVALID_VALUE, 0},
    };
    cl_buffer_region r = {e->align, e->align};
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        cl_mem parent = clCreateBuffer(e->context, cases[i].parent, 4 * e->align, NULL, &err);
        CHECK_ERR(err, CL_SUCCESS, "case '%s': parent", cases[i].name);
        cl_mem sub = clCreateSubBuffer(parent, cases[i].child, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        CHECK_ERR(err, cases[i].want, "case '%s'", cases[i].name);
        if (cases[i].want == CL_SUCCESS) {
            cl_mem_flags got = 0;
            assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof got, &got, NULL), CL_SUCCESS);
            if (got != cases[i].want_flags)
                fail_msg("case '%s': CL_MEM_FLAGS 0x%llx, expected 0x%llx", cases[i].name,
                         (unsigned long long)got, (unsigned long long)cases[i].want_flags);
            clReleaseMemObject(sub);
        } else {
            assert_null(sub);
        }
        clReleaseMemObject(parent);
    }
}

/* ---- destructor callbacks ------------------------------------------------------------------ */

struct calls {
    int order[8];
    int n;
    cl_mem mem[8];
};

static struct calls calls;

#define DEFINE_CB(k)                                                                        \
    static void CL_CALLBACK cb##k(cl_mem m, void *user)                                     \
    {                                                                                       \
        struct calls *c = user;                                                             \
        if (c->n < 8) {                                                                     \
            c->mem[c->n] = m;                                                               \
            c->order[c->n++] = k;                                                           \
        }                                                                                   \
    }
DEFINE_CB(1)
DEFINE_CB(2)
DEFINE_CB(3)
DEFINE_CB(4)

static void test_destructor_callback_order(void **state)
{
    struct env *e = *state;
    cl_int err;
    memset(&calls, 0, sizeof calls);
    cl_mem m = clCreateBuffer(e->context, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(m, cb1, &calls), CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(m, cb2, &calls), CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(m, cb3, &calls), CL_SUCCESS);
    assert_int_equal(clRetainMemObject(m), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(calls.n, 0);          /* still referenced */
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(calls.n, 3);
    assert_int_equal(calls.order[0], 3);   /* reverse order of registration */
    assert_int_equal(calls.order[1], 2);
    assert_int_equal(calls.order[2], 1);
    assert_ptr_equal(calls.mem[0], m);

    m = clCreateBuffer(e->context, 0, 64, NULL, &err);
    CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE, "NULL pfn_notify");
    CHECK_ERR(clSetMemObjectDestructorCallback(NULL, cb1, NULL), CL_INVALID_MEM_OBJECT, "NULL memobj");
    clReleaseMemObject(m);
}

static void test_destructor_parent_after_sub_buffer(void **state)
{
    struct env *e = *state;
    cl_int err;
    memset(&calls, 0, sizeof calls);
    cl_mem parent = clCreateBuffer(e->context, 0, 4 * e->align, NULL, &err);
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &(cl_buffer_region){e->align, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(parent, cb1, &calls), CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(sub, cb4, &calls), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
    assert_int_equal(calls.n, 0);          /* the sub-buffer keeps its parent alive */
    assert_int_equal(clReleaseMemObject(sub), CL_SUCCESS);
    assert_int_equal(calls.n, 2);
    assert_int_equal(calls.order[0], 4);   /* the sub-buffer goes first, then its parent */
    assert_int_equal(calls.order[1], 1);
}

/* A USE_HOST_PTR buffer's memory may be freed in its destructor callback. */
static void CL_CALLBACK free_host(cl_mem m, void *user)
{
    (void)m;
    free(user);
    calls.n++;
}

static void test_destructor_frees_host_ptr(void **state)
{
    struct env *e = *state;
    cl_int err;
    memset(&calls, 0, sizeof calls);
    char *host = malloc(4096);
    memset(host, 7, 4096);
    cl_mem m = clCreateBuffer(e->context, CL_MEM_USE_HOST_PTR, 4096, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(m, free_host, host), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(calls.n, 1);
}

/* Many buffers of many sizes, with and without COPY_HOST_PTR, created and released. */
static void test_many_buffers(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem ms[64];
    static char src[100000];
    for (size_t i = 0; i < ARRAY_LEN(ms); i++) {
        size_t size = 1 + i * 1531;
        ms[i] = clCreateBuffer(e->context, i % 2 ? CL_MEM_COPY_HOST_PTR : 0, size, i % 2 ? src : NULL, &err);
        CHECK_ERR(err, CL_SUCCESS, "buffer %zu of %zu bytes", i, size);
        size_t got = 0;
        assert_int_equal(clGetMemObjectInfo(ms[i], CL_MEM_SIZE, sizeof got, &got, NULL), CL_SUCCESS);
        assert_int_equal(got, size);
    }
    for (size_t i = 0; i < ARRAY_LEN(ms); i++)
        assert_int_equal(clReleaseMemObject(ms[i]), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_flags_table),
        cmocka_unit_test(test_create_sizes_and_context),
        cmocka_unit_test(test_allocation_failure_reported),
        cmocka_unit_test(test_create_with_properties),
        cmocka_unit_test(test_info_queries),
        cmocka_unit_test(test_retain_release),
        cmocka_unit_test(test_sub_buffer_basics),
        cmocka_unit_test(test_sub_buffer_errors),
        cmocka_unit_test(test_sub_buffer_flags_table),
        cmocka_unit_test(test_destructor_callback_order),
        cmocka_unit_test(test_destructor_parent_after_sub_buffer),
        cmocka_unit_test(test_destructor_frees_host_ptr),
        cmocka_unit_test(test_many_buffers),
        cmocka_unit_test(test_new_buffers_read_zero),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
