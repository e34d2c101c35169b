"""PyOpenCL on Weft's shared virtual memory (runtime/svm.c): the capabilities PyOpenCL detects,
coarse-grain allocations filled, mapped, handed to kernels and copied back, fine-grain arrays
that numpy and kernels share without maps, a buffer over an SVM allocation, and
pyopencl.array on the SVM allocator and pool; each checked against numpy on the host. Run with
Debian's /usr/bin/python3 -m pytest."""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import pyopencl.characterize as characterize
import pyopencl.tools as cl_tools
import pytest

SRC = """
kernel void affine(global float *x, float a, float b) {
    size_t i = get_global_id(0);
    x[i] = a * x[i] + b;
}
kernel void add_to(global const int *src, global int *dst) {
    size_t i = get_global_id(0);
    dst[i] += src[i];
}
"""


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SRC).build()


def test_capabilities(ctx):
    dev = ctx.devices[0]
    assert characterize.has_coarse_grain_buffer_svm(dev)
    assert characterize.has_fine_grain_buffer_svm(dev)
    assert characterize.has_fine_grain_buffer_svm_atomics(dev)
    assert characterize.has_fine_grain_system_svm(dev)


@pytest.mark.parametrize("n", [1, 1000, 1 << 18])
def test_coarse_grain_fill_map_kernel_copy(ctx, queue, prg, n):
    # an allocation used as it is (PyOpenCL's "opaque" style)
    svm = cl.SVMAllocation(ctx, n * 4, alignment=64, flags=cl.svm_mem_flags.READ_WRITE)
    cl.enqueue_svm_memfill(queue, svm, np.float32(2.5))
    with svm.map_ro(queue) as raw:
        ary = np.frombuffer(raw, dtype=np.float32, count=n)
        np.testing.assert_array_equal(ary, np.full(n, 2.5, np.float32))
    host = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    with svm.map_rw(queue) as raw:
        np.frombuffer(raw, dtype=np.float32, count=n)[:] = host
    prg.affine(queue, (n,), None, svm, np.float32(3), np.float32(-1))
    out = np.empty(n, np.float32)
    cl.enqueue_copy(queue, out, svm)
    np.testing.assert_allclose(out, 3 * host - 1, rtol=1e-6, atol=1e-6)   # a kernel may fuse the multiply-add


def test_coarse_grain_array_and_buffer_over_it(ctx, queue, prg):
    n = 4099
    ary = cl.csvm_empty(ctx, (n,), np.int32, alignment=128)
    svm = cl.SVM(ary)
    with svm.map_rw(queue) as a:
        a[:] = np.arange(n, dtype=np.int32)
    other = cl.csvm_empty(ctx, (n,), np.int32)
    with cl.SVM(other).map_rw(queue) as b:
        b[:] = 7
    # the destination as a cl_mem created over the allocation (CL_MEM_USE_HOST_PTR)
    buf = cl.SVM(other).as_buffer(ctx)
    assert buf.get_info(cl.mem_info.USES_SVM_POINTER)
    prg.add_to(queue, (n,), None, svm, buf)
    with cl.SVM(other).map_ro(queue) as b:
        np.testing.assert_array_equal(b, np.arange(n, dtype=np.int32) + 7)


def test_fine_grain_shared_with_numpy(ctx, queue, prg):
    n = 100003
    ary = cl.fsvm_empty(ctx, n, np.float32, alignment=64)
    ary[:] = np.linspace(-1, 1, n, dtype=np.float32)
    expect = ary * 0.5 + 2
    prg.affine(queue, (n,), None, cl.SVM(ary), np.float32(0.5), np.float32(2))
    queue.finish()
    np.testing.assert_allclose(ary, expect, rtol=1e-6, atol=1e-6)   # no map: fine grain


@pytest.mark.parametrize("pooled", [False, True])
def test_arrays_on_svm_allocator(ctx, queue, pooled):
    alloc = cl_tools.SVMAllocator(ctx, alignment=0, queue=queue)
    if pooled:
        alloc = cl_tools.SVMPool(alloc)
    rng = np.random.default_rng(7)
    for n in (17, 1 << 16):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        dx = cl_array.to_device(queue, x, allocator=alloc)
        dy = cl_array.to_device(queue, y, allocator=alloc)
        np.testing.assert_allclose((2 * dx + dy).get(), 2 * x + y, rtol=1e-6)
        np.testing.assert_allclose(cl_array.sum(dx * dy).get(), np.dot(x, y), rtol=1e-3)
