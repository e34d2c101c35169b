/* tests/unit/test_event_graph.c — the command/event graph of runtime/queue.c and event.c:
 * in-order ordering, wait lists across queues and user events, failure propagation,
 * callbacks, out-of-order readiness with markers and barriers, blocking commands, profiling,
 * concurrent enqueuers, and that every hold is released (the context is destroyed at the end
 * of each test, which only happens when no queue, event or command holds it any more).
 *
 * Commands are made with weft_command_new and custom `run` functions, so nothing here needs
 * buffers or kernels. The context and device are stand-ins built on the object model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/object.h"
#include "runtime/queue.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- stand-in context and device ------------------------------------------------------------- */

static atomic_int context_destroyed;

static void fake_context_destroy(struct weft_object *obj)
{
    atomic_store(&context_destroyed, 1);
    free(obj);
}

static void fake_device_destroy(struct weft_object *obj)
{
    free(obj);
}

struct env {
    cl_device_id dev;
    cl_context ctx;
};

static int setup(void **state)
{
    struct env *e = calloc(1, sizeof *e);
    e->dev = calloc(1, sizeof *e->dev);
    weft_object_init(&e->dev->obj, WEFT_TYPE_DEVICE, fake_device_destroy);
    e->ctx = calloc(1, sizeof *e->ctx);
    e->ctx->device = e->dev;
    e->ctx->devices = &e->dev;
    e->ctx->num_devices = 1;
    atomic_store(&context_destroyed, 0);
    weft_object_init(&e->ctx->obj, WEFT_TYPE_CONTEXT, fake_context_destroy);
    *state = e;
    return 0;
}

/* Releases the context and waits until its last hold is gone: every queue, event and command
 * of the test must have been freed for that to happen. The command thread may drop its last
 * holds just after the test's final wait returned, hence the loop (bounded by CTest's
 * timeout, it asserts no timing). */
static int teardown(void **state)
{
    struct env *e = *state;
    weft_object_release(WEFT_OBJ(e->ctx));
    while (!atomic_load(&context_destroyed))
        sched_yield();
    assert_int_equal(weft_object_live_count(WEFT_TYPE_EVENT), 0);
    assert_int_equal(weft_object_live_count(WEFT_TYPE_QUEUE), 0);
    weft_object_release(WEFT_OBJ(e->dev));
    free(e);
    return 0;
}

static cl_command_queue make_queue(struct env *e, cl_command_queue_properties props)
{
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = -1;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->dev, list, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(q);
    return q;
}

/* ---- commands that record what happened ------------------------------------------------------ */

struct log {
    atomic_int n;
    atomic_int done;     /* entries fully written (raised after order[i]) */
    int order[4096];
};

struct rec_payload {
    struct log *log;
    int id;
    cl_int result;              /* what run returns */
    atomic_int *must_be_set;    /* when not NULL: a violation is recorded if it is 0 at run */
    atomic_int *violations;
    atomic_int *ran;            /* set to 1 when run */
};

static cl_int rec_run(struct weft_command *cmd)
{
    struct rec_payload *p = cmd->payload;
    if (p->must_be_set && !atomic_load(p->must_be_set))
        atomic_fetch_add(p->violations, 1);
    if (p->log) {
        int i = atomic_fetch_add(&p->log->n, 1);
        if (i < 4096)
            p->log->order[i] = p->id;
        atomic_fetch_add(&p->log->done, 1);
    }
    if (p->ran)
        atomic_store(p->ran, 1);
    return p->result;
}

static struct rec_payload *rec_new(cl_command_queue q, cl_uint n, const cl_event *deps,
                                   struct weft_command **out)
{
    struct weft_command *cmd = weft_command_new(q, CL_COMMAND_NATIVE_KERNEL, n, deps,
                                                sizeof(struct rec_payload));
    assert_non_null(cmd);
    cmd->run = rec_run;
    *out = cmd;
    return cmd->payload;
}

static cl_event rec_enqueue(cl_command_queue q, cl_uint n, const cl_event *deps, struct log *log,
                            int id, atomic_int *ran)
{
    struct weft_command *cmd;
    struct rec_payload *p = rec_new(q, n, deps, &cmd);
    p->log = log;
    p->id = id;
    p->ran = ran;
    cl_event ev = NULL;
    assert_int_equal(weft_command_enqueue(cmd, false, &ev), CL_SUCCESS);
    return ev;
}

/* Gives the command thread time to run whatever it (wrongly) considers runnable, so that an
 * ordering bug shows up as a recorded violation. Correctness never depends on this pause:
 * a correct runtime passes with any scheduling; the pause only makes a broken one fail. */
