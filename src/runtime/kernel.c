/* runtime/kernel.c — cl_kernel: creation, arguments, queries, and what a launch needs
 * (runtime/kernel.h): argument snapshots, packing per weft/abi.h, and compiled variants.
 *
 * Guarantees: a kernel holds its program (and so the program's executable) for its whole
 * life; argument checks follow clSetKernelArg's rules (index, size, __local NULL value,
 * buffer of the same context); a memory object set as an argument is held by the kernel
 * until replaced or the kernel is destroyed, so a launch never sees a freed buffer; a
 * snapshot taken at enqueue time is independent of later clSetKernelArg calls. A pointer
 * argument may instead hold a raw pointer (clSetKernelArgSVMPointer, runtime/svm.c), and the
 * kernel its clSetKernelExecInfo settings; a snapshot with either says so
 * (weft_kernel_args_raw_memory), because what the kernel reaches is then no memory object.
 */
#include "runtime/kernel.h"

#include "compiler/transform/schedule.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "compiler/codegen.h"
#include "compiler/compiler.h"
#include "compiler/specialize.h"
#include "exec/pool.h"
#include "runtime/compile_ahead.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/mem.h"
#include "runtime/program.h"
#include "runtime/sampler.h"
#include "runtime/variant_choice.h"

struct arg_value {
    bool set;
    size_t local_size;          /* __local: bytes requested */
    cl_mem mem;                 /* global/constant: NOT held (see clSetKernelArg), or NULL */
    unsigned char *bytes;       /* by value: meta size bytes */
    bool raw;                   /* global/constant set by clSetKernelArgSVMPointer: `ptr` */
    const void *ptr;
};

struct _cl_kernel {
    struct weft_object obj;
    cl_program program;                    /* held */
    struct weft_image *image;              /* the program's executable (alive while we exist) */
    cl_uint index;
    const struct weft_kernel_meta *meta;
    pthread_mutex_t lock;                  /* guards args */
    struct arg_value *args;
    atomic_uint_fast64_t one_group_ns;     /* one-group launches' run time, a moving average
                                              (weft_kernel_note_one_group_run); 0: none yet */
    atomic_uint_fast64_t item_ps;          /* picoseconds per work-item of launches with at most
                                              a work-group per thread, a moving average
                                              (weft_kernel_note_few_groups_run); 0: none yet */
    atomic_bool launched;                  /* weft_kernel_note_launch */
    /* clSetKernelExecInfo (runtime/svm.c), guarded by lock: CL_KERNEL_EXEC_INFO_SVM_PTRS, and
     * whether CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM was set to CL_TRUE explicitly (its
     * default is CL_TRUE too, but only an explicit CL_TRUE says the kernel walks pointers it
     * finds in memory) */
    void **svm_ptrs;
    size_t num_svm_ptrs;
    bool svm_system;
    /* cl_intel_unified_shared_memory's exec infos (runtime/usm.c), guarded by lock: how many
     * pointers CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL named (only the fact matters: the kernel
     * reaches memory no argument lists; every USM allocation is host memory, nothing to make
     * resident), and which CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL were set to CL_TRUE */
    size_t num_usm_ptrs;
    unsigned usm_indirect;
};

struct weft_kernel_args {
    cl_kernel kernel;                      /* held */
    unsigned char *block;                  /* packed, meta->args_size bytes (>= 8) */
    size_t *local_sizes;                   /* per argument; 0 when not __local */
    cl_mem *mems;                          /* held */
    struct weft_launch_buffer *bufs;       /* mems' storage and sizes; all four in a's allocation */
    cl_uint num_mems;
    char raw_why[96];                      /* "" or why the kernel may reach memory that is not
                                              in mems (weft_kernel_args_raw_memory) */
};

static bool is_kernel(const void *k)
{
    return weft_object_is(k, WEFT_TYPE_KERNEL);
}

static void arg_clear(struct arg_value *a)
{
    free(a->bytes);
    memset(a, 0, sizeof *a);
}

static void kernel_destroy(struct weft_object *obj)
{
    cl_kernel k = (cl_kernel)obj;
    for (cl_uint i = 0; i < k->meta->num_args; i++)
        arg_clear(&k->args[i]);
    free(k->args);
    free(k->svm_ptrs);
    pthread_mutex_destroy(&k->lock);
    atomic_fetch_sub(&k->program->num_kernels, 1);
    weft_object_unhold(WEFT_OBJ(k->program));
    free(k);
}

/* Called with program->lock held and an executable present. */
static cl_kernel kernel_new(cl_program p, cl_uint index)
{
    cl_kernel k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->program = p;
    k->image = p->image;
    k->index = index;
    k->meta = &p->image->kernels[index];
    k->args = calloc(k->meta->num_args ? k->meta->num_args : 1, sizeof *k->args);
    if (!k->args) {
        free(k);
        return NULL;
    }
    pthread_mutex_init(&k->lock, NULL);
    weft_object_hold(WEFT_OBJ(p));
    atomic_fetch_add(&p->num_kernels, 1);
    weft_object_init(&k->obj, WEFT_TYPE_KERNEL, kernel_destroy);
    return k;
}

static bool program_executable(cl_program p)
{
    return p->image && p->status == CL_BUILD_SUCCESS;
}

/* The variants of the local size the kernel declares (reqd_work_group_size, else
 * work_group_size_hint) are compiled before its first launch (runtime/variant_choice.h). */
static void prepare_declared_size(cl_kernel k)
{
    const size_t *ls = k->meta->reqd_work_group_size[0] ? k->meta->reqd_work_group_size
                                                         : k->meta->work_group_size_hint;
    if (ls[0])
        weft_prepare_variants(k, 3, ls);
}

CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_is_program(program), CL_INVALID_PROGRAM, errcode_ret, NULL,
                   "program is not a live program");
    pthread_mutex_lock(&program->lock);
    if (!program_executable(program)) {
        pthread_mutex_unlock(&program->lock);
        return WEFT_RETURN(errcode_ret,
                           weft_error(__func__, CL_INVALID_PROGRAM_EXECUTABLE,
                                      "the program has no successfully built executable"),
                           NULL);
    }
    if (!kernel_name) {
        pthread_mutex_unlock(&program->lock);
        return WEFT_RETURN(errcode_ret, weft_error(__func__, CL_INVALID_VALUE, "kernel_name is NULL"), NULL);
    }
    int idx = weft_image_find_kernel(program->image, kernel_name);
    if (idx < 0) {
        pthread_mutex_unlock(&program->lock);
        return WEFT_RETURN(errcode_ret,
                           weft_error(__func__, CL_INVALID_KERNEL_NAME,
                                      "the program has no kernel named '%s'", kernel_name),
                           NULL);
    }
    cl_kernel k = kernel_new(program, (cl_uint)idx);
    pthread_mutex_unlock(&program->lock);
    if (k)
        prepare_declared_size(k);
    return WEFT_RETURN(errcode_ret, k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY, k);
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel *kernels, cl_uint *num_kernels_ret)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    pthread_mutex_lock(&program->lock);
    if (!program_executable(program)) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_PROGRAM_EXECUTABLE,
                          "the program has no successfully built executable");
    }
    cl_uint n = program->image->num_kernels;
    if (kernels && num_kernels < n) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_VALUE, "num_kernels %u is less than the %u kernels",
                          num_kernels, n);
    }
    if (kernels) {
        for (cl_uint i = 0; i < n; i++) {
            kernels[i] = kernel_new(program, i);
            if (!kernels[i]) {
                pthread_mutex_unlock(&program->lock);
                for (cl_uint j = 0; j < i; j++)
                    clReleaseKernel(kernels[j]);
                return CL_OUT_OF_HOST_MEMORY;
            }
        }
    }
    pthread_mutex_unlock(&program->lock);
    for (cl_uint i = 0; kernels && i < n; i++)
        prepare_declared_size(kernels[i]);
    if (num_kernels_ret)
        *num_kernels_ret = n;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(is_kernel(source_kernel), CL_INVALID_KERNEL, errcode_ret, NULL,
                   "source_kernel is not a live kernel");
    cl_program p = source_kernel->program;
    pthread_mutex_lock(&p->lock);
    cl_kernel k = kernel_new(p, source_kernel->index);
    pthread_mutex_unlock(&p->lock);
    if (!k)
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    /* kernel_new took the program's current image: the same one, since no rebuild is
     * possible while source_kernel exists. */
    pthread_mutex_lock(&source_kernel->lock);
    bool ok = true;
    for (cl_uint i = 0; i < k->meta->num_args; i++) {
        struct arg_value *s = &source_kernel->args[i], *d = &k->args[i];
        *d = *s;
        d->bytes = NULL;
        if (s->bytes) {
            d->bytes = malloc(k->meta->args[i].size);
            if (d->bytes)
                memcpy(d->bytes, s->bytes, k->meta->args[i].size);
            else {
                d->set = false;
                ok = false;
            }
        }
    }
    /* clSetKernelExecInfo's settings are copied too (clCloneKernel: an exact copy) */
    k->svm_system = source_kernel->svm_system;
    k->num_usm_ptrs = source_kernel->num_usm_ptrs;
    k->usm_indirect = source_kernel->usm_indirect;
    if (source_kernel->num_svm_ptrs) {
        k->svm_ptrs = malloc(source_kernel->num_svm_ptrs * sizeof *k->svm_ptrs);
        if (k->svm_ptrs) {
            memcpy(k->svm_ptrs, source_kernel->svm_ptrs, source_kernel->num_svm_ptrs * sizeof *k->svm_ptrs);
            k->num_svm_ptrs = source_kernel->num_svm_ptrs;
        } else {
            ok = false;
        }
    }
    pthread_mutex_unlock(&source_kernel->lock);
    if (!ok) {
        clReleaseKernel(k);
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    }
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, k);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    weft_object_retain(WEFT_OBJ(kernel));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    if (weft_object_refcount(WEFT_OBJ(kernel)) == 1)
        weft_compile_drop_guesses(kernel);   /* the application's last reference goes */
    weft_object_release(WEFT_OBJ(kernel));
    return CL_SUCCESS;
}

