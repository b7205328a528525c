// halfexit: a particle-update kernel in which about half of every warp exits
// at once. Particle i is in a 2-D box [0, W] x [0, inf) under gravity, with
// fixed-point (16.16) integer position and velocity. A particle whose kinetic
// energy is below a threshold is "at rest": its thread copies the state and
// returns immediately. Each moving particle is integrated for `steps` explicit
// steps (vy -= g; x += vx; y += vy), bouncing off the floor (y and vy
// reflected, vy damped to 3/4) and off the side walls (x and vx reflected).
// The at-rest particles are scattered, so roughly half the lanes of each warp
// are idle for the whole loop. Integer arithmetic keeps the result exact.
extern "C" __global__ void particles_step(const int4* __restrict__ in, int4* __restrict__ out,
                                          int n, int steps, int width, int gravity,
                                          long long rest_energy) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int4 p = in[i];  // x, y, vx, vy
  const long long e = (long long)p.z * p.z + (long long)p.w * p.w;
  if (e < rest_energy) {  // at rest: leave now
    out[i] = p;
    return;
  }
  for (int s = 0; s < steps; ++s) {
    p.w -= gravity;
    p.x += p.z;
    p.y += p.w;
    if (p.y < 0) {
      p.y = -p.y;
      p.w = -(p.w * 3 / 4);
    }
    if (p.x < 0) {
      p.x = -p.x;
      p.z = -p.z;
    } else if (p.x > width) {
      p.x = 2 * width - p.x;
      p.z = -p.z;
    }
  }
  out[i] = p;
}
