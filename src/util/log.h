/* util/log.h — diagnostics for users: WEFT_LOG=info|debug, one line per message on stderr.
 *
 * Every layer logs through this (the compiler, the engine in exec/, the runtime); the runtime's
 * error idiom for entry points (weft_error, WEFT_CHECK) is runtime/log.h, on top of it. */
#ifndef WEFT_UTIL_LOG_H
#define WEFT_UTIL_LOG_H

enum weft_log_level { WEFT_LOG_OFF = 0, WEFT_LOG_INFO = 1, WEFT_LOG_DEBUG = 2 };

/* WEFT_LOG, read once: "info" (or "1"), "debug", else off. */
enum weft_log_level weft_log_level(void);
/* Prints "weft: <message>" on stderr when the level is at least `level`. */
void weft_log(enum weft_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
