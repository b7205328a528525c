// spu_stencil: the 3-D iteration-space wavefront stencil of the SPU study,
//   H[i,j,k] = (H[i-1,j,k] + H[i,j-1,k] + H[i,j,k-1]) / 3,  0 <= i,j < N, 0 <= k < K,
// with boundary planes H[i,j,-1] = A[i,j], H[i,-1,k] = B[i,k], H[-1,j,k] = C[j,k].
//
// Tiling (tile side 32). The (i, j) plane is cut into 32 x 32 columns of tiles;
// one CTA of 8 x 8 threads owns one column (I, J) and walks its tiles in k
// order. Column (I, J) needs the whole east face of column (I-1, J) and the
// south face of column (I, J-1), so the host launches one kernel per column
// anti-diagonal d = I + J (columns on one diagonal are independent).
//
// Faces in global memory. fx[j][k] holds, for every j, the value just west of
// the next column to run in that row of columns: C[j][k] initially, and the
// east face H[min(32*I+31, N-1), j, k] once column (I, J) has run (in place: the
// only later reader is column (I+1, J), on the next diagonal). fy[i][k] is the
// same for the north/south faces (initially B). After the last diagonal fx and
// fy hold the east and south output faces H[N-1, j, k] and H[i, N-1, k]; out
// holds the bottom output plane H[i, j, K-1].
//
// Inside a tile. Thread (tx, ty) owns a 4 x 4 (i, j) sub-column of the tile:
// i = 4*tx + a, j = 4*ty + b. The unit of work is its 4 x 4 block at one k; block
// (tx, ty, k) depends on blocks (tx-1, ty, k), (tx, ty-1, k) and (tx, ty, k-1),
// so the CTA runs a wavefront over steps s = tx + ty + k (46 steps per tile,
// one __syncthreads each). The block of the previous k stays in the thread's
// registers (16 values; across k-tiles too, which plays the role of the
// k-face kept on chip), and a block passes its east and south edges (4 values
// each) to its neighbours through double-buffered shared arrays (by step
// parity). The tile's west and north input faces are staged in shared memory
// per k-tile; the threads at the east/south edge of the tile write the output
// faces into the same staging arrays (a location is overwritten only after
// its last read), which are then stored back to fx/fy with coalesced writes.
#define TB 32    // tile side
#define TS 4     // sub-tile side (points per thread in i and j)
#define TT 8     // threads per CTA side (TB / TS)

