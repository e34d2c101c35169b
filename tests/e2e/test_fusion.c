/* tests/e2e/test_fusion.c — launch chains fused into overlapped tiles (exec/fuse/fuse.h) give the
 * unfused results bit for bit: 1-D and 2-D Jacobi, Poisson with a right-hand side, PathFinder
 * (a different argument per launch), FDTD-2D (three kernels a step), HotSpot (neighbours
 * clamped at the borders by selects or by min/max: reads whose address chooses), at odd sizes and with
 * forced depths and tile sizes from one row to many; chains interrupted by a read, chains on two
 * queues that wait on each other, a callback on a held launch, and profiling times of fused
 * launches. The unfused reference is the same chain with clFinish after every launch (nothing
 * to fuse with); a host computation checks that reference too. Fusion is observed, not assumed:
 * launches run in one fused run share their start time. */
#include "test_kernels_harness.h"

#include <dirent.h>
#include <float.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

static const char *source =
    "kernel void jacobi1d(global const float *a, global float *b, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i > 0 && i < n - 1) b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);\n"
    "  else b[i] = a[i];\n"
    "}\n"
    "kernel void axpb_guarded(global const float *a, global float *b, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  b[i] = a[i] * 0.5f + (float)i;\n"
    "}\n"
    "kernel void jacobi2d_guarded(global const float *a, global float *b, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x >= w || y >= h) return;\n"
    "  int i = y * w + x;\n"
    "  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) b[i] = a[i];\n"
    "  else b[i] = 0.2f * (a[i] + a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);\n"
    "}\n"
    "kernel void heat3d_guarded(global const float *a, global float *b, int nx, int ny, int nz) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  if (x >= nx || y >= ny || z >= nz) return;\n"
    "  int i = (z * ny + y) * nx + x;\n"
    "  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) b[i] = a[i];\n"
    "  else b[i] = (a[i] + a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - nx * ny] + a[i + nx * ny])\n"
    "              * (1.0f / 7.0f);\n"
    "}\n"
    "kernel void jacobi2d(global const float *a, global float *b, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), i = y * w + x;\n"
    "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
    "    b[i] = 0.2f * (a[i] + a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);\n"
    "  else b[i] = a[i];\n"
    "}\n"
    /* a 1-D stencil over a 2-D range: its reads at the ends of rows wrap into the next row */
    "kernel void linear3(global const float *a, global float *b, int w, int h) {\n"
    "  int i = get_global_id(1) * w + get_global_id(0), n = w * h;\n"
    "  if (i > 0 && i < n - 1) b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);\n"
    "  else b[i] = a[i];\n"
    "}\n"
    "kernel void poisson(global const float *u, global float *v, global const float *f, int w, int h, float hh) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), i = y * w + x;\n"
    "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
    "    v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w] - hh * f[i]);\n"
    "  else v[i] = u[i];\n"
    "}\n"
    "kernel void pathfinder(global const int *wall, global const int *src, global int *dst, int cols, int row) {\n"
    "  int x = get_global_id(0);\n"
    "  int best = src[x];\n"
    "  if (x > 0) best = min(best, src[x - 1]);\n"
    "  if (x < cols - 1) best = min(best, src[x + 1]);\n"
    "  dst[x] = wall[row * cols + x] + best;\n"
    "}\n"
    "kernel void fdtd_ey(global float *ey, global const float *hz, global const float *fict, int nx, int ny, int t) {\n"
    "  int j = get_global_id(0), i = get_global_id(1);\n"
    "  if (i == 0) ey[i * ny + j] = fict[t];\n"
    "  else ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);\n"
    "}\n"
    "kernel void fdtd_ex(global float *ex, global const float *hz, int nx, int ny) {\n"
    "  int j = get_global_id(0), i = get_global_id(1);\n"
    "  if (j > 0) ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);\n"
    "}\n"
    "kernel void fdtd_hz(global float *hz, global const float *ex, global const float *ey, int nx, int ny) {\n"
    "  int j = get_global_id(0), i = get_global_id(1);\n"
    "  if (i < nx - 1 && j < ny - 1)\n"
    "    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);\n"
    "}\n"
    /* Rodinia's OpenCL HotSpot without its __local pyramid: neighbours clamped at the borders
     * as Rodinia writes them (selects), and as min/max of the row and column */
    "kernel void hotspot(global const float *power, global const float *src, global float *dst, int rows, int cols,\n"
    "                    float cap1, float rx1, float ry1, float rz1, float amb) {\n"
    "  int c = get_global_id(0), r = get_global_id(1), idx = r * cols + c;\n"
    "  int N = (r == 0) ? idx : idx - cols;\n"
    "  int S = (r == rows - 1) ? idx : idx + cols;\n"
    "  int W = (c == 0) ? idx : idx - 1;\n"
    "  int E = (c == cols - 1) ? idx : idx + 1;\n"
    "  float t = src[idx];\n"
    "  dst[idx] = t + cap1 * (power[idx] + (src[S] + src[N] - 2.0f * t) * ry1 + (src[E] + src[W] - 2.0f * t) * rx1\n"
    "                        + (amb - t) * rz1);\n"
    "}\n"
    "kernel void hotspot_clamp(global const float *power, global const float *src, global float *dst, int rows,\n"
    "                          int cols, float cap1, float rx1, float ry1, float rz1, float amb) {\n"
    "  int c = get_global_id(0), r = get_global_id(1);\n"
    "  int rn = max(r - 1, 0), rs = min(r + 1, rows - 1), cw = max(c - 1, 0), ce = min(c + 1, cols - 1);\n"
    "  float t = src[r * cols + c];\n"
    "  dst[r * cols + c] = t + cap1 * (power[r * cols + c] + (src[rs * cols + c] + src[rn * cols + c] - 2.0f * t) * ry1\n"
    "                        + (src[r * cols + ce] + src[r * cols + cw] - 2.0f * t) * rx1 + (amb - t) * rz1);\n"
    "}\n";

static cl_command_queue pq;   /* in-order, with profiling */

