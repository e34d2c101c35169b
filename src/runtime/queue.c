/* runtime/queue.c — command queues and command execution.
 *
 * Guarantees:
 *   - Each queue owns one command thread, started with the queue and joined when the queue
 *     object is destroyed (when the application released it and no command or event holds it
 *     any more; if that last hold goes away on the command thread itself, the thread frees the
 *     queue on its way out).
 *   - A queue keeps every command that is not complete in one list, in submission order
 *     (tickets). A command is runnable when its wait-list events are all terminal and:
 *       in-order queue: it is the oldest command of the list (so commands run one at a time,
 *         in submission order);
 *       out-of-order queue: no older command has WEFT_COMMAND_BLOCKS_LATER, and if the
 *         command has WEFT_COMMAND_WAITS_FOR_PREVIOUS it is the oldest command of the list.
 *   - A command whose wait list holds a failed event does not run; its event fails with
 *     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. Failures do not propagate along the
 *     implicit in-order chain, only along wait lists (as the specification says).
 *   - Delayed enqueue (exec/fuse/fuse.h): an in-order queue holds back launches marked
 *     WEFT_COMMAND_FUSABLE until a sync point (a helper below, a status query or callback on
 *     one of them, another queue's command waiting on one, clReleaseCommandQueue), a command
 *     that is not such a launch, weft_fuse_hold_limit() of them, or QUEUE_HOLD_NS after the
 *     last enqueue (clFlush promises only that commands run eventually). Whoever then runs the
 *     first of them offers the run of released ones to weft_fuse_prepare, and runs them fused
 *     or the first alone.
 *   - A command marked WEFT_COMMAND_RUN_IF_IDLE (a short one-group launch, ndrange.c) runs on
 *     the enqueueing thread before weft_command_enqueue returns, when the queue is in order and
 *     it and every command before it are such commands with complete wait lists (those run
 *     there too); otherwise it is queued like any other.
 *   - Other commands are submitted when enqueued (clFlush has nothing left to do). Whoever waits
 *     helps: blocking commands, clFinish and clWaitForEvents (through weft_event_wait) run
 *     runnable commands of the queue, up to the one waited for, inline on the calling thread
 *     instead of waiting for the command thread. That saves two thread hand-offs on the
 *     latency-critical enqueue-then-wait path (measured: empty kernel launch + clFinish
 *     ~0.5-1 us through the ICD loader). The command thread spins briefly only while its
 *     list is empty (waiting for the next enqueue), then sleeps on a condition variable.
 *   - A sub-device's queue (runtime/subdevice.c): its command thread is bound to the
 *     sub-device's cores for good, and the two rules above apply only to a thread that runs on
 *     one of those cores when it enqueues or waits (weft_pool_thread_inside); any other only
 *     waits. Its commands run on the sub-device's pool (exec/pool.h).
 *   - The root device's queues: their command threads are bound to the cores no pool worker
 *     is pinned to, and a waiting thread runs commands itself only while it runs on one of
 *     those (weft_pool_thread_inside; elsewhere it would share a core with a worker for the
 *     whole launch, exec/pool.c "Callers"). Short launches run on the enqueueing thread
 *     wherever it is: they need no worker.
 *   - A command holds its queue, its wait-list events and its own event; all are released
 *     when it completes (or is discarded). The command, its wait list, its listener nodes
 *     and its payload are one allocation.
 */
#define _GNU_SOURCE   /* pthread_setname_np */
#include "runtime/queue.h"

#include <CL/cl_ext.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/fuse/fuse.h"
#include "exec/pool.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "util/trace.h"

struct command;

/* A command's registration on one of its wait-list events. */
struct dep_listener {
    struct weft_event_listener base;
    struct command *cmd;
};

enum command_state { COMMAND_PENDING, COMMAND_RUNNING };

struct command {
    struct weft_command pub;        /* first: a weft_command * is a command * */
    struct command *prev;           /* queue list (pub.next is the forward link) */
    uint64_t ticket;                /* submission order within the queue */
    enum command_state state;       /* under the queue lock */
    atomic_uint unresolved;         /* wait-list events not yet terminal */
    atomic_bool dep_failed;         /* a wait-list event failed */
    struct dep_listener *listeners; /* pub.num_deps of them */
    size_t bytes;                   /* the block's size (COMMAND_SPARE_BYTES: it may be kept) */
};

struct weft_queue_impl {
    pthread_mutex_t lock;
    pthread_cond_t work_cv;          /* the command thread sleeps here */
    pthread_cond_t done_cv;          /* helpers (blocking enqueue, clFinish) sleep here */
    struct command *head, *tail;     /* not-complete commands, submission order */
    uint64_t next_ticket;
    atomic_uint work_seq;            /* bumped whenever something may have become runnable */
    atomic_uint done_seq;            /* bumped by every completion: what a waiter that may not
                                        run commands (a sub-device's) spins on */
    atomic_bool sleeping;            /* the command thread waits on work_cv */
    unsigned done_waiters;
    bool in_order;
    /* Delayed enqueue (exec/fuse/fuse.h): fusable launches with ticket >= release_ticket are held back;
     * the thread releases them QUEUE_HOLD_NS after the last enqueue at the latest. */
    uint64_t release_ticket;
    uint64_t last_enqueue_ns;
    /* The command thread waits (timed) for held launches' deadline. Another held launch then
     * needs no wake-up: it only moves the deadline, which the thread reads when its wait ends.
     * Waking it for each one cost every launch of a burst a futex wake and the thread a
     * round trip through the lock (a condition-variable hand-off is 19 us on the 16-core
     * device machine). Under the lock. */
    bool hold_waiting;
    _Atomic(struct command *) spare; /* a freed block of COMMAND_SPARE_BYTES, for the next command */
    unsigned number;                 /* 1 for the process's first queue, ...: its thread's name and
                                        its track in WEFT_TRACE's trace */
    bool stop;                       /* the queue object is being destroyed */
    bool self_free;                  /* ... by its own command thread, which frees it on exit */
    pthread_t thread;
    struct weft_pool *pool;          /* its device's (exec/pool.h); NULL: the root device's */
};