/* ---- arguments ------------------------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    const struct weft_kernel_meta *m = kernel->meta;
    WEFT_CHECK(arg_index < m->num_args, CL_INVALID_ARG_INDEX, "arg_index %u but kernel '%s' has %u arguments",
               arg_index, m->name, m->num_args);
    const struct weft_arg_meta *a = &m->args[arg_index];
    struct arg_value nv = {.set = true};
    if (a->image_type) {
        WEFT_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
                   "argument %u is an image: arg_size must be sizeof(cl_mem) = %zu, not %zu", arg_index,
                   sizeof(cl_mem), arg_size);
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        WEFT_CHECK(weft_mem_is_image(mem), CL_INVALID_MEM_OBJECT, "argument %u (%s) is not a live image",
                   arg_index, a->type_name);
        WEFT_CHECK(mem->type == a->image_type, CL_INVALID_ARG_VALUE,
                   "argument %u is a %s but the image has type 0x%x", arg_index, a->type_name, mem->type);
        WEFT_CHECK(mem->context == kernel->program->context, CL_INVALID_MEM_OBJECT,
                   "argument %u: the image belongs to another context", arg_index);
        WEFT_CHECK(!(a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY && (mem->flags & CL_MEM_WRITE_ONLY)),
                   CL_INVALID_ARG_VALUE, "argument %u is read_only but the image was created CL_MEM_WRITE_ONLY",
                   arg_index);
        WEFT_CHECK(!(a->access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (mem->flags & CL_MEM_READ_ONLY)),
                   CL_INVALID_ARG_VALUE, "argument %u is write_only but the image was created CL_MEM_READ_ONLY",
                   arg_index);
        nv.mem = mem;
        goto store;
    }
    if (a->is_sampler) {
        WEFT_CHECK(arg_size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
                   "argument %u is a sampler: arg_size must be sizeof(cl_sampler) = %zu, not %zu", arg_index,
                   sizeof(cl_sampler), arg_size);
        cl_sampler smp = arg_value ? *(const cl_sampler *)arg_value : NULL;
        WEFT_CHECK(weft_object_is(smp, WEFT_TYPE_SAMPLER), CL_INVALID_SAMPLER,
                   "argument %u is not a live sampler", arg_index);
        WEFT_CHECK(smp->context == kernel->program->context, CL_INVALID_SAMPLER,
                   "argument %u: the sampler belongs to another context", arg_index);
        /* the kernel's value is the sampler's bits (weft/abi.h), taken now */
        nv.bytes = calloc(1, a->size > sizeof(uint64_t) ? a->size : sizeof(uint64_t));
        WEFT_CHECK(nv.bytes, CL_OUT_OF_HOST_MEMORY, "no memory for argument %u", arg_index);
        uint64_t bits = smp->bits;
        memcpy(nv.bytes, &bits, sizeof bits);
        goto store;
    }
    switch (a->kind) {
    case WEFT_ARG_LOCAL_PTR:
        WEFT_CHECK(!arg_value, CL_INVALID_ARG_VALUE, "argument %u is __local: arg_value must be NULL", arg_index);
        WEFT_CHECK(arg_size > 0, CL_INVALID_ARG_SIZE, "argument %u is __local: arg_size must be > 0", arg_index);
        nv.local_size = arg_size;
        break;
    case WEFT_ARG_GLOBAL_PTR:
    case WEFT_ARG_CONSTANT_PTR: {
        WEFT_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
                   "argument %u is a buffer: arg_size must be sizeof(cl_mem) = %zu, not %zu", arg_index,
                   sizeof(cl_mem), arg_size);
        cl_mem mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        if (mem) {
            WEFT_CHECK(weft_object_is(mem, WEFT_TYPE_MEM) && mem->type == CL_MEM_OBJECT_BUFFER,
                       CL_INVALID_MEM_OBJECT, "argument %u is not a live buffer", arg_index);
            WEFT_CHECK(mem->context == kernel->program->context, CL_INVALID_MEM_OBJECT,
                       "argument %u: the buffer belongs to another context", arg_index);
            nv.mem = mem;
        }
        break;
    }
    default:
        WEFT_CHECK(arg_value, CL_INVALID_ARG_VALUE, "argument %u is passed by value: arg_value is NULL", arg_index);
        WEFT_CHECK(arg_size == a->size, CL_INVALID_ARG_SIZE,
                   "argument %u (%s) takes %zu bytes, not %zu", arg_index, a->type_name, a->size, arg_size);
        nv.bytes = malloc(arg_size);
        WEFT_CHECK(nv.bytes, CL_OUT_OF_HOST_MEMORY, "no memory for argument %u", arg_index);
        memcpy(nv.bytes, arg_value, arg_size);
        break;
    }
    /* The kernel does not hold the buffer: setting an argument is not a reference in OpenCL,
     * and a buffer the application releases must be destroyed (and its destructor callbacks
     * run) even while it is still set as an argument (OpenCL-CTS
     * api/retain_mem_object_set_kernel_arg). A launch holds it instead, from the enqueue
     * (weft_kernel_capture_args) until the command completes. */
store:
    pthread_mutex_lock(&kernel->lock);
    struct arg_value old = kernel->args[arg_index];
    kernel->args[arg_index] = nv;
    pthread_mutex_unlock(&kernel->lock);
    arg_clear(&old);
    return CL_SUCCESS;
}

/* ---- queries ------------------------------------------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size, void *param_value,
                size_t *param_value_size_ret)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
        return weft_info_string(param_value_size, param_value, param_value_size_ret, kernel->meta->name);
    case CL_KERNEL_NUM_ARGS:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint, kernel->meta->num_args);
    case CL_KERNEL_REFERENCE_COUNT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint,
                        weft_object_refcount(WEFT_OBJ(kernel)));
    case CL_KERNEL_CONTEXT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_context, kernel->program->context);
    case CL_KERNEL_PROGRAM:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_program, kernel->program);
    case CL_KERNEL_ATTRIBUTES:
        return weft_info_string(param_value_size, param_value, param_value_size_ret, kernel->meta->attributes);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name, size_t param_value_size,
                   void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    const struct weft_kernel_meta *m = kernel->meta;
    WEFT_CHECK(arg_indx < m->num_args, CL_INVALID_ARG_INDEX, "arg_indx %u but kernel '%s' has %u arguments",
               arg_indx, m->name, m->num_args);
    const struct weft_arg_meta *a = &m->args[arg_indx];
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_kernel_arg_address_qualifier,
                        a->address);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_kernel_arg_access_qualifier,
                        a->access);
    case CL_KERNEL_ARG_TYPE_NAME:
        return weft_info_string(param_value_size, param_value, param_value_size_ret, a->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_kernel_arg_type_qualifier,
                        a->type_qualifier);
    case CL_KERNEL_ARG_NAME:
        WEFT_CHECK(m->has_arg_names && a->name, CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                   "argument names need the -cl-kernel-arg-info build option");
        return weft_info_string(param_value_size, param_value, param_value_size_ret, a->name);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
    }
}

/* The SIMD width in floats of the host: what work-group sizes should be a multiple of. */
static size_t simd_floats(void)
{
    /* read once: the features string is long, and a launch without a local size asks */
    static _Atomic size_t width;
    size_t w = atomic_load_explicit(&width, memory_order_relaxed);
    if (w)
        return w;
    const char *f = weft_codegen_host_features();
    w = strstr(f, "+avx512f") ? 16 : strstr(f, "+avx") ? 8 : 4;
    atomic_store_explicit(&width, w, memory_order_relaxed);
    return w;
}

