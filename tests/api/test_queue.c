/* tests/api/test_queue.c — command queues through the ICD loader: creation with properties
 * (and every specified error), clGetCommandQueueInfo, retain/release, flush/finish, markers,
 * barriers, clEnqueueWaitForEvents, wait-list validation, released queues finishing their
 * work, and several host threads using one queue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>

#include "weft_test.h"

struct fixture {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_context other;     /* a second context, for mismatch errors */
};

static int group_setup(void **state)
{
    static struct fixture f;
    cl_int err;
    f.platform = weft_test_platform();
    f.device = weft_test_device();
    if (!f.device)
        return -1;
    f.context = clCreateContext(NULL, 1, &f.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    f.other = clCreateContext(NULL, 1, &f.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    *state = &f;
    return 0;
}

static int group_teardown(void **state)
{
    struct fixture *f = *state;
    clReleaseContext(f->other);
    clReleaseContext(f->context);
    return 0;
}

static cl_command_queue make_queue(struct fixture *f, cl_command_queue_properties props)
{
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = -1;
    cl_command_queue q = clCreateCommandQueueWithProperties(f->context, f->device, list, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(q);
    return q;
}

static cl_int status_of(cl_event ev)
{
    cl_int s = 1234;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

/* ---- creation ---- */

static void test_create_with_properties(void **state)
{
    struct fixture *f = *state;
    static const cl_command_queue_properties ok[] = {
        0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
        cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, ok[i], 0};
        cl_int err = -1;
        cl_command_queue q = clCreateCommandQueueWithProperties(f->context, f->device, list, &err);
        assert_int_equal(err, CL_SUCCESS);
        cl_command_queue_properties p = ~0ull;
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
        assert_int_equal(p, ok[i]);
        cl_queue_properties back[3] = {0};
        size_t sz = 0;
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof back, back, &sz), CL_SUCCESS);
        assert_int_equal(sz, sizeof list);
        assert_memory_equal(back, list, sizeof list);
        assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);

        /* The 1.x form accepts the same bits and reports no properties array. */
        q = clCreateCommandQueue(f->context, f->device, ok[i], &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
        assert_int_equal(p, ok[i]);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz), CL_SUCCESS);
        assert_int_equal(sz, 0);
        assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    }
    /* NULL properties and NULL errcode_ret. */
    cl_command_queue q = clCreateCommandQueueWithProperties(f->context, f->device, NULL, NULL);
    assert_non_null(q);
    size_t sz = 1;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz), CL_SUCCESS);
    assert_int_equal(sz, 0);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void test_create_errors(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    struct {
        cl_queue_properties props[5];
        cl_int expected;
        const char *what;
    } cases[] = {
        {{0x12345, 0, 0}, CL_INVALID_VALUE, "unknown property"},
        {{CL_QUEUE_SIZE, 4096, 0}, CL_INVALID_VALUE, "CL_QUEUE_SIZE without ON_DEVICE"},
        {{CL_QUEUE_PROPERTIES, 1ull << 20, 0}, CL_INVALID_VALUE, "unknown property bit"},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
         CL_INVALID_VALUE, "ON_DEVICE_DEFAULT without ON_DEVICE"},
        {{CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}, CL_INVALID_VALUE, "property twice"},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
         CL_INVALID_QUEUE_PROPERTIES, "device queue"},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_SIZE, 1024, 0},
         CL_INVALID_QUEUE_PROPERTIES, "device queue with size"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        err = 0;
        cl_command_queue q = clCreateCommandQueueWithProperties(f->context, f->device, cases[i].props, &err);
        if (q || err != cases[i].expected)
            fail_msg("case '%s': got %d, expected %d", cases[i].what, err, cases[i].expected);
    }
    assert_null(clCreateCommandQueueWithProperties(NULL, f->device, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueueWithProperties((cl_context)f->device, f->device, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueueWithProperties(f->context, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    assert_null(clCreateCommandQueueWithProperties(f->context, (cl_device_id)f->context, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);

    assert_null(clCreateCommandQueue(NULL, f->device, 0, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueue(f->context, NULL, 0, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    assert_null(clCreateCommandQueue(f->context, f->device, CL_QUEUE_ON_DEVICE, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateCommandQueue(f->context, f->device, 1ull << 30, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
}

/* ---- queries and reference counts ---- */

static void test_info_and_refcount(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = make_queue(f, 0);
    cl_context c = NULL;
    cl_device_id d = NULL;
    cl_uint refs = 0;
    size_t sz = 0;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, &sz), CL_SUCCESS);
    assert_ptr_equal(c, f->context);
    assert_int_equal(sz, sizeof c);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL), CL_SUCCESS);
    assert_ptr_equal(d, f->device);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clRetainCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);

    cl_command_queue dq = (cl_command_queue)1;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, &sz), CL_SUCCESS);
    assert_null(dq);
    assert_int_equal(sz, sizeof dq);
    cl_uint qsize;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clGetCommandQueueInfo(q, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c - 1, &c, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetCommandQueueInfo(NULL, CL_QUEUE_CONTEXT, sizeof c, &c, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clGetCommandQueueInfo((cl_command_queue)f->context, CL_QUEUE_CONTEXT, sizeof c, &c, NULL),
                     CL_INVALID_COMMAND_QUEUE);

    assert_int_equal(clFlush(q), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);   /* empty queue */
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void test_invalid_queue_handles(void **state)
{
    struct fixture *f = *state;
    cl_command_queue bad[] = {NULL, (cl_command_queue)f->context};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        assert_int_equal(clRetainCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clReleaseCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clFlush(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clFinish(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clEnqueueMarkerWithWaitList(bad[i], 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clEnqueueBarrierWithWaitList(bad[i], 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clEnqueueBarrier(bad[i]), CL_INVALID_COMMAND_QUEUE);
    }
    /* A released queue is no longer a valid handle. (Through the loader the call goes via the
     * dispatch pointer, which a just-released queue still has while its memory is not reused;
     * keep one reference in a second handle so the memory stays ours.) */
    cl_command_queue q = make_queue(f, 0);
    cl_event marker;
    cl_int err;
    cl_event u = clCreateUserEvent(f->context, &err);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &u, &marker), CL_SUCCESS);  /* holds q */
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &marker), CL_SUCCESS);    /* the released queue ran it */
    clReleaseEvent(marker);
    clReleaseEvent(u);
}

/* ---- markers, barriers, wait lists ---- */

static void test_markers_and_barriers_in_order(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = make_queue(f, CL_QUEUE_PROFILING_ENABLE);
    cl_int err;
    cl_event u = clCreateUserEvent(f->context, &err);
    cl_event m1, b1, m2, m0;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &u, &m1), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, &b1), CL_SUCCESS);
    assert_int_equal(clEnqueueMarker(q, &m2), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrier(q), CL_SUCCESS);
    assert_int_equal(clEnqueueWaitForEvents(q, 1, &u), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m0), CL_SUCCESS);
    assert_true(status_of(m1) > CL_COMPLETE);
    assert_true(status_of(b1) > CL_COMPLETE);
    assert_true(status_of(m0) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    cl_event all[] = {m1, b1, m2, m0};
    cl_ulong prev_end = 0;
    for (size_t i = 0; i < ARRAY_LEN(all); i++) {
        assert_int_equal(status_of(all[i]), CL_COMPLETE);
        cl_ulong start, end;
        assert_int_equal(clGetEventProfilingInfo(all[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL), CL_SUCCESS);
        assert_int_equal(clGetEventProfilingInfo(all[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), CL_SUCCESS);
        assert_true(start <= end);
        assert_true(prev_end <= start);   /* in-order: each starts after the previous ended */
        prev_end = end;
        cl_command_type t;
        assert_int_equal(clGetEventInfo(all[i], CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
        assert_int_equal(t, i == 1 ? CL_COMMAND_BARRIER : CL_COMMAND_MARKER);
        clReleaseEvent(all[i]);
    }
    assert_int_equal(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

static void test_out_of_order_barrier(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = make_queue(f, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_int err;
    cl_event u1 = clCreateUserEvent(f->context, &err);
    cl_event u2 = clCreateUserEvent(f->context, &err);
    cl_event a, b, all_before, barrier, after;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &u1, &a), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &u2, &b), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &all_before), CL_SUCCESS);
    /* Out of order: b completes first although a is older. */
    assert_int_equal(clSetUserEventStatus(u2, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &b), CL_SUCCESS);
    assert_true(status_of(a) > CL_COMPLETE);
    assert_true(status_of(all_before) > CL_COMPLETE);

    assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &b, &after), CL_SUCCESS);  /* b is done... */
    assert_true(status_of(after) > CL_COMPLETE);                                  /* ...but the barrier is not */
    assert_int_equal(clSetUserEventStatus(u1, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &after), CL_SUCCESS);
    assert_int_equal(status_of(a), CL_COMPLETE);
    assert_int_equal(status_of(all_before), CL_COMPLETE);
    assert_int_equal(status_of(barrier), CL_COMPLETE);
    cl_event all[] = {a, b, all_before, barrier, after, u1, u2};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        clReleaseEvent(all[i]);
    clReleaseCommandQueue(q);
}

static void test_failed_wait_list_fails_marker(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = make_queue(f, 0);
    cl_int err;
    cl_event u = clCreateUserEvent(f->context, &err);
    cl_event m, m2, later;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &u, &m), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 1, &m, &m2), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &later), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u, CL_INVALID_VALUE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &m), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(clWaitForEvents(1, &m2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(status_of(m), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(clWaitForEvents(1, &later), CL_SUCCESS);   /* no wait list: no failure */
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseEvent(m);
    clReleaseEvent(m2);
    clReleaseEvent(later);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

static void test_wait_list_errors(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q = make_queue(f, 0);
    cl_int err;
    cl_event u = clCreateUserEvent(f->context, &err);
    cl_event uo = clCreateUserEvent(f->other, &err);
    cl_event ev = NULL;
    cl_event garbage = (cl_event)f->context;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, NULL, &ev), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, &u, &ev), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &garbage, &ev), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 1, NULL, &ev), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &uo, &ev), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 1, &uo, &ev), CL_INVALID_CONTEXT);
    assert_null(ev);
    assert_int_equal(clEnqueueWaitForEvents(q, 0, &u), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWaitForEvents(q, 1, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWaitForEvents(q, 1, &garbage), CL_INVALID_EVENT);
    assert_int_equal(clEnqueueWaitForEvents(q, 1, &uo), CL_INVALID_CONTEXT);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseEvent(u);
    clReleaseEvent(uo);
    clReleaseCommandQueue(q);
}

