/* runtime/queue.h — command queues and the one way to make and enqueue a command.
 *
 * Entry points that enqueue work (mem_commands.c, ndrange.c, markers...) never touch a
 * queue's internals: they make a command with weft_command_new (which validates nothing but
 * allocates the command, its event and a payload of `payload_size` bytes), fill the payload
 * and `run`, then hand it to weft_command_enqueue. The queue's command thread runs `run`
 * once every dependency (wait list; for in-order queues the previous command) is complete;
 * `run` returns CL_SUCCESS or a negative error that becomes the event's status. `release`
 * (optional) frees what the payload holds, after the command completed or was discarded.
 * Commands whose wait list contains a failed event are not run: their event fails with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
#ifndef WEFT_RUNTIME_QUEUE_H
#define WEFT_RUNTIME_QUEUE_H

#include <stdbool.h>
#include "runtime/object.h"

struct weft_queue_impl;
struct weft_launch_desc;   /* exec/launch.h */

struct _cl_command_queue {
    struct weft_object obj;
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties;
    cl_queue_properties *prop_list;     /* as given to ...WithProperties, zero-terminated, or NULL */
    size_t num_props;
    struct weft_queue_impl *impl;       /* owned by queue.c */
};

struct weft_command {
    cl_command_type type;
    cl_command_queue queue;
    cl_event event;
    cl_uint num_deps;
    cl_event *deps;                     /* held (weft_object_hold) until the command is freed */
    cl_int (*run)(struct weft_command *cmd);
    void (*release)(struct weft_command *cmd);
    void *payload;                      /* payload_size bytes, zeroed, freed with the command */
    struct weft_command *next;          /* queue.c's list link */
    unsigned flags;                     /* WEFT_COMMAND_* below; set before enqueueing */
    const struct weft_launch_desc *launch;   /* NDRange commands: their launch description in
                                                the payload (ndrange.c), else NULL */
    size_t bytes;                       /* transfers: the bytes they move, for WEFT_TRACE */
};

/* Ordering flags for markers and barriers (sync_commands.c). In an in-order queue every
 * command already waits for all previous ones and blocks all later ones; these flags give
 * out-of-order queues the same behaviour for the commands that ask for it. */
#define WEFT_COMMAND_WAITS_FOR_PREVIOUS 0x1u /* runs only once every earlier command completed */
#define WEFT_COMMAND_BLOCKS_LATER 0x2u       /* no later command starts before this completed */
/* An NDRange launch that may join a fused chain (exec/fuse/fuse.h): an in-order queue holds it
 * back until a sync point and offers the launch descriptions of the run of such commands
 * (weft_command.launch) to weft_fuse_prepare. */
#define WEFT_COMMAND_FUSABLE 0x4u
/* A command short enough to run on the enqueueing thread (ndrange.c: a one-group launch whose
 * last runs took microseconds): when an in-order queue has only such commands before it and
 * their wait lists are complete, weft_command_enqueue runs them there, before returning, instead
 * of handing them to
 * the command thread (on the 16-core device machine that hand-off cost 4.4-6.6 us per launch of
 * a burst, most of it cache lines crossing cores). */
#define WEFT_COMMAND_RUN_IF_IDLE 0x8u

struct weft_command *weft_command_new(cl_command_queue queue, cl_command_type type,
                                      cl_uint num_events, const cl_event *wait_list,
                                      size_t payload_size);
/* Enqueues; when `event_out` is not NULL gives the application a reference to the event;
 * when `blocking`, waits for completion and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
 * if the command (or a dependency) failed. */
cl_int weft_command_enqueue(struct weft_command *cmd, bool blocking, cl_event *event_out);
/* Frees a command that was made but will not be enqueued. */
void weft_command_discard(struct weft_command *cmd);

/* Waits for a command event (ev->queue != NULL, enqueued) to be terminal and returns its
 * status; meanwhile runs runnable commands of its queue, up to that command, on the calling
 * thread. The caller holds `ev`. weft_event_wait uses it for command events. */
cl_int weft_queue_wait_event(cl_event ev);
/* Releases the launches a queue holds back for fusion (exec/fuse/fuse.h) up to and including the
 * command of event `ev` (a command event the caller holds), so that they run without waiting
 * for a sync point: status queries, callbacks and other queues' wait lists use it. */
void weft_queue_release_event(cl_event ev);

/* Waits for every command enqueued so far on every queue of `context`, including queues the
 * application has released whose commands are still in flight (clMemBlockingFreeINTEL). False,
 * having waited for nothing, when there is no memory to list the queues. */
bool weft_queue_finish_context(cl_context context);

/* True when `q` is a live command queue (weft_object_is with the queue type). */
bool weft_is_queue(const void *q);

#endif
