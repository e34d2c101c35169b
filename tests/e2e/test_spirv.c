/* tests/e2e/test_spirv.c — programs from SPIR-V (clCreateProgramWithIL): kernels built from the
 * modules of tests/e2e/spirv/ (*.spvasm) (assembled by spirv-as at build time into WEFT_SPIRV_DIR)
 * run and are checked against host references; specialization constants change results; bad
 * IL, bad specialization ids and sizes get the specified errors; CL_PROGRAM_IL returns the
 * module; compile + link of IL objects, also together with OpenCL C objects; the SPIR-V 1.4
 * instructions the translator cannot read run after compiler/spirvdown.c's rewrite. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_kernels_harness.h"

#ifndef WEFT_SPIRV_DIR
#error "WEFT_SPIRV_DIR must name the folder of the assembled SPIR-V inputs"
#endif

struct module {
    unsigned char *data;
    size_t size;
};

static struct module module_read(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.spv", WEFT_SPIRV_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    struct module m = {malloc((size_t)n), (size_t)n};
    assert_non_null(m.data);
    assert_int_equal(fread(m.data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return m;
}

static cl_program il_program(const char *name)
{
    struct module m = module_read(name);
    cl_int err;
    cl_program p = clCreateProgramWithIL(env.context, m.data, m.size, &err);
    free(m.data);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

static void print_log(cl_program p)
{
    size_t n = 0;
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
    free(log);
}

static cl_program il_built(const char *name, const char *options)
{
    cl_program p = il_program(name);
    cl_int err = clBuildProgram(p, 1, &env.device, options, NULL, NULL);
    if (err != CL_SUCCESS)
        print_log(p);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

/* Runs kernel `name` of program p (the harness's launch() uses its suite program). */
static void run(cl_program p, const char *name, size_t global, size_t local, const struct karg *args, size_t nargs)
{
    cl_program saved = prog;
    prog = p;
    cl_int err = launch(name, 1, NULL, &global, local ? &local : NULL, args, nargs);
    prog = saved;
    assert_int_equal(err, CL_SUCCESS);
}

/* ---- device queries -------------------------------------------------------------------- */

static void test_device_il_queries(void **state)
{
    (void)state;
    char s[256] = {0};
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_IL_VERSION, sizeof s, s, NULL), CL_SUCCESS);
    assert_string_equal(s, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    cl_name_version v[8];
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_ILS_WITH_VERSION, sizeof v, v, &n), CL_SUCCESS);
    assert_int_equal(n, 5 * sizeof(cl_name_version));
    for (unsigned i = 0; i < 5; i++) {
        assert_string_equal(v[i].name, "SPIR-V");
        assert_int_equal(v[i].version, CL_MAKE_VERSION(1, i, 0));
    }
}

/* ---- kernels ------------------------------------------------------------------------- */

static void check_vadd(cl_program p)
{
    enum { N = 1000, G = 1024 };
    float a[G], b[G], c[G];
    for (int i = 0; i < G; i++) {
        a[i] = (float)(rng_next() % 1000) / 7.0f;
        b[i] = (float)i * 0.5f - 100.0f;
    }
    cl_mem ba = buf_new(sizeof a, a), bb = buf_new(sizeof b, b), bc = buf_poisoned(sizeof c);
    cl_uint n = N;
    run(p, "vadd", G, 64, KARGS(KARG(ba), KARG(bb), KARG(bc), KARG(n)));
    buf_read(bc, sizeof c, c);
    for (int i = 0; i < G; i++) {
        if (i < N && c[i] != a[i] + b[i])
            fail_msg("c[%d] = %g, expected %g", i, c[i], a[i] + b[i]);
        uint32_t bits;
        memcpy(&bits, &c[i], 4);
        if (i >= N && bits != 0xA5A5A5A5u)
            fail_msg("c[%d] was written although %d >= n", i, i);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
}

static void test_vadd(void **state)
{
    (void)state;
    cl_program p = il_built("vadd", NULL);
    check_vadd(p);
    cl_build_status st;
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
    assert_int_equal(st, CL_BUILD_SUCCESS);
    char names[64];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL), CL_SUCCESS);
    assert_string_equal(names, "vadd");
    clReleaseProgram(p);
}

/* Build options work for IL as for source: relaxed math is accepted (and exact additions stay
 * exact), unknown options are refused, WEFT_LLVM_SPIRV names the translator. */
