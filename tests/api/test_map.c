/* tests/api/test_map.c — clEnqueueMapBuffer and clEnqueueUnmapMemObject through the ICD
 * loader: zero-copy pointers (host_ptr + offset for USE_HOST_PTR), contents seen through maps,
 * the map count, mapping twice, overlapping maps for writing, host-access rules, sub-buffers
 * and every specified error code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>

#include <cmocka.h>

#include "weft_test.h"

#include "buffer_test_env.h"

static cl_uint map_count(cl_mem m)
{
    cl_uint n = 12345;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

static void fill_seq(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 37u + seed);
}

static void test_map_read_write_round_trip(void **state)
{
    struct env *e = *state;
    cl_int err;
    enum { N = 8192 };
    unsigned char data[N], out[N];
    fill_seq(data, N, 1);
    cl_mem m = clCreateBuffer(e->t.context, CL_MEM_COPY_HOST_PTR, N, data, &err);
    assert_int_equal(err, CL_SUCCESS);

    unsigned char *p = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_READ, 100, 1000, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(p);
    assert_memory_equal(p, data + 100, 1000);
    assert_int_equal(map_count(m), 1);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(map_count(m), 0);

    /* write through a map, read back with a read command */
    cl_event ev = NULL;
    p = clEnqueueMapBuffer(e->t.queue, m, CL_FALSE, CL_MAP_WRITE, 4096, 4096, 0, NULL, &ev, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    cl_command_type type = 0;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MAP_BUFFER);
    clReleaseEvent(ev);
    for (size_t i = 0; i < 4096; i++)
        p[i] = (unsigned char)~data[4096 + i];
    for (size_t i = 0; i < 4096; i++)
        data[4096 + i] = (unsigned char)~data[4096 + i];
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, &ev), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(ev);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, data, N);

    /* WRITE_INVALIDATE_REGION maps are writable too */
    p = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(p, 0xAB, 16);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, m, CL_TRUE, 0, 16, out, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 16; i++)
        assert_int_equal(out[i], 0xAB);
    clReleaseMemObject(m);
}

static void test_map_use_host_ptr_is_zero_copy(void **state)
{
    struct env *e = *state;
    cl_int err;
    static unsigned char host[4096];
    cl_mem m = clCreateBuffer(e->t.context, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    void *p = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 64, 128, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_ptr_equal(p, host + 64);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
    /* a sub-buffer of it maps to host_ptr + origin + offset */
    cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){e->align, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    p = clEnqueueMapBuffer(e->t.queue, sub, CL_TRUE, CL_MAP_READ, 8, 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_ptr_equal(p, host + e->align + 8);
    assert_int_equal(map_count(sub), 1);
    assert_int_equal(map_count(m), 0);
    /* the pointer belongs to the sub-buffer, not to its parent */
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_INVALID_VALUE,
              "unmap of a sub-buffer's pointer through the parent");
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, sub, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(sub);
    clReleaseMemObject(m);
}

static void test_map_twice_and_unmap_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, 0, 1024, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    /* mapping the same region twice for reading gives two live mappings */
    void *p1 = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_READ, 0, 512, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    void *p2 = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_READ, 0, 512, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(map_count(m), 2);
    /* a write mapping may overlap read mappings... */
    void *pw = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 256, 512, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(map_count(m), 3);
    /* ...but not another write mapping */
    void *bad = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 700, 10, 0, NULL, NULL, &err);
    assert_null(bad);
    CHECK_ERR(err, CL_INVALID_OPERATION, "overlapping write mappings");
    bad = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 200, 100, 0, NULL, NULL, &err);
    assert_null(bad);
    CHECK_ERR(err, CL_INVALID_OPERATION, "overlapping write-invalidate mapping");
    assert_int_equal(map_count(m), 3);
    /* a disjoint write mapping is fine */
    void *pw2 = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 768, 256, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);

    int not_mapped;
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, &not_mapped, 0, NULL, NULL), CL_INVALID_VALUE,
              "unmap of a pointer that was never mapped");
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, NULL, 0, NULL, NULL), CL_INVALID_VALUE, "unmap of NULL");
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, (char *)p1 + 1, 0, NULL, NULL), CL_INVALID_VALUE,
              "unmap of a pointer inside a mapping");
    CHECK_ERR(clEnqueueUnmapMemObject(NULL, m, p1, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, NULL, p1, 0, NULL, NULL), CL_INVALID_MEM_OBJECT, "NULL memobj");
    CHECK_ERR(clEnqueueUnmapMemObject(e->other_q, m, p1, 0, NULL, NULL), CL_INVALID_CONTEXT,
              "queue of another context");
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, p1, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST, "wait list");
    assert_int_equal(map_count(m), 4);     /* failed unmaps change nothing */

    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p1, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p2, 0, NULL, NULL), CL_SUCCESS);
    /* both mappings had the same pointer: a third unmap of it is one too many */
    CHECK_ERR(clEnqueueUnmapMemObject(e->t.queue, m, p1, 0, NULL, NULL), CL_INVALID_VALUE, "unmap once too often");
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, pw, 0, NULL, NULL), CL_SUCCESS);
    /* with the first write mapping gone, its region can be mapped for writing again */
    void *pw3 = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 700, 10, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, pw3, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, pw2, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(map_count(m), 0);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(m);
}

