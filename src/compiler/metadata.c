/* compiler/metadata.c — per-kernel facts from a linked module.
 *
 * Guarantees: for every kernel (spir_kernel definition, in module order) the name, the
 * arguments (address/access/type qualifiers and type names from clang's !kernel_arg_*
 * metadata; names only when built with -cl-kernel-arg-info; kind, size and packed offset
 * from compiler/arglayout, the single definition of the argument block), the attributes
 * string as written in the source, reqd_work_group_size and work_group_size_hint, the bytes
 * of static __local variables the kernel uses, an estimate of its private memory, and whether
 * its work-groups must be uniform (clang's "uniform-work-group-size"="true": OpenCL C 1.x, or
 * -cl-uniform-work-group-size), and its global memory accesses as affine relations
 * (analysis/access.h). Reads only; a kernel whose arguments cannot be passed fails with
 * arglayout's message.
 */
#include "compiler/metadata.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/arglayout.h"
#include "compiler/printf.h"
#include "compiler/transform/irutil.h"
#include "compiler/transform/subgroup.h"

bool weft_is_kernel(LLVMValueRef fn)
{
    return fn && !LLVMIsDeclaration(fn) && LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv;
}

/* The node of metadata `kind` attached to fn, as a value; NULL when absent. */
static LLVMValueRef fn_md(LLVMValueRef fn, const char *kind)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
    size_t count = 0;
    LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(fn, &count);
    LLVMValueRef node = NULL;
    for (size_t i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) == id) {
            node = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i));
            break;
        }
    }
    if (e)
        LLVMDisposeValueMetadataEntries(e);
    return node;
}

static LLVMValueRef md_operand(LLVMValueRef node, unsigned i)
{
    if (!node)
        return NULL;
    unsigned n = LLVMGetMDNodeNumOperands(node);
    if (i >= n)
        return NULL;
    LLVMValueRef ops[n];
    LLVMGetMDNodeOperands(node, ops);
    return ops[i];
}

const char *weft_metadata_string(LLVMValueRef fn, const char *kind, unsigned i, size_t *len)
{
    LLVMValueRef op = md_operand(fn_md(fn, kind), i);
    if (!op || !LLVMIsAMDString(op))
        return NULL;
    unsigned l = 0;
    const char *s = LLVMGetMDString(op, &l);
    if (len)
        *len = l;
    return s;
}

static bool md_int(LLVMValueRef node, unsigned i, uint64_t *v)
{
    LLVMValueRef op = md_operand(node, i);
    if (!op || !LLVMIsAConstantInt(op))
        return false;
    *v = LLVMConstIntGetZExtValue(op);
    return true;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Does `v` (a use of a global) end up in function `fn`? Follows constant expressions. */
static bool used_in(LLVMValueRef v, LLVMValueRef fn, int depth)
{
    if (depth > 8)
        return true;   /* be conservative */
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user)) {
            if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) == fn)
                return true;
        } else if (LLVMIsAConstant(user)) {
            if (used_in(user, fn, depth + 1))
                return true;
        }
    }
    return false;
}

static size_t static_local_bytes(LLVMModuleRef m, LLVMValueRef fn, LLVMTargetDataRef td)
{
    size_t total = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 3)
            continue;
        if (!used_in(g, fn, 0))
            continue;
        LLVMTypeRef t = LLVMGlobalGetValueType(g);
        size_t align = LLVMGetAlignment(g);
        if (align < 16)
            align = 16;
        total = (size_t)weft_round_up(total, align) + (size_t)LLVMABISizeOfType(td, t);
    }
    return total;
}

/* Instructions of fn, one of a vector type counted once per element (a work-item's uint16 is
 * 16 registers' work once vectorized across work-items), with every call of a function
 * defined in the module counted as that function's own (as if inlined; the optimizer inlines
 * most), `depth` calls deep at most. */
