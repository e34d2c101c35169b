/* runtime/info.c — the clGet*Info answer protocol. */
#include "runtime/info.h"

#include <string.h>

#include "runtime/log.h"

cl_int weft_info_bytes(size_t size, void *value, size_t *size_ret, const void *src, size_t n)
{
    if (value) {
        if (size < n)
            return weft_error("clGet*Info", CL_INVALID_VALUE,
                              "param_value_size %zu is smaller than the %zu bytes of the answer",
                              size, n);
        if (n)
            memcpy(value, src, n);
    }
    if (size_ret)
        *size_ret = n;
    return CL_SUCCESS;
}

cl_int weft_info_string(size_t size, void *value, size_t *size_ret, const char *s)
{
    return weft_info_bytes(size, value, size_ret, s, strlen(s) + 1);
}
