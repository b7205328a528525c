// reduction: sum of n floats in two launches of the same kernel.
//
// Launch 1 (grid of G CTAs) writes one partial sum per CTA; launch 2 (one CTA)
// sums the G partials into the result. Inside a launch:
//   1. each thread adds up its elements in a grid-stride loop (sequentially,
//      in registers), so any n works with any grid;
//   2. each 32-thread warp folds its 32 sums with __shfl_down_sync (offsets
//      16, 8, 4, 2, 1); lane 0 holds the warp's sum;
//   3. lane 0 of every warp stores it to shared memory; after a barrier the
//      first warp loads those (zero past the number of warps) and folds them
//      the same way; thread 0 writes the CTA's sum to out[blockIdx.x].
// The code assumes CUDA's 32-thread warps (shuffle offsets, lane = tid % 32)
// and a CTA of at most 1024 threads (at most 32 warp sums).
#define WARP 32

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = WARP / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out,
                                      unsigned n) {
  __shared__ float warp_sums[WARP];

  float v = 0.f;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) v += in[i];

  const unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    const unsigned warps = (blockDim.x + WARP - 1) / WARP;
    v = lane < warps ? warp_sums[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
