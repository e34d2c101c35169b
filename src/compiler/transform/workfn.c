/* compiler/transform/workfn.c — creates the work function weft_wi_<kernel> that the later passes
 * transform: one work-group of the kernel, with ctx and the group ids as extra parameters.
 *
 * Guarantees: the new function has the kernel's parameters (byval structs become plain
 * pointers to a copy the caller owns; the inliner makes per-call copies where the kernel
 * writes them), then `ptr ctx, i64 gx, i64 gy, i64 gz`; its body is the kernel with every call
 * of a defined function inlined, so all barriers are in it. It carries no debug variable
 * records (#dbg_value and the like; see drop_debug_records), only the instructions' !dbg source
 * locations, and no loop that only counts to its end (deadloops.c). The kernel itself is not
 * changed.
 */
#include "compiler/transform/passes.h"
#include "compiler/transform/irutil.h"
#include "weft/abi.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LLVMTypeRef weft_ctx_type(LLVMContextRef c)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef a3 = LLVMArrayType2(i64, 3);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    /* weft/abi.h fields 0 .. WEFT_CTX_FIELD_COUNT-1, in order */
    LLVMTypeRef f[WEFT_CTX_FIELD_COUNT] = {i64, a3, a3, a3, a3, ptr, ptr, ptr, a3, a3, a3, a3,
                                         ptr, i64, i64, ptr, ptr};
    return LLVMStructTypeInContext(c, f, WEFT_CTX_FIELD_COUNT, 0);
}

LLVMValueRef weft_ctx_load(LLVMBuilderRef b, const struct weft_workfn *wf, unsigned field, LLVMValueRef idx)
{
    LLVMValueRef ctx = weft_workfn_ctx(wf);
    LLVMValueRef p = LLVMBuildStructGEP2(b, wf->ctx_type, ctx, field, "");
    LLVMTypeRef i64 = LLVMInt64TypeInContext(wf->c);
    LLVMTypeRef elem = LLVMStructGetTypeAtIndex(wf->ctx_type, field);
    if (LLVMGetTypeKind(elem) == LLVMArrayTypeKind) {
        LLVMValueRef ix[] = {weft_i64(wf->c, 0), idx};
        p = LLVMBuildInBoundsGEP2(b, elem, p, ix, 2, "");
        elem = i64;
    }
    LLVMValueRef v = LLVMBuildLoad2(b, elem, p, "");
    LLVMSetAlignment(v, 8);
    /* the context never changes during a launch: lets LICM/GVN hoist these loads */
    unsigned k = LLVMGetMDKindIDInContext(wf->c, "invariant.load", 14);
    LLVMSetMetadata(v, k, LLVMMetadataAsValue(wf->c, LLVMMDNodeInContext2(wf->c, NULL, 0)));
    return v;
}

static bool run_always_inline(LLVMModuleRef m, struct weft_diag *diag)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "always-inline", NULL, o);
    LLVMDisposePassBuilderOptions(o);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        weft_diag_error(diag, "inlining failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return false;
    }
    return true;
}

/* What `f`'s call graph reaches: REACHES_WI (a work-item function or barrier), REACHES_SELF
 * (`self` again: recursion). */
enum { REACHES_WI = 1, REACHES_SELF = 2 };

static int call_graph_reaches(LLVMValueRef f, LLVMValueRef self, struct weft_ptrmap *visited)
{
    if (!weft_ptrmap_put(visited, f, 1))
        return 0;   /* already visited (its findings are reported by the first visit) */
    int r = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            if (weft_wi_call_kind(i) != WEFT_WI_NONE) {
                r |= REACHES_WI;
                continue;
            }
            LLVMValueRef callee = LLVMGetCalledValue(i);
            if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                continue;
            if (callee == self)
                r |= REACHES_SELF;
            else
                r |= call_graph_reaches(callee, self, visited);
        }
    return r;
}

