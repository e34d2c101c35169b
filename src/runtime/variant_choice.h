/* runtime/variant_choice.h — which compiled variants a launch of a kernel at a local size runs
 * and profiles, and the same choice made before the kernel's first launch.
 *
 * A launch compiles what it lacks there and then, inside the application's timing, unless the
 * kernel is slow to compile (runtime/compile_ahead.h: then what is ready runs, and the rest is
 * compiled on the background thread). An application shows the local size it will launch with
 * before it launches: a kernel's reqd_work_group_size or work_group_size_hint, or the
 * CL_KERNEL_WORK_GROUP_SIZE it asks for to choose one (hashcat launches its markov kernels at
 * exactly that size, in the middle of its timed loop). weft_prepare_variants makes the
 * launch's choice there, on the background thread, so that the first launch finds its
 * variants compiled.
 */
#ifndef WEFT_RUNTIME_VARIANT_CHOICE_H
#define WEFT_RUNTIME_VARIANT_CHOICE_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

#include "compiler/variant.h"
#include "exec/launch.h"

/* `passing`: the launch runs a stand-in merged size, or has too few groups to be profiled.
 * The variant to run (`first`, what weft_variant_first chose, or its scalar code when the
 * static cost model takes it: weft_variant_static_scalar) into *v and, when Weft picks the
 * schedule (WEFT_SCHEDULE=auto) and nothing is `forced`, another one to profile against it into
 * *alt (exec/variant_select.h; fn NULL when none): the first of weft_variant_alternatives that
 * compiles and differs. Depth-first and vectorized come first: they won on most kernels
 * measured (docs/PERFORMANCE.md). A kernel slow to compile (runtime/compile_ahead.h) runs what
 * is ready and has the rest compiled ahead; its first launch at a size runs the scalar code
 * while the vectorized code is compiled ahead. */
cl_int weft_choose_variants(cl_kernel kernel, cl_uint work_dim, const size_t local[3],
                            const struct weft_variant_spec *first, bool forced, bool passing,
                            struct weft_variant *v, struct weft_variant *alt);

/* Whether the scalar code that runs first for a kernel slow to compile is ready at `local`
 * (`first`: the vectorized code it stands in for). */
bool weft_scalar_ready_at(cl_kernel kernel, cl_uint work_dim, const size_t local[3],
                          const struct weft_variant_spec *first);

/* The choice of weft_choose_variants for a launch at `local` of a kernel not launched yet,
 * made on the background thread (runtime/compile_ahead.h weft_compile_prepare), which compiles
 * what such a launch would compile. A guess: not for kernels larger than
 * WEFT_PREPARE_MAX_INSTRUCTIONS (a wrong guess would hold the thread for seconds), nor once the
 * kernel was launched, nor with WEFT_COMPILE_AHEAD_MS=off. */
void weft_prepare_variants(cl_kernel kernel, cl_uint work_dim, const size_t local[3]);

/* Kernels (everything inlined) of more instructions than this are not prepared: hashcat's
 * markov kernels, whose variants compile in 80-370 ms on the 2-core Sapphire Rapids VM, are
 * below it; its MD5 and NTLM kernels, 3-8 s each, are far above. */
#define WEFT_PREPARE_MAX_INSTRUCTIONS 2000u

#endif
