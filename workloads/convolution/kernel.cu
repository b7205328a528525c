// convolution: separable 2-D convolution (correlation) of a W x H image with a
// (2R+1)-tap filter along rows, then along columns:
//   tmp(x, y) = sum_{k=-R..R} f[R + k] * img(x + k, y)
//   out(x, y) = sum_{k=-R..R} f[R + k] * tmp(x, y + k)
// with zero outside the image. The filter sits in constant memory.
//
// conv_rows: a CTA of 16 x 4 threads produces 4 rows x 128 pixels; each
// thread computes RSTEPS = 8 outputs spaced 16 apart. The CTA stages its rows'
// 128 pixels plus a 16-pixel apron on each side (R <= 16) in shared memory -
// 4 x 160 floats, each thread loading 10 - then reads its taps from there.
//
// conv_cols: a CTA of 16 x 8 threads produces 64 rows x 16 columns, each
// thread 8 outputs spaced 8 rows apart, from a shared tile of 16 columns x
// (64 + 2 x 8) rows; a column of the tile is padded to 81 floats so that the
// 16 threads of a row of the CTA hit different banks.
#define R 8
#define TAPS (2 * R + 1)
#define RB_X 16
#define RB_Y 4
#define RSTEPS 8
#define CB_X 16
#define CB_Y 8
#define CSTEPS 8

__constant__ float filt[TAPS];

extern "C" __global__ void conv_rows(const float* __restrict__ img, float* __restrict__ tmp,
                                     int width, int height) {
  __shared__ float s[RB_Y][(RSTEPS + 2) * RB_X];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int y = blockIdx.y * RB_Y + ty;
  const int x0 = blockIdx.x * RSTEPS * RB_X - RB_X + tx;  // first loaded column (apron)
  const int yc = min(y, height - 1);
#pragma unroll
  for (int i = 0; i < RSTEPS + 2; ++i) {
    const int x = x0 + i * RB_X;
    s[ty][tx + i * RB_X] = (x >= 0 && x < width && y < height) ? img[yc * width + x] : 0.f;
  }
  __syncthreads();
  if (y >= height) return;
#pragma unroll
  for (int i = 1; i <= RSTEPS; ++i) {
    const int x = x0 + i * RB_X;
    float acc = 0.f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += filt[R + k] * s[ty][tx + i * RB_X + k];
    if (x < width) tmp[y * width + x] = acc;
  }
}

extern "C" __global__ void conv_cols(const float* __restrict__ tmp, float* __restrict__ out,
                                     int width, int height) {
  __shared__ float s[CB_X][(CSTEPS + 2) * CB_Y + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * CB_X + tx;
  const int y0 = blockIdx.y * CSTEPS * CB_Y - CB_Y + ty;  // first loaded row (apron)
  const int xc = min(x, width - 1);
#pragma unroll
  for (int i = 0; i < CSTEPS + 2; ++i) {
    const int y = y0 + i * CB_Y;
    s[tx][ty + i * CB_Y] = (y >= 0 && y < height && x < width) ? tmp[y * width + xc] : 0.f;
  }
  __syncthreads();
  if (x >= width) return;
#pragma unroll
  for (int i = 1; i <= CSTEPS; ++i) {
    const int y = y0 + i * CB_Y;
    float acc = 0.f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += filt[R + k] * s[tx][ty + i * CB_Y + k];
    if (y < height) out[y * width + x] = acc;
  }
}
