// lavamd: pairwise particle interactions within a cut-off of one box
// (lavaMD-style). Space is a boxes^3 grid of unit boxes; box b holds
// count[b] <= MAXP particles stored from start[b] (positions pos[i] =
// (x, y, z, unused), charges q[i]). Every particle i of a box interacts with
// every particle j of its own box and of the (up to 26) adjacent boxes
// through a Gaussian kernel w = exp(-ALPHA |r_i - r_j|^2):
//   f[i].w   += q_j * w                         (potential)
//   f[i].xyz += q_j * 2 ALPHA * w * (r_i - r_j)  (force, -grad of the potential)
// (j = i contributes w = 1 and no force.)
//
// One CTA of 128 threads per home box. The CTA stages the home box's
// positions in shared memory once, then for each neighbour box its positions
// and charges (MAXP float4 + float4 + float = 7200 bytes of shared memory in
// all); thread t accumulates particles t and t + 128 of the home box in
// registers over every staged neighbour particle (shared-memory broadcasts).
#define MAXP 200
#define THREADS 128
#define ALPHA 0.5f

extern "C" __global__ void lavamd(const float4* __restrict__ pos, const float* __restrict__ q,
                                  const int* __restrict__ start, const int* __restrict__ count,
                                  int boxes, float4* __restrict__ f) {
  __shared__ float4 ra[MAXP];
  __shared__ float4 rb[MAXP];
  __shared__ float qb[MAXP];
  const int t = threadIdx.x;
  const int home = blockIdx.x;
  const int hx = home % boxes, hy = (home / boxes) % boxes, hz = home / (boxes * boxes);
  const int h0 = start[home], hn = count[home];
  for (int i = t; i < hn; i += THREADS) ra[i] = pos[h0 + i];

  float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f), acc1 = acc0;
  for (int nb = 0; nb < 27; ++nb) {
    const int nx = hx + nb % 3 - 1, ny = hy + (nb / 3) % 3 - 1, nz = hz + nb / 9 - 1;
    if (nx < 0 || ny < 0 || nz < 0 || nx >= boxes || ny >= boxes || nz >= boxes) continue;
    const int other = (nz * boxes + ny) * boxes + nx;
    const int o0 = start[other], on = count[other];
    __syncthreads();  // the previous neighbour's particles have been used
    for (int j = t; j < on; j += THREADS) {
      rb[j] = pos[o0 + j];
      qb[j] = q[o0 + j];
    }
    __syncthreads();
    if (t < hn) {
      const float4 a = ra[t];
      for (int j = 0; j < on; ++j) {
        const float4 b = rb[j];
        const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        const float w = expf(-ALPHA * (dx * dx + dy * dy + dz * dz));
        const float qw = qb[j] * w, fs = 2.f * ALPHA * qw;
        acc0.w += qw;
        acc0.x += fs * dx, acc0.y += fs * dy, acc0.z += fs * dz;
      }
    }
    if (t + THREADS < hn) {
      const float4 a = ra[t + THREADS];
      for (int j = 0; j < on; ++j) {
        const float4 b = rb[j];
        const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        const float w = expf(-ALPHA * (dx * dx + dy * dy + dz * dz));
        const float qw = qb[j] * w, fs = 2.f * ALPHA * qw;
        acc1.w += qw;
        acc1.x += fs * dx, acc1.y += fs * dy, acc1.z += fs * dz;
      }
    }
  }
  if (t < hn) f[h0 + t] = acc0;
  if (t + THREADS < hn) f[h0 + t + THREADS] = acc1;
}
