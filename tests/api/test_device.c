/* tests/api/test_device.c — the Weft device through the ICD loader: clGetDeviceIDs for every
 * device type, every OpenCL 3.0 clGetDeviceInfo query (sizes consistent, too-small buffers
 * rejected, values that agree with each other, with the specification's minimums and with the
 * CPU this runs on), invalid handles, retain/release of the root device, its partition queries
 * and the device/host timers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <CL/cl_ext.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "weft_test.h"

/* The test process asks for this many worker threads (unless the environment already sets
 * WEFT_NUM_THREADS): CL_DEVICE_MAX_COMPUTE_UNITS must follow it. */
#define TEST_NUM_THREADS "3"

struct fake_handle {
    const void *dispatch;
    uint64_t junk[7];
};

static struct fake_handle fake_of(const void *real)
{
    struct fake_handle f = {*(const void *const *)real, {0}};
    return f;
}

static cl_device_id dev(void)
{
    cl_device_id d = weft_test_device();
    assert_non_null(d);
    return d;
}

/* ---- clGetDeviceIDs ---- */

static void test_device_ids_by_type(void **state)
{
    cl_platform_id p = weft_test_platform();
    assert_non_null(p);
    static const cl_device_type found[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                           CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU,
                                           CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR};
    cl_device_id first = NULL;
    for (size_t i = 0; i < ARRAY_LEN(found); i++) {
        cl_device_id d = NULL;
        cl_uint n = 0;
        assert_int_equal(clGetDeviceIDs(p, found[i], 1, &d, &n), CL_SUCCESS);
        assert_int_equal(n, 1);
        assert_non_null(d);
        if (first)
            assert_ptr_equal(d, first); /* one device: always the same handle */
        first = d;
        n = 0;
        assert_int_equal(clGetDeviceIDs(p, found[i], 0, NULL, &n), CL_SUCCESS);
        assert_int_equal(n, 1);
    }
    static const cl_device_type absent[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                                            CL_DEVICE_TYPE_CUSTOM,
                                            CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR};
    for (size_t i = 0; i < ARRAY_LEN(absent); i++) {
        cl_device_id d = NULL;
        cl_uint n = 99;
        assert_int_equal(clGetDeviceIDs(p, absent[i], 1, &d, &n), CL_DEVICE_NOT_FOUND);
        assert_null(d);
    }
}

static void test_device_ids_errors(void **state)
{
    cl_platform_id p = weft_test_platform();
    cl_device_id d;
    cl_uint n;
    assert_int_equal(clGetDeviceIDs(p, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
    assert_int_equal(clGetDeviceIDs(p, (cl_device_type)1 << 20, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 0, &d, &n), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, NULL, NULL), CL_INVALID_VALUE);
    /* a device handle is not a platform; nor is a fake handle */
    cl_device_id real = dev();
    assert_int_equal(clGetDeviceIDs((cl_platform_id)real, CL_DEVICE_TYPE_ALL, 1, &d, &n), CL_INVALID_PLATFORM);
    struct fake_handle f = fake_of(p);
    assert_int_equal(clGetDeviceIDs((cl_platform_id)&f, CL_DEVICE_TYPE_ALL, 1, &d, &n), CL_INVALID_PLATFORM);
    /* NULL platform: the implementation's choice, Weft */
    d = NULL;
    assert_int_equal(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 1, &d, NULL), CL_SUCCESS);
    assert_ptr_equal(d, real);
}

/* ---- clGetDeviceInfo: every query ---- */

enum kind { K_STRING, K_FIXED, K_LIST };

