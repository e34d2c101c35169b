/* exec/variant_verify.h — WEFT_VERIFY=1: a checking mode for the variants the runtime
 * chooses between (exec/variant_select.h).
 *
 * Before a launch profiles two variants, the runtime runs a sample of its work-groups (the
 * first WEFT_VERIFY_SAMPLE at most) with each variant, both from the same contents of every
 * global buffer the kernel takes, and compares what they leave: bit for bit, but for buffers
 * of float, double or half elements, which may differ by WEFT_VERIFY_ULPS units in the last
 * place where the variants compute math builtins differently (vector against scalar forms).
 * Afterwards the buffers hold their contents from before, and the launch runs as usual.
 * On a mismatch it logs the kernel, the two variants, the buffer and the first element that
 * differs on stderr (and appends the line to the file WEFT_VERIFY_LOG names, if any), and the
 * launch never runs the second variant for that decision key: the first, the default one, is
 * kept for the process and nothing goes to the disk cache.
 * Only kernels whose results cannot depend on the order their work-items run in are checked:
 * no atomics, no stores to program-scope variables, no printf, no image arguments (the
 * caller decides, weft_kernel_meta.order_effects: exec/dispatch.c).
 */
#ifndef WEFT_EXEC_VARIANT_VERIFY_H
#define WEFT_EXEC_VARIANT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/pool.h"

#define WEFT_VERIFY_SAMPLE 256u
#define WEFT_VERIFY_ULPS 64u

/* WEFT_VERIFY=1 (or any value but 0/off/empty). */
bool weft_verify_setting(void);

enum weft_verify_elem { WEFT_VERIFY_BYTES, WEFT_VERIFY_HALF, WEFT_VERIFY_FLOAT, WEFT_VERIFY_DOUBLE };

struct weft_verify_buffer {
    void *data;
    size_t size;
    enum weft_verify_elem elem;
    unsigned arg;              /* the kernel argument, for the log */
};

/* The element kind of a pointer argument from its type name ("float*", "double4*", ...). */
enum weft_verify_elem weft_verify_elem_of(const char *type_name);

/* Runs the sample with `launch` (its fn: the first variant) and with `b` as described above.
 * `what` names the kernel and the variants for the log. Returns false on a mismatch; true when
 * they agree or the check could not run (no memory for the copies: logged at info). */
bool weft_verify_pair(const struct weft_launch *launch, weft_wg_fn b, const struct weft_verify_buffer *bufs,
                      unsigned nbufs, const char *what);

/* Mismatches found by this process (tests). */
unsigned weft_verify_mismatches(void);

#endif
