/* runtime/svm.c — shared virtual memory: clSVMAlloc, clSVMFree, the SVM commands
 * (clEnqueueSVMFree, clEnqueueSVMMemcpy, clEnqueueSVMMemFill, clEnqueueSVMMap,
 * clEnqueueSVMUnmap, clEnqueueSVMMigrateMem), clSetKernelArgSVMPointer and clSetKernelExecInfo.
 *
 * Guarantees:
 *   - The device reports coarse- and fine-grain buffer SVM, fine-grain system SVM and SVM atomics
 *     (svm.h WEFT_SVM_CAPABILITIES). The device is the host CPU: an SVM allocation is host memory
 *     (runtime/storage.c, zeroed), its address is the same for the host and for kernels, and
 *     kernels' atomics are the CPU's, coherent with the host's. So map, unmap and migrate move
 *     nothing, and any host pointer (malloc'd, on the stack) is a valid SVM pointer for a kernel
 *     argument, a copy or a fill.
 *   - Every entry point validates its arguments in the order of the OpenCL 3.0 error lists; the
 *     commands are real commands of their queue (events, wait lists, blocking flags, command types
 *     CL_COMMAND_SVM_*), made and enqueued through runtime/queue.h only.
 *   - Allocations are recorded in one table sorted by address, each with the context it belongs
 *     to, so "which allocation of this context contains this pointer" is a binary search
 *     (weft_svm_find: CL_MEM_USES_SVM_POINTER, clCreateBuffer's size rule, the migrate ranges).
 *     One table for the process rather than one per context: clSVMFree then recognises its
 *     pointer even when the application released the context first, and a lookup never needs
 *     the context object itself (a released handle is never dereferenced).
 *   - An allocation holds its context (a runtime hold, not an application reference) until
 *     clSVMFree, so the context an allocation names is never freed under it.
 *   - clSVMFree of a pointer that is no allocation of the context, or of NULL, does nothing (the
 *     specification leaves the former undefined; Weft says so under WEFT_LOG=info).
 *   - The table also records cl_intel_unified_shared_memory's allocations (runtime/usm.c), tagged
 *     with their USM type: weft_svm_find answers for both kinds, and each kind is freed only by
 *     its own API (clSVMFree ignores a USM pointer).
 *   - A kernel given SVM pointers (clSetKernelArgSVMPointer, CL_KERNEL_EXEC_INFO_SVM_PTRS, or
 *     CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM set to CL_TRUE) may reach memory that no cl_mem
 *     argument lists: its launches are never fused nor verified on copies (runtime/kernel.h
 *     weft_kernel_args_raw_memory, exec/launch.h).
 */
#include "runtime/svm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "exec/launch.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/event.h"
#include "runtime/kernel.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/object.h"
#include "runtime/queue.h"
#include "runtime/storage.h"
#include "runtime/usm.h"

/* ---- the allocation table --------------------------------------------------------------------- */

struct svm_alloc {
    char *base;              /* what clSVMAlloc returned (aligned inside `raw`) */
    size_t size;
    cl_svm_mem_flags flags;
    cl_context context;      /* held until the allocation is freed */
    void *raw;               /* the storage: weft_storage_alloc(raw_size) */
    size_t raw_size;
    cl_uint usm_type;        /* 0: clSVMAlloc; else the USM type (runtime/usm.c) */
    cl_device_id device;     /* USM only */
    cl_bitfield usm_flags;   /* USM only */
};

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static atomic_size_t atomics_allocs;   /* live allocations that share atomics with the host */
static struct svm_alloc *table;   /* sorted by base; allocations never overlap */
static size_t table_count, table_cap;

/* Whether kernels and the host may synchronize through atomics in the allocation: clSVMAlloc's
 * with CL_MEM_SVM_ATOMICS, and every USM allocation (the device reports concurrent atomic access
 * for all of them, runtime/usm.h). */
static bool shares_atomics(const struct svm_alloc *a)
{
    return (a->flags & CL_MEM_SVM_ATOMICS) || a->usm_type;
}

/* The index of the last allocation whose base is <= p, or -1. Called with table_lock held. */
static ptrdiff_t last_at_or_below(const char *p)
{
    size_t lo = 0, hi = table_count;   /* the answer is lo - 1 */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)table[mid].base <= (uintptr_t)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

