/* runtime/compile_ahead.c — the background compile thread (runtime/compile_ahead.h).
 *
 * One thread, started at the first job, takes jobs in the order they came (those a launch runs
 * a stand-in for first), each once it has settled, then the guesses (weft_compile_prepare),
 * smallest kernel first. Jobs wait in a short list (at most QUEUE_MAX besides the guesses: a
 * launch that finds the list full compiles nothing ahead; its later launches ask again). At
 * exit, the one running is waited for: exit() runs LLVM's static destructors, which must not
 * run under a compile, and the variant it stores in the disk cache is one the next process need
 * not compile. With a disk cache, the last job a launch asked for (the latest profiling
 * alternative; a merged size when none waits) is compiled too, at once, and the others dropped:
 * a compile given up at exit would be queued, and given up, by every short process again
 * (hashcat -b: the profiling alternative at the benchmark's own size is asked for in its last
 * second, so NTLM ran its vectorized code in every later process, at half the scalar code's
 * speed on the 2-core EPYC). Without one, every job not started is dropped, and so is every
 * guess not started.
 *
 * Exit handlers run newest first, and LLVM registers the destructors of some of its statics
 * when a compile first reaches them (SelectionDAG's set of extended value types, the pass
 * printing lists, TargetLibraryInfo's name table: registered at the process's first code
 * generation, wherever it runs). The handler that waits for the thread must run before those,
 * so it is registered again after every use of LLVM: this thread's compiles (before and after
 * each), and everyone else's (weft_compile_ahead_backend_used). Without that, a process whose
 * first code generation came after the thread started destroyed those statics at exit and
 * then compiled the kept job with them (seen, rarely, as SIGSEGV in the thread at exit, in
 * EVT::isExtendedFixedLengthVector and MachineRegisterInfo, once failing
 * e2e/test_kernels_ndrange_16_threads with the CTests' shared disk cache; with glibc's
 * MALLOC_PERTURB_, a hang every time: e2e/test_compile_ahead). What remains is a compile
 * running at exit that reaches such a static for the first time; the warm-up compile below
 * reaches the known ones before the thread's first job.
 */
#define _GNU_SOURCE   /* pthread_setname_np */
#include "runtime/compile_ahead.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "compiler/cache.h"
#include "compiler/codegen.h"
#include "runtime/kernel.h"
#include "runtime/object.h"
#include "util/clock.h"
#include "util/log.h"

#define QUEUE_MAX 16
/* Guesses (weft_compile_prepare) wait in the queue besides those, after them: a program may
 * create many kernels and ask each its work-group size. */
#define GUESSES_MAX 64
/* The thread's nice value: the pool's workers, and the application, come first. */
#define AHEAD_NICE 10

/* A job waits this long before it starts, so that a later job that supersedes it (a larger
 * merged size: hashcat's autotune asks for 2, 4, ..., 128 within a second) replaces it rather
 * than waiting behind it: a compile cannot be stopped once started. A launch that runs a stand-in
 * for the variant waits for it, the longer settle of a profiling alternative only delays its
 * profiling (hashcat's alternative for merged size 2, queued between the synchronous compiles of
 * sizes 1 to 8, ran 11 s and held up the compile of size 128 until the benchmark ended). */
#define SETTLE_NS 200000000ull
#define SETTLE_SPARE_NS 1000000000ull
/* A guess waits this long: most applications launch right after they ask, and the launch then
 * comes first and the guess is dropped (a running guess holds its kernel, and through it the
 * program, the context and its sub-devices). Not longer: hashcat asks about its markov kernels
 * well under a second before its timed loop launches them (NTLM's first run read 285-751 MH/s
 * with a 200 ms wait on the 2-core Sapphire Rapids VM, 839-961 without). */
#define GUESS_SETTLE_NS 20000000ull