extern "C" __global__ void spu_stencil_diag(const float* __restrict__ A, float* fx, float* fy,
                                            float* __restrict__ out, int N, int K, int diag,
                                            int first_I) {
  __shared__ float west[TB][TB + 1];   // [local j][local k]: west input face, then east output face
  __shared__ float north[TB][TB + 1];  // [local i][local k]: north input face, then south output face
  __shared__ float edge_e[2][TT][TT][TS];  // [parity][tx][ty][b]: east edge of block (tx, ty)
  __shared__ float edge_s[2][TT][TT][TS];  // [parity][tx][ty][a]: south edge of block (tx, ty)

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * TT + tx;
  const int I = first_I + blockIdx.x;  // column of tiles (I, J) on diagonal I + J = diag
  const int J = diag - I;
  const int i0 = I * TB + tx * TS;     // this thread's first i and j
  const int j0 = J * TB + ty * TS;
  const int le = min(TB - 1, N - 1 - I * TB);  // local i of the tile's east face
  const int lf = min(TB - 1, N - 1 - J * TB);  // local j of the tile's south face

  // The previous-k plane of this thread's block: A at the start.
  float prev[TS][TS];
#pragma unroll
  for (int a = 0; a < TS; ++a)
#pragma unroll
    for (int b = 0; b < TS; ++b) {
      const int i = i0 + a, j = j0 + b;
      prev[a][b] = (i < N && j < N) ? A[(size_t)i * N + j] : 0.f;
    }

  for (int k0 = 0; k0 < K; k0 += TB) {
    // Stage the west face fx[J*32 + r][k0 + c] and the north face fy[I*32 + r][k0 + c].
    for (int e = tid; e < TB * TB; e += TT * TT) {
      const int r = e / TB, c = e % TB;
      const int jj = J * TB + r, ii = I * TB + r, kk = k0 + c;
      west[r][c] = (jj < N && kk < K) ? fx[(size_t)jj * K + kk] : 0.f;
      north[r][c] = (ii < N && kk < K) ? fy[(size_t)ii * K + kk] : 0.f;
    }
    __syncthreads();

    for (int s = 0; s < 2 * (TT - 1) + TB; ++s) {
      const int kl = s - tx - ty;  // local k of this thread's block at this step
      if (kl >= 0 && kl < TB && k0 + kl < K) {
        const int p = s & 1, q = p ^ 1;  // write parity, read parity (previous step)
        float w[TS], n[TS];
#pragma unroll
        for (int b = 0; b < TS; ++b) w[b] = tx == 0 ? west[ty * TS + b][kl] : edge_e[q][tx - 1][ty][b];
#pragma unroll
        for (int a = 0; a < TS; ++a) n[a] = ty == 0 ? north[tx * TS + a][kl] : edge_s[q][tx][ty - 1][a];
        // The block in dependence order: a (i) outer, b (j) inner.
#pragma unroll
        for (int a = 0; a < TS; ++a) {
          float left = n[a];  // H[i, j-1, k]
#pragma unroll
          for (int b = 0; b < TS; ++b) {
            const float up = a == 0 ? w[b] : prev[a - 1][b];  // H[i-1, j, k] (already updated row)
            const float h = (up + left + prev[a][b]) * (1.0f / 3.0f);
            prev[a][b] = h;
            left = h;
          }
        }
#pragma unroll
        for (int b = 0; b < TS; ++b) edge_e[p][tx][ty][b] = prev[TS - 1][b];
#pragma unroll
        for (int a = 0; a < TS; ++a) edge_s[p][tx][ty][a] = prev[a][TS - 1];
        // Output faces of the tile, into the staging arrays (their input
        // values at this k were read at least one step ago). The east face is
        // the tile's last row i = le (le < 31 in a partial last column), the
        // south face its last column j = lf.
#pragma unroll
        for (int a = 0; a < TS; ++a)
          if (tx * TS + a == le) {
#pragma unroll
            for (int b = 0; b < TS; ++b) west[ty * TS + b][kl] = prev[a][b];
          }
#pragma unroll
        for (int b = 0; b < TS; ++b)
          if (ty * TS + b == lf) {
#pragma unroll
            for (int a = 0; a < TS; ++a) north[tx * TS + a][kl] = prev[a][b];
          }
      }
      __syncthreads();
    }

    // Store the east and south faces of this tile over the consumed inputs.
    for (int e = tid; e < TB * TB; e += TT * TT) {
      const int r = e / TB, c = e % TB;
      const int jj = J * TB + r, ii = I * TB + r, kk = k0 + c;
      if (jj < N && kk < K) fx[(size_t)jj * K + kk] = west[r][c];
      if (ii < N && kk < K) fy[(size_t)ii * K + kk] = north[r][c];
    }
    __syncthreads();  // the staging arrays are reloaded for the next k-tile
  }

#pragma unroll
  for (int a = 0; a < TS; ++a)
#pragma unroll
    for (int b = 0; b < TS; ++b) {
      const int i = i0 + a, j = j0 + b;
      if (i < N && j < N) out[(size_t)i * N + j] = prev[a][b];
    }
}