/* Spin budgets before sleeping (ns). The command thread spins a little longer: the next
 * command of a tight enqueue loop usually arrives within a few microseconds. */
#define QUEUE_THREAD_SPIN_NS 30000u
#define HELPER_SPIN_NS 20000u
/* Command blocks of up to this size come in this size, and the queue keeps the last one freed
 * for its next command: a burst of launches allocated and freed a 1.5 KiB block each, and glibc
 * consolidated its fast bins at every one (a fifth of the enqueueing thread's time in malloc, on
 * the 2-core EPYC, once the launches ran on that thread). */
#define COMMAND_SPARE_BYTES 2048u
/* How long the command thread holds fusable launches back after the last enqueue when no sync
 * point comes (clFlush only promises that commands run eventually). */
#define QUEUE_HOLD_NS 2000000u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Spins until *seq differs from `seen` or the budget is spent; true when it changed. */
static bool spin_for_change(atomic_uint *seq, unsigned seen, uint64_t budget_ns)
{
    uint64_t start = weft_now_ns();
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(seq, memory_order_acquire) != seen)
            return true;
        cpu_relax();
        if ((i & 63) == 0 && weft_now_ns() - start > budget_ns)
            return false;
    }
}

bool weft_is_queue(const void *q)
{
    return weft_object_is(q, WEFT_TYPE_QUEUE);
}

/* Tells the command thread that something may have become runnable. */
static void queue_wake(struct weft_queue_impl *impl)
{
    atomic_fetch_add(&impl->work_seq, 1);
    /* Pairs with the thread's store of `sleeping` then load of work_seq (both seq_cst):
     * either we see it sleeping and signal under the lock, or it sees our increment. */
    if (atomic_load(&impl->sleeping)) {
        pthread_mutex_lock(&impl->lock);
        pthread_cond_signal(&impl->work_cv);
        pthread_mutex_unlock(&impl->lock);
    }
}

/* A fusable launch not released yet (delayed enqueue). Queue lock held. */
static bool command_held(const struct weft_queue_impl *impl, const struct command *c)
{
    return (c->pub.flags & WEFT_COMMAND_FUSABLE) && c->ticket >= impl->release_ticket;
}

/* Releases every command with ticket < t. Queue lock held. */
static void release_upto(struct weft_queue_impl *impl, uint64_t t)
{
    if (t > impl->release_ticket)
        impl->release_ticket = t;
}

/* The oldest runnable command with ticket <= max_ticket, or NULL. Queue lock held. */
static struct command *find_runnable(struct weft_queue_impl *impl, uint64_t max_ticket)
{
    for (struct command *c = impl->head; c; c = (struct command *)c->pub.next) {
        if (c->ticket > max_ticket)
            return NULL;
        bool ready = c->state == COMMAND_PENDING &&
                     atomic_load_explicit(&c->unresolved, memory_order_acquire) == 0;
        if (impl->in_order)
            return ready && !command_held(impl, c) ? c : NULL;
        if (ready && (!(c->pub.flags & WEFT_COMMAND_WAITS_FOR_PREVIOUS) || c == impl->head))
            return c;
        if (c->pub.flags & WEFT_COMMAND_BLOCKS_LATER)
            return NULL;
    }
    return NULL;
}

/* A zeroed block of `total` bytes for a command of `impl`'s queue. */
static char *command_block(struct weft_queue_impl *impl, size_t total)
{
    size_t bytes = total <= COMMAND_SPARE_BYTES ? COMMAND_SPARE_BYTES : total;
    struct command *c = bytes == COMMAND_SPARE_BYTES ? atomic_exchange(&impl->spare, NULL) : NULL;
    if (c)
        memset(c, 0, total);
    else if (!(c = calloc(1, bytes)))
        return NULL;
    c->bytes = bytes;
    return (char *)c;
}

/* Frees c, or keeps it as its queue's spare block (the queue is alive: c holds it). */
static void command_free(struct command *c)
{
    if (c->bytes == COMMAND_SPARE_BYTES)
        c = atomic_exchange(&c->pub.queue->impl->spare, c);
    free(c);
}

/* Frees the queue object once its command thread has ended. */
static void queue_free(cl_command_queue q)
{
    struct weft_queue_impl *impl = q->impl;
    pthread_cond_destroy(&impl->work_cv);
    pthread_cond_destroy(&impl->done_cv);
    pthread_mutex_destroy(&impl->lock);
    cl_context ctx = q->context;
    cl_device_id dev = q->device;
    free(atomic_load(&impl->spare));
    free(q->prop_list);
    free(impl);
    free(q);
    weft_object_unhold(WEFT_OBJ(ctx));
    weft_object_unhold(WEFT_OBJ(dev));   /* a sub-device may go with it, and its pool */
}

static void command_finish(struct command *c, cl_int status);

/* The fusable commands that follow c (RUNNING) and could run with it now: pending, runnable,
 * released, consecutive. Marks them RUNNING only once a fused run takes them. */
