/* tests/e2e/builtins_harness.h — shared by the test_builtins_*.c end-to-end tests: run one
 * kernel over host arrays and read every buffer back, plus ulp helpers for the math checks.
 *
 * bt_run() builds `src` on the Weft device, binds the arguments in order (a buffer argument
 * is created from and read back into its host array; a local argument gets its size; a
 * scalar is passed by value), runs a 1-D NDRange and waits. It returns the first OpenCL
 * error (with the build log printed on a build failure) so a test can assert CL_SUCCESS.
 */
#ifndef WEFT_BUILTINS_HARNESS_H
#define WEFT_BUILTINS_HARNESS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "weft_test.h"

enum bt_kind { BT_BUF, BT_LOCAL, BT_SCALAR };

struct bt_arg {
    enum bt_kind kind;
    void *ptr;     /* BT_BUF: host array (in and out); BT_SCALAR: the value */
    size_t size;   /* bytes */
};

#define BT_BUF(p, n) ((struct bt_arg){BT_BUF, (p), (n)})
#define BT_LOCAL(n) ((struct bt_arg){BT_LOCAL, NULL, (n)})
#define BT_SCALAR(v) ((struct bt_arg){BT_SCALAR, &(v), sizeof(v)})

#ifndef WEFT_BT_CUSTOM_RUNNER
static struct weft_test_env bt_env;
static int bt_env_ready;

static int bt_setup(void **state)
{
    (void)state;
    bt_env_ready = weft_test_env_open(&bt_env, 0) == 0;
    return bt_env_ready ? 0 : -1;
}

static int bt_teardown(void **state)
{
    (void)state;
    weft_test_env_close(&bt_env);
    return 0;
}

/* local == 0: the implementation picks the work-group size. */
static cl_int bt_run(const char *src, const char *options, const char *kernel, size_t global,
                     size_t local, struct bt_arg *args, int nargs)
{
    cl_int err = CL_SUCCESS, e;
    cl_program p = weft_test_build(&bt_env, src, options);
    if (!p)
        return CL_BUILD_PROGRAM_FAILURE;
    cl_kernel k = clCreateKernel(p, kernel, &err);
    cl_mem mems[16] = {0};
    if (err == CL_SUCCESS) {
        for (int i = 0; i < nargs && i < 16 && err == CL_SUCCESS; i++) {
            switch (args[i].kind) {
            case BT_BUF:
                mems[i] = clCreateBuffer(bt_env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                         args[i].size, args[i].ptr, &err);
                if (err == CL_SUCCESS)
                    err = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &mems[i]);
                break;
            case BT_LOCAL:
                err = clSetKernelArg(k, (cl_uint)i, args[i].size, NULL);
                break;
            case BT_SCALAR:
                err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].ptr);
                break;
            }
        }
    }
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(bt_env.queue, k, 1, NULL, &global, local ? &local : NULL, 0,
                                     NULL, NULL);
    for (int i = 0; i < nargs && i < 16; i++) {
        if (!mems[i])
            continue;
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(bt_env.queue, mems[i], CL_TRUE, 0, args[i].size, args[i].ptr,
                                      0, NULL, NULL);
        clReleaseMemObject(mems[i]);
    }
    if ((e = clFinish(bt_env.queue)) != CL_SUCCESS && err == CL_SUCCESS)
        err = e;
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(p);
    return err;
}
#else
static int bt_setup(void **state);
static int bt_teardown(void **state);
static cl_int bt_run(const char *src, const char *options, const char *kernel, size_t global,
                     size_t local, struct bt_arg *args, int nargs);
#endif

/* ---- ulp distances ------------------------------------------------------------------------ */

/* Distance in ulps of the float `got` from the reference `want` (computed in double or
 * better), measured in ulps of float at `want`. NaN matches NaN only; infinities match
 * exactly; a reference beyond the type's range counts as the infinity it rounds to. */
static inline double bt_ulp_f(float got, double want)
{
    if (fabs(want) >= 0x1.ffffffp127) /* rounds to infinity in float */
        want = copysign(INFINITY, want);
    if (isnan(want))
        return isnan(got) ? 0.0 : INFINITY;
    if (isinf(want) || isinf(got))
        return (double)got == want ? 0.0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    int e;
    frexp(want, &e);
    /* a float ulp at |want| is 2^(e-24), but never below the smallest subnormal */
    double ulp = ldexp(1.0, (e - 24 < -149) ? -149 : e - 24);
    return fabs((double)got - want) / ulp;
}

static inline double bt_ulp_d(double got, long double want)
{
    if (fabsl(want) >= 0x1.fffffffffffff8p1023L) /* rounds to infinity in double */
        want = copysignl(INFINITY, want);
    if (isnan(want))
        return isnan(got) ? 0.0 : INFINITY;
    if (isinf(want) || isinf(got))
        return (long double)got == want ? 0.0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    int e;
    frexpl(want, &e);
    long double ulp = ldexpl(1.0L, (e - 53 < -1074) ? -1074 : e - 53);
    return (double)(fabsl((long double)got - want) / ulp);
}

/* Bit-exact equality that treats every NaN as equal. */
static inline int bt_same_f(float a, float b)
{
    if (isnan(a) && isnan(b))
        return 1;
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

static inline int bt_same_d(double a, double b)
{
    if (isnan(a) && isnan(b))
        return 1;
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y;
}

/* A deterministic pseudo-random sequence (xorshift64*), so failures reproduce. */
static inline uint64_t bt_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

#endif
