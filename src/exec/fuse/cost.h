/* exec/fuse/cost.h — what the fusion planner measures and learns: per-row costs of launches
 * run alone and of fused chains (the t_s and t_c of Zhou's equation 6), and when a chain is
 * not planned (measured not to pay, with a retry later) or is run unfused on purpose (to keep
 * the unfused cost current while fusing).
 *
 * Why medians of recent runs and not the fastest run: both sides are noisy in ways a minimum
 * does not survive. Early unfused launches of a process are slow (512x512 Jacobi: 140-520 ns a
 * row over the first launches, 106-112 steady), and fused runs on this two-vCPU machine are
 * bimodal (2.5 or 5 ms for the same chain). A fastest unfused sample from the first launches
 * against the fastest, lucky, fused run fused chains that were 1.5x slower than unfused. The
 * very first sample of each key is left out (first touch of pages and windows), and so are
 * samples older than the last WEFT_COST_WINDOW. Decisions are revisited: a rejected chain is
 * tried again after a growing number of launches, and a fused chain runs a few launches
 * unfused every so often, so one unlucky early measurement is not final. */
#ifndef WEFT_EXEC_FUSE_COST_H
#define WEFT_EXEC_FUSE_COST_H

#include <stdbool.h>
#include <stdint.h>

enum weft_cost_kind {
    WEFT_COST_UNFUSED,   /* per row of one launch run alone (key: its kernel, k1 0) */
    WEFT_COST_FUSED,     /* per row a fused run executed, redundant rows included (Zhou's t_c) */
    WEFT_COST_USEFUL,    /* per row of the launches a fused run replaced */
    WEFT_COST_KINDS
};

/* k0, k1: the kernels' code (weft_kernel_ops.code_key: by content, so that a released
 * program's costs never pass to another kernel allocated where it was) of the stage, or of a
 * chain's first two stages (k1 0 for a stage); global: the NDRange; form: how a fused chain
 * ran (WEFT_FUSE_FORM_*), for its fused costs only: a chain's decision state (rejection,
 * retries, re-measuring unfused) is kept under the key of form WEFT_FUSE_FORM_ONE_LEVEL
 * whichever form ran. */
struct weft_cost_key {
    uint64_t k0, k1;
    uint64_t global[3];
    unsigned form;
};
enum { WEFT_FUSE_FORM_ONE_LEVEL, WEFT_FUSE_FORM_TWO_LEVELS, WEFT_FUSE_FORMS };
/* `key` with its form replaced by `form`. */
struct weft_cost_key weft_cost_key_in_form(const struct weft_cost_key *key, unsigned form);

#define WEFT_COST_WINDOW 8u            /* samples a cost is the median of */
#define WEFT_COST_RETRY_FIRST 256u     /* launches a rejected chain waits before its first retry */
#define WEFT_COST_RETRY_MAX 16384u     /* ... doubling up to this many */
/* After fused runs 4 and 8 of a chain, and then after every WEFT_COST_EXPLORE_EVERY, its next
 * WEFT_COST_WINDOW launches run unfused (early: the unfused samples a chain was first planned
 * with are the first, slow ones of the process). With chains of 64 launches that is under 1 %
 * of them. True when fused run number `fused_runs` (from 1) is followed by such launches. */
#define WEFT_COST_EXPLORE_EVERY 16u
bool weft_cost_explore_due(unsigned fused_runs);

void weft_cost_note(enum weft_cost_kind kind, const struct weft_cost_key *key, double ns_per_row);

/* The lower median of the key's recent samples (its first sample left out), or 0 when fewer
 * than `min_samples` were noted in all (the first included). */
double weft_cost_get(enum weft_cost_kind kind, const struct weft_cost_key *key, unsigned min_samples);

/* Before a measured verdict rejects chain `key`: true when its unfused cost is to be measured
 * again first (its next WEFT_COST_WINDOW launches run unfused, and the verdict is taken again on
 * those samples and the fused ones; or a window of them is running), false when that was done
 * since the chain first fused. The unfused samples a chain is first judged on are its process's
 * first launches, which need not be what its launches cost later: on the 16-core Xeon at Poisson
 * 4096^2 they read 251 ns a row where steady unfused launches take 342-352, and the chain, 1.3x
 * faster fused, was rejected. */