static size_t instruction_count(LLVMValueRef fn, int depth)
{
    size_t n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMTypeRef t = LLVMTypeOf(i);
            n += LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
            LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
            if (depth > 0 && callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee))
                n += instruction_count(callee, depth - 1);
        }
    return n;
}

static bool calls_printf(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(i);
            size_t n = 0;
            if (callee && LLVMIsAFunction(callee) && !strcmp(LLVMGetValueName2(callee, &n), WEFT_PRINTF_HOOK))
                return true;
        }
    return false;
}

/* Whether work-items of the kernel (everything inlined) can see each other's effects in ways
 * that depend on the order they run in: atomics (a returned old value, a counter's slots) or
 * program-scope variables it writes (one storage for every launch). WEFT_VERIFY runs a
 * sample of groups with two variants and compares what they wrote: only kernels without
 * these give the same bytes whatever the order. */
static bool has_order_effects(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMIsAInstruction(i) ? LLVMGetInstructionOpcode(i) : LLVMRet;
            if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
                return true;
            if (LLVMIsAStoreInst(i)) {
                LLVMValueRef base = LLVMGetOperand(i, 1);   /* the address */
                while (base && (LLVMIsAGetElementPtrInst(base) || LLVMIsABitCastInst(base) ||
                                (LLVMIsAConstantExpr(base) && LLVMGetNumOperands(base) > 0)))
                    base = LLVMGetOperand(base, 0);
                if (base && LLVMIsAGlobalVariable(base) &&
                    LLVMGetPointerAddressSpace(LLVMTypeOf(base)) != 3)
                    return true;
            }
        }
    return false;
}

/* Whether `addr` (a store's address) may point somewhere no argument, private or program-scope
 * variable leads to: the value it derives from (through GEPs, casts, selects and phis) is a
 * pointer loaded from memory, one made from an integer, or anything else that is not an
 * argument, an alloca, a global or a constant. Conservative: a walk that grows too long answers
 * yes. */
static bool from_loaded_pointer(LLVMValueRef addr)
{
    enum { MAX = 64 };
    LLVMValueRef seen[MAX], work[MAX];
    unsigned nseen = 0, nwork = 0;
    work[nwork++] = addr;
    while (nwork) {
        LLVMValueRef v = work[--nwork];
        bool known = false;
        for (unsigned i = 0; i < nseen && !known; i++)
            known = seen[i] == v;
        if (known)
            continue;
        if (nseen == MAX)
            return true;
        seen[nseen++] = v;
        if (LLVMIsAArgument(v) || LLVMIsAAllocaInst(v) || LLVMIsAGlobalVariable(v) ||
            LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
            continue;
        unsigned from = 0, to = 0;   /* the operands the pointer comes from */
        if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v) ||
            (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) != LLVMIntToPtr && LLVMGetNumOperands(v) > 0))
            to = 1;
        else if (LLVMIsASelectInst(v))
            from = 1, to = 3;
        else if (LLVMIsAPHINode(v))
            to = LLVMCountIncoming(v);
        else
            return true;   /* a load, inttoptr, call result, ... */
        for (unsigned i = from; i < to; i++) {
            if (nwork == MAX)
                return true;
            work[nwork++] = LLVMIsAPHINode(v) ? LLVMGetIncomingValue(v, i) : LLVMGetOperand(v, i);
        }
    }
    return false;
}

/* Whether the kernel (everything inlined) writes global memory through a pointer it did not get
 * from an argument (from_loaded_pointer): with shared virtual memory, a pointer stored in a
 * buffer (a linked list's nodes, a table of pointers) reaches memory that no argument names and
 * that the runtime therefore cannot snapshot; WEFT_VERIFY skips such kernels. */
