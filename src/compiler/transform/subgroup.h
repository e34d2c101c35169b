/* compiler/transform/subgroup.h — the OpenCL sub-group built-ins (cl_khr_subgroups, OpenCL C
 * 3.0 __opencl_c_subgroups) as the work-group passes see them.
 *
 * What a sub-group is in Weft: a packet of W SIMD lanes of the vectorizer (vectorize.h), W
 * consecutive work-items of the linearized local id. Without vectorization a sub-group is one
 * work-item. Which of the two a variant gets is decided per compiled variant, all sub-CFGs
 * alike (wgfunction.c), and reported to the runtime (clGetKernelSubGroupInfo).
 *
 * Lowering, in three places:
 *   - workitem.c: the queries (get_sub_group_size, get_max_sub_group_size, get_num_sub_groups,
 *     get_enqueued_num_sub_groups, get_sub_group_id, get_sub_group_local_id) become arithmetic
 *     over the linear local id and two placeholders, WEFT_SG_WIDTH_NAME (the variant's sub-group
 *     size S) and WEFT_SG_MAX_NAME (the dispatch's S, for get_max_sub_group_size and
 *     get_enqueued_num_sub_groups); sub_group_barrier disappears (see workitem.c why).
 *   - wgfunction.c: once S is decided the placeholders become constants; with S == 1 each
 *     collective becomes its one-work-item value (weft_subgroup_lower_scalar).
 *   - vectorize_lanes.c: with S == W the collectives (reduce, scan, broadcast, all, any) become
 *     horizontal operations over each W-lane group of a packet, inactive lanes left out.
 */
#ifndef WEFT_TRANSFORM_SUBGROUP_H
#define WEFT_TRANSFORM_SUBGROUP_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

#define WEFT_SG_WIDTH_NAME "__weft_sub_group_width"
#define WEFT_SG_MAX_NAME "__weft_sub_group_max_width"

enum weft_sg_kind {
    WEFT_SG_NONE = 0,
    /* queries */
    WEFT_SG_SIZE,
    WEFT_SG_MAX_SIZE,
    WEFT_SG_NUM,
    WEFT_SG_ENQUEUED_NUM,
    WEFT_SG_ID,
    WEFT_SG_LOCAL_ID,
    WEFT_SG_BARRIER,
    /* the placeholders of workitem.c */
    WEFT_SG_WIDTH_PLACEHOLDER,
    WEFT_SG_MAX_PLACEHOLDER,
    /* collectives */
    WEFT_SG_ALL,
    WEFT_SG_ANY,
    WEFT_SG_BROADCAST,
    WEFT_SG_REDUCE,
    WEFT_SG_SCAN_INCLUSIVE,
    WEFT_SG_SCAN_EXCLUSIVE,
};

enum weft_sg_op { WEFT_SG_OP_NONE, WEFT_SG_OP_ADD, WEFT_SG_OP_MIN, WEFT_SG_OP_MAX };

struct weft_sg_call {
    enum weft_sg_kind kind;
    enum weft_sg_op op;     /* reduce and scans */
    bool is_float;          /* the value operand is float/double (half) */
    bool is_signed;         /* an integer value operand of a signed type (int, long) */
    unsigned broadcast_dims; /* work_group_broadcast: how many local-id operands (1 to 3) */
};

/* What sub-group built-in `call` calls (kind WEFT_SG_NONE for anything else). */
struct weft_sg_call weft_subgroup_call(LLVMValueRef call);
/* The same for a function name. */
struct weft_sg_call weft_subgroup_by_name(const char *name, size_t len);
/* The collective named by identifier `id` with parameter codes `p` (weft_split_mangled), at
 * sub-group or, with `work_group`, work-group scope (work_group_reduce_add, ...; lowered by
 * wgcollective.c). Kind WEFT_SG_NONE when it is neither. */
struct weft_sg_call weft_collective_parse(const char *id, size_t idn, const char *p, size_t pn, bool work_group);
/* Splits an Itanium-mangled "_Z<len><identifier><params>" name; false when it is not one. */
bool weft_split_mangled(const char *name, size_t len, const char **id, size_t *idlen, const char **params,
                        size_t *plen);
static inline bool weft_subgroup_is_collective(enum weft_sg_kind k) { return k >= WEFT_SG_ALL; }

/* Whether `fn` calls any sub-group built-in (queries, barrier or collectives). */
bool weft_subgroup_used(LLVMValueRef fn);

/* The identity of a reduction/scan `op` for values of type `t` (0 for add, the largest
 * value for min, the smallest for max; +-infinity for floating point). */
LLVMValueRef weft_subgroup_identity(LLVMTypeRef t, const struct weft_sg_call *sg);

/* A Hillis-Steele step's shift: `v` with each lane l replaced by lane l - k of its group of
 * `group` lanes, the first k lanes of each group by the same lanes of `fill` (a vector of v's
 * type). Scans of sub-groups (vectorize_lanes.c) and of work-groups (wgcollective.c). */
LLVMValueRef weft_lanes_shift_up(LLVMBuilderRef b, LLVMValueRef v, unsigned group, unsigned k, LLVMValueRef fill);

/* With sub-groups of one work-item: every collective call in `fn` is replaced by its value
 * for a sub-group of one (reduce/inclusive scan/broadcast: the value itself, exclusive scan:
 * the identity, all/any: the predicate != 0). Returns how many calls were replaced. */
unsigned weft_subgroup_lower_scalar(LLVMValueRef fn);

#endif
