/* tests/e2e/test_compile_ahead.c — variants compiled on the background thread
 * (runtime/compile_ahead.h), with WEFT_COMPILE_AHEAD_MS=0 so that every kernel's are, and no
 * disk cache, so that every variant is compiled in this process:
 *   - a group-blind kernel enqueued with local size 1 and growing global sizes (hashcat's
 *     autotune): each launch runs whichever merged size is ready, and gives the host's results;
 *     the sizes it wanted are compiled ahead and then run; only two merged sizes are ever
 *     compiled (16 and the largest), the scalar code first where a launch waits for it;
 *   - a kernel with a profiling alternative (column-major sgemv under a guard): the alternative
 *     is compiled ahead while launches run the first variant, every work-group exactly once;
 *   - kernels and programs released while their compiles are queued or running, and a process
 *     that exits with compiles queued: nothing crashes, nothing is left waiting;
 *   - with a disk cache, a process that exits with compiles queued compiles the newest one
 *     before it goes (this binary run again as a child, twice): the second child finds it there
 *     and does not queue it again;
 *   - a process whose first code generation comes after the compile thread started exits with
 *     a compile kept for the disk cache: it uses none of LLVM's statics destroyed at exit.
 * The log (WEFT_LOG=debug, stderr sent to a file) shows what was compiled, and where. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_kernels_harness.h"

static const char *source =
    "kernel void scale(global const float *in, global float *out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * 3.0f + 1.0f;\n"
    "}\n"
    "kernel void sgemv(global const float *A, global const float *x, global float *y, int m, int n,\n"
    "                  global int *ran) {\n"
    "  int i = get_global_id(0);\n"
    "  if (get_local_id(0) == 0) atomic_add(&ran[get_group_id(0)], (int)get_local_size(0));\n"
    "  if (i < m) {\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < n; j++) s += A[i + j * m] * x[j];\n"
    "    y[i] = s;\n"
    "  }\n"
    "}\n";

static char log_path[] = "/tmp/weft-compile-ahead-XXXXXX";

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

/* Whether file `path` holds `needle`; with `after`, the text that follows it on its line. */
static bool file_has(const char *path, const char *needle, char *after, size_t cap)
{
    FILE *f = fopen(path, "r");
    char line[512];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        const char *at = strstr(line, needle);
        if (at && after)
            snprintf(after, cap, "%s", at + strlen(needle));
        found = at != NULL;
    }
    if (f)
        fclose(f);
    return found;
}

static void wait_for_log(const char *needle)
{
    harness_wait_for_log(log_path, needle);
}

