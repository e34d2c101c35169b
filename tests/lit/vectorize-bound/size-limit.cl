// A vectorized work function past the size bound (wgfunction.c, vectorized_size_limit) is
// dropped for the scalar work-item loops, and the vectorizer's report says why: 256 rounds of a
// hash, each with a divergent branch, make some 4,000 instructions that the vectorizer's three
// copies (a full packet unmasked, its linear fallback, the tail packet of 17 - 16) grow past
// 12,000 (LLVM's backend took half a minute on them). 16 rounds stay vectorized.
// RUN: %ocl_ir %s -o %t.ll
// RUN: weft-opt -pass=wg-loops -local-size=17 -vectorize=16 %t.ll | FileCheck %s

// CHECK-DAG: ; weft-vec: big subcfg 0: scalar (vectorization skipped: work-group function too large ({{[0-9]+}} instructions > limit 12000; the kernel has {{[0-9]+}}))
// CHECK-DAG: ; weft-vec: small subcfg 0: width 16 interleave 1 linearized tail
// CHECK-LABEL: define internal void @weft_wi_big(
// CHECK-NOT:   <16 x
// CHECK-LABEL: define internal void @weft_wi_small(
// CHECK:         <16 x i32>

#define R(i) v = (v ^ (v >> 3)) * 0x9E3779B1u + (uint)(i); \
  if (v & 0x100u) acc += in[(v >> 7) & 63u]; else acc -= v;
#define R4(i) R(i) R(i + 1) R(i + 2) R(i + 3)
#define R16(i) R4(i) R4(i + 4) R4(i + 8) R4(i + 12)
#define R64(i) R16(i) R16(i + 16) R16(i + 32) R16(i + 48)

kernel void big(global const uint *in, global uint *out) {
  uint x = get_global_id(0), v = x, acc = 0;
  R64(0) R64(64) R64(128) R64(192)
  out[x] = acc ^ v;
}

kernel void small(global const uint *in, global uint *out) {
  uint x = get_global_id(0), v = x, acc = 0;
  R16(0)
  out[x] = acc ^ v;
}
