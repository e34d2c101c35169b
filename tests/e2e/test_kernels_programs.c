/* tests/e2e/test_kernels_programs.c — kernels from separately compiled programs end to end:
 * a helper containing barriers compiled on its own (clCompileProgram), a kernel calling it
 * compiled from another source, both linked (clLinkProgram); the linked program's binary
 * reloaded with clCreateProgramWithBinary; each launched at several local sizes and checked
 * against a host reference. Also kernel attributes that must compile and be reported
 * (work_group_size_hint, vec_type_hint, reqd_work_group_size), the predefined macros of
 * OpenCL C 6.12 and the math section agreeing with what the device reports, and
 * -cl-denorms-are-zero flushing denormals in the program built with it and in no other. */
#include "test_kernels_harness.h"

static const char *lib_source =
    "int group_sum(local int *t, int v) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = v;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (size_t i = 0; i < n; i++) s += t[i];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  return s;\n"
    "}\n";

static const char *kernel_source =
    "int group_sum(local int *t, int v);\n"
    "__attribute__((work_group_size_hint(16, 1, 1))) __attribute__((vec_type_hint(float4)))\n"
    "kernel void sums(global int *p, local int *t) {\n"
    "  int v = p[get_global_id(0)];\n"
    "  p[get_global_id(0)] = group_sum(t, v) * 100 + group_sum(t, 1);\n"
    "}\n"
    "__attribute__((reqd_work_group_size(16, 1, 1)))\n"
    "kernel void fixed(global int *p, local int *t) {\n"
    "  size_t f = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  p[f] = group_sum(t, (int)f);\n"
    "}\n";

static cl_program linked, reloaded;

static cl_program compile(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
    if (err == CL_SUCCESS)
        err = clCompileProgram(p, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCompileProgram = %d\n", err);
        return NULL;
    }
    return p;
}

static int setup(void **state)
{
    (void)state;
    if (weft_test_env_open(&env, 0) != 0)
        return -1;
    cl_program parts[2] = {compile(kernel_source), compile(lib_source)};
    if (!parts[0] || !parts[1])
        return -1;
    cl_int err;
    linked = clLinkProgram(env.context, 1, &env.device, NULL, 2, parts, NULL, NULL, &err);
    clReleaseProgram(parts[0]);
    clReleaseProgram(parts[1]);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clLinkProgram = %d\n", err);
        return -1;
    }
    size_t size = 0;
    if (clGetProgramInfo(linked, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
        return -1;
    unsigned char *bin = malloc(size);
    cl_int status;
    if (clGetProgramInfo(linked, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS)
        return -1;
    const unsigned char *cbin = bin;
    reloaded = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cbin, &status, &err);
    free(bin);
    if (err != CL_SUCCESS || status != CL_SUCCESS)
        return -1;
    return clBuildProgram(reloaded, 1, &env.device, NULL, NULL, NULL) == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseProgram(linked);
    clReleaseProgram(reloaded);
    prog = NULL;
    return harness_close();
}

static void run_sums(cl_program p, const char *which)
{
    static const size_t sizes[] = {1, 7, 16, 100};
    prog = p; /* launch() creates kernels from the harness's program */
    for (size_t t = 0; t < ARRAY_LEN(sizes); t++) {
        size_t ls = sizes[t], n = ls * 3;
        int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 1000);
        cl_mem b = buf_new(n * sizeof *in, in);
        assert_int_equal(launch("sums", 1, NULL, &n, &ls, KARGS(KARG(b), KLOCAL(ls * sizeof(int)))), CL_SUCCESS);
        buf_read(b, n * sizeof *out, out);
        for (size_t g = 0; g < n; g++) {
            int s = 0;
            for (size_t j = g - g % ls; j < g - g % ls + ls; j++)
                s += in[j];
            if (out[g] != s * 100 + (int)ls)
                fail_msg("%s, local %zu at %zu: %d, want %d", which, ls, g, out[g], s * 100 + (int)ls);
        }
        clReleaseMemObject(b);
        free(in);
        free(out);
    }
    prog = NULL;
}

static void test_linked_program(void **state)
{
    (void)state;
    run_sums(linked, "linked");
}

static void test_program_from_binary(void **state)
{
    (void)state;
    run_sums(reloaded, "from binary");
}

