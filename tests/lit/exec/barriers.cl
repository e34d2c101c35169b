// Barrier cases run for real, for local sizes 1, 3, 7 and 64, from IR at -O2 and at -O0:
// barrier in a uniform if, two barriers, a barrier in a called function, work-item-dependent
// loops between barriers, early return where no barrier follows, a loop where only the first
// iterations reach the barrier (Meyer's listing 3.3), a dependent loop right after a barrier.
// RUN: %ocl_ir -O2 %S/Inputs/kernels.cl -o %t.o2.ll
// RUN: %ocl_ir -O0 -Xclang -disable-O0-optnone %S/Inputs/kernels.cl -o %t.o0.ll
// RUN: %run_kernel %t.o2.ll %t.o2 uif 1
// RUN: %run_kernel %t.o2.ll %t.o2 uif 7
// RUN: %run_kernel %t.o2.ll %t.o2 uif 64
// RUN: %run_kernel %t.o0.ll %t.o0 uif 3
// RUN: %run_kernel %t.o2.ll %t.o2 two 3
// RUN: %run_kernel %t.o2.ll %t.o2 two 64
// RUN: %run_kernel %t.o0.ll %t.o0 two 7
// RUN: %run_kernel %t.o2.ll %t.o2 callee 1
// RUN: %run_kernel %t.o2.ll %t.o2 callee 7
// RUN: %run_kernel %t.o0.ll %t.o0 callee 64
// RUN: %run_kernel %t.o2.ll %t.o2 wiloop 3
// RUN: %run_kernel %t.o2.ll %t.o2 wiloop 64
// RUN: %run_kernel %t.o0.ll %t.o0 wiloop 7
// RUN: %run_kernel %t.o2.ll %t.o2 early 7
// RUN: %run_kernel %t.o0.ll %t.o0 early 64
// RUN: %run_kernel %t.o2.ll %t.o2 meyer 1
// RUN: %run_kernel %t.o2.ll %t.o2 meyer 7
// RUN: %run_kernel %t.o0.ll %t.o0 meyer 64
// RUN: %run_kernel %t.o2.ll %t.o2 dep_after_barrier 3
// RUN: %run_kernel %t.o2.ll %t.o2 dep_after_barrier 64
// RUN: %run_kernel %t.o0.ll %t.o0 dep_after_barrier 7