bool weft_inline_all_calls(LLVMModuleRef m, LLVMValueRef fn, struct weft_diag *diag)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
    /* calls the inliner refused that may stay calls: they reach no barrier and no work-item
     * function, and are not recursive (e.g. a varargs helper) */
    struct weft_ptrmap left;
    weft_ptrmap_init(&left);
    bool ok = true;
    /* each round inlines one more level of the call tree */
    for (int round = 0; ok; round++) {
        if (round == 64) {
            size_t n = 0;
            weft_diag_error(diag, "%s: calls nest too deeply to inline (recursion?)", LLVMGetValueName2(fn, &n));
            ok = false;
            break;
        }
        bool any = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i) || weft_ptrmap_has(&left, i))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                    continue;
                LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, ni);
                LLVMAddCallSiteAttribute(i, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ai, 0));
                any = true;
            }
        if (!any)
            break;
        if (!run_always_inline(m, diag)) {
            ok = false;
            break;
        }
        /* a call still marked always-inline was refused by the inliner */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && ok; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && ok; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i) || !LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, ai))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                size_t n = 0;
                const char *cn = LLVMGetValueName2(callee, &n);
                struct weft_ptrmap visited;
                weft_ptrmap_init(&visited);
                int r = call_graph_reaches(callee, callee, &visited);
                weft_ptrmap_free(&visited);
                if (r & REACHES_SELF) {
                    weft_diag_error(diag, "function %.*s is recursive: recursion is not allowed in OpenCL C", (int)n, cn);
                    ok = false;
                } else if (r & REACHES_WI) {
                    weft_diag_error(diag, "function %.*s uses barriers or work-item functions but cannot be inlined",
                                    (int)n, cn);
                    ok = false;
                } else {
                    LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, ai);
                    weft_ptrmap_put(&left, i, 1);
                }
            }
    }
    weft_ptrmap_free(&left);
    return ok;
}

/* The debug intrinsics of LLVM's old debug-info format, each the form of one kind of record. */
static const char *const dbg_intrinsics[] = {"llvm.dbg.value", "llvm.dbg.declare", "llvm.dbg.assign",
                                             "llvm.dbg.label"};
#define NUM_DBG_INTRINSICS (sizeof dbg_intrinsics / sizeof dbg_intrinsics[0])

/* Removes the debug variable records (#dbg_value, #dbg_declare, #dbg_assign, #dbg_label) of
 * `fn`; its instructions keep their !dbg locations. The later passes move, clone and delete
 * instructions and whole blocks through LLVM-C, which cannot move or delete a record: a clone
 * has none, and the records in front of an erased terminator become "trailing" records of the
 * block, held by the LLVMContext in a table keyed by the block's address that deleting the
 * block does not clear. A block allocated later at the same address (the loop header of the ABI
 * wrapper, say) inherited them, and the work-group function failed verification ("PHI Node
 * must not have any attached DbgRecords") depending on where malloc happened to put it. The
 * work-group function never kept variable locations anyway (clones have none): dropping them
 * here loses nothing and leaves no record to strand. LLVM-C 19 reaches records only as the
 * intrinsic calls of the old format: the module is converted to it and back. */
static void drop_debug_records(LLVMModuleRef m, LLVMValueRef fn)
{
    if (!LLVMGetModuleDebugMetadataVersion(m))
        return;   /* built without -g */
    bool declared[NUM_DBG_INTRINSICS];
    for (size_t k = 0; k < NUM_DBG_INTRINSICS; k++)
        declared[k] = LLVMGetNamedFunction(m, dbg_intrinsics[k]) != NULL;
    LLVMBool records = LLVMIsNewDbgInfoFormat(m);
    if (records)
        LLVMSetIsNewDbgInfoFormat(m, 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
            size_t n = 0;
            const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : "";
            if (n > 9 && memcmp(name, "llvm.dbg.", 9) == 0)
                LLVMInstructionEraseFromParent(i);
            i = next;
        }
    if (records)
        LLVMSetIsNewDbgInfoFormat(m, 1);
    /* the declarations the conversion added (records do not call them) */
    for (size_t k = 0; k < NUM_DBG_INTRINSICS; k++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, dbg_intrinsics[k]);
        if (f && !declared[k] && !LLVMGetFirstUse(f))
            LLVMDeleteFunction(f);
    }
}

