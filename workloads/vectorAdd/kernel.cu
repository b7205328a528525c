// vectorAdd: c[i] = a[i] + b[i] for i < n, one element per thread.
// The n bound is checked because the grid is rounded up to whole CTAs.
extern "C" __global__ void vectorAdd(const float* __restrict__ a, const float* __restrict__ b,
                                     float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
