/* tests/e2e/test_kernels_graph.c — a breadth-first search written like Rodinia's bfs: one
 * kernel expands the frontier (a per-node mask, most of it zero: the whole body after the id
 * computation is under a data-dependent guard, and each frontier node walks its own edge list
 * of a CSR graph, gathering neighbours and scattering their costs), the other turns the nodes
 * it reached into the next frontier and raises a flag; the host repeats both until the flag
 * stays down. This is the divergent shape whose variant the runtime chooses by a static cost
 * rule (compiler/variant.h weft_variant_static_scalar) and whose decisions profiling made on
 * all-idle groups (exec/variant_select.h reopens them).
 *
 * Two graphs: a random one (short distances, wide frontiers in the middle levels) and a grid
 * searched from a corner (a frontier that is a thin diagonal band moving across the NDRange, so
 * that most work-groups are all idle in every launch). The costs are checked against a queue-
 * based BFS on the host, and the number of levels against its depth. Local sizes 1, 17, 64
 * and 256 with the global size rounded up (the kernels guard tid < n), and the runtime's own
 * local size. CTest runs this file vectorized (e2e/), with WEFT_VECTORIZE=off (e2e-novec/) and
 * under every forced variant (e2e-v/). */
#include "test_kernels_harness.h"

#include <stdlib.h>
#include <string.h>

static const char *source =
    "typedef struct { int starting; int no_of_edges; } Node;\n"
    "kernel void bfs_expand(const global Node *nodes, const global int *edges, global char *mask,\n"
    "                       global char *updating, global char *visited, global int *cost, const int n) {\n"
    "  int tid = get_global_id(0);\n"
    "  if (tid < n && mask[tid]) {\n"
    "    mask[tid] = false;\n"
    "    for (int i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {\n"
    "      int id = edges[i];\n"
    "      if (!visited[id]) {\n"
    "        cost[id] = cost[tid] + 1;\n"
    "        updating[id] = true;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "kernel void bfs_update(global char *mask, global char *updating, global char *visited,\n"
    "                       global char *over, const int n) {\n"
    "  int tid = get_global_id(0);\n"
    "  if (tid < n && updating[tid]) {\n"
    "    mask[tid] = true;\n"
    "    visited[tid] = true;\n"
    "    *over = true;\n"
    "    updating[tid] = false;\n"
    "  }\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    return harness_open(source, NULL);
}

static int teardown(void **state)
{
    (void)state;
    return harness_close();
}

struct graph {
    int n, m;
    int32_t *nodes;   /* [2n]: starting, no_of_edges (Rodinia's Node) */
    int32_t *edges;   /* [m] */
};

/* Undirected: every edge is listed at both ends. Built from an edge list by counting. */
static void graph_from_pairs(struct graph *g, int n, const int32_t *pairs, int npairs)
{
    g->n = n;
    g->m = 2 * npairs;
    g->nodes = calloc(2 * (size_t)n, sizeof *g->nodes);
    g->edges = malloc((size_t)(g->m ? g->m : 1) * sizeof *g->edges);
    int32_t *fill = calloc((size_t)n, sizeof *fill);
    for (int e = 0; e < npairs; e++) {
        g->nodes[2 * pairs[2 * e] + 1]++;
        g->nodes[2 * pairs[2 * e + 1] + 1]++;
    }
    for (int u = 0, s = 0; u < n; u++) {
        g->nodes[2 * u] = s;
        s += g->nodes[2 * u + 1];
    }
    for (int e = 0; e < npairs; e++)
        for (int end = 0; end < 2; end++) {
            int u = pairs[2 * e + end], v = pairs[2 * e + 1 - end];
            g->edges[g->nodes[2 * u] + fill[u]++] = v;
        }
    free(fill);
}

/* n nodes, 1-4 random edges from each of the first n - 50 (the last 50 get none of their own,
 * so some of them stay unreachable: cost -1). */
static void graph_random(struct graph *g, int n)
{
    int32_t *pairs = malloc(8 * (size_t)n * sizeof *pairs);
    int np = 0;
    for (int u = 0; u < n - 50; u++)
        for (int k = 1 + (int)(rng_next() % 4); k > 0; k--) {
            int v = (int)(rng_next() % (uint32_t)(n - 50));
            pairs[2 * np] = u;
            pairs[2 * np + 1] = v;
            np++;
        }
    graph_from_pairs(g, n, pairs, np);
    free(pairs);
}

/* A w x h grid, 4-neighbour. */
static void graph_grid(struct graph *g, int w, int h)
{
    int32_t *pairs = malloc(4 * (size_t)w * (size_t)h * sizeof *pairs);
    int np = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (x + 1 < w) {
                pairs[2 * np] = y * w + x;
                pairs[2 * np + 1] = y * w + x + 1;
                np++;
            }
            if (y + 1 < h) {
                pairs[2 * np] = y * w + x;
                pairs[2 * np + 1] = (y + 1) * w + x;
                np++;
            }
        }
    graph_from_pairs(g, w * h, pairs, np);
    free(pairs);
}

