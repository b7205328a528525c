// mdforce: the Lennard-Jones force loop of a molecular-dynamics step over a
// precomputed neighbour list, one thread per atom (reduced units: epsilon =
// sigma = 1). Atom i's neighbours are nbr[row_start[i] .. row_start[i+1]):
// every atom within the cutoff plus a skin. For each neighbour the thread forms
// the minimum-image displacement in the periodic cubic box and, when the pair
// lies inside the cutoff, adds the pair force
//   F = 24 (2 r^-14 - r^-8) * (x_i - x_j)
// and the shifted pair energy 4 (r^-12 - r^-6) - V(rc) (half of it is the
// atom's share). Liquid droplets in a dilute gas give neighbour counts from a
// handful to ~90: the loop's trip count differs between the lanes of a warp,
// and about a third of the listed pairs fail the cutoff test.
extern "C" __global__ void lj_force(const float4* __restrict__ pos,
                                    const int* __restrict__ row_start,
                                    const int* __restrict__ nbr, int n, float box,
                                    float inv_box, float rc2, float e_shift,
                                    float4* __restrict__ force_energy,
                                    unsigned int* __restrict__ pairs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
  unsigned int inside = 0;
  const int end = row_start[i + 1];
  for (int k = row_start[i]; k < end; ++k) {
    const float4 q = pos[nbr[k]];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    dx -= box * rintf(dx * inv_box);
    dy -= box * rintf(dy * inv_box);
    dz -= box * rintf(dz * inv_box);
    const float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < rc2) {
      const float ir2 = 1.0f / r2;
      const float ir6 = ir2 * ir2 * ir2;
      const float f = 24.0f * ir6 * (2.0f * ir6 - 1.0f) * ir2;
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
      e += 4.0f * ir6 * (ir6 - 1.0f) - e_shift;
      ++inside;
    }
  }
  force_energy[i] = make_float4(fx, fy, fz, 0.5f * e);
  pairs[i] = inside;
}
