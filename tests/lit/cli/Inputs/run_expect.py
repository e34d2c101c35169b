#!/usr/bin/env python3
"""Inputs and expected `weft run` checksums for tests/lit/cli/run-*.cl, computed here on the
host from the kernels' definitions (independently of Weft).

usage: run_expect.py CASE INPUT.bin CHECKS.txt
Writes the input file the RUN line passes as buf:TYPE:N:FILE, and a FileCheck file with the
checksum lines `weft run` must print (sum in index order in double / 64-bit integers, FNV-1a of
the bytes). Generated inputs follow `weft run --help`: element i is i mod 97 for integers and
(i mod 97) * 0.5 for float/double."""
import random
import struct
import sys


def fnv64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def f32(values):
    return struct.pack("<%df" % len(values), *values)


def i32(values):
    return struct.pack("<%di" % len(values), *values)


def line(index, spec, sum_text, data):
    return "CHECK: arg %d  %s  sum %s  fnv64 0x%016x\n" % (index, spec, sum_text, fnv64(data))


def fsum(values):
    s = 0.0
    for v in values:
        s += v
    return "%.17g" % s


def main():
    case, bin_path, check_path = sys.argv[1:4]
    rng = random.Random(20261122)
    checks = []
    if case == "scale_add":
        # out[i] = a * x[i] + (float)b[i]; x are quarters in [-250, 250], a = 1.5: every
        # product and sum is exact in float, so the result does not depend on contraction.
        n, a = 1000, 1.5
        x = [rng.randint(-1000, 1000) / 4.0 for _ in range(n)]
        b = [i % 97 for i in range(n)]
        out = [a * x[i] + b[i] for i in range(n)]
        with open(bin_path, "wb") as f:
            f.write(f32(x))
        checks.append("CHECK: kernel scale_add  global 1000  local 10\n")
        checks.append(line(0, "buf:float:1000:" + bin_path, fsum(x), f32(x)))
        checks.append(line(1, "buf:int:1000", str(sum(b)), i32(b)))
        checks.append(line(2, "out:float:1000", fsum(out), f32(out)))
        checks.append("CHECK: arg 3  float:1.5\n")
    elif case == "group_sum":
        # sums[g] = sum of in[g*L .. g*L+L) (tree reduction in local memory, barrier in a
        # loop); integers, so the order of additions does not matter.
        n, L = 768, 64
        data = [rng.randint(-5000, 5000) for _ in range(n)]
        sums = [sum(data[g * L:(g + 1) * L]) for g in range(n // L)]
        with open(bin_path, "wb") as f:
            f.write(i32(data))
        checks.append(line(0, "buf:int:768:" + bin_path, str(sum(data)), i32(data)))
        checks.append(line(1, "out:int:12", str(sum(sums)), i32(sums)))
        checks.append("CHECK: arg 2  local:256\n")
    else:
        sys.exit("unknown case " + case)
    checks.append("CHECK: time per launch: median {{[0-9.]+}} us\n")
    with open(check_path, "w") as f:
        f.writelines(checks)


if __name__ == "__main__":
    main()
