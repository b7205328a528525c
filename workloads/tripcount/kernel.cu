// tripcount: a per-thread loop whose trip count depends on the data. Thread i
// follows the Collatz map from start[i] (n -> n/2 if even, 3n+1 if odd, in
// 64-bit arithmetic) until it reaches 1, and records the number of steps and
// the largest value met. Neighbouring starts have unrelated trip counts, so the
// lanes of a warp leave the loop at very different iterations (and take the
// even/odd branch differently at every step): the warp keeps issuing for its
// longest lane while most lanes idle.
extern "C" __global__ void collatz_steps(const unsigned int* __restrict__ start,
                                         unsigned int* __restrict__ steps,
                                         unsigned long long* __restrict__ peak, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = start[i], top = v;
  unsigned int count = 0;
  while (v > 1) {
    if (v & 1) {
      v = 3 * v + 1;
      if (v > top) top = v;
    } else {
      v >>= 1;
    }
    ++count;
  }
  steps[i] = count;
  peak[i] = top;
}
