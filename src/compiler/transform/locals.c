/* compiler/transform/locals.c — lays out the kernel's __local variables in the worker's arena,
 * and moves program-scope variables to the program's global-variable block.
 *
 * Assumes: barriers are canonical (the entry block holds the allocas and ends in a branch);
 * __local variables are addrspace(3) globals used only by this kernel.
 * Guarantees: every use in the work function of such a global (directly or inside constant
 * expressions) is replaced by `ctx->local_mem + offset` (address-space cast back to the
 * global's pointer type), computed once in the entry block; offsets follow first use, each
 * aligned to the variable's alignment; wf->static_local_size is the total, rounded up to
 * WEFT_LOCAL_ALIGN so __local arguments can follow it. Likewise every use of a program-scope
 * variable (a member of compiler/globals.h's layout) becomes `ctx->program_globals + offset`
 * at the offset that layout gives, so that all variants of all kernels of a program share
 * the one storage the runtime passes (see globals.h for why it is not a symbol). The globals
 * themselves stay (the original kernel still refers to them).
 */
#include "compiler/globals.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/passes.h"
#include "weft/abi.h"

#include <llvm-c/Target.h>

struct locals_state {
    struct weft_workfn *wf;
    struct weft_vmap repl;      /* global or constant expression -> replacement instruction */
    LLVMBuilderRef entry_b;     /* positioned before the entry block's terminator */
    LLVMValueRef base;          /* ctx->local_mem */
    uint64_t offset;
    struct weft_globals_layout program;   /* program-scope variables */
    LLVMValueRef program_base;  /* ctx->program_globals */
    struct weft_diag *diag;
    bool failed;
};

static bool is_local_global(LLVMValueRef v)
{
    return LLVMIsAGlobalVariable(v) && LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == 3;
}

/* A __local variable or a program-scope variable: a global this pass replaces. */
static bool is_moved_global(const struct locals_state *st, LLVMValueRef v)
{
    return is_local_global(v) || (LLVMIsAGlobalVariable(v) && weft_globals_offset_of(&st->program, v) >= 0);
}

static LLVMValueRef global_replacement(struct locals_state *st, LLVMValueRef g)
{
    LLVMValueRef r = weft_vmap_get(&st->repl, g);
    if (r)
        return r;
    struct weft_workfn *wf = st->wf;
    size_t n = 0;
    const char *name = LLVMGetValueName2(g, &n);
    if (!is_local_global(g)) {
        if (!st->program_base)
            st->program_base = weft_ctx_load(st->entry_b, wf, WEFT_CTX_FIELD_PROGRAM_GLOBALS, NULL);
        LLVMValueRef off = weft_i64(wf->c, (uint64_t)weft_globals_offset_of(&st->program, g));
        LLVMValueRef p = LLVMBuildInBoundsGEP2(st->entry_b, LLVMInt8TypeInContext(wf->c), st->program_base,
                                               &off, 1, name);
        if (LLVMTypeOf(p) != LLVMTypeOf(g))
            p = LLVMBuildAddrSpaceCast(st->entry_b, p, LLVMTypeOf(g), "");
        weft_vmap_put(&st->repl, g, p);
        return p;
    }
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(wf->m);
    LLVMTypeRef vt = LLVMGlobalGetValueType(g);
    uint64_t size = LLVMABISizeOfType(td, vt);
    uint64_t align = LLVMGetAlignment(g);
    if (!align)
        align = LLVMABIAlignmentOfType(td, vt);
    st->offset = weft_round_up(st->offset, align);
    if (!st->base)
        st->base = weft_ctx_load(st->entry_b, wf, WEFT_CTX_FIELD_LOCAL_MEM, NULL);
    LLVMValueRef off = weft_i64(wf->c, st->offset);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(st->entry_b, LLVMInt8TypeInContext(wf->c), st->base, &off, 1, name);
    if (LLVMTypeOf(p) != LLVMTypeOf(g))
        p = LLVMBuildAddrSpaceCast(st->entry_b, p, LLVMTypeOf(g), "");
    st->offset += size;
    weft_vmap_put(&st->repl, g, p);
    return p;
}

