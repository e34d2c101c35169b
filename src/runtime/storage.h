/* runtime/storage.h — the memory behind the buffers and images Weft allocates. */
#ifndef WEFT_RUNTIME_STORAGE_H
#define WEFT_RUNTIME_STORAGE_H

#include <stdbool.h>
#include <stddef.h>

/* Zeroed storage of `size` bytes (>= 1), WEFT_MEM_ALIGN-aligned, or NULL when it cannot be had. */
void *weft_storage_alloc(size_t size);
/* Frees storage weft_storage_alloc(size) returned (NULL: nothing). */
void weft_storage_free(void *p, size_t size);

/* The host's first write into storage, placed for NUMA. Where the pool's threads sit on two
 * NUMA nodes or more and size >= WEFT_STORAGE_PLACED_MIN, the pool's threads call piece(arg,
 * offset, n) over [0, size), cut at 4 KiB pages, each thread over its own part first: the part
 * of a 1-D launch's groups it owns (exec/numa.h), so that fresh pages are first touched, and
 * placed, on the node whose threads walk them in such launches; returns true once every byte
 * is written. Otherwise returns false without calling piece: the caller writes as usual. */
#define WEFT_STORAGE_PLACED_MIN ((size_t)8 << 20)
bool weft_storage_write_placed(size_t size, void (*piece)(const void *arg, size_t offset, size_t n), const void *arg);
/* weft_storage_write_placed copying src to dst (which must not overlap). */
bool weft_storage_copy_placed(void *dst, const void *src, size_t size);

#endif
