/* runtime/event.c — events: status transitions, waiting, user events, callbacks, profiling.
 *
 * Guarantees:
 *   - An event's status only moves forward (QUEUED -> SUBMITTED -> RUNNING -> COMPLETE or a
 *     negative error); terminal states are final. Every transition stamps CLOCK_MONOTONIC
 *     nanoseconds; a skipped state gets the time of the transition that skipped it, so the
 *     profiling times are always ordered QUEUED <= SUBMIT <= START <= END.
 *   - Every callback registered with clSetEventCallback runs exactly once: when its status is
 *     reached, immediately if it was reached before registration, or with the error status
 *     when the event fails. Callbacks run on one runtime thread (the callback thread, FIFO,
 *     so the callbacks of one event run in status order), never on the application's thread
 *     and never while any Weft lock is held.
 *   - Listeners (commands depending on the event) are notified exactly once, when the event
 *     becomes terminal, on the thread that finished it, without the event lock held.
 *   - An event holds its context and its queue (runtime holds), so the handles clGetEventInfo
 *     returns stay valid while the event lives.
 */
#include "runtime/event.h"

#include <stdlib.h>
#include <time.h>

#include "runtime/context.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/queue.h"
#include "util/trace.h"

struct weft_event_callback {
    struct weft_event_callback *next;
    void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
    void *user_data;
    cl_int type;          /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    cl_int status;        /* what the callback receives (set when it becomes due) */
    cl_event event;       /* held while the callback waits on the callback thread */
};

/* ---- the callback thread ------------------------------------------------------------------
 * One process-wide thread, started on the first callback that becomes due, runs callbacks in
 * FIFO order. A dedicated thread (rather than the queue thread that finished the command)
 * keeps a slow callback from stalling a queue and keeps callbacks off the application's
 * thread when a user event is set or a callback is registered on a reached status. */
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cond = PTHREAD_COND_INITIALIZER;
static struct weft_event_callback *cb_head, *cb_tail;
static bool cb_thread_started;

static void *callback_thread_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&cb_lock);
    for (;;) {
        while (!cb_head)
            pthread_cond_wait(&cb_cond, &cb_lock);
        struct weft_event_callback *cb = cb_head;
        cb_head = cb->next;
        if (!cb_head)
            cb_tail = NULL;
        pthread_mutex_unlock(&cb_lock);
        cb->fn(cb->event, cb->status, cb->user_data);
        weft_object_unhold(WEFT_OBJ(cb->event));
        free(cb);
        pthread_mutex_lock(&cb_lock);
    }
    return NULL;
}

/* Hands a list of due callbacks (linked through `next`, already holding their event) to the
 * callback thread. */
static void callbacks_dispatch(struct weft_event_callback *list)
{
    if (!list)
        return;
    struct weft_event_callback *last = list;
    while (last->next)
        last = last->next;
    pthread_mutex_lock(&cb_lock);
    if (!cb_thread_started) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, callback_thread_main, NULL) == 0) {
            cb_thread_started = true;
        } else {
            /* No thread to be had: run them here rather than lose them (still no lock held
             * by Weft other than cb_lock, which we drop first). */
            pthread_attr_destroy(&attr);
            pthread_mutex_unlock(&cb_lock);
            while (list) {
                struct weft_event_callback *next = list->next;
                list->fn(list->event, list->status, list->user_data);
                weft_object_unhold(WEFT_OBJ(list->event));
                free(list);
                list = next;
            }
            return;
        }
        pthread_attr_destroy(&attr);
    }
    if (cb_tail)
        cb_tail->next = list;
    else
        cb_head = list;
    cb_tail = last;
    pthread_cond_signal(&cb_cond);
    pthread_mutex_unlock(&cb_lock);
}

/* ---- lifetime -------------------------------------------------------------------------------- */

static void event_destroy(struct weft_object *obj)
{
    cl_event ev = (cl_event)obj;
    /* Callbacks still registered belong to a status that was never reached (a user event
     * released before being set); they can no longer run. */
    struct weft_event_callback *cb = ev->callbacks;
    while (cb) {
        struct weft_event_callback *next = cb->next;
        free(cb);
        cb = next;
    }
    if (ev->queue)
        weft_object_unhold(WEFT_OBJ(ev->queue));
    if (ev->context)
        weft_object_unhold(WEFT_OBJ(ev->context));
    pthread_cond_destroy(&ev->cond);
    pthread_mutex_destroy(&ev->lock);
    free(ev);
}

