/* runtime/info.h — the clGet*Info answer protocol, written once: copy `n` bytes into the
 * caller's buffer when it is large enough (CL_INVALID_VALUE when a buffer is given but too
 * small), and report the size through size_ret. */
#ifndef WEFT_RUNTIME_INFO_H
#define WEFT_RUNTIME_INFO_H

#include <CL/cl.h>
#include <stddef.h>

cl_int weft_info_bytes(size_t size, void *value, size_t *size_ret, const void *src, size_t n);
cl_int weft_info_string(size_t size, void *value, size_t *size_ret, const char *s);

#define WEFT_INFO_VALUE(size, value, size_ret, type, v)                                     \
    do {                                                                                    \
        type weft_v_ = (v);                                                                 \
        return weft_info_bytes((size), (value), (size_ret), &weft_v_, sizeof weft_v_);      \
    } while (0)

#endif
