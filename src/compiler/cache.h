/* compiler/cache.h — the on-disk cache of compiled variants.
 *
 * An entry is a file <dir>/<key as 16 hex digits>.wobj holding a header (magic, format
 * version, ABI version, key, payload length, payload checksum) and the payload. The caller
 * computes the key (a hash of everything the payload depends on) and owns the payload format.
 * A missing, foreign, truncated or corrupt entry reads as a miss; writes go to a temporary
 * file renamed into place, so a reader never sees a partial entry. The directory is
 * WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else ~/.cache/weft; WEFT_CACHE_DIR=off (or
 * an empty value) disables the disk cache. Weft creates it (and missing parents) mode 0700;
 * one owned by another user or writable by its group or others disables the disk cache
 * (WEFT_LOG=info says so once). Entries hold code this process runs, so an entry that is not
 * a regular file owned by this user and writable by no one else (a link, a FIFO, another
 * user's file, mode 0666), or whose payload would exceed WEFT_CACHE_ENTRY_MAX or the size
 * limit below, is a miss, found without blocking and without reading it. Failures to write are silent: the cache is
 * an optimization, never a requirement. The directory is kept under WEFT_CACHE_MAX_MB
 * (default 1024): a store that takes it over the limit removes the least recently used
 * entries (a load counts as a use) down to 3/4 of it; an entry larger than the limit is
 * not written.
 */
#ifndef WEFT_COMPILER_CACHE_H
#define WEFT_COMPILER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest payload an entry may hold (1 GiB; less when WEFT_CACHE_MAX_MB is less): far
 * above any object or bitcode Weft writes, and a bound on what a load allocates whatever a
 * header claims. */
#define WEFT_CACHE_ENTRY_MAX ((uint64_t)1 << 30)

/* The cache directory (malloc'd) or NULL when disabled by the environment. */
char *weft_cache_dir(void);
/* Reads entry `key` into a malloc'd payload; false on a miss (any kind). */
bool weft_cache_load(uint64_t key, void **payload, size_t *size);
/* Stores entry `key` atomically; false when it could not be written (or the directory is
 * refused, or the payload is empty or over WEFT_CACHE_ENTRY_MAX). */
bool weft_cache_store(uint64_t key, const void *payload, size_t size);
/* A hash identifying this build of Weft's code (the GNU build-id of the object that contains
 * the compiler, else its file's size and modification time): part of every key, so that a
 * rebuilt Weft never trusts objects compiled by another build. */
uint64_t weft_cache_build_identity(void);
/* Built programs (OpenCL C or SPIR-V to linked bitcode): the payload is the build log and the
 * bitcode. weft_cache_build_key extends `key` (the input and options) with the frontend
 * tool's path and file identity (an upgraded tool at the same path is another tool), the
 * builtin library, Weft's version and build identity. weft_cache_load_build appends the
 * cached log to diag and fills *exe; it always misses under WEFT_DUMP, so that every stage
 * runs and is dumped. */
struct weft_bitcode;
struct weft_diag;
uint64_t weft_cache_build_key(uint64_t key, const char *tool);
bool weft_cache_load_build(uint64_t key, struct weft_bitcode *exe, struct weft_diag *diag);
void weft_cache_store_build(uint64_t key, const struct weft_bitcode *exe, const struct weft_diag *diag);
/* The size limit in bytes (WEFT_CACHE_MAX_MB). */
uint64_t weft_cache_max_bytes(void);
/* The path of entry `key` (for tests). */
bool weft_cache_entry_path(uint64_t key, char *path, size_t cap);

#endif