static int setup(void **state)
{
    (void)state;
    if (harness_open(source, "-cl-std=CL3.0") != 0)
        return -1;
    cl_int err;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    pq = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
    return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseCommandQueue(pq);
    return harness_close();
}

/* The teams of hierarchical overlapped tiling force() asks for: 0 for one level. */
static unsigned forced_teams;

static void force(unsigned depth, unsigned tile)
{
    char d[16], t[16], n[16];
    snprintf(d, sizeof d, "%u", depth);
    snprintf(t, sizeof t, "%u", tile);
    snprintf(n, sizeof n, "%u", forced_teams);
    setenv("WEFT_FUSE_DEPTH", d, 1);
    setenv("WEFT_FUSE_TILE", t, 1);
    unsetenv("WEFT_FUSE_COLS");
    setenv("WEFT_FUSE_LEVELS", forced_teams ? "2" : "1", 1);
    if (forced_teams)
        setenv("WEFT_FUSE_DOMAINS", n, 1);
    else
        unsetenv("WEFT_FUSE_DOMAINS");
}

/* 2-D tiles of `cols` columns (0: row tiles), after force(). */
static void force_cols(unsigned cols)
{
    char c[16];
    snprintf(c, sizeof c, "%u", cols);
    if (cols)
        setenv("WEFT_FUSE_COLS", c, 1);
    else
        unsetenv("WEFT_FUSE_COLS");
}

/* How many launches started together with the one before them (a fused run): > 0 proves
 * fusion happened. Releases the events. */
static unsigned count_fused(cl_event *ev, unsigned n)
{
    unsigned together = 0;
    cl_ulong prev_start = 0, prev_end = 0;
    for (unsigned i = 0; i < n; i++) {
        cl_int status;
        cl_ulong start, end, submit, complete;
        assert_int_equal(clGetEventInfo(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
                         CL_SUCCESS);
        assert_int_equal(status, CL_COMPLETE);
        assert_int_equal(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_SUBMIT, sizeof submit, &submit, NULL), 0);
        assert_int_equal(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL), 0);
        assert_int_equal(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), 0);
        assert_int_equal(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete,
                                                 NULL), 0);
        assert_true(submit <= start && start <= end && end <= complete);
        if (i > 0) {
            assert_true(start >= prev_start);   /* in order */
            assert_true(end >= prev_end);
            together += start == prev_start;
        }
        prev_start = start;
        prev_end = end;
        clReleaseEvent(ev[i]);
    }
    return together;
}

/* ---- 1-D Jacobi ------------------------------------------------------------------------------ */

/* Runs `steps` Jacobi sweeps from `init`; `sync` finishes after each launch (unfused). The
 * result (in whichever buffer the last sweep wrote) goes to `out`; returns how many launches
 * ran fused with their predecessor. */
static unsigned jacobi1d_run(const float *init, int n, int steps, bool sync, float *out, float *other)
{
    cl_kernel k = kernel_new("jacobi1d");
    size_t bytes = (size_t)n * sizeof(float);
    cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    size_t global = (size_t)n;
    for (int s = 0; s < steps; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(n)));
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, &ev[s]), CL_SUCCESS);
        if (sync)
            assert_int_equal(clFinish(pq), CL_SUCCESS);
    }
    cl_mem last = steps % 2 ? b : a, prev = steps % 2 ? a : b;
    assert_int_equal(clEnqueueReadBuffer(pq, last, CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(pq, prev, CL_TRUE, 0, bytes, other, 0, NULL, NULL), CL_SUCCESS);
    unsigned fused = count_fused(ev, (unsigned)steps);
    free(ev);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    return fused;
}

static void test_jacobi1d_bit_identical(void **state)
{
    (void)state;
    static const struct { int n, steps; unsigned depth, tile; } cases[] = {
        {10007, 23, 4, 1000}, {10007, 23, 7, 333}, {10007, 23, 23, 64}, {4096, 16, 16, 4096},
        {999, 9, 3, 1}, {5, 6, 6, 1}, {300000, 12, 12, 20000},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        int n = cases[c].n, steps = cases[c].steps;
        float *init = malloc((size_t)n * 4), *ref = malloc((size_t)n * 4), *ref2 = malloc((size_t)n * 4);
        float *got = malloc((size_t)n * 4), *got2 = malloc((size_t)n * 4), *host = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++)
            init[i] = (float)((unsigned)i * 7919u % 1000u) / 10.0f;
        force(cases[c].depth, cases[c].tile);
        jacobi1d_run(init, n, steps, true, ref, ref2);
        unsigned fused = jacobi1d_run(init, n, steps, false, got, got2);
        if (memcmp(ref, got, (size_t)n * 4) || memcmp(ref2, got2, (size_t)n * 4))
            fail_msg("jacobi1d n=%d steps=%d depth=%u tile=%u: fused results differ", n, steps, cases[c].depth,
                     cases[c].tile);
        if (fused == 0)
            fail_msg("jacobi1d n=%d depth=%u tile=%u: nothing was fused", n, cases[c].depth, cases[c].tile);
        /* the reference itself, against the host */
        memcpy(host, init, (size_t)n * 4);
        for (int s = 0; s < steps; s++) {
            float *nx = malloc((size_t)n * 4);
            for (int i = 0; i < n; i++)
                nx[i] = i > 0 && i < n - 1 ? (host[i - 1] + host[i] + host[i + 1]) * (1.0f / 3.0f) : host[i];
            memcpy(host, nx, (size_t)n * 4);
            free(nx);
        }
        for (int i = 0; i < n; i++)
            if (fabsf(host[i] - ref[i]) > 1e-3f * (1.0f + fabsf(host[i])))
                fail_msg("jacobi1d n=%d: element %d is %g, host %g", n, i, ref[i], host[i]);
        free(init), free(ref), free(ref2), free(got), free(got2), free(host);
    }
}

/* The widest `<N x float>` in the first file of `dir` whose name holds every one of `parts` and
 * none of `not` (0: no float vector), or -1 when there is no such file. */
