/* exec/workers.c — how many worker threads the pool runs (exec/workers.h). */
#include "exec/workers.h"

#include <errno.h>
#include <stdlib.h>

#include "exec/topology.h"
#include "util/log.h"

unsigned weft_device_worker_count(void)
{
    const char *v = getenv("WEFT_NUM_THREADS");
    if (v && *v) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v, &end, 10);
        if (!errno && *end == '\0' && n >= 1 && n <= WEFT_WORKERS_MAX)
            return (unsigned)n;
        weft_log(WEFT_LOG_INFO, "WEFT_NUM_THREADS='%s' is not an integer in [1, %u]; using the core count", v,
                 WEFT_WORKERS_MAX);
    }
    unsigned cores = weft_topology_get()->cores;
    return cores < WEFT_WORKERS_MAX ? cores : WEFT_WORKERS_MAX;
}
