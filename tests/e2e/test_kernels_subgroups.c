/* tests/e2e/test_kernels_subgroups.c — sub-groups (cl_khr_subgroups, __opencl_c_subgroups)
 * end to end: the queries, every collective for int/uint/long/ulong/float/double (and half with
 * cl_khr_fp16), collectives under divergent control flow, and sub_group_barrier with a __local
 * exchange.
 *
 * The sub-group size is whatever clGetKernelSubGroupInfo reports for the local size before the
 * launch (W lanes of the vectorizer, or 1 with WEFT_VECTORIZE=off or a shape that is not
 * vectorized), and every reference is computed from it on the host: sub-group k of a work-group
 * holds linear local ids [k*M, (k+1)*M), the last one possibly shorter. So the same test holds
 * under every CTest mode, and fails when a launch uses another size than the one reported. */
#include "test_kernels_harness.h"

#include <string.h>

#define SG_OPS(T, N)                                                                                    \
    "kernel void sg_ops_" #N "(global const " #T " *in, global " #T " *out) {\n"                        \
    "  size_t g = get_global_linear_id();\n"                                                             \
    "  " #T " x = in[g];\n"                                                                              \
    "  global " #T " *o = out + g * 11;\n"                                                               \
    "  o[0] = sub_group_reduce_add(x); o[1] = sub_group_reduce_min(x); o[2] = sub_group_reduce_max(x);\n" \
    "  o[3] = sub_group_scan_inclusive_add(x); o[4] = sub_group_scan_inclusive_min(x);\n"                \
    "  o[5] = sub_group_scan_inclusive_max(x); o[6] = sub_group_scan_exclusive_add(x);\n"                \
    "  o[7] = sub_group_scan_exclusive_min(x); o[8] = sub_group_scan_exclusive_max(x);\n"                \
    "  o[9] = sub_group_broadcast(x, 0u);\n"                                                             \
    "  o[10] = sub_group_broadcast(x, (get_sub_group_id() * 3u + 1u) % get_sub_group_size());\n"         \
    "}\n"

static const char *source =
    /* the feature the device reports reaches the kernel, the extension it does not report not */
    "#if defined(cl_khr_subgroups) || !defined(__opencl_c_subgroups)\n"
    "#error __opencl_c_subgroups must be defined, cl_khr_subgroups not\n"
    "#endif\n"
    "kernel void sg_info(global uint *out) {\n"
    "  size_t g = get_global_linear_id();\n"
    "  global uint *o = out + g * 7;\n"
    "  o[0] = get_sub_group_size(); o[1] = get_max_sub_group_size(); o[2] = get_num_sub_groups();\n"
    "  o[3] = get_enqueued_num_sub_groups(); o[4] = get_sub_group_id(); o[5] = get_sub_group_local_id();\n"
    "  o[6] = (uint)get_local_linear_id();\n"
    "}\n" SG_OPS(int, int) SG_OPS(uint, uint) SG_OPS(long, long) SG_OPS(ulong, ulong) SG_OPS(float, float)
        SG_OPS(double, double)
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    SG_OPS(half, half)
    "#endif\n"
    "kernel void sg_vote(global const int *in, global int *out) {\n"
    "  size_t g = get_global_linear_id();\n"
    "  int x = in[g];\n"
    "  out[g * 2] = sub_group_all(x > 10);\n"
    "  out[g * 2 + 1] = sub_group_any(x > 90);\n"
    "}\n"
    "kernel void sg_divergent(global const int *in, global int *out) {\n"
    "  size_t g = get_global_linear_id();\n"
    "  int x = in[g], r = -1, s = -1, t = -1;\n"
    "  if (get_sub_group_id() % 2 == 0)\n" /* uniform within each sub-group */
    "    r = sub_group_reduce_add(x);\n"
    "  if (x % 3 == 0)\n" /* not uniform: the work-items that take it */
    "    s = sub_group_reduce_max(x);\n"
    "  for (int i = 0; i < x % 4; i++)\n" /* a loop the work-items leave in different laps */
    "    t = sub_group_scan_inclusive_add(i + 1);\n"
    "  out[g * 3] = r; out[g * 3 + 1] = s; out[g * 3 + 2] = t;\n"
    "}\n"
    "kernel void sg_exchange(global const int *in, global int *out, local int *t) {\n"
    "  size_t g = get_global_linear_id();\n"
    "  uint l = (uint)get_local_linear_id(), s = get_sub_group_size(), sl = get_sub_group_local_id();\n"
    "  t[l] = in[g];\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = t[l - sl + (sl + 1) % s];\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
    "  t[l] = v * 2;\n"
    "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[g] = t[l - sl + (sl + s - 1) % s];\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, "-cl-std=CL3.0");
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