static void test_write_maps_across_sub_buffers(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, 0, 8 * e->align, NULL, &err);
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){2 * e->align, 2 * e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    void *ps = clEnqueueMapBuffer(e->t.queue, s, CL_TRUE, CL_MAP_WRITE, 0, e->align, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    void *bad = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 2 * e->align + 1, 1, 0, NULL, NULL, &err);
    assert_null(bad);
    CHECK_ERR(err, CL_INVALID_OPERATION, "parent write map overlapping a sub-buffer's write map");
    void *ok = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, 0, 2 * e->align, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, ok, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, s, ps, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseMemObject(s);
    clReleaseMemObject(m);
}

static void test_map_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, 0, 1024, NULL, &err);
    cl_mem other = clCreateBuffer(e->other, 0, 1024, NULL, &err);
    /* a released buffer, kept in memory by its sub-buffer (see test_buffer.c) */
    cl_mem dead = clCreateBuffer(e->t.context, 0, 4 * e->align, NULL, &err);
    cl_mem keep = clCreateSubBuffer(dead, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseMemObject(dead);
    cl_command_queue q = e->t.queue;
    static const struct {
        const char *name;
        cl_map_flags flags;
        size_t offset, size;
        cl_int want;
    } cases[] = {
        {"size 0", CL_MAP_READ, 0, 0, CL_INVALID_VALUE},
        {"past the end", CL_MAP_READ, 1000, 25, CL_INVALID_VALUE},
        {"offset past the end", CL_MAP_READ, 1025, 1, CL_INVALID_VALUE},
        {"size wraps", CL_MAP_READ, 8, SIZE_MAX, CL_INVALID_VALUE},
        {"unknown flag", CL_MAP_READ | 8, 0, 16, CL_INVALID_VALUE},
        {"WRITE_INVALIDATE with READ", CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ, 0, 16, CL_INVALID_VALUE},
        {"WRITE_INVALIDATE with WRITE", CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_WRITE, 0, 16, CL_INVALID_VALUE},
        {"whole buffer", CL_MAP_READ, 0, 1024, CL_SUCCESS},
        {"last byte", CL_MAP_READ | CL_MAP_WRITE, 1023, 1, CL_SUCCESS},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        err = 12345;
        void *p = clEnqueueMapBuffer(q, m, CL_TRUE, cases[i].flags, cases[i].offset, cases[i].size, 0, NULL, NULL, &err);
        CHECK_ERR(err, cases[i].want, "case '%s'", cases[i].name);
        if (cases[i].want == CL_SUCCESS)
            assert_int_equal(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
        else
            assert_null(p);
    }
    void *p = clEnqueueMapBuffer(NULL, m, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    assert_null(p);
    CHECK_ERR(err, CL_INVALID_COMMAND_QUEUE, "NULL queue");
    p = clEnqueueMapBuffer(q, NULL, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "NULL buffer");
    p = clEnqueueMapBuffer(q, dead, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_INVALID_MEM_OBJECT, "released buffer");
    p = clEnqueueMapBuffer(q, other, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    CHECK_ERR(err, CL_INVALID_CONTEXT, "buffer of another context");
    p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 16, 1, NULL, NULL, &err);
    CHECK_ERR(err, CL_INVALID_EVENT_WAIT_LIST, "wait list");
    assert_int_equal(map_count(m), 0);
    /* errcode_ret may be NULL */
    assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, NULL));
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseMemObject(keep);
    clReleaseMemObject(m);
    clReleaseMemObject(other);
}

static void test_map_host_access_flags(void **state)
{
    struct env *e = *state;
    cl_int err;
    static const struct {
        const char *name;
        cl_mem_flags mem;
        cl_map_flags map;
        cl_int want;
    } cases[] = {
        {"HOST_WRITE_ONLY, READ", CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ, CL_INVALID_OPERATION},
        {"HOST_WRITE_ONLY, WRITE", CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE, CL_SUCCESS},
        {"HOST_WRITE_ONLY, READ|WRITE", CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ | CL_MAP_WRITE, CL_INVALID_OPERATION},
        {"HOST_WRITE_ONLY, WRITE_INVALIDATE", CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_SUCCESS},
        {"HOST_READ_ONLY, READ", CL_MEM_HOST_READ_ONLY, CL_MAP_READ, CL_SUCCESS},
        {"HOST_READ_ONLY, WRITE", CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE, CL_INVALID_OPERATION},
        {"HOST_READ_ONLY, WRITE_INVALIDATE", CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_INVALID_OPERATION},
        {"HOST_NO_ACCESS, READ", CL_MEM_HOST_NO_ACCESS, CL_MAP_READ, CL_INVALID_OPERATION},
        {"HOST_NO_ACCESS, WRITE", CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE, CL_INVALID_OPERATION},
        {"READ_ONLY (device side) allows host maps", CL_MEM_READ_ONLY, CL_MAP_READ | CL_MAP_WRITE, CL_SUCCESS},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        cl_mem m = clCreateBuffer(e->t.context, cases[i].mem, 256, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        void *p = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, cases[i].map, 0, 256, 0, NULL, NULL, &err);
        CHECK_ERR(err, cases[i].want, "case '%s'", cases[i].name);
        if (p)
            assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(map_count(m), 0);
        clReleaseMemObject(m);
    }
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
}

