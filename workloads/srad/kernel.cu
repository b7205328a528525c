// srad: speckle-reducing anisotropic diffusion of an image J (rows x cols,
// row-major), one iteration = two kernels.
//
// srad_coeff: for every pixel the differences to its four neighbours (an
// edge pixel's missing neighbour is itself, so the difference is 0)
//   dN = J[i-1][j] - J,  dS = J[i+1][j] - J,  dW = J[i][j-1] - J,  dE = J[i][j+1] - J,
// the normalised gradient and Laplacian G2 = (dN^2+dS^2+dW^2+dE^2)/J^2,
// L = (dN+dS+dW+dE)/J, the instantaneous coefficient of variation
// q^2 = (G2/2 - L^2/16) / (1 + L/4)^2, and the diffusion coefficient
// c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to [0, 1], where q0^2
// (the speckle scale) comes from the host.
// srad_update: divergence D = c*dN + c_S*dS + c*dW + c_E*dE (c_S, c_E: the
// coefficients of the south and east neighbours, the pixel's own at the edge)
// and J += (lambda / 4) * D.
//
// Both use 16 x 16 CTAs and keep their tiles in shared memory: srad_coeff
// stages J with a one-pixel halo (18 x 18) and builds the four derivative
// tiles and the coefficient tile there before writing them out; srad_update
// stages the coefficient tile with its south/east halo (17 x 17) and the four
// derivative tiles.
#define T 16

extern "C" __global__ void srad_coeff(const float* __restrict__ J, float* __restrict__ dN,
                                      float* __restrict__ dS, float* __restrict__ dW,
                                      float* __restrict__ dE, float* __restrict__ C, int rows,
                                      int cols, float q0sqr) {
  __shared__ float j_s[T + 2][T + 2];
  __shared__ float n_s[T][T], s_s[T][T], w_s[T][T], e_s[T][T], c_s[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  const int ci = min(i, rows - 1), cj = min(j, cols - 1);
  // Halo entries outside the image repeat the edge pixel: difference 0.
  j_s[ty + 1][tx + 1] = J[ci * cols + cj];
  if (ty == 0) j_s[0][tx + 1] = J[max(ci - 1, 0) * cols + cj];
  if (ty == T - 1 || i == rows - 1) j_s[ty + 2][tx + 1] = J[min(ci + 1, rows - 1) * cols + cj];
  if (tx == 0) j_s[ty + 1][0] = J[ci * cols + max(cj - 1, 0)];
  if (tx == T - 1 || j == cols - 1) j_s[ty + 1][tx + 2] = J[ci * cols + min(cj + 1, cols - 1)];
  __syncthreads();
  const float jc = j_s[ty + 1][tx + 1];
  const float n = (i > 0 ? j_s[ty][tx + 1] : jc) - jc;
  const float s = (i < rows - 1 ? j_s[ty + 2][tx + 1] : jc) - jc;
  const float w = (j > 0 ? j_s[ty + 1][tx] : jc) - jc;
  const float e = (j < cols - 1 ? j_s[ty + 1][tx + 2] : jc) - jc;
  n_s[ty][tx] = n, s_s[ty][tx] = s, w_s[ty][tx] = w, e_s[ty][tx] = e;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.f + 0.25f * l;
  const float qsqr = num / (den * den);
  const float c = 1.f / (1.f + (qsqr - q0sqr) / (q0sqr * (1.f + q0sqr)));
  c_s[ty][tx] = fminf(fmaxf(c, 0.f), 1.f);
  __syncthreads();
  if (i < rows && j < cols) {
    const int o = i * cols + j;
    dN[o] = n_s[ty][tx], dS[o] = s_s[ty][tx], dW[o] = w_s[ty][tx], dE[o] = e_s[ty][tx];
    C[o] = c_s[ty][tx];
  }
}

extern "C" __global__ void srad_update(float* __restrict__ J, const float* __restrict__ dN,
                                       const float* __restrict__ dS, const float* __restrict__ dW,
                                       const float* __restrict__ dE, const float* __restrict__ C,
                                       int rows, int cols, float lambda) {
  __shared__ float c_s[T + 1][T + 1];
  __shared__ float n_s[T][T], s_s[T][T], w_s[T][T], e_s[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  const int ci = min(i, rows - 1), cj = min(j, cols - 1);
  const int o = ci * cols + cj;
  c_s[ty][tx] = C[o];
  if (ty == T - 1) c_s[T][tx] = C[min(ci + 1, rows - 1) * cols + cj];
  if (tx == T - 1) c_s[ty][T] = C[ci * cols + min(cj + 1, cols - 1)];
  n_s[ty][tx] = dN[o], s_s[ty][tx] = dS[o], w_s[ty][tx] = dW[o], e_s[ty][tx] = dE[o];
  __syncthreads();
  if (i < rows && j < cols) {
    const float c = c_s[ty][tx];
    const float c_south = i < rows - 1 ? c_s[ty + 1][tx] : c;
    const float c_east = j < cols - 1 ? c_s[ty][tx + 1] : c;
    const float d = c * n_s[ty][tx] + c_south * s_s[ty][tx] + c * w_s[ty][tx] + c_east * e_s[ty][tx];
    J[o] = J[o] + 0.25f * lambda * d;
  }
}