cl_event weft_event_new(cl_context ctx, cl_command_queue queue, cl_command_type type)
{
    cl_event ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->context = ctx;
    ev->queue = queue;
    ev->command_type = type;
    atomic_init(&ev->status, queue ? CL_QUEUED : CL_SUBMITTED);
    atomic_init(&ev->user_status_set, false);
    atomic_init(&ev->queue_ticket, 0);
    /* Times are read by clGetEventProfilingInfo, for commands of a queue with profiling only,
     * and by WEFT_TRACE: a clock read per status is a tenth of a short launch (2-core VM) */
    ev->timed = (queue && (queue->properties & CL_QUEUE_PROFILING_ENABLE)) || weft_trace_enabled;
    ev->time_queued = ev->timed ? weft_now_ns() : 0;
    if (!queue)
        ev->time_submit = ev->time_queued;
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->cond, NULL);
    if (ctx)
        weft_object_hold(WEFT_OBJ(ctx));
    if (queue)
        weft_object_hold(WEFT_OBJ(queue));
    weft_object_init(&ev->obj, WEFT_TYPE_EVENT, event_destroy);
    return ev;
}

/* ---- status ---------------------------------------------------------------------------------- */

void weft_event_set_status(cl_event ev, cl_int status)
{
    weft_event_set_status_at(ev, status, ev->timed ? weft_now_ns() : 0);
}

/* Moves ev to `status` and stamps the time, unless it is terminal or `status` is not forward
 * (error codes are all negative, so "forward" is "numerically smaller"); whether it moved. */
static bool move_status(cl_event ev, cl_int status, uint64_t now)
{
    cl_int old = atomic_load_explicit(&ev->status, memory_order_relaxed);
    if (old <= CL_COMPLETE || status >= old)
        return false;
    if (old > CL_SUBMITTED && status <= CL_SUBMITTED)
        ev->time_submit = now;
    if (old > CL_RUNNING && status <= CL_RUNNING)
        ev->time_start = now;
    if (status <= CL_COMPLETE)
        ev->time_end = ev->time_complete = now;
    atomic_store_explicit(&ev->status, status, memory_order_release);
    return true;
}

void weft_event_set_status_at(cl_event ev, cl_int status, uint64_t now)
{
    if (ev->unseen) {
        /* only the thread that runs the command moves it, and nobody else is told: no lock (it
         * was three of a short launch's dozen lock round trips) */
        move_status(ev, status, now);
        return;
    }
    pthread_mutex_lock(&ev->lock);
    /* Only forward moves: a terminal state is final, and e.g. SUBMITTED after RUNNING is a
     * no-op. */
    if (!move_status(ev, status, now)) {
        pthread_mutex_unlock(&ev->lock);
        return;
    }

    /* Take out the callbacks that are now due; keep the others registered. */
    struct weft_event_callback *due = NULL, **due_tail = &due;
    struct weft_event_callback **pp = &ev->callbacks;
    while (*pp) {
        struct weft_event_callback *cb = *pp;
        if (status < 0 || cb->type >= status) {
            *pp = cb->next;
            cb->next = NULL;
            cb->status = status < 0 ? status : cb->type;
            cb->event = ev;
            weft_object_hold(WEFT_OBJ(ev));
            *due_tail = cb;
            due_tail = &cb->next;
        } else {
            pp = &cb->next;
        }
    }
    struct weft_event_listener *listeners = NULL;
    if (status <= CL_COMPLETE) {
        listeners = ev->listeners;
        ev->listeners = NULL;
        if (ev->waiters)
            pthread_cond_broadcast(&ev->cond);
    }
    pthread_mutex_unlock(&ev->lock);

    /* Callbacks were registered in order; reverse nothing: the list above keeps that order. */
    callbacks_dispatch(due);
    while (listeners) {
        struct weft_event_listener *next = listeners->next;
        listeners->notify(listeners, status);
        listeners = next;
    }
}

/* Bounded spin before sleeping: most waits in a latency-sensitive program are short (an
 * empty kernel), and a futex sleep plus wake costs several microseconds. */
#define WEFT_EVENT_SPIN 4000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

cl_int weft_event_wait(cl_event ev)
{
    /* Command events: help their queue (run runnable commands here) while waiting. */
    if (ev->queue)
        return weft_queue_wait_event(ev);
    return weft_event_wait_plain(ev);
}

