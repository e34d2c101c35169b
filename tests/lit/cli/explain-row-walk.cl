// `weft explain` on divergent loops: one that walks a row per work-item (Rodinia's bfs: each
// frontier node walks its own edge list, L1 WX) runs scalar work-item loops first by the static
// cost rule, without profiling; one whose accesses stay contiguous across the work-items (a
// JDS-style column walk, W1) keeps the vectorized code and is profiled against the scalar one;
// a forced variant is left alone. A row walked with a trip count all work-items share (gemv_rows)
// is unrolled and read in whole vectors per lane (row groups).
// RUN: env WEFT_SCHEDULE=auto %weft explain %s --kernel bfs_expand --local 64 | FileCheck %s --check-prefix=ROW
// RUN: env WEFT_SCHEDULE=auto %weft explain %s --kernel jds_walk --local 64 | FileCheck %s --check-prefix=JDS
// RUN: env WEFT_VARIANT=dfo %weft explain %s --kernel bfs_expand --local 64 | FileCheck %s --check-prefix=FORCED
// RUN: %weft explain %s --kernel gemv_rows --local 64 | FileCheck %s --check-prefix=GEMV
// RUN: %weft explain %s --kernel bfs_expand --local 64 | FileCheck %s --check-prefix=NOGROUP

// ROW:      loop #1: {{.*}}; walks a row per work-item (L1 WX) with a trip count of its own
// ROW:      runs first: dfo.scalar (static cost: 1 divergent loop walks a row per work-item, which the vectorized code dfo runs under lane masks
// ROW-NEXT: profiled against it: none: no loop votes breadth-first, and the static cost chose the code
// ROW:      sub-CFG 0: vectorized, {{.*}} divergent control flow linearized under masks

// JDS-NOT:  walks a row per work-item
// JDS:      runs first: dfo{{$}}
// JDS-NEXT: profiled against it: dfo.scalar (the vectorizer ran divergent code under lane masks; WEFT_PROFILE)

// FORCED:   runs first: dfo (forced by WEFT_VARIANT)

// GEMV:     sub-CFG 0: vectorized
// GEMV:     1 row group: consecutive loads along each work-item's own row (a loop unrolled by 8), read as one vector per lane and transposed in full unmasked packets; a masked packet gathers them
// NOGROUP-NOT: row group

typedef struct { int starting; int no_of_edges; } Node;

kernel void bfs_expand(const global Node *nodes, const global int *edges, global char *mask,
                       global char *updating, global char *visited, global int *cost, const int n)
{
    int tid = get_global_id(0);
    if (tid < n && mask[tid]) {
        mask[tid] = false;
        for (int i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = true;
            }
        }
    }
}

kernel void jds_walk(const global float *val, const global int *len, global float *y, int n)
{
    int row = get_global_id(0);
    if (row < n) {
        float s = 0.0f;
        for (int j = 0; j < len[row]; j++)
            s += val[j * n + row];
        y[row] = s;
    }
}

kernel void gemv_rows(const global float *A, const global float *x, global float *y, int m, int n)
{
    int i = get_global_id(0);
    if (i < m) {
        float s = 0.0f;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = s;
    }
}
