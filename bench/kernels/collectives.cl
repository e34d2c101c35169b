/* OpenCL C 3.0 work-group collective functions (built with -cl-std=CL3.0). The prefix sum's
 * third phase is patterns.cl's scan_add (the runner puts this folder on the include path). */
#include "patterns.cl"

/* The partial sums of patterns.cl's `reduce` (each work-item adds two elements on load, one
 * sum per work-group), with work_group_reduce_add in place of the local-memory tree. */
kernel void reduce_wg(global const float *in, global float *partial)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int i = get_group_id(0) * (ls * 2) + tid;
    float s = work_group_reduce_add(in[i] + in[i + ls]);
    if (tid == 0)
        partial[get_group_id(0)] = s;
}

/* patterns.cl's three-phase prefix sum with work-group scans in place of the local-memory
 * Hillis-Steele loops (phase 3 is scan_add itself). Phase 1: each work-group scans its 2*ls elements (two per work-item)
 * and writes the block total. */
kernel void scan_blocks_wg(global const int *in, global int *out, global int *block_sums)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int base = get_group_id(0) * 2 * ls;
    int a = in[base + 2 * tid], b = in[base + 2 * tid + 1];
    int before = work_group_scan_exclusive_add(a + b);
    out[base + 2 * tid] = before + a;
    out[base + 2 * tid + 1] = before + a + b;
    if (tid == ls - 1)
        block_sums[get_group_id(0)] = before + a + b;
}

/* Phase 2: one work-group turns the block totals into exclusive block offsets; each work-item
 * owns a contiguous chunk. */
kernel void scan_sums_wg(global int *block_sums, int nblocks)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int chunk = (nblocks + ls - 1) / ls;
    int lo = min(tid * chunk, nblocks), hi = min(lo + chunk, nblocks);
    int total = 0;
    for (int i = lo; i < hi; i++)
        total += block_sums[i];
    int run = work_group_scan_exclusive_add(total);
    for (int i = lo; i < hi; i++) {
        int v = block_sums[i];
        block_sums[i] = run;
        run += v;
    }
}
