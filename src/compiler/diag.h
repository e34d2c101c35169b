/* compiler/diag.h — how compiler stages report failures: into a growing text log that ends
 * up in the program's build log (or weft-opt's stderr). Stages never print or abort. */
#ifndef WEFT_COMPILER_DIAG_H
#define WEFT_COMPILER_DIAG_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

struct weft_diag {
    char *text;      /* NUL-terminated, owned; NULL while empty */
    size_t len, cap;
    int errors;
};

void weft_diag_init(struct weft_diag *d);
/* Appends one formatted line (a newline is added); counts it as an error. */
void weft_diag_error(struct weft_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends raw text (e.g. clang's diagnostics) without counting an error. */
void weft_diag_append(struct weft_diag *d, const char *text, size_t n);
/* Gives up ownership of the text (never NULL: "" when empty) and resets the diag. */
char *weft_diag_take(struct weft_diag *d);
void weft_diag_free(struct weft_diag *d);
/* An LLVM context's diagnostic handler (LLVMContextSetDiagnosticHandler, with the weft_diag
 * as its context): errors count as errors, warnings are appended, remarks and notes dropped. */
void weft_diag_llvm_handler(LLVMDiagnosticInfoRef info, void *diag);

#endif