/* The launch geometries: 1-D multiples of every SIMD width and not, 2-D whose x extent is and
 * is not a multiple, one with a remainder group (global 100, local 16). */
struct shape {
    cl_uint dim;
    size_t global[2], local[2];
};
static const struct shape shapes[] = {
    {1, {128, 1}, {64, 1}}, {1, {36, 1}, {12, 1}}, {1, {100, 1}, {16, 1}}, {1, {5, 1}, {5, 1}},
    {2, {32, 8}, {16, 4}},  {2, {24, 8}, {12, 4}}, {2, {16, 6}, {8, 3}},   {1, {64, 1}, {1, 1}},
    {1, {120, 1}, {40, 1}}, {2, {64, 4}, {32, 2}}, {1, {90, 1}, {36, 1}},
};

/* M (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE) for the shape's local size, checked against
 * the count the same query reports. */
static size_t query_max(const char *name, const struct shape *sh)
{
    cl_kernel k = kernel_new(name);
    size_t m = 0, count = 0, ret = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sh->dim * sizeof(size_t), sh->local, sizeof m, &m, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, sizeof(size_t));
    assert_int_equal(clGetKernelSubGroupInfo(k, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             sh->dim * sizeof(size_t), sh->local, sizeof count, &count, NULL),
                     CL_SUCCESS);
    clReleaseKernel(k);
    if (getenv("SG_DEBUG"))
        fprintf(stderr, "%s %zux%zu: M %zu count %zu\n", name, sh->local[0], sh->local[1], m, count);
    size_t items = sh->local[0] * (sh->dim > 1 ? sh->local[1] : 1);
    assert_true(m >= 1 && m <= items);
    assert_int_equal(count, (items + m - 1) / m);
    return m;
}

/* Where work-item (x, y) of the NDRange sits: its group's origin, x extent and size (a
 * remainder group is smaller), and its linear local id. */
struct place {
    size_t bx, by, ex, group_items, lin;
};
static struct place place_of(const struct shape *sh, size_t x, size_t y)
{
    size_t lx = sh->local[0], ly = sh->dim > 1 ? sh->local[1] : 1;
    size_t gx = sh->global[0], gy = sh->dim > 1 ? sh->global[1] : 1;
    size_t bx = x / lx * lx, by = y / ly * ly;
    size_t ex = bx + lx <= gx ? lx : gx - bx, ey = by + ly <= gy ? ly : gy - by;
    struct place p = {bx, by, ex, ex * ey, (x - bx) + ex * (y - by)};
    return p;
}
/* The global linear id of linear local id `lin` of p's group. */
static size_t global_of(const struct shape *sh, const struct place *p, size_t lin)
{
    return p->bx + lin % p->ex + sh->global[0] * (p->by + lin / p->ex);
}

static void test_queries(void **state)
{
    (void)state;
    for (size_t s = 0; s < ARRAY_LEN(shapes); s++) {
        const struct shape *sh = &shapes[s];
        size_t m = query_max("sg_info", sh);
        size_t n = sh->global[0] * (sh->dim > 1 ? sh->global[1] : 1);
        size_t eitems = sh->local[0] * (sh->dim > 1 ? sh->local[1] : 1);
        cl_mem out = buf_poisoned(n * 7 * sizeof(cl_uint));
        assert_int_equal(launch("sg_info", sh->dim, NULL, sh->global, sh->local, KARGS(KARG(out))), CL_SUCCESS);
        cl_uint *o = malloc(n * 7 * sizeof *o);
        buf_read(out, n * 7 * sizeof *o, o);
        for (size_t y = 0; y < (sh->dim > 1 ? sh->global[1] : 1); y++)
            for (size_t x = 0; x < sh->global[0]; x++) {
                size_t g = x + sh->global[0] * y;
                struct place p = place_of(sh, x, y);
                size_t id = p.lin / m, first = id * m;
                size_t size = p.group_items - first < m ? p.group_items - first : m;
                cl_uint want[7] = {(cl_uint)size, (cl_uint)m, (cl_uint)((p.group_items + m - 1) / m),
                                   (cl_uint)((eitems + m - 1) / m), (cl_uint)id, (cl_uint)(p.lin % m), (cl_uint)p.lin};
                for (int f = 0; f < 7; f++)
                    if (o[g * 7 + f] != want[f])
                        fail_msg("shape %zu (local %zux%zu, M %zu): work-item (%zu, %zu) field %d = %u, want %u", s,
                                 sh->local[0], sh->local[1], m, x, y, f, o[g * 7 + f], want[f]);
            }
        free(o);
        clReleaseMemObject(out);
    }
}

