/* compiler/transform/wgcollective.h — recognition of the work-group collective functions
 * (work_group_all, _any, _broadcast, _reduce_<op>, _scan_{inclusive,exclusive}_<op>) by
 * their mangled names. Their lowering is weft_lower_wg_collectives (passes.h). The call
 * descriptions are subgroup.h's: the same kinds and operations at work-group scope. */
#ifndef WEFT_TRANSFORM_WGCOLLECTIVE_H
#define WEFT_TRANSFORM_WGCOLLECTIVE_H

#include <llvm-c/Core.h>
#include <stddef.h>

#include "compiler/transform/subgroup.h"

/* What work-group collective `call` calls (kind WEFT_SG_NONE for anything else). */
struct weft_sg_call weft_wg_collective_call(LLVMValueRef call);
/* The same for a function name. */
struct weft_sg_call weft_wg_collective_by_name(const char *name, size_t len);

#endif