struct job {
    struct job *next;
    uint64_t start_after;   /* weft_now_ns() when it was queued, + its settle */
    cl_kernel kernel;       /* held */
    cl_uint work_dim;
    size_t local[3];
    struct weft_variant_spec spec;
    weft_prepare_fn prepare;   /* a guess (weft_compile_prepare): runs this instead of compiling spec */
    size_t cost;               /* a guess's: its kernel's code size (guesses run smallest first) */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static struct job *head, *tail, *running;
static unsigned queued, guesses;   /* jobs in the queue; how many of them are guesses */
static bool started, stopping;
static bool warmed_up;   /* the thread's own: weft_codegen_warm_up done */

/* `spec` NULL: a guess for that size. */
static bool same_job(const struct job *j, cl_kernel k, cl_uint work_dim, const size_t local[3],
                     const struct weft_variant_spec *spec)
{
    return j->kernel == k && j->work_dim == work_dim && !memcmp(j->local, local, sizeof j->local) &&
           (spec ? !j->prepare && weft_variant_equal(&j->spec, spec) : j->prepare != NULL);
}

/* Called with `lock` held: takes j out of the queue (prev: the job before it, or NULL). */
static void unlink_job(struct job *j, struct job *prev)
{
    if (prev)
        prev->next = j->next;
    else
        head = j->next;
    if (tail == j)
        tail = prev;
    j->next = NULL;
    queued--;
    guesses -= j->prepare != NULL;
}

/* Called with `lock` held: puts j in the queue: a stand-in first, any other job a launch asked
 * for after those and before the guesses, a guess after the guesses of kernels no larger (the
 * cheaper a guess, the likelier it is ready before its launch: hashcat asks about its large
 * kernels before its markov kernels, and launches those inside its timed loop). */
static void link_job(struct job *j, bool stand_in)
{
    struct job *prev = NULL;
    if (!stand_in)
        for (struct job *at = head; at && (!at->prepare || (j->prepare && at->cost <= j->cost)); at = at->next)
            prev = at;
    j->next = prev ? prev->next : head;
    if (prev)
        prev->next = j;
    else
        head = j;
    if (!j->next)
        tail = j;
    queued++;
    guesses += j->prepare != NULL;
}

/* Called with `lock` held: takes out of the queue, as a list for free_jobs, `k`'s guesses
 * (`local` NULL) or its jobs at another local size than `local` (superseded: a group-blind
 * kernel's merged size grows with the global size, hashcat's autotune 2, 4, ..., 128
 * work-items in a few seconds, and only the size its launches want now is worth a compile). */
static struct job *take_jobs(cl_kernel k, cl_uint work_dim, const size_t local[3])
{
    struct job *taken = NULL;
    for (struct job *j = head, *prev = NULL, *n; j; j = n) {
        n = j->next;
        bool take = j->kernel == k && (local ? j->work_dim != work_dim || memcmp(j->local, local, sizeof j->local)
                                             : j->prepare != NULL);
        if (take) {
            unlink_job(j, prev);
            j->next = taken;
            taken = j;
        } else {
            prev = j;
        }
    }
    return taken;
}

/* Outside the lock: the listed jobs' kernels go as they would have gone at the jobs' end (the
 * last hold may destroy a kernel, its program and its context), and the jobs with them. */
static void free_jobs(struct job *list)
{
    for (struct job *j = list, *n; j; j = n) {
        n = j->next;
        weft_object_unhold(WEFT_OBJ(j->kernel));
        free(j);
    }
}

static void stop_at_exit(void);

static void *thread_main(void *unused)
{
    (void)unused;
    pthread_setname_np(pthread_self(), "weft-compile");   /* top -H, gdb, WEFT_TRACE's tracks */
    /* per thread on Linux: the thread id names just this thread */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), AHEAD_NICE) != 0)
        weft_log(WEFT_LOG_DEBUG, "compile ahead: could not lower the thread's priority");
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!stopping && (!head || weft_now_ns() < head->start_after)) {
            if (!head) {
                pthread_cond_wait(&wake, &lock);
                continue;
            }
            uint64_t at = head->start_after;   /* CLOCK_MONOTONIC, as the condition variable's */
            struct timespec ts = {(time_t)(at / 1000000000u), (long)(at % 1000000000u)};
            pthread_cond_timedwait(&wake, &lock, &ts);
        }
        if (stopping)
            break;
        struct job *j = head;
        unlink_job(j, NULL);
        running = j;
        pthread_mutex_unlock(&lock);
        /* The thread's first act is a small compile that reaches LLVM's lazily registered
         * statics (7 registrations with hashcat's kernels in the disk cache, whose only compiles
         * are this thread's: without it, exit destroyed them under the running compile, SIGSEGV in
         * SelectionDAG::Legalize or "LLVM ERROR: Do not know how to expand" at 1 exit in 3-6 on
         * the 2-core EPYC); the handler is registered after it, before each compile, and after
         * each (weft_kernel_get_variant calls weft_compile_ahead_backend_used). */
        if (!warmed_up) {
            if (!weft_codegen_warm_up())
                weft_log(WEFT_LOG_DEBUG, "compile ahead: the backend's warm-up compile failed");
            warmed_up = true;
        }
        atexit(stop_at_exit);

        uint64_t t0 = weft_now_ns();
        if (j->prepare && (weft_kernel_launched(j->kernel) || weft_object_refcount(WEFT_OBJ(j->kernel)) == 0)) {
            /* a launch came first (it compiled, or queued, what it wanted), or the application
             * released the kernel (nothing will launch it) */
        } else if (j->prepare) {
            j->prepare(j->kernel, j->work_dim, j->local);
        } else {
            struct weft_variant v;
            cl_int err = weft_kernel_get_variant(j->kernel, j->work_dim, j->local, &j->spec, &v);
            weft_log(WEFT_LOG_INFO, "%s: compiled ahead for local size %zux%zux%zu in %llu ms%s",
                     weft_kernel_name(j->kernel), j->local[0], j->local[1], j->local[2],
                     (unsigned long long)((weft_now_ns() - t0) / 1000000u),
                     err == CL_SUCCESS ? "" : " (failed: the launch that wants it compiles it and reports why)");
        }
        weft_object_unhold(WEFT_OBJ(j->kernel));   /* still running: exit waits for this too */

        pthread_mutex_lock(&lock);
        running = NULL;
        free(j);
        pthread_cond_broadcast(&done);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void stop_at_exit(void)
{
    pthread_mutex_lock(&lock);
    bool stopped = stopping;   /* a later registration's run */
    pthread_mutex_unlock(&lock);
    if (stopped)
        return;
    char *dir = weft_cache_dir();   /* NULL: nothing compiled now would outlive the process */
    pthread_mutex_lock(&lock);
    /* the last job a launch asked for (guesses are not worth the wait) */
    struct job *keep = NULL, *keep_prev = NULL;
    for (struct job *j = dir && !stopping ? head : NULL, *prev = NULL; j; prev = j, j = j->next)
        if (!j->prepare)
            keep = j, keep_prev = prev;
    if (keep)
        unlink_job(keep, keep_prev);
    struct job *drop = head;
    unsigned dropped = queued;
    head = tail = NULL;
    queued = guesses = 0;
    if (keep) {
        keep->start_after = 0;   /* no settle: nothing will supersede it now */
        link_job(keep, true);
        pthread_cond_broadcast(&wake);
        weft_log(WEFT_LOG_INFO, "compile ahead: %s for local size %zux%zux%zu compiled at exit, for the disk cache",
                 weft_kernel_name(keep->kernel), keep->local[0], keep->local[1], keep->local[2]);
        while (head || running)
            pthread_cond_wait(&done, &lock);
    }
    stopping = true;
    head = tail = NULL;
    queued = guesses = 0;
    pthread_cond_broadcast(&wake);
    while (running)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
    free(dir);
    free_jobs(drop);   /* an application that released the kernels had let them go already */
    if (dropped)
        weft_log(WEFT_LOG_INFO, "compile ahead: %u queued compile(s) dropped at exit", dropped);
}