static unsigned collect_chain(struct weft_queue_impl *impl, struct command *c, struct weft_command **cmds,
                              unsigned max)
{
    unsigned n = 0;
    cmds[n++] = &c->pub;
    pthread_mutex_lock(&impl->lock);
    for (struct command *x = (struct command *)c->pub.next; x && n < max; x = (struct command *)x->pub.next) {
        if (!(x->pub.flags & WEFT_COMMAND_FUSABLE) || x->state != COMMAND_PENDING || command_held(impl, x) ||
            atomic_load_explicit(&x->unresolved, memory_order_acquire) != 0 || atomic_load(&x->dep_failed))
            break;
        cmds[n++] = &x->pub;
    }
    pthread_mutex_unlock(&impl->lock);
    return n;
}

/* Tries to run c (RUNNING, a fusable launch of an in-order queue) fused with the launches that
 * follow it; true when it did, and completed them all. */
static bool execute_fused(struct command *c)
{
    struct weft_queue_impl *impl = c->pub.queue->impl;
    struct weft_command *cmds[WEFT_FUSE_MAX_CHAIN];
    unsigned n = collect_chain(impl, c, cmds, weft_fuse_hold_limit()), used = 0;
    if (n < 2)
        return false;
    const struct weft_launch_desc *launches[WEFT_FUSE_MAX_CHAIN];
    for (unsigned i = 0; i < n; i++)
        launches[i] = cmds[i]->launch;
    struct weft_fusion *f = weft_fuse_prepare(launches, n, &used);
    if (!f)
        return false;
    pthread_mutex_lock(&impl->lock);
    for (unsigned i = 1; i < used; i++)
        ((struct command *)cmds[i])->state = COMMAND_RUNNING;
    pthread_mutex_unlock(&impl->lock);
    uint64_t start = weft_now_ns();
    for (unsigned i = 0; i < used; i++)
        weft_event_set_status_at(cmds[i]->event, CL_RUNNING, start);
    cl_int status = CL_SUCCESS;
    if (weft_fuse_run(f) != 0)
        status = weft_error("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES,
                            "could not allocate the windows of a fused chain of %u launches", used);
    weft_fuse_free(f);
    /* in order; the last completion may free the queue, so nothing of it is used after */
    for (unsigned i = 0; i < used; i++)
        command_finish((struct command *)cmds[i], status == CL_SUCCESS ? CL_COMPLETE : status);
    return true;
}

/* Runs (or fails) a command taken by this thread (state RUNNING), then completes it (and, for
 * a fusable launch, maybe the launches fused with it). */
static void command_execute(struct command *c)
{
    cl_event ev = c->pub.event;
    cl_int status;
    /* A sub-device's command runs on its pool, and on its cores whichever thread runs it. The
     * queue (hence the pool) lives until the command's completion lets go of it. */
    struct weft_pool_scope scope;
    weft_pool_enter(c->pub.queue->impl->pool, &scope);
    if (atomic_load(&c->dep_failed)) {
        status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    } else if ((c->pub.flags & WEFT_COMMAND_FUSABLE) && execute_fused(c)) {
        weft_pool_leave(&scope);
        return;
    } else {
        weft_event_set_status(ev, CL_RUNNING);
        status = c->pub.run ? c->pub.run(&c->pub) : CL_SUCCESS;
        if (status > 0)
            status = CL_COMPLETE;
    }
    weft_pool_leave(&scope);
    command_finish(c, status);
}

/* The command type as WEFT_TRACE's trace names it. */
static const char *command_name(cl_command_type t)
{
    switch (t) {
    case CL_COMMAND_NDRANGE_KERNEL: return "NDRangeKernel";
    case CL_COMMAND_TASK: return "Task";
    case CL_COMMAND_READ_BUFFER: return "ReadBuffer";
    case CL_COMMAND_WRITE_BUFFER: return "WriteBuffer";
    case CL_COMMAND_COPY_BUFFER: return "CopyBuffer";
    case CL_COMMAND_READ_BUFFER_RECT: return "ReadBufferRect";
    case CL_COMMAND_WRITE_BUFFER_RECT: return "WriteBufferRect";
    case CL_COMMAND_COPY_BUFFER_RECT: return "CopyBufferRect";
    case CL_COMMAND_FILL_BUFFER: return "FillBuffer";
    case CL_COMMAND_MAP_BUFFER: return "MapBuffer";
    case CL_COMMAND_MAP_IMAGE: return "MapImage";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "UnmapMemObject";
    case CL_COMMAND_READ_IMAGE: return "ReadImage";
    case CL_COMMAND_WRITE_IMAGE: return "WriteImage";
    case CL_COMMAND_COPY_IMAGE: return "CopyImage";
    case CL_COMMAND_FILL_IMAGE: return "FillImage";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: return "CopyImageToBuffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE: return "CopyBufferToImage";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: return "MigrateMemObjects";
    case CL_COMMAND_MARKER: return "Marker";
    case CL_COMMAND_BARRIER: return "Barrier";
    case CL_COMMAND_NATIVE_KERNEL: return "NativeKernel";
    case CL_COMMAND_SVM_FREE: return "SVMFree";
    case CL_COMMAND_SVM_MEMCPY: return "SVMMemcpy";
    case CL_COMMAND_SVM_MEMFILL: return "SVMMemFill";
    case CL_COMMAND_SVM_MAP: return "SVMMap";
    case CL_COMMAND_SVM_UNMAP: return "SVMUnmap";
    case CL_COMMAND_SVM_MIGRATE_MEM: return "SVMMigrateMem";
    case CL_COMMAND_MEMFILL_INTEL: return "MemFillINTEL";
    case CL_COMMAND_MEMCPY_INTEL: return "MemcpyINTEL";
    case CL_COMMAND_MIGRATEMEM_INTEL: return "MigrateMemINTEL";
    case CL_COMMAND_MEMADVISE_INTEL: return "MemAdviseINTEL";
    default: return "Command";
    }
}