/* Does constant `c` mention a global this pass replaces? */
static bool mentions_local(const struct locals_state *st, LLVMValueRef c, int depth)
{
    if (is_moved_global(st, c))
        return true;
    if (!LLVMIsAConstantExpr(c) || depth > 16)
        return false;
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (mentions_local(st, LLVMGetOperand(c, (unsigned)i), depth + 1))
            return true;
    return false;
}

/* An instruction (built at `b`) computing constant `c` with __local globals replaced. */
static LLVMValueRef materialize(struct locals_state *st, LLVMBuilderRef b, LLVMValueRef c)
{
    if (is_moved_global(st, c))
        return global_replacement(st, c);
    if (!LLVMIsAConstantExpr(c) || !mentions_local(st, c, 0))
        return c;
    int n = LLVMGetNumOperands(c);
    LLVMValueRef ops[16];
    if (n > 16) {
        st->failed = true;
        weft_diag_error(st->diag, "__local variable used in a constant expression too large to rewrite");
        return c;
    }
    for (int i = 0; i < n; i++)
        ops[i] = materialize(st, b, LLVMGetOperand(c, (unsigned)i));
    switch (LLVMGetConstOpcode(c)) {
    case LLVMGetElementPtr: {
        LLVMTypeRef st_ty = LLVMGetGEPSourceElementType(c);
        return LLVMIsInBounds(c) ? LLVMBuildInBoundsGEP2(b, st_ty, ops[0], ops + 1, (unsigned)n - 1, "")
                                 : LLVMBuildGEP2(b, st_ty, ops[0], ops + 1, (unsigned)n - 1, "");
    }
    case LLVMAddrSpaceCast: return LLVMBuildAddrSpaceCast(b, ops[0], LLVMTypeOf(c), "");
    case LLVMBitCast: return LLVMBuildBitCast(b, ops[0], LLVMTypeOf(c), "");
    case LLVMPtrToInt: return LLVMBuildPtrToInt(b, ops[0], LLVMTypeOf(c), "");
    case LLVMIntToPtr: return LLVMBuildIntToPtr(b, ops[0], LLVMTypeOf(c), "");
    case LLVMAdd: return LLVMBuildAdd(b, ops[0], ops[1], "");
    case LLVMSub: return LLVMBuildSub(b, ops[0], ops[1], "");
    default:
        st->failed = true;
        weft_diag_error(st->diag, "__local variable used in an unsupported constant expression (opcode %d)",
                        (int)LLVMGetConstOpcode(c));
        return c;
    }
}

bool weft_locals_layout(struct weft_workfn *wf, struct weft_diag *diag)
{
    struct locals_state st = {.wf = wf, .diag = diag};
    if (!weft_globals_layout_compute(wf->m, &st.program, diag))
        return false;
    weft_vmap_init(&st.repl);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(wf->fn);
    st.entry_b = LLVMCreateBuilderInContext(wf->c);
    LLVMPositionBuilderBefore(st.entry_b, LLVMGetBasicBlockTerminator(entry));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);

    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int n = LLVMGetNumOperands(i);
            for (int k = 0; k < n; k++) {
                LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
                if (!op || !LLVMIsAConstant(op) || !mentions_local(&st, op, 0))
                    continue;
                if (LLVMIsAPHINode(i)) {
                    /* an instruction cannot go before a PHI: compute in the incoming block */
                    LLVMBasicBlockRef from = LLVMGetIncomingBlock(i, (unsigned)k);
                    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
                } else {
                    LLVMPositionBuilderBefore(b, i);
                }
                LLVMSetOperand(i, (unsigned)k, materialize(&st, b, op));
            }
        }
    wf->static_local_size = st.offset ? weft_round_up(st.offset, WEFT_LOCAL_ALIGN) : 0;
    LLVMDisposeBuilder(b);
    LLVMDisposeBuilder(st.entry_b);
    weft_vmap_free(&st.repl);
    weft_globals_layout_free(&st.program);
    return !st.failed;
}
