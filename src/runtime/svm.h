/* runtime/svm.h — shared virtual memory (OpenCL 3.0 section 5.6): what other modules ask of the
 * SVM allocations clSVMAlloc made (runtime/svm.c).
 *
 * The device is the host CPU, so one address space serves both: an SVM allocation is plain host
 * memory, and the device reports coarse- and fine-grain buffer SVM, fine-grain system SVM (any
 * host pointer, malloc'd or not, may reach a kernel) and SVM atomics (the kernel's atomics are
 * the CPU's, coherent with the host's). What needs bookkeeping is only the questions the API
 * asks about a pointer: which allocation of a context contains it (CL_MEM_USES_SVM_POINTER,
 * clCreateBuffer's size rule, clEnqueueSVMMigrateMem's ranges), and whether clSVMFree was given
 * one. */
#ifndef WEFT_RUNTIME_SVM_H
#define WEFT_RUNTIME_SVM_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* What the device reports as CL_DEVICE_SVM_CAPABILITIES. */
#define WEFT_SVM_CAPABILITIES                                                                   \
    (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |                       \
     CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS)

/* The largest alignment clSVMAlloc honours (bytes): above the 128 of long16 the specification
 * requires, so that page- and huge-page-aligned requests of CPU code work too. */
#define WEFT_SVM_MAX_ALIGN ((size_t)2 << 20)

/* One allocation of clSVMAlloc, or of cl_intel_unified_shared_memory's clHostMemAllocINTEL,
 * clDeviceMemAllocINTEL or clSharedMemAllocINTEL (runtime/usm.c): both live in one table, so
 * "which allocation contains this pointer" has one answer whichever API made it. */
struct weft_svm_range {
    char *base;              /* what the allocating call returned */
    size_t size;             /* the size it was asked for */
    cl_svm_mem_flags flags;  /* clSVMAlloc: as given; USM: CL_MEM_READ_WRITE */
    cl_uint usm_type;        /* 0: clSVMAlloc; else CL_MEM_TYPE_{HOST,DEVICE,SHARED}_INTEL */
    cl_device_id device;     /* USM: the device named at allocation (NULL for host, may be NULL
                                for shared) */
    cl_bitfield usm_flags;   /* USM: the CL_MEM_ALLOC_FLAGS_INTEL property, 0 when none */
};

/* The allocation of `context` that contains `p` (base <= p < base + size), SVM or USM: true and
 * *out filled, or false. Never dereferences `context` or `p`; thread-safe. */
bool weft_svm_find(cl_context context, const void *p, struct weft_svm_range *out);

/* Allocates and records `size` bytes (zeroed) aligned to `align` (a power of two, at most
 * WEFT_SVM_MAX_ALIGN; 0: the device's largest type) for `context`, described by `r` (its base
 * and size are filled here). NULL and *err = CL_OUT_OF_HOST_MEMORY when memory runs out. The
 * caller validated everything; the allocation holds the context until it is freed. */
void *weft_svm_record_alloc(cl_context context, size_t size, size_t align, const struct weft_svm_range *r,
                            cl_int *err);
/* Frees the allocation of `context` that starts at `p` when it was made by clSVMAlloc (usm
 * false) or by a USM allocation function (usm true); false, and nothing freed, when there is
 * none of that kind (WEFT_LOG=info says so, naming `func`). */
bool weft_svm_record_free(const char *func, cl_context context, void *p, bool usm);

/* Enqueues a copy (src != NULL), a fill (`pattern`, copied now) or, with neither, a command
 * that only orders itself (map, unmap, migrate, advise): the SVM and USM commands. */
cl_int weft_svm_enqueue(const char *func, cl_command_queue q, cl_command_type type, bool blocking, void *dst,
                        const void *src, const void *pattern, size_t pattern_size, size_t size,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* True when one of the n memory objects' storage lies in an SVM allocation of `context` made
 * with CL_MEM_SVM_ATOMICS, or in a USM allocation (concurrent atomic access): a kernel on it may wait for the host through SVM atomics (a cl_mem
 * created over such an allocation shares them), so its launch must not run on the application's
 * thread (runtime/ndrange.c). Answers false at once while the process has no such allocation. */
struct weft_launch_buffer;   /* exec/launch.h */
bool weft_svm_atomics_in(cl_context context, const struct weft_launch_buffer *bufs, unsigned n);

#endif
