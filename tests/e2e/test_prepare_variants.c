/* tests/e2e/test_prepare_variants.c — variants compiled before a kernel's first launch
 * (runtime/variant_choice.h weft_prepare_variants), at the local size the application showed:
 *   - the CL_KERNEL_WORK_GROUP_SIZE it asked for: the first launch at that size finds its
 *     variants compiled and compiles nothing (the log shows no compile of that kernel after the
 *     guess), and gives the host's results;
 *   - a reqd_work_group_size, at clCreateKernel: the same for a 2-D launch of that shape;
 *   - a kernel launched before it was asked about: no guess;
 *   - a kernel too large to guess for (vector-typed, far above WEFT_PREPARE_MAX_INSTRUCTIONS):
 *     no guess, and the log says why.
 * No disk cache (every variant is compiled in this process, so every compile is logged) and
 * the default bound of "slow to compile" (these kernels are not: the guess compiles what
 * their launches would compile there and then). Under the e2e-v matrix the guess compiles the
 * forced variant, which the launch then runs. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_kernels_harness.h"

static const char *source =
    "kernel void asked(global int *o) {\n"
    "  size_t i = get_global_id(0);\n"
    "  o[i] = (int)i * 3 + 1;\n"
    "}\n"
    "kernel __attribute__((reqd_work_group_size(8, 4, 1))) void fixed(global int *o) {\n"
    "  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  o[i] = (int)(get_local_id(1) * 8 + get_local_id(0)) - (int)get_group_id(0);\n"
    "}\n"
    "kernel void early(global int *o) {\n"
    "  o[get_global_id(0)] = 7;\n"
    "}\n"
    "#define R4(s) s s s s\n"
    "#define R64(s) R4(R4(R4(s)))\n"
    "kernel void large(global float16 *o) {\n"
    "  float16 v = o[get_global_id(0)];\n"
    "  R64(R4(v = v * v + (float16)(0.5f);))\n"
    "  o[get_global_id(0)] = v;\n"
    "}\n";

static char log_path[] = "/tmp/weft-prepare-XXXXXX";

static int group_setup(void **state)
{
    (void)state;
    return harness_open(source, NULL);
}

static int group_teardown(void **state)
{
    (void)state;
    return harness_close();
}

static int log_count(const char *needle)
{
    return harness_log_count(log_path, needle);
}

static void wait_for_log(const char *needle)
{
    harness_wait_for_log(log_path, needle);
}

/* Launches `k` (one int buffer of `n` elements) and returns the buffer's contents (malloc'd). */
static int *run(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, size_t n)
{
    cl_mem b = buf_poisoned(n * sizeof(int));
    kernel_set_args(k, KARGS(KARG(b)));
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, dims, NULL, global, local, 0, NULL, NULL), CL_SUCCESS);
    int *out = malloc(n * sizeof(int));
    buf_read(b, n * sizeof(int), out);
    clReleaseMemObject(b);
    return out;
}

/* What the application asks to choose its local size (the guess's size). */
static size_t work_group_size(cl_kernel k)
{
    size_t wg = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
                     CL_SUCCESS);
    return wg;
}

static void test_asked_size(void **state)
{
    (void)state;
    cl_kernel k = kernel_new("asked");
    size_t wg = work_group_size(k);
    char line[128];
    snprintf(line, sizeof line, "asked: variants prepared for local size %zux1x1", wg);
    wait_for_log(line);
    const int compiles = log_count("asked: compiled ");
    assert_true(compiles >= 1);
    size_t global = 2 * wg;
    int *out = run(k, 1, &global, &wg, global);
    for (size_t i = 0; i < global; i++)
        if (out[i] != (int)i * 3 + 1) {
            fprintf(stdout, "o[%zu] = %d, want %d\n", i, out[i], (int)i * 3 + 1);
            fail();
        }
    if (log_count("asked: compiled ") != compiles) {
        fprintf(stdout, "the first launch at the size asked about compiled again\n");
        fail();
    }
    free(out);
    clReleaseKernel(k);
}

static void test_required_size(void **state)
{
    (void)state;
    cl_kernel k = kernel_new("fixed");   /* guessed at clCreateKernel */
    wait_for_log("fixed: variants prepared for local size 8x4x1");
    const int compiles = log_count("fixed: compiled ");
    const size_t global[2] = {32, 8}, local[2] = {8, 4};
    int *out = run(k, 2, global, local, 32 * 8);
    for (size_t y = 0; y < 8; y++)
        for (size_t x = 0; x < 32; x++) {
            int want = (int)((y % 4) * 8 + x % 8) - (int)(x / 8);
            if (out[y * 32 + x] != want) {
                fprintf(stdout, "o[%zu][%zu] = %d, want %d\n", y, x, out[y * 32 + x], want);
                fail();
            }
        }
    assert_int_equal(log_count("fixed: compiled "), compiles);
    free(out);
    clReleaseKernel(k);
}

static void test_launched_first(void **state)
{
    (void)state;
    cl_kernel k = kernel_new("early");
    size_t global = 64, local = 16;
    int *out = run(k, 1, &global, &local, global);
    for (size_t i = 0; i < global; i++)
        assert_int_equal(out[i], 7);
    work_group_size(k);
    assert_int_equal(log_count("early: variants for local size"), 0);
    free(out);
    clReleaseKernel(k);
}

static void test_too_large(void **state)
{
    (void)state;
    cl_kernel k = kernel_new("large");
    work_group_size(k);
    assert_int_equal(log_count("large: not prepared for local size"), 1);
    assert_int_equal(log_count("large: variants for local size"), 0);
    clReleaseKernel(k);
}

int main(void)
{
    setenv("WEFT_CACHE_DIR", "off", 1);
    setenv("WEFT_LOG", "debug", 1);   /* debug: every compile and every guess */
    if (harness_log_open(log_path))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asked_size),
        cmocka_unit_test(test_required_size),
        cmocka_unit_test(test_launched_first),
        cmocka_unit_test(test_too_large),
    };
    int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
    harness_log_close(log_path, failed);
    return failed;
}