/* ---- collectives, one element type at a time ---- */

enum etype { E_INT, E_UINT, E_LONG, E_ULONG, E_FLOAT, E_DOUBLE, E_HALF };
static const char *const op_kernel[] = {"sg_ops_int",   "sg_ops_uint",   "sg_ops_long", "sg_ops_ulong",
                                        "sg_ops_float", "sg_ops_double", "sg_ops_half"};
static const size_t esize[] = {4, 4, 8, 8, 4, 8, 2};

/* Values as doubles (exact for the inputs used: integers below 2^53, or long/ulong compared
 * through their own type below). */
static void get_elem(enum etype t, const void *a, size_t i, int64_t *iv, uint64_t *uv, double *dv)
{
    switch (t) {
    case E_INT: *iv = ((const int32_t *)a)[i]; break;
    case E_UINT: *uv = ((const uint32_t *)a)[i]; break;
    case E_LONG: *iv = ((const int64_t *)a)[i]; break;
    case E_ULONG: *uv = ((const uint64_t *)a)[i]; break;
    case E_FLOAT: *dv = ((const float *)a)[i]; break;
    case E_DOUBLE: *dv = ((const double *)a)[i]; break;
    case E_HALF: *dv = (double)((const _Float16 *)a)[i]; break;
    }
}

/* op 0 add, 1 min, 2 max over a[idx[0..n)] (n == 0: the identity). Integers wrap like the type. */
struct acc {
    int64_t i;
    uint64_t u;
    double d;
};
static struct acc acc_identity(enum etype t, int op)
{
    struct acc a = {0, 0, 0};
    if (op == 1) {
        a.i = t == E_INT ? INT32_MAX : INT64_MAX;
        a.u = t == E_UINT ? UINT32_MAX : UINT64_MAX;
        a.d = INFINITY;
    } else if (op == 2) {
        a.i = t == E_INT ? INT32_MIN : INT64_MIN;
        a.u = 0;
        a.d = -INFINITY;
    }
    return a;
}
static void acc_add(enum etype t, int op, struct acc *a, int64_t iv, uint64_t uv, double dv)
{
    if (op == 0) {
        a->i = (int64_t)((uint64_t)a->i + (uint64_t)iv);
        if (t == E_INT)
            a->i = (int32_t)(uint32_t)a->i;
        a->u += uv;
        if (t == E_UINT)
            a->u = (uint32_t)a->u;
        a->d += dv;
    } else if (op == 1) {
        a->i = iv < a->i ? iv : a->i;
        a->u = uv < a->u ? uv : a->u;
        a->d = dv < a->d ? dv : a->d;
    } else {
        a->i = iv > a->i ? iv : a->i;
        a->u = uv > a->u ? uv : a->u;
        a->d = dv > a->d ? dv : a->d;
    }
}
static bool acc_equal(enum etype t, const struct acc *a, int64_t iv, uint64_t uv, double dv)
{
    switch (t) {
    case E_INT:
    case E_LONG: return a->i == iv;
    case E_UINT:
    case E_ULONG: return a->u == uv;
    default: return a->d == dv;
    }
}

static void fill_inputs(enum etype t, void *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rng_next();
        switch (t) {
        case E_INT: ((int32_t *)a)[i] = (int32_t)(r % 2001) - 1000; break;
        case E_UINT: ((uint32_t *)a)[i] = r; break;   /* above 2^31 too: unsigned order matters */
        case E_LONG: ((int64_t *)a)[i] = (int64_t)((uint64_t)(int64_t)(int32_t)r << 20) + (r & 0xfff); break;
        case E_ULONG: ((uint64_t *)a)[i] = ((uint64_t)r << 31) ^ rng_next(); break;
        case E_FLOAT: ((float *)a)[i] = (float)((int)(r % 201) - 100); break;   /* exact sums */
        case E_DOUBLE: ((double *)a)[i] = (double)((int)(r % 20001) - 10000); break;
        case E_HALF: ((_Float16 *)a)[i] = (_Float16)((int)(r % 41) - 20); break;   /* sums stay exact */
        }
    }
}

