// weft-fuzz: {"data_seed": 765860561, "dims": 1, "dyn_local": 0, "global": [64], "local": [64], "n_in": 64, "n_out": 64, "offset": [0], "options": "", "params": [5, 4, 2, 2472078939], "seed": 246}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    uint lid = (uint)get_local_id(0);
    uint v = lid;
    uint i0 = 0u;
    do {
        for (uint i1 = 0u; i1 < p1; i1++) {
            for (uint i2 = 0u; i2 < p2; i2++) {
                v = in[v % n_in] + i0;
            }
        }
    } while (i0++ < (lid % 8u));
    out[lid] = v;
}
