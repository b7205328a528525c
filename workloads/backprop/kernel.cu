// backprop: the two GPU kernels of one training step of a 2-layer perceptron
// (input layer of n_in units plus a bias unit 0, hidden layer of HID = 16
// units). Weights are (n_in + 1) x (HID + 1) row-major: w[i][j] connects input
// unit i to hidden unit j (column 0 unused, row 0 = bias).
//
// bp_layerforward: a CTA of 16 x 16 threads takes 16 input units (rows) and
// all 16 hidden units (columns): thread (tx, ty) forms w[i][j] * x[i] for
// i = blockIdx.x * 16 + ty + 1 and j = tx + 1 in a shared 16 x 16 product
// matrix (the CTA's 16 inputs are staged in shared memory first), then the
// CTA sums the matrix down its columns by a 4-level tree and writes one
// partial sum per hidden unit. The host adds the partials and the bias and
// applies the sigmoid (as well as the output layer and the error terms).
//
// bp_adjust_weights: w[i][j] += eta * delta[j] * x[i] + momentum * dw_old[i][j],
// remembering the applied change in dw_old. A CTA of 16 x 16 threads covers
// 64 rows: thread (tx, ty) updates column j = tx + 1 of rows
// blockIdx.x * 64 + ty + 16 r, r = 0..3, loading all four rows' x, w and
// dw_old into registers before computing (register blocking).
#define HID 16
#define WCOLS (HID + 1)
#define ADJ_ROWS 4  // rows per thread in bp_adjust_weights
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bp_layerforward(const float* __restrict__ input,
                                           const float* __restrict__ w,
                                           float* __restrict__ partial, int n_in) {
  __shared__ float x_s[HID];
  __shared__ float prod[HID][HID];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * HID + ty + 1;
  if (tx == 0) x_s[ty] = i <= n_in ? input[i] : 0.f;
  __syncthreads();
  prod[ty][tx] = i <= n_in ? w[i * WCOLS + tx + 1] * x_s[ty] : 0.f;
  __syncthreads();
  for (int half = HID / 2; half > 0; half /= 2) {
    if (ty < half) prod[ty][tx] += prod[ty + half][tx];
    __syncthreads();
  }
  if (ty == 0) partial[blockIdx.x * HID + tx] = prod[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float* __restrict__ delta,
                                             const float* __restrict__ input, int n_in,
                                             float* __restrict__ w, float* __restrict__ dw_old) {
  const int j = threadIdx.x + 1;
  const int i0 = blockIdx.x * (ADJ_ROWS * HID) + threadIdx.y;
  const float step = ETA * delta[j];
  float x[ADJ_ROWS], wv[ADJ_ROWS], ov[ADJ_ROWS];
#pragma unroll
  for (int r = 0; r < ADJ_ROWS; ++r) {
    const int i = i0 + r * HID;
    const bool ok = i <= n_in;
    x[r] = ok ? input[i] : 0.f;
    wv[r] = ok ? w[i * WCOLS + j] : 0.f;
    ov[r] = ok ? dw_old[i * WCOLS + j] : 0.f;
  }
#pragma unroll
  for (int r = 0; r < ADJ_ROWS; ++r) {
    const int i = i0 + r * HID;
    if (i <= n_in) {
      const float dw = step * x[r] + MOMENTUM * ov[r];
      w[i * WCOLS + j] = wv[r] + dw;
      dw_old[i * WCOLS + j] = dw;
    }
  }
}
