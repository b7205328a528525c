// marchcubes: marching-cubes triangle generation from a scalar field sampled
// on a (nx+1) x (ny+1) x (nz+1) grid of float samples (x fastest), nx*ny*nz
// voxels. Corner k of a voxel (k = 0..7) lies at offset
// (((k ^ (k >> 1)) & 1), (k >> 1) & 1, (k >> 2) & 1); edges 0..3 join corners
// 0-1, 1-2, 2-3, 3-0 of the bottom face (z = 0), edges 4..7 the same corners
// + 4 of the top face, edges 8..11 join corner k and k + 4. Bit k of a
// voxel's case number is set when the sample at corner k is below the iso
// value. The case tables (vertex count per case; per case a list of edge
// numbers, three per triangle) come from the host.
//
// mc_classify: one thread per voxel, writes the voxel's vertex count.
// mc_generate: one thread per active voxel (the host compacted the voxels
// with triangles and scanned their vertex counts). The thread interpolates
// the iso-crossing point and the field gradient on all 12 edges of its voxel
// into per-thread slots of shared-memory vertex/normal arrays (12 x float3 x
// 2 per thread: 9,216 B for a 32-thread CTA), then emits its triangles'
// vertices from there at its scanned offset.
#define MC_THREADS 32
#define MC_TRI_ROW 24  // entries per case in the triangle table (-1 terminated)

__device__ __forceinline__ int corner_dx(int k) { return (k ^ (k >> 1)) & 1; }
__device__ __forceinline__ int corner_dy(int k) { return (k >> 1) & 1; }
__device__ __forceinline__ int corner_dz(int k) { return (k >> 2) & 1; }
// The two corners of edge e.
__device__ __forceinline__ int edge_a(int e) { return e < 8 ? (e & 3) + (e & 4) : e - 8; }
__device__ __forceinline__ int edge_b(int e) { return e < 8 ? ((e + 1) & 3) + (e & 4) : e - 4; }

extern "C" __global__ void mc_classify(const float* __restrict__ field, int nx, int ny, int nz,
                                       float iso, const unsigned* __restrict__ case_verts,
                                       unsigned* __restrict__ voxel_verts) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nx * ny * nz) return;
  const int x = v % nx, y = (v / nx) % ny, z = v / (nx * ny);
  const int sx = nx + 1, sxy = (nx + 1) * (ny + 1);
  unsigned cube = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const float f = field[(z + corner_dz(k)) * sxy + (y + corner_dy(k)) * sx + x + corner_dx(k)];
    cube |= (f < iso ? 1u : 0u) << k;
  }
  voxel_verts[v] = case_verts[cube];
}

// Sample at (x, y, z) with coordinates clamped into the grid.
__device__ __forceinline__ float sample(const float* __restrict__ field, int x, int y, int z,
                                        int nx, int ny, int nz) {
  x = min(max(x, 0), nx);
  y = min(max(y, 0), ny);
  z = min(max(z, 0), nz);
  return field[(z * (ny + 1) + y) * (nx + 1) + x];
}

extern "C" __global__ void mc_generate(const float* __restrict__ field, int nx, int ny, int nz,
                                       float iso, float origin_x, float origin_y, float origin_z,
                                       float h, const unsigned* __restrict__ active,
                                       const unsigned* __restrict__ first_vertex, int num_active,
                                       const int* __restrict__ tri_table,
                                       const unsigned* __restrict__ case_verts,
                                       float4* __restrict__ pos, float4* __restrict__ nrm,
                                       unsigned max_verts) {
  __shared__ float3 vert[12 * MC_THREADS];
  __shared__ float3 norm[12 * MC_THREADS];
  const int t = threadIdx.x;
  const int i = blockIdx.x * MC_THREADS + t;
  if (i >= num_active) return;
  const int v = active[i];
  const int x = v % nx, y = (v / nx) % ny, z = v / (nx * ny);

  float f[8];
  float3 g[8];  // field gradient estimate (central differences), negated
  unsigned cube = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int cx = x + corner_dx(k), cy = y + corner_dy(k), cz = z + corner_dz(k);
    f[k] = sample(field, cx, cy, cz, nx, ny, nz);
    g[k].x = sample(field, cx - 1, cy, cz, nx, ny, nz) - sample(field, cx + 1, cy, cz, nx, ny, nz);
    g[k].y = sample(field, cx, cy - 1, cz, nx, ny, nz) - sample(field, cx, cy + 1, cz, nx, ny, nz);
    g[k].z = sample(field, cx, cy, cz - 1, nx, ny, nz) - sample(field, cx, cy, cz + 1, nx, ny, nz);
    cube |= (f[k] < iso ? 1u : 0u) << k;
  }

  // All 12 edges, crossing or not (the values of the others are never read).
  // The crossing point in grid units, (x, y, z) + corner a + s * (b - a), is
  // scaled by h and shifted by the origin.
  const float gx = x, gy = y, gz = z;
#pragma unroll
  for (int e = 0; e < 12; ++e) {
    const int a = edge_a(e), b = edge_b(e);
    const float s = (iso - f[a]) / (f[b] - f[a]);
    const float px = gx + corner_dx(a) + s * (corner_dx(b) - corner_dx(a));
    const float py = gy + corner_dy(a) + s * (corner_dy(b) - corner_dy(a));
    const float pz = gz + corner_dz(a) + s * (corner_dz(b) - corner_dz(a));
    vert[e * MC_THREADS + t] = make_float3(origin_x + px * h, origin_y + py * h, origin_z + pz * h);
    norm[e * MC_THREADS + t] = make_float3(g[a].x + s * (g[b].x - g[a].x), g[a].y + s * (g[b].y - g[a].y),
                                           g[a].z + s * (g[b].z - g[a].z));
  }

  const unsigned count = case_verts[cube];
  const unsigned base = first_vertex[i];
  for (unsigned k = 0; k < count; ++k) {
    const unsigned out = base + k;
    if (out >= max_verts) break;
    const int e = tri_table[cube * MC_TRI_ROW + k];
    const float3 p = vert[e * MC_THREADS + t];
    const float3 n = norm[e * MC_THREADS + t];
    pos[out] = make_float4(p.x, p.y, p.z, 1.0f);
    nrm[out] = make_float4(n.x, n.y, n.z, 0.0f);
  }
}
