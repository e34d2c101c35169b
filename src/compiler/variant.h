/* compiler/variant.h — what sets one compiled variant of a kernel apart from another, by name.
 *
 * A kernel is compiled per local size into several variants, and the runtime chooses among
 * them (runtime/variant_choice.c, exec/variant_select.h, exec/fuse/fuse.c). Each choice is a
 * field:
 *   - schedule: the work-item order around kernel loops (transform/schedule.h): "dfo" (every
 *     work-item runs a loop through), "lc" (Kim's locality-centric schedule: the loops whose
 *     locality votes breadth-first run breadth-first; WEFT_SCHEDULE_AUTO when compiled) or
 *     "bfo" (every loop that can run breadth-first does);
 *   - code: the work-item loops vectorized across work-items as WEFT_VECTORIZE says (no
 *     suffix), with two packets side by side (".x2", fused stages' in-cache code), or scalar
 *     (".scalar", whatever WEFT_VECTORIZE says);
 *   - wide_ids (".wide"): global ids may reach WEFT_NARROW_ID_LIMIT (compiler/narrowids.h);
 *   - sub_group_cap (".sg<N>"): the sub-group size of the launch's full groups, for the variant
 *     of a remainder group (transform/wgfunction.h); 0 for none.
 * The name is the fields in that order, e.g. "lc.scalar.wide". WEFT_VARIANT=<name> (any name
 * without ".sg") forces it for every launch; the launch still adds ".wide" where its ids need
 * it and a remainder group's sub-group cap, which are facts of the launch rather than choices.
 */
#ifndef WEFT_COMPILER_VARIANT_H
#define WEFT_COMPILER_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/transform/schedule.h"

enum weft_variant_code { WEFT_CODE_VECTOR, WEFT_CODE_X2, WEFT_CODE_SCALAR };

struct weft_variant_spec {
    enum weft_schedule_mode schedule;
    enum weft_variant_code code;
    bool wide_ids;
    unsigned sub_group_cap;   /* 0, or 1..64 */
};

/* The longest name weft_variant_name writes, with its terminator. */
#define WEFT_VARIANT_NAME_MAX 32

/* Writes the variant's name into buf (at least WEFT_VARIANT_NAME_MAX bytes); returns buf. */
const char *weft_variant_name(const struct weft_variant_spec *v, char *buf);
/* Parses a name weft_variant_name writes (without ".sg<N>"); false when it is not one. */
bool weft_variant_parse(const char *name, struct weft_variant_spec *out);
bool weft_variant_equal(const struct weft_variant_spec *a, const struct weft_variant_spec *b);

/* The variant WEFT_VARIANT forces, if it names one (then true). Unset, empty or "auto": false,
 * the runtime chooses. A value that names no variant is reported once on stderr and ignored. */
bool weft_variant_forced(struct weft_variant_spec *out);

/* The variant a launch runs first: the one WEFT_VARIANT forces (then true: the runtime must not
 * choose another), else WEFT_SCHEDULE's schedule (depth-first under auto), vectorized as
 * WEFT_VECTORIZE says; ".wide" when `wide_ids` (weft_variant_needs_wide_ids) or forced. Read at
 * every launch: tests and applications may change the environment between launches. */
bool weft_variant_first(bool wide_ids, struct weft_variant_spec *out);

/* The static cost model (runtime/variant_choice.c; weft explain says the same): whether the scalar
 * work-item loops run first instead of `first`'s vectorized code, without measuring, because
 * the vectorizer ran `row_walks` divergent loops that walk a row per work-item under lane masks
 * (transform/schedule.h row_walks: CSR's spmv_csr_scalar, Rodinia's bfs). Each iteration of such
 * a loop gathers every row access for all lanes, masked lanes included, and repeats while any
 * lane still walks (the longest row of the packet), plus the mask bookkeeping; the scalar loop
 * reads each row contiguously and only for work-items that walk one. Measured on both kernels
 * (docs/PERFORMANCE.md): scalar 1.6x (spmv_csr_scalar) and 4x (bfs's BFS_1, most lanes idle on a
 * sparse frontier) faster. When true, *out is `first` with scalar code. Never for a variant
 * already scalar or two-packet (fused stages choose their own code). */
bool weft_variant_static_scalar(const struct weft_variant_spec *first, unsigned row_walks,
                                struct weft_variant_spec *out);

/* The variants the runtime may profile against `first` (runtime/variant_choice.c; weft explain says the
 * same), in the order it tries them (it profiles the first that compiles and differs): "lc" when
 * some loop's locality votes breadth-first (kept only if the compiled variant really schedules
 * one), then the scalar work-item loops when the vectorizer ran code under lane masks (their
 * cost can exceed the lanes' gain: spmv_csr_scalar). When the work-items' own vectors fill a
 * register (`wide_items`, vectorize.h: hashcat's uint16 rounds, 2.3x faster scalar on SHA1),
 * the scalar work-item loops come first. Returns how many of out[0..1] it set. */
unsigned weft_variant_alternatives(const struct weft_variant_spec *first, bool votes_bfo, bool linearized,
                                   bool wide_items, struct weft_variant_spec out[2]);

/* The variants the runtime may run for a kernel, for `weft explain` and the test matrix: every
 * schedule with every code, narrow ids (each also exists with ".wide"). */
#define WEFT_VARIANT_CHOICES 9
void weft_variant_choice(unsigned i, struct weft_variant_spec *out);

#endif