static void check_ops(enum etype t)
{
    for (size_t s = 0; s < ARRAY_LEN(shapes); s++) {
        const struct shape *sh = &shapes[s];
        size_t m = query_max(op_kernel[t], sh);
        size_t ny = sh->dim > 1 ? sh->global[1] : 1, n = sh->global[0] * ny;
        void *in = malloc(n * esize[t]), *o = malloc(n * 11 * esize[t]);
        fill_inputs(t, in, n);
        cl_mem bin = buf_new(n * esize[t], in), bout = buf_poisoned(n * 11 * esize[t]);
        assert_int_equal(launch(op_kernel[t], sh->dim, NULL, sh->global, sh->local, KARGS(KARG(bin), KARG(bout))),
                         CL_SUCCESS);
        buf_read(bout, n * 11 * esize[t], o);
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < sh->global[0]; x++) {
                size_t g = x + sh->global[0] * y;
                struct place p = place_of(sh, x, y);
                size_t first = p.lin / m * m;
                size_t size = p.group_items - first < m ? p.group_items - first : m;
                size_t lane = p.lin - first;
                for (int f = 0; f < 11; f++) {
                    int op = f < 9 ? f % 3 : 0;
                    struct acc a = acc_identity(t, op);
                    size_t from = 0, to = size;   /* reduce */
                    if (f >= 3 && f < 6)
                        to = lane + 1;
                    else if (f >= 6 && f < 9)
                        to = lane;
                    if (f >= 9) {   /* broadcast */
                        size_t src = f == 9 ? 0 : (first / m * 3 + 1) % size;
                        from = src;
                        to = src + 1;
                        a = acc_identity(t, 0);
                    }
                    for (size_t j = from; j < to; j++) {
                        int64_t iv = 0;
                        uint64_t uv = 0;
                        double dv = 0;
                        get_elem(t, in, global_of(sh, &p, first + j), &iv, &uv, &dv);
                        acc_add(t, op, &a, iv, uv, dv);
                    }
                    int64_t iv = 0;
                    uint64_t uv = 0;
                    double dv = 0;
                    get_elem(t, o, g * 11 + (size_t)f, &iv, &uv, &dv);
                    if (!acc_equal(t, &a, iv, uv, dv))
                        fail_msg("%s, shape %zu (local %zux%zu, M %zu): work-item (%zu, %zu) result %d: got %lld/%llu/%g, "
                                 "want %lld/%llu/%g", op_kernel[t], s, sh->local[0], sh->local[1], m, x, y, f,
                                 (long long)iv, (unsigned long long)uv, dv, (long long)a.i, (unsigned long long)a.u,
                                 a.d);
                }
            }
        free(in);
        free(o);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
    }
}

static void test_ops_int(void **state) { (void)state; check_ops(E_INT); }
static void test_ops_uint(void **state) { (void)state; check_ops(E_UINT); }
static void test_ops_long(void **state) { (void)state; check_ops(E_LONG); }
static void test_ops_ulong(void **state) { (void)state; check_ops(E_ULONG); }
static void test_ops_float(void **state) { (void)state; check_ops(E_FLOAT); }
static void test_ops_double(void **state) { (void)state; check_ops(E_DOUBLE); }