static void test_attributes(void **state)
{
    (void)state;
    cl_program ps[2] = {linked, reloaded};
    for (int w = 0; w < 2; w++) {
        cl_int err;
        cl_kernel k = clCreateKernel(ps[w], "fixed", &err);
        assert_int_equal(err, CL_SUCCESS);
        size_t reqd[3] = {0};
        assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd,
                                                  NULL),
                         CL_SUCCESS);
        assert_int_equal(reqd[0], 16);
        assert_int_equal(reqd[1], 1);
        assert_int_equal(reqd[2], 1);
        clReleaseKernel(k);
        prog = ps[w];
        size_t global[2] = {16, 4}, n = 64;
        int out[64];
        cl_mem b = buf_poisoned(sizeof out);
        assert_int_equal(launch("fixed", 2, NULL, global, NULL, KARGS(KARG(b), KLOCAL(16 * sizeof(int)))), CL_SUCCESS);
        buf_read(b, sizeof out, out);
        for (size_t f = 0; f < n; f++) { /* the runtime must pick the required 16 x 1: a group is a row */
            size_t y = f / 16;
            int s = 0;
            for (size_t xx = 0; xx < 16; xx++)
                s += (int)(y * 16 + xx);
            if (out[f] != s)
                fail_msg("program %d at %zu: %d, want %d", w, f, out[f], s);
        }
        clReleaseMemObject(b);
        prog = NULL;
    }
}

/* The predefined macros a kernel sees, under each -cl-std, against the device queries:
 * __IMAGE_SUPPORT__ is 1 exactly when CL_DEVICE_IMAGE_SUPPORT (clang defines it for SPIR targets
 * only, so `#ifdef __IMAGE_SUPPORT__` used to take a kernel's fallback), __ENDIAN_LITTLE__
 * follows CL_DEVICE_ENDIAN_LITTLE, __OPENCL_VERSION__ is CL_DEVICE_VERSION's, and
 * __OPENCL_C_VERSION__ the -cl-std's; FP_FAST_FMAF/FP_FAST_FMA are defined where the CPU has FMA
 * instructions and FP_FAST_FMA_HALF never (half fma is a sequence in double);
 * __FAST_RELAXED_MATH__ comes with -cl-fast-relaxed-math only. */
static const char *macros_source =
    "#ifdef __IMAGE_SUPPORT__\n#define IMG __IMAGE_SUPPORT__\n#else\n#define IMG -1\n#endif\n"
    "#ifdef __ENDIAN_LITTLE__\n#define LE __ENDIAN_LITTLE__\n#else\n#define LE -1\n#endif\n"
    "#ifdef FP_FAST_FMAF\n#define FMAF FP_FAST_FMAF\n#else\n#define FMAF -1\n#endif\n"
    "#ifdef FP_FAST_FMA\n#define FMAD FP_FAST_FMA\n#else\n#define FMAD -1\n#endif\n"
    "#ifdef FP_FAST_FMA_HALF\n#define FMAH 1\n#else\n#define FMAH -1\n#endif\n"
    "#ifdef __FAST_RELAXED_MATH__\n#define FRM 1\n#else\n#define FRM -1\n#endif\n"
    "#if defined(__IMAGE_SUPPORT__)\n"
    "kernel void imgpath(read_only image2d_t im, global int *out) { out[0] = get_image_width(im); }\n"
    "#endif\n"
    "__kernel_exec(8, float4) void k(global int *out) {\n"
    "  out[0] = IMG; out[1] = LE; out[2] = __OPENCL_VERSION__; out[3] = __OPENCL_C_VERSION__;\n"
    "  out[4] = CL_VERSION_1_0; out[5] = CL_VERSION_1_1; out[6] = CL_VERSION_1_2;\n"
    "  out[7] = CL_VERSION_2_0; out[8] = CL_VERSION_3_0;\n"
    "  out[9] = FMAF; out[10] = FMAD; out[11] = FMAH; out[12] = FRM;\n"
    "}\n";

/* "OpenCL <major>.<minor> ..." as major * 100 + minor * 10 */
static int version_of(const char *s, const char *prefix)
{
    int major = 0, minor = 0;
    assert_int_equal(strncmp(s, prefix, strlen(prefix)), 0);
    assert_int_equal(sscanf(s + strlen(prefix), "%d.%d", &major, &minor), 2);
    return major * 100 + minor * 10;
}