cl_int weft_event_wait_plain(cl_event ev)
{
    cl_int s;
    for (int i = 0; i < WEFT_EVENT_SPIN; i++) {
        s = atomic_load_explicit(&ev->status, memory_order_acquire);
        if (s <= CL_COMPLETE)
            return s;
        cpu_relax();
    }
    pthread_mutex_lock(&ev->lock);
    ev->waiters++;
    while ((s = atomic_load_explicit(&ev->status, memory_order_acquire)) > CL_COMPLETE)
        pthread_cond_wait(&ev->cond, &ev->lock);
    ev->waiters--;
    pthread_mutex_unlock(&ev->lock);
    return s;
}

bool weft_event_listen(cl_event ev, struct weft_event_listener *l, cl_int *status)
{
    cl_int s = atomic_load_explicit(&ev->status, memory_order_acquire);
    if (s <= CL_COMPLETE) {
        *status = s;
        return false;
    }
    pthread_mutex_lock(&ev->lock);
    s = atomic_load_explicit(&ev->status, memory_order_relaxed);
    if (s <= CL_COMPLETE) {
        pthread_mutex_unlock(&ev->lock);
        *status = s;
        return false;
    }
    l->next = ev->listeners;
    ev->listeners = l;
    pthread_mutex_unlock(&ev->lock);
    return true;
}

cl_int weft_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *wait_list)
{
    WEFT_CHECK(!(num_events > 0 && !wait_list), CL_INVALID_EVENT_WAIT_LIST,
               "num_events_in_wait_list is %u but event_wait_list is NULL", num_events);
    WEFT_CHECK(!(num_events == 0 && wait_list), CL_INVALID_EVENT_WAIT_LIST,
               "event_wait_list is not NULL but num_events_in_wait_list is 0");
    for (cl_uint i = 0; i < num_events; i++)
        WEFT_CHECK(weft_object_is(wait_list[i], WEFT_TYPE_EVENT), CL_INVALID_EVENT_WAIT_LIST,
                   "event_wait_list[%u] is not a valid event", i);
    if (ctx) {
        for (cl_uint i = 0; i < num_events; i++)
            WEFT_CHECK(wait_list[i]->context == ctx, CL_INVALID_CONTEXT,
                       "event_wait_list[%u] belongs to another context than the queue", i);
    }
    return CL_SUCCESS;
}

/* ---- API -------------------------------------------------------------------------------------- */

CL_API_ENTRY cl_event CL_API_CALL
clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret,
                   NULL, "context is not a valid context");
    cl_event ev = weft_event_new(context, NULL, CL_COMMAND_USER);
    WEFT_CHECK_RET(ev, CL_OUT_OF_HOST_MEMORY, errcode_ret, NULL, "cannot allocate the event");
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, ev);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetUserEventStatus(cl_event event, cl_int execution_status)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT) && event->command_type == CL_COMMAND_USER,
               CL_INVALID_EVENT, "event is not a valid user event");
    WEFT_CHECK(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
               "execution_status %d is neither CL_COMPLETE nor a negative error code",
               execution_status);
    WEFT_CHECK(!atomic_exchange(&event->user_status_set, true), CL_INVALID_OPERATION,
               "the status of this user event was already set");
    weft_event_set_status(event, execution_status);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainEvent(cl_event event)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT), CL_INVALID_EVENT, "event is not a valid event");
    weft_object_retain(WEFT_OBJ(event));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseEvent(cl_event event)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT), CL_INVALID_EVENT, "event is not a valid event");
    weft_object_release(WEFT_OBJ(event));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
               void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT), CL_INVALID_EVENT, "event is not a valid event");
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_command_queue,
                        event->queue);
    case CL_EVENT_CONTEXT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_context,
                        event->context);
    case CL_EVENT_COMMAND_TYPE:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_command_type,
                        event->command_type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        /* whoever polls a launch held back for fusion wants it to run (queue.c) */
        weft_queue_release_event(event);
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_int,
                        atomic_load(&event->status));
    case CL_EVENT_REFERENCE_COUNT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint,
                        weft_object_refcount(WEFT_OBJ(event)));
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not an event query",
                          (unsigned)param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT), CL_INVALID_EVENT, "event is not a valid event");
    WEFT_CHECK(param_name == CL_PROFILING_COMMAND_QUEUED || param_name == CL_PROFILING_COMMAND_SUBMIT ||
                   param_name == CL_PROFILING_COMMAND_START || param_name == CL_PROFILING_COMMAND_END ||
                   param_name == CL_PROFILING_COMMAND_COMPLETE,
               CL_INVALID_VALUE, "param_name 0x%x is not a profiling query", (unsigned)param_name);
    WEFT_CHECK(event->queue, CL_PROFILING_INFO_NOT_AVAILABLE, "user events have no profiling information");
    WEFT_CHECK(event->queue->properties & CL_QUEUE_PROFILING_ENABLE, CL_PROFILING_INFO_NOT_AVAILABLE,
               "the event's queue was created without CL_QUEUE_PROFILING_ENABLE");
    WEFT_CHECK(atomic_load_explicit(&event->status, memory_order_acquire) == CL_COMPLETE,
               CL_PROFILING_INFO_NOT_AVAILABLE, "the command is not complete (status %d)",
               atomic_load(&event->status));
    cl_ulong t;
    /* The times were written before the release store of CL_COMPLETE read above. */
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED: t = event->time_queued; break;
    case CL_PROFILING_COMMAND_SUBMIT: t = event->time_submit; break;
    case CL_PROFILING_COMMAND_START: t = event->time_start; break;
    case CL_PROFILING_COMMAND_END: t = event->time_end; break;
    default: t = event->time_complete; break;
    }
    WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_ulong, t);
}