static void test_build_options_and_translator(void **state)
{
    (void)state;
    cl_program p = il_built("vadd", "-cl-fast-relaxed-math -cl-mad-enable -cl-uniform-work-group-size -w");
    check_vadd(p);
    assert_int_equal(clBuildProgram(p, 1, &env.device, "-cl-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(p);
    /* a build that cannot run the translator says so (and is not served from the cache: the
     * translator is part of the key) */
    setenv("WEFT_LLVM_SPIRV", "/nonexistent/llvm-spirv", 1);
    p = il_program("vadd");
    cl_int err = clBuildProgram(p, 1, &env.device, NULL, NULL, NULL);
    unsetenv("WEFT_LLVM_SPIRV");
    assert_int_equal(err, CL_COMPILER_NOT_AVAILABLE);
    char log[4096] = {0};
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    if (!strstr(log, "/nonexistent/llvm-spirv"))
        fail_msg("the build log does not name the translator:\n%s", log);
    assert_int_equal(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_SUCCESS);
    check_vadd(p);
    clReleaseProgram(p);
}

static void test_vadd_spirv_1_4(void **state)
{
    (void)state;
    cl_program p = il_built("vadd_v14", NULL);
    check_vadd(p);
    clReleaseProgram(p);
}

/* A module stored in the other byte order is the same module (SPIR-V 2.3: the magic number
 * tells the reader to swap). */
static void test_vadd_byte_swapped(void **state)
{
    (void)state;
    struct module m = module_read("vadd");
    for (size_t i = 0; i + 3 < m.size; i += 4) {
        unsigned char t = m.data[i];
        m.data[i] = m.data[i + 3];
        m.data[i + 3] = t;
        t = m.data[i + 1];
        m.data[i + 1] = m.data[i + 2];
        m.data[i + 2] = t;
    }
    cl_int err;
    cl_program p = clCreateProgramWithIL(env.context, m.data, m.size, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &env.device, NULL, NULL, NULL);
    if (err != CL_SUCCESS)
        print_log(p);
    assert_int_equal(err, CL_SUCCESS);
    check_vadd(p);
    /* CL_PROGRAM_IL gives the module back as the application gave it */
    size_t n = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, m.size);
    unsigned char *back = malloc(n);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, n, back, NULL), CL_SUCCESS);
    assert_memory_equal(back, m.data, n);
    free(back);
    free(m.data);
    clReleaseProgram(p);
}

/* OpGroupIAdd/OpGroupSMax/OpGroupBroadcast/OpGroupAll at Workgroup scope arrive as the OpenCL
 * C work-group collectives (transform/wgcollective.c). */
static void test_work_group_collectives(void **state)
{
    (void)state;
    cl_program p = il_built("groups", NULL);
    enum { G = 96 };
    static const size_t locals[] = {32, 3, 1};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t ls = locals[t];
        cl_int in[G], out[G * 4];
        for (int i = 0; i < G; i++)
            in[i] = (cl_int)(rng_next() % 2000) - (t == 0 ? 100 : 1000);
        cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
        run(p, "groups", G, ls, KARGS(KARG(bi), KARG(bo)));
        buf_read(bo, sizeof out, out);
        for (size_t i = 0; i < G; i++) {
            size_t g0 = i - i % ls;
            cl_int sum = 0, mx = in[g0], all = 1;
            for (size_t j = g0; j < g0 + ls; j++) {
                sum += in[j];
                all &= in[j] > 0;
                if (j <= i && in[j] > mx)
                    mx = in[j];
            }
            cl_int want[4] = {sum, mx, in[g0 + (ls > 1 ? 1 : 0)], all ? 2 : 0};
            for (int k = 0; k < (ls > 1 ? 4 : 2); k++)
                if (out[i * 4 + k] != want[k])
                    fail_msg("groups (local size %zu): item %zu, result %d = %d, expected %d", ls, i, k,
                             out[i * 4 + k], want[k]);
        }
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
    clReleaseProgram(p);
}