/* A non-blocking map waits for its wait list; its pointer is given at once. */
static void test_non_blocking_map_waits(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, 0, 64, NULL, &err);
    cl_event gate = clCreateUserEvent(e->t.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    unsigned char v[64];
    fill_seq(v, sizeof v, 9);
    /* the write waits for the gate; the in-order map after it sees its data */
    assert_int_equal(clEnqueueWriteBuffer(e->t.queue, m, CL_FALSE, 0, sizeof v, v, 1, &gate, NULL), CL_SUCCESS);
    cl_event mapped = NULL;
    unsigned char *p = clEnqueueMapBuffer(e->t.queue, m, CL_FALSE, CL_MAP_READ, 0, 64, 0, NULL, &mapped, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(p);
    cl_int status = 0;
    assert_int_equal(clGetEventInfo(mapped, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_true(status > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &mapped), CL_SUCCESS);
    assert_memory_equal(p, v, sizeof v);
    assert_int_equal(clEnqueueUnmapMemObject(e->t.queue, m, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    clReleaseEvent(mapped);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

/* Releasing a buffer that is still mapped is allowed; nothing leaks or crashes. */
static void test_release_while_mapped(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_mem m = clCreateBuffer(e->t.context, 0, 4 * e->align, NULL, &err);
    cl_mem s = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){e->align, e->align}, &err);
    assert_int_equal(err, CL_SUCCESS);
    void *p = clEnqueueMapBuffer(e->t.queue, s, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(p);
    void *q = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(q);
    assert_int_equal(clReleaseMemObject(s), CL_SUCCESS);
    /* the sub-buffer's write mapping went with it: its range can be mapped for writing */
    void *r = clEnqueueMapBuffer(e->t.queue, m, CL_TRUE, CL_MAP_WRITE, e->align, 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    (void)r;
}

/* Threads mapping and unmapping disjoint sub-buffers of one parent for writing, through one
 * queue: the parent's mapping records stay consistent and no mapping is lost or refused. */
struct map_worker {
    struct env *e;
    cl_mem sub;
    int index;
    int failures;
};

static void *map_worker_main(void *arg)
{
    struct map_worker *w = arg;
    for (int i = 0; i < 200; i++) {
        cl_int err;
        unsigned char *p = clEnqueueMapBuffer(w->e->t.queue, w->sub, CL_TRUE, CL_MAP_WRITE, 0, w->e->align,
                                              0, NULL, NULL, &err);
        if (err != CL_SUCCESS || !p) {
            w->failures++;
            continue;
        }
        p[i % w->e->align] = (unsigned char)(w->index + i);
        if (clEnqueueUnmapMemObject(w->e->t.queue, w->sub, p, 0, NULL, NULL) != CL_SUCCESS)
            w->failures++;
    }
    return NULL;
}

static void test_concurrent_maps(void **state)
{
    struct env *e = *state;
    cl_int err;
    enum { T = 4 };
    cl_mem parent = clCreateBuffer(e->t.context, 0, T * e->align, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    struct map_worker w[T];
    pthread_t th[T];
    for (int i = 0; i < T; i++) {
        w[i] = (struct map_worker){e, NULL, i, 0};
        w[i].sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                     &(cl_buffer_region){i * e->align, e->align}, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    for (int i = 0; i < T; i++)
        assert_int_equal(pthread_create(&th[i], NULL, map_worker_main, &w[i]), 0);
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(w[i].failures, 0);
        assert_int_equal(map_count(w[i].sub), 0);
    }
    assert_int_equal(clFinish(e->t.queue), CL_SUCCESS);
    /* the last write of every worker is visible in the parent */
    unsigned char *all = malloc(T * e->align);
    assert_int_equal(clEnqueueReadBuffer(e->t.queue, parent, CL_TRUE, 0, T * e->align, all, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < T; i++)
        assert_int_equal(all[i * e->align + 199 % e->align], (unsigned char)(i + 199));
    free(all);
    for (int i = 0; i < T; i++)
        clReleaseMemObject(w[i].sub);
    clReleaseMemObject(parent);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_read_write_round_trip),
        cmocka_unit_test(test_map_use_host_ptr_is_zero_copy),
        cmocka_unit_test(test_map_twice_and_unmap_errors),
        cmocka_unit_test(test_write_maps_across_sub_buffers),
        cmocka_unit_test(test_map_errors),
        cmocka_unit_test(test_map_host_access_flags),
        cmocka_unit_test(test_non_blocking_map_waits),
        cmocka_unit_test(test_release_while_mapped),
        cmocka_unit_test(test_concurrent_maps),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
