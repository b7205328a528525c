// kmeans: the assignment step of k-means clustering. One thread per point;
// the thread walks every centroid and, for each, every feature of its own
// point, accumulating the squared Euclidean distance, and records the nearest
// centroid (the first one on ties). Features are stored point-major
// (features[p * nfeatures + f]): a thread streams through its own point's
// cache lines while neighbouring threads touch lines nfeatures * 4 bytes
// apart, so the reuse is within a thread (intra-warp locality) and is lost
// when too many warps share the L1. Centroids live in global memory.
extern "C" __global__ void kmeans_assign(const float* __restrict__ features,
                                         const float* __restrict__ centroids,
                                         int* __restrict__ membership, int npoints,
                                         int nfeatures, int nclusters) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  const float* point = features + (size_t)p * nfeatures;
  int best = 0;
  float best_dist = 3.402823466e38f;
  for (int c = 0; c < nclusters; ++c) {
    const float* centre = centroids + (size_t)c * nfeatures;
    float dist = 0.f;
#pragma unroll 1  // one feature per iteration (keeps the register demand low)
    for (int f = 0; f < nfeatures; ++f) {
      const float d = point[f] - centre[f];
      dist += d * d;
    }
    if (dist < best_dist) {
      best_dist = dist;
      best = c;
    }
  }
  membership[p] = best;
}
