/* util/vec.h — a growable array of any element type, as a macro over a plain struct.
 *
 *     WEFT_VEC(LLVMValueRef) work = {0};
 *     weft_vec_push(&work, v);
 *     while (work.len) { LLVMValueRef x = weft_vec_pop(&work); ... }
 *     weft_vec_free(&work);
 *
 * Guarantees: `data[0..len)` are the elements in push order; a zero-initialized vector is empty
 * and valid; growth doubles the capacity, so a push is amortized O(1). Allocation failure
 * aborts: the compiler cannot continue without memory and has no partial state to save.
 */
#ifndef WEFT_UTIL_VEC_H
#define WEFT_UTIL_VEC_H

#include <stddef.h>
#include <stdlib.h>   /* free() in weft_vec_free */

#define WEFT_VEC(T) struct { T *data; size_t len, cap; }

/* Makes room for at least `need` elements of `elem` bytes; returns the (possibly moved) array. */
void *weft_vec_grow(void *data, size_t *cap, size_t need, size_t elem);

#define weft_vec_reserve(v, n)                                                                  \
    ((n) > (v)->cap ? (void)((v)->data = weft_vec_grow((v)->data, &(v)->cap, (n),              \
                                                       sizeof(*(v)->data)))                     \
                    : (void)0)
#define weft_vec_push(v, x)                                                                     \
    (weft_vec_reserve((v), (v)->len + 1), (v)->data[(v)->len++] = (x))
#define weft_vec_pop(v) ((v)->data[--(v)->len])
#define weft_vec_last(v) ((v)->data[(v)->len - 1])
#define weft_vec_clear(v) ((v)->len = 0)
#define weft_vec_free(v)                                                                        \
    do {                                                                                        \
        free((v)->data);                                                                        \
        (v)->data = NULL;                                                                       \
        (v)->len = (v)->cap = 0;                                                                \
    } while (0)

#endif
