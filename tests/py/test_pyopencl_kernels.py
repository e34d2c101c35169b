"""Hand-written kernels through PyOpenCL on Weft, checked against numpy: a tree reduction with
__local memory passed as cl.LocalMemory, a local-memory transpose, 2-D launches with a global
offset, vector types (cltypes.float4), a struct matched with pyopencl.tools.match_dtype_to_c_struct,
build options (-D), kernel argument info, a program rebuilt from its binary, and printf output
captured from a child process."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pyopencl as cl
import pyopencl.cltypes as cltypes
import pytest
from pyopencl.tools import match_dtype_to_c_struct, get_or_register_dtype

MF = cl.mem_flags
rng = np.random.default_rng(11)

SRC = """
kernel void reduce(global const float *in, global float *out, local float *tmp) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 1; s < n; s *= 2) {
    if (lid % (2 * s) == 0 && lid + s < n) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}

kernel void transpose(global const float *in, global float *out, int w, int h) {
  local float tile[TS][TS + 1];
  int lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[get_global_id(1) * w + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * TS + lx, oy = get_group_id(0) * TS + ly;
  out[oy * h + ox] = tile[lx][ly];
}

kernel void offset2d(global int *out, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * w + x] = x * 1000 + y;
}

kernel void vec4(global const float4 *a, global float4 *b, float4 s) {
  size_t i = get_global_id(0);
  b[i] = a[i].wzyx * s + (float4)(a[i].x);
}

