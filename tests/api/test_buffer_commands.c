/* tests/api/test_buffer_commands.c — clEnqueueRead/Write/Copy/FillBuffer, their Rect forms and
 * clEnqueueMigrateMemObjects through the ICD loader: contents checked against host references,
 * blocking and non-blocking semantics, sub-buffer offsets, overlap rules and every specified
 * error code. Mapping is in test_map.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "weft_test.h"

#include "buffer_test_env.h"

static void fill_seq(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 131u + seed * 7u + (i >> 8));
}

static cl_mem make_buffer(struct env *e, cl_mem_flags flags, size_t size, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, flags, size, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* ---- read / write -------------------------------------------------------------------------- */

static void test_write_read_round_trip(void **state)
{
    struct env *e = *state;
    enum { N = 1 << 20 };
    unsigned char *src = malloc(N), *dst = malloc(N);
    fill_seq(src, N, 1);
    memset(dst, 0, N);
    cl_mem m = make_buffer(e, 0, N, NULL);
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, m, CL_TRUE, 0, N, src, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, N, dst, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(src, dst, N);

    /* partial ranges at odd offsets */
    unsigned char patch[1000];
    fill_seq(patch, sizeof patch, 9);
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, m, CL_FALSE, 12345, sizeof patch, patch, 0, NULL, NULL), CL_SUCCESS);
    memcpy(src + 12345, patch, sizeof patch);
    unsigned char back[3001];
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 11000, sizeof back, back, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(back, src + 11000, sizeof back);
    /* the last byte, and a zero-sized read at the end */
    unsigned char last = 0;
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, N - 1, 1, &last, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(last, src[N - 1]);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, N, 0, &last, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(m);
    free(src);
    free(dst);
}

static void test_copy_host_ptr_and_use_host_ptr(void **state)
{
    struct env *e = *state;
    enum { N = 4096 };
    unsigned char host[N], out[N];
    fill_seq(host, N, 2);
    cl_mem copy = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, host);
    unsigned char orig[N];
    memcpy(orig, host, N);
    memset(host, 0xEE, N);   /* the copy was made at creation */
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, copy, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, orig, N);

    memcpy(host, orig, N);
    cl_mem use = make_buffer(e, CL_MEM_USE_HOST_PTR, N, host);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, use, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, orig, N);
    unsigned char v[16];
    memset(v, 0x5A, sizeof v);
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, use, CL_TRUE, 100, sizeof v, v, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(host + 100, v, sizeof v);   /* zero copy: the host memory is the storage */
    /* reading a USE_HOST_PTR buffer into its own host_ptr + offset is allowed */
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, use, CL_TRUE, 100, sizeof v, host + 100, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(host + 100, v, sizeof v);
    clReleaseMemObject(copy);
    clReleaseMemObject(use);
}

static void test_sub_buffer_offsets_applied(void **state)
{
    struct env *e = *state;
    cl_int err;
    size_t n = 8 * e->align;
    unsigned char *ref = calloc(1, n), *out = malloc(n);
    cl_mem parent = make_buffer(e, CL_MEM_COPY_HOST_PTR, n, ref);
    cl_buffer_region r = {3 * e->align, 2 * e->align};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    unsigned char data[64];
    fill_seq(data, sizeof data, 3);
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, sub, CL_TRUE, 10, sizeof data, data, 0, NULL, NULL), CL_SUCCESS);
    memcpy(ref + r.origin + 10, data, sizeof data);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, parent, CL_TRUE, 0, n, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, ref, n);
    /* the sub-buffer's range ends at its size */
    CHECK_ERR(clEnqueueReadBuffer(e->t.queue, sub, CL_TRUE, r.size - 4, 8, out, 0, NULL, NULL), CL_INVALID_VALUE,
              "read past a sub-buffer's end although inside the parent");
    clReleaseMemObject(sub);
    clReleaseMemObject(parent);
    free(ref);
    free(out);
}

static void CL_CALLBACK count_destroy(cl_mem m, void *user)
{
    (void)m;
    ++*(int *)user;
}

/* A non-blocking read gated by a user event: returns at once, fills the host memory only when
 * the command runs; the command holds the buffer after the application released it. */
static void test_non_blocking_read_completes_later(void **state)
{
    struct env *e = *state;
    cl_int err;
    unsigned char src[256], dst[256];
    fill_seq(src, sizeof src, 4);
    memset(dst, 0, sizeof dst);
    cl_mem m = make_buffer(e, CL_MEM_COPY_HOST_PTR, sizeof src, src);
    int destroyed = 0;
    assert_int_equal(clSetMemObjectDestructorCallback(m, count_destroy, &destroyed), CL_SUCCESS);
    cl_event gate = clCreateUserEvent(e->t.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event done = NULL;
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_FALSE, 0, sizeof dst, dst, 1, &gate, &done), CL_SUCCESS);
    assert_non_null(done);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);   /* the pending read holds it */
    cl_int status = 0;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_true(status > CL_COMPLETE);
    unsigned char zero[256] = {0};
    assert_memory_equal(dst, zero, sizeof dst);
    assert_int_equal(destroyed, 0);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_READ_BUFFER);

    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_memory_equal(dst, src, sizeof src);
    /* the command let go of the buffer before its event completed */
    assert_int_equal(destroyed, 1);
    clReleaseEvent(done);
    clReleaseEvent(gate);
}

