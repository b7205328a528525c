// dct8x8: forward 2-D DCT-II (orthonormal) of every 8 x 8 block of an image
// (width and height multiples of 8, row-major floats):
//   Y = C X C^T,  C[k][n] = a(k) cos((2n + 1) k pi / 16),  a(0) = sqrt(1/8), a(k>0) = 1/2,
// with the 8 x 8 matrix C in constant memory (filled by the host).
//
// A CTA of 8 x 16 = 128 threads transforms a 64 x 16 pixel region (16
// blocks) in one shared-memory tile (16 rows of 64 floats, padded to 65 so
// that row and column passes spread over the banks): it loads the region,
// then every thread applies C to one 8-pixel row segment in place (128
// segments), then to one 8-pixel column segment in place (64 columns x 2
// block rows), and the CTA stores the tile. Regions past the image edge are
// simply not loaded or stored (blocks are whole).
#define RW 64
#define RH 16
#define PITCH (RW + 1)

__constant__ float dct_c[8][8];

extern "C" __global__ void dct8x8(const float* __restrict__ in, float* __restrict__ out,
                                  int width, int height) {
  __shared__ float tile[RH][PITCH];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;  // 0..127
  const int x0 = blockIdx.x * RW, y0 = blockIdx.y * RH;
  // Load: 1024 pixels, 8 per thread, rows of 64 read by consecutive threads.
  for (int i = t; i < RW * RH; i += 128) {
    const int r = i / RW, c = i % RW;
    tile[r][c] = (x0 + c < width && y0 + r < height) ? in[(y0 + r) * width + x0 + c] : 0.f;
  }
  __syncthreads();
  {  // Row pass: segment t = row t / 8, columns 8 (t % 8) .. + 7.
    float* p = &tile[t / 8][8 * (t % 8)];
    float x[8];
#pragma unroll
    for (int n = 0; n < 8; ++n) x[n] = p[n];
#pragma unroll 1  // keeps the 64 coefficients in constant memory, not registers
    for (int k = 0; k < 8; ++k) {
      float s = 0.f;
#pragma unroll
      for (int n = 0; n < 8; ++n) s += dct_c[k][n] * x[n];
      p[k] = s;
    }
  }
  __syncthreads();
  {  // Column pass: column t % 64, block row t / 64.
    const int c = t % RW, r0 = 8 * (t / RW);
    float x[8];
#pragma unroll
    for (int n = 0; n < 8; ++n) x[n] = tile[r0 + n][c];
#pragma unroll 1  // keeps the 64 coefficients in constant memory, not registers
    for (int k = 0; k < 8; ++k) {
      float s = 0.f;
#pragma unroll
      for (int n = 0; n < 8; ++n) s += dct_c[k][n] * x[n];
      tile[r0 + k][c] = s;
    }
  }
  __syncthreads();
  for (int i = t; i < RW * RH; i += 128) {
    const int r = i / RW, c = i % RW;
    if (x0 + c < width && y0 + r < height) out[(y0 + r) * width + x0 + c] = tile[r][c];
  }
}