static void test_local_memory_and_barriers(void **state)
{
    (void)state;
    cl_program p = il_built("local", NULL);
    enum { G = 512, L = 64 };
    cl_uint in[G], out[G];
    for (int i = 0; i < G; i++)
        in[i] = rng_next() % 100000;
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    run(p, "reverse", G, L, KARGS(KARG(bi), KARG(bo), KLOCAL(L * sizeof(cl_uint))));
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < G; i++) {
        int grp = i / L, l = i % L;
        cl_uint want = in[grp * L + (L - 1 - l)] + 1000u * (cl_uint)grp + 100000u * (G / L);
        if (out[i] != want)
            fail_msg("reverse: out[%d] = %u, expected %u", i, out[i], want);
    }
    static const size_t locals[] = {256, 128, 32, 1};
    for (size_t t = 0; t < ARRAY_LEN(locals); t++) {
        size_t ls = locals[t], groups = G / ls;
        cl_mem bs = buf_poisoned(groups * sizeof(cl_uint));
        run(p, "groupsum", G, ls, KARGS(KARG(bi), KARG(bs)));
        cl_uint sums[G];
        buf_read(bs, groups * sizeof(cl_uint), sums);
        for (size_t g = 0; g < groups; g++) {
            cl_uint want = 0;
            for (size_t k = 0; k < ls; k++)
                want += in[g * ls + k];
            if (sums[g] != want)
                fail_msg("groupsum (local size %zu): group %zu = %u, expected %u", ls, g, sums[g], want);
        }
        clReleaseMemObject(bs);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseProgram(p);
}

static void test_math_builtins(void **state)
{
    (void)state;
    cl_program p = il_built("math", NULL);
    enum { G = 256 };
    float x[G], out[4 * G];
    for (int i = 0; i < G; i++)
        x[i] = ((float)(rng_next() % 20001) - 10000.0f) / 1000.0f;
    cl_mem bx = buf_new(sizeof x, x), bo = buf_poisoned(sizeof out);
    run(p, "mathf", G, 0, KARGS(KARG(bx), KARG(bo)));
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < G; i++) {
        double v = x[i];
        double ip = floor(v), fr = fmin(v - ip, 0x1.fffffep-1);
        double want[4] = {sin(v), exp(v * 0.5), pow(fabs(v), 1.5), fma(v, v, 1.0) + fr + ip};
        for (int k = 0; k < 4; k++)
            if (!close_f(out[4 * i + k], want[k], 1e-5))
                fail_msg("mathf: x = %.9g, result %d = %.9g, expected %.9g", v, k, out[4 * i + k], want[k]);
    }
    cl_float4 a[G], vo[2 * G];
    for (int i = 0; i < G; i++)
        for (int c = 0; c < 4; c++)
            a[i].s[c] = ((float)(rng_next() % 2001) - 1000.0f) / 64.0f;
    cl_mem ba = buf_new(sizeof a, a), bvo = buf_poisoned(sizeof vo);
    run(p, "mathv", G, 0, KARGS(KARG(ba), KARG(bvo)));
    buf_read(bvo, sizeof vo, vo);
    for (int i = 0; i < G; i++)
        for (int c = 0; c < 4; c++) {
            double v = a[i].s[c], ip = trunc(v);
            double w0 = fmax(v, 0.25) + sqrt(fabs(v)), w1 = (v - ip) + 10.0 * ip;
            if (!close_f(vo[2 * i].s[c], w0, 1e-6) || !close_f(vo[2 * i + 1].s[c], w1, 1e-6))
                fail_msg("mathv: a = %g: %g %g, expected %g %g", v, vo[2 * i].s[c], vo[2 * i + 1].s[c], w0, w1);
        }
    cl_int ia[G], io[G];
    for (int i = 0; i < G; i++)
        ia[i] = (cl_int)(rng_next() % 41) - 20;
    cl_mem bia = buf_new(sizeof ia, ia), bio = buf_poisoned(sizeof io);
    run(p, "mathi", G, 0, KARGS(KARG(bia), KARG(bio)));
    buf_read(bio, sizeof io, io);
    for (int i = 0; i < G; i++) {
        int cl = ia[i] < -5 ? -5 : ia[i] > 5 ? 5 : ia[i];
        int want = cl + 100 * __builtin_popcount((unsigned)ia[i]);
        if (io[i] != want)
            fail_msg("mathi: a = %d: %d, expected %d", ia[i], io[i], want);
    }
    cl_mem all[] = {bx, bo, ba, bvo, bia, bio};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        clReleaseMemObject(all[i]);
    clReleaseProgram(p);
}

/* SYCL-shaped code: generic pointers into a helper, a builtin and an atomic through them, a
 * struct by value. */