static void check_scale(cl_kernel k, cl_mem bin, cl_mem bout, const float *in, float *out, size_t global)
{
    const size_t local = 1;   /* hashcat's Thr:1 */
    memset(out, 0, sizeof(float) * global);
    assert_int_equal(clEnqueueWriteBuffer(env.queue, bout, CL_TRUE, 0, sizeof(float) * global, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    buf_read(bout, sizeof(float) * global, out);
    for (size_t i = 0; i < global; i++)
        if (out[i] != in[i] * 3.0f + 1.0f) {
            fprintf(stdout, "global %zu: out[%zu] = %g, want %g\n", global, i, out[i], in[i] * 3.0f + 1.0f);
            fail();
        }
}

static void test_growing_global(void **state)
{
    (void)state;
    const size_t most = 8192;
    float *in = malloc(sizeof(float) * most), *out = malloc(sizeof(float) * most);
    for (size_t i = 0; i < most; i++)
        in[i] = (float)(rng_next() % 1000) / 8.0f;
    cl_mem bin = buf_new(sizeof(float) * most, in), bout = buf_new(sizeof(float) * most, NULL);
    cl_kernel k = kernel_new("scale");
    kernel_set_args(k, KARGS(KARG(bin), KARG(bout)));
    for (size_t global = 16; global <= most; global *= 2)
        for (int rep = 0; rep < 3; rep++)
            check_scale(k, bin, bout, in, out, global);
    /* the largest merged size is compiled ahead at last (it is never dropped for another:
     * no larger one came after it), and then runs */
    wait_for_log("scale: compiled ahead for local size 256x1x1");
    for (int rep = 0; rep < 3; rep++)
        check_scale(k, bin, bout, in, out, most);
    /* two merged sizes at most (ndrange.c, merged_size_paying): 16 and the top (256), besides
     * the local size 1 of launches too small to merge; not one per doubling of the global size.
     * The first compile at 16, which a launch waits for, is of the scalar code (ndrange.c,
     * scalar_compiled_first); the vectorized code follows ahead. Not under WEFT_VARIANT (the
     * e2e-v matrix), which forces one variant. */
    const char *forced = getenv("WEFT_VARIANT");
    const bool chosen = !forced || !*forced || !strcmp(forced, "auto");
    fflush(stderr);
    FILE *f = fopen(log_path, "r");
    char line[512];
    bool top = false, at16 = false;
    while (f && fgets(line, sizeof line, f)) {
        const char *at = strstr(line, "scale: compiled "), *size = at ? strstr(at, " for local size ") : NULL;
        if (!size)
            continue;
        unsigned long l0 = strtoul(size + strlen(" for local size "), NULL, 10);
        if (l0 != 1 && l0 != 16 && l0 != 256) {
            fprintf(stdout, "compiled for a merged size of %lu: %s", l0, line);
            fail();
        }
        if (chosen && l0 == 16 && !at16 && !strstr(line, "scale: compiled dfo.scalar ")) {
            fprintf(stdout, "the first compile at 16 was not the scalar code: %s", line);
            fail();
        }
        at16 |= l0 == 16;
        top |= l0 == 256;
    }
    if (f)
        fclose(f);
    assert_true(top && at16);
    clReleaseKernel(k);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in);
    free(out);
}

static float frand(void)
{
    return (float)(rng_next() % 2001) / 1000.0f - 1.0f;
}

static void test_alternative_ahead(void **state)
{
    (void)state;
    const int n = 64;
    const size_t local = 16;
    /* 300 groups: enough to profile with up to 75 threads; a ragged last one */
    const int m = (int)(local * 300 - 3);
    const size_t global = round_up((size_t)m, local), groups = global / local;
    float *A = malloc(sizeof(float) * (size_t)m * n), *x = malloc(sizeof(float) * n);
    float *want = malloc(sizeof(float) * (size_t)m), *got = malloc(sizeof(float) * (size_t)m);
    int *ran = malloc(sizeof(int) * groups);
    for (int i = 0; i < m * n; i++)
        A[i] = frand();
    for (int j = 0; j < n; j++)
        x[j] = frand();
    for (int i = 0; i < m; i++) {
        float s = 0.0f;
        for (int j = 0; j < n; j++)
            s = fmaf(A[i + j * m], x[j], s);
        want[i] = s;
    }
    cl_mem bA = buf_new(sizeof(float) * (size_t)m * n, A), bx = buf_new(sizeof(float) * n, x);
    cl_mem by = buf_new(sizeof(float) * (size_t)m, NULL), bran = buf_new(sizeof(int) * groups, NULL);
    cl_kernel k = kernel_new("sgemv");
    int mm = m, nn = n;
    kernel_set_args(k, KARGS(KARG(bA), KARG(bx), KARG(by), KARG(mm), KARG(nn), KARG(bran)));
    /* 12 launches before the alternative is surely there, 6 after */
    for (int rep = 0; rep < 18; rep++) {
        if (rep == 12 && !getenv("WEFT_VARIANT"))   /* a forced variant has no alternative */
            wait_for_log("sgemv: compiled ahead for local size 16x1x1");
        int zero = 0;
        assert_int_equal(clEnqueueFillBuffer(env.queue, bran, &zero, sizeof zero, 0, sizeof(int) * groups, 0, NULL,
                                             NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
        buf_read(by, sizeof(float) * (size_t)m, got);
        buf_read(bran, sizeof(int) * groups, ran);
        for (size_t g = 0; g < groups; g++)
            if (ran[g] != (int)local) {
                fprintf(stdout, "launch %d: group %zu ran %d work-items\n", rep, g, ran[g]);
                fail();
            }
        for (int i = 0; i < m; i++)
            if (!close_f(got[i], want[i], 1e-4)) {
                fprintf(stdout, "launch %d: y[%d] = %g, want %g\n", rep, i, got[i], want[i]);
                fail();
            }
    }
    clReleaseKernel(k);
    clReleaseMemObject(bA);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bran);
    free(A);
    free(x);
    free(want);
    free(got);
    free(ran);
}

/* A program of its own, its kernel launched at new merged sizes (queued ahead) and released at
 * once with its program; the queued jobs hold the kernel until they are done or dropped. The
 * last ones are still queued when the process exits. */
static void test_release_while_queued(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        cl_program p = weft_test_build(&env, source, round == 0 ? NULL : "-cl-fast-relaxed-math");
        assert_non_null(p);
        cl_int err;
        cl_kernel k = clCreateKernel(p, "scale", &err);
        assert_int_equal(err, CL_SUCCESS);
        const size_t most = 4096, local = 1;
        cl_mem bin = buf_new(sizeof(float) * most, NULL), bout = buf_new(sizeof(float) * most, NULL);
        kernel_set_args(k, KARGS(KARG(bin), KARG(bout)));
        for (size_t global = 32; global <= most; global *= 4)
            assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                             CL_SUCCESS);
        clReleaseKernel(k);
        clReleaseProgram(p);
        assert_int_equal(clFinish(env.queue), CL_SUCCESS);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
    }
}

