/* tests/unit/test_spirv.c — compiler/spirv.c and spirvlower.c without the translator: the
 * SPIR-V header and framing checks, the specialization constants read from a module, the
 * canonical form of SPIR and clang builtin manglings, and the lowering of a SPIR-target module
 * (triple, calling conventions, builtin names, the generic-pointer fallback). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis_test_ir.h"
#include "compiler/spirv.h"
#include "compiler/spirvlower.h"

#define W(count, op) ((uint32_t)(count) << 16 | (op))

/* A minimal module: header, OpCapability Kernel, OpMemoryModel Physical64 OpenCL, an int and a
 * bool type, two decorated specialization constants and one undecorated. */
static const uint32_t module[] = {
    0x07230203, 0x00010000, 0, 20, 0,
    W(2, 17), 6,                     /* OpCapability Kernel */
    W(3, 14), 2, 2,                  /* OpMemoryModel Physical64 OpenCL */
    W(4, 71), 10, 1, 7,              /* OpDecorate %10 SpecId 7 */
    W(4, 71), 11, 1, 3,              /* OpDecorate %11 SpecId 3 */
    W(4, 21), 2, 16, 1,              /* %2 = OpTypeInt 16 1 */
    W(2, 20), 3,                     /* %3 = OpTypeBool */
    W(4, 50), 2, 10, 0xfffffffe,     /* %10 = OpSpecConstant %2 -2 */
    W(3, 49), 3, 11,                 /* %11 = OpSpecConstantFalse %3 */
    W(4, 50), 2, 12, 5,              /* %12 = OpSpecConstant %2 5 (no SpecId) */
};

static void test_check_accepts_both_byte_orders(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(weft_spirv_check(module, sizeof module, why, sizeof why), CL_SUCCESS);
    uint32_t swapped[sizeof module / 4];
    for (size_t i = 0; i < sizeof module / 4; i++)
        swapped[i] = __builtin_bswap32(module[i]);
    assert_int_equal(weft_spirv_check(swapped, sizeof swapped, why, sizeof why), CL_SUCCESS);
}

static void test_check_rejects(void **state)
{
    (void)state;
    char why[256];
    uint32_t m[sizeof module / 4];
    memcpy(m, module, sizeof m);
    assert_int_equal(weft_spirv_check(m, sizeof m - 2, why, sizeof why), CL_INVALID_VALUE);   /* not words */
    assert_int_equal(weft_spirv_check(m, 16, why, sizeof why), CL_INVALID_VALUE);             /* no header */
    m[1] = 0x00010500;                                                                        /* SPIR-V 1.5 */
    assert_int_equal(weft_spirv_check(m, sizeof m, why, sizeof why), CL_INVALID_VALUE);
    assert_non_null(strstr(why, "1.5"));
    memcpy(m, module, sizeof m);
    m[8] = 1;                                                                                 /* Physical32 */
    assert_int_equal(weft_spirv_check(m, sizeof m, why, sizeof why), CL_INVALID_VALUE);
    memcpy(m, module, sizeof m);
    m[5] = W(0x40, 17);                                                                       /* runs past the end */
    assert_int_equal(weft_spirv_check(m, sizeof m, why, sizeof why), CL_INVALID_VALUE);
    memcpy(m, module, sizeof m);
    m[3] = 0;                                                                                 /* bound 0 */
    assert_int_equal(weft_spirv_check(m, sizeof m, why, sizeof why), CL_INVALID_VALUE);
    /* a module without OpMemoryModel */
    static const uint32_t bare[] = {0x07230203, 0x00010000, 0, 4, 0, W(2, 17), 6};
    assert_int_equal(weft_spirv_check(bare, sizeof bare, why, sizeof why), CL_INVALID_VALUE);
}

static void test_spec_constants(void **state)
{
    (void)state;
    struct weft_spirv_spec *s = NULL;
    size_t n = 0;
    assert_int_equal(weft_spirv_spec_constants(module, sizeof module, &s, &n), CL_SUCCESS);
    assert_int_equal(n, 2);
    assert_int_equal(s[0].spec_id, 7);
    assert_int_equal(s[0].size, 2);
    assert_false(s[0].is_bool);
    assert_int_equal(s[1].spec_id, 3);
    assert_int_equal(s[1].size, 1);
    assert_true(s[1].is_bool);
    free(s);
}

static void expect_same(const char *spir, const char *clang)
{
    char *a = weft_spirv_canonical_name(spir, true), *b = weft_spirv_canonical_name(clang, false);
    if (!a || !b || strcmp(a, b))
        fail_msg("%s -> %s but %s -> %s", spir, a ? a : "(null)", clang, b ? b : "(null)");
    free(a);
    free(b);
}