/* A blocking command whose wait list holds a failed event reports it. */
static void test_blocking_with_failed_dependency(void **state)
{
    struct env *e = *state;
    cl_int err;
    unsigned char buf[16] = {0};
    cl_mem m = make_buffer(e, 0, sizeof buf, NULL);
    cl_event gate = clCreateUserEvent(e->t.context, &err);
    assert_int_equal(clSetUserEventStatus(gate, -1), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, sizeof buf, buf, 1, &gate, NULL),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "blocking read after a failed event");
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

static void test_read_write_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    unsigned char buf[64];
    cl_mem m = make_buffer(e, 0, sizeof buf, NULL);
    cl_mem other = clCreateBuffer(e->other, 0, sizeof buf, NULL, &err);
    /* a released buffer, kept in memory by its sub-buffer (the ICD loader reads a handle's
     * dispatch pointer before Weft sees the call) */
    cl_mem dead = make_buffer(e, 0, 4 * e->align, NULL);
    cl_mem keep = clCreateSubBuffer(dead, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseMemObject(dead);
    cl_command_queue q = e->t.queue;

    CHECK_ERR(clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueReadBuffer((cl_command_queue)m, m, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE,
              "buffer as queue");
    CHECK_ERR(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL buffer");
    CHECK_ERR(clEnqueueReadBuffer(q, dead, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "released buffer");
    CHECK_ERR(clEnqueueWriteBuffer(q, dead, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "released buffer");
    CHECK_ERR(clEnqueueReadBuffer(q, other, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_CONTEXT, "other context");
    CHECK_ERR(clEnqueueWriteBuffer(q, other, CL_TRUE, 0, 1, buf, 0, NULL, NULL), CL_INVALID_CONTEXT, "other context");
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof buf + 1, buf, 0, NULL, NULL), CL_INVALID_VALUE, "too long");
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, sizeof buf + 1, 0, buf, 0, NULL, NULL), CL_INVALID_VALUE, "offset past end");
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 8, SIZE_MAX - 4, buf, 0, NULL, NULL), CL_INVALID_VALUE,
              "offset + size wraps around");
    CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, SIZE_MAX, 2, buf, 0, NULL, NULL), CL_INVALID_VALUE, "huge offset");
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1, NULL, 0, NULL, NULL), CL_INVALID_VALUE, "NULL ptr");
    CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 1, NULL, 0, NULL, NULL), CL_INVALID_VALUE, "NULL ptr");
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1, buf, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST,
              "NULL wait list with a count");
    cl_event ev = NULL;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &ev), CL_SUCCESS);
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1, buf, 0, &ev, NULL), CL_INVALID_EVENT_WAIT_LIST,
              "wait list with a zero count");
    cl_event bad = (cl_event)m;
    CHECK_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 1, buf, 1, &bad, NULL), CL_INVALID_EVENT_WAIT_LIST,
              "a buffer in the wait list");
    cl_event other_ev = clCreateUserEvent(e->other, &err);
    CHECK_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 1, buf, 1, &other_ev, NULL), CL_INVALID_CONTEXT,
              "event of another context");
    clSetUserEventStatus(other_ev, CL_COMPLETE);
    clReleaseEvent(other_ev);
    clReleaseEvent(ev);
    /* the queue is checked before the buffer, the buffer before the range */
    CHECK_ERR(clEnqueueReadBuffer(NULL, NULL, CL_TRUE, 0, 1, NULL, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "order");
    CHECK_ERR(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 1000, NULL, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "order");
    clReleaseMemObject(keep);
    clReleaseMemObject(m);
    clReleaseMemObject(other);
}