// ---------------------------------------------------------------------------
// The same stencil on the Stencil Processing Unit (sim.platform = spu,
// docs/spu.md): one launch of gx x gy CTAs, CTA (I, J) on SM (I, J), and the
// interface units around the grid run this kernel too (spu.sreg isiu). Faces
// travel through the communication buffers instead of global memory: the west
// and north IUs load C and B faces into the grid, the east and south IUs store
// the faces leaving it into fx and fy (in place, as above: a row's C face is
// read before its east face is written), and only A and the bottom plane
// `out` are read and written by the SMs. Tile side b = blockDim.x (one thread
// per local i, b <= 64); a CB holds one b x b face of floats, element (r, kl)
// at byte 4 * (r * b + kl) (r = local j for west/east faces, local i for
// north/south faces). Inside a tile, plane by plane, the CTA runs a wavefront
// over il + jl (thread il computes H[i, j, k] from H[i-1, j, k] and H[i, j-1, k]
// of the same plane and H[i, j, k-1], kept in shared memory).
//
// Synchronisation (global_sync): 0 = the thesis's producer-consumer
// bar.blocksync per link (Alg. 3: north, west, compute, south, east per k-tile);
// 1 = the original global bar.blocksync (Alg. 1): gx + gy + nk steps, SM (I, J)
// computes k-tile kt at step I + J + kt + 1, the west/north IU of lane l loads
// face kt at step l + kt, the east (south) IU of lane l stores it at step
// gx (gy) + l + kt + 1; every unit ends every step with the barrier.

__device__ __forceinline__ float cb_ld_north(unsigned off) {
  float v;
  asm volatile("ld.cb.north.f32 %0, [%1];" : "=f"(v) : "r"(off) : "memory");
  return v;
}
__device__ __forceinline__ float cb_ld_west(unsigned off) {
  float v;
  asm volatile("ld.cb.west.f32 %0, [%1];" : "=f"(v) : "r"(off) : "memory");
  return v;
}
__device__ __forceinline__ void cb_st_south(unsigned off, float v) {
  asm volatile("st.cb.south.f32 [%0], %1;" ::"r"(off), "f"(v) : "memory");
}
__device__ __forceinline__ void cb_st_east(unsigned off, float v) {
  asm volatile("st.cb.east.f32 [%0], %1;" ::"r"(off), "f"(v) : "memory");
}
__device__ __forceinline__ void blocksync() { asm volatile("bar.blocksync;" ::: "memory"); }
__device__ __forceinline__ void blocksync_north() { asm volatile("bar.blocksync.north;" ::: "memory"); }
__device__ __forceinline__ void blocksync_west() { asm volatile("bar.blocksync.west;" ::: "memory"); }
__device__ __forceinline__ void blocksync_south() { asm volatile("bar.blocksync.south;" ::: "memory"); }
__device__ __forceinline__ void blocksync_east() { asm volatile("bar.blocksync.east;" ::: "memory"); }
#define SPU_SREG(NAME)                                                \
  __device__ __forceinline__ unsigned spu_##NAME() {                  \
    unsigned v;                                                       \
    asm volatile("spu.sreg.u32 %0, " #NAME ";" : "=r"(v));            \
    return v;                                                         \
  }
SPU_SREG(isiu)
SPU_SREG(iudir)
SPU_SREG(iuid)

enum { SPU_NORTH = 0, SPU_WEST = 1, SPU_SOUTH = 2, SPU_EAST = 3 };

// One b x b x b tile (k-tile kt) of SM (I, J): inputs from the north and west
// CBs, outputs to the south and east CBs. PLANE(il, jl) holds H[i, j, k-1]
// before and H[i, j, k] after plane k, row il of b + 1 floats (the padding
// keeps the threads' rows in different banks).
#define PLANE(il, jl) plane[(il) * (b + 1) + (jl)]
__device__ void spu_tile(float* plane, int b, int ni, int nj, int k0, int nkl) {
  const int t = threadIdx.x;
  for (int kl = 0; kl < nkl; ++kl) {
    for (int d = 0; d <= ni + nj - 2; ++d) {
      const int jl = d - t;
      if (t < ni && jl >= 0 && jl < nj) {
        const float up = t == 0 ? cb_ld_west(4u * unsigned(jl * b + kl)) : PLANE(t - 1, jl);
        const float left = jl == 0 ? cb_ld_north(4u * unsigned(t * b + kl)) : PLANE(t, jl - 1);
        const float h = (up + left + PLANE(t, jl)) * (1.0f / 3.0f);
        PLANE(t, jl) = h;
        if (t == ni - 1) cb_st_east(4u * unsigned(jl * b + kl), h);
        if (jl == nj - 1) cb_st_south(4u * unsigned(t * b + kl), h);
      }
      __syncthreads();
    }
  }
}

