/* tests/e2e/test_kernels_opt_disable.c — the barrier suite (test_kernels_barriers.c) again,
 * built with -cl-opt-disable: the unoptimized path through the work-group transformation
 * (no pre-optimization, more allocas and branches live across barriers) must give the same
 * results as the optimized one. */
#define KERNELS_BUILD_OPTIONS "-cl-opt-disable"
#include "test_kernels_barriers.c"
