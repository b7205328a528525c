// nw: Needleman-Wunsch global alignment scores, blocked along anti-diagonals.
//
// score is an (n+1) x (n+1) row-major matrix (n a multiple of 16): row 0 and
// column 0 hold the gap penalties of the empty prefixes, and for i, j >= 1
//   score[i][j] = max(score[i-1][j-1] + sub[i][j],
//                     score[i-1][j] - penalty, score[i][j-1] - penalty)
// where sub[i][j] (same layout) is the substitution score of the two
// sequences' letters i and j, precomputed by the host.
//
// The inner n x n cells form (n/16)^2 blocks of 16 x 16. Blocks on one
// anti-diagonal of blocks are independent; the host launches nw_upper for the
// diagonals d = 0..nb-1 that start in block row 0 and nw_lower for those that
// end in block column nb-1, one CTA of 16 threads per block. A CTA stages the
// block's substitution scores (16 x 16) and its scores with the row above and
// the column to the left (17 x 17) in shared memory, sweeps the block's 31
// cell anti-diagonals (thread t handles the cell of row t on each), and
// writes the 16 x 16 scores back.
#define B 16

__device__ void nw_block(int* score, const int* sub, int n, int penalty, int brow, int bcol) {
  __shared__ int s[B + 1][B + 1];
  __shared__ int ref[B][B];
  const int t = threadIdx.x;
  const int stride = n + 1;
  const int r0 = brow * B, c0 = bcol * B;  // score index of the block's corner (row/col above/left)
  for (int i = 0; i < B; ++i) ref[i][t] = sub[(r0 + 1 + i) * stride + c0 + 1 + t];
  if (t == 0) s[0][0] = score[r0 * stride + c0];
  s[0][t + 1] = score[r0 * stride + c0 + 1 + t];
  s[t + 1][0] = score[(r0 + 1 + t) * stride + c0];
  __syncthreads();
  // Cell anti-diagonals m = 0..2B-2; thread t takes row t + 1, column m - t + 1.
  for (int m = 0; m < 2 * B - 1; ++m) {
    const int col = m - t;
    if (col >= 0 && col < B) {
      const int i = t + 1, j = col + 1;
      const int diag = s[i - 1][j - 1] + ref[i - 1][j - 1];
      const int up = s[i - 1][j] - penalty, left = s[i][j - 1] - penalty;
      s[i][j] = max(diag, max(up, left));
    }
    __syncthreads();
  }
  for (int i = 0; i < B; ++i) score[(r0 + 1 + i) * stride + c0 + 1 + t] = s[i + 1][t + 1];
}

// Diagonal d of the upper-left triangle: blocks (b, d - b), b = 0..d.
extern "C" __global__ void nw_upper(int* __restrict__ score, const int* __restrict__ sub, int n,
                                    int penalty, int d) {
  nw_block(score, sub, n, penalty, blockIdx.x, d - blockIdx.x);
}

// Diagonal d of the lower-right triangle (d = 1..nb-1): blocks
// (d + b, nb - 1 - b), b = 0..nb-1-d.
extern "C" __global__ void nw_lower(int* __restrict__ score, const int* __restrict__ sub, int n,
                                    int penalty, int d) {
  const int nb = n / B;
  nw_block(score, sub, n, penalty, d + blockIdx.x, nb - 1 - blockIdx.x);
}
