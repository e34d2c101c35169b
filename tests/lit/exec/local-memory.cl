// A tree reduction with the barrier inside the loop (local sizes 1, 16, 64) and a 16x16
// local-memory transpose with a private array live across the barrier, run for real.
// RUN: %ocl_ir -O2 %S/Inputs/kernels.cl -o %t.o2.ll
// RUN: %ocl_ir -O0 -Xclang -disable-O0-optnone %S/Inputs/kernels.cl -o %t.o0.ll
// RUN: %run_kernel %t.o2.ll %t.o2 reduce 1
// RUN: %run_kernel %t.o2.ll %t.o2 reduce 16
// RUN: %run_kernel %t.o0.ll %t.o0 reduce 64
// RUN: %run_kernel %t.o2.ll %t.o2 tile 16,16
// RUN: %run_kernel %t.o0.ll %t.o0 tile 16,16
