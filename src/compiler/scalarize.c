/* compiler/scalarize.c — a work-item's vector arithmetic split into its components
 * (compiler/scalarize.h). */
#include "compiler/scalarize.h"

#include <llvm-c/Target.h>
#include <stdlib.h>

#include "compiler/codegen.h"
#include "compiler/diag.h"

/* The most functions the scan follows from the kernel (a kernel calls a handful after linking;
 * past this many it is taken as having a wide vector, and left alone). */
#define SCAN_MAX_FUNCTIONS 256

static bool wide_vector(LLVMTypeRef t, LLVMTargetDataRef td, unsigned long long bits)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMSizeOfTypeInBits(td, t) >= bits;
}

/* Whether fn, or a function it calls (directly, through the list `seen` of *n visited), has an
 * instruction or argument of a wide vector type. */
static bool holds_wide_vector(LLVMValueRef fn, LLVMTargetDataRef td, unsigned long long bits, LLVMValueRef *seen,
                              unsigned *n)
{
    for (unsigned i = 0; i < *n; i++)
        if (seen[i] == fn)
            return false;
    if (*n == SCAN_MAX_FUNCTIONS)
        return true;
    seen[(*n)++] = fn;
    for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
        if (wide_vector(LLVMTypeOf(a), td, bits))
            return true;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (wide_vector(LLVMTypeOf(in), td, bits))
                return true;
            if (!LLVMIsACallInst(in))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(in);
            if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) &&
                holds_wide_vector(callee, td, bits, seen, n))
                return true;
        }
    return false;
}

bool weft_scalarize_vector_ops(LLVMModuleRef m, LLVMValueRef kernel, unsigned width)
{
    if (width < 2)
        return false;
    LLVMValueRef *seen = malloc(sizeof *seen * SCAN_MAX_FUNCTIONS);
    if (!seen)
        return false;
    unsigned n = 0;
    bool wide = holds_wide_vector(kernel, LLVMGetModuleDataLayout(m), 32ull * width, seen, &n);
    free(seen);
    if (wide)
        return false;
    struct weft_diag diag;
    weft_diag_init(&diag);
    /* the pass fails only on a pipeline string it does not know: then nothing changed */
    bool ok = weft_codegen_run_passes(m, "function(scalarizer)", NULL, &diag);
    weft_diag_free(&diag);
    return ok;
}
