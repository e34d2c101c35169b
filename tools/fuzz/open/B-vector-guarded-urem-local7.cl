// weft-fuzz: {"data_seed": 2503055453, "dims": 1, "dyn_local": 0, "global": [7], "local": [7], "n_in": 64, "n_out": 7, "offset": [0], "options": "", "params": [6, 5, 1, 1570621944], "seed": 7}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    uint lid = (uint)get_local_id(0);
    uint v0 = in[lid];
    uint a0[16];
    for (uint t = 0u; t < 16u; t++) a0[t] = in[lid + t] ^ t;
    uint x = a0[v0 % 16u]; uint i = lid != 0u ? x % lid : 5u;
    out[lid] = i;
}
