/* tests/api/test_program.c — program objects through the ICD loader: creation from source
 * and binary, clBuildProgram / clCompileProgram / clLinkProgram with their options and
 * failures, the build log, and clGetProgramInfo / clGetProgramBuildInfo; a program loaded
 * from its binary finds the kernel variants its source build left in the disk cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>

#include "weft_test.h"

struct env {
    cl_device_id device;
    cl_context context;
};

static int setup(void **state)
{
    static struct env e;
    cl_int err;
    e.device = weft_test_device();
    if (!e.device)
        return -1;
    e.context = clCreateContext(NULL, 1, &e.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    *state = &e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    if (!e)
        return 0;
    clReleaseContext(e->context);
    return 0;
}

static const char *two_kernels =
    "float helper(float x) { return x * 2.0f; }\n"
    "kernel void first(global float *a) { a[get_global_id(0)] = helper(a[get_global_id(0)]); }\n"
    "kernel void second(global int *b, int n) { b[get_global_id(0)] += n; }\n";

static cl_program from_source(struct env *e, const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(p);
    return p;
}

static char *build_log(struct env *e, cl_program p)
{
    size_t n = 0;
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n), CL_SUCCESS);
    char *log = calloc(n + 1, 1);
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_LOG, n, log, NULL), CL_SUCCESS);
    return log;
}

static char *kernel_names(cl_program p, cl_int *err)
{
    size_t n = 0;
    *err = clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n);
    if (*err != CL_SUCCESS)
        return NULL;
    char *s = calloc(n + 1, 1);
    *err = clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, n, s, NULL);
    return s;
}

static void test_create_with_source_errors(void **state)
{
    struct env *e = *state;
    cl_int err;
    const char *src = "kernel void k(){}";
    const char *nulls[] = {src, NULL};
    assert_null(clCreateProgramWithSource(NULL, 1, &src, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateProgramWithSource(e->context, 0, &src, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithSource(e->context, 1, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithSource(e->context, 2, nulls, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
}

static void test_source_concatenation_and_lengths(void **state)
{
    struct env *e = *state;
    const char *parts[] = {"kernel void ", "abcdef_IGNORED", "(global int *x) { x[0] = 1; }"};
    size_t lengths[] = {0, 6, 0};   /* 0: NUL-terminated */
    cl_int err;
    cl_program p = clCreateProgramWithSource(e->context, 3, parts, lengths, &err);
    assert_int_equal(err, CL_SUCCESS);
    char src[256] = {0};
    size_t n = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &n), CL_SUCCESS);
    assert_string_equal(src, "kernel void abcdef(global int *x) { x[0] = 1; }");
    assert_int_equal(n, strlen(src) + 1);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    char *names = kernel_names(p, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_string_equal(names, "abcdef");
    free(names);
    clReleaseProgram(p);
}