static int widest_floats(const char *dir, const char *const *parts, unsigned nparts, const char *const *not,
                         unsigned nnot)
{
    DIR *d = opendir(dir);
    int widest = -1;
    for (struct dirent *e; d && widest < 0 && (e = readdir(d));) {
        bool all = true;
        for (unsigned i = 0; i < nparts; i++)
            all = all && strstr(e->d_name, parts[i]);
        for (unsigned i = 0; i < nnot; i++)
            all = all && !strstr(e->d_name, not[i]);
        if (!all)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        widest = 0;
        for (char line[4096]; f && fgets(line, sizeof line, f);)
            for (char *q = line; (q = strchr(q, '<'));) {
                int n;
                char ty[8];
                if (sscanf(q, "<%d x %7[a-z]>", &n, ty) == 2 && !strcmp(ty, "float") && n > widest)
                    widest = n;
                q++;
            }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return widest;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* A fused run's stages use variants with two packets side by side (".x2", compiler/variant.h):
 * their dumped IR is named `.x2` and computes twice the lanes of the unfused variant (the other
 * tests check that the results stay the unfused ones bit for bit). It runs first, so that both
 * variants are compiled (and dumped) here rather than found compiled. */
static void test_fused_variants_take_two_packets(void **state)
{
    (void)state;
    /* the runtime's own choice for fused stages: a WEFT_VARIANT the matrix forces replaces it */
    char *forced = getenv("WEFT_VARIANT") ? strdup(getenv("WEFT_VARIANT")) : NULL;
    unsetenv("WEFT_VARIANT");
    char dir[] = "/tmp/weft-fusion-dump-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("WEFT_DUMP", dir, 1);
    const int n = 8192, steps = 8;
    float *init = calloc((size_t)n, 4);
    for (int i = 0; i < n; i++)
        init[i] = (float)(i % 31);
    cl_kernel k = kernel_new("jacobi1d");
    cl_mem a = buf_new((size_t)n * 4, init), b = buf_new((size_t)n * 4, init);
    size_t global = (size_t)n;
    force(steps, 2048);
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    for (int sync = 1; sync >= 0; sync--)
        for (int s = 0; s < steps; s++) {
            cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
            kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(n)));
            assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, sync ? NULL : &ev[s]),
                             CL_SUCCESS);
            if (sync)
                assert_int_equal(clFinish(pq), CL_SUCCESS);
        }
    assert_int_equal(clFinish(pq), CL_SUCCESS);
    unsetenv("WEFT_DUMP");
    assert_true(count_fused(ev, (unsigned)steps) > 0);
    /* the launches' variants (the runtime may merge work-groups into larger ones): the fused
     * one's name says .x2, the unfused vectorized one's says neither that nor .scalar */
    const char *code[] = {"jacobi1d.", "optimized"}, *other[] = {".x2", ".scalar"};
    const char *fused[] = {"jacobi1d.", "optimized", ".x2"};
    int wf = widest_floats(dir, fused, 3, NULL, 0), wp = widest_floats(dir, code, 2, other, 2);
    remove_dir(dir);
    if (wf < 0)
        fail_msg("no dump of the fused variant (.x2)");
    assert_true(wp >= 0);
    /* an explicit WEFT_VECTORIZE (off, or W x U) decides for every variant */
    const char *vec = getenv("WEFT_VECTORIZE");
    if (!vec || !*vec || !strcmp(vec, "auto"))
        assert_int_equal(wf, 2 * wp);
    if (forced) {
        setenv("WEFT_VARIANT", forced, 1);
        free(forced);
    }
    free(ev);
    free(init);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseKernel(k);
}

/* ---- 2-D stencils ------------------------------------------------------------------------------ */

struct grid_case { int w, h, steps; unsigned depth, tile; const size_t *local; unsigned cols; };

