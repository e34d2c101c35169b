/* exec/workers.h — the number of worker threads the pool runs work-groups on (exec/pool.c):
 * WEFT_NUM_THREADS when it is an integer in [1, 4096], else the number of cores hwloc reports
 * (exec/topology.h). The runtime reports it as CL_DEVICE_MAX_COMPUTE_UNITS (runtime/device.c),
 * hence the name. */
#ifndef WEFT_EXEC_WORKERS_H
#define WEFT_EXEC_WORKERS_H

unsigned weft_device_worker_count(void);

#endif