/* half collectives exist exactly when the device reports cl_khr_fp16 */
static void test_ops_half(void **state)
{
    (void)state;
    char ext[4096] = "";
    assert_int_equal(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    if (strstr(ext, "cl_khr_fp16")) {
        check_ops(E_HALF);
        return;
    }
    cl_int err;
    assert_null(clCreateKernel(prog, "sg_ops_half", &err));
    assert_int_equal(err, CL_INVALID_KERNEL_NAME);
}

/* ---- votes, divergence, barrier ---- */

/* Runs `name` over shape sh with int input `in` (n values) and `per` int results per
 * work-item, and calls `check` for every work-item with its sub-group's inputs. */
static size_t divergent_sg_id;   /* the sub-group being checked (for check_divergent) */
typedef void (*check_fn)(const int *sg_in, size_t size, size_t lane, const int *got, const char *where);

static void run_int_kernel(const char *name, size_t per, bool local_arg, check_fn check)
{
    for (size_t s = 0; s < ARRAY_LEN(shapes); s++) {
        const struct shape *sh = &shapes[s];
        size_t m = query_max(name, sh);
        size_t ny = sh->dim > 1 ? sh->global[1] : 1, n = sh->global[0] * ny;
        int *in = malloc(n * sizeof *in), *o = malloc(n * per * sizeof *o), *sg = malloc(m * sizeof *sg);
        for (size_t i = 0; i < n; i++)
            in[i] = (int)(rng_next() % 100);
        cl_mem bin = buf_new(n * sizeof *in, in), bout = buf_poisoned(n * per * sizeof *o);
        size_t items = sh->local[0] * (sh->dim > 1 ? sh->local[1] : 1);
        cl_int err = local_arg ? launch(name, sh->dim, NULL, sh->global, sh->local,
                                        KARGS(KARG(bin), KARG(bout), KLOCAL(items * sizeof(int))))
                               : launch(name, sh->dim, NULL, sh->global, sh->local, KARGS(KARG(bin), KARG(bout)));
        assert_int_equal(err, CL_SUCCESS);
        buf_read(bout, n * per * sizeof *o, o);
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < sh->global[0]; x++) {
                struct place p = place_of(sh, x, y);
                size_t first = p.lin / m * m;
                size_t size = p.group_items - first < m ? p.group_items - first : m;
                for (size_t j = 0; j < size; j++)
                    sg[j] = in[global_of(sh, &p, first + j)];
                divergent_sg_id = first / m;
                char where[160];
                snprintf(where, sizeof where, "%s, shape %zu (local %zux%zu, M %zu), work-item (%zu, %zu)", name, s,
                         sh->local[0], sh->local[1], m, x, y);
                check(sg, size, p.lin - first, o + (x + sh->global[0] * y) * per, where);
            }
        free(in);
        free(o);
        free(sg);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
    }
}

static void check_vote(const int *sg, size_t size, size_t lane, const int *got, const char *where)
{
    (void)lane;
    int all = 1, any = 0;
    for (size_t j = 0; j < size; j++) {
        all &= sg[j] > 10;
        any |= sg[j] > 90;
    }
    if ((got[0] != 0) != all || (got[1] != 0) != any)
        fail_msg("%s: all %d any %d, want %d %d", where, got[0], got[1], all, any);
}

static void test_vote(void **state)
{
    (void)state;
    run_int_kernel("sg_vote", 2, false, check_vote);
}


static void check_divergent(const int *sg, size_t size, size_t lane, const int *got, const char *where)
{
    int r = 0, s = -1, t = -1;
    for (size_t j = 0; j < size; j++)
        r += sg[j];
    /* only the work-items that took the branch take part */
    if (sg[lane] % 3 == 0) {
        s = INT32_MIN;
        for (size_t j = 0; j < size; j++)
            if (sg[j] % 3 == 0 && sg[j] > s)
                s = sg[j];
    }
    /* the last lap a work-item runs: lap i counts the lanes still in the loop up to it */
    int laps = sg[lane] % 4;
    if (laps > 0) {
        t = 0;
        for (size_t j = 0; j <= lane; j++)
            if (sg[j] % 4 >= laps)
                t += laps;
    }
    if (divergent_sg_id % 2)
        r = -1;   /* odd sub-groups skip the reduction */
    if (got[0] != r || got[1] != s || got[2] != t)
        fail_msg("%s: sum %d divergent max %d scan %d, want %d %d %d", where, got[0], got[1], got[2], r, s, t);
}

static void test_divergent(void **state)
{
    (void)state;
    run_int_kernel("sg_divergent", 3, false, check_divergent);
}

static void check_exchange(const int *sg, size_t size, size_t lane, const int *got, const char *where)
{
    /* step 1: v = the next lane's input; step 2: out = the previous lane's v * 2 = own input * 2 */
    int want = sg[((lane + size - 1) % size + 1) % size] * 2;
    if (got[0] != want)
        fail_msg("%s: %d, want %d", where, got[0], want);
}

static void test_barrier_exchange(void **state)
{
    (void)state;
    run_int_kernel("sg_exchange", 1, true, check_exchange);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries),     cmocka_unit_test(test_ops_int),   cmocka_unit_test(test_ops_uint),
        cmocka_unit_test(test_ops_long),    cmocka_unit_test(test_ops_ulong), cmocka_unit_test(test_ops_float),
        cmocka_unit_test(test_ops_double),  cmocka_unit_test(test_ops_half),  cmocka_unit_test(test_vote),      cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_barrier_exchange),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
