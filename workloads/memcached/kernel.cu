// memcached: the GET path of a GPU key-value store. One thread per request:
// hash the request's key byte by byte (32-bit FNV-1a), pick the bucket, walk
// its chain of entries and, for each entry, compare the lengths and then the
// key bytes one at a time; a match yields the entry's value, the end of the
// chain a miss (-1). Keys have variable lengths and chains variable lengths, so
// lanes diverge; the key bytes of one thread share cache lines (intra-thread
// locality) while the lanes of a warp touch unrelated lines.
//
// Table layout: bucket_head[b] is the first entry of bucket b (-1: empty);
// entry e has its key at key_pool[entry_key_off[e] .. + entry_key_len[e]),
// its value entry_value[e] and the next entry of its chain entry_next[e].
extern "C" __global__ void memcached_get(const unsigned char* __restrict__ req_pool,
                                         const int* __restrict__ req_off,
                                         const int* __restrict__ req_len, int nreq,
                                         const int* __restrict__ bucket_head, int nbuckets,
                                         const unsigned char* __restrict__ key_pool,
                                         const int* __restrict__ entry_key_off,
                                         const int* __restrict__ entry_key_len,
                                         const int* __restrict__ entry_next,
                                         const int* __restrict__ entry_value,
                                         int* __restrict__ result) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreq) return;
  const unsigned char* key = req_pool + req_off[r];
  const int len = req_len[r];
  unsigned int h = 2166136261u;
  for (int i = 0; i < len; ++i) h = (h ^ key[i]) * 16777619u;
  int found = -1;
  for (int e = bucket_head[h % (unsigned int)nbuckets]; e >= 0; e = entry_next[e]) {
    if (entry_key_len[e] != len) continue;
    const unsigned char* stored = key_pool + entry_key_off[e];
    int i = 0;
    while (i < len && stored[i] == key[i]) ++i;
    if (i == len) {
      found = entry_value[e];
      break;
    }
  }
  result[r] = found;
}
