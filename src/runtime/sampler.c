/* runtime/sampler.c — sampler objects: clCreateSampler(WithProperties), retain/release,
 * clGetSamplerInfo, and the bits a sampler is passed to kernels as.
 *
 * Guarantees: arguments are checked as the OpenCL 3.0 error lists say (REPEAT and
 * MIRRORED_REPEAT need normalized coordinates); a sampler holds its context; its kernel value
 * is the CLK_* bits of OpenCL C (include/weft/abi.h), the same value clang gives a sampler
 * declared in kernel code, so the builtins see both alike.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/context.h"
#include "runtime/info.h"
#include "runtime/log.h"
#include "runtime/sampler.h"

static void sampler_destroy(struct weft_object *obj)
{
    cl_sampler s = (cl_sampler)obj;
    cl_context ctx = s->context;
    free(s->properties);
    free(s);
    weft_object_unhold(WEFT_OBJ(ctx));
}

static uint32_t sampler_bits(cl_bool normalized, cl_addressing_mode a, cl_filter_mode f)
{
    uint32_t bits = normalized ? 0x1u : 0u;
    switch (a) {
    case CL_ADDRESS_CLAMP_TO_EDGE: bits |= 0x2u; break;
    case CL_ADDRESS_CLAMP: bits |= 0x4u; break;
    case CL_ADDRESS_REPEAT: bits |= 0x6u; break;
    case CL_ADDRESS_MIRRORED_REPEAT: bits |= 0x8u; break;
    default: break;
    }
    return bits | (f == CL_FILTER_LINEAR ? 0x20u : 0x10u);
}

static cl_sampler create(const char *func, cl_context context, cl_bool normalized_coords,
                         cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                         const cl_sampler_properties *props, size_t num_props, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(normalized_coords == CL_TRUE || normalized_coords == CL_FALSE, CL_INVALID_VALUE,
                   errcode_ret, NULL, "normalized_coords %u is neither CL_TRUE nor CL_FALSE", normalized_coords);
    bool addr_ok = addressing_mode == CL_ADDRESS_NONE || addressing_mode == CL_ADDRESS_CLAMP_TO_EDGE ||
                   addressing_mode == CL_ADDRESS_CLAMP ||
                   ((addressing_mode == CL_ADDRESS_REPEAT || addressing_mode == CL_ADDRESS_MIRRORED_REPEAT) &&
                    normalized_coords);
    /* REPEAT and MIRRORED_REPEAT are defined for normalized coordinates only (8.2) */
    WEFT_CHECK_RET(addr_ok, CL_INVALID_VALUE, errcode_ret, NULL,
                   "addressing_mode 0x%x is not valid (with normalized_coords %u)", addressing_mode,
                   normalized_coords);
    WEFT_CHECK_RET(filter_mode == CL_FILTER_NEAREST || filter_mode == CL_FILTER_LINEAR, CL_INVALID_VALUE,
                   errcode_ret, NULL, "filter_mode 0x%x is not valid", filter_mode);
    cl_sampler s = calloc(1, sizeof *s);
    if (s && num_props) {
        s->properties = calloc(num_props, sizeof *props);
        if (!s->properties) {
            free(s);
            s = NULL;
        } else {
            memcpy(s->properties, props, num_props * sizeof *props);
            s->num_properties = num_props;
        }
    }
    if (!s)
        return WEFT_RETURN(errcode_ret, weft_error(func, CL_OUT_OF_HOST_MEMORY, "no memory for the sampler"), NULL);
    s->context = context;
    s->normalized = normalized_coords;
    s->addressing = addressing_mode;
    s->filter = filter_mode;
    s->bits = sampler_bits(normalized_coords, addressing_mode, filter_mode);
    weft_object_hold(WEFT_OBJ(context));
    weft_object_init(&s->obj, WEFT_TYPE_SAMPLER, sampler_destroy);
    return WEFT_RETURN(errcode_ret, CL_SUCCESS, s);
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                cl_filter_mode filter_mode, cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    return create(__func__, context, normalized_coords, addressing_mode, filter_mode, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties *properties,
                              cl_int *errcode_ret)
{
    WEFT_CHECK_RET(weft_object_is(context, WEFT_TYPE_CONTEXT), CL_INVALID_CONTEXT, errcode_ret, NULL,
                   "context is not a live context");
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    bool seen_norm = false, seen_addr = false, seen_filter = false;
    size_t i = 0;
    for (; properties && properties[i] != 0; i += 2) {
        cl_sampler_properties name = properties[i], v = properties[i + 1];
        bool *seen = name == CL_SAMPLER_NORMALIZED_COORDS ? &seen_norm
                     : name == CL_SAMPLER_ADDRESSING_MODE ? &seen_addr
                     : name == CL_SAMPLER_FILTER_MODE     ? &seen_filter
                                                          : NULL;
        WEFT_CHECK_RET(seen != NULL, CL_INVALID_VALUE, errcode_ret, NULL,
                       "sampler property 0x%llx is not supported", (unsigned long long)name);
        WEFT_CHECK_RET(!*seen, CL_INVALID_VALUE, errcode_ret, NULL,
                       "sampler property 0x%llx is given twice", (unsigned long long)name);
        *seen = true;
        if (name == CL_SAMPLER_NORMALIZED_COORDS) {
            WEFT_CHECK_RET(v == CL_TRUE || v == CL_FALSE, CL_INVALID_VALUE, errcode_ret, NULL,
                           "CL_SAMPLER_NORMALIZED_COORDS value %llu is not a cl_bool", (unsigned long long)v);
            normalized = (cl_bool)v;
        } else if (name == CL_SAMPLER_ADDRESSING_MODE) {
            addressing = (cl_addressing_mode)v;
        } else {
            filter = (cl_filter_mode)v;
        }
    }
    size_t n = properties ? i + 1 : 0;
    return create(__func__, context, normalized, addressing, filter, properties, n, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
    WEFT_CHECK(weft_object_is(sampler, WEFT_TYPE_SAMPLER), CL_INVALID_SAMPLER, "sampler is not a live sampler");
    weft_object_retain(WEFT_OBJ(sampler));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
    WEFT_CHECK(weft_object_is(sampler, WEFT_TYPE_SAMPLER), CL_INVALID_SAMPLER, "sampler is not a live sampler");
    weft_object_release(WEFT_OBJ(sampler));
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                 void *param_value, size_t *param_value_size_ret)
{
    WEFT_CHECK(weft_object_is(sampler, WEFT_TYPE_SAMPLER), CL_INVALID_SAMPLER, "sampler is not a live sampler");
    size_t sz = param_value_size, *ret = param_value_size_ret;
    void *v = param_value;
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT:
        WEFT_INFO_VALUE(sz, v, ret, cl_uint, weft_object_refcount(WEFT_OBJ(sampler)));
    case CL_SAMPLER_CONTEXT:
        WEFT_INFO_VALUE(sz, v, ret, cl_context, sampler->context);
    case CL_SAMPLER_NORMALIZED_COORDS:
        WEFT_INFO_VALUE(sz, v, ret, cl_bool, sampler->normalized);
    case CL_SAMPLER_ADDRESSING_MODE:
        WEFT_INFO_VALUE(sz, v, ret, cl_addressing_mode, sampler->addressing);
    case CL_SAMPLER_FILTER_MODE:
        WEFT_INFO_VALUE(sz, v, ret, cl_filter_mode, sampler->filter);
    case CL_SAMPLER_PROPERTIES:
        return weft_info_bytes(sz, v, ret, sampler->properties, sampler->num_properties * sizeof *sampler->properties);
    default:
        return weft_error(__func__, CL_INVALID_VALUE, "param_name 0x%x is not a sampler query", (unsigned)param_name);
    }
}