/* The index of the allocation containing p, or -1. Called with table_lock held. */
static ptrdiff_t containing(const void *p)
{
    ptrdiff_t i = last_at_or_below(p);
    if (i < 0 || (uintptr_t)p - (uintptr_t)table[i].base >= table[i].size)
        return -1;
    return i;
}

bool weft_svm_find(cl_context context, const void *p, struct weft_svm_range *out)
{
    if (!p)
        return false;
    pthread_rwlock_rdlock(&table_lock);
    ptrdiff_t i = containing(p);
    bool found = i >= 0 && table[i].context == context;
    if (found && out)
        *out = (struct weft_svm_range){table[i].base, table[i].size, table[i].flags, table[i].usm_type,
                                       table[i].device, table[i].usm_flags};
    pthread_rwlock_unlock(&table_lock);
    return found;
}

bool weft_svm_atomics_in(cl_context context, const struct weft_launch_buffer *bufs, unsigned n)
{
    if (!n || !atomic_load_explicit(&atomics_allocs, memory_order_relaxed))
        return false;
    bool found = false;
    pthread_rwlock_rdlock(&table_lock);
    for (unsigned b = 0; b < n && !found; b++) {
        ptrdiff_t i = containing(bufs[b].data);
        found = i >= 0 && table[i].context == context && shares_atomics(&table[i]);
    }
    pthread_rwlock_unlock(&table_lock);
    return found;
}

static bool table_insert(const struct svm_alloc *a)
{
    pthread_rwlock_wrlock(&table_lock);
    if (table_count == table_cap) {
        size_t cap = table_cap ? table_cap * 2 : 64;
        struct svm_alloc *t = realloc(table, cap * sizeof *t);
        if (!t) {
            pthread_rwlock_unlock(&table_lock);
            return false;
        }
        table = t;
        table_cap = cap;
    }
    size_t at = (size_t)(last_at_or_below(a->base) + 1);
    memmove(&table[at + 1], &table[at], (table_count - at) * sizeof *table);
    table[at] = *a;
    table_count++;
    if (shares_atomics(a))
        atomic_fetch_add(&atomics_allocs, 1);
    pthread_rwlock_unlock(&table_lock);
    return true;
}

/* Removes the allocation that starts at `base`, belongs to `context` and was made by clSVMAlloc
 * (usm false) or a USM function (usm true) into *out; false when there is none: memory must be
 * freed by the API that allocated it. */
static bool table_remove(cl_context context, const void *base, bool usm, struct svm_alloc *out)
{
    pthread_rwlock_wrlock(&table_lock);
    ptrdiff_t i = last_at_or_below(base);
    bool found = i >= 0 && table[i].base == base && table[i].context == context &&
                 (table[i].usm_type != 0) == usm;
    if (found) {
        *out = table[i];
        memmove(&table[i], &table[i + 1], (table_count - (size_t)i - 1) * sizeof *table);
        table_count--;
        if (shares_atomics(out))
            atomic_fetch_sub(&atomics_allocs, 1);
    }
    pthread_rwlock_unlock(&table_lock);
    return found;
}

bool weft_svm_record_free(const char *func, cl_context context, void *p, bool usm)
{
    struct svm_alloc a;
    if (!table_remove(context, p, usm, &a)) {
        weft_error(func, CL_INVALID_VALUE, "%s: %p is not a pointer %s returned for this context (or it was freed)",
                   usm ? "refused" : "ignored", p, usm ? "a USM allocation function" : "clSVMAlloc");
        return false;
    }
    weft_storage_free(a.raw, a.raw_size);
    weft_object_unhold(WEFT_OBJ(a.context));
    return true;
}

/* ---- clSVMAlloc / clSVMFree ------------------------------------------------------------------ */

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)

CL_API_ENTRY void *CL_API_CALL
clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
    /* The specification's only failure report is NULL; WEFT_LOG=info says why. */