static void test_host_access_flags(void **state)
{
    struct env *e = *state;
    unsigned char buf[32] = {0};
    static const struct {
        const char *name;
        cl_mem_flags flags;
        cl_int read, write;
    } cases[] = {
        {"default", 0, CL_SUCCESS, CL_SUCCESS},
        {"HOST_WRITE_ONLY", CL_MEM_HOST_WRITE_ONLY, CL_INVALID_OPERATION, CL_SUCCESS},
        {"HOST_READ_ONLY", CL_MEM_HOST_READ_ONLY, CL_SUCCESS, CL_INVALID_OPERATION},
        {"HOST_NO_ACCESS", CL_MEM_HOST_NO_ACCESS, CL_INVALID_OPERATION, CL_INVALID_OPERATION},
    };
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 2, 1};
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        cl_mem m = make_buffer(e, cases[i].flags, sizeof buf, NULL);
        CHECK_ERR(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, 4, buf, 0, NULL, NULL), cases[i].read,
                  "read, case '%s'", cases[i].name);
        CHECK_ERR(clEnqueueWriteBuffer(e->t.queue, m, CL_TRUE, 0, 4, buf, 0, NULL, NULL), cases[i].write,
                  "write, case '%s'", cases[i].name);
        CHECK_ERR(clEnqueueReadBufferRect(e->t.queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0, buf, 0, NULL, NULL),
                  cases[i].read, "read rect, case '%s'", cases[i].name);
        CHECK_ERR(clEnqueueWriteBufferRect(e->t.queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0, buf, 0, NULL, NULL),
                  cases[i].write, "write rect, case '%s'", cases[i].name);
        /* copy and fill are device-side: allowed whatever the host access */
        unsigned char zero = 0;
        CHECK_ERR(clEnqueueFillBuffer(e->t.queue, m, &zero, 1, 0, sizeof buf, 0, NULL, NULL), CL_SUCCESS,
                  "fill, case '%s'", cases[i].name);
        CHECK_ERR(clEnqueueCopyBuffer(e->t.queue, m, m, 0, 16, 16, 0, NULL, NULL), CL_SUCCESS,
                  "copy, case '%s'", cases[i].name);
        /* a sub-buffer inherits the restriction */
        cl_int err;
        cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, 16}, &err);
        assert_int_equal(err, CL_SUCCESS);
        CHECK_ERR(clEnqueueReadBuffer(e->t.queue, sub, CL_TRUE, 0, 4, buf, 0, NULL, NULL), cases[i].read,
                  "read of sub-buffer, case '%s'", cases[i].name);
        clReleaseMemObject(sub);
        clReleaseMemObject(m);
    }
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
}

/* ---- copy ---------------------------------------------------------------------------------- */

static void test_copy_buffer(void **state)
{
    struct env *e = *state;
    enum { N = 100000 };
    unsigned char *a = malloc(N), *b = malloc(N), *out = malloc(N);
    fill_seq(a, N, 5);
    fill_seq(b, N, 6);
    cl_mem ma = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, a);
    cl_mem mb = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, b);
    cl_event ev = NULL;
    assert_int_equal(clEnqueueCopyBuffer(e->t.queue, ma, mb, 1000, 3, 50000, 0, NULL, &ev), CL_SUCCESS);
    memcpy(b + 3, a + 1000, 50000);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_COPY_BUFFER);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, mb, CL_TRUE, 0, N, out, 1, &ev, NULL), CL_SUCCESS);
    assert_memory_equal(out, b, N);
    clReleaseEvent(ev);

    /* within one buffer, non-overlapping (adjacent) ranges */
    assert_int_equal(clEnqueueCopyBuffer(e->t.queue, ma, ma, 0, 500, 500, 0, NULL, NULL), CL_SUCCESS);
    memcpy(a + 500, a, 500);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, ma, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, a, N);
    /* size 0 is a valid empty copy */
    assert_int_equal(clEnqueueCopyBuffer(e->t.queue, ma, mb, N, N, 0, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    free(a);
    free(b);
    free(out);
}

static void test_copy_buffer_errors_and_overlap(void **state)
{
    struct env *e = *state;
    cl_int err;
    size_t n = 8 * e->align;
    cl_mem m = make_buffer(e, 0, n, NULL);
    cl_mem m2 = make_buffer(e, 0, n, NULL);
    cl_mem other = clCreateBuffer(e->other, 0, n, NULL, &err);
    cl_command_queue q = e->t.queue;
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 0, 10, 11, 0, NULL, NULL), CL_MEM_COPY_OVERLAP, "overlap forwards");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 10, 0, 11, 0, NULL, NULL), CL_MEM_COPY_OVERLAP, "overlap backwards");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 5, 5, 1, 0, NULL, NULL), CL_MEM_COPY_OVERLAP, "same range");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m, 0, 10, 10, 0, NULL, NULL), CL_SUCCESS, "adjacent");
    /* sub-buffers of one parent overlapping in the parent's storage */
    cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, 4 * e->align}, &err);
    cl_mem s2 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){2 * e->align, 4 * e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    CHECK_ERR(clEnqueueCopyBuffer(q, s1, s2, 2 * e->align, 0, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "sub-buffers meeting in the parent");
    CHECK_ERR(clEnqueueCopyBuffer(q, s1, s2, 0, 0, 8, 0, NULL, NULL), CL_SUCCESS, "sub-buffers apart");
    CHECK_ERR(clEnqueueCopyBuffer(q, s2, m, 0, 2 * e->align + 4, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "sub-buffer and its parent");
    CHECK_ERR(clEnqueueCopyBuffer(q, s2, m, 0, 0, 8, 0, NULL, NULL), CL_SUCCESS, "sub-buffer and its parent apart");
    /* other errors */
    CHECK_ERR(clEnqueueCopyBuffer(NULL, m, m2, 0, 0, 1, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueCopyBuffer(q, NULL, m2, 0, 0, 1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL src");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, NULL, 0, 0, 1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL dst");
    CHECK_ERR(clEnqueueCopyBuffer(q, other, m2, 0, 0, 1, 0, NULL, NULL), CL_INVALID_CONTEXT, "src of another context");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, other, 0, 0, 1, 0, NULL, NULL), CL_INVALID_CONTEXT, "dst of another context");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, n - 1, 0, 2, 0, NULL, NULL), CL_INVALID_VALUE, "src out of bounds");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, 0, n - 1, 2, 0, NULL, NULL), CL_INVALID_VALUE, "dst out of bounds");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, 1, 1, SIZE_MAX, 0, NULL, NULL), CL_INVALID_VALUE, "size wraps");
    CHECK_ERR(clEnqueueCopyBuffer(q, m, m2, 0, 0, 1, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "wait list");
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseMemObject(s1);
    clReleaseMemObject(s2);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    clReleaseMemObject(other);
}