// An interface unit's face kt: west/north IUs load it from fx/fy (C/B) into
// their outgoing CB, east/south IUs store their incoming CB into fx/fy.
// Thread tid of nthreads moves elements tid, tid + nthreads, ... of the face.
__device__ void spu_iu_face(unsigned dir, int lane, float* fx, float* fy, int b, int N, int K, int kt, int tid,
                            int nthreads) {
  const int k0 = kt * b;
  for (int e = tid; e < b * b; e += nthreads) {
    const int r = e / b, kl = e % b;
    const int row = lane * b + r, k = k0 + kl;
    if (row >= N || k >= K) continue;
    const size_t g = (size_t)row * K + k;
    if (dir == SPU_WEST) cb_st_east(4u * unsigned(e), fx[g]);
    else if (dir == SPU_NORTH) cb_st_south(4u * unsigned(e), fy[g]);
    else if (dir == SPU_EAST) fx[g] = cb_ld_west(4u * unsigned(e));
    else fy[g] = cb_ld_north(4u * unsigned(e));
  }
}

// The interface units' part of the SPU kernels, shared by both so that the
// IUs' protocol does not depend on the SM code. Global sync: gx + gy + nk
// barrier steps (steps), the loading IU of lane l provides face kt at step l + kt,
// the storing IU takes it at step g + l + kt + 1 (g = gx east, gy south).
// Producer-consumer sync: one rendezvous per face on the IU's link. Thread
// tid of nthreads moves every nthreads-th element of a face.
__device__ __forceinline__ void spu_iu_role(float* fx, float* fy, int b, int N, int K, int nk, int steps,
                                            int global_sync, int tid, int nthreads) {
  const int gx = gridDim.x, gy = gridDim.y;
  const unsigned dir = spu_iudir();
  const int lane = int(spu_iuid());
  const bool loads = dir == SPU_WEST || dir == SPU_NORTH;
  if (global_sync) {
    const int first = loads ? lane : (dir == SPU_EAST ? gx : gy) + lane + 1;  // step of face 0
    for (int s = 0; s < steps; ++s) {
      const int kt = s - first;
      if (kt >= 0 && kt < nk) spu_iu_face(dir, lane, fx, fy, b, N, K, kt, tid, nthreads);
      blocksync();
    }
    return;
  }
  for (int kt = 0; kt < nk; ++kt) {
    if (dir == SPU_EAST) blocksync_west();
    if (dir == SPU_SOUTH) blocksync_north();
    spu_iu_face(dir, lane, fx, fy, b, N, K, kt, tid, nthreads);
    if (dir == SPU_WEST) blocksync_east();
    if (dir == SPU_NORTH) blocksync_south();
  }
}

