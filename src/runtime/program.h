/* runtime/program.h — program objects (one device: the Weft CPU). */
#ifndef WEFT_RUNTIME_PROGRAM_H
#define WEFT_RUNTIME_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>

#include "compiler/compiler.h"
#include "compiler/spirv.h"
#include "runtime/object.h"

struct _cl_program {
    struct weft_object obj;
    cl_context context;                    /* held */
    pthread_mutex_t lock;                  /* guards everything below */
    char *source;                          /* clCreateProgramWithSource; NULL otherwise */
    bool from_binary;
    cl_build_status status;
    cl_program_binary_type binary_type;    /* of `bitcode` */
    char *options;                         /* of the last build, compile or link ("" when none) */
    char *log;                             /* of the last build, compile or link ("" when none) */
    struct weft_bitcode bitcode;           /* object, library or executable bitcode */
    struct weft_image *image;              /* the executable (binary_type EXECUTABLE, built) */
    atomic_uint num_kernels;               /* live kernel objects made from this program */
    /* helpers may add fields below */
    unsigned char *il;                     /* clCreateProgramWithIL: the module as given; NULL otherwise */
    size_t il_size;
    struct weft_spirv_spec *il_specs;      /* its specialization constants (immutable) */
    size_t il_num_specs;
    struct weft_spirv_spec_value *spec_values;   /* clSetProgramSpecializationConstant, one per id */
    size_t num_spec_values;
};

bool weft_is_program(const void *p);

#endif
