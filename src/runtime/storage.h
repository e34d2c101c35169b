/* runtime/storage.h — the memory behind the buffers and images Weft allocates. */
#ifndef WEFT_RUNTIME_STORAGE_H
#define WEFT_RUNTIME_STORAGE_H

#include <stddef.h>

/* Zeroed storage of `size` bytes (>= 1), WEFT_MEM_ALIGN-aligned, or NULL when it cannot be had. */
void *weft_storage_alloc(size_t size);
/* Frees storage weft_storage_alloc(size) returned (NULL: nothing). */
void weft_storage_free(void *p, size_t size);

#endif