/* WEFT_TRACE: the command's run (from RUNNING to its end) on its queue's track, with the time it
 * was enqueued and the bytes a transfer moved (util/trace.h). */
static __attribute__((noinline)) void trace_command(const struct command *c, cl_int status)
{
    const cl_event ev = c->pub.event;
    const unsigned q = c->pub.queue->impl->number;
    const char *type = command_name(c->pub.type);
    const char *name = c->pub.launch && c->pub.launch->name[0] ? c->pub.launch->name : type;
    uint64_t start = ev->time_start ? ev->time_start : ev->time_end;
    weft_trace_record(WEFT_TRACE_COMMAND, WEFT_TRACE_QUEUE_TID + q, start, ev->time_end - start, name, type,
                      ev->time_queued, c->pub.bytes, (uint64_t)(int64_t)status, q);
}

/* Completes a command that ran (or failed) with `status`. */
static void command_finish(struct command *c, cl_int status)
{
    cl_command_queue q = c->pub.queue;
    struct weft_queue_impl *impl = q->impl;
    cl_event ev = c->pub.event;
    /* Release what the payload holds before the event completes, so an application that
     * waited for the event sees the command's objects already let go. */
    if (c->pub.release)
        c->pub.release(&c->pub);
    for (cl_uint i = 0; i < c->pub.num_deps; i++)
        weft_object_unhold(WEFT_OBJ(c->pub.deps[i]));
    weft_event_set_status(ev, status);
    if (weft_trace_enabled)
        trace_command(c, status);

    pthread_mutex_lock(&impl->lock);
    struct command *next = (struct command *)c->pub.next;
    if (c->prev)
        c->prev->pub.next = next ? &next->pub : NULL;
    else
        impl->head = next;
    if (next)
        next->prev = c->prev;
    else
        impl->tail = c->prev;
    if (impl->done_waiters)
        pthread_cond_broadcast(&impl->done_cv);
    bool others = impl->head != NULL;
    pthread_mutex_unlock(&impl->lock);
    atomic_fetch_add_explicit(&impl->done_seq, 1, memory_order_release);
    /* Completion may make younger commands runnable (barriers, markers, in-order order);
     * with none left there is nobody to tell, and a sleeping thread stays asleep. */
    if (others)
        queue_wake(impl);

    command_free(c);
    weft_object_unhold(WEFT_OBJ(ev));
    weft_object_unhold(WEFT_OBJ(q));   /* may destroy the queue */
}

static void *queue_thread_main(void *arg)
{
    cl_command_queue q = arg;
    struct weft_queue_impl *impl = q->impl;
    char name[16];
    snprintf(name, sizeof name, "weft-queue-%u", impl->number % 10000u);
    pthread_setname_np(pthread_self(), name);   /* top -H, gdb, perf and WEFT_TRACE's tracks */
    /* for good: a sub-device's queue to its cores, the root device's to the cores without a
     * worker (exec/pool.c, Callers) */
    weft_pool_adopt_thread(impl->pool);
    pthread_mutex_lock(&impl->lock);
    for (;;) {
        /* Read the sequence before scanning: a dependency resolving concurrently (outside
         * the lock) bumps it after we read it, so we cannot sleep through it. */
        unsigned seen = atomic_load(&impl->work_seq);
        struct command *c = find_runnable(impl, UINT64_MAX);
        if (c) {
            c->state = COMMAND_RUNNING;
            pthread_mutex_unlock(&impl->lock);
            command_execute(c);
            pthread_mutex_lock(&impl->lock);
            continue;
        }
        if (impl->stop)
            break;
        if (impl->head && command_held(impl, impl->head) && impl->head->state == COMMAND_PENDING) {
            /* Delayed enqueue: wait for more launches or a sync point, at most QUEUE_HOLD_NS
             * after the last enqueue; then run what is there. */
            uint64_t due = impl->last_enqueue_ns + QUEUE_HOLD_NS, now = weft_now_ns();
            if (now >= due) {
                release_upto(impl, impl->next_ticket);
                continue;
            }
            struct timespec ts = {(time_t)(due / 1000000000u), (long)(due % 1000000000u)};
            atomic_store(&impl->sleeping, true);
            impl->hold_waiting = true;
            if (atomic_load(&impl->work_seq) == seen && !impl->stop)
                pthread_cond_timedwait(&impl->work_cv, &impl->lock, &ts);
            impl->hold_waiting = false;
            atomic_store(&impl->sleeping, false);
            continue;
        }
        /* Spin only for the next enqueue (empty list). With commands present but none
         * runnable, we wait for a dependency or for a command another thread runs inline:
         * spinning then would only take a core from the kernel that thread is running. */
        if (!impl->head) {
            pthread_mutex_unlock(&impl->lock);
            bool changed = spin_for_change(&impl->work_seq, seen, QUEUE_THREAD_SPIN_NS);
            pthread_mutex_lock(&impl->lock);
            if (changed)
                continue;
        }
        atomic_store(&impl->sleeping, true);
        while (atomic_load(&impl->work_seq) == seen && !impl->stop)
            pthread_cond_wait(&impl->work_cv, &impl->lock);
        atomic_store(&impl->sleeping, false);
    }
    bool self_free = impl->self_free;
    pthread_mutex_unlock(&impl->lock);
    if (self_free) {
        pthread_detach(pthread_self());
        queue_free(q);
    }
    return NULL;
}

