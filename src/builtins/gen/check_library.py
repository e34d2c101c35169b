#!/usr/bin/env python3
"""Checks that weft-builtins.bc defines every builtin a kernel can call, and calls nothing
the JIT cannot resolve.

1. Coverage: clang's opencl-c.h is parsed (through `clang -cc1 -ast-dump=json`) with the
   same extensions and features the driver gives a program (src/runtime/features.h), for
   every OpenCL C version the driver accepts (1.0, 1.1, 1.2, 3.0). Every declared overload's mangled name must be defined by the
   library, except the ones the work-group transformation or the runtime provide (work-item
   functions, barriers, sub-group functions, printf).
2. Closure: every symbol the library leaves undefined must be a work-item function, a
   barrier, an LLVM intrinsic or a C library function present in this process's libm/libc.
3. Use: a kernel calling a sample of every builtin family, compiled like a user program and
   linked with the library (llvm-link), leaves only those allowed symbols undefined.
4. Calls as a program makes them: clang's driver declares the builtins of a program from
   its own tables (-fdeclare-opencl-builtins), not from opencl-c.h, and the two differ in a
   few overloads (wait_group_events takes a __generic pointer in 3.0). So every overload of
   opencl-c.h is called once, with arguments of its parameter types, from code compiled
   exactly like a program; every function that code references must be in the library.

Exit status 0 when all hold; otherwise the missing names are listed.
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile

PROVIDED = {
    "get_global_id", "get_local_id", "get_group_id", "get_local_size", "get_global_size",
    "get_num_groups", "get_work_dim", "get_global_offset", "get_enqueued_local_size",
    "get_global_linear_id", "get_local_linear_id", "barrier", "work_group_barrier", "printf",
    # sub-groups: lowered by the work-group transformation (compiler/transform/subgroup.h)
    "get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups", "get_enqueued_num_sub_groups",
    "get_sub_group_id", "get_sub_group_local_id", "sub_group_barrier", "sub_group_all", "sub_group_any",
    "sub_group_broadcast", "sub_group_reduce_add", "sub_group_reduce_min", "sub_group_reduce_max",
    "sub_group_scan_inclusive_add", "sub_group_scan_inclusive_min", "sub_group_scan_inclusive_max",
    "sub_group_scan_exclusive_add", "sub_group_scan_exclusive_min", "sub_group_scan_exclusive_max",
    "get_fence",  # generic address space query: transform/workitem.c lowers it
}

SAMPLE_KERNEL = r"""
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
kernel void families(global float *f, global double *d, global int *i, global uint *u,
                     global long *l, global uchar *c, local float *lf, local int *li,
                     global half *h)
{
    size_t g = get_global_id(0);
    float4 v = vload4(g, f);
    float fi; int q;
    v = sin(v) + cos(v) * exp(v) + pow(v, v) + sqrt(v) + rsqrt(v) + fmin(v, 1.0f);
    v += fract(v, (float4 *)0 + 0 == 0 ? &v : &v) + sinpi(v) + rootn(v, (int4)(3)) + half_exp(v);
    f[0] = fract(f[1], &fi) + remquo(f[2], f[3], &q) + modf(f[4], lf) + lgamma_r(f[5], li);
    d[0] = sincos(d[1], d) + pown(d[2], 3) + ldexp(d[3], 4) + nan((ulong)1);
    vstore4(v, g, f);
    i[0] = abs_diff(i[1], i[2]) + add_sat(i[3], i[4]) + clz(i[5]) + popcount(i[7])
         + mad_hi(i[8], i[9], i[10]) + mad_sat(i[1], i[2], i[3]) + rotate(i[4], 3) + mul24(i[1], 2);
    l[0] = upsample(i[0], u[0]) + mul_hi(l[1], l[2]) + hadd(l[3], l[4]) + rhadd(l[5], l[6]);
    f[5] = clamp(f[6], 0.0f, 1.0f) + degrees(f[7]) + mix(f[8], f[9], 0.5f) + smoothstep(0.0f, 1.0f, f[10])
         + sign(f[11]) + step(0.5f, f[12]) + dot(v, v) + length(v.xyz) + distance(v, v)
         + fast_length(v) + normalize(v).x + cross(v, v).y;
    i[11] = isequal(f[0], f[1]) + isnan(f[2]) + isinf(d[0]) + signbit(f[3]) + any((int4)(i[0]))
          + all((int4)(i[1])) + bitselect(i[2], i[3], i[4]) + select(i[5], i[6], i[7]);
    int4 vi = isless(v, v) + select((int4)(1), (int4)(2), (int4)(-1));
    i[12] = vi.x + convert_int_sat_rte(f[13]) + convert_int4_sat(v).y + convert_char_sat(l[0])
          + (int)convert_float_rtn(l[1]) + (int)convert_double_rtp(u[0]);
    f[14] = vload_half(0, h) + vload_half4(1, h).y + vloada_half2(0, h).x;
    vstore_half_rtz(f[15], 0, h);
    vstore_half4_rtn(v, 1, h);
    vstorea_half2_rtp(v.xy, 1, h);
    atomic_add(i, 1); atomic_inc(li); atomic_cmpxchg(u, 1u, 2u); atom_add(l, 1L); atom_max(i, 3);
    atomic_xchg(f, 1.0f); atomic_min(u, 2u); atomic_and(li, 6); atom_xor(l, 2L);
    mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    event_t e = async_work_group_copy(lf, f, 16, 0);
    e = async_work_group_strided_copy(f, lf, 16, 2, e);
    wait_group_events(1, &e);
    prefetch(f, 16);
    uint4 m = (uint4)(3, 2, 1, 0);
    v = shuffle(v, m) + shuffle2(v, v, m);
    c[0] = convert_uchar_sat(v.x) + abs(c[1]) + convert_uchar4_sat_rtz(v).w;
    f[16] = v.x + v.y + v.z + v.w;
#ifdef cl_khr_fp16
    half4 hv = vload4(0, h);
    hv = sin(hv) + fma(hv, hv, hv) + nextafter(hv, hv) + clamp(hv, (half)0, (half)1)
       + convert_half4_rtz(v) + select(hv, hv, isless(hv, hv)) + normalize(hv);
    vstore4(hv, 1, h);
    i[13] = convert_int_sat(hv.x) + ilogb(h[9]);
#endif
}
#if __OPENCL_C_VERSION__ >= 300
kernel void families30(global atomic_int *ai, local atomic_int *la, global atomic_long *al,
                       global int *out, global atomic_float *af, global atomic_flag *fl)
{
    int expected = 0;
    atomic_init(la, 0);
    out[0] = atomic_fetch_add(ai, 1) + atomic_fetch_sub_explicit(la, 1, memory_order_relaxed)
           + atomic_fetch_or_explicit(ai, 1, memory_order_acq_rel, memory_scope_device)
           + atomic_load(ai) + atomic_exchange(la, 3) + (int)atomic_fetch_max(al, 2L)
           + atomic_compare_exchange_strong(ai, &expected, 5)
           + atomic_compare_exchange_weak_explicit(la, &expected, 6, memory_order_seq_cst,
                                                   memory_order_relaxed, memory_scope_work_group)
           + atomic_flag_test_and_set(fl) + (int)atomic_load(af);
    atomic_store(ai, 2);
    atomic_flag_clear(fl);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    out[1] = ctz(out[2]);
}
#endif
"""


def features(path):
    names = re.findall(r"^\s*X\((\w+),", open(path).read(), re.M)
    ext = "-cl-ext=-all," + ",".join("+" + n for n in names)
    defs = ["-D%s=1" % n for n in names if n.startswith("__opencl_c_atomic_scope_")]
    return ext, defs


def declared(clang, std, ext, defs, calls=None):
    """Mangled names of every function opencl-c.h declares, by function name."""
    resource = subprocess.run([clang, "-print-resource-dir"], capture_output=True,
                              text=True, check=True).stdout.strip()
    with tempfile.NamedTemporaryFile("w", suffix=".cl", delete=False) as t:
        t.write("void weft_check_dummy(void);\n")
    try:
        p = subprocess.run([clang, "-cc1", "-triple", "x86_64-unknown-linux-gnu",
                            "-cl-std=" + std, "-finclude-default-header", "-internal-isystem",
                            os.path.join(resource, "include"), "-ffake-address-space-map",
                            ext] + defs + ["-fsyntax-only", "-ast-dump=json", t.name],
                           capture_output=True, text=True)
    finally:
        os.unlink(t.name)
    ast = json.loads(p.stdout)
    out = {}
    for d in ast.get("inner", []):
        if d.get("kind") != "FunctionDecl" or "mangledName" not in d:
            continue
        name = d["name"]
        if name in PROVIDED or name == "weft_check_dummy":
            continue
        # opencl-c.h declares the depth-image overloads in 3.0 whenever images are on, but a
        # program (-fdeclare-opencl-builtins) only gets them with cl_khr_depth_images, which
        # Weft does not report: no kernel can call them.
        if "_depth_t" in d.get("type", {}).get("qualType", ""):
            continue
        out.setdefault(name, set()).add(d["mangledName"])
        if calls is not None:
            params = [q.get("type", {}).get("qualType") for q in d.get("inner", [])
                      if q.get("kind") == "ParmVarDecl"]
            calls.append((name, params))
    return out


def symbols(nm, bc):
    p = subprocess.run([nm, bc], capture_output=True, text=True, check=True)
    defined, undefined = set(), set()
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] in ("U", "u"):
            undefined.add(parts[-1])
        elif len(parts) >= 3 and parts[-2] in ("T", "W", "t", "w"):
            defined.add(parts[-1])
    return defined, undefined


def allowed_undefined(names):
    """The names among `names` that nothing resolves: not a work-item function, barrier or
    printf (provided by the work-group transformation and the runtime), not an LLVM
    intrinsic, not a C library function of this process."""
    libs = [ctypes.CDLL("libm.so.6"), ctypes.CDLL("libc.so.6")]
    bad = []
    for n in sorted(names):
        if n.startswith("llvm."):
            continue
        m = re.match(r"_Z(\d+)(\w+)", n)
        if m and m.group(2)[: int(m.group(1))] in PROVIDED:
            continue
        if not n.startswith("_Z") and any(hasattr(l, n) for l in libs):
            continue
        bad.append(n)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", required=True)
    ap.add_argument("--llvm-link", required=True)
    ap.add_argument("--llvm-nm", required=True)
    ap.add_argument("--bc", required=True)
    ap.add_argument("--features", required=True)
    a = ap.parse_args()

    ext, defs = features(a.features)
    defined, undefined = symbols(a.llvm_nm, a.bc)
    failed = False

    for std in ("CL1.0", "CL1.1", "CL1.2", "CL3.0"):
        decls = declared(a.clang, std, ext, defs)
        total = sum(len(v) for v in decls.values())
        missing = {n: sorted(v - defined) for n, v in decls.items() if v - defined}
        nmiss = sum(len(v) for v in missing.values())
        print("%s: %d builtin overloads declared, %d missing" % (std, total, nmiss))
        for n in sorted(missing):
            print("  missing %s: %d overloads, e.g. %s" % (n, len(missing[n]), missing[n][0]))
        failed |= nmiss > 0

    bad = allowed_undefined(undefined)
    print("library: %d defined, %d undefined, %d not resolvable" % (len(defined), len(undefined), len(bad)))
    for n in bad:
        print("  unresolvable: " + n)
    failed |= bool(bad)

    with tempfile.TemporaryDirectory() as tmp:
        for std in ("CL1.2", "CL3.0"):
            src = os.path.join(tmp, "k.cl")
            open(src, "w").write(SAMPLE_KERNEL)
            kbc, lbc = os.path.join(tmp, "k.bc"), os.path.join(tmp, "linked.bc")
            p = subprocess.run([a.clang, "-x", "cl", "-cl-std=" + std, "-Xclang",
                                "-finclude-default-header", "-Xclang", "-ffake-address-space-map",
                                "-target", "x86_64-unknown-linux-gnu", "-emit-llvm", "-c", "-O0",
                                "-Xclang", ext] + defs + [src, "-o", kbc],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print("%s: sample kernel does not compile:\n%s" % (std, p.stderr))
                failed = True
                continue
            subprocess.run([a.llvm_link, kbc, a.bc, "-o", lbc], check=True)
            _, und = symbols(a.llvm_nm, lbc)
            bad = allowed_undefined(und)
            print("%s: sample kernel linked, %d undefined, %d not resolvable" % (std, len(und), len(bad)))
            for n in bad:
                print("  unresolvable after link: " + n)
            failed |= bool(bad)

    # 4: every overload called the way a program calls it
    for std in ("CL1.2", "CL3.0"):
        calls = []
        declared(a.clang, std, ext, defs, calls)
        lines = ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable",
                 "#ifdef cl_khr_fp16", "#pragma OPENCL EXTENSION cl_khr_fp16 : enable", "#endif"]
        opaque = []
        for k, (name, params) in enumerate(calls):
            # images and samplers can only be function parameters: such calls get a function
            # of their own that takes every argument as a parameter
            if any(re.search(r"image|sampler", t) for t in params):
                opaque.append((name, params))
                continue
            if k % 400 == 0:
                lines.append("%svoid weft_check_calls_%d(void) {" % ("}\n" if k else "", k // 400))
            decl = " ".join("%s a%d;" % (t, j) for j, t in enumerate(params))
            lines.append("  { %s (void)%s(%s); }" % (decl, name, ", ".join("a%d" % j for j in range(len(params)))))
        lines.append("}")
        for k, (name, params) in enumerate(opaque):
            plist = ", ".join("%s a%d" % (t.replace("__private ", ""), j) for j, t in enumerate(params))
            lines.append("void weft_check_opaque_%d(%s) { (void)%s(%s); }" % (
                k, plist, name, ", ".join("a%d" % j for j in range(len(params)))))
        with tempfile.TemporaryDirectory() as tmp:
            src, kbc = os.path.join(tmp, "calls.cl"), os.path.join(tmp, "calls.bc")
            open(src, "w").write("\n".join(lines) + "\n")
            p = subprocess.run([a.clang, "-x", "cl", "-cl-std=" + std, "-Xclang",
                                "-finclude-default-header", "-Xclang", "-ffake-address-space-map",
                                "-target", "x86_64-unknown-linux-gnu", "-emit-llvm", "-c", "-O0",
                                "-w", "-Xclang", ext] + defs + [src, "-o", kbc],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print("%s: the calls of every overload do not compile:\n%s" % (std, p.stderr[:4000]))
                failed = True
                continue
            _, und = symbols(a.llvm_nm, kbc)
            missing = sorted(n for n in und - defined if n.startswith("_Z") and n in set(allowed_undefined([n])))
            print("%s: %d overloads called as a program calls them, %d references missing" % (std, len(calls), len(missing)))
            for n in missing:
                print("  missing (program's declaration): " + n)
            failed |= bool(missing)

    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