static void test_generic_pointers_atomics_byval(void **state)
{
    (void)state;
    cl_program p = il_built("generic", NULL);
    enum { G = 300 };
    float f[G], out[G];
    for (int i = 0; i < G; i++)
        f[i] = ((float)(rng_next() % 20001) - 10000.0f) / 256.0f;
    struct {
        cl_float a;
        cl_int b;
    } sv = {0.75f, -12};
    cl_uint zero = 0, cnt = 0;
    cl_mem bf = buf_new(sizeof f, f), bc = buf_new(sizeof zero, &zero);
    run(p, "gen", G, 0, KARGS(KARG(bf), KARG(bc), KARG(sv)));
    buf_read(bf, sizeof out, out);
    buf_read(bc, sizeof cnt, &cnt);
    assert_int_equal(cnt, G);
    for (int i = 0; i < G; i++) {
        double x = f[i], ip = floor(x), want = fmin(x - ip, 0x1.fffffep-1) + ip + 0.75 - 12.0;
        if (!close_f(out[i], want, 1e-6))
            fail_msg("gen: f = %.9g: %.9g, expected %.9g", x, out[i], want);
    }
    clReleaseMemObject(bf);
    clReleaseMemObject(bc);
    clReleaseProgram(p);
}

/* ---- specialization constants ----------------------------------------------------------- */

struct spec_values {
    cl_int scale;
    cl_float bias;
    cl_uchar negate;
    cl_long off64;
    cl_short s16;
    cl_char c8;
    cl_double d;
};

static void check_spec(cl_program p, const struct spec_values *s)
{
    enum { G = 128 };
    float in[G], out[G];
    for (int i = 0; i < G; i++)
        in[i] = (float)i * 0.25f - 3.0f;
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    run(p, "spec", G, 0, KARGS(KARG(bi), KARG(bo)));
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < G; i++) {
        float x = in[i] * (float)s->scale + s->bias;
        x = x * (s->negate ? -1.0f : 1.0f);
        long t = (long)s->off64 + s->s16 + s->c8 + 1000L * (s->scale * 2);
        float want = x + (float)t + (float)s->d;
        if (out[i] != want)
            fail_msg("spec: out[%d] = %.9g, expected %.9g (scale %d)", i, out[i], want, s->scale);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
}

static void test_specialization_constants(void **state)
{
    (void)state;
    cl_program p = il_built("spec", NULL);
    struct spec_values defaults = {2, 0.5f, 0, 0, 1, -3, 0.25};
    check_spec(p, &defaults);
    clReleaseProgram(p);

    p = il_program("spec");
    struct spec_values s = {3, -1.25f, 1, 100000, -7, 5, 0.75};
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof s.scale, &s.scale), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 1, sizeof s.bias, &s.bias), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 2, sizeof s.negate, &s.negate), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 3, sizeof s.off64, &s.off64), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 4, sizeof s.s16, &s.s16), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 5, sizeof s.c8, &s.c8), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 6, sizeof s.d, &s.d), CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_SUCCESS);
    check_spec(p, &s);
    /* the last value set wins, and a rebuild uses it */
    s.scale = -4;
    s.negate = 0;
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof s.scale, &s.scale), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 2, sizeof s.negate, &s.negate), CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_SUCCESS);
    check_spec(p, &s);

    /* errors, in the specification's order */
    cl_int v = 1;
    assert_int_equal(clSetProgramSpecializationConstant(p, 7, sizeof v, &v), CL_INVALID_SPEC_ID);
    assert_int_equal(clSetProgramSpecializationConstant(p, 0xffffffffu, sizeof v, &v), CL_INVALID_SPEC_ID);
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, 8, &s.off64), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(p, 2, sizeof(cl_bool), &v), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(p, 3, 4, &v), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof v, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(NULL, 0, sizeof v, &v), CL_INVALID_PROGRAM);
    clReleaseProgram(p);

    const char *src = "kernel void k(global int *p) { p[0] = 1; }";
    cl_int err;
    cl_program sp = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(sp, 0, sizeof v, &v), CL_INVALID_PROGRAM);
    size_t il = 99;
    assert_int_equal(clGetProgramInfo(sp, CL_PROGRAM_IL, 0, NULL, &il), CL_SUCCESS);
    assert_int_equal(il, 0);
    clReleaseProgram(sp);

    /* a module without specialization constants has no valid id */
    p = il_program("vadd");
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof v, &v), CL_INVALID_SPEC_ID);
    clReleaseProgram(p);
}