/* Every queue whose destruction has not begun, so that a blocking free (clMemBlockingFreeINTEL,
 * runtime/usm.c) can wait for the work of every queue of a context, released by the application
 * or not. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_command_queue *live_queues;
static size_t live_count, live_cap;

static bool live_add(cl_command_queue q)
{
    pthread_mutex_lock(&live_lock);
    if (live_count == live_cap) {
        size_t cap = live_cap ? live_cap * 2 : 16;
        cl_command_queue *t = realloc(live_queues, cap * sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&live_lock);
            return false;
        }
        live_queues = t;
        live_cap = cap;
    }
    live_queues[live_count++] = q;
    pthread_mutex_unlock(&live_lock);
    return true;
}

static void live_remove(cl_command_queue q)
{
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < live_count; i++)
        if (live_queues[i] == q) {
            live_queues[i] = live_queues[--live_count];
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

static void queue_destroy(struct weft_object *obj)
{
    cl_command_queue q = (cl_command_queue)obj;
    struct weft_queue_impl *impl = q->impl;
    live_remove(q);
    pthread_mutex_lock(&impl->lock);
    impl->stop = true;
    atomic_fetch_add(&impl->work_seq, 1);
    pthread_cond_signal(&impl->work_cv);
    if (pthread_equal(pthread_self(), impl->thread)) {
        /* The last hold went away on the command thread (a command completing): the thread
         * frees everything once it unwinds to its loop. */
        impl->self_free = true;
        pthread_mutex_unlock(&impl->lock);
        return;
    }
    pthread_mutex_unlock(&impl->lock);
    pthread_join(impl->thread, NULL);
    queue_free(q);
}

/* ---- commands ------------------------------------------------------------------------------ */

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) & ~(a - 1);
}

struct weft_command *weft_command_new(cl_command_queue queue, cl_command_type type,
                                      cl_uint num_events, const cl_event *wait_list,
                                      size_t payload_size)
{
    size_t off_deps = align_up(sizeof(struct command), alignof(cl_event));
    size_t off_listeners = align_up(off_deps + (size_t)num_events * sizeof(cl_event),
                                    alignof(struct dep_listener));
    size_t off_payload = align_up(off_listeners + (size_t)num_events * sizeof(struct dep_listener),
                                  alignof(max_align_t));
    if (payload_size > SIZE_MAX - off_payload)
        return NULL;
    char *block = command_block(queue->impl, off_payload + payload_size);
    if (!block)
        return NULL;
    struct command *c = (struct command *)block;
    c->pub.event = weft_event_new(queue->context, queue, type);
    if (!c->pub.event) {
        free(block);
        return NULL;
    }
    c->pub.type = type;
    c->pub.queue = queue;
    weft_object_hold(WEFT_OBJ(queue));
    c->pub.num_deps = num_events;
    c->pub.deps = num_events ? (cl_event *)(block + off_deps) : NULL;
    for (cl_uint i = 0; i < num_events; i++) {
        c->pub.deps[i] = wait_list[i];
        weft_object_hold(WEFT_OBJ(wait_list[i]));
    }
    c->listeners = num_events ? (struct dep_listener *)(block + off_listeners) : NULL;
    c->pub.payload = payload_size ? block + off_payload : NULL;
    atomic_init(&c->unresolved, 0);
    atomic_init(&c->dep_failed, false);
    return &c->pub;
}

void weft_command_discard(struct weft_command *cmd)
{
    if (!cmd)
        return;
    cl_command_queue q = cmd->queue;
    if (cmd->release)
        cmd->release(cmd);
    for (cl_uint i = 0; i < cmd->num_deps; i++)
        weft_object_unhold(WEFT_OBJ(cmd->deps[i]));
    weft_object_release(WEFT_OBJ(cmd->event));   /* the reference weft_event_new made */
    command_free((struct command *)cmd);
    weft_object_unhold(WEFT_OBJ(q));
}

/* Whether every command up to c (in an in-order queue) is a short one (WEFT_COMMAND_RUN_IF_IDLE)
 * with its wait list complete: the enqueueing thread may then run them all, waiting at most
 * for one that another thread already runs. Queue lock held. */
static bool runs_here(struct weft_queue_impl *impl, struct command *c)
{
    for (struct command *x = impl->head; x; x = (struct command *)x->pub.next) {
        if (!(x->pub.flags & WEFT_COMMAND_RUN_IF_IDLE) || atomic_load(&x->unresolved) != 0 ||
            atomic_load(&x->dep_failed))
            return false;
        if (x == c)
            return true;
    }
    return false;
}

/* Called once per wait-list event that was not terminal at enqueue, when it becomes so. */
static void dep_notify(struct weft_event_listener *l, cl_int status)
{
    struct command *c = ((struct dep_listener *)l)->cmd;
    cl_command_queue q = c->pub.queue;
    if (status < 0)
        atomic_store(&c->dep_failed, true);
    /* Once `unresolved` reaches 0 the command may run and be freed at any moment, and with
     * it the last hold on the queue: hold the queue across the wake-up. */
    weft_object_hold(WEFT_OBJ(q));
    if (atomic_fetch_sub(&c->unresolved, 1) == 1)
        queue_wake(q->impl);
    weft_object_unhold(WEFT_OBJ(q));
}

/* Runs runnable commands of `q` (ticket <= max_ticket) on this thread and otherwise waits
 * until `until` is terminal (when not NULL) or until every command with ticket <= max_ticket
 * completed. The caller holds `q` (and `until`). */
