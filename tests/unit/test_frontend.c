/* tests/unit/test_frontend.c — the compiler driver below the API: option parsing, the
 * clang child process (bitcode, diagnostics, input headers), linking with the builtins and
 * its checks, kernel metadata, and program binaries. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "compiler/compiler.h"
#include "compiler/printf.h"
#include "runtime/features.h"

static cl_int compile(const char *src, const char *options, struct weft_bitcode *bc, char **log)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    cl_int err = weft_options_parse(options, WEFT_OPTIONS_COMPILE, &o, &d);
    if (err == CL_SUCCESS) {
        err = weft_frontend_compile(src, &o, NULL, 0, bc, &d);
        weft_options_free(&o);
    }
    *log = weft_diag_take(&d);
    return err;
}

static void test_options(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    assert_int_equal(weft_options_parse("-D A=1 -DB -I dir -I'my dir' -cl-std=CL3.0 -cl-kernel-arg-info "
                                        "-cl-opt-disable -cl-fast-relaxed-math -D C=\"x y\"",
                                        WEFT_OPTIONS_COMPILE, &o, &d),
                     CL_SUCCESS);
    assert_int_equal(o.num_clang_args, 8);
    assert_string_equal(o.clang_args[0], "-DA=1");
    assert_string_equal(o.clang_args[1], "-DB");
    assert_string_equal(o.clang_args[2], "-Idir");
    assert_string_equal(o.clang_args[3], "-Imy dir");
    assert_string_equal(o.clang_args[7], "-DC=x y");
    assert_string_equal(o.cl_std, "CL3.0");
    assert_true(o.kernel_arg_info);
    assert_true(o.opt_disable);
    assert_true(o.fast_math);
    weft_options_free(&o);

    assert_int_equal(weft_options_parse(NULL, WEFT_OPTIONS_COMPILE, &o, &d), CL_SUCCESS);
    assert_int_equal(o.num_clang_args, 0);
    assert_string_equal(o.cl_std, "CL1.2");
    weft_options_free(&o);

    assert_int_equal(weft_options_parse("-O3", WEFT_OPTIONS_COMPILE, &o, &d), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(weft_options_parse("-cl-std=CL2.0", WEFT_OPTIONS_COMPILE, &o, &d), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(weft_options_parse("-I", WEFT_OPTIONS_COMPILE, &o, &d), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(weft_options_parse("-create-library", WEFT_OPTIONS_COMPILE, &o, &d), CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(weft_options_parse("-create-library -cl-no-signed-zeros", WEFT_OPTIONS_LINK, &o, &d), CL_SUCCESS);
    assert_true(o.create_library);
    weft_options_free(&o);
    assert_int_equal(weft_options_parse("-DX", WEFT_OPTIONS_LINK, &o, &d), CL_INVALID_BUILD_OPTIONS);
    char *log = weft_diag_take(&d);
    assert_non_null(strstr(log, "'-O3'"));
    assert_non_null(strstr(log, "'-DX'"));
    free(log);
}

static void test_frontend_bitcode_and_diagnostics(void **state)
{
    struct weft_bitcode bc;
    char *log;
    assert_int_equal(compile("kernel void k(global int *x) { x[0] = 1; }", NULL, &bc, &log), CL_SUCCESS);
    assert_true(bc.size > 4);
    assert_memory_equal(bc.data, "BC\xc0\xde", 4);
    weft_bitcode_free(&bc);
    free(log);

    assert_int_equal(compile("kernel void k(global int *x)\n{\n  x[0] = y;\n}\n", NULL, &bc, &log),
                     CL_COMPILE_PROGRAM_FAILURE);
    assert_null(bc.data);
    assert_non_null(strstr(log, "input.cl:3:10: error: use of undeclared identifier 'y'"));
    free(log);

    /* the device's extensions are exactly what the kernel sees */
    assert_int_equal(compile(weft_feature_present("cl_khr_fp16")
                                 ? "#ifndef cl_khr_fp64\n#error no fp64\n#endif\n"
                                   "#ifndef cl_khr_fp16\n#error fp16 is supported here\n#endif\n"
                                   "kernel void k(global double *x) { x[0] = 1.0; }"
                                 : "#ifndef cl_khr_fp64\n#error no fp64\n#endif\n"
                                   "#ifdef cl_khr_fp16\n#error fp16 is not supported here\n#endif\n"
                                   "kernel void k(global double *x) { x[0] = 1.0; }",
                             NULL, &bc, &log),
                     CL_SUCCESS);
    weft_bitcode_free(&bc);
    free(log);
    assert_int_equal(compile("#if !defined(__opencl_c_fp64) || !defined(__opencl_c_images) || "
                             "!defined(__opencl_c_3d_image_writes) || !defined(__opencl_c_read_write_images) || "
                             "defined(__opencl_c_pipes)\n#error features\n#endif\n"
                             "kernel void k(global double *x) { x[0] = 1.0; }",
                             "-cl-std=CL3.0", &bc, &log),
                     CL_SUCCESS);
    weft_bitcode_free(&bc);
    free(log);
    /* a big source goes through the pipe without deadlock */
    size_t n = 1 << 20;
    char *big = malloc(n + 64);
    memset(big, ' ', n);
    strcpy(big + n, "kernel void k(global int *x) { x[0] = 2; }");
    assert_int_equal(compile(big, "-DFOO=1", &bc, &log), CL_SUCCESS);
    free(big);
    weft_bitcode_free(&bc);
    free(log);
}

