/* tools/weft/info.c — `weft info`: the Weft platform and device exactly as an application sees
 * them, read through the cl* API (clGetPlatformInfo / clGetDeviceInfo), one aligned
 * "label  value" line each; and the NUMA nodes, which no query reports, from the topology. Exit status 0 when every query answered, 1 otherwise (each failed
 * query prints the error code in place of its value). */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exec/topology.h"
#include "runtime/log.h"

#define LABEL_WIDTH 28

static int failures;

static void row(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(const char *label, const char *fmt, ...)
{
    printf("  %-*s ", LABEL_WIDTH, label);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* A continuation line: the value column only. */
static void cont(const char *s)
{
    printf("  %-*s %s\n", LABEL_WIDTH, "", s);
}

static bool failed(const char *label, cl_int err)
{
    if (err == CL_SUCCESS)
        return false;
    row(label, "<error %s>", weft_error_name(err));
    failures++;
    return true;
}

/* The answer of a variable-size query, malloc'ed (NUL-terminated for strings); NULL on error. */
static void *query_platform(cl_platform_id p, cl_platform_info what, const char *label, size_t *n_out)
{
    size_t n = 0;
    if (failed(label, clGetPlatformInfo(p, what, 0, NULL, &n)))
        return NULL;
    char *buf = calloc(n + 1, 1);
    if (!buf || failed(label, clGetPlatformInfo(p, what, n, buf, NULL))) {
        free(buf);
        return NULL;
    }
    if (n_out)
        *n_out = n;
    return buf;
}

static void *query_device(cl_device_id d, cl_device_info what, const char *label, size_t *n_out)
{
    size_t n = 0;
    if (failed(label, clGetDeviceInfo(d, what, 0, NULL, &n)))
        return NULL;
    char *buf = calloc(n + 1, 1);
    if (!buf || failed(label, clGetDeviceInfo(d, what, n, buf, NULL))) {
        free(buf);
        return NULL;
    }
    if (n_out)
        *n_out = n;
    return buf;
}

static void platform_string(cl_platform_id p, cl_platform_info what, const char *label)
{
    char *s = query_platform(p, what, label, NULL);
    if (s)
        row(label, "%s", s);
    free(s);
}

static void device_string(cl_device_id d, cl_device_info what, const char *label)
{
    char *s = query_device(d, what, label, NULL);
    if (s)
        row(label, "%s", *s ? s : "(none)");
    free(s);
}

static bool device_uint(cl_device_id d, cl_device_info what, const char *label, cl_uint *v)
{
    return !failed(label, clGetDeviceInfo(d, what, sizeof *v, v, NULL));
}

static bool device_ulong(cl_device_id d, cl_device_info what, const char *label, cl_ulong *v)
{
    return !failed(label, clGetDeviceInfo(d, what, sizeof *v, v, NULL));
}

static bool device_size(cl_device_id d, cl_device_info what, const char *label, size_t *v)
{
    return !failed(label, clGetDeviceInfo(d, what, sizeof *v, v, NULL));
}

/* "32 MiB", "64 KiB", "23.54 GiB": exact units when the value is a whole number of them. */
static const char *human_bytes(cl_ulong b, char *buf, size_t n)
{
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = (double)b;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v == (double)(uint64_t)v)
        snprintf(buf, n, "%.0f %s", v, units[u]);
    else
        snprintf(buf, n, "%.2f %s", v, units[u]);
    return buf;
}

/* Prints a space-separated list (extensions) one word per line. */
/* cl_intel_unified_shared_memory's capabilities, one row per allocation kind, on devices that list
 * the extension (others answer the queries with an error). */
static void usm_rows(cl_device_id d, const char *extensions)
{
    const char *at = strstr(extensions, "cl_intel_unified_shared_memory");
    size_t len = strlen("cl_intel_unified_shared_memory");
    if (!at || (at > extensions && at[-1] != ' ') || (at[len] != ' ' && at[len] != '\0'))
        return;
    static const struct { cl_device_info what; const char *label; } kinds[] = {
        {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, "USM host"},
        {CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL, "USM device"},
        {CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, "USM shared"},
        {CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL, "USM cross-device shared"},
        {CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL, "USM system"},
    };
    static const struct { cl_bitfield bit; const char *name; } caps[] = {
        {CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL, "access"},
        {CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL, "atomic"},
        {CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL, "concurrent"},
        {CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL, "concurrent atomic"},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        cl_device_unified_shared_memory_capabilities_intel c;
        if (failed(kinds[k].label, clGetDeviceInfo(d, kinds[k].what, sizeof c, &c, NULL)))
            continue;
        char text[128] = "";
        for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
            if (c & caps[i].bit)
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", text[0] ? ", " : "", caps[i].name);
        row(kinds[k].label, "%s", text[0] ? text : "none");
    }
}

static void word_list(const char *label, const char *words)
{
    char *copy = strdup(words);
    if (!copy)
        return;
    bool first = true;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (first)
            row(label, "%s", w);
        else
            cont(w);
        first = false;
    }
    if (first)
        row(label, "(none)");
    free(copy);
}