/* The child of test_newest_compiled_at_exit: the scale kernel at local size 1 and growing
 * global sizes, which queues a compile for each new merged size, then exit with the last ones
 * still queued. */
static int exit_child(const char *cache_dir)
{
    setenv("WEFT_CACHE_DIR", cache_dir, 1);
    if (harness_open(source, NULL))
        return 2;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "scale", &err);
    const size_t most = 4096, local = 1;
    cl_mem bin = buf_new(sizeof(float) * most, NULL), bout = buf_new(sizeof(float) * most, NULL);
    if (err != CL_SUCCESS)
        return 3;
    clSetKernelArg(k, 0, sizeof bin, &bin);
    clSetKernelArg(k, 1, sizeof bout, &bout);
    for (size_t global = 64; global <= most; global *= 4)
        if (clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS)
            return 4;
    return clFinish(env.queue) == CL_SUCCESS ? 0 : 5;   /* exit() with the compiles queued */
}

/* The child of test_exit_after_first_backend_use: exit_child's launches, found in the disk cache
 * but for the merged sizes the first child did not compile, which are queued again, then the
 * process's first code generation (sgemv, never launched before) on this thread, after the
 * compile thread started, and exit with the compiles queued. */
static int exit_child_late(const char *cache_dir)
{
    int status = exit_child(cache_dir);
    if (status)
        return status;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "sgemv", &err);
    if (err != CL_SUCCESS)
        return 6;
    enum { M = 64, N = 8 };
    float a[M * N], x[N];
    for (int i = 0; i < M * N; i++)
        a[i] = (float)(i % 7);
    for (int j = 0; j < N; j++)
        x[j] = (float)j;
    int ran[M] = {0};
    cl_mem ba = buf_new(sizeof a, a), bx = buf_new(sizeof x, x), by = buf_new(sizeof(float) * M, NULL),
           bran = buf_new(sizeof ran, ran);
    cl_int m = M, n = N;
    kernel_set_args(k, KARGS(KARG(ba), KARG(bx), KARG(by), KARG(m), KARG(n), KARG(bran)));
    const size_t global = M, local = 16;
    if (clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS)
        return 7;
    return clFinish(env.queue) == CL_SUCCESS ? 0 : 8;   /* exit() with the compiles queued */
}

/* Runs this binary as exit_child (exit_child_late with `late`) with `cache_dir`, its stderr
 * into `log`, under a time limit; its exit status. `env`: assignments for the child's
 * environment ("" for none). */
