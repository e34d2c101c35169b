// weft-fuzz: {"data_seed": 3568967612, "dims": 1, "dyn_local": 48, "global": [48], "local": [48], "n_in": 256, "n_out": 48, "offset": [0], "options": "", "params": [1, 3, 3, 1560429572], "seed": 163}
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3, local uint *dl)
{
    uint lid = (uint)get_local_id(0);
    uint v1 = in[(lid * 4u + 23u) % n_in];
    if ((p3 >> 12u & 1u) == 0u) {
        for (uint i0 = 0u; i0 < p2; i0++) {
            if ((p3 & 3u) != 2u)
                v1 ^= in[i0];
        }
    }
    uint x = in[lid];
    dl[lid] = x != 0u ? 23u % x : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[lid] = v1;
}
