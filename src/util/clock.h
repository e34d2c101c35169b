/* util/clock.h — the one clock of Weft: CLOCK_MONOTONIC in nanoseconds. Event profiling times,
 * the queue's hold timer, variant selection's and fusion's measurements all read it, so their
 * numbers compare. */
#ifndef WEFT_UTIL_CLOCK_H
#define WEFT_UTIL_CLOCK_H

#include <stdint.h>

uint64_t weft_now_ns(void);

#endif
