// sgemm: C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N).
//
// Each CTA of 16 x 16 threads computes a 32 x 32 tile of C; each thread owns a
// 2 x 2 block of it (rows ty and ty + 16, columns tx and tx + 16), keeping four
// accumulators in registers. The K dimension is walked in steps of 16: the CTA
// stages a 32 x 16 slab of A and a 16 x 32 slab of B in shared memory (one
// element of each per thread per half), synchronises, and every thread reads
// its two A values and two B values per k from shared memory. Slab elements
// outside the matrices are stored as zero, so M, N and K need not be multiples
// of the tile sizes.
#define TILE 16   // threads per CTA side and K step
#define BLOCK 32  // C tile side computed by one CTA (2 x TILE)

extern "C" __global__ void sgemm(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int M, int N, int K, float alpha,
                                 float beta) {
  __shared__ float As[BLOCK][TILE];  // rows of the C tile x k within the step
  __shared__ float Bs[TILE][BLOCK];  // k within the step x columns of the C tile

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BLOCK + ty;  // first of this thread's two rows
  const int col0 = blockIdx.x * BLOCK + tx;  // first of this thread's two columns

  float acc00 = 0.f, acc01 = 0.f, acc10 = 0.f, acc11 = 0.f;

  for (int k0 = 0; k0 < K; k0 += TILE) {
    // Stage A[row0 + 16*h][k0 + tx] and B[k0 + ty][col0 + 16*h] for h = 0, 1.
    for (int h = 0; h < 2; ++h) {
      const int ar = row0 + h * TILE, ak = k0 + tx;
      As[ty + h * TILE][tx] = (ar < M && ak < K) ? A[(size_t)ar * K + ak] : 0.f;
      const int bk = k0 + ty, bc = col0 + h * TILE;
      Bs[ty][tx + h * TILE] = (bk < K && bc < N) ? B[(size_t)bk * N + bc] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      const float a0 = As[ty][k], a1 = As[ty + TILE][k];
      const float b0 = Bs[k][tx], b1 = Bs[k][tx + TILE];
      acc00 += a0 * b0;
      acc01 += a0 * b1;
      acc10 += a1 * b0;
      acc11 += a1 * b1;
    }
    __syncthreads();  // the slabs are overwritten by the next step
  }

  const int row1 = row0 + TILE, col1 = col0 + TILE;
  if (row0 < M && col0 < N) C[(size_t)row0 * N + col0] = alpha * acc00 + beta * C[(size_t)row0 * N + col0];
  if (row0 < M && col1 < N) C[(size_t)row0 * N + col1] = alpha * acc01 + beta * C[(size_t)row0 * N + col1];
  if (row1 < M && col0 < N) C[(size_t)row1 * N + col0] = alpha * acc10 + beta * C[(size_t)row1 * N + col0];
  if (row1 < M && col1 < N) C[(size_t)row1 * N + col1] = alpha * acc11 + beta * C[(size_t)row1 * N + col1];
}
