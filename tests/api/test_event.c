/* tests/api/test_event.c — events through the ICD loader: user events and their status rules,
 * clGetEventInfo, reference counts, clWaitForEvents (errors, failures, several queues),
 * callbacks (each status once, after the fact, errors, on a runtime thread), profiling
 * availability and ordering, dependencies across queues and concurrent waiters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <semaphore.h>

#include "weft_test.h"

struct fixture {
    cl_device_id device;
    cl_context context;
    cl_context other;
    cl_command_queue q;       /* in-order */
    cl_command_queue qp;      /* in-order, profiling */
    cl_command_queue qo;      /* out-of-order */
};

static int group_setup(void **state)
{
    static struct fixture f;
    cl_int err;
    f.device = weft_test_device();
    if (!f.device)
        return -1;
    f.context = clCreateContext(NULL, 1, &f.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    f.other = clCreateContext(NULL, 1, &f.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    f.q = clCreateCommandQueueWithProperties(f.context, f.device, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    cl_queue_properties pp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    f.qp = clCreateCommandQueueWithProperties(f.context, f.device, pp, &err);
    if (err != CL_SUCCESS)
        return -1;
    cl_queue_properties po[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    f.qo = clCreateCommandQueueWithProperties(f.context, f.device, po, &err);
    if (err != CL_SUCCESS)
        return -1;
    *state = &f;
    return 0;
}

static int group_teardown(void **state)
{
    struct fixture *f = *state;
    clReleaseCommandQueue(f->q);
    clReleaseCommandQueue(f->qp);
    clReleaseCommandQueue(f->qo);
    clReleaseContext(f->other);
    clReleaseContext(f->context);
    return 0;
}

static cl_int status_of(cl_event ev)
{
    cl_int s = 1234;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

static cl_event user_event(struct fixture *f)
{
    cl_int err = -1;
    cl_event u = clCreateUserEvent(f->context, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(u);
    return u;
}

/* ---- user events and queries ---- */

static void test_user_event_status_rules(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    assert_null(clCreateUserEvent(NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateUserEvent((cl_context)f->q, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);

    cl_event u = user_event(f);
    assert_int_equal(status_of(u), CL_SUBMITTED);
    assert_int_equal(clSetUserEventStatus(u, CL_QUEUED), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(u, 7), CL_INVALID_VALUE);
    assert_int_equal(status_of(u), CL_SUBMITTED);
    assert_int_equal(clSetUserEventStatus(u, -1000), CL_SUCCESS);
    assert_int_equal(status_of(u), -1000);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
    assert_int_equal(status_of(u), -1000);
    assert_int_equal(clWaitForEvents(1, &u), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);

    cl_event m;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 0, NULL, &m), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);   /* not a user event */
    assert_int_equal(clWaitForEvents(1, &m), CL_SUCCESS);
    clReleaseEvent(m);
    clReleaseEvent(u);
}

static void test_event_info(void **state)
{
    struct fixture *f = *state;
    cl_event u = user_event(f);
    cl_event m;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 1, &u, &m), CL_SUCCESS);

    cl_command_queue q = (cl_command_queue)1;
    cl_context c = NULL;
    cl_command_type t = 0;
    cl_uint refs = 0;
    size_t sz = 0;
    assert_int_equal(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, &sz), CL_SUCCESS);
    assert_null(q);
    assert_int_equal(sz, sizeof q);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL), CL_SUCCESS);
    assert_ptr_equal(q, f->q);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
    assert_ptr_equal(c, f->context);
    assert_int_equal(clGetEventInfo(u, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
    assert_ptr_equal(c, f->context);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_COMMAND_MARKER);
    assert_int_equal(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_COMMAND_USER);
    cl_int s = status_of(m);
    assert_true(s == CL_QUEUED || s == CL_SUBMITTED);   /* waits for u */

    assert_int_equal(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clRetainEvent(m), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseEvent(m), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 1);

    assert_int_equal(clGetEventInfo(m, 0x5555, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventInfo(m, CL_EVENT_CONTEXT, 1, &c, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventInfo(NULL, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_INVALID_EVENT);
    assert_int_equal(clGetEventInfo((cl_event)f->q, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_INVALID_EVENT);
    assert_int_equal(clRetainEvent(NULL), CL_INVALID_EVENT);
    assert_int_equal(clReleaseEvent(NULL), CL_INVALID_EVENT);

    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &m), CL_SUCCESS);
    assert_int_equal(status_of(m), CL_COMPLETE);
    clReleaseEvent(m);
    clReleaseEvent(u);
}

/* ---- waiting ---- */

static void test_wait_for_events_rules(void **state)
{
    struct fixture *f = *state;
    cl_event u = user_event(f);
    cl_int err;
    cl_event uo = clCreateUserEvent(f->other, &err);
    cl_event garbage = (cl_event)f->context;
    assert_int_equal(clWaitForEvents(0, &u), CL_INVALID_VALUE);
    assert_int_equal(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    assert_int_equal(clWaitForEvents(1, &garbage), CL_INVALID_EVENT);
    cl_event mixed[] = {u, uo};
    assert_int_equal(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);

    /* Events of several queues of one context, completed by a user event. */
    cl_event evs[3];
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 1, &u, &evs[0]), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->qp, 1, &evs[0], &evs[1]), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(f->qo, 1, &evs[1], &evs[2]), CL_SUCCESS);
    assert_true(status_of(evs[2]) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(3, evs), CL_SUCCESS);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(status_of(evs[i]), CL_COMPLETE);
        clReleaseEvent(evs[i]);
    }
    /* One failed event in the list: the others are still waited for, the call reports it. */
    cl_event uf = user_event(f);
    cl_event ok;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 0, NULL, &ok), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(uf, -5), CL_SUCCESS);
    cl_event pair[] = {ok, uf};
    assert_int_equal(clWaitForEvents(2, pair), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(status_of(ok), CL_COMPLETE);
    clReleaseEvent(ok);
    clReleaseEvent(uf);
    clReleaseEvent(uo);
    clReleaseEvent(u);
}