extern "C" __global__ void spu_stencil_cb(const float* __restrict__ A, float* fx, float* fy,
                                          float* __restrict__ out, int N, int K, int global_sync) {
  __shared__ float plane[64 * 65];  // PLANE(il, jl), b <= 64 (static: no module-scope declaration)
  const int b = blockDim.x, t = threadIdx.x;
  const int gx = gridDim.x, gy = gridDim.y;
  const int nk = (K + b - 1) / b;
  const int steps = gx + gy + nk;

  if (spu_isiu()) {
    spu_iu_role(fx, fy, b, N, K, nk, steps, global_sync, threadIdx.x, blockDim.x);
    return;
  }

  const int I = blockIdx.x, J = blockIdx.y;
  const int ni = min(b, N - I * b), nj = min(b, N - J * b);
  const int i = I * b + t;
  for (int jl = 0; jl < nj; ++jl) PLANE(t, jl) = t < ni ? A[(size_t)i * N + J * b + jl] : 0.f;
  __syncthreads();
  // One loop and one call of spu_tile for both schemes: nvcc compiles the
  // tile once, so the schemes differ only in their synchronisation (two
  // inlined copies came out with different instruction counts and
  // instruction-cache footprints, which moved the cycles by more than the
  // synchronisation did; docs/studies/spu.md).
  for (int s = 0; s < (global_sync ? steps : nk); ++s) {
    const int kt = global_sync ? s - (I + J + 1) : s;
    if (!global_sync) {
      blocksync_north();
      blocksync_west();
    }
    if (kt >= 0 && kt < nk) spu_tile(plane, b, ni, nj, kt * b, min(b, K - kt * b));
    if (global_sync) {
      blocksync();
    } else {
      blocksync_south();
      blocksync_east();
    }
  }
  if (t < ni)
    for (int jl = 0; jl < nj; ++jl) out[(size_t)i * N + J * b + jl] = PLANE(t, jl);
}

