/* tests/unit/test_arglayout.c — the packed argument block layout (compiler/arglayout.h) for the
 * parameter forms clang-19 emits for OpenCL C kernels on x86_64: pointers in each address
 * space, scalars, 3- and 4-component vectors, structs passed byval, wide vectors; the
 * fallback without metadata; and the argument types that must be refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "compiler/arglayout.h"
#include "compiler/diag.h"
#include "weft/abi.h"

#define DATALAYOUT "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128\"\n" \
                   "target triple = \"x86_64-unknown-linux-gnu\"\n"

struct ir {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
};

static struct ir parse(const char *text)
{
    struct ir ir = {.ctx = LLVMContextCreate()};
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "test.ll");
    char *msg = NULL;
    if (LLVMParseIRInContext(ir.ctx, buf, &ir.mod, &msg)) {
        print_error("IR does not parse: %s\n", msg ? msg : "?");
        fail();
    }
    return ir;
}

static void dispose(struct ir *ir)
{
    LLVMDisposeModule(ir->mod);
    LLVMContextDispose(ir->ctx);
}

/* What clang-19 -O2 -Xclang -ffake-address-space-map emits for
 *   typedef struct { float a; int b; char c; } S;
 *   typedef struct { char c; double d; float4 v; } T;
 *   kernel void k(global float *out, constant int *c, local float *l, float x, float3 f3,
 *                 float4 f4, S s, T t, char ch, double2 d2, long8 l8)                    */
static const char *const full_kernel = DATALAYOUT
    "%struct.S = type { float, i32, i8 }\n"
    "%struct.T = type { i8, double, <4 x float> }\n"
    "define spir_kernel void @k(ptr addrspace(1) %0, ptr addrspace(2) %1, ptr addrspace(3) %2, float %3,\n"
    "    <3 x float> %4, <4 x float> %5, ptr byval(%struct.S) align 4 %6, ptr byval(%struct.T) align 16 %7,\n"
    "    i8 signext %8, <2 x double> %9, <8 x i64> %10) !kernel_arg_addr_space !0 !kernel_arg_type !1 {\n"
    "  ret void\n"
    "}\n"
    "!0 = !{i32 1, i32 2, i32 3, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0}\n"
    "!1 = !{!\"float*\", !\"int*\", !\"float*\", !\"float\", !\"float3\", !\"float4\", !\"S\", !\"T\", !\"char\", !\"double2\", !\"long8\"}\n";

static void test_every_parameter_form_gets_kind_offset_and_host_size(void **state)
{
    struct ir ir = parse(full_kernel);
    struct weft_arg_layout lay;
    struct weft_diag d;
    weft_diag_init(&d);
    assert_true(weft_arglayout_compute(LLVMGetNamedFunction(ir.mod, "k"), &lay, &d));
    assert_int_equal(d.errors, 0);
    assert_int_equal(lay.count, 11);

    static const struct {
        enum weft_arg_kind kind;
        uint64_t offset, size;
    } want[] = {
        {WEFT_ARG_GLOBAL_PTR, 0, 8},     {WEFT_ARG_CONSTANT_PTR, 8, 8}, {WEFT_ARG_LOCAL_PTR, 16, 8},
        {WEFT_ARG_BY_VALUE, 24, 4},      /* float */
        {WEFT_ARG_BY_VALUE, 32, 16},     /* float3: sizeof is 4 floats */
        {WEFT_ARG_BY_VALUE, 48, 16},     /* float4 */
        {WEFT_ARG_BY_VALUE, 64, 12},     /* S: 4 + 4 + 1, padded to 12 */
        {WEFT_ARG_BY_VALUE, 80, 32},     /* T: char, double at 8, float4 at 16 */
        {WEFT_ARG_BY_VALUE, 112, 1},     /* char */
        {WEFT_ARG_BY_VALUE, 120, 16},    /* double2 */
        {WEFT_ARG_BY_VALUE, 136, 64},    /* long8 */
    };
    for (unsigned i = 0; i < lay.count; i++) {
        if (lay.args[i].kind != want[i].kind || lay.args[i].offset != want[i].offset ||
            lay.args[i].size != want[i].size) {
            print_error("argument %u: kind %d offset %llu size %llu, want kind %d offset %llu size %llu\n", i,
                        (int)lay.args[i].kind, (unsigned long long)lay.args[i].offset,
                        (unsigned long long)lay.args[i].size, (int)want[i].kind,
                        (unsigned long long)want[i].offset, (unsigned long long)want[i].size);
            fail();
        }
        assert_int_equal(lay.args[i].offset % WEFT_ARG_ALIGN, 0);
    }
    assert_int_equal(lay.total_size, 200);
    /* byval structs carry their type and alignment for the copy the wrapper makes */
    assert_non_null(lay.args[6].byval_type);
    assert_int_equal(lay.args[7].byval_align, 16);
    assert_null(lay.args[3].byval_type);
    weft_arglayout_free(&lay);
    assert_null(lay.args);
    weft_diag_free(&d);
    dispose(&ir);
}

