/* runtime/platform.h — the one Weft platform (a process-wide singleton, never freed). */
#ifndef WEFT_RUNTIME_PLATFORM_H
#define WEFT_RUNTIME_PLATFORM_H

#include "runtime/object.h"

struct _cl_platform_id {
    struct weft_object obj;
};

/* The platform singleton; initialized on first call (thread-safe). */
cl_platform_id weft_platform_get(void);

#endif
