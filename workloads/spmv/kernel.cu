// spmv: y = A * x for a sparse matrix A in CSR form ("scalar" kernel).
//
// One thread per row: thread r walks A's row r (entries row_offsets[r] ..
// row_offsets[r + 1] - 1), multiplying each value by the x element its column
// index selects, and accumulates sequentially in a register. Rows have
// different lengths, so the lanes of a warp leave the loop at different
// iterations; the x gathers are irregular.
extern "C" __global__ void spmv_csr_scalar(const int* __restrict__ row_offsets,
                                           const int* __restrict__ col_indices,
                                           const float* __restrict__ values,
                                           const float* __restrict__ x, float* __restrict__ y,
                                           int num_rows) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= num_rows) return;
  float sum = 0.f;
  const int end = row_offsets[r + 1];
  for (int e = row_offsets[r]; e < end; ++e) sum += values[e] * x[col_indices[e]];
  y[r] = sum;
}