static void queue_help(cl_command_queue q, uint64_t max_ticket, cl_event until)
{
    struct weft_queue_impl *impl = q->impl;
    /* A sub-device's commands run here only when this thread is on one of its cores already;
     * otherwise it waits for the queue's thread, which is. Moving this thread onto the
     * sub-device's cores and back for each command cost 8.6-11 us a launch on the 2-core EPYC
     * (1.3 us on the root device). */
    const bool may_run = weft_pool_thread_inside(impl->pool);
    pthread_mutex_lock(&impl->lock);
    release_upto(impl, max_ticket + 1);   /* a sync point: held launches up to it run now */
    /* (an empty queue has nothing to hand over: a clFinish after launches that ran on the
     * enqueueing thread costs no wake-up) */
    if (!may_run && impl->head) {
        pthread_mutex_unlock(&impl->lock);
        queue_wake(impl);
        pthread_mutex_lock(&impl->lock);
    }
    for (;;) {
        if (until ? atomic_load(&until->status) <= CL_COMPLETE
                  : (!impl->head || impl->head->ticket > max_ticket))
            break;
        /* before the scan, see the thread; one that only waits watches completions */
        atomic_uint *watch = may_run ? &impl->work_seq : &impl->done_seq;
        unsigned seen = atomic_load(watch);
        struct command *c = may_run ? find_runnable(impl, max_ticket) : NULL;
        if (c) {
            c->state = COMMAND_RUNNING;
            pthread_mutex_unlock(&impl->lock);
            command_execute(c);
            pthread_mutex_lock(&impl->lock);
            continue;
        }
        pthread_mutex_unlock(&impl->lock);
        bool changed = spin_for_change(watch, seen, HELPER_SPIN_NS);
        pthread_mutex_lock(&impl->lock);
        if (changed)
            continue;
        /* Every completion broadcasts done_cv while done_waiters > 0, and the condition
         * above only changes on a completion. */
        impl->done_waiters++;
        if (until ? atomic_load(&until->status) > CL_COMPLETE
                  : (impl->head && impl->head->ticket <= max_ticket))
            pthread_cond_wait(&impl->done_cv, &impl->lock);
        impl->done_waiters--;
    }
    pthread_mutex_unlock(&impl->lock);
}

void weft_queue_release_event(cl_event ev)
{
    uint64_t t = atomic_load_explicit(&ev->queue_ticket, memory_order_acquire);
    if (!ev->queue || t == 0 || weft_event_status_is_final(atomic_load(&ev->status)))
        return;
    struct weft_queue_impl *impl = ev->queue->impl;
    pthread_mutex_lock(&impl->lock);
    bool more = t > impl->release_ticket;
    release_upto(impl, t);
    pthread_mutex_unlock(&impl->lock);
    if (more)
        queue_wake(impl);
}

cl_int weft_queue_wait_event(cl_event ev)
{
    uint64_t t = atomic_load_explicit(&ev->queue_ticket, memory_order_acquire);
    if (t == 0) {
        /* Not enqueued (yet): nothing to help with; the plain wait is all we can do. */
        return weft_event_wait_plain(ev);
    }
    queue_help(ev->queue, t - 1, ev);
    return atomic_load(&ev->status);
}

cl_int weft_command_enqueue(struct weft_command *cmd, bool blocking, cl_event *event_out)
{
    struct command *c = (struct command *)cmd;
    cl_command_queue q = cmd->queue;
    struct weft_queue_impl *impl = q->impl;
    cl_event ev = cmd->event;

    weft_object_hold(WEFT_OBJ(ev));          /* the command's own hold, until it completes */
    if (blocking)
        weft_object_hold(WEFT_OBJ(ev));      /* ours, while we wait */
    if (event_out) {
        *event_out = ev;                     /* the application gets weft_event_new's reference */
    } else {
        ev->unseen = true;                   /* (before its first move: event.c's fast path) */
        weft_object_release(WEFT_OBJ(ev));   /* nobody outside may name this event */
    }

    /* A wait-list event of another queue may be a launch held back there: it must run. */
    for (cl_uint i = 0; i < cmd->num_deps; i++)
        if (cmd->deps[i]->queue && cmd->deps[i]->queue != q)
            weft_queue_release_event(cmd->deps[i]);
    /* Register on the wait-list events that are not terminal yet. The command is not in the
     * list yet, so an event finishing meanwhile only decrements the count. */
    atomic_store(&c->unresolved, cmd->num_deps);
    for (cl_uint i = 0; i < cmd->num_deps; i++) {
        c->listeners[i].cmd = c;
        c->listeners[i].base.notify = dep_notify;
        cl_int s;
        if (!weft_event_listen(cmd->deps[i], &c->listeners[i].base, &s)) {
            if (s < 0)
                atomic_store(&c->dep_failed, true);
            atomic_fetch_sub(&c->unresolved, 1);
        }
    }
    weft_event_set_status(ev, CL_SUBMITTED);

    pthread_mutex_lock(&impl->lock);
    c->ticket = impl->next_ticket++;
    c->state = COMMAND_PENDING;
    /* Delayed enqueue: a command that cannot join a fused chain ends the one before it, and a
     * queue holds at most weft_fuse_hold_limit() launches back. */
    if (!(cmd->flags & WEFT_COMMAND_FUSABLE) || c->ticket + 1 - impl->release_ticket >= weft_fuse_hold_limit())
        release_upto(impl, c->ticket + 1);
    impl->last_enqueue_ns = weft_now_ns();
    c->prev = impl->tail;
    cmd->next = NULL;
    if (impl->tail)
        impl->tail->pub.next = cmd;
    else
        impl->head = c;
    impl->tail = c;
    uint64_t ticket = c->ticket;
    atomic_store_explicit(&ev->queue_ticket, ticket + 1, memory_order_release);
    /* held behind launches the thread is already holding: it has nothing new to run */
    bool quiet = impl->hold_waiting && command_held(impl, c) && c != impl->head;
    /* Short, and only short commands before it (WEFT_COMMAND_RUN_IF_IDLE): run here, with the
     * ones before it. Not only when the queue is empty: a burst whose first launch went to the
     * command thread would otherwise stay behind it for good (each enqueue finding the one
     * before still queued). */
    bool here = !blocking && (cmd->flags & WEFT_COMMAND_RUN_IF_IDLE) && impl->in_order &&
                (!impl->pool || weft_pool_thread_inside(impl->pool)) && runs_here(impl, c);
    /* the usual case, nothing before it: taken now, so that the command thread (spinning after
     * a command of its own) cannot take it between the lock and queue_help */
    bool alone = here && c == impl->head;
    if (alone) {
        c->state = COMMAND_RUNNING;
        release_upto(impl, c->ticket + 1);
    }
    pthread_mutex_unlock(&impl->lock);

    if (alone) {
        command_execute(c);   /* completes it and lets go of the command's holds */
        return CL_SUCCESS;
    }
    if (here) {
        /* like a blocking command, but its failure is its event's, not this call's */
        weft_object_hold(WEFT_OBJ(ev));
        queue_help(q, ticket, ev);
        weft_object_unhold(WEFT_OBJ(ev));
        return CL_SUCCESS;
    }
    if (!blocking) {
        if (!quiet)
            queue_wake(impl);
        return CL_SUCCESS;
    }
    /* Blocking: run what we can here (this command and the ones before it); `q` stays alive
     * because our event holds it. */
    queue_help(q, ticket, ev);
    cl_int status = atomic_load(&ev->status);
    weft_object_unhold(WEFT_OBJ(ev));
    WEFT_CHECK(status >= 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "the blocking command failed (status %d)", status);
    return CL_SUCCESS;
}