static bool has_indirect_stores(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef addr = NULL;
            if (LLVMIsAStoreInst(i)) {
                addr = LLVMGetOperand(i, 1);
            } else if (LLVMIsACallInst(i)) {
                LLVMValueRef callee = LLVMGetCalledValue(i);
                size_t n = 0;
                const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : "";
                if (!strncmp(name, "llvm.memcpy", 11) || !strncmp(name, "llvm.memmove", 12) ||
                    !strncmp(name, "llvm.memset", 11))
                    addr = LLVMGetOperand(i, 0);
            }
            if (!addr || LLVMGetTypeKind(LLVMTypeOf(addr)) != LLVMPointerTypeKind)
                continue;
            unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(addr));
            if (as == 0 || as == 3)
                continue;   /* private or __local: never another allocation's memory */
            if (from_loaded_pointer(addr))
                return true;
        }
    return false;
}

/* Whether the kernel (everything inlined) observes its work-group: a work-item function that
 * depends on the local size or the group (get_local_id, get_group_id, get_local_size,
 * get_enqueued_local_size, get_num_groups, get_local_linear_id), a barrier (work-group
 * collectives and async copies are built on them), or __local memory (an argument or a
 * variable). get_global_id and the other global-space functions do not. A new builtin that
 * reveals the work-group (sub-groups) must be counted here. */
bool weft_observes_work_group(LLVMModuleRef m, LLVMValueRef fn)
{
    for (unsigned i = 0; i < LLVMCountParams(fn); i++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
        if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 3)
            return true;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && used_in(g, fn, 0))
            return true;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            switch (weft_wi_call_kind(i)) {
            case WEFT_WI_LOCAL_ID:
            case WEFT_WI_GROUP_ID:
            case WEFT_WI_LOCAL_SIZE:
            case WEFT_WI_ENQUEUED_LOCAL_SIZE:
            case WEFT_WI_NUM_GROUPS:
            case WEFT_WI_LOCAL_LINEAR_ID:
            case WEFT_WI_BARRIER:
                return true;
            default:
                break;
            }
            LLVMValueRef callee = LLVMGetCalledValue(i);
            size_t n = 0;
            const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n) : NULL;
            if (!name || strstr(name, "sub_group") || strstr(name, "work_group"))
                return true;   /* an indirect call, or a collective the library left as a call */
        }
    return false;
}

/* Bytes of allocas in fn (a private-memory estimate per work-item; after inlining). */
static size_t private_bytes(LLVMValueRef fn, LLVMTargetDataRef td)
{
    size_t total = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsAAllocaInst(i))
                total += (size_t)LLVMABISizeOfType(td, LLVMGetAllocatedType(i));
    return total;
}

static void append(char **s, size_t *len, const char *text)
{
    size_t n = strlen(text);
    char *t = realloc(*s, *len + n + 2);
    if (!t)
        return;
    if (*len)
        t[(*len)++] = ' ';
    memcpy(t + *len, text, n + 1);
    *len += n;
    *s = t;
}