/* ---- SPIR-V 1.4 instructions llvm-spirv-15 cannot read (compiler/spirvdown.c) ----------- */

/* struct S { uint; double; float3; } of the spv14_ modules, as the host lays it out (32 bytes:
 * the float3 takes 16 and aligns to 16). */
struct spv14_s {
    cl_uint u;
    cl_double d;
    cl_float3 v;
};

/* OpPtrEqual, OpPtrNotEqual and OpPtrDiff on global pointers to S (so the difference is in
 * 32-byte elements), to a 32-bit result, on private pointers into a float3[8] and on local
 * uchar pointers. */
static void test_spirv14_pointer_comparisons_and_differences(void **state)
{
    (void)state;
    assert_int_equal(sizeof(struct spv14_s), 32);
    cl_program p = il_built("spv14_ptrops", NULL);
    enum { G = 200 };
    cl_uint idx[G];
    for (cl_uint i = 0; i < G; i++)
        idx[i] = i % 5 == 0 ? i : rng_next() % G;
    cl_long out[3 * G];
    cl_uint out32[G];
    cl_mem bbase = buf_new(G * sizeof(struct spv14_s), NULL), bidx = buf_new(sizeof idx, idx);
    cl_mem bout = buf_poisoned(sizeof out), bout32 = buf_poisoned(sizeof out32);
    run(p, "ptrops", G, 0, KARGS(KARG(bbase), KARG(bidx), KARG(bout), KARG(bout32)));
    buf_read(bout, sizeof out, out);
    buf_read(bout32, sizeof out32, out32);
    for (cl_uint i = 0; i < G; i++) {
        cl_long diff = (cl_long)idx[i] - (cl_long)i;
        if (out[3 * i] != diff || out[3 * i + 1] != (idx[i] == i) || out[3 * i + 2] != (idx[i] != i))
            fail_msg("ptrops: item %u (idx %u): p - q = %lld, p == q: %lld, p != q: %lld; expected %lld, %d, %d", i,
                     idx[i], (long long)out[3 * i], (long long)out[3 * i + 1], (long long)out[3 * i + 2],
                     (long long)diff, idx[i] == i, idx[i] != i);
        if (out32[i] != (cl_uint)-diff)
            fail_msg("ptrops: item %u: 32-bit q - p = %d, expected %d", i, (int)out32[i], (int)-diff);
    }

    enum { P = 64 };
    cl_uint pout[2 * P];
    cl_mem bp = buf_poisoned(sizeof pout);
    run(p, "ptrdiff_private", P, 16, KARGS(KARG(bp), KLOCAL(8)));
    buf_read(bp, sizeof pout, pout);
    for (int i = 0; i < P; i++) {
        int a = i & 7, b = (3 * i) & 7;
        cl_uint want0 = (cl_uint)(a - b) + (a == b ? 100u : 0u), want1 = (cl_uint)(a - b);
        if (pout[2 * i] != want0 || pout[2 * i + 1] != want1)
            fail_msg("ptrdiff_private: item %d: %d %d, expected %d %d", i, (int)pout[2 * i], (int)pout[2 * i + 1],
                     (int)want0, (int)want1);
    }
    cl_mem all[] = {bbase, bidx, bout, bout32, bp};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        clReleaseMemObject(all[i]);
    clReleaseProgram(p);
}

/* OpCopyLogical from struct A { uint; X[3]; float2 } (40 bytes) to the packed struct
 * B { uint; Y[3]; float2 } (36 bytes): member by member, not byte by byte; then a constant X
 * copied as a Y into B.y[1]. */
