"""pyopencl images on Weft, checked against numpy: pyopencl.image_from_array / Image with
host data, a sampler kernel (nearest, CLAMP_TO_EDGE, unnormalized) that shifts a 2D float
image, bilinear interpolation at pixel centres and between them, and enqueue_copy of an
image region back to numpy. PyOpenCL queries formats and passes images and samplers its own
way, so a failure here is most likely a Weft bug."""
import numpy as np
import pyopencl as cl

rng = np.random.default_rng(11)

SRC = """
kernel void shift(read_only image2d_t img, sampler_t s, global float *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imagef(img, s, (float2)(x - 1 + 0.5f, y + 0.5f)).x;
}
kernel void bilinear(read_only image2d_t img, sampler_t s, global const float2 *c, global float *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, c[i]).x;
}
kernel void scale(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p) * 2.0f);
}
"""


def test_device_reports_images(ctx):
    dev = ctx.devices[0]
    assert dev.image_support
    fmts = cl.get_supported_image_formats(ctx, cl.mem_flags.READ_ONLY, cl.mem_object_type.IMAGE2D)
    assert cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT) in fmts


def test_sampler_kernels(ctx, queue):
    h, w = 6, 9
    a = rng.uniform(-5, 5, (h, w)).astype(np.float32)
    img = cl.image_from_array(ctx, a, num_channels=1)
    prg = cl.Program(ctx, SRC).build("-cl-std=CL3.0")
    s = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, a.nbytes)
    prg.shift(queue, (w, h), None, img, s, out, np.int32(w))
    got = np.empty_like(a)
    cl.enqueue_copy(queue, got, out)
    want = np.concatenate([a[:, :1], a[:, :-1]], axis=1)
    np.testing.assert_array_equal(got, want)

    lin = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
    c = np.array([[1.5, 2.5], [2.0, 2.5], [1.5, 3.0], [4.25, 1.75]], dtype=np.float32)
    cbuf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=c)
    out2 = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 4 * len(c))
    prg.bilinear(queue, (len(c),), None, img, lin, cbuf, out2)
    got2 = np.empty(len(c), np.float32)
    cl.enqueue_copy(queue, got2, out2)
    for (u, v), g in zip(c, got2):
        x, y = u - 0.5, v - 0.5
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        want = ((1 - fx) * (1 - fy) * a[y0, x0] + fx * (1 - fy) * a[y0, x0 + 1] +
                (1 - fx) * fy * a[y0 + 1, x0] + fx * fy * a[y0 + 1, x0 + 1])
        assert abs(g - want) < 1e-4, (u, v, g, want)


def test_image_write_and_copy(ctx, queue):
    h, w = 5, 7
    a = rng.uniform(-1, 1, (h, w, 4)).astype(np.float32)
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    src = cl.Image(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=a)
    dst = cl.Image(ctx, cl.mem_flags.WRITE_ONLY, fmt, shape=(w, h))
    prg = cl.Program(ctx, SRC).build("-cl-std=CL3.0")
    prg.scale(queue, (w, h), None, src, dst)
    got = np.empty_like(a)
    cl.enqueue_copy(queue, got, dst, origin=(0, 0), region=(w, h))
    np.testing.assert_array_equal(got, a * 2)