static void test_predefined_macros(void **state)
{
    (void)state;
    cl_bool images = CL_FALSE, little = CL_FALSE;
    char version[256] = {0};
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL), CL_SUCCESS);
    const int device_version = version_of(version, "OpenCL ");
    /* the host's own view of the CPU, not the runtime's */
    __builtin_cpu_init();
    const int fma = __builtin_cpu_supports("fma") ? 1 : -1;
    static const struct {
        const char *options;
        int c_version, relaxed;
    } builds[] = {
        {NULL, 120, -1},
        {"-cl-std=CL1.1", 110, -1},
        {"-cl-std=CL1.2", 120, -1},
        {"-cl-std=CL3.0", 300, -1},
        {"-cl-std=CL3.0 -cl-fast-relaxed-math", 300, 1},
    };
    for (size_t b = 0; b < ARRAY_LEN(builds); b++) {
        const char *opts = builds[b].options ? builds[b].options : "(none)";
        prog = weft_test_build(&env, macros_source, builds[b].options);
        assert_non_null(prog);
        int out[13];
        cl_mem m = buf_poisoned(sizeof out);
        assert_int_equal(launch("k", 1, NULL, (size_t[]){8}, (size_t[]){8}, KARGS(KARG(m))), CL_SUCCESS);
        buf_read(m, sizeof out, out);
        clReleaseMemObject(m);
        const int want[13] = {images ? 1 : -1, little ? 1 : -1, device_version, builds[b].c_version,
                              100, 110, 120, 200, 300, fma, fma, -1, builds[b].relaxed};
        static const char *const names[13] = {
            "__IMAGE_SUPPORT__", "__ENDIAN_LITTLE__", "__OPENCL_VERSION__", "__OPENCL_C_VERSION__",
            "CL_VERSION_1_0", "CL_VERSION_1_1", "CL_VERSION_1_2", "CL_VERSION_2_0", "CL_VERSION_3_0",
            "FP_FAST_FMAF", "FP_FAST_FMA", "FP_FAST_FMA_HALF", "__FAST_RELAXED_MATH__"};
        for (int i = 0; i < 13; i++)
            if (out[i] != want[i])
                fail_msg("options %s: %s is %d, want %d (-1: undefined)", opts, names[i], out[i], want[i]);
        /* the kernel behind #if defined(__IMAGE_SUPPORT__) exists exactly when images do */
        cl_int err;
        cl_kernel k = clCreateKernel(prog, "imgpath", &err);
        if (images && err != CL_SUCCESS)
            fail_msg("options %s: the image kernel under __IMAGE_SUPPORT__ is missing (%d)", opts, err);
        if (k)
            clReleaseKernel(k);
        clReleaseProgram(prog);
        prog = NULL;
    }
}

/* A denormal constant added to 0, 1 and a denormal input: flushed to zero under
 * -cl-denorms-are-zero (piglit's amdgcn-f32-inline-immediates wants that, as pocl does), kept
 * without it (the device reports CL_FP_DENORM), also when the flushing program ran just before
 * on the same threads, and with the work-items' loops vectorized or not. */
static const char *denorm_source = "kernel void k(global float *out, global const float *in) {\n"
                                   "  int i = get_global_id(0);\n"
                                   "  out[i] = in[i] + as_float(64);\n"
                                   "}\n";

static void test_denorms_are_zero(void **state)
{
    (void)state;
    const size_t n = 64;
    float in[64];
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = i % 3 == 0 ? 0u : i % 3 == 1 ? 0x3f800000u : 0x40u;   /* 0, 1, denormal */
        memcpy(&in[i], &bits, 4);
    }
    static const char *const builds[] = {"-cl-denorms-are-zero", NULL, "-cl-denorms-are-zero", NULL};
    for (size_t b = 0; b < ARRAY_LEN(builds); b++) {
        prog = weft_test_build(&env, denorm_source, builds[b]);
        assert_non_null(prog);
        cl_mem bi = buf_new(sizeof in, in), bo = buf_new(sizeof in, NULL);
        assert_int_equal(launch("k", 1, NULL, &n, (size_t[]){16}, KARGS(KARG(bo), KARG(bi))), CL_SUCCESS);
        uint32_t out[64];
        buf_read(bo, sizeof out, out);
        for (size_t i = 0; i < n; i++) {
            uint32_t want = builds[b] ? (i % 3 == 1 ? 0x3f800000u : 0u) : (i % 3 == 1 ? 0x3f800000u : i % 3 == 0 ? 0x40u : 0x80u);
            if (out[i] != want)
                fail_msg("options %s: out[%zu] = 0x%x, want 0x%x", builds[b] ? builds[b] : "(none)", i, out[i], want);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
        clReleaseProgram(prog);
        prog = NULL;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linked_program),
        cmocka_unit_test(test_program_from_binary),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_predefined_macros),
        cmocka_unit_test(test_denorms_are_zero),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
