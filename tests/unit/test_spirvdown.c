/* tests/unit/test_spirvdown.c — compiler/spirvdown.c on hand-written modules: each rewrite
 * (OpCopyMemory, two memory-operand sets, OpPtrEqual/OpPtrNotEqual/OpPtrDiff, OpCopyLogical,
 * UserSemantic decoration strings) gives exactly the expected words, with the new ids,
 * constants, 64-bit type and capability where they belong; a module without any of them is
 * left alone; what cannot be rewritten fails with a reason and leaves the module as it was.
 * The expected sizes are OpenCL C's (checked against the host's C layout where C has the type). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <spirv/unified1/spirv.h>

#include "compiler/spirvdown.h"

#define W(count, op) ((uint32_t)(count) << 16 | (op))
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define HEADER(bound) 0x07230203, 0x00010400, 0, (bound), 0
#define CROSS 5   /* CrossWorkgroup */

struct run {
    cl_int err;
    bool changed;
    uint32_t *w;
    size_t n;
    char *log;
};

/* Runs the pass on a private copy of `in`. */
static struct run down(const uint32_t *in, size_t n)
{
    struct run r = {0};
    r.w = malloc(n * sizeof *r.w);
    assert_non_null(r.w);
    memcpy(r.w, in, n * sizeof *r.w);
    r.n = n;
    struct weft_diag diag;
    weft_diag_init(&diag);
    r.err = weft_spirv_downgrade(&r.w, &r.n, &r.changed, &diag);
    r.log = weft_diag_take(&diag);
    return r;
}

static void run_free(struct run *r)
{
    free(r->w);
    free(r->log);
}

/* The output equals `want` word for word; on a difference, says where. */
static void assert_words(const struct run *r, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n && i < r->n; i++)
        if (r->w[i] != want[i])
            fail_msg("word %zu is 0x%08x (op %u, count %u), expected 0x%08x (op %u, count %u)", i, r->w[i],
                     r->w[i] & 0xffff, r->w[i] >> 16, want[i], want[i] & 0xffff, want[i] >> 16);
    assert_int_equal(r->n, n);
}

/* Module m must be rewritten, into exactly `want`. */
static void expect_rewritten(const uint32_t *m, size_t n, const uint32_t *want, size_t nwant)
{
    struct run r = down(m, n);
    assert_int_equal(r.err, CL_SUCCESS);
    assert_true(r.changed);
    assert_words(&r, want, nwant);
    run_free(&r);
}

