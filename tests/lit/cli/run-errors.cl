// `weft run` rejects what it cannot run with a clear message and a non-zero status: the wrong
// number of --arg, a spec of the wrong kind for its argument, malformed specs and sizes, a
// missing kernel, an input file of the wrong size, and a build failure (with the build log).
// RUN: not %weft run %s --kernel k --global 16 --arg out:float:16 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %weft run %s --kernel k --global 16 --arg local:64 --arg int:3 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not %weft run %s --kernel k --global 16 --arg out:float:16 --arg out:int:1 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not %weft run %s --kernel k --global 16 --arg buf:floaty:16 --arg int:3 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not %weft run %s --kernel k --global 16 --arg out:float:16 --arg int:99999999999 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not %weft run %s --kernel k --global 16,0 --arg out:float:16 --arg int:3 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: not %weft run %s --kernel k --global 16 --local 4,4 --arg out:float:16 --arg int:3 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not %weft run %s --kernel nope --global 16 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: printf 'abc' > %t.short.bin
// RUN: not %weft run %s --kernel k --global 16 --arg buf:float:16:%t.short.bin --arg int:3 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not %weft run %s --kernel k --global 16 --options "-DBROKEN" --arg out:float:16 --arg int:3 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: not %weft run %s --global 16 2>&1 | FileCheck %s --check-prefix=USAGE
// COUNT:  weft run: kernel 'k' takes 2 arguments but 1 --arg was given
// COUNT:    arg 0: __global float* out
// COUNT:    arg 1: int n
// KIND:   weft run: --arg 'local:64' (a local memory size) is for argument 0, which is '__global float*', not a __local pointer
// SCALAR: weft run: --arg 'out:int:1' (an output buffer) is for argument 1, which is 'int', not a __global or __constant pointer
// TYPE:   weft run: bad --arg 'buf:floaty:16': expected buf:TYPE:N
// RANGE:  weft run: bad --arg 'int:99999999999': '99999999999' is not a int value
// GLOBAL: weft run: bad --global '16,0'
// LOCAL:  weft run: --local has 2 dimension(s) but --global has 1
// NAME:   weft run: no kernel 'nope' in '{{.*}}run-errors.cl' (CL_INVALID_KERNEL_NAME); kernels: k
// FILE:   must hold exactly 64 bytes (it is shorter)
// BUILD:  weft run: building '{{.*}}run-errors.cl' failed (CL_BUILD_PROGRAM_FAILURE); build log:
// BUILD:  error: use of undeclared identifier 'this_is_not_declared'
// USAGE:  FILE, --kernel and --global are required

__kernel void k(__global float *out, int n)
{
    out[get_global_id(0)] = (float)n;
#ifdef BROKEN
    this_is_not_declared = 1;
#endif
}
