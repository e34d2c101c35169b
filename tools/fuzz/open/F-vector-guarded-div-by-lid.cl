// weft-fuzz: {"data_seed": 62953201, "dims": 1, "dyn_local": 0, "global": [32], "local": [32], "n_in": 100, "n_out": 32, "offset": [0], "options": "", "params": [0, 3, 3, 1516513847], "seed": 643}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    uint lid = (uint)get_local_id(0);
    uint v = p3;
    if ((lid % 7u) == 1u)
        v ^= lid != 0u ? p1 / lid : 9u;
    out[lid] = v;
}
