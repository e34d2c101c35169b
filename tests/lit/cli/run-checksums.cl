// `weft run` builds the file, runs a kernel on file and generated inputs, and prints checksums
// that match the ones Inputs/run_expect.py computes on the host; --repeat does not change them
// (buffers are reset before every launch).
// RUN: python3 %S/Inputs/run_expect.py scale_add %t.x.bin %t.scale_add.check
// RUN: %weft run %s --kernel scale_add --global 1000 --local 10 --arg buf:float:1000:%t.x.bin --arg buf:int:1000 --arg out:float:1000 --arg float:1.5 --repeat 3 | FileCheck %t.scale_add.check
// RUN: %weft run %s --kernel scale_add --global 1000 --local 10 --arg buf:float:1000:%t.x.bin --arg buf:int:1000 --arg out:float:1000 --arg float:1.5 --repeat 1 | FileCheck %t.scale_add.check
// RUN: python3 %S/Inputs/run_expect.py group_sum %t.g.bin %t.group_sum.check
// RUN: %weft run %s --kernel group_sum --global 768 --local 64 --arg buf:int:768:%t.g.bin --arg out:int:12 --arg local:256 --repeat 2 | FileCheck %t.group_sum.check

__kernel void scale_add(__global const float *x, __global const int *b, __global float *out, float a)
{
    size_t i = get_global_id(0);
    float t = a * x[i];
    out[i] = t + (float)b[i];
}

__kernel void group_sum(__global const int *in, __global int *sums, __local int *tmp)
{
    size_t l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s)
            tmp[l] += tmp[l + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        sums[get_group_id(0)] = tmp[0];
}