// ---------------------------------------------------------------------------
// The GPU baseline of the SPU study (note §4.3): Ranasinghe's method, one
// launch for the whole stencil. The CTAs of a launch start in an order CUDA
// does not promise, so each CTA takes a ticket with atomicAdd and works on
// column t = ticket (row-major: I = t mod cols, J = t / cols). Column (I, J)
// depends only on columns with smaller tickets, which were handed to CTAs
// that already run, so waiting on them cannot deadlock whatever the number
// of resident CTAs. Per k-tile, thread 0 waits until flags[J][I-1] and
// flags[J-1][I] reach kt + 1 (the west and north producers have stored that
// k-tile's faces), the CTA computes the tile as spu_stencil_diag does, and
// after __threadfence thread 0 sets flags[J][I] = kt + 1. Flags are read
// and written with atomics so that every poll sees the L2's value. fx/fy
// are updated in place as in spu_stencil_diag: a row's consumer reads k-tile
// kt of the producer's output only after the flag says it is there, and the
// producer never writes that k-tile again.
//
// Tile side GB and sub-tile side GS are template parameters (CTA of
// GB/GS x GB/GS threads); the kernels below instantiate the pairs whose
// shared memory fits 48 KB, spu_stencil_gpu being Table 6.2's b = 32,
// sub-tile 4. The shared arrays are declared by each kernel (static
// function-scope arrays of a template would be module-scope in the PTX).
template <int GB, int GS>
__device__ __forceinline__ void stencil_gpu(const float* __restrict__ A, float* fx, float* fy,
                                            float* __restrict__ out, int N, int K, unsigned* ticket,
                                            unsigned* flags, float (*west)[GB + 1], float (*north)[GB + 1],
                                            float (*edge_e)[GB / GS][GB / GS][GS],
                                            float (*edge_s)[GB / GS][GB / GS][GS], int* column) {
  constexpr int GT = GB / GS;  // threads per CTA side
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * GT + tx;
  const int cols = (N + GB - 1) / GB;
  if (tid == 0) *column = int(atomicAdd(ticket, 1u));
  __syncthreads();
  const int I = *column % cols, J = *column / cols;
  const int i0 = I * GB + tx * GS;
  const int j0 = J * GB + ty * GS;
  const int le = min(GB - 1, N - 1 - I * GB);
  const int lf = min(GB - 1, N - 1 - J * GB);

  float prev[GS][GS];
#pragma unroll
  for (int a = 0; a < GS; ++a)
#pragma unroll
    for (int b = 0; b < GS; ++b) {
      const int i = i0 + a, j = j0 + b;
      prev[a][b] = (i < N && j < N) ? A[(size_t)i * N + j] : 0.f;
    }

  for (int k0 = 0; k0 < K; k0 += GB) {
    const unsigned need = unsigned(k0 / GB + 1);
    if (tid == 0) {
      if (I > 0)
        while (atomicAdd(&flags[J * cols + I - 1], 0u) < need) {
        }
      if (J > 0)
        while (atomicAdd(&flags[(J - 1) * cols + I], 0u) < need) {
        }
    }
    __syncthreads();
    for (int e = tid; e < GB * GB; e += GT * GT) {
      const int r = e / GB, c = e % GB;
      const int jj = J * GB + r, ii = I * GB + r, kk = k0 + c;
      west[r][c] = (jj < N && kk < K) ? fx[(size_t)jj * K + kk] : 0.f;
      north[r][c] = (ii < N && kk < K) ? fy[(size_t)ii * K + kk] : 0.f;
    }
    __syncthreads();

    for (int s = 0; s < 2 * (GT - 1) + GB; ++s) {
      const int kl = s - tx - ty;
      if (kl >= 0 && kl < GB && k0 + kl < K) {
        const int p = s & 1, q = p ^ 1;
        float w[GS], n[GS];
#pragma unroll
        for (int b = 0; b < GS; ++b) w[b] = tx == 0 ? west[ty * GS + b][kl] : edge_e[q][tx - 1][ty][b];
#pragma unroll
        for (int a = 0; a < GS; ++a) n[a] = ty == 0 ? north[tx * GS + a][kl] : edge_s[q][tx][ty - 1][a];
#pragma unroll
        for (int a = 0; a < GS; ++a) {
          float left = n[a];
#pragma unroll
          for (int b = 0; b < GS; ++b) {
            const float up = a == 0 ? w[b] : prev[a - 1][b];
            const float h = (up + left + prev[a][b]) * (1.0f / 3.0f);
            prev[a][b] = h;
            left = h;
          }
        }
#pragma unroll
        for (int b = 0; b < GS; ++b) edge_e[p][tx][ty][b] = prev[GS - 1][b];
#pragma unroll
        for (int a = 0; a < GS; ++a) edge_s[p][tx][ty][a] = prev[a][GS - 1];
#pragma unroll
        for (int a = 0; a < GS; ++a)
          if (tx * GS + a == le) {
#pragma unroll
            for (int b = 0; b < GS; ++b) west[ty * GS + b][kl] = prev[a][b];
          }
#pragma unroll
        for (int b = 0; b < GS; ++b)
          if (ty * GS + b == lf) {
#pragma unroll
            for (int a = 0; a < GS; ++a) north[tx * GS + a][kl] = prev[a][b];
          }
      }
      __syncthreads();
    }

    for (int e = tid; e < GB * GB; e += GT * GT) {
      const int r = e / GB, c = e % GB;
      const int jj = J * GB + r, ii = I * GB + r, kk = k0 + c;
      if (jj < N && kk < K) fx[(size_t)jj * K + kk] = west[r][c];
      if (ii < N && kk < K) fy[(size_t)ii * K + kk] = north[r][c];
    }
    __threadfence();
    __syncthreads();
    if (tid == 0) atomicExch(&flags[J * cols + I], need);
  }

#pragma unroll
  for (int a = 0; a < GS; ++a)
#pragma unroll
    for (int b = 0; b < GS; ++b) {
      const int i = i0 + a, j = j0 + b;
      if (i < N && j < N) out[(size_t)i * N + j] = prev[a][b];
    }
}

#define SPU_STENCIL_GPU(NAME, GB, GS)                                                                     \
  extern "C" __global__ void NAME(const float* __restrict__ A, float* fx, float* fy,                      \
                                  float* __restrict__ out, int N, int K, unsigned* ticket,                \
                                  unsigned* flags) {                                                      \
    __shared__ float west[GB][GB + 1];                                                                    \
    __shared__ float north[GB][GB + 1];                                                                   \
    __shared__ float edge_e[2][GB / GS][GB / GS][GS];                                                     \
    __shared__ float edge_s[2][GB / GS][GB / GS][GS];                                                     \
    __shared__ int column;                                                                                \
    stencil_gpu<GB, GS>(A, fx, fy, out, N, K, ticket, flags, west, north, edge_e, edge_s, &column);      \
  }

