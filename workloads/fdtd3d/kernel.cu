// fdtd3d: one step of the radius-4 3-D finite-difference stencil of the
// FDTD3d sample,
//   out = c[0]*in + sum_{r=1..4} c[r] * (in(x-r) + in(x+r) + in(y-r) + in(y+r) + in(z-r) + in(z+r)),
// on an nx x ny x nz grid (x fastest); points within 4 of a face are copied.
// The coefficients sit in constant memory (filled by the host).
//
// A CTA of 16 x 8 threads owns a 16 x 8 column of the xy plane and marches
// it along z: every thread keeps its 4 values behind, the current one and the
// 4 ahead in registers (a sliding window, each plane read from global memory
// once), while the current plane of the column with a 4-point halo (16 x 24
// floats) goes to shared memory for the x/y neighbours. The plane tile is
// double-buffered (2 x 1536 B) so one barrier per plane suffices: a thread may
// write the next plane's buffer while slower threads still read this one.
#define RAD 4
#define TX 16
#define TY 8
#define SW (TX + 2 * RAD)
#define SH (TY + 2 * RAD)

__constant__ float coef[RAD + 1];

extern "C" __global__ void fdtd3d(const float* __restrict__ in, float* __restrict__ out, int nx,
                                  int ny, int nz) {
  __shared__ float tile[2][SH][SW];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * TX + tx, y = blockIdx.y * TY + ty;
  const int cx = min(x, nx - 1), cy = min(y, ny - 1);
  const int slice = nx * ny;  // grids below 2^31 points: 32-bit offsets
  const int r = cy * nx + cx;
  const bool inside = x < nx && y < ny;
  const bool interior_xy = x >= RAD && x < nx - RAD && y >= RAD && y < ny - RAD;
  // Halo sources (clamped; only read for interior points, where they are in range).
  const int xw = min(max((int)blockIdx.x * TX - RAD + tx, 0), nx - 1);  // west halo column (tx < RAD)
  const int xe = min((int)blockIdx.x * TX + TX + tx, nx - 1);           // east halo column
  const int yn = min(max((int)blockIdx.y * TY - RAD + ty, 0), ny - 1);  // north halo row (ty < RAD)
  const int ys = min((int)blockIdx.y * TY + TY + ty, ny - 1);           // south halo row

  // Planes z < RAD and z >= nz - RAD are copied.
  for (int z = 0; z < min(RAD, nz); ++z)
    if (inside) out[z * slice + r] = in[z * slice + r];
  for (int z = max(nz - RAD, RAD); z < nz; ++z)
    if (inside) out[z * slice + r] = in[z * slice + r];
  if (nz <= 2 * RAD) return;

  float behind[RAD], ahead[RAD];
#pragma unroll
  for (int i = 0; i < RAD; ++i) {
    behind[i] = in[i * slice + r];               // z - RAD + i at z = RAD
    ahead[i] = in[(RAD + 1 + i) * slice + r];    // z + 1 + i
  }
  float cur = in[RAD * slice + r];
  int buf = 0;
  for (int z = RAD; z < nz - RAD; ++z) {
    const int zo = z * slice;
    float(*t)[SW] = tile[buf];
    t[ty + RAD][tx + RAD] = cur;
    if (tx < RAD) {
      t[ty + RAD][tx] = in[zo + cy * nx + xw];
      t[ty + RAD][tx + TX + RAD] = in[zo + cy * nx + xe];
    }
    if (ty < RAD) {
      t[ty][tx + RAD] = in[zo + yn * nx + cx];
      t[ty + TY + RAD][tx + RAD] = in[zo + ys * nx + cx];
    }
    __syncthreads();
    if (inside) {
      float v = cur;
      if (interior_xy) {
        v = coef[0] * cur;
#pragma unroll
        for (int k = 1; k <= RAD; ++k)
          v += coef[k] * (t[ty + RAD][tx + RAD - k] + t[ty + RAD][tx + RAD + k] +
                          t[ty + RAD - k][tx + RAD] + t[ty + RAD + k][tx + RAD] +
                          behind[RAD - k] + ahead[k - 1]);
      }
      out[zo + r] = v;
    }
    // Slide the window one plane up.
#pragma unroll
    for (int i = 0; i < RAD - 1; ++i) behind[i] = behind[i + 1];
    behind[RAD - 1] = cur;
    cur = ahead[0];
#pragma unroll
    for (int i = 0; i < RAD - 1; ++i) ahead[i] = ahead[i + 1];
    const int zn = z + 1 + RAD;  // the plane entering the window
    ahead[RAD - 1] = zn < nz ? in[zn * slice + r] : 0.f;
    buf ^= 1;
  }
}
