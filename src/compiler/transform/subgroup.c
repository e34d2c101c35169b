/* compiler/transform/subgroup.c — recognition of the sub-group built-ins by their mangled
 * names, and their values for sub-groups of one work-item (subgroup.h). */
#include "compiler/transform/subgroup.h"

#include "compiler/transform/irutil.h"

#include <stdlib.h>
#include <string.h>

/* Splits an Itanium-mangled "_Z<len><identifier><params>" name. */
bool weft_split_mangled(const char *name, size_t len, const char **id, size_t *idlen, const char **params,
                        size_t *plen)
{
    if (len < 3 || name[0] != '_' || name[1] != 'Z')
        return false;
    size_t i = 2, n = 0;
    while (i < len && name[i] >= '0' && name[i] <= '9' && n < 1000)
        n = n * 10 + (size_t)(name[i++] - '0');
    if (n == 0 || i + n > len)
        return false;
    *id = name + i;
    *idlen = n;
    *params = name + i + n;
    *plen = len - i - n;
    return true;
}

static bool is(const char *s, size_t n, const char *lit) { return strlen(lit) == n && memcmp(s, lit, n) == 0; }

/* The value type of a collective from its first parameter's code (cl_khr_subgroups types). */
static bool value_type(const char *p, size_t n, struct weft_sg_call *out, size_t *used)
{
    if (n >= 1 && (p[0] == 'i' || p[0] == 'l')) {
        out->is_signed = true;
        *used = 1;
        return true;
    }
    if (n >= 1 && (p[0] == 'j' || p[0] == 'm')) {
        *used = 1;
        return true;
    }
    if (n >= 1 && (p[0] == 'f' || p[0] == 'd')) {
        out->is_float = true;
        *used = 1;
        return true;
    }
    if (n >= 2 && p[0] == 'D' && p[1] == 'h') {
        out->is_float = true;
        *used = 2;
        return true;
    }
    return false;
}

struct weft_sg_call weft_subgroup_call(LLVMValueRef call)
{
    size_t len = 0;
    const char *name = weft_direct_callee_name(call, &len);
    return name ? weft_subgroup_by_name(name, len) : (struct weft_sg_call){0};
}

struct weft_sg_call weft_subgroup_by_name(const char *name, size_t len)
{
    struct weft_sg_call r = {0};
    if (is(name, len, WEFT_SG_WIDTH_NAME)) {
        r.kind = WEFT_SG_WIDTH_PLACEHOLDER;
        return r;
    }
    if (is(name, len, WEFT_SG_MAX_NAME)) {
        r.kind = WEFT_SG_MAX_PLACEHOLDER;
        return r;
    }
    const char *id, *p;
    size_t idn, pn;
    if (!weft_split_mangled(name, len, &id, &idn, &p, &pn))
        return r;
    static const struct {
        const char *id;
        enum weft_sg_kind kind;
    } queries[] = {
        {"get_sub_group_size", WEFT_SG_SIZE},         {"get_max_sub_group_size", WEFT_SG_MAX_SIZE},
        {"get_num_sub_groups", WEFT_SG_NUM},          {"get_enqueued_num_sub_groups", WEFT_SG_ENQUEUED_NUM},
        {"get_sub_group_id", WEFT_SG_ID},             {"get_sub_group_local_id", WEFT_SG_LOCAL_ID},
    };
    for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++)
        if (is(id, idn, queries[q].id) && is(p, pn, "v")) {
            r.kind = queries[q].kind;
            return r;
        }
    if (is(id, idn, "sub_group_barrier") && (is(p, pn, "j") || is(p, pn, "j12memory_scope"))) {
        r.kind = WEFT_SG_BARRIER;
        return r;
    }
    return weft_collective_parse(id, idn, p, pn, false);
}

