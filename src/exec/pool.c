/* exec/pool.c — the worker pool that runs the work-groups of a launch (exec/pool.h).
 *
 * Guarantees:
 *   - weft_pool_concurrency() threads run work-groups: weft_device_worker_count() of them
 *     (WEFT_NUM_THREADS, else one per core), i.e. that many minus one pool workers plus the
 *     thread that calls weft_pool_run. Workers are created once, on first use, pinned one per
 *     core (core 0 is left to the calling thread, which is not pinned: it belongs to the
 *     application or to a queue), with every signal blocked so that the application's signal
 *     handlers never run on them.
 *   - weft_pool_run returns only after every work-group first_group .. first_group+total_groups-1
 *     of the launch ran
 *     exactly once, each by exactly one thread, through calls fn(args, ctx, first, count) over
 *     disjoint contiguous ranges. Launches from several threads are serialized (one mutex); the
 *     work of one launch never mixes with another's.
 *   - Each thread slot owns a local-memory arena and a scratch area, WEFT_LOCAL_ALIGN-aligned
 *     (128 bytes, enough for AVX-512), never NULL, grown (never shrunk) when a launch needs
 *     more and otherwise reused across work-groups and launches: nothing is allocated per
 *     work-group. The ctx a work-group function receives is the slot's own copy of the
 *     launch context with local_mem/scratch pointing at that slot's areas. The calling
 *     thread uses slot 0 (shared by all callers, which is safe because launches are
 *     serialized); pool worker i uses slot i.
 *   - Every call of the launch's function runs on a stack with at least WEFT_POOL_BASE_STACK +
 *     stack_size bytes free below it, and ctx->stack_lo/stack_hi bound that stack: the
 *     thread's own when it has that much to spare below the frame that decides (less
 *     STACK_RESERVE), else its slot's own stack (mapped with a guard below it, at least
 *     ALT_STACK_MIN, kept for later launches), switched to once per launch with
 *     makecontext/swapcontext. A thread that cannot map one fails the launch (the caller) or
 *     sits it out (a worker), as with its arenas.
 *   - Launches of one work-group (or on a one-thread pool) run entirely on the calling thread
 *     without touching any worker: no cross-thread hand-off on the latency-critical path.
 *   - Idle workers spin for WORKER_SPIN_NS after their last launch, then sleep on a futex and
 *     take no CPU until the next launch that needs them.
 *   - The caller never depends on a particular worker showing up: a launch completes even if
 *     no helper ever joins (e.g. in a child after fork(), where the workers do not exist).
 *
 * Hand-off protocol. Every worker has a mailbox (its slot): a sequence number `seq` (the futex
 * word it sleeps on) and a `sleeping` flag; bumping `seq` only means "a launch may need you".
 * Taking part in a launch is decided by one word, `state`: a CLOSED bit and the number of
 * helpers that joined. The caller fills `job` and the chunk counter, opens `state` (release),
 * bumps the `seq` of the helpers it wants and futex-wakes the sleeping ones, runs chunks
 * itself, and when the counter is exhausted sets CLOSED and waits
 * only for the helpers that joined (they are running chunks they claimed). A helper joins
 * with a CAS that fails once CLOSED is set, reads `job` only after joining, and leaves with a
 * decrement. So a helper that wakes late never delays the caller and never reads a job that
 * is being rewritten (the caller reopens `state` only when it is CLOSED with nobody joined);
 * if it wakes during a later launch it simply helps with that one. Helpers that are not
 * needed (small launches) are never signalled.
 *
 * Chunking is cache-affine, then guided: for a 1-D grid of groups, the caller splits the groups
 * into one contiguous range per taking-part thread (slot i gets the i-th of `threads` equal
 * ranges), so a launch over the same NDRange as the one before gives each thread the same
 * groups, whose data its cache may still hold (OpenMP's static schedule). A thread claims max(1, what is left / 8) of its own
 * range at a time with a CAS on the range's counter, then takes what the others left, a
 * quarter of a range's rest at a time, until every range is used up: early chunks are big (few
 * atomics), the last ones single groups (every thread stays busy to the end), and a helper that
 * never shows up, or comes late, loses its range to the others (claiming half of the own range
 * at once left a late thread a first chunk no one could take over: mad kernels 12-19% slower
 * on the 16-core Xeon). A launch may cap the chunk size (max_chunk). A launch with a capped
 * chunk size or a 2-D or 3-D grid of groups (unless grid_ranges: weft_pool_ranges says when) is
 * one range, slot 0's, that every thread claims
 * guided: max(1, what is left / (2 * threads)) at a time, so early chunks are big and the last
 * ones single groups (a quarter at a time, as stealing takes, left the first thieves a quarter
 * of the whole launch each: sgemm_tiled 4x slower on the 16-core Xeon).
 *
 * Callers. A root-pool caller that runs on a worker's core shares that core with the worker
 * (the caller is not pinned, the worker is) until the scheduler moves one of them, which can
 * take the whole launch: on a 2-core Sapphire Rapids VM, a tenth of hashcat's 2 ms launches
 * ran on the caller alone, the worker joining after 3 ms or never (hashcat -b -m 0: 420-440
 * MH/s, pocl 540-570). So the root pool's caller CPUs are the cores without a worker: its
 * queues' command threads are bound there (weft_pool_adopt_thread), and an application
 * thread runs a queue's commands itself only while it runs there (weft_pool_thread_inside);
 * elsewhere it waits for the command thread, as for a sub-device.
 *
 * Sub-devices. Each has a pool of its own (weft_pool_new): the same protocol on its own slots,
 * worker i pinned to its core[i], no NUMA plan, stopped and joined by weft_pool_free. A
 * thread's launches go to the pool it entered (weft_pool_enter; the root pool otherwise), and a
 * thread that is not on one of a sub-device pool's cores is bound to them while it is in it.
 *
 * NUMA. Where hwloc shows the threads on two nodes or more, the pool follows a plan
 * (exec/numa.h): threads are numbered node after node (slot i pinned to plan->core[i]), so
 * the ranges of a node's threads are adjacent and the node owns one contiguous piece of a 1-D
 * launch, launch after launch; a buffer such a launch walks in order is first touched, and so
 * placed by Linux's first-touch policy, piece by piece on the node whose threads use it
 * (runtime/storage.c has the host's first writes follow the same pieces). A thread that has
 * used up its range steals from its own node's threads until they have nothing left, and only
 * then from other nodes, those of its package first. 2-D and 3-D grids (but those with
 * grid_ranges) and capped launches keep the one guided range (node-blind, as their
 * neighbouring groups share data). On one node
 * there is no plan and none of this code runs: the pool is exactly what it was.
 */
