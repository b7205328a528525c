// radixsort: least-significant-digit radix sort of 32-bit keys carrying a
// 32-bit payload, 4-bit digits, 8 passes. One pass is three launches:
//
//   radix_histogram  per tile of 1024 keys (256 threads x 4 keys), count the
//                    keys of each of the 16 digit values in shared-memory
//                    counters; write the 16 counts digit-major,
//                    hist[digit * num_tiles + tile].
//   radix_scan       one CTA: exclusive prefix sum over the whole digit-major
//                    table, so hist[d * num_tiles + b] becomes the first output
//                    position of tile b's keys with digit d.
//   radix_scatter    per tile, a stable rank of every key among the tile's keys
//                    with the same digit, then the keys and payloads go to
//                    their output positions.
//
// Stable local ranking without warp primitives: thread t owns the 4
// consecutive keys 4t..4t+3 of its tile and counts them, in order, into its
// own column of a 16 x 256 shared-memory count matrix cnt[digit][thread]. An
// exclusive scan of that matrix read digit-major (digit, then thread) gives,
// for each cell, the number of tile keys with a smaller digit plus those with
// the same digit owned by lower threads; adding the key's running count within
// its thread yields its rank in the stably sorted tile. The keys are placed in
// shared memory in that order, then written out tile position by tile
// position, so consecutive threads write consecutive addresses of a digit's
// output range.
//
// Every thread runs the same instruction sequence (data-dependent addressing
// only): the only branches are "thread < 16" for the 16 per-digit values of a
// CTA. No shuffles, votes or warp-width assumptions, so the result is the
// same at any warp width. The driver pads the key array to whole tiles with
// 0xffffffff keys: being last in the input, a stable sort leaves them last.
#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)
#define RADIX 16
// The count matrix, padded by one cell per 16 so that thread t's run of 16
// digit-major cells (17t .. 17t + 15) and a warp's row of cells spread over
// the banks. 16-bit counters: no cell or prefix exceeds TILE.
#define CELLS (RADIX * THREADS + RADIX * THREADS / 16)

__device__ __forceinline__ unsigned cell(unsigned digit, unsigned thread) {
  const unsigned e = digit * THREADS + thread;
  return e + (e >> 4);
}

extern "C" __global__ void radix_histogram(const uint4* __restrict__ keys,
                                           unsigned* __restrict__ hist, int num_tiles,
                                           int shift) {
  __shared__ unsigned counts[RADIX];
  const unsigned t = threadIdx.x, tile = blockIdx.x;
  if (t < RADIX) counts[t] = 0;
  __syncthreads();
  const uint4 k = keys[tile * THREADS + t];
  atomicAdd(&counts[(k.x >> shift) & (RADIX - 1)], 1u);
  atomicAdd(&counts[(k.y >> shift) & (RADIX - 1)], 1u);
  atomicAdd(&counts[(k.z >> shift) & (RADIX - 1)], 1u);
  atomicAdd(&counts[(k.w >> shift) & (RADIX - 1)], 1u);
  __syncthreads();
  if (t < RADIX) hist[t * num_tiles + tile] = counts[t];
}

// Inclusive Hillis-Steele scan of one value per thread over the CTA. Lanes
// below the offset add zero (a select, not a branch), so all lanes run every
// step. Returns the inclusive prefix; buf is 2 x THREADS words.
__device__ __forceinline__ unsigned cta_inclusive_scan(unsigned v, unsigned* buf) {
  const unsigned t = threadIdx.x;
  unsigned cur = 0;
  buf[t] = v;
  __syncthreads();
#pragma unroll
  for (unsigned off = 1; off < THREADS; off <<= 1) {
    const unsigned other = buf[cur * THREADS + (t >= off ? t - off : t)];
    v += t >= off ? other : 0u;
    cur ^= 1u;
    buf[cur * THREADS + t] = v;
    __syncthreads();
  }
  return v;
}

// One CTA of THREADS threads; m (the table length) is a multiple of THREADS.
// Thread t scans the m / THREADS consecutive entries starting at t * (m / THREADS).
extern "C" __global__ void radix_scan(unsigned* __restrict__ hist, int m) {
  __shared__ unsigned buf[2 * THREADS];
  const unsigned t = threadIdx.x;
  const unsigned chunk = (unsigned)m / THREADS;
  unsigned* mine = hist + t * chunk;
  unsigned sum = 0;
  for (unsigned i = 0; i < chunk; ++i) sum += mine[i];
  unsigned run = cta_inclusive_scan(sum, buf) - sum;
  for (unsigned i = 0; i < chunk; ++i) {
    const unsigned c = mine[i];
    mine[i] = run;
    run += c;
  }
}

extern "C" __global__ void radix_scatter(const uint4* __restrict__ keys_in,
                                         const uint4* __restrict__ vals_in,
                                         unsigned* __restrict__ keys_out,
                                         unsigned* __restrict__ vals_out,
                                         const unsigned* __restrict__ offsets, int num_tiles,
                                         int shift) {
  // Count matrix, reused for staging the ranked tile (TILE keys + TILE payloads
  // = 8 KB <= CELLS * 2 bytes).
  __shared__ unsigned raw[CELLS / 2];
  __shared__ unsigned scan_buf[2 * THREADS];
  __shared__ unsigned digit_base[RADIX];
  unsigned short* cnt = reinterpret_cast<unsigned short*>(raw);
  const unsigned t = threadIdx.x, tile = blockIdx.x;

  const uint4 k4 = keys_in[tile * THREADS + t];
  const unsigned key[ITEMS] = {k4.x, k4.y, k4.z, k4.w};

  // Count this thread's keys, in input order, into its own column.
#pragma unroll
  for (unsigned d = 0; d < RADIX; ++d) cnt[cell(d, t)] = 0;
  unsigned rank[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned c = cell((key[j] >> shift) & (RADIX - 1), t);
    rank[j] = cnt[c];
    cnt[c] = (unsigned short)(rank[j] + 1);
  }
  __syncthreads();

  // Exclusive scan of the matrix in digit-major order: thread t owns the 16
  // consecutive cells 16t .. 16t + 15 (stored at 17t .. 17t + 15).
  unsigned short* run_cells = cnt + 17 * t;
  unsigned sum = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i) sum += run_cells[i];
  unsigned run = cta_inclusive_scan(sum, scan_buf) - sum;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    const unsigned c = run_cells[i];
    run_cells[i] = (unsigned short)run;
    run += c;
  }
  __syncthreads();

  // Rank of each key in the stably sorted tile.
  unsigned pos[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) pos[j] = cnt[cell((key[j] >> shift) & (RADIX - 1), t)] + rank[j];
  // Output position of tile position p holding digit d: offsets[d][tile] + p -
  // (tile position of the first key with digit d).
  if (t < RADIX) digit_base[t] = offsets[t * num_tiles + tile] - cnt[cell(t, 0)];
  __syncthreads();  // the matrix is read; reuse it for staging

  // The payloads are only needed from here on (fewer live registers).
  const uint4 v4 = vals_in[tile * THREADS + t];
  const unsigned val[ITEMS] = {v4.x, v4.y, v4.z, v4.w};
  unsigned* stage_keys = raw;
  unsigned* stage_vals = raw + TILE;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    stage_keys[pos[j]] = key[j];
    stage_vals[pos[j]] = val[j];
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned p = j * THREADS + t;
    const unsigned k = stage_keys[p];
    const unsigned dst = digit_base[(k >> shift) & (RADIX - 1)] + p;
    keys_out[dst] = k;
    vals_out[dst] = stage_vals[p];
  }
}