static size_t max_wg_size(const struct weft_kernel_meta *m, cl_device_id dev)
{
    if (m->reqd_work_group_size[0])
        return m->reqd_work_group_size[0] * m->reqd_work_group_size[1] * m->reqd_work_group_size[2];
    return dev && dev->max_work_group_size ? dev->max_work_group_size : 4096;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                         size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "kernel is not a live kernel");
    cl_context ctx = kernel->program->context;
    cl_device_id dev = ctx->device;   /* every device of a context has the same limits */
    WEFT_CHECK(device ? weft_context_has_device(ctx, device) : ctx->num_devices == 1, CL_INVALID_DEVICE,
               device ? "device is not one of the kernel's devices" : "device is NULL but the kernel has several");
    const struct weft_kernel_meta *m = kernel->meta;
    switch (param_name) {
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        return weft_error(__func__, CL_INVALID_VALUE,
                          "CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels");
    case CL_KERNEL_WORK_GROUP_SIZE:
        /* the application is choosing its local size from this: the likeliest one it launches
         * with, unless the kernel declared one (prepared at clCreateKernel) */
        if (!m->reqd_work_group_size[0] && !m->work_group_size_hint[0])
            weft_prepare_variants(kernel, 1, (size_t[3]){max_wg_size(m, dev), 1, 1});
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t, max_wg_size(m, dev));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, m->reqd_work_group_size,
                               sizeof m->reqd_work_group_size);
    case CL_KERNEL_LOCAL_MEM_SIZE: {
        cl_ulong total = m->static_local_size;
        pthread_mutex_lock(&kernel->lock);
        for (cl_uint i = 0; i < m->num_args; i++)
            if (m->args[i].kind == WEFT_ARG_LOCAL_PTR && kernel->args[i].set)
                total += kernel->args[i].local_size;
        pthread_mutex_unlock(&kernel->lock);
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_ulong, total);
    }
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t, simd_floats());
    case CL_KERNEL_PRIVATE_MEM_SIZE:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_ulong, m->private_size);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
    }
}

/* ---- sub-groups ---------------------------------------------------------------------------- */

/* Sub-group size S and count for local size `ls` (work_dim dimensions): S as the variant the
 * launch would run has it (compiled now if needed, so that the launch uses what is reported),
 * the largest sub-group min(S, work-items) and ceil(work-items / S) sub-groups. */