#define Q(name, kind, size) {name, #name, kind, size}
static const struct {
    cl_device_info param;
    const char *name;
    enum kind kind;
    size_t size; /* K_FIXED: exact size; K_LIST: element size */
} device_queries[] = {
    Q(CL_DEVICE_TYPE, K_FIXED, sizeof(cl_device_type)),
    Q(CL_DEVICE_VENDOR_ID, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, K_FIXED, 3 * sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_ADDRESS_BITS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, K_FIXED, sizeof(cl_ulong)),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_MAX_SAMPLERS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PIPE_ARGS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, K_FIXED, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, K_FIXED, sizeof(cl_device_fp_config)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, K_FIXED, sizeof(cl_device_mem_cache_type)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, K_FIXED, sizeof(cl_ulong)),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, K_FIXED, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, K_FIXED, sizeof(cl_ulong)),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, K_FIXED, sizeof(cl_device_local_mem_type)),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, K_FIXED, sizeof(cl_ulong)),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_ENDIAN_LITTLE, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_AVAILABLE, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_COMPILER_AVAILABLE, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_LINKER_AVAILABLE, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, K_FIXED, sizeof(cl_device_exec_capabilities)),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, K_FIXED, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, K_FIXED, sizeof(cl_command_queue_properties)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_BUILT_IN_KERNELS, K_STRING, 0),
    Q(CL_DEVICE_PLATFORM, K_FIXED, sizeof(cl_platform_id)),
    Q(CL_DEVICE_NAME, K_STRING, 0),
    Q(CL_DEVICE_VENDOR, K_STRING, 0),
    Q(CL_DRIVER_VERSION, K_STRING, 0),
    Q(CL_DEVICE_PROFILE, K_STRING, 0),
    Q(CL_DEVICE_VERSION, K_STRING, 0),
    Q(CL_DEVICE_OPENCL_C_VERSION, K_STRING, 0),
    Q(CL_DEVICE_EXTENSIONS, K_STRING, 0),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_PARENT_DEVICE, K_FIXED, sizeof(cl_device_id)),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PARTITION_PROPERTIES, K_LIST, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, K_FIXED, sizeof(cl_device_affinity_domain)),
    Q(CL_DEVICE_PARTITION_TYPE, K_LIST, sizeof(cl_device_partition_property)),
    Q(CL_DEVICE_REFERENCE_COUNT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_SVM_CAPABILITIES, K_FIXED, sizeof(cl_device_svm_capabilities)),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_IL_VERSION, K_STRING, 0),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, K_FIXED, sizeof(cl_uint)),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_NUMERIC_VERSION, K_FIXED, sizeof(cl_version)),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, K_LIST, sizeof(cl_name_version)),
    Q(CL_DEVICE_ILS_WITH_VERSION, K_LIST, sizeof(cl_name_version)),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, K_LIST, sizeof(cl_name_version)),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, K_FIXED, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, K_FIXED, sizeof(cl_device_atomic_capabilities)),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, K_LIST, sizeof(cl_name_version)),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, K_FIXED, sizeof(size_t)),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_OPENCL_C_FEATURES, K_LIST, sizeof(cl_name_version)),
    Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, K_FIXED, sizeof(cl_device_device_enqueue_capabilities)),
    Q(CL_DEVICE_PIPE_SUPPORT, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, K_STRING, 0),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, K_FIXED, sizeof(cl_bool)),
    Q(CL_DEVICE_HALF_FP_CONFIG, K_FIXED, sizeof(cl_device_fp_config)),
};

