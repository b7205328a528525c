// histogram: 256-bin histogram of n bytes.
//
// Every CTA keeps one private 256-bin sub-histogram per group of 32 threads in
// shared memory (fewer threads contend for one counter than with a single
// per-CTA histogram), cleared at the start. Threads walk the input as 32-bit
// words in a grid-stride loop and count each word's four bytes with shared
// atomics; the n % 4 tail bytes are counted by the first threads of CTA 0.
// After a barrier, each thread sums one bin over the CTA's sub-histograms and
// merges it into the global histogram with one atomicAdd (skipped when zero).
// The data pointer must be 4-byte aligned (device allocations are).
#define BINS 256
#define GROUP 32       // threads sharing one sub-histogram
#define MAX_GROUPS 8   // CTAs of up to 256 threads

extern "C" __global__ void histogram256(const unsigned char* __restrict__ data, unsigned n,
                                        unsigned* __restrict__ bins) {
  __shared__ unsigned sub[MAX_GROUPS][BINS];

  const unsigned tid = threadIdx.x;
  for (unsigned k = tid; k < MAX_GROUPS * BINS; k += blockDim.x) (&sub[0][0])[k] = 0;
  __syncthreads();

  unsigned* my = sub[tid / GROUP];
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const unsigned num_words = n / 4;
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned w = blockIdx.x * blockDim.x + tid; w < num_words; w += stride) {
    const unsigned x = words[w];
    atomicAdd(&my[x & 0xFFu], 1u);
    atomicAdd(&my[(x >> 8) & 0xFFu], 1u);
    atomicAdd(&my[(x >> 16) & 0xFFu], 1u);
    atomicAdd(&my[x >> 24], 1u);
  }
  if (blockIdx.x == 0 && tid < n % 4) atomicAdd(&my[data[num_words * 4 + tid]], 1u);
  __syncthreads();

  const unsigned groups = (blockDim.x + GROUP - 1) / GROUP;
  for (unsigned b = tid; b < BINS; b += blockDim.x) {
    unsigned total = 0;
    for (unsigned g = 0; g < groups; ++g) total += sub[g][b];
    if (total != 0) atomicAdd(&bins[b], total);
  }
}
