// stencil3d: one Jacobi step of the 7-point 3-D stencil
//   out(x,y,z) = c0 * in(x,y,z) + c1 * (sum of the six face neighbours)
// on an nx x ny x nz grid (x fastest); boundary points are copied unchanged.
//
// A CTA of 32 x 16 = 512 threads owns a 64 x 16 column of the xy plane and
// marches it along z (register coarsening along z): every thread carries the
// values below, at and above the current plane for its two points (x and
// x + 32: coalesced rows) in registers, so each plane is read from global
// memory once. The current plane of the column plus a one-point halo is
// staged in shared memory for the x/y neighbours.
#define TX 32
#define TY 16
#define CX 2  // points per thread along x
#define W (TX * CX)

extern "C" __global__ void stencil3d(const float* __restrict__ in, float* __restrict__ out,
                                     int nx, int ny, int nz, float c0, float c1) {
  __shared__ float plane[TY + 2][W + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int xa = blockIdx.x * W + tx, xb = xa + TX;
  const int y = blockIdx.y * TY + ty;
  // Clamped coordinates for loads; only in-grid points are stored.
  const int cxa = min(xa, nx - 1), cxb = min(xb, nx - 1), cy = min(y, ny - 1);
  const int xw = max(blockIdx.x * W - 1, 0), xe = min(blockIdx.x * W + W, nx - 1);
  const int yn = max(blockIdx.y * TY - 1, 0), ys = min(blockIdx.y * TY + TY, ny - 1);
  const size_t slice = (size_t)nx * ny;
  const size_t ra = (size_t)cy * nx + cxa, rb = (size_t)cy * nx + cxb;
  const bool in_a = xa < nx && y < ny, in_b = xb < nx && y < ny;
  // Interior in x/y (z is handled by the loop bounds).
  const bool int_y = y > 0 && y < ny - 1;
  const bool int_a = in_a && int_y && xa > 0 && xa < nx - 1;
  const bool int_b = in_b && int_y && xb > 0 && xb < nx - 1;

  float below_a = in[ra], below_b = in[rb];
  if (in_a) out[ra] = below_a;  // z = 0 boundary plane
  if (in_b) out[rb] = below_b;
  if (nz < 2) return;
  float cur_a = in[slice + ra], cur_b = in[slice + rb];

  for (int z = 1; z < nz - 1; ++z) {
    const size_t zo = (size_t)z * slice;
    const float above_a = in[zo + slice + ra], above_b = in[zo + slice + rb];
    __syncthreads();  // the previous plane has been read
    plane[ty + 1][tx + 1] = cur_a;
    plane[ty + 1][tx + 1 + TX] = cur_b;
    if (tx == 0) plane[ty + 1][0] = in[zo + (size_t)cy * nx + xw];
    if (tx == TX - 1) plane[ty + 1][W + 1] = in[zo + (size_t)cy * nx + xe];
    if (ty == 0) {
      plane[0][tx + 1] = in[zo + (size_t)yn * nx + cxa];
      plane[0][tx + 1 + TX] = in[zo + (size_t)yn * nx + cxb];
    }
    if (ty == TY - 1) {
      plane[TY + 1][tx + 1] = in[zo + (size_t)ys * nx + cxa];
      plane[TY + 1][tx + 1 + TX] = in[zo + (size_t)ys * nx + cxb];
    }
    __syncthreads();
    if (in_a)
      out[zo + ra] = int_a ? c0 * cur_a + c1 * (plane[ty + 1][tx] + plane[ty + 1][tx + 2] +
                                                plane[ty][tx + 1] + plane[ty + 2][tx + 1] +
                                                below_a + above_a)
                           : cur_a;
    if (in_b)
      out[zo + rb] = int_b ? c0 * cur_b + c1 * (plane[ty + 1][tx + TX] + plane[ty + 1][tx + TX + 2] +
                                                plane[ty][tx + 1 + TX] + plane[ty + 2][tx + 1 + TX] +
                                                below_b + above_b)
                           : cur_b;
    below_a = cur_a, below_b = cur_b;
    cur_a = above_a, cur_b = above_b;
  }
  const size_t top = (size_t)(nz - 1) * slice;  // z = nz - 1 boundary plane
  if (in_a) out[top + ra] = cur_a;
  if (in_b) out[top + rb] = cur_b;
}
