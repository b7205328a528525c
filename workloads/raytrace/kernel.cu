// raytrace: primary and shadow rays through a bounding-volume hierarchy of
// spheres, one thread per pixel. The BVH is a binary tree of axis-aligned
// boxes stored as two float4 per node:
//   lo = (min.x, min.y, min.z, first)   hi = (max.x, max.y, max.z, count)
// (first and count are int bit patterns). count > 0: a leaf holding spheres
// [first, first + count) of the sphere array (ordered by leaf); count == 0: an
// interior node whose children are nodes first and first + 1. Node 0 is the
// root. Spheres are float4 (centre, radius).
//
// Every thread walks the tree with its own stack (local memory): at an
// interior node it slab-tests both child boxes, descends into the nearer hit
// child and pushes the farther one with its entry distance; at a leaf it
// intersects the spheres; popped nodes whose entry distance lies beyond the
// nearest hit so far are skipped. A lit hit point then casts a shadow ray to
// the point light (any-hit walk: it stops at the first occluder). Lanes of a
// warp visit very different numbers of nodes (background rays end at the root,
// rays through a dense cluster visit dozens of nodes) and only some of them
// cast a shadow ray, so the warp issues for its longest lane.

#define STACK_DEPTH 32

// Ray/box slab test: entry distance of [0, tmax] into the box, or false.
__device__ __forceinline__ bool slab(const float4 lo, const float4 hi, float ox, float oy,
                                     float oz, float ix, float iy, float iz, float tmax,
                                     float* tenter) {
  const float ax = (lo.x - ox) * ix, bx = (hi.x - ox) * ix;
  const float ay = (lo.y - oy) * iy, by = (hi.y - oy) * iy;
  const float az = (lo.z - oz) * iz, bz = (hi.z - oz) * iz;
  const float t0 = fmaxf(fmaxf(fminf(ax, bx), fminf(ay, by)), fmaxf(fminf(az, bz), 0.0f));
  const float t1 = fminf(fminf(fmaxf(ax, bx), fmaxf(ay, by)), fminf(fmaxf(az, bz), tmax));
  *tenter = t0;
  return t0 <= t1;
}

// Nearest intersection t > 0 of the ray (o, unit d) with a sphere, or +inf.
// The discriminant is formed from the vector between the centre and its
// closest point on the ray (r^2 - |oc - b d|^2), not as b^2 - (|oc|^2 - r^2),
// which would cancel catastrophically for distant spheres.
__device__ __forceinline__ float sphere_t(const float4 s, float ox, float oy, float oz, float dx,
                                          float dy, float dz) {
  const float cx = ox - s.x, cy = oy - s.y, cz = oz - s.z;
  const float b = cx * dx + cy * dy + cz * dz;
  const float vx = cx - b * dx, vy = cy - b * dy, vz = cz - b * dz;
  const float disc = s.w * s.w - (vx * vx + vy * vy + vz * vz);
  if (disc < 0.0f) return __int_as_float(0x7f800000);
  const float q = sqrtf(disc);
  float t = -b - q;
  if (t <= 0.0f) t = -b + q;
  return t > 0.0f ? t : __int_as_float(0x7f800000);
}