static int run_child(const char *cache_dir, const char *log, bool late, const char *env)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s timeout 120 '%s' %s '%s' 2> '%s'", env, self,
             late ? "--exit-child-late" : "--exit-child", cache_dir, log);
    return system(cmd);
}

static int run_exit_child(const char *cache_dir, const char *log)
{
    return run_child(cache_dir, log, false, "");
}

static void test_newest_compiled_at_exit(void **state)
{
    (void)state;
    char dir[] = "/tmp/weft-ahead-cache-XXXXXX", log[4200];
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s.log", dir);
    assert_int_equal(run_exit_child(dir, log), 0);
    char size[64] = "";
    if (!file_has(log, "scale for local size ", size, sizeof size)) {
        fprintf(stdout, "the first child compiled nothing at exit\n");
        fail();
    }
    assert_true(strstr(size, "compiled at exit") != NULL);
    *strchr(size, ' ') = 0;   /* "256x1x1" */
    char queued[128];
    snprintf(queued, sizeof queued, "scale: compile for local size %s queued ahead", size);
    assert_int_equal(run_exit_child(dir, log), 0);
    if (file_has(log, queued, NULL, 0)) {
        fprintf(stdout, "the second child queued %s again\n", size);
        fail();
    }
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, log);
    assert_int_equal(system(cmd), 0);
}

/* LLVM registers the destructors of some statics at the process's first code generation, and
 * exit runs them before older exit handlers: the handler that compiles the newest job at exit
 * must be registered after them. The second child's first code generation comes after the
 * compile thread started (its other launches find their variants in the disk cache), and
 * glibc's MALLOC_PERTURB_ fills freed memory, so that a compile at exit that used the destroyed
 * statics would not go unnoticed (before the fix: it spun in TargetLibraryInfo's destroyed name
 * table until killed). */
static void test_exit_after_first_backend_use(void **state)
{
    (void)state;
    char dir[] = "/tmp/weft-ahead-late-XXXXXX", log[4200], copy[4200], cmd[12800];
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(copy, sizeof copy, "%s.copy", dir);
    assert_int_equal(run_exit_child(dir, log), 0);
    for (int round = 0; round < 2; round++) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", copy, dir, copy);
        assert_int_equal(system(cmd), 0);
        int status = run_child(copy, log, true, "MALLOC_PERTURB_=165");
        if (status != 0) {
            snprintf(cmd, sizeof cmd, "cat '%s'", log);
            (void)!system(cmd);
            fprintf(stdout, "the child exited with status %d\n", status);
            fail();
        }
        /* what was queued was compiled at exit, or before it beside the main thread's first code
         * generation (a forced WEFT_VARIANT compiles every launch's variant at the launch) */
        if (file_has(log, "queued ahead", NULL, 0))
            assert_true(file_has(log, "compiled at exit", NULL, 0) || file_has(log, "scale: compiled ahead", NULL, 0));
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' '%s'", dir, copy, log);
    assert_int_equal(system(cmd), 0);
}

int main(int argc, char **argv)
{
    if (argc == 3 && (!strcmp(argv[1], "--exit-child") || !strcmp(argv[1], "--exit-child-late"))) {
        setenv("WEFT_COMPILE_AHEAD_MS", "0", 1);
        setenv("WEFT_LOG", "debug", 1);   /* debug: "queued ahead" */
        return strcmp(argv[1], "--exit-child") ? exit_child_late(argv[2]) : exit_child(argv[2]);
    }
    setenv("WEFT_COMPILE_AHEAD_MS", "0", 1);
    setenv("WEFT_CACHE_DIR", "off", 1);
    setenv("WEFT_LOG", "debug", 1);   /* debug: every compile, the launches' own included */
    if (harness_log_open(log_path))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_growing_global),
        cmocka_unit_test(test_alternative_ahead),
        cmocka_unit_test(test_release_while_queued),
        cmocka_unit_test(test_newest_compiled_at_exit),
        cmocka_unit_test(test_exit_after_first_backend_use),
    };
    int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
    harness_log_close(log_path, failed);
    return failed;
}