/* ---- fill ---------------------------------------------------------------------------------- */

static void test_fill_every_pattern_size(void **state)
{
    struct env *e = *state;
    enum { N = 3 * 4096 + 512 };
    unsigned char *ref = malloc(N), *out = malloc(N);
    cl_mem m = make_buffer(e, 0, N, NULL);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        memset(ref, 0xC3, N);
        assert_int_equal(clEnqueueFillBuffer(e->t.queue, m, ref, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
        unsigned char pattern[128];
        fill_seq(pattern, ps, (unsigned)ps);
        /* an offset of a few patterns and a size that leaves a partial 4 KiB block */
        size_t offset = 3 * ps, size = ps * ((N - 2 * offset) / ps);
        for (size_t i = 0; i < size; i++)
            ref[offset + i] = pattern[i % ps];
        assert_int_equal(clEnqueueFillBuffer(e->t.queue, m, pattern, ps, offset, size, 0, NULL, NULL), CL_SUCCESS);
        memset(pattern, 0, sizeof pattern);   /* the pattern was copied at enqueue */
        assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
        if (memcmp(out, ref, N) != 0)
            fail_msg("fill with pattern size %zu gave wrong contents", ps);
    }
    /* size 0 fills nothing */
    unsigned char p4[4] = {1, 2, 3, 4};
    assert_int_equal(clEnqueueFillBuffer(e->t.queue, m, p4, 4, 0, 0, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(m);
    free(ref);
    free(out);
}

static void test_fill_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    unsigned char p[256] = {0};
    cl_mem m = make_buffer(e, 0, 1024, NULL);
    cl_mem other = clCreateBuffer(e->other, 0, 1024, NULL, &err);
    cl_command_queue q = e->t.queue;
    static const struct {
        const char *name;
        size_t ps, offset, size;
    } bad[] = {
        {"pattern size 0", 0, 0, 16},
        {"pattern size 3", 3, 0, 12},
        {"pattern size 256", 256, 0, 256},
        {"pattern size 12", 12, 0, 24},
        {"offset not a multiple", 4, 2, 16},
        {"size not a multiple", 4, 0, 6},
        {"out of bounds", 4, 1020, 8},
        {"size wraps", 1, 8, SIZE_MAX},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        CHECK_ERR(clEnqueueFillBuffer(q, m, p, bad[i].ps, bad[i].offset, bad[i].size, 0, NULL, NULL),
                  CL_INVALID_VALUE, "case '%s'", bad[i].name);
    CHECK_ERR(clEnqueueFillBuffer(q, m, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE, "NULL pattern");
    CHECK_ERR(clEnqueueFillBuffer(NULL, m, p, 4, 0, 16, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueFillBuffer(q, NULL, p, 4, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL buffer");
    CHECK_ERR(clEnqueueFillBuffer(q, other, p, 4, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT, "other context");
    CHECK_ERR(clEnqueueFillBuffer(q, m, p, 4, 0, 16, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "wait list");
    clReleaseMemObject(m);
    clReleaseMemObject(other);
}

/* ---- rect ---------------------------------------------------------------------------------- */

/* Host reference for a rect copy between two linear memories. */
static void ref_rect(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice,
                     const unsigned char *src, const size_t sorg[3], size_t srow, size_t sslice,
                     const size_t region[3])
{
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                dst[(dorg[2] + z) * dslice + (dorg[1] + y) * drow + dorg[0] + x] =
                    src[(sorg[2] + z) * sslice + (sorg[1] + y) * srow + sorg[0] + x];
}

static void test_rect_read_write(void **state)
{
    struct env *e = *state;
    enum { N = 64 * 32 * 8 };
    unsigned char *dev = malloc(N), *host = malloc(N), *out = malloc(N);
    fill_seq(dev, N, 11);
    cl_mem m = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, dev);
    static const struct {
        size_t borg[3], horg[3], region[3];
        size_t brow, bslice, hrow, hslice;
    } cases[] = {
        {{3, 2, 1}, {1, 1, 0}, {10, 5, 3}, 64, 64 * 32, 16, 16 * 8},
        {{0, 0, 0}, {0, 0, 0}, {64, 32, 8}, 64, 64 * 32, 64, 64 * 32},
        {{5, 7, 0}, {2, 0, 0}, {20, 9, 1}, 48, 0, 0, 0},      /* default host pitches: tightly packed */
        {{1, 0, 2}, {0, 3, 1}, {7, 3, 2}, 0, 0, 30, 300},     /* default buffer pitches */
        {{40, 1, 1}, {0, 0, 0}, {1, 1, 1}, 64, 64 * 32, 0, 0},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        size_t brow = cases[c].brow ? cases[c].brow : cases[c].region[0];
        size_t bslice = cases[c].bslice ? cases[c].bslice : cases[c].region[1] * brow;
        size_t hrow = cases[c].hrow ? cases[c].hrow : cases[c].region[0];
        size_t hslice = cases[c].hslice ? cases[c].hslice : cases[c].region[1] * hrow;
        /* read: buffer -> host */
        memset(host, 0x77, N);
        memset(out, 0x77, N);
        ref_rect(out, cases[c].horg, hrow, hslice, dev, cases[c].borg, brow, bslice, cases[c].region);
        CHECK_ERR(clEnqueueReadBufferRect(e->t.queue, m, CL_TRUE, cases[c].borg, cases[c].horg, cases[c].region,
                                          cases[c].brow, cases[c].bslice, cases[c].hrow, cases[c].hslice, host,
                                          0, NULL, NULL),
                  CL_SUCCESS, "read rect case %zu", c);
        if (memcmp(host, out, N) != 0)
            fail_msg("read rect case %zu: contents differ from the host reference", c);
        /* write: host -> buffer */
        fill_seq(host, N, (unsigned)(20 + c));
        ref_rect(dev, cases[c].borg, brow, bslice, host, cases[c].horg, hrow, hslice, cases[c].region);
        CHECK_ERR(clEnqueueWriteBufferRect(e->t.queue, m, CL_TRUE, cases[c].borg, cases[c].horg, cases[c].region,
                                           cases[c].brow, cases[c].bslice, cases[c].hrow, cases[c].hslice, host,
                                           0, NULL, NULL),
                  CL_SUCCESS, "write rect case %zu", c);
        assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
        if (memcmp(dev, out, N) != 0)
            fail_msg("write rect case %zu: contents differ from the host reference", c);
    }
    clReleaseMemObject(m);
    free(dev);
    free(host);
    free(out);
}

static void test_rect_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    enum { N = 1024 };
    unsigned char host[N];
    cl_mem m = make_buffer(e, 0, N, NULL);
    cl_mem other = clCreateBuffer(e->other, 0, N, NULL, &err);
    cl_command_queue q = e->t.queue;
    size_t o[3] = {0, 0, 0};
    static const struct {
        const char *name;
        size_t borg[3], region[3];
        size_t brow, bslice, hrow, hslice;
    } bad[] = {
        {"region[0] zero", {0, 0, 0}, {0, 1, 1}, 0, 0, 0, 0},
        {"region[1] zero", {0, 0, 0}, {1, 0, 1}, 0, 0, 0, 0},
        {"region[2] zero", {0, 0, 0}, {1, 1, 0}, 0, 0, 0, 0},
        {"buffer row pitch < region[0]", {0, 0, 0}, {16, 2, 1}, 15, 0, 0, 0},
        {"buffer slice pitch < region[1]*row", {0, 0, 0}, {16, 2, 2}, 16, 31, 0, 0},
        {"buffer slice pitch not a multiple of row", {0, 0, 0}, {16, 2, 2}, 16, 40, 0, 0},
        {"host row pitch < region[0]", {0, 0, 0}, {16, 2, 1}, 0, 0, 8, 0},
        {"host slice pitch < region[1]*row", {0, 0, 0}, {16, 2, 2}, 0, 0, 16, 16},
        {"host slice pitch not a multiple of row", {0, 0, 0}, {16, 2, 2}, 0, 0, 16, 33},
        {"out of bounds in x", {1, 0, 0}, {1024, 1, 1}, 0, 0, 0, 0},
        {"out of bounds in y", {0, 4, 0}, {16, 61, 1}, 16, 0, 0, 0},
        {"out of bounds in z", {0, 0, 1}, {16, 4, 16}, 16, 64, 0, 0},
        {"origin overflows", {0, SIZE_MAX / 2, 0}, {1, 1, 1}, 16, 0, 0, 0},
        {"region overflows", {0, 0, 0}, {1, SIZE_MAX / 2, 3}, 16, 0, 0, 0},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, bad[i].borg, o, bad[i].region, bad[i].brow, bad[i].bslice,
                                          bad[i].hrow, bad[i].hslice, host, 0, NULL, NULL),
                  CL_INVALID_VALUE, "read rect: %s", bad[i].name);
        CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, bad[i].borg, o, bad[i].region, bad[i].brow, bad[i].bslice,
                                           bad[i].hrow, bad[i].hslice, host, 0, NULL, NULL),
                  CL_INVALID_VALUE, "write rect: %s", bad[i].name);
    }
    size_t r[3] = {4, 4, 1};
    CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, NULL, o, r, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE,
              "NULL buffer_origin");
    CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, NULL, r, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE,
              "NULL host_origin");
    CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, NULL, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE,
              "NULL region");
    CHECK_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, r, 0, 0, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE,
              "NULL ptr");
    CHECK_ERR(clEnqueueReadBufferRect(NULL, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueReadBufferRect(q, NULL, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_MEM_OBJECT, "NULL buffer");
    CHECK_ERR(clEnqueueWriteBufferRect(q, other, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 0, NULL, NULL),
              CL_INVALID_CONTEXT, "other context");
    CHECK_ERR(clEnqueueWriteBufferRect(q, m, CL_TRUE, o, o, r, 0, 0, 0, 0, host, 1, NULL, NULL),
              CL_INVALID_EVENT_WAIT_LIST, "wait list");
    clReleaseMemObject(m);
    clReleaseMemObject(other);
}

static void test_copy_rect(void **state)
{
    struct env *e = *state;
    enum { N = 40 * 20 * 6 };
    unsigned char *a = malloc(N), *b = malloc(N), *out = malloc(N);
    fill_seq(a, N, 30);
    fill_seq(b, N, 31);
    cl_mem ma = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, a);
    cl_mem mb = make_buffer(e, CL_MEM_COPY_HOST_PTR, N, b);
    /* between buffers with different pitches */
    size_t so[3] = {2, 3, 1}, dof[3] = {5, 0, 2}, region[3] = {9, 6, 3};
    assert_int_equal(clEnqueueCopyBufferRect(e->t.queue, ma, mb, so, dof, region, 40, 800, 24, 24 * 10, 0, NULL, NULL),
                     CL_SUCCESS);
    ref_rect(b, dof, 24, 240, a, so, 40, 800, region);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, mb, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, b, N);
    /* default pitches */
    size_t z[3] = {0, 0, 0}, r2[3] = {7, 5, 2};
    assert_int_equal(clEnqueueCopyBufferRect(e->t.queue, ma, mb, so, z, r2, 0, 0, 0, 0, 0, NULL, NULL), CL_SUCCESS);
    ref_rect(b, z, 7, 35, a, so, 7, 35, r2);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, mb, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, b, N);
    /* within one buffer: side by side in the same rows does not overlap */
    size_t left[3] = {0, 0, 0}, right[3] = {20, 0, 0}, r3[3] = {20, 20, 6};
    assert_int_equal(clEnqueueCopyBufferRect(e->t.queue, ma, ma, left, right, r3, 40, 800, 40, 800, 0, NULL, NULL),
                     CL_SUCCESS);
    ref_rect(a, right, 40, 800, a, left, 40, 800, r3);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, ma, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, a, N);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    free(a);
    free(b);
    free(out);
}