static void test_untouched_module(void **state)
{
    (void)state;
    static const uint32_t m[] = {
        HEADER(9),
        W(2, SpvOpCapability), SpvCapabilityKernel,
        W(3, SpvOpMemoryModel), 2, 2,
        W(2, SpvOpTypeVoid), 1,
        W(4, SpvOpTypeInt), 2, 32, 0,
        W(4, SpvOpTypePointer), 3, CROSS, 2,
        W(4, SpvOpTypeFunction), 4, 1, 3,
        W(5, SpvOpFunction), 1, 5, 0, 4,
        W(3, SpvOpFunctionParameter), 3, 6,
        W(2, SpvOpLabel), 7,
        W(4, SpvOpLoad), 2, 8, 6,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    struct run r = down(m, ARRAY_LEN(m));
    assert_int_equal(r.err, CL_SUCCESS);
    assert_false(r.changed);
    assert_words(&r, m, ARRAY_LEN(m));
    run_free(&r);
}

/* struct S { uint; double; float3; } is 32 bytes (float3 takes 16 and aligns to 16). */
static void test_pointer_comparisons_and_difference(void **state)
{
    (void)state;
    struct host_s {
        uint32_t u;
        double d;
        float v __attribute__((vector_size(16)));
    };
    assert_int_equal(sizeof(struct host_s), 32);
    static const uint32_t m[] = {
        HEADER(24),
        W(2, SpvOpCapability), SpvCapabilityAddresses,
        W(2, SpvOpCapability), SpvCapabilityKernel,
        W(3, SpvOpMemoryModel), 2, 2,
        W(2, SpvOpTypeVoid), 1,
        W(4, SpvOpTypeInt), 2, 32, 0,
        W(3, SpvOpTypeFloat), 4, 32,
        W(3, SpvOpTypeFloat), 5, 64,
        W(4, SpvOpTypeVector), 6, 4, 3,
        W(5, SpvOpTypeStruct), 7, 2, 5, 6,
        W(4, SpvOpTypePointer), 8, CROSS, 7,
        W(2, SpvOpTypeBool), 9,
        W(5, SpvOpTypeFunction), 10, 1, 8, 8,
        W(5, SpvOpFunction), 1, 11, 0, 10,
        W(3, SpvOpFunctionParameter), 8, 12,
        W(3, SpvOpFunctionParameter), 8, 13,
        W(2, SpvOpLabel), 14,
        W(5, SpvOpPtrEqual), 9, 20, 12, 13,
        W(5, SpvOpPtrNotEqual), 9, 21, 12, 13,
        W(5, SpvOpPtrDiff), 2, 22, 12, 13,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    /* new ids: 24 the 64-bit type, 25-30 the converted pointers, 31 the difference, 32 the
     * size constant, 33 the quotient (the 32-bit result is its conversion) */
    static const uint32_t want[] = {
        HEADER(34),
        W(2, SpvOpCapability), SpvCapabilityInt64,
        W(2, SpvOpCapability), SpvCapabilityAddresses,
        W(2, SpvOpCapability), SpvCapabilityKernel,
        W(3, SpvOpMemoryModel), 2, 2,
        W(2, SpvOpTypeVoid), 1,
        W(4, SpvOpTypeInt), 2, 32, 0,
        W(3, SpvOpTypeFloat), 4, 32,
        W(3, SpvOpTypeFloat), 5, 64,
        W(4, SpvOpTypeVector), 6, 4, 3,
        W(5, SpvOpTypeStruct), 7, 2, 5, 6,
        W(4, SpvOpTypePointer), 8, CROSS, 7,
        W(2, SpvOpTypeBool), 9,
        W(5, SpvOpTypeFunction), 10, 1, 8, 8,
        W(4, SpvOpTypeInt), 24, 64, 0,
        W(5, SpvOpConstant), 24, 32, 32, 0,
        W(5, SpvOpFunction), 1, 11, 0, 10,
        W(3, SpvOpFunctionParameter), 8, 12,
        W(3, SpvOpFunctionParameter), 8, 13,
        W(2, SpvOpLabel), 14,
        W(4, SpvOpConvertPtrToU), 24, 25, 12,
        W(4, SpvOpConvertPtrToU), 24, 26, 13,
        W(5, SpvOpIEqual), 9, 20, 25, 26,
        W(4, SpvOpConvertPtrToU), 24, 27, 12,
        W(4, SpvOpConvertPtrToU), 24, 28, 13,
        W(5, SpvOpINotEqual), 9, 21, 27, 28,
        W(4, SpvOpConvertPtrToU), 24, 29, 12,
        W(4, SpvOpConvertPtrToU), 24, 30, 13,
        W(5, SpvOpISub), 24, 31, 29, 30,
        W(5, SpvOpSDiv), 24, 33, 31, 32,
        W(4, SpvOpSConvert), 2, 22, 33,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    expect_rewritten(m, ARRAY_LEN(m), want, ARRAY_LEN(want));
}

/* A 64-bit result is computed in its own type: no conversion, the quotient is the result. */
static void test_pointer_difference_64bit_result(void **state)
{
    (void)state;
    static const uint32_t m[] = {
        HEADER(12),
        W(2, SpvOpCapability), SpvCapabilityInt64,
        W(3, SpvOpMemoryModel), 2, 2,
        W(2, SpvOpTypeVoid), 1,
        W(4, SpvOpTypeInt), 2, 64, 0,
        W(4, SpvOpTypeInt), 3, 16, 0,
        W(4, SpvOpTypePointer), 4, 4 /* Workgroup */, 3,
        W(4, SpvOpTypeFunction), 5, 1, 4,
        W(5, SpvOpFunction), 1, 6, 0, 5,
        W(3, SpvOpFunctionParameter), 4, 7,
        W(2, SpvOpLabel), 8,
        W(5, SpvOpPtrDiff), 2, 9, 7, 7,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    static const uint32_t want[] = {
        HEADER(16),
        W(2, SpvOpCapability), SpvCapabilityInt64,
        W(3, SpvOpMemoryModel), 2, 2,
        W(2, SpvOpTypeVoid), 1,
        W(4, SpvOpTypeInt), 2, 64, 0,
        W(4, SpvOpTypeInt), 3, 16, 0,
        W(4, SpvOpTypePointer), 4, 4, 3,
        W(4, SpvOpTypeFunction), 5, 1, 4,
        W(5, SpvOpConstant), 2, 15, 2, 0,
        W(5, SpvOpFunction), 1, 6, 0, 5,
        W(3, SpvOpFunctionParameter), 4, 7,
        W(2, SpvOpLabel), 8,
        W(4, SpvOpConvertPtrToU), 2, 12, 7,
        W(4, SpvOpConvertPtrToU), 2, 13, 7,
        W(5, SpvOpISub), 2, 14, 12, 13,
        W(5, SpvOpSDiv), 2, 9, 14, 15,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    struct run r = down(m, ARRAY_LEN(m));
    assert_int_equal(r.err, CL_SUCCESS);
    assert_words(&r, want, ARRAY_LEN(want));
    run_free(&r);
}

/* OpCopyMemory becomes OpCopyMemorySized of the pointee's size: a CPacked struct {uchar; uint;
 * double} is 13 bytes, unpacked 16, an array of 3 float3 48. Two memory-operand sets become
 * one: either side's Volatile, the smaller alignment when both are aligned, none otherwise.
 * An OpCopyMemorySized with one set stays as it is. */
static void test_copy_memory(void **state)
{
    (void)state;
    struct __attribute__((packed)) packed_s {
        uint8_t c;
        uint32_t u;
        double d;
    };
    struct plain_s {
        uint8_t c;
        uint32_t u;
        double d;
    };
    assert_int_equal(sizeof(struct packed_s), 13);
    assert_int_equal(sizeof(struct plain_s), 16);
    enum { VOL = 1, ALIGNED = 2 };
#define COPY_MODULE_TYPES                                                                        \
    W(2, SpvOpCapability), SpvCapabilityAddresses,                                             \
    W(2, SpvOpCapability), SpvCapabilityInt64,                                                 \
    W(3, SpvOpMemoryModel), 2, 2,                                                              \
    W(3, SpvOpDecorate), 8, SpvDecorationCPacked,                                              \
    W(2, SpvOpTypeVoid), 1,                                                                    \
    W(4, SpvOpTypeInt), 2, 32, 0,                                                              \
    W(4, SpvOpTypeInt), 3, 64, 0,                                                              \
    W(4, SpvOpTypeInt), 4, 8, 0,                                                               \
    W(3, SpvOpTypeFloat), 5, 64,                                                               \
    W(3, SpvOpTypeFloat), 6, 32,                                                               \
    W(4, SpvOpTypeVector), 7, 6, 3,                                                            \
    W(5, SpvOpTypeStruct), 8, 4, 2, 5,                                                         \
    W(5, SpvOpTypeStruct), 9, 4, 2, 5,                                                         \
    W(5, SpvOpConstant), 3, 10, 3, 0,                                                          \
    W(4, SpvOpTypeArray), 11, 7, 10,                                                           \
    W(4, SpvOpTypePointer), 12, CROSS, 8,                                                      \
    W(4, SpvOpTypePointer), 13, CROSS, 9,                                                      \
    W(4, SpvOpTypePointer), 14, CROSS, 11,                                                     \
    W(4, SpvOpTypePointer), 15, CROSS, 2,                                                      \
    W(11, SpvOpTypeFunction), 16, 1, 12, 12, 13, 13, 14, 14, 15, 15,                           \
    W(5, SpvOpConstant), 3, 17, 4, 0
#define COPY_MODULE_FUNCTION_START                                                               \
    W(5, SpvOpFunction), 1, 18, 0, 16,                                                          \
    W(3, SpvOpFunctionParameter), 12, 20, W(3, SpvOpFunctionParameter), 12, 21,                 \
    W(3, SpvOpFunctionParameter), 13, 22, W(3, SpvOpFunctionParameter), 13, 23,                 \
    W(3, SpvOpFunctionParameter), 14, 24, W(3, SpvOpFunctionParameter), 14, 25,                 \
    W(3, SpvOpFunctionParameter), 15, 26, W(3, SpvOpFunctionParameter), 15, 27,                 \
    W(2, SpvOpLabel), 19
    static const uint32_t m[] = {
        HEADER(30),
        COPY_MODULE_TYPES,
        COPY_MODULE_FUNCTION_START,
        W(3, SpvOpCopyMemory), 20, 21,
        W(7, SpvOpCopyMemory), 22, 23, VOL | ALIGNED, 8, ALIGNED, 4,
        W(3, SpvOpCopyMemory), 24, 25,
        W(7, SpvOpCopyMemorySized), 26, 27, 17, ALIGNED, 16, VOL,
        W(6, SpvOpCopyMemorySized), 26, 27, 17, ALIGNED, 4,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    static const uint32_t want[] = {
        HEADER(33),
        COPY_MODULE_TYPES,
        W(5, SpvOpConstant), 3, 30, 13, 0,
        W(5, SpvOpConstant), 3, 31, 16, 0,
        W(5, SpvOpConstant), 3, 32, 48, 0,
        COPY_MODULE_FUNCTION_START,
        W(4, SpvOpCopyMemorySized), 20, 21, 30,
        W(6, SpvOpCopyMemorySized), 22, 23, 31, VOL | ALIGNED, 4,
        W(4, SpvOpCopyMemorySized), 24, 25, 32,
        W(5, SpvOpCopyMemorySized), 26, 27, 17, VOL,
        W(6, SpvOpCopyMemorySized), 26, 27, 17, ALIGNED, 4,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
#undef COPY_MODULE_TYPES
#undef COPY_MODULE_FUNCTION_START
    expect_rewritten(m, ARRAY_LEN(m), want, ARRAY_LEN(want));
}

/* struct A { uint; X[2] } to struct B { uint; Y[2] }, X and Y both { float }: every leaf is
 * extracted from the source and inserted into the copy by its index path (llvm-spirv-15
 * cannot read OpCompositeConstruct of non-constant structs). */
#define LOGICAL_TYPES                                                                            \
    W(3, SpvOpMemoryModel), 2, 2,                                                              \
    W(2, SpvOpTypeVoid), 1,                                                                    \
    W(4, SpvOpTypeInt), 2, 32, 0,                                                              \
    W(3, SpvOpTypeFloat), 3, 32,                                                               \
    W(3, SpvOpTypeStruct), 4, 3,                                                               \
    W(3, SpvOpTypeStruct), 5, 3,                                                               \
    W(4, SpvOpConstant), 2, 6, 2,                                                              \
    W(4, SpvOpTypeArray), 7, 4, 6,                                                             \
    W(4, SpvOpTypeArray), 8, 5, 6,                                                             \
    W(4, SpvOpTypeStruct), 9, 2, 7,                                                            \
    W(4, SpvOpTypeStruct), 10, 2, 8,                                                           \
    W(4, SpvOpTypePointer), 11, CROSS, 9,                                                      \
    W(4, SpvOpTypePointer), 12, CROSS, 10,                                                     \
    W(5, SpvOpTypeFunction), 13, 1, 11, 12,                                                    \
    W(5, SpvOpFunction), 1, 14, 0, 13,                                                         \
    W(3, SpvOpFunctionParameter), 11, 15,                                                      \
    W(3, SpvOpFunctionParameter), 12, 16,                                                      \
    W(2, SpvOpLabel), 17,                                                                      \
    W(4, SpvOpLoad), 9, 18, 15

static void test_copy_logical(void **state)
{
    (void)state;
    static const uint32_t m[] = {
        HEADER(20),
        LOGICAL_TYPES,
        W(4, SpvOpCopyLogical), 10, 19, 18,
        W(3, SpvOpStore), 16, 19,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    /* three leaves: an OpUndef B (20), then per leaf an extract and an insert by its index
     * path; the last insert is the result */
    static const uint32_t want[] = {
        HEADER(26),
        LOGICAL_TYPES,
        W(3, SpvOpUndef), 10, 20,
        W(5, SpvOpCompositeExtract), 2, 21, 18, 0,
        W(6, SpvOpCompositeInsert), 10, 22, 21, 20, 0,
        W(7, SpvOpCompositeExtract), 3, 23, 18, 1, 0, 0,
        W(8, SpvOpCompositeInsert), 10, 24, 23, 22, 1, 0, 0,
        W(7, SpvOpCompositeExtract), 3, 25, 18, 1, 1, 0,
        W(8, SpvOpCompositeInsert), 10, 19, 25, 24, 1, 1, 0,
        W(3, SpvOpStore), 16, 19,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    expect_rewritten(m, ARRAY_LEN(m), want, ARRAY_LEN(want));
}

/* Types that do not match logically (A has 2 members, X 1) are refused with a reason. */
static void test_copy_logical_mismatch(void **state)
{
    (void)state;
    static const uint32_t m[] = {
        HEADER(20),
        LOGICAL_TYPES,
        W(4, SpvOpCopyLogical), 4, 19, 18,
        W(1, SpvOpReturn),
        W(1, SpvOpFunctionEnd),
    };
    struct run r = down(m, ARRAY_LEN(m));
    assert_int_equal(r.err, CL_COMPILE_PROGRAM_FAILURE);
    assert_false(r.changed);
    assert_words(&r, m, ARRAY_LEN(m));   /* the module is as it was */
    if (!strstr(r.log, "OpCopyLogical") || !strstr(r.log, "do not match logically: 1 and 2 members"))
        fail_msg("the log does not say why: %s", r.log);
    run_free(&r);
}
#undef LOGICAL_TYPES

/* UserSemantic strings are dropped, on an id and on a member; other decorations stay. */
static void test_user_semantic_dropped(void **state)
{
    (void)state;
    const uint32_t foo = 0x006f6f66;   /* "foo" */
    const uint32_t m[] = {
        HEADER(8),
        W(3, SpvOpMemoryModel), 2, 2,
        W(4, SpvOpDecorateString), 5, SpvDecorationUserSemantic, foo,
        W(4, SpvOpDecorate), 5, SpvDecorationAlignment, 4,
        W(5, SpvOpMemberDecorateString), 4, 0, SpvDecorationUserSemantic, foo,
        W(6, SpvOpDecorateString), 5, SpvDecorationUserSemantic, 0x3f4f4f46, 0x52414220, 0x00000000,
        W(4, SpvOpTypeInt), 2, 32, 0,
        W(3, SpvOpTypeStruct), 4, 2,
    };
    const uint32_t want[] = {
        HEADER(8),
        W(3, SpvOpMemoryModel), 2, 2,
        W(4, SpvOpDecorate), 5, SpvDecorationAlignment, 4,
        W(4, SpvOpTypeInt), 2, 32, 0,
        W(3, SpvOpTypeStruct), 4, 2,
    };
    expect_rewritten(m, ARRAY_LEN(m), want, ARRAY_LEN(want));
}

/* Any other decoration string fails the build with a reason naming it. */
static void test_other_decoration_string_refused(void **state)
{
    (void)state;
    const uint32_t m[] = {
        HEADER(8),
        W(3, SpvOpMemoryModel), 2, 2,
        W(4, SpvOpDecorateString), 5, SpvDecorationUserTypeGOOGLE, 0x006f6f66,
        W(4, SpvOpTypeInt), 5, 32, 0,
    };
    struct run r = down(m, ARRAY_LEN(m));
    assert_int_equal(r.err, CL_COMPILE_PROGRAM_FAILURE);
    assert_words(&r, m, ARRAY_LEN(m));
    if (!strstr(r.log, "OpDecorateString") || !strstr(r.log, "5636") || !strstr(r.log, "UserSemantic"))
        fail_msg("the log does not say why: %s", r.log);
    run_free(&r);
}

/* A difference of pointers to a runtime array, or to an array whose length is a
 * specialization constant, has no element size to divide by. */
static void test_pointer_difference_without_size(void **state)
{
    (void)state;
    for (int spec = 0; spec < 2; spec++) {
        /* (an OpNop pads the runtime array's shorter instruction to the array's length) */
        const uint32_t m[] = {
            HEADER(12),
            W(3, SpvOpMemoryModel), 2, 2,
            W(2, SpvOpTypeVoid), 1,
            W(4, SpvOpTypeInt), 2, 64, 0,
            W(4, spec ? SpvOpSpecConstant : SpvOpConstant), 2, 10, 4,
            spec ? W(4, SpvOpTypeArray) : W(3, SpvOpTypeRuntimeArray), 3, 2, spec ? 10 : W(1, SpvOpNop),
            W(4, SpvOpTypePointer), 4, CROSS, 3,
            W(4, SpvOpTypeFunction), 5, 1, 4,
            W(5, SpvOpFunction), 1, 6, 0, 5,
            W(3, SpvOpFunctionParameter), 4, 7,
            W(2, SpvOpLabel), 8,
            W(5, SpvOpPtrDiff), 2, 9, 7, 7,
            W(1, SpvOpReturn),
            W(1, SpvOpFunctionEnd),
        };
        struct run r = down(m, ARRAY_LEN(m));
        assert_int_equal(r.err, CL_COMPILE_PROGRAM_FAILURE);
        assert_words(&r, m, ARRAY_LEN(m));
        const char *why = spec ? "is not a constant" : "has no size";
        if (!strstr(r.log, "OpPtrDiff") || !strstr(r.log, why))
            fail_msg("the log does not say '%s': %s", why, r.log);
        run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untouched_module),
        cmocka_unit_test(test_pointer_comparisons_and_difference),
        cmocka_unit_test(test_pointer_difference_64bit_result),
        cmocka_unit_test(test_copy_memory),
        cmocka_unit_test(test_copy_logical),
        cmocka_unit_test(test_copy_logical_mismatch),
        cmocka_unit_test(test_user_semantic_dropped),
        cmocka_unit_test(test_other_decoration_string_refused),
        cmocka_unit_test(test_pointer_difference_without_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
