/* runtime/event.h — events: command status, user events, callbacks, profiling.
 *
 * Every command has an event (created by weft_command_new), whether or not the application
 * asked for one. Status moves QUEUED -> SUBMITTED -> RUNNING -> COMPLETE (or a negative error);
 * each change is timestamped (CLOCK_MONOTONIC ns), wakes waiters and fires the callbacks
 * registered for that status, in a thread that is not the application's. */
#ifndef WEFT_RUNTIME_EVENT_H
#define WEFT_RUNTIME_EVENT_H

#include <pthread.h>
#include <stdbool.h>
#include "runtime/object.h"
#include "util/clock.h"   /* weft_now_ns: the events' time stamps */

struct weft_event_callback;

struct _cl_event {
    struct weft_object obj;
    cl_context context;
    cl_command_queue queue;          /* NULL for user events */
    cl_command_type command_type;
    atomic_int status;
    cl_ulong time_queued, time_submit, time_start, time_end, time_complete;
    bool timed;                      /* stamps the times: a profiling queue's command, or WEFT_TRACE */
    bool unseen;                     /* a command's event the application never got (queue.c): no
                                        callback, listener or waiter can reach it, only its queue's
                                        atomic reads of status */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct weft_event_callback *callbacks;
    /* helpers may add fields below */
    struct weft_event_listener *listeners;  /* notified once the event is terminal (event.c) */
    unsigned waiters;                        /* threads in weft_event_wait's cond wait (lock) */
    atomic_bool user_status_set;             /* user events: clSetUserEventStatus was called */
    _Atomic uint64_t queue_ticket;           /* command events: 1 + the command's position in its
                                                queue once enqueued, 0 before (queue.c) */
};

/* A runtime party (a command waiting on this event as a dependency) that wants to know when
 * the event reaches a terminal status. `notify` runs exactly once, without any event lock
 * held, on the thread that finished the event. */
struct weft_event_listener {
    struct weft_event_listener *next;
    void (*notify)(struct weft_event_listener *l, cl_int status);
};

/* A new event in CL_QUEUED state (user events: CL_SUBMITTED), refs = 1. */
cl_event weft_event_new(cl_context ctx, cl_command_queue queue, cl_command_type type);
/* Moves the event to `status` (CL_SUBMITTED/RUNNING/COMPLETE or < 0), stamps the time (when
 * someone can read it: ev->timed), wakes waiters and runs the callbacks due. Terminal states are
 * final. */
void weft_event_set_status(cl_event ev, cl_int status);
/* The same with the time stamp given (ns of weft_now_ns): the launches of one fused run all
 * start at the run's start. */
void weft_event_set_status_at(cl_event ev, cl_int status, uint64_t now);
/* Blocks until the event is complete or failed; returns its final status. */
cl_int weft_event_wait(cl_event ev);
/* The same, without helping the event's queue (spin briefly, then sleep on the event). */
cl_int weft_event_wait_plain(cl_event ev);
/* Validates an event wait list against the spec's rules (CL_INVALID_EVENT_WAIT_LIST,
 * CL_INVALID_CONTEXT for an event of another context). */
cl_int weft_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *wait_list);
/* Registers `l` on `ev`. Returns true when registered (notify will run later); false when `ev`
 * is already terminal, in which case nothing is registered and *status gets its status. */
bool weft_event_listen(cl_event ev, struct weft_event_listener *l, cl_int *status);
/* True when status is terminal (CL_COMPLETE or an error). */
static inline bool weft_event_status_is_final(cl_int status) { return status <= CL_COMPLETE; }

#endif