struct waiter_arg {
    cl_event ev;
    cl_int result;
};

static void *waiter_thread(void *arg)
{
    struct waiter_arg *w = arg;
    w->result = clWaitForEvents(1, &w->ev);
    return NULL;
}

static void test_many_threads_wait_on_one_event(void **state)
{
    struct fixture *f = *state;
    cl_event u = user_event(f);
    cl_event m;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->qo, 1, &u, &m), CL_SUCCESS);
    pthread_t th[4];
    struct waiter_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (struct waiter_arg){m, 1};
        assert_int_equal(pthread_create(&th[i], NULL, waiter_thread, &args[i]), 0);
    }
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].result, CL_SUCCESS);
    }
    clReleaseEvent(m);
    clReleaseEvent(u);
}

/* ---- callbacks ---- */

struct cb_log {
    pthread_mutex_t lock;
    int count[3];           /* by registered status: CL_COMPLETE 0, RUNNING 1, SUBMITTED 2 */
    cl_int got[3];
    int other_thread;       /* callbacks that ran on a thread other than the test's */
    pthread_t main_thread;
    sem_t sem;
};

struct cb_slot {
    struct cb_log *log;
    int slot;
};

static void CL_CALLBACK cb_record(cl_event ev, cl_int status, void *data)
{
    struct cb_slot *s = data;
    pthread_mutex_lock(&s->log->lock);
    s->log->count[s->slot]++;
    s->log->got[s->slot] = status;
    if (!pthread_equal(pthread_self(), s->log->main_thread))
        s->log->other_thread++;
    pthread_mutex_unlock(&s->log->lock);
    sem_post(&s->log->sem);
}

