/* util/vec.c — the one out-of-line part of util/vec.h: growing the storage. */
#include "util/vec.h"

#include <stdio.h>
#include <stdlib.h>

void *weft_vec_grow(void *data, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *p = realloc(data, n * elem);
    if (!p) {
        /* Out of memory inside the compiler: there is nothing sensible to return. */
        fprintf(stderr, "weft: out of memory growing a vector to %zu elements\n", n);
        abort();
    }
    *cap = n;
    return p;
}