static unsigned stencil2d_run(const char *name, const float *init, const float *rhs, int w, int h, int steps,
                              const size_t *local, bool sync, float *out)
{
    cl_kernel k = kernel_new(name);
    size_t bytes = (size_t)w * (size_t)h * sizeof(float);
    cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init), f = rhs ? buf_new(bytes, rhs) : NULL;
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    size_t global[2] = {(size_t)w, (size_t)h};
    float hh = 0.01f;
    for (int s = 0; s < steps; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        if (f)
            kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(f), KARG(w), KARG(h), KARG(hh)));
        else
            kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(w), KARG(h)));
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 2, NULL, global, local, 0, NULL, &ev[s]), CL_SUCCESS);
        if (sync)
            assert_int_equal(clFinish(pq), CL_SUCCESS);
    }
    assert_int_equal(clEnqueueReadBuffer(pq, steps % 2 ? b : a, CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned fused = count_fused(ev, (unsigned)steps);
    free(ev);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    if (f)
        clReleaseMemObject(f);
    clReleaseKernel(k);
    return fused;
}

static void check_2d(const char *name, bool with_rhs, const struct grid_case *cases, size_t ncases)
{
    for (size_t c = 0; c < ncases; c++) {
        int w = cases[c].w, h = cases[c].h;
        size_t cells = (size_t)w * (size_t)h;
        float *init = malloc(cells * 4), *rhs = malloc(cells * 4), *ref = malloc(cells * 4), *got = malloc(cells * 4);
        for (size_t i = 0; i < cells; i++) {
            init[i] = (float)((i * 2654435761u) % 997) / 7.0f;
            rhs[i] = (float)(i % 13) - 6.0f;
        }
        force(cases[c].depth, cases[c].tile);
        force_cols(cases[c].cols);
        stencil2d_run(name, init, with_rhs ? rhs : NULL, w, h, cases[c].steps, cases[c].local, true, ref);
        unsigned fused = stencil2d_run(name, init, with_rhs ? rhs : NULL, w, h, cases[c].steps, cases[c].local, false,
                                       got);
        if (memcmp(ref, got, cells * 4))
            fail_msg("%s %dx%d steps=%d depth=%u tile=%u cols=%u: fused results differ", name, w, h, cases[c].steps,
                     cases[c].depth, cases[c].tile, cases[c].cols);
        if (fused == 0)
            fail_msg("%s %dx%d depth=%u tile=%u cols=%u: nothing was fused", name, w, h, cases[c].depth,
                     cases[c].tile, cases[c].cols);
        free(init), free(rhs), free(ref), free(got);
    }
}

static void test_jacobi2d_bit_identical(void **state)
{
    (void)state;
    static const size_t l16x4[2] = {16, 4}, l1[2] = {1, 1};
    const struct grid_case cases[] = {
        {67, 45, 10, 5, 7, NULL}, {67, 45, 10, 10, 1, NULL}, {64, 64, 12, 4, 16, l16x4}, {33, 17, 8, 8, 3, l1},
        {512, 300, 20, 20, 40, NULL}, {3, 3, 4, 4, 1, NULL},
        /* 2-D tiles: columns of tiles narrower than the halo, one column wider than the NDRange,
         * a last column of tiles narrower than the others, a local size the fused run ignores */
        {96, 45, 10, 5, 7, NULL, 32}, {64, 64, 12, 12, 16, l16x4, 16}, {48, 33, 9, 9, 5, NULL, 64},
        {160, 100, 20, 20, 17, NULL, 48}, {32, 7, 6, 6, 1, l1, 16},
        /* tiles much larger than their halo: the inside of a tile is written back at once, only
         * its border waits for the neighbours */
        {512, 200, 4, 4, 64, NULL, 256}, {1024, 90, 6, 6, 40, NULL, 512},
    };
    check_2d("jacobi2d", false, cases, ARRAY_LEN(cases));
}

/* 2-D tiles whose stages read across the ends of rows: a tile in the first column needs the
 * last columns of the rows above it, computed by earlier stages */
static void test_row_wrapping_reads_2d_tiles(void **state)
{
    (void)state;
    const struct grid_case cases[] = {
        {64, 40, 12, 12, 5, NULL, 16}, {96, 31, 9, 9, 8, NULL, 32}, {48, 20, 20, 20, 3, NULL, 16},
        {32, 9, 40, 40, 2, NULL, 16},
    };
    check_2d("linear3", false, cases, ARRAY_LEN(cases));
}

static void test_poisson_bit_identical(void **state)
{
    (void)state;
    const struct grid_case cases[] = {{101, 77, 14, 7, 9, NULL}, {128, 128, 9, 3, 30, NULL},
                                      {128, 77, 14, 7, 9, NULL, 32}};
    check_2d("poisson", true, cases, ARRAY_LEN(cases));
}

/* ---- PathFinder: the row argument differs per launch --------------------------------------------- */

static unsigned pathfinder_run(const int *wall, int cols, int rows, bool sync, int *out)
{
    cl_kernel k = kernel_new("pathfinder");
    size_t bytes = (size_t)cols * sizeof(int);
    cl_mem w = buf_new(bytes * (size_t)rows, wall), a = buf_new(bytes, wall), b = buf_new(bytes, NULL);
    cl_event *ev = calloc((size_t)rows, sizeof *ev);
    size_t global = (size_t)cols;
    for (int r = 1; r < rows; r++) {
        cl_mem src = r % 2 ? a : b, dst = r % 2 ? b : a;
        kernel_set_args(k, KARGS(KARG(w), KARG(src), KARG(dst), KARG(cols), KARG(r)));
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, &ev[r - 1]), CL_SUCCESS);
        if (sync)
            assert_int_equal(clFinish(pq), CL_SUCCESS);
    }
    assert_int_equal(clEnqueueReadBuffer(pq, (rows - 1) % 2 ? b : a, CL_TRUE, 0, bytes, out, 0, NULL, NULL), 0);
    unsigned fused = count_fused(ev, (unsigned)rows - 1);
    free(ev);
    clReleaseMemObject(w), clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k);
    return fused;
}

static void test_pathfinder_exact(void **state)
{
    (void)state;
    const int cols = 1001, rows = 40;
    int *wall = malloc((size_t)cols * rows * sizeof(int)), *got = malloc((size_t)cols * sizeof(int));
    int *ref = malloc((size_t)cols * sizeof(int)), *host = malloc((size_t)cols * sizeof(int));
    for (int i = 0; i < cols * rows; i++)
        wall[i] = (int)((unsigned)(i * 2654435761u) % 10);
    force(13, 100);
    pathfinder_run(wall, cols, rows, true, ref);
    unsigned fused = pathfinder_run(wall, cols, rows, false, got);
    assert_true(fused > 0);
    assert_memory_equal(ref, got, (size_t)cols * sizeof(int));
    memcpy(host, wall, (size_t)cols * sizeof(int));
    for (int r = 1; r < rows; r++) {
        int *nx = malloc((size_t)cols * sizeof(int));
        for (int x = 0; x < cols; x++) {
            int best = host[x];
            if (x > 0 && host[x - 1] < best)
                best = host[x - 1];
            if (x < cols - 1 && host[x + 1] < best)
                best = host[x + 1];
            nx[x] = wall[r * cols + x] + best;
        }
        memcpy(host, nx, (size_t)cols * sizeof(int));
        free(nx);
    }
    assert_memory_equal(host, got, (size_t)cols * sizeof(int));
    free(wall), free(got), free(ref), free(host);
}

/* ---- FDTD-2D: three kernels a time step --------------------------------------------------------- */