typedef struct { int id; float mass; double pos[2]; } particle;
kernel void particles(global particle *p, float dt) {
  size_t i = get_global_id(0);
  p[i].pos[0] += p[i].mass * dt;
  p[i].pos[1] -= (double)p[i].id;
  p[i].id *= 2;
}
"""


@pytest.fixture(scope="module")
def prog(ctx):
    return cl.Program(ctx, SRC).build(options=["-DTS=16", "-cl-kernel-arg-info"])


@pytest.mark.parametrize("local", [1, 3, 7, 64, 100, 256, 1024])
def test_reduce_local_memory(ctx, queue, prog, local):
    groups = 5
    a = rng.integers(-50, 50, local * groups).astype(np.float32)
    din = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    dout = cl.Buffer(ctx, MF.WRITE_ONLY, groups * 4)
    prog.reduce(queue, (local * groups,), (local,), din, dout, cl.LocalMemory(local * 4))
    out = np.empty(groups, np.float32)
    cl.enqueue_copy(queue, out, dout)
    np.testing.assert_array_equal(out, a.reshape(groups, local).sum(axis=1))


def test_transpose(ctx, queue, prog):
    h, w = 48, 80
    a = rng.standard_normal((h, w)).astype(np.float32)
    din = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    dout = cl.Buffer(ctx, MF.WRITE_ONLY, a.nbytes)
    prog.transpose(queue, (w, h), (16, 16), din, dout, np.int32(w), np.int32(h))
    out = np.empty((w, h), np.float32)
    cl.enqueue_copy(queue, out, dout)
    np.testing.assert_array_equal(out, a.T)


def test_global_offset_2d(ctx, queue, prog):
    w, h = 40, 30
    dout = cl.Buffer(ctx, MF.READ_WRITE, w * h * 4)
    cl.enqueue_fill_buffer(queue, dout, np.int32(-1), 0, w * h * 4)
    prog.offset2d(queue, (w - 10, h - 5), (10, 5), dout, np.int32(w), global_offset=(10, 5))
    out = np.empty((h, w), np.int32)
    cl.enqueue_copy(queue, out, dout)
    y, x = np.mgrid[0:h, 0:w]
    expected = np.where((x >= 10) & (y >= 5), x * 1000 + y, -1)
    np.testing.assert_array_equal(out, expected)


def test_vector_arguments(ctx, queue, prog):
    n = 257
    a = np.zeros(n, cltypes.float4)
    flat = rng.standard_normal(4 * n).astype(np.float32)
    a.view(np.float32)[:] = flat
    s = cltypes.make_float4(1.0, 2.0, -1.0, 0.5)
    din = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    dout = cl.Buffer(ctx, MF.WRITE_ONLY, a.nbytes)
    prog.vec4(queue, (n,), None, din, dout, s)
    out = np.empty(4 * n, np.float32)
    cl.enqueue_copy(queue, out, dout)
    av = flat.reshape(n, 4)
    sv = np.array([1.0, 2.0, -1.0, 0.5], np.float32)
    expected = av[:, ::-1] * sv + av[:, :1]
    np.testing.assert_allclose(out.reshape(n, 4), expected, rtol=1e-6, atol=1e-6)


def test_struct_in_buffer(ctx, queue, prog):
    dtype = np.dtype([("id", np.int32), ("mass", np.float32), ("pos", np.float64, 2)])
    dtype, cdecl = match_dtype_to_c_struct(ctx.devices[0], "particle", dtype)
    dtype = get_or_register_dtype("particle", dtype)
    n = 300
    p = np.zeros(n, dtype)
    p["id"] = np.arange(n)
    p["mass"] = rng.uniform(0.5, 2.0, n).astype(np.float32)
    p["pos"] = rng.standard_normal((n, 2))
    buf = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=p)
    prog.particles(queue, (n,), None, buf, np.float32(0.25))
    out = np.empty_like(p)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out["id"], p["id"] * 2)
    np.testing.assert_allclose(out["pos"][:, 0], p["pos"][:, 0] + (p["mass"] * np.float32(0.25)).astype(np.float64))
    np.testing.assert_array_equal(out["pos"][:, 1], p["pos"][:, 1] - p["id"])


def test_kernel_and_arg_info(prog):
    k = prog.reduce
    assert k.function_name == "reduce"
    assert k.num_args == 3
    assert k.get_arg_info(0, cl.kernel_arg_info.NAME) == "in"
    assert k.get_arg_info(2, cl.kernel_arg_info.ADDRESS_QUALIFIER) == cl.kernel_arg_address_qualifier.LOCAL
    assert k.get_arg_info(0, cl.kernel_arg_info.TYPE_QUALIFIER) & cl.kernel_arg_type_qualifier.CONST
    names = sorted(kk.function_name for kk in prog.all_kernels())
    assert names == ["offset2d", "particles", "reduce", "transpose", "vec4"]


def test_binary_round_trip(ctx, queue, prog):
    binaries = prog.get_info(cl.program_info.BINARIES)
    assert len(binaries) == 1 and len(binaries[0]) > 0
    p2 = cl.Program(ctx, ctx.devices, binaries).build()
    w = 8
    dout = cl.Buffer(ctx, MF.READ_WRITE, w * w * 4)
    p2.offset2d(queue, (w, w), None, dout, np.int32(w))
    out = np.empty((w, w), np.int32)
    cl.enqueue_copy(queue, out, dout)
    y, x = np.mgrid[0:w, 0:w]
    np.testing.assert_array_equal(out, x * 1000 + y)


def test_build_failure_has_log(ctx):
    with pytest.raises(cl.RuntimeError) as info:
        cl.Program(ctx, "kernel void k(global int *p) { p[0] = undefined_name; }").build()
    assert "undefined_name" in str(info.value)


def test_printf_from_child_process():
    # printf goes to the process's stdout: run a child so the output can be captured reliably.
    child = textwrap.dedent("""
        import numpy as np, pyopencl as cl
        plat = [p for p in cl.get_platforms() if p.name == "Weft"][0]
        ctx = cl.Context(plat.get_devices())
        q = cl.CommandQueue(ctx)
        src = 'kernel void k(int base) { int i = get_global_id(0); printf("item %d value %d\\\\n", i, base + i * i); }'
        prg = cl.Program(ctx, src).build()
        prg.k(q, (6,), (3,), np.int32(100))
        q.finish()
    """)
    res = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ))
    assert res.returncode == 0, res.stderr
    lines = sorted(line for line in res.stdout.splitlines() if line.startswith("item"))
    assert lines == sorted(f"item {i} value {100 + i * i}" for i in range(6))
