/* exec/workers.h — the number of worker threads the pool runs work-groups on (exec/pool.c):
 * WEFT_NUM_THREADS when it is an integer in [1, WEFT_WORKERS_MAX], else the number of cores
 * hwloc reports (exec/topology.h), at most WEFT_WORKERS_MAX. The runtime reports it as
 * CL_DEVICE_MAX_COMPUTE_UNITS (runtime/device.c), hence the name. */
#ifndef WEFT_EXEC_WORKERS_H
#define WEFT_EXEC_WORKERS_H

#define WEFT_WORKERS_MAX 4096u

unsigned weft_device_worker_count(void);

#endif