static void test_copy_rect_errors_and_overlap(void **state)
{
    struct env *e = *state;
    cl_int err;
    size_t n = 16 * e->align + 4096, sub_size = 1024 + e->align;
    cl_mem m = make_buffer(e, 0, n, NULL);
    cl_mem m2 = make_buffer(e, 0, n, NULL);
    cl_mem other = clCreateBuffer(e->other, 0, n, NULL, &err);
    cl_command_queue q = e->t.queue;
    size_t z[3] = {0, 0, 0};
    /* same buffer, rows 0..9 of 16 bytes copied 5 rows down: overlapping */
    size_t r[3] = {16, 10, 1}, down[3] = {0, 5, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, down, r, 32, 0, 32, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "rows shifted down");
    /* same rows, columns interleaved in the gaps: no overlap */
    size_t side[3] = {16, 0, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, side, r, 32, 0, 32, 0, 0, NULL, NULL), CL_SUCCESS, "side by side");
    size_t side_overlap[3] = {15, 0, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, side_overlap, r, 32, 0, 32, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "one column overlapping");
    /* 3D: slices interleaved (slice pitch 2x the region's slice) do not overlap */
    size_t r3[3] = {8, 4, 3}, next_slice[3] = {0, 4, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, next_slice, r3, 8, 64, 8, 64, 0, NULL, NULL), CL_SUCCESS,
              "slices interleaved");
    size_t into_slice[3] = {0, 3, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, into_slice, r3, 8, 64, 8, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "slices overlapping by a row");
    /* same buffer with different pitches */
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, side, r, 32, 0, 48, 0, 0, NULL, NULL), CL_INVALID_VALUE,
              "same buffer, different row pitches");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m, z, side, r3, 32, 128, 32, 160, 0, NULL, NULL), CL_INVALID_VALUE,
              "same buffer, different slice pitches");
    /* sub-buffers of one parent with different pitches */
    cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, sub_size}, &err);
    cl_mem s2 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){e->align, sub_size}, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t rs[3] = {4, 4, 1};
    /* s1 rows at 0, 64, 128, 192 (4 bytes each); s2 rows at align + {0, 16, 32, 48}: whether
     * they meet depends on the device's alignment, so the expectation is computed row by row */
    size_t row_hit = 0;
    for (size_t k = 0; k < 4; k++)
        for (size_t y = 0; y < 4; y++) {
            size_t a = y * 64, b = e->align + k * 16;
            if (a < b + 4 && b < a + 4)
                row_hit = 1;
        }
    CHECK_ERR(clEnqueueCopyBufferRect(q, s1, s2, z, z, rs, 64, 0, 16, 0, 0, NULL, NULL),
              row_hit ? CL_MEM_COPY_OVERLAP : CL_SUCCESS, "sub-buffers with different pitches");
    size_t s1_at_s2[3] = {0, 0, 0};
    size_t rbig[3] = {e->align + 1, 1, 1};
    CHECK_ERR(clEnqueueCopyBufferRect(q, s1, s2, s1_at_s2, z, rbig, 0, 0, 0, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP,
              "sub-buffers overlapping by one byte");
    /* errors */
    CHECK_ERR(clEnqueueCopyBufferRect(NULL, m, m2, z, z, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "queue");
    CHECK_ERR(clEnqueueCopyBufferRect(q, NULL, m2, z, z, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "src");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, NULL, z, z, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "dst");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, other, z, z, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_CONTEXT, "context");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, NULL, z, r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE, "NULL origin");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, z, NULL, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE, "NULL region");
    size_t zero_r[3] = {4, 0, 1};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, z, zero_r, 0, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE, "zero region");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, z, r, 8, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE, "src row pitch");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, z, r, 0, 0, 0, 100, 0, NULL, NULL), CL_INVALID_VALUE,
              "dst slice pitch");
    size_t far[3] = {0, n / 16, 0};
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, far, z, r, 16, 0, 0, 0, 0, NULL, NULL), CL_INVALID_VALUE, "src bounds");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, far, r, 0, 0, 16, 0, 0, NULL, NULL), CL_INVALID_VALUE, "dst bounds");
    CHECK_ERR(clEnqueueCopyBufferRect(q, m, m2, z, z, r, 0, 0, 0, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "wait");
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseMemObject(s1);
    clReleaseMemObject(s2);
    clReleaseMemObject(m);
    clReleaseMemObject(m2);
    clReleaseMemObject(other);
}