#define SVM_FAIL(...) return (weft_error(__func__, CL_INVALID_VALUE, __VA_ARGS__), NULL)
    if (!weft_object_is(context, WEFT_TYPE_CONTEXT))
        SVM_FAIL("returns NULL: context %p is not a valid context", (void *)context);
    const cl_svm_mem_flags known = ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    if (flags & ~known)
        SVM_FAIL("returns NULL: flags 0x%llx has bits that are no SVM memory flags", (unsigned long long)flags);
    cl_svm_mem_flags access = flags & ACCESS_FLAGS;
    if (access & (access - 1))
        SVM_FAIL("returns NULL: CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive");
    if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
        SVM_FAIL("returns NULL: CL_MEM_SVM_ATOMICS needs CL_MEM_SVM_FINE_GRAIN_BUFFER");
    cl_ulong max_alloc = context->device->max_mem_alloc_size;
    if (size == 0 || size > max_alloc)
        SVM_FAIL("returns NULL: size %zu is 0 or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu", size,
                 (unsigned long long)max_alloc);
    if (alignment & (alignment - 1))
        SVM_FAIL("returns NULL: alignment %u is not a power of two", alignment);
    if (alignment > WEFT_SVM_MAX_ALIGN)
        SVM_FAIL("returns NULL: alignment %u is larger than the %zu bytes Weft supports", alignment,
                 WEFT_SVM_MAX_ALIGN);
#undef SVM_FAIL
    struct weft_svm_range r = {.flags = flags};
    cl_int err;
    void *p = weft_svm_record_alloc(context, size, alignment, &r, &err);
    if (!p)
        weft_error(__func__, err, "returns NULL: cannot allocate %zu bytes", size);
    return p;
}

void *weft_svm_record_alloc(cl_context context, size_t size, size_t alignment, const struct weft_svm_range *r,
                            cl_int *err)
{
    /* alignment 0: the largest data type, long16 (128 bytes), which storage always gives */
    size_t align = alignment > WEFT_MEM_ALIGN ? alignment : WEFT_MEM_ALIGN;
    size_t extra = align > WEFT_MEM_ALIGN ? align - WEFT_MEM_ALIGN : 0;
    struct svm_alloc a = {.size = size, .flags = r->flags, .context = context, .raw_size = size + extra,
                          .usm_type = r->usm_type, .device = r->device, .usm_flags = r->usm_flags};
    *err = CL_OUT_OF_HOST_MEMORY;
    if (size > SIZE_MAX - extra)
        return NULL;
    a.raw = weft_storage_alloc(a.raw_size);
    if (!a.raw)
        return NULL;
    a.base = (char *)(((uintptr_t)a.raw + align - 1) & ~(uintptr_t)(align - 1));
    weft_object_hold(WEFT_OBJ(context));
    if (!table_insert(&a)) {
        weft_object_unhold(WEFT_OBJ(context));
        weft_storage_free(a.raw, a.raw_size);
        return NULL;
    }
    *err = CL_SUCCESS;
    return a.base;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer)
{
    if (!svm_pointer)
        return;
    /* Not weft_object_is(context): an application that released the context before freeing still
     * gets its memory back (the allocation held the context, so the pointer is still ours to
     * compare); a pointer of no context in the table is ignored. */
    weft_svm_record_free(__func__, context, svm_pointer, false);
}

/* ---- commands -------------------------------------------------------------------------------- */

#define CHECK_QUEUE(q)                                                                              \
    WEFT_CHECK(weft_object_is(q, WEFT_TYPE_QUEUE), CL_INVALID_COMMAND_QUEUE,                         \
               "command_queue %p is not a valid command queue", (void *)(q))

static bool is_pow2(size_t v)
{
    return v && !(v & (v - 1));
}

/* The payload of a copy or a fill. */
struct transfer_cmd {
    char *dst;
    const char *src;         /* NULL for a fill */
    size_t size;
    size_t pattern_size;
    unsigned char pattern[128];
};

static cl_int run_transfer(struct weft_command *cmd)
{
    struct transfer_cmd *p = cmd->payload;
    if (p->src)
        weft_mem_copy_bytes(p->dst, p->src, p->size);
    else
        weft_mem_fill_bytes(p->dst, p->size, p->pattern, p->pattern_size);
    return CL_SUCCESS;
}

/* A command that moves nothing (map, unmap, migrate, advise): it orders itself in the queue and
 * completes its event. */
static cl_int run_nothing(struct weft_command *cmd)
{
    (void)cmd;
    return CL_SUCCESS;
}