static cl_int sub_groups_for(cl_kernel k, cl_uint work_dim, const size_t *ls, size_t *max_size, size_t *count)
{
    size_t l[3] = {1, 1, 1}, items = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        l[d] = ls[d];
        items *= ls[d];
    }
    unsigned s = 1;
    cl_int err = weft_kernel_sub_group_width(k, work_dim, l, &s);
    if (err != CL_SUCCESS)
        return err;
    *max_size = s < items ? s : items;
    *count = (items + s - 1) / s;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                        size_t input_value_size, const void *input_value, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    const char *fn = __func__;
    WEFT_CHECK(is_kernel(kernel), CL_INVALID_KERNEL, "%s: kernel is not a live kernel", fn);
    cl_context ctx = kernel->program->context;
    cl_device_id dev = ctx->device;   /* every device of a context has the same limits */
    WEFT_CHECK(device ? weft_context_has_device(ctx, device) : ctx->num_devices == 1, CL_INVALID_DEVICE,
               "%s: %s", fn, device ? "device is not one of the kernel's devices" : "device is NULL but the kernel has several");
    const struct weft_kernel_meta *m = kernel->meta;
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        /* input: the local size, its dimension count given by input_value_size */
        WEFT_CHECK(input_value && input_value_size && input_value_size % sizeof(size_t) == 0 &&
                       input_value_size <= 3 * sizeof(size_t),
                   CL_INVALID_VALUE, "%s: input_value must be 1 to 3 size_t (a local size), got %zu bytes%s", fn,
                   input_value_size, input_value ? "" : " at NULL");
        size_t ls[3];
        cl_uint dims = (cl_uint)(input_value_size / sizeof(size_t));
        memcpy(ls, input_value, input_value_size);
        uint64_t items = 1;
        for (cl_uint d = 0; d < dims; d++) {
            WEFT_CHECK(ls[d] != 0, CL_INVALID_VALUE, "%s: local size %u is 0", fn, d);
            items = ls[d] > UINT64_MAX / items ? UINT64_MAX : items * ls[d];
        }
        WEFT_CHECK(items <= max_wg_size(m, dev), CL_INVALID_VALUE,
                   "%s: %llu work-items per work-group exceed the kernel's CL_KERNEL_WORK_GROUP_SIZE %zu", fn,
                   (unsigned long long)items, max_wg_size(m, dev));
        if (param_value && param_value_size < sizeof(size_t))
            return weft_info_bytes(param_value_size, param_value, param_value_size_ret, &items, sizeof(size_t));
        size_t max_size = 0, count = 0;
        cl_int err = sub_groups_for(kernel, dims, ls, &max_size, &count);
        if (err != CL_SUCCESS)
            return err;
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t,
                        param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE ? max_size : count);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        WEFT_CHECK(input_value && input_value_size == sizeof(size_t), CL_INVALID_VALUE,
                   "%s: input_value must be one size_t (a sub-group count)", fn);
        WEFT_CHECK(param_value_size % sizeof(size_t) == 0 && param_value_size >= sizeof(size_t) &&
                       param_value_size <= 3 * sizeof(size_t),
                   CL_INVALID_VALUE, "%s: param_value_size %zu is not 1 to 3 size_t", fn, param_value_size);
        size_t want, out[3] = {0, 0, 0};
        memcpy(&want, input_value, sizeof want);
        cl_uint dims = (cl_uint)(param_value_size / sizeof(size_t));
        /* one dimension of `want` whole sub-groups: want * S work-items where S is the
         * sub-group size of that local size (W when vectorized, else 1) */
        size_t limit = max_wg_size(m, dev) < dev->max_work_item_sizes[0] ? max_wg_size(m, dev)
                                                                           : dev->max_work_item_sizes[0];
        bool reqd = m->reqd_work_group_size[0] != 0;
        size_t tries[2] = {0, want};
        if (reqd) {
            tries[0] = m->reqd_work_group_size[0];   /* the only size there is */
        } else if (want && want <= limit) {
            /* the sub-group size of a one-dimensional group: want * that many work-items */
            size_t l[3] = {want, 1, 1};
            unsigned s = 1;
            cl_int err = weft_kernel_sub_group_width(kernel, 1, l, &s);
            if (err != CL_SUCCESS)
                return err;
            tries[0] = s > 1 && want <= limit / s ? want * s : 0;
        }
        for (int t = 0; t < 2 && want && !out[0]; t++) {
            size_t l[3] = {tries[t], 1, 1}, max_size = 0, count = 0;
            if (!l[0] || l[0] > limit || (reqd && (m->reqd_work_group_size[0] != l[0] ||
                                                  m->reqd_work_group_size[1] != 1 || m->reqd_work_group_size[2] != 1)))
                continue;
            cl_int err = sub_groups_for(kernel, 1, l, &max_size, &count);
            if (err != CL_SUCCESS)
                return err;
            if (count == want && l[0] % max_size == 0) {
                out[0] = l[0];
                for (cl_uint d = 1; d < dims; d++)
                    out[d] = 1;
            }
        }
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, out, dims * sizeof(size_t));
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
        /* with a required size, its count; else one work-item per sub-group is possible (a
         * local size of 1 x N is never vectorized), so the kernel's largest work-group */
        size_t n = max_wg_size(m, dev);
        if (m->reqd_work_group_size[0]) {
            size_t max_size = 0;
            cl_int err = sub_groups_for(kernel, 3, m->reqd_work_group_size, &max_size, &n);
            if (err != CL_SUCCESS)
                return err;
        }
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t, n);
    }
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
        /* OpenCL C has no attribute for it (SPIR-V's SubgroupsPerWorkgroup does) */
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t, 0);
    default:
        break;
    }
    return weft_error(fn, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
}

/* cl_khr_subgroups' entry point, reached through the ICD dispatch table: the device does not
 * report the extension (it requires independent forward progress, runtime/features.h). */
CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                           size_t input_value_size, const void *input_value, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret)
{
    (void)kernel, (void)device, (void)param_name, (void)input_value_size, (void)input_value;
    (void)param_value_size, (void)param_value, (void)param_value_size_ret;
    return weft_error(__func__, CL_INVALID_OPERATION,
                      "cl_khr_subgroups is not supported (sub-groups have no independent forward "
                      "progress); use clGetKernelSubGroupInfo");
}

/* ---- launch support (runtime/kernel.h) ------------------------------------------------ */

void weft_kernel_launch_info(cl_kernel k, struct weft_kernel_launch_info *out)
{
    const struct weft_kernel_meta *m = k->meta;
    memset(out, 0, sizeof *out);
    for (int d = 0; d < 3; d++) {
        out->reqd_work_group_size[d] = m->reqd_work_group_size[d];
        out->work_group_size_hint[d] = m->work_group_size_hint[d];
    }
    out->max_work_group_size = max_wg_size(m, k->program->context->device);
    out->preferred_multiple = simd_floats();
    out->uniform_work_groups = m->uniform_work_groups;
}

/* Adds a sample to a moving average (3/4 the old, 1/4 the new; 0 means none yet, so an average
 * is never 0): one run stretched by a page fault or a preemption does not move a decision that
 * reads it, and a kernel that turned long crosses any bound after a run or two. */
static void note_average(atomic_uint_fast64_t *avg, uint64_t sample)
{
    uint64_t old = atomic_load_explicit(avg, memory_order_relaxed);
    uint64_t v = old ? old - old / 4 + sample / 4 : sample;
    atomic_store_explicit(avg, v ? v : 1, memory_order_relaxed);
}

void weft_kernel_note_one_group_run(cl_kernel k, uint64_t ns)
{
    note_average(&k->one_group_ns, ns);
}

uint64_t weft_kernel_one_group_run_ns(cl_kernel k)
{
    return atomic_load_explicit(&k->one_group_ns, memory_order_relaxed);
}

void weft_kernel_note_few_groups_run(cl_kernel k, uint64_t ns, uint64_t group_items)
{
    if (!group_items)
        return;
    note_average(&k->item_ps, ns >= UINT64_MAX / 1000 ? UINT64_MAX / group_items : ns * 1000 / group_items);
}

uint64_t weft_kernel_item_ps(cl_kernel k)
{
    return atomic_load_explicit(&k->item_ps, memory_order_relaxed);
}

void weft_kernel_note_launch(cl_kernel k)
{
    if (!atomic_load_explicit(&k->launched, memory_order_relaxed))
        atomic_store_explicit(&k->launched, true, memory_order_relaxed);
}