static void give_queue_a_chance(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

static cl_int status_of(cl_event ev)
{
    cl_int s = 1234;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL), CL_SUCCESS);
    return s;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_in_order_runs_in_submission_order(void **state)
{
    struct env *e = *state;
    cl_command_queue q = make_queue(e, 0);
    static struct log log;
    memset(&log, 0, sizeof log);
    for (int i = 0; i < 1000; i++) {
        struct weft_command *cmd;
        struct rec_payload *p = rec_new(q, 0, NULL, &cmd);
        p->log = &log;
        p->id = i;
        assert_int_equal(weft_command_enqueue(cmd, false, NULL), CL_SUCCESS);
    }
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(atomic_load(&log.n), 1000);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(log.order[i], i);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void test_user_event_gates_command_across_queues(void **state)
{
    struct env *e = *state;
    cl_command_queue q1 = make_queue(e, 0);
    cl_command_queue q2 = make_queue(e, 0);
    cl_int err;
    cl_event user = clCreateUserEvent(e->ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(status_of(user), CL_SUBMITTED);

    atomic_int ran_a = 0, ran_b = 0;
    cl_event a = rec_enqueue(q1, 1, &user, NULL, 0, &ran_a);        /* waits for the user event */
    cl_event b = rec_enqueue(q2, 1, &a, NULL, 1, &ran_b);           /* waits for a (other queue) */
    cl_event c = rec_enqueue(q2, 0, NULL, NULL, 2, NULL);            /* in-order after b */

    /* Nothing can have run: everything depends on the user event. */
    assert_int_equal(clFlush(q1), CL_SUCCESS);
    give_queue_a_chance();
    assert_int_equal(atomic_load(&ran_a), 0);
    assert_int_equal(atomic_load(&ran_b), 0);
    assert_true(status_of(a) > CL_COMPLETE);
    assert_true(status_of(c) > CL_COMPLETE);

    assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &c), CL_SUCCESS);
    assert_int_equal(atomic_load(&ran_a), 1);
    assert_int_equal(atomic_load(&ran_b), 1);
    assert_int_equal(status_of(a), CL_COMPLETE);
    assert_int_equal(status_of(b), CL_COMPLETE);

    cl_event all[] = {a, b, c, user};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(clReleaseEvent(all[i]), CL_SUCCESS);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
}

