// densemm: C = A B for row-major A (M x K), B (K x N), C (M x N), the plain
// formulation without shared memory: one thread per element of C (16 x 16
// threads per CTA) runs the K-long dot product of its row of A and column of
// B straight from global memory. All lanes run the same trip count (no
// divergence except at the matrix edges): lanes of a warp read one broadcast
// A word and 16 consecutive B words per k.
extern "C" __global__ void densemm(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  const float* a = A + (size_t)row * K;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += a[k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = acc;
}
