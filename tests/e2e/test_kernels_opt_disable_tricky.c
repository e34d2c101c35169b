/* tests/e2e/test_kernels_opt_disable_tricky.c — the suite of test_kernels_tricky.c again, built
 * with -cl-opt-disable: the unoptimized path through the work-group transformation must give
 * the same results as the optimized one. */
#define KERNELS_BUILD_OPTIONS "-cl-opt-disable"
#include "test_kernels_tricky.c"