/* Transfers large enough to be split over the worker pool (8 MiB and more, in 1 MiB pieces),
 * with sizes and offsets that are not multiples of a piece. */
static void test_large_transfers(void **state)
{
    struct env *e = *state;
    const size_t n = (24u << 20) + 4096 + 24;
    unsigned char *src = malloc(n), *out = malloc(n), *ref = malloc(n);
    assert_non_null(src);
    assert_non_null(out);
    assert_non_null(ref);
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    cl_mem a = make_buffer(e, 0, n, NULL), b = make_buffer(e, 0, n, NULL);
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, a, CL_TRUE, 0, n, src, 0, NULL, NULL), CL_SUCCESS);
    memset(out, 0, n);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, a, CL_TRUE, 0, n, out, 0, NULL, NULL), CL_SUCCESS);
    if (memcmp(out, src, n) != 0)
        fail_msg("large write + read differ");
    /* fill b with a 16-byte pattern, then copy an odd-sized, odd-offset range of a over it */
    unsigned char pat[16];
    fill_seq(pat, sizeof pat, 77);
    assert_int_equal(clEnqueueFillBuffer(e->t.queue, b, pat, 16, 0, n - n % 16, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueFillBuffer(e->t.queue, b, pat + 1, 1, n - n % 16, n % 16, 0, NULL, NULL), CL_SUCCESS);
    for (size_t i = 0; i < n - n % 16; i++)
        ref[i] = pat[i % 16];
    memset(ref + (n - n % 16), pat[1], n % 16);
    size_t so = 12345, dof = 777, cs = n - 20000;
    assert_int_equal(clEnqueueCopyBuffer(e->t.queue, a, b, so, dof, cs, 0, NULL, NULL), CL_SUCCESS);
    memcpy(ref + dof, src + so, cs);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, b, CL_TRUE, 0, n, out, 0, NULL, NULL), CL_SUCCESS);
    if (memcmp(out, ref, n) != 0)
        fail_msg("large fill + copy differ from the host reference");
    /* a large partial read at an odd offset */
    memset(out, 0, n);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, b, CL_TRUE, 3, n - 10, out, 0, NULL, NULL), CL_SUCCESS);
    if (memcmp(out, ref + 3, n - 10) != 0)
        fail_msg("large partial read differs");
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(src);
    free(out);
    free(ref);
}

