/* runtime/program.c — cl_program: creation from source or binary, build, compile, link,
 * and the program queries.
 *
 * Guarantees: every entry point validates its arguments in the specification's order with
 * its error codes; builds run synchronously (the notify callback, when given, is called
 * before the entry point returns); a program's build log, options, status and binary type
 * always describe its last build, compile or link; rebuilding is refused while kernel
 * objects exist. Binaries are Weft's own format (header + options + bitcode, checksummed),
 * so a foreign or damaged binary is rejected with CL_INVALID_BINARY, never loaded. Programs
 * from SPIR-V (clCreateProgramWithIL) keep the module as given (CL_PROGRAM_IL) and its
 * specialization constants; each build or compile translates it (compiler/spirv.h) with
 * the values set at that time.
 */
#include "runtime/program.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/platform.h"

bool weft_is_program(const void *p)
{
    return weft_object_is(p, WEFT_TYPE_PROGRAM);
}

static void program_destroy(struct weft_object *obj)
{
    cl_program p = (cl_program)obj;
    weft_image_free(p->image);
    weft_bitcode_free(&p->bitcode);
    free(p->source);
    free(p->il);
    free(p->il_specs);
    free(p->spec_values);
    free(p->options);
    free(p->log);
    pthread_mutex_destroy(&p->lock);
    weft_object_unhold(WEFT_OBJ(p->context));
    free(p);
}

