// `weft explain` counts the masked loads and stores whose mask became a constant run of lanes
// once the optimizer unrolled a small group's packets (compiler/narrowmasks.h): a tree
// reduction in __local memory has them in its single-packet steps; a kernel without masks has
// none, and the line is left out.
// RUN: %weft explain %s --kernel tree --local 32 | FileCheck %s --check-prefix=TREE
// RUN: %weft explain %s --kernel copy --local 32 | FileCheck %s --check-prefix=COPY

// TREE-LABEL: kernel tree
// TREE: masked loads and stores of a constant run of lanes made plain after optimizing: {{[1-9][0-9]*}}
kernel void tree(global const float *in, global float *out, local float *p)
{
    int lid = get_local_id(0), ls = get_local_size(0);
    p[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = ls / 2; s > 0; s >>= 1) {
        if (lid < s)
            p[lid] += p[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = p[0];
}

// COPY-LABEL: kernel copy
// COPY-NOT: masked loads and stores
kernel void copy(global const float *in, global float *out)
{
    out[get_global_id(0)] = in[get_global_id(0)];
}
