// histogram256: 256-bin histogram of a byte array in two kernels.
//
// hist256_partial: a CTA of 192 threads (6 warps) keeps one 256-bin
// sub-histogram per warp in shared memory (6 KB) so that only the 32 threads
// of a warp compete for a sub-histogram's counters. Threads read the input as
// 32-bit words in a grid-stride loop and count each of the four bytes with a
// shared-memory atomicAdd on their warp's sub-histogram; CTA 0 also counts the
// n % 4 tail bytes. After a barrier the CTA sums the six sub-histograms bin by
// bin and writes its 256 counts to partial[blockIdx.x][*] (no global atomics).
//
// hist256_merge: one CTA of 256 threads per bin adds that bin over all
// partial histograms (strided loads, then a shared-memory tree).
#define BINS 256
#define WARPS 6
#define THREADS (WARPS * 32)

extern "C" __global__ void hist256_partial(const unsigned* __restrict__ words,
                                           const unsigned char* __restrict__ bytes, int n,
                                           unsigned* __restrict__ partial) {
  __shared__ unsigned sub[WARPS][BINS];
  const int t = threadIdx.x;
  for (int i = t; i < WARPS * BINS; i += THREADS) (&sub[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = sub[t / 32];
  const int nwords = n / 4;
  for (int w = blockIdx.x * THREADS + t; w < nwords; w += gridDim.x * THREADS) {
    const unsigned v = words[w];
    atomicAdd(&mine[v & 0xffu], 1u);
    atomicAdd(&mine[(v >> 8) & 0xffu], 1u);
    atomicAdd(&mine[(v >> 16) & 0xffu], 1u);
    atomicAdd(&mine[v >> 24], 1u);
  }
  if (blockIdx.x == 0 && t < n % 4) atomicAdd(&mine[bytes[nwords * 4 + t]], 1u);
  __syncthreads();
  for (int b = t; b < BINS; b += THREADS) {
    unsigned sum = 0;
#pragma unroll
    for (int k = 0; k < WARPS; ++k) sum += sub[k][b];
    partial[blockIdx.x * BINS + b] = sum;
  }
}

extern "C" __global__ void hist256_merge(const unsigned* __restrict__ partial, int num_partials,
                                         unsigned* __restrict__ bins) {
  __shared__ unsigned acc[256];
  const int t = threadIdx.x, bin = blockIdx.x;
  unsigned sum = 0;
  for (int p = t; p < num_partials; p += 256) sum += partial[p * BINS + bin];
  acc[t] = sum;
  __syncthreads();
  for (int half = 128; half > 0; half /= 2) {
    if (t < half) acc[t] += acc[t + half];
    __syncthreads();
  }
  if (t == 0) bins[bin] = acc[0];
}
