/* compiler/narrowids.c — global ids below 2^31 (compiler/narrowids.h).
 *
 * Why the rewrite is exact: with X = a global id in [0, 2^31 - 2^24) and a constant k with
 * k < 2^24 (and k >= -2^31, as it came from an int), X + k lies in [-2^31, 2^31). Then
 * ((X << 32) + (k << 32)) in 64 bits holds the low 32 bits of X + k in its top half, and an
 * arithmetic shift right by S <= 32 gives sext32(X + k) * 2^(32 - S) = (X + k) << (32 - S),
 * which is what the rewrite computes (nsw: no 64-bit overflow either). */
#include "compiler/narrowids.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static bool is_global_id_call(LLVMValueRef v)
{
    if (!LLVMIsACallInst(v))
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(v);
    size_t n = 0;
    const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : NULL;
    return name && n == strlen("_Z13get_global_idj") && !memcmp(name, "_Z13get_global_idj", n) &&
           LLVMTypeOf(v) == LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
}

/* A constant integer operand's value (i64 constants only). */
static bool const_i64(LLVMValueRef v, int64_t *out)
{
    if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 64)
        return false;
    *out = LLVMConstIntGetSExtValue(v);
    return true;
}

static bool is_op(LLVMValueRef v, LLVMOpcode op)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == op;
}

/* Rewrites `ashr (shl X, 32), S` and `ashr (add (shl X, 32), k << 32), S` users of shl. */
static unsigned rewrite_shl(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef shl)
{
    unsigned done = 0;
    LLVMValueRef users[64];
    unsigned nu = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(shl); u && nu < 64; u = LLVMGetNextUse(u))
        users[nu++] = LLVMGetUser(u);
    for (unsigned i = 0; i < nu; i++) {
        LLVMValueRef v = users[i];
        int64_t k = 0;
        if (is_op(v, LLVMAdd)) {
            int64_t c;
            if (LLVMGetOperand(v, 0) != shl || !const_i64(LLVMGetOperand(v, 1), &c) || (c & 0xffffffffll) != 0)
                continue;
            k = c >> 32;
            if (k >= (1ll << 24))
                continue;
            /* its ashr users */
            LLVMValueRef shr[64];
            unsigned ns = 0;
            for (LLVMUseRef w = LLVMGetFirstUse(v); w && ns < 64; w = LLVMGetNextUse(w))
                shr[ns++] = LLVMGetUser(w);
            for (unsigned j = 0; j < ns; j++) {
                int64_t s;
                if (!is_op(shr[j], LLVMAShr) || LLVMGetOperand(shr[j], 0) != v ||
                    !const_i64(LLVMGetOperand(shr[j], 1), &s) || s < 0 || s > 32)
                    continue;
                LLVMPositionBuilderBefore(b, shr[j]);
                LLVMValueRef r = LLVMBuildNSWAdd(b, x, LLVMConstInt(LLVMTypeOf(x), (unsigned long long)k, true), "nid");
                if (s < 32)
                    r = LLVMBuildNSWMul(b, r, LLVMConstInt(LLVMTypeOf(x), 1ull << (32 - s), false), "nid.scaled");
                LLVMReplaceAllUsesWith(shr[j], r);
                LLVMInstructionEraseFromParent(shr[j]);
                done++;
            }
            continue;
        }
        int64_t s;
        if (is_op(v, LLVMAShr) && LLVMGetOperand(v, 0) == shl && const_i64(LLVMGetOperand(v, 1), &s) && s >= 0 &&
            s <= 32) {
            LLVMPositionBuilderBefore(b, v);
            LLVMValueRef r = x;
            if (s < 32)
                r = LLVMBuildNSWMul(b, x, LLVMConstInt(LLVMTypeOf(x), 1ull << (32 - s), false), "nid.scaled");
            LLVMReplaceAllUsesWith(v, r);
            LLVMInstructionEraseFromParent(v);
            done++;
        }
    }
    return done;
}

unsigned weft_narrow_ids(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned done = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!is_global_id_call(in))
                    continue;
                /* the shl users, collected first: rewriting them changes no use of `in` */
                LLVMValueRef shl[64];
                unsigned n = 0;
                for (LLVMUseRef u = LLVMGetFirstUse(in); u && n < 64; u = LLVMGetNextUse(u)) {
                    LLVMValueRef v = LLVMGetUser(u);
                    int64_t s;
                    if (is_op(v, LLVMShl) && LLVMGetOperand(v, 0) == in && const_i64(LLVMGetOperand(v, 1), &s) &&
                        s == 32)
                        shl[n++] = v;
                }
                for (unsigned i = 0; i < n; i++)
                    done += rewrite_shl(b, in, shl[i]);
            }
        }
    }
    LLVMDisposeBuilder(b);
    return done;
}