static unsigned fdtd_run(int nx, int ny, int tmax, bool sync, float *ex_out, float *ey_out, float *hz_out)
{
    size_t cells = (size_t)nx * (size_t)ny, bytes = cells * sizeof(float);
    float *ex = malloc(bytes), *ey = malloc(bytes), *hz = malloc(bytes), *fict = malloc((size_t)tmax * 4);
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            ex[i * ny + j] = ((float)i * (float)(j + 1)) / (float)nx;
            ey[i * ny + j] = ((float)i * (float)(j + 2)) / (float)ny;
            hz[i * ny + j] = ((float)i * (float)(j + 3)) / (float)nx;
        }
    for (int t = 0; t < tmax; t++)
        fict[t] = (float)t;
    cl_mem mex = buf_new(bytes, ex), mey = buf_new(bytes, ey), mhz = buf_new(bytes, hz);
    cl_mem mf = buf_new((size_t)tmax * 4, fict);
    cl_kernel key = kernel_new("fdtd_ey"), kex = kernel_new("fdtd_ex"), khz = kernel_new("fdtd_hz");
    kernel_set_args(kex, KARGS(KARG(mex), KARG(mhz), KARG(nx), KARG(ny)));
    kernel_set_args(khz, KARGS(KARG(mhz), KARG(mex), KARG(mey), KARG(nx), KARG(ny)));
    size_t global[2] = {(size_t)ny, (size_t)nx};
    cl_event *ev = calloc(3 * (size_t)tmax, sizeof *ev);
    /* fused: the chain waits on a user event until all of it is enqueued, so that a pause of
     * the enqueuing thread (a loaded machine) cannot run its first part alone and change how
     * many launches fuse */
    cl_int err;
    cl_event gate = sync ? NULL : clCreateUserEvent(env.context, &err);
    for (int t = 0; t < tmax; t++) {
        kernel_set_args(key, KARGS(KARG(mey), KARG(mhz), KARG(mf), KARG(nx), KARG(ny), KARG(t)));
        cl_kernel ks[3] = {key, kex, khz};
        for (int s = 0; s < 3; s++) {
            bool first = gate && t == 0 && s == 0;
            assert_int_equal(clEnqueueNDRangeKernel(pq, ks[s], 2, NULL, global, NULL, first, first ? &gate : NULL,
                                                    &ev[3 * t + s]),
                             0);
            if (sync)
                assert_int_equal(clFinish(pq), CL_SUCCESS);
        }
    }
    /* The reads, enqueued before the gate opens, end the run of held launches (a command
     * that is not a launch releases every launch before it): all of them are released
     * together, so only the forced depth cuts the chain. Were they enqueued after the gate
     * opened, a pause of this thread of 2 ms during the loop above (the queue's hold,
     * runtime/queue.c) would have released the launches enqueued until then, and the run
     * starting when the gate opens would have ended there. */
    assert_int_equal(clEnqueueReadBuffer(pq, mex, CL_FALSE, 0, bytes, ex_out, 0, NULL, NULL), 0);
    assert_int_equal(clEnqueueReadBuffer(pq, mey, CL_FALSE, 0, bytes, ey_out, 0, NULL, NULL), 0);
    assert_int_equal(clEnqueueReadBuffer(pq, mhz, CL_FALSE, 0, bytes, hz_out, 0, NULL, NULL), 0);
    if (gate) {
        assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        clReleaseEvent(gate);
    }
    assert_int_equal(clFinish(pq), CL_SUCCESS);
    unsigned fused = count_fused(ev, 3 * (unsigned)tmax);
    free(ev), free(ex), free(ey), free(hz), free(fict);
    clReleaseMemObject(mex), clReleaseMemObject(mey), clReleaseMemObject(mhz), clReleaseMemObject(mf);
    clReleaseKernel(key), clReleaseKernel(kex), clReleaseKernel(khz);
    return fused;
}

static void test_fdtd2d_bit_identical(void **state)
{
    (void)state;
    static const struct { int nx, ny, tmax; unsigned depth, tile, cols; } cases[] = {
        {60, 70, 8, 24, 9, 0}, {61, 33, 5, 6, 1, 0}, {200, 120, 10, 30, 25, 0}, {61, 96, 8, 24, 9, 32},
        {40, 64, 5, 15, 3, 16},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        size_t cells = (size_t)cases[c].nx * (size_t)cases[c].ny;
        float *r[3], *g[3];
        for (int i = 0; i < 3; i++) {
            r[i] = malloc(cells * 4);
            g[i] = malloc(cells * 4);
        }
        force(cases[c].depth, cases[c].tile);
        force_cols(cases[c].cols);
        fdtd_run(cases[c].nx, cases[c].ny, cases[c].tmax, true, r[0], r[1], r[2]);
        unsigned fused = fdtd_run(cases[c].nx, cases[c].ny, cases[c].tmax, false, g[0], g[1], g[2]);
        for (int i = 0; i < 3; i++)
            if (memcmp(r[i], g[i], cells * 4))
                fail_msg("fdtd %dx%d: field %d differs fused", cases[c].nx, cases[c].ny, i);
        /* every launch in groups of the forced depth, fdtd_ey's too (its `if (i == 0) ey[j] = ...`
         * is pinned to row 0): all but the first of each group start with the one before */
        unsigned launches = 3 * (unsigned)cases[c].tmax;
        unsigned want = launches - (launches + cases[c].depth - 1) / cases[c].depth;
        if (fused != want)
            fail_msg("fdtd %dx%d: %u launches started with the one before, want %u", cases[c].nx, cases[c].ny, fused,
                     want);
        for (int i = 0; i < 3; i++)
            free(r[i]), free(g[i]);
    }
}

/* ---- HotSpot: clamped neighbours, a power buffer only read, ping-pong temperatures ----------------- */

/* Rodinia's constants for a 0.016 m chip (hotspot.c), as single-precision factors */
#define HS_CAP1 0.000585f   /* step / Cap */
#define HS_RX1 0.0190f
#define HS_RY1 0.0127f
#define HS_RZ1 0.0005f
#define HS_AMB 80.0f

