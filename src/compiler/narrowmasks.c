/* compiler/narrowmasks.c — masked loads and stores of a constant run of lanes as plain ones
 * (compiler/narrowmasks.h). */
#include "compiler/narrowmasks.h"

#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "compiler/transform/irutil.h"

#define MAX_LANES 64u

enum masked_kind { NOT_MASKED, MASKED_LOAD, MASKED_STORE };

static enum masked_kind kind_of(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return NOT_MASKED;
    size_t len = 0;
    const char *name = weft_direct_callee_name(inst, &len);
    if (!name)
        return NOT_MASKED;
    if (len > 18 && !strncmp(name, "llvm.masked.load.", 17))
        return MASKED_LOAD;
    if (len > 19 && !strncmp(name, "llvm.masked.store.", 18))
        return MASKED_STORE;
    return NOT_MASKED;
}

/* The true lanes of a constant mask of n lanes as one run [*first, *first + *count), a power of
 * two below n; false for any other mask (not constant, undefined lanes, none, all, gaps). */
static bool constant_run(LLVMValueRef mask, unsigned n, unsigned *first, unsigned *count)
{
    if (!LLVMIsAConstant(mask) || n < 2 || n > MAX_LANES)
        return false;
    int a = -1;
    unsigned k = 0;
    bool ended = false;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(mask, i);
        if (!e || !LLVMIsAConstantInt(e))
            return false;   /* undef or poison lanes, or an expression */
        bool on = LLVMConstIntGetZExtValue(e) != 0;
        if (on && ended)
            return false;
        if (on) {
            if (a < 0)
                a = (int)i;
            k++;
        } else if (a >= 0) {
            ended = true;
        }
    }
    if (a < 0 || k == n || (k & (k - 1)) != 0)
        return false;
    *first = (unsigned)a;
    *count = k;
    return true;
}

/* The alignment left at `offset` bytes past a pointer aligned to `align` (a power of two). */
static unsigned offset_alignment(unsigned align, uint64_t offset)
{
    if (align == 0)
        align = 1;
    while (align > 1 && offset % align)
        align /= 2;
    return align;
}

/* A pointer `offset` bytes past p, in p's address space. */
static LLVMValueRef byte_offset(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef p, uint64_t offset)
{
    if (offset == 0)
        return p;
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(c), offset, false);
    return LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(c), p, &idx, 1, "narrow.addr");
}

/* A shuffle mask of n lanes for the run [first, first + k): with `widen`, a k-element vector's
 * elements into the run's lanes, poison elsewhere; without, the first operand's lanes in the run
 * and the second operand's (of n lanes too) elsewhere. */
static LLVMValueRef shuffle_mask(LLVMContextRef c, unsigned n, unsigned first, unsigned k, bool widen)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef lanes[MAX_LANES];
    for (unsigned i = 0; i < n; i++) {
        const bool in_run = i >= first && i < first + k;
        if (widen)
            lanes[i] = in_run ? LLVMConstInt(i32, i - first, false) : LLVMGetPoison(i32);
        else
            lanes[i] = LLVMConstInt(i32, in_run ? i : n + i, false);
    }
    return LLVMConstVector(lanes, n);
}

static void narrow_load(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef call, LLVMTypeRef vt, LLVMTypeRef et,
                        uint64_t esize, unsigned n, unsigned first, unsigned k)
{
    LLVMValueRef ptr = LLVMGetOperand(call, 0);
    unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, 1));
    LLVMValueRef pass = LLVMGetOperand(call, 3);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef at = byte_offset(b, c, ptr, first * esize);
    LLVMTypeRef nt = k == 1 ? et : LLVMVectorType(et, k);
    LLVMValueRef ld = LLVMBuildLoad2(b, nt, at, "narrow.load");
    LLVMSetAlignment(ld, offset_alignment(align, first * esize));
    LLVMValueRef v;
    bool pass_unused = LLVMIsUndef(pass) || LLVMIsPoison(pass);
    if (k == 1) {
        LLVMValueRef lane = LLVMConstInt(LLVMInt32TypeInContext(c), first, false);
        v = LLVMBuildInsertElement(b, pass_unused ? LLVMGetPoison(vt) : pass, ld, lane, "narrow.wide");
    } else {
        LLVMValueRef wide = LLVMBuildShuffleVector(b, ld, LLVMGetPoison(nt), shuffle_mask(c, n, first, k, true),
                                                   "narrow.wide");
        v = pass_unused ? wide
                        : LLVMBuildShuffleVector(b, wide, pass, shuffle_mask(c, n, first, k, false), "narrow.pass");
    }
    LLVMReplaceAllUsesWith(call, v);
    LLVMInstructionEraseFromParent(call);
}

static void narrow_store(LLVMBuilderRef b, LLVMContextRef c, LLVMValueRef call, uint64_t esize, unsigned first,
                         unsigned k)
{
    LLVMValueRef val = LLVMGetOperand(call, 0), ptr = LLVMGetOperand(call, 1);
    unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(call, 2));
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef part;
    if (k == 1) {
        part = LLVMBuildExtractElement(b, val, LLVMConstInt(LLVMInt32TypeInContext(c), first, false), "narrow.lane");
    } else {
        LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
        LLVMValueRef lanes[MAX_LANES];
        for (unsigned i = 0; i < k; i++)
            lanes[i] = LLVMConstInt(i32, first + i, false);
        part = LLVMBuildShuffleVector(b, val, LLVMGetPoison(LLVMTypeOf(val)), LLVMConstVector(lanes, k), "narrow.part");
    }
    LLVMValueRef st = LLVMBuildStore(b, part, byte_offset(b, c, ptr, first * esize));
    LLVMSetAlignment(st, offset_alignment(align, first * esize));
    LLVMInstructionEraseFromParent(call);
}

unsigned weft_narrow_masked_memops(LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    unsigned count = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                enum masked_kind kind = kind_of(i);
                if (kind == NOT_MASKED)
                    continue;
                LLVMValueRef data = kind == MASKED_LOAD ? i : LLVMGetOperand(i, 0);
                LLVMValueRef mask = LLVMGetOperand(i, kind == MASKED_LOAD ? 2 : 3);
                LLVMTypeRef vt = LLVMTypeOf(data);
                if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind)
                    continue;   /* scalable vectors never come from Weft's vectorizer */
                LLVMTypeRef et = LLVMGetElementType(vt);
                unsigned n = LLVMGetVectorSize(vt), first, k;
                unsigned long long bits = LLVMSizeOfTypeInBits(td, et);
                if (bits == 0 || bits % 8 || LLVMABISizeOfType(td, et) * 8 != bits ||
                    !constant_run(mask, n, &first, &k))
                    continue;
                if (kind == MASKED_LOAD)
                    narrow_load(b, c, i, vt, et, bits / 8, n, first, k);
                else
                    narrow_store(b, c, i, bits / 8, first, k);
                count++;
            }
    LLVMDisposeBuilder(b);
    return count;
}
