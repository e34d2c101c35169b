// weft-fuzz: {"data_seed": 2046968324, "dims": 1, "dyn_local": 0, "global": [200], "local": [200], "n_in": 1024, "n_out": 200, "offset": [0], "options": "", "params": [3, 4, 4, 4156669319], "seed": 0}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    local uint lm[200];
    uint lid = (uint)get_local_id(0);
    uint gid = (uint)get_global_id(0);
    uint grp = (uint)get_group_id(0);
    uint v = grp + 0x80000000u;
    lm[lid] = in[gid % n_in];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (((gid == 0xbbu ? in[grp % n_in] : 0u) & 7u) == 2u) v ^= lm[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = v;
}
