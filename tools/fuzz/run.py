#!/usr/bin/python3
"""Random differential testing of Weft (kernels from tools/fuzz/gen_kernel.py).

    run.py --count 1000 --start 0 --jobs 2 --timeout 60 --out /tmp/fuzz-run
    run.py --kernel saved.cl [--modes dfo.x2,bfo]          run saved (or hand-reduced) kernels again

Every kernel runs first on the reference, Weft itself built with -cl-opt-disable under
WEFT_VECTORIZE=off WEFT_SCHEDULE=dfo WEFT_PROFILE=off (WEFT_VARIANT=dfo.scalar where the runtime
reads it), then on pocl when its ICD is installed (informational: a disagreement between the two
references means the generator made undefined behaviour or one of them is wrong; it is counted
apart and never fails a run), then on Weft in every mode of MODES. Outputs of every launch are
compared with the reference's bit for bit. Each run is in a subprocess (this script with --worker,
one per target and job, running up to WORKER_RUNS kernels one after another, replaced after a
failure), without disk cache (WEFT_CACHE_DIR=off; modes cache-fill and cache-hit share OUT/cache, which
one process fills and another reads) and with a time limit: past it the run is a hang
(the worker is killed), a worker killed by a signal is a crash. A kernel launches three times in a row (Weft profiles
variants on the first two launches of at least 16 work-groups and keeps the winner for the third).

Results per mode: ok, wrong (an output differs), crash, hang, build-fail (clBuildProgram failed),
error (another OpenCL error), internal (right outputs, but a compiler stage reported an internal
error and the runtime fell back to a simpler variant: WEFT_LOG=info's "internal:" lines). Failing kernels go to OUT/fail/<seed>/ with the outputs' first
differences and a repro line; OUT/log.txt has a line per kernel, OUT/summary.txt the counts so far.
Exit status 1 when some Weft mode failed (or the reference did), else 0.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_kernel  # noqa: E402

POCL_ICD = "/etc/OpenCL/vendors/pocl.icd"
LAUNCHES = 3


def simd_width():
    try:
        flags = open("/proc/cpuinfo").read()
    except OSError:
        return 4
    return 16 if " avx512f" in flags else 8 if " avx" in flags else 4


CACHE = "@cache@"   # OUT/cache (Worker.start)

# The modes Weft runs in: name -> (environment when the runtime reads WEFT_VARIANT / WEFT_VERIFY,
# the closest environment before it does). `lc` before WEFT_VARIANT is breadth-first everywhere.
MODES = [
    ("default",      {},                                  {}),
    ("dfo",          {"WEFT_VARIANT": "dfo"},             {"WEFT_SCHEDULE": "dfo"}),
    ("dfo.x2",       {"WEFT_VARIANT": "dfo.x2"},          {"WEFT_SCHEDULE": "dfo", "WEFT_VECTORIZE": "%dx2" % simd_width()}),
    ("dfo.scalar",   {"WEFT_VARIANT": "dfo.scalar"},      {"WEFT_SCHEDULE": "dfo", "WEFT_VECTORIZE": "off"}),
    ("lc",           {"WEFT_VARIANT": "lc"},              {"WEFT_SCHEDULE": "bfo"}),
    ("lc.scalar",    {"WEFT_VARIANT": "lc.scalar"},       {"WEFT_SCHEDULE": "bfo", "WEFT_VECTORIZE": "off"}),
    ("bfo",          {"WEFT_VARIANT": "bfo"},             {"WEFT_SCHEDULE": "bfo"}),
    ("bfo.x2",       {"WEFT_VARIANT": "bfo.x2"},          {"WEFT_SCHEDULE": "bfo", "WEFT_VECTORIZE": "%dx2" % simd_width()}),
    ("bfo.scalar",   {"WEFT_VARIANT": "bfo.scalar"},      {"WEFT_SCHEDULE": "bfo", "WEFT_VECTORIZE": "off"}),
    ("dfo.wide",     {"WEFT_VARIANT": "dfo.wide"},        {"WEFT_SCHEDULE": "dfo"}),
    ("profile-sync", {"WEFT_PROFILE": "sync"},            {"WEFT_PROFILE": "sync"}),
    ("verify",       {"WEFT_VERIFY": "1"},                {"WEFT_VERIFY": "1"}),
    # the disk cache (compiled variants, profiled choices), shared by every kernel of the run:
    # filled by one process, read by another
    ("cache-fill",   {"WEFT_CACHE_DIR": CACHE},           {"WEFT_CACHE_DIR": CACHE}),
    ("cache-hit",    {"WEFT_CACHE_DIR": CACHE},           {"WEFT_CACHE_DIR": CACHE}),
]
REFERENCE_ENV = {"WEFT_VECTORIZE": "off", "WEFT_SCHEDULE": "dfo", "WEFT_PROFILE": "off"}
REFERENCE_OPTIONS = "-cl-opt-disable"
CLASSES = ["ok", "wrong", "crash", "hang", "build-fail", "error", "internal"]


def runtime_reads(lib, name):
    """Whether libweft.so reads the environment variable `name` (its string is in the library)."""
    try:
        with open(lib, "rb") as f:
            return (name.encode() + b"\0") in f.read()
    except OSError:
        return False


# ---- the child: one kernel, one platform ---------------------------------------------------

def inputs(meta):
    import numpy as np
    rs = np.random.RandomState(meta["data_seed"] & 0xffffffff)
    data = rs.randint(0, 1 << 32, size=meta["n_in"], dtype=np.uint64).astype(np.uint32)
    small = rs.randint(0, 4, size=meta["n_in"]) == 0
    data[small] = rs.randint(0, 17, size=int(small.sum()))
    return data


_CTX = {}


def exec_kernel(path, platform_hint, options, result):
    """Build and launch the kernel of `path`; outputs of each launch to `result` (.npy).
    (0, "") or (3, build log) for a build failure, (4, message) for another OpenCL error."""
    import numpy as np
    import pyopencl as cl
    src = open(path).read()
    meta = gen_kernel.read_meta(src)
    try:
        if platform_hint not in _CTX:
            plats = [p for p in cl.get_platforms() if platform_hint.lower() in p.name.lower()]
            if not plats:
                return 4, "no platform matching %r" % platform_hint
            ctx = cl.Context([plats[0].get_devices()[0]])
            _CTX[platform_hint] = (ctx, cl.CommandQueue(ctx))
        ctx, q = _CTX[platform_hint]
        opts = " ".join(o for o in (options, meta.get("options", "")) if o)
        prg = cl.Program(ctx, src)
        try:
            prg.build(options=opts)
        except cl.RuntimeError as e:
            return 3, "build failed (%s): %s" % (opts, e)
        knl = prg.k
        data = inputs(meta)
        mf = cl.mem_flags
        d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
        n_out = meta["n_out"]
        d_out = cl.Buffer(ctx, mf.READ_WRITE, size=4 * n_out)
        p = meta["params"]
        args = [d_in, d_out, np.uint32(meta["n_in"]), np.uint32(p[0]), np.uint32(p[1]), np.uint32(p[2]),
                np.uint32(p[3])]
        if meta.get("dyn_local"):
            args.append(cl.LocalMemory(4 * meta["dyn_local"]))
        knl.set_args(*args)
        outs = np.empty((LAUNCHES, n_out), dtype=np.uint32)
        offset = meta.get("offset") or None
        if offset is not None and not any(offset):
            offset = None
        for i in range(LAUNCHES):
            cl.enqueue_fill_buffer(q, d_out, np.uint32(0xdeadbeef), 0, 4 * n_out)
            cl.enqueue_nd_range_kernel(q, knl, meta["global"], meta["local"], global_work_offset=offset)
            cl.enqueue_copy(q, outs[i], d_out)
        q.finish()
        d_in.release()
        d_out.release()
        del knl, prg
    except cl.Error as e:
        return 4, "OpenCL error: %s" % e
    np.save(result, outs)
    return 0, ""


def worker(platform_hint, options):
    """Runs the kernels named by the lines of stdin ("path result"), answering a JSON line each."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)   # whatever else prints goes to stderr
    for line in sys.stdin:
        path, result = line.rstrip("\n").split("\t")
        try:
            status, msg = exec_kernel(path, platform_hint, options, result)
        except Exception as e:  # a bug here, not in the implementation under test
            status, msg = 5, "%s: %s" % (type(e).__name__, e)
        out.write(json.dumps({"status": status, "msg": msg[-3000:]}) + "\n")
        out.flush()


