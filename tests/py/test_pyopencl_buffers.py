"""PyOpenCL smoke tests of Weft's buffers: a context on the Weft platform (chosen by name),
buffers round-trip, copies, fills, rect transfers, sub-buffers and maps, each checked against
numpy on the host. Run with Debian's /usr/bin/python3 -m pytest."""
import numpy as np
import pyopencl as cl
import pytest


@pytest.fixture(scope="module")
def ctx():
    platforms = [p for p in cl.get_platforms() if p.name == "Weft"]
    assert platforms, "the Weft platform is not visible (OCL_ICD_VENDORS?)"
    devices = platforms[0].get_devices()
    assert len(devices) == 1
    return cl.Context(devices)


@pytest.fixture(scope="module")
def queue(ctx):
    return cl.CommandQueue(ctx)


MF = cl.mem_flags


def test_round_trip_float32(ctx, queue):
    a = np.random.default_rng(1).standard_normal(1 << 16).astype(np.float32)
    buf = cl.Buffer(ctx, MF.READ_WRITE | MF.COPY_HOST_PTR, hostbuf=a)
    assert buf.size == a.nbytes
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, a)


def test_write_then_read_with_offsets(ctx, queue):
    n = 10000
    buf = cl.Buffer(ctx, MF.READ_WRITE, size=n * 4)
    base = np.arange(n, dtype=np.int32)
    cl.enqueue_copy(queue, buf, base)
    patch = -np.arange(100, dtype=np.int32)
    cl.enqueue_copy(queue, buf, patch, dst_offset=400 * 4, is_blocking=False)
    expected = base.copy()
    expected[400:500] = patch
    out = np.empty(300, dtype=np.int32)
    cl.enqueue_copy(queue, out, buf, src_offset=300 * 4)
    np.testing.assert_array_equal(out, expected[300:600])


def test_copy_between_buffers(ctx, queue):
    a = np.arange(4096, dtype=np.uint8)
    src = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    dst = cl.Buffer(ctx, MF.READ_WRITE, size=a.nbytes)
    cl.enqueue_fill_buffer(queue, dst, np.uint8(0), 0, a.nbytes)
    cl.enqueue_copy(queue, dst, src, byte_count=1000, src_offset=10, dst_offset=2000)
    expected = np.zeros_like(a)
    expected[2000:3000] = a[10:1010]
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, dst)
    np.testing.assert_array_equal(out, expected)


def test_copy_overlap_is_rejected(ctx, queue):
    buf = cl.Buffer(ctx, MF.READ_WRITE, size=1024)
    with pytest.raises(cl.Error) as info:
        cl.enqueue_copy(queue, buf, buf, byte_count=100, src_offset=0, dst_offset=50)
    assert info.value.code == cl.status_code.MEM_COPY_OVERLAP


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.float64])
def test_fill(ctx, queue, dtype):
    n = 5000
    buf = cl.Buffer(ctx, MF.READ_WRITE, size=n * np.dtype(dtype).itemsize)
    cl.enqueue_fill_buffer(queue, buf, dtype(0), 0, buf.size)
    item = np.dtype(dtype).itemsize
    cl.enqueue_fill_buffer(queue, buf, dtype(7), 10 * item, 3000 * item)
    expected = np.zeros(n, dtype=dtype)
    expected[10:3010] = 7
    out = np.empty(n, dtype=dtype)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, expected)


def test_fill_vector_pattern(ctx, queue):
    pattern = np.array([1.5, -2.0, 3.25, 4.0], dtype=np.float32)  # a float4
    buf = cl.Buffer(ctx, MF.READ_WRITE, size=64 * 16)
    cl.enqueue_fill_buffer(queue, buf, pattern, 0, buf.size)
    out = np.empty(64 * 4, dtype=np.float32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.tile(pattern, 64))


def test_rect_read_matches_numpy_slicing(ctx, queue):
    rows, cols = 20, 32
    a = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    buf = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    out = np.zeros((5, 8), dtype=np.float32)
    # a 5x8 float block starting at row 3, column 4
    cl.enqueue_copy(queue, out, buf, buffer_origin=(4 * 4, 3, 0), host_origin=(0, 0, 0),
                    region=(8 * 4, 5, 1), buffer_pitches=(cols * 4, 0), host_pitches=(8 * 4, 0))
    np.testing.assert_array_equal(out, a[3:8, 4:12])