/* Prints a cl_name_version list one entry per line ("name  major.minor.patch"). */
static void name_version_list(cl_device_id d, cl_device_info what, const char *label, bool names)
{
    size_t n = 0;
    cl_name_version *v = query_device(d, what, label, &n);
    if (!v)
        return;
    size_t count = n / sizeof *v;
    char line[256];
    if (!names) {
        /* versions only, on one line: "1.0, 1.1, 1.2, 3.0" */
        line[0] = '\0';
        for (size_t i = 0; i < count; i++) {
            char one[32];
            snprintf(one, sizeof one, "%s%u.%u", i ? ", " : "", CL_VERSION_MAJOR(v[i].version),
                     CL_VERSION_MINOR(v[i].version));
            strncat(line, one, sizeof line - strlen(line) - 1);
        }
        row(label, "%s", count ? line : "(none)");
    } else {
        for (size_t i = 0; i < count; i++) {
            snprintf(line, sizeof line, "%-40s %u.%u.%u", v[i].name, CL_VERSION_MAJOR(v[i].version),
                     CL_VERSION_MINOR(v[i].version), CL_VERSION_PATCH(v[i].version));
            if (i == 0)
                row(label, "%s", line);
            else
                cont(line);
        }
        if (count == 0)
            row(label, "(none)");
    }
    free(v);
}

static void print_platform(cl_platform_id p)
{
    printf("Platform\n");
    platform_string(p, CL_PLATFORM_NAME, "Name");
    platform_string(p, CL_PLATFORM_VENDOR, "Vendor");
    platform_string(p, CL_PLATFORM_VERSION, "Version");
    platform_string(p, CL_PLATFORM_PROFILE, "Profile");
    char *ext = query_platform(p, CL_PLATFORM_EXTENSIONS, "Extensions", NULL);
    if (ext)
        word_list("Extensions", ext);
    free(ext);
}

/* NUMA nodes: no cl* query lists them (partitioning by affinity domain only says whether they
 * split the device), so they come from the topology the worker pool follows. */
static void print_numa_nodes(void)
{
    const struct weft_topology *t = weft_topology_get();
    row("NUMA nodes", "%u%s", t->numa_nodes, t->synthetic ? " (synthetic topology, WEFT_HWLOC_SYNTHETIC)" : "");
    if (t->numa_nodes < 2)
        return;
    for (unsigned k = 0; k < t->numa_nodes; k++) {
        unsigned cores = 0;
        for (unsigned c = 0; c < t->cores; c++)
            cores += weft_topology_core_node(t, c) == k;
        char line[128], a[64];
        if (t->node_memory && t->node_memory[k])
            snprintf(line, sizeof line, "node %u: %u cores, %s, package %u", k, cores,
                     human_bytes(t->node_memory[k], a, sizeof a), t->node_package ? t->node_package[k] : 0);
        else
            snprintf(line, sizeof line, "node %u: %u cores, package %u", k, cores, t->node_package ? t->node_package[k] : 0);
        cont(line);
    }
}

/* How the device partitions into sub-devices (CL_DEVICE_PARTITION_PROPERTIES and the affinity
 * domains that split it). */
static void print_partitions(cl_device_id d)
{
    cl_device_affinity_domain dom = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof dom, &dom, NULL) != CL_SUCCESS)
        return;
    static const struct {
        cl_device_affinity_domain bit;
        const char *name;
    } names[] = {{CL_DEVICE_AFFINITY_DOMAIN_NUMA, "NUMA"},   {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, "L4"},
                 {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, "L3"}, {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, "L2"},
                 {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, "L1"}};
    char line[128] = "equally, by counts";
    if (dom) {
        strcat(line, ", by affinity domain:");
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (dom & names[i].bit) {
                strcat(line, " ");
                strcat(line, names[i].name);
            }
    }
    row("Sub-devices", "%s", line);
}