bool weft_kernel_launched(cl_kernel k)
{
    return atomic_load_explicit(&k->launched, memory_order_relaxed);
}

size_t weft_kernel_code_size(cl_kernel k)
{
    return k->meta->code_size;
}

bool weft_kernel_group_blind(cl_kernel k)
{
    const struct weft_kernel_meta *m = k->meta;
    return m->group_blind && !m->reqd_work_group_size[0] && !m->work_group_size_hint[0];
}

bool weft_kernel_has_images(cl_kernel k)
{
    for (cl_uint i = 0; i < k->meta->num_args; i++)
        if (k->meta->args[i].image_type || k->meta->args[i].is_sampler)
            return true;
    return false;
}

bool weft_kernel_uses_printf(cl_kernel k)
{
    return k->meta->uses_printf;
}

void weft_kernel_args_free(struct weft_kernel_args *a)
{
    if (!a)
        return;
    for (cl_uint i = 0; i < a->num_mems; i++)
        weft_object_unhold(WEFT_OBJ(a->mems[i]));
    if (a->kernel)
        weft_object_unhold(WEFT_OBJ(a->kernel));
    free(a);   /* the block, local sizes and buffers are in the same allocation */
}

cl_int weft_kernel_capture_args(cl_kernel k, struct weft_kernel_args **out)
{
    const struct weft_kernel_meta *m = k->meta;
    /* One allocation per launch (four cost a tenth of a short launch, 2-core VM): the struct, the
     * 64-byte aligned argument block, the __local sizes, the held buffers and their storage */
    const size_t nmax = m->num_args ? m->num_args : 1;
    const size_t off_block = weft_round_up(sizeof(struct weft_kernel_args), 64);
    const size_t block_size = weft_round_up(m->args_size ? m->args_size : 8, 64);
    const size_t off_locals = off_block + block_size;
    const size_t off_mems = off_locals + nmax * sizeof(size_t);
    const size_t off_bufs = off_mems + nmax * sizeof(cl_mem);
    const size_t total = weft_round_up(off_bufs + nmax * sizeof(struct weft_launch_buffer), 64);
    unsigned char *all = aligned_alloc(64, total);
    if (!all)
        return CL_OUT_OF_HOST_MEMORY;
    memset(all, 0, total);
    struct weft_kernel_args *a = (struct weft_kernel_args *)all;
    a->block = all + off_block;
    a->local_sizes = (size_t *)(all + off_locals);
    a->mems = (cl_mem *)(all + off_mems);
    a->bufs = (struct weft_launch_buffer *)(all + off_bufs);
    pthread_mutex_lock(&k->lock);
    for (cl_uint i = 0; i < m->num_args; i++) {
        const struct arg_value *v = &k->args[i];
        const struct weft_arg_meta *am = &m->args[i];
        if (!v->set) {
            pthread_mutex_unlock(&k->lock);
            weft_kernel_args_free(a);
            return weft_error("clEnqueueNDRangeKernel", CL_INVALID_KERNEL_ARGS,
                              "argument %u of kernel '%s' is not set", i, m->name);
        }
        if (am->image_type || am->is_sampler) {
            if (am->is_sampler) {
                memcpy(a->block + am->offset, v->bytes, sizeof(uint64_t));
                continue;
            }
            /* an image: the address of its kernel descriptor; the launch holds the image */
            if (!weft_mem_is_image(v->mem)) {
                pthread_mutex_unlock(&k->lock);
                weft_kernel_args_free(a);
                return weft_error("clEnqueueNDRangeKernel", CL_INVALID_KERNEL_ARGS,
                                  "argument %u of kernel '%s': its image has been released", i, m->name);
            }
            const void *desc = &v->mem->image->kdesc;
            memcpy(a->block + am->offset, &desc, sizeof desc);
            weft_object_hold(WEFT_OBJ(v->mem));
            a->bufs[a->num_mems] = (struct weft_launch_buffer){v->mem->data, v->mem->size};
            a->mems[a->num_mems++] = v->mem;
            continue;
        }
        switch (am->kind) {
        case WEFT_ARG_LOCAL_PTR:
            a->local_sizes[i] = v->local_size;
            break;
        case WEFT_ARG_GLOBAL_PTR:
        case WEFT_ARG_CONSTANT_PTR: {
            if (v->raw) {
                /* an SVM or system pointer: the kernel gets it as it is; what it reaches is no
                 * memory object the engine can list */
                memcpy(a->block + am->offset, &v->ptr, sizeof v->ptr);
                if (!a->raw_why[0])
                    snprintf(a->raw_why, sizeof a->raw_why, "argument %u is an SVM pointer", i);
                break;
            }
            /* The argument does not keep its buffer alive: a buffer the application has
             * released since clSetKernelArg is gone from the registry and is refused here
             * instead of being dereferenced. */
            if (v->mem && !weft_object_is(v->mem, WEFT_TYPE_MEM)) {
                pthread_mutex_unlock(&k->lock);
                weft_kernel_args_free(a);
                return weft_error("clEnqueueNDRangeKernel", CL_INVALID_KERNEL_ARGS,
                                  "argument %u of kernel '%s': its buffer has been released", i, m->name);
            }
            void *ptr = v->mem ? (void *)v->mem->data : NULL;
            memcpy(a->block + am->offset, &ptr, sizeof ptr);
            if (v->mem) {
                weft_object_hold(WEFT_OBJ(v->mem));
                a->bufs[a->num_mems] = (struct weft_launch_buffer){v->mem->data, v->mem->size};
                a->mems[a->num_mems++] = v->mem;
            }
            break;
        }
        default:
            memcpy(a->block + am->offset, v->bytes, am->size);
            break;
        }
    }
    if (!a->raw_why[0] && k->num_svm_ptrs)
        snprintf(a->raw_why, sizeof a->raw_why, "clSetKernelExecInfo gave it %zu SVM pointer(s)", k->num_svm_ptrs);
    if (!a->raw_why[0] && k->svm_system)
        snprintf(a->raw_why, sizeof a->raw_why, "clSetKernelExecInfo set CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM");
    if (!a->raw_why[0] && k->num_usm_ptrs)
        snprintf(a->raw_why, sizeof a->raw_why, "clSetKernelExecInfo gave it %zu USM pointer(s)", k->num_usm_ptrs);
    if (!a->raw_why[0] && k->usm_indirect)
        snprintf(a->raw_why, sizeof a->raw_why, "clSetKernelExecInfo allowed indirect USM access");
    pthread_mutex_unlock(&k->lock);
    weft_object_hold(WEFT_OBJ(k));
    a->kernel = k;
    *out = a;
    return CL_SUCCESS;
}