struct weft_sg_call weft_collective_parse(const char *id, size_t idn, const char *p, size_t pn, bool work_group)
{
    struct weft_sg_call r = {0};
    const char *scope = work_group ? "work_group_" : "sub_group_";
    size_t sl = strlen(scope);
    if (idn <= sl || memcmp(id, scope, sl) != 0)
        return r;
    id += sl;
    idn -= sl;
    if ((is(id, idn, "all") || is(id, idn, "any")) && is(p, pn, "i")) {
        r.kind = id[1] == 'l' ? WEFT_SG_ALL : WEFT_SG_ANY;
        return r;
    }
    static const struct {
        const char *prefix;
        enum weft_sg_kind kind;
    } ops[] = {
        {"reduce_", WEFT_SG_REDUCE},
        {"scan_inclusive_", WEFT_SG_SCAN_INCLUSIVE},
        {"scan_exclusive_", WEFT_SG_SCAN_EXCLUSIVE},
    };
    size_t used = 0;
    if (is(id, idn, "broadcast")) {
        /* sub-groups: (value, uint lane); work-groups: (value, size_t local id) in 1 to 3
         * dimensions (size_t is `m` on a 64-bit target) */
        if (!value_type(p, pn, &r, &used))
            return (struct weft_sg_call){0};
        if (!work_group && is(p + used, pn - used, "j")) {
            r.kind = WEFT_SG_BROADCAST;
        } else if (work_group && (is(p + used, pn - used, "m") || is(p + used, pn - used, "mm") ||
                                  is(p + used, pn - used, "mmm"))) {
            r.kind = WEFT_SG_BROADCAST;
            r.broadcast_dims = (unsigned)(pn - used);
        } else {
            r = (struct weft_sg_call){0};
        }
        return r;
    }
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        size_t pl = strlen(ops[o].prefix);
        if (idn != pl + 3 || memcmp(id, ops[o].prefix, pl) != 0)
            continue;
        const char *opn = id + pl;
        enum weft_sg_op op = !memcmp(opn, "add", 3)   ? WEFT_SG_OP_ADD
                             : !memcmp(opn, "min", 3) ? WEFT_SG_OP_MIN
                             : !memcmp(opn, "max", 3) ? WEFT_SG_OP_MAX
                                                      : WEFT_SG_OP_NONE;
        struct weft_sg_call t = {0};
        if (op == WEFT_SG_OP_NONE || !value_type(p, pn, &t, &used) || used != pn)
            return r;
        t.kind = ops[o].kind;
        t.op = op;
        return t;
    }
    return r;
}

bool weft_subgroup_used(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (LLVMIsACallInst(i) && weft_subgroup_call(i).kind != WEFT_SG_NONE)
                return true;
    return false;
}

LLVMValueRef weft_lanes_shift_up(LLVMBuilderRef b, LLVMValueRef v, unsigned group, unsigned k, LLVMValueRef fill)
{
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
    LLVMValueRef *idx = malloc(sizeof *idx * n);
    if (!idx)
        abort();
    for (unsigned l = 0; l < n; l++)
        idx[l] = LLVMConstInt(i32, l % group >= k ? l - k : n + l, 0);
    LLVMValueRef r = LLVMBuildShuffleVector(b, v, fill, LLVMConstVector(idx, n), "");
    free(idx);
    return r;
}

LLVMValueRef weft_subgroup_identity(LLVMTypeRef t, const struct weft_sg_call *sg)
{
    if (sg->is_float) {
        if (sg->op == WEFT_SG_OP_ADD)
            return LLVMConstReal(t, -0.0);   /* x + -0.0 == x, also for x == -0.0 */
        return LLVMConstReal(t, sg->op == WEFT_SG_OP_MIN ? __builtin_inf() : -__builtin_inf());
    }
    unsigned w = LLVMGetIntTypeWidth(t);
    switch (sg->op) {
    case WEFT_SG_OP_MIN:
        /* the largest value: all ones (unsigned), or all ones but the sign bit */
        return sg->is_signed ? LLVMConstInt(t, (~0ull) >> (65 - w), 0) : LLVMConstAllOnes(t);
    case WEFT_SG_OP_MAX:
        /* the smallest value: 0 (unsigned), or only the sign bit */
        return sg->is_signed ? LLVMConstInt(t, 1ull << (w - 1), 0) : LLVMConstNull(t);
    default:
        return LLVMConstNull(t);
    }
}

unsigned weft_subgroup_lower_scalar(LLVMValueRef fn)
{
    unsigned n = 0;
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            struct weft_sg_call sg = weft_subgroup_call(i);
            if (!weft_subgroup_is_collective(sg.kind)) {
                i = next;
                continue;
            }
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef x = LLVMGetOperand(i, 0), r;
            switch (sg.kind) {
            case WEFT_SG_ALL:
            case WEFT_SG_ANY:
                r = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, x, LLVMConstNull(LLVMTypeOf(x)), ""),
                                  LLVMTypeOf(i), "");
                break;
            case WEFT_SG_SCAN_EXCLUSIVE:
                r = weft_subgroup_identity(LLVMTypeOf(i), &sg);
                break;
            default:
                /* reduce, inclusive scan, broadcast (lane 0 is the only lane; another lane is
                 * undefined behaviour, and the value is as good an answer as any) */
                r = x;
                break;
            }
            LLVMReplaceAllUsesWith(i, r);
            LLVMInstructionEraseFromParent(i);
            n++;
            i = next;
        }
    }
    LLVMDisposeBuilder(b);
    return n;
}