static cl_program program_new(cl_context ctx)
{
    cl_program p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->options = strdup("");
    p->log = strdup("");
    if (!p->options || !p->log) {
        free(p->options);
        free(p->log);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    p->context = ctx;
    p->status = CL_BUILD_NONE;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    weft_object_hold(WEFT_OBJ(ctx));
    weft_object_init(&p->obj, WEFT_TYPE_PROGRAM, program_destroy);
    return p;
}

/* Checks a (num_devices, device_list) pair against the program's context. */
static cl_int check_devices(const char *func, cl_context ctx, cl_uint num_devices, const cl_device_id *devices)
{
    if ((num_devices == 0) != (devices == NULL))
        return weft_error(func, CL_INVALID_VALUE,
                          "device_list is %s but num_devices is %u", devices ? "given" : "NULL", num_devices);
    for (cl_uint i = 0; i < num_devices; i++)
        if (!weft_context_has_device(ctx, devices[i]))
            return weft_error(func, CL_INVALID_DEVICE, "device_list[%u] is not a device of the context", i);
    return CL_SUCCESS;
}

/* ---- creation ------------------------------------------------------------------------- */

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                          const size_t *lengths, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    WEFT_CHECK_RET(count > 0 && strings, CL_INVALID_VALUE, errcode_ret, NULL,
                   "count is 0 or strings is NULL");
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        WEFT_CHECK_RET(strings[i], CL_INVALID_VALUE, errcode_ret, NULL, "strings[%u] is NULL", i);
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    char *src = malloc(total + 1);
    WEFT_CHECK_RET(src, CL_OUT_OF_HOST_MEMORY, errcode_ret, NULL, "no memory for the source");
    size_t off = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(src + off, strings[i], n);
        off += n;
    }
    src[off] = 0;
    cl_program p = program_new(context);
    if (!p) {
        free(src);
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    }
    p->source = src;
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, p);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                          const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                          cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    WEFT_CHECK_RET(num_devices > 0 && device_list, CL_INVALID_VALUE, errcode_ret, NULL,
                   "device_list is NULL or num_devices is 0");
    for (cl_uint i = 0; i < num_devices; i++)
        WEFT_CHECK_RET(weft_context_has_device(context, device_list[i]), CL_INVALID_DEVICE, errcode_ret, NULL,
                       "device_list[%u] is not a device of the context", i);
    bool bad_args = !lengths || !binaries;
    for (cl_uint i = 0; !bad_args && i < num_devices; i++)
        if (!lengths[i] || !binaries[i]) {
            bad_args = true;
            if (binary_status)
                binary_status[i] = CL_INVALID_VALUE;
        }
    WEFT_CHECK_RET(!bad_args, CL_INVALID_VALUE, errcode_ret, NULL,
                   "lengths or binaries is NULL, or an entry is zero/NULL");
    /* One device, so one binary (a repeated device gets the same checks). */
    cl_program_binary_type type = 0;
    char *options = NULL;
    struct weft_bitcode bc = {0};
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_program_binary_type t;
        char *o = NULL;
        struct weft_bitcode b = {0};
        cl_int e = weft_binary_read(binaries[i], lengths[i], &t, &o, &b);
        if (binary_status)
            binary_status[i] = e == CL_SUCCESS ? CL_SUCCESS : CL_INVALID_BINARY;
        if (e != CL_SUCCESS) {
            err = e;
            continue;
        }
        if (!bc.data) {
            bc = b;
            options = o;
            type = t;
        } else {
            weft_bitcode_free(&b);
            free(o);
        }
    }
    if (err != CL_SUCCESS) {
        weft_bitcode_free(&bc);
        free(options);
        return WEFT_RETURN(errcode_ret, weft_error(__func__, err, "a binary is not a valid Weft program binary"),
                           NULL);
    }
    cl_program p = program_new(context);
    if (!p) {
        weft_bitcode_free(&bc);
        free(options);
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    }
    p->from_binary = true;
    p->bitcode = bc;
    p->binary_type = type;
    free(p->options);
    p->options = options;
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, p);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context context, const void *il, size_t length, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    WEFT_CHECK_RET(il && length, CL_INVALID_VALUE, errcode_ret, NULL, "il is NULL or length is 0");
    char why[256];
    cl_int err = weft_spirv_check(il, length, why, sizeof why);
    WEFT_CHECK_RET(err != CL_OUT_OF_HOST_MEMORY, CL_OUT_OF_HOST_MEMORY, errcode_ret, NULL, "no memory to read the IL");
    WEFT_CHECK_RET(err == CL_SUCCESS, CL_INVALID_VALUE, errcode_ret, NULL, "il is not a SPIR-V module the device takes: %s",
                   why);
    struct weft_spirv_spec *specs = NULL;
    size_t nspecs = 0;
    unsigned char *copy = malloc(length);
    cl_program p = NULL;
    if (!copy || weft_spirv_spec_constants(il, length, &specs, &nspecs) != CL_SUCCESS ||
        !(p = program_new(context))) {
        free(copy);
        free(specs);
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    }
    memcpy(copy, il, length);
    p->il = copy;
    p->il_size = length;
    p->il_specs = specs;
    p->il_num_specs = nspecs;
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, p);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices, const cl_device_id *device_list,
                                  const char *kernel_names, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    WEFT_CHECK_RET(num_devices > 0 && device_list, CL_INVALID_VALUE, errcode_ret, NULL,
                   "device_list is NULL or num_devices is 0");
    for (cl_uint i = 0; i < num_devices; i++)
        WEFT_CHECK_RET(weft_context_has_device(context, device_list[i]), CL_INVALID_DEVICE, errcode_ret, NULL,
                       "device_list[%u] is not a device of the context", i);
    WEFT_CHECK_RET(kernel_names, CL_INVALID_VALUE, errcode_ret, NULL, "kernel_names is NULL");
    WEFT_CHECK_RET(false, CL_INVALID_VALUE, errcode_ret, NULL,
                   "the device has no built-in kernels ('%s' requested)", kernel_names);
}

/* ---- build, compile, link ------------------------------------------------------------- */

static void set_string(char **dst, const char *s)
{
    char *d = strdup(s ? s : "");
    if (d) {
        free(*dst);
        *dst = d;
    }
}