#define _GNU_SOURCE
#include "exec/pool.h"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* AddressSanitizer must be told when a thread moves to another stack (and back), or it takes
 * the other stack's frames for overflows of this one. */
#if defined(__SANITIZE_ADDRESS__)
#define POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_ASAN 1
#endif
#endif
#ifdef POOL_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#include "exec/numa.h"
#include "exec/topology.h"
#include "exec/workers.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/trace.h"

/* How long an idle worker (or the caller waiting for helpers) spins before sleeping. Long
 * enough to catch the next launch of a tight enqueue loop, short enough that an idle process
 * goes quiet at once. */
#define WORKER_SPIN_NS 50000u
#define CALLER_SPIN_NS 50000u
/* Areas are allocated in multiples of this (and at least this), so small growth steps do
 * not reallocate every launch. */
#define AREA_GRANULE 4096u
#define CACHE_LINE 128
/* Stack a thread keeps unused below the frame that decides where a launch runs: the pool's
 * own frames, signal handlers of the application's threads, and the gap Linux leaves below
 * a main thread's stack (stack_guard_gap, 1 MiB), which pthread_getattr_np counts as stack. */
#define STACK_RESERVE ((size_t)1 << 20)
/* A slot's own stack is at least what a thread usually has, so that a thread with a small
 * stack of its own gets as much as any other for ordinary launches; mapped without
 * reserving memory, so untouched pages cost nothing. */
#define ALT_STACK_MIN ((size_t)8 << 20)
#define ALT_STACK_GRANULE ((size_t)1 << 20)
/* Inaccessible pages below a slot's stack: a frame that runs past the end faults instead of
 * writing into whatever is mapped below. */
#define ALT_STACK_GUARD ((size_t)256 << 10)
#define DEFAULT_STACK_MAX_MB 256u

struct area {
    char *ptr;                   /* WEFT_LOCAL_ALIGN-aligned, never NULL once the slot is ready */
    size_t cap;
};

/* A stack of a slot's own: [map + ALT_STACK_GUARD, map + map_size), the guard below it. */
struct alt_stack {
    char *map;
    size_t map_size;             /* guard included; 0 while none is mapped */
};

/* One per thread that runs work-groups, on cache lines of its own. The mailbox (written by
 * callers) and the worker's own data (written by the worker every launch) sit on different
 * lines so that a caller's wake-up does not fight the worker for a line. */
struct slot {
    alignas(CACHE_LINE) atomic_uint seq;       /* futex word: bumped when a launch may need us */
    atomic_uint sleeping;                      /* 1 while the worker is (about to be) in FUTEX_WAIT */
    alignas(CACHE_LINE) struct area local;
    struct area scratch;
    struct alt_stack alt;
    bool on_alt;                               /* this launch runs on `alt` (slot_prepare) */
    struct weft_wg_ctx ctx;                    /* this slot's copy of the launch context */
    unsigned index;
    struct pool *pool;                         /* the pool this slot belongs to */
    pthread_t thread;
    /* the launch's range of groups this slot owns, [next, end) left to claim: written by the
     * caller before it opens the launch, claimed by any thread that takes part */
    alignas(CACHE_LINE) _Atomic uint64_t next;
    uint64_t end;
};

