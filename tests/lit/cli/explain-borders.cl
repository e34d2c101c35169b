// `weft explain` says which fast-path branches the first and last work-item ids of a packet
// decide (compiler/transform/vectorize.c, lanes_agree_scalar): the bounds check and the border
// test of a 1-D stencil are, a branch on loaded data is not.
// RUN: env WEFT_VECTORIZE=8 %weft explain %s --local 64 | FileCheck %s

// CHECK-LABEL: kernel stencil
// CHECK:       sub-CFG 0: vectorized, width 8 x interleave 1 (8 work-items per packet), divergent control flow linearized under masks ({{[0-9]+}} masked blocks, empty ones skipped); full packets run unmasked until their lanes first disagree (2 branches on a work-item id against a uniform value decided from the packet's first and last ids)
kernel void stencil(global const float *in, global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (i == 0 || i == n - 1)
        out[i] = in[i];
    else
        out[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0f / 3.0f);
}

// CHECK-LABEL: kernel data
// CHECK:       sub-CFG 0: vectorized, width 8 x interleave 1 (8 work-items per packet), divergent control flow linearized under masks ({{[0-9]+}} masked blocks, empty ones skipped); full packets run unmasked until their lanes first disagree{{$}}
kernel void data(global const float *in, global float *out)
{
    int i = get_global_id(0);
    if (in[i] > 0.0f)
        out[i] = in[i];
}
