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

/* One allocation of clSVMAlloc. */
struct weft_svm_range {
    char *base;              /* what clSVMAlloc returned */
    size_t size;             /* the size it was asked for */
    cl_svm_mem_flags flags;  /* as given */
};

/* The allocation of `context` that contains `p` (base <= p < base + size): true and *out filled,
 * or false. Never dereferences `context` or `p`; thread-safe. */
bool weft_svm_find(cl_context context, const void *p, struct weft_svm_range *out);

/* True when one of the n memory objects' storage lies in an SVM allocation of `context` made
 * with CL_MEM_SVM_ATOMICS: a kernel on it may wait for the host through SVM atomics (a cl_mem
 * created over such an allocation shares them), so its launch must not run on the application's
 * thread (runtime/ndrange.c). Answers false at once while the process has no such allocation. */
struct weft_launch_buffer;   /* exec/launch.h */
bool weft_svm_atomics_in(cl_context context, const struct weft_launch_buffer *bufs, unsigned n);

#endif
