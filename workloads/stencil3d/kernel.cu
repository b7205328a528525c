// stencil3d: one Jacobi step of the 7-point 3-D stencil
//   out(x,y,z) = c0 * in(x,y,z) + c1 * (sum of the six face neighbours)
// on an nx x ny x nz grid (x fastest); boundary points are copied unchanged.
//
// A CTA of 32 x 16 = 512 threads owns a 32 x 16 column of the xy plane and
// marches it along z (register coarsening along z): every thread carries the
// values below, at and above the current plane in registers, together with
// its precomputed row offsets, halo coordinates and boundary masks, so each
// plane is read from global memory once. The current plane of the column plus
// a one-point halo is staged in shared memory for the x/y neighbours.
#define TX 32
#define TY 16

extern "C" __global__ void stencil3d(const float* __restrict__ in, float* __restrict__ out,
                                     int nx, int ny, int nz, float c0, float c1) {
  __shared__ float plane[TY + 2][TX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TX + tx, y = blockIdx.y * TY + ty;
  // Clamped coordinates for loads; only in-grid points are stored.
  const int cx = min(x, nx - 1), cy = min(y, ny - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, nx - 1);
  const int yn = max(y - 1, 0), ys = min(y + 1, ny - 1);
  const int slice = nx * ny;  // grids below 2^31 points: 32-bit offsets
  const int r = cy * nx + cx;
  const bool inside = x < nx && y < ny;
  const bool interior = inside && x > 0 && x < nx - 1 && y > 0 && y < ny - 1;

  float below = in[r];
  if (inside) out[r] = below;  // z = 0 boundary plane
  if (nz < 2) return;
  float cur = in[slice + r];

  for (int z = 1; z < nz - 1; ++z) {
    const int zo = z * slice;
    const float above = in[zo + slice + r];
    __syncthreads();  // the previous plane has been read
    plane[ty + 1][tx + 1] = cur;
    if (tx == 0) plane[ty + 1][0] = in[zo + cy * nx + xw];
    if (tx == TX - 1) plane[ty + 1][TX + 1] = in[zo + cy * nx + xe];
    if (ty == 0) plane[0][tx + 1] = in[zo + yn * nx + cx];
    if (ty == TY - 1) plane[TY + 1][tx + 1] = in[zo + ys * nx + cx];
    __syncthreads();
    if (inside)
      out[zo + r] = interior ? c0 * cur + c1 * (plane[ty + 1][tx] + plane[ty + 1][tx + 2] +
                                                plane[ty][tx + 1] + plane[ty + 2][tx + 1] +
                                                below + above)
                             : cur;
    below = cur;
    cur = above;
  }
  if (inside) out[(nz - 1) * slice + r] = cur;  // z = nz - 1 boundary plane
}