static void graph_free(struct graph *g)
{
    free(g->nodes);
    free(g->edges);
}

/* The host's BFS: costs (-1 unreachable); returns the depth (largest cost). */
static int host_bfs(const struct graph *g, int source, int32_t *cost)
{
    int *queue = malloc((size_t)g->n * sizeof *queue);
    for (int u = 0; u < g->n; u++)
        cost[u] = -1;
    int head = 0, tail = 0, depth = 0;
    cost[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int u = queue[head++];
        for (int i = g->nodes[2 * u]; i < g->nodes[2 * u] + g->nodes[2 * u + 1]; i++) {
            int v = g->edges[i];
            if (cost[v] < 0) {
                cost[v] = cost[u] + 1;
                depth = cost[v] > depth ? cost[v] : depth;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
    return depth;
}

/* Runs the device BFS as Rodinia's host does, with local size `ls` (0: the runtime's choice),
 * and checks every cost and the number of rounds. */
static void run_bfs(const char *what, const struct graph *g, int source, size_t ls)
{
    const int n = g->n;
    int32_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
    int depth = host_bfs(g, source, want);
    char *mask = calloc((size_t)n, 1), *visited = calloc((size_t)n, 1);
    int32_t *cost = malloc((size_t)n * sizeof *cost);
    for (int u = 0; u < n; u++)
        cost[u] = -1;
    mask[source] = visited[source] = 1;
    cost[source] = 0;
    cl_mem bn = buf_new(2 * (size_t)n * sizeof(int32_t), g->nodes);
    cl_mem be = buf_new((size_t)(g->m ? g->m : 1) * sizeof(int32_t), g->edges);
    cl_mem bm = buf_new((size_t)n, mask), bv = buf_new((size_t)n, visited);
    cl_mem bu = buf_new((size_t)n, NULL), bc = buf_new((size_t)n * sizeof(int32_t), cost), bo = buf_new(1, NULL);
    char zero = 0;
    assert_int_equal(clEnqueueFillBuffer(env.queue, bu, &zero, 1, 0, (size_t)n, 0, NULL, NULL), CL_SUCCESS);
    size_t global = ls ? round_up((size_t)n, ls) : (size_t)n;
    const size_t *local = ls ? &ls : NULL;
    cl_kernel expand = kernel_new("bfs_expand"), update = kernel_new("bfs_update");
    kernel_set_args(expand, KARGS(KARG(bn), KARG(be), KARG(bm), KARG(bu), KARG(bv), KARG(bc), KARG(n)));
    kernel_set_args(update, KARGS(KARG(bm), KARG(bu), KARG(bv), KARG(bo), KARG(n)));
    int rounds = 0;
    char over;
    do {
        over = 0;
        assert_int_equal(clEnqueueWriteBuffer(env.queue, bo, CL_TRUE, 0, 1, &over, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, expand, 1, NULL, &global, local, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(env.queue, update, 1, NULL, &global, local, 0, NULL, NULL),
                         CL_SUCCESS);
        buf_read(bo, 1, &over);
        rounds++;
    } while (over && rounds <= depth + 1);
    buf_read(bc, (size_t)n * sizeof(int32_t), got);
    for (int u = 0; u < n; u++)
        if (got[u] != want[u])
            fail_msg("%s, local %zu: node %d has cost %d, want %d (depth %d)", what, ls, u, got[u], want[u],
                     depth);
    /* one round per level, and one that finds nothing new */
    if (rounds != depth + 1)
        fail_msg("%s, local %zu: %d rounds for a depth of %d", what, ls, rounds, depth);
    clReleaseKernel(expand);
    clReleaseKernel(update);
    cl_mem all[] = {bn, be, bm, bv, bu, bc, bo};
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        clReleaseMemObject(all[i]);
    free(want);
    free(got);
    free(mask);
    free(visited);
    free(cost);
}

static const size_t bfs_local_sizes[] = {1, 17, 64, 256, 0};

static void test_bfs_random_graph(void **state)
{
    (void)state;
    struct graph g;
    graph_random(&g, 30011);
    for (size_t t = 0; t < ARRAY_LEN(bfs_local_sizes); t++)
        run_bfs("random graph", &g, 0, bfs_local_sizes[t]);
    graph_free(&g);
}

static void test_bfs_grid_from_a_corner(void **state)
{
    (void)state;
    struct graph g;
    graph_grid(&g, 97, 61);
    for (size_t t = 0; t < ARRAY_LEN(bfs_local_sizes); t++)
        run_bfs("grid", &g, 0, bfs_local_sizes[t]);
    graph_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_random_graph),
        cmocka_unit_test(test_bfs_grid_from_a_corner),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
