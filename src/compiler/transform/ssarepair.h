/* compiler/transform/ssarepair.h — restores SSA dominance after a CFG rewrite by demotion.
 *
 * LLVM-C has no SSAUpdater. After a pass reroutes edges (transform/schedule.c sends loop exits
 * through a dispatcher), a value may no longer dominate some of its uses. weft_ssa_repair gives
 * every such value an entry-block alloca, stores it right after its definition (after the phis
 * for a phi) and makes every use load it: before the user, or at the end of the incoming block
 * for a phi operand. sroa promotes the slots again where the new CFG allows. A use reached on a
 * path that skipped the definition reads an undefined value, as the original program would
 * have if it could get there; rewriters only create such paths for work-items whose result is
 * discarded. Returns the number of values demoted.
 */
#ifndef WEFT_TRANSFORM_SSAREPAIR_H
#define WEFT_TRANSFORM_SSAREPAIR_H

#include <llvm-c/Core.h>

unsigned weft_ssa_repair(LLVMValueRef fn);

#endif
