// `weft explain` on work-items that compute on vectors as wide as a SIMD register (hashcat's
// kernels built with VECT_SIZE=16: a uint16 of candidates per work-item): the vectorized code
// runs first and the scalar work-item loops are profiled against it, since side by side each
// component takes a register of its own. A float4 kernel fills no register of an AVX2 or AVX-512
// target and is not profiled. Before vectorizing, the float4 kernel's arithmetic is split into
// components (compiler/scalarize.h); the uint16 kernel's is kept whole.
// RUN: env WEFT_SCHEDULE=auto %weft explain %s --kernel rounds16 --local 64 | FileCheck %s --check-prefix=WIDE
// RUN: env WEFT_SCHEDULE=auto %weft explain %s --kernel scale4 --local 64 | FileCheck %s --check-prefix=NARROW

// WIDE:      runs first: dfo{{$}}
// WIDE-NEXT: profiled against it: dfo.scalar (the work-items' own vectors fill a SIMD register: side by side, each component takes a register; WEFT_PROFILE)

// WIDE:      Weft's vectorizer
// WIDE-NEXT:   a work-item's vector arithmetic kept whole: its vectors are as wide as a SIMD register

// NARROW:      runs first: dfo{{$}}
// NARROW-NEXT: profiled against it: none: no loop votes breadth-first, no code runs under lane masks and no work-item's own vector fills a register
// NARROW:      Weft's vectorizer
// NARROW-NEXT:   a work-item's vector arithmetic split into components first

#define ROTL(x, n) rotate((x), (uint16)(n))

kernel void rounds16(global const uint16 *in, global uint16 *out)
{
    size_t g = get_global_id(0);
    uint16 a = in[4 * g], b = in[4 * g + 1], c = in[4 * g + 2], d = in[4 * g + 3];
    for (int r = 0; r < 4; r++) {
        a = ROTL(a + ((b & c) | (~b & d)) + 0x5a827999u, 5);
        d = ROTL(d + (a ^ b ^ c) + 0x6ed9eba1u, 7);
        c = ROTL(c + ((d & a) | (d & b) | (a & b)) + 0x8f1bbcdcu, 11);
        b = ROTL(b + (c ^ d ^ a) + 0xca62c1d6u, 13);
    }
    out[g] = a ^ b ^ c ^ d;
}

kernel void scale4(global const float4 *in, global float4 *out, float s)
{
    size_t g = get_global_id(0);
    out[g] = in[g] * s;
}