static void test_spirv14_copy_logical(void **state)
{
    (void)state;
    struct a {
        cl_uint u;
        struct {
            cl_float f;
            cl_uint u;
        } x[3];
        cl_float2 v;
    };
    assert_int_equal(sizeof(struct a), 40);
    cl_program p = il_built("spv14_copylogical", NULL);
    enum { G = 64, BSIZE = 36 };
    struct a in[G];
    memset(in, 0, sizeof in);
    for (int i = 0; i < G; i++) {
        in[i].u = rng_next();
        for (int k = 0; k < 3; k++) {
            in[i].x[k].f = (float)(rng_next() % 10000) / 8.0f;
            in[i].x[k].u = rng_next();
        }
        in[i].v.s[0] = (float)i * 0.5f;
        in[i].v.s[1] = -(float)i;
    }
    static unsigned char out[G * BSIZE];
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    run(p, "copylogical", G, 0, KARGS(KARG(bi), KARG(bo)));
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < G; i++) {
        /* B packed: u at 0, y[k] at 4 + 8k (f, then u), v at 28 */
        unsigned char want[BSIZE];
        memcpy(want, &in[i].u, 4);
        for (int k = 0; k < 3; k++) {
            cl_float f = k == 1 ? 1.5f : in[i].x[k].f;
            cl_uint u = k == 1 ? 7u : in[i].x[k].u;
            memcpy(want + 4 + 8 * k, &f, 4);
            memcpy(want + 8 + 8 * k, &u, 4);
        }
        memcpy(want + 28, &in[i].v, 8);
        for (int b = 0; b < BSIZE; b++)
            if (out[i * BSIZE + b] != want[b])
                fail_msg("copylogical: item %d, byte %d of B is 0x%02x, expected 0x%02x", i, b, out[i * BSIZE + b],
                         want[b]);
    }
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseProgram(p);
}

/* OpCopyMemory of an S (32 bytes), and of a uint[4] into a private array with two
 * memory-operand sets, copied out again with OpCopyMemorySized and two sets. */
static void test_spirv14_copy_memory(void **state)
{
    (void)state;
    cl_program p = il_built("spv14_copymemory", NULL);
    enum { G = 100 };
    struct spv14_s in[G], out[G];
    memset(in, 0, sizeof in);
    for (int i = 0; i < G; i++) {
        in[i].u = rng_next();
        in[i].d = (double)rng_next() / 3.0;
        for (int c = 0; c < 3; c++)
            in[i].v.s[c] = (float)(rng_next() % 1000) - 500.0f;
    }
    cl_mem bi = buf_new(sizeof in, in), bo = buf_poisoned(sizeof out);
    run(p, "copymemory", G, 0, KARGS(KARG(bi), KARG(bo)));
    buf_read(bo, sizeof out, out);
    for (int i = 0; i < G; i++)
        if (out[i].u != in[i].u || out[i].d != in[i].d || memcmp(&out[i].v, &in[i].v, 3 * sizeof(cl_float)))
            fail_msg("copymemory: item %d: {%u, %g, %g %g %g}, expected {%u, %g, %g %g %g}", i, out[i].u, out[i].d,
                     out[i].v.s[0], out[i].v.s[1], out[i].v.s[2], in[i].u, in[i].d, in[i].v.s[0], in[i].v.s[1],
                     in[i].v.s[2]);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);

    cl_uint in4[4 * G], out4[4 * G];
    for (int i = 0; i < 4 * G; i++)
        in4[i] = rng_next();
    bi = buf_new(sizeof in4, in4);
    bo = buf_poisoned(sizeof out4);
    run(p, "copymemory_ops", G, 0, KARGS(KARG(bi), KARG(bo)));
    buf_read(bo, sizeof out4, out4);
    for (int i = 0; i < 4 * G; i++)
        if (out4[i] != in4[i])
            fail_msg("copymemory_ops: element %d is 0x%08x, expected 0x%08x", i, out4[i], in4[i]);
    clReleaseMemObject(bi);
    clReleaseMemObject(bo);
    clReleaseProgram(p);
}

/* UserSemantic strings on a parameter, a variable and a struct member are dropped; the
 * kernel runs as without them. */
static void test_spirv14_user_semantic(void **state)
{
    (void)state;
    cl_program p = il_built("spv14_usersemantic", NULL);
    enum { G = 300 };
    cl_uint out[G];
    cl_mem bo = buf_poisoned(sizeof out);
    run(p, "usersemantic", G, 0, KARGS(KARG(bo)));
    buf_read(bo, sizeof out, out);
    for (cl_uint i = 0; i < G; i++)
        if (out[i] != 7 * i + 1)
            fail_msg("usersemantic: out[%u] = %u, expected %u", i, out[i], 7 * i + 1);
    clReleaseMemObject(bo);
    clReleaseProgram(p);
}

