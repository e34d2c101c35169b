// `weft explain` says which kernels cannot tell their work-groups apart, so that launches may
// run neighbouring groups as one (runtime/ndrange.c): only the one that uses nothing but
// global ids. A local id, a group id, a barrier, a __local argument or a __local variable each
// reveal the work-group.
// RUN: %weft explain %s | FileCheck %s

// CHECK-LABEL: kernel blind
// CHECK-NEXT:    work-groups: the kernel cannot tell them apart{{.*}}as one, up to 256 work-items of dimension 0, and split few long groups into smaller ones for the threads
// CHECK-LABEL: kernel by_local_id
// CHECK-NOT:     work-groups:
// CHECK-LABEL: kernel by_group_id
// CHECK-NOT:     work-groups:
// CHECK-LABEL: kernel by_barrier
// CHECK-NOT:     work-groups:
// CHECK-LABEL: kernel by_local_arg
// CHECK-NOT:     work-groups:
// CHECK-LABEL: kernel by_local_var
// CHECK-NOT:     work-groups:

kernel void blind(global float *y, global const float *x, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i] + (float)get_global_size(0);
}

kernel void by_local_id(global int *y) {
    y[get_global_id(0)] = (int)get_local_id(0);
}

kernel void by_group_id(global int *y) {
    y[get_global_id(0)] = (int)get_group_id(0);
}

kernel void by_barrier(global int *y) {
    size_t i = get_global_id(0);
    y[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] += 1;
}

kernel void by_local_arg(global int *y, local int *t) {
    size_t i = get_global_id(0);
    t[0] = 1;
    y[i] = t[0];
}

kernel void by_local_var(global int *y) {
    local int t;
    t = 2;
    y[get_global_id(0)] = t;
}
