/* util/log.c — WEFT_LOG diagnostics (util/log.h). */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum weft_log_level weft_log_level(void)
{
    static int level = -1;
    if (level < 0) {
        const char *v = getenv("WEFT_LOG");
        int l = WEFT_LOG_OFF;
        if (v && (!strcmp(v, "info") || !strcmp(v, "1")))
            l = WEFT_LOG_INFO;
        else if (v && !strcmp(v, "debug"))
            l = WEFT_LOG_DEBUG;
        level = l;
    }
    return (enum weft_log_level)level;
}

void weft_log(enum weft_log_level level, const char *fmt, ...)
{
    if (weft_log_level() < level || level == WEFT_LOG_OFF)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "weft: %s\n", line);
}