static void test_without_metadata_pointer_address_space_decides(void **state)
{
    struct ir ir = parse(DATALAYOUT
                         "define void @k(ptr addrspace(3) %l, i32 %n, ptr addrspace(1) %g, i16 %h) {\n"
                         "  ret void\n}\n");
    struct weft_arg_layout lay;
    struct weft_diag d;
    weft_diag_init(&d);
    assert_true(weft_arglayout_compute(LLVMGetNamedFunction(ir.mod, "k"), &lay, &d));
    assert_int_equal(lay.count, 4);
    assert_int_equal(lay.args[0].kind, WEFT_ARG_LOCAL_PTR);
    assert_int_equal(lay.args[1].kind, WEFT_ARG_BY_VALUE);
    assert_int_equal(lay.args[1].size, 4);
    assert_int_equal(lay.args[2].kind, WEFT_ARG_GLOBAL_PTR);
    assert_int_equal(lay.args[2].offset, 16);
    assert_int_equal(lay.args[3].offset, 24);
    assert_int_equal(lay.args[3].size, 2);
    assert_int_equal(lay.total_size, 32);
    weft_arglayout_free(&lay);
    weft_diag_free(&d);
    dispose(&ir);
}

static void test_kernel_without_parameters_has_empty_block(void **state)
{
    struct ir ir = parse(DATALAYOUT "define spir_kernel void @k() {\n  ret void\n}\n");
    struct weft_arg_layout lay;
    struct weft_diag d;
    weft_diag_init(&d);
    assert_true(weft_arglayout_compute(LLVMGetNamedFunction(ir.mod, "k"), &lay, &d));
    assert_int_equal(lay.count, 0);
    assert_int_equal(lay.total_size, 0);
    weft_arglayout_free(&lay);
    weft_diag_free(&d);
    dispose(&ir);
}

static void expect_refused(const char *ir_text, const char *needle)
{
    struct ir ir = parse(ir_text);
    struct weft_arg_layout lay;
    struct weft_diag d;
    weft_diag_init(&d);
    assert_false(weft_arglayout_compute(LLVMGetNamedFunction(ir.mod, "k"), &lay, &d));
    assert_int_equal(lay.count, 0);
    assert_null(lay.args);
    assert_true(d.errors > 0);
    char *text = weft_diag_take(&d);
    if (!strstr(text, needle)) {
        print_error("diagnostic '%s' does not mention '%s'\n", text, needle);
        fail();
    }
    free(text);
    dispose(&ir);
}

/* clang gives an image `ptr addrspace(1)` with address space 1 and a sampler `ptr
 * addrspace(2)` with address space 0: an image is a global pointer (to its descriptor), a
 * sampler an 8-byte value (its bits), by the type name (weft/abi.h). */
static void test_images_and_samplers_get_slots(void **state)
{
    struct ir ir = parse(DATALAYOUT
                         "define spir_kernel void @k(ptr addrspace(1) %o, ptr addrspace(1) %im, ptr addrspace(2) %s)"
                         " !kernel_arg_addr_space !0 !kernel_arg_type !1 {\n"
                         "  ret void\n}\n!0 = !{i32 1, i32 1, i32 0}\n!1 = !{!\"float*\", !\"image2d_t\", !\"sampler_t\"}\n");
    struct weft_arg_layout lay;
    struct weft_diag d;
    weft_diag_init(&d);
    assert_true(weft_arglayout_compute(LLVMGetNamedFunction(ir.mod, "k"), &lay, &d));
    assert_int_equal(lay.count, 3);
    assert_int_equal(lay.args[1].kind, WEFT_ARG_GLOBAL_PTR);
    assert_int_equal(lay.args[1].size, 8);
    assert_int_equal(lay.args[2].kind, WEFT_ARG_BY_VALUE);
    assert_int_equal(lay.args[2].size, 8);
    assert_int_equal(lay.args[2].offset, 16);
    weft_arglayout_free(&lay);
    weft_diag_free(&d);
    dispose(&ir);
}

static void test_pipes_queues_and_private_pointers_are_refused(void **state)
{
    expect_refused(DATALAYOUT
                   "define spir_kernel void @k(ptr addrspace(1) %o, ptr addrspace(1) %q) !kernel_arg_addr_space !0 !kernel_arg_type !1 {\n"
                   "  ret void\n}\n!0 = !{i32 1, i32 1}\n!1 = !{!\"float*\", !\"pipe int\"}\n",
                   "pipe");
    expect_refused(DATALAYOUT
                   "define spir_kernel void @k(ptr %q) !kernel_arg_addr_space !0 !kernel_arg_type !1 {\n"
                   "  ret void\n}\n!0 = !{i32 0}\n!1 = !{!\"queue_t\"}\n",
                   "queue_t");
    expect_refused(DATALAYOUT
                   "define spir_kernel void @k(ptr %p) !kernel_arg_addr_space !0 {\n"
                   "  ret void\n}\n!0 = !{i32 0}\n",
                   "private");
    expect_refused(DATALAYOUT
                   "define spir_kernel void @k(ptr addrspace(4) %p) !kernel_arg_addr_space !0 {\n"
                   "  ret void\n}\n!0 = !{i32 4}\n",
                   "address space 4");
}

static void test_slot_bytes_round_to_arg_align(void **state)
{
    assert_int_equal(weft_arglayout_slot_bytes(1), 8);
    assert_int_equal(weft_arglayout_slot_bytes(8), 8);
    assert_int_equal(weft_arglayout_slot_bytes(12), 16);
    assert_int_equal(weft_arglayout_slot_bytes(64), 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_parameter_form_gets_kind_offset_and_host_size),
        cmocka_unit_test(test_without_metadata_pointer_address_space_decides),
        cmocka_unit_test(test_kernel_without_parameters_has_empty_block),
        cmocka_unit_test(test_images_and_samplers_get_slots),
        cmocka_unit_test(test_pipes_queues_and_private_pointers_are_refused),
        cmocka_unit_test(test_slot_bytes_round_to_arg_align),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