// Walks the tree for the ray segment (0, tmax). any_hit: stop at the first
// intersection (shadow rays). Returns the index (into the sphere array) of the
// nearest sphere hit, or -1, and its distance in *t_hit.
__device__ int traverse(const float4* __restrict__ node_lo, const float4* __restrict__ node_hi,
                        const float4* __restrict__ spheres, float ox, float oy, float oz,
                        float dx, float dy, float dz, float tmax, bool any_hit, float* t_hit) {
  const float ix = 1.0f / dx, iy = 1.0f / dy, iz = 1.0f / dz;
  int stack_node[STACK_DEPTH];
  float stack_t[STACK_DEPTH];
  int sp = 0;
  float best = tmax;
  int best_k = -1;
  float t_root;
  if (!slab(node_lo[0], node_hi[0], ox, oy, oz, ix, iy, iz, best, &t_root)) {
    *t_hit = best;
    return -1;
  }
  int node = 0;
  for (;;) {
    const int first = __float_as_int(node_lo[node].w);
    const int count = __float_as_int(node_hi[node].w);
    bool descended = false;
    if (count > 0) {
      for (int k = first; k < first + count; ++k) {
        const float t = sphere_t(spheres[k], ox, oy, oz, dx, dy, dz);
        if (t < best) {
          best = t;
          best_k = k;
        }
      }
      if (any_hit && best_k >= 0) break;
    } else {
      float ta, tb;
      const bool ha = slab(node_lo[first], node_hi[first], ox, oy, oz, ix, iy, iz, best, &ta);
      const bool hb =
          slab(node_lo[first + 1], node_hi[first + 1], ox, oy, oz, ix, iy, iz, best, &tb);
      if (ha && hb) {
        const bool a_first = ta <= tb;
        stack_node[sp] = a_first ? first + 1 : first;
        stack_t[sp] = a_first ? tb : ta;
        ++sp;
        node = a_first ? first : first + 1;
        descended = true;
      } else if (ha || hb) {
        node = ha ? first : first + 1;
        descended = true;
      }
    }
    if (descended) continue;
    // Pop the nearest pending node that can still hold a nearer hit.
    bool popped = false;
    while (sp > 0) {
      --sp;
      if (stack_t[sp] < best) {
        node = stack_node[sp];
        popped = true;
        break;
      }
    }
    if (!popped) break;
  }
  *t_hit = best;
  return best_k;
}

// One thread per pixel. dirs: unit primary ray directions (w unused) from the
// camera at eye. Writes the original id of the nearest sphere (-1: miss), its
// distance (-1: miss) and a shade value: 0 for a miss, else ambient plus, when
// the light is in front of the surface and the shadow ray reaches it, the
// diffuse term kd * dot(n, l).
extern "C" __global__ void raytrace(const float4* __restrict__ node_lo,
                                    const float4* __restrict__ node_hi,
                                    const float4* __restrict__ spheres,
                                    const int* __restrict__ sphere_id,
                                    const float4* __restrict__ dirs, int n_rays, float eye_x,
                                    float eye_y, float eye_z, float light_x, float light_y,
                                    float light_z, float ambient, float kd, float shadow_offset,
                                    int* __restrict__ hit_id, float* __restrict__ hit_t,
                                    float* __restrict__ shade) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_rays) return;
  const float4 d = dirs[i];
  float t;
  const int k = traverse(node_lo, node_hi, spheres, eye_x, eye_y, eye_z, d.x, d.y, d.z,
                         3.0e38f, false, &t);
  if (k < 0) {
    hit_id[i] = -1;
    hit_t[i] = -1.0f;
    shade[i] = 0.0f;
    return;
  }
  const float4 s = spheres[k];
  const float px = eye_x + t * d.x, py = eye_y + t * d.y, pz = eye_z + t * d.z;
  const float inv_r = 1.0f / s.w;
  const float nx = (px - s.x) * inv_r, ny = (py - s.y) * inv_r, nz = (pz - s.z) * inv_r;
  float lx = light_x - px, ly = light_y - py, lz = light_z - pz;
  const float dist = sqrtf(lx * lx + ly * ly + lz * lz);
  lx /= dist, ly /= dist, lz /= dist;
  const float ndl = nx * lx + ny * ly + nz * lz;
  float value = ambient;
  if (ndl > 0.0f) {
    float ts;
    const int occluder = traverse(node_lo, node_hi, spheres, px + shadow_offset * nx,
                                  py + shadow_offset * ny, pz + shadow_offset * nz, lx, ly, lz,
                                  dist, true, &ts);
    if (occluder < 0) value += kd * ndl;
  }
  hit_id[i] = sphere_id[k];
  hit_t[i] = t;
  shade[i] = value;
}
