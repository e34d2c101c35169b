// 3-D NDRange with offsets: global/local/group ids, linear ids, sizes, work_dim, and
// arguments passed by value (struct, float3, char) and a __local pointer, run for real.
// RUN: %ocl_ir -O2 %S/Inputs/kernels.cl -o %t.o2.ll
// RUN: %ocl_ir -O0 -Xclang -disable-O0-optnone %S/Inputs/kernels.cl -o %t.o0.ll
// RUN: %run_kernel %t.o2.ll %t.o2 ids3 3,2,2
// RUN: %run_kernel %t.o0.ll %t.o0 ids3 3,2,2