/* The launch in flight: written by the caller while `state` is CLOSED with nobody joined,
 * read by helpers only while joined. */
struct job {
    const struct weft_launch *launch;
    unsigned threads;            /* caller + helpers taking part */
    bool one_range;              /* all groups in slot 0's range (see Chunking) */
};

struct pool {
    unsigned nthreads;           /* slots: caller (0) + workers (1 .. nthreads-1) */
    struct slot *slots;
    /* A sub-device's pool (weft_pool_new): the cores its threads run on, slot i's worker pinned
     * to core[i]; NULL for the root pool, whose workers are pinned as described above. */
    unsigned *core;
    struct weft_cpuset *cpus;    /* ... and their CPUs (NULL: unknown, nothing is bound) */
    /* The root pool's caller CPUs: those of the cores no worker is pinned to (core 0 when
     * there is a worker on every other core), where its queues' command threads are bound and
     * where a thread must run to lead a launch (see Callers below). NULL: every core has a
     * worker, nothing is pinned, or the CPUs are unknown; and for a sub-device's pool. Set
     * once by pool_init, read without the lock. */
    _Atomic(struct weft_cpuset *) caller_cpus;
    atomic_bool quit;            /* weft_pool_free: workers leave */
    /* The NUMA worker groups (see NUMA below), only where the threads sit on two nodes or
     * more; NULL on one node, where the pool runs as it always did. Read-only after init. */
    struct weft_numa_plan *numa;
    pthread_mutex_t launch_lock; /* serializes launches and guards slot 0 and `job` */
    struct job job;
    alignas(CACHE_LINE) atomic_uint state;     /* STATE_CLOSED | helpers joined (futex word) */
    atomic_uint caller_sleeping;
};

#define STATE_CLOSED 0x80000000u

static struct pool root_pool = {.launch_lock = PTHREAD_MUTEX_INITIALIZER, .state = STATE_CLOSED};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* The pool the calling thread's launches go to (weft_pool_enter); NULL: the root pool. */
static _Thread_local struct pool *current_pool;
/* The pool this thread is bound to for good (weft_pool_adopt_thread): a sub-device's, to its
 * cores; the root pool, to its caller CPUs. */
static _Thread_local struct pool *adopted_pool;

/* ---- small helpers ------------------------------------------------------------------------ */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void futex_wait(atomic_uint *word, unsigned expected)
{
    /* Returns at once when *word != expected (EAGAIN); spurious wake-ups are handled by the
     * callers' loops. FUTEX_PRIVATE: the words never live in shared memory. */
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word, int count)
{
    syscall(SYS_futex, (unsigned *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

/* Makes `a` at least `need` bytes (and never NULL). Returns false when memory is short; the
 * old area is then kept as it was. */
static bool area_reserve(struct area *a, size_t need)
{
    if (a->ptr && a->cap >= need)
        return true;
    if (need > SIZE_MAX - AREA_GRANULE)
        return false;
    size_t cap = (size_t)weft_round_up(need ? need : 1, AREA_GRANULE);
    char *p = aligned_alloc(WEFT_LOCAL_ALIGN, cap);
    if (!p)
        return false;
    free(a->ptr);
    a->ptr = p;
    a->cap = cap;
    return true;
}

/* The calling thread's stack, [lo, hi), found once per thread: the generic-address-space
 * builtins (to_private, to_global) tell private memory by it. */
static void thread_stack(char **lo, char **hi)
{
    static _Thread_local char *stack_lo, *stack_hi;
    if (!stack_hi) {
        pthread_attr_t attr;
        void *addr = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) != 0)
                addr = NULL;
            pthread_attr_destroy(&attr);
        }
        if (!addr) {   /* unknown: at least this frame and 8 MiB below it */
            uintptr_t here = (uintptr_t)__builtin_frame_address(0);
            addr = (void *)(here - ((uintptr_t)8 << 20));
            size = ((size_t)8 << 20) + 4096;
        }
        stack_lo = addr;
        stack_hi = (char *)addr + size;
    }
    *lo = stack_lo;
    *hi = stack_hi;
}

/* Makes `a` a stack of at least `need` usable bytes. Returns false when it cannot be mapped;
 * the old stack is then kept as it was. Only between launches: nothing runs on it now. */