static void print_device(cl_device_id d)
{
    char a[64];
    cl_uint u, u2;
    cl_ulong ul;
    size_t sz;

    printf("Device\n");
    device_string(d, CL_DEVICE_NAME, "Name");
    device_string(d, CL_DEVICE_VENDOR, "Vendor");
    device_string(d, CL_DEVICE_VERSION, "Version");
    device_string(d, CL_DRIVER_VERSION, "Driver version");
    device_string(d, CL_DEVICE_PROFILE, "Profile");
    device_string(d, CL_DEVICE_OPENCL_C_VERSION, "OpenCL C version");
    name_version_list(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, "OpenCL C versions", false);
    name_version_list(d, CL_DEVICE_OPENCL_C_FEATURES, "OpenCL C features", true);

    if (device_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS, "Compute units", &u))
        row("Compute units", "%u (worker threads)", u);
    print_numa_nodes();
    print_partitions(d);
    if (device_uint(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, "Max clock", &u))
        row("Max clock", u ? "%u MHz" : "unknown", u);
    if (device_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE, "Global memory", &ul))
        row("Global memory", "%s", human_bytes(ul, a, sizeof a));
    if (device_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "Max allocation", &ul))
        row("Max allocation", "%s", human_bytes(ul, a, sizeof a));
    if (device_ulong(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, "Global memory cache", &ul) &&
        device_uint(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, "Global memory cache", &u))
        row("Global memory cache", "%s, %u-byte lines", human_bytes(ul, a, sizeof a), u);
    cl_device_local_mem_type lt;
    if (device_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE, "Local memory", &ul) &&
        !failed("Local memory", clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof lt, &lt, NULL)))
        row("Local memory", "%s per work-group (%s)", human_bytes(ul, a, sizeof a),
            lt == CL_LOCAL ? "dedicated" : "in global memory");
    if (device_ulong(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "Constant memory", &ul) &&
        device_uint(d, CL_DEVICE_MAX_CONSTANT_ARGS, "Constant memory", &u))
        row("Constant memory", "%s, up to %u arguments", human_bytes(ul, a, sizeof a), u);
    if (device_size(d, CL_DEVICE_MAX_PARAMETER_SIZE, "Kernel argument bytes", &sz))
        row("Kernel argument bytes", "%zu", sz);
    if (device_uint(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, "Buffer alignment", &u))
        row("Buffer alignment", "%u bytes", u / 8);
    if (device_size(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, "Max work-group size", &sz))
        row("Max work-group size", "%zu", sz);
    size_t dims[3];
    if (!failed("Max work-item sizes",
                clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims, dims, NULL)))
        row("Max work-item sizes", "%zu x %zu x %zu", dims[0], dims[1], dims[2]);

    static const struct {
        const char *type;
        cl_device_info preferred, native;
    } widths[] = {
        {"char", CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR},
        {"short", CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT},
        {"int", CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT},
        {"long", CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG},
        {"half", CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF},
        {"float", CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT},
        {"double", CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE},
    };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char label[64];
        snprintf(label, sizeof label, "Vector width %s", widths[i].type);
        if (device_uint(d, widths[i].preferred, label, &u) && device_uint(d, widths[i].native, label, &u2))
            row(label, "%u preferred, %u native", u, u2);
    }

    cl_bool img;
    if (!failed("Image support", clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL)))
        row("Image support", "%s", img ? "yes" : "no");
    cl_device_svm_capabilities svm;
    if (!failed("SVM", clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL))) {
        /* the capabilities by name, or "none" (another platform's device may report none) */
        static const struct { cl_device_svm_capabilities bit; const char *name; } caps[] = {
            {CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "coarse-grain buffer"},
            {CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "fine-grain buffer"},
            {CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "fine-grain system"},
            {CL_DEVICE_SVM_ATOMICS, "atomics"},
        };
        char text[128] = "";
        for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
            if (svm & caps[i].bit)
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", text[0] ? ", " : "", caps[i].name);
        row("SVM", "%s", text[0] ? text : "none");
    }
    if (device_size(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, "Profiling timer resolution", &sz))
        row("Profiling timer resolution", "%zu ns", sz);
    char *ext = query_device(d, CL_DEVICE_EXTENSIONS, "Extensions", NULL);
    if (ext) {
        usm_rows(d, ext);
        word_list("Extensions", ext);
    }
    free(ext);
}

int weft_cli_info(int argc, char **argv)
{
    if (argc > 1) {
        bool help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");
        fprintf(help ? stdout : stderr,
                "usage: weft info\n\nPrints the Weft platform and device as OpenCL applications see them.\n");
        return help ? 0 : 2;
    }
    cl_platform_id p;
    cl_int err = clGetPlatformIDs(1, &p, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "weft info: clGetPlatformIDs failed: %s\n", weft_error_name(err));
        return 1;
    }
    print_platform(p);

    cl_device_id d;
    err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "weft info: clGetDeviceIDs failed: %s\n", weft_error_name(err));
        return 1;
    }
    printf("\n");
    print_device(d);
    return failures ? 1 : 0;
}