static void test_frontend_headers_and_missing_clang(void **state)
{
    struct weft_diag d;
    weft_diag_init(&d);
    struct weft_build_options o;
    assert_int_equal(weft_options_parse(NULL, WEFT_OPTIONS_COMPILE, &o, &d), CL_SUCCESS);
    struct weft_header h[] = {{"a/b/c.h", "#define VAL 42\n"}, {"d.h", "#include \"a/b/c.h\"\n"}};
    struct weft_bitcode bc;
    assert_int_equal(weft_frontend_compile("#include \"d.h\"\nkernel void k(global int *x) { x[0] = VAL; }",
                                           &o, h, 2, &bc, &d),
                     CL_SUCCESS);
    weft_bitcode_free(&bc);
    struct weft_header evil[] = {{"../escape.h", ""}};
    assert_int_equal(weft_frontend_compile("kernel void k(){}", &o, evil, 1, &bc, &d), CL_INVALID_VALUE);

    /* an application that ignores SIGCHLD (children are reaped automatically) */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigaction(SIGCHLD, &ign, &old);
    assert_int_equal(weft_frontend_compile("kernel void k(global int *x) { x[0] = 1; }", &o, NULL, 0, &bc, &d),
                     CL_SUCCESS);
    weft_bitcode_free(&bc);
    assert_int_equal(weft_frontend_compile("kernel void k(global int *x) { x[0] = ; }", &o, NULL, 0, &bc, &d),
                     CL_COMPILE_PROGRAM_FAILURE);
    sigaction(SIGCHLD, &old, NULL);

    setenv("WEFT_CLANG", "/nonexistent/clang-19", 1);
    assert_int_equal(weft_frontend_compile("kernel void k(){}", &o, NULL, 0, &bc, &d), CL_COMPILER_NOT_AVAILABLE);
    unsetenv("WEFT_CLANG");
    char *log = weft_diag_take(&d);
    assert_non_null(strstr(log, "/nonexistent/clang-19"));
    free(log);
    weft_options_free(&o);
}

