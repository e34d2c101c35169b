/* compiler/analysis/print.h — stable text dumps of the analyses, for weft-opt's
 * `-pass=print-<name>` and lit tests. Names: "cfg", "dominators" (also post-dominators),
 * "loops", "liveness", "shapes", "locality" (and "locality-precise"), "access" (the affine
 * global-memory accesses of analysis/access.h). Blocks and values print by their IR names, or
 * `%N` with LLVM's own slot numbering when unnamed, so lines match the .ll file.
 * An unknown name prints one line "unknown analysis '<name>'" (check first with
 * weft_analysis_has_printer). */
#ifndef WEFT_ANALYSIS_PRINT_H
#define WEFT_ANALYSIS_PRINT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdio.h>

void weft_analysis_print(const char *name, LLVMValueRef fn, FILE *out);
bool weft_analysis_has_printer(const char *name);

#endif
