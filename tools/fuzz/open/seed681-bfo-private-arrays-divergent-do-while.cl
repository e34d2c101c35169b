// weft-fuzz: {"data_seed": 522185867, "dims": 1, "dyn_local": 0, "global": [24], "local": [24], "n_in": 64, "n_out": 768, "offset": [0], "options": "", "params": [3, 3, 0, 4131044799], "seed": 681}
// seed 681: global 768, local 24, offset 0, 32 work-groups
// reduced by tools/fuzz/reduce.py (bfo: wrong; pocl agrees with the reference) from gen_kernel.py 681
#pragma OPENCL FP_CONTRACT OFF
uint fbits(float f) { return isnan(f) ? 0x7fc00000u : as_uint(f); }
kernel void k(global uint *in, global uint *out, uint n_in, uint p0, uint p1, uint p2, uint p3)
{
    local uint lm0[24];
    local uint lc[1];
    uint lx = (uint)get_local_id(0);
    uint lid = lx;
    uint gid = (uint)get_global_id(0);
    uint oid = (uint)(get_global_id(0) - get_global_offset(0));
    uint v0 = 0x25u;
    uint v1 = (uint)(get_global_id(0) >> 4);
    uint v2 = 0x1fu;
    uint v3 = 0x25u;
    uint v4 = lid ^ p3;
    uint v5 = lid ^ p3;
    uint a0[16];
    for (uint t = 0u; t < 16u; t++) a0[t] = in[(oid + t * 48u) % n_in] ^ t;
    uint a1[4];
    for (uint t = 0u; t < 4u; t++) a1[t] = in[(oid + t * 34u) % n_in] ^ t;
    uint4 w0 = (uint4)(v5, v4, v0, v5);
    uint2 w1 = (uint2)(v3, v1);
    float f0 = convert_float(v1 & 0xfffu);
    float f1 = convert_float(v5 & 0xfffu);
    uint i0 = 0u;
    do {
        v0 ^= 1u;
    } while (i0++ < ((gid + v1) & 7u));
    switch (mad_hi(a1[(v5) % 4u], v3, v4) & 3u) {
    case 0u:
        break;
    case 2u:
        v0 ^= lid;
    default:
        v1 = 0u;
    }
    uint res = (((((((((((((((((v0) * 0x01000193u ^ v1) * 0x01000193u ^ v2) * 0x01000193u ^ v3) * 0x01000193u ^ v4) * 0x01000193u ^ v5) * 0x01000193u ^ a0[9u]) * 0x01000193u ^ a0[(v2) % 16u]) * 0x01000193u ^ a1[0u]) * 0x01000193u ^ a1[(v3) % 4u] ^ w0.s0) ^ w0.s1) ^ w0.s2) ^ w0.s3) ^ w1.s0) ^ w1.s1) ^ fbits(f0)) ^ fbits(f1));
    out[oid] = res;
}
