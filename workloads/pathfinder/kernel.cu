// pathfinder: minimum-cost paths down a grid of non-negative integer weights.
// Row 0's cost is its weight; below, cost[r][c] = w[r][c] + min(cost[r-1][c-1],
// cost[r-1][c], cost[r-1][c+1]) (neighbours outside the grid ignored). The
// result is the cost row after the last grid row.
//
// Pyramid blocking: one launch advances `steps` rows. A CTA of 128 threads
// loads 128 consecutive columns of the current cost row into shared memory
// and runs `steps` rows there; after each row the band of columns it can
// still compute correctly shrinks by one at each side (its edge columns lack
// their outside neighbour), so a CTA owns the 128 - 2 * steps columns in the
// middle of its band, and CTAs' bands overlap by 2 * steps columns.
#define PF_THREADS 128

extern "C" __global__ void pathfinder_rows(const int* __restrict__ wall,
                                           const int* __restrict__ src, int* __restrict__ dst,
                                           int cols, int first_row, int steps) {
  __shared__ int prev[PF_THREADS];
  __shared__ int next[PF_THREADS];
  const int t = threadIdx.x;
  const int owned = PF_THREADS - 2 * steps;
  const int band0 = blockIdx.x * owned - steps;  // grid column of shared slot 0
  const int c = band0 + t;
  const bool inside = c >= 0 && c < cols;
  if (inside) prev[t] = src[c];
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    // Slots t with s < t < 127 - s are still exact after this row.
    bool computed = false;
    if (t > s && t < PF_THREADS - 1 - s && inside) {
      int best = prev[t];
      if (c > 0) best = min(best, prev[t - 1]);
      if (c < cols - 1) best = min(best, prev[t + 1]);
      next[t] = wall[(size_t)(first_row + s) * cols + c] + best;
      computed = true;
    }
    __syncthreads();
    if (computed) prev[t] = next[t];
    __syncthreads();
  }
  if (t >= steps && t < PF_THREADS - steps && inside) dst[c] = prev[t];
}