/* ---- migrate ------------------------------------------------------------------------------- */

static void test_migrate(void **state)
{
    struct env *e = *state;
    cl_int err;
    unsigned char data[128], out[128];
    fill_seq(data, sizeof data, 40);
    cl_mem ms[2] = {make_buffer(e, CL_MEM_COPY_HOST_PTR, sizeof data, data), make_buffer(e, 0, 64, NULL)};
    cl_event ev = NULL;
    assert_int_equal(clEnqueueMigrateMemObjects(e->t.queue, 2, ms, 0, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MIGRATE_MEM_OBJECTS);
    clReleaseEvent(ev);
    assert_int_equal(clEnqueueMigrateMemObjects(e->t.queue, 1, ms, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL), CL_SUCCESS);
    /* contents survive a migration to the host */
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, ms[0], CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, data, sizeof data);
    assert_int_equal(clEnqueueMigrateMemObjects(e->t.queue, 2, ms,
                                                CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                                0, NULL, NULL), CL_SUCCESS);

    CHECK_ERR(clEnqueueMigrateMemObjects(NULL, 1, ms, 0, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 0, ms, 0, 0, NULL, NULL), CL_INVALID_VALUE, "zero objects");
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE, "NULL list");
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 1, ms, 4, 0, NULL, NULL), CL_INVALID_VALUE, "unknown flag");
    cl_mem with_null[2] = {ms[0], NULL};
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 2, with_null, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT,
              "NULL in the list");
    cl_mem foreign = clCreateBuffer(e->other, 0, 64, NULL, &err);
    cl_mem mixed[2] = {ms[0], foreign};
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 2, mixed, 0, 0, NULL, NULL), CL_INVALID_CONTEXT,
              "object of another context");
    CHECK_ERR(clEnqueueMigrateMemObjects(e->t.queue, 1, ms, 0, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "wait list");
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(foreign);
    clReleaseMemObject(ms[0]);
    clReleaseMemObject(ms[1]);
}