static void test_callbacks(void **state)
{
    struct fixture *f = *state;
    struct cb_log log = {.main_thread = pthread_self()};
    pthread_mutex_init(&log.lock, NULL);
    sem_init(&log.sem, 0, 0);
    struct cb_slot slots[3] = {{&log, 0}, {&log, 1}, {&log, 2}};

    cl_event u = user_event(f);
    cl_event m;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 1, &u, &m), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(m, CL_COMPLETE, cb_record, &slots[0]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(m, CL_RUNNING, cb_record, &slots[1]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(m, CL_SUBMITTED, cb_record, &slots[2]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(m, CL_QUEUED, cb_record, &slots[0]), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(m, -1, cb_record, &slots[0]), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(m, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(NULL, CL_COMPLETE, cb_record, &slots[0]), CL_INVALID_EVENT);

    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    for (int i = 0; i < 3; i++)
        sem_wait(&log.sem);
    pthread_mutex_lock(&log.lock);
    assert_int_equal(log.count[0], 1);
    assert_int_equal(log.count[1], 1);
    assert_int_equal(log.count[2], 1);
    assert_int_equal(log.got[0], CL_COMPLETE);
    assert_int_equal(log.got[1], CL_RUNNING);
    assert_int_equal(log.got[2], CL_SUBMITTED);
    assert_int_equal(log.other_thread, 3);
    pthread_mutex_unlock(&log.lock);

    /* After the fact: still called, once. */
    assert_int_equal(clSetEventCallback(m, CL_SUBMITTED, cb_record, &slots[2]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(m, CL_COMPLETE, cb_record, &slots[0]), CL_SUCCESS);
    sem_wait(&log.sem);
    sem_wait(&log.sem);
    pthread_mutex_lock(&log.lock);
    assert_int_equal(log.count[2], 2);
    assert_int_equal(log.count[0], 2);
    assert_int_equal(log.got[0], CL_COMPLETE);
    pthread_mutex_unlock(&log.lock);

    /* A command that fails through its wait list: COMPLETE callbacks get the error. */
    cl_event uf = user_event(f);
    cl_event mf;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->qo, 1, &uf, &mf), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(mf, CL_COMPLETE, cb_record, &slots[0]), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(uf, -9), CL_SUCCESS);
    sem_wait(&log.sem);
    pthread_mutex_lock(&log.lock);
    assert_int_equal(log.count[0], 3);
    assert_int_equal(log.got[0], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(log.other_thread, 6);
    pthread_mutex_unlock(&log.lock);

    clReleaseEvent(mf);
    clReleaseEvent(uf);
    clReleaseEvent(m);
    clReleaseEvent(u);
}

/* ---- profiling ---- */

static void test_profiling(void **state)
{
    struct fixture *f = *state;
    cl_event u = user_event(f);
    cl_event mp, mn;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->qp, 1, &u, &mp), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 0, NULL, &mn), CL_SUCCESS);
    cl_ulong t[5];
    assert_int_equal(clGetEventProfilingInfo(mp, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);   /* not complete yet */
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    cl_event both[] = {mp, mn};
    assert_int_equal(clWaitForEvents(2, both), CL_SUCCESS);
    static const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                              CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; i++) {
        size_t sz = 0;
        assert_int_equal(clGetEventProfilingInfo(mp, names[i], sizeof t[i], &t[i], &sz), CL_SUCCESS);
        assert_int_equal(sz, sizeof(cl_ulong));
        cl_ulong x;
        assert_int_equal(clGetEventProfilingInfo(mn, names[i], sizeof x, &x, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
        assert_int_equal(clGetEventProfilingInfo(u, names[i], sizeof x, &x, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    for (int i = 1; i < 5; i++)
        assert_true(t[i - 1] <= t[i]);
    assert_true(t[0] > 0);
    assert_int_equal(clGetEventProfilingInfo(mp, 0x4242, sizeof t[0], &t[0], NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventProfilingInfo(mp, CL_PROFILING_COMMAND_END, 2, &t[0], NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof t[0], &t[0], NULL),
                     CL_INVALID_EVENT);
    clReleaseEvent(mp);
    clReleaseEvent(mn);
    clReleaseEvent(u);
}

/* ---- lifetime ---- */

static void test_event_outlives_queue(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(f->context, f->device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event m;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    cl_command_queue back = NULL;
    assert_int_equal(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof back, &back, NULL), CL_SUCCESS);
    assert_ptr_equal(back, q);
    assert_int_equal(status_of(m), CL_COMPLETE);
    assert_int_equal(clReleaseEvent(m), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_event_status_rules),
        cmocka_unit_test(test_event_info),
        cmocka_unit_test(test_wait_for_events_rules),
        cmocka_unit_test(test_many_threads_wait_on_one_event),
        cmocka_unit_test(test_callbacks),
        cmocka_unit_test(test_profiling),
        cmocka_unit_test(test_event_outlives_queue),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