/* Makes `exe` (consumed) the program's executable. */
static cl_int install_executable(cl_program p, struct weft_bitcode *exe, const char *options,
                                 bool opt_disable, struct weft_diag *diag)
{
    struct weft_image *img = NULL;
    struct weft_bitcode copy = {0};
    copy.data = malloc(exe->size);
    if (!copy.data) {
        weft_bitcode_free(exe);
        return CL_OUT_OF_HOST_MEMORY;
    }
    memcpy(copy.data, exe->data, exe->size);
    copy.size = exe->size;
    cl_int err = weft_image_create(&copy, options, true, opt_disable, &img, diag);
    if (err != CL_SUCCESS) {
        weft_bitcode_free(&copy);
        weft_bitcode_free(exe);
        return err;
    }
    weft_image_free(p->image);
    p->image = img;
    weft_bitcode_free(&p->bitcode);
    p->bitcode = *exe;
    exe->data = NULL;
    exe->size = 0;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
               void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    cl_int err = check_devices(__func__, program->context, num_devices, device_list);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data given without pfn_notify");

    pthread_mutex_lock(&program->lock);
    if (atomic_load(&program->num_kernels) > 0) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_OPERATION, "kernel objects are attached to the program");
    }
    if (program->from_binary && !program->bitcode.data) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_BINARY, "the program has no valid binary");
    }
    struct weft_diag diag;
    weft_diag_init(&diag);
    struct weft_build_options opts;
    err = weft_options_parse(options, WEFT_OPTIONS_COMPILE, &opts, &diag);
    if (err != CL_SUCCESS) {
        char *log = weft_diag_take(&diag);
        weft_error(__func__, err, "%s", log);
        free(log);
        pthread_mutex_unlock(&program->lock);
        return err;
    }
    /* From here on the build runs: status, options and log describe it. */
    program->status = CL_BUILD_IN_PROGRESS;
    set_string(&program->options, options);
    struct weft_bitcode exe = {0};
    if (program->source) {
        err = weft_build_executable(program->source, options, &opts, &exe, &diag);
    } else if (program->il) {
        err = weft_spirv_build_executable(program->il, program->il_size, program->spec_values,
                                          program->num_spec_values, options, &opts, &exe, &diag);
    } else if (program->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
        /* an executable binary: already linked and checked */
        exe.data = malloc(program->bitcode.size);
        if (exe.data) {
            memcpy(exe.data, program->bitcode.data, program->bitcode.size);
            exe.size = program->bitcode.size;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
    } else if (program->bitcode.data) {
        err = weft_link(&program->bitcode, 1, true, &opts, &exe, &diag);
    } else {
        weft_diag_error(&diag, "error: the program has neither source nor binary");
        err = CL_INVALID_PROGRAM;
    }
    if (err == CL_SUCCESS)
        err = install_executable(program, &exe, options, opts.opt_disable, &diag);
    weft_bitcode_free(&exe);
    weft_options_free(&opts);
    if (err != CL_SUCCESS) {
        weft_image_free(program->image);
        program->image = NULL;
        if (err == CL_COMPILE_PROGRAM_FAILURE || err == CL_LINK_PROGRAM_FAILURE || err == CL_INVALID_BINARY)
            err = CL_BUILD_PROGRAM_FAILURE;
    }
    program->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    free(program->log);
    program->log = weft_diag_take(&diag);
    pthread_mutex_unlock(&program->lock);
    if (err != CL_SUCCESS && err != CL_BUILD_PROGRAM_FAILURE)
        weft_error(__func__, err, "build failed");
    else if (err == CL_BUILD_PROGRAM_FAILURE)
        weft_error(__func__, err, "see the build log");
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
                 cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
                 void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    cl_int err = check_devices(__func__, program->context, num_devices, device_list);
    if (err != CL_SUCCESS)
        return err;
    WEFT_CHECK(num_input_headers == 0 ? (!input_headers && !header_include_names)
                                      : (input_headers && header_include_names),
               CL_INVALID_VALUE, "num_input_headers %u does not match input_headers/header_include_names",
               num_input_headers);
    WEFT_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data given without pfn_notify");
    for (cl_uint i = 0; i < num_input_headers; i++) {
        WEFT_CHECK(weft_is_program(input_headers[i]) && input_headers[i]->source, CL_INVALID_PROGRAM,
                   "input_headers[%u] is not a program created from source", i);
        WEFT_CHECK(header_include_names[i], CL_INVALID_VALUE, "header_include_names[%u] is NULL", i);
    }

    pthread_mutex_lock(&program->lock);
    if (!program->source && !program->il) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_OPERATION, "program was not created with source or IL");
    }
    if (atomic_load(&program->num_kernels) > 0) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_INVALID_OPERATION, "kernel objects are attached to the program");
    }
    struct weft_diag diag;
    weft_diag_init(&diag);
    struct weft_build_options opts;
    err = weft_options_parse(options, WEFT_OPTIONS_COMPILE, &opts, &diag);
    if (err != CL_SUCCESS) {
        char *log = weft_diag_take(&diag);
        if (err == CL_INVALID_BUILD_OPTIONS)
            err = CL_INVALID_COMPILER_OPTIONS;
        weft_error(__func__, err, "%s", log);
        free(log);
        pthread_mutex_unlock(&program->lock);
        return err;
    }
    struct weft_header *headers = NULL;
    if (num_input_headers && !program->il) {   /* an IL program ignores input headers */
        headers = calloc(num_input_headers, sizeof *headers);
        if (!headers) {
            weft_options_free(&opts);
            pthread_mutex_unlock(&program->lock);
            return CL_OUT_OF_HOST_MEMORY;
        }
        for (cl_uint i = 0; i < num_input_headers; i++) {
            headers[i].name = header_include_names[i];
            headers[i].source = input_headers[i]->source;  /* immutable once created */
        }
    }
    program->status = CL_BUILD_IN_PROGRESS;
    set_string(&program->options, options);
    struct weft_bitcode obj = {0};
    if (program->il)
        err = weft_spirv_translate(program->il, program->il_size, program->spec_values, program->num_spec_values,
                                   &opts, &obj, &diag);
    else
        err = weft_frontend_compile(program->source, &opts, headers, num_input_headers, &obj, &diag);
    free(headers);
    weft_options_free(&opts);
    if (err == CL_SUCCESS) {
        weft_image_free(program->image);
        program->image = NULL;
        weft_bitcode_free(&program->bitcode);
        program->bitcode = obj;
        program->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    } else {
        weft_image_free(program->image);
        program->image = NULL;
        weft_bitcode_free(&program->bitcode);
        program->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    }
    program->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    free(program->log);
    program->log = weft_diag_take(&diag);
    pthread_mutex_unlock(&program->lock);
    if (err != CL_SUCCESS)
        weft_error(__func__, err, "see the build log");
    if (pfn_notify)
        pfn_notify(program, user_data);
    return err;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id *device_list, const char *options,
              cl_uint num_input_programs, const cl_program *input_programs,
              void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    cl_int err = check_devices(__func__, context, num_devices, device_list);
    if (err != CL_SUCCESS)
        return WEFT_RETURN(errcode_ret, err, NULL);
    WEFT_CHECK_RET(num_input_programs > 0 && input_programs, CL_INVALID_VALUE, errcode_ret, NULL,
                   "num_input_programs is 0 or input_programs is NULL");
    WEFT_CHECK_RET(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret, NULL,
                   "user_data given without pfn_notify");
    for (cl_uint i = 0; i < num_input_programs; i++) {
        WEFT_CHECK_RET(weft_is_program(input_programs[i]), CL_INVALID_PROGRAM, errcode_ret, NULL,
                       "input_programs[%u] is not a live program", i);
        WEFT_CHECK_RET(input_programs[i]->context == context, CL_INVALID_CONTEXT, errcode_ret, NULL,
                       "input_programs[%u] belongs to another context", i);
    }
    struct weft_diag diag;
    weft_diag_init(&diag);
    struct weft_build_options opts;
    err = weft_options_parse(options, WEFT_OPTIONS_LINK, &opts, &diag);
    if (err != CL_SUCCESS) {
        char *log = weft_diag_take(&diag);
        if (err == CL_INVALID_BUILD_OPTIONS)
            err = CL_INVALID_LINKER_OPTIONS;
        weft_error(__func__, err, "%s", log);
        free(log);
        return WEFT_RETURN(errcode_ret, err, NULL);
    }
    /* Snapshot the inputs' bitcode under their locks. */
    struct weft_bitcode *inputs = calloc(num_input_programs, sizeof *inputs);
    if (!inputs) {
        weft_options_free(&opts);
        return WEFT_RETURN(errcode_ret, CL_OUT_OF_HOST_MEMORY, NULL);
    }
    for (cl_uint i = 0; i < num_input_programs && err == CL_SUCCESS; i++) {
        cl_program in = input_programs[i];
        pthread_mutex_lock(&in->lock);
        if (!in->bitcode.data || (in->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                                  in->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
            err = weft_error(__func__, CL_INVALID_OPERATION,
                             "input_programs[%u] is not a compiled object or a library", i);
        } else if ((inputs[i].data = malloc(in->bitcode.size))) {
            memcpy(inputs[i].data, in->bitcode.data, in->bitcode.size);
            inputs[i].size = in->bitcode.size;
        } else {
            err = CL_OUT_OF_HOST_MEMORY;
        }
        pthread_mutex_unlock(&in->lock);
    }
    cl_program p = NULL;
    if (err == CL_SUCCESS && !(p = program_new(context)))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        for (cl_uint i = 0; i < num_input_programs; i++)
            weft_bitcode_free(&inputs[i]);
        free(inputs);
        weft_options_free(&opts);
        weft_diag_free(&diag);
        return WEFT_RETURN(errcode_ret, err, NULL);
    }
    set_string(&p->options, options);
    struct weft_bitcode out = {0};
    err = weft_link(inputs, num_input_programs, !opts.create_library, &opts, &out, &diag);
    for (cl_uint i = 0; i < num_input_programs; i++)
        weft_bitcode_free(&inputs[i]);
    free(inputs);
    if (err == CL_SUCCESS) {
        if (opts.create_library) {
            p->bitcode = out;
            out.data = NULL;
            out.size = 0;
            p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        } else {
            err = install_executable(p, &out, options, false, &diag);
        }
    }
    weft_bitcode_free(&out);
    weft_options_free(&opts);
    if (err == CL_INVALID_BINARY)
        err = CL_LINK_PROGRAM_FAILURE;
    p->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    free(p->log);
    p->log = weft_diag_take(&diag);
    if (err != CL_SUCCESS)
        weft_error(__func__, err, "see the build log");
    if (pfn_notify)
        pfn_notify(p, user_data);
    if (err != CL_SUCCESS && err != CL_LINK_PROGRAM_FAILURE) {
        clReleaseProgram(p);
        return WEFT_RETURN(errcode_ret, err, NULL);
    }
    return WEFT_RETURN(errcode_ret, err, p);
}

