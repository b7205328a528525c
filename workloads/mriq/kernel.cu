// mriq: the Q matrix of non-Cartesian MRI reconstruction,
//   Q(x) = sum_k |phi_k|^2 * exp(i * 2*pi * (k . x)),
// for every voxel position x over every k-space sample k.
//
// mriq_phimag squares the magnitude of each sample's complex phi (one thread
// per sample). mriq_q then runs once per chunk of MRIQ_CHUNK samples: the host
// copies the chunk's (kx, ky, kz, |phi|^2) into the __constant__ array
// kchunk, and every thread (one per voxel) walks all samples of the chunk -
// the same address for the whole warp each iteration, i.e. constant-cache
// broadcasts - accumulating into its voxel's Qr/Qi, which live in global
// memory between launches. The phase k . x is in turns; subtracting the
// nearest integer first keeps the argument of the hardware sine/cosine in
// [-pi, pi], where their error is bounded (and small).
#define MRIQ_CHUNK 256
#define TWO_PI 6.2831853071795864769f

struct KSample {
  float kx, ky, kz, phi_mag;
};

__constant__ KSample kchunk[MRIQ_CHUNK];

extern "C" __global__ void mriq_phimag(const float* __restrict__ phi_r,
                                       const float* __restrict__ phi_i,
                                       float* __restrict__ phi_mag, int num_k) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < num_k) {
    const float r = phi_r[k], i = phi_i[k];
    phi_mag[k] = r * r + i * i;
  }
}

extern "C" __global__ void mriq_q(const float* __restrict__ x, const float* __restrict__ y,
                                  const float* __restrict__ z, float* __restrict__ q_r,
                                  float* __restrict__ q_i, int num_x, int chunk_len) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= num_x) return;
  const float px = x[v], py = y[v], pz = z[v];
  float qr = q_r[v], qi = q_i[v];
#pragma unroll 4
  for (int k = 0; k < chunk_len; ++k) {
    const KSample s = kchunk[k];
    const float turns = s.kx * px + s.ky * py + s.kz * pz;
    const float frac = turns - rintf(turns);  // exact; in [-0.5, 0.5]
    const float angle = TWO_PI * frac;
    qr += s.phi_mag * __cosf(angle);
    qi += s.phi_mag * __sinf(angle);
  }
  q_r[v] = qr;
  q_i[v] = qi;
}
