// btree: range queries on a B+ tree of order ORDER held as flat arrays
// (findRangeK-style: one CTA of ORDER threads per query, one thread per key
// slot of the node being visited).
//
// Node n has nkeys[n] <= ORDER keys keys[n][0..] (ascending) and as many
// entries child[n][0..]. In an inner node key t is the smallest key below
// child t, so a search key k belongs to the child t with keys[t] <= k <
// keys[t+1] (child 0 also takes keys below keys[0], the last child keys above
// its key). Leaves hold the data keys; child[] of a leaf is the position of
// each key in the sorted key array. Every leaf is `depth` levels below the
// root (node 0).
//
// A query [lo, hi] walks two root-to-leaf paths at once, one for lo and one
// for hi: at each level thread t tests whether slot t of the current lo-node
// (and of the hi-node) is the child to descend into; the single thread that
// matches publishes the child in shared memory. At the leaves, the thread
// holding the first key >= lo gives the position `start` and the thread
// holding the first key > hi gives `end`; the answer is start and the number
// of keys in the range, end - start.
#define ORDER 508

extern "C" __global__ void btree_find_range(const int* __restrict__ keys,
                                            const int* __restrict__ child,
                                            const int* __restrict__ nkeys, int depth,
                                            const int* __restrict__ q_lo,
                                            const int* __restrict__ q_hi,
                                            int* __restrict__ start_out,
                                            int* __restrict__ count_out, int num_queries) {
  __shared__ int node_lo, node_hi, pos_lo, pos_hi;
  const int t = threadIdx.x;
  for (int q = blockIdx.x; q < num_queries; q += gridDim.x) {
    const int lo = q_lo[q], hi = q_hi[q];
    if (t == 0) node_lo = node_hi = 0;
    __syncthreads();
    for (int level = 0; level < depth; ++level) {
      const int nl = node_lo, nh = node_hi;
      const int cl = nkeys[nl], ch = nkeys[nh];
      int found_lo = -1, found_hi = -1;
      if (t < cl) {
        const int* k = keys + (size_t)nl * ORDER;
        const bool above_me = t == 0 || k[t] <= lo;
        const bool below_next = t + 1 == cl || lo < k[t + 1];
        if (above_me && below_next) found_lo = child[(size_t)nl * ORDER + t];
      }
      if (t < ch) {
        const int* k = keys + (size_t)nh * ORDER;
        const bool above_me = t == 0 || k[t] <= hi;
        const bool below_next = t + 1 == ch || hi < k[t + 1];
        if (above_me && below_next) found_hi = child[(size_t)nh * ORDER + t];
      }
      __syncthreads();  // all have read node_lo / node_hi
      if (found_lo >= 0) node_lo = found_lo;
      if (found_hi >= 0) node_hi = found_hi;
      __syncthreads();
    }
    // Leaves: first key >= lo and first key > hi (or one past the leaf's end).
    const int ll = node_lo, lh = node_hi;
    const int cl = nkeys[ll], ch = nkeys[lh];
    if (t < cl) {
      const int* k = keys + (size_t)ll * ORDER;
      const int* c = child + (size_t)ll * ORDER;
      const int kt = k[t];
      if (kt >= lo && (t == 0 || k[t - 1] < lo)) pos_lo = c[t];
      if (t == cl - 1 && kt < lo) pos_lo = c[t] + 1;
    }
    if (t < ch) {
      const int* k = keys + (size_t)lh * ORDER;
      const int* c = child + (size_t)lh * ORDER;
      const int kt = k[t];
      if (kt > hi && (t == 0 || k[t - 1] <= hi)) pos_hi = c[t];
      if (t == ch - 1 && kt <= hi) pos_hi = c[t] + 1;
    }
    __syncthreads();
    if (t == 0) {
      start_out[q] = pos_lo;
      count_out[q] = pos_hi - pos_lo;
    }
    __syncthreads();  // pos_* and node_* are reused by the next query
  }
}