/* ---- queries ---------------------------------------------------------------------------- */

static cl_int binary_of(cl_program p, unsigned char **out, size_t *size)
{
    if (!p->bitcode.data || p->binary_type == CL_PROGRAM_BINARY_TYPE_NONE) {
        *out = NULL;
        *size = 0;
        return CL_SUCCESS;
    }
    return weft_binary_write(p->binary_type, p->options, &p->bitcode, out, size);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size, void *param_value,
                 size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    cl_int err;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint,
                        weft_object_refcount(WEFT_OBJ(program)));
    case CL_PROGRAM_CONTEXT:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_context, program->context);
    /* Every device of a context runs the same code (sub-devices are parts of one CPU), so a
     * program is built for, and reports, all of them; its one binary serves each. */
    case CL_PROGRAM_NUM_DEVICES:
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_uint, program->context->num_devices);
    case CL_PROGRAM_DEVICES:
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, program->context->devices,
                               program->context->num_devices * sizeof(cl_device_id));
    case CL_PROGRAM_SOURCE:
        return weft_info_string(param_value_size, param_value, param_value_size_ret,
                                program->source ? program->source : "");
    case CL_PROGRAM_IL:
        /* immutable once created: no lock needed */
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, program->il, program->il_size);
    case CL_PROGRAM_BINARY_SIZES: {
        pthread_mutex_lock(&program->lock);
        unsigned char *bin = NULL;
        size_t n = 0;
        err = binary_of(program, &bin, &n);
        pthread_mutex_unlock(&program->lock);
        free(bin);
        if (err != CL_SUCCESS)
            return err;
        const cl_uint devs = program->context->num_devices;
        size_t sizes[devs];
        for (cl_uint i = 0; i < devs; i++)
            sizes[i] = n;
        return weft_info_bytes(param_value_size, param_value, param_value_size_ret, sizes, sizeof sizes);
    }
    case CL_PROGRAM_BINARIES: {
        const cl_uint devs = program->context->num_devices;
        if (param_value_size_ret)
            *param_value_size_ret = devs * sizeof(unsigned char *);
        if (!param_value)
            return CL_SUCCESS;
        WEFT_CHECK(param_value_size >= devs * sizeof(unsigned char *), CL_INVALID_VALUE,
                   "param_value_size %zu is smaller than one pointer per device (%u)", param_value_size, devs);
        pthread_mutex_lock(&program->lock);
        unsigned char *bin = NULL;
        size_t n = 0;
        err = binary_of(program, &bin, &n);
        pthread_mutex_unlock(&program->lock);
        for (cl_uint i = 0; err == CL_SUCCESS && n && i < devs; i++) {
            unsigned char *dst = ((unsigned char **)param_value)[i];
            if (dst)   /* NULL: the application skips this device */
                memcpy(dst, bin, n);
        }
        free(bin);
        return err;
    }
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
        pthread_mutex_lock(&program->lock);
        struct weft_image *img = program->image;
        if (!img || program->status != CL_BUILD_SUCCESS) {
            pthread_mutex_unlock(&program->lock);
            return weft_error(__func__, CL_INVALID_PROGRAM_EXECUTABLE,
                              "the program has no successfully built executable");
        }
        if (param_name == CL_PROGRAM_NUM_KERNELS) {
            size_t n = img->num_kernels;
            pthread_mutex_unlock(&program->lock);
            WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, size_t, n);
        }
        size_t len = 1;
        for (cl_uint i = 0; i < img->num_kernels; i++)
            len += strlen(img->kernels[i].name) + 1;
        char *names = calloc(len, 1);
        if (!names) {
            pthread_mutex_unlock(&program->lock);
            return CL_OUT_OF_HOST_MEMORY;
        }
        for (cl_uint i = 0; i < img->num_kernels; i++) {
            if (i)
                strcat(names, ";");
            strcat(names, img->kernels[i].name);
        }
        pthread_mutex_unlock(&program->lock);
        err = weft_info_string(param_value_size, param_value, param_value_size_ret, names);
        free(names);
        return err;
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
        /* Neither OpenCL C nor a SPIR-V module Weft builds has program-scope constructors or
         * destructors (a translated module with llvm.global_ctors/dtors fails to build). */
        pthread_mutex_lock(&program->lock);
        bool built = program->image && program->status == CL_BUILD_SUCCESS;
        pthread_mutex_unlock(&program->lock);
        if (!built)
            return weft_error(__func__, CL_INVALID_PROGRAM_EXECUTABLE,
                              "the program has no successfully built executable");
        WEFT_INFO_VALUE(param_value_size, param_value, param_value_size_ret, cl_bool, CL_FALSE);
    }
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
    }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                      size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    WEFT_CHECK(weft_context_has_device(program->context, device), CL_INVALID_DEVICE,
               "device is not the program's device");
    cl_int err;
    pthread_mutex_lock(&program->lock);
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: {
        cl_build_status s = program->status;
        err = weft_info_bytes(param_value_size, param_value, param_value_size_ret, &s, sizeof s);
        break;
    }
    case CL_PROGRAM_BUILD_OPTIONS:
        err = weft_info_string(param_value_size, param_value, param_value_size_ret, program->options);
        break;
    case CL_PROGRAM_BUILD_LOG:
        err = weft_info_string(param_value_size, param_value, param_value_size_ret, program->log);
        break;
    case CL_PROGRAM_BINARY_TYPE: {
        cl_program_binary_type t = program->binary_type;
        err = weft_info_bytes(param_value_size, param_value, param_value_size_ret, &t, sizeof t);
        break;
    }
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        /* the bytes of the executable's program-scope variables (compiler/globals.h); 0 when
         * there is no executable built */
        size_t z = program->image && program->status == CL_BUILD_SUCCESS ? (size_t)program->image->globals_size : 0;
        err = weft_info_bytes(param_value_size, param_value, param_value_size_ret, &z, sizeof z);
        break;
    }
    default:
        err = weft_error(__func__, CL_INVALID_VALUE, "unknown param_name 0x%x", (unsigned)param_name);
    }
    pthread_mutex_unlock(&program->lock);
    return err;
}