static void test_build_and_query(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    size_t nk = 0;
    cl_build_status st;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                     CL_INVALID_PROGRAM_EXECUTABLE);
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
    assert_int_equal(st, CL_BUILD_NONE);
    assert_int_equal(clBuildProgram(p, 1, &e->device, "-DUNUSED=1 -cl-mad-enable", NULL, NULL), CL_SUCCESS);
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
    assert_int_equal(st, CL_BUILD_SUCCESS);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
    assert_int_equal(nk, 2);
    cl_int err;
    char *names = kernel_names(p, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_string_equal(names, "first;second");
    free(names);
    char opts[128];
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL), CL_SUCCESS);
    assert_string_equal(opts, "-DUNUSED=1 -cl-mad-enable");
    cl_program_binary_type bt;
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cl_uint ndev = 0, refs = 0;
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL), CL_SUCCESS);
    assert_int_equal(ndev, 1);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof dev, &dev, NULL), CL_SUCCESS);
    assert_ptr_equal(dev, e->device);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, e->context);
    assert_int_equal(clRetainProgram(p), CL_SUCCESS);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
    cl_bool b = CL_TRUE;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, NULL), CL_SUCCESS);
    assert_int_equal(b, CL_FALSE);
    size_t il = 99;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il), CL_SUCCESS);
    assert_int_equal(il, 0);
    assert_int_equal(clGetProgramInfo(p, 0x7fff, sizeof nk, &nk, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, 1, &nk, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetProgramBuildInfo(p, NULL, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_INVALID_DEVICE);
    /* rebuild is allowed while no kernel is attached */
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    clReleaseProgram(p);
}

static void test_build_failure_log(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, "kernel void k(global int *x)\n{\n    x[0] = undeclared_thing;\n}\n");
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(e, p);
    /* clang's diagnostic with file:line:column */
    assert_non_null(strstr(log, ":3:12: error"));
    assert_non_null(strstr(log, "undeclared_thing"));
    free(log);
    cl_build_status st;
    assert_int_equal(clGetProgramBuildInfo(p, e->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
    assert_int_equal(st, CL_BUILD_ERROR);
    size_t nk;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    cl_int err;
    assert_null(clCreateKernel(p, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
}

static void test_build_options(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, "kernel void NAME(global int *x) { x[0] = VALUE; }\n");
    assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-std=CL9.9", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-D", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-D NAME=renamed -DVALUE=3 -cl-std=CL3.0 -cl-fast-relaxed-math "
                                                 "-cl-denorms-are-zero -w -cl-kernel-arg-info",
                                    NULL, NULL),
                     CL_SUCCESS);
    cl_int err;
    char *names = kernel_names(p, &err);
    assert_string_equal(names, "renamed");
    free(names);
    /* -Werror turns a warning into a failure */
    cl_program w = from_source(e, "kernel void k(global int *x) { int unused_var; x[0] = 1; }\n");
    assert_int_equal(clBuildProgram(w, 0, NULL, "-Wunused-variable", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(clBuildProgram(w, 0, NULL, "-Werror", NULL, NULL), CL_SUCCESS);
    clReleaseProgram(w);
    w = from_source(e, "kernel void k(global int *x) { x[0] == 1; }\n");
    assert_int_equal(clBuildProgram(w, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clBuildProgram(w, 0, NULL, "-Werror", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(w);
    /* __OPENCL_VERSION__ is the device's version (300) under every -cl-std (OpenCL-CTS
     * basic/kernel_preprocessor_macros) */
    w = from_source(e, "#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != 300\n"
                       "#error __OPENCL_VERSION__ is not 300\n#endif\n"
                       "kernel void k(global int *x) { x[0] = __OPENCL_VERSION__; }\n");
    assert_int_equal(clBuildProgram(w, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clBuildProgram(w, 0, NULL, "-cl-std=CL1.2", NULL, NULL), CL_SUCCESS);
    clReleaseProgram(w);
    clReleaseProgram(p);
}

static void test_build_argument_checks(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    int data = 0;
    assert_int_equal(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    assert_int_equal(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clBuildProgram(p, 0, &e->device, NULL, NULL, NULL), CL_INVALID_VALUE);
    cl_device_id bogus = (cl_device_id)&data;
    assert_int_equal(clBuildProgram(p, 1, &bogus, NULL, NULL, NULL), CL_INVALID_DEVICE);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, &data), CL_INVALID_VALUE);
    clReleaseProgram(p);
}

static void CL_CALLBACK notify(cl_program p, void *user_data)
{
    cl_build_status st = CL_BUILD_IN_PROGRESS;
    clGetProgramBuildInfo(p, weft_test_device(), CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
    *(cl_build_status *)user_data = st;
}

static void test_build_callback(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    cl_build_status seen = CL_BUILD_NONE;
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, notify, &seen), CL_SUCCESS);
    assert_int_equal(seen, CL_BUILD_SUCCESS);
    clReleaseProgram(p);
    p = from_source(e, "kernel void k( { }");
    seen = CL_BUILD_NONE;
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, notify, &seen), CL_BUILD_PROGRAM_FAILURE);
    assert_int_equal(seen, CL_BUILD_ERROR);
    clReleaseProgram(p);
}

static void expect_build_failure(struct env *e, const char *src, const char *log_part)
{
    cl_program p = from_source(e, src);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(e, p);
    if (!strstr(log, log_part))
        fail_msg("log lacks '%s':\n%s", log_part, log);
    free(log);
    clReleaseProgram(p);
}

static void test_bad_programs(void **state)
{
    struct env *e = *state;
    expect_build_failure(e, "int not_defined_anywhere(int);\n"
                            "kernel void k(global int *x) { x[0] = not_defined_anywhere(x[1]); }\n",
                         "not_defined_anywhere");
    expect_build_failure(e, "int f(int n) { return n <= 1 ? 1 : n * f(n - 1); }\n"
                            "kernel void k(global int *x) { x[0] = f(x[1]); }\n",
                         "recursion");
    expect_build_failure(e, "int g(int n);\n int h(int n) { return n ? g(n - 1) : 0; }\n"
                            "int g(int n) { return n ? h(n - 1) : 1; }\n"
                            "kernel void k(global int *x) { x[0] = g(x[1]); }\n",
                         "recursion");
    expect_build_failure(e, "kernel void k(global float *x) { x[0] = 1 }\n", "input.cl:1:");
}

static void test_kernel_attached_blocks_rebuild(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "first", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    clReleaseKernel(k);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    clReleaseProgram(p);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned char *get_binary(cl_program p, size_t *size)
{
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL), CL_SUCCESS);
    assert_true(*size > 0);
    unsigned char *bin = malloc(*size);
    size_t ret = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, &ret), CL_SUCCESS);
    assert_int_equal(ret, sizeof bin);
    return bin;
}

