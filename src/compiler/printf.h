/* compiler/printf.h — the runtime side of OpenCL C printf.
 *
 * Compiled kernels call WEFT_PRINTF_HOOK(format, ...) in place of printf (the driver renames
 * the calls), with the format string and the arguments as clang passed them (C variadic
 * convention: float promoted to double, vectors by value). A work-group function that prints
 * first calls WEFT_PRINTF_ENTER_HOOK(ctx), which makes ctx->printf_buf the calling thread's
 * sink. Output goes to that launch-wide buffer (the runtime writes it to stdout when the
 * launch completes) or, when the launch has none, straight to stdout.
 */
#ifndef WEFT_COMPILER_PRINTF_H
#define WEFT_COMPILER_PRINTF_H

#include <stddef.h>

#include "weft/abi.h"

#define WEFT_PRINTF_HOOK "__weft_printf"
#define WEFT_PRINTF_ENTER_HOOK "__weft_printf_enter"

/* A launch's printf output; thread-safe appends. */
struct weft_printf_buffer *weft_printf_buffer_new(void);
/* Writes everything buffered to stdout (and flushes stdout), then frees the buffer. */
void weft_printf_buffer_finish(struct weft_printf_buffer *b);

/* The hooks JIT'd code calls. */
int weft_printf_hook(const char *format, ...);
void weft_printf_hook_enter(const struct weft_wg_ctx *ctx);

/* Formats like OpenCL C printf into `out` (at most `cap` bytes, NUL-terminated); returns the
 * length of the full output, or -1 for an invalid format. Exposed for unit tests. */
struct weft_printf_args;
int weft_printf_format(char *out, size_t cap, const char *format, __builtin_va_list ap);

#endif
