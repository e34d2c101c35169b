/* runtime/compile_ahead.h — variants compiled on a background thread, ahead of the launches
 * that want them.
 *
 * A launch that finds the variant it wants not compiled compiles it there and then, inside the
 * application's timing. For most kernels that is a few milliseconds, once. For kernels whose
 * variants take long (hashcat's MD5 kernel: 3-8 s each on the 2-core EPYC), and whose launches
 * keep asking for new ones (a group-blind kernel merged into a local size that grows with the
 * global size; the alternative a launch profiles against the first variant), the launch runs
 * what is ready instead and hands the missing variant to this thread, niced so that it takes
 * idle cores; a later launch finds it ready.
 */
#ifndef WEFT_RUNTIME_COMPILE_AHEAD_H
#define WEFT_RUNTIME_COMPILE_AHEAD_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

#include "compiler/variant.h"

/* A kernel's variants are compiled ahead once one of them took at least this long
 * (WEFT_COMPILE_AHEAD_MS overrides; 0: every kernel's, which the tests use; "off": none). */
#define WEFT_COMPILE_AHEAD_MS 250u

/* Whether `k`'s missing variants go to the background thread rather than being compiled by
 * the launch that wants them: its longest compile so far reached the bound. A kernel none of
 * whose variants is compiled yet is not (its first launch must compile one anyway). */
bool weft_compile_ahead_worth(cl_kernel k);
/* Whether anything is compiled ahead at all (not WEFT_COMPILE_AHEAD_MS=off). */
bool weft_compile_ahead_on(void);

/* Queues the compile of `spec` for `local` (unless it is queued or compiling already, or the
 * queue is full), in place of the kernel's queued compiles for other local sizes; the job holds
 * the kernel until it is done. `stand_in`: the launch runs another local size in its place (it
 * goes first, after a shorter settle); otherwise it is an alternative to profile. */
void weft_compile_ahead(cl_kernel k, cl_uint work_dim, const size_t local[3], const struct weft_variant_spec *spec,
                        bool stand_in);

/* What a guess runs on the background thread (runtime/variant_choice.h weft_prepare_variants):
 * the choice a launch of `k` at `local` would make, compiled. */
typedef void (*weft_prepare_fn)(cl_kernel k, cl_uint work_dim, const size_t local[3]);

/* Queues the guess that `k` will be launched at `local` (unless one is queued or running, or
 * WEFT_COMPILE_AHEAD_MS=off): `prepare` runs on the background thread after every job a launch
 * asked for, unless a launch of `k` came first (weft_kernel_launched: the launch compiled or
 * queued what it wanted) or the application released `k`; it starts after a short settle (most
 * applications launch right after they ask). A guess not started at exit is dropped. */
void weft_compile_prepare(cl_kernel k, cl_uint work_dim, const size_t local[3], weft_prepare_fn prepare);

/* Called after every use of LLVM outside the background thread (a variant compiled, a program
 * built or linked): registers the exit handler again, so that it runs before the destructors of
 * the statics LLVM first reached there (compile_ahead.c says why). */
void weft_compile_ahead_backend_used(void);

/* Drops the guesses queued for `k`, and their holds on it (clReleaseKernel, when the
 * application lets go of it: its program, context and sub-devices go now, not when the guess
 * would have run). */
void weft_compile_drop_guesses(cl_kernel k);

#endif