/* Any other decoration string fails the build, and the log says which and why. */
static void test_spirv14_other_decoration_string(void **state)
{
    (void)state;
    cl_program p = il_program("spv14_decoratestring_other");
    assert_int_equal(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = {0};
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    if (!strstr(log, "OpDecorateString") || !strstr(log, "5636") || !strstr(log, "UserSemantic"))
        fail_msg("the build log does not say why:\n%s", log);
    clReleaseProgram(p);
}

/* ---- errors ------------------------------------------------------------------------------- */

static void test_invalid_il(void **state)
{
    (void)state;
    cl_int err;
    struct module m = module_read("vadd");
    assert_null(clCreateProgramWithIL(NULL, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateProgramWithIL((cl_context)env.queue, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateProgramWithIL(env.context, NULL, m.size, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(env.context, m.data, 0, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* not a multiple of 4, a header only, an instruction running past the end */
    assert_null(clCreateProgramWithIL(env.context, m.data, m.size - 1, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(env.context, m.data, 20, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    unsigned char first_count[2] = {m.data[22], m.data[23]};
    m.data[22] = m.data[23] = 0xff;   /* word 5 (little-endian): word count 0xffff */
    assert_null(clCreateProgramWithIL(env.context, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    m.data[22] = m.data[23] = 0;      /* word count 0 */
    assert_null(clCreateProgramWithIL(env.context, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    m.data[22] = first_count[0];
    m.data[23] = first_count[1];
    /* OpenCL C source is not IL */
    static const char src[] = "kernel void k(global int *p) { p[0] = 1; }   ";
    assert_null(clCreateProgramWithIL(env.context, src, (sizeof src - 1) / 4 * 4, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* a damaged magic number */
    m.data[0] ^= 0x40;
    assert_null(clCreateProgramWithIL(env.context, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    free(m.data);
    /* SPIR-V 1.5 is newer than what the device reads */
    m = module_read("vadd_v15");
    assert_null(clCreateProgramWithIL(env.context, m.data, m.size, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    free(m.data);
}

/* What llvm-spirv-15 cannot translate fails the build with its reason in the log. */
static void test_untranslatable_module(void **state)
{
    (void)state;
    cl_program p = il_program("unknown_ext");
    assert_int_equal(clBuildProgram(p, 1, &env.device, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status st;
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
    assert_int_equal(st, CL_BUILD_ERROR);
    char log[4096] = {0};
    assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
    if (!strstr(log, "SPV_KHR_nonexistent_extension"))
        fail_msg("the build log does not name the extension:\n%s", log);
    cl_int err;
    assert_null(clCreateKernel(p, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    assert_int_equal(clCompileProgram(p, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    clReleaseProgram(p);
}

/* A program-scope __global variable is refused with a reason (the device does not report
 * __opencl_c_program_scope_global_variables). */
static void test_program_scope_global(void **state)
{
    (void)state;
    /* `counter` starts at 5; each one-item launch stores it and adds one, so the value outlives
     * the launch, and a second build of the same module starts again from 5. */
    for (int build = 0; build < 2; build++) {
        cl_program p = il_built("globalvar", NULL);
        size_t total = 0;
        assert_int_equal(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                               sizeof total, &total, NULL),
                         CL_SUCCESS);
        assert_true(total >= 4);
        cl_mem out = buf_poisoned(sizeof(cl_uint));
        for (cl_uint launch_no = 0; launch_no < 3; launch_no++) {
            run(p, "g", 1, 1, KARGS(KARG(out)));
            cl_uint v = 0;
            buf_read(out, sizeof v, &v);
            assert_int_equal(v, 5 + launch_no);
        }
        clReleaseMemObject(out);
        cl_bool b = CL_TRUE;
        assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof b, &b, NULL), CL_SUCCESS);
        assert_int_equal(b, CL_FALSE);
        b = CL_TRUE;
        assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof b, &b, NULL), CL_SUCCESS);
        assert_int_equal(b, CL_FALSE);
        clReleaseProgram(p);
    }
}

static void test_printf_float_operand(void **state)
{
    (void)state;
    cl_program p = il_built("printf", NULL);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "pf", &err);
    assert_int_equal(err, CL_SUCCESS);
    float x = 2.5f;
    assert_int_equal(clSetKernelArg(k, 0, sizeof x, &x), CL_SUCCESS);
    char *out = weft_test_capture_launch(env.queue, k, 1, 1);
    assert_non_null(out);
    assert_string_equal(out, "2.500000|2.5|0x1.4p+1\n");
    free(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* ---- kernel argument info, compile and link ---------------------------------------------- */

static void test_kernel_arg_info(void **state)
{
    (void)state;
    cl_program p = il_built("vadd", "-cl-kernel-arg-info");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "vadd", &err);
    assert_int_equal(err, CL_SUCCESS);
    static const char *const names[] = {"a", "b", "c", "n"};
    for (cl_uint i = 0; i < 4; i++) {
        cl_kernel_arg_address_qualifier aq;
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
        assert_int_equal(aq, i < 3 ? CL_KERNEL_ARG_ADDRESS_GLOBAL : CL_KERNEL_ARG_ADDRESS_PRIVATE);
        char s[64];
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL), CL_SUCCESS);
        /* SPIR-V integers carry no signedness: the translator names them as signed */
        assert_string_equal(s, i < 3 ? "float*" : "int");
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_SUCCESS);
        assert_string_equal(s, names[i]);
        cl_kernel_arg_access_qualifier acc;
        assert_int_equal(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL), CL_SUCCESS);
        assert_int_equal(acc, CL_KERNEL_ARG_ACCESS_NONE);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);

    p = il_built("local", NULL);
    k = clCreateKernel(p, "reverse", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel_arg_address_qualifier aq;
    assert_int_equal(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL), CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
    char s[64];
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof s, s, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
    /* the static __local array of groupsum is the kernel's local memory */
    k = clCreateKernel(p, "groupsum", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_ulong lm = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
    assert_true(lm >= 256 * sizeof(cl_uint));
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void test_compile_and_link(void **state)
{
    (void)state;
    cl_program obj = il_program("vadd");
    assert_int_equal(clCompileProgram(obj, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program_binary_type bt;
    assert_int_equal(clGetProgramBuildInfo(obj, env.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL), CL_SUCCESS);
    assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    /* an OpenCL C object linked with the SPIR-V one: both kernels in one executable */
    const char *src = "kernel void twice(global float *p) { p[get_global_id(0)] *= 2.0f; }";
    cl_int err;
    cl_program cobj = clCreateProgramWithSource(env.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clCompileProgram(cobj, 1, &env.device, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program ins[] = {obj, cobj};
    cl_program exe = clLinkProgram(env.context, 1, &env.device, NULL, 2, ins, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    check_vadd(exe);
    float v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (float)i;
    cl_mem bv = buf_new(sizeof v, v);
    run(exe, "twice", 64, 0, KARGS(KARG(bv)));
    buf_read(bv, sizeof v, v);
    for (int i = 0; i < 64; i++)
        assert_true(v[i] == 2.0f * (float)i);
    clReleaseMemObject(bv);
    clReleaseProgram(exe);
    /* an IL program that was not compiled is no link input */
    cl_program raw = il_program("vadd");
    exe = clLinkProgram(env.context, 1, &env.device, NULL, 1, &raw, NULL, NULL, &err);
    assert_null(exe);
    assert_int_equal(err, CL_INVALID_OPERATION);
    clReleaseProgram(raw);
    clReleaseProgram(obj);
    clReleaseProgram(cobj);
}

static int setup(void **state)
{
    (void)state;
    return weft_test_env_open(&env, 0);
}

static int teardown(void **state)
{
    (void)state;
    weft_test_env_close(&env);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_il_queries),
        cmocka_unit_test(test_vadd),
        cmocka_unit_test(test_vadd_spirv_1_4),
        cmocka_unit_test(test_build_options_and_translator),
        cmocka_unit_test(test_vadd_byte_swapped),
        cmocka_unit_test(test_local_memory_and_barriers),
        cmocka_unit_test(test_math_builtins),
        cmocka_unit_test(test_generic_pointers_atomics_byval),
        cmocka_unit_test(test_specialization_constants),
        cmocka_unit_test(test_spirv14_pointer_comparisons_and_differences),
        cmocka_unit_test(test_spirv14_copy_logical),
        cmocka_unit_test(test_spirv14_copy_memory),
        cmocka_unit_test(test_spirv14_user_semantic),
        cmocka_unit_test(test_spirv14_other_decoration_string),
        cmocka_unit_test(test_invalid_il),
        cmocka_unit_test(test_untranslatable_module),
        cmocka_unit_test(test_program_scope_global),
        cmocka_unit_test(test_printf_float_operand),
        cmocka_unit_test(test_kernel_arg_info),
        cmocka_unit_test(test_compile_and_link),
        cmocka_unit_test(test_work_group_collectives),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