/* weft_codegen_use_count() at the last weft_compile_ahead_backend_used that registered the
 * handler or found no thread to wait for (a launch calls it every time: registrations only
 * follow new runs, and the lock is taken only then). */
static _Atomic uint64_t armed_after = UINT64_MAX;

void weft_compile_ahead_backend_used(void)
{
    uint64_t uses = weft_codegen_use_count();
    if (uses == armed_after)
        return;
    armed_after = uses;   /* no thread yet: start_thread registers the handler after these runs */
    pthread_mutex_lock(&lock);
    bool arm = started && !stopping;
    pthread_mutex_unlock(&lock);
    if (arm)
        atexit(stop_at_exit);
}

/* Called with `lock` held. */
static bool start_thread(void)
{
    if (started)
        return true;
    /* `wake` times out on the monotonic clock, weft_now_ns()'s; no thread waits on it yet */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&wake);
    pthread_cond_init(&wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    bool ok = pthread_create(&t, &attr, thread_main, NULL) == 0;
    pthread_attr_destroy(&attr);
    if (!ok)
        return false;
    started = true;
    atexit(stop_at_exit);
    return true;
}

/* WEFT_COMPILE_AHEAD_MS, read once: the bound in ms, or -1 for "off". */
static long bound_ms(void)
{
    static _Atomic long cached = -2;
    long b = cached;
    if (b != -2)
        return b;
    const char *e = getenv("WEFT_COMPILE_AHEAD_MS");
    if (e && strcmp(e, "off") == 0) {
        b = -1;
    } else {
        char *end = NULL;
        long v = e && *e ? strtol(e, &end, 10) : -1;
        b = e && *e && end && *end == 0 && v >= 0 ? v : (long)WEFT_COMPILE_AHEAD_MS;
    }
    cached = b;
    return b;
}

