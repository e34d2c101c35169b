#!/usr/bin/env python3
"""tests/install/pyopencl_smoke.py — a PyOpenCL program on the Weft the ICD loader finds, as a
user's program would run it: a kernel with local memory and a barrier (a per-group sum), checked
against numpy. With --expect-lib PREFIX, the libweft.so this process loaded must lie under
PREFIX (the installed copy, not a build's).
"""
import argparse
import os
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void group_sums(global const float *x, global float *out, local float *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = x[get_global_id(0)] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0];
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect-lib", help="folder the loaded libweft.so must lie under")
    args = ap.parse_args()

    platforms = [p for p in cl.get_platforms() if p.name == "Weft"]
    if not platforms:
        sys.exit("no platform named Weft (platforms: %s)" % [p.name for p in cl.get_platforms()])
    ctx = cl.Context(platforms[0].get_devices())
    queue = cl.CommandQueue(ctx)

    local, groups = 64, 37
    x = np.random.default_rng(7).standard_normal(local * groups).astype(np.float32)
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, groups * 4)
    prg = cl.Program(ctx, SOURCE).build()
    prg.group_sums(queue, (local * groups,), (local,), xb, ob, cl.LocalMemory(local * 4))
    out = np.empty(groups, np.float32)
    cl.enqueue_copy(queue, out, ob)
    queue.finish()
    ref = (x.astype(np.float64) * 2).reshape(groups, local).sum(axis=1)
    err = float(np.max(np.abs(out - ref)))
    if err > 1e-4:
        sys.exit("group sums differ from numpy by %g" % err)

    if args.expect_lib:
        with open("/proc/self/maps") as maps:
            libs = {line.split()[-1] for line in maps if line.rstrip().endswith("/libweft.so")}
        want = os.path.realpath(args.expect_lib) + "/"
        if not libs or any(not os.path.realpath(l).startswith(want) for l in libs):
            sys.exit("loaded libweft.so %s, not the one under %s" % (sorted(libs), want))
    print("PyOpenCL on %s (%s): %d group sums match numpy (max error %.2g)"
          % (platforms[0].name, platforms[0].version, groups, err))


if __name__ == "__main__":
    main()