/* ---- queue objects ---------------------------------------------------------------------------- */

static cl_command_queue queue_create(cl_context context, cl_device_id device,
                                     cl_command_queue_properties props,
                                     const cl_queue_properties *list, size_t num_props,
                                     cl_int *errcode_ret)
{
    cl_command_queue q = calloc(1, sizeof *q);
    struct weft_queue_impl *impl = calloc(1, sizeof *impl);
    cl_queue_properties *copy = NULL;
    if (num_props) {
        copy = malloc(num_props * sizeof *copy);
        if (copy)
            memcpy(copy, list, num_props * sizeof *copy);
    }
    if (!q || !impl || (num_props && !copy)) {
        free(q);
        free(impl);
        free(copy);
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "cannot allocate the queue"), NULL);
    }
    q->context = context;
    q->device = device;
    q->properties = props;
    q->prop_list = copy;
    q->num_props = num_props;
    q->impl = impl;
    pthread_mutex_init(&impl->lock, NULL);
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);   /* the clock of weft_now_ns */
    pthread_cond_init(&impl->work_cv, &monotonic);
    pthread_condattr_destroy(&monotonic);
    pthread_cond_init(&impl->done_cv, NULL);
    atomic_init(&impl->work_seq, 0);
    atomic_init(&impl->done_seq, 0);
    atomic_init(&impl->sleeping, false);
    impl->in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    static atomic_uint queues;
    impl->number = atomic_fetch_add(&queues, 1) + 1;
    impl->pool = weft_device_pool(device);
    weft_object_hold(WEFT_OBJ(device));
    if (pthread_create(&impl->thread, NULL, queue_thread_main, q) != 0) {
        weft_object_unhold(WEFT_OBJ(device));
        pthread_cond_destroy(&impl->work_cv);
        pthread_cond_destroy(&impl->done_cv);
        pthread_mutex_destroy(&impl->lock);
        free(copy);
        free(impl);
        free(q);
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_RESOURCES, "cannot start the command thread"), NULL);
    }
    weft_object_hold(WEFT_OBJ(context));
    weft_object_init(&q->obj, WEFT_TYPE_QUEUE, queue_destroy);
    if (!live_add(q)) {
        clReleaseCommandQueue(q);
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "no memory to record the queue"),
                           NULL);
    }
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, q);
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a valid context");
    WEFT_CHECK_RET(weft_object_is(device, WEFT_TYPE_DEVICE) && weft_context_has_device(context, device),
                   CL_INVALID_DEVICE, errcode_ret, NULL,
                   "device is not a valid device of the context");
    cl_command_queue_properties bits = 0;
    bool have_bits = false, have_size = false;
    size_t num_props = 0;
    if (properties) {
        size_t i = 0;
        for (; properties[i]; i += 2) {
            switch (properties[i]) {
            case CL_QUEUE_PROPERTIES:
                WEFT_CHECK_RET(!have_bits, CL_INVALID_VALUE, errcode_ret, NULL,
                               "CL_QUEUE_PROPERTIES appears twice in properties");
                have_bits = true;
                bits = (cl_command_queue_properties)properties[i + 1];
                break;
            case CL_QUEUE_SIZE:
                WEFT_CHECK_RET(!have_size, CL_INVALID_VALUE, errcode_ret, NULL,
                               "CL_QUEUE_SIZE appears twice in properties");
                have_size = true;
                break;
            default:
                WEFT_CHECK_RET(false, CL_INVALID_VALUE, errcode_ret, NULL,
                               "unknown queue property 0x%llx at properties[%zu]",
                               (unsigned long long)properties[i], i);
            }
        }
        num_props = i + 1;
    }
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                              CL_QUEUE_ON_DEVICE_DEFAULT;
    WEFT_CHECK_RET(!(bits & ~known), CL_INVALID_VALUE, errcode_ret, NULL,
                   "CL_QUEUE_PROPERTIES has unknown bits 0x%llx", (unsigned long long)(bits & ~known));
    WEFT_CHECK_RET(!(bits & CL_QUEUE_ON_DEVICE_DEFAULT) || (bits & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
                   errcode_ret, NULL, "CL_QUEUE_ON_DEVICE_DEFAULT requires CL_QUEUE_ON_DEVICE");
    WEFT_CHECK_RET(!have_size || (bits & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE, errcode_ret, NULL,
                   "CL_QUEUE_SIZE is only valid for device queues (CL_QUEUE_ON_DEVICE)");
    WEFT_CHECK_RET(!(bits & CL_QUEUE_ON_DEVICE), CL_INVALID_QUEUE_PROPERTIES, errcode_ret, NULL,
                   "the device does not support device-side queues (CL_QUEUE_ON_DEVICE)");
    return queue_create(context, device, bits, properties, num_props, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                     cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a valid context");
    WEFT_CHECK_RET(weft_object_is(device, WEFT_TYPE_DEVICE) && weft_context_has_device(context, device),
                   CL_INVALID_DEVICE, errcode_ret, NULL,
                   "device is not a valid device of the context");
    const cl_command_queue_properties valid = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                              CL_QUEUE_PROFILING_ENABLE;
    WEFT_CHECK_RET(!(properties & ~valid), CL_INVALID_VALUE, errcode_ret, NULL,
                   "properties has bits 0x%llx that clCreateCommandQueue does not accept",
                   (unsigned long long)(properties & ~valid));
    return queue_create(context, device, properties, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainCommandQueue(cl_command_queue command_queue)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    weft_object_retain(WEFT_OBJ(command_queue));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseCommandQueue(cl_command_queue command_queue)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    /* The implicit flush: launches held back for fusion run now. Pending commands hold the
     * queue, so it lives (and its thread runs them) until they complete. */
    struct weft_queue_impl *impl = command_queue->impl;
    pthread_mutex_lock(&impl->lock);
    release_upto(impl, impl->next_ticket);
    pthread_mutex_unlock(&impl->lock);
    queue_wake(impl);
    weft_object_release(WEFT_OBJ(command_queue));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_is_queue(q), CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command queue");
    switch (param_name) {
    case CL_QUEUE_CONTEXT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_context, q->context);
    case CL_QUEUE_DEVICE:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_device_id, q->device);
    case CL_QUEUE_REFERENCE_COUNT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint,
                        weft_object_refcount(WEFT_OBJ(q)));
    case CL_QUEUE_PROPERTIES:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret,
                        cl_command_queue_properties, q->properties);
    case CL_QUEUE_PROPERTIES_ARRAY:
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, q->prop_list,
                               q->num_props * sizeof(cl_queue_properties));
    case CL_QUEUE_SIZE:
        return weft_error(__func__, CL_INVALID_COMMAND_QUEUE,
                          "CL_QUEUE_SIZE is only defined for device queues; this is a host queue");
    case CL_QUEUE_DEVICE_DEFAULT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_command_queue, NULL);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not a queue query",
                          (unsigned)param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clFlush(cl_command_queue command_queue)
{
    WEFT_CHECK(weft_is_queue(command_queue), CL_INVALID_COMMAND_QUEUE,
               "command_queue is not a valid command queue");
    /* Every command was handed to the command thread when it was enqueued; launches it holds
     * back for fusion run at the latest QUEUE_HOLD_NS after the last enqueue. */
    return CL_SUCCESS;
}

