/* bench/runner.h — the contract between the benchmark runner (runner.c) and the benchmark
 * families (b_*.c).
 *
 * A benchmark is a table entry with five callbacks:
 *   setup   makes fixed-seed inputs for a size class, says how much work one run is (flops or
 *           bytes) and how long the output is;
 *   native  the same algorithm in C/OpenMP on all cores; writes the output. It is both the
 *           reference every platform is checked against and the native timing;
 *   cl_init creates buffers and sets kernel arguments (the harness built the program);
 *   cl_run  enqueues one run (one or many launches) through bench_launch(), which records
 *           events so the harness can read device time from profiling; a run may change its
 *           inputs (a ping-pong chain ends in its input buffer): the harness writes every
 *           writable buffer made from host data (bench_buffer) again before each timed run;
 *   cl_read reads the output back; every run's output is checked, the timed ones too.
 * Callbacks return 0 on success, or an OpenCL error code / -1 (with a message in b->err).
 */
#ifndef WEFT_BENCH_RUNNER_H
#define WEFT_BENCH_RUNNER_H

#include <CL/cl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

enum bench_size { BENCH_SMALL, BENCH_DEFAULT, BENCH_LARGE };
enum bench_type { BT_FLOAT, BT_DOUBLE, BT_INT };
/* What the throughput column means. */
enum bench_unit { BU_GFLOPS, BU_GFLOPS_DP, BU_GIOPS, BU_GBS, BU_LAUNCH };

struct bench_cl {
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev;
    cl_program prog;
    cl_kernel k[4];          /* created by cl_init from prog */
    cl_mem m[8];             /* released by the harness */
    const void *init[8];     /* host data a writable buffer started from (bench_buffer), */
    size_t init_bytes[8];    /* written again before every timed run: runs start alike */
    cl_event ev[256];        /* events of the current run (bench_launch) */
    int nev;
};

struct bench;
struct bench_desc {
    const char *name;
    const char *file;        /* bench/kernels/<file>.cl */
    enum bench_unit unit;
    enum bench_type out_type;
    double tol;              /* relative tolerance (float/double); ints are exact */
    int (*setup)(struct bench *b, enum bench_size size);
    void (*native)(struct bench *b, void *out);
    int (*cl_init)(struct bench *b, struct bench_cl *c);
    int (*cl_run)(struct bench *b, struct bench_cl *c);
    int (*cl_read)(struct bench *b, struct bench_cl *c, void *out);
    const char *options;     /* clBuildProgram options; NULL: none */
};

struct bench {
    const struct bench_desc *d;
    char size_desc[64];      /* "N=1048576" */
    double work;             /* flops (GFLOP units) or bytes (GB units) or launches per run */
    size_t out_count;        /* output elements */
    size_t p[8];             /* sizes, benchmark-defined */
    void *in[8];             /* host inputs, freed by the harness */
    char err[256];
};

/* Helpers for the families. */
void *bench_alloc(struct bench *b, int slot, size_t bytes);
void bench_fill_float(float *x, size_t n, uint64_t seed, float lo, float hi);
void bench_fill_double(double *x, size_t n, uint64_t seed, double lo, double hi);
uint32_t bench_rand(uint64_t *state);
cl_mem bench_buffer(struct bench *b, struct bench_cl *c, int slot, cl_mem_flags flags,
                    size_t bytes, const void *host);
int bench_kernel(struct bench *b, struct bench_cl *c, int slot, const char *name);
int bench_args(struct bench *b, struct bench_cl *c, int k, int nargs, ...);
/* Enqueues kernel k with dims dimensions; local may be NULL. Records the event. */
int bench_launch(struct bench *b, struct bench_cl *c, int k, int dims, const size_t *global,
                 const size_t *local);
int bench_read(struct bench *b, struct bench_cl *c, int slot, size_t bytes, void *out);
int bench_write(struct bench *b, struct bench_cl *c, int slot, size_t bytes, const void *src);
size_t bench_round_up(size_t x, size_t m);
int bench_failf(struct bench *b, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Argument kinds for bench_args: pairs (size, pointer) like clSetKernelArg; BUF(c,i) is the
 * buffer in slot i, LOCAL(n) a local-memory argument of n bytes. */
#define ARG(x) sizeof(x), (const void *)&(x)
#define BUF(c, i) sizeof(cl_mem), (const void *)&(c)->m[i]
#define LOCAL(n) (size_t)(n), (const void *)NULL

/* The families' tables, each ended by an entry with name == NULL. */
extern const struct bench_desc bench_micro[];
extern const struct bench_desc bench_linalg[];
extern const struct bench_desc bench_sparse[];
extern const struct bench_desc bench_patterns[];
extern const struct bench_desc bench_apps[];
extern const struct bench_desc bench_chains[];

#endif
