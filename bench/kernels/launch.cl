/* Empty-kernel launch latency: the smallest kernel that still leaves a checkable trace. */
kernel void empty(global int *out, int v)
{
    if (get_global_id(0) == 0)
        out[0] = v;
}
