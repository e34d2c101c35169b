/* runtime/log.h — the WEFT_CHECK idiom of the entry points, on util/log.h's diagnostics for users
 * (WEFT_LOG=info|debug).
 *
 * WEFT_CHECK(cond, code, fmt, ...) returns `code` from the enclosing entry point when `cond`
 * is false; under WEFT_LOG=info it first prints one line: the function, the code's name and
 * the message. WEFT_CHECK_RET(cond, code, errcode_ret, retval, fmt, ...) is the form for
 * entry points that return an object and report through `errcode_ret`.
 */
#ifndef WEFT_RUNTIME_LOG_H
#define WEFT_RUNTIME_LOG_H

#include <CL/cl.h>
#include <stdbool.h>

#include "util/log.h"

/* Logs "weft: <func>: <CL_CODE_NAME>: <message>" at info level and returns `code`. */
cl_int weft_error(const char *func, cl_int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *weft_error_name(cl_int code);

#define WEFT_CHECK(cond, code, ...)                                                         \
    do {                                                                                    \
        if (!(cond))                                                                        \
            return weft_error(__func__, (code), __VA_ARGS__);                               \
    } while (0)

#define WEFT_CHECK_RET(cond, code, errcode_ret, retval, ...)                                \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            cl_int weft_err_ = weft_error(__func__, (code), __VA_ARGS__);                   \
            if (errcode_ret)                                                                \
                *(errcode_ret) = weft_err_;                                                 \
            return retval;                                                                  \
        }                                                                                   \
    } while (0)

/* Sets *errcode_ret (when not NULL) and evaluates to `value`. */
#define WEFT_RETURN(errcode_ret, err, value) \
    ((errcode_ret) ? (void)(*(errcode_ret) = (err)) : (void)0, (value))

#endif