const void *weft_kernel_args_pack(struct weft_kernel_args *a, const struct weft_variant *v,
                                  size_t *local_mem_total)
{
    const struct weft_kernel_meta *m = a->kernel->meta;
    uint64_t cur = weft_round_up(v->static_local_size, WEFT_LOCAL_ALIGN);
    for (cl_uint i = 0; i < m->num_args; i++) {
        if (m->args[i].kind != WEFT_ARG_LOCAL_PTR)
            continue;
        uint64_t off = cur;
        memcpy(a->block + m->args[i].offset, &off, sizeof off);
        cur = weft_round_up(cur + a->local_sizes[i], WEFT_LOCAL_ALIGN);
    }
    if (local_mem_total)
        *local_mem_total = (size_t)cur;
    return a->block;
}

/* ---- stack ------------------------------------------------------------------------------- */

/* The most work-items a variant for local size `ls` runs side by side, each lane with its own
 * copy of the kernel's private arrays on the stack: 1 for scalar work-item loops; else a packet
 * of P = W x U lanes (transform/vectorize_plan.c, choose_packet): W the target's SIMD width (at most
 * 16) or WEFT_VECTORIZE's, U at most 16 packets and P at most W times the largest power of two
 * of W-lane groups that the x extent holds. The rules are the compiler's; the compiled variant
 * does not report its stack frame, so the runtime bounds it from them. */
static uint64_t lanes_bound(const struct weft_variant_spec *spec, const uint64_t ls[3])
{
    if (spec->code == WEFT_CODE_SCALAR)
        return 1;
    if (weft_vectorize_off())
        return 1;
    unsigned w = 0, u = 0;
    weft_vector_setting(NULL, &w, &u);   /* w = 0: the target's width, which is at most 16 */
    uint64_t W = w >= 2 ? w : 16, packets = 1;
    while (packets < 16 && packets * 2 <= ls[0] / W)
        packets *= 2;
    return W * packets;
}

/* Chooses the variant's schedule for the stack its private arrays need (kernel.h) and sets
 * *stack to that need; CL_OUT_OF_RESOURCES when even one copy per thread does not fit. */
static cl_int fit_stack(cl_kernel k, const uint64_t ls[3], struct weft_variant_spec *spec, size_t *stack)
{
    const uint64_t limit = weft_pool_stack_limit(), priv = k->meta->private_size;
    *stack = 0;
    if (priv == 0)
        return CL_SUCCESS;
    uint64_t lanes = lanes_bound(spec, ls);
    if (lanes > 1 && priv > limit / lanes && priv <= limit && !k->meta->uses_sub_groups) {
        weft_log(WEFT_LOG_INFO, "kernel '%s': %llu vector lanes of %llu bytes of private memory each would "
                 "need more than %llu bytes of stack; running its scalar work-item loops",
                 k->meta->name, (unsigned long long)lanes, (unsigned long long)priv, (unsigned long long)limit);
        spec->code = WEFT_CODE_SCALAR;
        lanes = 1;
    }
    if (priv > limit / lanes)
        return weft_error("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES,
                          "kernel '%s' needs %llu bytes of private memory per work-item%s, more than the "
                          "%llu bytes of stack a thread gives a launch (WEFT_STACK_MAX_MB)",
                          k->meta->name, (unsigned long long)priv,
                          lanes > 1 ? " in each of its vector lanes (it uses sub-groups)" : "",
                          (unsigned long long)limit);
    *stack = (size_t)(priv * lanes);
    return CL_SUCCESS;
}

/* weft_kernel_get_variant, and with `compile` false weft_kernel_peek_variant. */
static cl_int get_variant(cl_kernel k, cl_uint work_dim, const size_t local[3],
                          const struct weft_variant_spec *want, bool compile, struct weft_variant *out)
{
    uint64_t ls[3] = {1, 1, 1};
    for (cl_uint d = 0; d < work_dim && d < 3; d++)
        ls[d] = local[d] ? local[d] : 1;
    struct weft_variant_spec spec = *want;
    size_t stack = 0;
    cl_int serr = fit_stack(k, ls, &spec, &stack);
    if (serr != CL_SUCCESS)
        return serr;
    struct weft_compiled_variant cv;
    cl_int peek = compile ? CL_SUCCESS : weft_image_peek_variant(k->image, k->index, ls, &spec, &cv);
    if (peek != CL_SUCCESS)
        return peek;
    struct weft_diag diag;
    weft_diag_init(&diag);
    cl_int err = compile ? weft_image_get_variant(k->image, k->index, ls, &spec, &cv, &diag) : CL_SUCCESS;
    if (compile)
        weft_compile_ahead_backend_used();   /* when it ran the backend or the JIT */
    if (err != CL_SUCCESS) {
        char *log = weft_diag_take(&diag);
        weft_error("clEnqueueNDRangeKernel", err, "compiling kernel '%s' for local size %llux%llux%llu "
                   "failed: %s", k->meta->name, (unsigned long long)ls[0], (unsigned long long)ls[1],
                   (unsigned long long)ls[2], log);
        free(log);
        return err;
    }
    weft_diag_free(&diag);
    out->fn = (weft_wg_fn)cv.fn;
    out->static_local_size = (size_t)cv.static_local_size;
    out->scratch_size = (size_t)cv.scratch_size;
    out->key = cv.key;
    out->bfo_loops = cv.bfo_loops;
    out->votes_bfo = cv.votes_bfo;
    out->vec_linearized = cv.vec_linearized;
    out->vec_row_walks = cv.vec_row_walks;
    out->vec_wide_items = cv.vec_wide_items;
    out->sub_group_width = cv.sub_group_width ? cv.sub_group_width : 1;
    out->stack_size = stack;
    out->spec = spec;
    return CL_SUCCESS;
}