static unsigned hotspot_run(const char *name, const float *temp, const float *power, int rows, int cols, int steps,
                            bool sync, float *out)
{
    cl_kernel k = kernel_new(name);
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    cl_mem p = buf_new(bytes, power), a = buf_new(bytes, temp), b = buf_new(bytes, temp);
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    size_t global[2] = {(size_t)cols, (size_t)rows};
    float cap1 = HS_CAP1, rx1 = HS_RX1, ry1 = HS_RY1, rz1 = HS_RZ1, amb = HS_AMB;
    for (int s = 0; s < steps; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        kernel_set_args(k, KARGS(KARG(p), KARG(src), KARG(dst), KARG(rows), KARG(cols), KARG(cap1), KARG(rx1),
                                 KARG(ry1), KARG(rz1), KARG(amb)));
        assert_int_equal(clEnqueueNDRangeKernel(pq, k, 2, NULL, global, NULL, 0, NULL, &ev[s]), CL_SUCCESS);
        if (sync)
            assert_int_equal(clFinish(pq), CL_SUCCESS);
    }
    assert_int_equal(clEnqueueReadBuffer(pq, steps % 2 ? b : a, CL_TRUE, 0, bytes, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned fused = count_fused(ev, (unsigned)steps);
    free(ev);
    clReleaseMemObject(p), clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k);
    return fused;
}

static void test_hotspot_bit_identical(void **state)
{
    (void)state;
    static const struct { const char *kernel; int rows, cols, steps; unsigned depth, tile, tcols; } cases[] = {
        {"hotspot", 64, 64, 12, 6, 10, 0},       {"hotspot", 97, 131, 15, 15, 7, 0}, {"hotspot", 45, 33, 8, 4, 1, 0},
        {"hotspot", 300, 257, 20, 10, 64, 0},    {"hotspot_clamp", 64, 64, 12, 6, 10, 0},
        {"hotspot_clamp", 97, 131, 15, 15, 7, 0}, {"hotspot_clamp", 45, 33, 8, 4, 1, 0}, {"hotspot", 3, 5, 6, 6, 1, 0},
        /* 2-D tiles: the selects' candidates are addresses of the layout; hotspot_clamp's
         * max(r - 1, 0) * cols is not one, and it falls back to row tiles */
        {"hotspot", 97, 128, 15, 15, 7, 32},     {"hotspot_clamp", 50, 64, 8, 8, 9, 16},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        const int rows = cases[c].rows, cols = cases[c].cols, steps = cases[c].steps;
        size_t cells = (size_t)rows * (size_t)cols;
        float *temp = malloc(cells * 4), *power = malloc(cells * 4), *ref = malloc(cells * 4);
        float *got = malloc(cells * 4), *host = malloc(cells * 4), *next = malloc(cells * 4);
        for (size_t i = 0; i < cells; i++) {
            temp[i] = 320.0f + (float)((i * 2654435761u) % 1000) / 50.0f;
            power[i] = (float)((i * 40503u) % 97) / 1000.0f;
        }
        force(cases[c].depth, cases[c].tile);
        force_cols(cases[c].tcols);
        hotspot_run(cases[c].kernel, temp, power, rows, cols, steps, true, ref);
        unsigned fused = hotspot_run(cases[c].kernel, temp, power, rows, cols, steps, false, got);
        if (memcmp(ref, got, cells * 4))
            fail_msg("%s %dx%d steps=%d depth=%u tile=%u: fused results differ", cases[c].kernel, rows, cols, steps,
                     cases[c].depth, cases[c].tile);
        if (fused == 0)
            fail_msg("%s %dx%d depth=%u tile=%u: nothing was fused", cases[c].kernel, rows, cols, cases[c].depth,
                     cases[c].tile);
        /* the reference itself, against the host (Rodinia's single_iteration with clamped
         * neighbours; contraction may differ, hence the tolerance) */
        memcpy(host, temp, cells * 4);
        for (int s = 0; s < steps; s++) {
            for (int r = 0; r < rows; r++)
                for (int x = 0; x < cols; x++) {
                    int i = r * cols + x;
                    float t = host[i];
                    float n = host[(r > 0 ? r - 1 : r) * cols + x], so = host[(r < rows - 1 ? r + 1 : r) * cols + x];
                    float w = host[r * cols + (x > 0 ? x - 1 : x)], e = host[r * cols + (x < cols - 1 ? x + 1 : x)];
                    next[i] = t + HS_CAP1 * (power[i] + (so + n - 2.0f * t) * HS_RY1 + (e + w - 2.0f * t) * HS_RX1 +
                                             (HS_AMB - t) * HS_RZ1);
                }
            memcpy(host, next, cells * 4);
        }
        for (size_t i = 0; i < cells; i++)
            if (fabsf(host[i] - ref[i]) > 1e-4f * fabsf(host[i]))
                fail_msg("%s %dx%d: cell %zu is %.9g, host %.9g", cases[c].kernel, rows, cols, i, ref[i], host[i]);
        free(temp), free(power), free(ref), free(got), free(host), free(next);
    }
}

/* ---- sync points inside a chain ----------------------------------------------------------------- */

/* A non-blocking read between launches sees the state after the launches before it, and the
 * launches after it still fuse. */
static void test_chain_interrupted_by_read(void **state)
{
    (void)state;
    const int n = 20011, half = 10;
    size_t bytes = (size_t)n * 4;
    float *init = malloc(bytes), *mid[2], *end[2];
    for (int i = 0; i < n; i++)
        init[i] = (float)(i % 101);
    force(10, 997);
    cl_kernel k = kernel_new("jacobi1d");
    size_t global = (size_t)n;
    for (int run = 0; run < 2; run++) {   /* 0: unfused reference, 1: fused */
        mid[run] = malloc(bytes);
        end[run] = malloc(bytes);
        cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
        cl_event read_ev;
        for (int s = 0; s < 2 * half; s++) {
            cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
            kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(n)));
            assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
            if (run == 0)
                assert_int_equal(clFinish(pq), CL_SUCCESS);
            if (s == half - 1)
                assert_int_equal(clEnqueueReadBuffer(pq, b, CL_FALSE, 0, bytes, mid[run], 0, NULL, &read_ev), 0);
        }
        assert_int_equal(clEnqueueReadBuffer(pq, a, CL_TRUE, 0, bytes, end[run], 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clWaitForEvents(1, &read_ev), CL_SUCCESS);
        clReleaseEvent(read_ev);
        clReleaseMemObject(a), clReleaseMemObject(b);
    }
    assert_memory_equal(mid[0], mid[1], bytes);
    assert_memory_equal(end[0], end[1], bytes);
    clReleaseKernel(k);
    free(init), free(mid[0]), free(mid[1]), free(end[0]), free(end[1]);
}

