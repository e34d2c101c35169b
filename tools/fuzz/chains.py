#!/usr/bin/python3
"""Random differential testing of fused launch chains (WEFT_FUSE; src/exec/fuse/).

    chains.py --count 100 --start 0 --jobs 2 --out /tmp/chains-run
    chains.py --seeds 12,40 --keep            run some seeds again, keeping every mode's outputs
    chains.py --show SEED                     print the chain of SEED (its kernels and launches)

run.py tests one kernel launched alone; fusion only acts on runs of launches, so its tiles,
windows, write-backs, teams and 2-D tiles are out of run.py's reach. Here a seed makes one to
three stencil-like kernels (reads of a work-item's own element and of neighbours,
guarded by the borders, clamped, or chosen by min/max/select; every write at the work-item's own
element, sometimes under a condition, sometimes into two buffers) and a chain of 4 to 24 launches
of them over 2 to 4 buffers, each launch with its own scalar argument, enqueued three times in a
row with every buffer read back after each time (a sync point), sometimes with a blocking read in
the middle of the chain, a fill (a command that ends a chain) or a launch over fewer rows.
Sometimes a kernel reads only its own elements (no halo), or loops over neighbours. NDRanges:
1-D, 2-D or 3-D, sizes that are not multiples of the local size (which is then NULL) or a local
size that divides them, rounded up (padded: the work-items past the data return), sometimes a
global offset.

Every seed runs first with WEFT_FUSE=off (the reference), then in every mode of MODES, each in a
fresh process with WEFT_CACHE_DIR=off and a time limit; every buffer read back must equal the
reference's bit for bit (fusion promises the unfused results exactly). The forced modes fuse
whatever the runtime's rules accept with a depth and tile rows drawn from the seed
(WEFT_FUSE_DEPTH, WEFT_FUSE_TILE), as one tile per thread, as teams (two levels: one team of
every thread, and two teams that take tiles in turn and wait for each other's windows), as 2-D
tiles (WEFT_FUSE_COLS) and with the scalar variants (WEFT_VECTORIZE=off). A mode's "fused" column counts
the kernels where at least one fused run happened (from WEFT_LOG=info), so that a generator
drifting away from what fusion accepts shows. Failing seeds go to OUT/fail/<seed>/ (the chain as
JSON and as OpenCL C, the first differences, a repro line). Class "internal": right results, but a
compiler stage reported an internal error (WEFT_LOG=info) and the runtime fell back to a simpler
variant. Exit status 1 when a mode failed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REPEATS = 3
CLASSES = ["ok", "wrong", "crash", "hang", "error", "internal"]


# ---- the generator -------------------------------------------------------------------------

def hexc(v):
    return "0x%xu" % v if v > 9 else "%du" % v


class Kernel:
    """One stencil-like kernel: outputs o0.., inputs r0.., then `int nx, int ny, int nz[, int nxy],
    uint p`."""

    def __init__(self, rng, rng2, rng3, name, dims, offset, exact):
        self.name, self.dims = name, dims
        # from a third generator: a 3-D kernel indexing its planes by an argument `nxy` (nx * ny),
        # which keeps every index polynomial of degree 2 (the access analysis takes no more, so
        # `(z * ny + y) * nx` never fuses)
        self.plane = dims == 3 and rng3.random() < 0.7
        # drawn from the second generator, so that what `rng` draws stays what earlier versions
        # of this file made of each seed: a kernel that reads only its own elements (no halo)
        self.pointwise = rng2.random() < 0.2
        self.nout = 2 if rng.random() < 0.25 else 1
        self.nin = rng.choice([1, 1, 2, 2, 3])
        lines = []
        names = "xyz"[:dims]
        from_offset = rng.random() < 0.5
        for d, v in enumerate(names):
            if from_offset:
                lines.append("int %s = (int)(get_global_id(%d) - get_global_offset(%d));" % (v, d, d))
            else:   # the offset as a constant the compiler folds
                lines.append("int %s = (int)get_global_id(%d) - %d;" % (v, d, offset[d]))
        if dims < 2:
            lines.append("int y = 0;")
        if dims < 3:
            lines.append("int z = 0;")
        lines.append("if (x >= nx || y >= ny || z >= nz)")
        lines.append("    return;")
        # the row stride from the NDRange where it equals the problem's (no padding)
        sx = "(int)get_global_size(0)" if exact and rng.random() < 0.3 else "nx"
        lines.append(("int i = z * nxy + y * %s + x;" if self.plane else "int i = (z * ny + y) * %s + x;") % sx)
        self.border = rng.random() < 0.3   # the Jacobi shape: borders copied, plain neighbours inside
        body = []
        nreads = rng.randint(1, 5)
        body.append("uint acc = p ^ %s;" % hexc(rng.getrandbits(32)))
        for _ in range(nreads):
            body.append(self.combine(rng, self.read(rng)))
        if not self.pointwise and rng2.random() < 0.25:   # a loop over neighbours, unrolled or not
            r, lo, hi = "r%d" % rng2.randrange(self.nin), rng2.randint(-3, 0), rng2.randint(0, 3)
            if rng2.random() < 0.5:
                idx = "clamp(x + d, 0, nx - 1) + " + ("z * nxy + y * nx" if self.plane else "(z * ny + y) * nx")
            else:
                idx = ("clamp(y + d, 0, ny - 1) * nx + z * nxy + x" if self.plane
                       else "(clamp(y + d, 0, ny - 1) + z * ny) * nx + x")
            body.append("for (int d = %d; d <= %d; d++)" % (lo, hi))
            body.append("    acc = acc * 0x01000193u + %s[%s];" % (r, idx))
        if rng.random() < 0.2:   # read-modify-write of its own element, as FDTD-2D's updates
            body.append(self.combine(rng, "o0[i]"))
        if rng.random() < 0.25:  # float arithmetic on the way (bit-exact either way: the same code)
            body.append("float f = convert_float(acc & 0xffffu) * 0.75f + convert_float(acc >> 20);")
            body.append("f = fma(f, 1.5f, -convert_float(x));")
            body.append("acc ^= as_uint(f);")
        if rng.random() < 0.3:
            body.append("acc += (uint)x * %s + (uint)y;" % hexc(rng.getrandbits(16)))
        writes = []
        cond = None
        r = rng.random()
        if r < 0.2:
            cond = rng.choice(["((x + y) %% %d) == 0" % rng.randint(2, 4), "x == 0", "y == 0 || x == nx - 1",
                               "(acc & 3u) != 0u", "x < nx / 2"])
        writes.append(("o0", "acc", cond))
        if self.nout == 2:
            c2 = rng.choice([None, None, "y == 0", "(x & 1) == 0"])
            writes.append(("o1", "acc * 0x9e3779b9u ^ r0[i]", c2))
        if self.border:
            cb = " || ".join("%s == 0 || %s == n%s - 1" % (v, v, v) for v in names)
            lines.append("if (%s) {" % cb)
            lines.append("    o0[i] = r0[i] ^ p;")
            if self.nout == 2:
                lines.append("    o1[i] = r0[i];")
            lines.append("    return;")
            lines.append("}")
        lines += body
        for buf, val, c in writes:
            if c:
                lines.append("if (%s)" % c)
                lines.append("    %s[i] = %s;" % (buf, val))
            else:
                lines.append("%s[i] = %s;" % (buf, val))
        params = ["global uint *o%d" % j for j in range(self.nout)]
        params += ["global const uint *r%d" % j for j in range(self.nin)]
        params += ["int nx", "int ny", "int nz"] + (["int nxy"] if self.plane else []) + ["uint p"]
        self.src = "kernel void %s(%s)\n{\n%s\n}\n" % (name, ", ".join(params),
                                                     "\n".join("    " + l for l in lines))

    def read(self, rng):
        r = "r%d" % rng.randrange(self.nin)
        dx = rng.randint(-3, 3) if self.dims == 1 else rng.randint(-2, 2)
        dy = rng.randint(-2, 2) if self.dims >= 2 else 0
        dz = rng.randint(-1, 1) if self.dims == 3 else 0
        off = ("%d" % dx if self.dims == 1 else "%d * nxy + %d * nx + %d" % (dz, dy, dx) if self.plane
               else "(%d * ny + %d) * nx + %d" % (dz, dy, dx))
        kind = rng.choice(["own", "guard", "guard", "clamp", "clamp", "minmax", "select"] +
                          (["plain"] * 3 if self.border else []))
        if kind == "own" or (dx == 0 and dy == 0 and dz == 0) or self.pointwise:
            return "%s[i]" % r
        if kind == "plain" and abs(dx) <= 1 and abs(dy) <= 1 and abs(dz) <= 1:
            return "%s[i + %s]" % (r, off)   # inside the copied border
        if kind == "guard" or kind == "plain":
            cond = " && ".join("%s + %d >= 0 && %s + %d < n%s" % (v, e, v, e, v)
                               for v, e in (("x", dx), ("y", dy), ("z", dz)) if e or v == "x")
            return "(%s ? %s[i + %s] : %s)" % (cond, r, off, hexc(rng.getrandbits(8)))
        if kind == "clamp" and self.plane:
            return "%s[clamp(z + %d, 0, nz - 1) * nxy + clamp(y + %d, 0, ny - 1) * nx + clamp(x + %d, 0, nx - 1)]" % (
                r, dz, dy, dx)
        if kind == "clamp":
            return "%s[(clamp(z + %d, 0, nz - 1) * ny + clamp(y + %d, 0, ny - 1)) * nx + clamp(x + %d, 0, nx - 1)]" % (
                r, dz, dy, dx)
        if kind == "minmax":
            return "%s[min(max(i + %s, 0), %s - 1)]" % (r, off, "nxy * nz" if self.plane else "nx * ny * nz")
        # select between a neighbour and the own element
        cond = "x > %d" % max(0, -dx - 1) if dx < 0 else "x < nx - %d" % (dx + 1) if dx > 0 else "1"
        cond2 = "y > %d" % max(0, -dy - 1) if dy < 0 else "y < ny - %d" % (dy + 1) if dy > 0 else "1"
        cond3 = "z > 0" if dz < 0 else "z < nz - 2" if dz > 0 else "1"
        return "%s[(%s && %s && %s) ? i + %s : i]" % (r, cond, cond2, cond3, off)

    def combine(self, rng, v):
        return rng.choice([
            "acc = acc * 0x01000193u ^ %s;" % v,
            "acc += rotate(%s, %du);" % (v, rng.randint(1, 31)),
            "acc = max(acc, %s) + %s;" % (v, hexc(rng.getrandbits(4))),
            "acc ^= %s >> %d;" % (v, rng.randint(0, 7)),
            "acc = (acc >> 1) + (%s >> 1);" % v,   # an average, as stencils take
        ])


def generate(seed):
    """The chain of `seed` as a JSON-able dict."""
    rng = random.Random(seed * 7919 + 17)
    rng2 = random.Random(seed * 104729 + 3)
    rng3 = random.Random(seed * 15485863 + 7)
    r = rng.random()
    dims = 1 if r < 0.35 else 2 if r < 0.85 else 3
    if dims == 1:
        n = [rng.choice([97, 256, 1000, 1024, 3001, 8192, 20000])]
        local = rng.choice([None, None, 1, 8, 16, 64, 100, 256])
    elif dims == 2:
        n = [rng.choice([5, 16, 17, 33, 64, 100, 129, 200]), rng.choice([9, 16, 31, 64, 97, 128, 256])]
        local = rng.choice([None, None, (1, 1), (8, 1), (16, 2), (4, 4), (32, 4), (16, 16)])
    else:
        n = [rng.choice([8, 16, 17, 32]), rng.choice([4, 8, 13]), rng.choice([5, 16, 30, 64])]
        local = rng.choice([None, None, (1, 1, 1), (8, 2, 1), (4, 4, 2)])
    if local is not None and not isinstance(local, tuple):
        local = (local,)
    gl = list(n)
    if local is not None:
        for d in range(dims):
            gl[d] = (n[d] + local[d] - 1) // local[d] * local[d]
    offset = [0] * dims
    if rng.random() < 0.25:
        offset = [rng.choice([1, 5, 100, 3000]) for _ in range(dims)]
    exact = gl == n
    kernels = [Kernel(rng, rng2, rng3, "k%d" % j, dims, offset, exact) for j in range(rng.randint(1, 3))]
    nbufs = max(2, min(4, max(k.nout + k.nin for k in kernels) + rng.randint(0, 1)))
    nlaunch = rng.randint(4, 24)
    launches = []
    prev_out = None
    for _ in range(nlaunch):
        k = rng.choice(kernels)
        bufs = list(range(nbufs))
        rng.shuffle(bufs)
        if prev_out is not None and rng.random() < 0.8 and prev_out in bufs[k.nout:]:
            # read what the previous launch wrote, as stencil chains do
            bufs.remove(prev_out)
            bufs.insert(k.nout, prev_out)
        outs = bufs[:k.nout]
        rest = bufs[k.nout:]
        ins = [rest[j % len(rest)] if rng.random() < 0.9 else rest[0] for j in range(k.nin)]
        ln = {"kernel": k.name, "outs": outs, "ins": ins, "p": rng.getrandbits(32)}
        r = rng.random()
        if r < 0.04:   # a command that is not a launch ends the chain there
            ln["fill_before"] = rng.randrange(nbufs)
        elif r < 0.08 and not any(o for o in offset) and gl[-1] > 1 and local is None:
            ln["rows"] = gl[-1] // 2   # another NDRange: fewer rows
        launches.append(ln)
        prev_out = outs[0]
    sync_at = rng.randrange(1, nlaunch) if rng.random() < 0.15 else None
    src = "\n".join(k.src for k in kernels)
    rows = gl[-1]
    depth = rng.randint(2, nlaunch)
    tile = max(1, min(rows, rng.choice([1, 2, 3, 5, 8, 16, 40, rows // 4 or 1, rows // 2 or 1])))
    cols = rng.choice([64, 128, 192])
    return {"seed": seed, "dims": dims, "n": n, "global": gl, "local": list(local) if local else None,
            "offset": offset, "nbufs": nbufs, "source": src, "kernels": [k.name for k in kernels],
            "plane_kernels": [k.name for k in kernels if k.plane],
            "launches": launches, "sync_at": sync_at, "data_seed": rng.getrandbits(32),
            "depth": depth, "tile": tile, "cols": cols}


# ---- running one chain (in a child process) -------------------------------------------------

def exec_chain(spec, result):
    """Runs the chain of `spec` on the platform OCL_ICD_VENDORS shows; every read-back to
    `result` (.npy, one row per read of a buffer). (0, "") or (4, message)."""
    import numpy as np
    import pyopencl as cl
    plats = cl.get_platforms()
    if not plats:
        return 4, "no platform"
    ctx = cl.Context([plats[0].get_devices()[0]])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, spec["source"])
    try:
        prg.build()
    except cl.RuntimeError as e:
        return 4, "build failed: %s" % e
    nx, ny, nz = (spec["n"] + [1, 1])[:3]
    n = nx * ny * nz
    rs = np.random.RandomState(spec["data_seed"])
    mf = cl.mem_flags
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                      hostbuf=rs.randint(0, 1 << 32, size=n, dtype=np.uint64).astype(np.uint32))
            for _ in range(spec["nbufs"])]
    kern = {name: getattr(prg, name) for name in spec["kernels"]}
    offset = spec["offset"] if any(spec["offset"]) else None
    local = spec["local"]
    reads = []

    def read_all():
        for b in bufs:
            h = np.empty(n, dtype=np.uint32)
            cl.enqueue_copy(q, h, b)   # blocking: a sync point
            reads.append(h)

    for _ in range(REPEATS):
        for j, ln in enumerate(spec["launches"]):
            if spec["sync_at"] is not None and j == spec["sync_at"]:
                h = np.empty(n, dtype=np.uint32)
                cl.enqueue_copy(q, h, bufs[ln["ins"][0]])
                reads.append(h)
            if "fill_before" in ln:
                cl.enqueue_fill_buffer(q, bufs[ln["fill_before"]], np.uint32(ln["p"]), 0, 4 * n)
            k = kern[ln["kernel"]]
            args = [bufs[b] for b in ln["outs"]] + [bufs[b] for b in ln["ins"]]
            args += [np.int32(nx), np.int32(ny), np.int32(nz)]
            if ln["kernel"] in spec.get("plane_kernels", []):
                args.append(np.int32(nx * ny))
            args.append(np.uint32(ln["p"]))
            k.set_args(*args)
            gl = list(spec["global"])
            if "rows" in ln:
                gl[-1] = ln["rows"]
            cl.enqueue_nd_range_kernel(q, k, gl, local, global_work_offset=offset)
        read_all()
    q.finish()
    np.save(result, np.stack(reads))
    return 0, ""


# ---- the parent -----------------------------------------------------------------------------

def modes_of(spec):
    """name -> environment of every mode this chain runs in."""
    forced = {"WEFT_FUSE_DEPTH": str(spec["depth"]), "WEFT_FUSE_TILE": str(spec["tile"])}
    m = [("auto", {}),
         ("forced", dict(forced, WEFT_FUSE_LEVELS="1")),
         ("teams", dict(forced, WEFT_FUSE_LEVELS="2", WEFT_FUSE_DOMAINS="1")),
         ("teams2", dict(forced, WEFT_FUSE_LEVELS="2", WEFT_FUSE_DOMAINS="2")),
         ("forced.scalar", dict(forced, WEFT_FUSE_LEVELS="1", WEFT_VECTORIZE="off"))]
    if spec["dims"] >= 2:
        m.append(("cols", dict(forced, WEFT_FUSE_COLS=str(spec["cols"]))))
    return m


MODE_NAMES = ["auto", "forced", "teams", "teams2", "forced.scalar", "cols"]


def run_mode(spec_path, env_extra, icd, result, timeout):
    """(class, seconds, message, fused runs) of running the chain in a fresh process."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("WEFT_"):
            del env[k]
    env.update({"WEFT_CACHE_DIR": "off", "WEFT_LOG": "info", "OCL_ICD_VENDORS": icd,
                "OPENCL_VENDOR_PATH": os.path.dirname(icd)})
    env.update(env_extra)
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--exec", spec_path, result], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           start_new_session=True)
    except subprocess.TimeoutExpired:
        return "hang", time.time() - t0, "timed out after %gs" % timeout, 0
    dt = time.time() - t0
    err = p.stderr.decode(errors="replace")
    fused = sum(1 for l in err.splitlines() if "fused into" in l)
    if p.returncode < 0:
        return "crash", dt, "signal %d\n%s" % (-p.returncode, err[-2000:]), fused
    if p.returncode != 0:
        return "error", dt, "exit %d: %s\n%s" % (p.returncode, p.stdout.decode(errors="replace")[-1000:],
                                                  err[-2000:]), fused
    internal = [l for l in err.splitlines() if "internal:" in l]
    if internal:   # right or not, a compiler stage failed and the runtime fell back
        return "internal", dt, internal[0], fused
    return "ok", dt, "", fused


