/* tests/common/buffer_test_env.h — the cmocka fixture shared by the buffer-command API tests
 * (test_buffer_commands.c, test_map.c): the Weft context and queue, a second context for
 * mismatch errors, the device's sub-buffer alignment, and CHECK_ERR, which names the case that
 * broke. Include after <cmocka.h> and weft_test.h. */
#ifndef WEFT_BUFFER_TEST_ENV_H
#define WEFT_BUFFER_TEST_ENV_H

struct env {
    struct weft_test_env t;
    cl_context other;           /* a second context, for mismatches */
    cl_command_queue other_q;
    size_t align;               /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */
};

static int setup(void **state)
{
    static struct env e;
    cl_int err;
    if (weft_test_env_open(&e.t, 0) != 0)
        return -1;
    e.other = clCreateContext(NULL, 1, &e.t.device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    e.other_q = clCreateCommandQueueWithProperties(e.other, e.t.device, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    cl_uint bits = 0;
    if (clGetDeviceInfo(e.t.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) || bits < 8)
        return -1;
    e.align = bits / 8;
    *state = &e;
    return 0;
}

static int teardown(void **state)
{
    struct env *e = *state;
    if (!e)
        return 0;
    clReleaseCommandQueue(e->other_q);
    clReleaseContext(e->other);
    weft_test_env_close(&e->t);
    return 0;
}

#define CHECK_ERR(got, want, ...)                                                           \
    do {                                                                                    \
        cl_int got_ = (got), want_ = (want);                                                \
        if (got_ != want_) {                                                                \
            print_error("%s:%d: got %d, expected %d: ", __FILE__, __LINE__, got_, want_);   \
            print_error(__VA_ARGS__);                                                       \
            print_error("\n");                                                              \
            fail();                                                                         \
        }                                                                                   \
    } while (0)

#endif