/* Commands on an out-of-order queue ordered only by events still see each other's results. */
static void test_event_chain_out_of_order(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(
        e->t.context, e->t.device,
        (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0}, &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { N = 4096 };
    unsigned char src[N], out[N];
    fill_seq(src, N, 50);
    cl_mem a = make_buffer(e, 0, N, NULL), b = make_buffer(e, 0, N, NULL);
    cl_event w, c;
    assert_int_equal(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, N, src, 0, NULL, &w), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(q, a, b, 0, 0, N, 1, &w, &c), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 1, &c, NULL), CL_SUCCESS);
    assert_memory_equal(out, src, N);
    clReleaseEvent(w);
    clReleaseEvent(c);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_read_round_trip),
        cmocka_unit_test(test_copy_host_ptr_and_use_host_ptr),
        cmocka_unit_test(test_sub_buffer_offsets_applied),
        cmocka_unit_test(test_non_blocking_read_completes_later),
        cmocka_unit_test(test_blocking_with_failed_dependency),
        cmocka_unit_test(test_read_write_errors),
        cmocka_unit_test(test_host_access_flags),
        cmocka_unit_test(test_copy_buffer),
        cmocka_unit_test(test_copy_buffer_errors_and_overlap),
        cmocka_unit_test(test_fill_every_pattern_size),
        cmocka_unit_test(test_fill_errors),
        cmocka_unit_test(test_rect_read_write),
        cmocka_unit_test(test_rect_errors),
        cmocka_unit_test(test_copy_rect),
        cmocka_unit_test(test_copy_rect_errors_and_overlap),
        cmocka_unit_test(test_large_transfers),
        cmocka_unit_test(test_migrate),
        cmocka_unit_test(test_event_chain_out_of_order),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
