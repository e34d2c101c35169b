/* compiler/diag.c — the build-log accumulator. */
#include "compiler/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void weft_diag_init(struct weft_diag *d)
{
    memset(d, 0, sizeof *d);
}

void weft_diag_append(struct weft_diag *d, const char *text, size_t n)
{
    if (d->len + n + 1 > d->cap) {
        size_t cap = d->cap ? d->cap : 256;
        while (cap < d->len + n + 1)
            cap *= 2;
        char *t = realloc(d->text, cap);
        if (!t)
            return;   /* the log loses text, the build result stays right */
        d->text = t;
        d->cap = cap;
    }
    memcpy(d->text + d->len, text, n);
    d->len += n;
    d->text[d->len] = 0;
}

void weft_diag_error(struct weft_diag *d, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof line - 2)
        n = sizeof line - 2;
    line[n++] = '\n';
    weft_diag_append(d, line, (size_t)n);
    d->errors++;
}

char *weft_diag_take(struct weft_diag *d)
{
    char *t = d->text ? d->text : strdup("");
    weft_diag_init(d);
    return t;
}

void weft_diag_free(struct weft_diag *d)
{
    free(d->text);
    weft_diag_init(d);
}

void weft_diag_llvm_handler(LLVMDiagnosticInfoRef info, void *ctx)
{
    struct weft_diag *diag = ctx;
    LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(info);
    if (sev != LLVMDSError && sev != LLVMDSWarning)
        return;
    char *msg = LLVMGetDiagInfoDescription(info);
    if (sev == LLVMDSError)
        weft_diag_error(diag, "error: %s", msg);
    else {
        weft_diag_append(diag, "warning: ", 9);
        weft_diag_append(diag, msg, strlen(msg));
        weft_diag_append(diag, "\n", 1);
    }
    LLVMDisposeMessage(msg);
}