/* CL_KERNEL_ATTRIBUTES: the attributes as written (clang keeps them as metadata). */
static char *attributes_string(LLVMValueRef fn, struct weft_kernel_meta *k)
{
    char *s = calloc(1, 1);
    size_t len = 0;
    char buf[256];
    LLVMValueRef n;
    uint64_t x, y, z;
    if ((n = fn_md(fn, "reqd_work_group_size")) && md_int(n, 0, &x) && md_int(n, 1, &y) &&
        md_int(n, 2, &z)) {
        k->reqd_work_group_size[0] = x;
        k->reqd_work_group_size[1] = y;
        k->reqd_work_group_size[2] = z;
        snprintf(buf, sizeof buf, "reqd_work_group_size(%llu,%llu,%llu)", (unsigned long long)x,
                 (unsigned long long)y, (unsigned long long)z);
        append(&s, &len, buf);
    }
    if ((n = fn_md(fn, "work_group_size_hint")) && md_int(n, 0, &x) && md_int(n, 1, &y) &&
        md_int(n, 2, &z)) {
        k->work_group_size_hint[0] = x;
        k->work_group_size_hint[1] = y;
        k->work_group_size_hint[2] = z;
        snprintf(buf, sizeof buf, "work_group_size_hint(%llu,%llu,%llu)", (unsigned long long)x,
                 (unsigned long long)y, (unsigned long long)z);
        append(&s, &len, buf);
    }
    if ((n = fn_md(fn, "vec_type_hint"))) {
        /* operand 0: an undef value of the hinted type; operand 1: signedness */
        LLVMValueRef op = md_operand(n, 0);
        uint64_t sgn = 1;
        md_int(n, 1, &sgn);
        if (op) {
            LLVMTypeRef t = LLVMTypeOf(op);
            unsigned width = 1;
            if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
                width = LLVMGetVectorSize(t);
                t = LLVMGetElementType(t);
            }
            const char *base = "int";
            switch (LLVMGetTypeKind(t)) {
            case LLVMHalfTypeKind: base = "half"; break;
            case LLVMFloatTypeKind: base = "float"; break;
            case LLVMDoubleTypeKind: base = "double"; break;
            case LLVMIntegerTypeKind:
                switch (LLVMGetIntTypeWidth(t)) {
                case 8: base = sgn ? "char" : "uchar"; break;
                case 16: base = sgn ? "short" : "ushort"; break;
                case 64: base = sgn ? "long" : "ulong"; break;
                default: base = sgn ? "int" : "uint"; break;
                }
                break;
            default: break;
            }
            if (width > 1)
                snprintf(buf, sizeof buf, "vec_type_hint(%s%u)", base, width);
            else
                snprintf(buf, sizeof buf, "vec_type_hint(%s)", base);
            append(&s, &len, buf);
        }
    }
    return s;
}

static cl_kernel_arg_address_qualifier address_of(uint64_t as)
{
    switch (as) {
    case 1: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case 2: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case 3: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    }
}

static cl_kernel_arg_access_qualifier access_of(const char *s, size_t n)
{
    if (s && n == 9 && !strncmp(s, "read_only", 9))
        return CL_KERNEL_ARG_ACCESS_READ_ONLY;
    if (s && n == 10 && !strncmp(s, "write_only", 10))
        return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
    if (s && n == 10 && !strncmp(s, "read_write", 10))
        return CL_KERNEL_ARG_ACCESS_READ_WRITE;
    return CL_KERNEL_ARG_ACCESS_NONE;
}

static cl_kernel_arg_type_qualifier type_qual_of(const char *s, size_t n)
{
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (!s)
        return q;
    char *t = dup_n(s, n);
    if (!t)
        return q;
    if (strstr(t, "const"))
        q |= CL_KERNEL_ARG_TYPE_CONST;
    if (strstr(t, "restrict"))
        q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (strstr(t, "volatile"))
        q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (strstr(t, "pipe"))
        q |= CL_KERNEL_ARG_TYPE_PIPE;
    free(t);
    return q;
}

/* clang marks every kernel "uniform-work-group-size"="true" when the language (OpenCL C 1.x)
 * or -cl-uniform-work-group-size forbids remainder work-groups, and "false" otherwise. */
static bool requires_uniform_work_groups(LLVMValueRef fn)
{
    static const char key[] = "uniform-work-group-size";
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, sizeof key - 1);
    if (!a)
        return false;
    unsigned n = 0;
    const char *v = LLVMGetStringAttributeValue(a, &n);
    return n == 4 && !memcmp(v, "true", 4);
}

/* The image type an argument's OpenCL C type name names (kernel_arg_type: "image2d_t", ...),
 * or 0. */
