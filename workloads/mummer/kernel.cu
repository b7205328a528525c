// mummer: exact-match search of short reads against a reference through a
// suffix trie (MUMmerGPU-style: one thread per read, pointer-chasing walks).
//
// The host builds a suffix trie of the reference truncated at depth
// max_depth: node n has four children child[4n + c] (c = base 0..3, -1 when
// absent) and first_pos[n], the smallest reference position at which the
// string spelled by the path to n occurs (root: 0). The reads are stored
// 2 bits per base, 16 bases per 32-bit word, each read padded to whole words.
//
// Thread r takes read r and, for every start offset s, walks from the root
// along read[s..] as far as the trie allows (at most max_depth bases and not
// past the read's end): the match length d(s) is the length of the longest
// prefix of read[s..] that occurs in the reference (capped at max_depth).
// It reports the sum of d(s) over s, the number of offsets whose match is at
// least min_match bases long (the matches MUMmer would report), the maximum d
// and the reference position of the first offset that reaches the maximum.
extern "C" __global__ void mummer_match(const int* __restrict__ child,
                                        const int* __restrict__ first_pos,
                                        const unsigned* __restrict__ reads, int read_len,
                                        int words_per_read, int num_reads, int max_depth, int min_match,
                                        int* __restrict__ total_out, int* __restrict__ hits_out,
                                        int* __restrict__ best_out,
                                        int* __restrict__ best_pos_out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= num_reads) return;
  const unsigned* read = reads + (size_t)r * words_per_read;
  int total = 0, hits = 0, best = -1, best_pos = 0;
  for (int s = 0; s < read_len; ++s) {
    const int limit = min(max_depth, read_len - s);
    int node = 0, d = 0;
    int p = s;                           // base position in the read
    unsigned word = read[p >> 4] >> ((p & 15) * 2);
    while (d < limit) {
      const int next = child[4 * node + (word & 3u)];
      if (next < 0) break;
      node = next;
      ++d;
      ++p;
      word = (p & 15) ? word >> 2 : (p < read_len ? read[p >> 4] : 0u);
    }
    total += d;
    hits += d >= min_match;
    if (d > best) {
      best = d;
      best_pos = first_pos[node];
    }
  }
  total_out[r] = total;
  hits_out[r] = hits;
  best_out[r] = best;
  best_pos_out[r] = best_pos;
}
