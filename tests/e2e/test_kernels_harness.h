/* tests/e2e/test_kernels_harness.h — shared helpers of the test_kernels_*.c end-to-end suites
 * (header only, included once per test program).
 *
 * Each suite builds ONE program holding all of its kernels in its cmocka group setup, so
 * clBuildProgram runs once per file; tests then launch kernels by name. Arguments are given as
 * a small array of {size, pointer} pairs (KARG for values and buffers, KLOCAL for __local
 * sizes), which keeps every test a readable list of "inputs, launch, compare with host". */
#ifndef WEFT_TEST_KERNELS_HARNESS_H
#define WEFT_TEST_KERNELS_HARNESS_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "weft_test.h"

struct karg {
    size_t size;
    const void *value; /* NULL: a __local argument of `size` bytes */
};
#define KARG(x) ((struct karg){sizeof(x), &(x)})
#define KLOCAL(n) ((struct karg){(n), NULL})
#define KARGS(...) (const struct karg[]){__VA_ARGS__}, (sizeof((struct karg[]){__VA_ARGS__}) / sizeof(struct karg))

static struct weft_test_env env;
static cl_program prog;

/* Group setup: opens the environment and builds `src` once; a build failure fails the group
 * (weft_test_build prints the log). */
static inline int harness_open(const char *src, const char *options)
{
    if (weft_test_env_open(&env, 0) != 0) {
        fprintf(stderr, "no Weft device/context/queue\n");
        return -1;
    }
    prog = weft_test_build(&env, src, options);
    return prog ? 0 : -1;
}

static inline int harness_close(void)
{
    if (prog)
        clReleaseProgram(prog);
    weft_test_env_close(&env);
    return 0;
}

static inline cl_mem buf_new(size_t size, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                              (void *)init, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* A buffer filled with a recognizable byte pattern, so an unwritten element is noticed. */
static inline cl_mem buf_poisoned(size_t size)
{
    cl_mem m = buf_new(size, NULL);
    unsigned char poison = 0xA5;
    assert_int_equal(clEnqueueFillBuffer(env.queue, m, &poison, 1, 0, size, 0, NULL, NULL), CL_SUCCESS);
    return m;
}

static inline void buf_read(cl_mem m, size_t size, void *dst)
{
    assert_int_equal(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, size, dst, 0, NULL, NULL), CL_SUCCESS);
}

/* Launches kernel `name` of the suite's program; returns the first error (argument or launch)
 * after clFinish, so the caller can assert both success and expected failures. */
static inline cl_int launch(const char *name, cl_uint dim, const size_t *offset, const size_t *global, const size_t *local,
                     const struct karg *args, size_t nargs)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateKernel(%s) = %d\n", name, err);
        return err;
    }
    for (size_t i = 0; i < nargs && err == CL_SUCCESS; i++) {
        err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            fprintf(stderr, "%s: clSetKernelArg(%zu) = %d\n", name, i, err);
    }
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(env.queue, k, dim, offset, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(env.queue);
    clReleaseKernel(k);
    return err;
}

/* Kernel `name` of the suite's program (the caller releases it). */
static inline cl_kernel kernel_new(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    return k;
}

/* Sets all of k's arguments (KARGS). */
static inline void kernel_set_args(cl_kernel k, const struct karg *args, size_t nargs)
{
    for (size_t i = 0; i < nargs; i++)
        assert_int_equal(clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value), CL_SUCCESS);
}

static inline size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* A deterministic pseudo-random generator (xorshift32) for inputs. */
static uint32_t rng_state = 2463534242u;
static inline uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static inline int close_f(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want) + rel;
}

/* For suites that read what Weft logs (WEFT_LOG): stderr into a new file made from the mkstemp
 * template `path`, line-buffered; 0 on success. */
static inline int harness_log_open(char *path)
{
    int fd = mkstemp(path);
    if (fd < 0 || !freopen(path, "w", stderr)) {
        perror("log file");
        return -1;
    }
    close(fd);
    setvbuf(stderr, NULL, _IOLBF, 0);
    return 0;
}

/* How many lines of the log at `path` hold `needle` (what stderr got so far included). */
static inline int harness_log_count(const char *path, const char *needle)
{
    fflush(stderr);
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return n;
}

/* Waits (up to 5 minutes: the machine may be loaded) until the log at `path` holds `needle`;
 * fails the test if it never does. */
static inline void harness_wait_for_log(const char *path, const char *needle)
{
    for (int i = 0; i < 3000 && !harness_log_count(path, needle); i++)
        usleep(100000);
    if (!harness_log_count(path, needle)) {
        fprintf(stdout, "the log never showed \"%s\"\n", needle);
        fail();
    }
}

/* After the suite: when it `failed`, the log is its output; then the file goes (KEEP_LOG=1
 * keeps it). */
static inline void harness_log_close(const char *path, int failed)
{
    fflush(stderr);
    FILE *f = failed ? fopen(path, "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        fputs(line, stdout);
    if (f)
        fclose(f);
    if (!getenv("KEEP_LOG"))
        unlink(path);
}

#endif
