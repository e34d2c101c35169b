/* Application kernels: StreamCluster's pgain distance loop, n-body, k-means assignment. */

/* StreamCluster pgain (Kim, Fig 2.3): one work-item per point; coordinates are stored
 * dimension-major (coord[d * num + i]) so that neighbouring work-items read neighbouring
 * words. Computes the weighted distance to candidate center x and the gain of switching. */
kernel void pgain(global const float *coord, global const float *weight,
                  global const float *cost, global float *gain, global int *switch_membership,
                  int num, int dim, int x)
{
    int i = get_global_id(0);
    if (i >= num)
        return;
    float d = 0.0f;
    for (int k = 0; k < dim; k++) {
        float t = coord[k * num + i] - coord[k * num + x];
        d += t * t;
    }
    float x_cost = d * weight[i];
    float current = cost[i];
    if (x_cost < current) {
        switch_membership[i] = 1;
        gain[i] = x_cost - current;
    } else {
        switch_membership[i] = 0;
        gain[i] = 0.0f;
    }
}

/* All-pairs n-body acceleration with tiles of bodies in local memory (one body per work-item;
 * position w is the mass). */
kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps2,
                  local float4 *tile)
{
    int i = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f);
    for (int base = 0; base < n; base += ls) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < ls; j++) {
            float4 q = tile[j];
            float3 r = q.xyz - p.xyz;
            float d2 = dot(r, r) + eps2;
            float inv = rsqrt(d2);
            float s = q.w * inv * inv * inv;
            a += r * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = (float4)(a, 0.0f);
}

/* k-means assignment (Rodinia's layout: features stored feature-major): one work-item per
 * point finds the nearest cluster; writes the membership and the distance to it. */
kernel void kmeans_assign(global const float *feature, global const float *clusters,
                          global int *membership, global float *best_dist, int npoints,
                          int nclusters, int nfeatures)
{
    int i = get_global_id(0);
    if (i >= npoints)
        return;
    int index = 0;
    float min_dist = FLT_MAX;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float d = feature[f * npoints + i] - clusters[c * nfeatures + f];
            dist += d * d;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = c;
        }
    }
    membership[i] = index;
    best_dist[i] = min_dist;
}