bool weft_cost_remeasure_before_reject(const struct weft_cost_key *key);

/* The fused chain `key` was measured not to pay, or cannot fuse at all (its launches do not
 * feed each other): it is not planned for the next WEFT_COST_RETRY_FIRST launches, twice as
 * many after each further rejection. */
void weft_cost_reject(const struct weft_cost_key *key);

/* What a planned chain comes to: fused to `depth` stages, or not fused, and then whether that
 * speaks against the chain (its costs say fusing does not pay: WEFT_COST_VERDICT_REJECT, as
 * weft_cost_reject takes it) or only against this run of it: a chain cut short (launches held
 * back until a read, a wait or the end of a program) whose every stage fits the depth that
 * pays but that has fewer than WEFT_FUSE_MIN_DEPTH of them. Rejecting those left the full chains
 * after them unfused until the retry (a benchmark's last run of 2 launches: the next program's
 * 10-launch chains of the same kernel all unfused, 10.6 ms against 5.0 on the 16-core Xeon).
 * `stages`: the chain's launches; `ratio`: t_s/t_c - 1 as planned; `useful`, `unfused`: the
 * fused cost per row replaced and the unfused one, when `measured`. */
enum weft_cost_verdict { WEFT_COST_VERDICT_FUSE, WEFT_COST_VERDICT_SHORT, WEFT_COST_VERDICT_REJECT };
enum weft_cost_verdict weft_cost_verdict(unsigned depth, unsigned stages, double ratio, bool measured, double useful,
                                         double unfused);

/* Whether the two-level form is worth measuring for chain `key` of `stages` launches (fuse.c
 * decides it from the one-level plan of the chain's first runs): 1 yes, 0 no, -1 not decided
 * yet. A "no" holds for chains as long as the one it was decided on, no longer: a short first
 * chain (launches held back before the rest are enqueued) may fuse whole where the long ones
 * would not. */
int weft_cost_two_levels(const struct weft_cost_key *key, unsigned stages);
void weft_cost_set_two_levels(const struct weft_cost_key *key, unsigned stages, bool worth);

enum weft_cost_plan {
    WEFT_COST_PLAN,    /* plan as measured */
    WEFT_COST_SKIP,    /* run this launch unfused, without planning: the chain was rejected and
                        * its retry is not due, or it re-measures its unfused cost */
    WEFT_COST_RETRY,   /* a rejected chain's retry: run it fused once whatever was measured; its
                        * new sample joins the old ones (two retries outweigh two cold runs) */
};

/* The form the next fused run of chain `key` takes where both can run: one level until
 * `min_samples` of its runs are measured, then two levels until theirs are, then the one with
 * the lower cost per row replaced (WEFT_COST_USEFUL). */
unsigned weft_cost_pick_form(const struct weft_cost_key *key, unsigned min_samples);

/* A chain's decision kept on disk across processes (the disk cache, under the entry that
 * disk_key(arg) names: the chain's kernels by content, its NDRange, the thread count, the cache
 * domains and this build of Weft; computed only when the disk is read or written, not on every
 * launch), so that a later process neither waits for unfused samples nor tries both forms again
 * before fusing, nor fuses a chain measured not to pay. */
struct weft_cost_prior {
    unsigned form;   /* WEFT_FUSE_FORM_* */
    double ratio;    /* t_s/t_c - 1 as measured */
};
/* Reads the record once per chain and process (later calls return at once). A chain stored as
 * rejected is rejected now, as by weft_cost_reject (its retry comes as usual). */
void weft_cost_load_prior(const struct weft_cost_key *key, uint64_t (*disk_key)(const void *), const void *arg);
/* True, with the stored form and ratio, when the chain was stored as fused. */
bool weft_cost_prior(const struct weft_cost_key *key, struct weft_cost_prior *out);
/* Stores the chain's measured decision (fused: its form and ratio; or rejected), when it
 * differs from what this process read or stored last. */
void weft_cost_store_prior(const struct weft_cost_key *key, uint64_t (*disk_key)(const void *), const void *arg,
                           bool rejected, unsigned form, double ratio);

/* Called once per launch that could start the chain `key`; counts the launch. */
enum weft_cost_plan weft_cost_plan_launch(const struct weft_cost_key *key);

#endif
