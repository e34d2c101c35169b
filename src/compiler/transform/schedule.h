/* compiler/transform/schedule.h — locality-centric scheduling of work-items (Kim ch. 3-4): the
 * loops that should run breadth-first (BFO: every work-item runs iteration k before any runs
 * k+1) get a scheduling barrier, so that the work-group passes put the work-item loop (and the
 * vectorizer's packets) inside the kernel's loop instead of around it.
 *
 * Runs on the work function before barrier canonicalization (get_local_id calls still there).
 * Which loops: with WEFT_SCHEDULE_AUTO, those analysis/locality.h votes BFO; with BFO, every
 * loop the transformation can schedule; with DFO, none.
 * Two forms:
 *   - plain: a loop that every work-item enters and leaves together gets the implicit barrier
 *     marker at the top of its header. Its loop-carried values cross that barrier and are
 *     privatized like any other.
 *   - predicated (Kim's divergent BFO): a loop whose trip count differs between work-items,
 *     and/or that sits under one divergent `if` (the `if (gid < n)` guard; the guarded side
 *     must lead straight into the loop), is rewritten so that every work-item of the group
 *     walks one uniform skeleton: a header with the scheduling barrier, a per-work-item active
 *     flag guarding the original body, and a test after each barrier that continues while any
 *     work-item was still active in the previous iteration. That test reads one work-group-
 *     shared word in __local memory that active work-items stamp with the iteration number
 *     (monotonic, so reads and writes of one sub-CFG give every work-item the same answer;
 *     loads are marked uniform for the shape analysis). Work-items leave through a dispatcher
 *     that sends each to its own exit (or, for work-items the guard sent away, to where the
 *     guard sent them). Values that no longer dominate their uses are demoted (ssarepair.h).
 *     No work-item runs an iteration it would not have run.
 * Loops containing a barrier already run breadth-first and are left alone; loops under other
 * divergent control flow stay depth-first (reported).
 */
#ifndef WEFT_TRANSFORM_SCHEDULE_H
#define WEFT_TRANSFORM_SCHEDULE_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

/* DFO is 0: zeroed options leave kernels as they are */
enum weft_schedule_mode { WEFT_SCHEDULE_DFO, WEFT_SCHEDULE_AUTO, WEFT_SCHEDULE_BFO };

#define WEFT_SCHEDULE_MAX_REPORTED 16

struct weft_schedule_loop {
    char header[48];          /* the loop header's name in the kernel */
    unsigned votes_bfo, votes_dfo, votes_neutral;
    bool bfo;                 /* scheduled breadth-first */
    bool predicated;          /* ... by the predicated form */
    bool row_walk;            /* a divergent loop that walks a row per work-item (row_walks) */
    const char *note;         /* why it stays depth-first, or NULL */
};

struct weft_schedule_report {
    unsigned count;           /* loops looked at (reported: the first WEFT_SCHEDULE_MAX_REPORTED) */
    unsigned bfo;             /* loops scheduled breadth-first */
    unsigned schedulable;     /* loops that could be scheduled breadth-first (either way) */
    unsigned votes_bfo;       /* schedulable loops whose locality votes BFO (what AUTO schedules) */
    unsigned row_walks;       /* divergent loops (trip counts differ between work-items) with a global
                                 access that steps one element along the loop and jumps between the
                                 work-items of dimension 0 (L1 WX: each work-item walks a row of its own,
                                 CSR style); the vectorizer runs them under lane masks with a gather
                                 per access and iteration (compiler/variant.h) */
    struct weft_schedule_loop loop[WEFT_SCHEDULE_MAX_REPORTED];
};

/* Applies the schedule to `fn` (a work function at the WEFT_WG_STAGE_WORKFN stage). `report`
 * may be NULL. Never fails: a loop it cannot schedule stays depth-first. */
void weft_schedule_loops(LLVMValueRef fn, const uint64_t local_size[3], enum weft_schedule_mode mode,
                         struct weft_schedule_report *report);

/* WEFT_SCHEDULE=auto (default) | dfo | bfo. */
enum weft_schedule_mode weft_schedule_setting(void);
const char *weft_schedule_mode_name(enum weft_schedule_mode m);

#endif
