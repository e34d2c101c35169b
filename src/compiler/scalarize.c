/* compiler/scalarize.c — a work-item's vector arithmetic split into its components
 * (compiler/scalarize.h). */
#include "compiler/scalarize.h"

#include "compiler/codegen.h"
#include "compiler/diag.h"
#include "compiler/transform/vectorize.h"

/* The most functions the scan follows from the kernel (a kernel calls a handful after linking;
 * past this many it is taken as having a wide vector, and left alone). */
#define SCAN_MAX_FUNCTIONS 256

/* Vector arithmetic: an instruction other than a load or store whose result is a vector, or an
 * extractelement (of a loaded vector too). */
static bool vector_arithmetic(LLVMValueRef in)
{
    if (LLVMIsALoadInst(in) || LLVMIsAStoreInst(in))
        return false;
    if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVectorTypeKind)
        return true;
    return LLVMIsAExtractElementInst(in) != NULL;
}

/* Whether fn, or a function it calls (directly, through the list `seen` of *n visited), has an
 * instruction or argument of a register-wide vector type; *arith when one has vector arithmetic. */
static bool holds_wide_vector(LLVMValueRef fn, LLVMTargetDataRef td, unsigned width, LLVMValueRef *seen,
                              unsigned *n, bool *arith)
{
    for (unsigned i = 0; i < *n; i++)
        if (seen[i] == fn)
            return false;
    if (*n == SCAN_MAX_FUNCTIONS)
        return true;
    seen[(*n)++] = fn;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
        if (weft_vec_register_wide(td, LLVMTypeOf(a), width))
            return true;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (weft_vec_register_wide(td, LLVMTypeOf(in), width))
                return true;
            *arith |= vector_arithmetic(in);
            if (!LLVMIsACallInst(in))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(in);
            if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) &&
                holds_wide_vector(callee, td, width, seen, n, arith))
                return true;
        }
    return false;
}

enum weft_scalarize_result weft_scalarize_vector_ops(LLVMModuleRef m, LLVMValueRef kernel, unsigned width)
{
    if (width < 2)
        return WEFT_SCALARIZE_NOTHING;
    LLVMValueRef seen[SCAN_MAX_FUNCTIONS];
    unsigned n = 0;
    bool arith = false;
    if (holds_wide_vector(kernel, LLVMGetModuleDataLayout(m), width, seen, &n, &arith))
        return WEFT_SCALARIZE_KEPT_WIDE;
    if (!arith)
        return WEFT_SCALARIZE_NOTHING;
    struct weft_diag diag;
    weft_diag_init(&diag);
    /* the pass fails only on a pipeline string it does not know: then nothing changed */
    bool ok = weft_codegen_run_passes(m, "function(scalarizer)", NULL, &diag);
    weft_diag_free(&diag);
    return ok ? WEFT_SCALARIZE_SPLIT : WEFT_SCALARIZE_NOTHING;
}