def test_sub_buffer(ctx, queue):
    align = ctx.devices[0].mem_base_addr_align // 8
    n = 4 * align
    a = np.arange(n, dtype=np.uint8)
    buf = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    sub = buf.get_sub_region(align, align)
    assert sub.size == align
    assert sub.offset == align
    out = np.empty(align, dtype=np.uint8)
    cl.enqueue_copy(queue, out, sub)
    np.testing.assert_array_equal(out, a[align:2 * align])
    with pytest.raises(cl.Error) as info:
        buf.get_sub_region(1, align)
    assert info.value.code == cl.status_code.MISALIGNED_SUB_BUFFER_OFFSET


def test_map_read_and_write(ctx, queue):
    a = np.arange(1024, dtype=np.int32)
    buf = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ | cl.map_flags.WRITE, 0,
                                      a.shape, a.dtype, is_blocking=True)
    np.testing.assert_array_equal(mapped, a)
    assert buf.get_info(cl.mem_info.MAP_COUNT) == 1
    mapped[:] *= 3
    mapped.base.release(queue)
    queue.finish()
    assert buf.get_info(cl.mem_info.MAP_COUNT) == 0
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, a * 3)


def test_use_host_ptr_is_zero_copy(ctx, queue):
    host = np.zeros(256, dtype=np.float32)
    buf = cl.Buffer(ctx, MF.READ_WRITE | MF.USE_HOST_PTR, hostbuf=host)
    cl.enqueue_fill_buffer(queue, buf, np.float32(2.5), 0, buf.size)
    queue.finish()
    # the device runs on the host: the application's array is the buffer's storage
    np.testing.assert_array_equal(host, np.full(256, 2.5, dtype=np.float32))


def test_invalid_sizes_raise(ctx):
    with pytest.raises(cl.Error) as info:
        cl.Buffer(ctx, MF.READ_WRITE, size=0)
    assert info.value.code == cl.status_code.INVALID_BUFFER_SIZE
    with pytest.raises(cl.Error) as info:
        cl.Buffer(ctx, MF.READ_ONLY | MF.WRITE_ONLY, size=16)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_host_write_only_read_rejected(ctx, queue):
    buf = cl.Buffer(ctx, MF.HOST_WRITE_ONLY, size=64)
    out = np.empty(16, dtype=np.float32)
    with pytest.raises(cl.Error) as info:
        cl.enqueue_copy(queue, out, buf)
    assert info.value.code == cl.status_code.INVALID_OPERATION


DOUBLE_SRC = """
__kernel void twice(__global int *a) { size_t i = get_global_id(0); a[i] = 2 * a[i]; }
"""


def test_kernel_on_sub_buffer_sees_its_origin(ctx, queue):
    align = ctx.devices[0].mem_base_addr_align // 8 // 4  # in ints
    n = 4 * align
    a = np.arange(n, dtype=np.int32)
    buf = cl.Buffer(ctx, MF.COPY_HOST_PTR, hostbuf=a)
    sub = buf.get_sub_region(align * 4, align * 4)
    prg = cl.Program(ctx, DOUBLE_SRC).build()
    prg.twice(queue, (align,), None, sub)
    out = np.empty_like(a)
    cl.enqueue_copy(queue, out, buf)
    expected = a.copy()
    expected[align:2 * align] *= 2
    np.testing.assert_array_equal(out, expected)


def test_kernel_writes_use_host_ptr_memory(ctx, queue):
    host = np.arange(1000, dtype=np.int32)
    buf = cl.Buffer(ctx, MF.READ_WRITE | MF.USE_HOST_PTR, hostbuf=host)
    prg = cl.Program(ctx, DOUBLE_SRC).build()
    prg.twice(queue, (1000,), None, buf)
    mapped, _ = cl.enqueue_map_buffer(queue, buf, cl.map_flags.READ, 0, host.shape, host.dtype,
                                      is_blocking=True)
    # zero copy: the mapping is the application's own array
    assert mapped.__array_interface__["data"][0] == host.__array_interface__["data"][0]
    np.testing.assert_array_equal(mapped, 2 * np.arange(1000, dtype=np.int32))
    mapped.base.release(queue)
    queue.finish()
