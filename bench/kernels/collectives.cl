/* OpenCL C 3.0 work-group collective functions (built with -cl-std=CL3.0). */

/* The partial sums of patterns.cl's `reduce` (each work-item adds two elements on load, one
 * sum per work-group), with work_group_reduce_add in place of the local-memory tree. */
kernel void reduce_wg(global const float *in, global float *partial)
{
    int tid = get_local_id(0), ls = get_local_size(0);
    int i = get_group_id(0) * (ls * 2) + tid;
    float s = work_group_reduce_add(in[i] + in[i + ls]);
    if (tid == 0)
        partial[get_group_id(0)] = s;
}