/* ---- lifetime ----------------------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    weft_object_retain(WEFT_OBJ(program));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    weft_object_release(WEFT_OBJ(program));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramReleaseCallback(cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    WEFT_CHECK(weft_is_program(program), CL_INVALID_PROGRAM, "program is not a live program");
    WEFT_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    return weft_error(__func__, CL_INVALID_OPERATION,
                      "the device has no program-scope global destructors");
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size, const void *spec_value)
{
    WEFT_CHECK(weft_is_program(program) && program->il, CL_INVALID_PROGRAM,
               "program is not a live program created from IL");
    /* il_specs is immutable: read without the lock */
    const struct weft_spirv_spec *spec = NULL;
    for (size_t i = 0; i < program->il_num_specs; i++)
        if (program->il_specs[i].spec_id == spec_id)
            spec = &program->il_specs[i];
    WEFT_CHECK(spec, CL_INVALID_SPEC_ID, "the module has no specialization constant with SpecId %u", spec_id);
    WEFT_CHECK(spec_value, CL_INVALID_VALUE, "spec_value is NULL");
    WEFT_CHECK(spec_size == spec->size, CL_INVALID_VALUE,
               "spec_size %zu does not match the %u byte%s of specialization constant %u%s", spec_size, spec->size,
               spec->size == 1 ? "" : "s", spec_id, spec->is_bool ? " (a boolean: 1, a cl_uchar)" : "");
    struct weft_spirv_spec_value v = {.spec_id = spec_id, .size = spec->size};
    memcpy(v.bytes, spec_value, spec_size);
    pthread_mutex_lock(&program->lock);
    for (size_t i = 0; i < program->num_spec_values; i++)
        if (program->spec_values[i].spec_id == spec_id) {
            program->spec_values[i] = v;
            pthread_mutex_unlock(&program->lock);
            return CL_SUCCESS;
        }
    struct weft_spirv_spec_value *nv =
        realloc(program->spec_values, (program->num_spec_values + 1) * sizeof *nv);
    if (!nv) {
        pthread_mutex_unlock(&program->lock);
        return weft_error(__func__, CL_OUT_OF_HOST_MEMORY, "no memory for the value");
    }
    nv[program->num_spec_values++] = v;
    program->spec_values = nv;
    pthread_mutex_unlock(&program->lock);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void)
{
    return CL_SUCCESS;   /* the compiler is a child process per build: nothing stays loaded */
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
    WEFT_CHECK(platform == weft_platform_get(), CL_INVALID_PLATFORM, "platform is not the Weft platform");
    return CL_SUCCESS;
}
