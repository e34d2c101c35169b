// Loads through generic pointers (OpenCL C 2.0+/3.0 __generic: unqualified pointers of a
// called function, inlined) are shaped by the space the pointer came from
// (weft_pointer_space): a generic pointer cast from a __global or __local one with a uniform
// address reads a uniform value, as the named pointer would; one of unknown origin counts as
// private memory (each work-item's own), so its load is varying even at a uniform address.
// RUN: %ocl_ir -O2 -fno-discard-value-names %s -o - | weft-opt -pass=print-shapes - | FileCheck %s

int first(const int *p) { return p[0]; }

// CHECK-LABEL: shapes of @from_named:
// CHECK:         %{{[0-9]+}}: uniform
// CHECK-NEXT:    %{{[0-9]+}}: uniform
kernel void from_named(global int *in, global int *out, local int *t)
{
    size_t i = get_global_id(0);
    out[i] = first(in) + first(t);
}

// CHECK-LABEL: shapes of @unknown_origin:
// CHECK:         [[P:%[0-9]+]]: varying
kernel void unknown_origin(global int *out, int n)
{
    int a[4] = {1, 2, 3, 4};
    int *p = a + (n & 3);
    out[get_global_id(0)] = first(p);
}
