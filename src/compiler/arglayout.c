/* compiler/arglayout.c — computes the packed argument block layout of weft/abi.h for a kernel.
 *
 * Guarantees: every parameter gets a kind, an 8-aligned offset and its host-visible size, or
 * the function fails naming the first argument that cannot be passed. Pure: the module is
 * only read.
 */
#include "compiler/arglayout.h"

#include <stdlib.h>
#include <string.h>

/* Reads the operands of a function-level metadata node `name` (e.g. kernel_arg_addr_space)
 * as values; NULL when absent. *n receives the operand count. Caller frees. */
static LLVMValueRef *kernel_md_operands(LLVMValueRef fn, const char *name, unsigned *n)
{
    *n = 0;
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    unsigned kind = LLVMGetMDKindIDInContext(ctx, name, (unsigned)strlen(name));
    size_t count = 0;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &count);
    LLVMValueRef *ops = NULL;
    for (size_t i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != kind)
            continue;
        LLVMValueRef node = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
        unsigned k = LLVMGetMDNodeNumOperands(node);
        ops = calloc(k ? k : 1, sizeof *ops);
        if (ops) {
            LLVMGetMDNodeOperands(node, ops);
            *n = k;
        }
        break;
    }
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return ops;
}

/* OpenCL C types that the packed block cannot carry (this implementation has no pipes or
 * device-side enqueue). Images travel as global pointers (to their descriptor) and samplers
 * as their bits in a pointer-sized slot (weft/abi.h). */
static bool type_name_unsupported(const char *t)
{
    static const char *const bad[] = {"queue_t", "clk_event_t", "event_t",
                                      "reserve_id_t", "pipe"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (strncmp(t, bad[i], strlen(bad[i])) == 0)
            return true;
    return false;
}

static const char *arg_type_name(LLVMValueRef *types, unsigned ntypes, unsigned i)
{
    if (!types || i >= ntypes || !types[i] || !LLVMIsAMDString(types[i]))
        return NULL;
    unsigned len = 0;
    return LLVMGetMDString(types[i], &len);
}

bool weft_arglayout_compute(LLVMValueRef kernel, struct weft_arg_layout *out, struct weft_diag *diag)
{
    memset(out, 0, sizeof *out);
    size_t name_len = 0;
    const char *kname = LLVMGetValueName2(kernel, &name_len);
    LLVMModuleRef m = LLVMGetGlobalParent(kernel);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);

    unsigned n = LLVMCountParams(kernel);
    unsigned nas = 0, ntypes = 0;
    LLVMValueRef *as_md = kernel_md_operands(kernel, "kernel_arg_addr_space", &nas);
    LLVMValueRef *type_md = kernel_md_operands(kernel, "kernel_arg_type", &ntypes);
    bool ok = true;

    out->args = calloc(n ? n : 1, sizeof *out->args);
    if (!out->args) {
        weft_diag_error(diag, "kernel %s: out of memory laying out arguments", kname);
        ok = false;
        goto done;
    }
    out->count = n;

    uint64_t offset = 0;
    for (unsigned i = 0; i < n && ok; i++) {
        struct weft_arg_slot *a = &out->args[i];
        LLVMValueRef p = LLVMGetParam(kernel, i);
        LLVMTypeRef ty = LLVMTypeOf(p);
        const char *tname = arg_type_name(type_md, ntypes, i);
        a->type = ty;

        if (tname && type_name_unsupported(tname)) {
            weft_diag_error(diag, "kernel %s: argument %u has type %s, which Weft cannot pass to a kernel",
                            kname, i, tname);
            ok = false;
            break;
        }

        int as = -1;
        if (as_md && i < nas && as_md[i] && LLVMIsAConstantInt(as_md[i]))
            as = (int)LLVMConstIntGetZExtValue(as_md[i]);
        bool is_ptr = LLVMGetTypeKind(ty) == LLVMPointerTypeKind;
        LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(kernel, i + 1, byval_kind);
        if (as < 0)   /* no metadata: the pointer's own address space tells (fake map numbering) */
            as = is_ptr && !byval ? (int)LLVMGetPointerAddressSpace(ty) : 0;

        switch (as) {
        case 1: a->kind = WEFT_ARG_GLOBAL_PTR; break;
        case 2: a->kind = WEFT_ARG_CONSTANT_PTR; break;
        case 3: a->kind = WEFT_ARG_LOCAL_PTR; break;
        case 0: a->kind = WEFT_ARG_BY_VALUE; break;
        default:
            weft_diag_error(diag, "kernel %s: argument %u is in address space %d, which a kernel argument cannot be",
                            kname, i, as);
            ok = false;
            continue;
        }

        if (a->kind != WEFT_ARG_BY_VALUE) {
            if (!is_ptr) {
                weft_diag_error(diag, "kernel %s: argument %u is declared in address space %d but is not a pointer",
                                kname, i, as);
                ok = false;
                continue;
            }
            a->size = 8;
        } else if (byval) {
            a->byval_type = LLVMGetTypeAttributeValue(byval);
            LLVMAttributeRef al = LLVMGetEnumAttributeAtIndex(kernel, i + 1, align_kind);
            a->byval_align = al ? (unsigned)LLVMGetEnumAttributeValue(al)
                                : LLVMABIAlignmentOfType(td, LLVMGetTypeAttributeValue(byval));
            if (!a->byval_type || !LLVMTypeIsSized(a->byval_type)) {
                weft_diag_error(diag, "kernel %s: argument %u is passed by value with an unsized type", kname, i);
                ok = false;
                continue;
            }
            a->size = LLVMABISizeOfType(td, a->byval_type);
        } else if (is_ptr && tname && !strcmp(tname, "sampler_t")) {
            /* a sampler: its bits in a pointer-sized slot (weft/abi.h) */
            a->size = 8;
        } else if (is_ptr) {
            /* a private pointer (or an opaque type clang lowers to one): nothing the host can give */
            weft_diag_error(diag, "kernel %s: argument %u%s%s is a pointer to private memory, which cannot be a kernel argument",
                            kname, i, tname ? " of type " : "", tname ? tname : "");
            ok = false;
            continue;
        } else {
            if (!LLVMTypeIsSized(ty)) {
                weft_diag_error(diag, "kernel %s: argument %u has an unsized type", kname, i);
                ok = false;
                continue;
            }
            /* alloc size: a 3-component vector takes 4 components, like OpenCL C sizeof */
            a->size = LLVMABISizeOfType(td, ty);
        }
        a->offset = offset;
        offset += weft_arglayout_slot_bytes(a->size);
    }
    out->total_size = offset;

done:
    free(as_md);
    free(type_md);
    if (!ok)
        weft_arglayout_free(out);
    return ok;
}

void weft_arglayout_free(struct weft_arg_layout *layout)
{
    free(layout->args);
    memset(layout, 0, sizeof *layout);
}