CL_API_ENTRY cl_int CL_API_CALL
clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
    WEFT_CHECK(num_events > 0 && event_list, CL_INVALID_VALUE,
               "num_events is %u and event_list is %s", num_events, event_list ? "set" : "NULL");
    for (cl_uint i = 0; i < num_events; i++)
        WEFT_CHECK(weft_object_is(event_list[i], WEFT_TYPE_EVENT), CL_INVALID_EVENT,
                   "event_list[%u] is not a valid event", i);
    for (cl_uint i = 1; i < num_events; i++)
        WEFT_CHECK(event_list[i]->context == event_list[0]->context, CL_INVALID_CONTEXT,
                   "event_list[%u] belongs to another context than event_list[0]", i);
    /* Hold the events while waiting: another thread may release them meanwhile. Commands are
     * submitted when enqueued, so the implicit flush of the specification is already done. */
    for (cl_uint i = 0; i < num_events; i++)
        weft_object_hold(WEFT_OBJ(event_list[i]));
    /* every event's queue runs its held launches now, not only the first one waited on */
    for (cl_uint i = 0; i < num_events; i++)
        weft_queue_release_event(event_list[i]);
    bool failed = false;
    for (cl_uint i = 0; i < num_events; i++) {
        if (weft_event_wait(event_list[i]) < 0)
            failed = true;
    }
    for (cl_uint i = 0; i < num_events; i++)
        weft_object_unhold(WEFT_OBJ(event_list[i]));
    WEFT_CHECK(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "at least one event of the list terminated with an error");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                   void(CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *), void *user_data)
{
    WEFT_CHECK(weft_object_is(event, WEFT_TYPE_EVENT), CL_INVALID_EVENT, "event is not a valid event");
    WEFT_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    WEFT_CHECK(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
                   command_exec_callback_type == CL_COMPLETE,
               CL_INVALID_VALUE, "command_exec_callback_type %d is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE",
               command_exec_callback_type);
    struct weft_event_callback *cb = calloc(1, sizeof *cb);
    WEFT_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "cannot allocate the callback");
    weft_queue_release_event(event);   /* a callback is a sync point: a held launch runs */
    cb->fn = pfn_notify;
    cb->user_data = user_data;
    cb->type = command_exec_callback_type;

    pthread_mutex_lock(&event->lock);
    cl_int s = atomic_load_explicit(&event->status, memory_order_relaxed);
    bool due = s < 0 || s <= command_exec_callback_type;
    if (!due) {
        /* Append, so that callbacks of the same status run in registration order. */
        struct weft_event_callback **pp = &event->callbacks;
        while (*pp)
            pp = &(*pp)->next;
        *pp = cb;
    }
    pthread_mutex_unlock(&event->lock);
    if (due) {
        cb->status = s < 0 ? s : command_exec_callback_type;
        cb->event = event;
        weft_object_hold(WEFT_OBJ(event));
        callbacks_dispatch(cb);
    }
    return CL_SUCCESS;
}