# ---- the parent --------------------------------------------------------------------------

class Target:
    def __init__(self, name, platform, env, options):
        self.name, self.platform, self.env, self.options = name, platform, env, options


WORKER_RUNS = 100   # kernels a worker runs before it is replaced (leaks stay bounded)


class Worker:
    """A child process that runs kernels on one target (--worker), replaced after a crash, a hang
    or WORKER_RUNS kernels: each run is in a subprocess with a time limit, without paying for
    Python, PyOpenCL and the platform's start-up every time."""

    def __init__(self, target, icd, out_dir):
        self.target, self.icd, self.out_dir = target, icd, out_dir
        self.p = None
        self.runs = 0

    def start(self):
        env = dict(os.environ)
        for k in ("WEFT_VARIANT", "WEFT_VERIFY", "WEFT_SCHEDULE", "WEFT_VECTORIZE", "WEFT_PROFILE"):
            env.pop(k, None)
        env["WEFT_CACHE_DIR"] = "off"
        if self.target.platform == "weft":
            env["WEFT_LOG"] = "info"   # for the fallbacks after internal errors (run)
        env["OCL_ICD_VENDORS"] = self.icd if self.target.platform == "weft" else POCL_ICD
        env["OPENCL_VENDOR_PATH"] = os.path.dirname(env["OCL_ICD_VENDORS"])
        env.update(self.target.env)
        if env.get("WEFT_CACHE_DIR") == CACHE:
            env["WEFT_CACHE_DIR"] = os.path.join(self.out_dir, "cache")
        self.err = tempfile.TemporaryFile(dir=self.out_dir)
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--platform", self.target.platform,
               "--options=" + self.target.options]
        self.p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                  start_new_session=True)
        self.buf = b""
        self.runs = 0

    def stop(self, kill=False):
        if self.p is None:
            return
        if kill:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            self.p.stdin.close()
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
        self.p.stdout.close()
        self.err.close()
        self.p = None

    def stderr_tail(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")[-2000:]

    def run(self, path, result, timeout):
        """(class, seconds, message) of running `path`."""
        if self.p is None or self.runs >= WORKER_RUNS:
            self.stop()
            self.start()
        self.runs += 1
        self.err.seek(0)
        self.err.truncate()
        t0 = time.time()
        try:
            self.p.stdin.write(("%s\t%s\n" % (path, result)).encode())
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            left = timeout - (time.time() - t0)
            if left <= 0:
                self.stop(kill=True)
                return "hang", time.time() - t0, "timed out after %gs" % timeout
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:   # the worker died
                rc = self.p.wait()
                tail = self.stderr_tail()
                self.stop()
                dt = time.time() - t0
                if rc < 0:
                    return "crash", dt, "signal %d %s\n%s" % (-rc, signal.Signals(-rc).name, tail)
                return "crash", dt, "exit %d\n%s" % (rc, tail)
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        dt = time.time() - t0
        r = json.loads(line)
        cls = {0: "ok", 3: "build-fail"}.get(r["status"], "error")
        if cls == "ok":
            self.err.seek(0)
            internal = [l for l in self.err.read().decode(errors="replace").splitlines() if "internal:" in l]
            if internal:
                return "internal", dt, internal[0][-2000:]
        return cls, dt, r["msg"]


def compare(ref, got):
    """None when equal, else a one-line description of the first differences."""
    import numpy as np
    if ref.shape[1] != got.shape[1]:
        return "output sizes %d and %d" % (ref.shape[1], got.shape[1])
    r0 = ref[0]
    notes = []
    for i in range(got.shape[0]):
        bad = np.nonzero(got[i] != r0)[0]
        if len(bad):
            j = int(bad[0])
            notes.append("launch %d: %d of %d differ, first out[%d] = 0x%08x, reference 0x%08x" %
                         (i + 1, len(bad), len(r0), j, int(got[i][j]), int(r0[j])))
    return "; ".join(notes) if notes else None


class Stats:
    def __init__(self, names):
        self.lock = threading.Lock()
        self.counts = {n: dict.fromkeys(CLASSES, 0) for n in names}
        self.times = dict.fromkeys(names, 0.0)
        self.kernels = 0
        self.ref_fail = 0
        self.ref_disagree = 0
        self.pocl_skip = 0
        self.failed_seeds = []

    def table(self):
        w = max(len(n) for n in self.counts) + 2
        lines = ["%-*s" % (w, "mode") + "".join("%11s" % c for c in CLASSES) + "%10s" % "time(s)"]
        for n, c in self.counts.items():
            lines.append("%-*s" % (w, n) + "".join("%11d" % c[k] for k in CLASSES) + "%10.0f" % self.times[n])
        lines.append("kernels: %d; reference (weft -cl-opt-disable) failed: %d; pocl disagreed with the "
                     "reference: %d; pocl could not run: %d" %
                     (self.kernels, self.ref_fail, self.ref_disagree, self.pocl_skip))
        if self.failed_seeds:
            lines.append("failing seeds: " + " ".join(str(s) for s in sorted(self.failed_seeds)))
        return "\n".join(lines)


def test_kernel(name, src, args, targets, stats, out_dir, workers, log):
    import numpy as np
    work = tempfile.mkdtemp(prefix="k%s-" % name, dir=out_dir)
    path = os.path.join(work, "%s.cl" % name)
    with open(path, "w") as f:
        f.write(src)
    results = {}
    lines = []
    failed = []

    def res(t):
        return os.path.join(work, t.name + ".npy")

    ref_t, pocl_t, mode_ts = targets
    cls, dt, err = workers[ref_t.name].run(path, res(ref_t), args.timeout)
    with stats.lock:
        stats.kernels += 1
    if cls != "ok":
        with stats.lock:
            stats.ref_fail += 1
        failed.append(("reference", cls, err.strip().splitlines()[-1:] or [""]))
        lines.append("reference: %s (%.1fs)\n%s" % (cls, dt, err))
        ref = None
    else:
        ref = np.load(res(ref_t))
        if not np.array_equal(ref[0], ref[-1]) or not np.array_equal(ref[0], ref[1]):
            failed.append(("reference", "wrong", ["launches of the reference differ"]))
            lines.append("reference: launches differ")
    summary = []
    if pocl_t is not None and ref is not None:
        cls, dt, err = workers[pocl_t.name].run(path, res(pocl_t), args.timeout)
        if cls != "ok":
            with stats.lock:
                stats.pocl_skip += 1
            summary.append("pocl:%s" % cls)
            lines.append("pocl: %s (%.1fs) %s" % (cls, dt, err.strip().splitlines()[-1:] if err.strip() else ""))
        else:
            d = compare(ref, np.load(res(pocl_t)))
            if d:
                with stats.lock:
                    stats.ref_disagree += 1
                summary.append("pocl:disagrees")
                lines.append("pocl disagrees with the reference: " + d)
                save(out_dir, "refdiff", name, path, lines, "pocl", args)
    if ref is not None:
        for t in mode_ts:
            cls, dt, err = workers[t.name].run(path, res(t), args.timeout)
            detail = err.strip()
            if cls == "ok":
                d = compare(ref, np.load(res(t)))
                if d:
                    cls, detail = "wrong", d
            with stats.lock:
                stats.counts[t.name][cls] += 1
                stats.times[t.name] += dt
            if cls != "ok":
                failed.append((t.name, cls, detail))
                lines.append("%s: %s (%.1fs) %s" % (t.name, cls, dt, detail))
            summary.append("%s:%s" % (t.name, cls) if cls != "ok" else "")
    status = "FAIL" if failed else "ok"
    log("%s %s %s" % (name, status, " ".join(s for s in summary if s)))
    if failed:
        with stats.lock:
            stats.failed_seeds.append(name)
        save(out_dir, "fail", name, path, lines, ",".join(sorted({f[0] for f in failed})), args)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return not failed


def save(out_dir, kind, name, path, lines, modes, args):
    d = os.path.join(out_dir, kind, name)
    os.makedirs(d, exist_ok=True)
    shutil.copy(path, os.path.join(d, "kernel.cl"))
    repro = "%s %s --kernel %s --modes %s --build %s" % (sys.executable, os.path.abspath(__file__),
                                                         os.path.join(d, "kernel.cl"), modes, args.build)
    with open(os.path.join(d, "README.txt"), "w") as f:
        f.write("\n".join(lines) + "\nrepro: " + repro + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--count", type=int, default=100, help="kernels to generate")
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--seeds", help="comma-separated seeds instead of --count/--start")
    ap.add_argument("--kernel", nargs="*", help="run these saved kernel files instead of generated ones")
    ap.add_argument("--jobs", type=int, default=1, help="kernels tested at once")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run (one kernel on one mode)")
    ap.add_argument("--out", default="/tmp/fuzz-run", help="folder for the log, summary and failing kernels")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="Weft build folder (weft.icd)")
    ap.add_argument("--modes", help="comma-separated subset of: " + ", ".join(m[0] for m in MODES))
    ap.add_argument("--pocl", choices=["auto", "off"], default="auto", help="also run pocl when installed")
    ap.add_argument("--keep", action="store_true", help="keep every kernel's outputs")
    ap.add_argument("--clean", action="store_true", help="empty the --out folder first")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--platform", help=argparse.SUPPRESS)
    ap.add_argument("--options", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.platform, args.options)
        return

    args.build = os.path.abspath(args.build)
    icd = os.path.join(args.build, "weft.icd")
    lib = os.path.join(args.build, "lib", "libweft.so")
    if not os.path.exists(icd):
        sys.exit("no %s: build Weft first (--build)" % icd)
    has_variant = runtime_reads(lib, "WEFT_VARIANT")
    has_verify = runtime_reads(lib, "WEFT_VERIFY")
    modes = MODES
    if args.modes:
        want = args.modes.split(",")
        unknown = [m for m in want if m not in {n for n, _, _ in MODES} | {"reference", "pocl"}]
        if unknown:
            sys.exit("unknown modes: %s" % ", ".join(unknown))
        modes = [m for m in MODES if m[0] in want]
    if not has_verify:
        modes = [m for m in modes if "WEFT_VERIFY" not in m[1]]
    mode_ts = [Target(n, "weft", env if has_variant or ("WEFT_VARIANT" not in env) else fallback, "")
               for n, env, fallback in modes]
    ref_env = dict(REFERENCE_ENV)
    if has_variant:
        ref_env["WEFT_VARIANT"] = "dfo.scalar"
    ref_t = Target("reference", "weft", ref_env, REFERENCE_OPTIONS)
    pocl_t = Target("pocl", "portable", {}, "") if args.pocl == "auto" and os.path.exists(POCL_ICD) else None

    if args.clean:
        shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    out_dir = os.path.abspath(args.out)
    logf = open(os.path.join(out_dir, "log.txt"), "a")
    loglock = threading.Lock()

    def log(s):
        with loglock:
            print(s, flush=True)
            logf.write(s + "\n")
            logf.flush()

    notes = []
    if not has_variant:
        notes.append("the runtime does not read WEFT_VARIANT: modes approximated by WEFT_SCHEDULE/WEFT_VECTORIZE "
                     "(lc runs bfo, dfo.wide runs dfo)")
    if not has_verify:
        notes.append("the runtime does not read WEFT_VERIFY: mode verify left out")
    for n in notes:
        log("note: " + n)
    log("weft %s, modes %s, pocl %s" % (args.build, ",".join(t.name for t in mode_ts), "on" if pocl_t else "off"))

    if args.kernel:
        jobs = [(os.path.splitext(os.path.basename(k))[0], open(k).read()) for k in args.kernel]
    else:
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else range(args.start, args.start + args.count)
        jobs = ((str(s), None) for s in seeds)
    stats = Stats([t.name for t in mode_ts])
    t0 = time.time()
    done = [0]

    tls = threading.local()
    all_workers = []

    def one(job):
        name, src = job
        if src is None:
            src, _ = gen_kernel.generate(int(name))
        if not hasattr(tls, "workers"):
            tls.workers = {t.name: Worker(t, icd, out_dir) for t in [ref_t, pocl_t] + mode_ts if t}
            with stats.lock:
                all_workers.extend(tls.workers.values())
        ok = test_kernel(name, src, args, (ref_t, pocl_t, mode_ts), stats, out_dir, tls.workers, log)
        with stats.lock:
            done[0] += 1
            if done[0] % 10 == 0:
                with open(os.path.join(out_dir, "summary.txt"), "w") as f:
                    f.write("after %d kernels, %.0f s\n%s\n" % (done[0], time.time() - t0, stats.table()))
        return ok

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        all_ok = all(list(ex.map(one, jobs)))
    for w in all_workers:
        w.stop()
    table = stats.table()
    with open(os.path.join(out_dir, "summary.txt"), "w") as f:
        f.write("after %d kernels, %.0f s\n%s\n%s\n" % (stats.kernels, time.time() - t0, "\n".join(notes), table))
    log(table)
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
