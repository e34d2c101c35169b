/* compiler/analysis/print.h — stable text dumps of the analyses, for weft-opt's
 * `-pass=print-<name>` and lit tests. Names: "cfg", "dominators" (also post-dominators),
 * "loops", "liveness", "shapes", "locality" (and "locality-precise"), "access" (the affine
 * global-memory accesses of analysis/access.h). Blocks and values print by their IR names, or
 * `%N` with LLVM's own slot numbering when unnamed, so lines match the .ll file.
 * An unknown name prints one line "unknown analysis '<name>'" (check first with
 * weft_analysis_has_printer).
 * Sub-CFG mode (weft_analysis_print_subcfg): "cfg", "dominators" and "loops" of a sub-CFG (a
 * subset of the function's blocks, entry first; analysis/cfg.h), for weft-opt's
 * `-pass=print-subcfg-<name>`: the header names the sub-CFG by its entry block, and the cfg dump
 * adds "exits [..]" to each block with an edge out of the sub-CFG. */
#ifndef WEFT_ANALYSIS_PRINT_H
#define WEFT_ANALYSIS_PRINT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdio.h>

void weft_analysis_print(const char *name, LLVMValueRef fn, FILE *out);
bool weft_analysis_has_printer(const char *name);
void weft_analysis_print_subcfg(const char *name, LLVMValueRef fn, LLVMBasicBlockRef const *blocks, size_t n,
                                FILE *out);
bool weft_analysis_has_subcfg_printer(const char *name);

#endif