def compare(ref, got):
    import numpy as np
    if ref.shape != got.shape:
        return "read-backs %s and %s" % (ref.shape, got.shape)
    notes = []
    for r in range(ref.shape[0]):
        bad = np.nonzero(ref[r] != got[r])[0]
        if len(bad):
            j = int(bad[0])
            notes.append("read %d: %d of %d differ, first [%d] = 0x%08x, reference 0x%08x" %
                         (r, len(bad), ref.shape[1], j, int(got[r][j]), int(ref[r][j])))
    return "; ".join(notes[:4]) if notes else None


def describe(spec):
    lines = ["// chains.py seed %d: %d-D, n %s, global %s, local %s, offset %s, %d buffers; forced depth %d, "
             "tile %d rows, cols %d" % (spec["seed"], spec["dims"], spec["n"], spec["global"], spec["local"],
                                         spec["offset"], spec["nbufs"], spec["depth"], spec["tile"], spec["cols"]),
             spec["source"], "/* launches (outs; ins; p), %d times, every buffer read after each:" % REPEATS]
    for j, ln in enumerate(spec["launches"]):
        if spec["sync_at"] == j:
            lines.append("   blocking read of B%d" % ln["ins"][0])
        if "fill_before" in ln:
            lines.append("   fill B%d with 0x%08x" % (ln["fill_before"], ln["p"]))
        lines.append("   %s(%s; %s; 0x%08x)%s" % (ln["kernel"], ",".join("B%d" % b for b in ln["outs"]),
                                                  ",".join("B%d" % b for b in ln["ins"]), ln["p"],
                                                  " over %d rows" % ln["rows"] if "rows" in ln else ""))
    lines.append("*/")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seeds", help="comma-separated seeds instead of --count/--start")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run (one chain in one mode)")
    ap.add_argument("--out", default="/tmp/chains-run")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="Weft build folder (weft.icd)")
    ap.add_argument("--modes", help="comma-separated subset of: " + ", ".join(MODE_NAMES))
    ap.add_argument("--keep", action="store_true", help="keep every mode's read-backs")
    ap.add_argument("--clean", action="store_true", help="empty the --out folder first")
    ap.add_argument("--show", type=int, help="print the chain of this seed and stop")
    ap.add_argument("--exec", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.exec:
        spec = json.load(open(args.exec[0]))
        status, msg = exec_chain(spec, args.exec[1])
        if status:
            print(msg)
        sys.exit(status)
    if args.show is not None:
        print(describe(generate(args.show)))
        return

    icd = os.path.join(os.path.abspath(args.build), "weft.icd")
    if not os.path.exists(icd):
        sys.exit("no %s: build Weft first (--build)" % icd)
    want = args.modes.split(",") if args.modes else MODE_NAMES
    unknown = [m for m in want if m not in MODE_NAMES]
    if unknown:
        sys.exit("unknown modes: %s" % ", ".join(unknown))
    if args.clean:
        shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    out_dir = os.path.abspath(args.out)
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else range(args.start, args.start + args.count)
    lock = threading.Lock()
    counts = {m: dict.fromkeys(CLASSES + ["fused"], 0) for m in want}
    failed = []
    logf = open(os.path.join(out_dir, "log.txt"), "a")

    def log(s):
        with lock:
            print(s, flush=True)
            logf.write(s + "\n")
            logf.flush()

    def one(seed):
        import numpy as np
        spec = generate(seed)
        work = tempfile.mkdtemp(prefix="chain%d-" % seed, dir=out_dir)
        spec_path = os.path.join(work, "chain.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        ref_path = os.path.join(work, "reference.npy")
        cls, dt, msg, _ = run_mode(spec_path, {"WEFT_FUSE": "off"}, icd, ref_path, args.timeout)
        parts, bad = [], []
        if cls != "ok":
            parts.append("reference %s" % cls)
            bad.append(("reference", cls, msg))
        if cls in ("ok", "internal"):
            ref = np.load(ref_path)
            for name, env in modes_of(spec):
                if name not in want:
                    continue
                path = os.path.join(work, name + ".npy")
                cls, dt, msg, fused = run_mode(spec_path, env, icd, path, args.timeout)
                if cls in ("ok", "internal"):
                    diff = compare(ref, np.load(path))
                    if diff:
                        cls, msg = "wrong", diff
                with lock:
                    counts[name][cls] += 1
                    counts[name]["fused"] += fused > 0
                parts.append("%s %s%s" % (name, cls, "(f%d)" % fused if fused else ""))
                if cls != "ok":
                    bad.append((name, cls, msg))
        if bad:
            fdir = os.path.join(out_dir, "fail", str(seed))
            os.makedirs(fdir, exist_ok=True)
            with open(os.path.join(fdir, "chain.json"), "w") as f:
                json.dump(spec, f, indent=1)
            with open(os.path.join(fdir, "chain.cl"), "w") as f:
                f.write(describe(spec) + "\n")
            with open(os.path.join(fdir, "README.txt"), "w") as f:
                for name, cls, msg in bad:
                    f.write("%s: %s\n%s\n\n" % (name, cls, msg))
                f.write("repro: %s %s --seeds %d --build %s --keep\n" % (sys.executable, os.path.abspath(__file__),
                                                                         seed, os.path.abspath(args.build)))
            with lock:
                failed.append(seed)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        log("seed %d: %s" % (seed, ", ".join(parts)))
        return not bad

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        all_ok = all(list(ex.map(one, seeds)))
    lines = ["%-15s" % "mode" + "".join("%9s" % c for c in CLASSES + ["fused"])]
    for m in want:
        lines.append("%-15s" % m + "".join("%9d" % counts[m][c] for c in CLASSES + ["fused"]))
    lines.append("chains: %d in %.0f s%s" % (len(list(seeds)), time.time() - t0,
                                            "; failing seeds: " + " ".join(map(str, sorted(failed))) if failed else ""))
    table = "\n".join(lines)
    with open(os.path.join(out_dir, "summary.txt"), "w") as f:
        f.write(table + "\n")
    log(table)
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
