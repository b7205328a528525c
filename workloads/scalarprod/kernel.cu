// scalarprod: dot products of npairs pairs of vectors of n floats each
// (pair p: a[p * n ..), b[p * n ..)). CTA c handles pairs c, c + gridDim.x, ...;
// for each, its 128 threads accumulate strided elements (thread t takes
// t, t + 128, ...: coalesced), store their sums in shared memory and fold them
// with a tree (strides 64 .. 1, one barrier per level); thread 0 writes the
// result.
#define SP_THREADS 128

extern "C" __global__ void scalar_prod(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ result, int npairs, int n) {
  __shared__ float partial[SP_THREADS];
  const int t = threadIdx.x;
  for (int p = blockIdx.x; p < npairs; p += gridDim.x) {
    const float* pa = a + (size_t)p * n;
    const float* pb = b + (size_t)p * n;
    float sum = 0.f;
#pragma unroll 1  // one element per iteration (keeps the register demand low)
    for (int i = t; i < n; i += SP_THREADS) sum += pa[i] * pb[i];
    partial[t] = sum;
    for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      if (t < stride) partial[t] += partial[t + stride];
    }
    if (t == 0) result[p] = partial[0];
    __syncthreads();  // partial[0] is read before the next pair overwrites it
  }
}
