// spmv_vector: y = A x with A in CSR, vector formulation: one 32-thread warp
// per row. Lane l of the warp multiplies the entries l, l + 32, l + 64, ... of
// its row (consecutive lanes read consecutive cols/vals: coalesced streams,
// irregular x gathers), then the warp folds its 32 partial sums with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1) and lane 0 stores y[row].
// Uses CUDA's 32-lane warps (lane = thread index % 32).
extern "C" __global__ void spmv_csr_vector(const int* __restrict__ row_offsets,
                                           const int* __restrict__ col_indices,
                                           const float* __restrict__ values,
                                           const float* __restrict__ x, float* __restrict__ y,
                                           int rows) {
  const int lane = threadIdx.x & 31;
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;  // one warp per row
  if (row >= rows) return;  // whole warps leave together
  const int begin = row_offsets[row], end = row_offsets[row + 1];
  float sum = 0.f;
  for (int e = begin + lane; e < end; e += 32) sum += values[e] * x[col_indices[e]];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}
