/* Kernels for the exec tests: each is transformed by weft-opt, compiled by clang, and run by
 * harness.c against a host reference (see run.sh). */
typedef struct { float a; int b; char c; double d; } S;
void helper(__local int *t, int lid) { t[lid] = lid * 2; barrier(CLK_LOCAL_MEM_FENCE); }
__kernel void uif(__global int *out, int flag) {
  __local int t[64];
  int lid = get_local_id(0);
  int v = lid + 1;
  t[lid] = v;
  if (flag > 0) { barrier(CLK_LOCAL_MEM_FENCE); v += t[(lid + 1) % get_local_size(0)]; }
  out[get_global_id(0)] = v;
}
__kernel void two(__global int *out) {
  __local int t[64];
  int lid = get_local_id(0), n = get_local_size(0);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int a = t[n - 1 - lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  t[lid] = a * 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(lid + 1) % n] + a;
}
__kernel void callee(__global int *out) {
  __local int t[64];
  int lid = get_local_id(0), n = get_local_size(0);
  helper(t, lid);
  out[get_global_id(0)] = t[n - 1 - lid];
}
__kernel void wiloop(__global int *out, __local int *t) {
  int lid = get_local_id(0), n = get_local_size(0);
  int s = 0;
  for (int i = 0; i < lid; i++) s += i;
  t[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  int u = 0;
  for (int i = 0; i <= lid % 5; i++) u += t[(lid + i) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = u;
}
__kernel void early(__global int *out, __global int *in) {
  __local int t[64];
  int lid = get_local_id(0), n = get_local_size(0);
  t[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid % 3 == 0) return;
  out[get_global_id(0)] = t[n - 1 - lid];
}
__kernel void meyer(__global int *acc, __local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = acc[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = 0; i < 2 + lid; i++) {
    scratch[lid] += i;
    if (i < 2) barrier(CLK_LOCAL_MEM_FENCE);
  }
  acc[get_global_id(0)] = scratch[lid];
}
__kernel void ids3(__global ulong *out, S s, float3 f3, char c, __local float *unused) {
  size_t i = get_global_linear_id();
  out[i*4+0] = get_global_id(0) + 1000*get_global_id(1) + 1000000*get_global_id(2);
  out[i*4+1] = get_local_linear_id() + 1000 * get_group_id(2) + 100000*get_work_dim();
  out[i*4+2] = (ulong)(s.a + s.b + s.c + s.d + f3.z + c);
  out[i*4+3] = get_num_groups(0) + 10*get_num_groups(1) + 100*get_num_groups(2) + 1000*get_global_offset(1) + 10000*get_local_size(1) + 100000 * get_global_size(2);
}
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < s) scratch[lid] += scratch[lid + s];
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
__kernel void tile(__global const float *in, __global float *out) {
  __local float t[16][17];
  int x = get_local_id(0), y = get_local_id(1);
  float priv[4];
  for (int i = 0; i < 4; i++) priv[i] = in[get_global_id(1)*get_global_size(0)+get_global_id(0)] * i;
  t[y][x] = in[get_global_id(1)*get_global_size(0)+get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1)*get_global_size(0)+get_global_id(0)] = t[x][y] + priv[x & 3];
}
/* a work-item-dependent loop right after a barrier (its PHIs' first values come through the
 * barrier's edge) and a value live across the next barrier */
__kernel void dep_after_barrier(__global int *out, __local int *t) {
  int lid = get_local_id(0);
  t[lid] = lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int acc = 0;
  for (int i = 0; i <= lid; i++) acc += t[i];
  int s = acc * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  t[lid] = s;
  out[get_global_id(0)] = s;
}
