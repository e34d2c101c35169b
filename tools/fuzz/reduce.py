#!/usr/bin/python3
"""Shrink a failing kernel of tools/fuzz/run.py while it keeps failing the same way.

    reduce.py FAILING.cl --mode dfo.x2 [--build build] [-o SMALL.cl]

The failure is what the mode gives first (wrong, crash, hang, build-fail, error) with the
reference succeeding. Candidates drop lines or groups of lines, unwrap `if`/`for`/`while`
headers into plain blocks, replace right-hand sides and conditions by simpler ones, and shrink the
NDRange's work-group count; a candidate is kept when clang accepts it and it still fails the same
way. Lines that keep the kernel well defined are never touched: declarations, barriers, the writes
of each work-item's own local slots, the init of private arrays and of the atomics' counter, the
output stores. At the end the kernel also runs on pocl (when installed) to confirm its result is
the reference's. Each candidate runs through run.py's workers (a subprocess per target).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_kernel  # noqa: E402
import run  # noqa: E402

KEEP = re.compile(r"barrier\(|^\s*(uint|uint2|uint4|float|local uint|int)\s+\w+(\[\d+\])?\s*(=|;)|"
                  r"^\s*for \(uint t = 0u|\b(lm\d|dl|lr)\[lid|lc\[0\] = |out\[|^// |^#pragma|fbits\(float|"
                  r"^kernel|^__attribute|^\{|^\}$|^\s*i\d+--;|while \(i\d+\+\+")


def clang_ok(src, options):
    with tempfile.NamedTemporaryFile("w", suffix=".cl", delete=False) as f:
        f.write(src)
    cmd = ["clang-19", "-x", "cl", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           "-D__opencl_c_work_group_collective_functions=1"] + options.split()
    r = subprocess.run(cmd + [f.name], capture_output=True)
    os.unlink(f.name)
    return r.returncode == 0


class Oracle:
    def __init__(self, mode, build, timeout, work):
        icd = os.path.join(build, "weft.icd")
        lib = os.path.join(build, "lib", "libweft.so")
        has_variant = run.runtime_reads(lib, "WEFT_VARIANT")
        env = {n: (e if has_variant or "WEFT_VARIANT" not in e else fb) for n, e, fb in run.MODES}.get(mode, {})
        ref_env = dict(run.REFERENCE_ENV)
        if has_variant:
            ref_env["WEFT_VARIANT"] = "dfo.scalar"
        self.ref = run.Worker(run.Target("reference", "weft", ref_env, run.REFERENCE_OPTIONS), icd, work)
        self.mode = run.Worker(run.Target("pocl", "portable", {}, "") if mode == "pocl" else
                               run.Target(mode, "weft", env, ""), icd, work)
        self.pocl = run.Worker(run.Target("pocl", "portable", {}, ""), icd, work) \
            if os.path.exists(run.POCL_ICD) else None
        self.timeout, self.work, self.n = timeout, work, 0

    def classify(self, src):
        """The mode's failure class for src ('ok' when it agrees with the reference), or None
        when the reference itself does not run it."""
        import numpy as np
        self.n += 1
        path = os.path.join(self.work, "c%d.cl" % self.n)
        with open(path, "w") as f:
            f.write(src)
        rr, mr = path + ".ref.npy", path + ".mode.npy"
        cls, _, _ = self.ref.run(path, rr, self.timeout)
        if cls != "ok":
            return None
        cls, _, msg = self.mode.run(path, mr, self.timeout)
        if cls == "ok" and run.compare(np.load(rr), np.load(mr)):
            cls = "wrong"
        for p in (path, rr, mr):
            if os.path.exists(p):
                os.unlink(p)
        return cls

    def pocl_agrees(self, src):
        import numpy as np
        if not self.pocl:
            return None
        path = os.path.join(self.work, "final.cl")
        with open(path, "w") as f:
            f.write(src)
        if self.ref.run(path, path + ".r.npy", self.timeout)[0] != "ok":
            return None
        if self.pocl.run(path, path + ".p.npy", self.timeout)[0] != "ok":
            return None
        return run.compare(np.load(path + ".r.npy"), np.load(path + ".p.npy")) is None


def with_meta(src, meta):
    lines = src.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("// weft-fuzz: "):
            lines[i] = "// weft-fuzz: " + json.dumps(meta, sort_keys=True)
    return "\n".join(lines) + "\n"


def units(lines):
    """Groups of protected lines that go together: a local-memory block (its own slots written,
    a barrier, reads, a barrier), two barriers in a row, the group result's reduction, a private
    array with its init loop, an unused declaration."""
    n = len(lines)
    out = []
    for i, l in enumerate(lines):
        s = l.strip()
        if re.match(r"(lm\d|dl)\[lid \* ", s) or s.startswith("if (lid == 0u) lc[0]"):
            j, bars = i, 0
            while j < n and bars < 2:
                bars += "barrier(" in lines[j]
                j += 1
            if s.startswith("if (lid == 0u) lc[0]"):   # the atomics' block has a third barrier
                while j < n and "barrier(" not in lines[j]:
                    j += 1
                j += 1
            out.append(list(range(i, j)))
        if "barrier(" in s and i + 1 < n and "barrier(" in lines[i + 1]:
            out.append([i, i + 1])
        if s == "lr[lid] = res;":
            j = i
            while j < n and "out[" not in lines[j]:
                j += 1
            out.append(list(range(i, j + 1)))
        m = re.match(r"uint (a\d)\[\d+\];", s)
        if m:
            out.append([i, i + 1])
        if re.match(r"(uint|uint2|uint4|float) \w+ = ", s) and not s.startswith("uint res"):
            out.append([i])
    return out


def candidates_lines(lines):
    """Line sets to drop, biggest first: blocks from a `{` line to its `}`, units, single lines."""
    n = len(lines)
    out = []
    for i, l in enumerate(lines):
        if l.rstrip().endswith("{") and not KEEP.search(l):
            depth, j = 0, i
            while j < n:
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0 and j > i:
                    break
                j += 1
            if j < n:
                out.append((j - i + 1, list(range(i, j + 1))))
    out += [(len(u), u) for u in units(lines)]
    out.sort(key=lambda c: -c[0])
    res = [c[1] for c in out]
    res += [[i] for i, l in enumerate(lines) if l.strip() and not KEEP.search(l) and not l.strip().startswith("}")]
    return res


def unwraps(lines):
    """(index, replacement) pairs: control headers into plain blocks, expressions into simpler ones."""
    out = []
    for i, l in enumerate(lines):
        ind = l[:len(l) - len(l.lstrip())]
        if l.strip().startswith("uint res = "):
            for v in re.findall(r"\b(v\d|a\d\[\d+u\]|w\d\.s\d|fbits\(f\d\))", l):
                out.append((i, "%suint res = %s;" % (ind, v)))
        if KEEP.search(l):
            continue
        s = l.strip()
        if re.match(r"(if|for|while|switch) \(.*\{$", s) or re.match(r"\} else (if \(.*\) )?\{$", s):
            out.append((i, ind + ("} {" if s.startswith("}") else "{")))
        m = re.match(r"(\w+(?:\[[^=]*\])?) (=|\+=|\^=|-=|\*=|\|=) (.*);$", s)
        if m and m.group(3) not in ("0u", "1u"):
            out.append((i, "%s%s %s 0u;" % (ind, m.group(1), m.group(2))))
            out.append((i, "%s%s %s 1u;" % (ind, m.group(1), m.group(2))))
            # a single name is as simple as another: swapping them would never end
            if m.group(3) not in ("lid", "gid", "v0", "v1"):
                for v in ("lid", "gid", "v0", "v1"):
                    out.append((i, "%s%s %s %s;" % (ind, m.group(1), m.group(2), v)))
        m = re.match(r"if \((.*)\) (break|continue|[^;]*;)$", s)
        if m:
            out.append((i, ind + m.group(2)))
    return out


def reduce(src, oracle, want, options, log):
    meta = gen_kernel.read_meta(src)
    # fewer work-groups first: everything later runs faster
    for d in range(len(meta["global"])):
        while True:
            groups = meta["global"][d] // meta["local"][d]
            if groups <= 1:
                break
            m2 = json.loads(json.dumps(meta))
            m2["global"][d] = meta["local"][d] * max(1, groups // 2)
            cand = with_meta(src, m2)
            if oracle.classify(cand) == want:
                src, meta = cand, m2
                log("groups in dim %d: %d" % (d, groups // 2))
            else:
                break
    changed = True
    while changed:
        changed = False
        lines = src.splitlines()
        for drop in candidates_lines(lines):
            if max(drop) >= len(lines):
                continue
            cand = "\n".join(l for i, l in enumerate(lines) if i not in set(drop)) + "\n"
            if clang_ok(cand, options) and oracle.classify(cand) == want:
                src, lines, changed = cand, cand.splitlines(), True
                log("dropped %d lines, %d left" % (len(drop), len(lines)))
                break
        if changed:
            continue
        for i, rep in unwraps(lines):
            if rep == lines[i]:
                continue
            cand_lines = list(lines)
            cand_lines[i] = rep
            cand = "\n".join(cand_lines) + "\n"
            if clang_ok(cand, options) and oracle.classify(cand) == want:
                src, changed = cand, True
                log("line %d -> %s" % (i + 1, rep.strip()))
                break
    return src


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernel")
    ap.add_argument("--mode", required=True, help="a mode of run.py's MODES, or pocl (a disagreement of the references)")
    ap.add_argument("--build", default=os.path.join(run.ROOT, "build"))
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    src = open(a.kernel).read()
    meta = gen_kernel.read_meta(src)
    options = meta.get("options", "") or "-cl-std=CL1.2"
    work = tempfile.mkdtemp(prefix="reduce-")
    oracle = Oracle(a.mode, os.path.abspath(a.build), a.timeout, work)
    want = oracle.classify(src)
    if want in (None, "ok"):
        sys.exit("%s: the mode does not fail (%s)" % (a.kernel, want or "the reference fails"))
    print("failure: %s" % want, flush=True)
    small = reduce(src, oracle, want, options, lambda s: print(s, flush=True))
    agree = oracle.pocl_agrees(small)
    small = small.replace("// generated by tools/fuzz/gen_kernel.py",
                          "// reduced by tools/fuzz/reduce.py (%s: %s; pocl %s the reference) from gen_kernel.py"
                          % (a.mode, want, {True: "agrees with", False: "DISAGREES with", None: "did not run"}[agree]))
    out = a.output or os.path.splitext(a.kernel)[0] + ".reduced.cl"
    with open(out, "w") as f:
        f.write(small)
    print("%s: %d lines, %s (%d runs)" % (out, len(small.splitlines()), want, oracle.n))
    for w in (oracle.ref, oracle.mode, oracle.pocl):
        if w:
            w.stop()


if __name__ == "__main__":
    main()
