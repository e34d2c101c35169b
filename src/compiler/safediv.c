/* compiler/safediv.c — see safediv.h. */
#include "compiler/safediv.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "compiler/analysis/cfg.h"
#include "compiler/analysis/dominators.h"
#include "compiler/transform/irutil.h"

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

LLVMValueRef weft_safe_divisor(LLVMModuleRef m, LLVMBuilderRef b, bool is_signed, LLVMValueRef a, LLVMValueRef d)
{
    LLVMTypeRef t = LLVMTypeOf(d);
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    unsigned bits = LLVMGetIntTypeWidth(et);
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
    if (LLVMIsAInstruction(safe))
        LLVMSetValueName2(safe, "div.safe", 8);
    return safe;
}

static void guard(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef div)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(div);
    LLVMPositionBuilderBefore(b, div);
    LLVMSetOperand(div, 1, weft_safe_divisor(m, b, op == LLVMSDiv || op == LLVMSRem, LLVMGetOperand(div, 0),
                                             LLVMGetOperand(div, 1)));
}

/* Whether instruction y comes after instruction x, both dominating one point: in one block, by
 * their order; else y's block is the one dominated. */
static bool comes_after(const struct weft_domtree *dom, LLVMValueRef x, LLVMValueRef y)
{
    LLVMBasicBlockRef bx = LLVMGetInstructionParent(x), by = LLVMGetInstructionParent(y);
    if (bx != by)
        return weft_dom_dominates_block(dom, bx, by);
    for (LLVMValueRef i = LLVMGetNextInstruction(x); i; i = LLVMGetNextInstruction(i))
        if (i == y)
            return true;
    return false;
}

/* The instruction a division of operands a and d may move before: right after the later of
 * their definitions (both dominate the division, so one dominates the other; past a block's
 * phis), or after the entry block's allocas when neither is an instruction. NULL when that
 * point is in the division's own block: nothing to gain. */
static LLVMValueRef hoist_point(const struct weft_domtree *dom, LLVMValueRef div)
{
    LLVMValueRef a = LLVMGetOperand(div, 0), d = LLVMGetOperand(div, 1);
    LLVMValueRef last = LLVMIsAInstruction(a) ? a : NULL;
    if (LLVMIsAInstruction(d) && (!last || comes_after(dom, last, d)))
        last = d;
    LLVMValueRef at;
    if (last) {
        at = LLVMGetNextInstruction(last);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
    } else {
        at = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(div))));
        while (at && LLVMIsAAllocaInst(at))
            at = LLVMGetNextInstruction(at);
    }
    return at && LLVMGetInstructionParent(at) != LLVMGetInstructionParent(div) ? at : NULL;
}

/* Guards (when guard_too) the divisions of f that may trap, each moved first to its operands' definitions
 * (hoist_point): once guarded it cannot trap, so executing it where it did not run before is
 * safe, and it leaves every conditional block. Why: LLVM 19 speculates only divisions by
 * constants, and its loop vectorizer, given a uniform division (grp % n) in a divergent block
 * of a scalar work-item loop, emitted one copy under lane 0's predicate, and the other lanes
 * used its poison as an address (tools/fuzz class A: SIGSEGV in dfo.scalar, lc.scalar,
 * bfo.scalar). A division out of its condition is also one LICM may take out of the loop. */
static unsigned guard_function(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef f, bool guard_too)
{
    unsigned n = 0, cap = 0;
    LLVMValueRef *divs = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            if (!is_division(op) || constant_is_safe(LLVMGetOperand(i, 1), op == LLVMSDiv || op == LLVMSRem))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                divs = realloc(divs, cap * sizeof *divs);
                if (!divs)
                    abort();
            }
            divs[n++] = i;
        }
    if (!n)
        return 0;
    /* Moving instructions changes no block or edge: one CFG and dominator tree serve all. In
     * program order, so a division feeding another has moved before the other is placed. */
    struct weft_cfg *cfg = weft_cfg_build(f);
    struct weft_domtree *dom = cfg ? weft_dom_compute(cfg) : NULL;
    for (unsigned k = 0; k < n; k++) {
        /* (in an unreachable block, dominance says nothing: left where it is) */
        bool reachable = dom && cfg->rpo_index[weft_cfg_index(cfg, LLVMGetInstructionParent(divs[k]))] >= 0;
        LLVMValueRef at = reachable ? hoist_point(dom, divs[k]) : NULL;
        if (at) {
            LLVMPositionBuilderBefore(b, at);
            weft_move_instruction(b, divs[k]);
        }
        if (guard_too)
            guard(m, b, divs[k]);
    }
    weft_dom_free(dom);
    weft_cfg_free(cfg);
    free(divs);
    return n;
}

unsigned weft_guard_divisions(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            n += guard_function(m, b, f, true);
    LLVMDisposeBuilder(b);
    return n;
}

unsigned weft_hoist_divisions(LLVMValueRef fn)
{
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = LLVMIsDeclaration(fn) ? 0 : guard_function(m, b, fn, false);
    LLVMDisposeBuilder(b);
    return n;
}