static void test_every_query_answers_consistently(void **state)
{
    cl_device_id d = dev();
    for (size_t i = 0; i < ARRAY_LEN(device_queries); i++) {
        const char *name = device_queries[i].name;
        size_t n = 12345;
        cl_int err = clGetDeviceInfo(d, device_queries[i].param, 0, NULL, &n);
        if (err != CL_SUCCESS)
            fail_msg("%s failed: %d", name, err);
        if (device_queries[i].kind == K_FIXED && n != device_queries[i].size)
            fail_msg("%s: size %zu, expected %zu", name, n, device_queries[i].size);
        if (device_queries[i].kind == K_LIST && n % device_queries[i].size != 0)
            fail_msg("%s: size %zu is not a whole number of %zu-byte entries", name, n, device_queries[i].size);
        unsigned char *buf = malloc(n + 16);
        assert_non_null(buf);
        memset(buf, 0x7f, n + 16);
        size_t n2 = 0;
        err = clGetDeviceInfo(d, device_queries[i].param, n + 16, buf, &n2);
        if (err != CL_SUCCESS || n2 != n)
            fail_msg("%s: second query gave %d, size %zu vs %zu", name, err, n2, n);
        if (buf[n] != 0x7f)
            fail_msg("%s wrote past its %zu bytes", name, n);
        if (device_queries[i].kind == K_STRING) {
            if (n < 1 || buf[n - 1] != '\0' || strlen((char *)buf) + 1 != n)
                fail_msg("%s: not a NUL-terminated string of %zu bytes", name, n);
        }
        /* exact size works, one byte less is CL_INVALID_VALUE, size_ret may be NULL */
        assert_int_equal(clGetDeviceInfo(d, device_queries[i].param, n, buf, NULL), CL_SUCCESS);
        if (n > 0 && clGetDeviceInfo(d, device_queries[i].param, n - 1, buf, NULL) != CL_INVALID_VALUE)
            fail_msg("%s accepted a buffer one byte too small", name);
        free(buf);
    }
}

