// sgemm_nt: C = alpha * A * B^T + beta * C with column-major storage
// (A is M x K with leading dimension M, B is N x K with leading dimension N,
// C is M x N with leading dimension M), the "NT" case of BLAS sgemm.
//
// A CTA of 128 threads computes a 128 x 16 tile of C. Thread t owns row
// blockIdx.x * 128 + t and the tile's 16 columns: a strip of 16 accumulators
// held in registers for the whole K loop (register blocking along N). K is
// walked in steps of 8. Each step the CTA stages the 16 x 8 slab of B (one
// element per thread) in shared memory; every thread then reads its own
// A(row, k) values straight from global memory (consecutive threads read
// consecutive rows: coalesced) and performs 8 x 16 FMAs, each B value being a
// shared-memory broadcast. The 16 accumulators, the B values of a k (the
// compiler loads them four at a time) and the addressing give the kernel its
// register demand.
#define ROWS 128  // threads per CTA = C rows per CTA
#define COLS 16   // C columns per CTA (accumulators per thread)
#define KSTEP 8   // K elements per step (ROWS = COLS * KSTEP: one B load per thread)

extern "C" __global__ void sgemm_nt(const float* __restrict__ A, const float* __restrict__ B,
                                    float* __restrict__ C, int M, int N, int K, float alpha,
                                    float beta) {
  __shared__ float Bs[KSTEP][COLS];

  const int t = threadIdx.x;
  const int row = blockIdx.x * ROWS + t;
  // Rows past M read row M-1 (valid memory) and are never stored.
  const float* a_col = A + (row < M ? row : M - 1);
  const int col0 = blockIdx.y * COLS;
  // Which element of the B slab this thread stages.
  const int bj = t % COLS, bk = t / COLS;

  float acc[COLS];
#pragma unroll
  for (int j = 0; j < COLS; ++j) acc[j] = 0.f;

  for (int k0 = 0; k0 < K; k0 += KSTEP) {
    const int kb = k0 + bk, jb = col0 + bj;
    Bs[bk][bj] = (kb < K && jb < N) ? B[(size_t)kb * N + jb] : 0.f;
    const float* ap = a_col + (size_t)k0 * M;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < KSTEP; ++kk) {
      const float a = (k0 + kk < K) ? *ap : 0.f;
      ap += M;
#pragma unroll
      for (int j = 0; j < COLS; ++j) acc[j] += a * Bs[kk][j];
    }
    __syncthreads();  // the slab is overwritten by the next step
  }

  if (row < M) {
#pragma unroll
    for (int j = 0; j < COLS; ++j) {
      const int col = col0 + j;
      if (col < N) {
        float* c = &C[(size_t)col * M + row];
        *c = alpha * acc[j] + beta * *c;
      }
    }
  }
}
