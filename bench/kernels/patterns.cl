/* Parallel patterns as GPU programmers write them: local-memory trees, scans, tiles, atomics. */

/* Tree reduction (Harris, "reduction #4"): each work-item adds two elements on load, then the
 * group halves its active work-items each step. Writes one partial sum per work-group. */
kernel void reduce(global const float *in, global float *partial, local float *s)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int i = get_group_id(0) * (ls * 2) + tid;
    s[tid] = in[i] + in[i + ls];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = ls / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0)
        partial[get_group_id(0)] = s[0];
}

/* Inclusive prefix sum in three phases. Phase 1: each work-group scans its 2*ls elements in
 * local memory (Hillis-Steele over pairs) and writes the block total. */
kernel void scan_blocks(global const int *in, global int *out, global int *block_sums,
                        local int *s)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int base = get_group_id(0) * 2 * ls;
    /* each work-item owns two neighbouring elements */
    int a = in[base + 2 * tid], b = in[base + 2 * tid + 1];
    s[tid] = a + b;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < ls; off <<= 1) {
        int v = tid >= off ? s[tid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[tid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int before = tid ? s[tid - 1] : 0;
    out[base + 2 * tid] = before + a;
    out[base + 2 * tid + 1] = before + a + b;
    if (tid == ls - 1)
        block_sums[get_group_id(0)] = s[tid];
}

/* Phase 2: one work-group turns the block totals into exclusive block offsets; each work-item
 * owns a contiguous chunk. */
kernel void scan_sums(global int *block_sums, int nblocks, local int *s)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int chunk = (nblocks + ls - 1) / ls;
    int lo = min(tid * chunk, nblocks), hi = min(lo + chunk, nblocks);
    int total = 0;
    for (int i = lo; i < hi; i++)
        total += block_sums[i];
    s[tid] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < ls; off <<= 1) {
        int v = tid >= off ? s[tid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[tid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int run = tid ? s[tid - 1] : 0;
    for (int i = lo; i < hi; i++) {
        int v = block_sums[i];
        block_sums[i] = run;
        run += v;
    }
}

/* Phase 3: add each block's offset to its elements. */
kernel void scan_add(global int *out, global const int *block_offsets)
{
    int i = get_global_id(0);
    out[i] += block_offsets[i / (2 * get_local_size(0))];
}

/* Transpose through a padded local tile so that both the read and the write are coalesced. */
#define TILE 16
kernel void transpose(global const float *in, global float *out, int width, int height)
{
    local float tile[TILE][TILE + 1];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * TILE + lx, oy = get_group_id(0) * TILE + ly;
    out[oy * height + ox] = tile[lx][ly];
}

/* 256-bin histogram: private bins per work-group in local memory with local atomics, merged
 * into the global bins with one global atomic per bin and group. */
kernel void histogram(global const uchar *data, int n, global uint *bins, local uint *lbins)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    for (int b = tid; b < 256; b += ls)
        lbins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lbins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = tid; b < 256; b += ls)
        atomic_add(&bins[b], lbins[b]);
}