cl_int weft_kernel_get_variant(cl_kernel k, cl_uint work_dim, const size_t local[3],
                               const struct weft_variant_spec *want, struct weft_variant *out)
{
    return get_variant(k, work_dim, local, want, true, out);
}

cl_int weft_kernel_peek_variant(cl_kernel k, cl_uint work_dim, const size_t local[3],
                                const struct weft_variant_spec *want, struct weft_variant *out)
{
    return get_variant(k, work_dim, local, want, false, out);
}

uint32_t weft_kernel_compile_ms(cl_kernel k)
{
    return weft_image_compile_ms(k->image, k->index);
}

bool weft_kernel_uses_sub_groups(cl_kernel k)
{
    return k->meta->uses_sub_groups;
}

/* The variant of the full work-groups is the one runtime/ndrange.c runs first
 * (weft_variant_first: depth-first under WEFT_SCHEDULE=auto, which a kernel with sub-groups
 * never leaves, or what WEFT_VARIANT forces). */
cl_int weft_kernel_sub_group_width(cl_kernel k, cl_uint work_dim, const size_t local[3], unsigned *width)
{
    struct weft_variant_spec spec;
    weft_variant_first(false, &spec);
    struct weft_variant v;
    cl_int err = weft_kernel_get_variant(k, work_dim, local, &spec, &v);
    if (err == CL_SUCCESS)
        *width = v.sub_group_width;
    return err;
}

uint64_t weft_kernel_code_key(cl_kernel k)
{
    uint8_t opt_disable = k->image->opt_disable;
    uint64_t h = weft_hash64(&opt_disable, sizeof opt_disable, k->image->bitcode_hash);
    return weft_hash64(k->meta->name, strlen(k->meta->name) + 1, h);
}

const char *weft_kernel_name(cl_kernel k)
{
    return k->meta->name;
}

char *weft_kernel_program_globals(cl_kernel k)
{
    return (char *)k->image->globals;
}

cl_program weft_kernel_program(cl_kernel k)
{
    return k->program;
}

const struct weft_kernel_meta *weft_kernel_meta_of(cl_kernel k)
{
    return k->meta;
}

const struct weft_launch_buffer *weft_kernel_args_buffers(const struct weft_kernel_args *a, unsigned *n)
{
    *n = a->num_mems;
    return a->bufs;
}

/* ---- shared virtual memory (runtime/svm.c checks the arguments, kernel.h) ----------------- */

cl_int weft_kernel_set_arg_pointer(cl_kernel k, cl_uint index, const void *p)
{
    pthread_mutex_lock(&k->lock);
    struct arg_value old = k->args[index];
    k->args[index] = (struct arg_value){.set = true, .raw = true, .ptr = p};
    pthread_mutex_unlock(&k->lock);
    arg_clear(&old);
    return CL_SUCCESS;
}

cl_int weft_kernel_set_svm_ptrs(cl_kernel k, void *const *ptrs, size_t n)
{
    void **copy = NULL;
    if (n) {
        copy = malloc(n * sizeof *copy);
        if (!copy)
            return CL_OUT_OF_HOST_MEMORY;
        memcpy(copy, ptrs, n * sizeof *copy);
    }
    pthread_mutex_lock(&k->lock);
    void **old = k->svm_ptrs;
    k->svm_ptrs = copy;
    k->num_svm_ptrs = n;
    pthread_mutex_unlock(&k->lock);
    free(old);
    return CL_SUCCESS;
}

void weft_kernel_set_svm_system(cl_kernel k, bool on)
{
    pthread_mutex_lock(&k->lock);
    k->svm_system = on;
    pthread_mutex_unlock(&k->lock);
}

void weft_kernel_set_usm_ptrs(cl_kernel k, size_t n)
{
    pthread_mutex_lock(&k->lock);
    k->num_usm_ptrs = n;
    pthread_mutex_unlock(&k->lock);
}

void weft_kernel_set_usm_indirect(cl_kernel k, unsigned bit, bool on)
{
    pthread_mutex_lock(&k->lock);
    k->usm_indirect = on ? k->usm_indirect | bit : k->usm_indirect & ~bit;
    pthread_mutex_unlock(&k->lock);
}

const char *weft_kernel_args_raw_memory(const struct weft_kernel_args *a)
{
    return a->raw_why[0] ? a->raw_why : NULL;
}

/* ---- what the engine may ask of a launch's kernel (exec/launch.h) -------------------------- */

static int launch_get_variant(struct _cl_kernel *k, unsigned work_dim, const size_t local[3],
                              const struct weft_variant_spec *spec, struct weft_variant *out)
{
    return weft_kernel_get_variant(k, work_dim, local, spec, out);
}

static uint64_t launch_code_key(struct _cl_kernel *k)
{
    return weft_kernel_code_key(k);
}

const struct weft_kernel_ops weft_kernel_launch_ops = {launch_get_variant, launch_code_key};
