// gaussian: forward elimination of Gaussian elimination without pivoting on
// an n x n system A x = b (row-major), one pivot step t per pair of launches.
//
// fan1 (one thread per row below the pivot, 512 threads per CTA): the
// multiplier of row i is m[i][t] = a[i][t] / a[t][t].
// fan2 (4 x 4 threads per CTA, one thread per element of the trailing block):
// a[i][j] -= m[i][t] * a[t][j] for i > t and j > t; the eliminated column
// a[i][t] becomes exactly 0, and the threads of column t (which zero it) update the
// right-hand side, b[i] -= m[i][t] * b[t].
// After steps t = 0 .. n - 2, a holds U (zeros below the diagonal), m the
// multipliers (unit lower factor L below the diagonal) and b the forward-
// substituted right-hand side L^-1 b.
extern "C" __global__ void gaussian_fan1(const float* __restrict__ a, float* __restrict__ m,
                                         int n, int t) {
  const int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  m[(size_t)i * n + t] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
}

extern "C" __global__ void gaussian_fan2(float* a, float* b, const float* __restrict__ m, int n,
                                         int t) {
  const int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;  // row below the pivot
  const int j = t + blockIdx.x * blockDim.x + threadIdx.x;      // column from the pivot's
  if (i >= n || j >= n) return;
  const float mult = m[(size_t)i * n + t];
  if (j == t) {
    a[(size_t)i * n + t] = 0.f;
    b[i] -= mult * b[t];
  } else {
    a[(size_t)i * n + j] -= mult * a[(size_t)t * n + j];
  }
}