/* Waits for every command enqueued on `q` so far; the caller holds q. */
static void queue_finish(cl_command_queue q)
{
    struct weft_queue_impl *impl = q->impl;
    pthread_mutex_lock(&impl->lock);
    uint64_t last = impl->next_ticket;     /* commands with ticket < last were enqueued before */
    pthread_mutex_unlock(&impl->lock);
    if (last > 0)
        queue_help(q, last - 1, NULL);
}

bool weft_queue_finish_context(cl_context context)
{
    pthread_mutex_lock(&live_lock);
    size_t n = 0;
    cl_command_queue *qs = live_count ? malloc(live_count * sizeof *qs) : NULL;
    bool ok = qs || !live_count;
    for (size_t i = 0; qs && i < live_count; i++)
        if (live_queues[i]->context == context && weft_object_try_hold(WEFT_OBJ(live_queues[i])))
            qs[n++] = live_queues[i];
    pthread_mutex_unlock(&live_lock);
    /* outside live_lock: a command completing may drop a queue's last hold, and its destructor
     * takes the lock */
    for (size_t i = 0; i < n; i++) {
        queue_finish(qs[i]);
        weft_object_unhold(WEFT_OBJ(qs[i]));
    }
    free(qs);
    return ok;
}

CL_API_ENTRY cl_int CL_API_CALL
clFinish(cl_command_queue command_queue)
{
    cl_command_queue q = command_queue;
    WEFT_CHECK(weft_is_queue(q), CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command queue");
    weft_object_hold(WEFT_OBJ(q));
    queue_finish(q);
    weft_object_unhold(WEFT_OBJ(q));
    if (weft_trace_enabled)
        weft_trace_finish();   /* WEFT_TRACE_FLUSH=finish (util/trace.h) */
    return CL_SUCCESS;
}
