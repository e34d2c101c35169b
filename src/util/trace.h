/* util/trace.h — seeing what ran: the WEFT_TRACE recorder (a Chrome trace) and the registry
 * of compiled variants that WEFT_TRACE and WEFT_REPORT (exec/report.h) name code by.
 *
 * Guarantees:
 *   - WEFT_TRACE and WEFT_REPORT are read once, when the library is loaded (a constructor), into
 *     weft_trace_enabled and weft_report_enabled. Every hook in the hot paths is one test of one
 *     of these flags: with both unset no event is built, no clock is read, no lock is taken.
 *   - Memory is bounded: the events live in one array of WEFT_TRACE_EVENTS entries (default
 *     WEFT_TRACE_DEFAULT_EVENTS, 128 bytes each), allocated on the first event. Recording claims
 *     an entry with one atomic increment, so any thread (pool workers, command threads, the
 *     application's) records concurrently without a lock; an entry becomes visible to the writer
 *     only once it is complete. When the array is full, later events are counted as dropped,
 *     and the trace says how many ("events_dropped" in its otherData, and a process label).
 *   - The file is written at process exit (atexit), and also at clFinish when
 *     WEFT_TRACE_FLUSH=finish (each time the whole trace so far, written to FILE.tmp and renamed
 *     over FILE, so a reader never sees half a file; a clFinish skips the write when nothing new
 *     was recorded, or when writes have taken a tenth of the time since the last one). It is the JSON trace event format that
 *     chrome://tracing and Perfetto open: {"traceEvents":[...]} with complete ("X") events,
 *     instant ("i") events, async ("b"/"e") events for the time a command waited in its queue,
 *     and metadata ("M") naming the process and every track; ts/dur in microseconds from the
 *     library's load.
 *   - Tracks: one per thread that ran something (named by the thread: weft-worker-N, weft-queue-N,
 *     or the application's), and one per command queue ("queue N") with each command's run.
 */
#ifndef WEFT_UTIL_TRACE_H
#define WEFT_UTIL_TRACE_H

#include <stdbool.h>
#include <stdint.h>

/* WEFT_TRACE=file.json is set (read once at load). */
extern bool weft_trace_enabled;
/* WEFT_REPORT is set (read once at load; exec/report.h prints the report). */
extern bool weft_report_enabled;

#define WEFT_TRACE_DEFAULT_EVENTS (1u << 17)

enum weft_trace_kind {
    WEFT_TRACE_COMMAND,    /* a command's run on its queue's track: a[0] enqueue time (ns),
                              a[1] bytes it moved (transfers), a[2] status, a[3] queue number;
                              detail: the command type */
    WEFT_TRACE_CHUNK,      /* work-groups [a[0], a[0] + a[1]) of a launch run by this thread */
    WEFT_TRACE_COMPILE,    /* a variant compiled (a[3] = 0) or loaded from the disk cache (1):
                              name the kernel, detail the variant, a[0..2] the local size */
    WEFT_TRACE_PROFILE,    /* a profiling step: a[0] the variant's code (registry), a[1] groups,
                              a[2] which of the pair (0 first, 1 second) */
    WEFT_TRACE_DECIDE,     /* instant: a profiled pair decided; a[0], a[1] the two variants' code,
                              a[2] the winner (0/1), a[3] its ns per group; detail "sync"/"async" */
    WEFT_TRACE_FUSED,      /* a fused run: a[0] K (launches), a[1] tiles, a[2] rows per tile,
                              a[3] teams (0: one level); name its first kernel, detail the others */
    WEFT_TRACE_NOT_FUSED,  /* instant: a chain offered to fusion ran unfused; detail... the reason
                              is in `text` */
    WEFT_TRACE_KIND_COUNT
};

/* Names the calling thread's track (the writer otherwise reads the thread's own name). */
uint32_t weft_trace_tid(void);

/* Records one event of `kind` from ts to ts + dur (ns of weft_now_ns; dur 0 for an instant) on
 * track `tid` (0: the calling thread's). `name` and `detail` are copied (cut to fit); NULL is "".
 * Call only when weft_trace_enabled. */
void weft_trace_record(enum weft_trace_kind kind, uint32_t tid, uint64_t ts, uint64_t dur, const char *name,
                       const char *detail, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);
/* The same with a longer text instead of detail (NOT_FUSED's reason). */
void weft_trace_record_text(enum weft_trace_kind kind, uint64_t ts, const char *name, const char *text);

/* Tracks that are not threads: command queues. Queue number n (from 1) is track
 * WEFT_TRACE_QUEUE_TID + n, named "queue n". */
#define WEFT_TRACE_QUEUE_TID 0x40000000u

/* Writes the trace now (process exit). Thread-safe. */
void weft_trace_write(void);
/* clFinish: under WEFT_TRACE_FLUSH=finish, writes the trace when something was recorded since
 * the last write and writing has not taken more than a tenth of the time since (a write costs in
 * proportion to the trace: rewriting it at every clFinish of a program that calls it after every
 * launch would cost quadratic time). */
void weft_trace_finish(void);

/* ---- what code is: the registry of compiled variants ----------------------------------------
 * Filled by the compiler when a variant is compiled or loaded (compiler/specialize.c) while
 * WEFT_TRACE or WEFT_REPORT is on; read by the trace writer and the report to name a work-group
 * function by its kernel and variant, and to say whether it was vectorized. */
struct weft_trace_variant {
    const void *fn;            /* the work-group function */
    char kernel[64];
    char variant[32];          /* compiler/variant.h's name */
    uint64_t local[3];
    bool vec_known;            /* the counts below are known (false: compiled by an older Weft) */
    unsigned vec_done, vec_total;   /* sub-CFGs vectorized across work-items, of all */
    unsigned vec_width, vec_interleave;
    char vec_reason[120];      /* why not vectorized ("" when vectorized or unknown) */
};
void weft_trace_note_variant(const struct weft_trace_variant *v);
/* The variant whose function is fn: true and *out filled, or false. */
bool weft_trace_variant_of(const void *fn, struct weft_trace_variant *out);

#endif
