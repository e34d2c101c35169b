/* compiler/safediv.c — see safediv.h. */
#include "compiler/safediv.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static bool is_division(LLVMOpcode op)
{
    return op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem;
}

/* A constant integer (or vector of them) that can never trap as a divisor: not 0, and for a
 * signed division not -1 either. Anything that is not a constant is not known to be safe. */
static bool constant_is_safe(LLVMValueRef d, bool is_signed)
{
    if (LLVMGetTypeKind(LLVMTypeOf(d)) == LLVMVectorTypeKind) {
        if (!LLVMIsAConstantDataVector(d) && !LLVMIsAConstantVector(d))
            return false;
        unsigned n = LLVMGetVectorSize(LLVMTypeOf(d));
        for (unsigned i = 0; i < n; i++)
            if (!constant_is_safe(LLVMGetAggregateElement(d, i), is_signed))
                return false;
        return true;
    }
    if (!d || !LLVMIsAConstantInt(d))
        return false;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(d));
    if (bits > 64)
        return false;
    uint64_t v = LLVMConstIntGetZExtValue(d);
    uint64_t all = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    return v != 0 && !(is_signed && v == all);
}

/* The constant v of integer type t, or its splat when t is a vector. */
static LLVMValueRef splat(LLVMTypeRef t, unsigned long long v, bool sign_extend)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return LLVMConstInt(t, v, sign_extend);
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef e = LLVMConstInt(LLVMGetElementType(t), v, sign_extend);
    LLVMValueRef *es = malloc(sizeof *es * n);
    if (!es)
        abort();
    for (unsigned i = 0; i < n; i++)
        es[i] = e;
    LLVMValueRef r = LLVMConstVector(es, n);
    free(es);
    return r;
}

/* max(d, 1) as unsigned numbers, lane by lane: d where d != 0, else 1. */
static LLVMValueRef umax_one(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef d)
{
    LLVMTypeRef t = LLVMTypeOf(d);
    static const char name[] = "llvm.umax";
    unsigned id = LLVMLookupIntrinsicID(name, sizeof name - 1);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
    LLVMValueRef args[] = {d, splat(t, 1, false)};
    return LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &t, 1), f, args, 2, "div.nz");
}

static void guard(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef div)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(div);
    bool is_signed = op == LLVMSDiv || op == LLVMSRem;
    LLVMValueRef a = LLVMGetOperand(div, 0), d = LLVMGetOperand(div, 1);
    LLVMTypeRef t = LLVMTypeOf(d);
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    unsigned bits = LLVMGetIntTypeWidth(et);
    LLVMPositionBuilderBefore(b, div);
    LLVMValueRef safe;
    if (LLVMIsConstant(d)) {
        /* a constant with a zero lane: the builder folds the select into the divisor */
        LLVMValueRef zero = LLVMBuildICmp(b, LLVMIntEQ, d, splat(t, 0, false), "div.zero");
        safe = LLVMBuildSelect(b, zero, splat(t, 1, false), d, "div.nz");
    } else {
        /* Not `select (d == 0), 1, d`: InstSimplify threads a division over a select's arms
         * (udiv x, (select c, y, z) -> select c, (udiv x, y), (udiv x, z)), and where an arm
         * is a constant vector with a zero lane that lane's undefined behaviour makes the
         * whole division poison, although the select never picks the lane (a masked divisor
         * select (m, lid, 1), lid = <0, 1, ...> with lane 0 inactive: every quotient became 0).
         * umax is no select, and each of its lanes is a defined value other than 0 (freeze:
         * an inactive lane may hold poison). */
        d = LLVMBuildFreeze(b, d, "div.fr");
        safe = umax_one(m, b, d);
    }
    if (is_signed) {   /* (a constant dividend other than the minimum folds this away) */
        LLVMValueRef min = splat(t, bits >= 64 ? 1ull << 63 : 1ull << (bits - 1), false);
        LLVMValueRef is_min = LLVMBuildICmp(b, LLVMIntEQ, a, min, "");
        LLVMValueRef is_m1 = LLVMBuildICmp(b, LLVMIntEQ, d, splat(t, ~0ull, true), "");
        LLVMValueRef ovf = LLVMBuildAnd(b, is_min, is_m1, "div.ovf");
        safe = LLVMBuildSelect(b, ovf, splat(t, 1, false), safe, "");
    }
    LLVMSetOperand(div, 1, safe);
    if (LLVMIsAInstruction(safe))
        LLVMSetValueName2(safe, "div.safe", 8);
}

unsigned weft_guard_divisions(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMOpcode op = LLVMGetInstructionOpcode(i);
                if (!is_division(op) || constant_is_safe(LLVMGetOperand(i, 1), op == LLVMSDiv || op == LLVMSRem))
                    continue;
                guard(m, b, i);
                n++;
            }
    LLVMDisposeBuilder(b);
    return n;
}
