/* runtime/sync_commands.c — markers, barriers and clEnqueueWaitForEvents.
 *
 * These commands do no work of their own: they are ordering points. Their semantics live in
 * the queue's scheduling rules (queue.c) and are selected by the command flags:
 *   - a marker or barrier without a wait list waits for every command enqueued before it
 *     (WEFT_COMMAND_WAITS_FOR_PREVIOUS); with a wait list it waits for those events only;
 *   - a barrier (and clEnqueueWaitForEvents) keeps every later command of the queue from
 *     starting until it completed (WEFT_COMMAND_BLOCKS_LATER);
 *   - a failed event in the wait list fails the marker or barrier with
 *     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (the queue does that for every command).
 * In an in-order queue every command already behaves like that; the flags matter for
 * out-of-order queues.
 */
#include <CL/cl.h>

#include "runtime/event.h"
#include "runtime/log.h"
#include "runtime/queue.h"

static cl_int enqueue_sync(cl_command_queue queue, cl_command_type type, unsigned flags,
                           cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct weft_command *cmd = weft_command_new(queue, type, num_events, wait_list, 0);
    if (!cmd)
        return weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "cannot allocate the command");
    cmd->flags = flags;
    cmd->run = NULL;   /* nothing to do: completing is the whole effect */
    return weft_command_enqueue(cmd, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    unsigned flags = num_events_in_wait_list ? 0 : WEFT_COMMAND_WAITS_FOR_PREVIOUS;
    return enqueue_sync(command_queue, CL_COMMAND_MARKER, flags, num_events_in_wait_list,
                        event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    unsigned flags = WEFT_COMMAND_BLOCKS_LATER |
                     (num_events_in_wait_list ? 0 : WEFT_COMMAND_WAITS_FOR_PREVIOUS);
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER, flags, num_events_in_wait_list,
                        event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarker(cl_command_queue command_queue, cl_event *event)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    WEFT_CHECK(event, CL_INVALID_VALUE, "event is NULL");
    return enqueue_sync(command_queue, CL_COMMAND_MARKER, WEFT_COMMAND_WAITS_FOR_PREVIOUS, 0, NULL,
                        event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrier(cl_command_queue command_queue)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER,
                        WEFT_COMMAND_WAITS_FOR_PREVIOUS | WEFT_COMMAND_BLOCKS_LATER, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events, const cl_event *event_list)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    WEFT_CHECK(num_events > 0 && event_list, CL_INVALID_VALUE,
               "num_events is %u and event_list is %s", num_events, event_list ? "set" : "NULL");
    for (cl_uint i = 0; i < num_events; i++)
        WEFT_CHECK(weft_object_is(event_list[i], WEFT_TYPE_EVENT), CL_INVALID_EVENT,
                   "event_list[%u] is not a valid event", i);
    for (cl_uint i = 0; i < num_events; i++)
        WEFT_CHECK(event_list[i]->context == command_queue->context, CL_INVALID_CONTEXT,
                   "event_list[%u] belongs to another context than the queue", i);
    /* A wait point: later commands start only once the events are complete. */
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER, WEFT_COMMAND_BLOCKS_LATER, num_events,
                        event_list, NULL);
}