static bool alt_reserve(struct alt_stack *a, size_t need)
{
    if (a->map_size && a->map_size - ALT_STACK_GUARD >= need)
        return true;
    if (need > SIZE_MAX / 2)
        return false;
    size_t size = need < ALT_STACK_MIN ? ALT_STACK_MIN : (size_t)weft_round_up(need, ALT_STACK_GRANULE);
    size_t map_size = size + ALT_STACK_GUARD;
    char *p = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                   -1, 0);
    if (p == MAP_FAILED)
        return false;
    if (mprotect(p, ALT_STACK_GUARD, PROT_NONE) != 0) {
        munmap(p, map_size);
        return false;
    }
    if (a->map_size)
        munmap(a->map, a->map_size);
    a->map = p;
    a->map_size = map_size;
    return true;
}

/* Where slot `s` runs `launch`'s calls (on the thread that will run them): on this thread's
 * stack when it has WEFT_POOL_BASE_STACK + stack_size to spare below this frame (the calls
 * run a few frames below), else on the slot's own stack. */
static bool slot_choose_stack(struct slot *s, const struct weft_launch *launch)
{
    size_t need = WEFT_POOL_BASE_STACK + launch->stack_size;
    char *lo, *hi;
    thread_stack(&lo, &hi);
    uintptr_t here = (uintptr_t)__builtin_frame_address(0), bottom = (uintptr_t)lo;
    size_t room = here > bottom && here - bottom > STACK_RESERVE ? here - bottom - STACK_RESERVE : 0;
    s->on_alt = need > room;
    if (!s->on_alt) {
        s->ctx.stack_lo = lo;
        s->ctx.stack_hi = hi;
        return true;
    }
    if (!alt_reserve(&s->alt, need + STACK_RESERVE))
        return false;
    s->ctx.stack_lo = s->alt.map + ALT_STACK_GUARD;
    s->ctx.stack_hi = s->alt.map + s->alt.map_size;
    return true;
}

/* Prepares slot `s` for `launch` (called on the thread that will run it): areas large enough,
 * ctx copied with this slot's areas and the stack its calls run on. */
static bool slot_prepare(struct slot *s, const struct weft_launch *launch)
{
    if (launch->stack_size > weft_pool_stack_limit())
        return false;
    if (!area_reserve(&s->local, launch->local_mem_size) || !area_reserve(&s->scratch, launch->scratch_size))
        return false;
    s->ctx = launch->ctx;
    s->ctx.local_mem = s->local.ptr;
    s->ctx.scratch = s->scratch.ptr;
    s->ctx.local_mem_size = launch->local_mem_size;
    s->ctx.scratch_size = launch->scratch_size;
    return slot_choose_stack(s, launch);
}

/* ---- running on a slot's own stack -------------------------------------------------------- */

struct alt_call {
    void (*body)(void *);
    void *arg;
    ucontext_t back;             /* where alt_entry returns to (uc_link) */
    const void *from_bottom;     /* the thread's own stack, for AddressSanitizer */
    size_t from_size;
};

/* The call alt_entry makes: makecontext passes only int arguments. */
static _Thread_local struct alt_call *alt_current;

static void alt_entry(void)
{
    struct alt_call *c = alt_current;
#ifdef POOL_ASAN
    __sanitizer_finish_switch_fiber(NULL, &c->from_bottom, &c->from_size);
#endif
    c->body(c->arg);
#ifdef POOL_ASAN
    __sanitizer_start_switch_fiber(NULL, c->from_bottom, c->from_size);   /* NULL: not coming back */
#endif
}

/* Runs body(arg) on the stack slot_prepare chose for `s`. */
static void slot_run(struct slot *s, void (*body)(void *), void *arg)
{
    if (!s->on_alt) {
        body(arg);
        return;
    }
    struct alt_call c = {.body = body, .arg = arg};
    ucontext_t uc;
    getcontext(&uc);
    uc.uc_stack.ss_sp = s->alt.map + ALT_STACK_GUARD;
    uc.uc_stack.ss_size = s->alt.map_size - ALT_STACK_GUARD;
    uc.uc_link = &c.back;
    makecontext(&uc, alt_entry, 0);
    alt_current = &c;
#ifdef POOL_ASAN
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, uc.uc_stack.ss_sp, uc.uc_stack.ss_size);
#endif
    swapcontext(&c.back, &uc);
#ifdef POOL_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#endif
    alt_current = NULL;
}

/* A chunk under WEFT_TRACE: timed, and recorded as a slice of this thread (util/trace.h). */
static __attribute__((noinline)) void run_chunk_traced(struct slot *s, const struct weft_launch *launch,
                                                       uint64_t first, uint64_t count)
{
    uint64_t t0 = weft_now_ns();
    launch->fn(launch->args, &s->ctx, first, count);
    weft_trace_record(WEFT_TRACE_CHUNK, 0, t0, weft_now_ns() - t0, launch->name ? launch->name : "work-groups", NULL,
                      first, count, 0, 0);
}

/* Runs groups [first, first + count) of the launch on slot s. Tracing costs the untraced path
 * one test of a flag read at load. */
