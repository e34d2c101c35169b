/* runtime/program.h — program objects (one device: the Weft CPU). */
#ifndef WEFT_RUNTIME_PROGRAM_H
#define WEFT_RUNTIME_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>

#include "compiler/compiler.h"
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
};

bool weft_is_program(const void *p);

#endif
