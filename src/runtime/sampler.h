/* runtime/sampler.h — sampler objects (sampler.c). */
#ifndef WEFT_RUNTIME_SAMPLER_H
#define WEFT_RUNTIME_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/object.h"

struct _cl_sampler {
    struct weft_object obj;
    cl_context context;                 /* held */
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
    uint32_t bits;                      /* the kernel's value: CLK_* bits (weft/abi.h) */
    cl_sampler_properties *properties;  /* clCreateSamplerWithProperties list copy or NULL */
    size_t num_properties;
};

#endif