/* -I paths are relative to the application's working directory, like a C compiler's. */
static void test_include_paths_relative_to_cwd(void **state)
{
    char dir[] = "/tmp/weft-test-inc-XXXXXX", path[300], cwd[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sub dir", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/sub dir/answer.h", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("#define ANSWER 42\n", f);
    fclose(f);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    struct weft_bitcode bc;
    char *log;
    cl_int err = compile("#include \"answer.h\"\nkernel void k(global int *x) { x[0] = ANSWER; }", "-I \"sub dir\"",
                         &bc, &log);
    free(log);
    if (err == CL_SUCCESS)
        weft_bitcode_free(&bc);
    cl_int err2 = compile("#include \"answer.h\"\nkernel void k(global int *x) { x[0] = ANSWER; }", NULL, &bc, &log);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(err2, CL_COMPILE_PROGRAM_FAILURE);
    assert_non_null(strstr(log, "answer.h"));
    free(log);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static cl_int build(const char *src, const char *options, struct weft_image **img, char **log)
{
    struct weft_bitcode obj = {0}, exe = {0};
    cl_int err = compile(src, options, &obj, log);
    if (err != CL_SUCCESS)
        return err;
    struct weft_diag d;
    weft_diag_init(&d);
    err = weft_link(&obj, 1, true, NULL, &exe, &d);
    weft_bitcode_free(&obj);
    if (err == CL_SUCCESS)
        err = weft_image_create(&exe, options, true, false, img, &d);
    weft_bitcode_free(&exe);
    free(*log);
    *log = weft_diag_take(&d);
    return err;
}

static void test_link_checks(void **state)
{
    struct weft_image *img = NULL;
    char *log;
    assert_int_equal(build("int missing(int);\nkernel void k(global int *x) { x[0] = missing(1); }", NULL, &img, &log),
                     CL_LINK_PROGRAM_FAILURE);
    assert_non_null(strstr(log, "'missing'"));
    free(log);
    assert_int_equal(build("int f(int n) { return n ? f(n - 1) : 0; }\nkernel void k(global int *x) { x[0] = f(3); }",
                           NULL, &img, &log),
                     CL_LINK_PROGRAM_FAILURE);
    assert_non_null(strstr(log, "recursion"));
    assert_non_null(strstr(log, "f -> f"));
    free(log);
    /* recursion in a function no kernel calls is dropped, not reported */
    assert_int_equal(build("int f(int n) { return n ? f(n - 1) : 0; }\nkernel void k(global int *x) { x[0] = 1; }",
                           NULL, &img, &log),
                     CL_SUCCESS);
    weft_image_free(img);
    free(log);
    /* a sampler argument is an 8-byte value, an image a global pointer (weft/abi.h) */
    assert_int_equal(build("kernel void k(sampler_t s, read_only image2d_t i, global int *x) { x[0] = 1; }", NULL,
                           &img, &log),
                     CL_SUCCESS);
    assert_int_equal(img->kernels[0].args[0].size, 8);
    assert_true(img->kernels[0].args[0].is_sampler);
    assert_int_equal(img->kernels[0].args[1].image_type, CL_MEM_OBJECT_IMAGE2D);
    assert_int_equal(img->kernels[0].args[2].image_type, 0);
    weft_image_free(img);
    free(log);
}

static void test_metadata(void **state)
{
    struct weft_image *img = NULL;
    char *log;
    const char *src =
        "typedef struct { float a; int b; char c; } S;\n"
        "__attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((vec_type_hint(float4)))\n"
        "kernel void k(global float *restrict out, constant int *c, local float *l, S s, float3 v,\n"
        "              const char ch, global const volatile int *vp) {\n"
        "  local int tmp[16];\n"
        "  tmp[get_local_id(0)] = c[0];\n"
        "  out[get_global_id(0)] = s.a + v.x + l[0] + tmp[0] + ch + vp[0];\n"
        "}\n"
        "kernel void plain(global int *x) { x[0] = 0; }\n";
    assert_int_equal(build(src, "-cl-kernel-arg-info", &img, &log), CL_SUCCESS);
    free(log);
    assert_int_equal(img->num_kernels, 2);
    assert_int_equal(weft_image_find_kernel(img, "plain"), 1);
    assert_int_equal(weft_image_find_kernel(img, "nope"), -1);
    const struct weft_kernel_meta *k = &img->kernels[0];
    assert_string_equal(k->name, "k");
    assert_int_equal(k->num_args, 7);
    assert_true(k->has_arg_names);
    assert_int_equal(k->reqd_work_group_size[0], 8);
    assert_int_equal(k->reqd_work_group_size[1], 2);
    assert_int_equal(k->reqd_work_group_size[2], 1);
    assert_non_null(strstr(k->attributes, "reqd_work_group_size(8,2,1)"));
    assert_non_null(strstr(k->attributes, "vec_type_hint(float4)"));
    assert_int_equal(k->static_local_size, 64);
    const struct weft_arg_meta *a = k->args;
    assert_string_equal(a[0].name, "out");
    assert_string_equal(a[0].type_name, "float*");
    assert_int_equal(a[0].address, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    assert_int_equal(a[0].type_qualifier, CL_KERNEL_ARG_TYPE_RESTRICT);
    assert_int_equal(a[0].kind, WEFT_ARG_GLOBAL_PTR);
    assert_int_equal(a[0].offset, 0);
    assert_int_equal(a[1].address, CL_KERNEL_ARG_ADDRESS_CONSTANT);
    assert_int_equal(a[1].kind, WEFT_ARG_CONSTANT_PTR);
    assert_int_equal(a[2].address, CL_KERNEL_ARG_ADDRESS_LOCAL);
    assert_int_equal(a[2].kind, WEFT_ARG_LOCAL_PTR);
    assert_string_equal(a[3].type_name, "S");
    assert_int_equal(a[3].kind, WEFT_ARG_BY_VALUE);
    assert_int_equal(a[3].size, 12);
    assert_int_equal(a[3].offset, 24);
    assert_string_equal(a[4].type_name, "float3");
    assert_int_equal(a[4].size, 16);
    assert_int_equal(a[4].offset, 40);
    assert_int_equal(a[5].size, 1);
    assert_int_equal(a[5].offset, 56);
    assert_int_equal(a[5].address, CL_KERNEL_ARG_ADDRESS_PRIVATE);
    assert_int_equal(a[6].type_qualifier, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE);
    assert_int_equal(k->args_size, 72);
    assert_int_equal(img->kernels[1].static_local_size, 0);
    assert_false(img->kernels[0].uses_printf);
    assert_string_equal(img->kernels[1].attributes, "");
    weft_image_free(img);

    /* without -cl-kernel-arg-info there are no names */
    assert_int_equal(build(src, NULL, &img, &log), CL_SUCCESS);
    free(log);
    assert_false(img->kernels[0].has_arg_names);
    assert_null(img->kernels[0].args[0].name);
    weft_image_free(img);
}

/* c1 * gid0 + c0, exactly (the summary's normal form: constant term first). */
static bool offset_is(const struct weft_affine *a, int64_t c1, int64_t c0)
{
    struct weft_affine want = {0};
    if (c0)
        want.t[want.nterms++] = (struct weft_term){c0, {WEFT_SYM_ONE, 0}, {WEFT_SYM_ONE, 0}};
    if (c1)
        want.t[want.nterms++] = (struct weft_term){c1, {WEFT_SYM_GID, 0}, {WEFT_SYM_ONE, 0}};
    if (a->nterms != want.nterms)
        return false;
    for (unsigned i = 0; i < a->nterms; i++)
        if (a->t[i].coef != want.t[i].coef || a->t[i].a.kind != want.t[i].a.kind ||
            a->t[i].a.index != want.t[i].a.index || a->t[i].b.kind != want.t[i].b.kind ||
            a->t[i].b.index != want.t[i].b.index)
            return false;
    return true;
}

/* The access summary of kernel metadata, through the whole pipeline (builtins linked and
 * inlined, debug info or not): offsets as the source's indices times the element sizes. */
static void test_access_summary(void **state)
{
    struct weft_image *img = NULL;
    char *log;
    const char *src =
        "kernel void jacobi(global const float *A, global float *B, int n) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i > 0 && i < n - 1) B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0f; else B[i] = A[i];\n"
        "}\n"
        "kernel void poisson(global const float *A, global float *B, int w) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  B[y * w + x] = A[(y - 1) * w + x] + A[(y + 1) * w + x];\n"
        "}\n"
        "kernel void vec(global const float *A, global float *B) {\n"
        "  size_t i = get_global_id(0);\n"
        "  vstore4(vload4(i + 1, A), i, B);\n"
        "}\n"
        "kernel void atom(global int *c) { atomic_inc(c); }\n"
        "kernel void loc(local int *l, global int *g) { l[0] = 1; g[get_global_id(0)] = l[1]; }\n";
    static const char *const options[] = {NULL, "-g"};
    for (size_t o = 0; o < sizeof options / sizeof options[0]; o++) {
        assert_int_equal(build(src, options[o], &img, &log), CL_SUCCESS);
        free(log);
        assert_int_equal(img->num_kernels, 5);

        const struct weft_access_summary *s = &img->kernels[0].access;
        assert_true(s->affine);
        static const struct {
            unsigned arg, kind;
            int64_t c1, c0;
        } jacobi[] = {{0, WEFT_ACCESS_READ, 4, -4}, {0, WEFT_ACCESS_READ, 4, 0}, {0, WEFT_ACCESS_READ, 4, 4},
                      {1, WEFT_ACCESS_WRITE, 4, 0}, {0, WEFT_ACCESS_READ, 4, 0}, {1, WEFT_ACCESS_WRITE, 4, 0}};
        assert_int_equal(s->count, 6);
        for (unsigned i = 0; i < 6; i++) {
            assert_int_equal(s->acc[i].arg, jacobi[i].arg);
            assert_int_equal(s->acc[i].kind, jacobi[i].kind);
            assert_int_equal(s->acc[i].size, 4);
            assert_true(offset_is(&s->acc[i].offset, jacobi[i].c1, jacobi[i].c0));
        }

        s = &img->kernels[1].access;
        assert_true(s->affine);
        assert_int_equal(s->count, 3);
        char text[128];
        weft_affine_format(&s->acc[0].offset, text, sizeof text);
        assert_string_equal(text, "4*gid0 + 4*gid1*arg2 - 4*arg2");
        weft_affine_format(&s->acc[1].offset, text, sizeof text);
        assert_string_equal(text, "4*gid0 + 4*gid1*arg2 + 4*arg2");
        weft_affine_format(&s->acc[2].offset, text, sizeof text);
        assert_string_equal(text, "4*gid0 + 4*gid1*arg2");
        assert_int_equal(s->acc[2].kind, WEFT_ACCESS_WRITE);

        s = &img->kernels[2].access;
        assert_true(s->affine);
        assert_int_equal(s->count, 2);
        assert_int_equal(s->acc[0].size, 16);
        assert_true(offset_is(&s->acc[0].offset, 16, 16));
        assert_int_equal(s->acc[1].arg, 1);
        assert_true(offset_is(&s->acc[1].offset, 16, 0));

        /* a deep copy outlives the original */
        struct weft_access_summary copy;
        assert_true(weft_access_summary_copy(s, &copy));
        assert_ptr_not_equal(copy.acc, s->acc);
        assert_memory_equal(copy.acc, s->acc, s->count * sizeof *s->acc);

        assert_false(img->kernels[3].access.affine);
        assert_non_null(strstr(img->kernels[3].access.reason, "atomicrmw"));
        assert_int_equal(img->kernels[3].access.count, 0);
        assert_false(img->kernels[4].access.affine);
        assert_non_null(strstr(img->kernels[4].access.reason, "__local memory"));
        weft_image_free(img);
        assert_true(offset_is(&copy.acc[1].offset, 16, 0));
        weft_access_summary_dispose(&copy);
    }
}

static void test_binary_format(void **state)
{
    static const char bytes[] = "BC\xc0\xde-bitcode-bytes";
    struct weft_bitcode bc = {(unsigned char *)strdup(bytes), sizeof bytes - 1};
    unsigned char *bin;
    size_t size;
    assert_int_equal(weft_binary_write(CL_PROGRAM_BINARY_TYPE_LIBRARY, "-opt", &bc, &bin, &size), CL_SUCCESS);
    cl_program_binary_type t;
    char *opts;
    struct weft_bitcode out;
    assert_int_equal(weft_binary_read(bin, size, &t, &opts, &out), CL_SUCCESS);
    assert_int_equal(t, CL_PROGRAM_BINARY_TYPE_LIBRARY);
    assert_string_equal(opts, "-opt");
    assert_int_equal(out.size, bc.size);
    assert_memory_equal(out.data, bc.data, bc.size);
    free(opts);
    weft_bitcode_free(&out);
    for (size_t i = 0; i < size; i++) {   /* every single-byte corruption is caught */
        bin[i] ^= 0x10;
        cl_int err = weft_binary_read(bin, size, &t, &opts, &out);
        bin[i] ^= 0x10;
        if (err == CL_SUCCESS)
            fail_msg("corruption of byte %zu was not detected", i);
    }
    assert_int_equal(weft_binary_read(bin, size - 1, &t, &opts, &out), CL_INVALID_BINARY);
    assert_int_equal(weft_binary_read(bin, 10, &t, &opts, &out), CL_INVALID_BINARY);
    free(bin);
    weft_bitcode_free(&bc);
}

static int fmt(char *buf, size_t cap, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = weft_printf_format(buf, cap, f, ap);
    va_end(ap);
    return n;
}

static void test_printf_format(void **state)
{
    char b[256];
    int n = fmt(b, sizeof b, "%d %5.2f %s %c %x %%|%ld", -7, 3.14159, "s", 'Z', 255, 1L << 40);
    assert_string_equal(b, "-7  3.14 s Z ff %|1099511627776");
    assert_int_equal(n, (int)strlen(b));
    assert_true(fmt(b, sizeof b, "%hhd %hu", 0x1ff, 0x12345) > 0);
    assert_string_equal(b, "-1 9029");   /* converted to char and ushort as OpenCL says */
    /* invalid formats print nothing */
    assert_int_equal(fmt(b, sizeof b, "%*d", 3, 4), -1);
    assert_int_equal(fmt(b, sizeof b, "%hld", 3), -1);     /* hl needs a vector */
    assert_int_equal(fmt(b, sizeof b, "%v5hld", 3), -1);   /* no 5-vectors */
    assert_int_equal(fmt(b, sizeof b, "%q", 3), -1);
    /* output longer than the buffer: truncated, full length returned */
    assert_int_equal(fmt(b, 4, "abcdefgh"), 8);
    assert_string_equal(b, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_frontend_bitcode_and_diagnostics),
        cmocka_unit_test(test_frontend_headers_and_missing_clang),
        cmocka_unit_test(test_include_paths_relative_to_cwd),
        cmocka_unit_test(test_link_checks),
        cmocka_unit_test(test_metadata),
        cmocka_unit_test(test_access_summary),
        cmocka_unit_test(test_binary_format),
        cmocka_unit_test(test_printf_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