static void test_canonical_names(void **state)
{
    (void)state;
    expect_same("_Z4sqrtf", "_Z4sqrtf");
    expect_same("_Z5fractfPf", "_Z5fractfPU9CLprivatef");
    expect_same("_Z4modfDv4_fPS_", "_Z4modfDv4_fPU9CLprivateS_");
    expect_same("_Z4fmaxDv4_fS_", "_Z4fmaxDv4_fS_");
    expect_same("_Z6vload4mPU3AS1Kf", "_Z6vload4mPU8CLglobalKf");
    expect_same("_Z10atomic_addPU3AS3Vii", "_Z10atomic_addPU7CLlocalVii");
    expect_same("_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event",
                "_Z21async_work_group_copyPU7CLlocalfPU8CLglobalKfm9ocl_event");
    expect_same("_Z17wait_group_eventsiP9ocl_event", "_Z17wait_group_eventsiPU9CLprivate9ocl_event");
    expect_same("_Z6remquoDv2_fS_PDv2_i", "_Z6remquoDv2_fS_PU9CLprivateDv2_i");
    char *a = weft_spirv_canonical_name("_Z5fractfPU3AS1f", true), *b = weft_spirv_canonical_name("_Z5fractfPf", true);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_not_equal(a, b);   /* global and private overloads stay apart */
    free(a);
    free(b);
    assert_null(weft_spirv_canonical_name("printf", true));
    assert_null(weft_spirv_canonical_name("_Z4sqrtS3_", true));   /* a substitution that does not exist */
    assert_null(weft_spirv_canonical_name("_Z99x", true));
}

static const char spir_ir[] =
    "target triple = \"spir64-unknown-unknown\"\n"
    "define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %c) {\n"
    "  %ip = alloca float\n"
    "  %g = addrspacecast ptr %ip to ptr addrspace(4)\n"
    "  %x = load float, ptr addrspace(1) %p\n"
    "  %f = call spir_func float @_Z5fractfPf(float %x, ptr %ip)\n"
    "  %h = call spir_func float @_Z5fractfPU3AS4f(float %f, ptr addrspace(4) %g)\n"
    "  %s = call spir_func float @_Z4sqrtf(float %h)\n"
    "  %cg = addrspacecast ptr addrspace(1) %c to ptr addrspace(4)\n"
    "  %o = call spir_func i32 @_Z10atomic_addPU3AS4Vii(ptr addrspace(4) %cg, i32 1)\n"
    "  store float %s, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}\n"
    "declare spir_func float @_Z5fractfPf(float, ptr)\n"
    "declare spir_func float @_Z5fractfPU3AS4f(float, ptr addrspace(4))\n"
    "declare spir_func float @_Z4sqrtf(float)\n"
    "declare spir_func i32 @_Z10atomic_addPU3AS4Vii(ptr addrspace(4), i32)\n";

static void test_lower_module(void **state)
{
    (void)state;
    struct test_ir ir = test_ir_parse(spir_ir);
    struct weft_diag diag;
    weft_diag_init(&diag);
    struct weft_build_options opts = {0};
    assert_true(weft_spirv_lower(ir.mod, &opts, &diag));
    assert_string_equal(LLVMGetTarget(ir.mod), "x86_64-unknown-linux-gnu");
    char *msg = NULL;
    if (LLVMVerifyModule(ir.mod, LLVMReturnStatusAction, &msg))
        fail_msg("lowered module does not verify: %s", msg);
    LLVMDisposeMessage(msg);
    assert_null(LLVMGetNamedFunction(ir.mod, "_Z5fractfPf"));
    assert_null(LLVMGetNamedFunction(ir.mod, "_Z5fractfPU3AS4f"));
    assert_null(LLVMGetNamedFunction(ir.mod, "_Z10atomic_addPU3AS4Vii"));
    LLVMValueRef fr = LLVMGetNamedFunction(ir.mod, "_Z5fractfPU9CLprivatef");
    assert_non_null(fr);
    assert_int_equal(LLVMGetFunctionCallConv(fr), LLVMCCallConv);
    unsigned uses = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(fr); u; u = LLVMGetNextUse(u)) {
        assert_int_equal(LLVMGetInstructionCallConv(LLVMGetUser(u)), LLVMCCallConv);
        uses++;
    }
    assert_int_equal(uses, 1);   /* the private call; the generic one has its own overload: */
    LLVMValueRef frg = LLVMGetNamedFunction(ir.mod, "_Z5fractfPU9CLgenericf");
    assert_non_null(frg);        /* the library defines __generic overloads (generic address space) */
    assert_non_null(LLVMGetFirstUse(frg));
    assert_non_null(LLVMGetNamedFunction(ir.mod, "_Z10atomic_addPU8CLglobalVii"));
    assert_non_null(LLVMGetNamedFunction(ir.mod, "_Z4sqrtf"));
    LLVMValueRef k = LLVMGetNamedFunction(ir.mod, "k");
    assert_int_equal(LLVMGetFunctionCallConv(k), LLVMSPIRKERNELCallConv);
    weft_diag_free(&diag);
    test_ir_dispose(&ir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_accepts_both_byte_orders),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_spec_constants),
        cmocka_unit_test(test_canonical_names),
        cmocka_unit_test(test_lower_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