/* An NDRange padded beyond the data (97 items in groups of 16: 128 work-items, the last 31
 * return at once) and a chain that reads only each work-item's own element (no halo): with
 * tiles of 16 rows the last tile's windows lie past the buffers' ends and have nothing to fill. Two levels went from such a tile's empty fill phase straight past its
 * stages into write-back phases that never ended (a hang, found by tools/fuzz/chains.py); one
 * level, then teams of every thread. */
static void test_padded_range_empty_tiles(void **state)
{
    (void)state;
    const int n = 97, steps = 8;
    const size_t bytes = (size_t)n * 4, global = 128, local = 16;
    float init[97], got[2][3][97];
    for (int i = 0; i < n; i++)
        init[i] = (float)(i * 37 % 101);
    cl_kernel k = kernel_new("axpb_guarded");
    for (unsigned teams = 0; teams <= 1; teams++) {
        forced_teams = teams;
        force(4, 16);
        for (int run = 0; run < 2; run++) {   /* 0: unfused reference, 1: fused */
            cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
            cl_event ev[8];
            for (int s = 0; s < steps; s++) {
                cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
                kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(n)));
                assert_int_equal(clEnqueueNDRangeKernel(pq, k, 1, NULL, &global, &local, 0, NULL, &ev[s]), 0);
                if (run == 0)
                    assert_int_equal(clFinish(pq), CL_SUCCESS);
            }
            assert_int_equal(clEnqueueReadBuffer(pq, a, CL_TRUE, 0, bytes, got[run][0], 0, NULL, NULL), 0);
            assert_int_equal(clEnqueueReadBuffer(pq, b, CL_TRUE, 0, bytes, got[run][1], 0, NULL, NULL), 0);
            unsigned fused = count_fused(ev, (unsigned)steps);
            if (run == 1 && fused == 0)
                fail_msg("padded range, %s: nothing was fused", teams ? "two levels" : "one level");
            clReleaseMemObject(a), clReleaseMemObject(b);
        }
        assert_memory_equal(got[0][0], got[1][0], bytes);
        assert_memory_equal(got[0][1], got[1][1], bytes);
    }
    forced_teams = 0;
    clReleaseKernel(k);
}

/* Runs `steps` launches of kernel(src, dst, n[0..dims)) ping-ponging between two buffers of
 * n[0] x ... x n[dims-1] floats over global/local, unfused and then fused with depth `depth`
 * and each tile height of tiles[], with one level and with teams: asserts that something fused
 * and that both buffers match bit for bit. */
static void ping_pong_fused_check(const char *kernel, const char *what, unsigned dims, const int *n,
                                  const size_t *global, const size_t *local, int steps, unsigned depth,
                                  const unsigned *tiles, size_t ntiles)
{
    int items = 1;
    for (unsigned d = 0; d < dims; d++)
        items *= n[d];
    const size_t bytes = (size_t)items * 4;
    float *init = malloc(bytes), *got[2][2];
    cl_event *ev = calloc((size_t)steps, sizeof *ev);
    for (int i = 0; i < items; i++)
        init[i] = (float)(i * 7919 % 1000) / 10.0f;
    cl_kernel k = kernel_new(kernel);
    for (unsigned teams = 0; teams <= 1; teams++)
        for (size_t tc = 0; tc < ntiles; tc++) {
            forced_teams = teams;
            force(depth, tiles[tc]);
            for (int run = 0; run < 2; run++) {   /* 0: unfused reference, 1: fused */
                cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
                for (int s = 0; s < steps; s++) {
                    cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
                    assert_int_equal(clSetKernelArg(k, 0, sizeof src, &src), CL_SUCCESS);
                    assert_int_equal(clSetKernelArg(k, 1, sizeof dst, &dst), CL_SUCCESS);
                    for (unsigned d = 0; d < dims; d++)
                        assert_int_equal(clSetKernelArg(k, 2 + d, sizeof n[d], &n[d]), CL_SUCCESS);
                    assert_int_equal(clEnqueueNDRangeKernel(pq, k, dims, NULL, global, local, 0, NULL, &ev[s]), 0);
                    if (run == 0)
                        assert_int_equal(clFinish(pq), CL_SUCCESS);
                }
                got[run][0] = malloc(bytes);
                got[run][1] = malloc(bytes);
                assert_int_equal(clEnqueueReadBuffer(pq, a, CL_TRUE, 0, bytes, got[run][0], 0, NULL, NULL), 0);
                assert_int_equal(clEnqueueReadBuffer(pq, b, CL_TRUE, 0, bytes, got[run][1], 0, NULL, NULL), 0);
                unsigned fused = count_fused(ev, (unsigned)steps);
                if (run == 1 && fused == 0)
                    fail_msg("%s, tile %u, %s: nothing was fused", what, tiles[tc], teams ? "two levels" : "one level");
                clReleaseMemObject(a), clReleaseMemObject(b);
            }
            if (memcmp(got[0][0], got[1][0], bytes) || memcmp(got[0][1], got[1][1], bytes))
                fail_msg("%s, tile %u, %s: fused results differ", what, tiles[tc], teams ? "two levels" : "one level");
            for (int r = 0; r < 2; r++)
                free(got[r][0]), free(got[r][1]);
        }
    forced_teams = 0;
    clReleaseKernel(k);
    free(init);
    free(ev);
}

/* A 2-D chain over an NDRange padded past the data (33x21 floats in groups of 16x4: 48x24
 * work-items, those past the data returning at a guard): fused because the guard bounds the
 * work-items that write a row (analysis/access.h's below[], fuse/plan.h's items[]; before, one
 * row's writes looked wider than the row), and bit for bit the unfused results, with one level
 * and with teams, with tiles of 1, 3 and 8 rows. */
static void test_padded_2d_chain_fused(void **state)
{
    (void)state;
    static const int n[2] = {33, 21};
    static const size_t global[2] = {48, 24}, local[2] = {16, 4};
    static const unsigned tiles[] = {1, 3, 8};
    ping_pong_fused_check("jacobi2d_guarded", "padded 2-D chain", 2, n, global, local, 9, 5, tiles, ARRAY_LEN(tiles));
}