static cl_mem_object_type image_type_of(const char *t)
{
    static const struct { const char *name; cl_mem_object_type type; } types[] = {
        {"image1d_t", CL_MEM_OBJECT_IMAGE1D},         {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
        {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY}, {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
        {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY}, {"image3d_t", CL_MEM_OBJECT_IMAGE3D},
    };
    for (size_t i = 0; t && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(t, types[i].name))
            return types[i].type;
    return 0;
}

static bool read_kernel(LLVMModuleRef m, LLVMValueRef fn, bool arg_names, struct weft_kernel_meta *k,
                        struct weft_diag *diag)
{
    size_t nlen = 0;
    const char *name = LLVMGetValueName2(fn, &nlen);
    k->name = dup_n(name, nlen);
    if (!k->name)
        return false;
    struct weft_arg_layout layout;
    if (!weft_arglayout_compute(fn, &layout, diag))
        return false;
    k->num_args = layout.count;
    k->args_size = (size_t)layout.total_size;
    k->args = calloc(layout.count ? layout.count : 1, sizeof *k->args);
    if (!k->args) {
        weft_arglayout_free(&layout);
        return false;
    }
    LLVMValueRef as_md = fn_md(fn, "kernel_arg_addr_space");
    bool have_names = arg_names && fn_md(fn, "kernel_arg_name") != NULL;
    for (unsigned i = 0; i < layout.count; i++) {
        struct weft_arg_meta *a = &k->args[i];
        a->kind = layout.args[i].kind;
        a->size = (size_t)layout.args[i].size;
        a->offset = (size_t)layout.args[i].offset;
        uint64_t as = 0;
        if (!md_int(as_md, i, &as)) {
            as = a->kind == WEFT_ARG_GLOBAL_PTR ? 1 : a->kind == WEFT_ARG_CONSTANT_PTR ? 2
                 : a->kind == WEFT_ARG_LOCAL_PTR ? 3 : 0;
        }
        a->address = address_of(as);
        size_t l = 0;
        const char *s = weft_metadata_string(fn, "kernel_arg_access_qual", i, &l);
        a->access = access_of(s, l);
        s = weft_metadata_string(fn, "kernel_arg_type", i, &l);
        a->type_name = s ? dup_n(s, l) : strdup("");
        a->image_type = image_type_of(a->type_name);
        a->is_sampler = a->type_name && !strcmp(a->type_name, "sampler_t");
        s = weft_metadata_string(fn, "kernel_arg_type_qual", i, &l);
        a->type_qualifier = type_qual_of(s, l);
        if (have_names) {
            s = weft_metadata_string(fn, "kernel_arg_name", i, &l);
            a->name = s ? dup_n(s, l) : strdup("");
        }
    }
    k->has_arg_names = have_names;
    weft_arglayout_free(&layout);
    k->attributes = attributes_string(fn, k);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    k->static_local_size = static_local_bytes(m, fn, td);
    k->private_size = private_bytes(fn, td);
    k->code_size = instruction_count(fn, 8);
    k->uses_printf = calls_printf(fn);
    k->order_effects = has_order_effects(fn);
    k->indirect_stores = has_indirect_stores(fn);
    k->uses_sub_groups = weft_subgroup_used(fn);
    k->uniform_work_groups = requires_uniform_work_groups(fn);
    k->group_blind = !weft_observes_work_group(m, fn);
    weft_access_summarize(fn, &k->access);
    return k->attributes != NULL;
}

bool weft_metadata_read(LLVMModuleRef m, bool arg_names, struct weft_kernel_meta **out,
                        cl_uint *count, struct weft_diag *diag)
{
    cl_uint n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n += weft_is_kernel(f);
    struct weft_kernel_meta *k = calloc(n ? n : 1, sizeof *k);
    if (!k) {
        weft_diag_error(diag, "error: out of memory");
        return false;
    }
    cl_uint i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!weft_is_kernel(f))
            continue;
        if (!read_kernel(m, f, arg_names, &k[i], diag)) {
            weft_metadata_free(k, i + 1);
            return false;
        }
        i++;
    }
    *out = k;
    *count = n;
    return true;
}

void weft_metadata_free(struct weft_kernel_meta *k, cl_uint count)
{
    if (!k)
        return;
    for (cl_uint i = 0; i < count; i++) {
        for (cl_uint j = 0; k[i].args && j < k[i].num_args; j++) {
            free(k[i].args[j].name);
            free(k[i].args[j].type_name);
        }
        free(k[i].args);
        free(k[i].name);
        free(k[i].attributes);
        weft_access_summary_dispose(&k[i].access);
    }
    free(k);
}