/* ---- real commands: buffers ordered by events across queues ---- */

static void test_buffer_commands_follow_events(void **state)
{
    struct fixture *f = *state;
    cl_command_queue q1 = make_queue(f, 0);
    cl_command_queue q2 = make_queue(f, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_int err;
    enum { N = 4096 };
    cl_mem a = clCreateBuffer(f->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem b = clCreateBuffer(f->context, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    static int src[N], dst[N];
    for (int i = 0; i < N; i++) {
        src[i] = i * 7 - 3;
        dst[i] = -1;
    }
    cl_event gate = clCreateUserEvent(f->context, &err);
    cl_event wrote, copied;
    /* q1: write a (gated) ; q2 (out of order): copy a->b after the write, then a blocking
     * read of b after the copy. Nothing can move before the gate opens. */
    assert_int_equal(clEnqueueWriteBuffer(q1, a, CL_FALSE, 0, N * sizeof(int), src, 1, &gate, &wrote), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(q2, a, b, 0, 0, N * sizeof(int), 1, &wrote, &copied), CL_SUCCESS);
    assert_true(status_of(wrote) > CL_COMPLETE);
    assert_true(status_of(copied) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, N * sizeof(int), dst, 1, &copied, NULL), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        if (dst[i] != src[i])
            fail_msg("dst[%d] = %d, expected %d", i, dst[i], src[i]);

    /* A failed gate: the blocking read reports it and leaves the host memory alone. */
    cl_event bad = clCreateUserEvent(f->context, &err);
    cl_event wrote2;
    static int other[N];
    for (int i = 0; i < N; i++)
        other[i] = 99;
    assert_int_equal(clEnqueueWriteBuffer(q1, b, CL_FALSE, 0, N * sizeof(int), other, 1, &bad, &wrote2), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(bad, -17), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        dst[i] = -1;
    assert_int_equal(clEnqueueReadBuffer(q2, b, CL_TRUE, 0, N * sizeof(int), dst, 1, &wrote2, NULL),
                     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(dst[0], -1);
    assert_int_equal(status_of(wrote2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* b still holds the copy: the failed write never ran. */
    assert_int_equal(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, N * sizeof(int), dst, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(dst[N - 1], src[N - 1]);

    clReleaseEvent(wrote);
    clReleaseEvent(copied);
    clReleaseEvent(wrote2);
    clReleaseEvent(gate);
    clReleaseEvent(bad);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
}

/* ---- threads ---- */

struct thread_arg {
    cl_command_queue q;
    cl_event gate;
    int failures;
};

static void *marker_thread(void *arg)
{
    struct thread_arg *t = arg;
    cl_event prev = NULL;
    for (int i = 0; i < 300; i++) {
        cl_event ev = NULL;
        cl_event wl[2] = {t->gate, prev};
        cl_uint n = prev ? 2 : 1;
        if (clEnqueueMarkerWithWaitList(t->q, n, wl, &ev) != CL_SUCCESS) {
            t->failures++;
            break;
        }
        /* Each marker waits for this thread's previous one: when it completes, so has prev. */
        if (prev)
            clReleaseEvent(prev);
        prev = ev;
        if (i % 50 == 49 && clFinish(t->q) != CL_SUCCESS)
            t->failures++;
    }
    if (prev) {
        if (clWaitForEvents(1, &prev) != CL_SUCCESS)
            t->failures++;
        clReleaseEvent(prev);
    }
    if (clWaitForEvents(1, &t->gate) != CL_SUCCESS)
        t->failures++;
    return NULL;
}

static void test_four_threads_share_a_queue(void **state)
{
    struct fixture *f = *state;
    for (int mode = 0; mode < 2; mode++) {
        cl_command_queue q = make_queue(f, mode ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        cl_int err;
        cl_event gate = clCreateUserEvent(f->context, &err);
        struct thread_arg args[4];
        pthread_t th[4];
        for (int i = 0; i < 4; i++) {
            args[i] = (struct thread_arg){q, gate, 0};
            assert_int_equal(pthread_create(&th[i], NULL, marker_thread, &args[i]), 0);
        }
        assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        for (int i = 0; i < 4; i++) {
            pthread_join(th[i], NULL);
            assert_int_equal(args[i].failures, 0);
        }
        assert_int_equal(clFinish(q), CL_SUCCESS);
        clReleaseEvent(gate);
        clReleaseCommandQueue(q);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_with_properties),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_info_and_refcount),
        cmocka_unit_test(test_invalid_queue_handles),
        cmocka_unit_test(test_markers_and_barriers_in_order),
        cmocka_unit_test(test_out_of_order_barrier),
        cmocka_unit_test(test_failed_wait_list_fails_marker),
        cmocka_unit_test(test_wait_list_errors),
        cmocka_unit_test(test_buffer_commands_follow_events),
        cmocka_unit_test(test_four_threads_share_a_queue),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
