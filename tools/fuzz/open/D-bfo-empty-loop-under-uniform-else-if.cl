// weft-fuzz: {"data_seed": 3056247501, "dims": 1, "dyn_local": 0, "global": [68], "local": [17], "n_in": 777, "n_out": 68, "offset": [0], "options": "", "params": [0, 5, 6, 2689897199], "seed": 288}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    uint lid = (uint)get_local_id(0);
    uint gid = (uint)get_global_id(0);
    uint v1 = in[gid];
    if (in[lid + 100u] <= v1) {
        v1 += 1u;
    } else if (get_group_id(0) < 2u) {
        for (uint i0 = 0u; i0 < 3u; i0++) {
        }
    }
    out[gid] = v1;
}