static void test_binary_round_trip(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    size_t size = 1;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), CL_SUCCESS);
    assert_int_equal(size, 0);   /* nothing built yet */
    assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-mad-enable", NULL, NULL), CL_SUCCESS);
    unsigned char *bin = get_binary(p, &size);

    cl_int err, status = 1;
    const unsigned char *bins[] = {bin};
    cl_program q = clCreateProgramWithBinary(e->context, 1, &e->device, &size, bins, &status, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(status, CL_SUCCESS);
    cl_program_binary_type bt;
    assert_int_equal(clGetProgramBuildInfo(q, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_int_equal(clBuildProgram(q, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    char *names = kernel_names(q, &err);
    assert_string_equal(names, "first;second");
    free(names);
    char src[8] = "x";
    assert_int_equal(clGetProgramInfo(q, CL_PROGRAM_SOURCE, sizeof src, src, NULL), CL_SUCCESS);
    assert_string_equal(src, "");
    cl_kernel k = clCreateKernel(q, "second", &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(q);

    /* a damaged binary: one flipped byte in the bitcode */
    unsigned char *bad = malloc(size);
    memcpy(bad, bin, size);
    bad[size - 5] ^= 0x40;
    bins[0] = bad;
    status = 1;
    assert_null(clCreateProgramWithBinary(e->context, 1, &e->device, &size, bins, &status, &err));
    assert_int_equal(err, CL_INVALID_BINARY);
    assert_int_equal(status, CL_INVALID_BINARY);
    /* truncated */
    size_t shorter = size - 1;
    bins[0] = bin;
    assert_null(clCreateProgramWithBinary(e->context, 1, &e->device, &shorter, bins, &status, &err));
    assert_int_equal(err, CL_INVALID_BINARY);
    /* foreign: an ELF header */
    memset(bad, 0, size);
    memcpy(bad, "\x7f" "ELF", 4);
    bins[0] = bad;
    assert_null(clCreateProgramWithBinary(e->context, 1, &e->device, &size, bins, &status, &err));
    assert_int_equal(err, CL_INVALID_BINARY);
    assert_int_equal(status, CL_INVALID_BINARY);
    /* argument errors */
    assert_null(clCreateProgramWithBinary(e->context, 0, &e->device, &size, bins, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithBinary(e->context, 1, &e->device, NULL, bins, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    size_t zero = 0;
    assert_null(clCreateProgramWithBinary(e->context, 1, &e->device, &zero, bins, &status, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_int_equal(status, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithBinary(NULL, 1, &e->device, &size, bins, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    free(bad);
    free(bin);
    clReleaseProgram(p);
}

/* ---- source and binary share the disk cache ---------------------------------------------- */

/* The disk cache's entries as "name:inode" lines, sorted (malloc'd). A compile stores an entry
 * by renaming a new file into place, so a variant compiled again shows as a new inode even
 * under the same name; a load leaves the inode as it was. */
static char *cache_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    char **lines = NULL;
    size_t n = 0, total = 1;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".wobj"))
            continue;
        struct stat st;
        assert_int_equal(fstatat(dirfd(d), de->d_name, &st, 0), 0);
        lines = realloc(lines, (n + 1) * sizeof *lines);
        lines[n] = malloc(len + 32);
        snprintf(lines[n], len + 32, "%s:%llu\n", de->d_name, (unsigned long long)st.st_ino);
        total += strlen(lines[n]);
        n++;
    }
    closedir(d);
    qsort(lines, n, sizeof *lines, by_string);
    char *all = calloc(total, 1);
    for (size_t i = 0; i < n; i++) {
        strcat(all, lines[i]);
        free(lines[i]);
    }
    free(lines);
    return all;
}

/* Runs kernel "scale" of `p` (a[i] = a[i] * SCALE + 1) over 64 work-items in groups of 16
 * and checks the results against `factor`. */
static void run_scale(struct env *e, cl_program p, float factor)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(e->context, e->device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "scale", &err);
    assert_int_equal(err, CL_SUCCESS);
    float a[64];
    for (int i = 0; i < 64; i++)
        a[i] = (float)i;
    cl_mem m = clCreateBuffer(e->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 64, local = 16;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        if (a[i] != (float)i * factor + 1.0f)
            fail_msg("a[%d] = %g, expected %g", i, a[i], (float)i * factor + 1.0f);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
}

/* A fresh program from `bin`, built with `options`. */
static cl_program from_binary(struct env *e, const unsigned char *bin, size_t size, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithBinary(e->context, 1, &e->device, &size, &bin, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 0, NULL, options, NULL, NULL), CL_SUCCESS);
    return p;
}

/* What an application that saves CL_PROGRAM_BINARIES does (hashcat: compile with its options,
 * link with none, save the binary; the next run builds the binary with its compile options):
 * the program loaded from the binary finds the variants its source build left in the disk
 * cache, so its launch compiles nothing (no entry is added or rewritten). Within one process
 * a new program has no variants in memory: only the disk cache can serve it. */
static void test_binary_finds_variants_of_source_build(void **state)
{
    struct env *e = *state;
    char dir[] = "/tmp/weft-binary-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old = getenv("WEFT_CACHE_DIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("WEFT_CACHE_DIR", dir, 1);
    const char *src = "kernel void scale(global float *a) {\n"
                      "  size_t i = get_global_id(0); a[i] = a[i] * SCALE + 1.0f; }\n";
    cl_int err;

    /* hashcat's way: clCompileProgram with options, clLinkProgram without */
    cl_program obj = from_source(e, src);
    assert_int_equal(clCompileProgram(obj, 0, NULL, "-D SCALE=3.0f -cl-mad-enable", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    cl_program linked = clLinkProgram(e->context, 0, NULL, NULL, 1, &obj, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    run_scale(e, linked, 3.0f);
    char *after_source = cache_entries(dir);
    assert_true(strlen(after_source) > 0);   /* the variant went to the disk cache */
    size_t size;
    unsigned char *bin = get_binary(linked, &size);
    clReleaseProgram(linked);
    clReleaseProgram(obj);
    cl_program p = from_binary(e, bin, size, "-D SCALE=3.0f -cl-mad-enable");
    run_scale(e, p, 3.0f);
    char *after_binary = cache_entries(dir);
    assert_string_equal(after_binary, after_source);
    clReleaseProgram(p);
    free(after_binary);
    free(bin);

    /* clBuildProgram from source with options; the binary built without any */
    p = from_source(e, src);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-D SCALE=5.0f", NULL, NULL), CL_SUCCESS);
    run_scale(e, p, 5.0f);
    free(after_source);
    after_source = cache_entries(dir);
    bin = get_binary(p, &size);
    clReleaseProgram(p);
    p = from_binary(e, bin, size, NULL);
    run_scale(e, p, 5.0f);
    after_binary = cache_entries(dir);
    assert_string_equal(after_binary, after_source);
    clReleaseProgram(p);
    free(after_binary);

    /* -cl-opt-disable changes the code, so it still sets variants apart: compiled, stored */
    p = from_binary(e, bin, size, "-cl-opt-disable");
    run_scale(e, p, 5.0f);
    after_binary = cache_entries(dir);
    assert_true(strlen(after_binary) > strlen(after_source));
    clReleaseProgram(p);
    free(after_binary);
    free(after_source);
    free(bin);

    if (saved)
        setenv("WEFT_CACHE_DIR", saved, 1);
    else
        unsetenv("WEFT_CACHE_DIR");
    free(saved);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static const char *helper_src = "#include \"inc/scale.h\"\n"
                                "float scale(float x) { return x * SCALE; }\n";
static const char *kernel_src = "#include \"inc/scale.h\"\n"
                                "float scale(float x);\n"
                                "kernel void use_scale(global float *a) { a[0] = scale(a[0]); }\n";

static void test_compile_and_link(void **state)
{
    struct env *e = *state;
    cl_int err;
    cl_program header = from_source(e, "#define SCALE 3.0f\n");
    const char *hname = "inc/scale.h";
    cl_program a = from_source(e, helper_src), b = from_source(e, kernel_src);
    /* without the header the include fails */
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    char *log = build_log(e, a);
    assert_non_null(strstr(log, "inc/scale.h"));
    free(log);
    assert_int_equal(clCompileProgram(a, 0, NULL, "-cl-bogus", 1, &header, &hname, NULL, NULL),
                     CL_INVALID_COMPILER_OPTIONS);
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 1, NULL, &hname, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 1, &header, &hname, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clCompileProgram(b, 0, NULL, NULL, 1, &header, &hname, NULL, NULL), CL_SUCCESS);
    cl_program_binary_type bt;
    assert_int_equal(clGetProgramBuildInfo(a, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    size_t nk;
    assert_int_equal(clGetProgramInfo(b, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_INVALID_PROGRAM_EXECUTABLE);

    cl_program both[] = {a, b};
    assert_null(clLinkProgram(e->context, 0, NULL, "-cl-opt-disable", 2, both, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_LINKER_OPTIONS);
    assert_null(clLinkProgram(e->context, 0, NULL, NULL, 0, both, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clLinkProgram(e->context, 0, NULL, NULL, 1, &header, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);

    cl_program exe = clLinkProgram(e->context, 0, NULL, NULL, 2, both, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    char *names = kernel_names(exe, &err);
    assert_string_equal(names, "use_scale");
    free(names);
    assert_int_equal(clGetProgramBuildInfo(exe, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    clReleaseProgram(exe);

    /* a library, then an executable from it */
    cl_program lib = clLinkProgram(e->context, 0, NULL, "-create-library", 1, &a, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetProgramBuildInfo(lib, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program parts[] = {lib, b};
    exe = clLinkProgram(e->context, 0, NULL, NULL, 2, parts, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        fail_msg("link of library and object failed (%d):\n%s", err, exe ? build_log(e, exe) : "");
    cl_kernel k = clCreateKernel(exe, "use_scale", &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(exe);

    /* a compiled object round-trips as a binary, and clBuildProgram links it */
    size_t size;
    unsigned char *bin = get_binary(b, &size);
    const unsigned char *bins[] = {bin};
    cl_program ob = clCreateProgramWithBinary(e->context, 1, &e->device, &size, bins, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetProgramBuildInfo(ob, e->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    /* alone, `scale` is undefined: the link fails with a log */
    exe = clLinkProgram(e->context, 0, NULL, NULL, 1, &ob, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_non_null(exe);
    log = build_log(e, exe);
    assert_non_null(strstr(log, "scale"));
    free(log);
    clReleaseProgram(exe);
    assert_int_equal(clBuildProgram(ob, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    free(bin);
    clReleaseProgram(ob);
    clReleaseProgram(lib);
    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseProgram(header);
}

static void test_misc_entry_points(void **state)
{
    struct env *e = *state;
    cl_program p = from_source(e, two_kernels);
    assert_int_equal(clSetProgramReleaseCallback(p, notify, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clSetProgramReleaseCallback(NULL, notify, NULL), CL_INVALID_PROGRAM);
    /* A program from source has no specialization constants (IL programs: e2e/test_spirv.c). */
    cl_uint spec = 42;
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof spec, &spec), CL_INVALID_PROGRAM);
    assert_int_equal(clSetProgramSpecializationConstant(NULL, 0, sizeof spec, &spec), CL_INVALID_PROGRAM);
    assert_int_equal(clUnloadCompiler(), CL_SUCCESS);
    cl_platform_id plat = weft_test_platform();
    assert_int_equal(clUnloadPlatformCompiler(plat), CL_SUCCESS);
    assert_int_equal(clRetainProgram(NULL), CL_INVALID_PROGRAM);
    assert_int_equal(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
    /* compiling a program made from a binary is not possible */
    clReleaseProgram(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_with_source_errors),
        cmocka_unit_test(test_source_concatenation_and_lengths),
        cmocka_unit_test(test_build_and_query),
        cmocka_unit_test(test_build_failure_log),
        cmocka_unit_test(test_build_options),
        cmocka_unit_test(test_build_argument_checks),
        cmocka_unit_test(test_build_callback),
        cmocka_unit_test(test_bad_programs),
        cmocka_unit_test(test_kernel_attached_blocks_rebuild),
        cmocka_unit_test(test_binary_round_trip),
        cmocka_unit_test(test_binary_finds_variants_of_source_build),
        cmocka_unit_test(test_compile_and_link),
        cmocka_unit_test(test_misc_entry_points),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