bool weft_workfn_create(struct weft_workfn *wf, LLVMModuleRef m, LLVMValueRef kernel,
                        const uint64_t local_size[3], struct weft_diag *diag)
{
    memset(wf, 0, sizeof *wf);
    wf->m = m;
    wf->c = LLVMGetModuleContext(m);
    wf->kernel = kernel;
    wf->ctx_type = weft_ctx_type(wf->c);
    for (int d = 0; d < 3; d++)
        wf->local_size[d] = local_size[d] ? local_size[d] : 1;

    size_t klen = 0;
    const char *kname = LLVMGetValueName2(kernel, &klen);
    if (LLVMIsDeclaration(kernel)) {
        weft_diag_error(diag, "kernel %.*s has no body", (int)klen, kname);
        return false;
    }
    LLVMTypeRef kty = LLVMGlobalGetValueType(kernel);
    if (LLVMGetTypeKind(LLVMGetReturnType(kty)) != LLVMVoidTypeKind) {
        weft_diag_error(diag, "kernel %.*s does not return void", (int)klen, kname);
        return false;
    }
    unsigned n = LLVMCountParamTypes(kty);
    wf->nparams = n;
    LLVMTypeRef *pt = calloc(n + 4, sizeof *pt);
    if (!pt) {
        weft_diag_error(diag, "out of memory");
        return false;
    }
    LLVMGetParamTypes(kty, pt);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(wf->c);
    pt[n] = LLVMPointerTypeInContext(wf->c, 0);
    pt[n + 1] = pt[n + 2] = pt[n + 3] = i64;
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(wf->c), pt, n + 4, 0);
    free(pt);

    char *name = malloc(klen + 16);
    if (!name) {
        weft_diag_error(diag, "out of memory");
        return false;
    }
    snprintf(name, klen + 16, "weft_wi_%.*s", (int)klen, kname);
    wf->fn = LLVMAddFunction(m, name, fty);
    free(name);
    LLVMSetLinkage(wf->fn, LLVMInternalLinkage);
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(wf->fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(wf->c, nounwind, 0));
    LLVMSetValueName2(weft_workfn_ctx(wf), "ctx", 3);
    static const char *const gnames[] = {"group.x", "group.y", "group.z"};
    for (unsigned d = 0; d < 3; d++)
        LLVMSetValueName2(weft_workfn_group_id(wf, d), gnames[d], strlen(gnames[d]));

    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(wf->c, wf->fn, "entry");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(wf->c);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef *args = calloc(n ? n : 1, sizeof *args);
    if (!args) {
        LLVMDisposeBuilder(b);
        weft_diag_error(diag, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < n; i++)
        args[i] = LLVMGetParam(wf->fn, i);
    LLVMValueRef call = LLVMBuildCall2(b, kty, kernel, args, n, "");
    free(args);
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(kernel));
    /* byval stays byval at the call, so the inliner gives each call its own copy if needed */
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < n; i++) {
        LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(kernel, i + 1, byval);
        if (a)
            LLVMAddCallSiteAttribute(call, i + 1, LLVMCreateTypeAttribute(wf->c, byval, LLVMGetTypeAttributeValue(a)));
    }
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);

    if (!weft_inline_all_calls(m, wf->fn, diag))
        return false;
    drop_debug_records(m, wf->fn);
    /* what LLVM's optimizer would delete from the scalar work-item loops must not survive into
     * the vectorizer's linearized loops, where LLVM cannot see that it ends (deadloops.c) */
    weft_delete_dead_loops(wf->fn);
    return true;
}

void weft_workfn_dispose(struct weft_workfn *wf)
{
    weft_subcfgs_free(&wf->subcfgs);
    free(wf->commits);
    wf->commits = NULL;
    wf->ncommits = 0;
    size_t it = 0;
    const void *k;
    uintptr_t v;
    while (weft_ptrmap_next(&wf->slot_info, &it, &k, &v))
        free((void *)v);
    weft_ptrmap_free(&wf->slot_info);
    weft_ptrmap_free(&wf->demoted);
}