/* A 3-D chain, `(z * ny + y) * nx + x` (a term gid2 * ny * nx of degree 3, which the access
 * analysis takes since 3-D stencils index so), over an NDRange padded past the data in every
 * dimension (20x13x17 in groups of 8x4x2: 24x16x18): fused, planes of z as the tiles' rows,
 * and bit for bit the unfused results, with one level and with teams. */
static void test_3d_chain_fused(void **state)
{
    (void)state;
    static const int n[3] = {20, 13, 17};
    static const size_t global[3] = {24, 16, 18}, local[3] = {8, 4, 2};
    static const unsigned tiles[] = {1, 4};
    ping_pong_fused_check("heat3d_guarded", "3-D chain", 3, n, global, local, 6, 3, tiles, ARRAY_LEN(tiles));
}

/* Two in-order queues, each holding a chain; the second waits on the first one's last launch
 * through its wait list, with no flush anywhere: held launches must run and results match. */
static void test_two_queues(void **state)
{
    (void)state;
    const int n = 5003, steps = 8;
    size_t bytes = (size_t)n * 4, global = (size_t)n;
    float *init = malloc(bytes), *ref = malloc(bytes), *ref2 = malloc(bytes), *got = malloc(bytes);
    for (int i = 0; i < n; i++)
        init[i] = (float)((i * 31) % 97);
    force(8, 500);
    /* reference: 2 * steps sweeps unfused */
    jacobi1d_run(init, n, 2 * steps, true, ref, ref2);
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k1 = kernel_new("jacobi1d"), k2 = kernel_new("jacobi1d");
    cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
    cl_event last = NULL;
    for (int s = 0; s < steps; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        kernel_set_args(k1, KARGS(KARG(src), KARG(dst), KARG(n)));
        if (last)
            clReleaseEvent(last);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k1, 1, NULL, &global, NULL, 0, NULL, &last), 0);
    }
    for (int s = steps; s < 2 * steps; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        kernel_set_args(k2, KARGS(KARG(src), KARG(dst), KARG(n)));
        assert_int_equal(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &global, NULL, s == steps ? 1 : 0,
                                                s == steps ? &last : NULL, NULL), 0);
    }
    assert_int_equal(clEnqueueReadBuffer(q2, a, CL_TRUE, 0, bytes, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(ref, got, bytes);
    clReleaseEvent(last);
    clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k1), clReleaseKernel(k2);
    clReleaseCommandQueue(q2);
    free(init), free(ref), free(ref2), free(got);
}

static atomic_int callback_fired;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *data)
{
    (void)ev;
    (void)data;
    if (status == CL_COMPLETE)
        atomic_fetch_add(&callback_fired, 1);
}

/* A callback on a launch held back for fusion fires without clFlush or clFinish; so does a
 * status poll's answer turn CL_COMPLETE. */
static void test_held_launch_callback_and_poll(void **state)
{
    (void)state;
    const int n = 4099;
    size_t bytes = (size_t)n * 4, global = (size_t)n;
    float *init = calloc((size_t)n, 4);
    force(6, 300);
    cl_kernel k = kernel_new("jacobi1d");
    cl_mem a = buf_new(bytes, init), b = buf_new(bytes, init);
    cl_event ev[6];
    for (int s = 0; s < 6; s++) {
        cl_mem src = s % 2 ? b : a, dst = s % 2 ? a : b;
        kernel_set_args(k, KARGS(KARG(src), KARG(dst), KARG(n)));
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, NULL, 0, NULL, &ev[s]), 0);
    }
    atomic_store(&callback_fired, 0);
    assert_int_equal(clSetEventCallback(ev[2], CL_COMPLETE, on_complete, NULL), CL_SUCCESS);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cl_int status = CL_QUEUED;
    do {
        assert_int_equal(clGetEventInfo(ev[5], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), 0);
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((status != CL_COMPLETE || !atomic_load(&callback_fired)) && t.tv_sec - t0.tv_sec < 20);
    assert_int_equal(status, CL_COMPLETE);
    assert_int_equal(atomic_load(&callback_fired), 1);
    for (int s = 0; s < 6; s++)
        clReleaseEvent(ev[s]);
    clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseKernel(k);
    free(init);
}

/* Two levels (exec/fuse/hot.c): the same chains, each level-1 tile run by a team of threads
 * with a barrier between stages; one team of every thread, then two teams. (2-D tile cases
 * run one level: two levels take row tiles only.) */
static void test_two_levels_bit_identical(void **state)
{
    for (forced_teams = 1; forced_teams <= 2; forced_teams++) {
        test_jacobi1d_bit_identical(state);
        test_jacobi2d_bit_identical(state);
        test_poisson_bit_identical(state);
        test_pathfinder_exact(state);
        test_fdtd2d_bit_identical(state);
        test_hotspot_bit_identical(state);
        test_chain_interrupted_by_read(state);
    }
    forced_teams = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fused_variants_take_two_packets),   /* first: before these variants are cached */
        cmocka_unit_test(test_jacobi1d_bit_identical),
        cmocka_unit_test(test_jacobi2d_bit_identical),
        cmocka_unit_test(test_poisson_bit_identical),
        cmocka_unit_test(test_row_wrapping_reads_2d_tiles),
        cmocka_unit_test(test_pathfinder_exact),
        cmocka_unit_test(test_fdtd2d_bit_identical),
        cmocka_unit_test(test_hotspot_bit_identical),
        cmocka_unit_test(test_chain_interrupted_by_read),
        cmocka_unit_test(test_two_queues),
        cmocka_unit_test(test_held_launch_callback_and_poll),
        cmocka_unit_test(test_two_levels_bit_identical),
        cmocka_unit_test(test_padded_range_empty_tiles),
        cmocka_unit_test(test_padded_2d_chain_fused),
        cmocka_unit_test(test_3d_chain_fused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