static void test_failure_propagates_through_wait_lists(void **state)
{
    struct env *e = *state;
    cl_command_queue q = make_queue(e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_int err;
    cl_event user = clCreateUserEvent(e->ctx, &err);
    atomic_int ran_a = 0, ran_b = 0, ran_c = 0;
    cl_event a = rec_enqueue(q, 1, &user, NULL, 0, &ran_a);
    cl_event b = rec_enqueue(q, 1, &a, NULL, 1, &ran_b);          /* fails through a */
    cl_event c = rec_enqueue(q, 0, NULL, NULL, 2, &ran_c);        /* independent: runs */

    assert_int_equal(clSetUserEventStatus(user, -42), CL_SUCCESS);
    assert_int_equal(status_of(user), -42);
    assert_int_equal(clWaitForEvents(1, &b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(clWaitForEvents(1, &c), CL_SUCCESS);
    cl_event ab[] = {a, c};
    assert_int_equal(clWaitForEvents(2, ab), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(status_of(a), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(status_of(b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(status_of(c), CL_COMPLETE);
    assert_int_equal(atomic_load(&ran_a), 0);
    assert_int_equal(atomic_load(&ran_b), 0);
    assert_int_equal(atomic_load(&ran_c), 1);

    /* A dependency that already failed at enqueue time fails the command too. */
    atomic_int ran_d = 0;
    cl_event d = rec_enqueue(q, 1, &a, NULL, 3, &ran_d);
    assert_int_equal(clWaitForEvents(1, &d), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(atomic_load(&ran_d), 0);

    /* A command whose run fails: its status is run's error, later in-order commands run. */
    cl_command_queue qi = make_queue(e, 0);
    struct weft_command *cmd;
    struct rec_payload *p = rec_new(qi, 0, NULL, &cmd);
    p->result = CL_OUT_OF_RESOURCES;
    cl_event f = NULL;
    assert_int_equal(weft_command_enqueue(cmd, false, &f), CL_SUCCESS);
    atomic_int ran_g = 0;
    cl_event g = rec_enqueue(qi, 0, NULL, NULL, 4, &ran_g);
    assert_int_equal(clFinish(qi), CL_SUCCESS);
    assert_int_equal(status_of(f), CL_OUT_OF_RESOURCES);
    assert_int_equal(status_of(g), CL_COMPLETE);
    assert_int_equal(atomic_load(&ran_g), 1);

    cl_event all[] = {a, b, c, d, f, g, user};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        assert_int_equal(clReleaseEvent(all[i]), CL_SUCCESS);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(qi);
}

static void test_blocking_enqueue_reports_failed_dependency(void **state)
{
    struct env *e = *state;
    cl_command_queue q = make_queue(e, 0);
    cl_int err;
    cl_event user = clCreateUserEvent(e->ctx, &err);
    assert_int_equal(clSetUserEventStatus(user, CL_INVALID_OPERATION), CL_SUCCESS);
    struct weft_command *cmd;
    atomic_int ran = 0;
    struct rec_payload *p = rec_new(q, 1, &user, &cmd);
    p->ran = &ran;
    assert_int_equal(weft_command_enqueue(cmd, true, NULL), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(atomic_load(&ran), 0);

    /* A blocking command that succeeds has run when enqueue returns. */
    p = rec_new(q, 0, NULL, &cmd);
    p->ran = &ran;
    assert_int_equal(weft_command_enqueue(cmd, true, NULL), CL_SUCCESS);
    assert_int_equal(atomic_load(&ran), 1);
    clReleaseEvent(user);
    clReleaseCommandQueue(q);
}

struct later_arg {
    cl_event u;
    atomic_int set;     /* raised just before the user event is set */
};

static void *set_user_event_later(void *arg)
{
    struct later_arg *a = arg;
    give_queue_a_chance();
    atomic_store(&a->set, 1);
    clSetUserEventStatus(a->u, CL_COMPLETE);
    return NULL;
}

static void test_blocking_enqueue_waits_for_user_event(void **state)
{
    struct env *e = *state;
    for (int mode = 0; mode < 2; mode++) {
        cl_command_queue q = make_queue(e, mode ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        cl_int err;
        cl_event u = clCreateUserEvent(e->ctx, &err);
        atomic_int ran = 0;
        pthread_t th;
        struct later_arg la = {u, 0};
        assert_int_equal(pthread_create(&th, NULL, set_user_event_later, &la), 0);
        struct weft_command *cmd;
        struct rec_payload *p = rec_new(q, 1, &u, &cmd);
        p->ran = &ran;
        p->must_be_set = &la.set;   /* may only run once the user event is set */
        atomic_int violations = 0;
        p->violations = &violations;
        assert_int_equal(weft_command_enqueue(cmd, true, NULL), CL_SUCCESS);
        assert_int_equal(atomic_load(&ran), 1);
        assert_int_equal(atomic_load(&violations), 0);
        pthread_join(th, NULL);
        clReleaseEvent(u);
        clReleaseCommandQueue(q);
    }
}

/* ---- callbacks ---- */

struct cb_record {
    pthread_mutex_t lock;
    int calls[3];              /* per registered type: CL_COMPLETE=0, RUNNING=1, SUBMITTED=2 */
    cl_int statuses[3];
    int order[8];
    int n;
    pthread_t thread;
    sem_t done;
};

struct cb_ctx {
    struct cb_record *rec;
    int slot;
};

static void CL_CALLBACK record_cb(cl_event ev, cl_int status, void *data)
{
    struct cb_ctx *c = data;
    pthread_mutex_lock(&c->rec->lock);
    c->rec->calls[c->slot]++;
    c->rec->statuses[c->slot] = status;
    if (c->rec->n < 8)
        c->rec->order[c->rec->n++] = c->slot;
    c->rec->thread = pthread_self();
    pthread_mutex_unlock(&c->rec->lock);
    sem_post(&c->rec->done);
}

static void test_callbacks_fire_once_per_status(void **state)
{
    struct env *e = *state;
    cl_command_queue q = make_queue(e, 0);
    cl_int err;
    cl_event user = clCreateUserEvent(e->ctx, &err);
    cl_event a = rec_enqueue(q, 1, &user, NULL, 0, NULL);

    struct cb_record rec;
    memset(&rec, 0, sizeof rec);
    pthread_mutex_init(&rec.lock, NULL);
    sem_init(&rec.done, 0, 0);
    struct cb_ctx ctxs[3] = {{&rec, 0}, {&rec, 1}, {&rec, 2}};
    assert_int_equal(clSetEventCallback(a, CL_COMPLETE, record_cb, &ctxs[0]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(a, CL_RUNNING, record_cb, &ctxs[1]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(a, CL_SUBMITTED, record_cb, &ctxs[2]), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(a, CL_QUEUED, record_cb, &ctxs[2]), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(a, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(NULL, CL_COMPLETE, record_cb, NULL), CL_INVALID_EVENT);

    /* SUBMITTED was reached at enqueue: that callback is due already. */
    sem_wait(&rec.done);
    assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    sem_wait(&rec.done);
    sem_wait(&rec.done);
    assert_int_equal(clWaitForEvents(1, &a), CL_SUCCESS);
    pthread_mutex_lock(&rec.lock);
    for (int i = 0; i < 3; i++)
        assert_int_equal(rec.calls[i], 1);
    assert_int_equal(rec.statuses[0], CL_COMPLETE);
    assert_int_equal(rec.statuses[1], CL_RUNNING);
    assert_int_equal(rec.statuses[2], CL_SUBMITTED);
    assert_int_equal(rec.n, 3);
    assert_int_equal(rec.order[0], 2);   /* submitted, running, complete */
    assert_int_equal(rec.order[1], 1);
    assert_int_equal(rec.order[2], 0);
    assert_false(pthread_equal(rec.thread, pthread_self()));
    pthread_mutex_unlock(&rec.lock);

    /* Registered after completion: called (once) anyway. */
    assert_int_equal(clSetEventCallback(a, CL_RUNNING, record_cb, &ctxs[1]), CL_SUCCESS);
    sem_wait(&rec.done);
    pthread_mutex_lock(&rec.lock);
    assert_int_equal(rec.calls[1], 2);
    assert_int_equal(rec.statuses[1], CL_RUNNING);
    pthread_mutex_unlock(&rec.lock);

    /* A failed event calls its COMPLETE callback with the error, on another thread. */
    cl_event u2 = clCreateUserEvent(e->ctx, &err);
    assert_int_equal(clSetEventCallback(u2, CL_COMPLETE, record_cb, &ctxs[0]), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u2, -7), CL_SUCCESS);
    sem_wait(&rec.done);
    pthread_mutex_lock(&rec.lock);
    assert_int_equal(rec.calls[0], 2);
    assert_int_equal(rec.statuses[0], -7);
    assert_false(pthread_equal(rec.thread, pthread_self()));
    pthread_mutex_unlock(&rec.lock);

    clReleaseEvent(u2);
    clReleaseEvent(a);
    clReleaseEvent(user);
    clReleaseCommandQueue(q);
    /* The callback thread drops its holds after each callback returns; teardown waits. */
}

/* A callback may call back into the runtime (release its event, set another user event). */
struct chain_ctx {
    cl_event next_user;
    sem_t done;
};

static void CL_CALLBACK chain_cb(cl_event ev, cl_int status, void *data)
{
    struct chain_ctx *c = data;
    clSetUserEventStatus(c->next_user, status == CL_COMPLETE ? CL_COMPLETE : -1);
    clReleaseEvent(ev);
    sem_post(&c->done);
}

static void test_callback_may_use_the_api(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_command_queue q = make_queue(e, 0);
    cl_event u1 = clCreateUserEvent(e->ctx, &err);
    struct chain_ctx c;
    c.next_user = clCreateUserEvent(e->ctx, &err);
    sem_init(&c.done, 0, 0);
    cl_event a = rec_enqueue(q, 1, &c.next_user, NULL, 0, NULL);
    assert_int_equal(clSetEventCallback(u1, CL_COMPLETE, chain_cb, &c), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u1, CL_COMPLETE), CL_SUCCESS);  /* ref passes to cb */
    assert_int_equal(clWaitForEvents(1, &a), CL_SUCCESS);
    sem_wait(&c.done);
    clReleaseEvent(a);
    clReleaseEvent(c.next_user);
    clReleaseCommandQueue(q);
}

/* ---- user events ---- */

static void test_user_event_rules(void **state)
{
    struct env *e = *state;
    cl_int err;
    assert_null(clCreateUserEvent(NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    cl_event u = clCreateUserEvent(e->ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_type t = 0;
    assert_int_equal(clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_COMMAND_USER);
    cl_command_queue eq = (cl_command_queue)1;
    assert_int_equal(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL), CL_SUCCESS);
    assert_null(eq);
    assert_int_equal(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
    assert_int_equal(clSetUserEventStatus(u, -3), CL_INVALID_OPERATION);
    assert_int_equal(status_of(u), CL_COMPLETE);
    cl_ulong ts;
    assert_int_equal(clGetEventProfilingInfo(u, CL_PROFILING_COMMAND_END, sizeof ts, &ts, NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);

    /* Not a user event. */
    cl_command_queue q = make_queue(e, 0);
    cl_event a = rec_enqueue(q, 0, NULL, NULL, 0, NULL);
    assert_int_equal(clSetUserEventStatus(a, CL_COMPLETE), CL_INVALID_EVENT);
    assert_int_equal(clWaitForEvents(1, &a), CL_SUCCESS);
    clReleaseEvent(a);
    clReleaseEvent(u);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_EVENT);  /* released */
    clReleaseCommandQueue(q);
}

/* ---- out-of-order queues ---- */

static void test_out_of_order_readiness_markers_barriers(void **state)
{
    struct env *e = *state;
    cl_command_queue q = make_queue(e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_int err;
    cl_event u1 = clCreateUserEvent(e->ctx, &err);
    cl_event u2 = clCreateUserEvent(e->ctx, &err);
    atomic_int ran_a = 0, ran_b = 0, violations = 0;

    cl_event a = rec_enqueue(q, 1, &u1, NULL, 0, &ran_a);
    cl_event b = rec_enqueue(q, 1, &u2, NULL, 1, &ran_b);
    cl_event marker_all = NULL, marker_b = NULL;
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker_all), CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &b, &marker_b), CL_SUCCESS);

    /* b's dependency resolves first: b runs although a (older) still waits. */
    assert_int_equal(clSetUserEventStatus(u2, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &marker_b), CL_SUCCESS);
    assert_int_equal(atomic_load(&ran_b), 1);
    assert_int_equal(atomic_load(&ran_a), 0);
    assert_true(status_of(marker_all) > CL_COMPLETE);   /* still waits for a */

    /* A barrier keeps later commands back until everything before it completed. */
    cl_event barrier = NULL;
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier), CL_SUCCESS);
    struct weft_command *cmd;
    struct rec_payload *p = rec_new(q, 0, NULL, &cmd);
    p->must_be_set = &ran_a;
    p->violations = &violations;
    cl_event after = NULL;
    assert_int_equal(weft_command_enqueue(cmd, false, &after), CL_SUCCESS);
    give_queue_a_chance();
    assert_true(status_of(barrier) > CL_COMPLETE);
    assert_true(status_of(after) > CL_COMPLETE);

    assert_int_equal(clSetUserEventStatus(u1, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &after), CL_SUCCESS);
    assert_int_equal(atomic_load(&violations), 0);
    assert_int_equal(status_of(marker_all), CL_COMPLETE);
    assert_int_equal(status_of(barrier), CL_COMPLETE);
    cl_command_type t;
    clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
    assert_int_equal(t, CL_COMMAND_BARRIER);
    clGetEventInfo(marker_all, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
    assert_int_equal(t, CL_COMMAND_MARKER);

    /* clFinish on an out-of-order queue waits for all of it. */
    static struct log log;
    memset(&log, 0, sizeof log);
    for (int i = 0; i < 50; i++) {
        p = rec_new(q, 0, NULL, &cmd);
        p->log = &log;
        assert_int_equal(weft_command_enqueue(cmd, false, NULL), CL_SUCCESS);
    }
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(atomic_load(&log.n), 50);

    cl_event all[] = {a, b, marker_all, marker_b, barrier, after, u1, u2};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        assert_int_equal(clReleaseEvent(all[i]), CL_SUCCESS);
    clReleaseCommandQueue(q);
}

/* ---- profiling ---- */

static void test_profiling_timestamps(void **state)
{
    struct env *e = *state;
    cl_command_queue qp = make_queue(e, CL_QUEUE_PROFILING_ENABLE);
    cl_command_queue qn = make_queue(e, 0);
    cl_event a = rec_enqueue(qp, 0, NULL, NULL, 0, NULL);
    cl_event b = rec_enqueue(qn, 0, NULL, NULL, 0, NULL);
    assert_int_equal(clWaitForEvents(1, &a), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &b), CL_SUCCESS);
    static const cl_profiling_info names[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                              CL_PROFILING_COMMAND_COMPLETE};
    cl_ulong t[5];
    for (int i = 0; i < 5; i++) {
        size_t sz = 0;
        assert_int_equal(clGetEventProfilingInfo(a, names[i], sizeof t[i], &t[i], &sz), CL_SUCCESS);
        assert_int_equal(sz, sizeof(cl_ulong));
        assert_int_equal(clGetEventProfilingInfo(b, names[i], sizeof t[i], &t[i], NULL),
                         CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    for (int i = 0; i < 5; i++)
        assert_int_equal(clGetEventProfilingInfo(a, names[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
    assert_true(t[0] > 0);
    assert_true(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
    assert_int_equal(clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_END, 4, &t[0], NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventProfilingInfo(a, 0x1234, sizeof t[0], &t[0], NULL), CL_INVALID_VALUE);

    /* Not complete yet: not available. */
    cl_int err;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    cl_event c = rec_enqueue(qp, 1, &u, NULL, 0, NULL);
    assert_int_equal(clGetEventProfilingInfo(c, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);
    clSetUserEventStatus(u, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &c), CL_SUCCESS);
    clReleaseEvent(a);
    clReleaseEvent(b);
    clReleaseEvent(c);
    clReleaseEvent(u);
    clReleaseCommandQueue(qp);
    clReleaseCommandQueue(qn);
}

/* ---- wait lists ---- */

static void test_wait_list_validation(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_event u = clCreateUserEvent(e->ctx, &err);
    assert_int_equal(weft_check_wait_list(e->ctx, 0, NULL), CL_SUCCESS);
    assert_int_equal(weft_check_wait_list(e->ctx, 1, &u), CL_SUCCESS);
    assert_int_equal(weft_check_wait_list(e->ctx, 1, NULL), CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(weft_check_wait_list(e->ctx, 0, &u), CL_INVALID_EVENT_WAIT_LIST);
    cl_event bad[] = {u, (cl_event)e};
    assert_int_equal(weft_check_wait_list(e->ctx, 2, bad), CL_INVALID_EVENT_WAIT_LIST);

    /* An event of another context. */
    struct _cl_context *other = calloc(1, sizeof *other);
    other->device = e->dev;
    weft_object_init(&other->obj, WEFT_TYPE_CONTEXT, fake_device_destroy /* plain free */);
    cl_event uo = clCreateUserEvent(other, &err);
    cl_event mixed[] = {u, uo};
    assert_int_equal(weft_check_wait_list(e->ctx, 2, mixed), CL_INVALID_CONTEXT);
    assert_int_equal(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
    assert_int_equal(clWaitForEvents(0, mixed), CL_INVALID_VALUE);
    assert_int_equal(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    assert_int_equal(clWaitForEvents(1, bad + 1), CL_INVALID_EVENT);
    clReleaseEvent(uo);
    weft_object_release(WEFT_OBJ(other));
    clReleaseEvent(u);
}

/* ---- lifetime ---- */

static void test_released_queue_runs_its_commands(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_command_queue q = make_queue(e, 0);
    cl_event u = clCreateUserEvent(e->ctx, &err);
    atomic_int ran = 0;
    cl_event a = rec_enqueue(q, 1, &u, NULL, 0, &ran);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);   /* handle is gone */
    cl_command_queue eq = NULL;
    assert_int_equal(clGetEventInfo(a, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL), CL_SUCCESS);
    assert_ptr_equal(eq, q);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &a), CL_SUCCESS);
    assert_int_equal(atomic_load(&ran), 1);
    clReleaseEvent(a);
    clReleaseEvent(u);

    /* Nobody but the commands holds the queue: the command thread drops the last hold itself
     * and must free the queue on its way out (teardown sees the context destroyed only then). */
    q = make_queue(e, 0);
    u = clCreateUserEvent(e->ctx, &err);
    static struct log log;
    memset(&log, 0, sizeof log);
    for (int i = 0; i < 3; i++) {
        struct weft_command *c;
        struct rec_payload *p = rec_new(q, 1, &u, &c);
        p->log = &log;
        p->id = i;
        assert_int_equal(weft_command_enqueue(c, false, NULL), CL_SUCCESS);
    }
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    clReleaseEvent(u);
    while (atomic_load(&log.done) < 3)
        sched_yield();
    for (int i = 0; i < 3; i++)
        assert_int_equal(log.order[i], i);

    /* Discarded commands release everything they held. */
    q = make_queue(e, 0);
    u = clCreateUserEvent(e->ctx, &err);
    struct weft_command *cmd;
    rec_new(q, 1, &u, &cmd);
    weft_command_discard(cmd);
    clReleaseEvent(u);
    clReleaseCommandQueue(q);
}

/* ---- concurrency ---- */

struct thread_arg {
    cl_command_queue q;
    cl_event shared;       /* a user event every thread's first command waits on */
    int tid;
    struct log *log;       /* per-thread order log */
    int failures;
};

#define PER_THREAD 500

static void *enqueue_thread(void *arg)
{
    struct thread_arg *t = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        struct weft_command *cmd = weft_command_new(t->q, CL_COMMAND_NATIVE_KERNEL, i == 0 ? 1 : 0,
                                                    i == 0 ? &t->shared : NULL,
                                                    sizeof(struct rec_payload));
        cmd->run = rec_run;
        struct rec_payload *p = cmd->payload;
        p->log = t->log;
        p->id = i;
        cl_event ev = NULL;
        bool blocking = (i % 97) == 96;
        if (weft_command_enqueue(cmd, blocking, (i % 10 == 0) ? &ev : NULL) != CL_SUCCESS)
            t->failures++;
        if (ev) {
            if (i % 20 == 0 && clWaitForEvents(1, &ev) != CL_SUCCESS)
                t->failures++;
            clReleaseEvent(ev);
        }
        if (i == PER_THREAD / 2 && clFinish(t->q) != CL_SUCCESS)
            t->failures++;
    }
    if (clWaitForEvents(1, &t->shared) != CL_SUCCESS)
        t->failures++;
    return NULL;
}

static void *release_shared_thread(void *arg)
{
    cl_event u = arg;
    clSetUserEventStatus(u, CL_COMPLETE);
    return NULL;
}

static void test_four_threads_enqueue_and_wait(void **state)
{
    struct env *e = *state;
    for (int mode = 0; mode < 2; mode++) {
        cl_command_queue q = make_queue(e, mode ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
        cl_int err;
        cl_event shared = clCreateUserEvent(e->ctx, &err);
        static struct log logs[4];
        memset(logs, 0, sizeof logs);
        struct thread_arg args[4];
        pthread_t th[4], setter;
        for (int i = 0; i < 4; i++) {
            args[i] = (struct thread_arg){q, shared, i, &logs[i], 0};
        }
        for (int i = 0; i < 4; i++)
            assert_int_equal(pthread_create(&th[i], NULL, enqueue_thread, &args[i]), 0);
        pthread_create(&setter, NULL, release_shared_thread, shared);
        for (int i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        pthread_join(setter, NULL);
        assert_int_equal(clFinish(q), CL_SUCCESS);
        for (int i = 0; i < 4; i++) {
            assert_int_equal(args[i].failures, 0);
            assert_int_equal(atomic_load(&logs[i].n), PER_THREAD);
            if (!mode) {   /* in-order: each thread's commands ran in its submission order */
                for (int j = 0; j < PER_THREAD; j++)
                    assert_int_equal(logs[i].order[j], j);
            }
        }
        clReleaseEvent(shared);
        clReleaseCommandQueue(q);
    }
}

/* ---- a random graph ----
 * Several hundred commands over one in-order and two out-of-order queues, each waiting on up
 * to three random earlier commands, some failing on their own, some queues cut by barriers,
 * everything gated by one user event opened after the last enqueue. Every run checks that its
 * dependencies, its in-order predecessor and its queue's last barrier are already terminal;
 * afterwards every status must match what the graph implies. */

#define GRAPH_N 400

struct graph {
    cl_event ev[GRAPH_N];
    int queue_of[GRAPH_N];
    int deps[GRAPH_N][3];
    int ndeps[GRAPH_N];
    bool own_failure[GRAPH_N];
    atomic_int ran[GRAPH_N];
    atomic_int violations;
};

struct graph_payload {
    struct graph *g;
    int id;
    cl_event must_be_final[5];   /* deps, in-order predecessor, last barrier */
    int nfinal;
    int barrier_upto;            /* commands [0, barrier_upto) of this queue precede its last barrier */
};

static cl_int graph_run(struct weft_command *cmd)
{
    struct graph_payload *p = cmd->payload;
    for (int i = 0; i < p->nfinal; i++)
        if (atomic_load(&p->must_be_final[i]->status) > CL_COMPLETE)
            atomic_fetch_add(&p->g->violations, 1);
    for (int j = 0; j < p->barrier_upto; j++)
        if (p->g->queue_of[j] == p->g->queue_of[p->id] &&
            atomic_load(&p->g->ev[j]->status) > CL_COMPLETE)
            atomic_fetch_add(&p->g->violations, 1);   /* ran before its barrier's predecessors */
    for (int i = 0; i < p->g->ndeps[p->id]; i++)
        if (!atomic_load(&p->g->ran[p->g->deps[p->id][i]]))
            atomic_fetch_add(&p->g->violations, 1);   /* a dependency that did not run */
    atomic_store(&p->g->ran[p->id], 1);
    return p->g->own_failure[p->id] ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

static void test_random_graph(void **state)
{
    struct env *e = *state;
    static struct graph g;
    memset(&g, 0, sizeof g);
    cl_command_queue qs[3] = {make_queue(e, 0), make_queue(e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
                              make_queue(e, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)};
    cl_int err;
    cl_event gate = clCreateUserEvent(e->ctx, &err);
    cl_event last_in_order = NULL;
    cl_event last_barrier[3] = {NULL, NULL, NULL};
    int barrier_upto[3] = {0, 0, 0};
    cl_event barriers[64];
    int nbarriers = 0;
    unsigned seed = 12345;
    for (int i = 0; i < GRAPH_N; i++) {
        seed = seed * 1103515245u + 12345u;
        int qi = (seed >> 16) % 3;
        g.queue_of[i] = qi;
        g.own_failure[i] = ((seed >> 8) % 25) == 0;
        cl_event wl[4];
        cl_uint n = 0;
        if (i < 5)
            wl[n++] = gate;
        int nd = i ? (int)((seed >> 20) % 4) : 0;
        for (int d = 0; d < nd && d < 3; d++) {
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 16) % (unsigned)i);
            g.deps[i][g.ndeps[i]++] = j;
            wl[n++] = g.ev[j];
        }
        struct weft_command *cmd = weft_command_new(qs[qi], CL_COMMAND_NATIVE_KERNEL, n, n ? wl : NULL,
                                                    sizeof(struct graph_payload));
        assert_non_null(cmd);
        cmd->run = graph_run;
        struct graph_payload *p = cmd->payload;
        p->g = &g;
        p->id = i;
        for (int d = 0; d < g.ndeps[i]; d++)
            p->must_be_final[p->nfinal++] = g.ev[g.deps[i][d]];
        if (qi == 0 && last_in_order)
            p->must_be_final[p->nfinal++] = last_in_order;
        if (last_barrier[qi])
            p->must_be_final[p->nfinal++] = last_barrier[qi];
        p->barrier_upto = barrier_upto[qi];
        assert_int_equal(weft_command_enqueue(cmd, false, &g.ev[i]), CL_SUCCESS);
        if (qi == 0)
            last_in_order = g.ev[i];
        if (qi != 0 && ((seed >> 4) % 30) == 0 && nbarriers < 64) {
            assert_int_equal(clEnqueueBarrierWithWaitList(qs[qi], 0, NULL, &barriers[nbarriers]), CL_SUCCESS);
            last_barrier[qi] = barriers[nbarriers++];
            barrier_upto[qi] = i + 1;
        }
    }
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    for (int i = 0; i < 3; i++)
        assert_int_equal(clFinish(qs[i]), CL_SUCCESS);

    assert_int_equal(atomic_load(&g.violations), 0);
    for (int i = 0; i < GRAPH_N; i++) {
        bool dep_failed = false;
        for (int d = 0; d < g.ndeps[i]; d++)
            dep_failed |= atomic_load(&g.ev[g.deps[i][d]]->status) < 0;
        cl_int s = status_of(g.ev[i]);
        cl_int want = dep_failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                      : g.own_failure[i] ? CL_OUT_OF_RESOURCES : CL_COMPLETE;
        if (s != want || atomic_load(&g.ran[i]) != !dep_failed)
            fail_msg("command %d (queue %d): status %d ran %d, expected %d", i, g.queue_of[i], s,
                     atomic_load(&g.ran[i]), want);
    }
    for (int i = 0; i < nbarriers; i++) {
        assert_int_equal(status_of(barriers[i]), CL_COMPLETE);
        clReleaseEvent(barriers[i]);
    }
    for (int i = 0; i < GRAPH_N; i++)
        clReleaseEvent(g.ev[i]);
    clReleaseEvent(gate);
    for (int i = 0; i < 3; i++)
        clReleaseCommandQueue(qs[i]);
}

/* ---- queue creation and queries ---- */

static void test_queue_properties_and_info(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_queue_properties bad_key[] = {0x9999, 1, 0};
    assert_null(clCreateCommandQueueWithProperties(e->ctx, e->dev, bad_key, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 1024, 0};
    assert_null(clCreateCommandQueueWithProperties(e->ctx, e->dev, size_only, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_queue_properties on_dev[] = {CL_QUEUE_PROPERTIES,
                                    CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    assert_null(clCreateCommandQueueWithProperties(e->ctx, e->dev, on_dev, &err));
    assert_int_equal(err, CL_INVALID_QUEUE_PROPERTIES);
    assert_null(clCreateCommandQueueWithProperties(NULL, e->dev, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueueWithProperties(e->ctx, (cl_device_id)e->ctx, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);

    cl_command_queue q = clCreateCommandQueueWithProperties(e->ctx, e->dev, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t sz = 99;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &sz), CL_SUCCESS);
    assert_int_equal(sz, 0);
    cl_command_queue_properties p = 99;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
    assert_int_equal(p, 0);
    clReleaseCommandQueue(q);

    q = clCreateCommandQueue(e->ctx, e->dev, CL_QUEUE_PROFILING_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
    assert_int_equal(p, CL_QUEUE_PROFILING_ENABLE);
    clReleaseCommandQueue(q);
    assert_null(clCreateCommandQueue(e->ctx, e->dev, CL_QUEUE_ON_DEVICE, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_in_order_runs_in_submission_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_event_gates_command_across_queues, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failure_propagates_through_wait_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blocking_enqueue_reports_failed_dependency, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blocking_enqueue_waits_for_user_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callbacks_fire_once_per_status, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callback_may_use_the_api, setup, teardown),
        cmocka_unit_test_setup_teardown(test_user_event_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_order_readiness_markers_barriers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profiling_timestamps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wait_list_validation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_released_queue_runs_its_commands, setup, teardown),
        cmocka_unit_test_setup_teardown(test_four_threads_enqueue_and_wait, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_graph, setup, teardown),
        cmocka_unit_test_setup_teardown(test_queue_properties_and_info, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