static inline void run_chunk(struct slot *s, const struct weft_launch *launch, uint64_t first, uint64_t count)
{
    if (__builtin_expect(weft_trace_enabled, 0))
        run_chunk_traced(s, launch, first, count);
    else
        launch->fn(launch->args, &s->ctx, first, count);
}

/* Claims max(1, what is left of r's range / divisor) groups of it, at most max_chunk (0: no
 * cap), into [*first, *first + *count); false when the range is used up. */
static bool claim(struct slot *r, uint64_t divisor, uint64_t max_chunk, uint64_t *first, uint64_t *count)
{
    uint64_t f = atomic_load_explicit(&r->next, memory_order_relaxed);
    for (;;) {
        if (f >= r->end)
            return false;
        uint64_t chunk = (r->end - f) / divisor;
        if (chunk == 0)
            chunk = 1;
        if (max_chunk && chunk > max_chunk)
            chunk = max_chunk;
        if (atomic_compare_exchange_weak_explicit(&r->next, &f, f + chunk, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *first = f;
            *count = chunk;
            return true;
        }   /* `f` now holds the current value */
    }
}

/* Takes over what the other threads of a multi-node pool left of their ranges (1/steal_div of
 * a range's rest at a time): the threads of s's node until they have nothing left, then every
 * thread, nearest nodes first (weft_numa_victims). */
static void steal_by_node(struct slot *s, const struct weft_launch *launch, unsigned threads, uint64_t steal_div)
{
    unsigned order[threads], same;   /* threads <= WEFT_WORKERS_MAX (exec/workers.h): 16 KiB at most */
    struct pool *p = s->pool;
    const unsigned n = weft_numa_victims(p->numa, s->index, threads, order, &same);
    uint64_t first, count;
    for (unsigned limit = same;; limit = n) {
        for (bool found = true; found;) {
            found = false;
            for (unsigned k = 0; k < limit; k++)
                if (claim(&p->slots[order[k]], steal_div, launch->max_chunk, &first, &count)) {
                    run_chunk(s, launch, launch->first_group + first, count);
                    found = true;
                }
        }
        if (limit == n)
            return;
    }
}

/* Runs slot `s`'s own range of the current launch, then what the others left, with its context.
 * One range shared by all is claimed guided, max(1, what is left / (2 * threads)) at a time. */
static void run_chunks(struct slot *s, const struct weft_launch *launch, unsigned threads)
{
    uint64_t first, count;
    struct pool *p = s->pool;
    const bool one = p->job.one_range;
    const uint64_t own_div = one ? 2u * (uint64_t)threads : 8u, steal_div = one ? 2u * (uint64_t)threads : 4u;
    if (s->index < threads)
        while (claim(s, own_div, launch->max_chunk, &first, &count))
            run_chunk(s, launch, launch->first_group + first, count);
    if (p->numa && !one) {
        steal_by_node(s, launch, threads, steal_div);
        return;
    }
    for (bool found = true; found;) {
        found = false;
        for (unsigned k = 1; k <= threads; k++) {
            struct slot *r = &p->slots[(s->index + k) % threads];
            if (claim(r, steal_div, launch->max_chunk, &first, &count)) {
                run_chunk(s, launch, launch->first_group + first, count);
                found = true;
            }
        }
    }
}

struct chunks_call {
    struct slot *s;
    const struct weft_launch *launch;
    unsigned threads;
};

static void chunks_body(void *arg)
{
    const struct chunks_call *c = arg;
    run_chunks(c->s, c->launch, c->threads);
}

/* The whole launch in one call (the caller alone). */
static void whole_body(void *arg)
{
    const struct chunks_call *c = arg;
    run_chunk(c->s, c->launch, c->launch->first_group, c->launch->total_groups);
}

/* ---- workers ------------------------------------------------------------------------------ */

/* The core (topology numbering, taken % cores when pinned) that slot i's worker is pinned to. */
static unsigned worker_core(const struct pool *p, unsigned i)
{
    return p->core ? p->core[i] : p->numa ? p->numa->core[i] : i;
}

/* Joins the open launch, if any; after that `job` is valid until helper_leave. */
static bool helper_join(struct pool *p)
{
    unsigned w = atomic_load_explicit(&p->state, memory_order_relaxed);
    do {
        if (w & STATE_CLOSED)
            return false;
    } while (!atomic_compare_exchange_weak_explicit(&p->state, &w, w + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    return true;
}

static void helper_leave(struct pool *p)
{
    /* seq_cst, paired with the caller's (caller_sleeping store, state load) */
    if (atomic_fetch_sub(&p->state, 1) - 1 == STATE_CLOSED && atomic_load(&p->caller_sleeping))
        futex_wake(&p->state, 1);
}

static void *worker_main(void *arg)
{
    struct slot *s = arg;
    struct pool *p = s->pool;
    char name[16];
    snprintf(name, sizeof name, p->core ? "weft-sub-%u" : "weft-worker-%u", s->index % 1000u);
    pthread_setname_np(pthread_self(), name); /* shows in top -H, gdb and perf */
    weft_topology_pin_current_thread(worker_core(p, s->index));
    /* Not a load: the first launch may bump seq before this thread gets to run. */
    unsigned seen = 0;
    for (;;) {
        /* Wait for our sequence number to move: spin first, then sleep. */
        unsigned cur = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (cur == seen) {
            uint64_t deadline = now_ns() + WORKER_SPIN_NS;
            unsigned spins = 0;
            while ((cur = atomic_load_explicit(&s->seq, memory_order_acquire)) == seen) {
                cpu_relax();
                if ((++spins & 63u) == 0 && now_ns() >= deadline)
                    break;
            }
            while (cur == seen) {
                atomic_store(&s->sleeping, 1);
                /* Re-check after announcing sleep (Dekker with the caller's seq bump, both
                 * seq_cst): either the caller sees sleeping == 1 and wakes us, or we see
                 * the new seq here. */
                cur = atomic_load(&s->seq);
                if (cur == seen)
                    futex_wait(&s->seq, seen);
                atomic_store(&s->sleeping, 0);
                cur = atomic_load_explicit(&s->seq, memory_order_acquire);
            }
        }
        seen = cur;
        if (atomic_load_explicit(&p->quit, memory_order_acquire))
            return NULL;
        if (!helper_join(p))
            continue; /* the launch we were called for is over already */
        const struct weft_launch *launch = p->job.launch;
        unsigned threads = p->job.threads;
        if (slot_prepare(s, launch)) {
            struct chunks_call c = {s, launch, threads};
            slot_run(s, chunks_body, &c);
        } else {
            weft_log(WEFT_LOG_INFO, "worker %u could not grow its arenas to %zu+%zu bytes or get a stack of "
                     "%zu; it sits this launch out", s->index, launch->local_mem_size, launch->scratch_size,
                     WEFT_POOL_BASE_STACK + launch->stack_size);
        }
        helper_leave(p);
    }
    return NULL;
}

/* Gives pool `p` (its nthreads, slots and, for a sub-device's, core set) its slots and starts
 * its n-1 workers, joinable when `joinable` (a sub-device's pool is freed and joins them). The
 * pool shrinks to the workers that could be started. */
static void pool_start(struct pool *p, unsigned n, bool joinable)
{
    if (n < 1)
        n = 1;
    p->slots = aligned_alloc(alignof(struct slot), sizeof(struct slot) * n);
    if (!p->slots) {
        /* Without slots there is still the caller: give it a slot of the pool's own. */
        p->slots = aligned_alloc(alignof(struct slot), sizeof(struct slot));
        n = 1;
        if (!p->slots) {
            static struct slot fallback;   /* the root pool only: a sub-pool's caller fails */
            p->slots = &fallback;
        }
    }
    memset(p->slots, 0, sizeof(struct slot) * n);
    for (unsigned i = 0; i < n; i++) {
        p->slots[i].index = i;
        p->slots[i].pool = p;
    }
    p->nthreads = 1;

    /* Workers inherit this mask: block every signal so handlers run on application threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, joinable ? PTHREAD_CREATE_JOINABLE : PTHREAD_CREATE_DETACHED);
    for (unsigned i = 1; i < n; i++) {
        /* A worker needs its areas before its first launch; allocate the minimum now so a
         * failure here shrinks the pool instead of failing a launch later. */
        struct slot *s = &p->slots[i];
        if (!area_reserve(&s->local, 0) || !area_reserve(&s->scratch, 0))
            break;
        if (pthread_create(&s->thread, &attr, worker_main, s) != 0) {
            weft_log(WEFT_LOG_INFO, "could only start %u of %u worker threads", i - 1, n - 1);
            break;
        }
        p->nthreads = i + 1;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The CPUs of the cores that none of p's workers is pinned to; NULL when there are none (more
 * threads than cores) or the CPUs are unknown. */
static struct weft_cpuset *caller_cpus_of(const struct pool *p)
{
    unsigned cores = weft_topology_get()->cores;
    if (p->nthreads < 2 || cores < 2)
        return NULL;
    bool *taken = calloc(cores, sizeof *taken);
    unsigned *free_cores = malloc(cores * sizeof *free_cores);
    struct weft_cpuset *set = NULL;
    if (taken && free_cores) {
        for (unsigned i = 1; i < p->nthreads; i++)
            taken[worker_core(p, i) % cores] = true;
        unsigned n = 0;
        for (unsigned c = 0; c < cores; c++)
            if (!taken[c])
                free_cores[n++] = c;
        set = n ? weft_topology_cpuset(free_cores, n) : NULL;
    }
    free(taken);
    free(free_cores);
    return set;
}

static void pool_init(void)
{
    unsigned n = weft_device_worker_count();
    if (n < 1)
        n = 1;
    /* Worker groups per NUMA node where the threads span several (set before any worker
     * starts: workers read it to pin themselves). Without memory for the plan, one group. */
    root_pool.numa = weft_numa_plan_new(weft_topology_get(), n);
    if (root_pool.numa && root_pool.numa->used_nodes < 2) {
        weft_numa_plan_free(root_pool.numa);
        root_pool.numa = NULL;
    }
    pool_start(&root_pool, n, false);
    atomic_store_explicit(&root_pool.caller_cpus, caller_cpus_of(&root_pool), memory_order_release);
}

/* The root pool, started. */
static struct pool *pool_root(void)
{
    pthread_once(&pool_once, pool_init);
    return &root_pool;
}

/* The pool the calling thread's launches go to. */
static struct pool *pool_current(void)
{
    return current_pool ? current_pool : pool_root();
}

/* ---- API ---------------------------------------------------------------------------------- */

size_t weft_pool_stack_limit(void)
{
    static _Atomic size_t limit;
    size_t l = atomic_load_explicit(&limit, memory_order_relaxed);
    if (l)
        return l;
    unsigned long long mb = DEFAULT_STACK_MAX_MB;
    const char *e = getenv("WEFT_STACK_MAX_MB");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (*end == 0 && v >= 1 && v <= ((size_t)SIZE_MAX >> 21))
            mb = v;
        else
            weft_log(WEFT_LOG_INFO, "WEFT_STACK_MAX_MB=%s is not a number of MiB; using %u", e, DEFAULT_STACK_MAX_MB);
    }
    l = (size_t)mb << 20;
    atomic_store_explicit(&limit, l, memory_order_relaxed);
    return l;
}

unsigned weft_pool_concurrency(void)
{
    return pool_current()->nthreads;
}

unsigned weft_pool_numa_nodes(void)
{
    struct pool *p = pool_current();
    return p->numa ? p->numa->used_nodes : 1;
}

struct weft_pool *weft_pool_new(const unsigned *cores, unsigned n)
{
    if (n < 1)
        return NULL;
    struct pool *p = aligned_alloc(alignof(struct pool), sizeof *p);   /* sizeof: a multiple of it */
    unsigned *core = malloc(sizeof *core * n);
    if (!p || !core) {
        free(p);
        free(core);
        return NULL;
    }
    memset(p, 0, sizeof *p);
    memcpy(core, cores, sizeof *core * n);
    p->core = core;
    p->cpus = weft_topology_cpuset(core, n);
    pthread_mutex_init(&p->launch_lock, NULL);
    atomic_init(&p->state, STATE_CLOSED);
    atomic_init(&p->caller_sleeping, 0);
    atomic_init(&p->quit, false);
    pool_start(p, n, true);
    return (struct weft_pool *)p;
}

void weft_pool_free(struct weft_pool *wp)
{
    struct pool *p = (struct pool *)wp;
    if (!p)
        return;
    atomic_store_explicit(&p->quit, true, memory_order_release);
    for (unsigned i = 1; i < p->nthreads; i++) {
        struct slot *s = &p->slots[i];
        atomic_fetch_add(&s->seq, 1);   /* seq_cst, as a launch's wake-up */
        futex_wake(&s->seq, 1);
    }
    for (unsigned i = 1; i < p->nthreads; i++)
        pthread_join(p->slots[i].thread, NULL);
    for (unsigned i = 0; i < p->nthreads; i++) {
        struct slot *s = &p->slots[i];
        free(s->local.ptr);
        free(s->scratch.ptr);
        if (s->alt.map_size)
            munmap(s->alt.map, s->alt.map_size);
    }
    free(p->slots);
    free(p->core);
    weft_cpuset_free(p->cpus);
    pthread_mutex_destroy(&p->launch_lock);
    free(p);
}

unsigned weft_pool_size(const struct weft_pool *wp)
{
    return wp ? ((const struct pool *)wp)->nthreads : weft_pool_concurrency();
}

void weft_pool_adopt_thread(struct weft_pool *wp)
{
    struct pool *p = wp ? (struct pool *)wp : pool_root();
    const struct weft_cpuset *cpus = wp ? p->cpus : atomic_load_explicit(&p->caller_cpus, memory_order_acquire);
    if (weft_topology_bind_current_thread(cpus, NULL))
        adopted_pool = p;
}

bool weft_pool_thread_inside(const struct weft_pool *wp)
{
    const struct pool *p = (const struct pool *)wp;
    if (!p) {
        /* the root pool: anywhere but on a worker's core (see Callers) */
        const struct weft_cpuset *cpus = atomic_load_explicit(&root_pool.caller_cpus, memory_order_acquire);
        return !cpus || adopted_pool == &root_pool || weft_cpuset_has_current_cpu(cpus);
    }
    return adopted_pool == p || !p->cpus || weft_cpuset_has_current_cpu(p->cpus);
}

void weft_pool_enter(struct weft_pool *wp, struct weft_pool_scope *scope)
{
    struct pool *p = (struct pool *)wp;
    scope->prev = (struct weft_pool *)current_pool;
    scope->saved = NULL;
    current_pool = p;
    /* A sub-device's launches run on its cores, the calling thread's share included: a thread
     * that is not on one of them is moved there for the scope (runtime/queue.c sees that only
     * threads already there run a sub-device's commands; moving costs 8-11 us a launch). */
    if (p && !weft_pool_thread_inside(wp))
        weft_topology_bind_current_thread(p->cpus, &scope->saved);
}

void weft_pool_leave(struct weft_pool_scope *scope)
{
    weft_topology_restore_binding(scope->saved);
    scope->saved = NULL;
    current_pool = (struct pool *)scope->prev;
}

/* The ranges (see Chunking above), for launches whose groups form one row, or a grid whose
 * groups share little (grid_ranges: a stencil sweep over a 2-D or 3-D NDRange; on the 16-core
 * Xeon its threads then find the planes they wrote in the previous launch in their L2, as
 * OpenMP's static schedule does). The others are one range that every thread takes from in
 * order: a launch that caps its chunks (a fused chain's tiles, one at a time; a profiled slice),
 * as big units balance better taken first come, first served (on the 16-core Xeon, in one A/B,
 * ranges of tiles made Jacobi-2D's fused chain 1.2x slower); and a 2-D or 3-D grid of groups
 * whose neighbours share the data they read (a matrix product's rows of A and columns of B: run
 * side by side, the threads share it in the cache; with ranges, sgemm_tiled took 1.1-1.35x as
 * long on the 2-core EPYC). */
unsigned weft_pool_ranges(const struct weft_launch *launch, unsigned threads)
{
    const bool one_row = launch->ctx.num_groups[1] <= 1 && launch->ctx.num_groups[2] <= 1;
    return launch->max_chunk || !(one_row || launch->grid_ranges) ? 1 : threads;
}

int weft_pool_run(const struct weft_launch *launch)
{
    struct pool *p = pool_current();
    if (launch->total_groups == 0)
        return 0;
    pthread_mutex_lock(&p->launch_lock);
    struct slot *me = &p->slots[0];
    if (!slot_prepare(me, launch)) {
        pthread_mutex_unlock(&p->launch_lock);
        return -1;
    }

    /* Helpers: none for a single group; otherwise as many as there are groups beyond the
     * caller's first one, up to the pool size. */
    uint64_t want = launch->total_groups - 1;
    unsigned helpers = p->nthreads - 1;
    if (want < helpers)
        helpers = (unsigned)want;

    struct chunks_call mine = {me, launch, helpers + 1};
    if (helpers == 0) {
        slot_run(me, whole_body, &mine);
        pthread_mutex_unlock(&p->launch_lock);
        return 0;
    }

    p->job.launch = launch;
    p->job.threads = helpers + 1;
    const uint64_t parts = weft_pool_ranges(launch, helpers + 1);
    p->job.one_range = parts == 1;
    for (unsigned i = 0; i <= helpers; i++) {
        struct slot *r = &p->slots[i];
        uint64_t next, end;
        weft_numa_part(i < parts ? launch->total_groups : 0, parts, i, &next, &end);
        atomic_store_explicit(&r->next, next, memory_order_relaxed);
        r->end = end;
    }
    atomic_store_explicit(&p->state, 0, memory_order_release);     /* open: helpers may join */
    for (unsigned i = 1; i <= helpers; i++) {
        struct slot *s = &p->slots[i];
        atomic_fetch_add(&s->seq, 1);  /* seq_cst, paired with the worker's (sleeping, seq) */
        if (atomic_load(&s->sleeping))
            futex_wake(&s->seq, 1);
    }

    slot_run(me, chunks_body, &mine);

    /* Every group is claimed. Close the launch and wait for the helpers that joined: they
     * may still be running the chunks they claimed. */
    unsigned w = atomic_fetch_or(&p->state, STATE_CLOSED) | STATE_CLOSED;
    if (w != STATE_CLOSED) {
        uint64_t deadline = now_ns() + CALLER_SPIN_NS;
        unsigned spins = 0;
        while (atomic_load_explicit(&p->state, memory_order_acquire) != STATE_CLOSED) {
            cpu_relax();
            if ((++spins & 63u) == 0 && now_ns() >= deadline)
                break;
        }
        while ((w = atomic_load(&p->state)) != STATE_CLOSED) {
            atomic_store(&p->caller_sleeping, 1);
            if ((w = atomic_load(&p->state)) != STATE_CLOSED)
                futex_wait(&p->state, w);
            atomic_store(&p->caller_sleeping, 0);
        }
    }
    p->job.launch = NULL;
    pthread_mutex_unlock(&p->launch_lock);
    return 0;
}