cl_int weft_svm_enqueue(const char *func, cl_command_queue q, cl_command_type type, bool blocking, void *dst,
                        const void *src, const void *pattern, size_t pattern_size, size_t size,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    bool moves = src || pattern;
    struct weft_command *cmd =
        weft_command_new(q, type, num_events, wait_list, moves ? sizeof(struct transfer_cmd) : 0);
    if (!cmd)
        return weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    if (moves) {
        struct transfer_cmd *p = cmd->payload;
        p->dst = dst;
        p->src = src;
        p->size = size;
        /* copied now: the application may reuse the pattern's memory once we return */
        if (pattern)
            memcpy(p->pattern, pattern, pattern_size);
        p->pattern_size = pattern_size;
        cmd->run = run_transfer;
        cmd->bytes = size;
    } else {
        cmd->run = run_nothing;
    }
    return weft_command_enqueue(cmd, blocking, event);
}

/* clEnqueueSVMFree */

struct free_cmd {
    void (CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *);
    void *user_data;
    cl_uint count;
    void *ptrs[];            /* a copy: the application may reuse its array once the call returns */
};

static cl_int run_free(struct weft_command *cmd)
{
    struct free_cmd *p = cmd->payload;
    if (p->fn) {
        p->fn(cmd->queue, p->count, p->count ? p->ptrs : NULL, p->user_data);
        return CL_SUCCESS;
    }
    for (cl_uint i = 0; i < p->count; i++)
        if (p->ptrs[i])
            weft_svm_record_free("clEnqueueSVMFree", cmd->queue->context, p->ptrs[i], false);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
                 void (CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void *[], void *),
                 void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                 cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK((num_svm_pointers == 0) == (svm_pointers == NULL), CL_INVALID_VALUE,
               "num_svm_pointers %u and svm_pointers %p disagree", num_svm_pointers, (void *)svm_pointers);
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    struct weft_command *cmd =
        weft_command_new(command_queue, CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list,
                         sizeof(struct free_cmd) + (size_t)num_svm_pointers * sizeof(void *));
    WEFT_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
    struct free_cmd *p = cmd->payload;
    p->fn = pfn_free_func;
    p->user_data = user_data;
    p->count = num_svm_pointers;
    if (num_svm_pointers)
        memcpy(p->ptrs, svm_pointers, num_svm_pointers * sizeof *svm_pointers);
    cmd->run = run_free;
    return weft_command_enqueue(cmd, false, event);
}

/* clEnqueueSVMMemcpy, clEnqueueSVMMemFill */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
                   const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
                   const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(dst_ptr, CL_INVALID_VALUE, "dst_ptr is NULL");
    WEFT_CHECK(src_ptr, CL_INVALID_VALUE, "src_ptr is NULL");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    /* overflow-safe: the distance between the two starts is at least size */
    uintptr_t d = (uintptr_t)dst_ptr, s = (uintptr_t)src_ptr;
    WEFT_CHECK(size == 0 || (d > s ? d - s : s - d) >= size, CL_MEM_COPY_OVERLAP,
               "[%p, +%zu) and [%p, +%zu) overlap", dst_ptr, size, src_ptr, size);
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_SVM_MEMCPY, blocking_copy, dst_ptr, src_ptr, NULL, 0,
                            size, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
                    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    WEFT_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    WEFT_CHECK(is_pow2(pattern_size) && pattern_size <= 128, CL_INVALID_VALUE,
               "pattern_size %zu is not a power of two from 1 to 128", pattern_size);
    WEFT_CHECK((uintptr_t)svm_ptr % pattern_size == 0, CL_INVALID_VALUE,
               "svm_ptr %p is not aligned to pattern_size %zu", svm_ptr, pattern_size);
    WEFT_CHECK(size % pattern_size == 0, CL_INVALID_VALUE, "size %zu is not a multiple of pattern_size %zu",
               size, pattern_size);
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_SVM_MEMFILL, false, svm_ptr, NULL, pattern,
                            pattern_size, size, num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMap, clEnqueueSVMUnmap: the region is the host's memory already (the device is
 * the host), so the commands only order themselves; a blocking map returns once every command
 * it waits for has completed, which is all the consistency a coarse-grain buffer needs. */

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    WEFT_CHECK(size, CL_INVALID_VALUE, "size is 0");
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    WEFT_CHECK(!(flags & ~known), CL_INVALID_VALUE, "map_flags 0x%llx has unknown bits", (unsigned long long)flags);
    WEFT_CHECK(!((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))),
               CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_SVM_MAP, blocking_map, NULL, NULL, NULL, 0, 0,
                            num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr, cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_SVM_UNMAP, false, NULL, NULL, NULL, 0, 0,
                            num_events_in_wait_list, event_wait_list, event);
}