// Keep in step with kGpuTiles in driver.cpp.
SPU_STENCIL_GPU(spu_stencil_gpu, 32, 4)
SPU_STENCIL_GPU(spu_stencil_gpu_b16_s2, 16, 2)
SPU_STENCIL_GPU(spu_stencil_gpu_b16_s4, 16, 4)
SPU_STENCIL_GPU(spu_stencil_gpu_b32_s2, 32, 2)
SPU_STENCIL_GPU(spu_stencil_gpu_b32_s8, 32, 8)
SPU_STENCIL_GPU(spu_stencil_gpu_b64_s8, 64, 8)

// ---------------------------------------------------------------------------
// The sub-tiled SPU kernel (Table 6.2's organisation; --arg method=subtiled).
// Same launch, CB layout, IU code and synchronisation as spu_stencil_cb, but
// a CTA of T x T threads (T = blockDim.x = blockDim.y) computes a b x b x b
// tile with b = T * S: thread (tx, ty) owns the S x S (i, j) sub-column
// il = S tx + a, jl = S ty + c, as spu_stencil_gpu does. Block (tx, ty, kl)
// depends on blocks (tx-1, ty, kl), (tx, ty-1, kl) and (tx, ty, kl-1), so the
// CTA runs a wavefront over steps tx + ty + kl: 2 (T - 1) + b steps per tile,
// one __syncthreads each (46 for b = 32, S = 4, against the row kernel's
// b (2b - 1) = 2,016). The previous-k block stays in registers (across
// k-tiles too: the on-chip k-face). Threads with tx = 0 read the west face
// from the west CB and threads with ty = 0 the north face from the north CB
// (element (r, kl) at byte 4 (r b + kl), as the IUs write it); inner blocks
// take their neighbours' edges from shared arrays double-buffered by step
// parity. The threads owning the tile's last row il = ni - 1 (last column
// jl = nj - 1) store it into the east (south) CB at the step that computes
// it. Points of a partial tile beyond N are computed from whatever the CB
// holds there and never stored to memory: the recurrence only flows to
// larger i, j and k, so they cannot reach a point inside.
// S is a template parameter (the block lives in registers); T is at most
// 64 / S, which sizes the edge arrays (b <= 64, as the CBs allow).
template <int S>
__device__ __forceinline__ void spu_subtile_tile(float (&prev)[S][S], float* edge_e, float* edge_s, int b, int ni,
                                                 int nj, int nkl) {
  const int T = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  // edge_e[parity][tx][ty][c]: east edge of block (tx, ty); edge_s likewise.
  auto at = [&](int parity, int x, int y) { return ((parity * T + x) * T + y) * S; };
  for (int s = 0; s < 2 * (T - 1) + nkl; ++s) {
    const int kl = s - tx - ty;
    if (kl >= 0 && kl < nkl) {
      const int p = s & 1, q = p ^ 1;  // write parity, read parity (previous step)
      float w[S], n[S];
#pragma unroll
      for (int c = 0; c < S; ++c)
        w[c] = tx == 0 ? cb_ld_west(4u * unsigned((ty * S + c) * b + kl)) : edge_e[at(q, tx - 1, ty) + c];
#pragma unroll
      for (int a = 0; a < S; ++a)
        n[a] = ty == 0 ? cb_ld_north(4u * unsigned((tx * S + a) * b + kl)) : edge_s[at(q, tx, ty - 1) + a];
      // The block in dependence order: a (i) outer, c (j) inner.
#pragma unroll
      for (int a = 0; a < S; ++a) {
        float left = n[a];  // H[i, j-1, k]
#pragma unroll
        for (int c = 0; c < S; ++c) {
          const float up = a == 0 ? w[c] : prev[a - 1][c];  // H[i-1, j, k] (row a-1 already at k)
          const float h = (up + left + prev[a][c]) * (1.0f / 3.0f);
          prev[a][c] = h;
          left = h;
        }
      }
#pragma unroll
      for (int c = 0; c < S; ++c) edge_e[at(p, tx, ty) + c] = prev[S - 1][c];
#pragma unroll
      for (int a = 0; a < S; ++a) edge_s[at(p, tx, ty) + a] = prev[a][S - 1];
#pragma unroll
      for (int a = 0; a < S; ++a)
        if (tx * S + a == ni - 1) {
#pragma unroll
          for (int c = 0; c < S; ++c) cb_st_east(4u * unsigned((ty * S + c) * b + kl), prev[a][c]);
        }
#pragma unroll
      for (int c = 0; c < S; ++c)
        if (ty * S + c == nj - 1) {
#pragma unroll
          for (int a = 0; a < S; ++a) cb_st_south(4u * unsigned((tx * S + a) * b + kl), prev[a][c]);
        }
    }
    __syncthreads();
  }
}

