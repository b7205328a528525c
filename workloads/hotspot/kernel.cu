// hotspot: one explicit time step of a 2-D compact thermal model of a chip.
//
// The die is a rows x cols grid of cells. Cell (i, j) with temperature T
// exchanges heat with its four neighbours through lateral thermal resistances
// (Rx to the east/west neighbours, Ry to the north/south ones) and with the
// ambient through the vertical resistance Rz, and dissipates power P[i][j]:
//
//   dT/dt = ( P + (T_E + T_W - 2T) / Rx + (T_N + T_S - 2T) / Ry + (T_amb - T) / Rz ) / Cap
//
// One forward-Euler step with step = dt / Cap gives the new temperature. The
// chip edge is adiabatic (no heat leaves sideways): a missing neighbour takes
// the cell's own temperature, i.e. the neighbour index is clamped into the grid.
// The host passes step, 1/Rx, 1/Ry, 1/Rz and T_amb, and ping-pongs temp_in and
// temp_out over the iterations (one launch per time step).
//
// Each 16 x 16 CTA stages its tile of temperatures plus a one-cell halo on each
// side (18 x 18, corners unused) in shared memory, then every thread computes
// its cell from shared memory. Threads past the grid edge load clamped
// (= edge) values, which is exactly the adiabatic boundary, and write nothing.
#define TILE 16

__device__ __forceinline__ int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

extern "C" __global__ void hotspot_step(const float* __restrict__ power,
                                        const float* __restrict__ temp_in,
                                        float* __restrict__ temp_out, int rows, int cols,
                                        float step, float inv_rx, float inv_ry, float inv_rz,
                                        float amb_temp) {
  __shared__ float t[TILE + 2][TILE + 2];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * TILE + ty;  // row of this thread's cell
  const int j = blockIdx.x * TILE + tx;  // column
  const int ci = clamp_index(i, rows), cj = clamp_index(j, cols);

  t[ty + 1][tx + 1] = temp_in[ci * cols + cj];
  if (ty == 0) t[0][tx + 1] = temp_in[clamp_index(i - 1, rows) * cols + cj];
  if (ty == TILE - 1) t[TILE + 1][tx + 1] = temp_in[clamp_index(i + 1, rows) * cols + cj];
  if (tx == 0) t[ty + 1][0] = temp_in[ci * cols + clamp_index(j - 1, cols)];
  if (tx == TILE - 1) t[ty + 1][TILE + 1] = temp_in[ci * cols + clamp_index(j + 1, cols)];
  __syncthreads();

  if (i < rows && j < cols) {
    const float T = t[ty + 1][tx + 1];
    const float lateral_x = (t[ty + 1][tx + 2] + t[ty + 1][tx] - 2.f * T) * inv_rx;
    const float lateral_y = (t[ty + 2][tx + 1] + t[ty][tx + 1] - 2.f * T) * inv_ry;
    const float vertical = (amb_temp - T) * inv_rz;
    temp_out[i * cols + j] = T + step * (power[i * cols + j] + lateral_x + lateral_y + vertical);
  }
}