/* clEnqueueSVMMigrateMem: host and device memory are one, so nothing moves; the ranges are
 * checked as the specification says (a range with a size must lie in one allocation of the
 * queue's context). */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
                       const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                       const cl_event *event_wait_list, cl_event *event)
{
    CHECK_QUEUE(command_queue);
    WEFT_CHECK(num_svm_pointers, CL_INVALID_VALUE, "num_svm_pointers is 0");
    WEFT_CHECK(svm_pointers, CL_INVALID_VALUE, "svm_pointers is NULL");
    const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    WEFT_CHECK(!(flags & ~known), CL_INVALID_VALUE, "flags 0x%llx has unknown migration bits",
               (unsigned long long)flags);
    for (cl_uint i = 0; sizes && i < num_svm_pointers; i++) {
        if (!sizes[i])
            continue;   /* the whole allocation containing the pointer, if any */
        struct weft_svm_range r;
        bool inside = weft_svm_find(command_queue->context, svm_pointers[i], &r) &&
                      sizes[i] <= r.size - (size_t)((const char *)svm_pointers[i] - r.base);
        WEFT_CHECK(inside, CL_INVALID_VALUE,
                   "svm_pointers[%u] %p and sizes[%u] %zu are not a range of one SVM allocation of the "
                   "queue's context", i, svm_pointers[i], i, sizes[i]);
    }
    cl_int err = weft_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return weft_svm_enqueue(__func__, command_queue, CL_COMMAND_SVM_MIGRATE_MEM, false, NULL, NULL, NULL, 0, 0,
                            num_events_in_wait_list, event_wait_list, event);
}

/* ---- kernels --------------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL,
               "kernel %p is not a valid kernel", (void *)kernel);
    const struct weft_kernel_meta *m = weft_kernel_meta_of(kernel);
    WEFT_CHECK(arg_index < m->num_args, CL_INVALID_ARG_INDEX, "arg_index %u but kernel '%s' has %u arguments",
               arg_index, m->name, m->num_args);
    const struct weft_arg_meta *a = &m->args[arg_index];
    /* Any pointer is a valid value under fine-grain system SVM (NULL too, as a NULL buffer is),
     * but only for an argument that is a pointer to global or constant memory. */
    WEFT_CHECK(!a->image_type && !a->is_sampler && (a->kind == WEFT_ARG_GLOBAL_PTR || a->kind == WEFT_ARG_CONSTANT_PTR),
               CL_INVALID_ARG_VALUE, "argument %u of kernel '%s' (%s) is not a pointer to __global or __constant "
               "memory", arg_index, m->name, a->type_name);
    return weft_kernel_set_arg_pointer(kernel, arg_index, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                    const void *param_value)
{
    WEFT_CHECK(weft_object_is(kernel, WEFT_TYPE_KERNEL), CL_INVALID_KERNEL,
               "kernel %p is not a valid kernel", (void *)kernel);
    WEFT_CHECK(!(param_value == NULL && param_value_size > 0), CL_INVALID_VALUE,
               "param_value is NULL but param_value_size is %zu", param_value_size);
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
        /* an empty set (size 0, NULL) says no SVM allocation is reached beyond the arguments */
        WEFT_CHECK(param_value_size % sizeof(void *) == 0, CL_INVALID_VALUE,
                   "param_value_size %zu is not a multiple of sizeof(void *)", param_value_size);
        cl_int err = weft_kernel_set_svm_ptrs(kernel, param_value, param_value_size / sizeof(void *));
        WEFT_CHECK(err == CL_SUCCESS, err, "no memory for %zu pointers", param_value_size / sizeof(void *));
        return CL_SUCCESS;
    }
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
        WEFT_CHECK(param_value && param_value_size == sizeof(cl_bool), CL_INVALID_VALUE,
                   "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM takes a cl_bool (%zu bytes), not %zu bytes",
                   sizeof(cl_bool), param_value_size);
        cl_bool on = *(const cl_bool *)param_value;
        weft_kernel_set_svm_system(kernel, on != CL_FALSE);
        return CL_SUCCESS;
    }
    default: {
        cl_int err;
        if (weft_usm_set_exec_info(kernel, param_name, param_value_size, param_value, &err))
            return err;
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not a kernel execution info name",
                          (unsigned)param_name);
    }
    }
}