template <int S>
__device__ __forceinline__ void spu_stencil_subtiled(const float* __restrict__ A, float* fx, float* fy,
                                                     float* __restrict__ out, int N, int K, int global_sync,
                                                     float* edge_e, float* edge_s) {
  const int T = blockDim.x, b = T * S;
  const int gx = gridDim.x, gy = gridDim.y;
  const int nk = (K + b - 1) / b;
  const int steps = gx + gy + nk;
  if (spu_isiu()) {
    spu_iu_role(fx, fy, b, N, K, nk, steps, global_sync, threadIdx.y * T + threadIdx.x, T * T);
    return;
  }
  const int I = blockIdx.x, J = blockIdx.y;
  const int ni = min(b, N - I * b), nj = min(b, N - J * b);
  const int i0 = I * b + threadIdx.x * S, j0 = J * b + threadIdx.y * S;
  float prev[S][S];  // H[i, j, k-1] of this thread's block: A before the first plane
#pragma unroll
  for (int a = 0; a < S; ++a)
#pragma unroll
    for (int c = 0; c < S; ++c)
      prev[a][c] = (i0 + a < N && j0 + c < N) ? A[(size_t)(i0 + a) * N + j0 + c] : 0.f;
  // One loop and one call of the tile for both schemes, as in spu_stencil_cb.
  for (int s = 0; s < (global_sync ? steps : nk); ++s) {
    const int kt = global_sync ? s - (I + J + 1) : s;
    if (!global_sync) {
      blocksync_north();
      blocksync_west();
    }
    if (kt >= 0 && kt < nk) spu_subtile_tile<S>(prev, edge_e, edge_s, b, ni, nj, min(b, K - kt * b));
    if (global_sync) {
      blocksync();
    } else {
      blocksync_south();
      blocksync_east();
    }
  }
#pragma unroll
  for (int a = 0; a < S; ++a)
#pragma unroll
    for (int c = 0; c < S; ++c)
      if (i0 + a < N && j0 + c < N) out[(size_t)(i0 + a) * N + j0 + c] = prev[a][c];
}

// One kernel per sub-tile side; the edge arrays are sized for T = 64 / S.
// Keep in step with kSpuSubtiles in driver.cpp.
#define SPU_STENCIL_SUBTILED(NAME, S)                                                                   \
  extern "C" __global__ void NAME(const float* __restrict__ A, float* fx, float* fy,                    \
                                  float* __restrict__ out, int N, int K, int global_sync) {             \
    __shared__ float edge_e[2 * (64 / S) * (64 / S) * S];                                               \
    __shared__ float edge_s[2 * (64 / S) * (64 / S) * S];                                               \
    spu_stencil_subtiled<S>(A, fx, fy, out, N, K, global_sync, edge_e, edge_s);                         \
  }

SPU_STENCIL_SUBTILED(spu_stencil_cb_s4, 4)
SPU_STENCIL_SUBTILED(spu_stencil_cb_s2, 2)
SPU_STENCIL_SUBTILED(spu_stencil_cb_s8, 8)