static cl_uint u32(cl_device_info q)
{
    cl_uint v = 0xdeadbeef;
    assert_int_equal(clGetDeviceInfo(dev(), q, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static cl_ulong u64(cl_device_info q)
{
    cl_ulong v = 0xdeadbeef;
    assert_int_equal(clGetDeviceInfo(dev(), q, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static size_t usize(cl_device_info q)
{
    size_t v = 0xdeadbeef;
    assert_int_equal(clGetDeviceInfo(dev(), q, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static void str(cl_device_info q, char *s, size_t n)
{
    assert_int_equal(clGetDeviceInfo(dev(), q, n, s, NULL), CL_SUCCESS);
}

static void test_identity(void **state)
{
    cl_device_id d = dev();
    cl_device_type t = 0;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_DEVICE_TYPE_CPU); /* DEFAULT must never be reported */
    cl_platform_id p = NULL;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL), CL_SUCCESS);
    assert_ptr_equal(p, weft_test_platform());
    char s[1024];
    str(CL_DEVICE_PROFILE, s, sizeof s);
    assert_string_equal(s, "FULL_PROFILE");
    str(CL_DEVICE_VERSION, s, sizeof s);
    assert_true(strncmp(s, "OpenCL 3.0 ", 11) == 0);
    str(CL_DEVICE_OPENCL_C_VERSION, s, sizeof s);
    assert_true(strncmp(s, "OpenCL C 1.2 ", 13) == 0);
    str(CL_DEVICE_NAME, s, sizeof s);
    assert_true(strlen(s) > 0);
    str(CL_DRIVER_VERSION, s, sizeof s);
    int major, minor;
    assert_int_equal(sscanf(s, "%d.%d", &major, &minor), 2); /* "major.minor[...]" */
    assert_int_equal(u32(CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
    /* "vYYYY-MM-DD-XX" */
    str(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, s, sizeof s);
    int y, mo, da, xx;
    assert_int_equal(strlen(s), 14);
    assert_int_equal(sscanf(s, "v%4d-%2d-%2d-%2d", &y, &mo, &da, &xx), 4);
    assert_true(u32(CL_DEVICE_AVAILABLE) && u32(CL_DEVICE_COMPILER_AVAILABLE) && u32(CL_DEVICE_LINKER_AVAILABLE));
    assert_int_equal(u32(CL_DEVICE_ENDIAN_LITTLE), CL_TRUE);
    assert_int_equal(u32(CL_DEVICE_ADDRESS_BITS), 8 * sizeof(void *));
    assert_int_equal(u32(CL_DEVICE_HOST_UNIFIED_MEMORY), CL_TRUE);
}

static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static cl_name_version *name_versions(cl_device_info q, size_t *count)
{
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(dev(), q, 0, NULL, &n), CL_SUCCESS);
    cl_name_version *v = malloc(n + 1);
    assert_non_null(v);
    assert_int_equal(clGetDeviceInfo(dev(), q, n, v, NULL), CL_SUCCESS);
    *count = n / sizeof *v;
    return v;
}

static bool has_name(const cl_name_version *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, name))
            return true;
    return false;
}

static void test_extensions_and_features_agree(void **state)
{
    char ext[4096];
    str(CL_DEVICE_EXTENSIONS, ext, sizeof ext);
    /* what issue 2 requires at least */
    static const char *required[] = {"cl_khr_fp64", "cl_khr_int64_base_atomics", "cl_khr_global_int32_base_atomics",
                                     "cl_khr_local_int32_base_atomics", "cl_khr_byte_addressable_store", "cl_khr_icd"};
    for (size_t i = 0; i < ARRAY_LEN(required); i++)
        if (!has_word(ext, required[i]))
            fail_msg("%s is not reported in CL_DEVICE_EXTENSIONS '%s'", required[i], ext);
    /* the string and the versioned list are the same set */
    size_t n;
    cl_name_version *v = name_versions(CL_DEVICE_EXTENSIONS_WITH_VERSION, &n);
    size_t words = 0;
    char copy[4096];
    strcpy(copy, ext);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        words++;
        if (!has_name(v, n, w))
            fail_msg("%s missing from CL_DEVICE_EXTENSIONS_WITH_VERSION", w);
    }
    assert_int_equal(words, n);
    free(v);
    /* unsupported features are not advertised */
    /* cl_khr_fp16 exactly where the CPU converts halves natively (F16C) */
    assert_int_equal(has_word(ext, "cl_khr_fp16"), __builtin_cpu_supports("f16c") != 0);
    assert_false(has_word(ext, "cl_khr_il_program"));
    /* sub-groups are the 3.0 feature, not cl_khr_subgroups, which requires independent forward
     * progress (OpenCL-CTS subgroups ifp_ext); its entry point refuses (api/test_subgroups) */
    assert_false(has_word(ext, "cl_khr_subgroups"));
    assert_int_equal(u32(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), CL_FALSE);

    cl_uint max_sg = 0;
    size_t max_wg = 0;
    cl_bool ifp = CL_TRUE;
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof max_sg, &max_sg, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL), CL_SUCCESS);
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp, NULL),
                     CL_SUCCESS);
    assert_int_equal(max_sg, max_wg);   /* sub-groups of one work-item are possible */
    assert_int_equal(ifp, CL_FALSE);

    /* OpenCL C: 1.0, 1.1, 1.2 and 3.0 */
    v = name_versions(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &n);
    static const cl_version want[] = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                                      CL_MAKE_VERSION(3, 0, 0)};
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        bool found = false;
        for (size_t j = 0; j < n; j++)
            found |= v[j].version == want[i] && !strcmp(v[j].name, "OpenCL C");
        if (!found)
            fail_msg("OpenCL C %u.%u missing from CL_DEVICE_OPENCL_C_ALL_VERSIONS", CL_VERSION_MAJOR(want[i]),
                     CL_VERSION_MINOR(want[i]));
    }
    free(v);

    /* the 3.0 feature macros follow the extensions and the capability queries */
    v = name_versions(CL_DEVICE_OPENCL_C_FEATURES, &n);
    assert_int_equal(has_name(v, n, "__opencl_c_fp64"), has_word(ext, "cl_khr_fp64"));
    assert_true(has_name(v, n, "__opencl_c_int64")); /* required for FULL_PROFILE */
    /* images: kernels read and write every image type (e2e/test_kernels_images) */
    assert_true(has_name(v, n, "__opencl_c_images"));
    assert_true(has_name(v, n, "__opencl_c_read_write_images"));
    assert_true(has_name(v, n, "__opencl_c_3d_image_writes"));
    assert_true(has_word(ext, "cl_khr_3d_image_writes"));
    assert_false(has_name(v, n, "__opencl_c_pipes"));
    assert_false(has_name(v, n, "__opencl_c_device_enqueue"));
    assert_true(has_name(v, n, "__opencl_c_subgroups"));
    /* the generic address space works (e2e/test_kernels_generic.c), and the query agrees */
    assert_true(has_name(v, n, "__opencl_c_generic_address_space"));
    assert_int_equal(u32(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT), CL_TRUE);
    /* work-group collectives work (e2e/test_kernels_collectives.c), and the query agrees */
    assert_true(has_name(v, n, "__opencl_c_work_group_collective_functions"));
    assert_int_equal(u32(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT), CL_TRUE);
    /* program-scope variables work (e2e/test_kernels_globals.c) */
    assert_true(has_name(v, n, "__opencl_c_program_scope_global_variables"));
    cl_device_atomic_capabilities mem = u64(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    assert_int_equal(has_name(v, n, "__opencl_c_atomic_order_acq_rel"), !!(mem & CL_DEVICE_ATOMIC_ORDER_ACQ_REL));
    assert_int_equal(has_name(v, n, "__opencl_c_atomic_order_seq_cst"), !!(mem & CL_DEVICE_ATOMIC_ORDER_SEQ_CST));
    assert_int_equal(has_name(v, n, "__opencl_c_atomic_scope_device"), !!(mem & CL_DEVICE_ATOMIC_SCOPE_DEVICE));
    assert_int_equal(has_name(v, n, "__opencl_c_atomic_scope_all_devices"),
                     !!(mem & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES));
    free(v);
    /* the minimum of OpenCL 3.0: relaxed, work-group scope; work-item scope is fence-only */
    assert_true((mem & CL_DEVICE_ATOMIC_ORDER_RELAXED) && (mem & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    assert_false(mem & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);
    cl_device_atomic_capabilities fence = u64(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    assert_true((fence & CL_DEVICE_ATOMIC_ORDER_RELAXED) && (fence & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) &&
                (fence & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
}

static void test_execution_limits(void **state)
{
    const char *env = getenv("WEFT_NUM_THREADS");
    assert_non_null(env);
    assert_int_equal(u32(CL_DEVICE_MAX_COMPUTE_UNITS), (cl_uint)atoi(env));
    assert_int_equal(u32(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3);
    size_t sizes[3];
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL), CL_SUCCESS);
    size_t wg = usize(CL_DEVICE_MAX_WORK_GROUP_SIZE);
    assert_true(wg >= 1);
    for (int i = 0; i < 3; i++)
        assert_true(sizes[i] >= 1 && sizes[i] <= wg); /* a dimension alone cannot exceed the group */
    assert_int_equal(usize(CL_DEVICE_PROFILING_TIMER_RESOLUTION), 1);
    cl_command_queue_properties qp = u64(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    assert_int_equal(qp, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    assert_int_equal(u64(CL_DEVICE_EXECUTION_CAPABILITIES), CL_EXEC_KERNEL);
    assert_true(usize(CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1024 * 1024); /* FULL_PROFILE minimum */
    assert_true(usize(CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
    size_t multiple = usize(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    assert_true(multiple >= 1 && multiple <= wg);
}

static void test_memory_limits(void **state)
{
    cl_ulong global = u64(CL_DEVICE_GLOBAL_MEM_SIZE);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    /* the machine's memory, as the kernel reports it */
    assert_int_equal(global, (cl_ulong)pages * (cl_ulong)page);
    cl_ulong alloc = u64(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    cl_ulong quarter = global / 4, gib = 1024ull * 1024 * 1024, floor = quarter < gib ? quarter : gib;
    if (floor < 32ull * 1024 * 1024)
        floor = 32ull * 1024 * 1024;
    assert_true(alloc >= floor);
    assert_true(alloc <= global);
    assert_true(u64(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE) >= 64 * 1024);
    assert_true(u32(CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);
    assert_true(u64(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
    assert_int_equal(u32(CL_DEVICE_LOCAL_MEM_TYPE), CL_GLOBAL);
    /* long16 is the largest type: at least 1024 bits */
    cl_uint align = u32(CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    assert_true(align >= 1024 && (align & (align - 1)) == 0);
    assert_int_equal(u32(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE), CL_READ_WRITE_CACHE);
    cl_uint line = u32(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    long sys_line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    assert_true(line >= 16 && (line & (line - 1)) == 0);
    if (sys_line > 0)
        assert_int_equal(line, (cl_uint)sys_line);
    cl_ulong cache = u64(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    assert_true(cache >= line && cache < global);
    assert_int_equal(u32(CL_DEVICE_ERROR_CORRECTION_SUPPORT), CL_FALSE);
}

/* Widest vector register of this CPU, in bytes, for float lanes and for byte lanes. */
static void isa_widths(cl_uint *fp_bytes, cl_uint *i32_bytes, cl_uint *i8_bytes)
{
    __builtin_cpu_init();
    *fp_bytes = *i32_bytes = *i8_bytes = 16;
    if (__builtin_cpu_supports("avx"))
        *fp_bytes = 32;
    if (__builtin_cpu_supports("avx2"))
        *fp_bytes = *i32_bytes = *i8_bytes = 32;
    if (__builtin_cpu_supports("avx512f"))
        *fp_bytes = *i32_bytes = 64;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        *i8_bytes = 64;
}

static void test_vector_widths_follow_the_isa(void **state)
{
    cl_uint fp, i32, i8;
    isa_widths(&fp, &i32, &i8);
    static const struct {
        cl_device_info preferred, native;
        cl_uint elem;
        int kind; /* 0 byte lanes, 1 dword/qword lanes, 2 floating point */
    } w[] = {
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, 1, 0},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, 2, 0},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, 4, 1},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, 8, 1},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, 4, 2},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, 8, 2},
    };
    for (size_t i = 0; i < ARRAY_LEN(w); i++) {
        cl_uint bytes = w[i].kind == 0 ? i8 : w[i].kind == 1 ? i32 : fp;
        assert_int_equal(u32(w[i].preferred), bytes / w[i].elem);
        assert_int_equal(u32(w[i].native), bytes / w[i].elem);
    }
    /* half lanes compute in float lanes with cl_khr_fp16 (F16C); without it the widths are 0 */
    cl_uint hw = __builtin_cpu_supports("f16c") ? fp / 4 : 0;
    assert_int_equal(u32(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), hw);
    assert_int_equal(u32(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), hw);
}

static void test_floating_point_configs(void **state)
{
    cl_device_fp_config sp = u64(CL_DEVICE_SINGLE_FP_CONFIG), dp = u64(CL_DEVICE_DOUBLE_FP_CONFIG);
    /* FULL_PROFILE minimum for single precision */
    assert_true((sp & CL_FP_ROUND_TO_NEAREST) && (sp & CL_FP_INF_NAN));
    /* cl_khr_fp64's OpenCL 1.x minimum, which the OpenCL-CTS asks of every device with doubles
     * (the 2.0+ one drops the two directed rounding modes); the conversions honour them */
    cl_device_fp_config dp_min = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                 CL_FP_INF_NAN | CL_FP_DENORM;
    assert_int_equal(dp & dp_min, dp_min);
    /* not emulated, and not claiming what the builtins do not promise */
    assert_false(sp & CL_FP_SOFT_FLOAT);
    assert_false(sp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    /* cl_khr_fp16's minimum (round to nearest and inf/NaN) where it is reported, else 0 */
    cl_device_fp_config hp = u64(CL_DEVICE_HALF_FP_CONFIG);
    if (__builtin_cpu_supports("f16c"))
        assert_int_equal(hp, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
    else
        assert_int_equal(hp, 0);
}

/* Image support with at least the full-profile minimums of OpenCL 3.0; no 2D images from
 * buffers (cl_khr_image2d_from_buffer), so the pitch and base address alignments are 0. */
static void test_image_limits(void **state)
{
    (void)state;
    assert_int_equal(u32(CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
    assert_true(u32(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
    assert_true(u32(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
    assert_true(u32(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
    assert_true(u32(CL_DEVICE_MAX_SAMPLERS) >= 16);
    assert_true(usize(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
    assert_true(usize(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
    assert_true(usize(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
    assert_true(usize(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
    assert_true(usize(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
    assert_true(usize(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
    assert_true(usize(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
    assert_int_equal(u32(CL_DEVICE_IMAGE_PITCH_ALIGNMENT), 0);
    assert_int_equal(u32(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT), 0);
}

static void test_unsupported_features_are_reported_absent(void **state)
{
    static const cl_device_info zero_u32[] = {
        CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_MAX_PIPE_ARGS, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
        CL_DEVICE_PIPE_MAX_PACKET_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS,
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
    };
    for (size_t i = 0; i < ARRAY_LEN(zero_u32); i++)
        if (u32(zero_u32[i]) != 0)
            fail_msg("query 0x%x is not 0", zero_u32[i]);
    /* __opencl_c_program_scope_global_variables: at least the spec's 64 KB per variable */
    assert_true(usize(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) >= 65536);
    assert_true(usize(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) > 0);
    /* one address space: every SVM capability (api/test_svm.c, e2e/test_svm.c) */
    assert_int_equal(u64(CL_DEVICE_SVM_CAPABILITIES),
                     CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                         CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
    assert_int_equal(u64(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES), 0);
    assert_int_equal(u64(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), 0);
    char s[256];
    str(CL_DEVICE_IL_VERSION, s, sizeof s);
    assert_string_equal(s, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    str(CL_DEVICE_BUILT_IN_KERNELS, s, sizeof s);
    assert_string_equal(s, "");
    size_t n = 99;
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 5 * sizeof(cl_name_version));
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
}

/* ---- invalid handles and parameters ---- */

/* Optional OpenCL 3.0 features Weft implements (each exercised end to end elsewhere). */
static void test_supported_optional_features_are_reported(void **state)
{
    /* non-uniform work-groups: tests/e2e/test_kernels_nonuniform.c; the query is a cl_bool
     * (OpenCL C has no feature macro for it) */
    cl_bool b = CL_FALSE;
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof b, &b, &n), CL_SUCCESS);
    assert_int_equal(n, sizeof(cl_bool));
    assert_int_equal(b, CL_TRUE);
}

static void test_invalid_device_and_param(void **state)
{
    cl_device_id d = dev();
    size_t n;
    cl_uint v;
    assert_int_equal(clGetDeviceInfo(d, 0xdead, sizeof v, &v, &n), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v - 1, &v, &n), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceInfo(NULL, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, &n), CL_INVALID_DEVICE);
    /* a platform handle is not a device */
    cl_platform_id p = weft_test_platform();
    assert_int_equal(clGetDeviceInfo((cl_device_id)p, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, &n),
                     CL_INVALID_DEVICE);
    struct fake_handle f = fake_of(d);
    assert_int_equal(clGetDeviceInfo((cl_device_id)&f, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof v, &v, &n),
                     CL_INVALID_DEVICE);
    assert_int_equal(clRetainDevice((cl_device_id)&f), CL_INVALID_DEVICE);
    assert_int_equal(clReleaseDevice((cl_device_id)&f), CL_INVALID_DEVICE);
    assert_int_equal(clRetainDevice(NULL), CL_INVALID_DEVICE);
}

static void test_root_device_retain_release(void **state)
{
    cl_device_id d = dev();
    for (int i = 0; i < 5; i++)
        assert_int_equal(clRetainDevice(d), CL_SUCCESS);
    assert_int_equal(u32(CL_DEVICE_REFERENCE_COUNT), 1);
    for (int i = 0; i < 10; i++) /* more releases than retains: still a valid no-op */
        assert_int_equal(clReleaseDevice(d), CL_SUCCESS);
    assert_int_equal(u32(CL_DEVICE_REFERENCE_COUNT), 1);
    cl_uint cu;
    assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL), CL_SUCCESS);
}

/* The root device can be partitioned (api/test_subdevice.c tests the sub-devices): one
 * sub-device per compute unit at most; a root device has no parent and no partition type. */
static void test_root_device_partition_queries(void **state)
{
    cl_device_id parent = (cl_device_id)1;
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL), CL_SUCCESS);
    assert_null(parent);
    assert_int_equal(u32(CL_DEVICE_PARTITION_MAX_SUB_DEVICES), u32(CL_DEVICE_MAX_COMPUTE_UNITS));
    cl_device_partition_property pp[4] = {1, 1, 1, 1};
    size_t n = 0;
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_PARTITION_PROPERTIES, sizeof pp, pp, &n), CL_SUCCESS);
    assert_true(n == 2 * sizeof pp[0] || n == 3 * sizeof pp[0]);
    assert_int_equal(pp[0], CL_DEVICE_PARTITION_EQUALLY);
    assert_int_equal(pp[1], CL_DEVICE_PARTITION_BY_COUNTS);
    /* by affinity domain is listed exactly when some domain splits the device */
    const bool by_domain = n == 3 * sizeof pp[0];
    if (by_domain)
        assert_int_equal(pp[2], CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    assert_int_equal(u64(CL_DEVICE_PARTITION_AFFINITY_DOMAIN) != 0, by_domain);
    assert_int_equal(clGetDeviceInfo(dev(), CL_DEVICE_PARTITION_TYPE, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    /* errors that need no partition: the scheme and the handle */
    cl_device_id out[4];
    cl_uint count = 77;
    const cl_device_partition_property bogus[] = {0x4242, 0};
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    assert_int_equal(clCreateSubDevices(dev(), bogus, 4, out, &count), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(dev(), NULL, 4, out, &count), CL_INVALID_VALUE);
    assert_int_equal(count, 77); /* nothing reported */
    cl_platform_id p = weft_test_platform();
    assert_int_equal(clCreateSubDevices((cl_device_id)p, equally, 4, out, &count), CL_INVALID_DEVICE);
}

static cl_ulong monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

static void test_timers(void **state)
{
    cl_device_id d = dev();
    cl_ulong dev_t = 0, host_t = 0, h2 = 0;
    cl_ulong before = monotonic_ns();
    assert_int_equal(clGetDeviceAndHostTimer(d, &dev_t, &host_t), CL_SUCCESS);
    assert_int_equal(clGetHostTimer(d, &h2), CL_SUCCESS);
    cl_ulong after = monotonic_ns();
    /* one clock, CLOCK_MONOTONIC: ordered with the test's own readings */
    assert_int_equal(dev_t, host_t);
    assert_true(before <= host_t && host_t <= h2 && h2 <= after);
    assert_int_equal(clGetDeviceAndHostTimer(d, NULL, &host_t), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceAndHostTimer(d, &dev_t, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetHostTimer(d, NULL), CL_INVALID_VALUE);
    cl_platform_id p = weft_test_platform();
    assert_int_equal(clGetDeviceAndHostTimer((cl_device_id)p, &dev_t, &host_t), CL_INVALID_DEVICE);
    assert_int_equal(clGetHostTimer((cl_device_id)p, &host_t), CL_INVALID_DEVICE);
}

int main(void)
{
    /* before the first OpenCL call: the device reads it once */
    setenv("WEFT_NUM_THREADS", TEST_NUM_THREADS, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_ids_by_type),
        cmocka_unit_test(test_device_ids_errors),
        cmocka_unit_test(test_every_query_answers_consistently),
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_extensions_and_features_agree),
        cmocka_unit_test(test_execution_limits),
        cmocka_unit_test(test_memory_limits),
        cmocka_unit_test(test_vector_widths_follow_the_isa),
        cmocka_unit_test(test_floating_point_configs),
        cmocka_unit_test(test_image_limits),
        cmocka_unit_test(test_unsupported_features_are_reported_absent),
        cmocka_unit_test(test_supported_optional_features_are_reported),
        cmocka_unit_test(test_invalid_device_and_param),
        cmocka_unit_test(test_root_device_retain_release),
        cmocka_unit_test(test_root_device_partition_queries),
        cmocka_unit_test(test_timers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
