// nqueens: counting the solutions of the N-queens problem by depth-first
// search with an explicit stack in shared memory.
//
// The host places the queens of the first rows in every legal way and hands
// each partial board (a "prefix") to one thread as three bit masks over the
// columns of the next row: `cols` (columns already taken), `ld` and `rd`
// (columns attacked along the two diagonal directions). The thread places the
// remaining `levels` rows by backtracking. The state of every row of its
// search path -- the three masks and the set of still untried columns -- is
// kept in shared memory, one slot per (row, thread), so the CTA's shared
// memory (4 x NQ_MAX_LEVELS x NQ_THREADS words plus the reduction buffer) is
// what limits how many CTAs an SM can hold.
//
// Each thread counts the complete boards under its prefix; the CTA sums its
// threads' counts in shared memory and writes one count per CTA.
#define NQ_THREADS 96
#define NQ_MAX_LEVELS 10

extern "C" __global__ void nqueens_search(const unsigned* __restrict__ prefix_cols,
                                          const unsigned* __restrict__ prefix_ld,
                                          const unsigned* __restrict__ prefix_rd, int num_prefixes,
                                          int n, int levels, unsigned* __restrict__ cta_counts) {
  // Slot (row r, thread t) at r * NQ_THREADS + t: neighbouring threads use
  // neighbouring words.
  __shared__ unsigned st_cols[NQ_MAX_LEVELS * NQ_THREADS];
  __shared__ unsigned st_ld[NQ_MAX_LEVELS * NQ_THREADS];
  __shared__ unsigned st_rd[NQ_MAX_LEVELS * NQ_THREADS];
  __shared__ unsigned st_free[NQ_MAX_LEVELS * NQ_THREADS];
  __shared__ unsigned partial[NQ_THREADS];

  const int t = threadIdx.x;
  const int p = blockIdx.x * NQ_THREADS + t;
  const unsigned board = (1u << n) - 1u;
  unsigned found = 0;

  if (p < num_prefixes && levels > 0 && levels <= NQ_MAX_LEVELS) {
    // Row 0 of the stack: the prefix's state.
    unsigned c = prefix_cols[p], l = prefix_ld[p], r = prefix_rd[p];
    st_cols[t] = c;
    st_ld[t] = l;
    st_rd[t] = r;
    st_free[t] = board & ~(c | l | r);
    int depth = 0;
    while (depth >= 0) {
      const int slot = depth * NQ_THREADS + t;
      const unsigned avail = st_free[slot];
      if (avail == 0) {  // every column of this row tried: back up one row
        --depth;
        continue;
      }
      const unsigned q = avail & (0u - avail);  // lowest untried column
      st_free[slot] = avail ^ q;
      if (depth + 1 == levels) {  // that was the last row: a solution
        ++found;
        continue;
      }
      c = st_cols[slot] | q;
      l = (st_ld[slot] | q) << 1;
      r = (st_rd[slot] | q) >> 1;
      ++depth;
      const int next = slot + NQ_THREADS;
      st_cols[next] = c;
      st_ld[next] = l;
      st_rd[next] = r;
      st_free[next] = board & ~(c | l | r);
    }
  }

  // CTA sum of the per-thread counts (NQ_THREADS = 96 = 3 x 32: fold the
  // upper third onto the lower two, then halve).
  partial[t] = found;
  __syncthreads();
  if (t < 32) partial[t] += partial[t + 64];
  __syncthreads();
  for (int stride = 32; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) cta_counts[blockIdx.x] = partial[0];
}