bool weft_compile_ahead_on(void)
{
    return bound_ms() >= 0;
}

bool weft_compile_ahead_worth(cl_kernel k)
{
    long b = bound_ms();
    return b == 0 || (b > 0 && weft_kernel_compile_ms(k) >= (uint32_t)b);
}

/* Called with `lock` held: a job for `k` at `local`, which it holds, the thread started; NULL
 * when there is no memory or no thread. */
static struct job *new_job(cl_kernel k, cl_uint work_dim, const size_t local[3])
{
    struct job *j = calloc(1, sizeof *j);
    if (!j || !start_thread()) {
        free(j);
        return NULL;
    }
    weft_object_hold(WEFT_OBJ(k));
    j->kernel = k;
    j->work_dim = work_dim;
    memcpy(j->local, local, sizeof j->local);
    return j;
}

void weft_compile_ahead(cl_kernel k, cl_uint work_dim, const size_t local[3], const struct weft_variant_spec *spec,
                        bool stand_in)
{
    pthread_mutex_lock(&lock);
    bool skip = stopping || (running && same_job(running, k, work_dim, local, spec));
    for (struct job *j = head; j && !skip; j = j->next)
        skip = same_job(j, k, work_dim, local, spec);
    struct job *superseded = skip ? NULL : take_jobs(k, work_dim, local);
    skip = skip || queued - guesses >= QUEUE_MAX;
    struct job *j = skip ? NULL : new_job(k, work_dim, local);
    if (j) {
        j->spec = *spec;
        j->start_after = weft_now_ns() + (stand_in ? SETTLE_NS : SETTLE_SPARE_NS);
        link_job(j, stand_in);   /* a stand-in ahead of the profiling alternatives */
        pthread_cond_signal(&wake);
        weft_log(WEFT_LOG_DEBUG, "%s: compile for local size %zux%zux%zu queued ahead", weft_kernel_name(k),
                 local[0], local[1], local[2]);
    }
    pthread_mutex_unlock(&lock);
    free_jobs(superseded);
}

void weft_compile_drop_guesses(cl_kernel k)
{
    pthread_mutex_lock(&lock);
    struct job *guessed = take_jobs(k, 0, NULL);
    pthread_mutex_unlock(&lock);
    free_jobs(guessed);
}

void weft_compile_prepare(cl_kernel k, cl_uint work_dim, const size_t local[3], weft_prepare_fn prepare)
{
    if (bound_ms() < 0)
        return;   /* WEFT_COMPILE_AHEAD_MS=off: nothing is compiled ahead */
    pthread_mutex_lock(&lock);
    bool skip = stopping || guesses >= GUESSES_MAX || (running && same_job(running, k, work_dim, local, NULL));
    for (struct job *j = head; j && !skip; j = j->next)
        skip = same_job(j, k, work_dim, local, NULL);
    struct job *j = skip ? NULL : new_job(k, work_dim, local);
    if (j) {
        j->prepare = prepare;
        j->cost = weft_kernel_code_size(k);
        j->start_after = weft_now_ns() + GUESS_SETTLE_NS;
        link_job(j, false);
        pthread_cond_signal(&wake);
        weft_log(WEFT_LOG_DEBUG, "%s: variants for local size %zux%zux%zu queued to be prepared", weft_kernel_name(k),
                 local[0], local[1], local[2]);
    }
    pthread_mutex_unlock(&lock);
}
